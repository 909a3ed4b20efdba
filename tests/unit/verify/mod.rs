//! Tests of `src/verify/mod.rs` (`hantei::verify`).

/// Test helpers shared by the systems' grids.
pub mod testing {
    use hantei::verify::runner::simulate;
    use hantei::verify::stats::fit;
    use hantei::verify::Point;

    /// Cells, exact law and sampler agree in length; the law sums to one;
    /// labels are unique within a system (a point's seed comes from its
    /// label).
    pub fn assert_consistent(grid: &[Point]) {
        let mut labels = std::collections::HashSet::new();
        for p in grid {
            assert!(
                labels.insert((p.system, p.label.clone())),
                "duplicate label {}",
                p.label
            );
            assert_eq!(p.cells.len(), p.exact.len(), "{}", p.label);
            assert_eq!(p.cells.len(), p.sampler.cells(), "{}", p.label);
            let total: f64 = p.exact.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{}: {total}", p.label);
            assert!(p.exact.iter().all(|&x| x >= 0.0), "{}", p.label);
        }
    }

    /// `trials` simulated trials of every point fit its exact law (a loose
    /// bar, p > 1e-6, for a unit test) and hit no impossible cell.
    pub fn assert_fits(grid: &[Point], trials: u64, seed: u64) {
        for (i, p) in grid.iter().enumerate() {
            let counts = simulate(&*p.sampler, trials, seed + i as u64);
            let f = fit(&counts, &p.exact);
            assert_eq!(f.impossible_hits, 0, "{}: {counts:?}", p.label);
            assert!(
                f.p_value > 1e-6,
                "{}: p = {} (χ² {} on {} df), counts {counts:?}, exact {:?}",
                p.label,
                f.p_value,
                f.chi_square,
                f.df,
                p.exact
            );
        }
    }
}

mod d20;
mod dice;
mod games;
mod hit_pool;
mod keep_highest;
mod levels;
mod multiplier;
mod notation;
mod rounds;
mod runner;
mod stats;
