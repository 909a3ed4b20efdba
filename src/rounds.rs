//! Over several rolls: extended checks, rounds to defeat and races, for any
//! roll whose law is known (`hantei odds dice EXPR --until N`).
//!
//! The law of one roll is a list of `(stat, tier, p)`: the statistic the
//! test accumulates (a total, a count of successes, …) and the outcome tier
//! the roll falls in. Each tier has an [`Effect`]: the roll's stat is added
//! ([`Effect::Add`]), added with a bonus ([`Effect::Bonus`], negative for a
//! tier that spoils progress), or the tier ends the whole test at once as a
//! failure ([`Effect::Fail`], a fumble) or a success ([`Effect::Succeed`]).
//! Rolls go on until the accumulated value reaches the threshold `until`,
//! a tier ends the test, or the cap of rounds is reached.
//!
//! **Results below zero** ([`Negative`]): by default a roll adds
//! `max(stat + bonus, 0)`, so a bad roll makes no progress but never undoes
//! any (damage of `1D6-2` is at least 0, as designers write it);
//! [`Negative::Subtract`] lets it subtract, and the accumulated value may go
//! down, below zero too.
//!
//! **The cap**: `--rounds K`, or automatically the first round after which
//! the mass still rolling is below `tail_eps` (reported as `tail_mass`,
//! at most [`MAX_ROUNDS`] rounds).
//!
//! Reported, as the seed systems' extended tests name them
//! ([`crate::extended`]): `p_done_by[k]` = P(done by roll k+1), the chance
//! the test ends aborted, the law of the roll on which the test ends, the
//! mass still rolling after the cap (`tail_mass`), `expected_rolls` (rolls
//! made within the cap, the rolls of the tail counted as K) and, when every
//! roll adds at least 0, the uncapped mean `expected_rolls_unbounded`.
//!
//! **Races** ([`race`]): two sides roll at the same time each round, each
//! accumulating towards its own threshold; the first to reach it wins, both
//! on the same round is a tie (the contest tie rules apply on top). An HP
//! race (each side's result subtracted from the other's pool) is the same
//! computation: a side defeats the other when its accumulated damage
//! reaches the other's HP, so `until` is the opponent's HP.
//!
//! Computation: a dynamic programme over the accumulated value, one
//! convolution per round — O(K · N · v) for a cap K, threshold N and v
//! distinct increments. Exact weights run on big-integer numerators over
//! the common denominator `Dᵏ` of round k (no fraction is reduced inside
//! the loop); floats run in `f64`.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Pow, Signed, ToPrimitive, Zero};

use crate::contest::TieRule;
use crate::error::{Error, Result};
use crate::weight::AddWeight;
use crate::weight::Weight;

/// Most rounds (`--rounds`, and the automatic cap).
pub const MAX_ROUNDS: usize = 10_000;
/// Largest threshold (`--until`).
pub const MAX_UNTIL: i64 = 100_000;
/// Most multiply-adds of one test in floating point (a few seconds).
pub const MAX_WORK: u64 = 2_000_000_000;
/// Most big-integer multiply-adds of one test with exact weights.
pub const MAX_EXACT_WORK: u64 = 20_000_000;

/// What a tier does to the test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Effect {
    /// The roll's stat is added (default).
    #[default]
    Add,
    /// The stat plus a bonus (negative: a penalty) is added.
    Bonus(i64),
    /// The test ends at once, failed (a fumble that breaks the lock pick).
    Fail,
    /// The test ends at once, done (a critical that opens the lock).
    Succeed,
}

/// What a roll whose progress is below zero does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Negative {
    /// It adds nothing: progress is `max(stat + bonus, 0)` (default).
    #[default]
    Zero,
    /// It subtracts: the accumulated value may go down (below 0 too).
    Subtract,
}

impl Negative {
    /// Stable key.
    pub fn key(self) -> &'static str {
        match self {
            Negative::Zero => "zero",
            Negative::Subtract => "subtract",
        }
    }
}

/// The law of an extended test.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundsLaw<W> {
    /// `p_done_by[k]` = P(threshold reached, or a success tier, by roll
    /// `k + 1`); its length is the cap.
    pub p_done_by: Vec<W>,
    /// `p_aborted_by[k]` = P(a failure tier ended the test by roll `k + 1`).
    pub p_aborted_by: Vec<W>,
    /// P(still rolling after the cap).
    pub tail_mass: W,
    /// Expected rolls made within the cap (a test still going at the cap
    /// made K rolls).
    pub expected_rolls: W,
    /// Expected rolls with no cap, when every roll adds at least 0 and some
    /// roll makes progress or ends the test.
    pub expected_rolls_unbounded: Option<W>,
    /// In exact fractions, the word operations the uncapped mean's fraction
    /// would take where that is past [`MAX_EXACT_MEAN_WORD_OPS`], so it is
    /// not given (its fraction has about `until` times the step's
    /// denominator's digits).
    pub unbounded_skipped: Option<f64>,
    /// Whether the cap was found automatically (`tail_mass < tail_eps`, or
    /// [`MAX_ROUNDS`] reached).
    pub auto_cap: bool,
}

impl<W: Weight> RoundsLaw<W> {
    /// The cap (number of rounds).
    pub fn rounds(&self) -> usize {
        self.p_done_by.len()
    }

    /// P(done within the cap).
    pub fn p_success(&self) -> W {
        self.p_done_by.last().cloned().unwrap_or_else(W::zero)
    }

    /// P(ended by a failure tier within the cap).
    pub fn p_aborted(&self) -> W {
        self.p_aborted_by.last().cloned().unwrap_or_else(W::zero)
    }

    /// The law of the roll on which the test ends (done or aborted):
    /// `rolls[k]` = P(it ends on roll `k + 1`). With `tail_mass` it sums to
    /// one (less the mass cut from exploding dice).
    pub fn rolls(&self) -> Vec<W> {
        let mut prev = W::zero();
        self.p_done_by
            .iter()
            .zip(&self.p_aborted_by)
            .map(|(d, a)| {
                let cum = d.clone() + a;
                let r = cum.clone() - &prev;
                prev = cum;
                r
            })
            .collect()
    }
}

/// The test: the threshold, the cap and the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Threshold the accumulated value must reach (≥ 1).
    pub until: i64,
    /// Most rounds; `None`: automatic.
    pub rounds: Option<usize>,
    /// Results below zero.
    pub negative: Negative,
    /// The automatic cap: mass still rolling below this.
    pub tail_eps: f64,
}

/// One roll, compressed: the law of its progress and the two ends.
#[derive(Clone, Debug)]
pub struct Step<M> {
    /// `(increment, p)`, increments ascending and distinct.
    pub incs: Vec<(i64, M)>,
    /// P(the roll ends the test, failed).
    pub fail: M,
    /// P(the roll ends the test, done).
    pub succeed: M,
}

/// The progress law of one roll under `effects` and the rule for results
/// below zero.
pub fn progress<W: Weight>(law: &[(i64, usize, W)], effects: &[Effect], neg: Negative) -> Step<W> {
    step_of(law, effects, neg)
}

/// The step of a roll law under `effects` (a tier beyond `effects` adds).
fn step_of<W: Weight>(law: &[(i64, usize, W)], effects: &[Effect], neg: Negative) -> Step<W> {
    let mut incs: BTreeMap<i64, W> = BTreeMap::new();
    let (mut fail, mut succeed) = (W::zero(), W::zero());
    for (v, t, p) in law {
        if p.is_zero() {
            continue;
        }
        let raw = match effects.get(*t).copied().unwrap_or_default() {
            Effect::Fail => {
                fail += p;
                continue;
            }
            Effect::Succeed => {
                succeed += p;
                continue;
            }
            Effect::Add => *v,
            Effect::Bonus(b) => v.saturating_add(b),
        };
        let inc = match neg {
            Negative::Zero => raw.max(0),
            Negative::Subtract => raw,
        };
        incs.entry(inc).add_weight(p.clone());
    }
    Step {
        incs: incs.into_iter().collect(),
        fail,
        succeed,
    }
}

/// Whether the threshold can never be reached: no roll makes positive
/// progress and no tier ends the test as a success.
pub fn never_reaches<W: Weight>(law: &[(i64, usize, W)], effects: &[Effect]) -> bool {
    let s = step_of(law, effects, Negative::Zero);
    s.succeed.is_zero() && s.incs.iter().all(|(d, p)| *d <= 0 || p.is_zero())
}

/// A number the rounds are run in: `f64`, or big-integer numerators.
trait Mass: Clone {
    fn zero() -> Self;
    fn is_zero(&self) -> bool;
    fn add_prod(&mut self, a: &Self, b: &Self);
    fn add(&mut self, a: &Self);
}

impl Mass for f64 {
    fn zero() -> Self {
        0.0
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn add_prod(&mut self, a: &Self, b: &Self) {
        *self += a * b;
    }
    fn add(&mut self, a: &Self) {
        *self += a;
    }
}

impl Mass for BigInt {
    fn zero() -> Self {
        Zero::zero()
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn add_prod(&mut self, a: &Self, b: &Self) {
        *self += a * b;
    }
    fn add(&mut self, a: &Self) {
        *self += a;
    }
}

/// Per-round masses of a run: `done[k]`, `aborted[k]`, `alive[k]` (after
/// round k + 1), each over the round's denominator.
struct Raw<M> {
    done: Vec<M>,
    aborted: Vec<M>,
    alive: Vec<M>,
    /// Multiply-adds done.
    work: u64,
}

fn sum<M: Mass>(xs: &[M]) -> M {
    let mut s = M::zero();
    for x in xs {
        s.add(x);
    }
    s
}

/// Run at most `max_rounds` rounds; `stop(alive)` ends the run early (the
/// automatic cap). `one` is the mass of certainty at round 0, `limit` the
/// most multiply-adds.
///
/// Out of line: inlined into [`solve_within`], its loop's speed followed
/// whatever else that function held (the peers' `rounds_pool_20` and
/// `chain_dnd_round_100` moved 5 % with a change beside it).
#[inline(never)]
fn run_raw<M: Mass>(
    step: &Step<M>,
    until: i64,
    one: M,
    max_rounds: usize,
    stop: &dyn Fn(&M) -> bool,
    limit: u64,
) -> Result<Raw<M>> {
    let mut raw = Raw {
        done: Vec::with_capacity(max_rounds),
        aborted: Vec::with_capacity(max_rounds),
        alive: Vec::with_capacity(max_rounds),
        work: 0,
    };
    let min_inc = step.incs.first().map_or(0, |(d, _)| *d).min(0);
    // suffix[j] = mass of increments j.. (all reach the threshold once
    // the first does).
    let mut suffix: Vec<M> = vec![M::zero(); step.incs.len() + 1];
    for j in (0..step.incs.len()).rev() {
        let mut s = suffix[j + 1].clone();
        s.add(&step.incs[j].1);
        suffix[j] = s;
    }
    // alive[i] = mass still rolling with accumulated value base + i < until.
    let mut base: i64 = 0;
    let mut alive: Vec<M> = vec![one];
    let mut work: u64 = 0;
    for _ in 0..max_rounds {
        let total = sum(&alive);
        let mut done = M::zero();
        let mut aborted = M::zero();
        done.add_prod(&total, &step.succeed);
        aborted.add_prod(&total, &step.fail);
        let next_base = base + min_inc;
        let mut next: Vec<M> = vec![M::zero(); (until - next_base).max(0) as usize];
        work += (alive.len() as u64) * (step.incs.len() as u64).max(1);
        if work > limit {
            return Err(Error::Conflict(format!(
                "dice: the rounds take more than {limit} steps (threshold {until}, {} rounds so far); give a smaller --rounds, a smaller --until or raise --tail-eps",
                raw.done.len()
            )));
        }
        for (i, a) in alive.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            let s = base + i as i64;
            let mut j = 0;
            while j < step.incs.len() {
                let (d, p) = &step.incs[j];
                if s + d >= until {
                    break;
                }
                next[(s + d - next_base) as usize].add_prod(a, p);
                j += 1;
            }
            if j < step.incs.len() {
                done.add_prod(a, &suffix[j]);
            }
        }
        // Drop the leading values no mass reached.
        let lead = next.iter().take_while(|m| m.is_zero()).count();
        let lead = lead.min(next.len().saturating_sub(1));
        next.drain(..lead);
        base = next_base + lead as i64;
        alive = next;
        let left = sum(&alive);
        raw.done.push(done);
        raw.aborted.push(aborted);
        let end = stop(&left);
        raw.alive.push(left);
        raw.work = work;
        if end {
            break;
        }
    }
    Ok(raw)
}

/// The step's most multiply-adds for `rounds` rounds.
fn work_bound<M>(step: &Step<M>, until: i64, rounds: usize) -> u64 {
    let min_inc = step.incs.first().map_or(0, |(d, _)| *d).min(0);
    let states = until as u64 + rounds as u64 * min_inc.unsigned_abs();
    states
        .saturating_mul(rounds as u64)
        .saturating_mul(step.incs.len().max(1) as u64)
}

/// A lower bound on [`auto_rounds`], from the step alone: while `r` rolls
/// of at most the greatest increment stay below `until`, all that is not
/// ended by a tier is still rolling, `(1 − ended)^r` of it; the cap is
/// not reached before that is below `eps` or a roll can reach `until`
/// (one round less, for rounding).
fn least_rounds(step: &Step<f64>, until: i64, eps: f64) -> usize {
    let Some(&(top, _)) = step.incs.last() else {
        return 1;
    };
    if top <= 0 {
        return 1;
    }
    let reach = (until as u64).div_ceil(top as u64).min(MAX_ROUNDS as u64) as usize;
    let stays = 1.0 - step.fail - step.succeed;
    let mut alive = 1.0f64;
    let mut r = 0;
    while r < reach {
        alive *= stays;
        r += 1;
        if alive < eps {
            break;
        }
    }
    r.saturating_sub(1).max(1)
}

/// The f64 step of any weights.
fn step_f64<W: Weight>(step: &Step<W>) -> Step<f64> {
    Step {
        incs: step.incs.iter().map(|(d, p)| (*d, p.to_f64())).collect(),
        fail: step.fail.to_f64(),
        succeed: step.succeed.to_f64(),
    }
}

/// The automatic cap: the first round after which the mass still rolling
/// is below `eps` (found in `f64`), at most [`MAX_ROUNDS`].
fn auto_rounds(step: &Step<f64>, until: i64, eps: f64) -> Result<usize> {
    let raw = run_raw(step, until, 1.0, MAX_ROUNDS, &|a| *a < eps, MAX_WORK)?;
    Ok(raw.done.len().max(1))
}

#[doc(hidden)]
pub fn cumulative<W: Weight>(xs: impl Iterator<Item = W>) -> Vec<W> {
    let mut acc = W::zero();
    xs.map(|x| {
        acc += x;
        acc.clone()
    })
    .collect()
}

/// What a test costs, known before its rounds are rolled: the cap of
/// rounds and the most multiply-adds of the dynamic programme over them
/// (the planner's estimate of the rounds,
/// `systems::dice::pool::plan::Algorithm::Accumulate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The cap of rounds.
    pub rounds: usize,
    /// Whether the cap was found automatically.
    pub auto: bool,
    /// The most multiply-adds of the rounds: rounds × accumulated values
    /// below the threshold × the roll's distinct increments.
    pub steps: u64,
}

/// The budget of an extended test whose every roll has the law `law`,
/// tiers acting by `effects`: its inputs checked, its cap found (the
/// automatic one after a bound made before any work) and its work bounded,
/// refused past the limit.
pub fn budget<W: Weight>(
    law: &[(i64, usize, W)],
    effects: &[Effect],
    spec: &Spec,
) -> Result<Budget> {
    if spec.until < 1 {
        return Err(Error::param("--until", spec.until, "allowed 1 and up"));
    }
    if spec.until > MAX_UNTIL {
        return Err(Error::param(
            "--until",
            spec.until,
            format!("allowed at most {MAX_UNTIL}"),
        ));
    }
    if let Some(k) = spec.rounds {
        if !(1..=MAX_ROUNDS).contains(&k) {
            return Err(Error::param(
                "--rounds",
                k,
                format!("allowed 1..={MAX_ROUNDS}"),
            ));
        }
    }
    let step = step_of(law, effects, spec.negative);
    let limit = work_limit::<W>();
    if spec.rounds.is_none() {
        // Counted before any work: the automatic cap is at least the
        // rounds no roll can reach the threshold in (every roll still
        // rolling but those a tier ended), so a bound past the limit
        // there is past it at the cap too.
        let least = least_rounds(&step_f64(&step), spec.until, spec.tail_eps);
        let bound = work_bound(&step, spec.until, least);
        if bound > limit {
            return Err(Error::Conflict(format!(
                "dice: at least {least} rounds to {} take up to {bound} steps{} (at most {limit}); give a smaller --rounds or --until{}",
                spec.until,
                if W::EXACT { " with --exact" } else { "" },
                if W::EXACT { ", or drop --exact" } else { "" }
            )));
        }
    }
    let (rounds, auto) = match spec.rounds {
        Some(k) => (k, false),
        None => (
            auto_rounds(&step_f64(&step), spec.until, spec.tail_eps)?,
            true,
        ),
    };
    let steps = work_bound(&step, spec.until, rounds);
    if steps > limit {
        return Err(Error::Conflict(format!(
            "dice: {rounds} rounds to {} take up to {steps} steps{} (at most {limit}); give a smaller --rounds or --until{}",
            spec.until,
            if W::EXACT { " with --exact" } else { "" },
            if W::EXACT { ", or drop --exact" } else { "" }
        )));
    }
    if let Some((den, _)) = exact_step(&step) {
        let words = multiply_word_ops(steps, &den, rounds);
        if words > MAX_EXACT_MULTIPLY_WORD_OPS {
            return Err(Error::Conflict(format!(
                "dice: {rounds} rounds to {} in exact fractions take about {words:.1e} word operations of multiplying (at most {MAX_EXACT_MULTIPLY_WORD_OPS:e}): each round's weights are longer by the roll's denominator ({} bits); give a smaller --rounds, or drop --exact",
                spec.until,
                den.bits()
            )));
        }
        let words = reduce_word_ops(&den, rounds);
        if words > MAX_EXACT_REDUCE_WORD_OPS {
            return Err(Error::Conflict(format!(
                "dice: {rounds} rounds to {} in exact fractions take about {words:.1e} word operations to reduce (at most {MAX_EXACT_REDUCE_WORD_OPS:e}): each round's fraction is longer by the roll's denominator ({} bits); give a smaller --rounds, or drop --exact",
                spec.until,
                den.bits()
            )));
        }
    }
    Ok(Budget {
        rounds,
        auto,
        steps,
    })
}

/// The 64-bit words of a denominator (the unit the exact estimates count
/// in).
fn words_of(den: &BigInt) -> f64 {
    den.bits() as f64 / 64.0 + 1.0
}

/// Most word operations spent reducing an exact run's fractions (about
/// five seconds, measured): `1000B1000>=5 --exact --until 7 --rounds 100` (a roll's
/// denominator of 7,966 bits) reduced fractions of up to a million bits,
/// three a round, each a binary gcd quadratic in its length, for more
/// than a minute and a half.
pub const MAX_EXACT_REDUCE_WORD_OPS: f64 = 5e8;

/// The word operations of reducing an exact run's fractions: round `k`'s
/// three fractions (done, aborted, the mean's sum) are about `k` times the
/// denominator's words long, and a gcd is quadratic in that.
fn reduce_word_ops(den: &BigInt, rounds: usize) -> f64 {
    let words = words_of(den);
    (1..=rounds).map(|k| 3.0 * (k as f64 * words).powi(2)).sum()
}

/// Most word operations spent multiplying an exact run's weights (about
/// five seconds, measured): `50DF! --exact --until 1000 --rounds 10`
/// (a roll's denominator of 2,600 bits, every weight of round `k` about
/// `k` times as long, met by each of the roll's 1,700 increments) took
/// 25 s in big-integer multiply-adds before this bound.
pub const MAX_EXACT_MULTIPLY_WORD_OPS: f64 = 5e10;

/// The word operations of an exact run's multiply-adds (`steps` of them,
/// [`work_bound`]'s, a share each round): in round `k` each accumulated
/// weight is about `k` times the roll's denominator long, multiplied by a
/// numerator of the roll's (the denominator's length).
fn multiply_word_ops(steps: u64, den: &BigInt, rounds: usize) -> f64 {
    let words = words_of(den);
    let per_round = steps as f64 / rounds.max(1) as f64;
    (1..=rounds)
        .map(|k| per_round * k as f64 * words * words)
        .sum()
}

/// The most multiply-adds of one test: big-integer ones with exact
/// weights, fewer.
fn work_limit<W: Weight>() -> u64 {
    if W::EXACT {
        MAX_EXACT_WORK
    } else {
        MAX_WORK
    }
}

/// The law of an extended test whose every roll has the law `law`, tiers
/// acting by `effects` (index by tier).
pub fn solve<W: Weight>(
    law: &[(i64, usize, W)],
    effects: &[Effect],
    spec: &Spec,
) -> Result<RoundsLaw<W>> {
    let budget = budget(law, effects, spec)?;
    Ok(solve_within(law, effects, spec, &budget, true)?.0)
}

/// [`solve`] within a budget made by [`budget`] for the same test, with
/// the multiply-adds it took (never more than `budget.steps`). `mean`:
/// whether the caller reads the uncapped mean
/// ([`RoundsLaw::expected_rolls_unbounded`]; a roll whose law has a cut
/// tail shows none): without it, that mean is not computed, and in exact
/// fractions it can be the larger part of the work.
pub fn solve_within<W: Weight>(
    law: &[(i64, usize, W)],
    effects: &[Effect],
    spec: &Spec,
    budget: &Budget,
    mean: bool,
) -> Result<(RoundsLaw<W>, u64)> {
    let step = step_of(law, effects, spec.negative);
    let (rounds, limit) = (budget.rounds, work_limit::<W>());
    let (mut out, work) = match exact_step(&step) {
        Some((den, big)) => {
            let raw = run_raw(&big, spec.until, BigInt::one(), rounds, &|_| false, limit)?;
            (from_raw_exact(&raw, &den), raw.work)
        }
        None => {
            let f = step_f64(&step);
            let raw = run_raw(&f, spec.until, 1.0, rounds, &|_| false, limit)?;
            (from_raw_f64(&raw), raw.work)
        }
    };
    // A run cut short because nothing is left rolling keeps its last values.
    let last_done = out.p_done_by.last().cloned().unwrap_or_else(W::zero);
    let last_ab = out.p_aborted_by.last().cloned().unwrap_or_else(W::zero);
    out.p_done_by.resize(rounds, last_done);
    out.p_aborted_by.resize(rounds, last_ab);
    out.auto_cap = budget.auto;
    if mean {
        with_unbounded_mean(&mut out, &step, spec);
    }
    Ok((out, work))
}

/// Set `out`'s uncapped mean (or why it is skipped) from the step.
#[inline(never)]
fn with_unbounded_mean<W: Weight>(out: &mut RoundsLaw<W>, step: &Step<W>, spec: &Spec) {
    if spec.negative == Negative::Zero || step.incs.iter().all(|(d, _)| *d >= 0) {
        match unbounded_mean(step, spec.until) {
            Ok(mean) => out.expected_rolls_unbounded = mean,
            Err(work) => out.unbounded_skipped = Some(work),
        }
    }
}

/// The step over a common denominator: `(den, numerators)`; `None` for
/// floats.
fn exact_step<W: Weight>(step: &Step<W>) -> Option<(BigInt, Step<BigInt>)> {
    if !W::EXACT {
        return None;
    }
    let all: Vec<(BigInt, BigInt)> = step
        .incs
        .iter()
        .map(|(_, p)| p)
        .chain([&step.fail, &step.succeed])
        .map(Weight::as_fraction)
        .collect::<Option<_>>()?;
    let den = all.iter().fold(BigInt::one(), |l, (_, d)| l.lcm(d));
    let num = |w: &W| -> BigInt {
        let (n, d) = w.as_fraction().expect("exact weights are fractions");
        n * (&den / d)
    };
    let big = Step {
        incs: step.incs.iter().map(|(d, p)| (*d, num(p))).collect(),
        fail: num(&step.fail),
        succeed: num(&step.succeed),
    };
    Some((den, big))
}

fn from_raw_f64<W: Weight>(raw: &Raw<f64>) -> RoundsLaw<W> {
    let k = raw.done.len();
    let mut expected = 1.0;
    for a in raw.alive.iter().take(k.saturating_sub(1)) {
        expected += a;
    }
    if k == 0 {
        expected = 0.0;
    }
    RoundsLaw {
        p_done_by: cumulative(raw.done.iter().map(|x| W::from_f64(*x))),
        p_aborted_by: cumulative(raw.aborted.iter().map(|x| W::from_f64(*x))),
        tail_mass: W::from_f64(raw.alive.last().copied().unwrap_or(1.0)),
        expected_rolls: W::from_f64(expected),
        expected_rolls_unbounded: None,
        unbounded_skipped: None,
        auto_cap: false,
    }
}

fn from_raw_exact<W: Weight>(raw: &Raw<BigInt>, den: &BigInt) -> RoundsLaw<W> {
    let k = raw.done.len();
    let (mut done, mut ab) = (<BigInt as Zero>::zero(), <BigInt as Zero>::zero());
    let mut pow = BigInt::one();
    let mut p_done_by = Vec::with_capacity(k);
    let mut p_aborted_by = Vec::with_capacity(k);
    // Σ_{j<k} alive_j / Dʲ, alive_0 = 1, over D^(k-1).
    let mut exp = BigInt::one();
    for i in 0..k {
        pow *= den;
        done = done * den + &raw.done[i];
        ab = ab * den + &raw.aborted[i];
        p_done_by.push(W::from_fraction(done.clone(), pow.clone()));
        p_aborted_by.push(W::from_fraction(ab.clone(), pow.clone()));
        if i + 1 < k {
            exp = exp * den + &raw.alive[i];
        }
    }
    let tail = match raw.alive.last() {
        Some(a) => W::from_fraction(a.clone(), pow.clone()),
        None => W::one(),
    };
    let expected = if k == 0 {
        W::zero()
    } else {
        W::from_fraction(exp, Pow::pow(den, (k - 1) as u32))
    };
    RoundsLaw {
        p_done_by,
        p_aborted_by,
        tail_mass: tail,
        expected_rolls: expected,
        expected_rolls_unbounded: None,
        unbounded_skipped: None,
        auto_cap: false,
    }
}

/// Expected rolls with no cap, every increment ≥ 0 (negative ones count as
/// 0 here only when the rule says so: the caller checks):
/// `E(s) = (1 + Σ_{d ≥ 1, s+d < N} p_d E(s+d)) / (1 − p₀)`, from the top.
/// `None` when a roll can stay put forever.
///
/// `Err(word operations)` in exact fractions where its fraction would take
/// more than [`MAX_EXACT_MEAN_WORD_OPS`] ([`unbounded_mean_exact_work`]).
fn unbounded_mean<W: Weight>(step: &Step<W>, until: i64) -> std::result::Result<Option<W>, f64> {
    let n = until as usize;
    let stay = step
        .incs
        .iter()
        .filter(|(d, _)| *d <= 0)
        .fold(W::zero(), |a, (_, p)| a + p);
    let leave = W::one() - &stay;
    if leave.is_zero() || leave.to_f64() <= 0.0 {
        return Ok(None);
    }
    if let Some((den, big)) = exact_step(step) {
        let work = unbounded_mean_exact_work(&big, &den, n);
        if work > MAX_EXACT_MEAN_WORD_OPS {
            return Err(work);
        }
        return Ok(Some(unbounded_mean_exact(&big, &den, n)));
    }
    let mut e: Vec<W> = vec![W::zero(); n + 1];
    for s in (0..n).rev() {
        let mut acc = W::one();
        for (d, p) in &step.incs {
            if *d >= 1 && s + (*d as usize) < n {
                acc += p.clone() * &e[s + *d as usize];
            }
        }
        e[s] = acc / &leave;
    }
    Ok(Some(e.swap_remove(0)))
}

/// Most word operations of the exact uncapped mean (about a second):
/// its fraction grows by the
/// step's denominator's digits a value below the threshold, so
/// `1000B6 --until 1000 --exact` (a 2,585-bit denominator, 1,000 values,
/// each read by up to 999 steps) would take 10¹⁷, and its powers of the
/// denominator alone took 5 GB before it was stopped.
pub const MAX_EXACT_MEAN_WORD_OPS: f64 = 2e9;

/// The word operations of [`unbounded_mean_exact`]: for each of the `n`
/// values below the threshold, a product per step that stays below it, of
/// a numerator of about `(n − s)` times the denominator's words by a power
/// of about `d` times them (half of each on average), and the powers
/// themselves.
fn unbounded_mean_exact_work(step: &Step<BigInt>, den: &BigInt, n: usize) -> f64 {
    let words = words_of(den);
    let up: Vec<f64> = step
        .incs
        .iter()
        .filter(|(d, _)| *d >= 1 && (*d as usize) < n)
        .map(|(d, _)| *d as f64)
        .collect();
    let n = n as f64;
    let mean_d = up.iter().sum::<f64>() / (up.len().max(1) as f64);
    let steps = n * up.len() as f64;
    let products = steps * (n * words / 2.0) * (mean_d * words / 2.0 + 1.0);
    let powers = mean_d.min(n) * mean_d.min(n) * words;
    products + powers
}

/// The uncapped mean in big integers: with `p_d = q_d / D` and
/// `L = D − q₀ − q_{<0}`, `E(s) = a_s / L^(N−s)` where
/// `a_s = D·L^(N−s−1) + Σ_{d ≥ 1, s+d < N} q_d · a_{s+d} · L^(d−1)`: no
/// fraction is reduced until the last.
fn unbounded_mean_exact<W: Weight>(step: &Step<BigInt>, den: &BigInt, n: usize) -> W {
    let stay: BigInt = step
        .incs
        .iter()
        .filter(|(d, _)| *d <= 0)
        .map(|(_, q)| q.clone())
        .sum();
    let l = den - stay;
    let up: Vec<(usize, &BigInt)> = step
        .incs
        .iter()
        .filter(|(d, _)| *d >= 1)
        .map(|(d, q)| (*d as usize, q))
        .collect();
    // Only the powers a step below the threshold reads (d < N).
    let max_d = up.iter().map(|(d, _)| *d).max().unwrap_or(1).min(n);
    let mut l_pow: Vec<BigInt> = vec![BigInt::one()];
    for i in 1..max_d.max(1) {
        let next = &l_pow[i - 1] * &l;
        l_pow.push(next);
    }
    let mut a: Vec<BigInt> = vec![<BigInt as Zero>::zero(); n + 1];
    // D·L^(N−s−1), from s = N−1 down.
    let mut head = den.clone();
    for s in (0..n).rev() {
        let mut acc = head.clone();
        for (d, q) in &up {
            if s + d < n {
                acc += *q * &a[s + d] * &l_pow[d - 1];
            }
        }
        a[s] = acc;
        head *= &l;
    }
    // head is now D·L^N; E(0) = a_0 / L^N.
    let total = Pow::pow(&l, n as u32);
    W::from_fraction(a.swap_remove(0), total)
}

/// The law of a race.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceLaw<W> {
    /// P(the first side reaches its threshold first), after the tie rule.
    pub p_win: W,
    /// P(both on the same round), after the tie rule.
    pub p_tie: W,
    /// P(the other side first), after the tie rule.
    pub p_loss: W,
    /// P(both on the same round) before any tie rule.
    pub p_tie_same_round: W,
    /// P(both sides ended by a failure tier, neither done).
    pub p_neither: W,
    /// `p_done_by[k]` = P(the race is decided by round `k + 1`) (one race,
    /// before any reroll of a tie).
    pub p_done_by: Vec<W>,
    /// P(the race is still going after the cap).
    pub tail_mass: W,
    /// Expected rounds (rerolled ties included under the reroll rule).
    pub expected_rolls: W,
    /// Each side's own law.
    pub sides: [RoundsLaw<W>; 2],
}

impl<W: Weight> RaceLaw<W> {
    /// The law of the round on which one race is decided.
    pub fn rolls(&self) -> Vec<W> {
        let mut prev = W::zero();
        self.p_done_by
            .iter()
            .map(|d| {
                let r = d.clone() - &prev;
                prev = d.clone();
                r
            })
            .collect()
    }
}

/// One side of a race: its roll law, its tiers' effects, its threshold.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a, W> {
    /// The law of one roll, `(stat, tier, p)`.
    pub law: &'a [(i64, usize, W)],
    /// Each tier's effect.
    pub effects: &'a [Effect],
    /// The threshold.
    pub until: i64,
}

/// A race of two sides, each with its own roll law, effects and threshold;
/// `rounds` caps it (`None`: automatic, where both sides' mass still rolling
/// is below `tail_eps`).
pub fn race<W: Weight>(
    a: Side<'_, W>,
    b: Side<'_, W>,
    rounds: Option<usize>,
    negative: Negative,
    tail_eps: f64,
    tie: TieRule,
) -> Result<RaceLaw<W>> {
    let budgets = race_budgets(&a, &b, rounds, negative, tail_eps)?;
    Ok(race_within(a, b, &budgets, negative, tail_eps, tie)?.0)
}

/// The budgets of a race's two sides (one cap for both: the longer of the
/// two automatic caps where `rounds` is `None`), each refused past the
/// limit before any of its rounds are rolled.
pub fn race_budgets<W: Weight>(
    a: &Side<'_, W>,
    b: &Side<'_, W>,
    rounds: Option<usize>,
    negative: Negative,
    tail_eps: f64,
) -> Result<[Budget; 2]> {
    let spec = |until: i64, rounds: Option<usize>| Spec {
        until,
        rounds,
        negative,
        tail_eps,
    };
    let rounds = match rounds {
        Some(k) => k,
        None => {
            // The longer of the two automatic caps.
            let ka = budget::<f64>(&to_f64(a.law), a.effects, &spec(a.until, None))?.rounds;
            let kb = budget::<f64>(&to_f64(b.law), b.effects, &spec(b.until, None))?.rounds;
            ka.max(kb)
        }
    };
    Ok([
        budget(a.law, a.effects, &spec(a.until, Some(rounds)))?,
        budget(b.law, b.effects, &spec(b.until, Some(rounds)))?,
    ])
}

/// [`race`] within the budgets [`race_budgets`] made for it, with the
/// multiply-adds it took.
pub fn race_within<W: Weight>(
    a: Side<'_, W>,
    b: Side<'_, W>,
    budgets: &[Budget; 2],
    negative: Negative,
    tail_eps: f64,
    tie: TieRule,
) -> Result<(RaceLaw<W>, u64)> {
    let spec = |until: i64, budget: &Budget| Spec {
        until,
        rounds: Some(budget.rounds),
        negative,
        tail_eps,
    };
    // A race shows no uncapped mean of either side.
    let side = |s: &Side<'_, W>, budget: &Budget| {
        solve_within(s.law, s.effects, &spec(s.until, budget), budget, false)
    };
    let (la, wa) = side(&a, &budgets[0])?;
    let (lb, wb) = side(&b, &budgets[1])?;
    Ok((combine(la, lb, tie), wa.saturating_add(wb)))
}

#[doc(hidden)]
pub fn to_f64<W: Weight>(law: &[(i64, usize, W)]) -> Vec<(i64, usize, f64)> {
    law.iter().map(|(v, t, p)| (*v, *t, p.to_f64())).collect()
}

/// Two sides' laws (the same cap) as a race.
fn combine<W: Weight>(la: RoundsLaw<W>, lb: RoundsLaw<W>, tie: TieRule) -> RaceLaw<W> {
    let k = la.rounds().min(lb.rounds());
    let (mut win, mut tied, mut loss) = (W::zero(), W::zero(), W::zero());
    let (mut prev_a, mut prev_b) = (W::zero(), W::zero());
    let mut p_done_by = Vec::with_capacity(k);
    let mut expected = W::zero();
    let mut going = W::one();
    for i in 0..k {
        expected += &going;
        let (da, db) = (&la.p_done_by[i], &lb.p_done_by[i]);
        let step_a = da.clone() - &prev_a;
        let step_b = db.clone() - &prev_b;
        win += step_a.clone() * &(W::one() - db);
        loss += step_b.clone() * &(W::one() - da);
        tied += step_a * &step_b;
        // P(race not decided after round i+1).
        going = (W::one() - da) * &(W::one() - db)
            - &(la.p_aborted_by[i].clone() * &lb.p_aborted_by[i]);
        p_done_by.push(W::one() - &going);
        prev_a = da.clone();
        prev_b = db.clone();
    }
    let neither = la.p_aborted() * &lb.p_aborted();
    let tie_same = tied.clone();
    let (win, tied, loss, expected) = match tie {
        TieRule::Separate => (win, tied, loss, expected),
        TieRule::First => (win + &tied, W::zero(), loss, expected),
        TieRule::Second => (win, W::zero(), loss + &tied, expected),
        TieRule::Reroll => {
            let decisive = W::one() - &tied;
            if decisive.is_zero() {
                (win, tied, loss, expected)
            } else {
                (
                    win / &decisive,
                    W::zero(),
                    loss / &decisive,
                    expected / &decisive,
                )
            }
        }
    };
    RaceLaw {
        p_win: win,
        p_tie: tied,
        p_loss: loss,
        p_tie_same_round: tie_same,
        p_neither: neither,
        p_done_by,
        tail_mass: going,
        expected_rolls: expected,
        sides: [la, lb],
    }
}

/// `num / den` as an `f64` without overflow of either (big integers).
pub fn ratio_f64(num: &BigInt, den: &BigInt) -> f64 {
    if Zero::is_zero(den) {
        return f64::NAN;
    }
    let shift = den.bits().max(num.bits()).saturating_sub(60);
    let n = (num.abs() >> shift).to_f64().unwrap_or(f64::MAX);
    let d = (den.abs() >> shift).to_f64().unwrap_or(f64::MAX);
    let r = n / d;
    if num.is_negative() != den.is_negative() {
        -r
    } else {
        r
    }
}
