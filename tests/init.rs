//! `hantei init`: for every system, the scaffolded repo's own CI passes —
//! the hantei commands of the generated workflow, parsed out of it, run
//! green in it (its checks hold, its outputs are current, nothing moved);
//! existing files are never overwritten (exit 2, naming them).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{git, hantei, Scratch};

const SYSTEMS: [&str; 6] = [
    "d20",
    "multiplier",
    "keep-highest",
    "levels",
    "hit-pool",
    "dice",
];
const WORKFLOW: &str = ".github/workflows/hantei.yml";

/// The workflow's `run: hantei …` commands, and its top-level `env:` values
/// that are plain (not GitHub expressions).
fn workflow_commands(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let commands = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run: "))
        .filter(|c| c.starts_with("hantei "))
        .map(str::to_string)
        .collect();
    let mut env = Vec::new();
    let mut in_env = false;
    for l in text.lines() {
        if l == "env:" {
            in_env = true;
            continue;
        }
        if in_env {
            if !l.starts_with("  ") && !l.is_empty() {
                break;
            }
            let t = l.trim();
            if t.starts_with('#') || t.is_empty() {
                continue;
            }
            let (k, v) = t.split_once(": ").expect("KEY: value");
            if !v.contains("${{") {
                env.push((k.to_string(), v.trim_matches(['"', '\'']).to_string()));
            }
        }
    }
    (commands, env)
}

/// The directory of the `hantei` binary under test.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_hantei"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Run a workflow command with bash, as the runner would, with hantei on
/// the PATH.
fn run_step(dir: &Path, command: &str, env: &[(String, String)]) -> (i32, String) {
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .args(["-e", "-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .expect("bash runs");
    (
        o.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

#[test]
fn every_systems_scaffold_passes_its_own_workflow() {
    for system in SYSTEMS {
        let scratch = Scratch::new(&format!("init-{system}"));
        let dir = scratch.join("rules");
        let o = hantei()
            .arg("init")
            .arg(&dir)
            .args(["--system", system])
            .output()
            .unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{system}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        for f in [
            format!("analyses/{system}.toml"),
            format!("output/{system}.csv"),
            format!("output/{system}.md"),
            format!("output/{system}.svg"),
            format!("output/{system}.png"),
            format!("output/{system}.checks.md"),
            WORKFLOW.to_string(),
            "README.md".to_string(),
        ] {
            assert!(dir.join(&f).is_file(), "{system}: {f} missing\n{out}");
            assert!(
                out.contains(&format!("  {f}\n")),
                "{system}: {f} not listed\n{out}"
            );
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(readme.contains(&format!("| `analyses/{system}.toml` |")));
        assert!(readme.contains(&format!("| `{WORKFLOW}` |")));

        // The pull request's view: the base branch is the commit init made.
        git(&dir, &["init", "-q"]);
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-qm", "hantei init"]);
        let text = std::fs::read_to_string(dir.join(WORKFLOW)).unwrap();
        let (commands, mut env) = workflow_commands(&text);
        assert!(
            commands[0].starts_with("hantei check --format junit")
                && commands[1] == "hantei run --check"
                && commands[2].starts_with("hantei diff --format md"),
            "{commands:?}"
        );
        assert_eq!(commands.len(), 3, "{commands:?}");
        assert!(env.iter().any(|(k, v)| k == "HANTEI_TOLERANCE" && v == "0"));
        // GitHub sets this to origin/<base branch> on a pull request.
        assert!(text.contains("HANTEI_DIFF_AGAINST: ${{ github.event_name == 'pull_request' && format('origin/{0}', github.base_ref) || 'output' }}"));
        env.push(("HANTEI_DIFF_AGAINST".into(), "HEAD".into()));
        for c in &commands {
            let (code, out) = run_step(&dir, c, &env);
            assert_eq!(code, 0, "{system}: `{c}` failed:\n{out}");
        }
        // The artifacts: a JUnit report with every check passing, and the
        // diff saying nothing moved.
        let xml = std::fs::read_to_string(dir.join("hantei-check.xml")).unwrap();
        let doc = roxmltree::Document::parse(&xml).expect("well-formed JUnit");
        assert_eq!(doc.root_element().attribute("failures"), Some("0"), "{xml}");
        let cases = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count();
        assert!(cases >= 5, "{system}: {cases} checks");
        let md = std::fs::read_to_string(dir.join("hantei-diff.md")).unwrap();
        assert!(md.starts_with("### hantei diff: no odds moved"), "{md}");
        assert!(md.contains("`HEAD:output/`"), "{md}");
    }
}

#[test]
fn a_change_the_workflow_would_catch() {
    // A scaffold whose rule is changed and regenerated: the workflow's
    // checks still pass (the change keeps the invariants) but its diff
    // against the base fails, at tolerance 0.
    let scratch = Scratch::new("init-change");
    let dir = scratch.join("rules");
    assert!(hantei()
        .arg("init")
        .arg(&dir)
        .args(["--system", "hit-pool"])
        .output()
        .unwrap()
        .status
        .success());
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "hantei init"]);
    let path = dir.join("analyses/hit-pool.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("range = [1, 12]", "range = [1, 13]")).unwrap();
    assert!(hantei()
        .arg("run")
        .current_dir(&dir)
        .output()
        .unwrap()
        .status
        .success());
    let (commands, mut env) =
        workflow_commands(&std::fs::read_to_string(dir.join(WORKFLOW)).unwrap());
    env.push(("HANTEI_DIFF_AGAINST".into(), "HEAD".into()));
    for c in &commands {
        let (code, out) = run_step(&dir, c, &env);
        assert_eq!(code, 0, "`{c}`: a grown sweep is not a failure\n{out}");
    }
    let md = std::fs::read_to_string(dir.join("hantei-diff.md")).unwrap();
    assert!(md.contains("12 added and 0 removed cells"), "{md}");

    // A real change of the rule: SR5's glitch rule moves glitch odds.
    std::fs::write(
        &path,
        text.replace(
            "system = \"hit-pool\"\n",
            "system = \"hit-pool\"\nparams = { glitch-rule = \"more-than-half\" }\n",
        ),
    )
    .unwrap();
    let (code, out) = run_step(&dir, &commands[2], &env);
    assert_eq!(code, 1, "{out}");
    let md = std::fs::read_to_string(dir.join("hantei-diff.md")).unwrap();
    // Two dice: 11/36 under the seed's rule, 1/36 under SR5's (RULES.md §5).
    assert!(
        md.contains("| hit-pool | hit-pool.csv | threshold=1, pool=2 | p_glitch | 30.56% → 2.78% | -27.78 pp | **beyond tolerance** |"),
        "{md}"
    );
}

#[test]
fn existing_files_are_never_overwritten() {
    let scratch = Scratch::new("init-refuse");
    let dir = scratch.join("rules");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("README.md"), "my own README\n").unwrap();
    let o = hantei().arg("init").arg(&dir).output().unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("refusing to overwrite"), "{err}");
    assert!(
        err.contains("README.md") && !err.contains("d20.toml"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("README.md")).unwrap(),
        "my own README\n"
    );
    assert!(!dir.join("analyses").exists() && !dir.join("output").exists());

    // A second init over a first: every file is named, none is touched.
    std::fs::remove_file(dir.join("README.md")).unwrap();
    assert!(hantei()
        .arg("init")
        .arg(&dir)
        .output()
        .unwrap()
        .status
        .success());
    let before = std::fs::read(dir.join("analyses/d20.toml")).unwrap();
    std::fs::write(dir.join("analyses/d20.toml"), "edited\n").unwrap();
    let o = hantei().arg("init").arg(&dir).output().unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(2), "{err}");
    for f in [
        "analyses/d20.toml",
        "output/d20.csv",
        "output/d20.checks.md",
        WORKFLOW,
        "README.md",
    ] {
        assert!(err.contains(f), "{f} not named: {err}");
    }
    assert_eq!(
        std::fs::read(dir.join("analyses/d20.toml")).unwrap(),
        b"edited\n"
    );
    assert_ne!(before, b"edited\n");
}

#[test]
fn the_workflow_installs_from_the_given_source() {
    let scratch = Scratch::new("init-source");
    let o = hantei()
        .arg("init")
        .arg(scratch.join("a"))
        .args(["--hantei-source", "https://example.org/hantei.git"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(scratch.join("a").join(WORKFLOW)).unwrap();
    assert!(text.contains("  HANTEI_SOURCE: 'https://example.org/hantei.git'\n"));
    assert!(text.contains("cargo install --locked --git \"$HANTEI_SOURCE\" hantei"));
    assert!(text.contains("cargo install --locked --path \"$HANTEI_SOURCE\""));

    // The default: a directory of the repo (a submodule, say).
    assert!(hantei()
        .arg("init")
        .arg(scratch.join("b"))
        .output()
        .unwrap()
        .status
        .success());
    let text = std::fs::read_to_string(scratch.join("b").join(WORKFLOW)).unwrap();
    assert!(text.contains("  HANTEI_SOURCE: 'hantei'\n"));

    let o = hantei()
        .arg("init")
        .arg(scratch.join("c"))
        .args(["--system", "dice-pool"])
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("dice-pool") && err.contains("keep-highest"),
        "{err}"
    );
}
