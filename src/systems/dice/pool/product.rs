//! A roll's parts read straight by its tiers (部分の積を直接判定): the
//! tiers' probabilities and the total's law without the joint law in
//! between.
//!
//! A check whose tiers read a sum of independent parts
//! (`1D6[action]+1D10[c1]+1D10[c2]`, `1D12[hope]+1D12[fear]+2`) needs of
//! the joint law only two things: the probability of each tier, and the
//! total's law. Where the parts' tuples meet in nearly as many distinct
//! tuples as there are combinations of them (named terms: every
//! combination is its own tuple), building the joint law merges nothing:
//! each pair is packed, hashed, decoded, sorted and kept only to be judged
//! once. Here the parts' laws are computed as the planner chooses
//! ([`super::node_cells`]), and then every combination of one state from
//! each part is joined along the expression (the same
//! `combine::pair_key` the combination runs, so the same tuples),
//! decoded, judged and added to its tier and to the total's law as it is
//! made ([`Algorithm::Product`]).
//!
//! The planner ([`plan::product`]) takes this path where the combinations
//! are few ([`MAX_PRODUCT`]) and cannot merge much: no more than
//! [`MERGE_RATIO`] times the tuples the answer can hold at most (the box
//! of its slots' ranges). Elsewhere (counts read by
//! thresholds, where thousands of combinations fall in a few tuples) the
//! same parts are combined pair by pair as [`super::node_cells`] does, and
//! the joint law is returned for the caller to judge.
//!
//! Every weight is the product of one state's weight from each part, and
//! each tier's and each total's probability the sum of those products: in
//! exact fractions the same numbers as the joint law's; in floating point
//! summed in another order, so they may differ in the last bits
//! (`tests/pool.rs`, `product_equals_the_joint_law`).

use super::plan::{self, Algorithm, Plan};
use super::{
    combine, cut_tail, decoded_slots, dice_count, explodes, finish_with, moved_total, node_cells,
    roll_ctx, sort_cells, stat, tail_of_cuts, Bound, Ctx, JointLaw, Key, Stat, NONE_HIGH, NONE_LOW,
};
use crate::error::Result;
use crate::pmf::Pmf;
use crate::systems::dice::ast::{Node, Op};
use crate::systems::dice::law::check_result_span;
use crate::weight::Weight;

/// Most combinations of the parts' states read one by one (a few
/// milliseconds at the 15–40 ns each takes).
pub const MAX_PRODUCT: u64 = 1 << 16;

/// The combinations may be at most this many times the tuples the answer
/// can hold: where more would meet in one tuple, merging them first and
/// judging each tuple once is the cheaper way.
pub const MERGE_RATIO: u64 = 2;

/// Most big-fraction units (`combine::exact_units`: combinations × (1 +
/// the bits of the parts' longest denominators summed / 64)^1.6) of an
/// exact product; past this the parts are combined pair by pair, on
/// whole numbers, under that combination's limits on its units
/// (`combine::MAX_EXACT_PACKED_UNITS`), which the product had none of:
/// `1D2+200D3!` read exactly (1.9·10⁸ units) took 25 s by the product,
/// 0.13 µs a unit, and is now refused in 0.5 s. Under this (a few
/// milliseconds) the product is kept.
pub const MAX_EXACT_PRODUCT_UNITS: f64 = 1e5;

/// The big-fraction units of the exact product of `parts`.
fn exact_units<W: Weight>(parts: &[Vec<(Key, W)>], combinations: u64) -> f64 {
    let bits: u64 = parts
        .iter()
        .map(|p| p.iter().map(|(_, w)| w.den_bits()).max().unwrap_or(0))
        .sum();
    combine::exact_units(combinations, bits)
}

/// Most tuples read together as rows ([`Rows`]): the combinations of the
/// last parts, joined to one prefix of the first (a few pages of columns).
pub const MAX_ROWS: usize = 1024;

/// What the tiers read of a roll, straight from its parts.
#[derive(Clone, Debug)]
pub struct Judged<W: Weight> {
    /// P(tier), by the judge's index.
    pub tiers: Vec<W>,
    /// The total's law.
    pub total: Pmf<W>,
    /// Probability cut from exploding dice.
    pub tail: W,
    /// Whether any dice explode.
    pub explodes: bool,
}

/// A roll read by its tiers: straight from its parts, or its joint law
/// for the caller to judge.
#[derive(Clone, Debug)]
pub enum Read<W: Weight> {
    /// The parts' product, judged as it was made.
    Judged(Judged<W>),
    /// The joint law (as [`super::law_bounded`] gives it).
    Law(JointLaw<W>),
}

/// What reads a tuple's tier for [`read`]: one tuple at a time, and
/// many that differ in a few slots ([`Rows`]), which a judge may read
/// column by column (`dice::Judge` does). Any `FnMut(&[i64]) -> usize`
/// judges row by row.
pub trait Judging {
    /// The tier of the tuple `k`.
    fn tier_of(&mut self, k: &[i64]) -> usize;

    /// The tier of each row of `rows`, into `out` (one per row).
    fn tiers_of_rows(&mut self, rows: &Rows<'_>, out: &mut [usize]) {
        rows_one_by_one(self, rows, out);
    }
}

/// The tier of each row of `rows` by `judge`, each row written whole and
/// judged alone ([`Judging::tiers_of_rows`]'s default).
pub fn rows_one_by_one<J: Judging + ?Sized>(judge: &mut J, rows: &Rows<'_>, out: &mut [usize]) {
    let mut tuple = Vec::with_capacity(rows.base.len());
    for (j, o) in out.iter_mut().enumerate() {
        rows.write(j, &mut tuple);
        *o = judge.tier_of(&tuple);
    }
}

impl<F: FnMut(&[i64]) -> usize> Judging for F {
    fn tier_of(&mut self, k: &[i64]) -> usize {
        self(k)
    }
}

/// Tuples that differ only in a few slots: `base` with slot `cols[c].0`
/// set to `cols[c].1[j]` in row `j` (one prefix of the product's walk
/// joined to each state of its last part).
#[derive(Clone, Copy, Debug)]
pub struct Rows<'a> {
    /// The slots every row shares.
    pub base: &'a [i64],
    /// The slots that differ, each with its value in every row.
    pub cols: &'a [(usize, Vec<i64>)],
}

impl Rows<'_> {
    /// Row `j` written whole into `out`.
    pub fn write(&self, j: usize, out: &mut Vec<i64>) {
        out.clear();
        out.extend_from_slice(self.base);
        for (i, col) in self.cols {
            out[*i] = col[j];
        }
    }

    /// The column of slot `i`, where the rows differ in it.
    pub fn col(&self, i: usize) -> Option<&[i64]> {
        self.cols.iter().find(|(s, _)| *s == i).map(|(_, c)| &c[..])
    }
}

/// Which way [`read_with`] goes: the planner's choice, or one forced (the
/// tests hold the two equal).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// As the planner chooses.
    Planner,
    /// The parts' product wherever the expression is a sum of parts.
    Product,
    /// The joint law.
    Law,
}

/// The tiers' probabilities (each tuple's tier by `judge`, `tiers` of
/// them) and the total's law of `expr`, reading `stats` saturated at
/// `bounds`: straight from the parts where the planner chooses it, else
/// the joint law ([`super::law_bounded`]'s) for the caller to judge.
pub fn read<W: Weight, J: Judging>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    tiers: usize,
    judge: &mut J,
) -> Result<Read<W>> {
    read_with(expr, stats, bounds, tail_eps, tiers, judge, Way::Planner)
}

/// What sees every tuple of [`read_observed`]'s walk with its weight, as
/// rows ([`Rows`], decoded as the judge reads them) and their weights.
pub type Observer<'o, W> = &'o mut dyn FnMut(&Rows<'_>, &[W]);

/// [`read`], with every tuple the parts' product reads (where it is
/// chosen) shown to `observe` with its weight after it is judged: a
/// sweep's judges, one per value, read the same walk
/// ([`crate::systems::dice::sweep`]). Where the joint law is returned,
/// `observe` sees nothing. A product of more than `max_rows` tuples is
/// refused before any is made (`max_rows` the observer's own limit: a
/// sweep judges every tuple at each of its values).
#[allow(clippy::too_many_arguments)]
pub fn read_observed<W: Weight, J: Judging>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    tiers: usize,
    judge: &mut J,
    observe: Observer<'_, W>,
    max_rows: u64,
) -> Result<Read<W>> {
    read_within(
        expr,
        stats,
        bounds,
        tail_eps,
        (tiers, judge, Some((observe, max_rows))),
        Way::Planner,
    )
}

/// [`read`] the way `way` says.
#[doc(hidden)]
pub fn read_with<W: Weight, J: Judging>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    tiers: usize,
    judge: &mut J,
    way: Way,
) -> Result<Read<W>> {
    read_within(expr, stats, bounds, tail_eps, (tiers, judge, None), way)
}

/// [`read_with`] with its judging (the tiers, their judge, an observer).
fn read_within<W: Weight, J: Judging>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    (tiers, judge, observe): (usize, &mut J, Option<(Observer<'_, W>, u64)>),
    way: Way,
) -> Result<Read<W>> {
    let spine = match (way, spine(expr)) {
        (Way::Law, _) | (_, None) => {
            return Ok(Read::Law(super::law_bounded(
                expr, stats, bounds, tail_eps,
            )?))
        }
        (_, Some(spine)) => spine,
    };
    let ctx = roll_ctx::<W>(expr, stats, bounds, tail_eps, true)?;
    // Where the floors on two parts' cells already put a step of the
    // pairwise combination past its limit, refused before any part is
    // built: the product cannot be chosen there either, its combinations
    // being at least that step's pairs.
    for w in spine.parts.windows(2) {
        let (prefix, part) = (w[0].so_far, &w[1]);
        let pairs = combine::floor_of(prefix, &ctx)
            .0
            .saturating_mul(combine::floor_of(part.node, &ctx).0);
        if pairs > MAX_PRODUCT {
            combine::check_floor::<W>(part.so_far, prefix, part.node, &ctx)?;
        }
    }
    // Each part's law as the planner chooses it, in its tuples' order; a
    // number is its one state.
    let mut parts: Vec<Vec<(Key, W)>> = Vec::with_capacity(spine.parts.len());
    for p in &spine.parts {
        let mut cells = node_cells::<W>(p.node, &ctx)?;
        sort_cells(&mut cells);
        parts.push(cells);
    }
    for &(_, v) in &spine.numbers {
        parts.push(vec![(Key::from(&ctx.number(v)[..]), W::one())]);
    }
    let combinations = parts
        .iter()
        .fold(1u64, |acc, p| acc.saturating_mul(p.len() as u64));
    let ops: Vec<Op> = spine
        .parts
        .iter()
        .skip(1)
        .map(|p| p.op)
        .chain(spine.numbers.iter().map(|&(op, _)| op))
        .collect();
    let chosen = match way {
        Way::Product => Some(Plan {
            algorithm: Algorithm::Product,
            estimate: combinations,
        }),
        // In exact fractions each combination is a product of fractions
        // and an addition, a gcd each; the pairwise combination meets its
        // pairs as whole numbers over common denominators. Long fractions
        // go that way (`1D2+200D3!` read exactly, 43,602 combinations on
        // 11,731-bit denominators: 25 s by the product).
        _ if W::EXACT && exact_units(&parts, combinations) > MAX_EXACT_PRODUCT_UNITS => None,
        _ => plan::product(combinations, answer_box(&ops, &parts, &ctx)),
    };
    let explodes = explodes(expr);
    let Some(chosen) = chosen else {
        // The same pairs as `node_cells` of the whole expression, from the
        // parts already computed.
        let cells = spine.pairwise(parts, &ctx)?;
        let tail = if explodes {
            tail_of_cuts(expr, &ctx)?
        } else {
            None
        };
        return Ok(Read::Law(finish_with(&ctx, cells, explodes, tail)));
    };
    let observe = match observe {
        Some((_, max_rows)) if combinations > max_rows => {
            return Err(crate::error::Error::Conflict(format!(
                "dice: a sweep judges each of the roll's {combinations} combinations at every value, past the {max_rows} its values allow; sweep fewer values, or read fewer statistics"
            )))
        }
        observe => observe.map(|(o, _)| o),
    };
    let (tiers, total) = plan::traced(
        || expr.to_string(),
        dice_count(expr),
        &chosen,
        || product(&parts, &ops, &ctx, (tiers, judge, observe)),
    )?;
    let tail = if explodes {
        match tail_of_cuts(expr, &ctx)? {
            Some(t) => t,
            None => cut_tail(&total.total()),
        }
    } else {
        W::zero()
    };
    Ok(Read::Judged(Judged {
        tiers,
        total,
        tail,
        explodes,
    }))
}

/// Every combination of one state from each part, joined left to right by
/// `ops` (`ops[i]` joins part `i + 1`), decoded, judged and added to its
/// tier: each tier's probability and the total's law.
fn product<W: Weight, J: Judging>(
    parts: &[Vec<(Key, W)>],
    ops: &[Op],
    ctx: &Ctx,
    (tiers, judge, observe): (usize, &mut J, Option<Observer<'_, W>>),
) -> Result<(Vec<W>, Pmf<W>)> {
    let n = ctx.layout.len();
    let combinations: usize = parts.iter().map(Vec::len).product();
    plan::count(combinations as u64);
    // A cell per tier and total where the totals' range is known and the
    // cells are not many more than the combinations (a few times their
    // memory); else the totals listed as met.
    let dense = slot_range(0, ops, parts, ctx)
        .and_then(|(lo, hi, _)| {
            let span = usize::try_from(i128::from(hi) - i128::from(lo) + 1).ok()?;
            (span.checked_mul(tiers.max(1))? <= 4 * combinations + 256).then_some((lo, span))
        })
        .filter(|_| ctx.total);
    let sums = match dense {
        Some((lo, span)) => Sums::Dense {
            lo,
            span,
            cells: vec![W::zero(); tiers * span],
            spill: Vec::new(),
        },
        None => Sums::Listed {
            tiers: vec![W::zero(); tiers],
            carry: vec![W::zero(); tiers],
            totals: Vec::with_capacity(combinations),
        },
    };
    let active = active_slots(parts, ctx);
    // The parts from the first whose combinations are at most
    // `MAX_ROWS` on are read as rows, one prefix at a time.
    let cut = (0..parts.len())
        .find(|&l| {
            parts[l..]
                .iter()
                .try_fold(1usize, |acc, p| acc.checked_mul(p.len()))
                .is_some_and(|rows| rows <= MAX_ROWS)
        })
        .unwrap_or(parts.len());
    let mut slots: Vec<usize> = active.iter().skip(cut).flatten().copied().collect();
    slots.sort_unstable();
    slots.dedup();
    let cols = slots.into_iter().map(|i| (i, Vec::new())).collect();
    let mut walk = Walk {
        parts,
        ops,
        ctx,
        decode: decoded_slots(ctx),
        judge,
        observe,
        sums,
        keys: vec![vec![0; n]; parts.len()],
        active,
        scratch: vec![0; n],
        cut,
        rows: RowState {
            cols,
            next: Vec::new(),
            part: Vec::new(),
            weights: Vec::new(),
            next_weights: Vec::new(),
            tiers: Vec::new(),
        },
    };
    match parts.first() {
        _ if cut == 0 => walk.rows(0, None)?,
        Some(first) => {
            for (k, w) in first {
                walk.keys[0].copy_from_slice(k);
                walk.level(1, w)?;
            }
        }
        None => {}
    }
    walk.sums.finish(tiers)
}

/// Where [`product`]'s walk adds what it reads.
enum Sums<W> {
    /// A cell per tier and total (`cells[tier · span + total − lo]`), each
    /// the plain sum of the few combinations that meet in it; a total
    /// outside the range (none, the range being the arithmetic's bounds)
    /// would be kept in `spill`.
    Dense {
        lo: i64,
        span: usize,
        cells: Vec<W>,
        spill: Spill<W>,
    },
    /// Each tier's sum, compensated, and the totals as met.
    Listed {
        tiers: Vec<W>,
        carry: Vec<W>,
        totals: Vec<(i64, W)>,
    },
}

/// A dense sum's weights outside its range: (tier, total, weight).
type Spill<W> = Vec<(usize, i64, W)>;

/// Add `w`, of total `total`, to tier `tier` of [`Sums::Dense`]'s cells
/// (`lo`, `span`, the cells, the spill).
#[inline(always)]
fn dense_add<W: Weight>(
    (lo, span, cells, spill): (i64, usize, &mut [W], &mut Spill<W>),
    tier: usize,
    total: i64,
    w: &W,
) {
    match usize::try_from(total.wrapping_sub(lo)) {
        Ok(i) if i < span => cells[tier * span + i] += w,
        _ => spill.push((tier, total, w.clone())),
    }
}

impl<W: Weight> Sums<W> {
    /// Add `w`, of total `total`, to tier `tier`.
    #[inline]
    fn add(&mut self, tier: usize, total: i64, w: W) {
        match self {
            Sums::Dense {
                lo,
                span,
                cells,
                spill,
            } => dense_add((*lo, *span, cells, spill), tier, total, &w),
            Sums::Listed {
                tiers,
                carry,
                totals,
            } => {
                W::add_compensated(&mut tiers[tier], &mut carry[tier], w.clone());
                totals.push((total, w));
            }
        }
    }

    /// Add each row's weight (of no weight: none) to its tier and total:
    /// [`Sums::add`] of each, the kind of sums matched once.
    fn add_rows(&mut self, tiers: &[usize], totals: &[i64], weights: &[W]) {
        let rows = tiers.iter().zip(totals).zip(weights);
        match self {
            Sums::Dense {
                lo,
                span,
                cells,
                spill,
            } => {
                for ((&t, &total), w) in rows {
                    if !w.is_zero() {
                        dense_add((*lo, *span, cells, spill), t, total, w);
                    }
                }
            }
            Sums::Listed { .. } => {
                for ((&t, &total), w) in rows {
                    if !w.is_zero() {
                        self.add(t, total, w.clone());
                    }
                }
            }
        }
    }

    /// Each tier's probability (its cells summed along the totals,
    /// compensated in floating point) and the total's law (each total's
    /// cells summed across the tiers).
    fn finish(self, count: usize) -> Result<(Vec<W>, Pmf<W>)> {
        match self {
            Sums::Dense {
                lo,
                span,
                cells,
                spill,
            } => {
                let mut tiers = vec![W::zero(); count];
                let mut carry = vec![W::zero(); count];
                let mut by_total = vec![W::zero(); span];
                for (t, row) in cells.chunks_exact(span.max(1)).enumerate() {
                    for (x, w) in by_total.iter_mut().zip(row) {
                        if !w.is_zero() {
                            W::add_compensated(&mut tiers[t], &mut carry[t], w.clone());
                            *x += w;
                        }
                    }
                }
                let mut pairs: Vec<(i64, W)> = Vec::new();
                for (t, total, w) in spill {
                    W::add_compensated(&mut tiers[t], &mut carry[t], w.clone());
                    pairs.push((total, w));
                }
                for (t, c) in tiers.iter_mut().zip(carry) {
                    *t += c;
                }
                let total = if pairs.is_empty() {
                    Pmf::from_weights(lo, by_total)
                } else {
                    pairs.extend((lo..).zip(by_total));
                    check_result_span(pairs.iter().map(|p| p.0))?;
                    Pmf::from_pairs(pairs)
                };
                Ok((tiers, total))
            }
            Sums::Listed {
                mut tiers,
                carry,
                totals,
            } => {
                for (t, c) in tiers.iter_mut().zip(carry) {
                    *t += c;
                }
                check_result_span(totals.iter().map(|p| p.0))?;
                Ok((tiers, Pmf::from_pairs(totals)))
            }
        }
    }
}

/// Per part, the slots where joining it can change the tuple: the total
/// (by the expression's arithmetic, which a neutral 0 does not leave alone
/// under `*` or `/`), and every slot where some state of the part is not
/// the statistic's neutral value (a named term's own slots, the counts of
/// its faces). Joining a neutral value leaves the other side's as it is
/// (0 added, the max or min of nothing, "no die yet" of the all-alike
/// rule), so the others are copied.
fn active_slots<W>(parts: &[Vec<(Key, W)>], ctx: &Ctx) -> Vec<Vec<usize>> {
    let neutral = ctx.neutral();
    parts
        .iter()
        .map(|p| {
            (0..neutral.len())
                .filter(|&i| i == 0 || p.iter().any(|(k, _)| k[i] != neutral[i]))
                .collect()
        })
        .collect()
}

/// The state of [`product`]'s walk over the combinations, part by part.
struct Walk<'a, 'j, 'o, W, J> {
    parts: &'a [Vec<(Key, W)>],
    ops: &'a [Op],
    ctx: &'a Ctx,
    /// The slots whose values a condition reads decoded ([`Stat::finish`]).
    decode: Vec<usize>,
    judge: &'j mut J,
    /// Sees each tuple judged, with its weight ([`read_observed`]).
    observe: Option<Observer<'o, W>>,
    sums: Sums<W>,
    /// The tuple of the parts joined so far, by how many are joined − 1.
    keys: Vec<Vec<i64>>,
    /// Per part, the slots it joins ([`active_slots`]).
    active: Vec<Vec<usize>>,
    scratch: Vec<i64>,
    /// The first part read as rows ([`Walk::rows`]; past the last: none).
    cut: usize,
    rows: RowState<W>,
}

/// The buffers of [`Walk::rows`], reused from prefix to prefix.
struct RowState<W> {
    /// Per slot the rows differ in (the parts' active slots), its values;
    /// the first is the total's (slot 0, joined by every part and never
    /// decoded).
    cols: Vec<(usize, Vec<i64>)>,
    next: Vec<i64>,
    /// The totals of the part being joined.
    part: Vec<i64>,
    weights: Vec<W>,
    next_weights: Vec<W>,
    tiers: Vec<usize>,
}

impl<W: Weight, J: Judging> Walk<'_, '_, '_, W, J> {
    /// Join each state of part `l` (one of the parts after the first: a
    /// spine has two or more) to the tuple of the parts before it
    /// (`keys[l − 1]`, of weight `w`), and go on to the next part; at the
    /// last, read each tuple.
    fn level(&mut self, l: usize, w: &W) -> Result<()> {
        if w.is_zero() {
            return Ok(());
        }
        if l == self.cut {
            return self.rows(l, Some(w));
        }
        let (parts, ctx, op) = (self.parts, self.ctx, self.ops[l - 1]);
        let active = std::mem::take(&mut self.active[l]);
        // As `combine::pair_key` joins them, slot by slot: a slot this part
        // leaves neutral keeps the prefix's value, so the prefix is copied
        // once and each state writes only the slots it joins.
        {
            let (done, rest) = self.keys.split_at_mut(l);
            rest[0].copy_from_slice(&done[l - 1]);
        }
        let last = l + 1 == parts.len();
        for (k, x) in &parts[l] {
            let (done, rest) = self.keys.split_at_mut(l);
            let (prefix, key) = (&done[l - 1], &mut rest[0]);
            for &i in &active {
                key[i] = if i == 0 {
                    op.apply(prefix[0], k[0])
                        .ok_or_else(combine::out_of_range)?
                } else {
                    ctx.combined(i, prefix[i], k[i])
                };
            }
            let w = w.clone() * x;
            if last {
                // The last part: read each tuple here, not a call deeper.
                if !w.is_zero() {
                    self.read(l, w);
                }
            } else {
                self.level(l + 1, &w)?;
            }
        }
        self.active[l] = active;
        Ok(())
    }

    /// The prefix `keys[l − 1]` (of weight `w`; none where `l` is 0)
    /// joined to every combination of the states of parts `l..`: the same
    /// tuples and weights, in the same order, as [`Walk::level`] makes
    /// them, as rows that differ only in the slots those parts join,
    /// judged together ([`Judging::tiers_of_rows`]) and added to their
    /// tiers and totals.
    fn rows(&mut self, l: usize, w: Option<&W>) -> Result<()> {
        let (parts, ctx, ops) = (self.parts, self.ctx, self.ops);
        let rows = &mut self.rows;
        let base = &mut self.scratch;
        match l.checked_sub(1) {
            Some(before) => {
                base.copy_from_slice(&self.keys[before]);
                rows.weights.clear();
                rows.weights.extend(w.cloned());
            }
            None => {
                base.copy_from_slice(&ctx.neutral());
                rows.weights.clear();
                rows.weights.push(W::one());
            }
        }
        // Every buffer at its full length at once (no growing).
        let n: usize = parts[l..].iter().map(Vec::len).product();
        for (i, col) in rows.cols.iter_mut() {
            col.clear();
            col.reserve(n);
            col.push(base[*i]);
        }
        rows.next.reserve(n);
        rows.weights.reserve(n);
        rows.next_weights.reserve(n);
        for (m, part) in parts.iter().enumerate().skip(l) {
            // Each row so far joined to each state of part `m`, row-major:
            // the walk's order.
            let width = part.len();
            let active = &self.active[m];
            for (i, col) in rows.cols.iter_mut() {
                let i = *i;
                // A column of one value so far (a named term's slot before
                // its part joins, every slot at the first): the part's
                // values found once and repeated for each row.
                // (Asked only where it is read: never of the total's column.)
                let first = col[0];
                let constant = |col: &[i64]| col.iter().all(|&v| v == first);
                if !active.contains(&i) {
                    if width > 1 {
                        if constant(col) {
                            col.resize(col.len() * width, first);
                            continue;
                        }
                        rows.next.clear();
                        for &v in col.iter() {
                            rows.next.extend(std::iter::repeat_n(v, width));
                        }
                        std::mem::swap(col, &mut rows.next);
                    }
                    continue;
                }
                rows.next.clear();
                if i != 0 && m > 0 && constant(col) {
                    rows.next
                        .extend(part.iter().map(|(k, _)| ctx.combined(i, first, k[i])));
                    for _ in 1..col.len() {
                        rows.next.extend_from_within(..width);
                    }
                } else if m == 0 {
                    rows.next.extend(part.iter().map(|(k, _)| k[i]));
                } else if i == 0 {
                    let op = ops[m - 1];
                    rows.part.clear();
                    rows.part.extend(part.iter().map(|(k, _)| k[0]));
                    // Where every value is within ±2⁶² (one pass to know),
                    // no sum or difference overflows: plain adds, which
                    // vectorise, each state's total read once.
                    const HALF: i64 = 1 << 62;
                    let small = |xs: &[i64]| xs.iter().all(|x| (-HALF..HALF).contains(x));
                    if matches!(op, Op::Add | Op::Sub) && small(col) && small(&rows.part) {
                        let sign = if matches!(op, Op::Sub) { -1 } else { 1 };
                        rows.part.iter_mut().for_each(|b| *b *= sign);
                        for &v in col.iter() {
                            rows.next.extend(rows.part.iter().map(|&b| v + b));
                        }
                        std::mem::swap(col, &mut rows.next);
                        continue;
                    }
                    // The sum and difference in the loop itself (`Op::apply`
                    // is not inlined: inlined, it slowed the push's loops).
                    let join = |a: i64, b: i64| match op {
                        Op::Add => a.checked_add(b),
                        Op::Sub => a.checked_sub(b),
                        _ => op.apply(a, b),
                    };
                    for (&v, r) in col.iter().zip(&rows.weights) {
                        for (k, _) in part {
                            rows.next.push(match join(v, k[0]) {
                                Some(x) => x,
                                // A row of no weight is never joined.
                                None if r.is_zero() => v,
                                None => return Err(combine::out_of_range()),
                            });
                        }
                    }
                } else {
                    for &v in col.iter() {
                        rows.next
                            .extend(part.iter().map(|(k, _)| ctx.combined(i, v, k[i])));
                    }
                }
                std::mem::swap(col, &mut rows.next);
            }
            rows.next_weights.clear();
            if m == 0 {
                rows.next_weights
                    .extend(part.iter().map(|(_, x)| x.clone()));
            } else {
                for r in &rows.weights {
                    rows.next_weights
                        .extend(part.iter().map(|(_, x)| r.clone() * x));
                }
            }
            std::mem::swap(&mut rows.weights, &mut rows.next_weights);
        }
        for &i in &self.decode {
            let stat = &ctx.layout[i];
            match rows.cols.iter_mut().find(|(s, _)| *s == i) {
                Some((_, col)) => col.iter_mut().for_each(|x| *x = stat.finish(*x)),
                None => base[i] = stat.finish(base[i]),
            }
        }
        rows.tiers.clear();
        rows.tiers.resize(n, 0);
        let judged = Rows {
            base,
            cols: &rows.cols,
        };
        self.judge.tiers_of_rows(&judged, &mut rows.tiers);
        if let Some(observe) = self.observe.as_mut() {
            observe(&judged, &rows.weights);
        }
        // Slot 0, the total, is in every part's active slots
        // (`active_slots`), so it is the first column.
        self.sums
            .add_rows(&rows.tiers, &rows.cols[0].1, &rows.weights);
        Ok(())
    }

    /// The joined tuple `keys[at]` of weight `w`: decoded, judged, added
    /// to its tier and to the totals.
    #[inline]
    fn read(&mut self, at: usize, w: W) {
        let k = &self.keys[at];
        let tier = if self.decode.is_empty() {
            self.judge.tier_of(k)
        } else {
            self.scratch.copy_from_slice(k);
            for &i in &self.decode {
                self.scratch[i] = self.ctx.layout[i].finish(self.scratch[i]);
            }
            self.judge.tier_of(&self.scratch)
        };
        if let Some(observe) = self.observe.as_mut() {
            let base = if self.decode.is_empty() {
                k
            } else {
                &self.scratch
            };
            observe(&Rows { base, cols: &[] }, std::slice::from_ref(&w));
        }
        self.sums.add(tier, k[0], w);
    }
}

/// One part of a sum: its node, and the operator that joins it to the
/// parts before it (the first part's is unused).
struct Part<'a> {
    op: Op,
    node: &'a Node,
    /// The expression of the parts so far, this one included (for the
    /// planner's trace of a pairwise combination).
    so_far: &'a Node,
}

/// An expression as parts joined left to right (`a + b − c`), then numbers
/// joined to the whole (`… + 2`).
struct Spine<'a> {
    parts: Vec<Part<'a>>,
    numbers: Vec<(Op, i64)>,
}

/// The parts of `expr` where it is two or more parts that are not numbers
/// joined left to right, then numbers joined on the right; `None` for any
/// other shape (one part, a number first or between parts).
fn spine(expr: &Node) -> Option<Spine<'_>> {
    let mut numbers = Vec::new();
    let mut n = expr;
    // The numbers on the right, outermost first.
    loop {
        match n {
            Node::Paren(b) => n = b,
            Node::Bin(op, a, b) if matches!(**b, Node::Num(_)) => {
                let Node::Num(v) = **b else {
                    return None;
                };
                numbers.push((*op, v));
                n = a;
            }
            _ => break,
        }
    }
    numbers.reverse();
    let mut parts = Vec::new();
    fn walk<'a>(n: &'a Node, parts: &mut Vec<Part<'a>>) -> Option<()> {
        match n {
            Node::Paren(b) => walk(b, parts),
            Node::Bin(op, a, b) => {
                if matches!(**b, Node::Num(_)) {
                    return None;
                }
                walk(a, parts)?;
                parts.push(Part {
                    op: *op,
                    node: b,
                    so_far: n,
                });
                Some(())
            }
            Node::Num(_) => None,
            _ => {
                parts.push(Part {
                    op: Op::Add,
                    node: n,
                    so_far: n,
                });
                Some(())
            }
        }
    }
    walk(n, &mut parts)?;
    (parts.len() >= 2).then_some(Spine { parts, numbers })
}

impl Spine<'_> {
    /// The parts' laws (`parts`: the spine's parts, then one state per
    /// number) combined pair by pair as [`super::node_cells`] combines the
    /// expression: each part joined to the parts before it by the
    /// planner's combination, then each number by moving the total in
    /// place where that is all it does, else by the combination.
    fn pairwise<W: Weight>(&self, parts: Vec<Vec<(Key, W)>>, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
        let mut parts = parts.into_iter();
        let mut acc = parts.next().unwrap_or_default();
        for p in &self.parts[1..] {
            let next = parts.next().unwrap_or_default();
            acc = combine::planned_sorted(
                p.so_far,
                p.op,
                &super::cell_refs(&acc),
                &super::cell_refs(&next),
                ctx,
            )?;
        }
        for &(op, v) in &self.numbers {
            let num = ctx.number(v);
            let mut key = vec![0i64; ctx.layout.len()];
            // The totals moved in place where that is all the number moves
            // (as `node_cells` moves them), found before any cell changes.
            let mut moved =
                Some(Vec::with_capacity(acc.len())).filter(|_| matches!(op, Op::Add | Op::Sub));
            for (k, _) in &acc {
                let Some(totals) = moved.as_mut() else {
                    break;
                };
                match moved_total(ctx, op, &num, false, k, &mut key)? {
                    Some(t) => totals.push(t),
                    None => moved = None,
                }
            }
            if let Some(totals) = moved {
                for ((k, _), t) in acc.iter_mut().zip(totals) {
                    k[0] = t;
                }
            } else {
                sort_cells(&mut acc);
                let one = [(Key::from(&num[..]), W::one())];
                acc = combine::combine_sorted(
                    op,
                    &super::cell_refs(&acc),
                    &super::cell_refs(&one),
                    ctx,
                )?;
            }
        }
        Ok(acc)
    }
}

/// An upper bound on the distinct tuples the parts (`parts`, joined left
/// to right by `ops`) can make together: per slot, the values its range
/// can hold ([`slot_range`]; a slot's "none" values counted apart), all
/// multiplied. 0 where a range is not known, so that nothing is assumed.
fn answer_box<W>(ops: &[Op], parts: &[Vec<(Key, W)>], ctx: &Ctx) -> u64 {
    let mut size = 1u64;
    for i in 0..ctx.layout.len() {
        let Some((lo, hi, none)) = slot_range(i, ops, parts, ctx) else {
            return 0;
        };
        let width = if lo > hi {
            0
        } else {
            u64::try_from(i128::from(hi) - i128::from(lo) + 1).unwrap_or(u64::MAX)
        };
        size = size.saturating_mul(width.saturating_add(if none { 2 } else { 0 }).max(1));
    }
    size
}

/// The range of slot `i`'s ordinary values once the parts are joined
/// (empty, `lo > hi`, where it has none), and whether a "none" value (no
/// die yet, two that differ) can be met: the total by interval arithmetic
/// over the parts' ranges, any other statistic by its rule, saturated
/// where the conditions allow. `None` where it is not known (a division
/// by a range through zero, an arithmetic overflow).
fn slot_range<W>(
    i: usize,
    ops: &[Op],
    parts: &[Vec<(Key, W)>],
    ctx: &Ctx,
) -> Option<(i64, i64, bool)> {
    let range = |p: &[(Key, W)]| {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut none = false;
        for (k, _) in p {
            let v = k[i];
            if v == NONE_LOW || v == NONE_HIGH {
                none = true;
            } else {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        (lo, hi, none)
    };
    let (mut lo, mut hi, mut none) = range(parts.first()?);
    for (p, &op) in parts[1..].iter().zip(ops) {
        let (l, h, nn) = range(p);
        none |= nn;
        if l > h {
            continue;
        }
        if lo > hi {
            (lo, hi) = (l, h);
            continue;
        }
        if i == 0 && ctx.total {
            if matches!(op, Op::Div(_)) && l <= 0 && h >= 0 {
                return None;
            }
            let corners = [
                op.apply(lo, l)?,
                op.apply(lo, h)?,
                op.apply(hi, l)?,
                op.apply(hi, h)?,
            ];
            lo = *corners.iter().min()?;
            hi = *corners.iter().max()?;
        } else {
            match ctx.ops[i].combine {
                stat::Combine::Add => {
                    lo = lo.saturating_add(l);
                    hi = hi.saturating_add(h);
                }
                _ => {
                    lo = lo.min(l);
                    hi = hi.max(h);
                }
            }
            lo = ctx.merged(i, lo);
            hi = ctx.merged(i, hi);
        }
    }
    Some((lo, hi, none))
}
