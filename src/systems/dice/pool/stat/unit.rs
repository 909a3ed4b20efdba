//! A named score (名前付きの得点): `s` of `D{0,s,2s}`, summed over every
//! die.

use std::fmt;

use super::{list_or_none, Die, Program, Statistic};
use crate::error::{Error, Result};
use crate::systems::dice::roll::Facts;

/// The named score `.0`, summed.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a>(pub &'a str);

impl Statistic for Unit<'_> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        facts.dice.iter().map(|d| d.score.unit(self.0)).sum()
    }
    fn contribution(&self, die: Die<'_>) -> i64 {
        die.score.unit(self.0)
    }
    fn check(&self, program: &Program<'_>) -> Result<()> {
        if program.units.iter().any(|u| u == self.0) {
            Ok(())
        } else {
            Err(Error::Conflict(format!(
                "dice: no face scores '{}' (named scores: {})",
                self.0,
                list_or_none(program.units)
            )))
        }
    }
}
