//! `doubles`, `all_equal` (ゾロ目): every die shows the same face.

use std::fmt;

use super::{faces, Combine, Span, Statistic, NONE_HIGH, NONE_LOW};
use crate::systems::dice::roll::Facts;

/// 1 when every die shows one face (and there is a die), else 0. Carried
/// as the common face, [`NONE_LOW`] with no die yet, [`NONE_HIGH`] once
/// two faces differ.
#[derive(Clone, Copy, Debug)]
pub struct AllEqual;

impl Statistic for AllEqual {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("doubles")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        let first = facts.dice.first().map(|d| d.face);
        i64::from(first.is_some() && faces(facts).all(|f| Some(f) == first))
    }
    fn contribution(&self, die: super::Die<'_>) -> i64 {
        die.face
    }
    fn neutral(&self) -> i64 {
        NONE_LOW
    }
    fn combining(&self) -> Combine {
        Combine::AllEqual
    }
    fn finish(&self, v: i64) -> i64 {
        i64::from(v != NONE_HIGH && v != NONE_LOW)
    }
    fn values(&self, span: &Span) -> u64 {
        span.distinct + 2
    }
}
