//! Tests of `src/verify/multiplier.rs` (`hantei::verify::multiplier`).

use hantei::systems::multiplier::ID;

use hantei::verify::multiplier::*;

#[test]
fn cells_are_consistent_and_sum_to_one() {
    let g = grid();
    assert!((8..=20).contains(&g.len()), "{} points", g.len());
    assert!(g.iter().all(|p| p.system == ID));
    crate::unit::verify::testing::assert_consistent(&g);
}

#[test]
fn simulation_fits_the_exact_law() {
    crate::unit::verify::testing::assert_fits(&grid(), 200_000, 4000);
}

#[test]
fn grid_covers_the_rules() {
    let g = grid();
    let has = |s: &str| g.iter().any(|p| p.label.contains(s));
    for s in [
        "impossible",
        "guarantee",
        "below R",
        "very difficult",
        "supporters",
        "00-not-doubles",
        "auto-fail",
        "contest",
        "higher-tier",
        "needs-success",
        "counting=successes",
        "counting=degrees",
    ] {
        assert!(has(s), "no point covers {s}");
    }
    // Above rate 99 no roll fumbles (100 is a plain automatic failure):
    // the sweep has cells the exact law says cannot happen.
    let sweep = g.iter().find(|p| p.label.contains("auto-fail")).unwrap();
    let i = sweep
        .cells
        .iter()
        .position(|c| c == "rate=125:fumble")
        .unwrap();
    assert_eq!(sweep.exact[i], 0.0);
}
