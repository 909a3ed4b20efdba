//! A whole verification run: every point simulated, fitted, and judged
//! with the family-wise error held at α.
//!
//! Each point gets two tests of its counts against the exact law: Pearson's
//! chi-square over the (pooled) cells, and the largest single-cell deviation
//! (a two-sided z-test per cell, Bonferroni over the cells), which catches a
//! small shift in one rare outcome that the chi-square dilutes. The point's
//! p-value is `min(1, 2·min(p_χ², p_dev))` (Bonferroni over the two tests).
//! Holm's step-down procedure over all points then holds the probability of
//! rejecting any correct point at α (default [`DEFAULT_ALPHA`]). A simulated
//! outcome the exact law calls impossible fails its point outright.
//!
//! **Confirmation.** A point that Holm rejects is not reported yet: it is
//! simulated again with a fresh, independent seed and
//! [`CONFIRM_FACTOR`] × the trials, and fails only if this second stage
//! rejects it too, at α / k (Bonferroni over the k points sent to the second
//! stage). Why the family-wise error stays at α: let `S` be the set of
//! suspects the first stage picks (`k = |S|`). The second stage's streams
//! are seeded apart from the first's (the run's seed is salted), so given
//! `S` its counts are independent of everything the first stage saw, and a
//! correct point's second-stage p-value is still (at least) uniform: it
//! falls below α/k with probability at most α/k. Given `S`, the chance that
//! some correct point of `S` is confirmed is therefore at most
//! `|S ∩ correct| · α/k ≤ α`, and averaging over `S` keeps it at most α —
//! whatever rule picked the suspects (Holm's first stage only screens). A
//! one-in-thousands fluctuation of the first stage is no longer a failed
//! run, while a real disagreement is larger with more trials and is
//! confirmed (the planted-bug power tests in `tests/verify_power.rs` check
//! that every planted bug still fails at the default trial count). Two
//! caveats, both on the safe side or negligible: the per-cell tails are
//! exact binomial tails (discrete, so conservative), the chi-square's
//! p-value is the usual asymptotic one over cells pooled to expected counts
//! of at least 5; and an outcome the exact law calls impossible fails its
//! point at once, unconfirmed — a correct law gives it probability 0 (the
//! truncated tail of exploding dice is counted in the last cell, not
//! dropped).

use serde_json::{json, Value};

use super::runner::simulate;
use super::stats::{fit, holm_reject, Fit};
use super::Point;

/// Default family-wise error rate of a run.
pub const DEFAULT_ALPHA: f64 = 0.01;
/// Default trials per point: the quick run (CI's; every system in a few
/// seconds to a minute), which finds a wrong law of any size worth a table.
pub const DEFAULT_TRIALS: u64 = 200_000;
/// Trials per point of the thorough run (`--trials 2000000`): the count at
/// which `tests/verify_power.rs` shows the planted small errors rejected.
pub const THOROUGH_TRIALS: u64 = 2_000_000;
/// Trials per point of the timing pass before a run on a terminal.
pub const PILOT_TRIALS: u64 = 2_048;
/// Default seed.
pub const DEFAULT_SEED: u64 = 20_261_121;
/// Trials of the confirmation stage, as a multiple of the first stage's.
pub const CONFIRM_FACTOR: u64 = 4;
/// Mixed into the seed of the confirmation stage (a stream of its own).
const CONFIRM_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The result of one point.
#[derive(Clone, Debug)]
pub struct PointResult {
    /// System id.
    pub system: &'static str,
    /// Parameter point.
    pub label: String,
    /// Counts per cell.
    pub counts: Vec<u64>,
    /// The fit against the exact law.
    pub fit: Fit,
    /// Name of the cell that deviates most.
    pub worst_cell: String,
    /// Combined p-value of the point (chi-square and max deviation).
    pub p_value: f64,
    /// Whether the point agrees with its exact law.
    pub pass: bool,
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct VerifyRun {
    /// Seed of the run.
    pub seed: u64,
    /// Trials per point.
    pub trials: u64,
    /// Family-wise error rate.
    pub alpha: f64,
    /// One result per point, in grid order.
    pub results: Vec<PointResult>,
}

/// FNV-1a, to give each point a seed of its own that does not depend on
/// its position in the grid.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seed of `point` in a run seeded with `seed`.
pub fn point_seed(seed: u64, point: &Point) -> u64 {
    seed ^ fnv1a(point.system) ^ fnv1a(&point.label).rotate_left(17)
}

/// P(some cell's exact binomial tail is as small as the smallest seen), by
/// Bonferroni over `cells` cells.
fn max_dev_p(worst_cell_p: f64, cells: usize) -> f64 {
    (worst_cell_p * cells.max(1) as f64).min(1.0)
}

/// Simulate and fit one point.
pub fn run_point(point: &Point, trials: u64, seed: u64) -> PointResult {
    let counts = simulate(&*point.sampler, trials, point_seed(seed, point));
    let fit = fit(&counts, &point.exact);
    let live_cells = point.exact.iter().filter(|p| **p > 0.0).count();
    let p_dev = max_dev_p(fit.worst_cell_p, live_cells);
    let p_value = (2.0 * fit.p_value.min(p_dev)).min(1.0);
    PointResult {
        system: point.system,
        label: point.label.clone(),
        worst_cell: point.cells.get(fit.worst_cell).cloned().unwrap_or_default(),
        counts,
        fit,
        p_value,
        pass: true,
    }
}

/// Seconds each point's simulation is expected to take at `trials`
/// trials on the current rayon pool, from a timing pass of
/// [`PILOT_TRIALS`] trials per point (its own seed, so the run's counts do
/// not change). One pilot batch runs on one thread; the run's batches
/// spread over every thread of the pool.
pub fn estimate(points: &[Point], trials: u64, seed: u64) -> Vec<f64> {
    let threads = rayon::current_num_threads().max(1) as f64;
    let batches = trials.div_ceil(super::runner::BATCH) as f64;
    let parallel = threads.min(batches).max(1.0);
    points
        .iter()
        .map(|p| {
            let t = std::time::Instant::now();
            simulate(
                &*p.sampler,
                PILOT_TRIALS,
                seed ^ CONFIRM_SALT.rotate_left(17),
            );
            t.elapsed().as_secs_f64() * trials as f64 / PILOT_TRIALS as f64 / parallel
        })
        .collect()
}

/// Run every point and judge the family. `tick` is called after each point.
pub fn run(
    points: &[Point],
    trials: u64,
    seed: u64,
    alpha: f64,
    mut tick: impl FnMut(&PointResult),
) -> VerifyRun {
    let mut results: Vec<PointResult> = points
        .iter()
        .map(|p| {
            let r = run_point(p, trials, seed);
            tick(&r);
            r
        })
        .collect();
    let p_values: Vec<f64> = results.iter().map(|r| r.p_value).collect();
    let reject = holm_reject(&p_values, alpha);
    let suspects: Vec<usize> = reject
        .iter()
        .enumerate()
        .filter(|(i, &rej)| rej && results[*i].fit.impossible_hits == 0)
        .map(|(i, _)| i)
        .collect();
    for (r, rej) in results.iter_mut().zip(&reject) {
        r.pass = !rej && r.fit.impossible_hits == 0;
    }
    // Second stage: fresh seeds, more trials, Bonferroni over the suspects.
    let bar = alpha / suspects.len().max(1) as f64;
    for i in suspects {
        let trials2 = trials.saturating_mul(CONFIRM_FACTOR);
        let mut again = run_point(&points[i], trials2, seed ^ CONFIRM_SALT);
        again.pass = again.p_value > bar && again.fit.impossible_hits == 0;
        tick(&again);
        results[i] = again;
    }
    VerifyRun {
        seed,
        trials,
        alpha,
        results,
    }
}

impl VerifyRun {
    /// Whether every point agrees.
    pub fn passed(&self) -> bool {
        self.results.iter().all(|r| r.pass)
    }

    /// The points that disagree.
    pub fn failures(&self) -> Vec<&PointResult> {
        self.results.iter().filter(|r| !r.pass).collect()
    }

    /// JSON form.
    pub fn to_json(&self) -> Value {
        json!({
            "seed": self.seed,
            "trials": self.trials,
            "alpha": self.alpha,
            "correction": "holm",
            "passed": self.passed(),
            "points": self.results.iter().map(|r| json!({
                "system": r.system,
                "point": r.label,
                "trials": r.fit.trials,
                "chi_square": r.fit.chi_square,
                "df": r.fit.df,
                "p_chi_square": r.fit.p_value,
                "max_dev_sigma": r.fit.max_dev_sigma,
                "worst_cell": r.worst_cell,
                "impossible_hits": r.fit.impossible_hits,
                "p_value": r.p_value,
                "verdict": if r.pass { "pass" } else { "FAIL" },
            })).collect::<Vec<_>>(),
        })
    }

    /// CSV form (one row per point).
    pub fn to_csv(&self) -> String {
        let header = [
            "system",
            "point",
            "trials",
            "chi_square",
            "df",
            "p_chi_square",
            "max_dev_sigma",
            "worst_cell",
            "p_value",
            "verdict",
        ]
        .map(String::from)
        .to_vec();
        let rows = self.results.iter().map(|r| {
            vec![
                r.system.to_string(),
                r.label.clone(),
                r.fit.trials.to_string(),
                format!("{:.4}", r.fit.chi_square),
                r.fit.df.to_string(),
                format!("{:.6}", r.fit.p_value),
                format!("{:.3}", r.fit.max_dev_sigma),
                r.worst_cell.clone(),
                format!("{:.6}", r.p_value),
                if r.pass { "pass" } else { "FAIL" }.to_string(),
            ]
        });
        let bytes = crate::export::csv_bytes(std::iter::once(header).chain(rows));
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// Table for a terminal.
    pub fn to_table(&self) -> String {
        let header = [
            "system",
            "point",
            "trials",
            "chi²",
            "df",
            "p = min(1, 2·min(p_χ², p_dev))",
            "max dev",
            "verdict",
        ];
        let rows: Vec<[String; 8]> = self
            .results
            .iter()
            .map(|r| {
                [
                    r.system.to_string(),
                    r.label.clone(),
                    r.fit.trials.to_string(),
                    format!("{:.2}", r.fit.chi_square),
                    r.fit.df.to_string(),
                    format!("{:.4}", r.p_value),
                    format!("{:.2}σ", r.fit.max_dev_sigma),
                    if r.pass { "pass" } else { "FAIL" }.to_string(),
                ]
            })
            .collect();
        let mut widths: Vec<usize> = header
            .iter()
            .map(|h| crate::export::display_width(h))
            .collect();
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(crate::export::display_width(c));
            }
        }
        let line = |cells: Vec<&str>| {
            cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| {
                    let pad = " ".repeat(w - crate::export::display_width(c));
                    if i < 2 {
                        format!("{c}{pad}")
                    } else {
                        format!("{pad}{c}")
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut out = line(header.to_vec());
        out.push('\n');
        for r in &rows {
            out.push_str(&line(r.iter().map(String::as_str).collect()));
            out.push('\n');
        }
        let failed = self.failures().len();
        out.push_str(&format!(
            "\n{} points, {} trials each, seed {}, family-wise α = {} (Holm): {}\n",
            self.results.len(),
            self.trials,
            self.seed,
            self.alpha,
            if failed == 0 {
                "all agree with the exact laws".to_string()
            } else {
                format!("{failed} disagree")
            }
        ));
        out
    }
}
