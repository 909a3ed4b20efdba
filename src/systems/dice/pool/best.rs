//! The best item of a group ([`super::plan::Algorithm::GroupBest`]): a
//! group keeping one item (`{…}KH1`, `{…}KL1`, Savage Worlds' trait and wild
//! die) by its items' distribution functions, value by value, rather than
//! by pairs of their outcomes.
//!
//! Items are independent. Over the values `v` of the items' totals, in
//! order, the law carries per combined tuple `R` of the other statistics
//! two numbers: `A(v, R)`, the chance that every item met so far is at most
//! `v`, and `B(v, R)`, the chance that the best so far is exactly `v`. An
//! item with law `f(v, r)` (its total `v`, its other statistics `r`) and
//! distribution `F(v, r) = P(total ≤ v, r)` turns them into
//!
//! * `A'(v, R ⊕ r) += A(v, R) · F(v, r)`
//! * `B'(v, R ⊕ r) += B(v, R) · F(v, r) + A(v⁻, R) · f(v, r)`
//!
//! (`v⁻` the value below `v`): sums of products, no difference of two
//! near-equal numbers, so the tails of exploding dice keep their digits.
//! The work is items × tuples × classes × values, where the product of
//! items walks every pair of outcomes. Keeping the lowest is the same on
//! the values turned over.

use super::die::DieLaw;
use super::fold::Kind;
use super::{Ctx, Key, Map, Stat};
use crate::error::Result;
use crate::weight::Weight;

/// Whether a slot is the group's kept total (the total, the natural dice).
fn kept_slot(s: &Stat) -> bool {
    s.kept_only()
}

/// An outcome's tuple of the statistics other than the kept total.
fn rest_of(contrib: &[i64], ctx: &Ctx) -> Key {
    ctx.layout
        .iter()
        .enumerate()
        .map(|(i, s)| if kept_slot(s) { 0 } else { contrib[i] })
        .collect()
}

/// The items' totals, in order, each once: each kind's outcomes come
/// highest first, so their totals are merged as sorted runs (the planner
/// asks for them twice and the run once, for every group).
pub fn values<W: Weight>(kinds: &[Kind<W>]) -> Vec<i64> {
    let most: usize = kinds.iter().map(|k| k.law.outcomes.len()).sum();
    let mut values: Vec<i64> = Vec::with_capacity(most);
    let mut merged: Vec<i64> = Vec::with_capacity(most);
    for k in kinds {
        let mut run = k.law.outcomes.iter().rev().map(|(o, _)| o.order).peekable();
        if run.clone().zip(run.clone().skip(1)).any(|(a, b)| a > b) {
            // Not in order after all: sorted as it is.
            values.extend(k.law.outcomes.iter().map(|(o, _)| o.order));
            values.sort_unstable();
            values.dedup();
            continue;
        }
        merged.clear();
        let mut have = values.iter().copied().peekable();
        loop {
            let next = match (have.peek(), run.peek()) {
                (Some(&a), Some(&b)) if a <= b => {
                    have.next();
                    a
                }
                (_, Some(&b)) => {
                    run.next();
                    b
                }
                (Some(&a), None) => {
                    have.next();
                    a
                }
                (None, None) => break,
            };
            if merged.last() != Some(&next) {
                merged.push(next);
            }
        }
        std::mem::swap(&mut values, &mut merged);
    }
    values
}

/// One class: the other statistics' tuple, its probability at each value
/// (or its numerators over a common denominator).
type Class<W> = (Key, Vec<W>);

/// One item's law by classes of its other statistics: per class, its
/// probability at each value (indexed by `at`).
fn classes<W: Weight>(
    law: &DieLaw<W>,
    ctx: &Ctx,
    at: &dyn Fn(i64) -> usize,
    n: usize,
) -> Vec<Class<W>> {
    let mut out: Vec<Class<W>> = Vec::new();
    for (o, p) in &law.outcomes {
        let i = match out.iter().position(|(r, _)| same_rest(r, &o.contrib, ctx)) {
            Some(i) => i,
            None => {
                out.push((rest_of(&o.contrib, ctx), vec![W::zero(); n]));
                out.len() - 1
            }
        };
        out[i].1[at(o.order)] += p.clone();
    }
    out
}

/// The law of a group keeping its best item (`high`: the highest total;
/// else the lowest), with the statistics of `ctx`.
pub fn law<W: Weight>(kinds: &[Kind<W>], ctx: &Ctx, high: bool) -> Result<Map<W>> {
    let cells = cells(kinds, ctx, high)?;
    let mut out: Map<W> = Map::with_capacity_and_hasher(cells.len(), Default::default());
    out.extend(cells);
    Ok(out)
}

/// [`law`] as distinct cells, in the order of their tuples: each state
/// (its tuple with the kept slots 0) gives one cell per value of the kept
/// total, so no two cells meet and no map is needed between.
pub fn cells<W: Weight>(kinds: &[Kind<W>], ctx: &Ctx, high: bool) -> Result<Vec<(Key, W)>> {
    if W::EXACT {
        if let Some(cells) = cells_on_integers(kinds, ctx, high) {
            return cells;
        }
    }
    let (values, at) = ordered(kinds, high);
    let n = values.len();
    let index = |v: i64| -> usize { at(&values, v) };
    // Per combined tuple: (A, B) over the values.
    let mut states = States::start(start(ctx), n, W::one(), W::zero());
    let mut work: u64 = 0;
    let mut met = 0usize;
    for kind in super::fold::each_item(kinds) {
        let cls = classes(&kind.law, ctx, &index, n);
        states = meet(
            states,
            &cls,
            n,
            met == 0,
            (&W::one(), &W::zero()),
            ctx,
            &mut work,
        )?;
        met += 1;
    }
    Ok(written(&states, &values, high, met > 0, ctx, |w: &W| {
        (!w.is_zero()).then(|| w.clone())
    }))
}

/// The states of the best-item pass: each combined tuple of the other
/// statistics with its `A` and `B` over the `n` values (a run of `2n` in
/// one vector: `A` then `B`), in the order first met, found by scanning
/// while they are few and by a map of their indices past that.
struct States<X> {
    n: usize,
    keys: Vec<Key>,
    sums: Vec<X>,
    index: Option<Map<usize>>,
}

/// States found by scanning their tuples; past them, by a map.
const SCAN: usize = 16;

impl<X: Clone> States<X> {
    /// No states yet, room for `room` of them.
    fn new(n: usize, room: usize) -> Self {
        States {
            n,
            keys: Vec::with_capacity(room),
            sums: Vec::with_capacity(room * 2 * n),
            index: None,
        }
    }

    /// The one state before any item: `A` is `one`, `B` is `zero`.
    fn start(key: Key, n: usize, one: X, zero: X) -> Self {
        let mut s = States::new(n, 1);
        s.sums.extend(std::iter::repeat_n(one, n));
        s.sums.extend(std::iter::repeat_n(zero, n));
        s.keys.push(key);
        s
    }

    /// The sums of state `i` (`A` then `B`).
    fn sums_of(&self, i: usize) -> &[X] {
        &self.sums[2 * self.n * i..2 * self.n * (i + 1)]
    }

    /// The sums of the state `key`, made (`A` and `B` at `zero`) where new.
    fn entry(&mut self, key: &[i64], zero: &X) -> &mut [X] {
        let found = match &self.index {
            Some(map) => map.get(key).copied(),
            None => self.keys.iter().position(|k| **k == *key),
        };
        let i = match found {
            Some(i) => i,
            None => {
                let i = self.keys.len();
                self.keys.push(Key::from(key));
                self.sums
                    .extend(std::iter::repeat_n(zero.clone(), 2 * self.n));
                match &mut self.index {
                    Some(map) => {
                        map.insert(Key::from(key), i);
                    }
                    None if self.keys.len() > SCAN => {
                        self.index = Some(
                            self.keys
                                .iter()
                                .enumerate()
                                .map(|(i, k)| (k.clone(), i))
                                .collect(),
                        );
                    }
                    None => {}
                }
                i
            }
        };
        let w = 2 * self.n;
        &mut self.sums[w * i..w * (i + 1)]
    }

    /// The states' indices in their tuples' order.
    fn sorted(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.keys.len()).collect();
        v.sort_unstable_by(|&a, &b| self.keys[a].cmp(&self.keys[b]));
        v
    }
}

/// One item met (`cls`: per class, its tuple of the other statistics and
/// its probability at each value): every state joined with every class,
/// its `A` (every item so far at most the value) and `B` (the best
/// exactly the value) carried forward over the `n` values. `first`: no
/// item met before, where `A` below the lowest value is `one` (every item
/// is at most anything); after one, `zero`. The one step of [`cells`] on
/// weights and of [`cells_on_integers`] on numerators: the same
/// arithmetic in the same order.
fn meet<X>(
    states: States<X>,
    cls: &[Class<X>],
    n: usize,
    first: bool,
    (one, zero): (&X, &X),
    ctx: &Ctx,
    work: &mut u64,
) -> Result<States<X>>
where
    X: Clone
        + for<'a> std::ops::AddAssign<&'a X>
        + for<'a> std::ops::Add<&'a X, Output = X>
        + for<'a> std::ops::Mul<&'a X, Output = X>,
{
    super::spend(work, (states.keys.len() * cls.len() * n) as u64)?;
    let mut key = vec![0i64; ctx.layout.len()];
    // At most every state with every class (room for as many while few).
    let room = (states.keys.len() * cls.len()).min(SCAN * 4);
    let mut next: States<X> = States::new(n, room);
    for s in states.sorted() {
        let (state, sums) = (&states.keys[s], states.sums_of(s));
        let (a, b) = sums.split_at(n);
        for (rest, f) in cls {
            join_into(ctx, state, rest, &mut key);
            let entry = next.entry(&key, zero);
            let (ea, eb) = entry.split_at_mut(n);
            let mut cdf = zero.clone();
            for j in 0..n {
                cdf += &f[j];
                let below = match j {
                    0 if first => one.clone(),
                    0 => zero.clone(),
                    _ => a[j - 1].clone(),
                };
                ea[j] += &(a[j].clone() * &cdf);
                eb[j] += &(b[j].clone() * &cdf + &(below * &f[j]));
            }
        }
        super::check_count(next.keys.len())?;
    }
    Ok(next)
}

/// The items' totals in order, best last, and each one's index among
/// them (found by halving: they are sorted).
fn ordered<W: Weight>(kinds: &[Kind<W>], high: bool) -> (Vec<i64>, impl Fn(&[i64], i64) -> usize) {
    let mut values = values(kinds);
    if !high {
        values.reverse();
    }
    let index = move |values: &[i64], v: i64| -> usize {
        let found = if high {
            values.binary_search(&v)
        } else {
            values.binary_search_by(|x| v.cmp(x))
        };
        found.unwrap_or_else(|_| unreachable!("every item's total is among the values"))
    };
    (values, index)
}

/// The state before any item: the neutral tuple, the kept slots 0.
fn start(ctx: &Ctx) -> Key {
    let k: Vec<i64> = ctx
        .neutral()
        .iter()
        .zip(&ctx.layout)
        .map(|(v, s)| if kept_slot(s) { 0 } else { *v })
        .collect();
    Key::from(&k[..])
}

/// A state joined with an item's class `rest`, written into `key`: the
/// kept slots 0, every other slot combined by its rule.
fn join_into(ctx: &Ctx, state: &[i64], rest: &[i64], key: &mut [i64]) {
    for (i, s) in ctx.layout.iter().enumerate() {
        key[i] = if kept_slot(s) {
            0
        } else {
            ctx.combined(i, state[i], rest[i])
        };
    }
}

/// The cells of the states' `B` at each value, in the order of their
/// tuples: the kept total (slot 0) first, by value ascending, then the
/// states in their tuples' order (equal in the kept slots, which read 0
/// in a state), so the roll's sort finds them in order. `cell` gives a
/// weight, `None` for zero; with no item `met`, the one neutral cell.
fn written<X: Clone, W: Weight>(
    states: &States<X>,
    values: &[i64],
    high: bool,
    met: bool,
    ctx: &Ctx,
    cell: impl Fn(&X) -> Option<W>,
) -> Vec<(Key, W)> {
    let n = values.len();
    let mut out: Vec<(Key, W)> = Vec::with_capacity(states.keys.len() * n);
    let ascending = (0..n).map(|j| if high { j } else { n - 1 - j });
    let mut key = vec![0i64; ctx.layout.len()];
    let order = states.sorted();
    for j in ascending {
        for &s in &order {
            let (state, sums) = (&states.keys[s], states.sums_of(s));
            let Some(w) = cell(&sums[n + j]) else {
                continue;
            };
            for (i, s) in ctx.layout.iter().enumerate() {
                key[i] = if kept_slot(s) { values[j] } else { state[i] };
            }
            out.push((Key::from(&key[..]), w));
        }
    }
    if !met {
        out.push((ctx.neutral(), W::one()));
    }
    out
}

/// [`cells`] in exact fractions on whole numbers: each item's law brought
/// over one common denominator ([`crate::weight::over_common_denominator`]),
/// `A` and `B` carried as numerators over the product of the denominators
/// met so far, so each step is products and sums of integers and each
/// cell is reduced once at the end, where adding fractions took a gcd of
/// long integers at every step (`{200D100r1,5D20ro1}KH1` exactly: 39,394
/// steps on 1,330-bit denominators, 9.7 s). The same values exactly.
/// `None` where an item's weights have no common denominator short enough.
fn cells_on_integers<W: Weight>(
    kinds: &[Kind<W>],
    ctx: &Ctx,
    high: bool,
) -> Option<Result<Vec<(Key, W)>>> {
    use num_bigint::BigInt;
    use num_traits::{One, Zero};
    let (values, at) = ordered(kinds, high);
    let n = values.len();
    let index = |v: i64| -> usize { at(&values, v) };
    // Each item's classes, their weights as numerators over its own
    // common denominator.
    let mut items: Vec<(Vec<Class<BigInt>>, BigInt)> = Vec::new();
    for kind in super::fold::each_item(kinds) {
        let cls = classes(&kind.law, ctx, &index, n);
        let (nums, den) =
            crate::weight::over_common_denominator(cls.iter().flat_map(|(_, f)| f.iter()))?;
        let mut nums = nums.into_iter();
        let cls = cls
            .into_iter()
            .map(|(rest, f)| {
                (
                    rest,
                    f.iter().map(|_| nums.next().unwrap_or_default()).collect(),
                )
            })
            .collect();
        items.push((cls, den));
    }
    // Over the denominators met so far (1 before any item).
    let mut den = BigInt::one();
    let mut states = States::start(start(ctx), n, BigInt::one(), BigInt::zero());
    let mut work: u64 = 0;
    for (met, (cls, d)) in items.iter().enumerate() {
        // A below the lowest value before any item is 1 over `den`, which
        // is 1 then.
        states = match meet(
            states,
            cls,
            n,
            met == 0,
            (&den, &BigInt::zero()),
            ctx,
            &mut work,
        ) {
            Ok(next) => next,
            Err(e) => return Some(Err(e)),
        };
        den *= d;
    }
    let out = written(
        &states,
        &values,
        high,
        !items.is_empty(),
        ctx,
        |b: &BigInt| (!b.is_zero()).then(|| W::from_fraction(b.clone(), den.clone())),
    );
    Some(Ok(out))
}

/// The number of classes of an item's law (its outcomes' tuples of the
/// statistics other than the kept total), for the planner's estimate.
pub fn class_count<W: Weight>(law: &DieLaw<W>, ctx: &Ctx) -> u64 {
    // The first outcome of each class, compared slot by slot in place.
    let mut seen: Vec<&[i64]> = Vec::new();
    for (o, _) in &law.outcomes {
        if !seen.iter().any(|r| same_rest(r, &o.contrib, ctx)) {
            seen.push(&o.contrib);
        }
    }
    seen.len() as u64
}

/// Whether two outcomes' tuples agree on the statistics other than the
/// kept total ([`rest_of`] of each, without building them).
fn same_rest(a: &[i64], b: &[i64], ctx: &Ctx) -> bool {
    ctx.layout
        .iter()
        .zip(a.iter().zip(b))
        .all(|(s, (x, y))| kept_slot(s) || x == y)
}
