//! The fold over outcomes in order (icepool's `MultisetEvaluator` method).
//!
//! Kinds of dice (or of a group's items) are placed outcome by outcome,
//! highest first. With `r` dice of a kind not yet placed, each known to be
//! at most the current outcome `o`, the number `m` showing `o` is
//! binomial: `C(r, m)·qᵐ·(1−q)ʳ⁻ᵐ` with `q = P(o) / P(≤ o)`. Since the
//! dice above are placed, the state knows how many are kept (keep-highest
//! keeps the first `k` placed, keep-lowest the last `k`), whether the
//! maximum is set (the first outcome placed) and the minimum (the last).
//!
//! A fold may feed several *accumulators*: the pushed check of
//! [`super::push`] folds the dice that stay, the dice rerolled and their
//! new faces at once, the first roll reading the first two, the pushed
//! roll the first and the third.

use super::die::{die_law, DieLaw, Outcome};
use super::plan::Algorithm;
use super::steps::{self, States};
use super::{add_to, Ctx, Key, Map, Stat, MAX_STATES};
use crate::error::{Error, Result};
use crate::systems::dice::ast::*;
use crate::weight::AddWeight;
use crate::weight::Weight;

/// One kind of dice: its law, how many, which accumulators it feeds.
#[derive(Clone, Debug)]
pub struct Kind<W> {
    /// The law of one die (or item).
    pub law: DieLaw<W>,
    /// How many.
    pub n: i64,
    /// Bit `a` set: feeds accumulator `a`.
    pub feeds: u32,
}

/// The law of a pool term, by the algorithm the planner picks
/// ([`super::plan::term`]), its name set.
pub fn term_law<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<Map<W>> {
    planned(t, ctx, |a, law| run(a, t, law, ctx))
}

/// [`term_law`] as distinct cells: the class fold writes them as it
/// finds them, with no map between (a roll of one term; a named term's
/// value is set in a map).
pub fn term_cells<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
    planned(t, ctx, |a, law| cells_by(a, t, law, ctx))
}

/// [`term_cells`] by the algorithm `a` the planner chose, on the term's
/// die law `law`.
fn cells_by<W: Weight>(
    a: Algorithm,
    t: &PoolTerm,
    law: DieLaw<W>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    if a == Algorithm::ClassFold && t.name.is_none() {
        check_exact_work(&law, t.count)?;
        return super::classes::law(&law, ctx, t.count);
    }
    if by_sum_cells(a, ctx) {
        // Distinct tuples, straight from the sums (no map between).
        return sum_cells(a, t, &law, ctx);
    }
    Ok(run(a, t, law, ctx)?.into_iter().collect())
}

/// [`term_cells`] as a group's item's outcomes, highest first, each
/// ordered by its total (the natural dice's slot, if read, the total):
/// one die kept whole, whose outcomes differ in value, straight from its
/// law's outcomes in their own order, with no cells between (the same
/// tuples and weights as [`sum_cells`] writes lowest first); else its
/// cells, turned into outcomes ([`item_outcomes`]).
fn term_outcomes<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<Vec<(Outcome, W)>> {
    planned(t, ctx, |a, law: DieLaw<W>| {
        if by_sum_cells(a, ctx) {
            if let Some(cells) = SumKeys::of(t, ctx).one_die(t, &law) {
                let mut out = Vec::with_capacity(law.outcomes.len());
                out.extend(cells.map(|(contrib, w)| {
                    (
                        Outcome {
                            order: contrib[0],
                            contrib,
                        },
                        w,
                    )
                }));
                return Ok(out);
            }
        }
        Ok(item_outcomes(cells_by(a, t, law, ctx)?, ctx))
    })
}

/// Plan term `t` (its die's law under `ctx`), refuse a plan past the
/// limit, and run `f` with the algorithm chosen, traced for `--explain`.
fn planned<W: Weight, R>(
    t: &PoolTerm,
    ctx: &Ctx,
    f: impl FnOnce(Algorithm, DieLaw<W>) -> Result<R>,
) -> Result<R> {
    let (law, plan) = plan_checked::<W>(t, ctx)?;
    super::plan::traced(|| t.to_string(), t.count, &plan, || f(plan.algorithm, law))
}

/// Term `t`'s die law and plan, the plan refused past its limit and past
/// the floor on its states, before any of its law is built.
fn plan_checked<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<(DieLaw<W>, super::plan::Plan)> {
    let law = ctx_die_law::<W>(t, ctx)?;
    let plan = super::plan::term(t, &law, ctx);
    plan.check(t.count)?;
    if t.kept_filter().is_none() {
        let floor = super::plan::count_states_floor(&law, ctx, t.count);
        if floor > MAX_STATES as u64 {
            return Err(super::states_refused(
                Some(floor),
                Some(&format!(
                    "the vectors of their counts over {} dice",
                    t.count
                )),
            ));
        }
    }
    Ok((law, plan))
}

/// Every term of `expr` planned and checked (`plan_checked`) before
/// any law is built, where the roll is large enough that one part's law
/// could take seconds before another's plan is refused
/// (`{100D6!!,200D4!!}` read by `count(6)`: the first item's law for 2 s,
/// then the second's class fold refused). A small roll is not planned
/// twice: its terms' laws come in microseconds.
pub fn check_plans<W: Weight>(expr: &Node, ctx: &Ctx) -> Result<()> {
    let mut terms: Vec<&PoolTerm> = Vec::new();
    super::visit(expr, &mut |n| {
        if let Node::Pool(t) = n {
            terms.push(t);
        }
    });
    let scale: i64 = terms
        .iter()
        .map(|t| t.count.max(0).saturating_mul(t.faces.count().max(1)))
        .fold(0i64, i64::saturating_add);
    if terms.len() < 2 || scale < CHECK_PLANS_SCALE {
        return Ok(());
    }
    for t in terms {
        let (law, plan) = plan_checked::<W>(t, ctx)?;
        if plan.algorithm == Algorithm::ClassFold && t.name.is_none() {
            check_exact_work(&law, t.count)?;
        }
    }
    Ok(())
}

/// Dice × faces over a roll's terms past which [`check_plans`] plans
/// every term before any law is built.
pub const CHECK_PLANS_SCALE: i64 = 500;

/// The law of a pool term by the algorithm `a`, or `None` where it does
/// not apply: the planner's choice is [`term_law`]; the tests run every
/// algorithm that applies and hold each to the fold.
pub fn term_law_by<W: Weight>(t: &PoolTerm, ctx: &Ctx, a: Algorithm) -> Result<Option<Map<W>>> {
    let law = ctx_die_law::<W>(t, ctx)?;
    if !super::plan::applies(a, t, &law, ctx) {
        return Ok(None);
    }
    run(a, t, law, ctx).map(Some)
}

/// Run algorithm `a` on term `t` (one die's law `law`).
fn run<W: Weight>(a: Algorithm, t: &PoolTerm, law: DieLaw<W>, ctx: &Ctx) -> Result<Map<W>> {
    let mut m = match a {
        // Sets the name itself.
        Algorithm::PowerSum | Algorithm::KeepDp => return sum_law(a, t, &law, ctx),
        // One die kept of several, read by the total: its law is the
        // extreme's (sets the name itself).
        Algorithm::Extreme if super::plan::extreme_slot(ctx).is_none() => {
            return sum_law(a, t, &law, ctx)
        }
        Algorithm::Extreme => extreme_law(t, &law, ctx)?,
        Algorithm::ClassFold => {
            check_exact_work(&law, t.count)?;
            super::classes::law(&law, ctx, t.count)?
                .into_iter()
                .collect()
        }
        // One die: its outcomes, the name set as they are met.
        Algorithm::OrderFree if t.count == 1 => return Ok(one_die(&law, ctx, t.name.as_deref())),
        Algorithm::OrderFree => {
            check_exact_work(&law, t.count)?;
            let die = contributions(&law);
            independent(&die, ctx, t.count)?
        }
        Algorithm::Fold => {
            check_exact_work(&law, t.count)?;
            let kinds = [Kind {
                law,
                n: t.count,
                feeds: 1,
            }];
            fold(&kinds, ctx, t.kept_filter(), 1, None)?
        }
        Algorithm::GroupProduct
        | Algorithm::GroupBest
        | Algorithm::PushDieByDie
        | Algorithm::PushSplit
        | Algorithm::HitsBinomial
        | Algorithm::HitsHittingTime
        | Algorithm::HitsJoint
        | Algorithm::RoundChain
        | Algorithm::Combine
        | Algorithm::CombineTuples
        | Algorithm::Accumulate
        | Algorithm::Product => {
            return Err(Error::Conflict(format!(
                "dice: the {} is not an algorithm for one roll of a term",
                a.name()
            )))
        }
    };
    if let Some(name) = &t.name {
        m = set_name(m, ctx, name);
    }
    Ok(m)
}

/// One die's law under `ctx`: without the total when it is not carried
/// (every die adds 0 to it; the order, which keep/drop reads, stays; and
/// outcomes made equal merge, as the fold finds each outcome once).
pub fn ctx_die_law<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<DieLaw<W>> {
    let mut law = die_law::<W>(t, ctx)?;
    if !ctx.total {
        let mut merged: Vec<(Outcome, W)> = Vec::with_capacity(law.outcomes.len());
        for (mut o, p) in std::mem::take(&mut law.outcomes) {
            o.contrib[0] = 0;
            match merged.iter_mut().find(|(x, _)| *x == o) {
                Some((_, q)) => *q += p,
                None => merged.push((o, p)),
            }
        }
        law.outcomes = merged;
    }
    Ok(law)
}

/// Most steps of one exact (big-fraction) fold: outcomes × (dice + 1)² ×
/// the span of the total (about ten seconds of work).
pub const MAX_EXACT_WORK: u64 = 3_000_000;

/// Refuse at once an exact fold that would take minutes.
fn check_exact_work<W: Weight>(law: &DieLaw<W>, n: i64) -> Result<()> {
    if !W::EXACT {
        return Ok(());
    }
    let outcomes = law.outcomes.len() as u64;
    let lo = law.outcomes.iter().map(|(o, _)| o.order).min().unwrap_or(0);
    let hi = law.outcomes.iter().map(|(o, _)| o.order).max().unwrap_or(0);
    let span = (n as u64).saturating_mul((hi - lo) as u64 + 1);
    let work = outcomes
        .saturating_mul((n as u64 + 1).pow(2))
        .saturating_mul(span);
    if work > MAX_EXACT_WORK {
        return Err(Error::Conflict(format!(
            "dice: the exact law of {n} dice of {outcomes} outcomes with these statistics takes about {work} big-fraction steps (at most {MAX_EXACT_WORK}); drop --exact (floating point is exact to about 1e-15) or roll fewer dice"
        )));
    }
    Ok(())
}

/// Most big-fraction units of one exact group: the planner's estimate ×
/// (1 + the bits of its denominators / 64)^1.6, a step's products and
/// gcds growing as Karatsuba's multiplication does with the numbers'
/// length. Measured on a 2-core machine at 0.2–0.4 µs a unit
/// (`{5D6,5D8,5D10,5D12,5D20}KH2`, 3·10⁶ units, 0.58 s;
/// `{200D6,200D8,200D10,200D12}KH1`, 3.2·10⁶ units on 2,500-bit
/// denominators, 1.3 s; `{10D6,10D8,10D10,10D12,10D20}KH2`, 4.5·10⁷,
/// 10 s, refused; `{1000D6,1000D8,1000D10,1000D12}KH1`, 2·10⁸, ran for
/// minutes where the units were linear in the bits). A fuzzer found
/// steps four times as dear, 0.8 µs a unit (`{5D100ro1,3D8KL2,30D10}KH2`:
/// 2.0 million steps on 175-bit denominators, 1.7·10⁷ units, 13.2 s), so
/// the limit keeps the dearest within about six and a half seconds.
pub const MAX_EXACT_GROUP_UNITS: f64 = 8e6;

/// Refuse at once an exact group that would take more than seconds: its
/// fractions' denominators multiply item by item, and each step's cost
/// grows with their bits.
fn check_exact_group<W: Weight>(
    kinds: &[Kind<W>],
    plan: &super::plan::Plan,
    items: i64,
) -> Result<()> {
    if !W::EXACT {
        return Ok(());
    }
    let bits: u64 = kinds
        .iter()
        .map(|k| k.law.den_bits().saturating_mul(k.n.max(0) as u64))
        .sum();
    let units = super::combine::exact_units(plan.estimate, bits);
    if units > MAX_EXACT_GROUP_UNITS {
        return Err(Error::Conflict(format!(
            "dice: the exact law of this group of {items} items takes about {units:.1e} big-fraction units by the {} ({} steps on {bits}-bit denominators; at most {MAX_EXACT_GROUP_UNITS:e}); drop --exact (floating point is exact to about 1e-15) or roll fewer dice",
            plan.algorithm.name(),
            plan.estimate
        )));
    }
    Ok(())
}

/// Refuse at once an exact group that [`check_exact_group`] would refuse
/// once its items' laws were built: the same units from floors known
/// before (each item's cells and the bits of its longest denominator,
/// [`super::combine::floor_of`]), on the least work any of the group's
/// algorithms could take (the fold's product of outcomes, the best
/// item's items × values, the product's reading every outcome once). The
/// items' exact laws can take a second or more to build
/// (`{200D12KL2,10D1000ro1,100D12!}KL1`: `100D12!` alone 1 s, then
/// refused from 6·10⁴ steps on 7,012-bit denominators).
fn check_exact_group_floor<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<()> {
    if !W::EXACT {
        return Ok(());
    }
    let (least, bits) = exact_group_floor(g, ctx);
    let count = g.items.len();
    let units = super::combine::exact_units(least, bits);
    if units > MAX_EXACT_GROUP_UNITS {
        return Err(Error::Conflict(format!(
            "dice: the exact law of this group of {count} items takes at least about {units:.1e} big-fraction units ({least} steps or more on denominators of {bits} bits or more, counted before its items' laws were built; at most {MAX_EXACT_GROUP_UNITS:e}); drop --exact (floating point is exact to about 1e-15) or roll fewer dice"
        )));
    }
    Ok(())
}

/// Floors on a group's exact work known before its items' laws are built
/// ([`check_exact_group_floor`]): the least steps any of its algorithms
/// could take (at most [`super::plan::group_estimate`] of each), and the
/// bits of its items' denominators (at most what [`check_exact_group`]
/// counts from their laws). The tests hold both to what the laws give.
#[doc(hidden)]
pub fn exact_group_floor(g: &GroupTerm, ctx: &Ctx) -> (u64, u64) {
    let items = super::fold::distinct_items(&g.items);
    let floors: Vec<((u64, u64), u64)> = items
        .iter()
        .map(|(it, n)| (super::combine::floor_of(it, ctx), *n as u64))
        .collect();
    let bits: u64 = floors
        .iter()
        .map(|((_, b), n)| b.saturating_mul(*n))
        .fold(0, u64::saturating_add);
    let count: u64 = floors.iter().map(|(_, n)| n).sum();
    // Each item's outcomes, each read at least once (the product).
    let read_once: u64 = floors
        .iter()
        .map(|((c, _), n)| c.saturating_mul(*n))
        .fold(0, u64::saturating_add);
    // Every item meets every value of the largest (the best item).
    let best = count.saturating_mul(floors.iter().map(|((c, _), _)| *c).max().unwrap_or(1));
    // Every outcome meets every product of outcomes (the fold).
    let fold = read_once
        .saturating_mul(
            floors
                .iter()
                .fold(1u64, |a, ((c, _), n)| {
                    a.saturating_mul(c.saturating_pow(*n as u32))
                })
                .min(1 << 40),
        )
        .saturating_mul(count + 1);
    (read_once.min(best).min(fold), bits)
}

/// Sums and keep/drop that read only the total (and the natural dice,
/// equal to it without a score map): the power recurrence and the
/// order-statistics DP of [`crate::systems::dice::law`] on the die's law
/// (the planner's [`Algorithm::PowerSum`] and [`Algorithm::KeepDp`]), or
/// the extreme where one die of several is kept ([`Algorithm::Extreme`]).
fn sum_law<W: Weight>(a: Algorithm, t: &PoolTerm, law: &DieLaw<W>, ctx: &Ctx) -> Result<Map<W>> {
    let mut out: Map<W> = Map::default();
    for (key, w) in sum_cells(a, t, law, ctx)? {
        add_to(&mut out, &key, w);
    }
    Ok(out)
}

/// Whether algorithm `a` takes a term's law by [`sum_law`], whose tuples
/// are distinct where the total is carried (a sum or kept sum each once,
/// in the total's slot).
fn by_sum_cells(a: Algorithm, ctx: &Ctx) -> bool {
    ctx.total
        && match a {
            Algorithm::PowerSum | Algorithm::KeepDp => true,
            Algorithm::Extreme => super::plan::extreme_slot(ctx).is_none(),
            _ => false,
        }
}

/// [`sum_law`]'s tuples and weights, one per sum not of weight zero, in
/// the order of the sums (not merged: tuples that agree are summed by the
/// caller).
fn sum_cells<W: Weight>(
    a: Algorithm,
    t: &PoolTerm,
    law: &DieLaw<W>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    let sums = SumKeys::of(t, ctx);
    let value = |o: &super::die::Outcome| sums.value(o);
    let key_of = |x: i64| sums.key_of(x);
    if let Some(cells) = sums.one_die(t, law) {
        // Lowest first, with no law between (an exploding chain's 119).
        return Ok(cells.rev().collect());
    }
    let die = crate::pmf::Pmf::from_pairs(law.outcomes.iter().map(|(o, w)| (value(o), w.clone())));
    let kept = match t.kept_filter() {
        // One die kept of several: the highest or lowest.
        Some((f, n)) if a == Algorithm::Extreme => {
            let (high, _) = f.as_keep(n, t.count);
            let faces: Vec<(i64, W)> = die
                .iter()
                .filter(|(_, w)| !w.is_zero())
                .map(|(v, w)| (v, w.clone()))
                .collect();
            // Two dice or more (the planner's `keeps_one`).
            let n = extreme_dice::<W>(t, law.den_bits() as f64, faces.len())?;
            super::plan::count(super::plan::estimate(Algorithm::Extreme, t, law, ctx));
            crate::pmf::Pmf::from_pairs(extreme_of(faces.into_iter(), n, high))
        }
        Some((f, n)) if a == Algorithm::KeepDp => {
            let (high, k) = f.as_keep(n, t.count);
            crate::systems::dice::law::keep(&die, t.count, k, high)?
        }
        // Every die kept (the power sum: no filter, or one keeping all).
        _ => crate::systems::dice::law::sum_of(&die, t.count)?,
    };
    Ok(kept
        .iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(x, w)| (key_of(x), w.clone()))
        .collect())
}

/// How a term's sums are written as tuples ([`sum_cells`]): a die's value
/// in the sum, and what each slot of a sum's tuple reads.
struct SumKeys<'a> {
    ctx: &'a Ctx,
    /// The total's slot where a score map gives the die's value.
    scored: Option<usize>,
    slots: Vec<SumSlot>,
}

impl<'a> SumKeys<'a> {
    fn of(t: &PoolTerm, ctx: &'a Ctx) -> Self {
        let scored = ctx
            .layout
            .iter()
            .position(|s| *s == Stat::Total)
            .filter(|_| !t.scores.is_empty());
        let slots = ctx
            .layout
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Stat::Total if !ctx.total => SumSlot::Fixed(0),
                Stat::Total | Stat::Natural => SumSlot::Sum,
                Stat::Named(n) if t.name.as_deref() == Some(&**n) => SumSlot::Named(i),
                s => SumSlot::Fixed(s.neutral()),
            })
            .collect();
        SumKeys { ctx, scored, slots }
    }

    /// A die's value in the sum: its face (or chain total), or what its
    /// face scores under a score map (the contribution to the total).
    fn value(&self, o: &super::die::Outcome) -> i64 {
        match self.scored {
            Some(i) => o.contrib[i],
            None => o.order,
        }
    }

    /// The tuple of a sum `x`.
    fn key_of(&self, x: i64) -> Key {
        let mut key = Key::zeros(self.slots.len());
        for (k, s) in key.iter_mut().zip(&self.slots) {
            *k = match *s {
                SumSlot::Sum => x,
                SumSlot::Named(i) => self.ctx.named(i, x),
                SumSlot::Fixed(v) => v,
            };
        }
        key
    }

    /// One die kept whole (term `t` of one die, nothing kept or dropped):
    /// its outcomes are the sums, and where no two share a value (every die
    /// without a score map folding faces together) they are the cells as
    /// they stand, highest first as the die's law holds them, weights of
    /// zero left out; `None` otherwise.
    fn one_die<'l, W: Weight>(
        &'l self,
        t: &PoolTerm,
        law: &'l DieLaw<W>,
    ) -> Option<impl DoubleEndedIterator<Item = (Key, W)> + 'l> {
        let one = t.count == 1 && t.kept_filter().is_none();
        let distinct = || {
            law.outcomes
                .windows(2)
                .all(|w| self.value(&w[0].0) > self.value(&w[1].0))
        };
        (one && distinct()).then(|| {
            law.outcomes
                .iter()
                .filter(|(_, w)| !w.is_zero())
                .map(|(o, w)| (self.key_of(self.value(o)), w.clone()))
        })
    }
}

/// What one slot of a sum's tuple reads ([`sum_cells`]).
#[derive(Clone, Copy)]
enum SumSlot {
    /// The sum itself (the total, the natural dice).
    Sum,
    /// The term's own name at this slot, set from the sum.
    Named(usize),
    /// A value the sum does not move.
    Fixed(i64),
}

/// Most big-fraction units of an exact extreme (`extreme_law`): values ×
/// squarings × (bits of the powers / 64)², the powers' fractions
/// multiplied and reduced (a gcd) at every squaring. Measured on a 2-core
/// machine at about 3 ns a unit (`200U6[6]`: 3·10⁷ units, 0.18 s;
/// `1000U6[6]`: 1.2·10⁹ units, 3.6 s): about five seconds of work.
pub const MAX_EXACT_EXTREME_UNITS: f64 = 1.5e9;

/// Refuse at once an exact extreme of `n` dice over `values` distinct
/// values that would take more than seconds, one die's weights having
/// `die_bits`-bit denominators (the pool engine's extreme and the plain
/// one, [`crate::systems::dice::law::extreme`]).
fn check_exact_extreme<W: Weight>(die_bits: f64, values: u64, n: u32) -> Result<()> {
    if !W::EXACT {
        return Ok(());
    }
    let bits = die_bits * f64::from(n);
    let squarings = super::plan::squarings(u64::from(n)) as f64;
    let units = values as f64 * squarings * (1.0 + bits / 64.0).powi(2);
    if units > MAX_EXACT_EXTREME_UNITS {
        return Err(Error::Conflict(format!(
            "dice: the exact law of the extreme of {n} dice of {values} values takes about {units:.1e} big-fraction units (powers of {bits:.0}-bit fractions; at most {MAX_EXACT_EXTREME_UNITS:e}); drop --exact (floating point is exact to about 1e-15) or roll fewer dice"
        )));
    }
    Ok(())
}

/// The highest (or lowest) die read alone ([`Algorithm::Extreme`]): with
/// `F(v)` the chance one die contributes at most `v` (a chain's cut mass
/// left out), `P(max = v) = F(v)ⁿ − F(v⁻)ⁿ` over the distinct
/// contributions `v⁻ < v`; the lowest die by the survival function
/// `S(v) = P(≥ v)` alike. The values saturate as the context says.
fn extreme_law<W: Weight>(t: &PoolTerm, law: &DieLaw<W>, ctx: &Ctx) -> Result<Map<W>> {
    let Some((i, end)) = super::plan::extreme_slot(ctx) else {
        return Err(Error::Conflict(
            "dice: the extreme's power reads one highest or lowest die alone".into(),
        ));
    };
    let mut values: std::collections::BTreeMap<i64, W> = Default::default();
    for (o, p) in &law.outcomes {
        values.entry(o.contrib[i]).add_weight(p.clone());
    }
    let n = extreme_dice::<W>(t, law.den_bits() as f64, values.len())?;
    let mut key = ctx.neutral();
    let mut out: Map<W> = Map::default();
    if n == 0 {
        add_to(&mut out, &key, W::one());
        return Ok(out);
    }
    super::plan::count(super::plan::estimate(Algorithm::Extreme, t, law, ctx));
    let high = end == super::stat::Extreme::Highest;
    for (v, w) in extreme_of(values.into_iter(), n, high) {
        key[i] = ctx.merged(i, v);
        add_to(&mut out, &key, w);
    }
    Ok(out)
}

/// The dice of an extreme of term `t` over `values` distinct values, one
/// die's weights having `die_bits`-bit denominators: its exact work
/// checked first (`check_exact_extreme`; the pool engine's extreme and
/// the plain one, [`crate::systems::dice::law::term`]).
pub fn extreme_dice<W: Weight>(t: &PoolTerm, die_bits: f64, values: usize) -> Result<u32> {
    let n = u32::try_from(t.count.max(0))
        .map_err(|_| Error::Conflict(format!("dice: {} dice are too many", t.count)))?;
    check_exact_extreme::<W>(die_bits, values as u64, n)?;
    Ok(n)
}

/// The law of the highest (`high`) or lowest of `n ≥ 1` independent dice
/// whose values and probabilities are `ascending` (values ascending):
/// `P(max ≤ v) = F(v)ⁿ`, each value's weight the difference of two
/// powers of the cumulated mass from the reading's far end.
fn extreme_of<W: Weight>(
    ascending: impl DoubleEndedIterator<Item = (i64, W)>,
    n: u32,
    high: bool,
) -> Vec<(i64, W)> {
    let ordered: Box<dyn Iterator<Item = (i64, W)>> = if high {
        Box::new(ascending)
    } else {
        Box::new(ascending.rev())
    };
    let mut below = W::zero();
    let mut below_n = W::zero();
    ordered
        .map(|(v, p)| {
            below += p;
            let power = below.powi(n);
            let w = power.clone() - &below_n;
            below_n = power;
            (v, w)
        })
        .collect()
}

/// Whether every statistic of the layout combines die by die without
/// order: sums (the total, counts, scores), the maximum, the minimum,
/// all-equal — not sets (width, height), which need multiplicities.
pub fn order_free(layout: &[Stat]) -> bool {
    layout.iter().all(Stat::order_free)
}

/// One die's law by what its outcomes contribute: outcomes that
/// contribute alike are one (faces the statistics do not tell apart).
/// Merged by compensated sums ([`Weight::add_compensated`]): the 5,001
/// faces of a d10000 scoring 1 add up to 0.5001, not to 0.5001 less
/// thousands of roundings.
pub fn contributions<W: Weight>(law: &DieLaw<W>) -> Map<W> {
    let mut at: Map<usize> = Map::default();
    let mut sums: Vec<(Key, W, W)> = Vec::new();
    for (o, p) in &law.outcomes {
        let i = *at.entry(o.contrib.clone()).or_insert_with(|| {
            sums.push((o.contrib.clone(), W::zero(), W::zero()));
            sums.len() - 1
        });
        let (_, sum, carry) = &mut sums[i];
        W::add_compensated(sum, carry, p.clone());
    }
    sums.into_iter().map(|(k, s, c)| (k, s + c)).collect()
}

/// The law of `n` independent dice of the law `die`
/// ([`independent_steps`] without the laws on the way): one die is its
/// contributions met once from the neutral tuple, summed in the order
/// the one step would sum them, with no step's buffer between.
pub fn independent<W: Weight>(die: &Map<W>, ctx: &Ctx, n: i64) -> Result<Map<W>> {
    independent_by(die, ctx, n, true)
}

/// [`independent`], its steps on a table of transitions while their states
/// stay few (`table`) or every step on the buffer: the same law to the
/// last bit either way (held so by the tests).
#[doc(hidden)]
pub fn independent_by<W: Weight>(die: &Map<W>, ctx: &Ctx, n: i64, table: bool) -> Result<Map<W>> {
    independent_paths(die, ctx, n, table, true)
}

/// [`independent_by`], a large step summed straight by the codes of the
/// box its states must lie in (`boxed`, [`steps::step_within`]) or into
/// the map of tuples: the same law to the last bit either way (held so by
/// the tests).
#[doc(hidden)]
pub fn independent_paths<W: Weight>(
    die: &Map<W>,
    ctx: &Ctx,
    n: i64,
    table: bool,
    boxed: bool,
) -> Result<Map<W>> {
    if n != 1 {
        // A slot that every contribution leaves neutral stays neutral
        // (a statistic a push's pairs do not carry): the steps run on the
        // other slots alone, in the same order, and it is put back as the
        // law is written.
        let neutral = ctx.neutral();
        let keep: Vec<usize> = (0..neutral.len())
            .filter(|&i| {
                i == 0
                    || ctx.added(i, neutral[i], neutral[i]) != neutral[i]
                    || die.keys().any(|c| c[i] != neutral[i])
            })
            .collect();
        let die = super::sorted(die);
        if keep.len() == neutral.len() {
            return steps_of(
                &die,
                ctx,
                n,
                None::<fn(i64, &States<W>)>,
                |k, t| t.extend_from_slice(k),
                (table, boxed),
            );
        }
        let sub = ctx.project(&keep);
        let parts: Vec<(Key, &W)> = die
            .iter()
            .map(|(k, w)| (keep.iter().map(|&i| k[i]).collect(), *w))
            .collect();
        let parts: Vec<(&[i64], &W)> = parts.iter().map(|(k, w)| (&k[..], *w)).collect();
        return steps_of(
            &parts,
            &sub,
            n,
            None::<fn(i64, &States<W>)>,
            |k, t| {
                t.extend_from_slice(&neutral);
                for (j, &i) in keep.iter().enumerate() {
                    t[i] = k[j];
                }
            },
            (table, boxed),
        );
    }
    let die = super::sorted(die);
    let mut work: u64 = 0;
    super::spend(&mut work, die.len() as u64)?;
    Ok(met_once(ctx, die, None))
}

/// The law of one die of the law `law` named `name` (statistics
/// [`order_free`]): each outcome met once from the neutral tuple, as
/// [`independent`] meets one die, and the named slot set from the total
/// as it is written (where [`set_name`] copied the map again). Outcomes
/// that contribute alike are summed in the die's order.
pub fn one_die<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, name: Option<&str>) -> Map<W> {
    super::plan::count(law.outcomes.len() as u64);
    let named = name.and_then(|n| name_slot(ctx, n));
    met_once(
        ctx,
        law.outcomes.iter().map(|(o, p)| (&o.contrib[..], p)),
        named,
    )
}

/// One die's contributions `die`, each met once from the neutral tuple
/// and summed in the order given, the slot `named` (a named term's value)
/// set from the total as each is written.
fn met_once<'a, W: Weight + 'a>(
    ctx: &Ctx,
    die: impl IntoIterator<Item = (&'a [i64], &'a W)>,
    named: Option<usize>,
) -> Map<W> {
    let die = die.into_iter();
    let neutral = ctx.neutral();
    let mut out: Map<W> = Map::with_capacity_and_hasher(die.size_hint().0, Default::default());
    let mut key = neutral.clone();
    for (c, p) in die {
        for (i, k) in key.iter_mut().enumerate() {
            *k = ctx.added(i, neutral[i], c[i]);
        }
        if let Some(i) = named {
            key[i] = ctx.named(i, key[0]);
        }
        add_to(&mut out, &key, p.clone());
    }
    out
}

/// The law of 0, 1, …, `n` independent dice of the law `die` (by
/// [`contributions`]; statistics [`order_free`]), each handed to
/// `each(k, law of k dice)` as it is reached: one pass gives every pool
/// size (a game's rounds of fewer and fewer dice, a pool whose size is
/// itself rolled). Returns the law of `n` dice (moved out, not copied).
pub fn independent_steps<W: Weight>(
    die: &Map<W>,
    ctx: &Ctx,
    n: i64,
    each: impl FnMut(i64, &States<W>),
) -> Result<Map<W>> {
    // In a fixed order, so the sums come in one order on every run.
    let die = super::sorted(die);
    steps_of(
        &die,
        ctx,
        n,
        Some(each),
        |k, t| t.extend_from_slice(k),
        (true, true),
    )
}

/// Fewest dice whose steps run on a table of transitions: a table pays
/// only where its transitions are met again, which begins at the third
/// die. Measured (`peers`, interleaved): from four dice, the Blades
/// workload 1.08–1.11× the buffer's steps; from three, Year Zero's terms
/// of 2–3 dice, whose transitions are nearly all new, 0.94× on a table.
const TABLE_FROM: i64 = 4;

/// [`independent_steps`] of the contributions `die` in their order, each
/// state of the last step written as its tuple by `put`; on a table of
/// transitions while the states stay few (`paths.0`; the tests turn it
/// off to hold both equal), then on a step's buffer, a large step summed
/// straight by the codes of the box its states lie in (`paths.1`,
/// [`step_box`]).
fn steps_of<W: Weight>(
    die: &[(&[i64], &W)],
    ctx: &Ctx,
    n: i64,
    mut each: Option<impl FnMut(i64, &States<W>)>,
    put: impl FnMut(&[i64], &mut Vec<i64>),
    (table, boxed): (bool, bool),
) -> Result<Map<W>> {
    let len = ctx.layout.len();
    let edit = |key: &mut [i64], c: &[i64]| {
        for (i, k) in key.iter_mut().enumerate() {
            *k = ctx.added(i, *k, c[i]);
        }
    };
    // The table: the same pairs in the same order as the buffer's steps,
    // so the same states and sums (`steps::Table`).
    let mut tab =
        (table && n >= TABLE_FROM).then(|| steps::Table::<W>::new(&ctx.neutral(), die.len()));
    let mut states = States::<W>::one(&ctx.neutral());
    if let Some(each) = each.as_mut() {
        each(0, &states);
    }
    let mut work: u64 = 0;
    for k in 1..=n {
        let live = tab.as_ref().map_or(states.count(), steps::Table::count);
        let pairs = live * die.len();
        super::spend(&mut work, pairs as u64)?;
        if let Some(t) = tab.as_mut() {
            if t.step(die, edit) {
                if let Some(each) = each.as_mut() {
                    each(k, &t.states());
                }
                continue;
            }
            // Past the table's states: this step and the rest on the buffer.
            states = t.states();
            tab = None;
        }
        // Each step's states in tuple order (`steps`), so its sums come
        // in one order on every run.
        let within = if boxed && pairs > steps::BUFFER_MAX {
            step_box(ctx, &states, die)
        } else {
            None
        };
        states = steps::step_within(len, pairs, steps::Path::Auto, within.as_deref(), |sink| {
            for (s0, w) in states.iter() {
                for (c, p) in die {
                    sink.put_edit(
                        s0,
                        w,
                        p,
                        #[inline(always)]
                        |key| edit(key, c),
                    );
                }
            }
            Ok(())
        })?;
        if let Some(each) = each.as_mut() {
            each(k, &states);
        }
    }
    if let Some(t) = tab {
        states = t.states();
    }
    Ok(states.into_map(put))
}

/// The box one more die's step leads `states` into: per slot, a die's
/// contribution added to a state (`Ctx::added`) is monotone in both (a
/// sum, a maximum, a minimum, saturated or not), so the least and the
/// greatest of the new values come from the least and the greatest of
/// each. Whether all the dice are alike is not monotone, but its value
/// is the state's or the die's, or "two that differ": the range of both
/// and that mark. `None` where a monotone slot's bound is a mark.
fn step_box<W: Weight>(
    ctx: &Ctx,
    states: &States<W>,
    die: &[(&[i64], &W)],
) -> Option<Vec<steps::SlotRange>> {
    use super::stat::Combine;
    let len = ctx.layout.len();
    let sentinel = |v: i64| v == super::NONE_LOW || v == super::NONE_HIGH;
    // Per slot: least and greatest, marks included, and the least and
    // greatest ordinary values, and whether "no die yet" occurs.
    let scan = |keys: &mut dyn Iterator<Item = &[i64]>| {
        let mut all = vec![(i64::MAX, i64::MIN); len];
        let mut ordinary = vec![(i64::MAX, i64::MIN); len];
        let mut low = vec![false; len];
        for k in keys {
            for i in 0..len {
                let v = k[i];
                all[i] = (all[i].0.min(v), all[i].1.max(v));
                if sentinel(v) {
                    low[i] |= v == super::NONE_LOW;
                } else {
                    ordinary[i] = (ordinary[i].0.min(v), ordinary[i].1.max(v));
                }
            }
        }
        (all, ordinary, low)
    };
    let (s_all, s_ord, s_low) = scan(&mut states.iter().map(|(k, _)| k));
    let (c_all, c_ord, c_low) = scan(&mut die.iter().map(|(c, _)| *c));
    (0..len)
        .map(|i| {
            if ctx.ops[i].combine == Combine::AllEqual && !ctx.kept_only(i) {
                let (lo, hi) = (s_ord[i].0.min(c_ord[i].0), s_ord[i].1.max(c_ord[i].1));
                return Some(steps::SlotRange {
                    lo: ctx.merged(i, lo),
                    hi: ctx.merged(i, hi),
                    none_low: s_low[i] && c_low[i],
                    none_high: true,
                });
            }
            let (lo, hi) = (
                ctx.added(i, s_all[i].0, c_all[i].0),
                ctx.added(i, s_all[i].1, c_all[i].1),
            );
            (!sentinel(lo) && !sentinel(hi) && lo <= hi).then_some(steps::SlotRange {
                lo,
                hi,
                none_low: false,
                none_high: false,
            })
        })
        .collect()
}

/// The slot of the value named `name`, where the layout reads it.
fn name_slot(ctx: &Ctx, name: &str) -> Option<usize> {
    ctx.layout
        .iter()
        .position(|s| matches!(s, Stat::Named(n) if &**n == name))
}

/// Copy each tuple's total into the slot of `name`.
pub fn set_name<W: Weight>(m: Map<W>, ctx: &Ctx, name: &str) -> Map<W> {
    let Some(i) = name_slot(ctx, name) else {
        return m;
    };
    let mut out = Map::default();
    for (mut k, w) in m {
        k[i] = ctx.named(i, k[0]);
        add_to(&mut out, &k, w);
    }
    out
}

/// The law of a group: the planner's choice between the fold of its
/// items by their totals and the product of its items, one at a time.
pub fn group_law<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<Map<W>> {
    let mut m: Map<W> = if g.kept_filter().is_none() {
        items_summed(g, ctx)?.into_iter().collect()
    } else {
        planned_group(g, ctx, |a, kinds| run_group(a, kinds, ctx, g.kept_filter()))?
    };
    if let Some(name) = &g.name {
        m = set_name(m, ctx, name);
    }
    Ok(m)
}

/// [`group_law`] as distinct cells: the best item's law written as it is
/// found ([`super::best::cells`]), with no map between; the other
/// algorithms' laws as cells of their maps.
pub fn group_cells<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
    let mut cells = if g.kept_filter().is_none() {
        items_summed(g, ctx)?
    } else {
        group_kept_cells(g, ctx)?
    };
    if let Some(i) = g.name.as_deref().and_then(|name| name_slot(ctx, name)) {
        // Each cell's value set from its total: the cells differ in the
        // total wherever they differ in the value, so none meet.
        for (k, _) in cells.iter_mut() {
            k[i] = ctx.named(i, k[0]);
        }
    }
    Ok(cells)
}

/// A group keeping every item (`{A,B}`, `{A,B}KH2`): its items' laws (a
/// group's natural their totals) added pair by pair as a sum of parts
/// is ([`super::combine`]: packed tuples, its limits and its exact
/// count), where the group product carried a running sum at tens of
/// nanoseconds a step (`{2D1000KH3,200D100}KH2`: 39 million steps, 1.4 s;
/// `{8D20ro1,10D1000}` exactly, 10.3 s).
fn items_summed<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
    let node = Node::Group(Box::new(g.clone()));
    super::combine::check_items_floor::<W>(&node, &g.items, ctx)?;
    let kinds = group_kinds::<W>(g, ctx)?;
    let mut acc: Option<Vec<(Key, W)>> = None;
    for kind in each_item(&kinds) {
        let mut cells: Vec<(Key, W)> = kind
            .law
            .outcomes
            .iter()
            .map(|(o, w)| (o.contrib.clone(), w.clone()))
            .collect();
        super::sort_cells(&mut cells);
        acc = Some(match acc {
            None => cells,
            Some(a) => super::combine::planned_sorted(
                &node,
                Op::Add,
                &super::cell_refs(&a),
                &super::cell_refs(&cells),
                ctx,
            )?,
        });
    }
    Ok(acc.unwrap_or_else(|| vec![(ctx.neutral(), W::one())]))
}

/// [`group_cells`] of a group keeping some of its items.
fn group_kept_cells<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
    planned_group(g, ctx, |a, kinds| match a {
        Algorithm::GroupBest => super::best::cells(kinds, ctx, keeps_one(kinds, g.kept_filter())?),
        _ => Ok(run_group(a, kinds, ctx, g.kept_filter())?
            .into_iter()
            .collect()),
    })
}

/// Plan group `g` (its items' kinds), refuse a plan past the limit, and
/// run `f` with the algorithm chosen, traced for `--explain`.
fn planned_group<W: Weight, R>(
    g: &GroupTerm,
    ctx: &Ctx,
    f: impl FnOnce(Algorithm, &[Kind<W>]) -> Result<R>,
) -> Result<R> {
    super::plan::check_group_floor(g, ctx)?;
    check_exact_group_floor::<W>(g, ctx)?;
    let kinds = group_kinds::<W>(g, ctx)?;
    let filter = g.kept_filter();
    let plan = super::plan::group(&kinds, ctx, filter);
    let items = item_count(&kinds);
    plan.check(items)?;
    if plan.algorithm == Algorithm::GroupProduct {
        let floor = super::plan::product_states_floor(&kinds, filter, ctx, MAX_STATES as u64);
        if floor > MAX_STATES as u64 {
            return Err(super::states_refused(
                Some(floor),
                Some("the kept totals of its items, each multiset a state with each value of the statistics read with them"),
            ));
        }
    }
    check_exact_group(&kinds, &plan, items)?;
    super::plan::traced(|| g.to_string(), items, &plan, || f(plan.algorithm, &kinds))
}

/// A group's law by the algorithm `a` (the fold or the product of its
/// items); the planner's choice is [`group_law`], the tests run both.
pub fn run_group<W: Weight>(
    a: Algorithm,
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(Filter, i64)>,
) -> Result<Map<W>> {
    match a {
        Algorithm::GroupProduct => group_product(kinds, ctx, filter),
        Algorithm::GroupBest => super::best::law(kinds, ctx, keeps_one(kinds, filter)?),
        _ => fold(kinds, ctx, filter, 1, None),
    }
}

/// Whether a group of `kinds` under `filter` keeps its highest item
/// (else its lowest), for the best item's algorithm; refused unless it
/// keeps exactly one.
fn keeps_one<W>(kinds: &[Kind<W>], filter: Option<(Filter, i64)>) -> Result<bool> {
    match filter.map(|(f, n)| f.as_keep(n, item_count(kinds))) {
        Some((high, 1)) => Ok(high),
        _ => Err(Error::Conflict(
            "dice: the best item of a group is for a group keeping one item".into(),
        )),
    }
}

/// How many items (dice) the kinds hold.
pub fn item_count<W>(kinds: &[Kind<W>]) -> i64 {
    kinds.iter().map(|k| k.n.max(0)).sum()
}

/// Each item of the kinds in turn (a kind rolled `n` times, `n` times).
pub fn each_item<W>(kinds: &[Kind<W>]) -> impl Iterator<Item = &Kind<W>> {
    kinds
        .iter()
        .flat_map(|k| std::iter::repeat_n(k, k.n.max(0) as usize))
}

/// The mass of an item's law without summing it: independent dice's
/// laws multiply, so their masses do (each die's below 1 where its chain
/// was cut, `mᵏ` for `k` of them whatever is kept); `None` for a group or
/// a chain inside, whose mass is summed.
pub fn item_mass<W: Weight>(n: &Node, ctx: &Ctx) -> Option<Result<W>> {
    Some(match n {
        Node::Num(_) => Ok(W::one()),
        Node::Neg(b) | Node::Paren(b) => item_mass(b, ctx)?,
        Node::Bin(_, a, b) => match (item_mass::<W>(a, ctx)?, item_mass::<W>(b, ctx)?) {
            (Ok(x), Ok(y)) => Ok(x * &y),
            (Err(e), _) | (_, Err(e)) => Err(e),
        },
        Node::Pool(t) => ctx_die_law::<W>(t, ctx)
            .map(|law| (0..t.count.max(0)).fold(W::one(), |m, _| m * &law.mass)),
        Node::Group(_) | Node::Chain(_) => return None,
    })
}

/// A group's items as kinds (identical items one kind rolled several
/// times), for [`run_group`].
pub fn group_kinds<W: Weight>(g: &GroupTerm, ctx: &Ctx) -> Result<Vec<Kind<W>>> {
    let mut kinds: Vec<Kind<W>> = Vec::new();
    for (it, n) in distinct_items(&g.items) {
        // Distinct cells, with no map between (a term's sums straight
        // from its algorithm; one die's straight from its outcomes).
        let mut outcomes = match it {
            Node::Pool(t) => term_outcomes::<W>(t, ctx)?,
            _ => item_outcomes(super::node_cells::<W>(it, ctx)?, ctx),
        };
        // Totals that differed only in the natural dice (a score map's
        // faces) are now one outcome: merged, as the fold finds each
        // outcome of a kind once.
        super::merge_runs(&mut outcomes);
        // In fractions, the product of its dice's masses where it is known
        // (summing the outcomes' long fractions took a gcd of their
        // denominators each: 0.5 s an item of 1000 dice, 0.75 s for
        // `{50D10!!,50D8!!}KH1`'s, before a refusal).
        let mass = match W::EXACT.then(|| item_mass::<W>(it, ctx)).flatten() {
            Some(m) => m?,
            None => outcomes.iter().fold(W::zero(), |a, (_, w)| a + w),
        };
        kinds.push(Kind {
            law: DieLaw { outcomes, mass },
            n,
            feeds: 1,
        });
    }
    Ok(kinds)
}

/// An item's cells as its outcomes, highest first: each ordered by its
/// total, a group's natural dice (its kept items' total) read from it.
fn item_outcomes<W: Weight>(cells: Vec<(Key, W)>, ctx: &Ctx) -> Vec<(Outcome, W)> {
    let natural = ctx.layout.iter().position(|s| *s == Stat::Natural);
    let mut outcomes: Vec<(Outcome, W)> = Vec::with_capacity(cells.len());
    outcomes.extend(
        cells
            .into_iter()
            .filter(|(_, w)| !w.is_zero())
            .map(|(mut k, w)| {
                if let Some(i) = natural {
                    k[i] = k[0];
                }
                (
                    Outcome {
                        order: k[0],
                        contrib: k,
                    },
                    w,
                )
            }),
    );
    // Highest first: a term's cells come in their tuples' order (a sum's
    // lowest first), turned over where they are strictly so, sorted only
    // where not.
    if outcomes.windows(2).all(|w| w[0].0 < w[1].0) {
        outcomes.reverse();
    } else if !outcomes.windows(2).all(|w| w[0].0 > w[1].0) {
        outcomes.sort_by(|a, b| b.0.cmp(&a.0));
    }
    outcomes
}

/// A group's distinct items, each with how many times it stands: identical
/// items are one kind rolled several times, met where the first of them
/// stands (the order [`group_kinds`] and the group's floors
/// ([`super::plan::group_floors`]) meet them in).
pub fn distinct_items(items: &[Node]) -> Vec<(&Node, i64)> {
    let mut out: Vec<(&Node, i64)> = Vec::new();
    for it in items {
        match out.iter_mut().find(|(s, _)| *s == it) {
            Some((_, n)) => *n += 1,
            None => out.push((it, 1)),
        }
    }
    out
}

/// A group's items as the product of their laws, one item at a time (a
/// kind rolled `n` times is met `n` times): every
/// statistic combines over all items (as in [`fold`]); the total and the
/// natural are the kept items' totals, the state carrying the best `k`
/// totals so far (keep-highest; the worst `k` for keep-lowest).
fn group_product<W: Weight>(
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(Filter, i64)>,
) -> Result<Map<W>> {
    let len = ctx.layout.len();
    let items = item_count(kinds);
    // (keep the high ones, how many); keeping all is a running sum.
    let keep = filter.map(|(f, n)| f.as_keep(n, items));
    let slots = keep.map_or(1, |(_, k)| k.max(0) as usize);
    // An empty kept slot (its own digit when the steps pack the states).
    let empty = match keep {
        Some((true, _)) => i64::MIN,
        Some((false, _)) => i64::MAX,
        None => 0,
    };
    let mut start = ctx.neutral().to_vec();
    start.extend(std::iter::repeat_n(empty, slots));
    let mut states = States::<W>::one(&start);
    let mut work: u64 = 0;
    // The slots combined item by item (the kept-only ones are read from
    // the kept slots at the end).
    let meet = Meet {
        ctx,
        combined: (0..len).filter(|&s| !ctx.kept_only(s)).collect(),
        len,
    };
    let Some((high, _)) = keep else {
        // Keeping all: every outcome moves the running sum.
        for kind in each_item(kinds) {
            let pairs = states.count() * kind.law.outcomes.len();
            super::spend(&mut work, pairs as u64)?;
            states = steps::step(len + slots, pairs, |sink| {
                for (state, w) in states.iter() {
                    for (o, p) in &kind.law.outcomes {
                        meet.put(sink, (state, w), (o, p), |k| {
                            k[0] = k[0].saturating_add(o.order)
                        });
                    }
                }
                Ok(())
            })?;
        }
        return Ok(finish_product(states, ctx, len, empty, false));
    };
    // Each kind's outcomes as the product meets them (`Entering`): an
    // outcome that cannot enter a state's kept totals changes only the
    // combined slots, so those alike there meet the state as one pair.
    let met: Vec<Entering<'_, W>> = kinds
        .iter()
        .map(|k| Entering::of(&k.law, &meet.combined, high))
        .collect();
    for (kind, met) in kinds.iter().zip(&met) {
        for _ in 0..kind.n.max(0) {
            // The worst kept total of a state: an outcome enters only
            // past it (none where nothing is kept).
            let worst = |state: &[i64]| match (slots, high) {
                (0, true) => i64::MAX,
                (0, false) => i64::MIN,
                _ => state[len + slots - 1],
            };
            // Per state, how many outcomes enter (found once, for the
            // count of pairs and for the step).
            let cut: Vec<usize> = states.iter().map(|(k, _)| met.better(worst(k))).collect();
            let pairs: usize = cut.iter().map(|&c| c + met.mass[c].len()).sum();
            super::spend(&mut work, pairs as u64)?;
            states = steps::step(len + slots, pairs, |sink| {
                for ((state, w), &c) in states.iter().zip(&cut) {
                    for (o, p) in &met.best[..c] {
                        meet.put(sink, (state, w), (o, p), |k| insert_kept(k, o.order, high));
                    }
                    for (o, p) in &met.mass[c] {
                        meet.put(sink, (state, w), (o, p), |_| {});
                    }
                }
                Ok(())
            })?;
        }
    }
    Ok(finish_product(states, ctx, len, empty, true))
}

/// What the group product needs to meet a state with an outcome.
struct Meet<'a> {
    ctx: &'a Ctx,
    /// The slots combined item by item (the kept-only ones are read from
    /// the kept slots at the end).
    combined: Vec<usize>,
    /// Where the kept slots start.
    len: usize,
}

impl Meet<'_> {
    /// The pair of `state` (weight `w`) and outcome `o` (mass `p`): the
    /// combined slots by their rules, the kept slots by `kept`.
    #[inline(always)]
    fn put<W: Weight>(
        &self,
        sink: &mut steps::Buffer<W>,
        (state, w): (&[i64], &W),
        (o, p): (&Outcome, &W),
        kept: impl FnOnce(&mut [i64]),
    ) {
        let (combined, len) = (&self.combined[..], self.len);
        sink.put_edit(
            state,
            w,
            p,
            #[inline(always)]
            |key| {
                for &s in combined {
                    key[s] = self.ctx.combined(s, key[s], o.contrib[s]);
                }
                kept(&mut key[len..]);
            },
        );
    }
}

/// Insert the total `v` into the sorted best `k` (`high`: the highest),
/// dropping the worst.
#[inline(always)]
fn insert_kept(kept: &mut [i64], mut v: i64, high: bool) {
    for slot in kept.iter_mut() {
        let better = if high { v > *slot } else { v < *slot };
        if better {
            std::mem::swap(slot, &mut v);
        }
    }
}

/// One item's outcomes as a group keeping its best (worst) totals meets
/// them. Outcomes are in order of their totals, best first. For a state
/// whose worst kept total is `t`, the outcomes better than `t` enter the
/// kept totals, each by itself; every other outcome changes only the
/// combined slots (its counts, maxima, names), so per class of outcomes
/// alike there one pair carries their whole mass, known from sums over
/// the outcomes that do not enter. The pairs per state fall from every
/// outcome to those that enter and the classes (Cortex Prime's d10 with a
/// state keeping 8 and 6: four that enter and two classes, hitch or not,
/// where there were ten).
struct Entering<'a, W> {
    /// The outcomes, best first.
    best: Vec<(&'a Outcome, W)>,
    /// `mass[s]`: per class (its index and mass, none of mass zero), the
    /// mass of the outcomes that do not enter when the first `s` are
    /// better than the worst kept (keeping the highest: those from `s` on;
    /// keeping the lowest, best first is lowest first).
    mass: Vec<Vec<(&'a Outcome, W)>>,
    high: bool,
}

impl<'a, W: Weight> Entering<'a, W> {
    fn of(law: &'a DieLaw<W>, combined: &[usize], high: bool) -> Self {
        let mut best: Vec<(&Outcome, W)> =
            law.outcomes.iter().map(|(o, p)| (o, p.clone())).collect();
        // Best first, ties in the law's order.
        best.sort_by(|a, b| {
            if high {
                b.0.order.cmp(&a.0.order)
            } else {
                a.0.order.cmp(&b.0.order)
            }
        });
        let alike =
            |a: &Outcome, b: &Outcome| combined.iter().all(|&s| a.contrib[s] == b.contrib[s]);
        let mut class: Vec<&Outcome> = Vec::new();
        let of: Vec<usize> = best
            .iter()
            .map(|(o, _)| match class.iter().position(|c| alike(c, o)) {
                Some(i) => i,
                None => {
                    class.push(o);
                    class.len() - 1
                }
            })
            .collect();
        // Sums from the worst outcome up, each class's in the same order.
        let m = best.len();
        let mut sums: Vec<W> = vec![W::zero(); class.len()];
        let mut mass: Vec<Vec<(&Outcome, W)>> = vec![Vec::new(); m + 1];
        for s in (0..m).rev() {
            sums[of[s]] += &best[s].1;
            mass[s] = class
                .iter()
                .zip(&sums)
                .filter(|(_, w)| !w.is_zero())
                .map(|(c, w)| (*c, w.clone()))
                .collect();
        }
        Entering { best, mass, high }
    }

    /// How many outcomes are better than the worst kept total `t`.
    fn better(&self, t: i64) -> usize {
        if self.high {
            self.best.partition_point(|(o, _)| o.order > t)
        } else {
            self.best.partition_point(|(o, _)| o.order < t)
        }
    }
}

/// The product's states as a law: the kept totals summed into every
/// kept-only slot (the total, the natural dice).
fn finish_product<W: Weight>(
    states: States<W>,
    ctx: &Ctx,
    len: usize,
    empty: i64,
    keeps: bool,
) -> Map<W> {
    states.into_map(|k, t| {
        let total = k[len..]
            .iter()
            .filter(|v| **v != empty || !keeps)
            .fold(0i64, |a, v| a.saturating_add(*v));
        t.extend_from_slice(&k[..len]);
        for (s, stat) in ctx.layout.iter().enumerate() {
            if stat.kept_only() {
                t[s] = total;
            }
        }
    })
}

/// How many of `m` dice placed after `before` (of `total`) are kept.
pub fn kept(filter: Option<(Filter, i64)>, total: i64, before: i64, m: i64) -> i64 {
    match filter {
        None => m,
        Some((f, n)) => {
            let (high, k) = f.as_keep(n, total);
            if high {
                (k - before).clamp(0, m)
            } else {
                (before + m - (total - k)).clamp(0, m)
            }
        }
    }
}

/// Binomial probabilities `C(r, m)·qᵐ·(1−q)ʳ⁻ᵐ` for m = 0..=r.
pub(super) fn binomial_row<W: Weight>(r: i64, q: &W) -> Vec<W> {
    let one_q = W::one() - q;
    if !W::EXACT {
        // Logs keep large pools from underflowing midway.
        let (qf, pf) = (q.to_f64(), one_q.to_f64());
        if qf >= 1.0 {
            let mut v = vec![W::zero(); r as usize + 1];
            v[r as usize] = W::one();
            return v;
        }
        if qf <= 0.0 {
            let mut v = vec![W::zero(); r as usize + 1];
            v[0] = W::one();
            return v;
        }
        let (lq, lp) = (qf.ln(), pf.ln());
        let mut lc = 0.0f64;
        let mut out = Vec::with_capacity(r as usize + 1);
        for m in 0..=r {
            if m > 0 {
                lc += ((r - m + 1) as f64).ln() - (m as f64).ln();
            }
            out.push(W::from_f64(
                (lc + m as f64 * lq + (r - m) as f64 * lp).exp(),
            ));
        }
        return out;
    }
    let mut out = Vec::with_capacity(r as usize + 1);
    let mut c = W::one();
    for m in 0..=r {
        if m > 0 {
            c = c * W::ratio(r - m + 1, m);
        }
        out.push(c.clone() * q.powi(m as u32) * one_q.powi((r - m) as u32));
    }
    out
}

/// Fold `kinds` into `accs` accumulators (each a tuple of the layout),
/// keeping per accumulator by `filter`. The result's keys are the
/// accumulators' tuples one after the other. `carry` (over every
/// accumulator's slots) leaves the statistics not carried neutral, so that
/// states differing only there merge as the fold goes (a push's first
/// roll carries only what its decision reads).
pub fn fold<W: Weight>(
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(Filter, i64)>,
    accs: usize,
    carry: Option<&[bool]>,
) -> Result<Map<W>> {
    let layout = &ctx.layout;
    let len = layout.len();
    let nk = kinds.len();
    // Every distinct outcome, highest first.
    let mut all: Vec<&Outcome> = kinds
        .iter()
        .flat_map(|k| k.law.outcomes.iter().map(|(o, _)| o))
        .collect();
    all.sort_by(|a, b| b.cmp(a));
    all.dedup();
    // Per kind: the probability at each outcome and the mass at or below.
    let probs: Vec<Vec<W>> = kinds
        .iter()
        .map(|k| {
            all.iter()
                .map(|o| {
                    k.law
                        .outcomes
                        .iter()
                        .find(|(x, _)| x == *o)
                        .map_or_else(W::zero, |(_, w)| w.clone())
                })
                .collect()
        })
        .collect();
    let below: Vec<Vec<W>> = probs
        .iter()
        .map(|p| {
            let mut acc = W::zero();
            let mut v = vec![W::zero(); p.len()];
            for i in (0..p.len()).rev() {
                acc += p[i].clone();
                v[i] = acc.clone();
            }
            v
        })
        .collect();
    let totals: Vec<i64> = (0..accs)
        .map(|a| {
            kinds
                .iter()
                .filter(|k| k.feeds & (1 << a) != 0)
                .map(|k| k.n)
                .sum()
        })
        .collect();
    let width_slot = layout.iter().position(|s| *s == Stat::Width);
    let height_slot = layout.iter().position(|s| *s == Stat::Height);
    // What each accumulator's slots do as dice are placed, asked of the
    // statistics once: (slot, its place in the state, kept only?) for the
    // slots carried and combined, width, height and pushed aside.
    let slot_ops: Vec<Vec<(usize, usize, bool)>> = (0..accs)
        .map(|a| {
            layout
                .iter()
                .enumerate()
                .filter(|&(s, stat)| {
                    carry.is_none_or(|c| c[a * len + s])
                        && !matches!(stat, Stat::Width | Stat::Height | Stat::Pushed)
                })
                .map(|(s, _)| (s, nk + a * len + s, ctx.kept_only(s)))
                .collect()
        })
        .collect();
    let width_carried: Vec<Option<usize>> = (0..accs)
        .map(|a| width_slot.filter(|&ws| carry.is_none_or(|c| c[a * len + ws])))
        .collect();
    // Per accumulator, the kinds that feed it.
    let feeders: Vec<Vec<usize>> = (0..accs)
        .map(|a| {
            (0..nk)
                .filter(|&h| kinds[h].feeds & (1 << a) != 0)
                .collect()
        })
        .collect();
    let mut before = vec![0i64; accs];
    // The steps (outcome, kind) that place dice, and for each whether it
    // opens and whether it closes its face (the outcome's order): a
    // matching set is the dice of one face, whatever they contribute, so
    // steps of one face pool their counts for width and height.
    let steps: Vec<(usize, usize)> = (0..all.len())
        .flat_map(|i| (0..nk).map(move |g| (i, g)))
        .filter(|&(i, g)| !probs[g][i].is_zero())
        .collect();
    let face = |j: usize| all[steps[j].0].order;
    let opens = |j: usize| j == 0 || face(j - 1) != face(j);
    let closes = |j: usize| j + 1 == steps.len() || face(j + 1) != face(j);
    // A running count of the current face per accumulator, carried only
    // where a face takes several steps (else every set is one step's `m`).
    let runs = width_slot.is_some() && (0..steps.len()).any(|j| !(opens(j) && closes(j)));
    let run_base = nk + accs * len;
    // State: [placed per kind, accumulator tuples…, running counts…].
    let mut start = vec![0i64; nk];
    for _ in 0..accs {
        start.extend_from_slice(&ctx.neutral());
    }
    if runs {
        start.extend(std::iter::repeat_n(0, accs));
    }
    let width = start.len();
    let mut states = States::<W>::one(&start);
    let mut work: u64 = 0;
    let one = W::one();
    for (j, &(i, g)) in steps.iter().enumerate() {
        let (o, kind) = (all[i], &kinds[g]);
        let p = &probs[g][i];
        let (opens, closes) = (opens(j), closes(j));
        let q = p.clone() / &below[g][i];
        let last = below[g][i].clone() - p;
        let forced = last.is_zero() || last.to_f64() <= 0.0 && !W::EXACT;
        let mut rows: Vec<Option<Vec<W>>> = vec![None; kind.n as usize + 1];
        // A state with r dice of the kind left takes r + 1 steps.
        let steps_here: u64 = states
            .iter()
            .map(|(s, _)| (kind.n - s[g]).max(0) as u64)
            .filter(|r| *r > 0)
            .map(|r| r + 1)
            .sum();
        super::spend(&mut work, steps_here)?;
        states = steps::step(width, steps_here as usize + states.count(), |sink| {
            for (state, w) in states.iter() {
                let placed = state[g];
                let r = kind.n - placed;
                if r == 0 {
                    // Unchanged, but that a face's count ends with the face.
                    if runs && closes && state[run_base..].iter().any(|&c| c != 0) {
                        sink.put_edit(state, w, &one, |key| key[run_base..].fill(0));
                    } else {
                        sink.put(state, w, &one);
                    }
                    continue;
                }
                let row = rows[r as usize].get_or_insert_with(|| {
                    if forced {
                        let mut v = vec![W::zero(); r as usize + 1];
                        v[r as usize] = W::one();
                        v
                    } else {
                        binomial_row(r, &q)
                    }
                });
                // The dice of each accumulator placed before this step.
                for (a, b) in before.iter_mut().enumerate() {
                    *b = feeders[a].iter().map(|&h| state[h]).sum();
                }
                for (m, b) in row.iter().enumerate() {
                    if b.is_zero() {
                        continue;
                    }
                    let m = m as i64;
                    sink.put_edit(
                        state,
                        w,
                        b,
                        #[inline(always)]
                        |key| {
                            key[g] += m;
                            for (a, &total) in totals.iter().enumerate() {
                                if kind.feeds & (1 << a) == 0 {
                                    continue;
                                }
                                let keep = kept(filter, total, before[a], m);
                                let base = nk + a * len;
                                for &(s, at, kept_only) in &slot_ops[a] {
                                    let v = o.contrib[s];
                                    let slot = &mut key[at];
                                    *slot = if kept_only {
                                        slot.saturating_add(v.saturating_mul(keep))
                                    } else {
                                        ctx.combined(s, *slot, ctx.times(s, v, m))
                                    };
                                }
                                if let Some(ws) = width_carried[a] {
                                    // The dice of this face so far, this step's with
                                    // the earlier steps' of the same face.
                                    let run = if runs && !opens {
                                        key[run_base + a] + m
                                    } else {
                                        m
                                    };
                                    if runs {
                                        key[run_base + a] = run;
                                    }
                                    if run > key[base + ws] {
                                        key[base + ws] = run;
                                        if let Some(hs) = height_slot {
                                            key[base + hs] = ctx.merged(hs, o.order);
                                        }
                                    }
                                }
                            }
                            if runs && closes {
                                // A face's count ends with the face.
                                key[run_base..].fill(0);
                            }
                        },
                    );
                }
            }
            Ok(())
        })?;
    }
    let mut out: Map<W> = Map::default();
    let mut scale = W::one();
    for k in kinds {
        if k.law.mass != W::one() {
            scale = scale * k.law.mass.powi(k.n as u32);
        }
    }
    for (k, w) in states.iter() {
        add_to(&mut out, &k[nk..nk + accs * len], w.clone() * &scale);
    }
    Ok(out)
}
