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

/// The `hantei …` commands of the README's ```` ```sh ```` blocks, with
/// their line numbers.
fn readme_commands(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for (i, l) in md.lines().enumerate() {
        if let Some(info) = l.strip_prefix("```") {
            in_sh = !in_sh && info.trim() == "sh";
            continue;
        }
        if in_sh && l.starts_with("hantei ") {
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
    std::fs::create_dir_all(home.join(".local/share/bash-completion/completions")).unwrap();
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
