//! Tests of `src/verify/stats.rs` (`hantei::verify::stats`).

use hantei::verify::stats::*;

#[test]
fn perfect_counts_fit() {
    let f = fit(&[500, 300, 200], &[0.5, 0.3, 0.2]);
    assert_eq!(f.chi_square, 0.0);
    assert_eq!(f.df, 2);
    assert!((f.p_value - 1.0).abs() < 1e-12);
    assert_eq!(f.impossible_hits, 0);
}

#[test]
fn known_chi_square_value() {
    // Fair die, 600 rolls: counts 90,110,100,100,95,105.
    // χ² = (100+100+0+0+25+25)/100 = 2.5 with 5 df; P(χ²₅ ≥ 2.5) = 0.7765.
    let f = fit(&[90, 110, 100, 100, 95, 105], &[1.0 / 6.0; 6]);
    assert!((f.chi_square - 2.5).abs() < 1e-12);
    assert_eq!(f.df, 5);
    assert!((f.p_value - 0.776_5).abs() < 1e-3, "{}", f.p_value);
}

#[test]
fn sparse_cells_are_pooled() {
    // Expected 1 and 2 in two cells: pooled into one cell of 3, then
    // merged with the smallest regular cell.
    let f = fit(&[1, 2, 497, 500], &[0.001, 0.002, 0.497, 0.5]);
    assert_eq!(f.df, 1);
}

#[test]
fn impossible_outcomes_are_counted() {
    let f = fit(&[10, 1], &[1.0, 0.0]);
    assert_eq!(f.impossible_hits, 1);
}

#[test]
fn holm_is_stepwise() {
    // α = 0.05, m = 3: thresholds 0.0167, 0.025, 0.05.
    assert_eq!(
        holm_reject(&[0.01, 0.02, 0.04], 0.05),
        vec![true, true, true]
    );
    assert_eq!(
        holm_reject(&[0.01, 0.03, 0.04], 0.05),
        vec![true, false, false]
    );
    assert_eq!(holm_reject(&[0.2, 0.01], 0.05), vec![false, true]);
}

#[test]
fn one_hit_in_a_rare_cell_is_not_a_seven_sigma_event() {
    // A cell of probability 2.5e-8 at 800,000 trials expects 0.02 hits.
    // One hit has tail P(X >= 1) = 1 - (1 - p)^n ~ 0.0198 (doubled:
    // 0.0396), about 2σ, where the normal approximation said 6.9σ. This
    // is the case that failed CI on 2U6[6].
    let n = 800_000u64;
    let p: f64 = 2.5e-8;
    let exact = 2.0 * (1.0 - (1.0 - p).powi(n as i32));
    let tail = binomial_two_sided(1, n, p);
    assert!((tail - exact).abs() < 1e-9, "{tail} vs {exact}");
    let z = z_of_two_sided(tail);
    assert!((z - 2.058).abs() < 0.01, "{z}");
    let normal_approx = (1.0 - n as f64 * p) / (n as f64 * p * (1.0 - p)).sqrt();
    assert!(normal_approx > 6.0);
}

#[test]
fn many_expected_counts_agree_with_the_normal_approximation() {
    // Fair coin, 1,000,000 tosses, 501,000 heads: z = 1000 / 500 = 2.
    let tail = binomial_two_sided(501_000, 1_000_000, 0.5);
    let z = z_of_two_sided(tail);
    assert!((z - 2.0).abs() < 0.01, "{z}");
    // And below the mean, symmetric.
    let below = z_of_two_sided(binomial_two_sided(499_000, 1_000_000, 0.5));
    assert!((below - 2.0).abs() < 0.01, "{below}");
}

#[test]
fn small_binomial_tail_by_enumeration() {
    // n = 4, p = 1/6, observed 3: P(X >= 3) = 4·(1/6)^3·(5/6) + (1/6)^4.
    let one = 4.0 * (1.0f64 / 6.0).powi(3) * (5.0 / 6.0) + (1.0f64 / 6.0).powi(4);
    assert!((binomial_two_sided(3, 4, 1.0 / 6.0) - 2.0 * one).abs() < 1e-12);
    // Observed 0 below the mean 2/3: P(X <= 0) = (5/6)^4.
    let zero = (5.0f64 / 6.0).powi(4);
    assert!((binomial_two_sided(0, 4, 1.0 / 6.0) - (2.0 * zero).min(1.0)).abs() < 1e-12);
    let worst = fit(&[0, 0, 3, 1], &[0.25, 0.25, 0.25, 0.25]);
    assert_eq!(worst.worst_cell, 2);
}
