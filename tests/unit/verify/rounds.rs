//! Tests of `src/verify/rounds.rs` (`hantei::verify::rounds`).

use hantei::rounds::Negative;
use hantei::systems::dice::per_roll::RoundStat;
use hantei::systems::dice::until::Until;

use crate::unit::verify::testing::{assert_consistent, assert_fits};
use hantei::verify::rounds::*;

#[test]
fn grid_is_consistent() {
    let g = grid();
    assert!(g.len() >= 8);
    assert_consistent(&g);
}

#[test]
fn every_point_fits_its_exact_law() {
    assert_fits(&grid(), 40_000, 23);
}

#[test]
fn a_wrong_rule_is_caught() {
    // Forgetting that a fumble ends the test: the sampler adds the 1.
    let mut p = point(
        "1D10",
        &["critical:==10", "fumble:==1", "hit"],
        Until {
            fail_tiers: vec!["fumble".into()],
            ..until(15, 5)
        },
    );
    let check = check_of("1D10", &["critical:==10", "fumble:==1", "hit"]);
    p.sampler = Box::new(RoundsSampler {
        check,
        stat: RoundStat::Result,
        effects: vec![],
        until: 15,
        rounds: 5,
        negative: Negative::Zero,
    });
    let counts = hantei::verify::runner::simulate(&*p.sampler, 40_000, 5);
    let f = hantei::verify::stats::fit(&counts, &p.exact);
    assert!(f.impossible_hits > 0 || f.p_value < 1e-6);
}
