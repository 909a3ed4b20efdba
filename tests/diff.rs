//! `hantei diff`: the committed outputs are what the analyses produce; a rule
//! change moves exactly the cells a brute-force count of the d20 faces says
//! it moves, by the amounts it says, largest first; a grown or shrunk sweep
//! lists cells as added or removed without failing; the committed tables
//! can come from another directory or a git revision; every format is well
//! formed; bad input exits 2.

use std::path::Path;

use serde_json::Value;

use crate::common::{git, hantei, repo, Scratch};

/// The d20 rule counted face by face (RULES.md §2): a natural 20 succeeds,
/// a natural 1 fails, otherwise the face + modifier must reach the DC.
/// Advantage keeps the higher of two d20, disadvantage the lower.
fn d20_oracle(modifier: i64, dc: i64, roll: &str) -> f64 {
    let ok = |f: i64| f == 20 || (f != 1 && f + modifier >= dc);
    let mut hits = 0;
    let mut all = 0;
    for a in 1..=20 {
        for b in 1..=20 {
            let kept = match roll {
                "normal" => a,
                "advantage" => a.max(b),
                "disadvantage" => a.min(b),
                _ => unreachable!(),
            };
            all += 1;
            hits += i32::from(ok(kept));
        }
    }
    f64::from(hits) / f64::from(all)
}

const ROLLS: [&str; 3] = ["normal", "advantage", "disadvantage"];

/// A small d20 analysis: P(success) by roll and DC.
fn rule(modifier: i64, dcs: &str) -> String {
    format!(
        r#"title = "a d20 rule"
system = "d20"
params = {{ modifier = {modifier} }}
metrics = ["p_success"]

[[axis]]
name = "roll"
variants = [
  {{ label = "normal" }},
  {{ label = "advantage", advantage = true }},
  {{ label = "disadvantage", disadvantage = true }},
]

[[axis]]
param = "dc"
{dcs}
"#
    )
}

/// A rules repo with `rule.toml` rendered into `output/`.
fn rules_repo(tag: &str, modifier: i64, dcs: &str) -> Scratch {
    let dir = Scratch::new(tag);
    std::fs::create_dir_all(dir.join("analyses")).unwrap();
    std::fs::write(dir.join("analyses/rule.toml"), rule(modifier, dcs)).unwrap();
    let o = hantei().arg("run").current_dir(&dir.0).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = hantei()
        .arg("diff")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn json(dir: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(dir, &all);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    (code, serde_json::from_str(&out).expect("JSON"))
}

/// The cells the oracle says a change of modifier moves, as
/// (roll, dc, old, new), largest change first.
fn expected_moves(old_mod: i64, new_mod: i64, dcs: &[i64]) -> Vec<(String, i64, f64, f64)> {
    let mut v: Vec<(String, i64, f64, f64)> = ROLLS
        .iter()
        .flat_map(|r| dcs.iter().map(move |&dc| (r.to_string(), dc)))
        .map(|(r, dc)| {
            let (a, b) = (d20_oracle(old_mod, dc, &r), d20_oracle(new_mod, dc, &r));
            (r, dc, a, b)
        })
        .filter(|(_, _, a, b)| a != b)
        .collect();
    v.sort_by(|x, y| (y.3 - y.2).abs().total_cmp(&(x.3 - x.2).abs()));
    v
}

#[test]
fn the_committed_outputs_are_what_the_analyses_produce() {
    let (code, v) = json(&repo(""), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["passed"], true);
    let analyses = std::fs::read_dir(repo("analyses"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "toml")
        })
        .count();
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), analyses);
    for t in tables {
        assert_eq!(t["status"], "unchanged", "{t:#}");
        assert!(t["cells"].as_u64().unwrap() > 0, "{t:#}");
    }
    assert_eq!(v["cells"].as_array().unwrap().len(), 0);
}

#[test]
fn a_rule_change_moves_exactly_the_cells_the_faces_say_by_what_they_say() {
    let dir = rules_repo("diff-move", 5, "range = [5, 25]\nstep = 5");
    let dcs = [5, 10, 15, 20, 25];
    let text = std::fs::read_to_string(dir.join("analyses/rule.toml")).unwrap();
    std::fs::write(
        dir.join("analyses/rule.toml"),
        text.replace("modifier = 5", "modifier = 6"),
    )
    .unwrap();

    let want = expected_moves(5, 6, &dcs);
    assert!(want.len() >= 10, "the oracle sees {} moves", want.len());
    let (code, v) = json(&dir.0, &[]);
    assert_eq!(code, 1, "a change beyond the default tolerance of 0 fails");
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), want.len(), "{v:#}");
    let mut last = f64::INFINITY;
    for c in cells {
        assert_eq!(c["analysis"], "rule");
        assert_eq!(c["table"], "rule.csv");
        assert_eq!(c["column"], "p_success");
        assert_eq!(c["status"], "changed");
        assert_eq!(c["unit"], "percentage points");
        let roll = c["row"]["roll"].as_str().unwrap();
        let dc: i64 = c["row"]["dc"].as_str().unwrap().parse().unwrap();
        let (_, _, old, new) = want
            .iter()
            .find(|(r, d, _, _)| r == roll && *d == dc)
            .unwrap_or_else(|| panic!("{roll} DC {dc} moved, the oracle says it does not"));
        let (o, n, ch) = (
            c["old"].as_f64().unwrap(),
            c["new"].as_f64().unwrap(),
            c["change"].as_f64().unwrap(),
        );
        assert!((o - old).abs() < 1e-10 && (n - new).abs() < 1e-10, "{c:#}");
        assert!((ch - (new - old) * 100.0).abs() < 1e-8, "{c:#}");
        assert!(ch.abs() <= last, "largest first: {c:#}");
        last = ch.abs();
    }
    // The largest move: advantage at DC 25 needs a natural 19 or 20 instead
    // of a 20: 1 − (18/20)² − (1 − (19/20)²) = 9.25 points.
    assert_eq!(cells[0]["row"]["roll"], "advantage");
    assert_eq!(cells[0]["row"]["dc"], "25");
    assert!((cells[0]["change"].as_f64().unwrap() - 9.25).abs() < 1e-9);
    assert_eq!(v["summary"]["beyond_tolerance"], want.len());

    // Exactly the largest move is within a tolerance of that size; a hair
    // less and it fails.
    let (code, v) = json(&dir.0, &["--tolerance", "9.25"]);
    assert_eq!((code, &v["passed"]), (0, &Value::Bool(true)));
    assert_eq!(
        v["cells"].as_array().unwrap().len(),
        want.len(),
        "still listed"
    );
    let (code, v) = json(&dir.0, &["--tolerance", "9.24"]);
    assert_eq!(code, 1);
    assert_eq!(v["summary"]["beyond_tolerance"], 1);

    // The terminal table: one line per cell, the summary, the verdict.
    let (code, out, _) = run(&dir.0, &[]);
    assert_eq!(code, 1);
    let line = out
        .lines()
        .find(|l| l.contains("roll=advantage, dc=25"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        line.split_whitespace().collect::<Vec<_>>(),
        [
            "rule",
            "rule.csv",
            "roll=advantage,",
            "dc=25",
            "p_success",
            "9.75%",
            "→",
            "19.00%",
            "+9.25",
            "pp",
            "beyond",
            "tolerance"
        ]
    );
    assert!(
        out.contains(&format!("rule  {} changed (largest +9.25 pp", want.len())),
        "{out}"
    );
    assert!(out.trim_end().ends_with(&format!(
        "1 table, 1 moved: {n} of {n} changed cells exceed the tolerance of 0 points",
        n = want.len()
    )));

    // Regenerated, nothing is left to report.
    assert!(hantei()
        .arg("run")
        .current_dir(&dir.0)
        .output()
        .unwrap()
        .status
        .success());
    let (code, out, _) = run(&dir.0, &[]);
    assert_eq!(code, 0);
    assert!(out.contains("no odds moved"), "{out}");
}

#[test]
fn a_grown_or_shrunk_sweep_lists_added_and_removed_cells_without_failing() {
    let dir = rules_repo("diff-grow", 5, "range = [10, 20]\nstep = 5");
    let path = dir.join("analyses/rule.toml");
    std::fs::write(&path, rule(5, "range = [10, 25]\nstep = 5")).unwrap();
    let (code, v) = json(&dir.0, &[]);
    assert_eq!(code, 0, "{v:#}");
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3, "{v:#}");
    for (c, roll) in cells.iter().zip(ROLLS) {
        assert_eq!(c["status"], "added");
        assert_eq!(c["row"]["roll"], roll);
        assert_eq!(c["row"]["dc"], "25");
        assert_eq!(c["old"], Value::Null);
        assert!((c["new"].as_f64().unwrap() - d20_oracle(5, 25, roll)).abs() < 1e-10);
    }
    assert_eq!(v["tables"][0]["added"], 3);
    assert_eq!(
        v["summary"]["verdict"],
        "1 table, 1 moved: no value changed (cells or tables added or removed only)"
    );

    std::fs::write(&path, rule(5, "range = [15, 20]\nstep = 5")).unwrap();
    let (code, v) = json(&dir.0, &[]);
    assert_eq!(code, 0, "{v:#}");
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3);
    assert!(cells
        .iter()
        .all(|c| c["status"] == "removed" && c["row"]["dc"] == "10"));

    // Markdown says so too.
    let (_, md, _) = run(&dir.0, &["--format", "md"]);
    assert!(md.contains("0 added and 3 removed cells"), "{md}");
}

#[test]
fn new_and_removed_tables_are_summed_up() {
    let dir = rules_repo("diff-tables", 5, "values = [10, 15]");
    std::fs::write(dir.join("analyses/more.toml"), rule(3, "values = [12]")).unwrap();
    let (code, v) = json(&dir.0, &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["tables"][0]["table"], "more.csv");
    assert_eq!(v["tables"][0]["status"], "new");
    assert_eq!(v["tables"][0]["cells"], 3);
    assert_eq!(v["tables"][1]["status"], "unchanged");

    std::fs::remove_file(dir.join("analyses/more.toml")).unwrap();
    std::fs::rename(
        dir.join("analyses/rule.toml"),
        dir.join("analyses/renamed.toml"),
    )
    .unwrap();
    let (code, v) = json(&dir.0, &[]);
    assert_eq!(code, 0, "{v:#}");
    let status: Vec<(&str, &str)> = v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["table"].as_str().unwrap(), t["status"].as_str().unwrap()))
        .collect();
    assert_eq!(status, [("renamed.csv", "new"), ("rule.csv", "removed")]);
}

#[test]
fn against_another_directory_or_a_git_revision() {
    let dir = rules_repo("diff-git", 5, "range = [5, 25]\nstep = 5");
    git(&dir.0, &["init", "-q"]);
    git(&dir.0, &["add", "-A"]);
    git(&dir.0, &["commit", "-qm", "the rule"]);
    copy_dir(&dir.join("output"), &dir.join("before"));

    // The rule changes and the outputs are regenerated: output/ is current,
    // so only the revision (or the saved copy) shows what moved.
    let text = std::fs::read_to_string(dir.join("analyses/rule.toml")).unwrap();
    std::fs::write(
        dir.join("analyses/rule.toml"),
        text.replace("modifier = 5", "modifier = 3"),
    )
    .unwrap();
    assert!(hantei()
        .arg("run")
        .current_dir(&dir.0)
        .output()
        .unwrap()
        .status
        .success());
    let (code, v) = json(&dir.0, &[]);
    assert_eq!((code, v["cells"].as_array().unwrap().len()), (0, 0));

    let want = expected_moves(5, 3, &[5, 10, 15, 20, 25]);
    let (code, by_rev) = json(&dir.0, &["--against", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(by_rev["against"], "HEAD:output/");
    assert_eq!(by_rev["cells"].as_array().unwrap().len(), want.len());
    let (code, by_dir) = json(&dir.0, &["--against", "before"]);
    assert_eq!(code, 1);
    assert_eq!(by_dir["against"], "before/");
    assert_eq!(by_rev["cells"], by_dir["cells"]);
    // From a subdirectory, with --out pointing back up.
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let (code, from_sub) = json(
        &dir.join("sub"),
        &["../analyses", "--out", "../output", "--against", "HEAD"],
    );
    assert_eq!(code, 1);
    assert_eq!(from_sub["cells"], by_rev["cells"]);

    // A revision without output/: every table is new.
    git(&dir.0, &["checkout", "-q", "--orphan", "empty"]);
    git(&dir.0, &["read-tree", "--empty"]);
    git(&dir.0, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    let (code, v) = json(&dir.0, &["--against", "empty"]);
    assert_eq!(code, 0);
    assert_eq!(v["tables"][0]["status"], "new");
    assert!(v["notes"][0].as_str().unwrap().contains("does not exist"));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn markdown_and_junit_are_well_formed() {
    let dir = rules_repo("diff-formats", 5, "values = [15, 20]");
    let text = std::fs::read_to_string(dir.join("analyses/rule.toml")).unwrap();
    std::fs::write(
        dir.join("analyses/rule.toml"),
        text.replace("modifier = 5", "modifier = 4"),
    )
    .unwrap();
    let (code, md, _) = run(&dir.0, &["--format", "md", "--tolerance", "4.9"]);
    assert_eq!(code, 1);
    assert!(
        md.starts_with("### hantei diff: 1 of 1 table moved\n"),
        "{md}"
    );
    // Normal at DC 15: 11/20 → 10/20, exactly 5 points, beyond 4.9.
    assert!(md.contains("| rule | rule.csv | roll=normal, dc=15 | p_success | 55.00% → 50.00% | -5.00 pp | **beyond tolerance** |"), "{md}");
    assert!(
        md.contains("<details open><summary>6 changed cells, largest first</summary>"),
        "{md}"
    );

    let (code, xml, _) = run(&dir.0, &["--format", "junit", "--tolerance", "4.9"]);
    assert_eq!(code, 1);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(doc.root_element().attribute("failures"), Some("1"));
    let case = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase"))
        .unwrap();
    assert_eq!(case.attribute("name"), Some("rule.csv"));
    let failure = case.children().find(|n| n.has_tag_name("failure")).unwrap();
    // Beyond 4.9 points: normal at DC 15 and 20 (−5), disadvantage at DC 15
    // ((10/20)² against (11/20)²: −5.25), advantage at DC 20 ((15/20)²
    // against (14/20)² failing: −7.25); advantage at DC 15 (−4.75) and
    // disadvantage at DC 20 (−2.75) are within.
    assert!(
        failure
            .attribute("message")
            .unwrap()
            .starts_with("4 cells moved more than the tolerance of 4.9 points (largest -7.25 pp)"),
        "{xml}"
    );
    let (code, xml, _) = run(&dir.0, &["--format", "junit", "--tolerance", "7.25"]);
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("0"));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = rules_repo("diff-errors", 5, "values = [15]");
    let (code, _, err) = run(&dir.0, &["--tolerance=-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value '-1' for --tolerance"), "{err}");
    let (code, _, err) = run(&dir.0, &["--against", "no-such-thing"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--against") && err.contains("no-such-thing"),
        "{err}"
    );
    std::fs::write(
        dir.join("output/rule.csv"),
        "system,roll,dc,p_success\nd20,normal,15,lots\n",
    )
    .unwrap();
    let (code, _, err) = run(&dir.0, &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("output/rule.csv") && err.contains("'lots' is not a number"),
        "{err}"
    );
}
