//! Tests of `src/systems/dice/pool/chain.rs` (`hantei::systems::dice::pool::chain`).

use hantei::pmf::Pmf;
use hantei::weight::Weight;

use hantei::systems::dice::pool::chain::*;
use hantei::weight::Exact;

/// A d6 rolled again on a 6 (1D6 exploding): P(total = 6a + b) =
/// (1/6)^(a+1) for b in 1..=5, and the cut mass is (1/6)^rounds.
#[test]
fn exploding_d6() {
    let c = simple::<Exact>(
        || "1D6 rolled again on a 6".into(),
        |_| {
            let d = Pmf::<Exact>::die(6);
            let go = Pmf::from_pairs([(6, d.p(6))]);
            let stop = Pmf::from_pairs((1..=5).map(|v| (v, d.p(v))));
            (go, stop)
        },
        1e-6,
    )
    .unwrap();
    let all = c.sum_over(|_| true);
    for a in 0..3i64 {
        for b in 1..=5 {
            assert_eq!(all.p(6 * a + b), Exact::ratio(1, 6).powi(a as u32 + 1));
        }
    }
    let rounds = c.stopped.len() as u32;
    assert_eq!(c.tail, Exact::ratio(1, 6).powi(rounds));
    assert!(c.tail.to_f64() < 1e-6);
    assert_eq!(all.total() + &c.tail, Exact::ratio(1, 1));
}

/// The chain is the planner's round chain: `--explain` names it with its
/// rounds and the estimate counted before any work.
#[test]
fn the_planner_records_the_chain_with_its_count() {
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    let (c, decisions) = plan::explain(|| {
        simple::<f64>(
            || "halves".into(),
            |_| {
                let half = Pmf::<f64>::from_pairs([(1, 0.5)]);
                (half.clone(), Pmf::from_pairs([(0, 0.5)]))
            },
            1e-3,
        )
        .unwrap()
    });
    assert_eq!(decisions.len(), 1);
    let d = &decisions[0];
    assert_eq!(
        (d.what.as_str(), d.algorithm),
        ("halves", Algorithm::RoundChain)
    );
    // Less than 1e-3 still rolls after 10 rounds (2⁻¹⁰).
    assert_eq!(d.dice, 10);
    assert_eq!(c.stopped.len(), 10);
    assert!(d.estimate > 0);
    let text = plan::explain_text(&decisions, &[]);
    assert!(
        text.contains("halves: chain of rounds (10 rounds)"),
        "{text}"
    );
}

/// The games' chains take no more convolution steps than the planner
/// estimated from their count (made before any work), in floating point
/// and in exact fractions.
#[test]
fn game_chains_stay_within_their_estimates() {
    use hantei::request::dice::Params;
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    let commands = [
        ("10DX7+4", "DoubleCross"),
        ("3DX@4", "DoubleCross"),
        ("K20+5@10", "SwordWorld2.5"),
        ("K10@8", "SwordWorld2.5"),
        ("2D6@9", "SwordWorld2.5"),
        ("NW@9,10", "NightWizard3rd"),
    ];
    for (expr, game) in commands {
        let p = Params {
            expr: expr.into(),
            game: Some(game.into()),
            tail_eps: 1e-12,
            ..Default::default()
        };
        for exact in [false, true] {
            let (r, decisions) = plan::explain(|| {
                if exact {
                    p.report::<Exact>().map(|_| ())
                } else {
                    p.report::<f64>().map(|_| ())
                }
            });
            r.unwrap_or_else(|e| panic!("{expr}: {e}"));
            let chains: Vec<_> = decisions
                .iter()
                .filter(|d| d.algorithm == Algorithm::RoundChain)
                .collect();
            assert_eq!(chains.len(), 1, "{expr}");
            let d = chains[0];
            assert!(
                d.steps > 0 && d.steps <= d.estimate,
                "{expr}: {} of {}",
                d.steps,
                d.estimate
            );
        }
    }
}
