//! Tests of `src/pmf.rs` (`hantei::pmf`).

use hantei::weight::Weight;

use hantei::pmf::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

#[test]
fn two_d6_is_triangular() {
    let s = Pmf::<Exact>::die(6).sum_n(2);
    assert_eq!(s.min(), 2);
    assert_eq!(s.max(), 12);
    for k in 2..=12 {
        let ways = 6 - (k - 7i64).abs();
        assert_eq!(s.p(k), q(ways, 36), "P(2d6 = {k})");
    }
    assert_eq!(s.mean(), q(7, 1));
    assert_eq!(s.variance(), q(35, 6));
    assert_eq!(s.total(), q(1, 1));
}

#[test]
fn max_and_min_of_two_d20_match_enumeration() {
    let d = Pmf::<Exact>::die(20);
    let hi = d.max_of(2);
    let lo = d.min_of(2);
    let hi2 = d.max_with(&d);
    let lo2 = d.min_with(&d);
    for k in 1..=20i64 {
        let mut nh = 0;
        let mut nl = 0;
        for a in 1..=20i64 {
            for b in 1..=20i64 {
                nh += (a.max(b) == k) as i64;
                nl += (a.min(b) == k) as i64;
            }
        }
        assert_eq!(hi.p(k), q(nh, 400));
        assert_eq!(lo.p(k), q(nl, 400));
        assert_eq!(hi2.p(k), hi.p(k));
        assert_eq!(lo2.p(k), lo.p(k));
    }
}

#[test]
fn sum_n_work_counts_the_products_sum_n_makes() {
    // By hand from sum_n: 1 die is point × d (1·6); 2 dice square d
    // (6·6) then point × d² (1·11); 3 dice: point × d (1·6), d² (6·6),
    // then acc(6 values) × d² (6·11).
    assert_eq!(Pmf::<f64>::sum_n_work(6, 1), 6);
    assert_eq!(Pmf::<f64>::sum_n_work(6, 2), 36 + 11);
    assert_eq!(Pmf::<f64>::sum_n_work(6, 3), 6 + 36 + 66);
    assert_eq!(Pmf::<f64>::sum_n_work(6, 0), 0);
}

#[test]
fn max_of_many_never_exceeds_one() {
    // 1000 d20 (the CLI case that printed 1.000000000000222): the top
    // face's probability is 1 − (19/20)^1000, and nothing exceeds 1.
    let hi = Pmf::<f64>::die(20).max_of(1000);
    let want = 1.0 - 0.95f64.powi(1000);
    assert!((hi.p(20) - want).abs() <= 1e-15, "{}", hi.p(20));
    assert!(hi.iter().all(|(_, p)| (0.0..=1.0).contains(p)));
    assert!((hi.total() - 1.0).abs() <= 1e-15);
}

#[test]
fn from_cdf_with_pow_ratio_matches_exact_to_the_bit() {
    // Keep-highest of 10,000 d20: P(max ≤ k) = (k/20)^10000, each weight
    // the difference of two such powers; against the exact law rounded.
    let n = 10_000;
    let f = Pmf::<f64>::from_cdf(1, (1..=20).map(|k| f64::pow_ratio(k, 20, n)).collect());
    let e = Pmf::<Exact>::from_cdf(1, (1..=20).map(|k| Exact::pow_ratio(k, 20, n)).collect());
    assert_eq!(f.p(20), e.p(20).to_f64());
    assert_eq!(f.p(19), e.p(19).to_f64());
    assert!(f.iter().all(|(_, p)| (0.0..=1.0).contains(p)));
    assert!(f.total() <= 1.0);
    // (19/20)^10000 = 10^-222.76…: below 1 by far less than an ulp, so the
    // top face reads 1 exactly, and the next is the power itself.
    assert_eq!(f.p(20), 1.0);
    assert_eq!(f.p(19), e.p(19).to_f64());
}

#[test]
fn cdf_sf_quantile() {
    let d = Pmf::<Exact>::die(6);
    assert_eq!(d.cdf(0), q(0, 1));
    assert_eq!(d.cdf(3), q(1, 2));
    assert_eq!(d.sf(4), q(1, 3));
    assert_eq!(d.at_least(5), q(1, 3));
    assert_eq!(d.cdf(7), q(1, 1));
    assert_eq!(d.quantile(&q(1, 2)), 3);
    assert_eq!(d.quantile(&q(1, 1)), 6);
}

#[test]
fn mixture_map_condition() {
    let a = Pmf::<Exact>::point(0);
    let b = Pmf::<Exact>::point(10);
    let m = Pmf::mixture(&[(q(1, 4), &a), (q(3, 4), &b)]);
    assert_eq!(m.p(10), q(3, 4));
    assert_eq!(m.map(|x| x / 10).p(1), q(3, 4));
    let c = Pmf::<Exact>::die(6).condition(|x| x >= 5).unwrap();
    assert_eq!(c.p(5), q(1, 2));
    assert!(Pmf::<Exact>::die(6).condition(|x| x > 6).is_none());
}

#[test]
fn hundred_d6_is_exact() {
    let s = Pmf::<Exact>::die(6).sum_n(100);
    assert_eq!(s.total(), q(1, 1));
    assert_eq!(s.mean(), q(350, 1));
    // P(all ones) = 6^-100.
    let six = Exact::int(6);
    assert_eq!(s.p(100), Weight::powi(&six, 100).recip());
}

/// Sums of an exact law's weights (total, cdf, sf, prob, mean and
/// variance) over its common denominator, found once, equal the weights
/// added one by one; a law whose common denominator was found equals one
/// whose was not.
#[test]
fn sums_over_the_common_denominator_equal_the_weights_added() {
    // 3d6 and a law of uneven denominators (a d6 mixed with a d4).
    let d6 = Pmf::<Exact>::die(6);
    let laws = [
        d6.convolve(&d6).convolve(&d6),
        Pmf::from_pairs(
            (1..=6)
                .map(|x| (x, q(1, 12)))
                .chain((1..=4).map(|x| (x + 2, q(1, 8)))),
        ),
    ];
    for law in laws {
        let fresh = law.clone();
        let added = |keep: &dyn Fn(i64) -> bool| {
            law.iter()
                .filter(|(x, _)| keep(*x))
                .fold(Exact::zero(), |a, (_, w)| a + w)
        };
        assert!(law.over_common_denominator().is_some());
        assert_eq!(law.total(), added(&|_| true));
        for t in law.min() - 1..=law.max() + 1 {
            assert_eq!(law.cdf(t), added(&|x| x <= t), "cdf {t}");
            assert_eq!(law.sf(t), added(&|x| x > t), "sf {t}");
            assert_eq!(law.prob(|x| x % 3 == t % 3), added(&|x| x % 3 == t % 3));
        }
        assert_eq!(law, fresh, "the cache is not part of the law");
    }
    // 3d6: mean 21/2, variance 35/4 (three times a d6's 35/12).
    let three = d6.convolve(&d6).convolve(&d6);
    assert_eq!(three.mean(), q(21, 2));
    assert_eq!(three.variance(), q(35, 4));
}
