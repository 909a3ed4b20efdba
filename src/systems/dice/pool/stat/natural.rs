//! `natural` (出目): the kept faces summed, before arithmetic.

use std::fmt;

use super::Statistic;
use crate::systems::dice::roll::Facts;

/// The kept faces summed.
#[derive(Clone, Copy, Debug)]
pub struct Natural;

impl Statistic for Natural {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("natural")
    }
    fn of_roll(&self, facts: &Facts) -> i64 {
        facts.natural
    }
    fn contribution(&self, die: super::Die<'_>) -> i64 {
        die.face
    }
    fn kept_only(&self) -> bool {
        true
    }
}
