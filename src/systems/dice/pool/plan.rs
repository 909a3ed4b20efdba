//! The planner (計画): the one place an algorithm is chosen for a term's
//! or a group's law, with its work estimated before any is done.
//!
//! polars' split, for dice: the program says *what* is rolled and read
//! (the terms, the statistics of [`super::Ctx`], saturated where the
//! conditions allow — [`super::bounds`]); the planner says *how*. It asks
//! the statistics what they need ([`super::fold::order_free`]: do they
//! combine without order? [`Stat::saturation`]: where do they stop?) and
//! picks, from the algorithms that can answer, the one that does the least
//! work:
//!
//! | algorithm | when | work |
//! |---|---|---|
//! | [`Algorithm::PowerSum`] | a sum read by its total (explosions included) | the convolution power: `values²·log n`, or Miller's recurrence exactly |
//! | [`Algorithm::KeepDp`] | keep/drop read by its total | order statistics: `faces·n·span` |
//! | [`Algorithm::OrderFree`] | statistics that combine without order, no keep/drop | states × distinct contributions, per die |
//! | [`Algorithm::ClassFold`] | many dice whose outcomes differ, for every statistic but the total, in few classes (n d6 read by total, sixes and ones) | states of the classes before the last × the last class's span; the last class adds into dense rows |
//! | [`Algorithm::Fold`] | anything (keep/drop with counts, matching sets) | outcomes × states × dice |
//! | [`Algorithm::GroupBest`] | a group keeping one item (`{…}KH1`, `{…}KL1`) | items × tuples of the other statistics × classes × values |
//! | [`Algorithm::GroupProduct`] | a group, item by item, carrying the best `k` totals (Savage Worlds' two named chains, Cortex's mixed dice) | items × states × outcomes, the states capped by the best-`k` multisets |
//!
//! A push ([`super::push`]) is planned the same way: dice with no
//! keep/drop whose statistics combine without order are pushed die by die
//! (one die's pair law combined `n` times), the rest by the fold of three
//! kinds for each number of rerolled dice.
//!
//! Every algorithm is held equal to the fold by tests (exactly, in
//! rationals: `tests/pool.rs`, `every_algorithm_equals_the_fold`), and the
//! fold to the enumeration of the plain rule.
//!
//! **Where things go**: a new algorithm is a variant here, its test of
//! applicability in [`applies`], its estimate in [`estimate`], its run in
//! `run` in `fold.rs`.

use super::die::DieLaw;
use super::fold::{order_free, Kind};
use super::{Ctx, Stat};
use crate::systems::dice::ast::PoolTerm;
use crate::weight::Weight;

/// How a law is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The `n`-fold convolution power of the die's law of totals
    /// ([`crate::systems::dice::law::sum_of`]).
    PowerSum,
    /// Keep/drop by order statistics of the die's law
    /// ([`crate::systems::dice::law::keep`]).
    KeepDp,
    /// The die's tuple law combined `n` times
    /// ([`super::fold::independent_steps`]).
    OrderFree,
    /// Dice placed by classes of outcomes that differ only in the total,
    /// each class's total a power of its law ([`super::classes`]).
    ClassFold,
    /// The fold over outcomes in order, highest first ([`super::fold::fold`]).
    Fold,
    /// A group's items multiplied, keeping the best totals.
    GroupProduct,
    /// A group keeping one item, by its items' distribution functions,
    /// value by value ([`super::best`]).
    GroupBest,
}

impl Algorithm {
    /// Every algorithm for a term, cheapest first where several apply.
    pub const TERM: [Algorithm; 5] = [
        Algorithm::PowerSum,
        Algorithm::KeepDp,
        Algorithm::OrderFree,
        Algorithm::ClassFold,
        Algorithm::Fold,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::PowerSum => "power sum",
            Algorithm::KeepDp => "keep/drop order statistics",
            Algorithm::OrderFree => "order-free combination",
            Algorithm::ClassFold => "class fold",
            Algorithm::Fold => "fold",
            Algorithm::GroupProduct => "group product",
            Algorithm::GroupBest => "best of a group",
        }
    }
}

/// The planner's choice for one law.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// What runs.
    pub algorithm: Algorithm,
    /// Its work, estimated before it runs: an upper bound on the state
    /// steps (multiply-adds) it takes.
    pub estimate: u64,
}

/// Estimates beyond this many state steps are refused before any work:
/// the estimate is an upper bound (the tests hold the steps to it), up to
/// about a hundred times the steps on the workloads of `benches/`, so a
/// plan this far beyond the work limit ([`super::MAX_WORK`], which stops a
/// running law) could never finish within it.
pub const MAX_ESTIMATE: u64 = super::MAX_WORK * 10_000;

impl Plan {
    /// Refuse at once a plan that could never finish, naming its size and
    /// the limit.
    pub fn check(&self, dice: i64) -> crate::error::Result<()> {
        if self.estimate > MAX_ESTIMATE {
            return Err(crate::error::Error::Conflict(format!(
                "dice: the law of {dice} dice with these statistics takes about {} state steps by the {} (at most {MAX_ESTIMATE}); read fewer statistics (each count, name or score multiplies the states) or roll fewer dice",
                self.estimate,
                self.algorithm.name()
            )));
        }
        Ok(())
    }
}

/// Whether every statistic is read from the total alone (the total, the
/// natural dice, the term's own name).
fn total_only(ctx: &Ctx) -> bool {
    ctx.layout
        .iter()
        .all(|s| matches!(s, Stat::Total | Stat::Natural | Stat::Named(_)))
}

/// Whether `a` can compute the law of term `t` (one die's law `law`)
/// under `ctx`.
pub fn applies<W: Weight>(a: Algorithm, t: &PoolTerm, law: &DieLaw<W>, ctx: &Ctx) -> bool {
    let chain = matches!(t.explosion(), Some((_, false)));
    match a {
        // The law of the total alone (a chain's order is its total).
        // Scored faces sum their scores, unless the natural dice (the faces)
        // are read too.
        Algorithm::PowerSum => {
            total_only(ctx)
                && t.filter.is_none()
                && (t.scores.is_empty() || !ctx.layout.contains(&Stat::Natural))
        }
        // Order statistics of the faces; a chain's dice keep whole.
        Algorithm::KeepDp => total_only(ctx) && t.scores.is_empty() && t.filter.is_some() && !chain,
        Algorithm::OrderFree => t.filter.is_none() && order_free(&ctx.layout),
        Algorithm::ClassFold => {
            t.filter.is_none() && order_free(&ctx.layout) && super::classes::applies(law, ctx)
        }
        Algorithm::Fold => true,
        Algorithm::GroupProduct | Algorithm::GroupBest => false,
    }
}

/// The number of values slot `i` can take after `k` dice of `law`: an
/// upper bound from the range of one die's contributions.
fn slot_values<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, i: usize, k: u64) -> u64 {
    let vals = law.outcomes.iter().map(|(o, _)| o.contrib[i]);
    let (lo, hi) = vals
        .clone()
        .fold((i64::MAX, i64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let width = hi.saturating_sub(lo).max(0) as u64;
    let distinct = {
        let mut v: Vec<i64> = vals.collect();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    };
    let additive = k.saturating_mul(width).saturating_add(1);
    match &ctx.layout[i] {
        Stat::Total if !ctx.total => 1,
        Stat::Count(..) => {
            let cap = ctx.merged(i, i64::MAX - 1);
            additive.min(cap.saturating_add(1).max(1) as u64)
        }
        Stat::Max | Stat::Min | Stat::Height => distinct + 1,
        Stat::AllEqual => distinct + 2,
        Stat::Pushed => 2,
        Stat::Width => k + 1,
        // Set after the term's law: neutral while it is built.
        Stat::Named(_) => 1,
        _ => additive,
    }
}

/// An upper bound on the states after `k` dice of `law`: the product of
/// the slots' ranges, and no more than the multisets of `k` outcomes.
fn states<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, k: u64) -> u64 {
    let product =
        (0..ctx.layout.len()).fold(1u64, |a, i| a.saturating_mul(slot_values(law, ctx, i, k)));
    let m = law.outcomes.len() as u64;
    product.min(multisets(m, k))
}

/// `C(k + m − 1, m − 1)`, saturating.
#[doc(hidden)]
pub fn multisets(m: u64, k: u64) -> u64 {
    if m == 0 {
        return 1;
    }
    let (a, b) = (k + m - 1, (m - 1).min(k));
    let mut c: u64 = 1;
    for j in 0..b {
        c = match c.checked_mul(a - j) {
            Some(x) => x / (j + 1),
            None => return u64::MAX,
        };
    }
    c
}

/// The estimated work of `a` on term `t`: an upper bound on its steps.
pub fn estimate<W: Weight>(a: Algorithm, t: &PoolTerm, law: &DieLaw<W>, ctx: &Ctx) -> u64 {
    let n = t.count.max(0) as u64;
    let m = law.outcomes.len() as u64;
    let (lo, hi) = law
        .outcomes
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), (o, _)| {
            (a.min(o.order), b.max(o.order))
        });
    let values = hi.saturating_sub(lo).max(0) as u64 + 1;
    let span = n.saturating_mul(values - 1).saturating_add(1);
    match a {
        Algorithm::PowerSum => {
            if W::EXACT {
                span.saturating_mul(values)
            } else {
                crate::pmf::Pmf::<f64>::sum_n_work(values, n)
            }
        }
        Algorithm::KeepDp => values.saturating_mul(n).saturating_mul(span),
        Algorithm::OrderFree => {
            let distinct = super::fold::contributions(law).len() as u64;
            (0..n).fold(0u64, |w, k| {
                w.saturating_add(states(law, ctx, k).saturating_mul(distinct))
            })
        }
        Algorithm::ClassFold => class_estimate(law, ctx, n),
        Algorithm::Fold => m
            .saturating_mul(states(law, ctx, n))
            .saturating_mul(n.saturating_add(1))
            .saturating_mul(n.saturating_add(1)),
        Algorithm::GroupProduct | Algorithm::GroupBest => u64::MAX,
    }
}

/// The class fold's steps: before class `j`, at most the placed counts
/// and totals of the classes before it (and never more states than the
/// engine holds); each state meets every count `m` of the class and the
/// span of `m` dice of it (the last class: the one count left).
fn class_estimate<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, n: u64) -> u64 {
    let mut widths: Vec<(Vec<i64>, i64, i64)> = Vec::new();
    for (o, _) in &law.outcomes {
        let (rest, t) = super::classes::split(&o.contrib, ctx);
        match widths.iter_mut().find(|(r, _, _)| *r == rest) {
            Some((_, lo, hi)) => {
                *lo = (*lo).min(t);
                *hi = (*hi).max(t);
            }
            None => widths.push((rest, t, t)),
        }
    }
    let mut spans: Vec<u64> = widths
        .iter()
        .map(|(_, lo, hi)| {
            n.saturating_mul(hi.saturating_sub(*lo) as u64)
                .saturating_add(1)
        })
        .collect();
    spans.sort_unstable();
    let last = spans.len().saturating_sub(1);
    let mut states: u64 = 1;
    let mut work: u64 = 0;
    for (j, span) in spans.iter().enumerate() {
        let per_state = if j == last {
            *span
        } else {
            span.saturating_mul(n + 1)
        };
        work = work.saturating_add(states.saturating_mul(per_state));
        states = states
            .saturating_mul(n + 1)
            .saturating_mul(*span)
            .min(super::MAX_STATES as u64 + 1);
    }
    work
}

/// The planner's choice for term `t`: the closed laws of the total where
/// they apply (always the least work); else the order-free combination,
/// unless many dice show few distinct contributions — the fold places
/// them a face at a time by binomials (20D6 read by total, sixes and ones:
/// 9 ms folded, 15 ms combined).
pub fn term<W: Weight>(t: &PoolTerm, law: &DieLaw<W>, ctx: &Ctx) -> Plan {
    let choose = |algorithm| Plan {
        algorithm,
        estimate: estimate(algorithm, t, law, ctx),
    };
    if applies(Algorithm::PowerSum, t, law, ctx) {
        return choose(Algorithm::PowerSum);
    }
    if applies(Algorithm::KeepDp, t, law, ctx) {
        return choose(Algorithm::KeepDp);
    }
    let mut best = if applies(Algorithm::OrderFree, t, law, ctx)
        && super::fold::contributions(law).len() as i64 * 2 > t.count
    {
        choose(Algorithm::OrderFree)
    } else {
        choose(Algorithm::Fold)
    };
    // Few classes of many dice: placed by classes, each class's total a
    // power of its law, where the others would carry the total through
    // every outcome.
    if applies(Algorithm::ClassFold, t, law, ctx) {
        let classes = choose(Algorithm::ClassFold);
        if classes.estimate < best.estimate {
            best = classes;
        }
    }
    best
}

thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Count `n` state steps done (the fold and the order-free combination
/// report their work here, so that the estimates can be held to it).
#[inline]
pub fn count(n: u64) {
    STEPS.with(|c| c.set(c.get().saturating_add(n)));
}

/// Run `f`, returning its result and the state steps it took on this
/// thread.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = STEPS.with(std::cell::Cell::get);
    let r = f();
    let after = STEPS.with(std::cell::Cell::get);
    (r, after.saturating_sub(before))
}

/// The planner's choice for a group of `kinds` (each kind an item rolled
/// `n` times): the product of its items, met one at a time, carrying the
/// best `k` totals (Savage Worlds' trait and wild die, each with its own
/// named exploding chain; Cortex's mixed dice keeping two), or the fold
/// over the items' totals in order, placing each kind by binomials
/// (many items of few kinds keeping many) — whichever does less work.
/// Matching sets (width, height) need the fold.
pub fn group<W: Weight>(
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(crate::systems::dice::ast::Filter, i64)>,
) -> Plan {
    let fold = Plan {
        algorithm: Algorithm::Fold,
        estimate: group_fold_estimate(kinds),
    };
    let sets = ctx
        .layout
        .iter()
        .any(|s| matches!(s, Stat::Width | Stat::Height));
    if sets {
        return fold;
    }
    let items = Plan {
        algorithm: Algorithm::GroupProduct,
        estimate: product_estimate(kinds, ctx, filter),
    };
    let mut best = if items.estimate <= fold.estimate {
        items
    } else {
        fold
    };
    let count = super::fold::item_count(kinds);
    if matches!(filter.map(|(f, n)| f.as_keep(n, count)), Some((_, 1))) {
        let one = Plan {
            algorithm: Algorithm::GroupBest,
            estimate: best_estimate(kinds, ctx),
        };
        if one.estimate < best.estimate {
            best = one;
        }
    }
    best
}

/// The estimated work of `a` on a group of `kinds` (the fold, the product
/// of its items, the best item where it keeps one): an upper bound on its
/// steps, for the tests that hold each algorithm to it.
#[doc(hidden)]
pub fn group_estimate<W: Weight>(
    a: Algorithm,
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(crate::systems::dice::ast::Filter, i64)>,
) -> u64 {
    match a {
        Algorithm::Fold => group_fold_estimate(kinds),
        Algorithm::GroupProduct => product_estimate(kinds, ctx, filter),
        Algorithm::GroupBest => best_estimate(kinds, ctx),
        _ => u64::MAX,
    }
}

/// The fold's steps on a group: every outcome meets every state (at
/// most the products of the items' outcomes) at every count placed.
fn group_fold_estimate<W: Weight>(kinds: &[Kind<W>]) -> u64 {
    let outcomes: u64 = kinds.iter().map(|k| k.law.outcomes.len() as u64).sum();
    let dice = super::fold::item_count(kinds) as u64;
    let product = kinds.iter().fold(1u64, |a, k| {
        a.saturating_mul((k.law.outcomes.len() as u64).saturating_pow(k.n.max(0) as u32))
    });
    outcomes
        .saturating_mul(product.min(1 << 40))
        .saturating_mul(dice + 1)
}

/// The best item's steps: each item meets every tuple of the other
/// statistics so far with each of its classes, at every value.
fn best_estimate<W: Weight>(kinds: &[Kind<W>], ctx: &Ctx) -> u64 {
    let n = super::best::values(kinds).len() as u64;
    let mut states: u64 = 1;
    let mut work: u64 = 0;
    for k in kinds {
        let c = super::best::class_count(&k.law, ctx);
        for _ in 0..k.n.max(0) {
            work = work.saturating_add(states.saturating_mul(c).saturating_mul(n));
            states = states.saturating_mul(c).min(super::MAX_STATES as u64 + 1);
        }
    }
    work
}

/// The product's steps: each item meets every state with each of its
/// outcomes; the states are at most the outcomes' products so far, and
/// never more than the best-`k` multisets of the items' totals times the
/// values the other statistics can take.
fn product_estimate<W: Weight>(
    kinds: &[Kind<W>],
    ctx: &Ctx,
    filter: Option<(crate::systems::dice::ast::Filter, i64)>,
) -> u64 {
    let items = super::fold::item_count(kinds);
    let orders = super::best::values(kinds);
    let distinct = orders.len() as u64;
    let best = match filter.map(|(f, n)| f.as_keep(n, items)) {
        // The best k, or fewer while fewer items are met.
        Some((_, k)) => {
            (0..=k.max(0) as u64).fold(0u64, |a, j| a.saturating_add(multisets(distinct, j)))
        }
        // Keeping all: a running sum of the totals.
        None => {
            let (lo, hi) = (
                orders.first().copied().unwrap_or(0),
                orders.last().copied().unwrap_or(0),
            );
            (items as u64)
                .saturating_mul(hi.saturating_sub(lo).max(0) as u64)
                .saturating_add(1)
        }
    };
    let mut cap = best;
    for (i, s) in ctx.layout.iter().enumerate() {
        if matches!(s, Stat::Total | Stat::Natural) {
            continue;
        }
        let vals = kinds
            .iter()
            .flat_map(|k| k.law.outcomes.iter().map(move |(o, _)| o.contrib[i]));
        let (lo, hi) = vals
            .clone()
            .fold((i64::MAX, i64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let width = hi.saturating_sub(lo).max(0) as u64;
        let range = match s {
            Stat::Max | Stat::Min | Stat::AllEqual | Stat::Pushed => {
                let mut v: Vec<i64> = vals.collect();
                v.sort_unstable();
                v.dedup();
                v.len() as u64 + 2
            }
            _ => {
                let additive = (items as u64).saturating_mul(width).saturating_add(1);
                match s {
                    Stat::Count(..) => {
                        let c = ctx.merged(i, i64::MAX - 1);
                        additive.min(c.saturating_add(1).max(1) as u64)
                    }
                    _ => additive,
                }
            }
        };
        cap = cap.saturating_mul(range);
    }
    let mut states: u64 = 1;
    let mut work: u64 = 0;
    for k in kinds {
        let m = k.law.outcomes.len() as u64;
        for _ in 0..k.n.max(0) {
            work = work.saturating_add(states.saturating_mul(m));
            states = states.saturating_mul(m).min(cap);
        }
    }
    work
}
