//! A round chain (振り足し): a roll repeated while a condition holds, each
//! round's law depending on the round (a key that rises by round, 首切り; a
//! first-roll adjustment) and on a small state (the dice still rolling in
//! Double Cross). The running mass is carried as, per state, the law of
//! the sum so far; a round sends each part either on (a new state) or to
//! the finished laws of that round. The chain is cut where the mass still
//! rolling is below `tail_eps`; what was cut is the tail mass.
//!
//! Used by Sword World's power table (`K`, 威力表) and `2D6@c` (超越判定),
//! Double Cross's `nDX@c` and Night Wizard's criticals. The planner's
//! [`plan::Algorithm::RoundChain`]: its work is counted before any is done
//! ([`cost`]), and `--explain` shows the chain with that estimate
//! ([`plan::rounds`]).

use std::collections::BTreeMap;

use super::plan;
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
pub struct Chained<W: Weight> {
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

/// Most rounds' branches [`run`] keeps from its count for the run (each
/// a state's laws of one round; past it they are built again).
pub const MAX_KEPT: usize = 100_000;

/// Run a chain from `start` (state → sub-law of the sum so far) at round
/// `first`: `round(k, state)` gives the branches of round `k` in that
/// state, each the next step and the sub-law of what the round adds.
///
/// Counted before any work ([`cost`]: the masses and the spans of the
/// sums alone, round by round), from the rounds' laws the run then
/// convolves: each is built once (up to [`MAX_KEPT`] of them).
pub fn run<S: Ord + Clone, W: Weight>(
    what: impl FnOnce() -> String,
    start: BTreeMap<S, Pmf<W>>,
    first: usize,
    mut round: impl FnMut(usize, &S) -> Vec<(Next<S>, Pmf<W>)>,
    tail_eps: f64,
) -> Result<Chained<W>> {
    type Built<S, W> = BTreeMap<(usize, S), Vec<(Next<S>, Pmf<W>)>>;
    let mut built: Built<S, W> = BTreeMap::new();
    let counted = cost(
        spans(&start),
        first,
        &mut |k, s| {
            let branches = round(k, s);
            let counted = branches.iter().map(|(to, add)| span(to, add)).collect();
            if built.len() < MAX_KEPT {
                built.insert((k, s.clone()), branches);
            }
            counted
        },
        tail_eps,
        W::EXACT,
    );
    counted.check(tail_eps, W::EXACT)?;
    // The run visits the states the count did, round by round (it may go
    // a round further where its masses round apart from the count's).
    run_counted(
        what,
        &counted,
        start,
        first,
        |k, s| built.remove(&(k, s.clone())).unwrap_or_else(|| round(k, s)),
        tail_eps,
    )
}

/// [`run`] once its [`cost`] is counted and checked (by a front end that
/// counts it from a cheaper law), `what` the chain as `--explain` names it
/// (written only while `--explain` listens).
pub fn run_counted<S: Ord + Clone, W: Weight>(
    what: impl FnOnce() -> String,
    counted: &Cost,
    start: BTreeMap<S, Pmf<W>>,
    first: usize,
    round: impl FnMut(usize, &S) -> Vec<(Next<S>, Pmf<W>)>,
    tail_eps: f64,
) -> Result<Chained<W>> {
    let chosen = plan::rounds(counted);
    plan::traced(what, counted.rounds as i64, &chosen, || {
        chain_rounds(start, first, round, tail_eps)
    })
}

/// The rounds of a chain ([`plan::Algorithm::RoundChain`]).
fn chain_rounds<S: Ord + Clone, W: Weight>(
    start: BTreeMap<S, Pmf<W>>,
    first: usize,
    mut round: impl FnMut(usize, &S) -> Vec<(Next<S>, Pmf<W>)>,
    tail_eps: f64,
) -> Result<Chained<W>> {
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
                plan::count((acc.weights().len() * add.weights().len()) as u64);
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

/// Most steps of a chain in floating point: multiply-adds of the
/// convolutions of its rounds (Sword World `K100+5@3`, 430 million over
/// 1226 rounds, answers in under a second).
pub const MAX_WORK: u64 = 1_000_000_000;

/// Most branches a chain's count visits (each a law built and, in the
/// run, convolved; Double Cross `200DX2`, 7.7 million, answers in about
/// a second): the count itself stays within half a second.
pub const MAX_VISITS: u64 = 10_000_000;

/// What a chain will take, counted before any of its work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Rounds until less than `tail_eps` is still rolling (`MAX_ROUNDS +
    /// 1`: more than [`MAX_ROUNDS`]; fewer when the count stopped past the
    /// work's limit).
    pub rounds: usize,
    /// The steps of those rounds: per state and branch, the span of the
    /// sum so far times the span the round adds (its convolution), in
    /// exact fractions times the round's number (`u64::MAX`: past
    /// [`MAX_WORK`] in floating point, where the count stopped).
    pub work: u64,
    /// The branches counted (the count stops past [`MAX_VISITS`]).
    pub visits: u64,
}

impl Cost {
    /// Refuse a chain whose cost is past the limits, naming the size and
    /// the limit.
    pub fn check(&self, tail_eps: f64, exact: bool) -> Result<()> {
        if self.rounds > MAX_ROUNDS {
            return Err(Error::Conflict(format!(
                "the chain of rolls goes on for more than {MAX_ROUNDS} rounds before less than {tail_eps:e} of the probability is still rolling (at most {MAX_ROUNDS}); raise --tail-eps or the critical value"
            )));
        }
        if exact && self.rounds > MAX_EXACT_ROUNDS {
            return Err(Error::Conflict(format!(
                "--exact: this chain of rolls goes on for {} rounds before less than {tail_eps:e} of the probability is still rolling (exact fractions grow with every round: at most {MAX_EXACT_ROUNDS}); drop --exact (floating point answers it), or raise --tail-eps or the critical value",
                self.rounds
            )));
        }
        if self.visits > MAX_VISITS {
            return Err(Error::Conflict(format!(
                "this chain of rolls takes more than {MAX_VISITS} branches in its first {} rounds (at most {MAX_VISITS}); raise --tail-eps, roll fewer dice or raise the critical value",
                self.rounds
            )));
        }
        // In exact fractions the work's cost depends on the fractions'
        // size: the rounds bound it here, a front end may bound the work.
        if !exact && self.work > MAX_WORK {
            return Err(Error::Conflict(format!(
                "this chain of rolls takes {} (at most {MAX_WORK}); raise --tail-eps, roll fewer dice or raise the critical value",
                if self.work == u64::MAX {
                    format!("more than {MAX_WORK} steps in its first {} rounds", self.rounds)
                } else {
                    format!("about {} steps over {} rounds", self.work, self.rounds)
                },
            )));
        }
        Ok(())
    }
}

/// What the chain from `start` takes ([`Cost`]): its masses (in `f64`)
/// and the spans of its sums alone, round by round, without the laws of
/// the sums; it stops counting past [`MAX_ROUNDS`] or past the limit.
pub fn cost<S: Ord + Clone>(
    start: BTreeMap<S, Span>,
    first: usize,
    round: &mut impl FnMut(usize, &S) -> Vec<(Next<S>, Span)>,
    tail_eps: f64,
    exact: bool,
) -> Cost {
    cost_stops(start, first, round, tail_eps, exact).0
}

/// [`cost`], with the least and greatest sum of the chains that stop in
/// each round counted (`stops[k]`, `None` where none stops): bounds on
/// the values of the chain's law, known before any of its work.
pub fn cost_stops<S: Ord + Clone>(
    start: BTreeMap<S, Span>,
    first: usize,
    round: &mut impl FnMut(usize, &S) -> Vec<(Next<S>, Span)>,
    tail_eps: f64,
    exact: bool,
) -> (Cost, Stops) {
    let mut stops: Vec<Option<(i64, i64)>> = vec![None; first];
    let limit = if exact { u64::MAX / 2 } else { MAX_WORK };
    // Per state: the mass still rolling and the least and greatest sum.
    let mut running = start;
    let mut work: u64 = 0;
    let mut visits: u64 = 0;
    let mut k = first;
    loop {
        let mass: f64 = running.values().map(|v| v.0).sum();
        let over = k >= first + MAX_ROUNDS;
        if mass < tail_eps || running.is_empty() || over || work > limit || visits > MAX_VISITS {
            let more = over && mass >= tail_eps && !running.is_empty();
            let cost = Cost {
                rounds: k - first + usize::from(more),
                work: if work > limit { u64::MAX } else { work },
                visits,
            };
            return (cost, stops);
        }
        let weight = if exact { (k - first + 1) as u64 } else { 1 };
        let mut next: BTreeMap<S, Span> = BTreeMap::new();
        let mut stopped: Option<(i64, i64)> = None;
        for (state, &(m, lo, hi)) in &running {
            for (to, (am, alo, ahi)) in round(k, state) {
                visits += 1;
                if am == 0.0 {
                    continue;
                }
                let span = (hi - lo + 1) as u64;
                let add_span = (ahi - alo + 1) as u64;
                work = work.saturating_add(
                    span.saturating_mul(add_span)
                        .saturating_add(span + add_span)
                        .saturating_mul(weight),
                );
                match to {
                    Next::Go(s) => {
                        let e = next.entry(s).or_insert((0.0, i64::MAX, i64::MIN));
                        e.0 += m * am;
                        e.1 = e.1.min(lo + alo);
                        e.2 = e.2.max(hi + ahi);
                    }
                    Next::Stop => {
                        let (a, b) = stopped.unwrap_or((i64::MAX, i64::MIN));
                        stopped = Some((a.min(lo + alo), b.max(hi + ahi)));
                    }
                }
            }
        }
        stops.push(stopped);
        running = next;
        k += 1;
    }
}

/// The least and greatest sum of the chains that stop in each round
/// (`None` where none stops), as [`cost_stops`] counts them.
pub type Stops = Vec<Option<(i64, i64)>>;

/// A (sub-)law as [`cost`] reads it: its mass (in `f64`), least and
/// greatest value.
pub type Span = (f64, i64, i64);

/// Each state's [`Span`].
pub fn spans<S: Ord + Clone, W: Weight>(laws: &BTreeMap<S, Pmf<W>>) -> BTreeMap<S, Span> {
    laws.iter()
        .map(|(s, p)| (s.clone(), (p.total().to_f64(), p.min(), p.max())))
        .collect()
}

/// A branch as [`cost`] reads it (a law of mass zero: mass 0).
pub fn span<S: Clone, W: Weight>(to: &Next<S>, add: &Pmf<W>) -> (Next<S>, Span) {
    let m = if add.total().is_zero() {
        0.0
    } else {
        add.total().to_f64()
    };
    (to.clone(), (m, add.min(), add.max()))
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
    what: impl FnOnce() -> String,
    mut round: impl FnMut(usize) -> (Pmf<W>, Pmf<W>),
    tail_eps: f64,
) -> Result<Chained<W>> {
    let start = BTreeMap::from([((), Pmf::point(0))]);
    run(
        what,
        start,
        0,
        |k, _| {
            let (go, stop) = round(k);
            vec![(Next::Go(()), go), (Next::Stop, stop)]
        },
        tail_eps,
    )
}
