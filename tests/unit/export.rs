//! Tests of `src/export.rs` (`hantei::export`).

use hantei::export::*;

#[test]
fn wide_characters_count_double() {
    assert_eq!(display_width("abc"), 3);
    assert_eq!(display_width("成功"), 4);
    assert_eq!(display_width("クリティカル"), 12);
}

#[test]
fn percent_formats() {
    assert_eq!(percent(0.55), "55.00%");
    assert_eq!(percent(0.0), "0%");
    assert_eq!(percent(1.0), "100%");
    // 1 − 2⁻⁵³, a float sum of probabilities that should be 1.
    assert_eq!(percent(1.0 - f64::EPSILON / 2.0), "100%");
    assert_eq!(percent(0.99999), "99.9990%");
    assert_eq!(percent(1e-7), "0.0000100%");
    assert_eq!(percent(2.143e-5), "0.00214%");
    assert_eq!(percent(1e-11), "1.00e-9%");
}

/// The short text of a long exact fraction, computed from its length,
/// first and last digits, is the text shortened: at every length around
/// the cut-offs (13–16 digits a part, 32 characters in all), at powers of
/// ten and one below, negative too, and for a dice law's long fractions.
#[test]
fn short_exact_is_the_shortened_text() {
    use hantei::export::{short_exact, short_fraction};
    use hantei::weight::Exact;
    use num_bigint::BigInt;
    let mut numbers: Vec<BigInt> = Vec::new();
    for e in [10u32, 12, 13, 14, 15, 16, 17, 20, 31, 32, 33, 60, 200, 1000] {
        let p = num_traits::Pow::pow(BigInt::from(10), e);
        numbers.push(p.clone());
        numbers.push(&p - 1);
        numbers.push(&p + 7);
        numbers.push(&p * 3 + 1234);
    }
    for e in [20u32, 50, 51, 400, 4000] {
        numbers.push(num_traits::Pow::pow(BigInt::from(6), e));
        numbers.push(num_traits::Pow::pow(BigInt::from(7), e) - 1);
    }
    let mut checked = 0;
    for n in &numbers {
        for d in &numbers {
            for sign in [1, -1] {
                let w = Exact::new(n * sign, d.clone());
                assert_eq!(
                    short_exact(&w),
                    short_fraction(&hantei::weight::Weight::exact_text(&w)),
                    "{n}/{d}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 4000);
    // Floating point: the plain text.
    assert_eq!(short_exact(&0.25f64), short_fraction("0.25"));
}
