//! Conditions over one roll (判定条件): what a tier reads.
//!
//! ```text
//! cond  := or
//! or    := and (("or" | "||") and)*
//! and   := not (("and" | "&&") not)*
//! not   := ("not" | "!") not | cmp
//! cmp   := sum [CMP sum]          CMP: >= > <= < = == != <>
//! sum   := prod (("+" | "-") prod)*
//! prod  := unary (("*" | "/") unary)*
//! unary := "-" unary | NUMBER | STAT | NAME | "(" cond ")"
//! STAT  := total | result | natural | max | min | doubles | all_equal
//!        | pushed | width | height | count(FACE[,NAME])
//! FACE  := 6 | ==6 | >=5 | <3 | !=1 | 2..5
//! ```
//!
//! A condition that starts with a comparison reads the result: `>=10` is
//! `total>=10` (the form `--tier` always had). `NAME` is a named term
//! (`hope>fear`) or a named score (`s>=1`). Division floors (BCDice's
//! rule: by zero gives 1). A condition must be true or false: a
//! comparison, `and`/`or`/`not` of them, `doubles` or `pushed`.

use std::fmt;

use super::ast::{divide, Cmp, FaceCond, Op, Rounding};
use super::parse::{normalize_width, notation_error};
use super::pool::product::Rows;
use super::pool::stat::Name;
use super::pool::Stat;
use crate::error::{Error, Result};

/// A parsed condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A number.
    Num(i64),
    /// A statistic of the roll.
    Stat(Stat),
    /// `-x`.
    Neg(Box<Expr>),
    /// `a + b`, `a - b`, `a * b`, `a / b` (floor).
    Arith(Op, Box<Expr>, Box<Expr>),
    /// `a CMP b`; `implicit` when written without its left side (`>=10`).
    Cmp(Cmp, Box<Expr>, Box<Expr>, bool),
    /// `a and b`.
    And(Box<Expr>, Box<Expr>),
    /// `a or b`.
    Or(Box<Expr>, Box<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// A yes/no fact read by its name (a chain's first roll: `success`,
    /// `critical`, a game's word such as `extreme`): true when not 0.
    Flag(Name),
    /// A placeholder `{NAME}` for a number a sweep gives (`--sweep
    /// dc=5..25`: `total>={dc}`), put in by [`Expr::bind`] before any
    /// roll is judged; a check whose tiers still hold one is refused.
    Var(Name),
}

impl Expr {
    /// Evaluate with the roll's statistics (`get`); true is 1.
    pub fn eval(&self, get: &dyn Fn(&Stat) -> i64) -> i64 {
        match self {
            Expr::Num(v) => *v,
            // Never read: a placeholder is bound before a check is judged.
            Expr::Var(_) => 0,
            Expr::Stat(s) => get(s),
            Expr::Flag(n) => i64::from(get(&Stat::Named(n.clone())) != 0),
            Expr::Neg(a) => a.eval(get).saturating_neg(),
            Expr::Arith(op, a, b) => {
                let (x, y) = (a.eval(get), b.eval(get));
                match op {
                    Op::Add => x.saturating_add(y),
                    Op::Sub => x.saturating_sub(y),
                    Op::Mul => x.saturating_mul(y),
                    Op::Div(_) => divide(x, y, Rounding::Floor),
                }
            }
            Expr::Cmp(c, a, b, _) => i64::from(c.holds(a.eval(get), b.eval(get))),
            Expr::And(a, b) => i64::from(a.eval(get) != 0 && b.eval(get) != 0),
            Expr::Or(a, b) => i64::from(a.eval(get) != 0 || b.eval(get) != 0),
            Expr::Not(a) => i64::from(a.eval(get) == 0),
        }
    }

    /// Whether it holds.
    pub fn holds(&self, get: &dyn Fn(&Stat) -> i64) -> bool {
        self.eval(get) != 0
    }

    /// The condition with each statistic resolved once to its position in
    /// a tuple (`slot`; `None` reads 0, as a statistic missing from a law
    /// does): judged on a joint law's cells with no lookup by statistic
    /// and no allocation per cell (a flag's name was cloned per read).
    pub fn slotted(&self, slot: &dyn Fn(&Stat) -> Option<usize>) -> Slotted {
        let b = |e: &Expr| Box::new(e.slotted(slot));
        match self {
            Expr::Num(v) => Slotted::Num(*v),
            Expr::Var(_) => Slotted::Num(0),
            Expr::Stat(s) => slot(s).map_or(Slotted::Num(0), Slotted::Slot),
            Expr::Flag(n) => slot(&Stat::Named(n.clone())).map_or(Slotted::Num(0), Slotted::Flag),
            Expr::Neg(a) => Slotted::Neg(b(a)),
            Expr::Arith(op, x, y) => Slotted::Arith(*op, b(x), b(y)),
            Expr::Cmp(c, x, y, _) => match (Operand::of(x, slot), Operand::of(y, slot)) {
                // The common leaf (`hope>fear`, `action+2>c1`, `count(6)>=2`)
                // in one node.
                (Some(x), Some(y)) => Slotted::CmpOperands(*c, x, y),
                _ => Slotted::Cmp(*c, b(x), b(y)),
            },
            Expr::And(x, y) => Slotted::And(b(x), b(y)),
            Expr::Or(x, y) => Slotted::Or(b(x), b(y)),
            Expr::Not(a) => Slotted::Not(b(a)),
        }
    }

    /// Every statistic read, in order of appearance.
    pub fn stats(&self) -> Vec<Stat> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    /// Whether it reads a statistic `stat` holds for, or a flag (a named
    /// term read as a truth value) `flag` holds for: [`Expr::stats`]
    /// asked one question, with nothing collected.
    pub fn reads_where(&self, stat: &dyn Fn(&Stat) -> bool, flag: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Expr::Num(_) | Expr::Var(_) => false,
            Expr::Stat(s) => stat(s),
            Expr::Flag(n) => flag(n),
            Expr::Neg(a) | Expr::Not(a) => a.reads_where(stat, flag),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.reads_where(stat, flag) || b.reads_where(stat, flag)
            }
        }
    }

    /// Add each statistic it reads that `out` does not hold yet to `out`,
    /// in order of appearance (nothing cloned that is already there).
    pub fn collect(&self, out: &mut Vec<Stat>) {
        match self {
            Expr::Num(_) | Expr::Var(_) => {}
            Expr::Stat(s) => {
                if !out.contains(s) {
                    out.push(s.clone())
                }
            }
            Expr::Flag(n) => {
                if !out.iter().any(|s| matches!(s, Stat::Named(x) if x == n)) {
                    out.push(Stat::Named(n.clone()))
                }
            }
            Expr::Neg(a) | Expr::Not(a) => a.collect(out),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.collect(out);
                b.collect(out);
            }
        }
    }

    /// For each statistic the condition reads only in comparisons with a
    /// number (`count(6)>=2`, `trait==1`), the values on either side of
    /// each comparison's boundary (`>=2`: 1 and 2; `==1`: 0, 1 and 2);
    /// `None` for a statistic read any other way (in arithmetic, as a truth
    /// value). A value below the least of them reads as the least does,
    /// one above the greatest as the greatest does, which is what lets the
    /// engine saturate the statistic ([`crate::systems::dice::pool::Ctx`]).
    pub fn thresholds(&self, out: &mut Vec<(Stat, Option<Vec<i64>>)>) {
        fn number(e: &Expr) -> Option<i64> {
            match e {
                Expr::Num(v) => Some(*v),
                Expr::Neg(a) => number(a).map(i64::saturating_neg),
                _ => None,
            }
        }
        // The values either side of where `s CMP t` changes.
        fn edges(c: Cmp, t: i64, stat_left: bool) -> [i64; 2] {
            let c = if stat_left {
                c
            } else {
                match c {
                    Cmp::Ge => Cmp::Le,
                    Cmp::Gt => Cmp::Lt,
                    Cmp::Le => Cmp::Ge,
                    Cmp::Lt => Cmp::Gt,
                    c => c,
                }
            };
            match c {
                Cmp::Ge | Cmp::Lt => [t.saturating_sub(1), t],
                Cmp::Gt | Cmp::Le => [t, t.saturating_add(1)],
                Cmp::Eq | Cmp::Ne => [t.saturating_sub(1), t.saturating_add(1)],
            }
        }
        fn note(out: &mut Vec<(Stat, Option<Vec<i64>>)>, s: &Stat, t: Option<[i64; 2]>) {
            let i = match out.iter().position(|(x, _)| x == s) {
                Some(i) => i,
                None => {
                    out.push((s.clone(), Some(Vec::new())));
                    out.len() - 1
                }
            };
            match (t, &mut out[i].1) {
                (Some(t), Some(v)) => v.extend(t),
                _ => out[i].1 = None,
            }
        }
        match self {
            Expr::Num(_) | Expr::Var(_) => {}
            Expr::Stat(s) => note(out, s, None),
            Expr::Flag(n) => note(out, &Stat::Named(n.clone()), None),
            Expr::Cmp(c, a, b, _) => match (&**a, &**b, number(a), number(b)) {
                (Expr::Stat(s), _, _, Some(t)) => note(out, s, Some(edges(*c, t, true))),
                (_, Expr::Stat(s), Some(t), _) => note(out, s, Some(edges(*c, t, false))),
                _ => {
                    a.thresholds(out);
                    b.thresholds(out);
                }
            },
            Expr::Neg(a) | Expr::Not(a) => a.thresholds(out),
            Expr::Arith(_, a, b) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.thresholds(out);
                b.thresholds(out);
            }
        }
    }

    /// Whether the condition is true/false (not a number).
    pub fn is_bool(&self) -> bool {
        matches!(
            self,
            Expr::Cmp(..)
                | Expr::And(..)
                | Expr::Or(..)
                | Expr::Not(..)
                | Expr::Flag(_)
                | Expr::Stat(Stat::AllEqual | Stat::Pushed)
        )
    }

    /// Whether it reads only the result and the natural dice (the forms
    /// every BCDice command's law can answer).
    pub fn reads_only_total(&self) -> bool {
        self.stats()
            .iter()
            .all(|s| matches!(s, Stat::Total | Stat::Natural))
    }

    /// Resolve bare names against the roll's named terms and scores
    /// ([`Expr::check_names`], then [`Expr::mark_units`]); `text` is the
    /// condition as errors show it.
    pub fn resolve(&mut self, terms: &[String], units: &[String], text: &str) -> Result<()> {
        self.check_names(terms, units, &|| text.to_string())?;
        self.mark_units(units);
        Ok(())
    }

    /// Refuse a bare name that is no named term or score of the roll, and
    /// a `count(…, NAME)` that names no term; `text` makes the condition as
    /// errors show it (only for an error).
    pub fn check_names<T: AsRef<str>>(
        &self,
        terms: &[T],
        units: &[String],
        text: &dyn Fn() -> String,
    ) -> Result<()> {
        match self {
            Expr::Stat(Stat::Named(n)) => {
                if !units.iter().any(|u| **u == **n) && !terms.iter().any(|t| t.as_ref() == &**n) {
                    let mut known: Vec<String> = super::pool::RESERVED
                        .iter()
                        .filter(|w| !matches!(**w, "and" | "or" | "not" | "result" | "all_equal"))
                        .map(|w| w.to_string())
                        .collect();
                    known.extend(terms.iter().map(|t| t.as_ref().to_string()));
                    known.extend(units.iter().cloned());
                    let near = crate::error::nearest(n, &known);
                    let hint = match near {
                        Some(s) => format!("; did you mean '{s}'?"),
                        None => String::new(),
                    };
                    return Err(Error::Conflict(format!(
                        "condition {}: {} is no statistic, named term or named score of this roll{hint} (statistics: total, natural, max, min, count(FACE), doubles, pushed, width, height; names: {})",
                        crate::error::quote(&text()),
                        crate::error::quote(n),
                        if terms.is_empty() && units.is_empty() {
                            "none".to_string()
                        } else {
                            terms.iter().map(AsRef::as_ref).chain(units.iter().map(String::as_str)).collect::<Vec<_>>().join(", ")
                        }
                    )));
                }
                Ok(())
            }
            Expr::Stat(Stat::Count(_, Some(n))) if !terms.iter().any(|t| t.as_ref() == &**n) => {
                Err(Error::Conflict(format!(
                    "condition {}: count(…, {n}) names no term of this roll (named terms: {})",
                    crate::error::quote(&text()),
                    if terms.is_empty() {
                        "none".to_string()
                    } else {
                        terms
                            .iter()
                            .map(AsRef::as_ref)
                            .collect::<Vec<&str>>()
                            .join(", ")
                    }
                )))
            }
            Expr::Num(_) | Expr::Stat(_) | Expr::Flag(_) | Expr::Var(_) => Ok(()),
            Expr::Neg(a) | Expr::Not(a) => a.check_names(terms, units, text),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.check_names(terms, units, text)?;
                b.check_names(terms, units, text)
            }
        }
    }

    /// Read a bare name that is a named score (`units`) as the score.
    pub fn mark_units(&mut self, units: &[String]) {
        match self {
            Expr::Stat(Stat::Named(n)) if units.iter().any(|u| **u == **n) => {
                *self = Expr::Stat(Stat::Unit(n.clone()));
            }
            Expr::Num(_) | Expr::Stat(_) | Expr::Flag(_) | Expr::Var(_) => {}
            Expr::Neg(a) | Expr::Not(a) => a.mark_units(units),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.mark_units(units);
                b.mark_units(units);
            }
        }
    }

    /// The condition with every placeholder `{name}` read as `value`.
    pub fn bind(&self, name: &str, value: i64) -> Expr {
        let b = |e: &Expr| Box::new(e.bind(name, value));
        match self {
            Expr::Var(n) if **n == *name => Expr::Num(value),
            Expr::Num(_) | Expr::Stat(_) | Expr::Flag(_) | Expr::Var(_) => self.clone(),
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Not(a) => Expr::Not(b(a)),
            Expr::Arith(op, x, y) => Expr::Arith(*op, b(x), b(y)),
            Expr::Cmp(c, x, y, implicit) => Expr::Cmp(*c, b(x), b(y), *implicit),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
        }
    }

    /// The placeholders it holds (`{dc}`), each once, in order.
    pub fn vars(&self, out: &mut Vec<Name>) {
        match self {
            Expr::Var(n) => {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
            Expr::Num(_) | Expr::Stat(_) | Expr::Flag(_) => {}
            Expr::Neg(a) | Expr::Not(a) => a.vars(out),
            Expr::Arith(_, a, b) | Expr::Cmp(_, a, b, _) | Expr::And(a, b) | Expr::Or(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }

    fn prec(&self) -> u8 {
        match self {
            Expr::Or(..) => 1,
            Expr::And(..) => 2,
            Expr::Not(..) => 3,
            Expr::Cmp(..) => 4,
            Expr::Arith(Op::Add | Op::Sub, ..) => 5,
            Expr::Arith(..) => 6,
            Expr::Neg(..) => 7,
            _ => 8,
        }
    }
}

/// A condition over a tuple of statistics ([`Expr::slotted`]): the same
/// arithmetic and truth as [`Expr::eval`], each statistic read at its
/// slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slotted {
    /// A number (a statistic the tuple does not carry reads 0).
    Num(i64),
    /// The statistic at this slot.
    Slot(usize),
    /// A flag at this slot: 1 when it is not 0.
    Flag(usize),
    /// `-x`.
    Neg(Box<Slotted>),
    /// `a + b`, `a - b`, `a * b`, `a / b` (floor).
    Arith(Op, Box<Slotted>, Box<Slotted>),
    /// `a CMP b`.
    Cmp(Cmp, Box<Slotted>, Box<Slotted>),
    /// `a CMP b` of two operands that are a number, a slot, or a slot
    /// plus a number.
    CmpOperands(Cmp, Operand, Operand),
    /// `a and b`.
    And(Box<Slotted>, Box<Slotted>),
    /// `a or b`.
    Or(Box<Slotted>, Box<Slotted>),
    /// `not a`.
    Not(Box<Slotted>),
}

impl Slotted {
    /// Evaluate on a tuple; true is 1.
    pub fn eval(&self, k: &[i64]) -> i64 {
        match self {
            Slotted::Num(v) => *v,
            Slotted::Slot(i) => k[*i],
            Slotted::Flag(i) => i64::from(k[*i] != 0),
            Slotted::Neg(a) => a.eval(k).saturating_neg(),
            Slotted::Arith(op, a, b) => {
                let (x, y) = (a.eval(k), b.eval(k));
                match op {
                    Op::Add => x.saturating_add(y),
                    Op::Sub => x.saturating_sub(y),
                    Op::Mul => x.saturating_mul(y),
                    Op::Div(_) => divide(x, y, Rounding::Floor),
                }
            }
            Slotted::Cmp(c, a, b) => i64::from(c.holds(a.eval(k), b.eval(k))),
            Slotted::CmpOperands(c, a, b) => i64::from(c.holds(a.eval(k), b.eval(k))),
            Slotted::And(a, b) => i64::from(a.eval(k) != 0 && b.eval(k) != 0),
            Slotted::Or(a, b) => i64::from(a.eval(k) != 0 || b.eval(k) != 0),
            Slotted::Not(a) => i64::from(a.eval(k) == 0),
        }
    }

    /// Whether it holds on the tuple `k`.
    pub fn holds(&self, k: &[i64]) -> bool {
        self.eval(k) != 0
    }

    /// Set bit `bit` of `masks[j]` where it holds on row `j` of [`Rows`]:
    /// a comparison of operands column by column (each side's values for
    /// every row, then one comparison a row: loops the compiler can
    /// unroll), any other condition row by row.
    pub fn mark_rows(&self, rows: &Rows<'_>, bit: u32, masks: &mut [u64], buf: &mut RowBuffers) {
        // A truth read at a slot (`doubles`, a flag): not 0, column by
        // column, no row written whole.
        if let Slotted::Slot(i) | Slotted::Flag(i) = *self {
            match rows.col(i) {
                Some(c) => {
                    for (m, v) in masks.iter_mut().zip(c) {
                        *m |= u64::from(*v != 0) << bit;
                    }
                }
                None => {
                    let t = u64::from(rows.base[i] != 0) << bit;
                    masks.iter_mut().for_each(|m| *m |= t);
                }
            }
            return;
        }
        let Slotted::CmpOperands(c, x, y) = self else {
            for (j, m) in masks.iter_mut().enumerate() {
                rows.write(j, &mut buf.tuple);
                *m |= u64::from(self.holds(&buf.tuple)) << bit;
            }
            return;
        };
        // Each side a column or one value, with the number it adds
        // (saturating, as `Operand::eval`).
        let n = masks.len();
        let side = |i: usize, plus: i64| match rows.col(i) {
            Some(c) => (Some(&c[..n]), plus),
            None => (None, rows.base[i].saturating_add(plus)),
        };
        let of = |o: Operand| match o {
            Operand::Num(v) => (None, v),
            Operand::Slot(i) => side(i, 0),
            Operand::SlotPlus(i, v) => side(i, v),
        };
        let (x, y) = (of(*x), of(*y));
        // Where every value and number is within ±2⁶¹, no sum or
        // difference leaves i64: the comparison is read from the sign of a
        // difference, in whole vectors (the baseline x86-64 has no 64-bit
        // comparison, but adds, subtracts and shifts).
        if let (Some(a), Some(b)) = (small_side(x), small_side(y)) {
            return mark_small(*c, masks, bit, a, b);
        }
        match (x, y) {
            ((Some(a), da), (Some(b), db)) => mark(
                *c,
                masks,
                bit,
                a.iter()
                    .zip(b)
                    .map(|(x, y)| (x.saturating_add(da), y.saturating_add(db))),
            ),
            ((Some(a), da), (None, b)) => {
                mark(*c, masks, bit, a.iter().map(|x| (x.saturating_add(da), b)))
            }
            ((None, a), (Some(b), db)) => {
                mark(*c, masks, bit, b.iter().map(|y| (a, y.saturating_add(db))))
            }
            ((None, a), (None, b)) => {
                if c.holds(a, b) {
                    masks.iter_mut().for_each(|m| *m |= 1 << bit);
                }
            }
        }
    }

    /// The condition's `and` / `or` / `not` over its atoms (every other
    /// node, read as true when not 0), each atom found in `atoms` or
    /// added to it: tiers that share a test (`action+2>c1` in three of
    /// Ironsworn's tiers) then read it once per tuple ([`Skeleton`]).
    pub fn skeleton(&self, atoms: &mut Vec<Slotted>) -> Skeleton {
        let b = |x: &Slotted, atoms: &mut Vec<Slotted>| Box::new(x.skeleton(atoms));
        match self {
            Slotted::And(x, y) => Skeleton::And(b(x, atoms), b(y, atoms)),
            Slotted::Or(x, y) => Skeleton::Or(b(x, atoms), b(y, atoms)),
            Slotted::Not(x) => Skeleton::Not(b(x, atoms)),
            atom => Skeleton::Atom(match atoms.iter().position(|a| a == atom) {
                Some(i) => i,
                None => {
                    atoms.push(atom.clone());
                    atoms.len() - 1
                }
            }),
        }
    }
}

/// A condition's truth over the truths of its atoms ([`Slotted::skeleton`]),
/// bit `i` of a mask the truth of atom `i`: the same truth as
/// [`Slotted::holds`] on the tuple the atoms were read on.
#[derive(Clone, Debug)]
pub enum Skeleton {
    /// Atom `i` holds.
    Atom(usize),
    /// Both hold.
    And(Box<Skeleton>, Box<Skeleton>),
    /// Either holds.
    Or(Box<Skeleton>, Box<Skeleton>),
    /// It does not hold.
    Not(Box<Skeleton>),
}

impl Skeleton {
    /// Add the atoms it reads, each time it reads one, to `n`.
    pub fn count_atoms(&self, n: &mut usize) {
        match self {
            Skeleton::Atom(_) => *n += 1,
            Skeleton::And(x, y) | Skeleton::Or(x, y) => {
                x.count_atoms(n);
                y.count_atoms(n);
            }
            Skeleton::Not(x) => x.count_atoms(n),
        }
    }

    /// Whether it holds where the atoms' truths are the bits of `mask`.
    pub fn holds(&self, mask: u64) -> bool {
        match self {
            Skeleton::Atom(i) => mask >> i & 1 == 1,
            Skeleton::And(x, y) => x.holds(mask) && y.holds(mask),
            Skeleton::Or(x, y) => x.holds(mask) || y.holds(mask),
            Skeleton::Not(x) => !x.holds(mask),
        }
    }
}

/// One side of a comparison over rows: a column plus a number, or one
/// value.
type Side<'a> = (Option<&'a [i64]>, i64);

/// The side where its column's values and its number are each in
/// [−2⁶¹, 2⁶¹) (checked in one pass of additions and ors: a value outside
/// has bit 62 or 63 of `v + 2⁶¹` set), so the side is in [−2⁶², 2⁶²) and
/// the difference of two sides in (−2⁶³, 2⁶³).
fn small_side(side: Side<'_>) -> Option<Side<'_>> {
    const QUARTER: u64 = 1 << 61;
    let (col, plus) = side;
    let outside = |v: i64| (v as u64).wrapping_add(QUARTER);
    let all = col.map_or(0, |c| c.iter().fold(0, |acc, &v| acc | outside(v)));
    ((all | outside(plus)) >> 62 == 0).then_some(side)
}

/// [`mark`] for small sides ([`small_side`]): `a < b` is the sign
/// bit of `a − b`, `a ≠ b` that of `d | −d` for `d = a ^ b`, each with
/// no overflow, so every loop is additions, ors and shifts.
fn mark_small(c: Cmp, masks: &mut [u64], bit: u32, a: Side<'_>, b: Side<'_>) {
    macro_rules! each {
        ($t:expr) => {
            match (a, b) {
                ((Some(xs), dx), (Some(ys), dy)) => {
                    for ((m, &x), &y) in masks.iter_mut().zip(xs).zip(ys) {
                        *m |= $t(x.wrapping_add(dx), y.wrapping_add(dy)) << bit;
                    }
                }
                ((Some(xs), dx), (None, y)) => {
                    for (m, &x) in masks.iter_mut().zip(xs) {
                        *m |= $t(x.wrapping_add(dx), y) << bit;
                    }
                }
                ((None, x), (Some(ys), dy)) => {
                    for (m, &y) in masks.iter_mut().zip(ys) {
                        *m |= $t(x, y.wrapping_add(dy)) << bit;
                    }
                }
                ((None, x), (None, y)) => {
                    let v = $t(x, y) << bit;
                    masks.iter_mut().for_each(|m| *m |= v);
                }
            }
        };
    }
    match c {
        Cmp::Lt => each!(|x: i64, y: i64| (x.wrapping_sub(y) as u64) >> 63),
        Cmp::Gt => each!(|x: i64, y: i64| (y.wrapping_sub(x) as u64) >> 63),
        Cmp::Ge => each!(|x: i64, y: i64| 1 ^ ((x.wrapping_sub(y) as u64) >> 63)),
        Cmp::Le => each!(|x: i64, y: i64| 1 ^ ((y.wrapping_sub(x) as u64) >> 63)),
        Cmp::Ne => each!(|x: i64, y: i64| {
            let d = x ^ y;
            ((d | d.wrapping_neg()) as u64) >> 63
        }),
        Cmp::Eq => each!(|x: i64, y: i64| {
            let d = x ^ y;
            1 ^ (((d | d.wrapping_neg()) as u64) >> 63)
        }),
    }
}

/// Set bit `bit` of each mask where `a cmp b` for its pair `(a, b)`:
/// one loop per comparison, the pairs inlined.
#[inline]
fn mark(c: Cmp, masks: &mut [u64], bit: u32, pairs: impl Iterator<Item = (i64, i64)>) {
    macro_rules! mark {
        ($op:tt) => {
            for (m, (a, b)) in masks.iter_mut().zip(pairs) {
                *m |= u64::from(a $op b) << bit;
            }
        };
    }
    match c {
        Cmp::Ge => mark!(>=),
        Cmp::Gt => mark!(>),
        Cmp::Le => mark!(<=),
        Cmp::Lt => mark!(<),
        Cmp::Eq => mark!(==),
        Cmp::Ne => mark!(!=),
    }
}

/// The buffers [`Slotted::mark_rows`] reuses from call to call.
#[derive(Clone, Debug, Default)]
pub struct RowBuffers {
    tuple: Vec<i64>,
}

/// One side of a comparison read without recursion: a number, a slot,
/// or a slot plus a number (`action+2`; saturating, as [`Expr::eval`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A number.
    Num(i64),
    /// The statistic at this slot.
    Slot(usize),
    /// The statistic at this slot plus a number.
    SlotPlus(usize, i64),
}

impl Operand {
    /// `e` as an operand, where it is one.
    fn of(e: &Expr, slot: &dyn Fn(&Stat) -> Option<usize>) -> Option<Operand> {
        let value = |e: &Expr| match e {
            Expr::Num(v) => Some(Operand::Num(*v)),
            Expr::Stat(s) => Some(slot(s).map_or(Operand::Num(0), Operand::Slot)),
            _ => None,
        };
        match e {
            Expr::Arith(Op::Add, a, b) => match (value(a)?, value(b)?) {
                (Operand::Slot(i), Operand::Num(v)) | (Operand::Num(v), Operand::Slot(i)) => {
                    Some(Operand::SlotPlus(i, v))
                }
                _ => None,
            },
            // `x - v` is `x + (-v)` but for the least number, whose
            // negation overflows.
            Expr::Arith(Op::Sub, a, b) => match (value(a)?, value(b)?) {
                (Operand::Slot(i), Operand::Num(v)) if v != i64::MIN => {
                    Some(Operand::SlotPlus(i, -v))
                }
                _ => None,
            },
            _ => value(e),
        }
    }

    #[inline]
    fn eval(self, k: &[i64]) -> i64 {
        match self {
            Operand::Num(v) => v,
            Operand::Slot(i) => k[i],
            Operand::SlotPlus(i, v) => k[i].saturating_add(v),
        }
    }
}

fn wrap(f: &mut fmt::Formatter<'_>, e: &Expr, min: u8) -> fmt::Result {
    if e.prec() < min {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Num(v) => write!(f, "{v}"),
            Expr::Var(n) => write!(f, "{{{n}}}"),
            Expr::Stat(s) => write!(f, "{s}"),
            Expr::Flag(n) => f.write_str(n),
            Expr::Neg(a) => {
                f.write_str("-")?;
                wrap(f, a, 8)
            }
            Expr::Arith(op, a, b) => {
                let p = self.prec();
                wrap(f, a, p)?;
                f.write_str(match op {
                    Op::Add => "+",
                    Op::Sub => "-",
                    Op::Mul => "*",
                    Op::Div(_) => "/",
                })?;
                wrap(f, b, p + 1)
            }
            Expr::Cmp(c, a, b, implicit) => {
                if !implicit {
                    wrap(f, a, 5)?;
                }
                f.write_str(c.text())?;
                wrap(f, b, 5)
            }
            Expr::And(a, b) => {
                wrap(f, a, 2)?;
                f.write_str(" and ")?;
                wrap(f, b, 3)
            }
            Expr::Or(a, b) => {
                wrap(f, a, 1)?;
                f.write_str(" or ")?;
                wrap(f, b, 2)
            }
            Expr::Not(a) => {
                f.write_str("not ")?;
                wrap(f, a, 3)
            }
        }
    }
}

/// A token of a condition; names are slices of the condition's text.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Num(i64),
    Ident(&'a str),
    /// `{NAME}`: a sweep's placeholder.
    Var(&'a str),
    Cmp(Cmp),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
    DotDot,
    And,
    Or,
    Not,
    End,
}

/// Most characters of a condition.
pub const MAX_LEN: usize = 500;

/// Whether `c` continues a name.
fn in_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The condition's tokens, each with its position in characters (for the
/// caret). Read in place: names are slices of `src`, and no copy of its
/// characters is made.
fn lex(src: &str) -> Result<Vec<(Tok<'_>, usize)>> {
    // At most a token a character (and the end).
    let mut out = Vec::with_capacity(src.len() + 1);
    // The byte where the next character starts, and its place in characters.
    let mut b = 0;
    let mut at = 0;
    // The character at byte `b`: an ASCII byte is its own character (no
    // decoding for nearly every condition).
    let char_at = |b: usize| match src.as_bytes().get(b) {
        Some(&x) if x.is_ascii() => Some(char::from(x)),
        Some(_) => src.get(b..).and_then(|r| r.chars().next()),
        None => None,
    };
    while let Some(c) = char_at(b) {
        let start = b;
        if c.is_whitespace() {
            b += c.len_utf8();
            at += 1;
            continue;
        }
        // The next character, for the two-character tokens.
        let next = char_at(b + c.len_utf8());
        let tok = if c.is_ascii_digit() {
            let mut v: i64 = 0;
            while let Some(d) = src.as_bytes().get(b).filter(|d| d.is_ascii_digit()) {
                v = v
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(i64::from(d - b'0')))
                    .filter(|v| *v <= super::parse::MAX_CONST)
                    .ok_or_else(|| notation_error(src, at, "number too large"))?;
                b += 1;
            }
            out.push((Tok::Num(v), at));
            at += b - start;
            continue;
        } else if c.is_alphabetic() || c == '_' {
            let mut n = 0;
            while let Some(c) = char_at(b).filter(|c| in_name(*c)) {
                b += c.len_utf8();
                n += 1;
            }
            let s = &src[start..b];
            // The words, in any case, without a lowercase copy.
            let t = if s.eq_ignore_ascii_case("and") {
                Tok::And
            } else if s.eq_ignore_ascii_case("or") {
                Tok::Or
            } else if s.eq_ignore_ascii_case("not") {
                Tok::Not
            } else {
                Tok::Ident(s)
            };
            out.push((t, at));
            at += n;
            continue;
        } else if c == '{' {
            // `{NAME}`: a placeholder, a name between braces.
            let mut j = b + 1;
            let mut n = 0;
            while let Some(c) = char_at(j).filter(|c| in_name(*c)) {
                j += c.len_utf8();
                n += 1;
            }
            if n == 0 || char_at(j) != Some('}') {
                return Err(notation_error(
                    src,
                    at,
                    "a placeholder is a name between braces, {dc}, whose values --sweep dc=LO..HI gives",
                ));
            }
            out.push((Tok::Var(&src[b + 1..j]), at));
            b = j + 1;
            at += n + 2;
            continue;
        } else if c == '&' && next == Some('&') {
            Tok::And
        } else if c == '|' && next == Some('|') {
            Tok::Or
        } else if c == '.' && next == Some('.') {
            Tok::DotDot
        } else if c == '!' && next != Some('=') {
            Tok::Not
        } else if matches!(c, '<' | '>' | '=' | '!') {
            let run = src[b..]
                .bytes()
                .take_while(|c| matches!(c, b'<' | b'>' | b'=' | b'!'))
                .count();
            // ASCII: the run is its own text (a run of more than four is
            // no comparison).
            let text = &src[b..b + run];
            let cmp = (run <= 4)
                .then(|| Cmp::from_text(text))
                .flatten()
                .ok_or_else(|| {
                    notation_error(
                        src,
                        at,
                        format!(
                            "{} is no comparison (allowed >= > <= < = == != <>)",
                            crate::error::quote(text)
                        ),
                    )
                })?;
            out.push((Tok::Cmp(cmp), at));
            b += run;
            at += run;
            continue;
        } else {
            match c {
                '+' => Tok::Plus,
                '-' => Tok::Minus,
                '*' => Tok::Star,
                '/' => Tok::Slash,
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                ',' => Tok::Comma,
                _ => {
                    return Err(notation_error(
                        src,
                        at,
                        format!("unexpected '{c}' in a condition (allowed: numbers, statistics such as total, max, count(==6), names, + - * / ( ), comparisons, and, or, not)"),
                    ))
                }
            }
        };
        // A token of one character, or of two (`&&`, `||`, `..`).
        let two = matches!(tok, Tok::And | Tok::Or | Tok::DotDot);
        let width = if two { 2 } else { 1 };
        for _ in 0..width {
            b += char_at(b).map_or(1, char::len_utf8);
        }
        at += width;
        out.push((tok, at - width));
    }
    out.push((Tok::End, at));
    Ok(out)
}

struct P<'a> {
    src: &'a str,
    toks: Vec<(Tok<'a>, usize)>,
    i: usize,
    /// Names read as yes/no facts ([`Expr::Flag`]).
    flags: &'a [String],
}

impl<'a> P<'a> {
    fn peek(&self) -> &Tok<'a> {
        &self.toks[self.i].0
    }
    fn pos(&self) -> usize {
        self.toks[self.i].1
    }
    fn err<T>(&self, m: impl Into<String>) -> Result<T> {
        Err(notation_error(self.src, self.pos(), m))
    }
    fn eat(&mut self, t: &Tok<'_>) -> bool {
        if self.peek() == t {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Expr> {
        let mut a = self.and()?;
        while self.eat(&Tok::Or) {
            let b = self.and()?;
            a = Expr::Or(Box::new(a), Box::new(b));
        }
        Ok(a)
    }
    fn and(&mut self) -> Result<Expr> {
        let mut a = self.not()?;
        while self.eat(&Tok::And) {
            let b = self.not()?;
            a = Expr::And(Box::new(a), Box::new(b));
        }
        Ok(a)
    }
    fn not(&mut self) -> Result<Expr> {
        if self.eat(&Tok::Not) {
            let at = self.pos();
            let a = self.not()?;
            if !a.is_bool() {
                return Err(notation_error(
                    self.src,
                    at,
                    "'not' applies to a comparison (not max>=4)",
                ));
            }
            return Ok(Expr::Not(Box::new(a)));
        }
        self.cmp()
    }
    fn cmp(&mut self) -> Result<Expr> {
        let a = self.sum()?;
        if let Tok::Cmp(c) = *self.peek() {
            self.i += 1;
            let b = self.sum()?;
            return Ok(Expr::Cmp(c, Box::new(a), Box::new(b), false));
        }
        Ok(a)
    }
    fn sum(&mut self) -> Result<Expr> {
        let mut a = self.prod()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => Op::Add,
                Tok::Minus => Op::Sub,
                _ => return Ok(a),
            };
            self.i += 1;
            let b = self.prod()?;
            a = Expr::Arith(op, Box::new(a), Box::new(b));
        }
    }
    fn prod(&mut self) -> Result<Expr> {
        let mut a = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Star => Op::Mul,
                Tok::Slash => Op::Div(Rounding::Floor),
                _ => return Ok(a),
            };
            self.i += 1;
            let b = self.unary()?;
            a = Expr::Arith(op, Box::new(a), Box::new(b));
        }
    }
    fn unary(&mut self) -> Result<Expr> {
        match *self.peek() {
            Tok::Var(name) => {
                self.i += 1;
                Ok(Expr::Var(name.into()))
            }
            Tok::Minus => {
                self.i += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Tok::Num(v) => {
                self.i += 1;
                Ok(Expr::Num(v))
            }
            Tok::LParen => {
                self.i += 1;
                let e = self.or()?;
                if !self.eat(&Tok::RParen) {
                    return self.err("expected ')'");
                }
                Ok(e)
            }
            Tok::Ident(name) => {
                self.i += 1;
                // The words in any case, with no lowercase copy made.
                if let Some((_, s)) = super::pool::stat::WORDS
                    .iter()
                    .find(|(w, _)| w.eq_ignore_ascii_case(name))
                {
                    return Ok(Expr::Stat(s.clone()));
                }
                Ok(Expr::Stat(match name {
                    _ if name.eq_ignore_ascii_case("count") => self.count()?,
                    // A name read like a call: the one call is count(…).
                    _ if *self.peek() == Tok::LParen => {
                        let low = name.to_ascii_lowercase();
                        return self.err(format!(
                            "'{name}(' is no statistic: the one with parentheses is count(FACE[,NAME]) (count(==6), count(1, base)){}",
                            if crate::error::edit_distance(&low, "count") <= 2 {
                                "; did you mean count?"
                            } else {
                                ""
                            }
                        ));
                    }
                    _ if self.flags.iter().any(|f| f.eq_ignore_ascii_case(name)) => {
                        return Ok(Expr::Flag(name.to_ascii_lowercase().into()));
                    }
                    _ => Stat::Named(name.into()),
                }))
            }
            Tok::End => self.err("the condition ends here: expected a number, a statistic (total, max, count(==6)…) or a name"),
            _ => self.err("expected a number, a statistic (total, max, count(==6)…) or a name"),
        }
    }
    fn signed(&mut self) -> Result<i64> {
        let neg = self.eat(&Tok::Minus);
        match *self.peek() {
            Tok::Num(v) => {
                self.i += 1;
                Ok(if neg { -v } else { v })
            }
            _ => self.err("expected a face (a whole number)"),
        }
    }
    fn count(&mut self) -> Result<Stat> {
        if !self.eat(&Tok::LParen) {
            return self.err(
                "count takes a face condition: count(==6), count(>=5), count(2..5), count(1, base)",
            );
        }
        let face = if let Tok::Cmp(c) = *self.peek() {
            self.i += 1;
            FaceCond::Cmp(c, self.signed()?)
        } else {
            let lo = self.signed()?;
            if self.eat(&Tok::DotDot) {
                let hi = self.signed()?;
                if hi < lo {
                    return self.err(format!(
                        "the range {lo}..{hi} is empty: write the smaller face first"
                    ));
                }
                FaceCond::Range(lo, hi)
            } else {
                FaceCond::Cmp(Cmp::Eq, lo)
            }
        };
        let term = if self.eat(&Tok::Comma) {
            match *self.peek() {
                Tok::Ident(n) => {
                    self.i += 1;
                    Some(n)
                }
                _ => return self.err("expected a term's name after ',' (count(1, base))"),
            }
        } else {
            None
        };
        if !self.eat(&Tok::RParen) {
            return self.err("expected ')' (count(==6) or count(1, base))");
        }
        Ok(Stat::Count(face, term.map(Name::from)))
    }
}

/// Parse a condition (full-width characters read as half-width).
pub fn parse(input: &str) -> Result<Expr> {
    parse_with(input, &[])
}

/// [`parse`] with `flags`: names read as yes/no facts (a chain's first
/// roll: `success`, `critical`, a game's words).
pub fn parse_with(input: &str, flags: &[String]) -> Result<Expr> {
    let src = normalize_width(input.trim());
    if src.is_empty() {
        return Err(notation_error(
            &src,
            0,
            "an empty condition: give one like >=10, max==6 or count(==6)>=2",
        ));
    }
    // Bytes bound characters: counted only where the bytes are over.
    if src.len() > MAX_LEN && src.chars().count() > MAX_LEN {
        return Err(notation_error(
            &src,
            MAX_LEN,
            format!("the condition is too long (at most {MAX_LEN} characters)"),
        ));
    }
    let toks = lex(&src)?;
    let mut p = P {
        src: &src,
        toks,
        i: 0,
        flags,
    };
    // A leading comparison reads the result: `>=10`.
    let e = if let Tok::Cmp(c) = *p.peek() {
        p.i += 1;
        let b = p.sum()?;
        let mut e = Expr::Cmp(c, Box::new(Expr::Stat(Stat::Total)), Box::new(b), true);
        // `>=10 and max==6`
        while p.eat(&Tok::And) {
            let b = p.not()?;
            e = Expr::And(Box::new(e), Box::new(b));
        }
        while p.eat(&Tok::Or) {
            let b = p.and()?;
            e = Expr::Or(Box::new(e), Box::new(b));
        }
        e
    } else {
        p.or()?
    };
    if *p.peek() != Tok::End {
        return p.err("unexpected text after the condition (join conditions with and / or)");
    }
    if !e.is_bool() {
        return Err(notation_error(
            &src,
            0,
            "a condition is true or false: compare it (max>=6, count(==6)>=2, hope>fear) or use doubles / pushed",
        ));
    }
    Ok(e)
}

/// Read one statistic by its name in conditions (`max`, `count(6)`,
/// `hope`); `None` when the text is not exactly one statistic.
pub fn parse_stat(text: &str) -> Option<Stat> {
    let src = normalize_width(text.trim());
    let toks = lex(&src).ok()?;
    let mut p = P {
        src: &src,
        toks,
        i: 0,
        flags: &[],
    };
    match p.unary().ok()? {
        Expr::Stat(s) if *p.peek() == Tok::End => Some(s),
        _ => None,
    }
}

/// Read a face condition (`6`, `==6`, `>=5`, `<3`, `!=1`, `2..5`); the
/// message says what was wrong.
pub fn parse_face(text: &str) -> std::result::Result<FaceCond, String> {
    let src = normalize_width(text.trim());
    let toks = lex(&src).map_err(|e| e.to_string())?;
    let mut p = P {
        src: &src,
        toks,
        i: 0,
        flags: &[],
    };
    let face = if let Tok::Cmp(c) = *p.peek() {
        p.i += 1;
        FaceCond::Cmp(
            c,
            p.signed()
                .map_err(|_| format!("'{src}': expected a face after the comparison"))?,
        )
    } else {
        let lo = p
            .signed()
            .map_err(|_| format!("'{src}' is no face condition"))?;
        if p.eat(&Tok::DotDot) {
            let hi = p
                .signed()
                .map_err(|_| format!("'{src}': expected the range's last face"))?;
            if hi < lo {
                return Err(format!("the range {lo}..{hi} is empty"));
            }
            FaceCond::Range(lo, hi)
        } else {
            FaceCond::Cmp(Cmp::Eq, lo)
        }
    };
    if *p.peek() != Tok::End {
        return Err(format!("'{src}': unexpected text after the face condition"));
    }
    Ok(face)
}
