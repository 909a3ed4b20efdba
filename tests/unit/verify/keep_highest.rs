//! Tests of `src/verify/keep_highest.rs` (`hantei::verify::keep_highest`).

use hantei::systems::keep_highest::{Outcome, Situation};
use hantei::tier::Tier;

use hantei::verify::keep_highest::*;
use hantei::verify::runner::simulate;
use hantei::verify::stats::fit;

#[test]
fn grid_is_well_formed() {
    let grid = grid();
    assert!((8..=24).contains(&grid.len()), "{} points", grid.len());
    assert!(grid.iter().all(|p| p.system == "keep-highest"));
    crate::unit::verify::testing::assert_consistent(&grid);
}

#[test]
fn every_point_fits_its_exact_law() {
    crate::unit::verify::testing::assert_fits(&grid(), 200_000, 0x4b48);
}

/// The grid reaches the rules it claims: every die size, the capped d4
/// critical, certain fumbles, an impossible success, and a passive side
/// that cannot roll (so the active side never loses or ties).
#[test]
fn grid_covers_the_rules() {
    let grid = grid();
    for sides in [4, 6, 8, 10, 12, 20] {
        assert!(
            grid.iter().any(|p| p.label.contains(&format!("d{sides}"))),
            "d{sides}"
        );
    }
    let find = |s: &str| grid.iter().find(|p| p.label.starts_with(s)).unwrap();
    let crit = Outcome::Critical.index();
    assert!(find("check v=2 3d4≤2").exact[crit] > 0.0);
    assert!(find("check v=3 2d4≤3 adv").exact[crit] > 0.0);
    assert_eq!(find("check v=1 ").exact[Outcome::Fumble.index()], 1.0);
    assert_eq!(find("check v=5 ").exact[Outcome::Success.index()], 0.0);
    assert_eq!(find("check v=5 ").exact[crit], 0.0);
    for p in grid.iter().filter(|p| p.label.contains("cannot roll")) {
        assert_eq!(&p.exact[..2], &[0.0, 0.0], "{}", p.label);
        // A natural 4 on any of the kept roll's dice: critical.
        assert!(p.exact[3] > 0.0, "{}", p.label);
    }
    for tie in ["separate", "active", "passive"] {
        assert!(grid
            .iter()
            .any(|p| p.label.ends_with(&format!("tie={tie}"))));
    }
}

/// A wrong law is caught: the advantage sampler against the exact law
/// of the plain roll fails clearly at 200,000 trials.
#[test]
fn a_wrong_law_is_rejected() {
    let p = check_point(6, 2, 5, Situation::Advantage);
    let wrong = check_point(6, 2, 5, Situation::Normal);
    let counts = simulate(&*p.sampler, 200_000, 7);
    assert!(fit(&counts, &wrong.exact).p_value < 1e-6);
}
