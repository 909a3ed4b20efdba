//! (being written)
use crate::report::Report;
use crate::weight::Weight;

/// Flags (being written).
#[derive(clap::Args, Debug)]
pub struct Args {}

impl Args {
    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        Err(crate::Error::Conflict("not yet written".into()))
    }
}
