//! `max` (最大の出目): the highest face of every die rolled.

use std::fmt;

use super::{faces, Combine, Saturation, Span, Statistic, NONE_HIGH, NONE_LOW};
use crate::systems::dice::roll::Facts;

/// The highest face (0 with no dice).
#[derive(Clone, Copy, Debug)]
pub struct Max;

impl Statistic for Max {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("max")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        faces(facts).max().unwrap_or(0)
    }
    fn contribution(&self, die: super::Die<'_>) -> i64 {
        die.face
    }
    fn neutral(&self) -> i64 {
        NONE_LOW
    }
    fn combining(&self) -> Combine {
        Combine::Max
    }
    fn finish(&self, v: i64) -> i64 {
        if v == NONE_LOW || v == NONE_HIGH {
            0
        } else {
            v
        }
    }
    fn extreme(&self) -> Option<super::Extreme> {
        Some(super::Extreme::Highest)
    }
    fn saturation(&self) -> Saturation {
        Saturation::Both
    }
    fn values(&self, span: &Span) -> u64 {
        span.distinct + 1
    }
}
