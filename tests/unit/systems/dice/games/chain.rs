//! Tests of `src/systems/dice/games/chain.rs` (`hantei::systems::dice::games::chain`).

use hantei::pmf::Pmf;
use hantei::weight::Weight;

use hantei::systems::dice::games::chain::*;
use hantei::weight::Exact;

/// A d6 rolled again on a 6 (1D6 exploding): P(total = 6a + b) =
/// (1/6)^(a+1) for b in 1..=5, and the cut mass is (1/6)^rounds.
#[test]
fn exploding_d6() {
    let c = simple::<Exact>(
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
