//! `height` (高さ, One-Roll Engine): the face of the widest set, the
//! highest on ties.

use std::fmt;

use super::{idempotent, one_pool, widest, Program, Span, Statistic, NONE_LOW};
use crate::error::Result;
use crate::systems::dice::roll::Facts;

/// The face of the widest set (0 with no dice); found with its width.
#[derive(Clone, Copy, Debug)]
pub struct Height;

impl Statistic for Height {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("height")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        widest(facts).map_or(0, |(f, _)| f)
    }
    fn neutral(&self) -> i64 {
        NONE_LOW
    }
    fn combine(&self, a: i64, b: i64) -> i64 {
        a.max(b)
    }
    fn times(&self, v: i64, m: i64) -> i64 {
        idempotent(self, v, m)
    }
    fn finish(&self, v: i64) -> i64 {
        super::max::Max.finish(v)
    }
    fn order_free(&self) -> bool {
        false
    }
    fn values(&self, span: &Span) -> u64 {
        span.distinct + 1
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        one_pool(program)
    }
}
