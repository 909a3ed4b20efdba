//! Parallel, reproducible simulation of a [`Sampler`].
//!
//! Trials are split into fixed batches of [`BATCH`]; batch `b` draws from
//! its own generator seeded from `(seed, b)` and the per-batch counts are
//! added up. Integer addition is associative and commutative, so the counts
//! are bit-identical whatever the number of threads or the order in which
//! rayon runs the batches (rand's `rayon-monte-carlo` example explains why
//! per-thread generators, as with `map_init`, would not be).

use rayon::prelude::*;

use super::dice::Dice;

/// Trials per batch.
pub const BATCH: u64 = 1 << 14;

/// One run of the dice procedure of a rule: roll real dice, judge them with
/// the system's plain rule, return the outcome cell.
pub trait Sampler: Sync + Send {
    /// Number of outcome cells.
    fn cells(&self) -> usize;
    /// Roll and judge once; returns a cell index below [`Sampler::cells`].
    fn trial(&self, dice: &mut Dice) -> usize;
}

/// Counts per cell of `trials` trials seeded with `seed`, on the current
/// rayon pool.
pub fn simulate(sampler: &dyn Sampler, trials: u64, seed: u64) -> Vec<u64> {
    let cells = sampler.cells();
    let batches = trials.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            let mut dice = Dice::for_batch(seed, b);
            let n = BATCH.min(trials - b * BATCH);
            let mut counts = vec![0u64; cells];
            for _ in 0..n {
                counts[sampler.trial(&mut dice)] += 1;
            }
            counts
        })
        .reduce(
            || vec![0u64; cells],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}
