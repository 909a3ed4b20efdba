//! The guide (`docs/guide.md`) cannot rot: every `$` line of its
//! ```` ```console ```` blocks runs, in order, in one fresh directory, with
//! the `hantei` under test on the PATH, and must print what the guide shows
//! after it (standard error and output together, as on a terminal) and exit
//! as it says (`# exits N`, else 0). A block after `<!-- file: PATH -->` is
//! written to PATH first.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{repo, Scratch};

/// One thing the guide does.
#[derive(Debug)]
enum Step {
    /// Save a file.
    File {
        line: usize,
        path: String,
        text: String,
    },
    /// Run a command and compare what it prints.
    Run {
        line: usize,
        command: String,
        expected: Vec<String>,
        exit: i32,
    },
}

/// The steps of the guide, in order.
fn steps(md: &str) -> Vec<Step> {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let file = l
            .strip_prefix("<!-- file: ")
            .and_then(|r| r.strip_suffix(" -->"));
        if file.is_some() {
            assert!(
                lines.get(i + 1).is_some_and(|n| n.starts_with("```")),
                "guide line {}: a file marker must be followed by its block",
                i + 1
            );
        }
        if let Some(info) = l.strip_prefix("```").filter(|_| file.is_none()) {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "```")
                .unwrap_or_else(|| panic!("guide line {}: unclosed block", i + 1));
            let body = &lines[i + 1..end];
            let marker = (i > 0)
                .then(|| lines[i - 1])
                .and_then(|p| p.strip_prefix("<!-- file: "))
                .and_then(|r| r.strip_suffix(" -->"));
            if let Some(path) = marker {
                out.push(Step::File {
                    line: i + 1,
                    path: path.to_string(),
                    text: body.join("\n") + "\n",
                });
            } else if info == "console" {
                for (k, b) in body.iter().enumerate() {
                    if let Some(cmd) = b.strip_prefix("$ ") {
                        let (command, exit) = match cmd.rsplit_once(" # exits ") {
                            Some((c, n)) => (c.trim_end(), n.parse().expect("# exits N")),
                            None => (cmd, 0),
                        };
                        out.push(Step::Run {
                            line: i + 2 + k,
                            command: command.to_string(),
                            expected: Vec::new(),
                            exit,
                        });
                    } else {
                        match out.last_mut() {
                            Some(Step::Run { expected, .. }) => expected.push(b.to_string()),
                            _ => panic!("guide line {}: output before any command", i + 2 + k),
                        }
                    }
                }
            }
            i = end + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// Lines without trailing spaces, and without trailing empty lines.
fn normalize(lines: &[String]) -> Vec<String> {
    let mut v: Vec<String> = lines.iter().map(|l| l.trim_end().to_string()).collect();
    while v.last().is_some_and(String::is_empty) {
        v.pop();
    }
    v
}

/// Whether `actual` is `expected`, a line `…` standing for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.first() {
        None => actual.is_empty(),
        Some(e) if e == "…" => (0..=actual.len()).any(|k| matches(&expected[1..], &actual[k..])),
        Some(e) => actual.first() == Some(e) && matches(&expected[1..], &actual[1..]),
    }
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_hantei"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn every_command_in_the_guide_prints_what_the_guide_shows() {
    let md = std::fs::read_to_string(repo("docs/guide.md")).unwrap();
    let steps = steps(&md);
    // The guide walks through every command a designer uses, in all three
    // jobs; an unparsed guide must not pass for a clean one.
    let commands: Vec<&str> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Run { command, .. } => Some(command.as_str()),
            Step::File { .. } => None,
        })
        .collect();
    for sub in [
        "hantei odds",
        "hantei run",
        "hantei init",
        "hantei check",
        "hantei diff",
    ] {
        assert!(
            commands.iter().any(|c| c.starts_with(sub)),
            "the guide never runs {sub}"
        );
    }
    assert!(commands.len() >= 20, "{} commands", commands.len());

    let failures = run_steps(&steps, "guide");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every mechanic of MECHANICS.md in `docs/mechanics.md`, each command run.
#[test]
fn every_command_in_the_mechanics_page_prints_what_it_shows() {
    let md = std::fs::read_to_string(repo("docs/mechanics.md")).unwrap();
    let steps = steps(&md);
    for k in 1..=24 {
        assert!(
            md.contains(&format!("## W{k}. ")),
            "docs/mechanics.md lacks W{k}"
        );
    }
    let runs = steps
        .iter()
        .filter(|s| matches!(s, Step::Run { .. }))
        .count();
    assert!(runs >= 24, "{runs} commands");
    let failures = run_steps(&steps, "mechanics");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Run a document's steps in one fresh directory; the failures.
fn run_steps(steps: &[Step], name: &str) -> Vec<String> {
    let scratch = Scratch::new(name);
    let mut cwd = scratch.0.clone();
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for step in steps {
        match step {
            Step::File { line, path, text } => {
                let p = cwd.join(path);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, text)
                    .unwrap_or_else(|e| panic!("guide line {line}: cannot write {path}: {e}"));
            }
            Step::Run {
                line,
                command,
                expected,
                exit,
            } => {
                if let Some(dir) = command.strip_prefix("cd ") {
                    cwd = cwd.join(dir.trim());
                    assert!(cwd.is_dir(), "guide line {line}: no directory {dir}");
                    assert!(expected.is_empty(), "guide line {line}: cd prints nothing");
                    continue;
                }
                let o = Command::new("bash")
                    .arg("-c")
                    .arg(format!("{{ {command}\n}} 2>&1"))
                    .current_dir(&cwd)
                    .env("PATH", &path)
                    .env("LC_ALL", "C")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null")
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_AUTHOR_NAME", "A Designer")
                    .env("GIT_AUTHOR_EMAIL", "designer@example.invalid")
                    .env("GIT_COMMITTER_NAME", "A Designer")
                    .env("GIT_COMMITTER_EMAIL", "designer@example.invalid")
                    .output()
                    .expect("bash runs");
                let actual: Vec<String> = String::from_utf8_lossy(&o.stdout)
                    .lines()
                    .map(str::to_string)
                    .collect();
                let (want, got) = (normalize(expected), normalize(&actual));
                let code = o.status.code().unwrap_or(-1);
                if !matches(&want, &got) || code != *exit {
                    failures.push(format!(
                        "guide line {line}: $ {command}\n--- the guide shows (exit {exit}):\n{}\n--- it printed (exit {code}):\n{}\n",
                        want.join("\n"),
                        got.join("\n")
                    ));
                }
            }
        }
    }
    failures
}

#[test]
fn the_wildcard_line_stands_for_any_lines_and_nothing_else() {
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(matches(&v(&["a", "…"]), &v(&["a", "b", "c"])));
    assert!(matches(&v(&["a", "…", "c"]), &v(&["a", "c"])));
    assert!(!matches(&v(&["a", "…", "c"]), &v(&["a", "b"])));
    assert!(!matches(&v(&["a", "b"]), &v(&["a", "b", "c"])));
    assert!(!matches(&v(&["a"]), &v(&["b"])));
}

/// The `hantei …` commands of the README's ```` ```sh ```` blocks (and the
/// `mkdir -p …` lines they need), with their line numbers.
fn readme_commands(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for (i, l) in md.lines().enumerate() {
        if let Some(info) = l.strip_prefix("```") {
            in_sh = !in_sh && info.trim() == "sh";
            continue;
        }
        if in_sh && (l.starts_with("hantei ") || l.starts_with("mkdir -p ")) {
            out.push((i + 1, l.to_string()));
        }
    }
    out
}

/// Every entry under `dir`, relative, recursively.
fn tree(dir: &Path) -> std::collections::BTreeSet<PathBuf> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            out.insert(p.strip_prefix(dir).unwrap().to_path_buf());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Issue 21: the README's commands are pasted into shells. Each runs through
/// `bash -c` (so an unquoted `>=19` is the redirection it would be) with the
/// `hantei` under test on the PATH, in a scratch copy of `analyses/` and
/// `output/`, and must exit 0 and create no file but the ones it names
/// (`> FILE`, `hantei init DIR`, `--out DIR`). Not run: `hantei serve`
/// (serves until Ctrl-C), `hantei verify` (minutes of Monte Carlo), `diff
/// --against origin/main` (needs a remote); `/tmp/` is the scratch's, `man`
/// a stub that checks its page exists, `~` a scratch home.
#[test]
fn every_command_in_the_readme_runs_in_a_shell() {
    let md = std::fs::read_to_string(repo("README.md")).unwrap();
    let commands = readme_commands(&md);
    assert!(
        commands
            .iter()
            .any(|(_, c)| c.starts_with("hantei odds dice") && c.contains("--tier")),
        "the README's dice examples were not found"
    );
    let scratch = Scratch::new("readme");
    let work = scratch.join("work");
    copy_dir(&repo("analyses"), &work.join("analyses"));
    copy_dir(&repo("output"), &work.join("output"));
    copy_dir(&repo("output"), &work.join("old-output"));
    let home = scratch.join("home");
    // No completions folder: the README makes it (issue 30).
    std::fs::create_dir_all(&home).unwrap();
    let stubs = scratch.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    std::fs::write(stubs.join("man"), "#!/bin/sh\ntest -s \"$1\"\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(stubs.join("man"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let path = format!(
        "{}:{}:{}",
        bin_dir().display(),
        stubs.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let tmp = scratch.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    for (line, command) in &commands {
        if command.starts_with("hantei serve")
            || command.starts_with("hantei verify")
            || command.contains("--against origin/")
        {
            continue;
        }
        let run = command.replace("/tmp/", &format!("{}/", tmp.display()));
        // Files the command names: redirection targets, an init's
        // directory.
        let words: Vec<&str> = run.split_whitespace().collect();
        let mut named: Vec<PathBuf> = words
            .windows(2)
            .filter(|w| w[0] == ">")
            .map(|w| PathBuf::from(w[1]))
            .collect();
        if words.len() > 2 && words[1] == "init" {
            named.push(PathBuf::from(words[2]));
        }
        let before = tree(&work);
        let o = Command::new("bash")
            .arg("-c")
            .arg(&run)
            .current_dir(&work)
            .env("PATH", &path)
            .env("HOME", &home)
            .env("LC_ALL", "C")
            .output()
            .expect("bash runs");
        ran += 1;
        let stray: Vec<PathBuf> = tree(&work)
            .difference(&before)
            .filter(|p| !named.iter().any(|n| p.starts_with(n)))
            .cloned()
            .collect();
        if !o.status.success() || !stray.is_empty() {
            failures.push(format!(
                "README line {line}: {command}\n  exit {:?}, new files {stray:?}\n  {}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        // A stray file must not hide the next command's.
        for p in &stray {
            let _ = std::fs::remove_file(work.join(p));
        }
    }
    assert!(ran >= 20, "only {ran} README commands ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `$ hantei odds dice …` line of docs/mechanics.md whose command
/// starts with `start`, run with `--format json` (and `--exact`).
fn mechanics_json(start: &str, exact: bool) -> serde_json::Value {
    let md = std::fs::read_to_string(repo("docs/mechanics.md")).unwrap();
    let line = md
        .lines()
        .find_map(|l| {
            l.strip_prefix("$ hantei odds dice ")
                .filter(|c| c.starts_with(start))
        })
        .unwrap_or_else(|| panic!("docs/mechanics.md has no command {start}"));
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{} odds dice {line} {} --format json",
            env!("CARGO_BIN_EXE_hantei"),
            if exact { "--exact" } else { "" }
        ))
        .output()
        .expect("bash runs");
    assert!(
        o.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Issue 30: each variant docs/mechanics.md names has its own command, and
/// each reads what the rule says. The values are counted by hand (and by a
/// brute-force enumeration of the faces outside hantei):
/// * W1 Bless: the natural 1 and 20 are the d20's (1/20 each), not d20 + d4;
///   d20 2–19 with d20 + d4 ≥ 10 is 50 of 80 pairs.
/// * W1 advantage: a critical needs either d20 at 20, 1 − (19/20)² = 39/400.
/// * W4 zero dice: the lower of 2d6; 4+ on both and not two sixes, 8/36.
/// * W14 advantage: the critical is hope == fear, 12/144, whatever the d6.
/// * W16: beating 11 is more than 11 (811 of 1280 rolls of d10 d8 d8 d6);
///   a miss with a hitch is not a success.
/// * W12: one bonus die at 60, a 00 with a 1 (19/1000 for the critical);
///   one penalty die, every result ≤ 60: 360 of 1000 (the game command's
///   `CC(-1)<=60`).
/// * W15: the mean is that of the net successes: E = 2·5/8 + 10/12 − 2·4/8.
/// * W24 skill 16: the critical failure is 18 alone, 1/216.
#[test]
fn the_mechanics_page_variants_read_the_rules() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            "\"1D20[d20]+5+1D4\"",
            &[("fumble", "1/20"), ("critical", "1/20"), ("hit", "5/8")],
        ),
        (
            "\"2D20KH1[d20]+5\"",
            &[("critical", "39/400"), ("fumble", "1/400"), ("hit", "7/10")],
        ),
        (
            "\"2D6KL1\"",
            &[("full", "1/36"), ("partial", "2/9"), ("bad", "3/4")],
        ),
        (
            "\"1D12[hope]+1D12[fear]+1D6+2\"",
            &[("critical", "1/12"), ("success with hope", "329/864")],
        ),
        ("\"1D12[hope]+1D12[fear]-1D6+2\"", &[("critical", "1/12")]),
        (
            "\"{1D{0,2,3,4,5,6,7,8,9,10}",
            &[
                ("p_success", "811/1280"),
                ("miss with a hitch", "197/960"),
                ("botch", "1/3840"),
            ],
        ),
        (
            "\"2D{0,10,20,30,40,50,60,70,80,90}KL1[tens]",
            &[
                ("critical", "19/1000"),
                ("fumble", "1/1000"),
                ("extreme", "41/200"),
                ("hard", "143/500"),
                ("regular", "33/100"),
            ],
        ),
        (
            "\"2D{0,10,20,30,40,50,60,70,80,90}KH1[tens]",
            &[
                ("critical", "1/1000"),
                ("fumble", "19/1000"),
                ("p_success", "9/25"),
            ],
        ),
        (
            "\"2D{0,1,1,2,a",
            &[("mean", "13/12"), ("variance", "703/288")],
        ),
        (
            "\"3D6\" --tier \"critical success:natural<=6\"",
            &[("critical failure", "1/216"), ("critical success", "5/54")],
        ),
    ];
    for (start, want) in cases {
        let v = mechanics_json(start, true);
        for (key, value) in *want {
            let got = v["outcomes"]
                .get(*key)
                .or_else(|| v.get(*key))
                .unwrap_or_else(|| panic!("{start}: no {key} in {v}"));
            assert_eq!(got.as_str(), Some(*value), "{start}: {key}");
        }
    }
}

/// Issue 30 (W6): `5D10ro<8!` rerolls every die below 8 once, each die a
/// 10 adds included; the rulebook's rote rerolls only the first roll's
/// failures, which `5D10ri<8!` does (issue 28). Both laws by a recursion on
/// one die's successes here: `ro` equals the first (17.05% exceptional at
/// five dice), `ri` the second (10.93%).
#[test]
fn the_rote_command_computes_what_the_page_says() {
    // Successes of one die: (law with every die rerolled below 8 once,
    // law with a plain 10-again chain).
    fn chain(depth: usize, rote: bool) -> Vec<f64> {
        let mut out = vec![0.0; depth + 2];
        if depth == 0 {
            out[0] = 1.0;
            return out;
        }
        let sub = chain(depth - 1, rote);
        for k in 1..=10 {
            let p = if !rote {
                0.1
            } else if k >= 8 {
                0.1 + 0.07
            } else {
                0.07
            };
            if k == 10 {
                for (y, q) in sub.iter().enumerate() {
                    out[y + 1] += p * q;
                }
            } else {
                out[usize::from(k >= 8)] += p;
            }
        }
        out
    }
    fn faithful(depth: usize) -> Vec<f64> {
        let plain = chain(depth, false);
        let mut out = vec![0.0; plain.len() + 1];
        for k in 1..=10 {
            let p = if k >= 8 { 0.17 } else { 0.07 };
            if k == 10 {
                for (y, q) in plain.iter().enumerate() {
                    out[y + 1] += p * q;
                }
            } else {
                out[usize::from(k >= 8)] += p;
            }
        }
        out
    }
    fn exceptional(die: &[f64], n: usize) -> f64 {
        let mut pool = vec![1.0];
        for _ in 0..n {
            let mut next = vec![0.0; pool.len() + die.len()];
            for (a, p) in pool.iter().enumerate() {
                for (b, q) in die.iter().enumerate() {
                    next[a + b] += p * q;
                }
            }
            pool = next;
        }
        pool.iter().skip(5).sum()
    }
    let chained = exceptional(&chain(20, true), 5);
    let first_only = exceptional(&faithful(20), 5);
    assert!((chained - 0.170466).abs() < 1e-6, "{chained}");
    assert!((first_only - 0.109307).abs() < 1e-6, "{first_only}");
    let v = mechanics_json("\"5D10ro<8!\"", false);
    let got = v["outcomes"]["exceptional"].as_f64().unwrap();
    assert!((got - chained).abs() < 1e-9, "{got} vs {chained}");
    // Issue 28: the faithful rote, `ri` (the initial face only).
    let v = mechanics_json("\"5D10ri<8!\"", false);
    let got = v["outcomes"]["exceptional"].as_f64().unwrap();
    assert!((got - first_only).abs() < 1e-9, "{got} vs {first_only}");
    let md = std::fs::read_to_string(repo("docs/mechanics.md")).unwrap();
    assert!(md.contains("17.05% where the rote gives 10.93%"));
}
