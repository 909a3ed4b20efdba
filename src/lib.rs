//! # hantei (判定, "the check")
//!
//! Exact odds of tabletop-RPG action-resolution rules.
//!
//! * [`pmf`] — the immutable distribution type [`Pmf`], generic over the
//!   [`Weight`] number type (`f64` or exact fractions, [`Exact`]).
//! * [`tier`], [`contest`], [`extended`] — building blocks shared by every
//!   system: ordered outcome tiers, contests, extended tests.
//! * [`systems`] — one module per resolution system (a sixth system goes
//!   there, next to the five).
//! * [`report`], [`export`] — what a calculation says, and its renderings
//!   (table, CSV, JSON, Markdown) as bytes.
//! * [`request`] — the typed [`Request`] (a system and its parameters) that
//!   every front end builds; [`odds`] turns it into a [`Report`].
//! * [`analysis`] — analysis files (`analyses/*.toml`): sweeps, tables,
//!   charts, checks, and the diff of committed tables.
//! * [`init`] — the templates `hantei init` scaffolds a rules repo from.
//! * [`serve`] — `hantei serve`: the odds explorer in a browser, and its
//!   JSON API over [`Request`].
//! * [`cli`] — the `hantei` command line, a thin layer over the above.

pub mod analysis;
pub mod chart;
pub mod cli;
pub mod contest;
pub mod error;
pub mod export;
pub mod extended;
pub mod init;
pub mod pmf;
pub mod publish;
pub mod report;
pub mod request;
pub mod rounds;
pub mod serve;
pub mod systems;
pub mod tier;
pub mod verify;
pub mod weight;

pub use error::{Error, Result};
pub use pmf::Pmf;
pub use report::{Field, Report};
pub use request::{odds, Request};
pub use tier::{Tier, TierLaw};
pub use weight::{Exact, Weight};
