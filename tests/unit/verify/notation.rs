//! Tests of `src/verify/notation.rs` (`hantei::verify::notation`).

use crate::unit::verify::testing::{assert_consistent, assert_fits};
use hantei::verify::notation::*;

#[test]
fn grid_is_consistent_and_covers_every_construct() {
    let g = grid();
    assert!(GRID_EXPRS.len() >= 20);
    assert_consistent(&g);
    let text = GRID_EXPRS.join(" ");
    for construct in [
        "KH", "KL", "DH", "DL", "MAX", "MIN", "/2", "U", "R", "D66", "D66A", "D66D", "B", "R6[",
        "@", "U6[", "(", "*", "-", ">=", "<=", "=", "S2D6",
    ] {
        assert!(text.contains(construct), "{construct}");
    }
}

#[test]
fn ranges_find_their_cells() {
    let law: Vec<(i64, f64)> = (0..500).map(|x| (2 * x, 1.0 / 500.0)).collect();
    let (names, exact, r) = value_cells(&law, 0.0);
    assert_eq!(names.len(), r.len() + 1);
    assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(r.cell(0), 0);
    assert_eq!(r.cell(-1), r.len());
    assert_eq!(r.cell(998), r.len() - 1);
    assert_eq!(r.cell(999), r.len());
    let small = [(1, 0.5), (3, 0.5)];
    let (_, _, r) = value_cells(&small, 0.0);
    assert_eq!((r.cell(1), r.cell(2), r.cell(3)), (0, 2, 1));
}

#[test]
fn every_point_fits_its_exact_law() {
    assert_fits(&grid(), 40_000, 11);
}
