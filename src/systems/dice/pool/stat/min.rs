//! `min` (最小の出目): the lowest face of every die rolled.

use std::fmt;

use super::{faces, Combine, Saturation, Span, Statistic, NONE_HIGH};
use crate::systems::dice::roll::Facts;

/// The lowest face (0 with no dice).
#[derive(Clone, Copy, Debug)]
pub struct Min;

impl Statistic for Min {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("min")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        faces(facts).min().unwrap_or(0)
    }
    fn contribution(&self, die: super::Die<'_>) -> i64 {
        die.face
    }
    fn neutral(&self) -> i64 {
        NONE_HIGH
    }
    fn combining(&self) -> Combine {
        Combine::Min
    }
    fn finish(&self, v: i64) -> i64 {
        super::max::Max.finish(v)
    }
    fn extreme(&self) -> Option<super::Extreme> {
        Some(super::Extreme::Lowest)
    }
    fn saturation(&self) -> Saturation {
        Saturation::Both
    }
    fn values(&self, span: &Span) -> u64 {
        span.distinct + 1
    }
}
