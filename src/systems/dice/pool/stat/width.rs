//! `width` (幅, One-Roll Engine): the most dice showing one face.

use std::fmt;

use super::{one_pool, widest, Combine, Program, Span, Statistic};
use crate::error::Result;
use crate::systems::dice::roll::Facts;

/// The size of the widest set of equal faces (0 with no dice). Needs the
/// dice's multiplicities: built by the fold, never die by die.
#[derive(Clone, Copy, Debug)]
pub struct Width;

impl Statistic for Width {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("width")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        widest(facts).map_or(0, |(_, c)| c)
    }
    fn combining(&self) -> Combine {
        Combine::Max
    }
    fn order_free(&self) -> bool {
        false
    }
    fn values(&self, span: &Span) -> u64 {
        span.dice + 1
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        one_pool(program)
    }
}
