//! What a newcomer sees (issue 14) and how exact tables read (issue 13):
//! labels, number formatting, help texts, summaries.

use crate::common::{hantei, repo};

fn stdout(args: &[&str]) -> String {
    let out = hantei().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn done_by_rows_are_labelled_by_the_number_of_rolls() {
    // Rate 60, 4 successes needed: done within 4 rolls = 0.6⁴ = 12.96%; the
    // rows run 1..=10 for a limit of 10 attempts.
    let t = stdout(&[
        "odds",
        "multiplier",
        "--rate",
        "60",
        "--successes",
        "4",
        "--attempts",
        "10",
    ]);
    let row = |k: usize| {
        t.lines()
            .find(|l| l.trim_start().starts_with(&format!("{k} ")))
            .unwrap_or_else(|| panic!("no row {k} in\n{t}"))
            .to_string()
    };
    assert!(row(4).contains("12.96%"), "{}", row(4));
    assert!(row(3).trim_end().ends_with("0%"), "{}", row(3));
    row(10);
    assert!(!t.contains("\n      0  "), "no row 0:\n{t}");
    let md = stdout(&[
        "odds",
        "--format",
        "md",
        "multiplier",
        "--rate",
        "60",
        "--successes",
        "4",
    ]);
    assert!(md.contains("| 4 | 12.96% |"), "{md}");
}

#[test]
fn json_and_csv_print_the_shortest_decimal_of_the_rounded_value() {
    // +5 vs DC 15: failure 9/20 = 0.45 … success 0.5 (10..19), critical
    // 0.05. The f64 law carries 0.39999999999999997-style noise; printed
    // values are the decimals of the correctly rounded fractions.
    let j = stdout(&[
        "odds",
        "--format",
        "json",
        "d20",
        "--modifier",
        "5",
        "--dc",
        "15",
    ]);
    assert!(!j.contains("9999999"), "{j}");
    assert!(!j.contains("0000000001"), "{j}");
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["p_success"].as_f64(), Some(0.55));
    assert_eq!(v["outcomes"]["success"].as_f64(), Some(0.5));
    assert_eq!(v["outcomes"]["failure"].as_f64(), Some(0.4));
    let c = stdout(&[
        "odds",
        "--format",
        "csv",
        "d20",
        "--modifier",
        "5",
        "--dc",
        "15",
    ]);
    assert!(c.contains("outcome,failure,failure,失敗,0.4\n"), "{c}");
}

#[test]
fn exact_tables_shorten_long_fractions_and_align_numbers() {
    let args = [
        "odds",
        "hit-pool",
        "--pool",
        "60",
        "--threshold",
        "20",
        "--exact",
    ];
    let t = stdout(&args);
    assert!(t.contains("digits)"), "{t}");
    let j = stdout(&[&args[..], &["--format", "json"][..]].concat());
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    let frac = v["p_success"].as_str().unwrap();
    assert!(frac.len() > 40 && !frac.contains('…'), "{frac}");
    // The scalar values end in one column.
    let ends: Vec<usize> = t
        .lines()
        .filter(|l| l.starts_with("  p_"))
        .map(|l| hantei::export::display_width(l.trim_end()))
        .collect();
    assert!(
        ends.len() >= 3 && ends.windows(2).all(|w| w[0] == w[1]),
        "{t}"
    );
}

#[test]
fn parameter_lines_leave_out_unset_values_and_sections_have_japanese_names() {
    let t = stdout(&["odds", "d20", "--modifier", "5", "--dc", "15"]);
    assert!(!t.contains("null"), "{t}");
    let t = stdout(&["odds", "hit-pool", "--pool", "3"]);
    assert!(t.contains("hits (ヒット数):"), "{t}");
    assert!(t.contains("threshold 0 (the default)"), "{t}");
    let h = stdout(&["odds", "hit-pool", "--help"]);
    assert!(
        h.contains("Default 0: any roll that is made succeeds"),
        "{h}"
    );
    let t = stdout(&["odds", "multiplier", "--rate", "60", "--successes", "2"]);
    assert!(t.contains("p_done_by (k回以内に達成):"), "{t}");
}

#[test]
fn run_summaries_count_in_words_and_headers_name_the_real_file() {
    let out = std::env::temp_dir().join(format!("hantei-newcomer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let dir = std::env::temp_dir().join(format!("hantei-newcomer-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::copy(repo("analyses/d20-success.toml"), &file).unwrap();
    let s = stdout(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(s.starts_with("1 analysis →"), "{s}");
    let md = std::fs::read_to_string(out.join("mine.md")).unwrap();
    assert!(!md.contains("analyses/mine.toml"), "{md}");
    assert!(md.contains("mine.toml"), "{md}");
}

#[test]
fn shell_completions_and_man_page_cover_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let s = stdout(&["completions", shell]);
        for word in ["odds", "hit-pool", "vs-helper", "verify"] {
            assert!(s.contains(word), "{shell} completions lack {word}");
        }
    }
    let man = stdout(&["man"]);
    assert!(
        man.contains(".TH hantei 1"),
        "{}",
        &man[..200.min(man.len())]
    );
    for cmd in ["odds", "run", "check", "verify"] {
        assert!(man.contains(cmd), "man page lacks {cmd}");
    }
    let o = hantei().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// The `NAME(1)` pages the page of `parent` (a `hantei man` path) refers
/// to, as `hantei man` paths: from hantei(1), `hantei\\-odds(1)` →
/// `["odds"]`; from hantei-odds(1), `hantei\\-odds\\-hit\\-pool(1)` →
/// `["odds", "hit-pool"]`.
fn referred_pages(page: &str, parent: &[String]) -> Vec<Vec<String>> {
    let prefix = std::iter::once("hantei")
        .chain(parent.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("-")
        + "-";
    page.lines()
        .filter_map(|line| {
            let line = line.replace("\\-", "-");
            let name = line.strip_suffix("(1)")?.strip_prefix(&prefix)?.to_string();
            let mut path = parent.to_vec();
            path.push(name);
            Some(path)
        })
        .collect()
}

#[test]
fn every_page_the_man_page_refers_to_can_be_made() {
    // Issue 21 item 10: hantei(1) lists hantei-odds(1) …; each must come
    // from `hantei man odds`, and so on down (hantei-odds-dice(1)).
    let mut todo = referred_pages(&stdout(&["man"]), &[]);
    assert!(todo.iter().any(|p| p == &["odds"]), "{todo:?}");
    let mut made = 0;
    while let Some(path) = todo.pop() {
        let mut args = vec!["man"];
        args.extend(path.iter().map(String::as_str));
        let page = stdout(&args);
        let title = format!(".TH hantei-{} 1", path.join("-"));
        assert!(
            page.replace("\\-", "-").contains(&title),
            "{path:?}: {}",
            &page[..200.min(page.len())]
        );
        made += 1;
        todo.extend(referred_pages(&page, &path));
    }
    assert!(made >= 10, "{made} pages");
    let o = hantei().args(["man", "nosuch"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["odds", "--format", "json", "--exact"];
    all.extend_from_slice(args);
    serde_json::from_str(&stdout(&all)).expect("json")
}

/// An exact `"num/den"` as a pair of integers, for sums and products.
fn frac(v: &serde_json::Value) -> (i128, i128) {
    let s = v.as_str().unwrap_or_else(|| panic!("not exact: {v}"));
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    (n.parse().unwrap(), d.parse().unwrap())
}

#[test]
fn many_sided_contests_speak_of_one_contest() {
    // Issue 21 item 2: three sides; every contest field is of the contest
    // of all three: one round's win is the acting side's p_top_per_roll,
    // a round stalls with 1 − Σ p_top_per_roll, and p_win is the win of
    // the round that decides.
    let j = json(&[
        "multiplier",
        "--ability",
        "12",
        "--vs-ability",
        "10",
        "--side",
        "ability=8",
    ]);
    let top: Vec<(i128, i128)> = j["p_top_per_roll"]
        .as_array()
        .unwrap()
        .iter()
        .map(frac)
        .collect();
    for name in ["p_win_per_roll", "p_win_roll"] {
        assert_eq!(frac(&j[name]), top[0], "{name}");
    }
    // Denominators are all 100000 here (d100 rolls): compare numerators.
    let den = 100_000i128;
    let scaled = |(n, d): (i128, i128)| n * (den / d);
    let someone: i128 = top.iter().map(|&t| scaled(t)).sum();
    for name in ["p_tie_per_roll", "p_tie_roll"] {
        assert_eq!(scaled(frac(&j[name])), den - someone, "{name}");
    }
    for name in ["p_loss_per_roll", "p_loss_roll"] {
        assert_eq!(scaled(frac(&j[name])), someone - scaled(top[0]), "{name}");
    }
    // p_win = top₀ / Σ top = 29019/67016 (the 43.30 %).
    assert_eq!(frac(&j["p_win"]), (29019, 67016));
    assert_eq!(frac(&j["p_success"]), (29019, 67016));
    let notes = j["notes"].to_string();
    assert!(!notes.contains("one roll's tie chance"), "{notes}");
    assert!(notes.contains("3 sides"), "{notes}");
}

#[test]
fn two_sided_multiplier_contests_also_name_p_win_roll() {
    // Issue 21 item 7: p_win_roll beside the multiplier's p_win_per_roll.
    // Rate 60 vs rate 50 (random checks): the one-roll law, counted over
    // the 10 000 pairs of d100 faces by the unit tests, is the same under
    // both names.
    let j = json(&["multiplier", "--rate", "60", "--vs-rate", "50"]);
    for t in ["win", "tie", "loss"] {
        assert_eq!(
            j[format!("p_{t}_roll")],
            j[format!("p_{t}_per_roll")],
            "{t}"
        );
        assert!(j[format!("p_{t}_roll")].is_string(), "{t}");
    }
}

#[test]
fn exact_sd_is_a_fraction_when_rational_else_fifteen_digits() {
    // Issue 21 item 10. 1D2: variance 1/4, sd 1/2 exactly. 1D6: variance
    // 35/12, sd √(35/12) = 1.707825127659933…, 15 significant digits.
    let j = json(&["dice", "1D2"]);
    assert_eq!(j["variance"], "1/4");
    assert_eq!(j["sd"], "1/2");
    let j = json(&["dice", "1D6"]);
    assert_eq!(j["sd"], "1.70782512765993");
    // 2D6 exactly: sd √(35/6) = 2.41522945769824; the table shows it like
    // every exact value, four decimals and the exact number.
    let t = stdout(&["odds", "--exact", "dice", "2D6"]);
    let sd = t
        .lines()
        .find(|l| l.trim_start().starts_with("sd "))
        .unwrap();
    assert!(sd.ends_with("2.4152 (√(35/6))"), "{sd}");
    let mean = t
        .lines()
        .find(|l| l.trim_start().starts_with("mean "))
        .unwrap();
    // Right-aligned with the other values (√ is one column wide).
    assert_eq!(sd.chars().count(), mean.chars().count(), "{t}");
    let csv = stdout(&["odds", "--exact", "--format", "csv", "dice", "1D6"]);
    assert!(csv.contains("field,sd,,,1.70782512765993\n"), "{csv}");
}

#[test]
fn a_probability_of_one_is_100_percent_everywhere() {
    // Issue 21 item 10: 1D6>=1 in floating point sums to 1 − 2⁻⁵³; JSON
    // says 1.0, so every table says 100%.
    let t = stdout(&["odds", "dice", "1D6>=1"]);
    assert!(!t.contains("100.0000%"), "{t}");
    assert!(t.contains("100%"), "{t}");
}

#[test]
fn csv_leaves_unset_parameters_empty() {
    // Issue 21 item 10: `score` and `level` are not set here.
    let csv = stdout(&[
        "odds",
        "--format",
        "csv",
        "d20",
        "--modifier",
        "3",
        "--dc",
        "12",
    ]);
    assert!(!csv.contains("null"), "{csv}");
    assert!(csv.contains("param,score,,,\n"), "{csv}");
}

#[test]
fn diff_against_a_directory_with_a_slash_names_it_once() {
    // Issue 21 item 10: `--against DIR/` printed `DIR//`.
    let scratch = crate::common::Scratch::new("diff-slash");
    let o = hantei()
        .args(["diff", "--format", "json", "--against"])
        .arg(format!("{}/", scratch.0.display()))
        .current_dir(repo(""))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("{}/", scratch.0.display())), "{out}");
    assert!(!out.contains("//"), "{out}");
}
