//! Monte Carlo cross-checks of the exact engine (`hantei verify`).
//!
//! Samplers roll the dice procedure itself — faces from a seeded generator
//! ([`dice`]), judged by each system's `classify` — and never sample from
//! the exact answer. [`runner`] runs them in parallel, reproducibly;
//! [`stats`] compares the counts with the exact law. Each system's default
//! grid of parameter points lives in its own module here (a sixth system
//! adds one more).

pub mod d20;
pub mod dice;
pub mod games;
pub mod hit_pool;
pub mod keep_highest;
pub mod levels;
pub mod multiplier;
pub mod notation;
pub mod rounds;
pub mod run;
pub mod runner;
pub mod stats;

pub use runner::Sampler;

/// Fewest trials per point that can test a grid: below this the
/// chi-square test pools most cells away (a cell needs an expected count of
/// 5, so 10,000 trials still test every cell of probability ≥ 0.05%) and a
/// "disagreement" says nothing.
pub const MIN_TRIALS: u64 = 10_000;

/// Most trials per point: 10⁸ is about ten minutes for the whole default
/// grid on two cores; more is a typo, not a test.
pub const MAX_TRIALS: u64 = 100_000_000;

/// Check a trial count (`name` is the flag or key that gave it).
pub fn check_trials(name: &str, trials: u64) -> crate::Result<()> {
    if !(MIN_TRIALS..=MAX_TRIALS).contains(&trials) {
        return Err(crate::Error::param(
            name,
            trials,
            format!(
                "allowed {MIN_TRIALS}..={MAX_TRIALS} (fewer cannot test the grid's cells; more takes hours)"
            ),
        ));
    }
    Ok(())
}

/// One parameter point to verify: a sampler of the dice procedure and the
/// exact law of its outcome cells.
pub struct Point {
    /// System id.
    pub system: &'static str,
    /// Human-readable parameter point, e.g. `pool=12 threshold=3 edge=push:4`.
    pub label: String,
    /// Name of each outcome cell.
    pub cells: Vec<String>,
    /// Exact probability of each cell, from the exact engine (computed in
    /// exact arithmetic and converted).
    pub exact: Vec<f64>,
    /// Rolls real dice and judges them with the system's plain rule.
    pub sampler: Box<dyn Sampler>,
}

/// Every system's default grid, in [`crate::systems::IDS`] order.
pub fn default_grid() -> Vec<Point> {
    let mut points = multiplier::grid();
    points.extend(d20::grid());
    points.extend(keep_highest::grid());
    points.extend(levels::grid());
    points.extend(hit_pool::grid());
    points.extend(notation::grid());
    points.extend(rounds::grid());
    points.extend(games::grid());
    points
}
