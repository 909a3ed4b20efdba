//! Tests of `src/verify/d20.rs` (`hantei::verify::d20`).

use hantei::systems::d20::{
    Action, Check, Contest, D20Tier, FatePlan, FateState, Policy, Roll, TieBreak,
};
use hantei::tier::Tier;
use hantei::verify::dice::Dice;
use hantei::weight::{Exact, Weight};

use hantei::systems::d20::Step;
use hantei::verify::d20::*;
use hantei::verify::runner::simulate;
use hantei::verify::stats::fit;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

#[test]
fn grid_is_well_formed() {
    let grid = grid();
    assert!((8..=24).contains(&grid.len()), "{} points", grid.len());
    assert!(grid.iter().all(|p| p.system == "d20"));
    crate::unit::verify::testing::assert_consistent(&grid);
    for p in &grid {
        assert_eq!(p.cells.last().map(String::as_str), Some("unjudged"));
        assert_eq!(p.exact.last(), Some(&0.0), "{}", p.label);
    }
}

#[test]
fn every_point_fits_its_exact_law() {
    crate::unit::verify::testing::assert_fits(&grid(), 200_000, 0xd20);
}

/// The grid's edge points: `--crit-on 18` against an unreachable DC
/// succeeds only on 18–20, and a DC every total beats fails only on a
/// natural 1.
#[test]
fn edge_points_have_the_impossible_cells() {
    let grid = grid();
    let only_crits = grid.iter().find(|p| p.label.contains("dc=30")).unwrap();
    assert_eq!(only_crits.exact[D20Tier::Success.index()], 0.0);
    let never_fails = grid.iter().find(|p| p.label.contains("dc=5")).unwrap();
    assert_eq!(never_fails.exact[D20Tier::Failure.index()], 0.0);
    assert!(grid.iter().any(|p| p.label.contains("score=14 level=5")));
}

/// The (winner, round) law adds back up to the engine's win probability
/// after rerolls and to 1; the first round is decisive with `1 − tie`.
#[test]
fn reroll_law_matches_the_engine() {
    for (a, b) in [
        (side(2, Roll::Normal), side(2, Roll::Normal)),
        (side(0, Roll::Advantage), side(3, Roll::Disadvantage)),
    ] {
        let contest = Contest::new(a, b, TieBreak::Reroll);
        let c = contest.comparison::<Exact>();
        let law = reroll_law(&c.win, &c.tie, &c.loss);
        let sum = |s: &[Exact]| s.iter().fold(q(0, 1), |x, y| x + y);
        assert_eq!(sum(&law[..ROUNDS]), contest.p_success::<Exact>());
        assert_eq!(sum(&law), q(1, 1));
        assert_eq!(law[0].clone() + &law[ROUNDS], c.tie.complement());
    }
}

/// The sampler's decision-rule play and the module's `play` on the same
/// recorded faces end in the same tier, having read the same faces.
#[test]
fn fate_play_agrees_with_module_play() {
    let mut dice = Dice::for_batch(99, 0);
    for policy in Policy::ALL {
        for roll in [Roll::Normal, Roll::Advantage, Roll::Disadvantage] {
            for (m, dc) in [(0, 15), (4, 19), (2, 24)] {
                let check = Check::new(side(m, roll), dc, 19).unwrap();
                let plan = FatePlan::new(check, 3, policy).unwrap();
                for _ in 0..3_000 {
                    let mut faces = Vec::new();
                    let tier = play_fate(&plan, |sides| {
                        let f = dice.roll(sides);
                        faces.push(f);
                        f
                    });
                    match plan.play(&faces) {
                        Step::Done(v) => {
                            assert_eq!(Some(v.verdict.tier), tier, "{faces:?}");
                            assert_eq!(v.faces_used, faces.len(), "{faces:?}");
                        }
                        other => panic!("{other:?} on {faces:?}"),
                    }
                }
            }
        }
    }
}

/// At the grid's optimal points the decision rule both boosts and
/// rerolls on some first roll, so the samplers exercise real decisions
/// (their laws differ from every fixed policy's).
#[test]
fn optimal_points_use_both_actions() {
    for (k, m, dc, roll, crit_on) in [
        (1, 4, 16, Roll::Normal, 20),
        (2, 2, 19, Roll::Advantage, 19),
        (3, 0, 18, Roll::Disadvantage, 20),
    ] {
        let check = Check::new(side(m, roll), dc, crit_on).unwrap();
        let plan = FatePlan::new(check, k, Policy::Optimal).unwrap();
        let actions: Vec<Action> = (1..=20)
            .map(|face| {
                plan.decide(FateState {
                    face,
                    boost: 0,
                    dice_left: k,
                })
            })
            .collect();
        assert!(actions.contains(&Action::Boost), "k={k} {actions:?}");
        assert!(actions.contains(&Action::Reroll), "k={k} {actions:?}");
        let law = plan.law::<Exact>();
        for policy in [Policy::None, Policy::BoostOnly, Policy::RerollOnly] {
            assert_ne!(plan.with_policy(policy).unwrap().law::<Exact>(), law);
        }
    }
}

/// A wrong law is caught: the sampler of DC 15 against the exact law of
/// DC 16 fails clearly at 200,000 trials.
#[test]
fn a_wrong_law_is_rejected() {
    let p = check_point(side(5, Roll::Normal), "mod=+5", 15, 20);
    let wrong = check_point(side(5, Roll::Normal), "mod=+5", 16, 20);
    let counts = simulate(&*p.sampler, 200_000, 7);
    assert!(fit(&counts, &wrong.exact).p_value < 1e-6);
}
