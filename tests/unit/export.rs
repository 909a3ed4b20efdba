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
