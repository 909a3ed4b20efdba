//! `pushed` (振り直し): whether the check was pushed.

use std::fmt;

use super::{Combine, Span, Statistic};
use crate::systems::dice::roll::Facts;

/// 1 when the check was pushed, else 0 (set by the push, not by dice).
#[derive(Clone, Copy, Debug)]
pub struct Pushed;

impl Statistic for Pushed {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("pushed")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        i64::from(facts.pushed)
    }
    fn combining(&self) -> Combine {
        Combine::Max
    }
    fn values(&self, _: &Span) -> u64 {
        2
    }
}
