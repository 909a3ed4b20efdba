//! `height` (高さ, One-Roll Engine): the face of the widest set, the
//! highest on ties.

use std::fmt;

use super::{one_pool, widest, Combine, Max, Program, Saturation, Span, Statistic};
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
    fn combining(&self) -> Combine {
        Max.combining()
    }
    fn finish(&self, v: i64) -> i64 {
        Max.finish(v)
    }
    fn values(&self, span: &Span) -> u64 {
        Max.values(span)
    }
    // Set, never compared with another height (the fold places faces
    // highest first, so a later set as wide keeps the earlier face): read
    // only against numbers, every face beyond the thresholds reads alike
    // (`height>=8` carries 7 or 8, not ten faces).
    fn saturation(&self) -> Saturation {
        Saturation::Both
    }
    fn order_free(&self) -> bool {
        false
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        one_pool(program)
    }
}
