//! The parsed command: BCDice's five common dice commands.
//!
//! `Display` echoes a command as BCDice does (`(2+3)d6-1` → `5D6-1`,
//! `2d10--3` → `2D10+3`, `1d6>=1+2` → `1D6>=3`, `2R6>=3` → `2R6[3]>=3`).
//!
//! An expression's dice are one kind of term, [`PoolTerm`] (in
//! [`Node::Pool`]): BCDice's plain `3D6`, `4D6KH3` and `1D66` are the
//! terms [`PoolTerm::is_plain`] accepts, which `law.rs` sums and keeps
//! (planned by [`super::pool::plan::plain`]); custom faces, scores,
//! rerolls, explosions and names go to the pool engine. The counting
//! commands (`xB`, `xR`, `xU`) lower into such terms ([`super::lower`]).
//! A new kind of die is a [`DieFaces`] variant.

use std::fmt;

pub use super::chained::Chained;

/// A comparison (比較記号).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmp {
    /// `>=` 以上
    Ge,
    /// `>` より大きい
    Gt,
    /// `<=` 以下
    Le,
    /// `<` 未満
    Lt,
    /// `=`, `==` 等しい
    Eq,
    /// `!=`, `<>` 異なる
    Ne,
}

impl Cmp {
    /// BCDice's spellings (`=>` and `=<` as well, as its normaliser reads them).
    pub fn from_text(s: &str) -> Option<Cmp> {
        Some(match s {
            ">=" | "=>" => Cmp::Ge,
            ">" => Cmp::Gt,
            "<=" | "=<" => Cmp::Le,
            "<" => Cmp::Lt,
            "=" | "==" => Cmp::Eq,
            "!=" | "<>" | "=!" => Cmp::Ne,
            _ => return None,
        })
    }

    /// Whether `a cmp b`.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Ge => a >= b,
            Cmp::Gt => a > b,
            Cmp::Le => a <= b,
            Cmp::Lt => a < b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    /// As BCDice echoes it (`=` and `<>`).
    pub fn text(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
            Cmp::Ne => "<>",
        }
    }
}

/// `cmp value`: a comparison against a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The comparison.
    pub cmp: Cmp,
    /// The number compared with.
    pub value: i64,
}

impl Condition {
    /// Whether `x` meets the condition.
    pub fn holds(self, x: i64) -> bool {
        self.cmp.holds(x, self.value)
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.cmp.text(), self.value)
    }
}

/// Rounding of a division (`/2`, `/2F`, `/2U` or `/2C`, `/2R`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// No suffix: the game system's default, which is floor for BCDice's
    /// common DiceBot.
    Default,
    /// `F`: floor (切り捨て).
    Floor,
    /// `U`, `C`: ceiling (切り上げ).
    Ceil,
    /// `R`: round half away from zero (四捨五入).
    Round,
}

/// An arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` with its rounding.
    Div(Rounding),
}

impl Op {
    /// `a op b` as BCDice computes it (division by zero gives 1, as in
    /// BCDice); `None` on overflow.
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::Div(r) => Some(divide(a, b, r)),
        }
    }
}

/// BCDice's integer division: `/0` gives 1; floor (Ruby's `Integer#/`),
/// ceiling and round-half-away-from-zero (Ruby's `Float#round`).
pub fn divide(a: i64, b: i64, r: Rounding) -> i64 {
    if b == 0 {
        return 1;
    }
    let (a, b) = (a as i128, b as i128);
    let (q, rem) = (a / b, a % b);
    let floor = if rem != 0 && ((rem < 0) != (b < 0)) {
        q - 1
    } else {
        q
    };
    let v = match r {
        Rounding::Default | Rounding::Floor => floor,
        Rounding::Ceil => {
            if floor * b == a {
                floor
            } else {
                floor + 1
            }
        }
        Rounding::Round => {
            // Half away from zero: |a|/|b| rounded, with the sign of a/b.
            let (n, d) = (a.abs(), b.abs());
            let q = (2 * n + d) / (2 * d);
            if (a < 0) != (b < 0) {
                -q
            } else {
                q
            }
        }
    };
    v as i64
}

/// Keep or drop (出目を選別する).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// `KHn`, `MAX`: keep the n highest.
    KeepHighest,
    /// `KLn`, `MIN`: keep the n lowest.
    KeepLowest,
    /// `DHn`: drop the n highest.
    DropHighest,
    /// `DLn`: drop the n lowest.
    DropLowest,
}

impl Filter {
    /// `KH`, `KL`, `DH`, `DL`.
    pub fn abbr(self) -> &'static str {
        match self {
            Filter::KeepHighest => "KH",
            Filter::KeepLowest => "KL",
            Filter::DropHighest => "DH",
            Filter::DropLowest => "DL",
        }
    }

    /// As "keep the `k` highest (or lowest)" of `count` dice.
    pub fn as_keep(self, n: i64, count: i64) -> (bool, i64) {
        let n = n.max(0);
        match self {
            Filter::KeepHighest => (true, n.min(count)),
            Filter::KeepLowest => (false, n.min(count)),
            Filter::DropHighest => (false, (count - n).max(0)),
            Filter::DropLowest => (true, (count - n).max(0)),
        }
    }
}

/// An arithmetic expression over dice terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A number.
    Num(i64),
    /// `-x`.
    Neg(Box<Node>),
    /// `a op b`.
    Bin(Op, Box<Node>, Box<Node>),
    /// `(x)`.
    Paren(Box<Node>),
    /// A dice term: BCDice's plain `xDy` (with keep/drop, `xD66`) or one
    /// with the pool engine's constructs (custom faces, Fate dice, face
    /// scores, rerolls, explosions, a name): see [`PoolTerm`] and
    /// [`super::pool`].
    Pool(Box<PoolTerm>),
    /// `{A,B,…}KHn`: a group of items kept across by their totals.
    Group(Box<GroupTerm>),
    /// A roll decided by another roll ([`Chained`]): a follow-up per tier
    /// `(A -> COND: B; C)`, a rolled count `(3B6>=4)D6`, repeats
    /// `3D(EXPR)`, a command's result `(2B6>=4)`, a game command, or the
    /// first roll's result inside a follow-up (`result`, `達成値`).
    Chain(Box<Chained>),
}

impl Node {
    /// Whether any dice are rolled.
    pub fn has_dice(&self) -> bool {
        match self {
            Node::Num(_) => false,
            Node::Pool(_) | Node::Group(_) => true,
            // The first roll's result varies as dice do.
            Node::Chain(_) => true,
            Node::Neg(b) | Node::Paren(b) => b.has_dice(),
            Node::Bin(_, a, b) => a.has_dice() || b.has_dice(),
        }
    }

    /// The value of an expression without dice (`None` on overflow or dice).
    pub fn eval_const(&self) -> Option<i64> {
        match self {
            Node::Num(v) => Some(*v),
            Node::Pool(_) | Node::Group(_) | Node::Chain(_) => None,
            Node::Neg(b) => b.eval_const()?.checked_neg(),
            Node::Paren(b) => b.eval_const(),
            Node::Bin(op, a, b) => op.apply(a.eval_const()?, b.eval_const()?),
        }
    }

    /// A plain dice term ([`PoolTerm::is_plain`]): `xDy`, `xDyKHn`, `xD66`.
    pub fn dice(count: i64, faces: DieFaces, filter: Option<(Filter, i64)>) -> Node {
        Node::Pool(Box::new(PoolTerm::plain(count, faces, filter)))
    }

    /// Every plain dice term ([`PoolTerm::is_plain`]), left to right (the
    /// order BCDice rolls them), outside groups and chains.
    pub fn terms(&self) -> Vec<&PoolTerm> {
        let mut out = Vec::new();
        self.collect_terms(&mut out);
        out
    }

    fn collect_terms<'a>(&'a self, out: &mut Vec<&'a PoolTerm>) {
        match self {
            Node::Num(_) | Node::Group(_) | Node::Chain(_) => {}
            Node::Pool(t) => {
                if t.is_plain() {
                    out.push(t);
                }
            }
            Node::Neg(b) | Node::Paren(b) => b.collect_terms(out),
            Node::Bin(_, a, b) => {
                a.collect_terms(out);
                b.collect_terms(out);
            }
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Num(v) => write!(f, "{v}"),
            Node::Neg(b) => write!(f, "-{b}"),
            Node::Paren(b) => write!(f, "({b})"),
            Node::Pool(t) => write!(f, "{t}"),
            Node::Group(g) => write!(f, "{g}"),
            Node::Chain(c) => write!(f, "{c}"),
            Node::Bin(op, a, b) => match op {
                Op::Add => write!(f, "{a}+{b}"),
                Op::Sub => write!(f, "{a}-{b}"),
                Op::Mul => write!(f, "{a}*{b}"),
                Op::Div(r) => {
                    let suffix = match r {
                        Rounding::Default | Rounding::Floor => "",
                        Rounding::Ceil => "U",
                        Rounding::Round => "R",
                    };
                    write!(f, "{a}/{b}{suffix}")
                }
            },
        }
    }
}

/// A face condition (出目の条件): `6`, `==6`, `>=5`, `<3`, `2..5`, `!=1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaceCond {
    /// `cmp value`.
    Cmp(Cmp, i64),
    /// `lo..hi`, inclusive.
    Range(i64, i64),
}

impl FaceCond {
    /// Whether a face meets the condition.
    pub fn holds(self, face: i64) -> bool {
        match self {
            FaceCond::Cmp(c, v) => c.holds(face, v),
            FaceCond::Range(lo, hi) => (lo..=hi).contains(&face),
        }
    }
}

impl fmt::Display for FaceCond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaceCond::Cmp(Cmp::Eq, v) => write!(f, "{v}"),
            FaceCond::Cmp(c, v) => write!(f, "{}{v}", c.text()),
            FaceCond::Range(lo, hi) => write!(f, "{lo}..{hi}"),
        }
    }
}

/// A value a face scores: a number plus named scores (`2`, `s`, `2s+a`,
/// `-1`): Genesys symbols, 2d20 complications, a face's several facts.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score {
    /// The number (what the face adds to the total).
    pub value: i64,
    /// Named scores, sorted by name, without zeros.
    pub units: Vec<(String, i64)>,
}

impl Score {
    /// A number of 0 or more with no named scores: it can only raise a
    /// total it is added to.
    pub fn is_non_negative_number(&self) -> bool {
        self.value >= 0 && self.units.is_empty()
    }

    /// A plain number.
    pub fn num(value: i64) -> Score {
        Score {
            value,
            units: Vec::new(),
        }
    }

    /// The named score `name` (0 when absent).
    pub fn unit(&self, name: &str) -> i64 {
        self.units
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        if self.value != 0 || self.units.is_empty() {
            write!(f, "{}", self.value)?;
            first = false;
        }
        for (name, k) in &self.units {
            match (*k, first) {
                (1, true) => write!(f, "{name}")?,
                (1, false) => write!(f, "+{name}")?,
                (-1, _) => write!(f, "-{name}")?,
                (k, true) => write!(f, "{k}{name}")?,
                (k, false) if k > 0 => write!(f, "+{k}{name}")?,
                (k, false) => write!(f, "{k}{name}")?,
            }
            first = false;
        }
        Ok(())
    }
}

/// What a term's die is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DieFaces {
    /// `dY`: 1..=Y.
    Standard(i64),
    /// `d{…}`: the listed faces, equally likely (repeats allowed).
    Custom(Vec<Score>),
    /// `dF`: Fate (−1, 0, +1).
    Fate,
    /// `xD66` inside an expression: two d6 read as tens and ones, as
    /// rolled (BCDice's common bot does not sort them): 36 equally likely
    /// values 11..=66. The plain rule rolls the two d6
    /// ([`super::roll`]); the laws read its 36 values.
    D66,
}

impl DieFaces {
    /// The faces, one entry per side, as scores.
    pub fn sides(&self) -> Vec<Score> {
        match self {
            DieFaces::Standard(s) => (1..=*s).map(Score::num).collect(),
            DieFaces::Custom(v) => v.clone(),
            DieFaces::Fate => (-1..=1).map(Score::num).collect(),
            DieFaces::D66 => (1..=6)
                .flat_map(|a| (1..=6).map(move |b| Score::num(10 * a + b)))
                .collect(),
        }
    }

    /// Each side's face value, in [`DieFaces::sides`]'s order, with no
    /// list made.
    pub fn values(&self) -> impl Iterator<Item = i64> + '_ {
        let (range, listed): (std::ops::Range<i64>, &[Score]) = match self {
            DieFaces::Standard(s) => (1..s.saturating_add(1), &[]),
            DieFaces::Fate => (-1..2, &[]),
            DieFaces::Custom(v) => (0..0, v),
            // 11–16, 21–26, …, 61–66: the numbers whose digits are 1–6.
            DieFaces::D66 => (11..67, &[]),
        };
        let d66 = matches!(self, DieFaces::D66);
        range
            .filter(move |x| !d66 || (1..=6).contains(&(x % 10)))
            .chain(listed.iter().map(|s| s.value))
    }

    /// The highest face value (0 for no sides).
    pub fn max_value(&self) -> i64 {
        match self {
            DieFaces::Standard(s) => *s,
            DieFaces::Fate => 1,
            DieFaces::D66 => 66,
            DieFaces::Custom(v) => v.iter().map(|s| s.value).max().unwrap_or(0),
        }
    }

    /// Whether every side is a number of 0 or more.
    pub fn all_non_negative_numbers(&self) -> bool {
        match self {
            DieFaces::Standard(_) | DieFaces::D66 => true,
            DieFaces::Fate => false,
            DieFaces::Custom(v) => v.iter().all(Score::is_non_negative_number),
        }
    }

    /// Number of sides.
    pub fn count(&self) -> i64 {
        match self {
            DieFaces::Standard(s) => *s,
            DieFaces::Custom(v) => v.len() as i64,
            DieFaces::Fate => 3,
            DieFaces::D66 => 36,
        }
    }
}

/// A per-die modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieMod {
    /// `rCOND` (until the face fails COND), `roCOND` (once) or `riCOND`
    /// (once, the die's initial face only: the dice an explosion adds are
    /// not rerolled; L5R's emphasis, CofD's rote).
    Reroll {
        /// Faces that are rerolled.
        cond: FaceCond,
        /// `ro`, `ri`: reroll once, keep the second face.
        once: bool,
        /// `ri`: only the die's initial face.
        first: bool,
    },
    /// `!` / `!COND` (each explosion adds a die to the pool) or `!!` /
    /// `!!COND` (compounding: added into the same die). Without COND, on
    /// the die's own maximum.
    Explode {
        /// Faces that explode (`None`: the highest face).
        cond: Option<FaceCond>,
        /// `!!`.
        compound: bool,
    },
}

/// One rule of a face-score map: faces meeting `cond` score `score`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    /// Which faces.
    pub cond: FaceCond,
    /// What they score.
    pub score: Score,
}

/// A dice term, the one kind the dice program has: BCDice's plain `3D6`,
/// `4D6KH3`, `1D66` ([`PoolTerm::is_plain`]: what BCDice's common bot
/// rolls, with its own fast laws in [`super::law`]) and the pool engine's
/// `2D{0,0,1,1,2,3}`, `4DF`, `5D10{1:2,<=6:1,10:-1}`, `2D20ro1`, `1D8!`,
/// `10D10!!KH5`, `1D12[hope]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolTerm {
    /// Number of dice.
    pub count: i64,
    /// The die.
    pub faces: DieFaces,
    /// Face scores (first matching rule; unmatched faces score 0). Empty:
    /// each face scores itself.
    pub scores: Vec<ScoreRule>,
    /// Reroll, then explode, in that order.
    pub mods: Vec<DieMod>,
    /// Keep/drop.
    pub filter: Option<(Filter, i64)>,
    /// `[name]`.
    pub name: Option<String>,
}

impl PoolTerm {
    /// A plain term: `count` dice of `faces` with an optional keep/drop.
    pub fn plain(count: i64, faces: DieFaces, filter: Option<(Filter, i64)>) -> PoolTerm {
        PoolTerm {
            count,
            faces,
            scores: Vec::new(),
            mods: Vec::new(),
            filter,
            name: None,
        }
    }

    /// The keep/drop its dice are read with: `None` where there is none or
    /// it keeps every die (`4D6KH4`, `3D6DL0`), whose law is the plain
    /// sum's: the planner treats both spellings alike.
    pub fn kept_filter(&self) -> Option<(Filter, i64)> {
        kept_filter(self.filter, self.count)
    }

    /// Whether this is BCDice's plain `xDy` or `xD66` with an optional
    /// keep/drop (standard or D66 faces, no scores, modifiers or name):
    /// the terms BCDice's common bot rolls, whose laws, limits and plain
    /// rule are [`super::law`]'s and `AddRoll`'s, not the pool engine's.
    pub fn is_plain(&self) -> bool {
        self.is_plain_but_for_name() && self.name.is_none()
    }

    /// Whether the term is plain once its name is set aside.
    pub fn is_plain_but_for_name(&self) -> bool {
        matches!(self.faces, DieFaces::Standard(_) | DieFaces::D66)
            && self.scores.is_empty()
            && self.mods.is_empty()
    }

    /// The explosion, if any.
    pub fn explosion(&self) -> Option<(Option<FaceCond>, bool)> {
        self.mods.iter().find_map(|m| match m {
            DieMod::Explode { cond, compound } => Some((*cond, *compound)),
            DieMod::Reroll { .. } => None,
        })
    }

    /// The reroll, if any.
    pub fn reroll(&self) -> Option<(FaceCond, bool)> {
        self.mods.iter().find_map(|m| match m {
            DieMod::Reroll { cond, once, .. } => Some((*cond, *once)),
            DieMod::Explode { .. } => None,
        })
    }

    /// Whether the reroll takes the die's initial face only (`ri`).
    pub fn rerolls_first_only(&self) -> bool {
        self.mods
            .iter()
            .any(|m| matches!(m, DieMod::Reroll { first: true, .. }))
    }
}

impl fmt::Display for PoolTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}D", self.count)?;
        match &self.faces {
            DieFaces::Standard(s) => write!(f, "{s}")?,
            DieFaces::Fate => f.write_str("F")?,
            DieFaces::D66 => f.write_str("66")?,
            DieFaces::Custom(v) => braced(f, v)?,
        }
        if !self.scores.is_empty() {
            f.write_str("{")?;
            for (i, r) in self.scores.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}:{}", r.cond, r.score)?;
            }
            f.write_str("}")?;
        }
        for m in &self.mods {
            match m {
                DieMod::Reroll { cond, once, first } => write!(
                    f,
                    "{}{cond}",
                    match (*once, *first) {
                        (_, true) => "ri",
                        (true, false) => "ro",
                        (false, false) => "r",
                    }
                )?,
                DieMod::Explode { cond, compound } => {
                    f.write_str(if *compound { "!!" } else { "!" })?;
                    match cond {
                        // Written as faces: a comparison here is a target.
                        Some(FaceCond::Cmp(Cmp::Eq, v)) => write!(f, "{v}")?,
                        Some(FaceCond::Range(lo, hi)) => write!(f, "{lo}..{hi}")?,
                        Some(c) => write!(f, "{c}")?,
                        None => {}
                    }
                }
            }
        }
        filter_and_name(f, self.filter, self.name.as_deref())
    }
}

/// `{a,b,…}`.
fn braced<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("{")?;
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{it}")?;
    }
    f.write_str("}")
}

/// A term's keep/drop and `[name]`.
fn filter_and_name(
    f: &mut fmt::Formatter<'_>,
    filter: Option<(Filter, i64)>,
    name: Option<&str>,
) -> fmt::Result {
    if let Some((filter, n)) = filter {
        write!(f, "{}{}", filter.abbr(), n)?;
    }
    if let Some(n) = name {
        write!(f, "[{n}]")?;
    }
    Ok(())
}

/// `{A,B,…}KHn[name]`: items (expressions) kept across by their totals.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupTerm {
    /// The items.
    pub items: Vec<Node>,
    /// Keep/drop across the items.
    pub filter: Option<(Filter, i64)>,
    /// `[name]`.
    pub name: Option<String>,
}

impl GroupTerm {
    /// The keep/drop across its items: `None` where there is none or it
    /// keeps every item (`{A,B}KH2`), whose law is the items' sum: the
    /// planner treats both spellings alike.
    pub fn kept_filter(&self) -> Option<(Filter, i64)> {
        kept_filter(self.filter, self.items.len() as i64)
    }
}

/// `filter` over `count` dice or items, `None` where it keeps them all.
fn kept_filter(filter: Option<(Filter, i64)>, count: i64) -> Option<(Filter, i64)> {
    filter.filter(|&(f, n)| f.as_keep(n, count).1 < count)
}

impl fmt::Display for GroupTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        braced(f, &self.items)?;
        filter_and_name(f, self.filter, self.name.as_deref())
    }
}

/// 加算ダイス: an expression, optionally compared with a target.
#[derive(Clone, Debug, PartialEq)]
pub struct AddCommand {
    /// The expression.
    pub expr: Node,
    /// `cmp target`.
    pub target: Option<(Cmp, i64)>,
}

/// `xBy`, `xRy`, `xUy`: a group of dice of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Number of dice.
    pub count: i64,
    /// Sides.
    pub sides: i64,
}

/// バラバラダイス: every die compared with the target.
#[derive(Clone, Debug, PartialEq)]
pub struct CountCommand {
    /// The groups (`2B6+3B8`).
    pub groups: Vec<Group>,
    /// `cmp target`.
    pub target: Option<(Cmp, i64)>,
}

/// 個数振り足しダイス: dice that meet the reroll condition add a die.
#[derive(Clone, Debug, PartialEq)]
pub struct RerollCommand {
    /// The groups.
    pub groups: Vec<Group>,
    /// 振り足し条件.
    pub reroll: Condition,
    /// 成功条件 (none: BCDice counts 0 successes).
    pub target: Option<Condition>,
}

/// 上方無限ロール: each die rerolls on `threshold` or more and adds up.
#[derive(Clone, Debug, PartialEq)]
pub struct UpperCommand {
    /// The groups.
    pub groups: Vec<Group>,
    /// 振り足し閾値.
    pub threshold: i64,
    /// 修正値, added to each group's total.
    pub modifier: i64,
    /// 成功条件 (none: the maximum and the total).
    pub target: Option<Condition>,
}

/// How D66 orders its two dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D66Sort {
    /// `D66`, `D66N`: as rolled (そのまま).
    None,
    /// `D66A`, `D66S`: smaller die as tens (昇順).
    Ascending,
    /// `D66D`: larger die as tens (降順).
    Descending,
}

/// The command's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// 加算ダイス `xDy`.
    Add(AddCommand),
    /// バラバラダイス `xBy`.
    Barabara(CountCommand),
    /// 個数振り足しダイス `xRy`.
    Reroll(RerollCommand),
    /// 上方無限ロール `xUy`.
    Upper(UpperCommand),
    /// `D66`.
    D66(D66Sort),
}

/// A parsed BCDice command.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// What it rolls.
    pub body: Body,
    /// Whether it was a secret roll (`S` prefix; no effect on the odds).
    pub secret: bool,
}

fn groups(f: &mut fmt::Formatter<'_>, gs: &[Group], letter: char) -> fmt::Result {
    for (i, g) in gs.iter().enumerate() {
        if i > 0 {
            f.write_str("+")?;
        }
        write!(f, "{}{}{}", g.count, letter, g.sides)?;
    }
    Ok(())
}

fn modifier(m: i64) -> String {
    match m.cmp(&0) {
        std::cmp::Ordering::Greater => format!("+{m}"),
        std::cmp::Ordering::Less => format!("{m}"),
        std::cmp::Ordering::Equal => String::new(),
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.body {
            Body::Add(a) => {
                write!(f, "{}", a.expr)?;
                if let Some((cmp, t)) = a.target {
                    write!(f, "{}{}", cmp.text(), t)?;
                }
                Ok(())
            }
            Body::Barabara(b) => {
                groups(f, &b.groups, 'B')?;
                if let Some((cmp, t)) = b.target {
                    write!(f, "{}{}", cmp.text(), t)?;
                }
                Ok(())
            }
            Body::Reroll(r) => {
                groups(f, &r.groups, 'R')?;
                let same = r.target.map(|t| t.cmp) == Some(r.reroll.cmp);
                if same {
                    write!(f, "[{}]", r.reroll.value)?;
                } else {
                    write!(f, "[{}]", r.reroll)?;
                }
                if let Some(t) = r.target {
                    write!(f, "{t}")?;
                }
                Ok(())
            }
            Body::Upper(u) => {
                groups(f, &u.groups, 'U')?;
                write!(f, "[{}]{}", u.threshold, modifier(u.modifier))?;
                if let Some(t) = u.target {
                    write!(f, "{t}")?;
                }
                Ok(())
            }
            Body::D66(s) => f.write_str(match s {
                D66Sort::None => "D66",
                D66Sort::Ascending => "D66A",
                D66Sort::Descending => "D66D",
            }),
        }
    }
}
