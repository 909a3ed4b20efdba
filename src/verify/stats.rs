//! The statistics of a verification: chi-square goodness of fit of
//! simulated counts against the exact law, the largest per-outcome deviation
//! in standard errors, and the Holm–Bonferroni correction that holds the
//! family-wise error of a whole run at α.

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal};

/// Cells whose expected count is below this are pooled together.
pub const MIN_EXPECTED: f64 = 5.0;

/// The comparison of one parameter point's counts with its exact law.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Number of trials.
    pub trials: u64,
    /// Pearson's chi-square statistic over the pooled cells.
    pub chi_square: f64,
    /// Degrees of freedom (pooled cells − 1).
    pub df: usize,
    /// P(χ²_df ≥ statistic).
    pub p_value: f64,
    /// The largest per-outcome deviation, in standard normal units: each
    /// outcome's count is binomial(trials, p), its two-sided tail
    /// probability is computed exactly (not by the normal approximation,
    /// which calls a single hit in a 1e-8 cell a 7σ event), and this is the
    /// z whose two-sided normal tail is the smallest of them. For cells with
    /// many expected counts it is |observed − expected| / standard error.
    pub max_dev_sigma: f64,
    /// The exact two-sided binomial tail probability of the worst outcome.
    pub worst_cell_p: f64,
    /// The outcome with the largest deviation.
    pub worst_cell: usize,
    /// Simulated count in a cell whose exact probability is zero (an
    /// outcome the exact law says cannot happen): an immediate failure.
    pub impossible_hits: u64,
}

/// Compare `counts` (one per outcome) with the exact probabilities `p`.
///
/// Cells with expected count below [`MIN_EXPECTED`] are pooled, smallest
/// first, until the pool reaches it; if fewer than two cells remain the test
/// has no degrees of freedom and the p-value is 1.
pub fn fit(counts: &[u64], p: &[f64]) -> Fit {
    assert_eq!(counts.len(), p.len(), "one probability per count");
    let n: u64 = counts.iter().sum();
    let nf = n as f64;
    let mut impossible_hits = 0;
    let mut worst_cell_p = 1.0f64;
    let mut worst_cell = 0;
    for (i, (&c, &pi)) in counts.iter().zip(p).enumerate() {
        if pi <= 0.0 {
            impossible_hits += c;
            continue;
        }
        let tail = binomial_two_sided(c, n, pi);
        if tail < worst_cell_p {
            worst_cell_p = tail;
            worst_cell = i;
        }
    }
    let max_dev_sigma = z_of_two_sided(worst_cell_p);
    // Pool sparse cells: sort by expected count, merge the small ones.
    let mut cells: Vec<(f64, f64)> = counts
        .iter()
        .zip(p)
        .filter(|(_, &pi)| pi > 0.0)
        .map(|(&c, &pi)| (nf * pi, c as f64))
        .collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut pooled: Vec<(f64, f64)> = Vec::new();
    let mut acc = (0.0, 0.0);
    for (e, o) in cells {
        if acc.0 < MIN_EXPECTED {
            acc = (acc.0 + e, acc.1 + o);
        } else {
            pooled.push((e, o));
        }
    }
    if acc.0 > 0.0 {
        if acc.0 < MIN_EXPECTED && !pooled.is_empty() {
            // Still too small: merge into the smallest regular cell.
            pooled[0].0 += acc.0;
            pooled[0].1 += acc.1;
        } else {
            pooled.push(acc);
        }
    }
    let chi_square: f64 = pooled.iter().map(|(e, o)| (o - e) * (o - e) / e).sum();
    let df = pooled.len().saturating_sub(1);
    let p_value = if df == 0 {
        1.0
    } else {
        ChiSquared::new(df as f64)
            .map(|d| d.sf(chi_square))
            .unwrap_or(f64::NAN)
    };
    Fit {
        trials: n,
        chi_square,
        df,
        p_value,
        max_dev_sigma,
        worst_cell_p,
        worst_cell,
        impossible_hits,
    }
}

/// P(a binomial(n, p) count lies at least as far from n·p as `c`, on the
/// side where `c` lies), doubled and capped at one: the two-sided exact
/// tail of one outcome's count.
pub fn binomial_two_sided(c: u64, n: u64, p: f64) -> f64 {
    if n == 0 || p >= 1.0 {
        return 1.0;
    }
    let Ok(law) = Binomial::new(p, n) else {
        return f64::NAN;
    };
    let one_sided = if (c as f64) >= n as f64 * p {
        if c == 0 {
            1.0
        } else {
            law.sf(c - 1)
        }
    } else {
        law.cdf(c)
    };
    (2.0 * one_sided).min(1.0)
}

/// The z of the standard normal whose two-sided tail is `tail`.
pub fn z_of_two_sided(tail: f64) -> f64 {
    if tail.is_nan() {
        return f64::NAN;
    }
    if tail >= 1.0 {
        return 0.0;
    }
    let normal = Normal::new(0.0, 1.0).expect("standard normal");
    // Far tails lose nothing: the quantile of tail/2 from below, negated.
    -normal.inverse_cdf((tail / 2.0).max(f64::MIN_POSITIVE))
}

/// Holm–Bonferroni: which of the p-values are rejected at family-wise
/// error `alpha`. Returns one flag per p-value, in input order.
pub fn holm_reject(p_values: &[f64], alpha: f64) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut reject = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        let p = p_values[i];
        // NaN p-values are treated as rejections.
        if p.is_nan() || p <= alpha / (m - rank) as f64 {
            reject[i] = true;
        } else {
            break;
        }
    }
    reject
}
