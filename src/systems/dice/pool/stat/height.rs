//! `height` (高さ, One-Roll Engine): the face of the widest set, the
//! highest on ties.

use std::fmt;

use super::{one_pool, widest, Max, Program, Span, Statistic};
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
    // Carried like the highest face (its widest set's face, found with
    // the width): the maximum's encoding and rules.
    fn neutral(&self) -> i64 {
        Max.neutral()
    }
    fn combine(&self, a: i64, b: i64) -> i64 {
        Max.combine(a, b)
    }
    fn times(&self, v: i64, m: i64) -> i64 {
        Max.times(v, m)
    }
    fn finish(&self, v: i64) -> i64 {
        Max.finish(v)
    }
    fn values(&self, span: &Span) -> u64 {
        Max.values(span)
    }
    fn order_free(&self) -> bool {
        false
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        one_pool(program)
    }
}
