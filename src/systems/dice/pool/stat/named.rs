//! A named term's value (名前付きの項): `hope` of `1D12[hope]`.

use std::fmt;

use super::{list_or_none, Program, Saturation, Span, Statistic};
use crate::error::{Error, Result};
use crate::systems::dice::roll::Facts;

/// The value of the term named `.0`: set once its law is built (its dice
/// contribute nothing one by one).
#[derive(Clone, Copy, Debug)]
pub struct Named<'a>(pub &'a str);

impl Statistic for Named<'_> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        facts
            .named
            .iter()
            .find(|(m, _)| m == self.0)
            .map_or(0, |(_, v)| *v)
    }
    /// Values beyond the thresholds read alike: clamped where it is set.
    fn saturation(&self) -> Saturation {
        Saturation::Set
    }
    /// Neutral while its term's law is built.
    fn values(&self, _: &Span) -> u64 {
        1
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        if program.names.contains(&self.0) {
            Ok(())
        } else {
            Err(Error::Conflict(format!(
                "dice: no term is named '{}' (named terms: {})",
                self.0,
                list_or_none(program.names)
            )))
        }
    }
}
