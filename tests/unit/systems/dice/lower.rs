//! Tests of `src/systems/dice/lower.rs`: BCDice's counting commands as
//! dice programs, their laws held to values computed here by hand (the
//! binomial, the reroll chains written out die by die, enumeration).

use std::collections::BTreeMap;

use hantei::pmf::Pmf;
use hantei::systems::dice::{self, law, lower, pool::Stat};
use hantei::weight::{Exact, Weight};

fn exact_law(e: &str) -> law::Law<Exact> {
    law::law::<Exact>(&dice::parse(e).unwrap(), 1e-15).unwrap()
}

fn choose(n: i64, k: i64) -> Exact {
    (0..k).fold(Exact::one(), |a, i| a * Exact::ratio(n - i, i + 1))
}

/// One die of an xR/xU chain written out: `rolls` rolls deep at most (the
/// depth the cut leaves), each roll of a d`sides` going on with the faces
/// `go`; `score(previous rolls, last face)` is the chain's value.
fn chain(
    sides: i64,
    go: impl Fn(i64) -> bool,
    rolls: u32,
    score: impl Fn(u32, &[i64]) -> i64,
) -> BTreeMap<i64, Exact> {
    let mut out = BTreeMap::new();
    // Every path: faces that go on, then one that stops.
    let mut paths: Vec<(Vec<i64>, Exact)> = vec![(Vec::new(), Exact::one())];
    for depth in 0..rolls {
        let mut next = Vec::new();
        for (faces, p) in &paths {
            for f in 1..=sides {
                let q = p.clone() * Exact::ratio(1, sides);
                let mut fs = faces.clone();
                fs.push(f);
                if go(f) {
                    next.push((fs, q));
                } else {
                    *out.entry(score(depth, &fs)).or_insert_with(Exact::zero) += q;
                }
            }
        }
        paths = next;
    }
    out
}

/// The depth a chain is cut at: the first where the mass still rolling,
/// `r^d`, falls below the per-die share of the tail bound.
fn depth(r: f64, dice: i64) -> u32 {
    let eps = 1e-15 / dice as f64;
    (1..).find(|&d| r.powi(d as i32) < eps).unwrap()
}

#[test]
fn counting_dice_are_binomials() {
    // 4B6>=5: each die a success with probability 1/3.
    let l = exact_law("4B6>=5");
    for k in 0..=4 {
        let want = choose(4, k)
            * Exact::ratio(1, 3).powi(k as u32)
            * Exact::ratio(2, 3).powi(4 - k as u32);
        assert_eq!(l.value.p(k), want, "{k}");
    }
    assert!(l.tail.is_zero() && !l.explodes);
    // Without a comparison, the sum of the faces (hantei's reading).
    let l = exact_law("2B6");
    assert_eq!(l.value.p(7), Exact::ratio(6, 36));
}

#[test]
fn reroll_counts_follow_each_die_chain() {
    // 2R4[4]>=3: a 4 adds a die; 3 and 4 succeed.
    let rolls = depth(0.25, 2);
    let one = chain(
        4,
        |f| f == 4,
        rolls,
        |_, fs| fs.iter().filter(|&&f| f >= 3).count() as i64,
    );
    let one = Pmf::from_pairs(one);
    let want = one.convolve(&one);
    let l = exact_law("2R4[4]>=3");
    assert_eq!(l.value, want);
    assert!(l.explodes);
    // The cut: 1 − (1 − 4^-d)² exactly, the mass left out.
    let cut = Exact::ratio(1, 4).powi(rolls);
    let kept = (Exact::one() - cut).powi(2);
    assert_eq!(l.tail, Exact::one() - kept.clone());
    assert_eq!(l.value.total(), kept);
    // In floating point the tail is that number, not 1 − mass rounded.
    let f = law::law::<f64>(&dice::parse("2R4[4]>=3").unwrap(), 1e-15).unwrap();
    let t = 2.0 * 0.25f64.powi(rolls as i32);
    assert!((f.tail - t).abs() < 1e-12 * t, "{} vs {t}", f.tail);
}

#[test]
fn upper_rolls_read_the_highest_die_and_the_total() {
    // 2U4[4]+1: each die adds rerolls while it shows 4; the result is the
    // highest die + 1, the total the sum + 1.
    let rolls = depth(0.25, 2);
    let one = chain(4, |f| f == 4, rolls, |_, fs| fs.iter().sum());
    let mut max = BTreeMap::new();
    let mut total = BTreeMap::new();
    for (a, p) in &one {
        for (b, q) in &one {
            let w = p.clone() * q;
            *max.entry(a.max(b) + 1).or_insert_with(Exact::zero) += w.clone();
            *total.entry(a + b + 1).or_insert_with(Exact::zero) += w;
        }
    }
    let l = exact_law("2U4[4]+1");
    assert_eq!(l.value, Pmf::from_pairs(max));
    assert_eq!(l.total, Some(Pmf::from_pairs(total)));
    // With a target: dice whose total + 1 reaches 6.
    let hit = one
        .iter()
        .filter(|(v, _)| **v + 1 >= 6)
        .fold(Exact::zero(), |a, (_, p)| a + p);
    let kept = one.values().fold(Exact::zero(), |a, p| a + p);
    let miss = kept - &hit;
    let l = exact_law("2U4[4]+1>=6");
    assert_eq!(l.value.p(2), hit.clone() * &hit);
    assert_eq!(l.value.p(1), Exact::int(2) * hit * &miss);
    assert_eq!(l.value.p(0), miss.clone() * &miss);
}

#[test]
fn sorted_d66_is_one_die_of_its_36_values() {
    let l = exact_law("D66A");
    // 12 comes from (1,2) and (2,1); 11 only from (1,1); 21 never.
    assert_eq!(l.value.p(12), Exact::ratio(2, 36));
    assert_eq!(l.value.p(11), Exact::ratio(1, 36));
    assert!(l.value.p(21).is_zero());
    let l = exact_law("D66D");
    assert_eq!(l.value.p(21), Exact::ratio(2, 36));
    assert!(l.value.p(12).is_zero());
}

#[test]
fn programs_name_what_they_read() {
    let p = lower::program(&dice::parse("3U6[6]+2").unwrap()).unwrap();
    assert_eq!((p.result, p.total, p.shift), (Stat::Max, true, 2));
    assert_eq!(p.expr.to_string(), "3D6!!>=6");
    let p = lower::program(&dice::parse("2R6[5]>=4").unwrap()).unwrap();
    assert_eq!(p.expr.to_string(), "2D6{>=4:1}!>=5");
}

#[test]
fn many_faces_scoring_alike_add_up_to_their_probability() {
    // 1000B10000>=5000: each die a success with probability 5001/10000;
    // the 5,001 faces' weights merged in floating point must not drift.
    let l = law::law::<f64>(&dice::parse("1000B10000>=5000").unwrap(), 1e-15).unwrap();
    assert!((l.value.total() - 1.0).abs() < 1e-12, "{}", l.value.total());
    use statrs::distribution::{Binomial, Discrete};
    let b = Binomial::new(0.5001, 1000).unwrap();
    for k in [450, 500, 550] {
        let want = b.pmf(k);
        let got = l.value.p(k as i64);
        assert!((got - want).abs() < 1e-9 * want, "{k}: {got} vs {want}");
    }
}
