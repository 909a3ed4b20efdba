//! Malformed or runaway analysis files (issues 13 and 14): refused with
//! exit 2, one line naming the key and what is allowed, nothing written.

use std::path::PathBuf;

use crate::common::hantei;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hantei-valid-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const HEAD: &str = r#"title = "t"
system = "d20"
metrics = ["p_success"]
"#;

const AXIS: &str = r#"
[[axis]]
param = "dc"
range = [5, 6]
"#;

/// Run `cmd` on a file with `body`; expect exit 2, one line on stderr
/// holding every needle, and an empty output directory.
fn refused(cmd: &str, tag: &str, body: &str, needles: &[&str]) {
    let dir = temp(tag);
    let file = dir.join("a.toml");
    std::fs::write(&file, body).unwrap();
    let out_dir = dir.join("out");
    let mut c = hantei();
    c.arg(cmd).arg(&file);
    if cmd == "run" {
        c.arg("--out").arg(&out_dir);
    }
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{tag}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{tag}: {err}");
    for n in needles {
        assert!(err.contains(n), "{tag}: '{err}' lacks '{n}'");
    }
    let written: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "a.toml" && n != "out")
        .collect();
    assert!(written.is_empty(), "{tag}: wrote {written:?}");
    assert!(
        std::fs::read_dir(&out_dir).map_or(true, |mut d| d.next().is_none()),
        "{tag}: wrote into out/"
    );
}

#[test]
fn names_and_chart_ids_are_plain_unique_stems() {
    for (tag, name) in [("up", "../escape"), ("empty", ""), ("slash", "a/b")] {
        let body = format!("name = \"{name}\"\n{HEAD}{AXIS}");
        refused("run", tag, &body, &["key 'name'", "plain file stem"]);
    }
    for (tag, id) in [("id-up", "/../../x"), ("id-empty", ""), ("id-slash", "a/b")] {
        let body = format!("{HEAD}{AXIS}\n[[chart]]\nid = \"{id}\"\nkind = \"line\"\nx = \"dc\"\ny = \"p_success\"\n");
        refused("run", tag, &body, &["key 'id'"]);
    }
    let body = format!(
        "{HEAD}{AXIS}\n[[chart]]\nid = \"c\"\nkind = \"line\"\nx = \"dc\"\ny = \"p_success\"\n\n[[chart]]\nid = \"c\"\nkind = \"bar\"\nx = \"dc\"\ny = \"p_success\"\n"
    );
    refused("run", "id-twice", &body, &["two charts have the id c"]);
}

#[test]
fn runaway_sweeps_are_counted_and_refused_before_any_work() {
    let body = format!(
        "{HEAD}\n[[axis]]\nparam = \"dc\"\nrange = [-9223372036854775808, 9223372036854775807]\n"
    );
    refused(
        "run",
        "huge-range",
        &body,
        &["key 'range'", "above the sweep limit", "max_points"],
    );
    refused(
        "check",
        "huge-range-check",
        &body,
        &["key 'range'", "max_points"],
    );
    let body = "title = \"t\"\nsystem = \"multiplier\"\nmetrics = [\"p_success\"]\n\n[[axis]]\nparam = \"ability\"\nrange = [0, 1000]\n\n[[axis]]\nparam = \"multiplier\"\nrange = [-1000, 1000]\n\n[[axis]]\nparam = \"modifier\"\nrange = [0, 4]\n";
    refused(
        "run",
        "product",
        body,
        &["10015005 points", "limit of 1000000"],
    );
}

#[test]
fn malformed_files_are_errors_not_empty_columns() {
    let body = format!("title = \"t\"\nsystem = \"d20\"\nmetrics = [\"p_sucess\"]\n{AXIS}");
    refused(
        "run",
        "metric",
        &body,
        &["p_sucess", "did you mean 'p_success'"],
    );
    let body = format!("{HEAD}\n[[axis]]\nparam = \"dc\"\nrange = [5, 10, 15]\n");
    refused("run", "range3", &body, &["key 'range'", "two numbers"]);
    let body = format!(
        "{HEAD}{AXIS}\n[[axis]]\nname = \"roll\"\nvariants = [{{ label = \"x\" }}, {{ label = \"x\", advantage = true }}]\n"
    );
    refused("run", "labels", &body, &["two values labelled 'x'"]);
    let check = |extra: &str| {
        format!("{HEAD}{AXIS}\n[[check]]\nname = \"c\"\nmessage = \"m\"\nmetric = \"p_success\"\n{extra}")
    };
    refused(
        "check",
        "between",
        &check("between = [0.9, 0.1]\n"),
        &["reversed"],
    );
    let twice = format!(
        "{}\n[[check]]\nname = \"c\"\nmessage = \"m\"\nmetric = \"p_success\"\nbetween = [0, 1]\n",
        check("between = [0, 1]\n")
    );
    refused("check", "names", &twice, &["two checks are named 'c'"]);
    refused(
        "check",
        "mc",
        &check("monte_carlo = 100000000000\n"),
        &["100000000000", "allowed 10000..=100000000"],
    );
}

#[test]
fn toml_type_errors_name_the_key() {
    for (tag, body, key) in [
        (
            "sys5",
            "title = \"t\"\nsystem = 5\nmetrics = [\"p_success\"]\n".to_string(),
            "key 'system'",
        ),
        (
            "labels",
            format!("labels = \"fr\"\n{HEAD}{AXIS}"),
            "key 'labels'",
        ),
        (
            "float",
            format!("{HEAD}\n[[axis]]\nparam = \"dc\"\nrange = [5.5, 10]\n"),
            "key 'range'",
        ),
        (
            "strings",
            format!("{HEAD}\n[[axis]]\nparam = \"dc\"\nrange = [\"a\", \"b\"]\n"),
            "key 'range'",
        ),
    ] {
        refused("run", tag, &body, &[key]);
    }
}

#[test]
fn an_empty_directory_is_an_error_for_run_and_check() {
    let dir = temp("emptydir");
    for cmd in ["run", "check"] {
        let o = hantei().arg(cmd).arg(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("holds no .toml analysis files"));
    }
}

#[test]
fn a_failed_write_changes_nothing() {
    let dir = temp("dirtarget");
    let file = dir.join("good.toml");
    std::fs::write(&file, format!("{HEAD}{AXIS}")).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("good.md")).unwrap();
    let o = hantei()
        .arg("run")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        !out.join("good.csv").exists(),
        "good.csv was moved into place"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn verify_refuses_trial_counts_that_cannot_test_or_never_end() {
    for n in ["1", "10000000000"] {
        let o = hantei().args(["verify", "--trials", n]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{n}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--trials") && err.contains("10000..=100000000"),
            "{err}"
        );
    }
}

#[test]
fn flag_errors_name_the_flag_and_what_is_allowed() {
    for (args, needles) in [
        (
            &["odds", "d20", "--dc", "1e9"][..],
            &["--dc", "'1e9' is not an integer", "-50..=100"][..],
        ),
        (
            &["odds", "hit-pool", "--pool", "99999999999999999999"],
            &["--pool", "too large", "-100..=300"],
        ),
        (
            &["odds", "hit-pool", "--pool", "5", "--threshold", "-1"],
            &["--threshold", "-1"],
        ),
        (
            &["odds", "hit-pool", "--pool", "5", "--limit", "-1"],
            &["--limit", "0..=1000"],
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "5",
                "--helper",
                "2",
                "--team-cap",
                "-1",
            ],
            &["--team-cap"],
        ),
        (
            &["odds", "hit-pool", "--pool", "5", "--tail-eps", "-1"],
            &["--tail-eps"],
        ),
        (
            &["odds", "hit-pool", "--pool", "5", "--vs-pool", "100000"],
            &["--vs-pool", "-100..=300"],
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "5",
                "--vs-pool",
                "5",
                "--vs-edge",
                "99",
            ],
            &["--vs-edge"],
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "5",
                "--vs-pool",
                "5",
                "--vs-limit",
                "-2",
            ],
            &["--vs-limit"],
        ),
        (
            &[
                "odds",
                "keep-highest",
                "--ability",
                "5",
                "--tie-rule",
                "active",
            ],
            &["--tie-rule applies only to a contest"],
        ),
        (
            &[
                "odds", "hit-pool", "--pool", "51", "--edge", "50", "--exact",
            ],
            &["at most 100 dice", "drop --exact"],
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "20",
                "--edge",
                "11",
                "--edge-use",
                "push-after",
                "--exact",
            ],
            &["at most 30 dice", "drop --exact"],
        ),
        (
            &[
                "odds",
                "hit-pool",
                "--pool",
                "60",
                "--threshold",
                "20",
                "--extended",
                "--exact",
            ],
            &["--pool × --max-rolls", "at most 1600 dice", "drop --exact"],
        ),
        (
            &[
                "odds",
                "multiplier",
                "--ability",
                "12",
                "--successes",
                "1000",
                "--attempts",
                "1000",
                "--exact",
            ],
            &["at most 40000", "drop --exact"],
        ),
        (
            &[
                "odds", "hit-pool", "--pool", "3", "--helper", "1", "--helper", "1", "--helper",
                "1", "--helper", "1", "--helper", "1", "--helper", "1", "--helper", "1",
                "--helper", "1", "--helper", "1", "--helper", "1", "--helper", "1", "--helper",
                "1", "--helper", "1", "--helper", "1", "--helper", "1", "--helper", "1",
                "--helper", "1", "--helper", "1", "--helper", "1", "--helper", "1", "--helper",
                "1",
            ],
            &["21 helpers", "at most 20"],
        ),
        (&["verify", "--trials", "-1"], &["--trials", "whole number"]),
        (&["verify", "--threads", "-1"], &["--threads", "1..=1024"]),
        (&["verify", "--seed", "-1"], &["--seed", "whole number"]),
    ] {
        let o = hantei().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
        }
    }
}

/// Issue 21: run `args` (in `dir`, or the repository); expect exit 2 and
/// one line on stderr holding every needle and none of the `not` texts.
fn refused_cli(args: &[&str], needles: &[&str], not: &[&str]) -> String {
    let o = hantei()
        .args(args)
        .current_dir(crate::common::repo(""))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
    }
    for n in not {
        assert!(!err.contains(n), "{args:?}: '{err}' holds '{n}'");
    }
    err
}

/// `hantei ARGS` answers (exit 0); `what` names the case if it does not.
fn answered_cli<S: AsRef<std::ffi::OsStr>>(args: &[S], what: &str) {
    let o = hantei().args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn messages_say_what_is_allowed() {
    // Issue 21 item 6, one by one.
    refused_cli(
        &["diff", "--tolerance", "abc"],
        &["--tolerance", "'abc'", "0 or more"],
        &["invalid float literal"],
    );
    refused_cli(
        &["diff", "--tolerance", "-1"],
        &["--tolerance", "'-1'", "0 or more"],
        &["-- -1"],
    );
    refused_cli(
        &["serve", "--bind", "no-such-host.invalid"],
        &["--bind", "IP address", "host name"],
        &["invalid IP address syntax"],
    );
    refused_cli(
        &[
            "odds",
            "multiplier",
            "--ability",
            "12",
            "--vs-ability",
            "10",
            "--side",
            "ability",
        ],
        &["--side 'ability'", "ability=N", "KEY=VALUE"],
        &["true is not an integer"],
    );
    refused_cli(
        &["diff", "--against", "nosuchrev"],
        &["--against", "nosuchrev", "HEAD~1"],
        &[": )", "( "],
    );
    refused_cli(
        &["odds", "dice", "1000R6>=2", "--exact"],
        &["counting 1000R6", "1000D6{>=2:1}!>=2", "drop --exact"],
        &[],
    );
    refused_cli(
        &["odds", "dice", "2D6", "--vs", "1D6>=4"],
        &["--vs", ">=4", "ignored", "--vs \"1D6\""],
        &[],
    );
}

#[test]
fn a_tier_cut_by_a_shell_says_to_quote_it() {
    // `--tier critical:natural>=19` unquoted: bash passes
    // `critical:natural` and writes a file `=19`.
    refused_cli(
        &["odds", "dice", "1D20+5", "--tier", "critical:natural"],
        &[
            "--tier",
            "critical:natural",
            "quote",
            "'critical:natural>=19'",
        ],
        &[],
    );
    refused_cli(
        &["odds", "dice", "1D20+5", "--tier", "hit:", "--tier", "miss"],
        &["--tier", "quote", "'hit:>=15'"],
        &[],
    );
}

#[test]
fn exact_runs_past_their_limit_are_refused_at_once() {
    // Issue 21 item 8: each took minutes (or worked 23 s then refused);
    // now refused before any work, naming the work and the way out.
    for expr in [
        "200D100KH40",
        "200D20KH100+200D20KL100",
        "1000U6[2]",
        "1000D140",
        "1000D100",
    ] {
        let err = refused_cli(&["odds", "dice", expr, "--exact"], &["drop --exact"], &[]);
        assert!(err.contains("--exact"), "{expr}: {err}");
    }
    // Keep/drop over big integers answers (100D6KH50 took 22 s on
    // fractions), exactly: its mean, against floating point. So does
    // 200D10KH100, refused while the programme carried every count placed
    // (2.2·10¹⁰ word operations), 0.3 s once it carries the counts short
    // of the kept alone.
    for expr in ["100D6KH50", "200D10KH100", "100D100KL2"] {
        let mean = |exact: bool| {
            let mut c = hantei();
            c.args(["odds", "--format", "json", "dice", expr]);
            if exact {
                c.arg("--exact");
            }
            let o = c.output().unwrap();
            assert!(
                o.status.success(),
                "{expr}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            j["mean"].clone()
        };
        let exact = mean(true);
        let (n, d) = exact.as_str().unwrap().split_once('/').unwrap();
        let (n, d): (f64, f64) = (n.parse().unwrap(), d.parse().unwrap());
        assert!(
            (n / d - mean(false).as_f64().unwrap()).abs() < 1e-9,
            "{expr}: {exact}"
        );
    }
    // The refused commands in floating point are not touched by it.
    answered_cli(
        &["odds", "dice", "200D10KH100", "--format", "json"],
        "200D10KH100",
    );
}

#[test]
fn one_tie_rule_vocabulary_everywhere() {
    // Issue 21 item 7: attacker, defender, reroll, tie (and the old names
    // separate, active, passive) in every system with contests; reports
    // print the names they printed before.
    let systems: [(&str, &[&str]); 4] = [
        ("d20", &["d20", "--modifier", "3", "--vs-modifier", "2"]),
        (
            "keep-highest",
            &[
                "keep-highest",
                "--ability",
                "6",
                "--dice",
                "2",
                "--vs-ability",
                "6",
            ],
        ),
        ("hit-pool", &["hit-pool", "--pool", "4", "--vs-pool", "3"]),
        ("dice", &["dice", "2D6", "--vs", "2D6"]),
    ];
    for (system, args) in systems {
        for (rule, printed) in [
            ("attacker", ["attacker", "active"]),
            ("active", ["attacker", "active"]),
            ("defender", ["defender", "passive"]),
            ("passive", ["defender", "passive"]),
            ("reroll", ["reroll", "reroll"]),
            ("tie", ["tie", "separate"]),
            ("separate", ["tie", "separate"]),
        ] {
            let o = hantei()
                .args(["odds", "--format", "json", "--exact"])
                .args(args)
                .args(["--tie-rule", rule])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{system} {rule}: {err}");
            let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let got = j["params"]["tie_rule"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            assert!(
                printed.contains(&got.as_str()),
                "{system} {rule}: printed {got}"
            );
            // Under reroll no tie stands; under tie/separate one may.
            if rule == "reroll" {
                assert_eq!(j["p_tie"], "0/1", "{system}");
            }
            if matches!(rule, "tie" | "separate") {
                // Equal sides tie now and then, and the tie stands.
                assert_ne!(j["p_tie"], "0/1", "{system}");
            }
        }
    }
}

/// Issue 30 item 1, from an analysis file: a Sword World modifier past the
/// common notation's 10⁹ is refused with its bound (exit 2, one line,
/// nothing written), where it aborted allocating 80 TB.
#[test]
fn a_huge_modifier_in_an_analysis_is_refused_not_an_abort() {
    let body = r#"title = "t"
system = "dice"
params = { expr = "K0+{m}", game = "SwordWorld2.5" }
metrics = ["p_critical"]

[[axis]]
param = "m"
values = [9999999999999]
"#;
    refused(
        "run",
        "sw-modifier",
        body,
        &["a modifier is at most 1000000000"],
    );
}

/// A result wider than a law holds (`law::MAX_SPAN` values) is refused at
/// once, named or not, read by any tiers: a roll of named terms or one
/// read by its maximum went through the pool engine, whose tuples hold any
/// value, and its total's law was then a vector over the whole span
/// (`1D2[a]*1000000000*1000000000+1D2[b]` aborted asking for 8·10¹⁸
/// bytes; `1D6!*1000000000` read by `max` took 24 GB before it was
/// killed). The same rolls a little narrower still answer.
#[test]
fn results_wider_than_a_law_are_refused_named_or_not() {
    let wide = [
        "1D2[a]*1000000000*1000000000+1D2[b]",
        "(1D2[a]*1000000000*1000000000*4)-(1D2[b]*1000000000*1000000000*4)+1D6[c]",
        "(1D2[a]*1000000000)*(1D2[b]*1000000000)",
        "{1D2[a]*1000000000,1D6[b]}KH1",
        "1D6[a]*300000+1D6[b]*300000+1D6[c]*300000",
        "1D6!*1000000000",
        "1D6![a]*1000000000",
        // benches/fuzz/inputs.py, seed 4: 10 million pairs of long
        // fractions before the span was refused (past 30 s).
        "10D1000*2D1000DL1",
    ];
    let reads: [&[&str]; 4] = [
        &[],
        &["--tier", "x:total>=2", "--tier", "z"],
        &["--tier", "x:max>=2", "--tier", "z"],
        &["--exact"],
    ];
    for expr in wide {
        for read in reads {
            let mut args = vec!["odds", "dice", expr];
            args.extend_from_slice(read);
            refused_cli(&args, &["spans", "at most 2000000"], &["panicked"]);
        }
    }
    // Found by benches/fuzz/inputs.py (seed 1): the number in brackets
    // takes the roll to the pool engine, whose product of two parts is
    // now refused from their extremes before its 2 million pairs are made
    // (read exactly, the sum of 10D1000! is refused first).
    for read in &reads[..3] {
        let mut args = vec!["odds", "dice", "65536*10D1000!*6D6+(99)"];
        args.extend_from_slice(read);
        refused_cli(&args, &["a product or quotient spans"], &["panicked"]);
    }
    for expr in ["1D2[a]*100000+1D2[b]", "1D6![a]*1000", "1D6!*1000"] {
        answered_cli(
            &["odds", "dice", expr, "--tier", "x:max>=2", "--tier", "z"],
            expr,
        );
    }
}

/// A push read exactly is refused from its estimate (steps × dice, each
/// step on fractions as long as the dice make them) before any work:
/// `4D100r1` pushed on 2..5 took 35 s and `6D100r1` ran past 40 s
/// (benches/fuzz/inputs.py, seed 7). The same pushes in floating point,
/// and a small exact one, still answer.
#[test]
fn an_exact_push_past_its_work_is_refused_at_once() {
    let push = |expr: &str| {
        vec![
            "odds".to_string(),
            "dice".into(),
            expr.into(),
            "--tier".into(),
            "a:total*2>=5".into(),
            "--tier".into(),
            "b".into(),
            "--push".into(),
            "b".into(),
            "--push-dice".into(),
            "2..5".into(),
            "--outcomes-only".into(),
        ]
    };
    for expr in ["4D100r1", "6D100r1", "20D8"] {
        let mut args = push(expr);
        args.push("--exact".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_cli(
            &args,
            &["pushing", "with --exact", "drop --exact"],
            &["panicked"],
        );
    }
    for (expr, exact) in [("6D100r1", false), ("3D20", true)] {
        let mut args = push(expr);
        if exact {
            args.push("--exact".into());
        }
        answered_cli(&args, expr);
    }
}

/// Exact rounds whose fractions would take minutes to reduce (each round's
/// fraction longer by the roll's denominator, a gcd quadratic in it) are
/// refused at once, naming the way out (benches/fuzz/inputs.py, seed 10:
/// `1000B1000>=5 --exact --until 7 --rounds 100` ran past 100 s). Fewer
/// rounds, and the same rounds in floating point, still answer.
#[test]
fn exact_rounds_past_their_reductions_are_refused_at_once() {
    exact_rounds_refused(("1000B1000>=5", "7"), "100", "word operations", "5");
}

/// Exact rounds whose multiply-adds would take half a minute (each
/// round's weights longer by the roll's denominator, every weight met by
/// each of the roll's increments) are refused at once, naming the way out
/// (benches/fuzz/inputs.py, seed 15: `50DF!<>-999999999 --exact --until
/// 1000 --rounds 10` answered after 25 s, past the 10 s promised). Fewer
/// rounds, and the same rounds in floating point, still answer.
#[test]
fn exact_rounds_past_their_multiplications_are_refused_at_once() {
    exact_rounds_refused(
        ("50DF!<>-999999999", "1000"),
        "10",
        "word operations of multiplying",
        "2",
    );
}

/// A push whose one die's rerolled faces meet its fresh faces in more
/// pairs than a law may hold is refused before they meet, naming the
/// states (benches/fuzz/inputs.py, seed 17: `1D1000!!` pushed on every
/// face built 36 million pairs, 2.7 GB, and aborted after 6.8 s). Year
/// Zero's push, whose faces read alike but for sixes and ones, answers.
#[test]
fn a_push_past_its_pairs_of_faces_is_refused_at_once() {
    let push = |expr: &str, dice: &str| {
        [
            "odds",
            "dice",
            expr,
            "--tier",
            "a:>=1000000000",
            "--tier",
            "b",
            "--push",
            "b",
            "--push-dice",
            dice,
        ]
        .map(str::to_string)
    };
    for expr in ["1D1000!!", "10D6r<=5*-99+1D1000!!+{3D10KL2}KH1"] {
        let args = push(expr, "1..1000000000");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_cli(
            &args,
            &["2000000 states", "rerolled and pushed faces"],
            &["panicked", "memory allocation"],
        );
    }
    answered_cli(&push("5D6[base]+3D6[skill]", "2..5"), "Year Zero's push");
}

/// `odds dice EXPR --until UNTIL --rounds REFUSED --exact` is refused,
/// naming the rounds, exact fractions, `what` and `drop --exact`; `fewer`
/// rounds exactly, and `refused` rounds in floating point, answer.
fn exact_rounds_refused((expr, until): (&str, &str), refused: &str, what: &str, fewer: &str) {
    let args = |rounds: &str, exact: bool| {
        let mut a = vec!["odds", "dice", expr, "--until", until, "--rounds"];
        a.push(rounds);
        if exact {
            a.push("--exact");
        }
        a.into_iter().map(str::to_string).collect::<Vec<String>>()
    };
    let refused_args = args(refused, true);
    let refused_args: Vec<&str> = refused_args.iter().map(String::as_str).collect();
    let rounds = format!("{refused} rounds");
    refused_cli(
        &refused_args,
        &[&rounds, "exact fractions", what, "drop --exact"],
        &["panicked"],
    );
    for (rounds, exact) in [(fewer, true), (refused, false)] {
        answered_cli(
            &args(rounds, exact),
            &format!("{rounds} rounds, exact {exact}"),
        );
    }
}
