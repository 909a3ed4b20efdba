//! CLI tests: the JSON contract of `hantei odds` and the error exits.
//!
//! Expected numbers come from RULES.md's worked values and the seeds'
//! examples, not from the code under test.

use crate::common::hantei;
use serde_json::Value;

/// Run `hantei odds …` and parse its JSON (exit 0 required).
fn odds_json(args: &[&str]) -> Value {
    let out = hantei()
        .arg("odds")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "hantei odds {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Run and expect exit code 2 with one clear line on stderr naming `needle`.
fn expect_usage_error(args: &[&str], needle: &str) {
    let out = hantei().args(args).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: stderr {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    assert!(
        err.contains(needle),
        "{args:?}: stderr should name {needle:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: panic: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line: {err}"
    );
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn assert_close(v: &Value, want: f64) {
    assert!((f(v) - want).abs() < 1e-12, "got {v}, want {want}");
}

fn assert_common_fields(v: &Value, system: &str) {
    assert_eq!(v["system"], system);
    assert!(v["params"].is_object(), "params object");
    assert!(v["outcomes"].is_object(), "outcomes object");
    assert!(!v["p_success"].is_null(), "p_success");
    // Outcomes form a partition: they sum to one.
    let total: f64 = v["outcomes"].as_object().unwrap().values().map(f).sum();
    assert!((total - 1.0).abs() < 1e-12, "outcomes sum to {total}");
}

#[test]
fn d20_worked_values() {
    // RULES.md §2: +5 vs DC 15: 0.55; advantage 0.7975; disadvantage 0.3025.
    let v = odds_json(&["d20", "--modifier", "5", "--dc", "15"]);
    assert_common_fields(&v, "d20");
    assert_close(&v["p_success"], 0.55);
    assert_close(&v["p_critical"], 0.05);
    assert_close(&v["p_fumble"], 0.05);
    let v = odds_json(&["d20", "--modifier", "5", "--dc", "15", "--advantage"]);
    assert_close(&v["p_success"], 0.7975);
    let v = odds_json(&[
        "d20",
        "--modifier",
        "5",
        "--dc",
        "15",
        "--disadvantage",
        "--exact",
    ]);
    assert_eq!(v["p_success"], "121/400");
}

#[test]
fn keep_highest_worked_value() {
    // RULES.md §3: v=6, n=3, D=5: 1 − (4/6)^3 = 19/27.
    let v = odds_json(&[
        "keep-highest",
        "--ability",
        "6",
        "--dice",
        "3",
        "--difficulty",
        "5",
        "--exact",
    ]);
    assert_eq!(v["system"], "keep-highest");
    assert_eq!(v["p_success"], "19/27");
    // Critical: a six among three d6 = 1 − (5/6)^3 = 91/216; fumble: all ones.
    assert_eq!(v["p_critical"], "91/216");
    assert_eq!(v["p_fumble"], "1/216");
    let v = odds_json(&[
        "keep-highest",
        "--ability",
        "6",
        "--dice",
        "3",
        "--difficulty",
        "5",
    ]);
    assert_common_fields(&v, "keep-highest");
}

#[test]
fn levels_contest_seed_example() {
    // Seed 003: A [50,30,15,10] vs B [70,40,30] → 0.15, 0.18, 0.105, 0.10; best 2.
    let v = odds_json(&[
        "levels",
        "--skill",
        "50,30,15,10",
        "--vs-skill",
        "70,40,30",
        "--exact",
    ]);
    let rows = v["by_level"].as_array().expect("by_level array");
    let want = ["3/20", "9/50", "21/200", "1/10"];
    assert_eq!(rows.len(), 4);
    for (i, (row, w)) in rows.iter().zip(want).enumerate() {
        assert_eq!(row["level"], (i + 1) as i64);
        assert_eq!(row["p_lands"], w, "level {}", i + 1);
        assert!(row.get("p_critical").is_some());
    }
    assert_eq!(v["best_level"], 2);
}

#[test]
fn levels_check() {
    // Level 2 of [50,30,15] against difficulty 2: achieved iff r ≤ 30.
    let v = odds_json(&[
        "levels",
        "--skill",
        "50,30,15",
        "--level",
        "2",
        "--difficulty",
        "2",
        "--exact",
    ]);
    assert_eq!(v["p_success"], "3/10");
    // Declared below the difficulty: never achieved.
    let v = odds_json(&[
        "levels",
        "--skill",
        "50,30,15",
        "--level",
        "1",
        "--difficulty",
        "2",
        "--exact",
    ]);
    assert_eq!(v["p_success"], "0/1");
}

#[test]
fn hit_pool_worked_values() {
    // RULES.md §5: n=2: P(glitch) = 11/36, P(critical glitch) = 7/36.
    let v = odds_json(&["hit-pool", "--pool", "2", "--exact"]);
    assert_eq!(v["p_glitch"], "11/36");
    assert_eq!(v["p_critical_glitch"], "7/36");
    // P(exactly k hits) for 2 dice: (2/3)^2, 2·(1/3)(2/3), (1/3)^2.
    assert_eq!(v["hits"], serde_json::json!(["4/9", "4/9", "1/9"]));
    let v = odds_json(&[
        "hit-pool",
        "--pool",
        "4",
        "--glitch-rule",
        "more-than-half",
        "--exact",
    ]);
    assert_eq!(v["p_glitch"], "7/432"); // 21/1296
    let v = odds_json(&["hit-pool", "--pool", "12", "--threshold", "3"]);
    assert_common_fields(&v, "hit-pool");
    assert_eq!(v["params"]["glitch_rule"], "half-or-more");
}

#[test]
fn hit_pool_edge_reports_tail_mass() {
    let v = odds_json(&[
        "hit-pool",
        "--pool",
        "6",
        "--edge",
        "3",
        "--edge-use",
        "push",
    ]);
    let tail = f(&v["tail_mass"]);
    assert!(tail > 0.0 && tail < 1e-15, "tail mass {tail}");
}

#[test]
fn multiplier_worked_values() {
    // RULES.md §1: A=12, M=5 ability check: rate 60, P(fumble) 5%, success 60%.
    let v = odds_json(&[
        "multiplier",
        "--kind",
        "ability",
        "--ability",
        "12",
        "--multiplier",
        "5",
        "--exact",
    ]);
    assert_eq!(v["system"], "multiplier");
    assert_eq!(v["p_success"], "3/5");
    assert_eq!(v["p_fumble"], "1/20");
    assert_eq!(v["outcomes"]["decisive"], "3/50");
    assert_eq!(v["outcomes"]["effective"], "6/25");
}

#[test]
fn table_shows_japanese_labels() {
    let out = hantei()
        .args(["odds", "d20", "--modifier", "5", "--dc", "15"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("クリティカル"), "{text}");
    assert!(text.contains("55.00%"), "{text}");
}

#[test]
fn csv_and_markdown_render() {
    for fmt in ["csv", "md"] {
        let out = hantei()
            .args([
                "odds",
                "keep-highest",
                "--ability",
                "6",
                "--dice",
                "3",
                "--difficulty",
                "5",
                "--format",
                fmt,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("success"), "{fmt}: {text}");
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    expect_usage_error(&["odds", "hit-pool", "--pool", "-400"], "--pool");
    expect_usage_error(
        &[
            "odds",
            "keep-highest",
            "--ability",
            "0",
            "--dice",
            "1",
            "--difficulty",
            "5",
        ],
        "--ability",
    );
    expect_usage_error(
        &[
            "odds",
            "keep-highest",
            "--ability",
            "6",
            "--dice",
            "0",
            "--difficulty",
            "5",
        ],
        "--dice",
    );
    expect_usage_error(
        &[
            "odds",
            "keep-highest",
            "--ability",
            "6",
            "--dice",
            "1",
            "--difficulty",
            "21",
        ],
        "2..=20",
    );
    expect_usage_error(
        &[
            "odds",
            "levels",
            "--skill",
            "50,60,15",
            "--level",
            "1",
            "--difficulty",
            "1",
        ],
        "level 2",
    );
    expect_usage_error(
        &[
            "odds",
            "hit-pool",
            "--pool",
            "5",
            "--glitch-rule",
            "sometimes",
        ],
        "sometimes",
    );
    expect_usage_error(
        &["odds", "d20", "--modifier", "x", "--dc", "15"],
        "--modifier",
    );
    expect_usage_error(&["odds", "nosuchsystem"], "nosuchsystem");
}

/// Run `hantei verify` and return stdout, exit code.
fn verify(args: &[&str]) -> (String, Option<i32>) {
    let out = hantei().arg("verify").args(args).output().expect("runs");
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

#[test]
fn verify_is_identical_on_any_thread_count() {
    let base = ["--trials", "40000", "--seed", "7", "--format", "json"];
    let (one, code) = verify(&[&base[..], &["--threads", "1"]].concat());
    assert_eq!(code, Some(0), "{one}");
    for t in ["2", "16"] {
        let (other, _) = verify(&[&base[..], &["--threads", t]].concat());
        assert_eq!(one, other, "--threads {t} differs from --threads 1");
    }
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["passed"], true);
    let points = v["points"].as_array().unwrap();
    // Every system has points in the default grid.
    for id in ["multiplier", "d20", "keep-highest", "levels", "hit-pool"] {
        assert!(points.iter().any(|p| p["system"] == id), "no {id} points");
    }
}

/// Issue 30: `hantei verify` with no flags is the quick run (CI's 200,000
/// trials per point, about a tenth of the old two minutes), not the
/// thorough one.
#[test]
fn verify_defaults_to_the_quick_run() {
    let (out, code) = verify(&["--system", "keep-highest", "--format", "json"]);
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["trials"], 200_000);
}

/// Issue 30: on a terminal `hantei verify` says up front how long it
/// expects to take, then draws its progress; a pipe gets neither.
#[test]
fn verify_on_a_terminal_says_the_expected_time_first() {
    let bin = assert_cmd::cargo::cargo_bin("hantei");
    let args = "verify --system keep-highest --trials 10000";
    // `script` gives the command a pseudo-terminal (util-linux).
    let o = std::process::Command::new("script")
        .args(["-qec", &format!("{} {args}", bin.display()), "/dev/null"])
        .env_remove("CI")
        .output();
    let Ok(o) = o else {
        eprintln!("no `script` here: skipped");
        return;
    };
    let text = String::from_utf8_lossy(&o.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("hantei verify: ") && first.contains("expected about"),
        "{text}"
    );
    assert!(first.contains("10,000 trials"), "{first}");
    let piped = hantei()
        .args(args.split(' '))
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(piped.stderr.is_empty(), "{:?}", piped.stderr);
}

#[test]
fn verify_rejects_bad_flags() {
    expect_usage_error(&["verify", "--system", "chess"], "chess");
    expect_usage_error(&["verify", "--trials", "0"], "--trials");
    expect_usage_error(&["verify", "--alpha", "2"], "--alpha");
    expect_usage_error(&["verify", "--threads", "0"], "--threads");
}

#[test]
fn d20_contest_fields_apply_the_tie_rule_like_every_system() {
    // Active 1d20 (advantage and disadvantage cancel) against 1d20 + 10,
    // ties to the attacker. By hand: P(d1 ≥ d2 + 10) = (10 + 9 + … + 1)/400
    // = 55/400 = 11/80; strictly above: 45/400 = 9/80; ties 10/400.
    let v = odds_json(&[
        "d20",
        "--advantage",
        "--disadvantage",
        "--vs-modifier",
        "5",
        "--vs-proficiency",
        "5",
        "--tie-rule",
        "attacker",
        "--exact",
    ]);
    assert_eq!(v["p_success"], "11/80");
    assert_eq!(v["p_win"], "11/80");
    assert_eq!(v["p_tie"], "0/1");
    assert_eq!(v["p_loss"], "69/80");
    assert_eq!(v["p_win_roll"], "9/80");
    assert_eq!(v["p_tie_roll"], "1/40");
    assert_eq!(v["p_loss_roll"], "69/80");
}

#[test]
fn pushing_the_limit_ignores_it_unless_asked() {
    // Shadowrun 5: dice pushed with Edge ignore the limit. With the default
    // a pushed roll under a limit is the same roll without one; with
    // `--edge-limit apply` no roll gets more hits than the limit.
    let base = [
        "hit-pool",
        "--pool",
        "4",
        "--threshold",
        "2",
        "--edge",
        "2",
        "--exact",
    ];
    let no_limit = odds_json(&base);
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        odds_json(&a)
    };
    let pushed = with(&["--limit", "1"]);
    assert_eq!(pushed["p_success"], no_limit["p_success"]);
    assert_ne!(no_limit["p_success"], "0/1");
    assert_eq!(pushed["params"]["edge_limit"], "ignore");
    let strict = with(&["--limit", "1", "--edge-limit", "apply"]);
    assert_eq!(strict["p_success"], "0/1");
    // Second chance keeps the limit.
    let second = with(&["--limit", "1", "--edge-use", "second-chance"]);
    assert_eq!(second["p_success"], "0/1");
}

#[test]
fn perception_needs_a_success_by_default() {
    // Seed 000: only a success that beats the stealth result perceives. A
    // perceiver who can only fail (rate 0 → every roll fails or fumbles)
    // never notices by default, but beats a fumbled stealth roll under the
    // literal tier order.
    let seed = odds_json(&[
        "multiplier",
        "--rate",
        "0",
        "--perception",
        "--vs-rate",
        "50",
        "--exact",
    ]);
    assert_eq!(seed["p_win"], "0/1");
    assert_eq!(seed["params"]["perception_rule"], "needs-success");
    let literal = odds_json(&[
        "multiplier",
        "--rate",
        "0",
        "--perception-rule",
        "higher-tier",
        "--vs-rate",
        "50",
        "--exact",
    ]);
    assert_ne!(literal["p_win"], "0/1");
}

#[test]
fn several_main_persons_add_their_abilities_in_full() {
    // Seed 000: メインの人物(能力値を半減しない)を増やしてもかまいません — two
    // main persons of 12 and 8 roll as one of 20 (rate 100), while a
    // supporter of 8 adds only 4 (rate 80).
    let co = odds_json(&[
        "multiplier",
        "--ability",
        "12",
        "--co-ability",
        "8",
        "--exact",
    ]);
    let one = odds_json(&["multiplier", "--ability", "20", "--exact"]);
    assert_eq!(co["p_success"], one["p_success"]);
    assert_eq!(co["rate"], 100);
    assert_eq!(co["params"]["ability"], 12);
    assert_eq!(co["params"]["co_abilities"], serde_json::json!([8]));
    let sup = odds_json(&[
        "multiplier",
        "--ability",
        "12",
        "--supporter",
        "8",
        "--exact",
    ]);
    assert_eq!(sup["rate"], 80);
    expect_usage_error(
        &[
            "odds",
            "multiplier",
            "--ability",
            "600",
            "--co-ability",
            "500",
        ],
        "--co-ability",
    );
}

#[test]
fn contests_of_more_than_two_sides_report_every_sides_chance_on_top() {
    // Three equal sides: by symmetry each is on top with 1/3 after stalled
    // rounds are rolled again.
    let v = odds_json(&[
        "multiplier",
        "--ability",
        "12",
        "--vs-ability",
        "12",
        "--side",
        "ability=12",
        "--exact",
    ]);
    assert_eq!(v["p_top"], serde_json::json!(["1/3", "1/3", "1/3"]));
    assert_eq!(v["p_win"], "1/3");
    assert_eq!(v["p_success"], "1/3");
    assert_eq!(v["p_tie"], "0/1");
    // A further side needs the second one, and takes only a side's flags.
    expect_usage_error(
        &[
            "odds",
            "multiplier",
            "--ability",
            "12",
            "--side",
            "ability=10",
        ],
        "--side",
    );
    expect_usage_error(
        &[
            "odds",
            "multiplier",
            "--ability",
            "12",
            "--vs-rate",
            "5",
            "--side",
            "vs-rate=3",
        ],
        "--side 'vs-rate=3'",
    );
}
