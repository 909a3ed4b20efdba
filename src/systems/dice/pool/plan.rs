//! The planner (計画): the one place an algorithm is chosen for a term's
//! or a group's law, with its work estimated before any is done.
//!
//! polars' split, for dice: the program says *what* is rolled and read
//! (the terms, the statistics of [`super::Ctx`], saturated where the
//! conditions allow — [`super::bounds`]); the planner says *how*. It asks
//! the statistics what they need (the [`super::Statistic`] trait: do they
//! combine without order? read only the kept dice? where do they
//! saturate? how many values can they take?) and
//! picks, from the algorithms that can answer, the one that does the least
//! work:
//!
//! | algorithm | when | work |
//! |---|---|---|
//! | [`Algorithm::PowerSum`] | a sum read by its total (explosions included; a filter keeping every die, `1D20KH1`, is a sum) | the convolution power: `values²·log n`, or Miller's recurrence exactly |
//! | [`Algorithm::KeepDp`] | keep/drop read by its total | order statistics: `faces·n·span` |
//! | [`Algorithm::Extreme`] | the highest or lowest die read alone (xU's largest group, `max` without the total), or one die kept of several read by its total (`2D20KH1`, alone or beside a named term: one choice for both spellings; the seed systems' d20 advantage and keep-highest pools) | one die's distribution function to the power `n`: `values·log n` |
//! | [`Algorithm::OrderFree`] | statistics that combine without order, no keep/drop; and one die wherever the power sum and the extreme do not apply (its outcomes met once, the name set as they are written) | states × distinct contributions, per die; one die: its outcomes |
//! | [`Algorithm::ClassFold`] | many dice whose outcomes differ, for every statistic but the total, in few classes (n d6 read by total, sixes and ones) | states of the classes before the last × the last class's span; the last class adds into dense rows |
//! | [`Algorithm::Fold`] | anything (keep/drop with counts, matching sets) | outcomes × states × dice |
//! | [`Algorithm::GroupBest`] | a group keeping one item (`{…}KH1`, `{…}KL1`) | items × tuples of the other statistics × classes × values |
//! | [`Algorithm::GroupProduct`] | a group, item by item, carrying the best `k` totals (Savage Worlds' two named chains, Cortex's mixed dice) | items × states × outcomes, the states capped by the best-`k` multisets (an upper bound: per state, the outcomes that cannot enter its best `k` meet it as one pair per class of what else they change) |
//! | [`Algorithm::PushDieByDie`] | a push of dice with no keep/drop whose statistics combine without order | pairs of tuples (each roll's states over the slots the push carries) × the die's pairs, per die |
//! | [`Algorithm::PushSplit`] | any other push | for each number of dice rerolled, the fold of the dice that stay, those rerolled and their fresh faces |
//! | [`Algorithm::HitsBinomial`] | d6 counted for hits and a glitch score, none exploding (hit-pool, seed 004: `nD6{1:g,2..4:-g,>=5:1-g}`, plain or second chance) | the hits' binomial and the ones' tails: `3(n+1)` |
//! | [`Algorithm::HitsHittingTime`] | those dice, every six exploding, every die counted (Edge `push`) | sixes × fives up to the cap on hits: `2(H+1)(n+1)` |
//! | [`Algorithm::HitsJoint`] | any other layout of them (Edge dice added after the roll, `bcdice`) | the joint table of hits and score, a dozen passes per exploding die |
//! | [`Algorithm::RoundChain`] | a roll repeated while a condition holds (振り足し: Sword World's power table, Double Cross, Night Wizard) | per round, state and branch the span of the sum so far × the round's span ([`super::chain::cost`]) |
//! | [`Algorithm::Combine`] | two independent parts of an expression (`1D12[hope]+1D12[fear]`), once both parts' laws are known, the answer's tuples packed in one `u64` | the pairs of their states, exactly ([`combine_plan`]) |
//! | [`Algorithm::CombineTuples`] | the same where the tuples do not fit one `u64` | the pairs of their states |
//! | [`Algorithm::Product`] | a check's tiers and total over a sum of independent parts whose combinations are few and nearly all distinct (`1D6[action]+1D10[c1]+1D10[c2]`: named terms), where the joint law would merge nothing ([`product`]) | the combinations, exactly: the product of the parts' states |
//! | [`Algorithm::Accumulate`] | rolls accumulated towards a threshold (`--until`: extended tests, rounds to defeat, races), over any roll's law | rounds × accumulated values below the threshold × the roll's distinct increments ([`crate::rounds::budget`]) |
//!
//! A push ([`super::push`]) is planned the same way ([`push`]), a plain
//! term read by its total by [`plain`], hit-pool's dice by [`hits`], and
//! `hantei odds … --explain` lists every choice with its estimate and the
//! steps it then took ([`explain`]).
//!
//! Every algorithm is held equal to the fold by tests (exactly, in
//! rationals: `tests/pool.rs`, `every_algorithm_equals_the_fold`; the
//! hit-pool algorithms to the engine on `nD6{1:g,2..4:-g,>=5:1-g}` in
//! `tests/unit/systems/hit_pool.rs`, and to enumeration there), and the
//! fold to the enumeration of the plain rule. The steps each algorithm
//! counts are held within its estimate (`tests/pool.rs`,
//! `tests/planner_props.rs`; hit-pool's and the chains' in their unit
//! tests).
//!
//! **Where things go**: a new algorithm is a variant here, its test of
//! applicability in [`applies`], its estimate in [`estimate`], its run in
//! `run` in `fold.rs`.

use super::die::DieLaw;
use super::fold::{order_free, Kind};
use super::stat::Span;
use super::{Ctx, Key, Stat};
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
    /// The highest (lowest) die read alone, no keep/drop: `P(max ≤ v) =
    /// F(v)ⁿ` (`P(min ≥ v) = S(v)ⁿ`) over one die's contributions
    /// ([`super::fold`]'s `extreme_law`).
    Extreme,
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
    /// A push, die by die: one die's pair law (a face that stays on both
    /// rolls, or a rerolled face and a fresh one) combined `n` times
    /// ([`super::push`]).
    PushDieByDie,
    /// A push by the number of dice rerolled: for each, the fold of the
    /// dice that stay, those rerolled and their fresh faces
    /// ([`super::push`]).
    PushSplit,
    /// d6 counted for hits (5–6) and a glitch score (+1 a one, −1 any
    /// other face: `nD6{1:g,2..4:-g,>=5:1-g}`), no die exploding (hit-pool,
    /// seed 004, plain or second chance): hits `Bin(n, p)` and, given `h`
    /// hits, the ones `Bin(n − h, q)` read only against the glitch
    /// threshold, both tails by one recurrence
    /// ([`crate::systems::hit_pool`]).
    HitsBinomial,
    /// The same dice, every six exploding and every die rolled counted
    /// (Edge `push`, `all-dice` or `original-pool`): exactly `n` dice are
    /// not sixes, the sixes by the hitting-time theorem.
    HitsHittingTime,
    /// Any other layout of those dice (Edge dice added after the roll, the
    /// `bcdice` convention): the dense joint law of hits and glitch score,
    /// die by die, each die's chain of sixes summed by a geometric
    /// recurrence.
    HitsJoint,
    /// A chain of rounds (振り足し: a roll repeated while a condition
    /// holds, each round's law by its round and a small state — Sword
    /// World's power table, Double Cross's criticals): per state the law
    /// of the sum so far, convolved with each round's branches
    /// ([`super::chain`]).
    RoundChain,
    /// Two independent parts of an expression combined, every pair of
    /// their states (`1D12[hope]+1D12[fear]`, `60D10[a]+60D10[b]`), on
    /// packed tuples ([`mod@super::combine`]).
    Combine,
    /// The same, tuple by tuple, where the answer's tuples do not fit one
    /// `u64`.
    CombineTuples,
    /// Rolls accumulated towards a threshold (`--until`: extended tests,
    /// rounds to defeat, races; 達成値の累積): a dynamic programme over the
    /// accumulated value, one convolution with the roll's law per round
    /// ([`crate::rounds`]).
    Accumulate,
    /// A sum of independent parts read straight by its tiers: every
    /// combination of one state from each part joined, judged and added
    /// to its tier and to the total's law, no joint law built
    /// ([`super::product`]).
    Product,
}

impl Algorithm {
    /// Every algorithm for a term, cheapest first where several apply.
    pub const TERM: [Algorithm; 6] = [
        Algorithm::PowerSum,
        Algorithm::KeepDp,
        Algorithm::Extreme,
        Algorithm::OrderFree,
        Algorithm::ClassFold,
        Algorithm::Fold,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::PowerSum => "power sum",
            Algorithm::KeepDp => "keep/drop order statistics",
            Algorithm::Extreme => "extreme by a power of the distribution function",
            Algorithm::OrderFree => "order-free combination",
            Algorithm::ClassFold => "class fold",
            Algorithm::Fold => "fold",
            Algorithm::GroupProduct => "group product",
            Algorithm::GroupBest => "best of a group",
            Algorithm::PushDieByDie => "push, die by die",
            Algorithm::PushSplit => "push, by the dice rerolled",
            Algorithm::HitsBinomial => "hits and glitch by binomial tails",
            Algorithm::HitsHittingTime => "exploding hits by the hitting-time theorem",
            Algorithm::HitsJoint => "joint hits and glitch score, die by die",
            Algorithm::RoundChain => "chain of rounds",
            Algorithm::Combine => "combination of two parts",
            Algorithm::CombineTuples => "combination of two parts, tuple by tuple",
            Algorithm::Accumulate => "rounds accumulated towards the threshold",
            Algorithm::Product => "parts' product read by the tiers",
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

/// Estimates of the fold beyond this many state steps are refused before
/// any work. A fold's step (a state, a count of dice showing a face: its
/// key built slot by slot, its binomial weight, one insert) takes 25–110
/// ns, where the other algorithms' take 1–3, and its steps run to 10–41 %
/// of its estimate (measured on width/height, keep/drop with counts and
/// groups): past this, a fold could run for more than the 10 s the
/// planner promises (`300D10` read by width and height: 164 million
/// steps, 18 s, under [`super::MAX_WORK`]).
pub const MAX_FOLD_ESTIMATE: u64 = 250_000_000;

/// Estimates of a group's product of items beyond this many state steps
/// are refused before any work: a step (a state met by an item's outcome,
/// its best totals re-sorted, one insert into a map of up to hundreds of
/// thousands of tuples) takes up to 320 ns, and the steps run to about
/// half the estimate (`{10D6,10D8,10D10,10D12}KH3`: 27 million estimated,
/// 12 million taken, 3.9 s; `{15D6,15D8,15D10,15D12}KH3` answered after
/// 19 s and `{20D6,20D8,20D10,20D12}KH3` after 57 s).
pub const MAX_PRODUCT_ESTIMATE: u64 = 60_000_000;

/// Estimates of a push split by the dice rerolled beyond this many state
/// steps are refused before any work: its steps take 150–260 ns (pairs of
/// tuples, first roll and final) and run to 1–2 % of its estimate, so
/// `18D10` read by width and pushed on its failures answered after 26 s
/// (estimate 8.1 billion, 93 million steps) where `14D10` takes 3.9 s
/// (1.9 billion).
pub const MAX_PUSH_SPLIT_ESTIMATE: u64 = 3_000_000_000;

/// Estimates of the class fold beyond this many state steps are refused
/// before any work. Its steps range from 1–2 ns (a class's powers, a few
/// states meeting long rows of totals) to 150–800 ns (a million states
/// of counts, each step an insert into a map that large), and run to 0.5–
/// 100 % of the estimate: 80 d6 read by four counts compared with each
/// other take 3.6 s at 46 million estimated, and `200D6!` read by its
/// sixes and ones past 100 ran for 14 s at 17 billion, under
/// [`MAX_ESTIMATE`].
pub const MAX_CLASS_ESTIMATE: u64 = 120_000_000;

/// Estimates of the order-free combination beyond this many state steps
/// are refused before any work: its steps (a state met by one die's
/// distinct contribution, one insert) take 20–660 ns where the states
/// are many or their tuples long, and run to 1–50 % of the estimate, up
/// to 58 ns of work per step estimated (8 d20 read by eight counts and
/// the total: 17.8 million estimated, 1.1 s); `20D6!` read by sixes
/// against ones, the highest die and the total ran for 29 s at 20 billion.
pub const MAX_ORDER_FREE_ESTIMATE: u64 = 150_000_000;

/// Estimates of a push die by die beyond this many state steps are
/// refused before any work: its steps (a pair of tuples, first roll and
/// final, met by a die's pairs) take 60–600 ns and run to 4–18 % of the
/// estimate, 11–27 ns of work per step estimated (`20D6` read by its
/// sixes and ones against twos, pushed on its failures: 416 million
/// estimated, 13.9 s; `1000D6` pushed for 30 sixes ran 29 s before the
/// work limit stopped it).
pub const MAX_PUSH_DIE_ESTIMATE: u64 = 350_000_000;

/// Most estimated steps × dice of a push in exact fractions (`--exact`),
/// where a step adds and multiplies fractions whose denominators grow with
/// the dice: `4D100r1` pushed on 2..5 read exactly took 21 million steps
/// (67 million estimated) in 35 s, and `6D100r1` ran past 40 s
/// (benches/fuzz/inputs.py, seed 7). Measured from 3 to 16 dice
/// (`3D70` … `16D8`), a push takes about 0.1 µs per estimated step and
/// die, so this is about five seconds.
pub const MAX_EXACT_PUSH_WORK: u64 = 50_000_000;

/// Combinations of two parts on packed tuples beyond this many pairs of
/// states are refused before any pair meets: a pair (a few table lookups,
/// one add into a dense array or a map of `u64`) takes 15–100 ns, so past
/// this a combination could run past the 10 s the planner promises.
pub const MAX_COMBINE_ESTIMATE: u64 = 80_000_000;

/// Combinations of two totals alone, added or subtracted, into a dense
/// array (a plain sum of parts the engine builds: `100D1000ri1+3D1000`):
/// a pair is one add of codes and one multiply-add, measured at 2.1 ns
/// (`26D1000ri1+3D1000`: 77.9 million pairs in 162 ms), so this many take
/// about 5 s; past it they are refused before any pair meets.
pub const MAX_SUM_COMBINE_ESTIMATE: u64 = 2_000_000_000;

/// The same, tuple by tuple (tuples that do not fit one `u64`): a pair's
/// tuple is built slot by slot and inserted into a map of tuples, up to
/// 2.5 µs a state as the map grows towards [`super::MAX_STATES`].
pub const MAX_COMBINE_TUPLES_ESTIMATE: u64 = 10_000_000;

/// The plan of combining two parts whose laws have `a` and `b` states,
/// on packed tuples where the answer's tuples fit one `u64` (`packs`):
/// every pair meets once, so the estimate is the work exactly.
pub fn combine_plan(a: usize, b: usize, packs: bool) -> Plan {
    Plan {
        algorithm: if packs {
            Algorithm::Combine
        } else {
            Algorithm::CombineTuples
        },
        estimate: (a as u64).saturating_mul(b as u64),
    }
}

/// The planner's choice for a check's tiers over a sum of parts whose
/// states make `combinations` combinations, the answer's tuples at most
/// `answer_box` ([`super::product`]): the parts' product read by the
/// tiers where the combinations are few
/// ([`super::product::MAX_PRODUCT`]) and cannot merge much (at most
/// [`super::product::MERGE_RATIO`] to a tuple the answer can hold);
/// `None`: the joint law, pair by pair.
pub fn product(combinations: u64, answer_box: u64) -> Option<Plan> {
    (combinations <= super::product::MAX_PRODUCT
        && combinations <= answer_box.saturating_mul(super::product::MERGE_RATIO))
    .then_some(Plan {
        algorithm: Algorithm::Product,
        estimate: combinations,
    })
}

impl Plan {
    /// Refuse at once a plan that could never finish, naming its size and
    /// the limit.
    pub fn check(&self, dice: i64) -> crate::error::Result<()> {
        self.check_within(dice, self.limit())
    }

    /// [`Plan::check`] against the limit `most` (a combination of totals
    /// alone: [`MAX_SUM_COMBINE_ESTIMATE`]).
    pub fn check_within(&self, dice: i64, most: u64) -> crate::error::Result<()> {
        if self.estimate > most {
            return Err(crate::error::Error::Conflict(format!(
                "dice: the law of {dice} dice with these statistics takes about {} state steps by the {} (at most {most}); read fewer statistics (each count, name or score multiplies the states) or roll fewer dice",
                self.estimate,
                self.algorithm.name()
            )));
        }
        Ok(())
    }

    /// Whether the plan is within its algorithm's limit.
    pub fn within(&self) -> bool {
        self.estimate <= self.limit()
    }

    /// The most state steps its algorithm may be estimated at.
    pub fn limit(&self) -> u64 {
        match self.algorithm {
            Algorithm::Fold => MAX_FOLD_ESTIMATE,
            Algorithm::ClassFold => MAX_CLASS_ESTIMATE,
            Algorithm::OrderFree => MAX_ORDER_FREE_ESTIMATE,
            Algorithm::PushDieByDie => MAX_PUSH_DIE_ESTIMATE,
            Algorithm::GroupProduct => MAX_PRODUCT_ESTIMATE,
            Algorithm::PushSplit => MAX_PUSH_SPLIT_ESTIMATE,
            Algorithm::Combine => MAX_COMBINE_ESTIMATE,
            Algorithm::CombineTuples => MAX_COMBINE_TUPLES_ESTIMATE,
            _ => MAX_ESTIMATE,
        }
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
                && !drops(t)
                && (t.scores.is_empty() || !ctx.layout.contains(&Stat::Natural))
        }
        // Order statistics of the faces; a chain's dice keep whole.
        Algorithm::KeepDp => total_only(ctx) && t.scores.is_empty() && drops(t) && !chain,
        // The highest or lowest die read alone, or one die kept of
        // several and read by the total (as `KeepDp` would read it).
        Algorithm::Extreme => {
            (t.kept_filter().is_none() && extreme_slot(ctx).is_some())
                || (keeps_one(t) && applies(Algorithm::KeepDp, t, law, ctx))
        }
        Algorithm::OrderFree => t.kept_filter().is_none() && order_free(&ctx.layout),
        Algorithm::ClassFold => {
            t.kept_filter().is_none()
                && order_free(&ctx.layout)
                && super::classes::applies(law, ctx)
        }
        Algorithm::Fold => true,
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
        | Algorithm::Product => false,
    }
}

/// Whether term `t`'s keep/drop leaves out any die (`4D6KH3`, not
/// `1D20KH1`, whose one die is kept: a plain sum).
pub fn drops(t: &PoolTerm) -> bool {
    t.filter
        .is_some_and(|(f, k)| f.as_keep(k, t.count).1 < t.count)
}

/// Whether term `t` keeps one die of several (`2D20KH1`, `4D6KL1`,
/// `3D20DL2`): its kept total is the highest or lowest die.
pub fn keeps_one(t: &PoolTerm) -> bool {
    t.count >= 2
        && t.kept_filter()
            .is_some_and(|(f, k)| f.as_keep(k, t.count).1 == 1)
}

/// The one slot a context carries when it reads an extreme statistic
/// alone (`max` or `min`, the total not carried), with which end it reads.
pub fn extreme_slot(ctx: &Ctx) -> Option<(usize, super::stat::Extreme)> {
    if ctx.total || ctx.layout.len() != 2 {
        return None;
    }
    Some((1, ctx.layout[1].extreme()?))
}

/// How many distinct tuples the die's outcomes contribute (the states of
/// [`super::fold::contributions`], counted without building its map).
fn distinct_contributions<W>(law: &DieLaw<W>) -> u64 {
    let mut v: Vec<&[i64]> = law.outcomes.iter().map(|(o, _)| &o.contrib[..]).collect();
    v.sort_unstable();
    v.dedup();
    v.len() as u64
}

/// What the planner knows of slot `i` over `dice` dice whose
/// contributions to it are `vals`: their spread and where the slot
/// saturates (the statistic bounds its values from this: [`Stat::values`]).
fn span(vals: impl Iterator<Item = i64>, ctx: &Ctx, i: usize, dice: u64) -> Span {
    let mut v: Vec<i64> = vals.collect();
    v.sort_unstable();
    v.dedup();
    let width = match (v.first(), v.last()) {
        (Some(lo), Some(hi)) => hi.saturating_sub(*lo).max(0) as u64,
        _ => 0,
    };
    let top = ctx.merged(i, i64::MAX - 1);
    Span {
        dice,
        distinct: v.len() as u64,
        width,
        cap: (top != i64::MAX - 1).then_some(top),
    }
}

/// What the planner knows of one die of `law` in each slot ([`span`] at
/// one die; `None`: a total not carried, one value), found once and read
/// for every number of dice ([`DieSpans::states_over`]).
struct DieSpans {
    slots: Vec<Option<Span>>,
    outcomes: u64,
}

impl DieSpans {
    fn of<W: Weight>(law: &DieLaw<W>, ctx: &Ctx) -> DieSpans {
        let slots = (0..ctx.layout.len())
            .map(|i| match &ctx.layout[i] {
                Stat::Total if !ctx.total => None,
                // The fold finds the widest set's face from the faces
                // themselves (their order), not from a contribution: it
                // ranges over the faces (a compounding d20's hundreds of
                // totals: `50D20!!` read by its height, estimated at a
                // tenth of its steps, took 25 s to be refused).
                Stat::Height => Some(span(law.outcomes.iter().map(|(o, _)| o.order), ctx, i, 1)),
                _ => Some(span(
                    law.outcomes.iter().map(|(o, _)| o.contrib[i]),
                    ctx,
                    i,
                    1,
                )),
            })
            .collect();
        DieSpans {
            slots,
            outcomes: law.outcomes.len() as u64,
        }
    }

    /// An upper bound on the states after `k` dice: the product of the
    /// slots' ranges, and no more than the multisets of `k` outcomes.
    fn states(&self, ctx: &Ctx, k: u64) -> u64 {
        self.states_over(ctx, k, |_| true, k)
    }

    /// [`Self::states`] over the slots `carried` (the others stay
    /// neutral), the kept-dice statistics spanning at most `kept` of the
    /// `k` dice. The number of values slot `i` can take is an upper bound
    /// its statistic gives from the range of one die's contributions.
    fn states_over(&self, ctx: &Ctx, k: u64, carried: impl Fn(usize) -> bool, kept: u64) -> u64 {
        let product = self
            .slots
            .iter()
            .enumerate()
            .filter(|&(i, _)| carried(i))
            .fold(1u64, |a, (i, one)| {
                let Some(one) = one else { return a };
                let dice = if ctx.layout[i].kept_only() {
                    k.min(kept)
                } else {
                    k
                };
                a.saturating_mul(ctx.layout[i].values(&Span { dice, ..*one }))
            });
        product.min(multisets(self.outcomes, k))
    }
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
    // The values the sum adds: the faces (a chain's total), or what they
    // score under a score map (as `fold`'s `sum_law` reads them).
    let total = ctx.layout.iter().position(|s| *s == Stat::Total);
    let value = |o: &super::die::Outcome| match total {
        Some(i) if !t.scores.is_empty() => o.contrib[i],
        _ => o.order,
    };
    let (lo, hi) = law
        .outcomes
        .iter()
        .fold((i64::MAX, i64::MIN), |(a, b), (o, _)| {
            (a.min(value(o)), b.max(value(o)))
        });
    let values = hi.saturating_sub(lo).max(0) as u64 + 1;
    match a {
        Algorithm::PowerSum | Algorithm::KeepDp => total_estimate::<W>(a, t, n, values),
        // Each distinct contribution's cdf raised to the power n by squaring.
        Algorithm::Extreme => distinct_contributions(law).saturating_mul(squarings(n)),
        // One die: each outcome met once.
        Algorithm::OrderFree if n == 1 => m,
        Algorithm::OrderFree => {
            let distinct = distinct_contributions(law);
            let spans = DieSpans::of(law, ctx);
            (0..n).fold(0u64, |w, k| {
                w.saturating_add(spans.states(ctx, k).saturating_mul(distinct))
            })
        }
        Algorithm::ClassFold => class_estimate(law, ctx, n),
        Algorithm::Fold => m
            .saturating_mul(DieSpans::of(law, ctx).states(ctx, n))
            .saturating_mul(n.saturating_add(1))
            .saturating_mul(n.saturating_add(1)),
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
        | Algorithm::Product => u64::MAX,
    }
}

/// The planner's choice for a push of term `t` (one die's law `law`,
/// `rerolled` of its outcomes meeting the push's condition): die by die
/// where the statistics combine without order and nothing is kept or
/// dropped, else by the number of dice rerolled. `keep` marks the slots
/// of the pair (first roll, then final roll) the push carries; the
/// estimate bounds the pairs of tuples by the product of each roll's
/// states over those slots.
pub fn push<W: Weight>(
    t: &PoolTerm,
    law: &DieLaw<W>,
    ctx: &Ctx,
    rerolled: u64,
    keep: &[bool],
) -> Plan {
    let n = t.count.max(0) as u64;
    let m = law.outcomes.len() as u64;
    let len = ctx.layout.len();
    // Keep/drop: the kept sums span the kept dice only.
    let kept = t
        .filter
        .map_or(n, |(f, x)| f.as_keep(x, t.count).1.max(0) as u64);
    let spans = DieSpans::of(law, ctx);
    let pairs = |k: u64| {
        let first = spans.states_over(ctx, k, |i| keep[i], kept);
        first.saturating_mul(spans.states_over(ctx, k, |i| keep[len + i], kept))
    };
    if t.kept_filter().is_none() && order_free(&ctx.layout) {
        // Each die meets every pair of tuples with each of its pairs.
        let per_die = m.saturating_add(rerolled.saturating_mul(m));
        let estimate = (0..n).fold(0u64, |w, k| {
            w.saturating_add(pairs(k).saturating_mul(per_die))
        });
        return Plan {
            algorithm: Algorithm::PushDieByDie,
            estimate,
        };
    }
    // For each number rerolled, a fold of three kinds over two
    // accumulators: outcomes × pairs of states × placed counts.
    let fold = (2 * m)
        .saturating_mul(pairs(n))
        .saturating_mul(n.saturating_add(1).saturating_pow(3));
    Plan {
        algorithm: Algorithm::PushSplit,
        estimate: fold.saturating_mul(n.saturating_add(1)),
    }
}

/// The power sum's and the keep/drop programme's work on `n` dice whose
/// die spans `values` consecutive values.
fn total_estimate<W: Weight>(a: Algorithm, t: &PoolTerm, n: u64, values: u64) -> u64 {
    let span = n.saturating_mul(values.max(1) - 1).saturating_add(1);
    match a {
        Algorithm::PowerSum if W::EXACT => span.saturating_mul(values),
        Algorithm::PowerSum => crate::pmf::Pmf::<f64>::sum_n_work(values, n),
        // The order statistics' programme on the kept sums alone.
        _ => {
            let k = t
                .kept_filter()
                .map_or(n, |(f, keep)| f.as_keep(keep, t.count).1.max(0) as u64);
            let width = k.saturating_mul(values.max(1) - 1).saturating_add(1);
            crate::systems::dice::law::keep_steps(values, n, k, width)
        }
    }
}

/// The multiplications of a power `xⁿ` by squaring, at most (the
/// extreme's work per value).
pub fn squarings(n: u64) -> u64 {
    u64::from(u64::BITS - n.leading_zeros()) + 1
}

/// The planner's choice for a plain term (`3D6`, `4D6KH3`, `1D66`, or
/// listed faces `3D{2,4,6,7}KH1`: no scores, modifiers or name) read by
/// its total alone, its die's values spanning `lo..=hi`: the choice
/// [`term`] makes for it (a power sum, keep/drop order statistics, or the
/// extreme where one die is kept), without building the die's law.
pub fn plain<W: Weight>(t: &PoolTerm, lo: i64, hi: i64) -> Plan {
    debug_assert!(
        t.scores.is_empty() && t.mods.is_empty() && t.name.is_none(),
        "plan::plain of {t}"
    );
    let n = t.count.max(0) as u64;
    let values = hi.saturating_sub(lo).max(0) as u64 + 1;
    if keeps_one(t) {
        // One die kept of several: the highest or lowest, by a power of
        // the die's distribution function at each of its values.
        return Plan {
            algorithm: Algorithm::Extreme,
            estimate: values.saturating_mul(squarings(n)),
        };
    }
    // Every die kept: the sum.
    let algorithm = if drops(t) {
        Algorithm::KeepDp
    } else {
        Algorithm::PowerSum
    };
    Plan {
        algorithm,
        estimate: total_estimate::<W>(algorithm, t, n, values),
    }
}

/// The planner's choice for hit-pool's dice (seed 004), lowered to d6
/// counted for hits and a glitch score: `plain` dice that do not explode
/// (`second_chance`: each rerolled once unless a hit), `exploding` dice
/// whose sixes explode, hits of the exploding dice cut above `cap`;
/// `every_die_counts`: the explosions' dice count in the glitch as the
/// first roll's do (`all-dice`, `original-pool`; not `bcdice`). The
/// closed forms where they apply, else the joint table; each estimate
/// is the cells the algorithm writes.
pub fn hits(plain: u64, exploding: u64, cap: u64, every_die_counts: bool) -> Plan {
    if exploding == 0 {
        // The hits' binomial and the ones' two tails, one pass each.
        return Plan {
            algorithm: Algorithm::HitsBinomial,
            estimate: 3 * (plain + 1),
        };
    }
    let cap = cap.min(u64::from(u32::MAX));
    if plain == 0 && every_die_counts {
        // Each count of sixes meets each count of fives; the ones' tails
        // are taken again whenever the glitch threshold moves (every
        // second six).
        return Plan {
            algorithm: Algorithm::HitsHittingTime,
            estimate: (cap + 1).saturating_mul(exploding + 1).saturating_mul(2),
        };
    }
    // Each exploding die writes its table about a dozen times (the faces
    // and the chain of sixes), the table hits ≤ cap by scores; then the
    // plain dice's table meets it cell by cell.
    let table = |dice: u64| (cap + 1).saturating_mul(2 * (dice + cap) + 1);
    let per_die = table(exploding).saturating_mul(12);
    let plain_cells = (plain + 1) * (2 * plain + 1);
    Plan {
        algorithm: Algorithm::HitsJoint,
        estimate: per_die
            .saturating_mul(exploding)
            .saturating_add(plain_cells.saturating_mul(table(exploding + plain))),
    }
}

/// The planner's choice for a chain of rounds, from its count
/// ([`super::chain::cost`], made before any work): the round chain, its
/// estimate the convolutions' multiply-adds (or the branches visited,
/// where the work was past counting).
pub fn rounds(cost: &super::chain::Cost) -> Plan {
    Plan {
        algorithm: Algorithm::RoundChain,
        estimate: if cost.work == u64::MAX {
            cost.visits
        } else {
            cost.work
        },
    }
}

/// The planner's choice for rolls accumulated towards a threshold
/// (`--until`; a race's two sides), from their budgets
/// ([`crate::rounds::budget`], made before any round is rolled, refused
/// there past its limit): the dynamic programme over the accumulated
/// value, its estimate the budgets' most multiply-adds.
pub fn accumulate(budgets: &[crate::rounds::Budget]) -> Plan {
    Plan {
        algorithm: Algorithm::Accumulate,
        estimate: budgets.iter().fold(0u64, |a, b| a.saturating_add(b.steps)),
    }
}

/// The class fold's steps: each class's laws of the total of 0..n dice
/// ([`super::classes::powers_work`]); then, before class `j`, at most the
/// placed counts and totals of the classes before it (and never more
/// states than the engine holds); each state meets every count `m` of the
/// class and the span of `m` dice of it (the last class: the one count
/// left).
fn class_estimate<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, n: u64) -> u64 {
    // Each class by the contributions of its first outcome (no class
    // written out: this estimate is made for every term planned).
    let mut classes: Vec<(&[i64], Vec<i64>)> = Vec::new();
    let total = super::classes::total_slot(ctx);
    for (o, _) in &law.outcomes {
        let t = total.map_or(0, |i| o.contrib[i]);
        match classes
            .iter_mut()
            .find(|(r, _)| super::classes::same_class(r, &o.contrib, ctx))
        {
            Some((_, totals)) => totals.push(t),
            None => classes.push((&o.contrib, vec![t])),
        }
    }
    let mut work: u64 = 0;
    let mut spans: Vec<u64> = Vec::with_capacity(classes.len());
    for (_, totals) in &mut classes {
        totals.sort_unstable();
        totals.dedup();
        let width = (totals[totals.len() - 1].saturating_sub(totals[0])).max(0) as u64;
        work = work.saturating_add(super::classes::powers_work(totals.len() as u64, width, n));
        spans.push(n.saturating_mul(width).saturating_add(1));
    }
    spans.sort_unstable();
    let last = spans.len().saturating_sub(1);
    let mut states: u64 = 1;
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
    // Before the keep/drop programme: one die kept is its extreme.
    if applies(Algorithm::Extreme, t, law, ctx) {
        return choose(Algorithm::Extreme);
    }
    if applies(Algorithm::KeepDp, t, law, ctx) {
        return choose(Algorithm::KeepDp);
    }
    // One die: its outcomes met once from the neutral tuple, the least
    // work there is (no class or fold can do with fewer steps).
    if t.count == 1 && applies(Algorithm::OrderFree, t, law, ctx) {
        return choose(Algorithm::OrderFree);
    }
    let mut best = if applies(Algorithm::OrderFree, t, law, ctx)
        && distinct_contributions(law) as i64 * 2 > t.count
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
        // The least work, among the plans within their limits.
        if classes.estimate < best.estimate && (classes.within() || !best.within()) {
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

/// One choice of the planner as it ran, for `--explain` (計画の説明):
/// what it was for, the algorithm, its estimate made before any work,
/// and what the work then was.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The term or group (`80D6`, `{1D8!!,1D6!!}KH1`).
    pub what: String,
    /// Dice (or items; the rounds of a chain) in it.
    pub dice: i64,
    /// The algorithm chosen.
    pub algorithm: Algorithm,
    /// Its estimated state steps, before any work.
    pub estimate: u64,
    /// The state steps the algorithm counted (0 for the power sum and
    /// the keep/drop programme, which count multiply-adds of their own).
    pub steps: u64,
    /// Wall-clock time of the run, in seconds.
    pub seconds: f64,
}

/// What [`explain_all`] collects: the planner's choices and the notes of
/// the choices made above it.
type Trace = (Vec<Decision>, Vec<String>);

thread_local! {
    static TRACE: std::cell::RefCell<Option<Trace>> = const { std::cell::RefCell::new(None) };
}

/// Run `f`, returning its result and every choice the planner made for
/// it on this thread, in the order the laws were finished.
pub fn explain<R>(f: impl FnOnce() -> R) -> (R, Vec<Decision>) {
    let (r, decisions, _) = explain_all(f);
    (r, decisions)
}

/// [`explain`], with the notes of the choices made above the planner
/// (a report's passes over the dice: [`note`]).
pub fn explain_all<R>(f: impl FnOnce() -> R) -> (R, Vec<Decision>, Vec<String>) {
    let outer = TRACE.with(|t| t.borrow_mut().replace(Trace::default()));
    let r = f();
    let (decisions, notes) = TRACE
        .with(|t| std::mem::replace(&mut *t.borrow_mut(), outer))
        .unwrap_or_default();
    (r, decisions, notes)
}

/// Record a choice made above the planner while [`explain_all`] listens.
pub fn note(text: impl FnOnce() -> String) {
    TRACE.with(|t| {
        if let Some((_, notes)) = t.borrow_mut().as_mut() {
            notes.push(text());
        }
    });
}

/// Run `f`, the law `plan` chose for `what` (`dice` dice), recording the
/// choice and its work while [`explain`] listens.
pub fn traced<R>(
    what: impl FnOnce() -> String,
    dice: i64,
    plan: &Plan,
    f: impl FnOnce() -> R,
) -> R {
    if TRACE.with(|t| t.borrow().is_none()) {
        return f();
    }
    let start = std::time::Instant::now();
    let (r, steps) = measure(f);
    let d = Decision {
        what: what(),
        dice,
        algorithm: plan.algorithm,
        estimate: plan.estimate,
        steps,
        seconds: start.elapsed().as_secs_f64(),
    };
    TRACE.with(|t| {
        if let Some((decisions, _)) = t.borrow_mut().as_mut() {
            decisions.push(d);
        }
    });
    r
}

/// The decisions as text, one line each (`hantei odds … --explain`).
pub fn explain_text(decisions: &[Decision], notes: &[String]) -> String {
    use std::fmt::Write;
    let mut out = String::from("plan (計画): the planner's choices, estimated before any work\n");
    for n in notes {
        let _ = writeln!(out, "  {n}");
    }
    if decisions.is_empty() {
        out.push_str("  no law went through the dice planner (a closed form of this system)\n");
    }
    for d in decisions {
        let unit = match (d.algorithm, d.dice) {
            (Algorithm::RoundChain | Algorithm::Accumulate, 1) => "round",
            (Algorithm::RoundChain | Algorithm::Accumulate, _) => "rounds",
            (_, 1) => "die",
            _ => "dice",
        };
        let _ = write!(
            out,
            "  {}: {} ({} {unit}), estimate {} steps",
            d.what,
            d.algorithm.name(),
            d.dice,
            d.estimate
        );
        if d.steps > 0 {
            let _ = write!(out, ", took {} steps", d.steps);
        }
        let _ = writeln!(out, ", {:.3} ms", d.seconds * 1e3);
    }
    out
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
    // Matching sets need multiplicities: only the fold carries them.
    if !order_free(&ctx.layout) {
        return fold;
    }
    // The items' totals, in order, each once: read by both estimates.
    let orders = super::best::values(kinds);
    let items = Plan {
        algorithm: Algorithm::GroupProduct,
        estimate: product_estimate(kinds, &orders, ctx, filter),
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
            estimate: best_estimate(kinds, orders.len(), ctx),
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
        Algorithm::GroupProduct => {
            product_estimate(kinds, &super::best::values(kinds), ctx, filter)
        }
        Algorithm::GroupBest => best_estimate(kinds, super::best::values(kinds).len(), ctx),
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
/// statistics so far with each of its classes, at every value (`values`
/// of the items' totals).
fn best_estimate<W: Weight>(kinds: &[Kind<W>], values: usize, ctx: &Ctx) -> u64 {
    let n = values as u64;
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
/// values the other statistics can take (`orders`: the items' totals,
/// [`super::best::values`]).
fn product_estimate<W: Weight>(
    kinds: &[Kind<W>],
    orders: &[i64],
    ctx: &Ctx,
    filter: Option<(crate::systems::dice::ast::Filter, i64)>,
) -> u64 {
    let items = super::fold::item_count(kinds);
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
        if s.kept_only() {
            continue;
        }
        let vals = kinds
            .iter()
            .flat_map(|k| k.law.outcomes.iter().map(move |(o, _)| o.contrib[i]));
        cap = cap.saturating_mul(s.values(&span(vals, ctx, i, items as u64)));
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

/// Most dice [`count_states_floor`] counts the vectors of.
const FLOOR_DICE: usize = 2000;

/// A floor on the states of a group's product keeping its best (or worst)
/// `k` totals ([`Algorithm::GroupProduct`]), at the step where they are
/// most: until `k` items are met every total is kept, so each multiset of
/// the first `j = min(k, items)` items' totals, one from each, is a state
/// of its own whatever else the state carries; and where `k` items are
/// better at their worst than every other item at its best, none of the
/// others ever enters, so the last step holds every multiset of those
/// `k`. Of two items, with `a` and `b` distinct totals and `c` in common,
/// that is exactly `a·b − c(c − 1)/2`; of more, at least the product of
/// their numbers of totals over `j!` (one multiset is at most `j!` picks),
/// and at least the product of the numbers of totals each item alone
/// shows (those picks are all different multisets). Past
/// [`super::MAX_STATES`] the product is refused at once
/// (`{100D3,200D100,1D6}KH2`: 201 · 19,801 − 101 · 100 / 2 = 4.0 million),
/// where it was refused only as its map passed the limit, after more
/// than a second and half a gigabyte. `1` where it keeps one item or all.
///
/// The statistics are counted only where they could lift the floor past
/// `limit` (their values' ceiling, `Extras::ceiling`, times the kept
/// totals' multisets): below it the floor refuses nothing either way, and
/// counting them took a 12-dice Cortex pool a third of its report. `0`
/// counts them always.
pub fn product_states_floor<W: Weight>(
    kinds: &[Kind<W>],
    filter: Option<(crate::systems::dice::ast::Filter, i64)>,
    ctx: &Ctx,
    limit: u64,
) -> u64 {
    let items = super::fold::item_count(kinds);
    let Some((high, k)) = filter.map(|(f, n)| f.as_keep(n, items)) else {
        return 1;
    };
    let j = k.min(items).max(0) as usize;
    if j < 2 {
        return 1;
    }
    // Every item's distinct totals, each sorted.
    let all: Vec<Vec<i64>> = super::fold::each_item(kinds)
        .map(|kind| {
            let mut t: Vec<i64> = kind.law.outcomes.iter().map(|(o, _)| o.order).collect();
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    // The first j items: all kept until they are met.
    let first: Vec<&Vec<i64>> = all.iter().take(j).collect();
    // The j items best at their worst (for keep-lowest: worst at their
    // best), where every other item's best is below all of their worst:
    // then no other item ever enters the kept totals, and the last step's
    // states are every multiset of theirs (`{100D3,3D2DL1,200D100}KH2`:
    // the d2s never reach 100).
    let worst = |t: &Vec<i64>| if high { t[0] } else { -t[t.len() - 1] };
    let best = |t: &Vec<i64>| if high { t[t.len() - 1] } else { -t[0] };
    let mut order: Vec<&Vec<i64>> = all.iter().filter(|t| !t.is_empty()).collect();
    order.sort_by_key(|t| std::cmp::Reverse(worst(t)));
    let dominant = (order.len() == all.len()).then(|| {
        let (kept, rest) = order.split_at(j.min(order.len()));
        let floor = kept.iter().map(|t| worst(t)).min();
        let above = rest.iter().map(|t| best(t)).max();
        match (floor, above) {
            (Some(f), Some(a)) if a < f => Some(kept.to_vec()),
            _ => None,
        }
    });
    let mut floor = multisets_floor(&first);
    if let Some(Some(kept)) = dominant {
        floor = floor.max(multisets_floor(&kept));
    }
    if j == 2 && all.len() <= 64 {
        // Any two items, each at a total above every other item's best
        // (for keep-lowest: below its worst), are the two kept, whatever
        // the others show: the last step holds every pair of such totals
        // (`{5D2ro1,100D6,5D1000ro1}KH2`: 100D6 and 5D1000ro1 above 10,
        // 2.5 million pairs, refused at once where the product ran 2.3 s).
        let key = |v: i64| if high { v } else { -v };
        let mut extras: Option<Option<Extras<'_>>> = None;
        for x in 0..all.len() {
            for y in x + 1..all.len() {
                let above = all
                    .iter()
                    .enumerate()
                    .filter(|&(i, t)| i != x && i != y && !t.is_empty())
                    .map(|(_, t)| best(t))
                    .max();
                let over = |t: &Vec<i64>| -> Vec<i64> {
                    t.iter()
                        .copied()
                        .filter(|&v| above.is_none_or(|a| key(v) > a))
                        .collect()
                };
                let (tx, ty) = (over(&all[x]), over(&all[y]));
                let kept = multisets_floor(&[&tx, &ty]);
                floor = floor.max(kept);
                if kept <= super::MAX_STATES as f64
                    && (tx.len() as u64).saturating_mul(ty.len() as u64) <= EXTRAS_PAIRS
                {
                    // The items read once, for every pair that needs them.
                    if let Some(e) = extras.get_or_insert_with(|| Extras::of(kinds, ctx)) {
                        if kept * e.ceiling > limit as f64 {
                            floor = floor.max(extras_floor(e, (x, &tx), (y, &ty), ctx));
                        }
                    }
                }
            }
        }
    }
    if floor >= u64::MAX as f64 {
        u64::MAX
    } else {
        floor as u64
    }
}

/// Most pairs of kept totals [`extras_floor`] reads one by one (a few
/// tens of milliseconds).
const EXTRAS_PAIRS: u64 = 5_000_000;

/// What [`extras_floor`] reads of a group's items, found once for every
/// pair of items it counts.
struct Extras<'k> {
    /// Per item, its outcomes of weight not zero: total and contributions.
    laws: Vec<Vec<(i64, &'k Key)>>,
    /// The statistics combined item by item whose combination is known:
    /// counts of no negative part, maxima, minima, with no "no die" mark.
    slots: Vec<usize>,
    /// Per item, per slot of `slots`: the values it shows, sorted and
    /// distinct.
    values: Vec<Vec<Vec<i64>>>,
    /// How many values the statistics can take together at most
    /// ([`Extras::ceiling`]), the same for every pair of items.
    ceiling: f64,
}

impl<'k> Extras<'k> {
    /// `None` where no statistic is counted, or an item shows nothing (no
    /// state at all).
    fn of<W: Weight>(kinds: &'k [Kind<W>], ctx: &Ctx) -> Option<Extras<'k>> {
        use super::stat::Combine;
        let laws: Vec<Vec<(i64, &Key)>> = super::fold::each_item(kinds)
            .map(|k| {
                k.law
                    .outcomes
                    .iter()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(o, _)| (o.order, &o.contrib))
                    .collect()
            })
            .collect();
        if laws.iter().any(Vec::is_empty) {
            return None;
        }
        let slots: Vec<usize> = (0..ctx.layout.len())
            .filter(|&s| !ctx.kept_only(s))
            .filter(|&s| {
                let values = || laws.iter().flatten().map(|(_, c)| c[s]);
                let real = values().all(|v| v != super::NONE_LOW && v != super::NONE_HIGH);
                match ctx.ops[s].combine {
                    Combine::Add => real && values().all(|v| v >= 0) && ctx.merged(s, 0) == 0,
                    Combine::Max | Combine::Min => real,
                    Combine::AllEqual => false,
                }
            })
            .collect();
        if slots.is_empty() {
            return None;
        }
        let values: Vec<Vec<Vec<i64>>> = laws
            .iter()
            .map(|l| {
                slots
                    .iter()
                    .map(|&s| {
                        let mut v: Vec<i64> = l.iter().map(|(_, c)| c[s]).collect();
                        v.sort_unstable();
                        v.dedup();
                        v
                    })
                    .collect()
            })
            .collect();
        let ceiling = Extras::ceiling(&slots, &values, ctx);
        Some(Extras {
            laws,
            slots,
            values,
            ceiling,
        })
    }

    /// How many values the statistics can take together at most, over
    /// every item combined and saturated: a sum from its parts' least to
    /// their greatest, a maximum or minimum one of the values shown.
    fn ceiling(slots: &[usize], values: &[Vec<Vec<i64>>], ctx: &Ctx) -> f64 {
        use super::stat::Combine;
        let mut out = 1f64;
        for (j, &s) in slots.iter().enumerate() {
            let each = values.iter().map(|v| &v[j]);
            let count = match ctx.ops[s].combine {
                Combine::Add => {
                    let lo = each.clone().filter_map(|v| v.first()).sum::<i64>();
                    let hi = each.filter_map(|v| v.last()).sum::<i64>();
                    (ctx.merged(s, hi) - ctx.merged(s, lo)).max(0) as f64 + 1.0
                }
                _ => {
                    let mut all: Vec<i64> = each.flatten().map(|&v| ctx.merged(s, v)).collect();
                    all.sort_unstable();
                    all.dedup();
                    all.len() as f64
                }
            };
            out *= count;
        }
        out
    }
}

/// A floor on the last step's states of a group product keeping two
/// items' totals (the items read once, `e`), where items `x` and `y` are
/// kept at any of their totals
/// `tx`, `ty` (each above every other item's best): each multiset of
/// kept totals is a state per value the statistics combined item by item
/// can take with it (a count summed, a maximum or a minimum; the others
/// counted once). Per statistic, every item but one is held at an outcome
/// (`x` at one of total `a`, `y` at one of total `b`, the others at any),
/// and the one left free meets it with each value it can show there
/// (`x` its outcomes of total `a`, `y` of total `b`, another item any of
/// its outcomes, none of which enters the kept totals): each value it
/// leaves after the combination (and its saturation) is a state of its
/// own. The held outcomes change the statistic least (the smallest count
/// or maximum, the largest minimum), which leaves the most values apart;
/// any choice is a floor. Per multiset the floor takes the most over the
/// statistics and over which item is free (`{100D100,1D12ro1,30D4}KH2`
/// read by `count(6)`: 901,091 multisets of kept totals, 2.7 million with
/// the sixes, refused at once where the product ran 2.6 s to the limit;
/// `{100D3!,1D4DL1,200D3,1D8ri1}KH2`, where only the `1D8ri1`, never
/// kept, shows a six: 2.1 million, refused after its items' laws, 1.1 s,
/// where the product ran 3.0 s).
fn extras_floor(
    e: &Extras<'_>,
    (x, tx): (usize, &[i64]),
    (y, ty): (usize, &[i64]),
    ctx: &Ctx,
) -> f64 {
    use std::collections::HashMap;
    let Extras {
        laws,
        slots,
        values,
        ..
    } = e;
    // The value that changes slot `s` least, of a list of values.
    let least = |s: usize, v: &[i64]| -> Option<i64> {
        match ctx.ops[s].combine {
            super::stat::Combine::Min => v.iter().copied().max(),
            _ => v.iter().copied().min(),
        }
    };
    let combine = |j: usize, a: Option<i64>, b: Option<i64>| -> Option<i64> {
        match (a, b) {
            (Some(a), Some(b)) => Some(ctx.ops[slots[j]].combine.apply(a, b)),
            (a, None) => a,
            (None, b) => b,
        }
    };
    // The items held whatever the kept totals: every item but `x` and `y`.
    // Per slot, all of them held, and all but one (`free`: the one that
    // may show any of its values, none of them entering the kept totals).
    let others: Vec<usize> = (0..laws.len()).filter(|&i| i != x && i != y).collect();
    let held_but = |j: usize, free: Option<usize>| -> Option<i64> {
        others
            .iter()
            .filter(|&&i| Some(i) != free)
            .fold(None, |acc, &i| {
                combine(j, acc, least(slots[j], &values[i][j]))
            })
    };
    let held: Vec<Option<i64>> = (0..slots.len()).map(|j| held_but(j, None)).collect();
    // The others free one at a time, where they show two values or more.
    let mut loose: Vec<(usize, usize, Option<i64>)> = Vec::new();
    for &i in &others {
        for (j, _) in values[i].iter().enumerate().filter(|(_, v)| v.len() > 1) {
            loose.push((j, i, held_but(j, Some(i))));
        }
    }
    // Per item of the two, per total, per slot: the values shown, sorted
    // and distinct.
    let by_total = |l: &[(i64, &Key)]| -> HashMap<i64, Vec<Vec<i64>>> {
        let mut m: HashMap<i64, Vec<Vec<i64>>> = HashMap::new();
        for (t, c) in l {
            let e = m.entry(*t).or_insert_with(|| vec![Vec::new(); slots.len()]);
            for (j, &s) in slots.iter().enumerate() {
                e[j].push(c[s]);
            }
        }
        for v in m.values_mut().flatten() {
            v.sort_unstable();
            v.dedup();
        }
        m
    };
    let (vx, vy) = (by_total(&laws[x]), by_total(&laws[y]));
    let empty: Vec<Vec<i64>> = vec![Vec::new(); slots.len()];
    // The values slot `j` takes with one item free at `free` and the rest
    // held at `rest` combined.
    let apart = |j: usize, free: &[i64], rest: Option<i64>| -> usize {
        let s = slots[j];
        let mut seen: Vec<i64> = free
            .iter()
            .map(|&v| ctx.merged(s, rest.map_or(v, |r| ctx.ops[s].combine.apply(v, r))))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    let in_y: std::collections::HashSet<i64> = ty.iter().copied().collect();
    let in_x: std::collections::HashSet<i64> = tx.iter().copied().collect();
    let mut floor = 0f64;
    for &a in tx {
        let ax = vx.get(&a).unwrap_or(&empty);
        for &b in ty {
            // A multiset met both ways is counted once.
            if a < b && in_y.contains(&a) && in_x.contains(&b) {
                continue;
            }
            let by = vy.get(&b).unwrap_or(&empty);
            // Item `x` free, `y` held at total `b`; or the other way; or
            // one of the others free, `x` and `y` held at `a` and `b`.
            let kept = |j: usize| combine(j, least(slots[j], &ax[j]), least(slots[j], &by[j]));
            let two = (0..slots.len()).map(|j| {
                let x_free = combine(j, held[j], least(slots[j], &by[j]));
                let y_free = combine(j, held[j], least(slots[j], &ax[j]));
                apart(j, &ax[j], x_free).max(apart(j, &by[j], y_free))
            });
            let rest = loose
                .iter()
                .map(|&(j, i, h)| apart(j, &values[i][j], combine(j, h, kept(j))));
            let most = two.chain(rest).max().unwrap_or(0);
            floor += most.max(1) as f64;
        }
    }
    floor
}

/// Refuse a group keeping `2 ≤ k <` all of its items before any item's
/// law is built, where floors on the items' distinct totals
/// ([`super::combine::floor_of`]) already put both of the algorithms
/// that could run it past their limits ([`group`] picks the lesser
/// estimate; keeping one item, the best item's algorithm may run, and
/// nothing is refused here):
///
/// * the fold: its estimate is at least the most totals of one item,
///   times the product of every item's (at most 2⁴⁰), times the items
///   plus one;
/// * the product of the items (order-free statistics only): the first
///   two items met (identical items are one kind, met where the first
///   stands) make `a·b` steps and at least `a·b − m(m − 1)/2` multisets
///   of kept totals (`m = min(a, b)`, the floor `multisets_floor` takes
///   with every total in common); the states never fall, and every later
///   item meets each of them with each of its totals.
///
/// `{200D20ri1,100D20DL1,200D8KH1,2D100KH1}KH2 --exact` built its items'
/// laws for 1.1 s before its product's estimate was refused;
/// `{50D10!,50D4DL1,2D4!}KH2` read by `min`, 2.0 s.
pub fn check_group_floor(
    g: &crate::systems::dice::ast::GroupTerm,
    ctx: &Ctx,
) -> crate::error::Result<()> {
    let Some(f) = group_floors(g, ctx) else {
        return Ok(());
    };
    let product_refused = !order_free(&ctx.layout)
        || f.states > super::MAX_STATES as f64
        || f.steps > MAX_PRODUCT_ESTIMATE as f64;
    if f.fold <= MAX_FOLD_ESTIMATE || !product_refused {
        return Ok(());
    }
    Err(crate::error::Error::Conflict(format!(
        "dice: the law of {} dice with these statistics takes at least about {} state steps by the fold (at most {MAX_FOLD_ESTIMATE}) and at least {:.0} states and {:.0} state steps by the group product (at most {} states and {MAX_PRODUCT_ESTIMATE} steps), counted before its items' laws were built; read fewer statistics or roll fewer dice",
        g.items.len(),
        f.fold,
        f.states,
        f.steps,
        super::MAX_STATES
    )))
}

/// Floors on a group's work known before its items' laws are built
/// ([`check_group_floor`]).
#[derive(Clone, Copy, Debug)]
pub struct GroupFloors {
    /// On the fold's estimate ([`group_estimate`] of [`Algorithm::Fold`]).
    pub fold: u64,
    /// On the product's states after its first two items
    /// ([`product_states_floor`]).
    pub states: f64,
    /// On the product's estimate ([`group_estimate`] of
    /// [`Algorithm::GroupProduct`]).
    pub steps: f64,
}

/// [`GroupFloors`] of a group keeping `2 ≤ k <` all of its items; `None`
/// for any other group, or where the items' totals are not carried whole.
pub fn group_floors(g: &crate::systems::dice::ast::GroupTerm, ctx: &Ctx) -> Option<GroupFloors> {
    let items = g.items.len() as i64;
    let (_, k) = g.kept_filter().map(|(f, n)| f.as_keep(n, items))?;
    if k < 2 || k >= items {
        return None;
    }
    // The items in the order the product meets them.
    let m: Vec<u64> = super::fold::distinct_items(&g.items)
        .into_iter()
        .flat_map(|(it, n)| std::iter::repeat_n(super::combine::floor_of(it, ctx).0, n as usize))
        .collect();
    let product = m
        .iter()
        .fold(1u64, |a, &x| a.saturating_mul(x))
        .min(1 << 40);
    let most = m.iter().copied().max().unwrap_or(1);
    let fold = most
        .saturating_mul(product)
        .saturating_mul(items as u64 + 1);
    let (a, b) = (m[0] as f64, m[1] as f64);
    let least = a.min(b);
    let states = a * b - least * (least - 1.0) / 2.0;
    let later: u64 = m[2..].iter().sum();
    Some(GroupFloors {
        fold,
        states,
        steps: a * b + states * later as f64,
    })
}

/// At least how many multisets one total from each of `totals` (each
/// sorted, distinct) makes: of two, exactly `a·b − c(c − 1)/2`; of more,
/// the larger of the product over `j!` and the product of the totals each
/// shows alone.
fn multisets_floor(totals: &[&Vec<i64>]) -> f64 {
    if let [a, b] = totals {
        let common = a.iter().filter(|v| b.binary_search(v).is_ok()).count() as f64;
        return a.len() as f64 * b.len() as f64 - common * (common - 1.0) / 2.0;
    }
    let mut over = 1f64;
    let mut alone = 1f64;
    for (m, t) in totals.iter().enumerate() {
        over = over * t.len() as f64 / (m + 1) as f64;
        let own = t
            .iter()
            .filter(|v| {
                totals
                    .iter()
                    .enumerate()
                    .all(|(o, u)| o == m || u.binary_search(v).is_err())
            })
            .count();
        alone *= own as f64;
    }
    over.max(alone)
}

/// A lower bound on the states of the law of `n` dice of `law` (no
/// keep or drop), known from one die before any work: the count vectors
/// of disjoint counts.
///
/// Counts read from disjoint sets of outcomes (each outcome adding 0 or 1
/// to each, and 1 to at most one of them: `count(1)`, `count(2)`,
/// `count(>=5)`) take, over `n` dice, every vector of counts summing to
/// at most `n` — exactly `n` where every outcome is counted — each count
/// capped where the conditions saturate it. Those vectors are distinct
/// states of the answer whatever else it carries, so past
/// [`super::MAX_STATES`] the law is refused at once (`100D6` read by four
/// counts: C(104, 4) = 4.6 million; `45D6` by six: C(50, 5) = 2.1
/// million), where it was refused only as its map passed the limit.
pub fn count_states_floor<W>(law: &DieLaw<W>, ctx: &Ctx, n: i64) -> u64 {
    let n = n.max(0) as usize;
    let outcomes = || law.outcomes.iter().map(|(o, _)| &o.contrib);
    // The counts chosen, with their caps.
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    for (i, s) in ctx.layout.iter().enumerate() {
        if !matches!(s, Stat::Count(..)) {
            continue;
        }
        let cap = match ctx.ops[i].merge {
            None => n,
            Some((i64::MIN, hi)) => usize::try_from(hi).unwrap_or(0).min(n),
            Some(_) => continue,
        };
        let zero_one = outcomes().all(|c| c[i] == 0 || c[i] == 1);
        let some = outcomes().any(|c| c[i] == 1);
        let disjoint = !outcomes().any(|c| c[i] == 1 && chosen.iter().any(|&(j, _)| c[j] == 1));
        if zero_one && some && disjoint {
            chosen.push((i, cap));
        }
    }
    if chosen.is_empty() {
        return 1;
    }
    // Whether some outcome is in none of the counts (then the counts sum
    // to at most n, else to n exactly).
    let free = outcomes().any(|c| chosen.iter().all(|&(j, _)| c[j] == 0));
    // The count takes k·n·cap steps: past FLOOR_DICE dice it is taken for
    // FLOOR_DICE, still a lower bound where the vectors of fewer dice are
    // vectors of more (some outcome free, or no count capped).
    if n > FLOOR_DICE {
        if !free && chosen.iter().any(|&(_, cap)| cap < n) {
            return 1;
        }
        for (_, cap) in &mut chosen {
            *cap = (*cap).min(FLOOR_DICE);
        }
    }
    let n = n.min(FLOOR_DICE);
    // ways[s][g]: the vectors so far summing to s, g whether one of them
    // is capped below n (its dice may be more, filling the sum up).
    let mut ways = vec![[0u64; 2]; n + 1];
    ways[0][0] = 1;
    for &(_, cap) in &chosen {
        let grows = cap < n;
        let mut next = vec![[0u64; 2]; n + 1];
        for (s, w) in ways.iter().enumerate() {
            for y in 0..=cap.min(n - s) {
                let g = usize::from(grows && y == cap);
                for (from, &count) in w.iter().enumerate() {
                    let to = &mut next[s + y][from.max(g)];
                    *to = to.saturating_add(count);
                }
            }
        }
        ways = next;
    }
    ways.iter().enumerate().fold(0u64, |a, (s, w)| {
        let count = if free || s == n {
            w[0].saturating_add(w[1])
        } else {
            w[1]
        };
        a.saturating_add(count)
    })
}
