//! Tests of `src/request/multiplier.rs` (`hantei::request::multiplier`).

use hantei::cli::main_with_args;

fn run(args: &str) -> Result<serde_json::Value, String> {
    let argv = [
        "hantei",
        "odds",
        "--format",
        "json",
        "--exact",
        "multiplier",
    ]
    .into_iter()
    .map(String::from)
    .chain(args.split_whitespace().map(String::from));
    let out = main_with_args(argv)?;
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

#[test]
fn worked_value_through_the_cli() {
    let j = run("--kind ability --ability 12 --multiplier 5").unwrap();
    assert_eq!(j["system"], "multiplier");
    assert_eq!(j["p_success"], "3/5");
    assert_eq!(j["p_fumble"], "1/20");
    assert_eq!(j["rate"], 60);
    assert_eq!(j["auto_fail_threshold"], 96);
    assert_eq!(j["impossible"], false);
    assert_eq!(j["params"]["guarantee"], true);
    assert_eq!(j["params"]["hundred_is_doubles"], true);
}

#[test]
fn skill_defaults_and_lists() {
    let j = run("--kind skill --ability 12 --skill-level 3,2 --modifier -2 --modifier 1").unwrap();
    // S = 2, F = 2 + 5 − 1 = 6, R = 1 met: 36.
    assert_eq!(j["rate"], 36);
    assert_eq!(j["params"]["required_level"], 1);
    let j = run("--ability 12 --required-level none").unwrap();
    assert_eq!(j["params"]["kind"], "skill");
    assert_eq!(j["rate"], 30);
    assert!(j["params"]["required_level"].is_null());
    let j = run("--rate 125").unwrap();
    assert_eq!(j["auto_fail_threshold"], 98);
}

#[test]
fn contest_perception_extended() {
    let j = run("--ability 12 --vs-ability 12").unwrap();
    assert_eq!(j["p_win"], "1/2");
    assert_eq!(j["p_tie"], "0/1");
    let j = run("--ability 12 --vs-kind skill --vs-ability 12 --vs-required-level 5").unwrap();
    assert_eq!(j["vs_impossible"], true);
    let j = run("--ability 12 --perception --vs-rate 30").unwrap();
    assert_eq!(j["params"]["perception_rule"], "needs-success");
    let j = run("--ability 12 --perception-rule higher-tier --vs-rate 30").unwrap();
    assert_eq!(j["params"]["perception_rule"], "higher-tier");
    let j = run("--ability 12 --successes 2 --attempts 3 --degrees").unwrap();
    assert_eq!(j["p_done_by"].as_array().map(Vec::len), Some(3));
    assert_eq!(j["params"]["counting"], "degrees");
}

#[test]
fn bad_inputs_are_one_line_errors() {
    for (args, needle) in [
        ("--ability -3", "--ability"),
        (
            "--kind ability --ability 12 --rate 60",
            "--rate does not apply",
        ),
        (
            "--kind random --rate 60 --ability 3",
            "--ability does not apply",
        ),
        ("--kind skill --ability 12 --no-guarantee", "--no-guarantee"),
        ("--kind random", "missing --rate"),
        ("--multiplier 5", "missing --ability"),
        ("--ability 12 --vs-ability 2000", "--vs-ability"),
        ("--ability 12 --perception", "--perception"),
        ("--ability 12 --attempts 3", "--successes"),
        ("--ability 12 --successes 2 --vs-rate 3", "--successes"),
        ("--rate 1001", "--rate"),
        ("--ability 12 --required-level 0", "--required-level"),
        ("--ability 12 --required-level x", "--required-level"),
    ] {
        let e = run(args).unwrap_err();
        assert!(e.contains(needle), "{args}: {e}");
        assert!(!e.contains('\n'), "{args}: {e}");
    }
}
