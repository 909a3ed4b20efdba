//! Tests of `src/verify/games.rs` (`hantei::verify::games`).

use crate::unit::verify::testing::{assert_consistent, assert_fits};
use hantei::verify::games::*;

#[test]
fn grid_fits() {
    let g = grid();
    assert_consistent(&g);
    assert_fits(&g, 40_000, 19);
}

/// The comparison has power: the fumble band of a wrong rule (96 → 95
/// under 50, one more point of fumble) is told apart from the rolled
/// counts, which fit the right law.
#[test]
fn a_wrong_fumble_band_is_detected() {
    use hantei::verify::runner::simulate;
    use hantei::verify::stats::fit;
    let p = &points("Cthulhu7th", "CC<=40")[0];
    // The exact law of the wrong rule would be 6/100 fumble; ours 5/100.
    let counts = simulate(&*p.sampler, 400_000, 7);
    let fumble = p.cells.iter().position(|c| c == "fumble").unwrap();
    let mut wrong = p.exact.clone();
    wrong[fumble] += 0.01;
    let failure = p.cells.iter().position(|c| c == "failure").unwrap();
    wrong[failure] -= 0.01;
    assert!(fit(&counts, &p.exact).p_value > 1e-6);
    assert!(fit(&counts, &wrong).p_value < 1e-6);
}
