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

/// The numerators over a common denominator of weights whose denominators
/// are long powers of the sides (found from the top bits and one product
/// where the quotient is short, by division where it is long), each
/// numerator over the denominator equal to its weight; `None` where a
/// denominator does not divide the largest. Laws long enough that the
/// products run in parallel give the same numerators.
#[test]
fn common_denominator_of_long_powers() {
    use num_traits::Pow;
    let six = BigInt::from(6);
    let frac = |n: i64, e: u32| Exact::new(BigInt::from(n), Pow::pow(&six, e));
    // Short quotients (6^3 of 6^4000), a long one (6^3990), a zero, a
    // negative, and the largest itself.
    let ws = vec![
        frac(5, 4000),
        frac(7, 3997),
        frac(1, 10),
        Exact::from(BigInt::from(0)),
        frac(-11, 3999),
        frac(13, 4000),
    ];
    let (nums, den) = over_common_denominator(&ws).expect("every denominator divides 6^4000");
    assert_eq!(den, Pow::pow(&six, 4000u32));
    for (n, w) in nums.iter().zip(&ws) {
        assert_eq!(&Exact::new(n.clone(), den.clone()), w);
    }
    assert_eq!(nums[1], BigInt::from(7) * 216);
    // 6^3999 · 5 does not divide 6^4000: over their lcm, 6^4000 · 5.
    let five = vec![
        frac(1, 4000),
        Exact::new(BigInt::from(1), Pow::pow(&six, 3999u32) * 5),
    ];
    let (nums, den) = over_common_denominator(&five).expect("the lcm");
    assert_eq!(den, Pow::pow(&six, 4000u32) * 5);
    assert_eq!(nums, vec![BigInt::from(5), BigInt::from(6)]);
    // Denominators whose lcm outgrows twice the largest's bits (1/p for
    // the primes below 200: a 270-bit product against 8 bits): none, and
    // their sum is added one by one.
    let primes: Vec<i64> = (2..200i64)
        .filter(|n| (2..*n).all(|d| n % d != 0))
        .collect();
    let unrelated: Vec<Exact> = primes.iter().map(|p| Exact::ratio(1, *p)).collect();
    assert_eq!(over_common_denominator(&unrelated), None);
    assert_eq!(
        sum(&unrelated),
        unrelated.iter().fold(Exact::ratio(0, 1), |a, b| a + b)
    );
    // 3,000 weights of 10,000-bit denominators: the parallel products.
    let many: Vec<Exact> = (0..3000)
        .map(|k| frac(k % 97 + 1, 3800 + (k % 7) as u32))
        .collect();
    let (nums, den) = over_common_denominator(&many).expect("powers of six");
    for (n, w) in nums.iter().zip(&many) {
        assert_eq!(&Exact::new(n.clone(), den.clone()), w);
    }
}

/// Exact division: `q·b / b` is `q` and `q·b + r` (0 < r < b) is not
/// divisible, for short quotients (from the top bits), long ones (the
/// 2-adic inverse) and every mix of powers of two, over divisors of many
/// shapes; a zero dividend, and no divisor that is not positive.
#[test]
fn exact_quotients() {
    use num_traits::Pow;
    let pow = |b: u32, e: u32| -> BigInt { Pow::pow(&BigInt::from(b), e) };
    let divisors = [
        BigInt::from(1),
        BigInt::from(2),
        BigInt::from(3),
        pow(2, 300),
        pow(5, 500),
        pow(2, 70) * pow(5, 900),
        pow(6, 1200) + 1,
        pow(3, 2000) * 12,
    ];
    let quotients = [
        BigInt::from(1),
        BigInt::from(7),
        pow(2, 5),
        pow(5, 40) * 3,
        pow(2, 33) * pow(5, 1300),
        pow(7, 3000) - 1,
        -pow(3, 700),
        -(pow(2, 40) * pow(5, 300) + BigInt::from(1)),
    ];
    for b in &divisors {
        for q in &quotients {
            let a = q * b;
            assert_eq!(exact_quotient(&a, b).as_ref(), Some(q), "{q} · b");
            assert_eq!(exact_quotient(&-&a, b), Some(-q), "-{q} · b");
            for r in [BigInt::from(1), b - 1, b / 2 + 1] {
                if r > BigInt::from(0) && &r < b {
                    assert_eq!(exact_quotient(&(&a + &r), b), None);
                }
            }
        }
        assert_eq!(exact_quotient(&BigInt::from(0), b), Some(BigInt::from(0)));
    }
    assert_eq!(exact_quotient(&BigInt::from(6), &BigInt::from(-3)), None);
    assert_eq!(exact_quotient(&BigInt::from(6), &BigInt::from(0)), None);
    // A divisor with more twos than the dividend.
    assert_eq!(exact_quotient(&pow(5, 100), &(pow(5, 10) * 2)), None);
}

/// Denominators 2ᵃ·5ᵇ in varying powers (`1000R20[20]>=15`'s), so that
/// the largest does not divide the others: one common denominator, each
/// numerator over it its weight, and the sum that of the weights added
/// one by one.
#[test]
fn common_denominator_of_mixed_powers() {
    use num_traits::Pow;
    let den = |a: u32, b: u32| Pow::pow(&BigInt::from(2), a) * Pow::pow(&BigInt::from(5), b);
    let ws: Vec<Exact> = (0..60u32)
        .map(|k| {
            let (a, b) = (3 + (k * 37) % 400, 2 + (k * 53) % 250);
            Exact::new(BigInt::from(2 * k + 1), den(a, b))
        })
        .collect();
    let (nums, d) = over_common_denominator(&ws).expect("2^a 5^b");
    for (n, w) in nums.iter().zip(&ws) {
        assert_eq!(&Exact::new(n.clone(), d.clone()), w);
    }
    let by_hand = ws.iter().fold(Exact::ratio(0, 1), |a, b| a + b);
    assert_eq!(sum(&ws), by_hand);
    // Three primes in varying powers: the lcm.
    let three: Vec<Exact> = (0..20u32)
        .map(|k| {
            let d = den(k % 7, (k * 3) % 5) * Pow::pow(&BigInt::from(3), (k * 5) % 11);
            Exact::new(BigInt::from(k + 1), d)
        })
        .collect();
    let (nums, d) = over_common_denominator(&three).expect("2, 3 and 5");
    for (n, w) in nums.iter().zip(&three) {
        assert_eq!(&Exact::new(n.clone(), d.clone()), w);
    }
    assert_eq!(
        sum(&three),
        three.iter().fold(Exact::ratio(0, 1), |a, b| a + b)
    );
}

/// Weights added into buckets equal the fractions added one by one: where
/// every bucket holds one weight (a marginal whose values are distinct,
/// kept as they are), where some meet (summed over one denominator), an
/// empty bucket (zero), and a negative weight; in floating point there is
/// no exact sum to take.
#[test]
fn bucket_sums_equal_the_fractions_added_one_by_one() {
    let w = |n: i64, d: i64| Exact::ratio(n, d);
    let by_hand = |n: usize, items: &[(usize, Exact)]| {
        let mut out = vec![Exact::ratio(0, 1); n];
        for (b, x) in items {
            out[*b] = out[*b].clone() + x;
        }
        out
    };
    let cases: Vec<(usize, Vec<(usize, Exact)>)> = vec![
        // One weight a bucket, one bucket empty.
        (4, vec![(0, w(1, 6)), (1, w(1, 3)), (3, w(1, 2))]),
        // Some meet, some alone.
        (
            3,
            vec![
                (0, w(1, 6)),
                (2, w(1, 4)),
                (0, w(1, 9)),
                (1, w(5, 36)),
                (2, w(-1, 12)),
            ],
        ),
        // All in one bucket, on long denominators.
        (
            1,
            (1..=20)
                .map(|k| (0, w(k, 6i64.pow(k as u32 % 12 + 1))))
                .collect(),
        ),
    ];
    for (n, items) in cases {
        let refs: Vec<(usize, &Exact)> = items.iter().map(|(b, x)| (*b, x)).collect();
        let got = exact_bucket_sums(n, &refs).expect("exact weights");
        assert_eq!(got, by_hand(n, &items), "{items:?}");
    }
    assert_eq!(exact_bucket_sums::<f64>(2, &[(0, &0.5), (1, &0.5)]), None);
}
