//! Two independent parts' laws combined (結合): the terms of a sum
//! (`1D12[hope]+1D12[fear]`, `60D10[a]+60D10[b]`), a chain's stages, a law
//! and a number.
//!
//! Every pair of states, one from each part, meets once: the total by the
//! expression's arithmetic, every other statistic by its own rule
//! ([`super::Statistic::combining`]), saturated where the conditions allow.
//! Both parts are sorted first, so that floating-point sums come in one
//! order on every run.
//!
//! The pairs run on **packed tuples** wherever the answer's tuples fit one
//! `u64` (`Packing`): each slot's combined values are found once from the
//! two parts' distinct values (a table of `distinct × distinct` entries, the
//! total by its arithmetic), a pair's tuple is then a sum of table entries,
//! and the answer accumulates in a dense array where its box is small, in a
//! map of `u64` otherwise. Where they do not fit, the tuples themselves are
//! combined and hashed ([`combine_tuples`]). Each cell's weight is summed in the
//! same order (the pairs' order) on both paths, so the values are the same
//! to the last bit.

use std::collections::HashMap;
use std::ops::AddAssign;

use num_bigint::BigInt;
use num_traits::Zero;

use super::{add_to, plan, sorted, too_many, Ctx, FxBuild, Key, Map, MAX_STATES, MAX_WORK};
use crate::error::{Error, Result};
use crate::systems::dice::ast::{DieFaces, Node, Op, PoolTerm};
use crate::weight::Weight;

/// Most entries of one slot's table of combined values (never more than
/// the pairs themselves: each part has no more distinct values than
/// states; the bound is on memory).
const MAX_TABLE: usize = 1 << 22;

/// Two independent parts combined by `op`.
pub fn combine<W: Weight>(op: Op, a: &Map<W>, b: &Map<W>, ctx: &Ctx) -> Result<Map<W>> {
    let cells = combine_cells(op, a, b, ctx)?;
    let mut out: Map<W> = Map::with_capacity_and_hasher(cells.len(), Default::default());
    out.extend(cells);
    Ok(out)
}

/// [`combine`] as distinct cells, tuples packed where they fit.
pub fn combine_cells<W: Weight>(
    op: Op,
    a: &Map<W>,
    b: &Map<W>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    // Sorted, so that floating-point sums come in one order on every run.
    combine_sorted(op, &sorted(a), &sorted(b), ctx)
}

/// [`combine_cells`] of two parts already in their tuples' order (as
/// [`super::sorted`] would put them), with the same pairs and sums; the
/// answer in its tuples' order too.
pub fn combine_sorted<W: Weight>(
    op: Op,
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    // Refused past the limit before any pair meets.
    if let Some(pairs) =
        Some((sa.len() as u64).saturating_mul(sb.len() as u64)).filter(|p| *p > MAX_WORK)
    {
        return Err(Error::Conflict(format!(
            "dice: combining two terms' statistics is {pairs} pairs of states (at most {MAX_WORK}); read fewer statistics or roll fewer dice"
        )));
    }
    // Few pairs: tuple by tuple, where packing them costs more than they
    // do (Year Zero's two pushed terms: a few dozen).
    let few = sa.len().saturating_mul(sb.len()) <= super::steps::FEW_PAIRS;
    let packing = if few {
        None
    } else {
        Packing::new(op, sa, sb, ctx)
    };
    cells(op, sa, sb, packing, ctx)
}

/// [`combine_cells`] tuple by tuple, never packed: the planner's
/// fallback, and the reference the packed pairs are held to
/// (`tests/pool.rs`, `packed_combination_equals_tuple_by_tuple`).
pub fn combine_tuples<W: Weight>(
    op: Op,
    a: &Map<W>,
    b: &Map<W>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    let (sa, sb) = (sorted(a), sorted(b));
    cells(op, &sa, &sb, None, ctx)
}

/// `n` = `a op b` (`la`, `lb`: the parts' laws) as distinct cells, for
/// the roll's expression: the planner's choice ([`plan::combine_plan`]:
/// on packed tuples where they fit, else tuple by tuple), checked against
/// its limit before any pair meets and recorded for `--explain`.
pub fn planned_cells<W: Weight>(
    n: &Node,
    op: Op,
    la: &Map<W>,
    lb: &Map<W>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    planned_sorted(n, op, &sorted(la), &sorted(lb), ctx)
}

/// [`planned_cells`] of two parts already in their tuples' order.
pub fn planned_sorted<W: Weight>(
    n: &Node,
    op: Op,
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    let packing = Packing::new(op, sa, sb, ctx);
    let plan = plan::combine_plan(sa.len(), sb.len(), packing.is_some());
    let dice = super::dice_count(n);
    let dense = packing
        .as_ref()
        .is_some_and(|p| p.dense::<W>(plan.estimate));
    check_pairs(&plan, dice, dense && sums_totals(op, ctx))?;
    check_exact(sa, sb, &plan)?;
    plan::traced(
        || n.to_string(),
        dice,
        &plan,
        || cells(op, sa, sb, packing, ctx),
    )
}

/// Whether `op`'s answer under `ctx` is the two parts' totals alone,
/// added or subtracted: a plain sum of parts.
fn sums_totals(op: Op, ctx: &Ctx) -> bool {
    ctx.total && ctx.layout.len() == 1 && matches!(op, Op::Add | Op::Sub)
}

/// Refuse a combination past its limit: a plain sum of parts into a dense
/// array ([`plan::MAX_SUM_COMBINE_ESTIMATE`], `sum`) or its algorithm's.
fn check_pairs(plan: &plan::Plan, dice: i64, sum: bool) -> Result<()> {
    if sum && plan.algorithm == plan::Algorithm::Combine {
        plan.check_within(dice, plan::MAX_SUM_COMBINE_ESTIMATE)
    } else {
        plan.check(dice)
    }
}

/// Most big-fraction units of one exact combination of tuples that do
/// not pack ([`plan::Algorithm::CombineTuples`]): its pairs × (1 + the
/// bits of a pair's product's denominator / 64)^1.6, as an exact group's
/// units ([`super::fold::MAX_EXACT_GROUP_UNITS`]). Each pair is a product
/// and a sum of fractions, a gcd each: measured at 0.85 µs a unit
/// (`25D10[a]+25D10[b]` read by `a>b` and `count(10)>=3`: 605,284 pairs
/// on 166-bit denominators, 4.7·10⁶ units, 4.0 s of a 5.4 s answer), so
/// past this an exact combination could take more than about 5 s.
pub const MAX_EXACT_COMBINE_UNITS: f64 = 6e6;

/// Most big-fraction units of one exact combination of packed tuples
/// ([`plan::Algorithm::Combine`]), whose pairs are products and sums of
/// integers over each part's common denominator and whose cells are
/// reduced once each: measured at 0.08–0.25 µs a unit, the longest
/// denominators the dearest (`25D10[a]+25D10[b]` as above, 0.43 s, was
/// 4.0 s; `40D20[a]+40D20[b]` read by `a>b`, 579,121 pairs on 346-bit
/// denominators, 1.1·10⁷ units, 2.7 s; `60D20[a]+60D20[b]`, 4.4·10⁷
/// units, 8.6 s, now refused), so past this one could take more than
/// about 5 s.
pub const MAX_EXACT_PACKED_UNITS: f64 = 2e7;

/// The most big-fraction units of an exact combination by `algorithm`.
fn most_exact_units(algorithm: plan::Algorithm) -> f64 {
    if algorithm == plan::Algorithm::Combine {
        MAX_EXACT_PACKED_UNITS
    } else {
        MAX_EXACT_COMBINE_UNITS
    }
}

/// The big-fraction units of `pairs` pairs of exact weights whose
/// denominators take `bits` bits together: each pair a product and a sum
/// of fractions, `pairs × (1 + bits/64)^1.6` (measured: see
/// [`MAX_EXACT_COMBINE_UNITS`]).
pub fn exact_units(pairs: u64, bits: u64) -> f64 {
    pairs as f64 * (1.0 + bits as f64 / 64.0).powf(1.6)
}

/// Refuse at once an exact combination of long fractions that would take
/// more than seconds (floating point is unaffected).
fn check_exact<W: Weight>(
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    plan: &plan::Plan,
) -> Result<()> {
    if !W::EXACT {
        return Ok(());
    }
    let bits = |side: &[(&[i64], &W)]| side.iter().map(|(_, w)| w.den_bits()).max().unwrap_or(0);
    check_units(plan, bits(sa) + bits(sb), false)
}

/// Refuse an exact combination by `plan` on `bits`-bit denominators past
/// its algorithm's big-fraction units; `floor`: both counted from the
/// parts' floors before either was built ([`check_floor`]).
fn check_units(plan: &plan::Plan, bits: u64, floor: bool) -> Result<()> {
    let units = exact_units(plan.estimate, bits);
    let most = most_exact_units(plan.algorithm);
    if units <= most {
        return Ok(());
    }
    let (least, before) = if floor {
        ("at least ", ", counted before either part was built")
    } else {
        ("", "")
    };
    Err(Error::Conflict(format!(
        "dice: the exact combination of two parts takes {least}about {units:.1e} big-fraction units ({least}{} pairs of states on {bits}-bit denominators{before}; at most {most:e}); drop --exact (floating point is exact to about 1e-15) or roll fewer dice",
        plan.estimate
    )))
}

/// A floor on the cells of node `n`'s law and on the bits of their longest
/// denominator, known before the law is built: `(1, 0)` where nothing is
/// known (`Floor`, below).
pub fn floor_of(n: &Node, ctx: &Ctx) -> (u64, u64) {
    if !ctx.total || ctx.ops.first().is_some_and(|o| o.merge.is_some()) {
        return (1, 0);
    }
    let f = Floor::of(n, (ctx.die_eps, ctx.chain_cap));
    (f.cells, f.bits)
}

/// A floor on the totals of node `n`'s law and on the bits of their
/// longest denominator, the total carried whole (as [`floor_of`], for a
/// caller with no context: the joint law of result and natural dice).
pub fn plain_floor(n: &Node, eps: f64) -> (u64, u64) {
    let f = Floor::of(n, (eps, None));
    (f.cells, f.bits)
}

/// One die's share of the cut and the cap of exploding chains
/// ([`Ctx::die_eps`], [`Ctx::chain_cap`]): how deep a chain is built.
type Cut = (f64, Option<i64>);

/// What is known of a law before it is built, where the total is carried
/// whole (not saturated).
///
/// * A term of `n` dice (no explosion, no score map) whose faces can show
///   `m` distinct values, `k` of them kept, shows at least `k(m − 1) + 1`
///   totals (the sums of `k` values from `m` distinct ones), each in a
///   cell of its own.
/// * Its lowest total, where it keeps its highest dice (or keeps all),
///   comes only from every die showing the lowest face, of chance `pⁿ`
///   alone in its cell (its highest total likewise where it keeps its
///   lowest): a denominator of at least `n·log₂(1/p)` bits.
/// * A sum or difference shows at least as many totals as either part;
///   its extreme is one roll where both parts' are on the side it needs
///   (`a + b`'s lowest on both lowest, `a − b`'s on `a`'s lowest and
///   `b`'s highest), their chances multiplied. Where only one part's
///   extreme is known, the answer's extreme on that side needs it, so its
///   chance is at most that part's: a denominator at least as long
///   (`2D2ro1+8D4KL2+100D20DL1`: the 432 bits of `100D20DL1`'s lowest
///   total, where nothing was known).
#[derive(Clone, Copy, Debug)]
struct Floor {
    cells: u64,
    bits: u64,
    /// Which extreme total is one roll alone: `Some(true)` the lowest,
    /// `Some(false)` the highest, `None` neither known.
    low: Option<bool>,
}

impl Floor {
    const NOTHING: Floor = Floor {
        cells: 1,
        bits: 0,
        low: None,
    };

    fn of(n: &Node, eps: Cut) -> Floor {
        match n {
            Node::Pool(t) => Floor::term(t, eps),
            Node::Paren(b) => Floor::of(b, eps),
            Node::Neg(b) => {
                let f = Floor::of(b, eps);
                Floor {
                    low: f.low.map(|l| !l),
                    ..f
                }
            }
            Node::Bin(op @ (Op::Add | Op::Sub), a, b) => {
                let (fa, mut fb) = (Floor::of(a, eps), Floor::of(b, eps));
                if *op == Op::Sub {
                    fb.low = fb.low.map(|l| !l);
                }
                Floor::sum(fa, fb)
            }
            _ => Floor::NOTHING,
        }
    }

    /// The floor of a sum of two parts of floors `fa` and `fb` (a
    /// difference: `fb` of the negated part).
    fn sum(fa: Floor, fb: Floor) -> Floor {
        // Sums (and differences) of two sets of integers: at least
        // |A| + |B| − 1 values.
        let cells = (fa.cells + fb.cells).saturating_sub(1);
        match (fa.low, fb.low) {
            (Some(x), Some(y)) if x == y => Floor {
                cells,
                bits: fa.bits + fb.bits,
                low: Some(x),
            },
            // One side's extreme alone: the answer's extreme on that side
            // is reached only with it, whatever the other side shows
            // there, so its chance is at most that side's and its
            // denominator as long.
            _ => {
                let f = match (fa.low, fb.low) {
                    (Some(_), None) => fa,
                    (None, Some(_)) => fb,
                    _ if fa.bits >= fb.bits => fa,
                    _ => fb,
                };
                Floor { cells, ..f }
            }
        }
    }

    fn term(t: &PoolTerm, eps: Cut) -> Floor {
        if !t.scores.is_empty() || t.count < 1 {
            return Floor::NOTHING;
        }
        if t.explosion().is_some() {
            return Floor::exploding(t, eps);
        }
        let (high, k) = match t.kept_filter() {
            None => (true, t.count),
            Some((f, n)) => f.as_keep(n, t.count),
        };
        if k < 1 {
            return Floor::NOTHING;
        }
        // A plain `dS`: S faces of chance 1/S each, without spelling them
        // out (a `d1000000` is a million sides).
        if let (DieFaces::Standard(sides), []) = (&t.faces, &t.mods[..]) {
            return Floor::faces(t.count, k, high, *sides as u64, 1.0 / *sides as f64);
        }
        // The faces a die can show, each with its chance (equal values
        // summed), lowest first.
        let sides = t.faces.sides();
        let weights = super::die::side_weights::<f64>(t);
        let mut faces: Vec<(i64, f64)> = sides
            .iter()
            .zip(&weights)
            .filter(|(_, p)| **p > 0.0)
            .map(|(s, p)| (s.value, *p))
            .collect();
        faces.sort_by_key(|f| f.0);
        faces.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
        let p = match (high, faces.first(), faces.last()) {
            (true, Some(lowest), _) => lowest.1,
            (false, _, Some(highest)) => highest.1,
            _ => return Floor::NOTHING,
        };
        Floor::faces(t.count, k, high, faces.len() as u64, p)
    }

    /// `n` dice whose faces show `m` distinct values, `k` kept (the
    /// highest where `high`), the extreme face kept of chance `p`.
    fn faces(n: i64, k: i64, high: bool, m: u64, p: f64) -> Floor {
        if m < 2 {
            return Floor::NOTHING;
        }
        Floor {
            cells: (k as u64).saturating_mul(m - 1).saturating_add(1),
            // A floor: 1/p is at most the denominator of the chance p (in
            // floating point, a hair under the exact value is still under
            // its denominator's bits, floored).
            bits: (n as f64 * (1.0 / p).log2() - 1e-9).floor().max(0.0) as u64,
            low: Some(high),
        }
    }
    /// A term of `n` plain `dS` exploding (or compounding) on faces the
    /// lowest does not meet, with no other modifier and no keep/drop: its
    /// lowest total only on all ones at the first roll, of chance `1/Sⁿ`;
    /// each die shows at least its `m` faces that stop, and exploding on
    /// the highest face alone, the `d(S − 1)` chain totals `jS + r`
    /// (`r < S`, `j < d`) of a chain built `d` rolls deep.
    fn exploding(t: &PoolTerm, (eps, cap): Cut) -> Floor {
        let (DieFaces::Standard(sides), [_], None) = (&t.faces, &t.mods[..], t.kept_filter())
        else {
            return Floor::NOTHING;
        };
        let sides = *sides;
        let Some((cond, _)) = super::die::explode_cond(t) else {
            return Floor::NOTHING;
        };
        if sides < 3 || cond.holds(1) {
            return Floor::NOTHING;
        }
        let stop = (1..=sides).filter(|&f| !cond.holds(f)).count() as u64;
        let on_top = (1..=sides).all(|f| cond.holds(f) == (f == sides));
        let depth = super::die::chain_cut_at::<f64>(t, eps, cap)
            .ok()
            .map(|(d, _, _)| d);
        let m = match (on_top, depth) {
            (true, Some(depth)) => (depth as u64).saturating_mul(sides as u64 - 1),
            _ => stop,
        };
        // Every die kept, the lowest total all ones at the first roll.
        let low = Floor::faces(t.count, t.count, true, m, 1.0 / sides as f64);
        // The highest total: every die `d` rolls deep, each roll its
        // highest face (a chain stopped at a cap keeps its last roll going),
        // one way only, of chance `S^(−n·d)`.
        match depth {
            Some(d) if d > 1 => Floor {
                bits: ((t.count as f64) * d as f64 * (sides as f64).log2() - 1e-9)
                    .floor()
                    .max(0.0) as u64,
                low: Some(false),
                ..low
            },
            _ => low,
        }
    }
}

/// Refuse `n` = `a op b` before either part's law is built where the
/// floors on their cells ([`floor_of`]) already put the combination past
/// its limit: the pairs (past the packed path's limit, the higher of the
/// two), and in exact fractions the big-fraction units of the packed path
/// ([`MAX_EXACT_PACKED_UNITS`], likewise the higher). The parts of
/// `100D100[n0]+5D3[n1]+…` read exactly took 3 s to build before the
/// combination of the first two was refused (9.4 million pairs on
/// 960-bit denominators).
pub fn check_floor<W: Weight>(n: &Node, a: &Node, b: &Node, ctx: &Ctx) -> Result<()> {
    let (ca, ba) = floor_of(a, ctx);
    let (cb, bb) = floor_of(b, ctx);
    let sums = matches!(n, Node::Bin(op, _, _) if sums_totals(*op, ctx));
    check_floor_pair::<W>(n, (ca, ba), (cb, bb), sums)
}

/// Refuse the combination for `n` of two parts of floors `(cells, bits)`
/// ([`check_floor`]); `sums`: two totals alone added into a dense array.
fn check_floor_pair<W: Weight>(n: &Node, a: (u64, u64), b: (u64, u64), sums: bool) -> Result<()> {
    let plan = plan::combine_plan(a.0 as usize, b.0 as usize, true);
    check_pairs(&plan, super::dice_count(n), sums)?;
    if W::EXACT {
        check_units(&plan, a.1 + b.1, true)?;
    }
    Ok(())
}

/// Refuse a group keeping every item (`{A,B,C}`: its items added pair by
/// pair, as the sum `A+B+C` is) before any item's law is built, from the
/// same floors as that sum ([`check_floor`] at each of its pairs): the
/// two spellings are refused alike, where the group built its items' laws
/// first (`{1D100!!,20D100!!,30D100,3D6r1} --exact`, 0.9 s, where the
/// sum was refused at once).
pub fn check_items_floor<W: Weight>(n: &Node, items: &[Node], ctx: &Ctx) -> Result<()> {
    if !ctx.total || ctx.ops.first().is_some_and(|o| o.merge.is_some()) {
        return Ok(());
    }
    let sums = sums_totals(Op::Add, ctx);
    let mut acc: Option<Floor> = None;
    for item in items {
        let f = Floor::of(item, (ctx.die_eps, ctx.chain_cap));
        acc = Some(match acc {
            None => f,
            Some(a) => {
                check_floor_pair::<W>(n, (a.cells, a.bits), (f.cells, f.bits), sums)?;
                Floor::sum(a, f)
            }
        });
    }
    Ok(())
}

/// Every pair of `sa` and `sb`, on `packing` where there is one: the
/// answer's distinct cells in their tuples' order, on either path.
fn cells<W: Weight>(
    op: Op,
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    packing: Option<Packing>,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    plan::count(sa.len() as u64 * sb.len() as u64);
    match packing {
        Some(p) => p.run(sa, sb),
        None => generic(op, sa, sb, ctx),
    }
}

/// The tuple of two independent parts' tuples `ka` and `kb` joined by
/// `op`, written into `key`: the total by the arithmetic (0 when not
/// carried), every other statistic combined by its rule and saturated.
pub(super) fn pair_key(ctx: &Ctx, op: Op, ka: &[i64], kb: &[i64], key: &mut [i64]) -> Result<()> {
    key[0] = if ctx.total {
        op.apply(ka[0], kb[0]).ok_or_else(out_of_range)?
    } else {
        0
    };
    for (i, k) in key.iter_mut().enumerate().skip(1) {
        *k = ctx.combined(i, ka[i], kb[i]);
    }
    Ok(())
}

pub(super) fn out_of_range() -> Error {
    Error::Conflict("dice: a result is out of range".into())
}

/// The pairs combined tuple by tuple, into a map of tuples.
fn generic<W: Weight>(
    op: Op,
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    let pairs = sa.len() as u64 * sb.len() as u64;
    if pairs <= super::steps::FEW_PAIRS as u64 {
        // Few pairs: sorted by their tuples as a step's few pairs are, with
        // no map (the same sums, each in the pairs' order).
        let len = ctx.layout.len();
        let mut key = vec![0i64; len];
        let states =
            super::steps::step_by::<W>(len, pairs as usize, super::steps::Path::Few, |sink| {
                for (ka, wa) in sa {
                    for (kb, wb) in sb {
                        pair_key(ctx, op, ka, kb, &mut key)?;
                        sink.put(&key, *wa, *wb);
                    }
                }
                Ok(())
            })?;
        return Ok(states.into_cells());
    }
    // Sized for the pairs up front (up to a few thousand states), where it
    // grew by rehashing.
    let mut out: Map<W> =
        Map::with_capacity_and_hasher(pairs.min(4096) as usize, Default::default());
    let mut key = vec![0i64; ctx.layout.len()];
    for (ka, wa) in sa {
        for (kb, wb) in sb {
            pair_key(ctx, op, ka, kb, &mut key)?;
            add_to(&mut out, &key, (*wa).clone() * *wb);
        }
        if out.len() > MAX_STATES {
            return Err(too_many(out.len()));
        }
    }
    // In the tuples' order, as the packed pairs leave.
    Ok(super::in_order(out))
}

/// How one slot of the answer is found from the parts' slots.
enum Slot {
    /// The total by the arithmetic `op`, whose extremes over the parts'
    /// ranges are at their corners (`+`, `−`, `×`; `/` by a divisor of
    /// one sign): the digit is `op(x, y) − lo`.
    Arith { op: Op, lo: i64 },
    /// Any other statistic (or the total by `/` through zero): a table over the
    /// parts' distinct values, `db` of them on the right, giving the digit
    /// already multiplied by the slot's place; `values` decodes the digit.
    Table {
        db: usize,
        table: Vec<u64>,
        values: Vec<i64>,
    },
}

/// The answer's tuples packed in one `u64`: a digit per slot, the first
/// slot most significant, each digit the rank of the slot's value among
/// the values it can take (the total: its offset from the least).
struct Packing {
    slots: Vec<Slot>,
    /// Each slot's place value and radix.
    place: Vec<u64>,
    radix: Vec<u64>,
    /// Per slot, each part's distinct values (sorted), to find a tuple's
    /// column in the tables.
    left: Vec<Vec<i64>>,
    right: Vec<Vec<i64>>,
    /// Number of codes (the product of the radices).
    size: u64,
    /// The slots that take more than one value (the others add nothing
    /// to any code: a statistic not carried, neutral on both sides).
    active: Vec<usize>,
}

impl Packing {
    /// The packing of `op`'s answer over the parts `sa`, `sb`, or `None`
    /// where its tuples do not fit one `u64` or a slot's table would be
    /// large (or the arithmetic leaves the range: [`generic`] names it).
    fn new<W>(op: Op, sa: &[(&[i64], &W)], sb: &[(&[i64], &W)], ctx: &Ctx) -> Option<Self> {
        let n = ctx.layout.len();
        if sa.is_empty() || sb.is_empty() || sa.iter().chain(sb).any(|(k, _)| k.len() != n) {
            return None;
        }
        let distinct = |side: &[(&[i64], &W)], i: usize| {
            let mut v: Vec<i64> = side.iter().map(|(k, _)| k[i]).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut slots = Vec::with_capacity(n);
        let mut radix = Vec::with_capacity(n);
        let mut left = Vec::with_capacity(n);
        let mut right = Vec::with_capacity(n);
        for i in 0..n {
            let (da, db) = (distinct(sa, i), distinct(sb, i));
            // x ± y and x·y take their extremes over a box at its corners;
            // x / y too while y keeps one sign (the rounding is monotone).
            let arith = i == 0
                && ctx.total
                && match op {
                    Op::Add | Op::Sub | Op::Mul => true,
                    Op::Div(_) => db[0] > 0 || *db.last()? < 0,
                };
            if arith {
                let (x0, x1) = (da[0], *da.last()?);
                let (y0, y1) = (db[0], *db.last()?);
                let corners = [
                    op.apply(x0, y0)?,
                    op.apply(x0, y1)?,
                    op.apply(x1, y0)?,
                    op.apply(x1, y1)?,
                ];
                let lo = *corners.iter().min()?;
                let hi = *corners.iter().max()?;
                radix.push(u64::try_from(i128::from(hi) - i128::from(lo) + 1).ok()?);
                slots.push(Slot::Arith { op, lo });
            } else {
                if da.len().saturating_mul(db.len()) > MAX_TABLE {
                    return None;
                }
                let mut outs = Vec::with_capacity(da.len() * db.len());
                for &x in &da {
                    for &y in &db {
                        outs.push(if i == 0 {
                            if ctx.total {
                                op.apply(x, y)?
                            } else {
                                0
                            }
                        } else {
                            ctx.combined(i, x, y)
                        });
                    }
                }
                let mut values = outs.clone();
                values.sort_unstable();
                values.dedup();
                let table = outs
                    .iter()
                    .map(|v| values.binary_search(v).map(|r| r as u64).ok())
                    .collect::<Option<Vec<u64>>>()?;
                radix.push(values.len() as u64);
                slots.push(Slot::Table {
                    db: db.len(),
                    table,
                    values,
                });
            }
            left.push(da);
            right.push(db);
        }
        // Places: the last slot least significant.
        let mut place = vec![1u64; n];
        let mut size: u128 = 1;
        for i in (0..n).rev() {
            place[i] = u64::try_from(size).ok()?;
            size = size.checked_mul(u128::from(radix[i]))?;
        }
        let size = u64::try_from(size).ok()?;
        for (s, p) in slots.iter_mut().zip(&place) {
            if let Slot::Table { table, .. } = s {
                for t in table.iter_mut() {
                    *t *= p;
                }
            }
        }
        let active = (0..n).filter(|&i| radix[i] > 1).collect();
        Some(Packing {
            slots,
            place,
            radix,
            left,
            right,
            size,
            active,
        })
    }

    /// A part's tuples as columns: per tuple, per slot, the rank of its
    /// value among that part's distinct values (the total's value itself
    /// for an arithmetic slot).
    fn columns<W>(&self, side: &[(&[i64], &W)], values: &[Vec<i64>]) -> Vec<i64> {
        if self.active.is_empty() {
            // No slot varies: one column of zeros, every pair's code 0.
            return vec![0; side.len()];
        }
        let mut out = Vec::with_capacity(side.len() * self.active.len());
        for (k, _) in side {
            for &i in &self.active {
                out.push(match &self.slots[i] {
                    Slot::Arith { .. } => k[i],
                    Slot::Table { .. } => values[i].binary_search(&k[i]).unwrap_or(0) as i64,
                });
            }
        }
        out
    }

    /// The part of a pair's code that one side alone decides, for each
    /// tuple of each side (`ca`, `cb`: their columns, `m` to a tuple),
    /// and the slots that read both sides ([`Both`]).
    ///
    /// A slot is decided by one side where the other side's value is the
    /// same in every tuple (a named term's slot beside the other terms, a
    /// count one part does not carry), and the total of a sum or
    /// difference is decided by each side apart: `(x ± y − lo)·place` is
    /// `x·place ± y·place − lo·place`, in wrapping arithmetic, whose sum
    /// is exact as the code itself is in range. A pair's code is then the
    /// two sides' parts and a table entry per slot that reads both
    /// (Ironsworn's three named dice: none).
    fn split(&self, ca: &[i64], cb: &[i64], m: usize) -> (Vec<u64>, Vec<u64>, Both) {
        let mut pa = vec![0u64; ca.len() / m];
        let mut pb = vec![0u64; cb.len() / m];
        let mut both = Vec::new();
        for (j, &i) in self.active.iter().enumerate() {
            let place = self.place[i];
            match &self.slots[i] {
                Slot::Arith {
                    op: op @ (Op::Add | Op::Sub),
                    lo,
                } => {
                    for (p, x) in pa.iter_mut().zip(ca.chunks_exact(m)) {
                        *p = p.wrapping_add((x[j] as u64).wrapping_mul(place));
                    }
                    let sign = if *op == Op::Add { 1u64 } else { u64::MAX };
                    let shift = (*lo as u64).wrapping_mul(place);
                    for (p, y) in pb.iter_mut().zip(cb.chunks_exact(m)) {
                        let v = (y[j] as u64).wrapping_mul(place).wrapping_mul(sign);
                        *p = p.wrapping_add(v).wrapping_sub(shift);
                    }
                }
                Slot::Table { table, .. } if self.left[i].len() == 1 => {
                    for (p, y) in pb.iter_mut().zip(cb.chunks_exact(m)) {
                        *p = p.wrapping_add(table[y[j] as usize]);
                    }
                }
                Slot::Table { db, table, .. } if *db == 1 => {
                    for (p, x) in pa.iter_mut().zip(ca.chunks_exact(m)) {
                        *p = p.wrapping_add(table[x[j] as usize]);
                    }
                }
                _ => both.push(j),
            }
        }
        // The columns of the slots that read both sides, on their own.
        let gather = |c: &[i64]| -> Vec<i64> {
            c.chunks_exact(m)
                .flat_map(|x| both.iter().map(move |&j| x[j]))
                .collect()
        };
        let (left, right) = (gather(ca), gather(cb));
        let slots = both.iter().map(|&j| self.active[j]).collect();
        (pa, pb, Both { slots, left, right })
    }

    /// The part of the code of the pair of columns `ca`, `cb` (of the
    /// slots `slots`) from the slots that read both sides.
    #[inline]
    fn code(&self, slots: &[usize], ca: &[i64], cb: &[i64]) -> u64 {
        let mut code = 0u64;
        for ((&i, x), y) in slots.iter().zip(ca).zip(cb) {
            let place = self.place[i];
            code += match &self.slots[i] {
                Slot::Arith { op, lo } => {
                    // Within the range the corners bound: never out of range.
                    let v = op.apply(*x, *y).unwrap_or(*lo);
                    (v - lo) as u64 * place
                }
                Slot::Table { db, table, .. } => table[*x as usize * db + *y as usize],
            };
        }
        code
    }

    /// The tuple a code stands for: its digits from the most significant,
    /// one division each (none for the last, whose place is one).
    fn decode(&self, code: u64, key: &mut [i64]) {
        let mut rest = code;
        for (i, k) in key.iter_mut().enumerate() {
            let place = self.place[i];
            let digit = if place == 1 { rest } else { rest / place };
            rest -= digit * place;
            *k = self.value(i, digit);
        }
    }

    /// Whether `pairs` pairs accumulate into a dense array of cells of
    /// `T`: where the box is within a few times the pairs and its cells
    /// within 128 MB (fractions are 64 bytes a cell).
    fn dense<T>(&self, pairs: u64) -> bool {
        let cell = std::mem::size_of::<T>() as u64 + 1;
        self.size <= pairs.saturating_mul(4).max(4096) && self.size.saturating_mul(cell) <= 1 << 27
    }

    /// Every pair, into the answer.
    ///
    /// Exact weights are first brought over one common denominator per
    /// part ([`crate::weight::over_common_denominator`]): each pair is
    /// then a product and a sum of integers, and each cell's fraction is
    /// reduced once at the end, where each pair took a reduced product
    /// and a reduced sum of fractions, two gcds of long integers (about
    /// 70 % of a long exact combination's time).
    fn run<W: Weight>(&self, sa: &[(&[i64], &W)], sb: &[(&[i64], &W)]) -> Result<Vec<(Key, W)>> {
        if W::EXACT {
            let over = |side: &[(&[i64], &W)]| {
                crate::weight::over_common_denominator(side.iter().map(|(_, w)| *w))
            };
            if let (Some((na, da)), Some((nb, db))) = (over(sa), over(sb)) {
                let den = da * db;
                let cells = self.accumulate(sa, sb, &na, &nb, BigInt::zero(), |x, y| x * y)?;
                return Ok(cells
                    .into_iter()
                    .map(|(k, num)| (k, W::from_fraction(num, den.clone())))
                    .collect());
            }
        }
        let wa: Vec<&W> = sa.iter().map(|(_, w)| *w).collect();
        let wb: Vec<&W> = sb.iter().map(|(_, w)| *w).collect();
        self.accumulate(sa, sb, &wa, &wb, W::zero(), |x, y| (*x).clone() * *y)
    }

    /// Every pair of the parts' tuples (`sa`, `sb`; their weights as
    /// `wa`, `wb`), its weight `mul(wa, wb)`, added into its cell.
    fn accumulate<K, T, W>(
        &self,
        sa: &[(&[i64], &W)],
        sb: &[(&[i64], &W)],
        wa: &[K],
        wb: &[K],
        zero: T,
        mul: impl Fn(&K, &K) -> T,
    ) -> Result<Vec<(Key, T)>>
    where
        T: Clone + AddAssign,
    {
        let n = self.slots.len();
        // Columns per tuple (one where no slot varies).
        let m = self.active.len().max(1);
        let ca = self.columns(sa, &self.left);
        let cb = self.columns(sb, &self.right);
        let pairs = sa.len() as u64 * sb.len() as u64;
        let mut acc = if self.dense::<T>(pairs) {
            Acc::Dense {
                cells: vec![zero.clone(); self.size as usize],
                seen: vec![false; self.size as usize],
                order: Vec::new(),
            }
        } else {
            Acc::Sparse(HashMap::with_capacity_and_hasher(
                pairs.min(4096) as usize,
                Default::default(),
            ))
        };
        let (pa, pb, both) = self.split(&ca, &cb, m);
        let k = both.slots.len();
        for (i, (x_w, &p)) in wa.iter().zip(&pa).enumerate() {
            if k == 0 {
                for (y_w, &q) in wb.iter().zip(&pb) {
                    acc.add(p.wrapping_add(q), mul(x_w, y_w));
                }
            } else {
                let x = &both.left[i * k..(i + 1) * k];
                for ((y, y_w), &q) in both.right.chunks_exact(k).zip(wb).zip(&pb) {
                    let code = p.wrapping_add(q).wrapping_add(self.code(&both.slots, x, y));
                    acc.add(code, mul(x_w, y_w));
                }
            }
            if acc.len() > MAX_STATES {
                return Err(too_many(acc.len()));
            }
        }
        // The cells in code order, which is the tuples' order (the first
        // slot most significant, each digit a rank): sorted as they leave.
        let mut out: Vec<(Key, T)> = Vec::with_capacity(acc.len());
        match acc {
            Acc::Dense {
                mut cells,
                seen,
                mut order,
                ..
            } if order.len() * 4 < cells.len() => {
                // Few codes met of the box: those, sorted.
                order.sort_unstable();
                let mut key = vec![0i64; n];
                for code in order {
                    self.decode(code, &mut key);
                    let w = std::mem::replace(&mut cells[code as usize], zero.clone());
                    debug_assert!(seen[code as usize]);
                    out.push((Key::from(&key[..]), w));
                }
            }
            Acc::Dense {
                mut cells, seen, ..
            } => {
                // Every code of the box in turn, its digits kept as an
                // odometer (no division per cell).
                let mut digit = vec![0u64; n];
                let mut key = self.key_of(&digit);
                for (code, cell) in cells.iter_mut().enumerate() {
                    if seen[code] {
                        out.push((Key::from(&key[..]), std::mem::replace(cell, zero.clone())));
                    }
                    self.next(&mut digit, &mut key);
                }
            }
            Acc::Sparse(m) => {
                let mut codes: Vec<(u64, T)> = m.into_iter().collect();
                codes.sort_unstable_by_key(|(c, _)| *c);
                let mut key = vec![0i64; n];
                for (code, w) in codes {
                    self.decode(code, &mut key);
                    out.push((Key::from(&key[..]), w));
                }
            }
        }
        Ok(out)
    }

    /// The value of slot `i` at digit `d`.
    #[inline]
    fn value(&self, i: usize, d: u64) -> i64 {
        match &self.slots[i] {
            Slot::Arith { lo, .. } => lo + d as i64,
            Slot::Table { values, .. } => values[d as usize],
        }
    }

    /// The tuple of the digits `digit`.
    fn key_of(&self, digit: &[u64]) -> Vec<i64> {
        digit
            .iter()
            .enumerate()
            .map(|(i, d)| self.value(i, *d))
            .collect()
    }

    /// Step the digits (and their tuple) to the next code, the last slot
    /// fastest; past the last code they wrap to zero.
    #[inline]
    fn next(&self, digit: &mut [u64], key: &mut [i64]) {
        for i in (0..digit.len()).rev() {
            digit[i] += 1;
            if digit[i] < self.radix[i] {
                key[i] = self.value(i, digit[i]);
                return;
            }
            digit[i] = 0;
            key[i] = self.value(i, 0);
        }
    }
}

/// The slots of a pair that read both sides ([`Packing::split`]), and
/// each side's columns of them alone, `slots.len()` to a tuple.
struct Both {
    slots: Vec<usize>,
    left: Vec<i64>,
    right: Vec<i64>,
}

/// The answer as it accumulates, by code.
enum Acc<T> {
    Dense {
        cells: Vec<T>,
        seen: Vec<bool>,
        /// Codes in the order first met.
        order: Vec<u64>,
    },
    Sparse(HashMap<u64, T, FxBuild>),
}

impl<T: AddAssign> Acc<T> {
    #[inline]
    fn add(&mut self, code: u64, w: T) {
        match self {
            Acc::Dense { cells, seen, order } => {
                let c = code as usize;
                if !seen[c] {
                    seen[c] = true;
                    order.push(code);
                    cells[c] = w;
                } else {
                    cells[c] += w;
                }
            }
            Acc::Sparse(m) => match m.entry(code) {
                std::collections::hash_map::Entry::Occupied(mut e) => *e.get_mut() += w,
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(w);
                }
            },
        }
    }

    fn len(&self) -> usize {
        match self {
            Acc::Dense { order, .. } => order.len(),
            Acc::Sparse(m) => m.len(),
        }
    }
}
