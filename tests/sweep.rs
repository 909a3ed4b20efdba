//! `--sweep` (判定の掃引): one roll's tiers judged at every value of a
//! placeholder, against each value's own report and against enumeration.

use hantei::report::Field;
use hantei::request::dice::Params;
use hantei::{Exact, Weight};

use crate::common::hantei;

/// The flags of a check with `tiers` (placeholders and all).
fn params(expr: &str, tiers: &[&str], sweep: Option<&str>, outcomes_only: bool) -> Params {
    Params {
        expr: expr.into(),
        tier: tiers.iter().map(|t| t.to_string()).collect(),
        tail_eps: hantei::systems::dice::DEFAULT_TAIL_EPS,
        outcomes_only,
        sweep: sweep.map(str::to_string),
        ..Default::default()
    }
}

/// The table `by_NAME` of a sweep's report: per row, the value and the
/// named probabilities (each tier's, then p_success).
fn table<W: Weight>(r: &hantei::Report<W>, name: &str) -> Vec<(i64, Vec<(String, W)>)> {
    let Some(Field::Rows(rows)) = r.get(&format!("by_{name}")) else {
        panic!("no by_{name} in {:?}", r.fields)
    };
    rows.iter()
        .map(|row| {
            let Some((_, Field::Int(v))) = row.first() else {
                panic!("row without its value: {row:?}")
            };
            let ps = row[1..]
                .iter()
                .map(|(k, f)| match f {
                    Field::Prob(p) => (k.clone(), p.clone()),
                    other => panic!("{k}: {other:?}"),
                })
                .collect();
            (*v, ps)
        })
        .collect()
}

/// Each value's own report (the placeholder written as the number), in
/// the table's shape.
fn one_by_one<W: Weight>(
    expr: &str,
    tiers: &[&str],
    name: &str,
    values: &[i64],
    outcomes_only: bool,
) -> Vec<(i64, Vec<(String, W)>)> {
    own_reports(expr, tiers, name, values, outcomes_only, false)
}

/// Sweeps through every path a sweep's law takes: the parts' product of a
/// sum of named terms (Daggerheart), one term's joint law with counts
/// saturated at the greatest threshold of any value (a pool read by
/// successes), a plain sum, the natural die, exploding dice (their chains
/// cut past the greatest target in `--outcomes-only`), and a BCDice xB
/// command's result.
const CASES: &[(&str, &[&str], &str)] = &[
    (
        "1D12[hope]+1D12[fear]+2",
        &[
            "critical:doubles",
            "success with hope:total>={dc} and hope>fear",
            "success with fear:total>={dc}",
            "failure with hope:hope>fear:fail",
            "failure with fear",
        ],
        "dc=5..25",
    ),
    (
        "6D6",
        &["hit:count(>=5)>={k}", "graze:count(>=5)>={k}-2", "miss"],
        "k=0..7",
    ),
    ("3D6", &["hit:>={dc}", "near:>={dc}-3"], "dc=2,3,9..12,19"),
    (
        "1D20+5",
        &["crit:natural>={c}", "hit:>=15", "miss"],
        "c=18..20",
    ),
    ("1D6!+1D8!", &["high:>={t}", "low"], "t=2..30"),
    ("5B6>=4", &["many:>={k}", "few"], "k=0..6"),
];

/// The values of a `NAME=…` text, as the sweep reads them.
fn values(text: &str) -> (String, Vec<i64>) {
    let s: hantei::systems::dice::sweep::Sweep = text.parse().unwrap();
    (s.name, s.values)
}

#[test]
fn a_sweep_equals_each_values_own_report_exactly() {
    for &(expr, tiers, sweep) in CASES {
        let (name, vals) = values(sweep);
        for outcomes_only in [true, false] {
            let swept = params(expr, tiers, Some(sweep), outcomes_only)
                .report::<Exact>()
                .unwrap_or_else(|e| panic!("{expr} --sweep {sweep}: {e}"));
            assert_eq!(
                table(&swept, &name),
                one_by_one::<Exact>(expr, tiers, &name, &vals, outcomes_only),
                "{expr} --sweep {sweep} (outcomes only: {outcomes_only})"
            );
            // In floating point, the same numbers to the last digits.
            let swept = params(expr, tiers, Some(sweep), outcomes_only)
                .report::<f64>()
                .unwrap();
            for ((v, a), (_, b)) in table(&swept, &name).into_iter().zip(one_by_one::<f64>(
                expr,
                tiers,
                &name,
                &vals,
                outcomes_only,
            )) {
                for ((k, x), (_, y)) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-12, "{expr} {name}={v} {k}: {x} vs {y}");
                }
            }
        }
    }
}

#[test]
fn the_daggerheart_table_equals_enumeration() {
    // Every pair of the two d12, judged by the rule at each difficulty.
    let swept = params(
        "1D12[hope]+1D12[fear]+2",
        CASES[0].1,
        Some("dc=5..25"),
        true,
    )
    .report::<Exact>()
    .unwrap();
    let rows = table(&swept, "dc");
    assert_eq!(rows.len(), 21);
    for (dc, ps) in rows {
        let mut count = [0i64; 5];
        for hope in 1..=12 {
            for fear in 1..=12 {
                let tier = if hope == fear {
                    0
                } else if hope + fear + 2 >= dc {
                    if hope > fear {
                        1
                    } else {
                        2
                    }
                } else if hope > fear {
                    3
                } else {
                    4
                };
                count[tier] += 1;
            }
        }
        for (i, c) in count.iter().enumerate() {
            assert_eq!(ps[i].1, Exact::ratio(*c, 144), "dc {dc}, {}", ps[i].0);
        }
        // Success: the critical and both successes.
        assert_eq!(
            ps[5].1,
            Exact::ratio(count[0] + count[1] + count[2], 144),
            "dc {dc}"
        );
    }
}

#[test]
fn the_sweep_reads_its_values_and_says_what_it_takes() {
    assert_eq!(values("dc=5..8"), ("dc".into(), vec![5, 6, 7, 8]));
    assert_eq!(values(" k = 1,3..4, -2 "), ("k".into(), vec![1, 3, 4, -2]));
    let s: hantei::systems::dice::sweep::Sweep = "dc=5..8,10,12..13".parse().unwrap();
    assert_eq!(s.to_string(), "dc=5..8,10,12..13");
    for (bad, needle) in [
        ("dc", "no '='"),
        ("1dc=3", "no placeholder name"),
        ("dc=9..3", "empty"),
        ("dc=x", "no whole number"),
        ("dc=0..5000", "more than 1000 values"),
    ] {
        let e = bad
            .parse::<hantei::systems::dice::sweep::Sweep>()
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle) && e.contains("--sweep"), "{bad}: {e}");
    }
}

#[test]
fn a_sweep_is_refused_where_it_cannot_read_the_tiers() {
    let daggerheart = ["1D12[hope]+1D12[fear]+2", "--tier", "hit:total>={dc}"];
    for (extra, needle) in [
        (&["--sweep", "x=1..3"][..], "no tier holds {x}"),
        (&["--sweep", "dc=9..3"][..], "--sweep"),
        (&["--sweep", "dc=1..2", "--vs", "2D6"][..], "--vs"),
        (&["--sweep", "dc=1..2", "--until", "3"][..], "--until"),
        (
            &["--sweep", "dc=1..2", "--push", "hit", "--push-dice", "<6"][..],
            "--push",
        ),
        // A placeholder with no sweep to give it values.
        (&[][..], "--sweep dc=LO..HI"),
    ] {
        let mut args = vec!["odds", "dice"];
        args.extend(daggerheart);
        args.extend(extra);
        let o = hantei().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // Another placeholder beside the swept one.
    let o = hantei()
        .args([
            "odds",
            "dice",
            "2D6",
            "--tier",
            "hit:>={dc}+{bonus}",
            "--sweep",
            "dc=5..6",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("{bonus}"));
}

#[test]
fn the_sweep_table_is_in_the_json() {
    let o = hantei()
        .args([
            "odds",
            "dice",
            "2D6+1",
            "--tier",
            "strong hit:>={t}",
            "--tier",
            "weak hit:>={t}-3",
            "--tier",
            "miss",
            "--sweep",
            "t=10..11",
            "--exact",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["params"]["sweep"], "t=10..11");
    assert_eq!(v["params"]["tier"][0], "strong hit:>={t}");
    let rows = v["by_t"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    // PbtA's 2D6+1: 10+ is 9+ on the dice, 26/36 for 6+ … by hand:
    // 2D6 >= 9: 10/36; 6..=8: 16/36; the rest 10/36.
    assert_eq!(rows[0]["t"], 10);
    assert_eq!(rows[0]["strong hit"], "5/18");
    assert_eq!(rows[0]["weak hit"], "4/9");
    assert_eq!(rows[0]["miss"], "5/18");
    assert_eq!(rows[0]["p_success"], "13/18");
    // 2D6 >= 10: 6/36; 7..=9: 15/36.
    assert_eq!(rows[1]["strong hit"], "1/6");
    assert_eq!(rows[1]["weak hit"], "5/12");
}

#[test]
fn a_sweep_past_its_judgings_is_refused_at_once() {
    // Every tuple of the dice judged at every value: the parts' 60,000
    // combinations at 1,000 values are refused before any combination is
    // made; a joint law's 200,000 tuples at 1,000 values (at 200 exactly)
    // once the law (milliseconds) is known.
    let wide = [
        "1D100[a]+1D100[b]+1D20[c]",
        "--tier",
        "x:a+b>={t} and c>=10",
        "--tier",
        "y:a>={t}/2",
        "--outcomes-only",
    ];
    for (args, more, needle) in [
        (
            &[
                "1D20[a]+1D20[b]+1D150[c]",
                "--tier",
                "x:a+b>={t} and c>=10",
                "--outcomes-only",
            ][..],
            &["--sweep", "t=0..999"][..],
            "60000 combinations",
        ),
        (
            &wide[..],
            &["--sweep", "t=0..999"][..],
            "past the limit of 50000000",
        ),
        (
            &wide[..],
            &["--sweep", "t=0..199", "--exact"][..],
            "past the limit of 20000000 in exact fractions",
        ),
    ] {
        let o = hantei()
            .args(["odds", "dice"])
            .args(args)
            .args(more)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?} {more:?}: {err}");
        assert!(
            err.contains(needle) && err.contains("sweep fewer values"),
            "{err}"
        );
    }
    // Under the limit the same roll answers: 200 values.
    let r = params(
        "1D100[a]+1D100[b]+1D20[c]",
        &["x:a+b>={t} and c>=10", "y:a>={t}/2"],
        Some("t=0..199"),
        true,
    )
    .report::<f64>()
    .unwrap();
    assert_eq!(table(&r, "t").len(), 200);
}

/// Each value's own `--outcomes-only` report, the placeholder written as
/// the number in the dice and the tiers alike, in the table's shape (with
/// each value's cut mass where `tail` asks for it).
fn one_by_one_dice<W: Weight>(
    expr: &str,
    tiers: &[&str],
    name: &str,
    values: &[i64],
    tail: bool,
) -> Vec<(i64, Vec<(String, W)>)> {
    own_reports(expr, tiers, name, values, true, tail)
}

/// Each value's own report (`--outcomes-only` where asked), the
/// placeholder written as the number wherever it stands (the dice, the
/// tiers), in the table's shape: the tiers best first as written, then
/// `p_success`, then the cut mass where `tail` asks for it.
fn own_reports<W: Weight>(
    expr: &str,
    tiers: &[&str],
    name: &str,
    values: &[i64],
    outcomes_only: bool,
    tail: bool,
) -> Vec<(i64, Vec<(String, W)>)> {
    let at = |text: &str, v: i64| text.replace(&format!("{{{name}}}"), &v.to_string());
    values
        .iter()
        .map(|&v| {
            let bound: Vec<String> = tiers.iter().map(|t| at(t, v)).collect();
            let bound: Vec<&str> = bound.iter().map(String::as_str).collect();
            let r = params(&at(expr, v), &bound, None, outcomes_only)
                .report::<W>()
                .unwrap_or_else(|e| panic!("{expr} at {name}={v}: {e}"));
            let mut ps: Vec<(String, W)> = r
                .outcomes
                .iter()
                .rev()
                .map(|o| (o.key.to_string(), o.p.clone()))
                .collect();
            ps.push(("p_success".into(), r.p_success.clone()));
            if tail {
                let Some(Field::Prob(t)) = r.get("tail_mass") else {
                    panic!("{expr} at {name}={v}: no tail_mass")
                };
                ps.push(("tail_mass".into(), t.clone()));
            }
            (v, ps)
        })
        .collect()
}

/// Sweeps over the dice: one die's pools by size (built in one pass), the
/// placeholder in the dice and in a tier at once, pools whose dice are
/// kept or dropped (each size its own law), a trait die's size with
/// exploding dice (each value's cut mass in its row), and xB.
const DICE_CASES: &[(&str, &[&str], &str, bool)] = &[
    (
        "{n}D6",
        &[
            "critical:count(==6)>=2",
            "full:max==6",
            "partial:max>=4",
            "bad",
        ],
        "n=1..6",
        false,
    ),
    ("{n}D6", &["hit:total>={n}*4", "miss"], "n=1..5", false),
    (
        "{n}D10KH2",
        &["high:>=15", "mid:>=10", "low"],
        "n=2..5",
        false,
    ),
    (
        "{1D{s}![trait],1D6![wild]}KH1",
        &[
            "critical failure:trait==1 and wild==1:fail",
            "two raises:>=12",
            "raise:>=8",
            "success:>=4",
            "failure",
        ],
        "s=4,6,8",
        true,
    ),
    ("{n}B6>=5", &["two:>=2", "one:>=1", "none"], "n=1..4", false),
];

#[test]
fn a_sweep_over_the_dice_equals_each_values_own_report_exactly() {
    for &(expr, tiers, sweep, tail) in DICE_CASES {
        let (name, vals) = values(sweep);
        let swept = params(expr, tiers, Some(sweep), false)
            .report::<Exact>()
            .unwrap_or_else(|e| panic!("{expr} --sweep {sweep}: {e}"));
        assert_eq!(
            table(&swept, &name),
            one_by_one_dice::<Exact>(expr, tiers, &name, &vals, tail),
            "{expr} --sweep {sweep}"
        );
        // The report is the table alone, the roll as typed.
        assert!(swept.get("distribution").is_none(), "{expr}");
        assert!(swept
            .params
            .iter()
            .any(|(k, v)| k == "expr" && v.as_str() == Some(expr)));
        // In floating point, the same numbers to the last digits (the
        // pools by size sum their states in another order).
        let swept = params(expr, tiers, Some(sweep), false)
            .report::<f64>()
            .unwrap();
        let own = one_by_one_dice::<f64>(expr, tiers, &name, &vals, tail);
        for ((v, a), (_, b)) in table(&swept, &name).into_iter().zip(own) {
            assert_eq!(a.len(), b.len(), "{expr} {name}={v}");
            for ((k, x), (_, y)) in a.iter().zip(&b) {
                assert!((x - y).abs() < 1e-12, "{expr} {name}={v} {k}: {x} vs {y}");
            }
        }
    }
}

#[test]
fn blades_by_pool_size_equals_enumeration() {
    // Every roll of 1–4 d6, judged by the rule: two sixes a critical,
    // else the highest die.
    let swept = params("{n}D6", DICE_CASES[0].1, Some("n=1..4"), true)
        .report::<Exact>()
        .unwrap();
    let rows = table(&swept, "n");
    assert_eq!(rows.len(), 4);
    for (n, ps) in rows {
        let mut count = [0i64; 4];
        let all = 6i64.pow(n as u32);
        for code in 0..all {
            let faces: Vec<i64> = (0..n).map(|i| code / 6i64.pow(i as u32) % 6 + 1).collect();
            let sixes = faces.iter().filter(|&&f| f == 6).count();
            let max = faces.iter().copied().max().unwrap_or(0);
            let tier = if sixes >= 2 {
                0
            } else if max == 6 {
                1
            } else if max >= 4 {
                2
            } else {
                3
            };
            count[tier] += 1;
        }
        for (i, c) in count.iter().enumerate() {
            assert_eq!(ps[i].1, Exact::ratio(*c, all), "{n} dice, {}", ps[i].0);
        }
        assert_eq!(
            ps[4].1,
            Exact::ratio(count[0] + count[1] + count[2], all),
            "{n} dice: p_success"
        );
    }
}

#[test]
fn a_placeholder_in_the_dice_is_read_or_refused_as_the_cli_says() {
    // Without --sweep: exit 2, naming the flag that gives its values.
    let o = hantei()
        .args([
            "odds", "dice", "{n}D6", "--tier", "hit:>=4", "--tier", "miss",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--sweep n=LO..HI"), "{err}");
    assert!(o.stdout.is_empty());
    // A value the dice refuse is refused as that value's roll is, before
    // any work.
    let o = hantei()
        .args([
            "odds",
            "dice",
            "{n}D6",
            "--tier",
            "hit:>=4",
            "--tier",
            "miss",
            "--sweep",
            "n=1..3,5000",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The table by pool size in the JSON: P(hit) for 1–3 d6 by hand.
    let o = hantei()
        .args([
            "odds",
            "dice",
            "{n}D6",
            "--tier",
            "hit:max>=4",
            "--tier",
            "miss",
            "--sweep",
            "n=1..3",
            "--exact",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["params"]["expr"], "{n}D6");
    assert_eq!(v["params"]["sweep"], "n=1..3");
    let rows = v["by_n"].as_array().expect("by_n rows");
    let hits: Vec<&str> = rows
        .iter()
        .map(|r| r["hit"].as_str().unwrap_or(""))
        .collect();
    // 1 − (1/2)ⁿ.
    assert_eq!(hits, ["1/2", "3/4", "7/8"]);
}

#[test]
fn a_long_sweep_over_the_dice_is_refused_within_seconds() {
    // Each value's law alone is within its limits; together they are not:
    // refused as the values so far project past the sweep's limit (in
    // state steps, or in time where a law counts none), or at the first
    // value past its own, never after minutes.
    for (expr, tier, sweep) in [
        ("{n}D20[a]+{n}D20[b]", "x:a>b", "n=1..1000"),
        ("{n}D100", "a:>=50", "n=1..1000"),
    ] {
        let start = std::time::Instant::now();
        let o = hantei()
            .args([
                "odds",
                "dice",
                expr,
                "--tier",
                tier,
                "--tier",
                "rest",
                "--sweep",
                sweep,
                "--outcomes-only",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{expr}: {err}");
        assert!(err.contains("dice:"), "{expr}: {err}");
        assert!(o.stdout.is_empty(), "{expr}");
        assert!(
            start.elapsed().as_secs() < 30,
            "{expr}: {:?}",
            start.elapsed()
        );
    }
}
