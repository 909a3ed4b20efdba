//! A round chain (振り足し): a roll repeated while a condition holds, each
//! round's law depending on the round (a key that rises by round, 首切り; a
//! first-roll adjustment) and on a small state (the dice still rolling in
//! Double Cross). The running mass is carried as, per state, the law of
//! the sum so far; a round sends each part either on (a new state) or to
//! the finished laws of that round. The chain is cut where the mass still
//! rolling is below `tail_eps`; what was cut is the tail mass.
//!
//! Used by Sword World's power table (`K`, 威力表) and `2D6@c` (超越判定),
//! and Double Cross's `nDX@c`.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::weight::Weight;

/// Most rounds a chain is followed before the run is refused.
pub const MAX_ROUNDS: usize = 5_000;

/// Most rounds of a chain in exact fractions (`--exact`): their
/// denominators grow with every round and each operation's cost with
/// them, so a longer chain is refused before any work (measured on the
/// 2-core reference machine: Double Cross `10DX3`, 165 rounds, 5.9 s;
/// Sword World `K100@5`, 189 rounds, 9.2 s; `2D6@5`, 190 rounds, 17 s;
/// `K100@4`, 396 rounds, and `10DX2`, 349, ran for minutes).
pub const MAX_EXACT_ROUNDS: usize = 180;

/// Where one branch of a round goes: on in a state, or stop.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Next<S> {
    /// The chain rolls again in this state.
    Go(S),
    /// The chain stops.
    Stop,
}

/// A chain's outcome: the law of the sum at stopping, by the round it
/// stopped in (0-based), and the mass cut.
#[derive(Clone, Debug)]
pub struct Chained<W> {
    /// `stopped[k]`: the sub-law of the sum of the chains that stopped in
    /// round `k`.
    pub stopped: Vec<Pmf<W>>,
    /// The mass still rolling when the chain was cut.
    pub tail: W,
}

impl<W: Weight> Chained<W> {
    /// The sub-law of the sum over every stopping round in `rounds`.
    pub fn sum_over(&self, rounds: impl Fn(usize) -> bool) -> Pmf<W> {
        let parts: Vec<(W, &Pmf<W>)> = self
            .stopped
            .iter()
            .enumerate()
            .filter(|(k, _)| rounds(*k))
            .map(|(_, p)| (W::one(), p))
            .collect();
        if parts.is_empty() {
            return Pmf::from_weights(0, vec![W::zero()]);
        }
        Pmf::mixture(&parts)
    }
}

/// Run a chain from `start` (state → sub-law of the sum so far) at round
/// `first`: `round(k, state)` gives the branches of round `k` in that
/// state, each the next step and the sub-law of what the round adds.
pub fn run<S: Ord + Clone, W: Weight>(
    start: BTreeMap<S, Pmf<W>>,
    first: usize,
    mut round: impl FnMut(usize, &S) -> Vec<(Next<S>, Pmf<W>)>,
    tail_eps: f64,
) -> Result<Chained<W>> {
    if W::EXACT {
        // Counted before any work: the masses alone, round by round.
        let rounds = rounds_to_cut(&start, first, &mut round, tail_eps);
        if rounds > MAX_EXACT_ROUNDS {
            return Err(Error::Conflict(format!(
                "--exact: this chain of rolls goes on for {} rounds before less than {tail_eps:e} of the probability is still rolling (exact fractions grow with every round: at most {MAX_EXACT_ROUNDS}); drop --exact (floating point answers it), or raise --tail-eps or the critical value",
                if rounds >= MAX_ROUNDS { format!("more than {MAX_ROUNDS}") } else { rounds.to_string() }
            )));
        }
    }
    let mut running = start;
    let mut stopped: Vec<Pmf<W>> = vec![Pmf::from_weights(0, vec![W::zero()]); first];
    let mut k = first;
    loop {
        let mass: W = running.values().fold(W::zero(), |a, p| a + p.total());
        if mass.to_f64() < tail_eps || running.is_empty() {
            return Ok(Chained {
                stopped,
                tail: mass,
            });
        }
        if k >= first + MAX_ROUNDS {
            return Err(Error::Conflict(format!(
                "the chain of rolls goes on past {MAX_ROUNDS} rounds with {:e} of the probability still rolling; raise --tail-eps or the critical value",
                mass.to_f64()
            )));
        }
        let mut next: BTreeMap<S, Pmf<W>> = BTreeMap::new();
        let mut done: Option<Pmf<W>> = None;
        for (state, acc) in &running {
            for (to, add) in round(k, state) {
                if add.total().is_zero() {
                    continue;
                }
                let part = acc.convolve(&add);
                let slot = match to {
                    Next::Go(s) => next.entry(s).or_insert_with(|| zero()),
                    Next::Stop => done.get_or_insert_with(zero),
                };
                *slot = plus(slot, &part);
            }
        }
        stopped.push(done.unwrap_or_else(zero));
        running = next;
        k += 1;
    }
}

/// How many rounds the chain runs before less than `tail_eps` is still
/// rolling: the chain's masses alone (in `f64`), without the laws of the
/// sums.
fn rounds_to_cut<S: Ord + Clone, W: Weight>(
    start: &BTreeMap<S, Pmf<W>>,
    first: usize,
    round: &mut impl FnMut(usize, &S) -> Vec<(Next<S>, Pmf<W>)>,
    tail_eps: f64,
) -> usize {
    let mut running: BTreeMap<S, f64> = start
        .iter()
        .map(|(s, p)| (s.clone(), p.total().to_f64()))
        .collect();
    let mut k = first;
    loop {
        let mass: f64 = running.values().sum();
        if mass < tail_eps || running.is_empty() || k >= first + MAX_ROUNDS {
            return k - first;
        }
        let mut next: BTreeMap<S, f64> = BTreeMap::new();
        for (state, m) in &running {
            for (to, add) in round(k, state) {
                if let Next::Go(s) = to {
                    *next.entry(s).or_insert(0.0) += m * add.total().to_f64();
                }
            }
        }
        running = next;
        k += 1;
    }
}

fn zero<W: Weight>() -> Pmf<W> {
    Pmf::from_weights(0, vec![W::zero()])
}

/// The sum of two sub-laws.
pub fn plus<W: Weight>(a: &Pmf<W>, b: &Pmf<W>) -> Pmf<W> {
    if a.total().is_zero() {
        return b.clone();
    }
    if b.total().is_zero() {
        return a.clone();
    }
    Pmf::mixture(&[(W::one(), a), (W::one(), b)])
}

/// A one-state chain from nothing rolled: each round the same `go`
/// (rolls again) and `stop` sub-laws, by round.
pub fn simple<W: Weight>(
    mut round: impl FnMut(usize) -> (Pmf<W>, Pmf<W>),
    tail_eps: f64,
) -> Result<Chained<W>> {
    let start = BTreeMap::from([((), Pmf::point(0))]);
    run(
        start,
        0,
        |k, _| {
            let (go, stop) = round(k);
            vec![(Next::Go(()), go), (Next::Stop, stop)]
        },
        tail_eps,
    )
}
