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

/// `--outcomes-only`: the outcomes and p_success of the whole report,
/// nothing of the result's law; refused, naming the flag, where there is
/// no tier to keep alone (no --tier, a contest, rounds, a game's own
/// command).
#[test]
fn outcomes_only_keeps_the_outcomes_and_names_what_it_cannot_go_with() {
    let args = [
        "dice",
        "3D6[base]+2D6[skill]",
        "--tier",
        "success:count(6)>=1",
        "--tier",
        "failure",
        "--push",
        "failure",
        "--push-dice",
        "2..5",
    ];
    let full = odds_json(&args);
    let alone = odds_json(&[&args[..], &["--outcomes-only"]].concat());
    assert_eq!(alone["outcomes"], full["outcomes"]);
    assert_eq!(alone["p_success"], full["p_success"]);
    assert!(full.get("distribution").is_some() && alone.get("distribution").is_none());
    assert!(alone.get("mean").is_none() && alone.get("sd").is_none());
    assert_eq!(alone["params"]["outcomes_only"], true);
    expect_usage_error(
        &["odds", "dice", "2D6", "--outcomes-only"],
        "--outcomes-only",
    );
    expect_usage_error(
        &[
            "odds",
            "dice",
            "CC(1)<=50",
            "--game",
            "Cthulhu7th",
            "--outcomes-only",
        ],
        "--outcomes-only",
    );
    let tiered = ["odds", "dice", "2D6", "--tier", "a:>=7", "--tier", "b"];
    for (with, needle) in [(["--vs", "2D6"], "--vs"), (["--until", "20"], "--until")] {
        expect_usage_error(&[&tiered[..], &with, &["--outcomes-only"]].concat(), needle);
    }
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

// ---- Issue 30: crashes, numbers outside [0, 1], refused and accepted
// commands, messages, numbers and help. Expected values are worked by
// hand in the comments, never read from the code under test.

/// `hantei …` with a time limit: a run that would take minutes (or hold
/// gigabytes) fails the test instead of hanging it.
fn within(args: &[&str], secs: u64) -> std::process::Output {
    use std::io::Read;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hantei"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // Read both pipes as the command writes: a long answer would fill a
    // pipe and wait on it forever.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            r.read_to_end(&mut v).expect("read a pipe");
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return std::process::Output {
                status,
                stdout: out.join().expect("stdout"),
                stderr: err.join().expect("stderr"),
            };
        }
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hantei {args:?} ran past {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn within_json(args: &[&str], secs: u64) -> Value {
    let mut all = vec!["odds"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = within(&all, secs);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Issue 30 item 1: a modifier never sizes an allocation. The power
/// table's fumble prints 0 and the rest lies past the modifier: the law is
/// read value by value, so `K20+1000000000` is K20's law moved by 10⁹ (the
/// fumble, 2 on 2D6, 1/36, stays at 0); Double Cross likewise (all ten
/// dice showing 1, 10⁻¹⁰, prints 0). Past the common notation's 10⁹ a
/// modifier is refused with its bound (it aborted with "memory allocation
/// of 80000000000632 bytes failed"); a contest against a law moved far
/// away takes no billion steps.
#[test]
fn a_modifier_never_sizes_an_allocation() {
    let plain = within_json(&["dice", "K20", "--game", "SwordWorld2.5", "--exact"], 60);
    let moved = within_json(
        &[
            "dice",
            "K20+1000000000",
            "--game",
            "SwordWorld2.5",
            "--exact",
        ],
        60,
    );
    assert_eq!(moved["outcomes"]["fumble"], "1/36");
    let (p, m) = (
        plain["distribution"].as_object().unwrap(),
        moved["distribution"].as_object().unwrap(),
    );
    assert_eq!(p.len(), m.len());
    for (k, v) in p {
        let x: i64 = k.parse().unwrap();
        let key = if x == 0 { 0 } else { x + 1_000_000_000 };
        assert_eq!(&m[&key.to_string()], v, "K20 value {x}");
    }
    let dx = within_json(&["dice", "10DX7+999999999", "--game", "DoubleCross"], 60);
    assert_close(&dx["p_fumble"], 1e-10);
    for (k, v) in dx["distribution"].as_object().unwrap() {
        let x: i64 = k.parse().unwrap();
        assert!(x == 0 || x > 999_999_999, "{k}");
        assert!(f(v) >= 0.0, "{k}: {v}");
    }
    for game in ["SwordWorld2.5", "SwordWorld2.0"] {
        expect_usage_error(
            &["odds", "dice", "K0+9999999999999", "--game", game],
            "a modifier is at most 1000000000",
        );
    }
    // 1D6+10⁹ always beats 1D6.
    let c = within_json(&["dice", "1D6+1000000000>=4", "--vs", "1D6", "--exact"], 30);
    assert_eq!(
        (c["p_win"].as_str(), c["p_loss"].as_str()),
        (Some("1/1"), Some("0/1"))
    );
}

/// Issue 27 item 4: a game's chain of rolls in exact fractions is refused
/// before any work when it would run too many rounds (`K100@3` rolls on
/// with 35/36 a round: 1,226 rounds to 1e-15, and `K100@4`, `10DX2` ran for
/// minutes), naming the rounds and the limit; the same command in floating
/// point answers, and so does the exact one with a larger `--tail-eps`.
#[test]
fn long_exact_chains_are_refused_at_once() {
    let cases: [(&str, &str, &str); 3] = [
        ("K100@3", "SwordWorld2.5", "1226 rounds"),
        ("K100@4", "SwordWorld2.5", "396 rounds"),
        ("10DX2", "DoubleCross", "349 rounds"),
    ];
    for (expr, game, rounds) in cases {
        let args = ["odds", "dice", expr, "--game", game, "--exact"];
        let out = within(&args, 5);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(rounds) && err.contains("at most 180"), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let v = within_json(&["dice", expr, "--game", game], 30);
        assert!(f(&v["p_critical"]) > 0.0, "{expr}: {v}");
    }
    // K100@4 stops after (33/36)^k < 1e-4: 106 rounds, within the limit.
    let v = within_json(
        &[
            "dice",
            "K100@4",
            "--game",
            "SwordWorld2.5",
            "--exact",
            "--tail-eps",
            "1e-4",
        ],
        30,
    );
    assert!(v["tail_mass"].as_str().is_some(), "{v}");
}

/// Issue 27 item 4: thirty named d6, each read against a threshold, take
/// 2³⁰ states: refused at once (it built 2 million states and a gigabyte
/// before the refusal), while five named dice answer: all five at 3 or
/// more is (4/6)⁵ = 32/243.
#[test]
fn many_named_terms_are_refused_before_any_work() {
    let expr: Vec<String> = (0..30).map(|i| format!("1D6[n{i}]")).collect();
    let cond: Vec<String> = (0..30).map(|i| format!("n{i}>=3")).collect();
    let tier = format!("x:{}", cond.join(" and "));
    let args = ["odds", "dice", &expr.join("+"), "--tier", &tier];
    let start = std::time::Instant::now();
    let out = within(&args, 5);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("named terms") && err.contains("2000000"),
        "{err}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(1), "{err}");
    let v = within_json(
        &[
            "dice",
            "1D6[a]+1D6[b]+1D6[c]+1D6[d]+1D6[e]",
            "--tier",
            "x:a>=3 and b>=3 and c>=3 and d>=3 and e>=3",
            "--exact",
        ],
        10,
    );
    assert_eq!(v["outcomes"]["x"], "32/243");
}

/// A refusal within a second, naming what it must: exit 2, nothing on
/// stdout, every `words` in the message.
fn refused_at_once(args: &[&str], words: &[&str]) {
    let start = std::time::Instant::now();
    let out = within(args, 10);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    for w in words {
        assert!(err.contains(w), "{args:?}: no {w:?} in {err}");
    }
    assert!(
        start.elapsed() < std::time::Duration::from_secs(1),
        "{args:?}: refused after {:?}",
        start.elapsed()
    );
}

/// Issue 27 item 4: the fold, a group's product and a push split by the
/// dice rerolled, whose steps take 25–320 ns where the other algorithms'
/// take 1–3, are refused from their estimates; the fold past `MAX_FOLD_ESTIMATE`: `300D10` read by width
/// and height answered after 18 s (164 million steps, under the running
/// limit), `250D10` after 7 s. A small pool answers: all five of 5D10
/// alike is 10/10⁵.
#[test]
fn long_folds_are_refused_at_once() {
    for n in ["300D10", "250D10"] {
        let args = [
            "odds",
            "dice",
            n,
            "--tier",
            "a:width>=5 and height>=8",
            "--tier",
            "b",
        ];
        refused_at_once(&args, &["by the fold", "at most 250000000"]);
    }
    let v = within_json(
        &[
            "dice",
            "5D10",
            "--tier",
            "a:width>=5",
            "--tier",
            "b",
            "--exact",
        ],
        10,
    );
    assert_eq!(v["outcomes"]["a"], "1/10000");
    // A group's product of items, whose steps take up to 320 ns, past
    // `MAX_PRODUCT_ESTIMATE` (it answered after 19 s and 57 s); the best of
    // a d6 and a d8 is 8 with 1/8 and 1 with 1/48.
    for g in ["{15D6,15D8,15D10,15D12}KH3", "{20D6,20D8,20D10,20D12}KH3"] {
        refused_at_once(&["odds", "dice", g], &["group product", "at most 60000000"]);
    }
    let v = within_json(&["dice", "{1D6,1D8}KH1", "--exact"], 10);
    assert_eq!(v["distribution"]["8"], "1/8");
    assert_eq!(v["distribution"]["1"], "1/48");
    // A push split by the dice rerolled, whose steps take 150–260 ns, past
    // `MAX_PUSH_SPLIT_ESTIMATE`, every pass planned before any runs
    // (`18D10` read by width and pushed answered after 26 s; `20D10` was
    // refused after its first pass, 4.8 s). Two d10 pushed for a pair,
    // the tens kept: 1/10 + 18/100 · 1/10 + 72/100 · 1/10 = 19/100.
    let push = |n: &'static str| {
        [
            "odds",
            "dice",
            n,
            "--tier",
            "s:width>=2",
            "--tier",
            "f",
            "--push",
            "f",
            "--push-dice",
            "1..9",
        ]
    };
    for n in ["18D10", "20D10"] {
        refused_at_once(
            &push(n),
            &["push, by the dice rerolled", "at most 3000000000"],
        );
    }
    let mut args = push("2D10").to_vec();
    args.push("--exact");
    let v = within_json(&args[1..], 10);
    assert_eq!(v["outcomes"]["s"], "19/100");
}

/// Issue 27 item 4: a step that would grow the states far past the limit
/// stops as the map passes it, not after the step: `{2D10!,2D8!,2D6!}KH3`
/// took 5.4 s and 815 MB before its refusal (about 1 s later). It keeps all
/// three of its items, so it is now the running sum of `{2D10!,2D8!,2D6!}`
/// and answers: its mean is 2 · (5.5·10/9 + 4.5·8/7 + 3.5·6/5) (an
/// exploding dS has mean (S+1)/2 · S/(S−1)). With a fourth item, keeping
/// three, the first three items' multisets of totals alone pass the limit,
/// and it is refused from that floor at once. `{3D10!,3D8!,3D6!}KH3`,
/// which built 17 million states in 28 s, and `{5D10!,5D8!,5D6!}KH3`
/// (92 million in 205 s) keep all their three items too: sums, answered.
/// The best three of nine or fifteen exploding dice, each an item, are
/// refused from the group product's estimate at once.
#[test]
fn growing_states_stop_at_the_limit() {
    let one = 5.5 * 10.0 / 9.0 + 4.5 * 8.0 / 7.0 + 3.5 * 6.0 / 5.0;
    for (g, n) in [
        ("{2D10!,2D8!,2D6!}KH3", 2.0),
        ("{3D10!,3D8!,3D6!}KH3", 3.0),
        ("{5D10!,5D8!,5D6!}KH3", 5.0),
        ("{1D10!,1D8!,1D6!}KH3", 1.0),
    ] {
        let v = within_json(&["dice", g], 10);
        let got = v["mean"].as_f64().unwrap();
        let want: f64 = n * one;
        assert!((got - want).abs() < 1e-9, "{g}: {got} against {want}");
    }
    refused_at_once(
        &["odds", "dice", "{2D10!,2D8!,2D6!,1D4}KH3"],
        &["more than 2000000 states", "the kept totals of its items"],
    );
    let each = |n: usize| {
        let dice: Vec<&str> = ["1D10!", "1D8!", "1D6!"]
            .iter()
            .flat_map(|d| std::iter::repeat_n(*d, n))
            .collect();
        format!("{{{}}}KH3", dice.join(","))
    };
    for g in [each(3), each(5)] {
        refused_at_once(
            &["odds", "dice", &g],
            &["group product", "at most 60000000"],
        );
    }
}

/// Issue 27 item 4: a report whose result's law is refused is refused
/// before its tiers' law is built: `100D1000!` read by `doubles` built the
/// matching faces of 100 dice for 2.3 s and was then refused for its
/// total (1.4·10¹¹ multiply-adds). `10D1000!` answers: every die alike
/// (`doubles`) is at most the plain chance 1000/1000¹⁰ = 10⁻²⁷ (a 1000
/// adds a die that must match too).
#[test]
fn a_refused_result_is_refused_before_the_tiers_law() {
    let tiers = ["--tier", "a:doubles", "--tier", "b"];
    for n in ["100D1000!", "30D1000!"] {
        let mut args = vec!["odds", "dice", n];
        args.extend(tiers);
        refused_at_once(&args, &["multiply-adds", "at most 5000000000"]);
    }
    // An opposing roll refused (its sum, 200 dice of 5,999 values) is
    // refused before the roll's own law: the group took 1 s first. And a
    // roll refused from its floors is refused before the opposing roll's
    // law is built (100D10! exactly, 1.3 s). Fuzzer seeds 11 and 12.
    refused_at_once(
        &[
            "odds",
            "dice",
            "{20D8r1,1D20,200D6!!}KH2",
            "--vs",
            "200D1000!",
        ],
        &["multiply-adds", "at most 5000000000"],
    );
    refused_at_once(
        &[
            "odds",
            "dice",
            "200D1000KL2[n0]+1D1000![n1]+20D2[n2]",
            "--exact",
            "--vs",
            "100D10!",
        ],
        &["counted before either part was built"],
    );
    let mut args = vec!["dice", "10D1000!"];
    args.extend(tiers);
    let v = within_json(&args, 10);
    let a = v["outcomes"]["a"].as_f64().unwrap();
    assert!(a > 0.0 && a <= 1e-27 * (1.0 + 1e-12), "{a}");
}

/// Issue 27 item 4: a combination of two parts refused from the floors
/// on their cells before either part is built. `200D6ro1[n0]+8D1000DL1[n1]`
/// read exactly built both parts' exact laws for 1 s before the pairs
/// (7.0 million on 1,114-bit denominators) were refused;
/// `100D1000ri1+3D1000` read by `doubles` built the tiers' law for 3 s
/// before its result's combination (3·10⁸ pairs) was refused. Every
/// term's plan is checked before any law is built in a large roll.
#[test]
fn combinations_are_refused_from_their_parts_floors() {
    refused_at_once(
        &["odds", "dice", "200D6ro1[n0]+8D1000DL1[n1]", "--exact"],
        &["counted before either part was built", "at most 2e7"],
    );
    // An exploding term's highest total is one roll, every die as deep
    // as its chain is built: 8D4!! cut at 28 rolls, 1/4²²⁴ (448 bits),
    // beside 100D100KH3's 664. The exact keep of 100D100KH3 ran 2.4 s
    // before the pairs (272,074 on 1,130-bit denominators) were refused
    // (fuzzer seed 11).
    refused_at_once(
        &["odds", "dice", "100D100KH3[n0]+8D4!![n1]", "--exact"],
        &["counted before either part was built", "at most 2e7"],
    );
    // `100D1000ri1+3D1000` read by `doubles` was refused (its result's
    // 3·10⁸ pairs past 8·10⁷) after 3.1 s, then at once. Its result is a
    // plain sum of parts, a convolution into a dense array (2 ns a pair,
    // its own limit of 2·10⁹ pairs), so it now answers. Its mean by hand:
    // a d1000 rerolled once on a 1 has mean 1/1000 · 1001/2 + 999/1000 ·
    // 501. Doubles (ゾロ目, every die alike): a face other than 1 on all
    // 100 rerolled dice, 1.001/1000 each, and on the 3 others, 1/1000
    // each (all 1s, 10⁻⁶⁰⁰ · 10⁻⁹, is below f64).
    for tiers in [&[][..], &["--tier", "a:doubles", "--tier", "b"]] {
        let mut args = vec!["dice", "100D1000ri1+3D1000"];
        args.extend_from_slice(tiers);
        let v = within_json(&args, 10);
        let mean = v["mean"].as_f64().unwrap();
        let hand = 100.0 * (1001.0 / 2000.0 + 999.0 * 501.0 / 1000.0) + 3.0 * 1001.0 / 2.0;
        assert!((mean - hand).abs() < 1e-9 * hand, "{mean} {hand}");
        if !tiers.is_empty() {
            let hand = 999.0 * 1.001e-3f64.powi(100) * 1e-9;
            let a = v["outcomes"]["a"].as_f64().unwrap();
            assert!((a - hand).abs() < 1e-12 * hand, "{a} {hand}");
        }
    }
    // A group keeping every item is its items' sum, counted as one: in
    // exact fractions it answered after 10.3 s, a running sum; then,
    // counted at 0.85 µs a unit, it was refused; its pairs now meet as
    // integers over each part's common denominator, and it answers. Its
    // moments by hand: a d20 rerolled once on a 1 has mean 1/20 · 21/2 +
    // 19/20 · 11 = 439/40 and E[X²] = 1/20 · 287/2 + 2869/20 = 1205/8;
    // a d1000, 1001/2 and (1000² − 1)/12.
    let v = within_json(&["dice", "{8D20ro1,10D1000}", "--exact"], 10);
    assert_eq!(v["mean"], "25464/5", "8·439/40 + 10·1001/2");
    assert_eq!(
        v["variance"], "166714779/200",
        "8·(1205/8 − (439/40)²) + 10·999999/12"
    );
    refused_at_once(
        &["odds", "dice", "{60D20,60D20[b]}", "--exact"],
        &["exact combination of two parts", "at most 2e7"],
    );
    // A group keeping every item is counted from its items' floors as
    // the sum of them is, before any item's law is built: the two
    // spellings refused alike (the group built its items' exact laws for
    // 0.9 s first).
    for expr in [
        "{1D100!!,20D100!!,30D100,3D6r1}",
        "1D100!!+20D100!!+30D100+3D6r1",
    ] {
        refused_at_once(
            &[
                "odds",
                "dice",
                expr,
                "--tier",
                "a:natural>=19",
                "--tier",
                "b",
                "--exact",
            ],
            &["counted before either part was built", "at most 2e7"],
        );
    }
    // A group whose items' floors put both its fold and its product
    // past their limits, refused before any item's law is built (2.0 s
    // and 1.1 s of items' laws before).
    refused_at_once(
        &[
            "odds",
            "dice",
            "{50D10!,50D4DL1,2D4!}KH2",
            "--tier",
            "a:min<=2",
            "--tier",
            "b",
        ],
        &[
            "counted before its items' laws were built",
            "205447458 state steps by the group product",
        ],
    );
    refused_at_once(
        &[
            "odds",
            "dice",
            "{200D20ri1,100D20DL1,200D8KH1,2D100KH1}KH2",
            "--exact",
        ],
        &[
            "counted before its items' laws were built",
            "at most 2000000 states",
        ],
    );
    // The same counted from its parts' floors before the result's law or
    // either part is built: 2.0 s before (19,981 · 351 pairs).
    refused_at_once(
        &[
            "odds",
            "dice",
            "20D1000-50D8",
            "--tier",
            "a:natural>=19",
            "--tier",
            "b",
            "--exact",
        ],
        &[
            "7013331 pairs",
            "counted before either part was built",
            "at most 6e6",
        ],
    );
    // A group's plain items are counted as plain terms are, before any
    // is built: three items' exact laws took 1.6 s before the fourth's
    // keep/drop was refused. The keeps now carry only the counts short of
    // the kept (law::keep_steps), so its items' laws take milliseconds
    // and the group's own exact work is what is refused.
    refused_at_once(
        &[
            "odds",
            "dice",
            "{20D10ri1,10D3KL2,100D100KL2,200D100KH3}KH2",
            "--exact",
        ],
        &["the exact law of this group of 4 items", "at most 8e6"],
    );
    // The joint law of result and natural dice, exactly: 51 s before.
    refused_at_once(
        &[
            "odds",
            "dice",
            "1D1000+200D10",
            "--tier",
            "a:natural>=19",
            "--tier",
            "b",
            "--exact",
        ],
        &["exact joint law of result and natural dice", "at most 6e6"],
    );
    // A group whose second item's plan is past its limit is refused
    // before the first item's law is built (2.1 s of `100D6!!` before).
    refused_at_once(
        &[
            "odds",
            "dice",
            "{100D6!!,200D4!!}",
            "--tier",
            "a:count(6)>=2",
            "--tier",
            "b",
        ],
        &["class fold", "at most 120000000"],
    );
    // Small enough, it answers: the lowest total, 3, is both d6 rerolling
    // a 1 once showing 1 twice and the last d6 a 1: (1/36)² · 1/6.
    let v = within_json(&["dice", "2D6ro1[a]+1D6[b]", "--exact"], 10);
    assert_eq!(v["distribution"]["3"], "1/7776");
}

/// Issue 27 item 4: an exact Double Cross roll is counted before any
/// work, its groups of 1..=n dice and its chain of rolls (the rounds
/// alone let `30DX7+4`, 41 rounds, run for 20–31 s, `60DX7+4` and
/// `200DX2` for minutes), while `10DX7` answers: nothing at 7 or more
/// and not all ones is 0.6¹⁰ − 0.1¹⁰, the fumble 0.1¹⁰.
#[test]
fn exact_double_cross_is_counted_before_any_work() {
    for expr in ["30DX7+4", "60DX7+4", "60DX10"] {
        let args = ["odds", "dice", expr, "--game", "DoubleCross", "--exact"];
        refused_at_once(&args, &["big-fraction steps", "at most 4000000"]);
    }
    let args = ["odds", "dice", "200DX2", "--game", "DoubleCross", "--exact"];
    refused_at_once(&args, &["200 dice", "at most 10000000"]);
    let v = within_json(&["dice", "10DX7", "--game", "DoubleCross", "--exact"], 30);
    assert_eq!(v["outcomes"]["fumble"], "1/10000000000");
    assert_eq!(v["outcomes"]["no_critical"], "2418647/400000000");
}

/// Issue 27 item 4: a chain of rolls (振り足し) whose rounds before
/// `--tail-eps` take too long is refused before any round, counted from
/// its masses and the spans of its sums alone (`K100+5@3 --tail-eps
/// 1e-300` was refused after 4 s at 5000 rounds, `200DX2` after 15 s);
/// the default `--tail-eps` answers.
#[test]
fn endless_chains_are_refused_before_any_round() {
    let cases = [("K100+5@3", "SwordWorld2.5"), ("200DX2", "DoubleCross")];
    for (expr, game) in cases {
        let args = ["odds", "dice", expr, "--game", game, "--tail-eps", "1e-300"];
        refused_at_once(&args, &["at most"]);
    }
    let args = [
        "odds",
        "dice",
        "K100+5@3",
        "--game",
        "SwordWorld2.5",
        "--tail-eps",
        "1e-300",
    ];
    refused_at_once(&args, &["more than 1000000000 steps", "1870 rounds"]);
    let v = within_json(&["dice", "K100+5@3", "--game", "SwordWorld2.5"], 30);
    assert!(f(&v["p_critical"]) > 0.0, "{v}");
}

/// Issue 27 item 4: a chain whose first roll is a game's chain of rolls
/// (`K100@3`, 1,226 rounds: its law takes about a second) has its
/// follow-ups counted before that law, from the values the first roll can
/// give: 0 (the fumble) to 30 × 1226 = 36780 (K100's 30 at 12, rolled on
/// in every one of the 1,226 rounds the chain runs before less than 1e-15
/// still rolls: (35/36)^1226 ≈ 1.0013e-15). `(result/10)D6` for results
/// of 15 and more is then up to (k)D6 for k = 1..=3678, each about
/// (6k)²/2 steps: 18·Σk² = 2.99·10¹¹ in 3678 follow-ups and the else's
/// 0, past the limit (it was refused after
/// 2.1 s, once the law was known). A follow-up past the dice limit is
/// refused before any follow-up's work (`K100@4`: 1.9 s before). Double
/// Cross's chain is counted before its law too. A small
/// chain still answers: `K20@10 -> >=0: (result/5)D6; 0` rolls no die
/// after a first result below 5, which K20 gives on 2D6 ≤ 6 (1, 2, 3, 4
/// at 3 to 6, the fumble at 2): 15/36 = 5/12.
#[test]
fn game_chains_follow_ups_are_counted_before_the_first_law() {
    let sw = ["--game", "SwordWorld2.5"];
    let mut args = vec!["odds", "dice", "K100@3 -> >=15: (result/10)D6; 0"];
    args.extend_from_slice(&sw);
    refused_at_once(
        &args,
        &[
            "K100@3 (which gives 0 to 36780",
            "3.0e11 steps in 3679 follow-ups",
            "at most 30000000000",
        ],
    );
    let mut args = vec!["odds", "dice", "K100@4 -> >=15: (result/10)D6; 0"];
    args.extend_from_slice(&sw);
    refused_at_once(&args, &["a rolled count is at most 1000 dice"]);
    // Double Cross's chain likewise (200DX2's law takes over a second; this
    // was refused after 3.6 s, at its 1005-die follow-up).
    refused_at_once(
        &[
            "odds",
            "dice",
            "200DX2 -> >=15: (result/2)D10; 0",
            "--game",
            "DoubleCross",
        ],
        &["first roll 200DX2 (which gives 0 to", "at most 30000000000"],
    );
    let mut args = vec!["dice", "K20@10 -> >=0: (result/5)D6; 0", "--exact"];
    args.extend_from_slice(&sw);
    let v = within_json(&args, 10);
    assert_eq!(v["distribution"]["0"], "5/12", "{v}");
}

/// Issue 27 item 4: `--until` is counted before any round: no roll of
/// 2D6 reaches 100000 before round 8334, and those rounds alone are past
/// the limit (it was refused after running 1896 rounds); `1D6-3`
/// subtracting likewise. A threshold of 1 is one roll.
#[test]
fn long_until_runs_are_refused_before_any_round() {
    refused_at_once(
        &["odds", "dice", "2D6", "--until", "100000"],
        &["at least 8333 rounds", "at most 2000000000"],
    );
    refused_at_once(
        &[
            "odds",
            "dice",
            "1D6-3",
            "--until",
            "100000",
            "--until-negative",
            "subtract",
        ],
        &["at least", "at most 2000000000"],
    );
    let v = within_json(&["dice", "1D6", "--until", "1", "--exact"], 30);
    assert_eq!(v["expected_rolls"], "1/1");
}

/// Issue 27 item 4: a rolled count's rolls in exact fractions are
/// counted before any work (`(1D100)D100 --exact`, 5·10⁹ big-fraction
/// steps, and `(1000B6>=2)D6 --exact` ran for minutes), while
/// `(1D20)D20 --exact` answers: its mean is E[N]·E[X] = 10.5² (Wald).
#[test]
fn exact_rolled_counts_are_counted_before_any_work() {
    for expr in ["(1D100)D100", "(1000B6>=2)D6"] {
        refused_at_once(
            &["odds", "dice", expr, "--exact"],
            &["big-fraction steps", "at most 50000000"],
        );
    }
    let v = within_json(&["dice", "(1D20)D20", "--exact"], 30);
    assert_eq!(v["mean"], "441/4");
}

/// Issue 27 item 4: the same law in two spellings is treated alike. A
/// chain whose follow-ups read the first roll into a rolled count,
/// `1D1000 -> >=2: (result)D100; 0`, ran for minutes where `(1D1000)D100`
/// is refused at once; now its follow-ups are counted first. `1D100 ->
/// …` answers: its mean is Σ_{r=2}^{100} r·50.5/100 = 50.5 · 50.49.
#[test]
fn follow_ups_are_counted_before_any_work() {
    refused_at_once(
        &["odds", "dice", "1D1000 -> >=2: (result)D100; 0"],
        &["1000 follow-ups", "at most 30000000000"],
    );
    refused_at_once(&["odds", "dice", "(1D1000)D100"], &["at most"]);
    let v = within_json(&["dice", "1D100 -> >=2: (result)D100; 0"], 30);
    let want = 50.5 * 50.49;
    assert!((f(&v["mean"]) - want).abs() < 1e-9 * want, "{v}");
}

/// Issue 30 item 2: no probability outside [0, 1]. `30D6>=31` fails only
/// on thirty ones, 6⁻³⁰ (it printed −6.7e-16); `999D6>=7` never fails
/// (at least 999), also as read by Insane and Arianrhod; every entry of
/// `10DX7+4`'s distribution is at least 0 and none is 5 (a highest die of
/// 1 is ten ones, the fumble at 0); `1000B10000>=5000` and `100DX2` stay
/// at most 1; a race of a moved law loses with 0, not −2e-16.
#[test]
fn probabilities_stay_within_zero_and_one() {
    let v = odds_json(&["dice", "30D6>=31"]);
    let want = (1.0f64 / 6.0).powi(30);
    let got = f(&v["outcomes"]["failure"]);
    assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
    for game in [None, Some("Insane"), Some("Arianrhod")] {
        let mut args = vec!["dice", "999D6>=7"];
        if let Some(g) = game {
            args.extend(["--game", g]);
        }
        let v = odds_json(&args);
        assert_eq!(f(&v["outcomes"]["failure"]), 0.0, "{game:?}");
        assert_eq!(f(&v["p_success"]), 1.0, "{game:?}");
    }
    let dx = odds_json(&["dice", "10DX7+4", "--game", "DoubleCross"]);
    assert!(
        dx["distribution"].get("5").is_none(),
        "{}",
        dx["distribution"]
    );
    let b = odds_json(&["dice", "1000B10000>=5000"]);
    assert_eq!(f(&b["p_success"]), 1.0);
    let dx2 = within_json(&["dice", "100DX2", "--game", "DoubleCross"], 60);
    for v in [&dx, &b, &dx2] {
        for (k, p) in v["outcomes"].as_object().unwrap() {
            assert!((0.0..=1.0).contains(&f(p)), "{k}: {p}");
        }
        for (k, p) in v["distribution"].as_object().unwrap() {
            assert!((0.0..=1.0).contains(&f(p)), "{k}: {p}");
        }
        for k in ["p_success", "p_critical", "p_fumble", "tail_mass"] {
            if let Some(p) = v.get(k) {
                assert!((0.0..=1.0).contains(&f(p)), "{k}: {p}");
                assert!(!f(p).is_sign_negative(), "{k}: {p}");
            }
        }
    }
    assert_close(&dx2["p_fumble"], 1e-100);
    let race = odds_json(&["dice", "2D6+1000000000", "--vs", "2D6"]);
    assert_eq!(f(&race["p_loss"]), 0.0);
    assert!(!f(&race["p_loss"]).is_sign_negative());
}

/// Issue 30 item 3: commands that always stop are answered. `ro` rerolls
/// once and keeps the second face, so `1D6ro<7` is a d6 and `2D6ro>=1` is
/// 2D6 (7 in 6 of 36); a Night Wizard critical no 2D6 sum reaches (13,
/// or 1) is no chain: `2NW@13` fumbles on a first 5 (4/36) and never
/// criticals; `2R6M[1,0]C[13]F[5]>=10` succeeds on 2D6 + 1 ≥ 10 (10/36)
/// unless a 5 fumbled (4/36, −10 + 1 fails).
#[test]
fn commands_that_always_stop_are_answered() {
    let d6 = odds_json(&["dice", "1D6ro<7", "--exact"]);
    for face in 1..=6 {
        assert_eq!(d6["distribution"][face.to_string()], "1/6");
    }
    let two = odds_json(&["dice", "2D6ro>=1", "--exact"]);
    assert_eq!(two["distribution"]["7"], "1/6");
    assert_eq!(two["distribution"]["2"], "1/36");
    for cmd in ["2NW@13", "2NW@1"] {
        let v = odds_json(&["dice", cmd, "--game", "NightWizard3rd", "--exact"]);
        assert_eq!(v["p_critical"], "0/1", "{cmd}");
        assert_eq!(v["p_fumble"], "1/9", "{cmd}");
        assert_eq!(v["distribution"]["-8"], "1/9", "{cmd}: 2 − 10");
        assert_eq!(v["distribution"]["9"], "1/6", "{cmd}: 7 + 2");
    }
    let v = odds_json(&[
        "dice",
        "2R6M[1,0]C[13]F[5]>=10",
        "--game",
        "NightWizard3rd",
        "--exact",
    ]);
    assert_eq!(v["outcomes"]["success"], "5/18");
    assert_eq!(v["outcomes"]["failure_fumble"], "1/9");
    assert_eq!(v["outcomes"]["failure"], "11/18");
    assert_eq!(v["p_critical"], "0/1");
}

/// Issue 30 item 4: Emoklore's sDA takes skill levels 1–3 or B, as
/// `--list-games` says; 3DA3 rolls three dice against 6.
#[test]
fn emoklore_skill_levels_are_one_to_three_or_b() {
    for cmd in ["4DA3", "0DA3", "10DA3"] {
        expect_usage_error(
            &["odds", "dice", cmd, "--game", "Emoklore"],
            "the skill level s is 1, 2, 3 or B",
        );
    }
    // 3DA3 = 3DM<=6 (BCDice's own test: 2DA3 is 2DM<=5). A die scores 2
    // on a 1, 1 on 2–6, 0 on 7–9, −1 on a 10; a sum of 0 (失敗) comes
    // from 120 of the 1000 face triples: three of 7–9 (3³ = 27), one each
    // of 2–6, 7–9 and 10 (5·3·1·3! = 90), a 1 and two 10s (3) = 3/25.
    let v = odds_json(&["dice", "3DA3", "--game", "Emoklore", "--exact"]);
    assert_eq!(v["outcomes"]["failure"], "3/25");
}

/// Issue 30 item 5: user text in a message is quoted by one helper:
/// control characters escaped (no ESC or BEL reaches the terminal, a
/// newline does not split the line), a long text cut; a flag's value as
/// typed (`1e309`, not `inf`); the bonus's bound named.
#[test]
fn messages_escape_and_cap_what_the_user_typed() {
    let out = hantei()
        .args(["odds", "dice", "1D6", "--game", "x\u{1b}]0;title\u{7}"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains(r"'x\u{1b}]0;title\u{7}'"), "{err}");
    expect_usage_error(
        &["odds", "dice", "2D6", "--tier", "a\nb:>=7", "--tier", "c"],
        r"'a\nb:>=7'",
    );
    expect_usage_error(&["odds", "dice", "1D6!", "--tail-eps", "1e309"], "'1e309'");
    let out = hantei()
        .args(["odds", "dice", "1D6!", "--tail-eps", "1e309"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("inf"));
    expect_usage_error(
        &[
            "odds",
            "dice",
            "1D10",
            "--tier",
            "crit:==10",
            "--tier",
            "hit",
            "--until",
            "20",
            "--until-bonus",
            "crit=+1000000000000",
        ],
        "from -100000 to +100000",
    );
    // A 100 KB expression: the message quotes a part of it, not all twice.
    let long = format!("{}x", "1D6+".repeat(25_000));
    let out = hantei().args(["odds", "dice", &long]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(err.len() < 1_000, "{} bytes", err.len());
    assert!(err.contains("100001 characters in all"), "{err}");
}

/// Issue 30 item 12: Ryutama without a target judges no success (no
/// p_success, as the power table); with one it does. `--exact` `sd` is a
/// fraction or the decimal to 15 significant digits: CC(1)<=50's sd, a
/// root of an irrational variance, has at most 15 digits.
#[test]
fn ryutama_without_a_target_reports_no_success_and_sd_has_fifteen_digits() {
    let v = odds_json(&["dice", "R6,6", "--game", "Ryutama"]);
    assert!(v.get("p_success").is_none(), "{v}");
    // 1/36: two sixes, クリティカル.
    assert_close(&v["p_critical"], 1.0 / 36.0);
    let t = odds_json(&["dice", "R6,6>=7", "--game", "Ryutama"]);
    assert!(t.get("p_success").is_some());
    for (args, game) in [
        (vec!["dice", "CC(1)<=50"], "Cthulhu7th"),
        (vec!["dice", "K20"], "SwordWorld2.5"),
    ] {
        let mut all = args.clone();
        all.extend(["--game", game, "--exact"]);
        let v = odds_json(&all);
        let sd = v["sd"].as_str().expect("a string");
        let digits = sd.chars().filter(char::is_ascii_digit).count();
        assert!(sd.contains('/') || digits <= 16, "{game}: {sd}");
        let lead = sd.trim_start_matches(['0', '.']);
        assert!(
            sd.contains('/') || lead.chars().filter(char::is_ascii_digit).count() <= 15,
            "{game}: {sd}"
        );
    }
    // 2D6's variance 35/6 is no square: its sd, √(35/6) = 2.41522945769824.
    let v = odds_json(&["dice", "2D6+1>=8", "--game", "SwordWorld2.5", "--exact"]);
    assert_eq!(v["sd"], "2.41522945769824");
}

/// Issue 30 item 12: a race's table numbers each side's `p_done_by` from
/// roll 1, as `p_done_by`. 2D6 against 1D12, 30 and 25 to go: neither is
/// done by roll 1 or 2 (at most 24 in two rolls of 1D12, 24 of 2D6).
#[test]
fn race_tables_number_every_done_by_from_roll_one() {
    let out = hantei()
        .args([
            "odds",
            "dice",
            "2D6",
            "--vs",
            "1D12",
            "--until",
            "30",
            "--vs-until",
            "25",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for block in ["p_done_by (", "side_p_done_by:", "vs_p_done_by:"] {
        let first = text
            .lines()
            .skip_while(|l| !l.trim().starts_with(block))
            .nth(1)
            .unwrap_or_else(|| panic!("no {block} in {text}"));
        assert!(first.trim_start().starts_with("1 "), "{block} {first:?}");
    }
}

/// Issue 30 item 13: `odds dice --help` shows EXPR as required, without
/// a default; `--success-tiers`'s help states the real default (marks
/// first); `odds d20 --help` states the natural 20 / natural 1 rule.
#[test]
fn help_says_what_the_commands_do() {
    let help = |args: &[&str]| {
        let out = hantei().args(args).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let dice = help(&["odds", "dice", "--help"]);
    assert!(!dice.contains("[default: \"\"]"), "{dice}");
    assert!(
        dice.contains("Usage: hantei odds dice [OPTIONS] <EXPR>"),
        "{dice}"
    );
    assert!(dice.contains("tiers marked :fail never count"), "{dice}");
    let d20 = help(&["odds", "d20", "--help"]);
    assert!(
        d20.contains("natural 20") && d20.contains("natural 1 always fails"),
        "{d20}"
    );
    // The one-line error without EXPR names it, and nothing of the usage.
    expect_usage_error(&["odds", "dice"], "<EXPR>");
    let out = hantei().args(["odds", "dice"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("--list-games"));
    // d20 +0 against DC 25: only a natural 20 succeeds (1/20); against DC
    // 1 only a natural 1 fails (p_success 19/20).
    let v = odds_json(&["d20", "--modifier", "0", "--dc", "25", "--exact"]);
    assert_eq!(v["p_success"], "1/20");
    let v = odds_json(&["d20", "--modifier", "0", "--dc", "1", "--exact"]);
    assert_eq!(v["p_success"], "19/20");
}

/// Issue 30 item 13 (leftover): the "Arguments:" list of `odds dice
/// --help` drew EXPR as optional (`[EXPR]`), as clap draws every argument
/// that is not `required`. EXPR is `<EXPR>` everywhere in the help; only
/// `--list-games` goes without it, and not with it.
#[test]
fn dice_help_draws_expr_as_required() {
    let out = hantei().args(["odds", "dice", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let args = help
        .split("Arguments:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .unwrap_or_else(|| panic!("no Arguments: block in {help}"));
    assert_eq!(args.lines().nth(1).map(str::trim), Some("<EXPR>"), "{args}");
    assert!(!help.contains("[EXPR]"), "{help}");
    assert!(!help.contains("[default: \"\"]"), "{help}");
    // The short help (-h) as well.
    let out = hantei().args(["odds", "dice", "-h"]).output().unwrap();
    let short = String::from_utf8(out.stdout).unwrap();
    assert!(
        short.contains("<EXPR>") && !short.contains("[EXPR]"),
        "{short}"
    );
    // --list-games alone still lists the games, exit 0.
    let out = hantei()
        .args(["odds", "dice", "--list-games"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(
        list.contains("Cthulhu7th") && list.contains("DoubleCross"),
        "{list}"
    );
    // Other flags go with --list-games as before.
    let out = hantei()
        .args(["odds", "dice", "--list-games", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // Without EXPR: exit 2, one line naming <EXPR>.
    expect_usage_error(
        &["odds", "dice"],
        "required arguments were not provided: <EXPR>",
    );
    expect_usage_error(&["odds", "dice", "--exact", "--tier", "hit:>=7"], "<EXPR>");
    // An EXPR with --list-games is a mistake, said in one line.
    expect_usage_error(&["odds", "dice", "--list-games", "2D6"], "--list-games");
}

/// `--explain` lists the planner's choice for each term on standard error,
/// its estimate made before the work and the steps the work then took,
/// and leaves standard output as it was.
#[test]
fn explain_lists_the_planners_choices_and_leaves_the_answer_alone() {
    let args = [
        "odds",
        "dice",
        "40D6",
        "--tier",
        "many:count(6)>=10 and count(1)<=5",
        "--tier",
        "rest",
        "--format",
        "json",
    ];
    let plain = hantei().args(args).output().unwrap();
    let explained = hantei().args(args).arg("--explain").output().unwrap();
    assert!(plain.status.success() && explained.status.success());
    assert_eq!(plain.stdout, explained.stdout, "the answer is unchanged");
    assert!(plain.stderr.is_empty());
    let err = String::from_utf8(explained.stderr).unwrap();
    let line = err
        .lines()
        .find(|l| l.trim_start().starts_with("40D6:") && l.contains(" took "))
        .unwrap_or_else(|| panic!("no line for 40D6 in:\n{err}"));
    assert!(line.contains("(40 dice)"), "{line}");
    // The passes over the dice come first: tiers that read no total.
    assert!(
        err.contains("passes: the tiers' statistics without the total, then the total alone"),
        "{err}"
    );
    // "estimate E steps, took S steps": the estimate bounds the work.
    let number_after = |word: &str| -> u64 {
        let rest = &line[line
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {line}"))
            + word.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (estimate, took) = (number_after("estimate "), number_after("took "));
    assert!(took > 0 && took <= estimate, "{line}");
    // A group is planned as a whole, after its items.
    let out = hantei()
        .args(["odds", "dice", "{1D8!!,1D6!!}KH1", "--explain"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let at = |what: &str| {
        err.find(what)
            .unwrap_or_else(|| panic!("{what} in:\n{err}"))
    };
    assert!(at("1D8!!:") < at("{1D8!!,1D6!!}KH1: best of a group (2 dice)"));
    // Plain BCDice terms are planned too.
    let out = hantei()
        .args(["odds", "dice", "4D6KH3+1D66", "--explain"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("4D6KH3: keep/drop order statistics (4 dice)")
            && err.contains("1D66: power sum (1 die)"),
        "{err}"
    );
}

/// `--explain` with `--until` names the passes the law of one roll took,
/// decided where a report's are ([`Check::joint_passes`]): the plain law
/// of a BCDice comparison, with the natural dice when a tier reads them,
/// and the pool engine's joint law for a statistic of the dice.
#[test]
fn explain_names_the_passes_of_one_roll_of_until() {
    let cases: [(&[&str], &str); 4] = [
        (&["2D6>=7", "--until", "3"], "the plain law of the result"),
        (
            &[
                "2D6",
                "--tier",
                "top:natural>=10",
                "--tier",
                "rest",
                "--until",
                "20",
            ],
            "the plain law of the result with the natural dice",
        ),
        (
            &["4D6", "--until", "10", "--until-stat", "count(6)"],
            "one joint law of everything the tiers read",
        ),
        (
            &[
                "4D6",
                "--tier",
                "six:count(6)>=1",
                "--tier",
                "rest",
                "--until",
                "10",
            ],
            "one joint law of everything the tiers read",
        ),
    ];
    for (rest, passes) in cases {
        let mut args = vec!["odds", "dice"];
        args.extend_from_slice(rest);
        let plain = hantei().args(&args).output().unwrap();
        let explained = hantei().args(&args).arg("--explain").output().unwrap();
        assert!(
            plain.status.success() && explained.status.success(),
            "{args:?}"
        );
        assert_eq!(
            plain.stdout, explained.stdout,
            "{args:?}: the answer is unchanged"
        );
        let err = String::from_utf8(explained.stderr).unwrap();
        let want = format!("passes of one roll of {}: {passes}\n", rest[0]);
        assert!(err.contains(&want), "{args:?}: no {want:?} in:\n{err}");
    }
    // A race names each side's passes.
    let out = hantei()
        .args([
            "odds",
            "dice",
            "2D6",
            "--until",
            "10",
            "--vs",
            "1D6+4",
            "--explain",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    for side in ["2D6", "1D6+4"] {
        let want = format!("passes of one roll of {side}: the plain law of the result\n");
        assert!(err.contains(&want), "no {want:?} in:\n{err}");
    }
}

/// An exact group is counted before any work (its steps by the planner's
/// estimate, weighted by the bits of its fractions' denominators, which
/// multiply item by item, and the units grow as Karatsuba's products with
/// their length): five items of ten dice keeping two ran for 10–16 s, the
/// best of four items of 1,000 dice for minutes; both are refused at once,
/// while a small group answers exactly (the
/// best of 2D6 and 1D8 is 12 only on double six: 1/36).
#[test]
fn exact_groups_are_counted_before_any_work() {
    refused_at_once(
        &[
            "odds",
            "dice",
            "{10D6,10D8,10D10,10D12,10D20}KH2",
            "--exact",
        ],
        &["big-fraction units", "at most 8e6", "171-bit"],
    );
    // Long denominators: the units grow faster than their bits. Counted
    // from the items' floors before their laws are built: each item's
    // lowest total is all ones, of chance 1/Sⁿ, so its denominator has at
    // least ⌊n·log₂ S⌋ bits (a hair under for S = 8, whose 3,000 bits are
    // exact: the floor stays under). Before, the refusal came after the
    // items' exact laws (2.4 s, then 1.2 s once their mass was no longer
    // summed over long fractions).
    let bits: u64 = [6f64, 8.0, 10.0, 12.0]
        .iter()
        .map(|s| (1000.0 * s.log2() - 1e-9).floor() as u64)
        .sum();
    assert!((12_480..=12_493).contains(&bits), "{bits}");
    refused_at_once(
        &[
            "odds",
            "dice",
            "{1000D6,1000D8,1000D10,1000D12}KH1",
            "--exact",
        ],
        &[
            "big-fraction units",
            &format!("denominators of {bits} bits or more"),
            "counted before its items' laws were built",
            "at most 8e6",
        ],
    );
    // Exploding items: each one's highest total is every die as deep as
    // its chain is built, so the floor is under the 5,841 bits of the
    // longest denominator their laws then have (counted from the laws
    // before this floor).
    let out = within(&["odds", "dice", "{50D10!!,50D8!!}KH1", "--exact"], 10);
    let err = String::from_utf8_lossy(&out.stderr);
    let bits: u64 = err
        .split("denominators of ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("no bits in {err}"));
    assert!((5_000..=5_841).contains(&bits), "{bits}: {err}");
    refused_at_once(
        &["odds", "dice", "{50D10!!,50D8!!}KH1", "--exact"],
        &[
            "big-fraction units",
            "counted before its items' laws were built",
            "at most 8e6",
        ],
    );
    // Steps four times as dear as those measured first (a fuzzer's find:
    // answered after 13.2 s).
    refused_at_once(
        &[
            "odds",
            "dice",
            "{5D100ro1,3D8KL2,30D10}KH2",
            "--exact",
            "--vs",
            "200D2ri1",
        ],
        &["big-fraction units", "2024176 steps", "at most 8e6"],
    );
    // A law read by its values into a map adds each cell to zero no more
    // (a gcd of 2,585 bits each in fractions): refused after 1.0 s, now
    // at once.
    refused_at_once(
        &["odds", "dice", "1000D6", "--until", "20000", "--exact"],
        &["with --exact", "at most 20000000"],
    );
    let v = odds_json(&[
        "dice",
        "{2D6,1D8}KH1",
        "--tier",
        "top:>=12",
        "--tier",
        "rest",
        "--exact",
    ]);
    assert_eq!(v["outcomes"]["top"], "1/36");
}

/// Issue 27: a deep exploding chain is counted before its die's law is
/// built. `2U100[2]` (each d100 compounds on 2+: 3,506 rolls before the
/// tail bound) ran past 30 s; it is refused at once. `1U20[2]` still
/// answers: the chain stops at its first roll only on a 1, so P(1) = 1/20;
/// and `1R100[2]>=50` (three kinds of step: scoring and going on, going
/// on, stopping) counts no success only when the first die shows 1 or
/// the chain ends on a failure after failures: P(0) = Σ (48/100)ᵏ·(1/100)
/// = (1/100)/(1 − 0.48) = 1/52.
#[test]
fn deep_exploding_chains_are_counted_before_their_law() {
    refused_at_once(
        &["odds", "dice", "2U100[2]"],
        &["3506 rolls deep", "at most 5e9", "2D100!!>=2"],
    );
    let v = odds_json(&["dice", "1U20[2]"]);
    let p1 = v["distribution"]["1"].as_f64().unwrap();
    assert!((p1 - 0.05).abs() < 1e-15, "{p1}");
    let v = odds_json(&["dice", "1R100[2]>=50"]);
    let p0 = v["distribution"]["0"].as_f64().unwrap();
    assert!((p0 - 1.0 / 52.0).abs() < 1e-14, "{p0}");
}

/// Every system's `--explain` names the dice program its law came from:
/// the seed systems' dice through the planner (d20, keep-highest,
/// hit-pool), the d100 band systems' one 1D100, a game's chain of rounds.
#[test]
fn every_system_explains_its_dice_program() {
    let cases: [(&[&str], &str); 8] = [
        (
            &[
                "odds",
                "d20",
                "--advantage",
                "--modifier",
                "5",
                "--dc",
                "15",
            ],
            "2D20KH1: extreme",
        ),
        (
            &[
                "odds",
                "keep-highest",
                "--ability",
                "9",
                "--dice",
                "3",
                "--difficulty",
                "6",
            ],
            "3D{2,4,6,8,10,12,14,17}KH1: extreme",
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "12",
                "--edge",
                "4",
                "--threshold",
                "3",
            ],
            "16D6{1:g,2..4:-g,>=5:1-g}!: exploding hits by the hitting-time theorem",
        ),
        (
            &["odds", "multiplier", "--ability", "10"],
            "1D100 read by the tiers' bands",
        ),
        (
            &[
                "odds",
                "levels",
                "--skill",
                "60,30",
                "--level",
                "1",
                "--difficulty",
                "1",
            ],
            "1D100 read under the declared level's value",
        ),
        (
            &["odds", "dice", "10DX7+4", "--game", "DoubleCross"],
            "10DX@7: the dice reaching 7 rolled again, 10 a round: chain of rounds (40 rounds)",
        ),
        // Rolls accumulated towards a threshold: 2D6+1 reaches 20 within
        // 7 rolls (each at least 3), the automatic cap.
        (
            &["odds", "dice", "2D6+1", "--until", "20"],
            "2D6+1 --until 20: rounds accumulated towards the threshold (7 rounds)",
        ),
        (
            &[
                "odds",
                "dice",
                "2D6+1",
                "--until",
                "20",
                "--vs",
                "1D6+3",
                "--vs-until",
                "15",
                "--rounds",
                "5",
            ],
            "2D6+1 --until 20 --vs 1D6+3 --vs-until 15: rounds accumulated towards the threshold (5 rounds)",
        ),
    ];
    for (args, want) in cases {
        let out = hantei().args(args).arg("--explain").output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Issue 27 item 4: a term whose disjoint counts alone take more vectors
/// than the engine holds states is refused from one die's law, before any
/// work: `100D6` read by four counts (C(104, 4) vectors) and `45D6` by all
/// six (C(50, 5)) were refused after 1.4 s, as their maps passed the
/// limit. (One die fewer of the six counts, C(49, 5) = 1,906,884 vectors,
/// answers in 3.8 s: measured, not timed here.)
#[test]
fn counts_past_the_states_are_refused_at_once() {
    refused_at_once(
        &[
            "odds",
            "dice",
            "100D6",
            "--tier",
            "x:count(1)>count(2) and count(3)>count(4)",
            "--tier",
            "y",
        ],
        &["at least 4598126", "100 dice"],
    );
    let six = "x:count(1)>count(2) and count(3)>count(4) and count(5)>count(6)";
    refused_at_once(
        &["odds", "dice", "45D6", "--tier", six, "--tier", "y"],
        &["at least 2118760", "45 dice"],
    );
}
