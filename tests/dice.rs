//! `dice`: every exact law against brute-force enumeration of the plain
//! rule (every face of every die), known values, tiers and contests.

use std::collections::BTreeMap;

use hantei::systems::dice::{self, law, Check};
use hantei::{Exact, Weight};

use crate::common::hantei;
use crate::common::walk::walk;

/// Enumerated law of (value, natural) and the mass of cut paths.
fn enumerate(expr: &str, max_dice: usize) -> (BTreeMap<(i64, i64), Exact>, Exact) {
    enumerate_with_stop(expr, max_dice, 1)
}

fn enumerate_with_stop(
    expr: &str,
    max_dice: usize,
    stop: i64,
) -> (BTreeMap<(i64, i64), Exact>, Exact) {
    let cmd = dice::parse(expr).unwrap();
    walk(max_dice, stop, |w| {
        let r = cmd.roll(w);
        (r.value, r.natural)
    })
}

fn value_law(map: &BTreeMap<(i64, i64), Exact>) -> BTreeMap<i64, Exact> {
    let mut v = BTreeMap::new();
    for ((x, _), p) in map {
        *v.entry(*x).or_insert_with(Exact::zero) += p.clone();
    }
    v
}

fn exact_law(expr: &str) -> (BTreeMap<i64, Exact>, Exact) {
    let cmd = dice::parse(expr).unwrap();
    let l = law::law::<Exact>(&cmd, 1e-12).unwrap();
    let m = l
        .value
        .iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(x, p)| (x, p.clone()))
        .collect();
    (m, l.tail)
}

#[test]
fn finite_commands_equal_enumeration_exactly() {
    for expr in [
        "2D6",
        "1D6+1",
        "2D4-1D6",
        "-1D6+3",
        "1D4*1D3",
        "1D6/2",
        "1D6/2U",
        "1D6/2R",
        "1D6/-3",
        "1D6/-3U",
        "1D6/-3R",
        "1D6/0",
        "1D6/1D3",
        "2D6*3-1D6+1",
        "(1D4+1)*2",
        "3D4KH2",
        "3D4KL2",
        "4D3DH1",
        "4D3DL1",
        "3D5MAX",
        "3D5MIN",
        "3D4KH0",
        "3D4KH5",
        "2D4KH1+1D6",
        "1D66",
        "2D3+1D66",
        "2D6>=7",
        "2D6<>7",
        "-2D6<-7",
        "3B6",
        "3B6>=4",
        "2B4+2B6<3",
        "2B6=3",
        "2B6!=3",
        "D66",
        "D66A",
        "D66D",
        "D66N",
        "S2D6>=7",
        "(2+1)D(2*2)KH(1+1)",
        "2D20KH1+5>=15",
        "3D6DL1+1D4*2",
    ] {
        let (enumerated, cut) = enumerate(expr, 64);
        assert!(cut.is_zero(), "{expr}: a finite command");
        let en = value_law(&enumerated);
        let (law, tail) = exact_law(expr);
        assert!(tail.is_zero(), "{expr}");
        assert_eq!(law, en, "{expr}: exact law vs enumeration");
    }
}

#[test]
fn exploding_commands_agree_with_enumeration_within_the_cut() {
    // (command, depth, a face that ends every chain). Depths keep each walk
    // to about a hundred thousand paths (it is exponential in the depth);
    // the mass of the cut paths widens the bound.
    for (expr, depth, stop) in [
        ("1R6[6]>=5", 10, 1),
        ("2R6>=5", 7, 1),
        ("1R6[<=2]>=4", 10, 6),
        ("1R4+1R6[>4]>=4", 7, 1),
        ("1R4+1R6[<>4]>=4", 7, 4),
        ("1R6>=6@>=6", 10, 1),
        ("1U6[6]", 12, 1),
        ("2U4[4]>=6", 9, 1),
        ("1U4+1U6[4]+2>=6", 7, 1),
        ("2U4+1U6[4]+1", 7, 1),
        ("2U6[5]-1<4", 7, 1),
        ("1R6[6]", 12, 1),
    ] {
        let (enumerated, cut) = enumerate_with_stop(expr, depth, stop);
        let en = value_law(&enumerated);
        let (law, tail) = exact_law(expr);
        let bound = (cut.clone() + &tail).to_f64() + 1e-15;
        let keys: std::collections::BTreeSet<i64> = en.keys().chain(law.keys()).copied().collect();
        for x in keys {
            let a = law.get(&x).map(|p| p.to_f64()).unwrap_or(0.0);
            let b = en.get(&x).map(|p| p.to_f64()).unwrap_or(0.0);
            assert!(
                (a - b).abs() <= bound,
                "{expr}: P({x}) law {a} vs enumeration {b} (cut {bound:e})"
            );
        }
        assert!(
            tail.to_f64() <= 1e-12 * 1.000001,
            "{expr}: tail {}",
            tail.to_f64()
        );
        // What the law holds and what it cut add up to one.
        let total: Exact = law.values().fold(Exact::zero(), |a, p| a + p);
        assert_eq!(total + tail, Exact::one(), "{expr}");
    }
}

#[test]
fn natural_tiers_equal_enumeration() {
    let tiers = [
        "critical:natural>=19",
        "fumble:natural==1",
        "hit:>=15",
        "miss",
    ];
    for expr in ["1D20+5", "2D20KH1+3", "1D20+1D4-2", "-1D20+30"] {
        let mut check = Check::new(expr).unwrap();
        check.tiers = tiers.iter().map(|t| dice::parse_tier(t).unwrap()).collect();
        let report = dice::report::<Exact>(&check).unwrap();
        let (enumerated, _) = enumerate(expr, 64);
        let mut want = vec![Exact::zero(); 4];
        for ((v, nat), p) in &enumerated {
            want[check.tier_of(*v, *nat)] += p.clone();
        }
        for (i, name) in ["critical", "fumble", "hit", "miss"].iter().enumerate() {
            assert_eq!(report.outcome(name), Some(&want[i]), "{expr}: {name}");
        }
        // Default success tiers: every tier but the last (the catch-all).
        let success = want[0].clone() + &want[1] + &want[2];
        assert_eq!(report.p_success, success, "{expr}");
    }
}

#[test]
fn known_values() {
    let p = |expr: &str| {
        dice::report::<Exact>(&Check::new(expr).unwrap())
            .unwrap()
            .p_success
    };
    // 3D6 ≥ 10: 108/216.
    assert_eq!(p("3D6>=11"), Exact::ratio(108, 216));
    // Advantage: 1 − (14/20)² = 51/100.
    assert_eq!(p("2D20KH1>=15"), Exact::ratio(51, 100));
    // Disadvantage: (6/20)² = 9/100.
    assert_eq!(p("2D20KL1>=15"), Exact::ratio(9, 100));
    // 4D6 drop lowest ≥ 18 (three sixes among four): 21/1296.
    assert_eq!(p("4D6DL1>=18"), Exact::ratio(21, 1296));
    // 5B6>=5: P(at least one of five dice shows 5+) = 1 − (2/3)^5.
    assert_eq!(p("5B6>=5"), Exact::one() - Exact::ratio(32, 243));
    // 4D6 drop lowest: mean 15869/1296 (≈ 12.2446), a classic value.
    let r = dice::report::<Exact>(&Check::new("4D6DL1").unwrap()).unwrap();
    let mean = match r.get("mean") {
        Some(hantei::report::Field::Value(m)) => m.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(mean, Exact::ratio(15869, 1296));
    // 1R6[6]>=6: each die is a geometric chain of sixes: P(k successes) =
    // (1/6)^k (5/6) for a d6 rerolled on 6 that succeeds on 6.
    let cmd = dice::parse("1R6[6]>=6").unwrap();
    let l = law::law::<Exact>(&cmd, 1e-12).unwrap();
    for k in 0..5 {
        assert_eq!(
            l.value.p(k),
            Exact::ratio(5, 6) * Exact::ratio(1, 6).powi(k as u32),
            "{k}"
        );
    }
}

#[test]
fn contests_and_tie_rules() {
    let mut c = Check::new("1D6").unwrap();
    c.vs = Some(dice::parse("1D6").unwrap());
    let r = dice::report::<Exact>(&c).unwrap();
    let get = |r: &hantei::report::Report<Exact>, k: &str| match r.get(k) {
        Some(hantei::report::Field::Prob(p)) => p.clone(),
        other => panic!("{k}: {other:?}"),
    };
    assert_eq!(get(&r, "p_win"), Exact::ratio(15, 36));
    assert_eq!(get(&r, "p_tie"), Exact::ratio(6, 36));
    c.tie = dice::TieBreak::Reroll;
    let r = dice::report::<Exact>(&c).unwrap();
    assert_eq!(get(&r, "p_win"), Exact::ratio(1, 2));
    c.tie = dice::TieBreak::Attacker;
    c.lower_wins = true;
    c.command = dice::parse("1D4").unwrap();
    let r = dice::report::<Exact>(&c).unwrap();
    // Lower wins, attacker takes ties: P(d4 ≤ d6) = (6+5+4+3)/24 = 18/24.
    assert_eq!(r.p_success, Exact::ratio(18, 24));
}

#[test]
fn bad_tiers_and_options_are_refused() {
    for (tiers, why) in [
        (vec!["miss", "hit:>=7"], "must be the last"),
        (vec!["hit:>=7", "hit:>=5"], "must differ"),
        (vec![":>=7"], "needs a name"),
        (vec!["hit:>=x"], "is no statistic"),
        (vec!["strong hit>=10"], "no ':'"),
        (vec!["hit:"], "is empty"),
        (vec!["crit:natural"], "quote the whole"),
        (vec!["hit:>=7:maybe"], "no mark"),
    ] {
        let message = match tiers
            .iter()
            .map(|t| dice::parse_tier(t))
            .collect::<Result<Vec<_>, _>>()
        {
            Err(e) => e.to_string(),
            Ok(t) => {
                let mut c = Check::new("2D6").unwrap();
                c.tiers = t;
                dice::report::<f64>(&c).unwrap_err().to_string()
            }
        };
        assert!(message.contains(why), "{tiers:?}: {message}");
    }
    let mut c = Check::new("5B6>=4").unwrap();
    c.tiers = vec![dice::parse_tier("crit:natural>=6").unwrap()];
    assert!(dice::report::<f64>(&c)
        .unwrap_err()
        .to_string()
        .contains("natural"));
}

#[test]
fn natural_tiers_in_f64_are_the_same_bits_every_time() {
    // The joint law of result and natural dice is summed in a fixed order
    // (a hash map's order once made the last bits differ run to run).
    let mut check = Check::new("3D6+1D4*2-1D6").unwrap();
    check.tiers = ["top:natural>=15", "mid:>=10", "low"]
        .iter()
        .map(|t| dice::parse_tier(t).unwrap())
        .collect();
    let first = dice::report::<f64>(&check).unwrap().to_json().to_string();
    for _ in 0..20 {
        let again = dice::report::<f64>(&check).unwrap().to_json().to_string();
        assert_eq!(again, first);
    }
}

#[test]
fn exact_sums_by_recurrence_equal_repeated_convolution() {
    use hantei::Pmf;
    // Uniform dice, D66's gapped law, a skewed law with a zero inside and a
    // sub-distribution (mass short of one, as a cut reroll chain is).
    let laws: Vec<Pmf<Exact>> = vec![
        Pmf::uniform(1, 6),
        Pmf::uniform(-2, 3),
        law::die(&hantei::systems::dice::ast::DieFaces::D66),
        Pmf::from_weights(
            0,
            vec![
                Exact::ratio(1, 2),
                Exact::zero(),
                Exact::ratio(1, 3),
                Exact::ratio(1, 6),
            ],
        ),
        Pmf::from_weights(1, vec![Exact::ratio(1, 4), Exact::ratio(5, 12)]),
    ];
    for d in &laws {
        for n in [2i64, 3, 7, 12] {
            let fast = law::sum_of(d, n).unwrap();
            let slow = d.sum_n(n as u32);
            assert_eq!(fast.min(), slow.min(), "{d:?} x{n}");
            assert_eq!(fast.weights(), slow.weights(), "{d:?} x{n}");
        }
    }
    // Mean and variance of 50D6 (exact: 175 and 50·35/12).
    let report = dice::report::<Exact>(&Check::new("50D6").unwrap()).unwrap();
    let value = |name: &str| match report.get(name) {
        Some(hantei::report::Field::Value(v)) => v.clone(),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(value("mean"), Exact::int(175));
    assert_eq!(value("variance"), Exact::ratio(50 * 35, 12));
}

#[test]
fn sums_that_would_take_minutes_are_refused_at_once_with_the_limit() {
    // 1000D1000 is valid notation, but its sum takes about 2.5e11
    // multiply-adds in f64 (minutes) and 1e9 big-integer steps exactly.
    for exact in [false, true] {
        let mut cmd = hantei();
        cmd.args(["odds", "dice", "1000D1000"]);
        if exact {
            cmd.arg("--exact");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("the sum of 1000 dice of 1000 values") && err.contains("at most"),
            "{err}"
        );
    }
    // Below the limits the same shape is computed: 300D100, mean 300 × 50.5.
    let r = dice::report::<f64>(&Check::new("300D100").unwrap()).unwrap();
    match r.get("mean") {
        Some(hantei::report::Field::Value(m)) => assert!((m - 15150.0).abs() < 1e-6, "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_named_sums_total_is_its_unnamed_spellings_to_the_bit() {
    // A name changes no total: the law of a sum whose terms are named is
    // the law of the same sum unnamed, in f64 to the last bit and exactly.
    for (named, bare) in [
        ("3D10[normal]+2D10[hunger]", "3D10+2D10"),
        ("2D6[a]-1D6[b]+3", "2D6-1D6+3"),
        ("(4D6[x]+2D8[y])*2", "(4D6+2D8)*2"),
        ("20D10[a]+20D10[b]", "20D10+20D10"),
    ] {
        let f = |e: &str| {
            law::law::<f64>(&dice::parse(e).unwrap(), 1e-12)
                .unwrap()
                .value
                .iter()
                .map(|(x, p)| (x, p.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(f(named), f(bare), "{named}");
        assert_eq!(exact_law(named), exact_law(bare), "{named}");
    }
    // A small one by hand: two d4 total 5 in 4 of 16 ways.
    let (m, tail) = exact_law("1D4[a]+1D4[b]");
    assert_eq!(m[&5], Exact::ratio(4, 16));
    assert_eq!(m[&2], Exact::ratio(1, 16));
    assert!(tail.is_zero());
    // Its names are still checked.
    let err = law::law::<f64>(&dice::parse("1D6[a]+1D6[a]").unwrap(), 1e-12).unwrap_err();
    assert!(err.to_string().contains("named 'a'"), "{err}");
}

/// A report of a named roll whose tiers read its total alone takes the
/// plain sum's pass, as its unnamed spelling does, with the same numbers
/// exactly; tiers that read a name, or the natural dice, keep the engine,
/// and the names are still checked.
#[test]
fn a_named_roll_read_by_its_total_is_reported_as_its_unnamed_spelling() {
    let check = |e: &str, tiers: &[&str]| {
        let mut c = Check::new(e).unwrap();
        c.tiers = tiers.iter().map(|t| dice::parse_tier(t).unwrap()).collect();
        c
    };
    let tiers = ["hit:>=14", "graze:>=9", "miss"];
    for (named, bare) in [
        ("1D12[hope]+1D12[fear]+2", "1D12+1D12+2"),
        ("3D10[normal]+2D10[hunger]", "3D10+2D10"),
        ("2D6[a]-1D6[b]+3", "2D6-1D6+3"),
    ] {
        for t in [&tiers[..], &[]] {
            let (n, b) = (check(named, t), check(bare, t));
            assert_eq!(
                n.passes(),
                dice::Passes::Plain { natural: false },
                "{named}"
            );
            assert_eq!(n.passes(), b.passes(), "{named}");
            let (rn, rb) = (
                dice::report::<Exact>(&n).unwrap(),
                dice::report::<Exact>(&b).unwrap(),
            );
            assert_eq!(rn.outcomes, rb.outcomes, "{named}");
            assert_eq!(rn.fields, rb.fields, "{named}");
        }
    }
    // Two d12 and 2 reach 14 where the dice sum to 12 or more: 144 pairs
    // less the 1 + 2 + … + 10 = 55 that sum to 2..=11, 89 of 144.
    let r = dice::report::<Exact>(&check("1D12[hope]+1D12[fear]+2", &tiers)).unwrap();
    let hit = r.outcomes.iter().find(|o| o.key == "hit").unwrap();
    assert_eq!(hit.p, Exact::ratio(89, 144));
    // Tiers that read a name take the engine.
    let reads = check("1D12[hope]+1D12[fear]+2", &["a:hope>fear", "b"]);
    assert_ne!(reads.passes(), dice::Passes::Plain { natural: false });
    // The names are still checked.
    let err = dice::report::<f64>(&check("1D6[a]+1D6[a]", &tiers)).unwrap_err();
    assert!(err.to_string().contains("named 'a'"), "{err}");
}

/// The tiers judged by their shared tests (`Judge`) give every tuple the
/// tier the conditions give it read one by one (`TierProgram::tier_of`),
/// on every tuple of a box around the values the dice take: tiers that
/// share tests (Ironsworn, Daggerheart, V5), and tiers that share none
/// (20 d6, read each in turn).
#[test]
fn judged_tiers_equal_the_conditions_read_in_turn() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "1D6[action]+1D10[c1]+1D10[c2]",
            &[
                "strong hit with a twist:action+2>c1 and action+2>c2 and c1==c2",
                "strong hit:action+2>c1 and action+2>c2",
                "weak hit:action+2>c1 or action+2>c2",
                "miss with a twist:c1==c2:fail",
                "miss",
            ],
        ),
        (
            "1D12[hope]+1D12[fear]+2",
            &[
                "critical:doubles",
                "success with hope:total>=12 and hope>fear",
                "success with fear:total>=12",
                "failure with hope:hope>fear:fail",
            ],
        ),
        (
            "3D10[normal]+2D10[hunger]",
            &[
                "messy critical:count(>=6)+2*(count(10)/2)>=3 and count(10)>=2 and count(10,hunger)>=1",
                "critical win:count(>=6)+2*(count(10)/2)>=3 and count(10)>=2",
                "win:count(>=6)+2*(count(10)/2)>=3",
                "bestial failure:count(1,hunger)>=1:fail",
                "total failure:count(>=6)==0:fail",
                "failure",
            ],
        ),
        (
            "20D6",
            &[
                "a:count(6)>=5 and count(1)<=2 and total>=80",
                "b:count(6)>=count(1)+3",
                "c:total>=75 and count(1)==0",
                "d:count(1)>=count(6)+4",
                "e:total>=70",
                "f",
            ],
        ),
    ];
    for (expr, tiers) in cases {
        let mut check = Check::new(expr).unwrap();
        check.tiers = tiers.iter().map(|t| dice::parse_tier(t).unwrap()).collect();
        check.validate().unwrap();
        let layout = dice::pool::layout(&check.stats());
        let program = check.tier_program(&layout);
        let mut judge = program.judge();
        // Every tuple with each slot in 0..=8 (the total in steps of 11,
        // to reach the thresholds at 70–80), and the tiers found for each.
        let len = layout.len();
        let mut tuple = vec![0i64; len];
        let mut seen = std::collections::BTreeSet::new();
        let mut count = 0u64;
        'all: loop {
            let k: Vec<i64> = tuple
                .iter()
                .enumerate()
                .map(|(i, &d)| if i == 0 { d * 11 } else { d })
                .collect();
            let want = program.tier_of(&k);
            assert_eq!(judge.tier_of(&k), want, "{expr}: tuple {k:?}");
            seen.insert(want);
            count += 1;
            for d in tuple.iter_mut().rev() {
                *d += 1;
                if *d <= 8 {
                    continue 'all;
                }
                *d = 0;
            }
            break;
        }
        assert_eq!(count, 9u64.pow(len as u32), "{expr}");
        // The box reaches more than one tier, so the test can fail.
        assert!(seen.len() >= 3, "{expr}: tiers met {seen:?}");
    }
}
