//! Tests of `src/systems/dice/law.rs` (`hantei::systems::dice::law`).

use hantei::pmf::Pmf;
use hantei::weight::Weight;

use hantei::systems::dice::law::*;
use hantei::weight::Exact;

/// Every roll of `n` dice of law `d` (values and weights), its kept sum
/// counted: the brute force [`keep`] must match.
fn brute_keep(d: &Pmf<Exact>, n: usize, k: usize, high: bool) -> Pmf<Exact> {
    let faces: Vec<(i64, Exact)> = d.iter().map(|(x, p)| (x, p.clone())).collect();
    let mut out: Vec<(i64, Exact)> = Vec::new();
    let mut idx = vec![0usize; n];
    loop {
        let mut vals: Vec<i64> = idx.iter().map(|&i| faces[i].0).collect();
        let w = idx.iter().fold(Exact::ratio(1, 1), |a, &i| a * &faces[i].1);
        vals.sort_unstable();
        if high {
            vals.reverse();
        }
        out.push((vals[..k].iter().sum(), w));
        let mut j = 0;
        while j < n {
            idx[j] += 1;
            if idx[j] < faces.len() {
                break;
            }
            idx[j] = 0;
            j += 1;
        }
        if j == n {
            break;
        }
    }
    Pmf::from_pairs(out)
}

#[test]
fn exact_keep_on_integers_matches_every_roll() {
    // Plain dice, and a law with unequal weights and a zero weight
    // (2D3's sum: 1/9, 2/9, 3/9, 2/9, 1/9; and a 1D4 with a hole).
    let lumpy = Pmf::<Exact>::uniform(1, 3).convolve(&Pmf::uniform(1, 3));
    let holed = Pmf::<Exact>::from_weights(
        1,
        vec![
            Exact::ratio(1, 2),
            Exact::ratio(0, 1),
            Exact::ratio(1, 3),
            Exact::ratio(1, 6),
        ],
    );
    // A law whose mass is short of 1 (an exploding chain cut): the dice
    // left after the kept ones carry the mass of the worse faces.
    let short = Pmf::<Exact>::from_weights(
        1,
        vec![Exact::ratio(1, 2), Exact::ratio(1, 4), Exact::ratio(1, 8)],
    );
    for d in [Pmf::<Exact>::uniform(1, 6), lumpy, holed, short] {
        for n in 2..=5usize {
            for k in 1..n {
                for high in [true, false] {
                    let got = keep(&d, n as i64, k as i64, high).unwrap();
                    assert_eq!(got, brute_keep(&d, n, k, high), "{d:?} n={n} k={k} {high}");
                    // The floating-point programme agrees.
                    let df = Pmf::<f64>::from_weights(
                        d.min(),
                        d.weights().iter().map(Weight::to_f64).collect(),
                    );
                    let f = keep(&df, n as i64, k as i64, high).unwrap();
                    for (x, p) in got.iter() {
                        assert!((f.p(x) - p.to_f64()).abs() < 1e-12);
                    }
                }
            }
        }
    }
}

#[test]
fn one_kept_die_is_the_extreme_and_matches_every_roll() {
    use hantei::systems::dice::ast::{DieFaces, Filter, PoolTerm, Score};
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    let custom = |v: &[i64]| DieFaces::Custom(v.iter().map(|&x| Score::num(x)).collect());
    // A d6, a d20, listed faces with repeats and a negative face (keep-
    // highest's capped d4 of ability 3 reads 2, 4, 6, 7), and D66.
    let dice = [
        DieFaces::Standard(6),
        DieFaces::Standard(20),
        custom(&[2, 4, 6, 6, 7]),
        custom(&[-1, 3, 3, 0]),
        DieFaces::D66,
    ];
    for faces in &dice {
        let d = die::<Exact>(faces);
        for n in 2..=4i64 {
            if matches!(faces, DieFaces::Standard(20) | DieFaces::D66) && n > 3 {
                continue;
            }
            // KH1, KL1, and the drops that keep one die.
            for (filter, k, high) in [
                (Filter::KeepHighest, 1, true),
                (Filter::KeepLowest, 1, false),
                (Filter::DropLowest, n - 1, true),
                (Filter::DropHighest, n - 1, false),
            ] {
                let t = PoolTerm::plain(n, faces.clone(), Some((filter, k)));
                assert_eq!(
                    plan::plain::<Exact>(&t, d.min(), d.max()).algorithm,
                    Algorithm::Extreme,
                    "{t}"
                );
                let (got, decisions) = plan::explain(|| term::<Exact>(&t).unwrap());
                assert_eq!(got, brute_keep(&d, n as usize, 1, high), "{t}");
                // One power per distinct value, within the estimate.
                let steps = decisions[0].steps;
                assert!(steps > 0 && steps <= decisions[0].estimate, "{t}: {steps}");
                // In floating point every cell is within an ulp or two of
                // the exact one (each cdf power correctly rounded).
                let f = term::<f64>(&t).unwrap();
                for (x, p) in got.iter() {
                    assert!((f.p(x) - p.to_f64()).abs() <= 4e-16, "{t} at {x}");
                }
            }
        }
    }
    // 2D20KH1 by hand: P(max = v) = (2v − 1)/400.
    let adv = term::<Exact>(&PoolTerm::plain(
        2,
        DieFaces::Standard(20),
        Some((Filter::KeepHighest, 1)),
    ))
    .unwrap();
    for v in 1..=20 {
        assert_eq!(adv.p(v), Exact::ratio(2 * v - 1, 400), "2D20KH1 at {v}");
    }
    // Keeping one of one die is the die, and two of three is still the
    // keep/drop programme.
    let one = PoolTerm::plain(1, DieFaces::Standard(6), Some((Filter::KeepHighest, 1)));
    assert_eq!(
        plan::plain::<f64>(&one, 1, 6).algorithm,
        Algorithm::PowerSum
    );
    let two = PoolTerm::plain(3, DieFaces::Standard(6), Some((Filter::KeepHighest, 2)));
    assert_eq!(plan::plain::<f64>(&two, 1, 6).algorithm, Algorithm::KeepDp);
}

#[test]
fn exact_work_is_refused_before_any_is_done() {
    // Refused from the estimate alone (check_work does no work).
    let refused = |e: &str| {
        let cmd = hantei::systems::dice::parse(e).unwrap();
        check_work::<Exact>(&cmd).unwrap_err().to_string()
    };
    for e in ["200D100KH40", "1000D100"] {
        let m = refused(e);
        assert!(m.contains("--exact") || m.contains("at most"), "{e}: {m}");
    }
    // The counting commands are dice programs: the planner estimates them
    // as it plans their terms, and refuses before the sum is computed.
    for (e, what) in [
        ("1000U6[2]", "rolling 1000U6[2]"),
        ("1000R6>=2", "counting 1000R6[2]>=2"),
    ] {
        let cmd = hantei::systems::dice::parse(e).unwrap();
        assert!(check_work::<Exact>(&cmd).is_ok(), "{e}");
        let m = hantei::systems::dice::law::law::<Exact>(&cmd, 1e-15)
            .unwrap_err()
            .to_string();
        assert!(m.contains(what) && m.contains("--exact"), "{e}: {m}");
    }
    // Each term alone is within the limit; the two together are not.
    let half = hantei::systems::dice::parse("200D15KH100").unwrap();
    assert!(check_work::<Exact>(&half).is_ok());
    assert!(refused("200D15KH100+200D15KL100").contains("times the exact work allowed"));
    // Within the limits: nothing to say (and floats are not checked
    // here at all).
    for e in ["200D6KH100", "800D100", "30R6>=2", "10U6[6]", "4D6DL1"] {
        let cmd = hantei::systems::dice::parse(e).unwrap();
        assert!(check_work::<Exact>(&cmd).is_ok(), "{e}");
        assert!(check_work::<f64>(&cmd).is_ok(), "{e}");
    }
}

/// The exact sum of many dice, long enough that its coefficients are
/// reduced in parallel (each prime's ladder of powers built once, one
/// denominator per tuple of exponents divided out), against counts by
/// hand: the ways to roll `n`, `n + 1` and `n + 2` on `n` d6 (1, n, and
/// n + C(n, 2)), the law's symmetry, and its mass.
#[test]
fn long_exact_sums_reduce_to_the_counts() {
    use num_bigint::BigInt;
    use num_traits::Pow;
    let n: i64 = 600;
    let cmd = hantei::systems::dice::parse("600D6").unwrap();
    let law = hantei::systems::dice::law::law::<Exact>(&cmd, 1e-15)
        .unwrap()
        .value;
    let all = Pow::pow(&BigInt::from(6), n as u32);
    let ways = |k: i64| Exact::new(BigInt::from(k), all.clone());
    assert_eq!(law.p(n), ways(1));
    assert_eq!(law.p(n + 1), ways(n));
    assert_eq!(law.p(n + 2), ways(n + n * (n - 1) / 2));
    for v in [n, n + 1, n + 2, 1500, 2000, 2099] {
        assert_eq!(law.p(v), law.p(7 * n - v), "symmetry at {v}");
    }
    assert_eq!(law.total(), <Exact as Weight>::one());
    assert_eq!(law.mean(), Exact::new(BigInt::from(7 * n), BigInt::from(2)));
}

/// The exact sum of `n` dice by Miller's recurrence equals the dice
/// convolved one by one (`Pmf::convolve`), on each of its paths: every
/// face alike (its sums slid along), every face alike but the lowest (a
/// reroll of the lowest face: `ro1`'s 1/36 and 7/36), a lowest face of
/// weight zero, and faces of different weights (the sum over the faces).
#[test]
fn exact_sums_equal_the_dice_convolved() {
    let r = |n: i64, d: i64| Exact::ratio(n, d);
    let dice = [
        Pmf::<Exact>::uniform(1, 6),
        Pmf::<Exact>::uniform(0, 9),
        Pmf::<Exact>::from_weights(1, [vec![r(1, 36)], vec![r(7, 36); 5]].concat()),
        Pmf::<Exact>::from_weights(1, [vec![r(0, 1)], vec![r(1, 5); 5]].concat()),
        Pmf::<Exact>::from_weights(2, vec![r(1, 2), r(1, 3), r(1, 6)]),
        Pmf::<Exact>::from_weights(1, vec![r(1, 4), r(1, 2), r(1, 4)]),
    ];
    for d in &dice {
        let mut by_hand = d.clone();
        for n in 2..=7i64 {
            by_hand = by_hand.convolve(d);
            let got = sum_of(d, n).unwrap();
            assert_eq!(got, by_hand, "{d:?} × {n}");
        }
    }
}
