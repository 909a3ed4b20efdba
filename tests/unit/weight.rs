//! Tests of `src/weight.rs` (`hantei::weight`).

use num_bigint::BigInt;

use hantei::weight::*;

#[test]
fn sums_over_a_common_denominator() {
    let ws: Vec<Exact> = (1..=12).map(|k| Exact::ratio(k, 36)).collect();
    let by_hand = ws.iter().fold(Exact::ratio(0, 1), |a, b| a + b);
    assert_eq!(sum(&ws), by_hand);
    assert_eq!(sum(&ws), Exact::ratio(78, 36));
    // Denominators that do not divide the largest: added in order.
    let odd = [2, 3, 5, 7, 11, 13].map(|d| Exact::ratio(1, d));
    assert_eq!(sum(&odd), odd.iter().fold(Exact::ratio(0, 1), |a, b| a + b));
    assert_eq!(sum(&[0.5f64, 0.25, 0.125, 0.0625, 0.0625]), 1.0);
}

#[test]
fn square_roots_of_fractions() {
    assert_eq!(exact_sqrt(&Exact::ratio(4, 9)), Some(Exact::ratio(2, 3)));
    assert_eq!(exact_sqrt(&Exact::ratio(35, 12)), None);
    assert_eq!(exact_sqrt(&Exact::ratio(0, 1)), Some(Exact::ratio(0, 1)));
    assert_eq!(exact_sqrt(&Exact::ratio(-4, 1)), None);
    assert_eq!(exact_sqrt(&6.25f64), Some(2.5));
}

#[test]
fn ratio_reduces() {
    assert_eq!(Exact::ratio(6, 36).exact_text(), "1/6");
    assert_eq!(<Exact as Weight>::zero().exact_text(), "0/1");
}

#[test]
fn powi_matches_repeated_multiplication() {
    let x = Exact::ratio(5, 6);
    let mut y = <Exact as Weight>::one();
    for _ in 0..13 {
        y *= &x;
    }
    assert_eq!(x.powi(13), y);
    assert!((Weight::powi(&(5.0f64 / 6.0), 13) - (5.0f64 / 6.0).powi(13)).abs() < 1e-15);
}

#[test]
fn pow_ratio_is_correctly_rounded() {
    // Against the exact power, rounded once by num-rational.
    for &(k, s) in &[
        (1u64, 2u64),
        (19, 20),
        (5, 6),
        (2, 3),
        (3, 4),
        (7, 12),
        (1, 20),
    ] {
        for n in [1u32, 2, 3, 7, 10, 64, 100, 1000, 10_000] {
            let exact = Exact::new(BigInt::from(k), BigInt::from(s));
            let want = Weight::to_f64(&num_traits::Pow::pow(exact.clone(), n));
            let got = pow_ratio_f64(k, s, n);
            if want >= 1e-290 {
                assert_eq!(got, want, "({k}/{s})^{n}");
            } else {
                assert!(
                    (got - want).abs() <= 1e-300,
                    "({k}/{s})^{n}: {got} vs {want}"
                );
            }
            assert_eq!(
                <Exact as Weight>::pow_ratio(k, s, n),
                num_traits::Pow::pow(exact, n)
            );
        }
    }
    assert_eq!(pow_ratio_f64(20, 20, 1_000_000), 1.0);
    assert_eq!(pow_ratio_f64(0, 20, 3), 0.0);
    assert_eq!(pow_ratio_f64(1, 20, 1_000), 0.0);
}

#[test]
fn frexp_ldexp_round_trip() {
    for x in [1.0f64, 0.75, 3.0, 1e-300, 5e-320, 1e300, 0.1] {
        let (m, e) = x.frexp();
        assert!((0.5..1.0).contains(&m), "{x}: {m}");
        assert_eq!(m.ldexp(e), x);
    }
    assert_eq!(0.5f64.ldexp(-1100), 0.0);
    assert_eq!(0.5f64.ldexp(-1074 + 1), 5e-324);
    assert_eq!(Exact::ratio(3, 4).ldexp(-2), Exact::ratio(3, 16));
}

#[test]
fn parse_round_trip() {
    assert_eq!(parse_exact("3/9"), Some(Exact::ratio(1, 3)));
    assert_eq!(parse_exact("2"), Some(Exact::int(2)));
    assert_eq!(parse_exact("1/0"), None);
    assert_eq!(parse_exact("x"), None);
}
