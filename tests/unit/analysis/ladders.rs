//! Tests of `src/analysis/ladders.rs` (`hantei::analysis::ladders`).

use hantei::analysis::ladders::*;

#[test]
fn helpers() {
    assert_eq!(nearest(&[0.9, 0.6, 0.5, 0.2], 0.55), 1);
    assert_eq!(nearest(&[0.9, 0.6, 0.5, 0.2], 0.1), 3);
    let (d, mean, max) = granularity(&[1.0, 1.0, 0.8, 0.5, 0.5, 0.0, 0.0]);
    assert_eq!(d, 4);
    assert!((max - 0.5).abs() < 1e-12);
    // Steps counted: 1→1? no (certain, equal); 1→.8, .8→.5, .5→.5, .5→0; 0→0 no.
    assert!((mean - (0.2 + 0.3 + 0.0 + 0.5) / 4.0).abs() < 1e-12);
    let (band, swing) = spread(&[1.0, 0.5, 0.0]);
    assert_eq!(band, 1);
    assert!((swing - 1.0 / 3.0).abs() < 1e-12);
}
