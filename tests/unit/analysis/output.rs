//! Tests of `src/analysis/output.rs` (`hantei::analysis::output`).

use hantei::analysis::output::*;

#[test]
fn number_formats() {
    assert_eq!(csv_number(Some(0.55)), "0.5500000000");
    assert_eq!(csv_number(Some(-0.0)), "0.0000000000");
    assert_eq!(csv_number(None), "");
    assert_eq!(human(Some(0.55), true), "55.0%");
    assert_eq!(human(Some(0.0001), true), "<0.1%");
    assert_eq!(human(Some(1.0), true), "100%");
    assert_eq!(human(Some(2.0), false), "2");
    assert_eq!(human(Some(1.3947), false), "1.395");
    assert!(is_probability("outcomes.critical"));
    assert!(is_probability("hits>=3"));
    assert!(!is_probability("expected_rolls"));
    assert!(!is_probability("best_level"));
}
