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
