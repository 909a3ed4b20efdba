//! `count(==6)`, `count(1, base)` (個数): how many dice show a face
//! meeting a condition, in every term or in the named one.

use std::fmt;

use super::{list_or_none, Die, Program, Saturation, Span, Statistic};
use crate::error::{Error, Result};
use crate::systems::dice::ast::FaceCond;
use crate::systems::dice::roll::Facts;

/// Dice whose face meets `face`, in the term named `term` or in all.
#[derive(Clone, Copy, Debug)]
pub struct Count<'a> {
    /// The faces counted.
    pub face: FaceCond,
    /// Only the dice of this named term.
    pub term: Option<&'a str>,
}

impl Statistic for Count<'_> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.term {
            None => write!(f, "count({})", self.face),
            Some(n) => write!(f, "count({},{n})", self.face),
        }
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        facts
            .dice
            .iter()
            .filter(|d| {
                self.face.holds(d.face) && (self.term.is_none() || d.term.as_deref() == self.term)
            })
            .count() as i64
    }
    fn contribution(&self, die: Die<'_>) -> i64 {
        let mine = self.term.is_none_or(|n| Some(n) == die.term);
        i64::from(mine && self.face.holds(die.face))
    }
    /// A count grows by 0 or 1 a die: read as `>= k` it stops at `k`.
    fn saturation(&self) -> Saturation {
        Saturation::Upper
    }
    fn values(&self, span: &Span) -> u64 {
        let additive = span.additive();
        match span.cap {
            Some(c) => additive.min(c.saturating_add(1).max(1) as u64),
            None => additive,
        }
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        match self.term {
            Some(n) if !program.names.contains(&n) => Err(Error::Conflict(format!(
                "dice: count(…, {n}) names no term (named terms: {})",
                list_or_none(program.names)
            ))),
            _ => Ok(()),
        }
    }
}
