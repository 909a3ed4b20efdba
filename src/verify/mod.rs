//! Monte Carlo cross-checks of the exact engine (`hantei verify`).
//!
//! Samplers roll the dice procedure itself — faces from a seeded generator
//! ([`dice`]), judged by each system's `classify` — and never sample from
//! the exact answer. [`runner`] runs them in parallel, reproducibly;
//! [`stats`] compares the counts with the exact law.

pub mod dice;
pub mod runner;
pub mod stats;
