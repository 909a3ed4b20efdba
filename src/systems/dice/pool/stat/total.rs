//! `total`, `result` (達成値): the expression's value.

use std::fmt;

use super::Statistic;
use crate::systems::dice::roll::Facts;

/// The result: the kept dice's scores through the expression's arithmetic
/// (a pool term's part of it adds die by die).
#[derive(Clone, Copy, Debug)]
pub struct Total;

impl Statistic for Total {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("total")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        facts.total
    }
    fn contribution(&self, die: super::Die<'_>) -> i64 {
        die.score.value
    }
    fn kept_only(&self) -> bool {
        true
    }
}
