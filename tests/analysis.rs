//! `hantei run`: bundled tables hold the rules' known values, a broken file
//! is reported with file, line and key and writes nothing, `--check` finds
//! stale outputs, and the output bytes are deterministic.

use std::path::{Path, PathBuf};

use crate::common::{hantei, repo};

/// `hantei run FILE --out OUT`.
fn run_into(file: &Path, out: &Path) -> std::process::Output {
    hantei()
        .arg("run")
        .arg(file)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// A fresh temporary directory for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hantei-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run one bundled analysis into `out` and return its CSV rows as maps.
fn run_csv(file: &str, out: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let o = hantei()
        .args([
            "run",
            repo(&format!("analyses/{file}")).to_str().unwrap(),
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stem = file.trim_end_matches(".toml");
    let mut reader = csv::Reader::from_path(out.join(format!("{stem}.csv"))).unwrap();
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn find<'a>(
    rows: &'a [std::collections::BTreeMap<String, String>],
    at: &[(&str, &str)],
) -> &'a std::collections::BTreeMap<String, String> {
    rows.iter()
        .find(|r| {
            at.iter()
                .all(|(k, v)| r.get(*k).map(String::as_str) == Some(*v))
        })
        .unwrap_or_else(|| panic!("no row {at:?}"))
}

fn value(row: &std::collections::BTreeMap<String, String>, col: &str) -> f64 {
    row[col].parse().unwrap()
}

#[test]
fn bundled_tables_hold_the_worked_values() {
    let out = temp_dir("worked");
    // RULES.md §2: +5 vs DC 15: 0.55, advantage 0.7975, disadvantage 0.3025.
    let rows = run_csv("d20-success.toml", &out);
    for (roll, want) in [
        ("normal", 0.55),
        ("advantage", 0.7975),
        ("disadvantage", 0.3025),
    ] {
        let r = find(&rows, &[("modifier", "5"), ("roll", roll), ("dc", "15")]);
        assert!((value(r, "p_success") - want).abs() < 1e-10, "{roll}");
    }
    // RULES.md §3: v=6, n=3, D=5: 19/27.
    let rows = run_csv("keep-highest.toml", &out);
    let r = find(
        &rows,
        &[("ability", "6"), ("dice", "3"), ("difficulty", "5")],
    );
    assert!((value(r, "p_success") - 19.0 / 27.0).abs() < 1e-10);
    // RULES.md §1: rate 60: fumble 5%, decisive 6%, success or better 60%.
    let rows = run_csv("multiplier-rate-bands.toml", &out);
    let r = find(&rows, &[("rate", "60")]);
    assert!((value(r, "outcomes.fumble") - 0.05).abs() < 1e-10);
    assert!((value(r, "outcomes.decisive") - 0.06).abs() < 1e-10);
    assert!((value(r, "p_success") - 0.6).abs() < 1e-10);
    // RULES.md §5: n=2 glitch 11/36; more-than-half n=4: 21/1296.
    let rows = run_csv("hit-pool.toml", &out);
    let r = find(&rows, &[("rule", "half-or-more"), ("pool", "2")]);
    assert!((value(r, "p_glitch") - 11.0 / 36.0).abs() < 1e-10);
    assert!((value(r, "p_critical_glitch") - 7.0 / 36.0).abs() < 1e-10);
    let r = find(&rows, &[("rule", "more-than-half"), ("pool", "4")]);
    assert!((value(r, "p_glitch") - 21.0 / 1296.0).abs() < 1e-10);
    // Seed 003: best level 2 with 0.18.
    let rows = run_csv("levels-contests.toml", &out);
    let r = &rows[0];
    assert_eq!(value(r, "best_level"), 2.0);
    assert!((value(r, "p_success") - 0.18).abs() < 1e-10);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_broken_file_names_file_line_and_key_and_writes_nothing() {
    let dir = temp_dir("broken");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.csv"), "earlier output\n").unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "title = \"t\"\nsystem = \"keep-highest\"\nparams = { ability = 6 }\nmetrics = [\"p_success\"]\n\n[[axis]]\nparam = \"difficulty\"\nrange = [2, 25]\n",
    )
    .unwrap();
    let o = run_into(&bad, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.toml:"), "file: {err}");
    assert!(err.contains("difficulty"), "key: {err}");
    assert!(err.contains("2..=20"), "what is allowed: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // A TOML-level mistake: an unknown key, with its line.
    std::fs::write(
        &bad,
        "title = \"t\"\nsystem = \"d20\"\nmetricz = [\"p_success\"]\n",
    )
    .unwrap();
    let o = run_into(&bad, &out);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.toml:3"), "line: {err}");
    assert!(err.contains("metricz"), "key: {err}");
    // Nothing written, nothing removed.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("keep.csv")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_finds_stale_outputs_and_bytes_are_deterministic() {
    let dir = temp_dir("check");
    let file = repo("analyses/keep-highest-ja.toml");
    let run = |extra: &[&str]| {
        hantei()
            .arg("run")
            .arg(&file)
            .arg("--out")
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(run(&[]).status.success());
    let first = std::fs::read(dir.join("keep-highest-ja.png")).unwrap();
    let o = run(&["--check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Regenerating gives the same bytes.
    assert!(run(&[]).status.success());
    assert_eq!(
        std::fs::read(dir.join("keep-highest-ja.png")).unwrap(),
        first
    );
    // A changed file is listed as stale.
    std::fs::write(dir.join("keep-highest-ja.md"), "edited by hand\n").unwrap();
    let o = run(&["--check"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("keep-highest-ja.md"), "{err}");
    assert!(!err.contains("keep-highest-ja.csv"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn markdown_is_labelled_in_japanese_when_asked() {
    let dir = temp_dir("ja");
    let o = hantei()
        .arg("run")
        .arg(repo("analyses/keep-highest-ja.toml"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success());
    let md = std::fs::read_to_string(dir.join("keep-highest-ja.md")).unwrap();
    assert!(md.contains("難易度"), "{md}");
    assert!(md.contains("ダイス数"), "{md}");
    let svg = std::fs::read_to_string(dir.join("keep-highest-ja.svg")).unwrap();
    assert!(svg.contains("成功率"), "chart labels in Japanese");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweeps_are_the_same_bytes_on_any_thread_count() {
    // Points are computed in parallel on rayon and collected in order: one
    // thread and four threads write the same files, charts and checks
    // included.
    let file = repo("analyses/hit-pool.toml");
    let mut outputs = Vec::new();
    for threads in ["1", "4"] {
        let out = temp_dir(&format!("threads-{threads}"));
        let o = hantei()
            .env("RAYON_NUM_THREADS", threads)
            .arg("run")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        assert!(files.len() >= 3, "{files:?}");
        outputs.push(files);
    }
    assert_eq!(outputs[0].len(), outputs[1].len());
    for (a, b) in outputs[0].iter().zip(&outputs[1]) {
        assert_eq!(a.0, b.0);
        assert!(a.1 == b.1, "{} differs between 1 and 4 threads", a.0);
    }
}

/// Every ordered roll of `n` dice of `s` faces.
fn all_rolls(n: usize, s: i64) -> Vec<Vec<i64>> {
    (0..n).fold(vec![Vec::new()], |acc, _| {
        acc.iter()
            .flat_map(|r| {
                (1..=s).map(move |f| {
                    let mut r = r.clone();
                    r.push(f);
                    r
                })
            })
            .collect()
    })
}

/// The fraction of `rolls` for which `f` holds.
fn share(rolls: &[Vec<i64>], f: impl Fn(&[i64]) -> bool) -> f64 {
    rolls.iter().filter(|r| f(r)).count() as f64 / rolls.len() as f64
}

#[test]
fn house_rules_in_dice_notation_equal_counted_rolls() {
    let out = temp_dir("house");
    // PbtA-style: 2D6+stat and 3D6 keep the best two, counted over every roll.
    let rows = run_csv("house-rule-pbta.toml", &out);
    assert_eq!(rows.len(), 14);
    let two = all_rolls(2, 6);
    let three = all_rolls(3, 6);
    let best_two = |r: &[i64]| {
        let mut r = r.to_vec();
        r.sort_unstable();
        r[1] + r[2]
    };
    for stat in -2..=4i64 {
        for (roll, rolls) in [("2D6", &two), ("advantage (3D6KH2)", &three)] {
            let total = |r: &[i64]| {
                stat + if r.len() == 2 {
                    r[0] + r[1]
                } else {
                    best_two(r)
                }
            };
            let row = find(&rows, &[("roll", roll), ("stat", &stat.to_string())]);
            let strong = share(rolls, |r| total(r) >= 10);
            let weak = share(rolls, |r| (7..10).contains(&total(r)));
            let miss = share(rolls, |r| total(r) < 7);
            for (col, want) in [
                ("outcomes.strong", strong),
                ("outcomes.weak", weak),
                ("outcomes.miss", miss),
                ("p_success", strong + weak),
            ] {
                assert!(
                    (value(row, col) - want).abs() < 1e-10,
                    "{roll} stat {stat} {col}: {} vs {want}",
                    value(row, col)
                );
            }
            let mean = rolls.iter().map(|r| total(r) as f64).sum::<f64>() / rolls.len() as f64;
            assert!((value(row, "mean") - mean).abs() < 1e-9);
        }
    }
    // 3D6 roll-under with natural criticals (3–4) and fumbles (17–18).
    let rows = run_csv("house-rule-3d6-under.toml", &out);
    for skill in 3..=18i64 {
        let row = find(&rows, &[("skill", &skill.to_string())]);
        let sum = |r: &[i64]| r.iter().sum::<i64>();
        let critical = share(&three, |r| sum(r) <= 4);
        let fumble = share(&three, |r| sum(r) >= 17);
        let success = share(&three, |r| (5..17).contains(&sum(r)) && sum(r) <= skill);
        for (col, want) in [
            ("outcomes.critical", critical),
            ("outcomes.fumble", fumble),
            ("outcomes.success", success),
            ("outcomes.failure", 1.0 - critical - fumble - success),
            ("p_success", critical + success),
        ] {
            assert!(
                (value(row, col) - want).abs() < 1e-10,
                "skill {skill} {col}"
            );
        }
    }
    // The same house rules on the cross-system ladders.
    let o = hantei()
        .args([
            "run",
            repo("analyses/ladders.toml").to_str().unwrap(),
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_path(out.join("ladders.csv")).unwrap();
    let mut seen = 0;
    for r in reader.records() {
        let r = r.unwrap();
        if &r[0] != "dice" {
            continue;
        }
        let step: i64 = r[2].parse().unwrap();
        let p: f64 = r[4].parse().unwrap();
        let want = match (&r[1], &r[3]) {
            ("target", who) => {
                let stat = [("novice", -1), ("trained", 1), ("expert", 2), ("master", 3)]
                    .iter()
                    .find(|(n, _)| *n == who)
                    .unwrap()
                    .1;
                share(&two, |d| d[0] + d[1] + stat >= step)
            }
            ("penalty", who) => {
                let skill = [
                    ("novice", 10),
                    ("trained", 12),
                    ("expert", 14),
                    ("master", 16),
                ]
                .iter()
                .find(|(n, _)| *n == who)
                .unwrap()
                .1;
                share(&three, |d| d.iter().sum::<i64>() <= skill - step)
            }
            other => panic!("unexpected dice ladder {other:?}"),
        };
        assert!((p - want).abs() < 1e-10, "{r:?}: want {want}");
        seen += 1;
    }
    assert_eq!(seen, 4 * 12 + 4 * 11);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn dice_placeholders_fill_from_axes_and_tiers() {
    let dir = temp_dir("placeholders");
    let file = dir.join("d.toml");
    std::fs::write(
        &file,
        r#"title = "1D20+mod against DC, crit on a natural 20"
system = "dice"
params = { expr = "1D20+{mod}", tier = ["crit:natural>=20", "hit:>={dc}", "miss"] }
metrics = ["p_success", "outcomes.crit"]

[[axis]]
param = "mod"
range = [-2, 12]

[[axis]]
param = "dc"
range = [5, 30]
"#,
    )
    .unwrap();
    let o = run_into(&file, &dir.join("out"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut reader = csv::Reader::from_path(dir.join("out/d.csv")).unwrap();
    let mut n = 0;
    for r in reader.records() {
        let r = r.unwrap();
        let (m, dc): (i64, i64) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        let hits = (1..=20).filter(|&f| f == 20 || f + m >= dc).count();
        let p: f64 = r[3].parse().unwrap();
        assert!((p - hits as f64 / 20.0).abs() < 1e-12, "{r:?}");
        assert!((r[4].parse::<f64>().unwrap() - 0.05).abs() < 1e-12);
        n += 1;
    }
    assert_eq!(n, 15 * 26);
    // A placeholder with no value is the CLI's kind of error: exit 2, no files.
    std::fs::write(&file, "title = \"t\"\nsystem = \"dice\"\nparams = { expr = \"1D20+{nope}\" }\nmetrics = [\"mean\"]\n").unwrap();
    let o = run_into(&file, &dir.join("out2"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("{nope}") && err.contains("expr"), "{err}");
    assert!(!dir.join("out2/d.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30: delete an analysis and `run --check` used to say "stale … run
/// `hantei run`" while `run` never removed the file, so the advice looped.
/// Now `run` removes the outputs it wrote (its list, `output/.hantei-outputs`)
/// for analyses that are gone, and only those; `--check` names the command
/// that removes each orphan (`hantei run` for its own, `rm` for a file it
/// did not write).
#[test]
fn run_removes_the_outputs_of_a_deleted_analysis_and_nothing_else() {
    let dir = temp_dir("orphans");
    std::fs::create_dir_all(dir.join("analyses")).unwrap();
    for f in ["keep-highest-ja.toml", "d20-success.toml"] {
        std::fs::copy(repo(&format!("analyses/{f}")), dir.join("analyses").join(f)).unwrap();
    }
    let run = |extra: &[&str]| {
        hantei()
            .current_dir(&dir)
            .arg("run")
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("output");
    assert!(out.join("d20-success.csv").is_file());
    assert!(out.join("keep-highest-ja.csv").is_file());
    std::fs::write(out.join("notes.txt"), "mine\n").unwrap();

    std::fs::remove_file(dir.join("analyses/d20-success.toml")).unwrap();
    let o = run(&["--check"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("d20-success.csv"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("`hantei run` removes it"), "{line}");
    let line = err
        .lines()
        .find(|l| l.contains("notes.txt"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("`rm output/notes.txt`"), "{line}");

    let o = run(&[]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(said.contains("removed"), "{said}");
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("d20-success"))
        .collect();
    left.sort();
    assert!(left.is_empty(), "{left:?}");
    assert!(out.join("keep-highest-ja.csv").is_file());
    assert!(out.join("notes.txt").is_file(), "not hantei's to remove");

    // Only the file hantei did not write is left to the user.
    let o = run(&["--check"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("  ")).count(),
        1,
        "{err}"
    );
    assert!(err.contains("notes.txt"), "{err}");
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    assert_eq!(run(&["--check"]).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30: one analysis file gives both languages' tables and charts
/// (`labels = "both"`): `NAME.*` in English, `NAME-ja.*` in Japanese, with
/// `title_ja`, `description_ja` and each metric's (custom tier's) `label_ja`;
/// the line chart's legend is titled with its series axis.
#[test]
fn one_file_writes_both_languages() {
    let dir = temp_dir("both");
    let file = dir.join("both.toml");
    std::fs::write(
        &file,
        r#"title = "3D6 under skill"
title_ja = "3D6下方判定"
labels = "both"
description = "Roll 3D6 under the skill."
description_ja = "3D6で技能値以下を振る。"
system = "dice"
params = { expr = "3D6", tier = ["critical:natural<=4", "success:<={skill}", "failure"] }
metrics = [
  { path = "outcomes.critical", label = "critical", label_ja = "クリティカル" },
  { path = "p_success", label = "success", label_ja = "成功率" },
]

[[axis]]
param = "skill"
label = "skill"
label_ja = "技能値"
range = [8, 12]

[[axis]]
name = "rule"
label = "house rule"
label_ja = "ハウスルール"
variants = [{ label = "plain", label_ja = "通常" }]

[[chart]]
kind = "line"
x = "skill"
y = "success"
series = "rule"

[[check]]
name = "skill-10"
message = "3D6 ≤ 10: 108 of 216 rolls, 1/2"
metric = "p_success"
at = { skill = 10 }
equals = "1/2"
"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = run_into(&file, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let en = std::fs::read_to_string(out.join("both.md")).unwrap();
    let ja = std::fs::read_to_string(out.join("both-ja.md")).unwrap();
    assert!(en.starts_with("# 3D6 under skill\n"), "{en}");
    assert!(en.contains("Roll 3D6 under the skill."), "{en}");
    assert!(en.contains("| skill |") && en.contains("critical"), "{en}");
    assert!(ja.starts_with("# 3D6下方判定\n"), "{ja}");
    assert!(ja.contains("3D6で技能値以下を振る。"), "{ja}");
    assert!(!ja.contains("Roll 3D6 under the skill."), "{ja}");
    assert!(ja.contains("技能値") && ja.contains("クリティカル"), "{ja}");
    // 3D6 ≤ 10 is 1/2, in both tables.
    let csv = std::fs::read_to_string(out.join("both-ja.csv")).unwrap();
    assert!(csv.contains("0.5"), "{csv}");
    for f in [
        "both.svg",
        "both.png",
        "both-ja.svg",
        "both-ja.png",
        "both.checks.md",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert!(
        !out.join("both-ja.checks.md").exists(),
        "the checks run once"
    );
    // Legends titled with the series axis, in each language.
    let svg = std::fs::read_to_string(out.join("both.svg")).unwrap();
    assert!(svg.contains(">house rule<"), "legend title");
    let svg = std::fs::read_to_string(out.join("both-ja.svg")).unwrap();
    assert!(svg.contains(">ハウスルール<"), "legend title (ja)");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of an SVG chart: each transparent `<text>` (one drawn line of
/// text) with the x of its middle and its baseline's y, in drawing order.
fn svg_texts(svg: &str) -> Vec<(f64, f64, String)> {
    let attr = |tag: &str, name: &str| -> f64 {
        let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let end = start + tag[start..].find('"').unwrap();
        tag[start..end].parse().unwrap()
    };
    svg.split("<text ")
        .skip(1)
        .map(|rest| {
            let (tag, body) = rest.split_once('>').unwrap();
            let tag = format!(" {tag}");
            let text = body.split("</text>").next().unwrap();
            let text = text
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
            let mid = attr(&tag, "x") + attr(&tag, "textLength") / 2.0;
            (mid, attr(&tag, "y"), text)
        })
        .collect()
}

/// Issue 30 item 19: the ladder chart reads in each ladder's own steps
/// (one panel per ladder, its steps as the tick labels of its x axis, its
/// label under them), not as a "position on the ladder"; a long legend
/// entry wraps onto as many lines as it needs, every word kept.
#[test]
fn ladder_chart_shows_each_ladders_own_steps() {
    let dir = temp_dir("ladder-chart");
    let file = dir.join("steps.toml");
    let veteran = "a veteran of a hundred campaigns, who knows every trap, every door \
                   and every trick of the dungeon masters of old";
    std::fs::write(
        &file,
        format!(
            r#"kind = "ladders"
title = "Two ladders"

[[ladder]]
system = "d20"
label = "DC"
param = "dc"
values = [8, 10, 12, 14, 16]
[[ladder.character]]
name = "novice"
params = {{ modifier = 0 }}
[[ladder.character]]
name = "{veteran}"
params = {{ modifier = 9 }}

[[ladder]]
system = "dice"
name = "PbtA 2D6+stat"
label = "target"
param = "target"
values = [6, 7, 8, 9, 10, 11, 12]
params = {{ expr = "2D6+{{stat}}>={{target}}" }}
[[ladder.character]]
name = "novice"
params = {{ stat = 0 }}
[[ladder.character]]
name = "{veteran}"
params = {{ stat = 3 }}
"#
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = run_into(&file, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(out.join("steps.svg")).unwrap();
    let texts = svg_texts(&svg);
    let find = |s: &str| {
        texts
            .iter()
            .find(|t| t.2 == s)
            .unwrap_or_else(|| panic!("no text {s:?} in {texts:?}"))
    };
    assert!(!svg.contains("position on the ladder"), "{texts:?}");
    assert!(!svg.contains("the steps in the legend"), "{texts:?}");
    for (title, label, steps) in [
        ("d20", "DC", &["8", "10", "12", "14", "16"][..]),
        (
            "PbtA 2D6+stat",
            "target",
            &["6", "7", "8", "9", "10", "11", "12"][..],
        ),
    ] {
        let (tx, ty, _) = find(title);
        let (lx, ly, _) = find(label);
        // Every step of the ladder is a tick label of one row, left to
        // right in the ladder's order, between the panel's title and its
        // axis label, under the panel.
        let row: Vec<&(f64, f64, String)> = texts
            .iter()
            .filter(|t| steps.contains(&t.2.as_str()) && t.1 > *ty && t.1 < *ly)
            .filter(|t| (t.0 - tx).abs() < 200.0)
            .collect();
        let labels: Vec<&str> = row.iter().map(|t| t.2.as_str()).collect();
        assert_eq!(labels, steps, "{title}: {row:?}");
        assert!(
            row.iter().all(|t| t.1 == row[0].1),
            "{title}: one row {row:?}"
        );
        assert!(row.windows(2).all(|w| w[0].0 < w[1].0), "{title}: {row:?}");
        assert!((lx - tx).abs() < 1.0, "{title}: label under the panel");
    }
    // The legend: what the lines are, and the long name whole, over
    // several lines (it was cut with "…" past three).
    find("character");
    find("novice");
    let whole = (0..texts.len()).any(|i| {
        (1..=texts.len() - i).any(|n| {
            texts[i..i + n]
                .iter()
                .map(|t| t.2.as_str())
                .collect::<Vec<_>>()
                .join(" ")
                == veteran
        })
    });
    assert!(whole, "{texts:?}");
    assert!(texts.iter().all(|t| !t.2.contains('…')), "{texts:?}");
    // The tables are the ladders' own: d20 +0 against DC 10 succeeds on
    // 10..20 of the d20 (11/20, the natural 1 already fails there), 2D6+0
    // reaches 7 in 21 of 36 rolls.
    let csv = std::fs::read_to_string(out.join("steps.csv")).unwrap();
    assert!(csv.contains("d20,dc,10,novice,0.5500000000"), "{csv}");
    assert!(csv.contains("dice,target,7,novice,0.5833333333"), "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
}
