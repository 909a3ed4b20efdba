//! Statistics (統計量): the facts of one roll a condition can read, each
//! a type of its own that says how it is built and read.
//!
//! icepool's evaluators, for dice laws: what a statistic does with one die
//! ([`Statistic::contribution`]), how two independent parts combine
//! ([`Statistic::combining`], one of the rules of [`Combine`]), its value with no dice
//! ([`Statistic::neutral`]), what a condition reads
//! ([`Statistic::finish`]) — and what the planner asks of it before
//! choosing an algorithm: does it combine without order
//! ([`Statistic::order_free`])? does it read only the kept dice
//! ([`Statistic::kept_only`])? where may it saturate
//! ([`Statistic::saturation`])? how many values can it take
//! ([`Statistic::values`])? The plain rule, its value on a rolled set of
//! dice ([`Statistic::of_roll`]), is what the tests enumerate.
//!
//! [`Stat`] names a statistic in a program (hashable, ordered, the key of
//! a law's layout); [`Stat::rule`] is the one place a name becomes its
//! rule. **A new statistic** is one file here implementing [`Statistic`],
//! a variant of [`Stat`] with its arm in [`Stat::rule`], and, if a
//! condition reads it by a plain word, that word in [`WORDS`] (the
//! parser reads the table; `count(…)` has its own syntax in
//! `cond.rs`).

mod all_equal;
mod count;
mod height;
mod max;
mod min;
mod named;
mod natural;
mod pushed;
mod total;
mod unit;
mod width;

pub use all_equal::AllEqual;
pub use count::Count;
pub use height::Height;
pub use max::Max;
pub use min::Min;
pub use named::Named;
pub use natural::Natural;
pub use pushed::Pushed;
pub use total::Total;
pub use unit::Unit;
pub use width::Width;

use std::fmt;

use crate::error::Result;
use crate::systems::dice::ast::{FaceCond, Score};
use crate::systems::dice::roll::Facts;

/// "No die yet" for the maximum, the minimum and all-equal.
pub const NONE_LOW: i64 = i64::MIN;
/// "No die yet" for the minimum; "mixed faces" for all-equal.
pub const NONE_HIGH: i64 = i64::MAX;

/// How a statistic may be saturated when every condition reads it only
/// against numbers (the planner asks each statistic; see
/// [`super::Bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saturation {
    /// Carried exactly (the total, sums that may fall, sets, all-equal).
    Exact,
    /// A count: it only grows by 0 or 1 per die, so a count read as
    /// `>= k` can stop at `k` (one above the highest threshold).
    Upper,
    /// The maximum, the minimum: values beyond the lowest or highest
    /// threshold read alike, so they clamp both ways as parts combine.
    Both,
    /// A named term's value: clamped both ways where the term's value is
    /// set (it does not combine die by die).
    Set,
}

/// One die as a statistic sees it.
#[derive(Clone, Copy, Debug)]
pub struct Die<'a> {
    /// Its face (keep order, max, min, counts read it).
    pub face: i64,
    /// What it scores (the total and named scores read it).
    pub score: &'a Score,
    /// The named term it is rolled in.
    pub term: Option<&'a str>,
}

/// What the planner knows of one slot before it runs, to bound the
/// values a statistic can take after `dice` dice.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// Dice (or a group's items) combined.
    pub dice: u64,
    /// Distinct contributions of one die.
    pub distinct: u64,
    /// Largest minus smallest contribution of one die.
    pub width: u64,
    /// Where the slot saturates from above, if it does.
    pub cap: Option<i64>,
}

impl Span {
    /// The values of a sum of `dice` contributions: `dice·width + 1`.
    pub fn additive(&self) -> u64 {
        self.dice.saturating_mul(self.width).saturating_add(1)
    }
}

/// A statistic: how one die adds to it, how parts combine, what the
/// planner may assume, and its plain rule. The defaults are an additive
/// statistic (a sum over the dice, neutral 0).
pub trait Statistic {
    /// How a condition writes it (`max`, `count(==6)`, `hope`).
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The plain rule: its value on a rolled set of dice.
    fn of_roll(&self, facts: &Facts) -> i64;

    /// What one die contributes (its value for a pool of that one die).
    fn contribution(&self, die: Die<'_>) -> i64 {
        let _ = die;
        self.neutral()
    }

    /// The value of a roll with no dice.
    fn neutral(&self) -> i64 {
        0
    }

    /// How two independent parts' values combine (a sum, by default).
    fn combining(&self) -> Combine {
        Combine::Add
    }

    /// The value a condition reads, from the engine's encoding.
    fn finish(&self, v: i64) -> i64 {
        v
    }

    /// Whether it reads only the kept dice (keep/drop changes it).
    fn kept_only(&self) -> bool {
        false
    }

    /// Whether it combines die by die without order (sums, extremes): not
    /// sets, which need multiplicities.
    fn order_free(&self) -> bool {
        true
    }

    /// How it may saturate when read only against numbers.
    fn saturation(&self) -> Saturation {
        Saturation::Exact
    }

    /// An upper bound on the values it takes over `span.dice` dice.
    fn values(&self, span: &Span) -> u64 {
        span.additive()
    }

    /// Whether it is the highest or the lowest of its dice's contributions
    /// (`max`, `min`): read alone, its law over `n` dice is a power of one
    /// die's distribution function (the planner's
    /// [`super::plan::Algorithm::Extreme`]).
    fn extreme(&self) -> Option<Extreme> {
        None
    }

    /// Whether an expression can give it (`names`: the named terms;
    /// `units`: the named scores; `single_pool`: one term of one kind of
    /// die), else why not.
    fn check(&self, program: &Program<'_>) -> Result<()> {
        let _ = program;
        Ok(())
    }
}

/// How two independent parts' values of a statistic combine
/// ([`Statistic::combining`]). A closed set of rules, so the engine's inner
/// loops read each slot's rule from a table of these ([`super::Ctx`])
/// rather than through the statistic: a statistic that combines in a new
/// way adds its rule here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Summed, saturating at the ends of `i64`: the total, counts, scores.
    Add,
    /// The greater: the maximum, the width, the height.
    Max,
    /// The lesser: the minimum.
    Min,
    /// The common value while every part shows the same ([`NONE_LOW`]
    /// for no part yet), [`NONE_HIGH`] once two differ.
    AllEqual,
}

impl Combine {
    /// Two independent parts' values combined.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            Combine::Add => a.saturating_add(b),
            Combine::Max => a.max(b),
            Combine::Min => a.min(b),
            Combine::AllEqual => {
                if a == NONE_LOW {
                    b
                } else if b == NONE_LOW || a == b {
                    a
                } else {
                    NONE_HIGH
                }
            }
        }
    }

    /// `m` copies of one part's value `v` combined (`neutral` for none).
    #[inline]
    pub fn times(self, v: i64, m: i64, neutral: i64) -> i64 {
        match self {
            Combine::Add => v.saturating_mul(m),
            // Idempotent: one copy or many read alike.
            Combine::Max | Combine::Min | Combine::AllEqual => {
                if m > 0 {
                    v
                } else {
                    neutral
                }
            }
        }
    }
}

/// Which end of the dice an extreme statistic reads ([`Statistic::extreme`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extreme {
    /// The highest contribution: `P(max ≤ v) = F(v)ⁿ`.
    Highest,
    /// The lowest: `P(min ≥ v) = S(v)ⁿ`.
    Lowest,
}

/// What [`Statistic::check`] knows of the expression.
#[derive(Clone, Copy, Debug)]
pub struct Program<'a> {
    /// The named terms.
    pub names: &'a [&'a str],
    /// The named scores.
    pub units: &'a [String],
    /// One term of one kind of die (matching sets read it).
    pub single_pool: bool,
}

/// A name a statistic reads (a term's, a score's): shared, so a
/// statistic is copied without copying its name (a report copies its
/// tiers' statistics a few dozen times).
pub type Name = std::sync::Arc<str>;

/// A fact of one roll that a condition can read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stat {
    /// The result (the expression's value): `total`, `result`.
    Total,
    /// The kept faces summed, before arithmetic: `natural`.
    Natural,
    /// The highest face of every die rolled: `max`.
    Max,
    /// The lowest face: `min`.
    Min,
    /// How many dice show a face meeting the condition, in every term or
    /// in the named one: `count(==6)`, `count(1, base)`.
    Count(FaceCond, Option<Name>),
    /// A named score summed over every die: `s` of `D{0,s,2s}`.
    Unit(Name),
    /// A named term's value: `hope` of `1D12[hope]`.
    Named(Name),
    /// Every die shows the same face (1) or not (0): `doubles`, `all_equal`.
    AllEqual,
    /// The check was pushed (1) or not (0): `pushed`.
    Pushed,
    /// The most dice showing one face (One-Roll Engine's width): `width`.
    Width,
    /// The face of the widest set, the highest on ties: `height`.
    Height,
}

/// The plain words conditions read statistics by (`count(…)` and names
/// aside), each with its statistic.
pub const WORDS: &[(&str, Stat)] = &[
    ("total", Stat::Total),
    ("result", Stat::Total),
    ("natural", Stat::Natural),
    ("max", Stat::Max),
    ("min", Stat::Min),
    ("doubles", Stat::AllEqual),
    ("all_equal", Stat::AllEqual),
    ("pushed", Stat::Pushed),
    ("width", Stat::Width),
    ("height", Stat::Height),
];

impl Stat {
    /// The statistic a condition's plain word names (lower case).
    pub fn by_word(word: &str) -> Option<Stat> {
        WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, s)| s.clone())
    }

    /// Its rule, handed to `f`: the one place a statistic's name becomes
    /// what it does.
    #[inline]
    pub fn rule<R>(&self, f: impl FnOnce(&dyn Statistic) -> R) -> R {
        match self {
            Stat::Total => f(&Total),
            Stat::Natural => f(&Natural),
            Stat::Max => f(&Max),
            Stat::Min => f(&Min),
            Stat::Count(face, term) => f(&Count {
                face: *face,
                term: term.as_deref(),
            }),
            Stat::Unit(u) => f(&Unit(u)),
            Stat::Named(n) => f(&Named(n)),
            Stat::AllEqual => f(&AllEqual),
            Stat::Pushed => f(&Pushed),
            Stat::Width => f(&Width),
            Stat::Height => f(&Height),
        }
    }

    /// The value of a roll with no dice.
    #[inline]
    pub fn neutral(&self) -> i64 {
        self.rule(|r| r.neutral())
    }

    /// Whether the statistic reads only kept dice (keep/drop changes it).
    #[inline]
    pub fn kept_only(&self) -> bool {
        self.rule(|r| r.kept_only())
    }

    /// Two independent parts' values combined (not for [`Stat::Total`]
    /// of an expression, which follows its arithmetic).
    #[inline]
    pub fn combine(&self, a: i64, b: i64) -> i64 {
        self.combining().apply(a, b)
    }

    /// How two independent parts' values combine.
    #[inline]
    pub fn combining(&self) -> Combine {
        self.rule(|r| r.combining())
    }

    /// `m` copies of one part's value combined.
    #[inline]
    pub fn times(&self, v: i64, m: i64) -> i64 {
        self.rule(|r| r.combining().times(v, m, r.neutral()))
    }

    /// The value a condition reads, from the engine's encoding.
    #[inline]
    pub fn finish(&self, v: i64) -> i64 {
        self.rule(|r| r.finish(v))
    }

    /// How this statistic saturates.
    pub fn saturation(&self) -> Saturation {
        self.rule(|r| r.saturation())
    }

    /// Whether it is the highest or lowest contribution ([`Statistic::extreme`]).
    pub fn extreme(&self) -> Option<Extreme> {
        self.rule(|r| r.extreme())
    }

    /// Whether it combines without order.
    pub fn order_free(&self) -> bool {
        self.rule(|r| r.order_free())
    }

    /// What one die contributes.
    #[inline]
    pub fn contribution(&self, die: Die<'_>) -> i64 {
        self.rule(|r| r.contribution(die))
    }

    /// An upper bound on its values over `span.dice` dice.
    pub fn values(&self, span: &Span) -> u64 {
        self.rule(|r| r.values(span))
    }

    /// Its value on a rolled set of dice (the plain rule).
    pub fn of_roll(&self, facts: &Facts) -> i64 {
        self.rule(|r| r.of_roll(facts))
    }

    /// Whether `program` can give it, else why not.
    pub fn check(&self, program: &Program<'_>) -> Result<()> {
        self.rule(|r| r.check(program))
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rule(|r| r.write(f))
    }
}

/// The faces of a roll's dice, in the order rolled.
fn faces(facts: &Facts) -> impl Iterator<Item = i64> + Clone + '_ {
    facts.dice.iter().map(|d| d.face)
}

/// `v` if any part was combined, else the neutral value (extremes, flags:
/// `m` copies of a value are the value).
/// The widest set of equal faces, the highest face on ties: `(face, size)`.
fn widest(facts: &Facts) -> Option<(i64, i64)> {
    let mut counts: std::collections::BTreeMap<i64, i64> = Default::default();
    for f in faces(facts) {
        *counts.entry(f).or_default() += 1;
    }
    counts
        .iter()
        .rev()
        .fold(None::<(i64, i64)>, |best, (f, c)| match best {
            Some((_, bc)) if bc >= *c => best,
            _ => Some((*f, *c)),
        })
}

/// Width and height read one pool of one kind of die.
fn one_pool(program: &Program<'_>) -> Result<()> {
    if program.single_pool {
        Ok(())
    } else {
        Err(crate::error::Error::Conflict(
            "dice: width and height (matching sets) read one pool of one kind of die (e.g. 6D10); this expression rolls several terms".into(),
        ))
    }
}

/// `names` joined, or "none".
fn list_or_none<S: AsRef<str>>(v: &[S]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.iter()
            .map(AsRef::as_ref)
            .collect::<Vec<&str>>()
            .join(", ")
    }
}
