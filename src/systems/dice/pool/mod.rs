//! The pool engine (ダイスプール): one roll, many facts.
//!
//! Every dice expression — BCDice's `3D6+1`, `4D6KH3`, and the engine's own
//! constructs (custom faces `2D{0,0,1,1,2,3}`, Fate `4DF`, face scores
//! `5D10{1:2,<=6:1,10:-1}`, rerolls `ro`/`r`, explosions `!`/`!!`, groups
//! `{1D8!,1D6!}KH1`, names `1D12[hope]`) — is reduced to the **joint law of
//! the statistics its conditions read**: the total, the kept faces, the
//! highest and lowest face, counts of faces, named scores, named terms,
//! whether all dice are equal, the widest matching set, whether the check
//! was pushed. The law is computed once, never by enumerating faces.
//!
//! # How (icepool's `MultisetEvaluator` method)
//!
//! A term's dice are *folded over outcomes in order*, highest first
//! ([`fold`]): at each outcome, `m` of the `r` dice not yet placed show it,
//! with the binomial probability `C(r, m)·qᵐ·(1−q)ʳ⁻ᵐ` where `q` is the
//! outcome's probability given the die is at most that outcome. The state
//! is the tuple of statistics so far plus the dice placed; keep-highest
//! knows how many dice are already kept, the maximum is the first outcome
//! placed, the minimum the last. States that agree merge, so the work is
//! the number of distinct statistic tuples, not `facesⁿ`.
//!
//! # The planner
//!
//! [`plan`] is the one place an algorithm is chosen and its work
//! estimated, before any work: the power sum and keep/drop order
//! statistics where only the total is read (exploding dice included), the
//! order-free combination of the die's tuple law where the statistics
//! combine without order ([`fold::independent_steps`]; every pool size in
//! one pass: [`facts_by_size`]), the class fold ([`classes`]), the fold,
//! the product of a group's items. Each is held equal to the fold exactly
//! by `tests/pool.rs` (`every_algorithm_equals_the_fold`,
//! `every_group_algorithm_equals_the_fold`), which also holds the steps to
//! the estimate; a plan far beyond the work limit is refused at once. A
//! single term's cells go straight into the joint law ([`node_cells`]),
//! sorted by a radix sort of their packed tuples. A check whose tiers read
//! a sum of parts whose combinations are few and nearly all distinct
//! (named terms) skips the joint law: the parts' product is judged as it
//! is made ([`product`]).
//!
//! Before planning, the statistics are cut to what the conditions read
//! ([`bounds`], asked of each statistic by [`Statistic::saturation`]): a count
//! read as `>= k` stops at `k`, a maximum, minimum or named value read
//! against numbers clamps to their range, so Year Zero's `count(==6)>=1`
//! carries 0 or 1 and Savage Worlds' `trait==1` carries "1 or not" where it
//! carried the whole exploding chain. A caller that does not read the total
//! ([`facts`]: a check whose tiers read counts, a game's round) does not
//! carry it. The total itself is carried exactly; where only the tiers are
//! wanted (`--outcomes-only`) and they read it against numbers, exploding
//! chains stop once they pass the highest threshold ([`chain_cap`]), their
//! mass kept rather than cut.
//!
//! States are [`Key`]s: tuples held inline (no allocation), hashed a word
//! at a time, merged with one hash. The fold and the group product go
//! step by step on packed states instead ([`steps`]): each step's pairs
//! packed into `u64` codes and summed in a dense array (or by sorting the
//! codes), its states in tuple order, so that no hash decides the order of
//! a sum.
//!
//! Terms are independent: their laws combine pairwise along the expression
//! ([`law`], [`mod@combine`]): the totals by the expression's arithmetic, every
//! other statistic by its own rule ([`Statistic::combining`]: counts and
//! scores add, maxima take the max, …), on tuples packed in one `u64`
//! where they fit; each combination is planned (its pairs, exactly) and
//! refused past its limit before any pair meets.
//!
//! # Where things go
//!
//! * A new **statistic** (a fact a condition can read): one file in
//!   [`stat`] implementing [`Statistic`] (its per-die contribution, how
//!   parts combine — one rule of [`stat::Combine`], a new rule added
//!   there —, its plain rule on rolled dice, what the planner may assume
//!   of it), a [`Stat`] variant with its arm in [`Stat::rule`], and its
//!   word in [`stat::WORDS`] if conditions read it by one. The inner
//!   loops read each slot's rule from [`Ctx`]'s table, asked once.
//! * A new **die modifier**: [`super::ast::DieMod`], its parse in
//!   `parse.rs`, its law in [`die::die_law`], its roll in `roll.rs`.
//! * A new **algorithm**: a variant of [`plan::Algorithm`], when it applies
//!   and its estimate in [`plan`] (with its own limit where its step costs
//!   more than a few nanoseconds: [`plan::Plan::limit`]), its run in
//!   [`fold`] (a term's or group's law) or a file of its own ([`classes`],
//!   [`best`], [`mod@combine`], [`push`]); the differential test picks it up.
//! * A new **kind of die** (its faces): a [`super::ast::DieFaces`]
//!   variant with its sides and its spelling in `ast.rs`, its parse in
//!   `parse.rs`, and, when its faces are not one die of the source
//!   (D66's two d6), its draw in `roll.rs`. Every term is one type,
//!   [`super::ast::PoolTerm`]; a plain one ([`PoolTerm::is_plain`]: `3D6`,
//!   `4D6KH3`, `1D66`) is summed by `law.rs` where only its total is read.
//! * A new **condition** form: [`super::cond`].
//! * A **chained** construct (a roll decided by another: a follow-up per
//!   tier, a rolled count, repeats, clamps): [`super::chained`], its AST,
//!   its law (one arm of [`node_law`], built from the stages' laws) and its
//!   plain rule, in one file.
//! * A **game command**: `super::games` (a front end: it parses its
//!   command and asks this engine for the joint law of what it reads; a
//!   roll repeated while a condition holds is a chain of rounds,
//!   [`chain`], which the planner records with its count).
//! * A **sixth system**: `src/systems/NAME.rs` (its parameters, outcome
//!   tiers, `classify` and exact law; its dice as a program for this
//!   engine, as d20's `2D20KH1`, keep-highest's ranked pools and hit-pool's
//!   counted d6 are), its request in `src/request/`, its
//!   sampler in `src/verify/`; `tests/layers.rs` keeps each in its layer.
//!
//! The state space is bounded ([`MAX_STATES`]) and the work counted
//! ([`MAX_WORK`]): a roll whose statistics would take more is refused,
//! naming the size and the limit.

pub mod best;
pub mod chain;
pub mod classes;
pub mod combine;
pub mod die;
pub mod fold;
pub mod key;
pub mod plan;
pub mod product;
pub mod push;
pub mod stat;
pub mod steps;

pub use combine::combine;
pub use key::Key;
pub use stat::{Saturation, Stat, Statistic, NONE_HIGH, NONE_LOW};

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::ast::*;
use crate::error::{Error, Result};
use crate::weight::{AddWeight, Weight};

/// Words a term or a score cannot be named: the statistics' names.
pub const RESERVED: &[&str] = &[
    "total",
    "result",
    "natural",
    "max",
    "min",
    "count",
    "doubles",
    "all_equal",
    "pushed",
    "width",
    "height",
    "and",
    "or",
    "not",
];

/// Most distinct states of one fold or one combination of terms.
pub const MAX_STATES: usize = 2_000_000;
/// Most state × outcome steps of one roll's law (about a second of work).
pub const MAX_WORK: u64 = 300_000_000;

/// A small fast hasher (FxHash): maps keyed by statistic tuples, with a
/// fixed hash so that iteration order, and so the order of floating-point
/// sums, is the same on every run.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    /// The product's high bits brought down (as rustc-hash 2 does): a map
    /// picks a bucket by the hash's low bits, and a multiply leaves the low
    /// bits of a multiple of 2ᵏ all zero, so the keys of a roll scaled by
    /// 65,536 (`65536*10D1000!*6D6+(99)`) met in one bucket of 65,536
    /// and a combination of 2 million pairs ran for minutes.
    #[inline]
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // A word at a time (a slice of i64 arrives here whole).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        for b in chunks.remainder() {
            self.write_u64(u64::from(*b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A map from statistic tuples to weights.
pub type Map<W> = HashMap<Key, W, FxBuild>;

/// Maps and sets of the engine hashed by [`FxHasher`] (one multiply a
/// word, where the standard SipHash costs several).
pub type FxBuild = BuildHasherDefault<FxHasher>;

/// Add `w` at `key`: one hash, and no allocation for a short tuple.
#[inline]
pub fn add_to<W: Weight>(map: &mut Map<W>, key: &[i64], w: W) {
    if key.len() <= key::INLINE {
        map.entry(Key::from(key)).add_weight(w);
    } else {
        match map.get_mut(key) {
            Some(x) => *x += w,
            None => {
                map.insert(key.into(), w);
            }
        }
    }
}

/// A map's cells in their tuples' order (the order a combination reads
/// its parts in and leaves its answer).
pub(crate) fn in_order<W>(m: Map<W>) -> Vec<(Key, W)> {
    let mut cells: Vec<(Key, W)> = m.into_iter().collect();
    sort_cells(&mut cells);
    cells
}

/// Merge the runs of equal keys of `cells` (sorted, or at least with
/// equal keys side by side) in place: each run's weights summed in the
/// order they stand, the sums a map would have made taking them in that
/// order.
pub fn merge_runs<K: PartialEq, W: Weight>(cells: &mut Vec<(K, W)>) {
    cells.dedup_by(|(k, w), (last, sum)| {
        let same = *last == *k;
        if same {
            *sum += std::mem::replace(w, W::zero());
        }
        same
    });
}

/// The joint law of a roll's statistics.
#[derive(Clone, Debug)]
pub struct JointLaw<W> {
    /// What each position of a cell's tuple is; `Total` first.
    pub layout: Vec<Stat>,
    /// Tuples (as conditions read them) and their probabilities, sorted.
    pub cells: Vec<(Key, W)>,
    /// Probability cut from exploding dice.
    pub tail: W,
    /// Whether any dice explode.
    pub explodes: bool,
}

impl<W: Weight> JointLaw<W> {
    /// The position of `stat` in the layout.
    pub fn index(&self, stat: &Stat) -> Option<usize> {
        self.layout.iter().position(|s| s == stat)
    }

    /// The total's law ([`JointLaw::marginal_checked`]).
    pub fn total_law(&self) -> Result<crate::pmf::Pmf<W>> {
        self.marginal_checked(&Stat::Total)
    }

    /// The law of one statistic ([`JointLaw::marginal`]), refused where its
    /// values span more than a law holds
    /// ([`crate::systems::dice::law::check_result_span`]).
    pub fn marginal_checked(&self, stat: &Stat) -> Result<crate::pmf::Pmf<W>> {
        self.check_span(stat)?;
        Ok(self.marginal(stat))
    }

    /// [`JointLaw::marginal_checked`]'s refusal alone, where the law of
    /// `stat` is not wanted: its values spanning more than a law holds
    /// ([`crate::systems::dice::law::check_result_span`]).
    pub fn check_span(&self, stat: &Stat) -> Result<()> {
        let i = self.index(stat).unwrap_or(0);
        crate::systems::dice::law::check_result_span(self.cells.iter().map(|(k, _)| k[i]))
    }

    /// The law of one statistic.
    pub fn marginal(&self, stat: &Stat) -> crate::pmf::Pmf<W> {
        let i = self.index(stat).unwrap_or(0);
        if W::EXACT && self.cells.len() > crate::pmf::FEW_VALUES {
            // Exact: each value's cells added over one common denominator.
            let lo = self.cells.iter().map(|(k, _)| k[i]).min().unwrap_or(0);
            let hi = self.cells.iter().map(|(k, _)| k[i]).max().unwrap_or(0);
            let items: Vec<(usize, &W)> = self
                .cells
                .iter()
                .map(|(k, w)| ((k[i] - lo) as usize, w))
                .collect();
            let n = usize::try_from(hi - lo).map_or(0, |d| d + 1);
            if let Some(sums) = crate::weight::exact_bucket_sums(n, &items) {
                return crate::pmf::Pmf::from_pairs((lo..).zip(sums));
            }
        }
        // Added up value by value in the cells' order.
        crate::pmf::Pmf::from_pairs(self.cells.iter().map(|(k, w)| (k[i], w.clone())))
    }
}

/// The layout of a roll's tuples: `Total` first, then `stats` without
/// duplicates (and without `Total`, `Pushed` is set by the push).
pub fn layout(stats: &[Stat]) -> Vec<Stat> {
    let mut out = vec![Stat::Total];
    for s in stats {
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    // The widest set's face is found with its width.
    if out.contains(&Stat::Height) && !out.contains(&Stat::Width) {
        out.push(Stat::Width);
    }
    out
}

/// A statistic read only against numbers, and the range outside which its
/// values read alike: `(stat, lo, hi)`, every value below `lo` reading as
/// `lo` does and every value above `hi` as `hi` does (`count(6)>=2`:
/// `(count(6), 1, 2)`).
pub type Bound = (Stat, i64, i64);

/// The bounds of the statistics that `conds` read only against numbers,
/// leaving out those in `raw` (read by value elsewhere: a per-roll
/// statistic, a caller's extra) and the total, which the result's law
/// always carries exactly.
pub fn bounds<'a>(
    conds: impl IntoIterator<Item = &'a super::cond::Expr>,
    raw: &[Stat],
) -> Vec<Bound> {
    bounds_from(&thresholds(conds), raw)
}

/// Each statistic the conditions read, with the values either side of
/// where each comparison with a number changes (`None`: read otherwise
/// than against numbers), in order of appearance.
pub fn thresholds<'a>(
    conds: impl IntoIterator<Item = &'a super::cond::Expr>,
) -> Vec<(Stat, Option<Vec<i64>>)> {
    let mut seen = Vec::new();
    for c in conds {
        c.thresholds(&mut seen);
    }
    seen
}

/// [`bounds`] from the conditions' [`thresholds`].
pub fn bounds_from(seen: &[(Stat, Option<Vec<i64>>)], raw: &[Stat]) -> Vec<Bound> {
    seen.iter()
        // The total and the natural dice are `Exact`: never saturated.
        .filter(|(s, _)| !raw.contains(s) && s.saturation() != Saturation::Exact)
        .filter_map(|(s, t)| {
            let t = t.as_ref()?;
            let lo = t.iter().copied().min()?;
            let hi = t.iter().copied().max()?;
            Some((s.clone(), lo, hi))
        })
        .collect()
}

/// Where a roll's exploding chains may stop: the value `hi` past which
/// every value of the result reads alike (one above the highest threshold
/// the tiers compare it with), moved by the numbers the roll adds, and no
/// lower than any named term's own bound, where every chain of dice that
/// has reached it leaves everything the tiers read as it is. So only
/// where the tiers read nothing but the result and named terms' values
/// (each against numbers: `named` holds their highest edges); every
/// face and score is a number of 0 or more; and the roll is parts added
/// (dice, groups kept across, numbers; an item's numbers not below 0),
/// so a part reaching the cap puts the result past `hi` or, kept across,
/// leaves it as a part at the cap would. `None` where any of that fails.
pub fn chain_cap(expr: &Node, layout: &[Stat], hi: i64, named: &[(Stat, i64)]) -> Option<i64> {
    let mut top = 0i64;
    if !layout.iter().all(|s| match s {
        Stat::Total => true,
        Stat::Named(_) => named.iter().any(|(n, _)| n == s),
        _ => false,
    }) {
        return None;
    }
    fn added(n: &Node, numbers: &mut i64) -> bool {
        match n {
            Node::Num(v) => {
                *numbers = numbers.saturating_add(*v);
                true
            }
            Node::Paren(a) => added(a, numbers),
            Node::Bin(Op::Add, a, b) => added(a, numbers) && added(b, numbers),
            Node::Bin(Op::Sub, a, b) => match **b {
                Node::Num(v) => {
                    *numbers = numbers.saturating_sub(v);
                    added(a, numbers)
                }
                _ => false,
            },
            Node::Pool(t) => {
                t.faces.all_non_negative_numbers()
                    && t.scores.iter().all(|r| r.score.is_non_negative_number())
            }
            Node::Group(g) => g.items.iter().all(|item| {
                let mut own = 0;
                added(item, &mut own) && own >= 0
            }),
            _ => false,
        }
    }
    if !added(expr, &mut top) {
        return None;
    }
    let named_hi = named.iter().map(|(_, h)| *h).max().unwrap_or(i64::MIN);
    Some(hi.saturating_sub(top).max(named_hi).max(1))
}

/// How to build laws: the layout and the cut for exploding dice.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// What each tuple position holds.
    pub layout: Vec<Stat>,
    /// Per-die bound on the mass cut from an exploding chain.
    pub die_eps: f64,
    /// Whether the total is carried (false: its slot stays 0, for a caller
    /// that reads only other statistics — see [`facts`]).
    pub total: bool,
    /// Per slot, where setting a named term's value saturates it.
    set: Vec<Option<(i64, i64)>>,
    /// Per slot, what its statistic answers, asked once, and where
    /// combining saturates it: the engine's inner loops read this table,
    /// not the statistic.
    ops: Vec<SlotOp>,
    /// Where an exploding chain may stop rolling: every roll whose dice
    /// reach this value reads alike from there on ([`chain_cap`], given as
    /// the total's bound; `None`: chains run to their cut).
    pub chain_cap: Option<i64>,
}

/// What the inner loops need of one slot's statistic.
#[derive(Clone, Copy, Debug)]
struct SlotOp {
    combine: stat::Combine,
    kept_only: bool,
    neutral: i64,
    /// Where combining saturates it (counts, maxima, minima).
    merge: Option<(i64, i64)>,
}

impl SlotOp {
    fn of(s: &Stat) -> SlotOp {
        SlotOp {
            combine: s.combining(),
            kept_only: s.kept_only(),
            neutral: s.neutral(),
            merge: None,
        }
    }
}

impl Ctx {
    /// A context carrying every statistic of `layout` exactly.
    pub fn new(layout: Vec<Stat>, die_eps: f64, total: bool) -> Ctx {
        let n = layout.len();
        Ctx {
            die_eps,
            total,
            set: vec![None; n],
            ops: layout.iter().map(SlotOp::of).collect(),
            layout,
            chain_cap: None,
        }
    }

    /// The same, with the statistics of `bounds` saturated: states that
    /// differ only beyond what the conditions read merge as the law is
    /// built (Year Zero's `count(==6)>=1` carries 0 or 1, not every count).
    pub fn bounded(mut self, bounds: &[Bound]) -> Ctx {
        for (i, s) in self.layout.iter().enumerate() {
            let Some((_, lo, hi)) = bounds.iter().find(|(b, _, _)| b == s) else {
                continue;
            };
            match s.saturation() {
                // A count is never below 0: past a threshold below that,
                // every count reads alike at 0 (capped at a negative
                // threshold, sums of capped parts fell below it).
                Saturation::Upper => self.ops[i].merge = Some((i64::MIN, (*hi).max(0))),
                Saturation::Both => self.ops[i].merge = Some((*lo, *hi)),
                Saturation::Set => self.set[i] = Some((*lo, *hi)),
                // The total is carried exactly; a bound on it (given only
                // where [`chain_cap`] allows) stops exploding chains there.
                Saturation::Exact if *s == Stat::Total => self.chain_cap = Some(*hi),
                Saturation::Exact => {}
            }
        }
        self
    }

    /// This context over a pair of tuples (a push's first and final roll).
    pub fn doubled(&self) -> Ctx {
        Ctx {
            layout: self.layout.iter().chain(&self.layout).cloned().collect(),
            die_eps: self.die_eps,
            total: true,
            set: self.set.iter().chain(&self.set).copied().collect(),
            ops: self.ops.iter().chain(&self.ops).copied().collect(),
            chain_cap: self.chain_cap,
        }
    }

    /// The context of the slots `slots` alone (in that order), each
    /// with its statistic's rules and saturation.
    pub fn project(&self, slots: &[usize]) -> Ctx {
        Ctx {
            layout: slots.iter().map(|&i| self.layout[i].clone()).collect(),
            die_eps: self.die_eps,
            total: self.total,
            set: slots.iter().map(|&i| self.set[i]).collect(),
            ops: slots.iter().map(|&i| self.ops[i]).collect(),
            chain_cap: self.chain_cap,
        }
    }

    /// The neutral tuple (no dice, total 0), inline (no allocation).
    pub fn neutral(&self) -> Key {
        self.ops.iter().map(|op| op.neutral).collect()
    }

    /// The one state of the number `v`: its total `v` (0 where the total
    /// is not carried), every other statistic neutral.
    pub fn number(&self, v: i64) -> Key {
        let mut k = self.neutral();
        k[0] = if self.total { v } else { 0 };
        k
    }

    /// Slot `i`'s value `v` after combining, saturated where it may be.
    #[inline]
    pub fn merged(&self, i: usize, v: i64) -> i64 {
        clamp(self.ops[i].merge, v)
    }

    /// Slot `i`'s values `a` and `b` of two independent parts combined by
    /// its statistic's rule, saturated where it may be.
    #[inline]
    pub fn combined(&self, i: usize, a: i64, b: i64) -> i64 {
        let op = &self.ops[i];
        clamp(op.merge, op.combine.apply(a, b))
    }

    /// Slot `i`'s value `a` with one more die's contribution `c`: a
    /// kept-only slot's sum (the order-free combination keeps every die),
    /// any other slot combined by its rule.
    #[inline]
    pub fn added(&self, i: usize, a: i64, c: i64) -> i64 {
        if self.ops[i].kept_only {
            a.saturating_add(c)
        } else {
            self.combined(i, a, c)
        }
    }

    /// `m` copies of slot `i`'s value `v` combined (not saturated).
    #[inline]
    pub fn times(&self, i: usize, v: i64, m: i64) -> i64 {
        let op = &self.ops[i];
        op.combine.times(v, m, op.neutral)
    }

    /// Whether slot `i`'s statistic reads only the kept dice.
    #[inline]
    pub fn kept_only(&self, i: usize) -> bool {
        self.ops[i].kept_only
    }

    /// A named term's value `v` set in slot `i`, saturated where it may be.
    #[inline]
    pub fn named(&self, i: usize, v: i64) -> i64 {
        clamp(self.set[i], v)
    }

    /// Whether any slot saturates.
    pub fn saturates(&self) -> bool {
        self.ops.iter().any(|op| op.merge.is_some()) || self.set.iter().any(Option::is_some)
    }
}

/// `v` within `b`, the "no die yet" markers left as they are.
#[inline]
fn clamp(b: Option<(i64, i64)>, v: i64) -> i64 {
    match b {
        Some((lo, hi)) if v != NONE_LOW && v != NONE_HIGH => v.clamp(lo, hi),
        _ => v,
    }
}

/// Check a term's parameters (the parser reports the message with a caret).
pub fn check_term(t: &PoolTerm) -> std::result::Result<(), String> {
    if let DieFaces::Custom(v) = &t.faces {
        if v.is_empty() {
            return Err("a die lists at least one face".into());
        }
        if v.iter().any(|s| s.value.abs() > MAX_FACE) {
            return Err(format!("a face is at most {MAX_FACE} in magnitude"));
        }
    }
    for r in &t.scores {
        if r.score.value.abs() > MAX_FACE || r.score.units.iter().any(|(_, k)| k.abs() > MAX_FACE) {
            return Err(format!("a score is at most {MAX_FACE} in magnitude"));
        }
    }
    if t.reroll().is_none() && t.explosion().is_none() {
        return Ok(());
    }
    // Each side's face, read where needed (no list made).
    let faces = || t.faces.values();
    // `ro` rerolls once and keeps the second face, so it always stops.
    if let Some((cond, false)) = t.reroll() {
        if faces().all(|f| cond.holds(f)) {
            return Err(format!(
                "reroll {cond}: every face meets it, the die would never stop; allowed: a condition some face fails"
            ));
        }
    }
    if let Some((cond, _)) = t.explosion() {
        let top = faces().max().unwrap_or(0);
        let c = cond.unwrap_or(FaceCond::Cmp(Cmp::Eq, top));
        if faces().all(|f| c.holds(f)) {
            return Err(format!(
                "explode on {c}: every face meets it, the die would never stop; allowed: a condition some face fails"
            ));
        }
        if faces().nth(1).is_none() {
            return Err("a one-sided die cannot explode".into());
        }
    }
    Ok(())
}

/// Largest magnitude of a listed face or score.
pub const MAX_FACE: i64 = 1_000_000;

/// The statistics a condition reads that the engine must carry for this
/// expression; refuses statistics it cannot give, naming why.
pub fn check_stats(expr: &Node, stats: &[Stat]) -> Result<()> {
    let names = term_names(expr);
    let units = unit_names(expr);
    let program = stat::Program {
        names: &names,
        units: &units,
        single_pool: single_pool(expr),
    };
    stats.iter().try_for_each(|s| s.check(&program))
}

fn single_pool(expr: &Node) -> bool {
    let mut dice_terms = 0;
    let mut ok = true;
    visit(expr, &mut |n| match n {
        Node::Pool(t) => {
            dice_terms += 1;
            if matches!(t.explosion(), Some((_, false))) {
                ok = false;
            }
        }
        Node::Group(_) | Node::Chain(_) => ok = false,
        _ => {}
    });
    ok && dice_terms == 1
}

/// Visit every node (groups' items included).
pub fn visit<'a>(n: &'a Node, f: &mut dyn FnMut(&'a Node)) {
    f(n);
    match n {
        Node::Neg(b) | Node::Paren(b) => visit(b, f),
        Node::Bin(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        Node::Group(g) => {
            for it in &g.items {
                visit(it, f);
            }
        }
        _ => {}
    }
}

/// The names of the named terms, in order.
pub fn term_names(expr: &Node) -> Vec<&str> {
    let mut out = Vec::new();
    visit(expr, &mut |n| match n {
        Node::Pool(t) => out.extend(t.name.as_deref()),
        Node::Group(g) => out.extend(g.name.as_deref()),
        _ => {}
    });
    out
}

/// The named scores of the expression's faces.
pub fn unit_names(expr: &Node) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    visit(expr, &mut |n| {
        if let Node::Pool(t) = n {
            // Only listed faces carry named scores: a `dY` is not spelled
            // out side by side (a d1000000 would be a million sides).
            let listed: &[Score] = match &t.faces {
                DieFaces::Custom(v) => v,
                _ => &[],
            };
            let scores = listed.iter().chain(t.scores.iter().map(|r| &r.score));
            for s in scores {
                for (u, _) in &s.units {
                    if !out.contains(u) {
                        out.push(u.clone());
                    }
                }
            }
        }
    });
    out
}

/// Check names across the expression: unique, not clashing with scores.
pub fn check_names(expr: &Node) -> Result<()> {
    let names = term_names(expr);
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(Error::Conflict(format!(
                "dice: two terms are named '{n}'; names must differ"
            )));
        }
    }
    for u in unit_names(expr) {
        if names.contains(&u.as_str()) {
            return Err(Error::Conflict(format!(
                "dice: '{u}' names both a term and a score; names must differ"
            )));
        }
    }
    Ok(())
}

/// Whether the expression uses the engine's own constructs (a term that
/// is not plain, a group, a chained roll).
pub fn uses_engine(expr: &Node) -> bool {
    engine_beyond(expr, false)
}

/// [`uses_engine`] with the terms' names set aside (a name changes no
/// total: `3D10[normal]+2D10[hunger]` read by its total alone is the
/// plain sum, as [`crate::systems::dice::law::law`] computes it).
pub fn uses_engine_unnamed(expr: &Node) -> bool {
    engine_beyond(expr, true)
}

/// Whether a node of `expr` needs the engine, a name counted or not.
fn engine_beyond(expr: &Node, unnamed: bool) -> bool {
    let mut yes = false;
    visit(expr, &mut |n| {
        let plain = matches!(n, Node::Pool(t)
            if if unnamed { t.is_plain_but_for_name() } else { t.is_plain() });
        if !plain && matches!(n, Node::Pool(_) | Node::Group(_) | Node::Chain(_)) {
            yes = true;
        }
    });
    yes
}

/// Whether any die of the expression explodes.
pub fn explodes(expr: &Node) -> bool {
    let mut yes = false;
    visit(expr, &mut |n| {
        if let Node::Chain(c) = n {
            yes |= c.explodes();
        }
        if let Node::Pool(t) = n {
            if t.explosion().is_some() {
                yes = true;
            }
        }
    });
    yes
}

/// Number of dice rolled before any explosion.
pub fn dice_count(expr: &Node) -> i64 {
    let mut k = 0;
    visit(expr, &mut |n| {
        if let Node::Pool(t) = n {
            k += t.count;
        }
    });
    k
}

/// The joint law of `stats` (plus the total) for the expression.
pub fn law<W: Weight>(expr: &Node, stats: &[Stat], tail_eps: f64) -> Result<JointLaw<W>> {
    law_bounded(expr, stats, &[], tail_eps)
}

/// [`law`] with the statistics of `bounds` saturated (their values in the
/// cells are then only good for comparing with the thresholds they came
/// from).
pub fn law_bounded<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
) -> Result<JointLaw<W>> {
    joint_law(expr, stats, bounds, tail_eps, true)
}

/// The joint law of an expression's `stats`, the total carried or not:
/// its names and statistics checked, its context built and bounded, its
/// cells computed, and its tail taken from its dice's cuts.
fn joint_law<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    total: bool,
) -> Result<JointLaw<W>> {
    let ctx = roll_ctx::<W>(expr, stats, bounds, tail_eps, total)?;
    let cells = node_cells::<W>(expr, &ctx)?;
    let explodes = explodes(expr);
    let tail = if explodes {
        tail_of_cuts(expr, &ctx)?
    } else {
        None
    };
    Ok(finish_with(&ctx, cells, explodes, tail))
}

/// The context of a roll's law: its names and statistics checked, its
/// layout built from `stats` and saturated at `bounds`, each die's share
/// of `tail_eps`, and a roll whose named terms alone take too many states
/// refused ([`check_named_states`]).
fn roll_ctx<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
    total: bool,
) -> Result<Ctx> {
    check_names(expr)?;
    check_stats(expr, stats)?;
    let ctx = Ctx::new(
        layout(stats),
        tail_eps / dice_count(expr).max(1) as f64,
        total,
    )
    .bounded(bounds);
    check_named_states::<W>(expr, &ctx)?;
    fold::check_plans::<W>(expr, &ctx)?;
    Ok(ctx)
}

/// Refuse at once a roll whose named terms alone take too many states.
/// A named term's own slots (its value, its counts) read neutral in every
/// other term, and terms are independent, so every combination of the
/// values each named term's slots take is a state of the answer: the
/// product of those numbers is a lower bound on the states, known from
/// the terms' own laws before any are combined (30 named d6 read against
/// a threshold: 2³⁰, refused here where the combination grew to 2 million
/// states and a gigabyte first).
fn check_named_states<W: Weight>(expr: &Node, ctx: &Ctx) -> Result<()> {
    let mut terms: Vec<&PoolTerm> = Vec::new();
    visit_sum(expr, &mut |n| {
        if let Node::Pool(t) = n {
            if t.name.is_some() {
                terms.push(t);
            }
        }
    });
    // Fewer named terms than this stay far below the limit on their own
    // slots' values, and their laws are not computed twice.
    if terms.len() < 4 {
        return Ok(());
    }
    let mut states: u64 = 1;
    for t in terms {
        let name = t.name.as_deref();
        let own: Vec<usize> = ctx
            .layout
            .iter()
            .enumerate()
            .filter(|(_, s)| match s {
                Stat::Named(n) | Stat::Count(_, Some(n)) => Some(&**n) == name,
                _ => false,
            })
            .map(|(i, _)| i)
            .collect();
        if own.is_empty() {
            continue;
        }
        let law = fold::term_law::<W>(t, ctx)?;
        let mut seen: std::collections::HashSet<Vec<i64>> = Default::default();
        for (k, w) in &law {
            if !w.is_zero() {
                seen.insert(own.iter().map(|&i| k[i]).collect());
            }
        }
        states = states.saturating_mul(seen.len() as u64);
        if states > MAX_STATES as u64 {
            return Err(states_refused(
                Some(states),
                Some("the named terms' values and counts alone, by the terms read so far; compare their sum instead of each"),
            ));
        }
    }
    Ok(())
}

/// Visit the terms of a sum or difference at the top of an expression
/// (through parentheses and negation), the parts combined as independent.
fn visit_sum<'a>(n: &'a Node, f: &mut dyn FnMut(&'a Node)) {
    match n {
        Node::Bin(Op::Add | Op::Sub, a, b) => {
            visit_sum(a, f);
            visit_sum(b, f);
        }
        Node::Neg(b) | Node::Paren(b) => visit_sum(b, f),
        _ => f(n),
    }
}

/// The joint law of `stats` without the total, for a caller that reads
/// only them (a game's round: how many dice reached the critical value and
/// the highest die; a check whose tiers read counts, with the total's law
/// taken on its own). States that differ only in the total merge, which
/// for exploding pools is most of the work. The total's slot reads 0.
/// Where a statistic needs the total — a named term's value, a group's
/// items kept by their totals, `total` or `result` itself — it is carried
/// as in [`law`].
pub fn facts<W: Weight>(expr: &Node, stats: &[Stat], tail_eps: f64) -> Result<JointLaw<W>> {
    facts_bounded(expr, stats, &[], tail_eps)
}

/// Whether [`facts`] of `stats` carries the total after all (exactly, as
/// [`law`] does): a statistic needs it — a named term's value, a group's
/// items kept by their totals, `total` itself.
pub fn facts_carry_total(expr: &Node, stats: &[Stat]) -> bool {
    stats
        .iter()
        .any(|s| matches!(s, Stat::Total | Stat::Named(_)))
        || {
            let mut group = false;
            visit(expr, &mut |n| group |= matches!(n, Node::Group(_)));
            group
        }
}

/// [`facts`] with the statistics of `bounds` saturated (as [`law_bounded`]).
pub fn facts_bounded<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    bounds: &[Bound],
    tail_eps: f64,
) -> Result<JointLaw<W>> {
    if facts_carry_total(expr, stats) {
        return law_bounded(expr, stats, bounds, tail_eps);
    }
    joint_law(expr, stats, bounds, tail_eps, false)
}

/// The joint law of `stats` of pools of 0, 1, …, `n` dice like `die` (its
/// own count ignored), in one pass of [`fold::independent_steps`]; the
/// total is carried only if `stats` reads it. For statistics that combine
/// without order ([`fold::order_free`]) and dice with no keep/drop: a
/// game's rounds of fewer and fewer dice (Double Cross), a pool whose size
/// is rolled.
pub fn facts_by_size<W: Weight>(
    die: &PoolTerm,
    stats: &[Stat],
    n: i64,
    tail_eps: f64,
) -> Result<Vec<JointLaw<W>>> {
    let total = stats
        .iter()
        .any(|s| matches!(s, Stat::Total | Stat::Named(_)));
    let ctx = Ctx::new(layout(stats), tail_eps / n.max(1) as f64, total);
    if die.filter.is_some() || !fold::order_free(&ctx.layout) {
        return Err(Error::Conflict(
            "dice: pools by size take statistics that combine without order and no keep/drop"
                .into(),
        ));
    }
    if let Err(e) = check_term(die) {
        return Err(Error::Conflict(format!("dice: {e}")));
    }
    let law = fold::ctx_die_law::<W>(die, &ctx)?;
    let explodes = die.explosion().is_some();
    let (_, cut) = die::chain_cut::<W>(die, ctx.die_eps)?;
    // The planner's order-free combination, every size on the way to `n`.
    let mut sized = die.clone();
    sized.count = n;
    let plan = plan::Plan {
        algorithm: plan::Algorithm::OrderFree,
        estimate: plan::estimate(plan::Algorithm::OrderFree, &sized, &law, &ctx),
    };
    plan.check(n)?;
    let mut out = Vec::with_capacity(n.max(0) as usize + 1);
    plan::traced(
        || format!("{sized}, every pool size to {n}"),
        n,
        &plan,
        || {
            fold::independent_steps(&fold::contributions(&law), &ctx, n, |k, m| {
                // k dice's tail from one die's cut.
                let tail = explodes.then(|| tail_of_parts(&[(k, cut.clone())]));
                let m: Map<W> = m.iter().map(|(k, w)| (Key::from(k), w.clone())).collect();
                out.push(finish_with(&ctx, m, explodes, tail));
            })
        },
    )?;
    Ok(out)
}

/// The mass a roll's exploding chains cut, from its dice's cuts
/// ([`die::chain_cut`]) rather than `1 − mass`: the mass kept is the
/// product of every die's, so the tail is `1 − Π (1 − cᵢ)^{nᵢ}` over the
/// terms ([`tail_of_parts`]). `None` for a roll with a chained part, whose
/// mass is not that product.
fn tail_of_cuts<W: Weight>(expr: &Node, ctx: &Ctx) -> Result<Option<W>> {
    let mut parts: Result<Option<Vec<(i64, W)>>> = Ok(Some(Vec::new()));
    visit(expr, &mut |n| {
        let Ok(Some(list)) = &mut parts else {
            return;
        };
        match n {
            Node::Pool(t) if t.explosion().is_some() => {
                match die::chain_cut_at::<W>(t, ctx.die_eps, ctx.chain_cap) {
                    Ok((_, cut, _)) => list.push((t.count, cut)),
                    Err(e) => parts = Err(e),
                }
            }
            Node::Chain(_) => parts = Ok(None),
            _ => {}
        }
    });
    Ok(parts?.map(|p| tail_of_parts(&p)))
}

/// `1 − Π (1 − cᵢ)^{nᵢ}`: the mass cut from `nᵢ` dice each cutting `cᵢ`.
/// Exact weights multiply out (the same value as `1 − mass`, without adding
/// up every cell, each addition of long fractions a gcd); floating point
/// takes `−expm1(Σ nᵢ·ln1p(−cᵢ))`, where `1 − mass` rounds a tail of 1e-16
/// to a multiple of 2⁻⁵³.
pub fn tail_of_parts<W: Weight>(parts: &[(i64, W)]) -> W {
    if W::EXACT {
        let kept = parts.iter().fold(W::one(), |acc, (n, c)| {
            acc * &(W::one() - c).powi(n.max(&0).unsigned_abs() as u32)
        });
        W::one() - kept
    } else {
        let log_kept: f64 = parts
            .iter()
            .map(|(n, c)| (*n).max(0) as f64 * (-c.to_f64()).ln_1p())
            .sum();
        W::from_f64(-log_kept.exp_m1())
    }
}

/// Sort a law's cells, decode the statistics and measure the cut tail
/// (`1 − mass`).
pub fn finish<W: Weight>(
    ctx: &Ctx,
    cells: impl IntoIterator<Item = (Key, W)>,
    explodes: bool,
) -> JointLaw<W> {
    finish_with(ctx, cells, explodes, None)
}

/// [`finish`] with the cut tail given when it is known from the dice's
/// cuts ([`tail_of_parts`]); `None`: `1 − mass`.
fn finish_with<W: Weight>(
    ctx: &Ctx,
    cells: impl IntoIterator<Item = (Key, W)>,
    explodes: bool,
    tail: Option<W>,
) -> JointLaw<W> {
    let decode = decoded_slots(ctx);
    // In place: a vector of cells (the usual case) is neither moved nor
    // copied where no weight is zero and nothing is decoded.
    let mut cells: Vec<(Key, W)> = cells.into_iter().collect();
    cells.retain(|(_, w)| !w.is_zero());
    if !decode.is_empty() {
        for (k, _) in cells.iter_mut() {
            for &i in &decode {
                k[i] = ctx.layout[i].finish(k[i]);
            }
        }
    }
    sort_cells(&mut cells);
    if !decode.is_empty() {
        // Tuples that decoding made equal, merged in place.
        merge_runs(&mut cells);
    }
    let tail = match (explodes, tail) {
        (false, _) => W::zero(),
        (true, Some(t)) => t,
        (true, None) => cut_tail(&cells.iter().fold(W::zero(), |a, (_, w)| a + w)),
    };
    JointLaw {
        layout: ctx.layout.clone(),
        cells,
        tail,
        explodes,
    }
}

/// The slots carried in an encoding that a condition does not read as
/// it is (the maxima, minima, the widest set's height, all alike:
/// [`Stat::finish`] undoes it); every other slot reads as carried.
fn decoded_slots(ctx: &Ctx) -> Vec<usize> {
    (0..ctx.layout.len())
        .filter(|&i| {
            matches!(
                ctx.layout[i],
                Stat::Max | Stat::Min | Stat::Height | Stat::AllEqual
            )
        })
        .collect()
}

/// The mass exploding chains cut, from the mass `kept`: `1 − kept`, never
/// below 0 (rounding can take the kept mass a little past 1).
fn cut_tail<W: Weight>(kept: &W) -> W {
    let t = W::one() - kept;
    if t.to_f64() < 0.0 {
        W::zero()
    } else {
        t
    }
}

/// Sort cells by their tuples. Where every tuple fits one `u64`
/// ([`steps::Packing`]: each slot offset by its least value, the first slot
/// most significant, which keeps the tuples' order), the codes are sorted with their
/// positions, ties (tuples that decoding made equal) in map order as a
/// stable sort leaves them; else the tuples themselves, stably.
fn sort_cells<W>(cells: &mut [(Key, W)]) {
    // Cells that come in order (a dense array's, read in its codes'
    // order) stay as they are.
    if cells.windows(2).all(|w| w[0].0 < w[1].0) {
        return;
    }
    // Few cells: compared as tuples (a stable sort, as the radix sort
    // is), where their bounds, packing and permutation cost more.
    if cells.len() <= steps::FEW_PAIRS {
        cells.sort_by(|a, b| a.0.cmp(&b.0));
        return;
    }
    let Some(first) = cells.first() else {
        return;
    };
    let len = first.0.len();
    let mut bounds = steps::Bounds::new(len);
    for (k, _) in cells.iter() {
        if k.len() != len {
            cells.sort_by(|a, b| a.0.cmp(&b.0));
            return;
        }
        bounds.see(k);
    }
    let Some(packing) = steps::Packing::new(&bounds) else {
        cells.sort_by(|a, b| a.0.cmp(&b.0));
        return;
    };
    let mut packed: Vec<(u64, u32)> = cells
        .iter()
        .enumerate()
        .map(|(at, (k, _))| (packing.code(k), at as u32))
        .collect();
    let bits = packing.bits();
    radix_sort(&mut packed, bits);
    // Put each cell in its place by following the permutation's cycles.
    const DONE: u32 = u32::MAX;
    let mut from: Vec<u32> = packed.into_iter().map(|(_, at)| at).collect();
    for i in 0..from.len() {
        if from[i] == DONE {
            continue;
        }
        let mut at = i;
        loop {
            let next = from[at] as usize;
            from[at] = DONE;
            if next == i {
                break;
            }
            cells.swap(at, next);
            at = next;
        }
    }
}

/// Sort `(code, position)` pairs by code, ties by position (as they
/// come: the positions ascend), for codes below `2^bits`: a least
/// significant digit radix sort, 11 bits a pass, where there are many
/// (a comparison sort where there are few).
pub(super) fn radix_sort(v: &mut Vec<(u64, u32)>, bits: u32) {
    const DIGIT: u32 = 11;
    if v.len() < 1 << 10 {
        v.sort_unstable();
        return;
    }
    let mut buf = vec![(0u64, 0u32); v.len()];
    let mut shift = 0;
    while shift < bits {
        let mut at = vec![0usize; (1 << DIGIT) + 1];
        for (c, _) in v.iter() {
            at[((c >> shift) & ((1 << DIGIT) - 1)) as usize + 1] += 1;
        }
        for d in 1..at.len() {
            at[d] += at[d - 1];
        }
        for x in v.iter() {
            let d = ((x.0 >> shift) & ((1 << DIGIT) - 1)) as usize;
            buf[at[d]] = *x;
            at[d] += 1;
        }
        std::mem::swap(v, &mut buf);
        shift += DIGIT;
    }
}

/// Count `steps` more state steps of one roll's law into `work` (and the
/// planner's measure), refusing the roll past [`MAX_WORK`].
pub(crate) fn spend(work: &mut u64, steps: u64) -> Result<()> {
    *work = work.saturating_add(steps);
    plan::count(steps);
    if *work > MAX_WORK {
        return Err(Error::Conflict(format!(
            "dice: the law of this roll takes more than {MAX_WORK} steps; read fewer statistics or roll fewer dice"
        )));
    }
    Ok(())
}

/// Refuse `map` as soon as it passes [`MAX_STATES`]: the steps of the
/// fold, the group product, the order-free combination, the class fold
/// and the best-item pass check it while they fill their map (once per
/// state carried over), so a step that would grow the states far past the
/// limit stops at it, where a check after the step let
/// `{3D10!,3D8!,3D6!}KH3` build 17 million states in 28 s and
/// `{5D10!,5D8!,5D6!}KH3` 92 million in 205 s first.
#[inline]
pub(crate) fn check_states<W>(map: &Map<W>) -> Result<()> {
    check_count(map.len())
}

/// Refuse a step of `states` states past [`MAX_STATES`] (as
/// [`check_states`]).
#[inline]
pub(crate) fn check_count(states: usize) -> Result<()> {
    if states > MAX_STATES {
        return Err(states_refused(None, None));
    }
    Ok(())
}

fn too_many(states: usize) -> Error {
    states_refused(Some(states as u64), None)
}

/// The one refusal of a law past [`MAX_STATES`] states, whichever step
/// finds it: `at_least` the states it has or must have, where known, and
/// `why` how that is known before any work (the vectors of a term's
/// counts, the named terms' values).
pub(crate) fn states_refused(at_least: Option<u64>, why: Option<&str>) -> Error {
    let known = match (at_least, why) {
        (Some(n), Some(why)) => format!(" (at least {n}: {why})"),
        (Some(n), None) => format!(" (at least {n})"),
        (None, Some(why)) => format!(" ({why})"),
        (None, None) => String::new(),
    };
    Error::Conflict(format!(
        "dice: the statistics the conditions read take more than {MAX_STATES} states{known}; read fewer statistics (each count, name or score multiplies the states) or roll fewer dice"
    ))
}

/// The law of a node as a map of raw (undecoded) tuples.
pub fn node_law<W: Weight>(n: &Node, ctx: &Ctx) -> Result<Map<W>> {
    Ok(match n {
        Node::Num(v) => {
            let mut m = Map::default();
            m.insert(ctx.number(*v), W::one());
            m
        }
        Node::Pool(t) => fold::term_law(t, ctx)?,
        Node::Group(g) => fold::group_law(g, ctx)?,
        Node::Chain(c) => super::chained::node_law(c, ctx)?,
        Node::Neg(b) => node_law::<W>(b, ctx)?
            .into_iter()
            .map(|(mut k, w)| {
                k[0] = -k[0];
                (k, w)
            })
            .collect(),
        Node::Paren(b) => node_law(b, ctx)?,
        Node::Bin(op, a, b) => {
            if let Some(m) = with_number::<W>(*op, a, b, ctx)? {
                return Ok(m);
            }
            planned_pair::<W>(n, *op, a, b, ctx)?.into_iter().collect()
        }
    })
}

/// `n` = `a op b`, neither a number: both parts' laws, then their
/// combination as the planner chooses and checks it.
fn planned_pair<W: Weight>(
    n: &Node,
    op: Op,
    a: &Node,
    b: &Node,
    ctx: &Ctx,
) -> Result<Vec<(Key, W)>> {
    // Each part as cells in their tuples' order (most come so from their
    // algorithm, and the sort then only checks), where each part was a map
    // sorted again here.
    let part = |x: &Node| -> Result<Vec<(Key, W)>> {
        let mut cells = node_cells::<W>(x, ctx)?;
        sort_cells(&mut cells);
        Ok(cells)
    };
    combine::check_floor::<W>(n, a, b, ctx)?;
    let (la, lb) = (part(a)?, part(b)?);
    check_pair_span(op, &la, &lb, ctx)?;
    combine::planned_sorted(n, op, &cell_refs(&la), &cell_refs(&lb), ctx)
}

/// Refuse before any pair is made a sum, difference or product of two
/// parts whose totals would span more values than a law holds
/// ([`crate::systems::dice::law::MAX_SPAN`]), as the law refuses the same
/// roll unnamed: the extremes of `a op b` are those of the parts' extreme
/// totals, so the span is known from them. `65536*10D1000!*6D6+(99)` (the
/// number in brackets takes it to the pool engine) combined 2 million
/// pairs for a second before its total was refused; now at once.
fn check_pair_span<W: Weight>(op: Op, a: &[(Key, W)], b: &[(Key, W)], ctx: &Ctx) -> Result<()> {
    if !ctx.total || !matches!(op, Op::Add | Op::Sub | Op::Mul) {
        return Ok(());
    }
    let range = |cells: &[(Key, W)]| {
        let held = || {
            cells
                .iter()
                .filter(|(_, w)| !w.is_zero())
                .map(|(k, _)| i128::from(k[0]))
        };
        Some((held().min()?, held().max()?))
    };
    match (range(a), range(b)) {
        (Some(ra), Some(rb)) => crate::systems::dice::law::check_op_span(op, ra, rb),
        _ => Ok(()),
    }
}

/// Cells as the pairs of slices a combination reads.
pub(crate) fn cell_refs<W>(cells: &[(Key, W)]) -> Vec<(&[i64], &W)> {
    cells.iter().map(|(k, w)| (&k[..], w)).collect()
}

/// `a op b` with one side a number (`X+2`, `10-X`): the other side, the
/// number's one state ([`Ctx::number`]) and which side it stands on.
struct Beside<'a> {
    x: &'a Node,
    num: Key,
    left: bool,
}

impl<'a> Beside<'a> {
    /// `None` for two numbers, or for no number.
    fn of(a: &'a Node, b: &'a Node, ctx: &Ctx) -> Option<Self> {
        let (x, v, left) = match (a, b) {
            (Node::Num(_), Node::Num(_)) => return None,
            (x, Node::Num(v)) => (x, *v, false),
            (Node::Num(v), x) => (x, *v, true),
            _ => return None,
        };
        Some(Beside {
            x,
            num: ctx.number(v),
            left,
        })
    }

    /// The tuple of the other side's tuple `k` joined with the number by
    /// `op`, on its side ([`combine::pair_key`]), written into `key`.
    fn pair(&self, ctx: &Ctx, op: Op, k: &[i64], key: &mut [i64]) -> Result<()> {
        number_pair(ctx, op, &self.num, self.left, k, key)
    }
}

/// The tuple `k` joined by `op` with a number's one state `num` (the
/// number on the left where `left`), written into `key`.
fn number_pair(
    ctx: &Ctx,
    op: Op,
    num: &[i64],
    left: bool,
    k: &[i64],
    key: &mut [i64],
) -> Result<()> {
    if left {
        combine::pair_key(ctx, op, num, k, key)
    } else {
        combine::pair_key(ctx, op, k, num, key)
    }
}

/// The total of the tuple `k` joined with a number as [`number_pair`]
/// joins them, where that is all the number moves; `None` where another
/// statistic moves too, and the cells must be combined instead.
fn moved_total(
    ctx: &Ctx,
    op: Op,
    num: &[i64],
    left: bool,
    k: &[i64],
    key: &mut [i64],
) -> Result<Option<i64>> {
    number_pair(ctx, op, num, left, k, key)?;
    // Slot by slot (a slice comparison calls `memcmp` for a few words).
    Ok((!key[1..].iter().zip(&k[1..]).any(|(x, y)| x != y)).then_some(key[0]))
}

/// A law and a number (`X+2`, `10-X`) combined with the same tuples and
/// weights as [`combine`] makes of the law and the number's one state, but
/// each state moved straight into the answer, where [`combine`] sorted
/// both sides first to fix the order of sums: every weight is a single
/// product, so no order of sums arises, unless two states meet (a
/// statistic saturating, the arithmetic folding values together), where
/// [`combine`] takes over. `None` unless one side is a number.
fn with_number<W: Weight>(op: Op, a: &Node, b: &Node, ctx: &Ctx) -> Result<Option<Map<W>>> {
    let Some(side) = Beside::of(a, b, ctx) else {
        return Ok(None);
    };
    let law = node_law::<W>(side.x, ctx)?;
    let one = W::one();
    let mut out: Map<W> = Map::with_capacity_and_hasher(law.len(), Default::default());
    let mut key = vec![0i64; ctx.layout.len()];
    for (k, w) in &law {
        side.pair(ctx, op, k, &mut key)?;
        match out.entry(Key::from(&key[..])) {
            std::collections::hash_map::Entry::Occupied(_) => {
                // Two states meet: the sums' order matters, as combine fixes it.
                let mut m: Map<W> = Map::default();
                m.insert(side.num, W::one());
                return Ok(Some(if side.left {
                    combine(op, &m, &law, ctx)?
                } else {
                    combine(op, &law, &m, ctx)?
                }));
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(w.clone() * &one);
            }
        }
    }
    Ok(Some(out))
}

/// [`node_law`] as distinct cells, for the roll as a whole: a single
/// term takes its cells straight from its algorithm
/// ([`fold::term_cells`]), with no map between.
pub fn node_cells<W: Weight>(n: &Node, ctx: &Ctx) -> Result<Vec<(Key, W)>> {
    match n {
        Node::Pool(t) => fold::term_cells(t, ctx),
        Node::Group(g) => fold::group_cells(g, ctx),
        Node::Paren(b) => node_cells(b, ctx),
        Node::Bin(op, a, b) if !matches!((&**a, &**b), (Node::Num(_), _) | (_, Node::Num(_))) => {
            planned_pair(n, *op, a, b, ctx)
        }
        Node::Bin(op, a, b) => match shifted_cells(*op, a, b, ctx)? {
            Some(cells) => Ok(cells),
            None => Ok(node_law::<W>(n, ctx)?.into_iter().collect()),
        },
        _ => Ok(node_law::<W>(n, ctx)?.into_iter().collect()),
    }
}

/// A law's cells moved by a number added or subtracted (`X+2`, `10-X`),
/// in place: the total moves one to one, so no two cells meet and no map
/// is needed (the same tuples and weights as [`with_number`]). `None`
/// where that does not hold: another operator, two numbers, or a
/// statistic the number's neutral tuple would change.
fn shifted_cells<W: Weight>(
    op: Op,
    a: &Node,
    b: &Node,
    ctx: &Ctx,
) -> Result<Option<Vec<(Key, W)>>> {
    let Some(side) = Beside::of(a, b, ctx) else {
        return Ok(None);
    };
    if !matches!(op, Op::Add | Op::Sub) {
        return Ok(None);
    }
    let mut cells = node_cells::<W>(side.x, ctx)?;
    let mut key = vec![0i64; ctx.layout.len()];
    for (k, _) in cells.iter_mut() {
        match moved_total(ctx, op, &side.num, side.left, k, &mut key)? {
            Some(total) => k[0] = total,
            None => return Ok(None),
        }
    }
    Ok(Some(cells))
}

/// A map's entries in key order (its keys are distinct, so an unstable
/// sort gives the one order).
pub fn sorted<W>(m: &Map<W>) -> Vec<(&[i64], &W)> {
    let mut v: Vec<(&[i64], &W)> = m.iter().map(|(k, w)| (&k[..], w)).collect();
    v.sort_unstable_by(|a, b| a.0.cmp(b.0));
    v
}
