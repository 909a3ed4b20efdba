//! Exact laws of BCDice commands, without enumerating faces.
//!
//! * Sums are convolutions; `*` and `/` of two random terms combine the two
//!   laws pairwise (they are independent: every die appears once).
//! * Keep/drop (`KHn`, `KLn`, `DHn`, `DLn`) is a dynamic programme over the
//!   faces from the best down (icepool's method, AIIDE 2022): the state is
//!   how many dice are placed and the kept sum; placing `m` of the `r`
//!   remaining dice on face `v` weighs `C(r, m)·p_v^m`. Θ(ℓ·n²·k·ℓ) for n
//!   dice of ℓ faces keeping k, never ℓⁿ.
//! * バラバラダイス counts are binomials per group, convolved.
//! * 個数振り足しダイス: each die starts a chain (a rerolled face adds one
//!   die); the chain's success count is built depth by depth until the
//!   mass still rerolling is below the per-die share of `tail_eps`; that
//!   mass is the reported tail. Groups are n-fold convolutions.
//! * 上方無限ロール: each group's total is built the same way; with a
//!   target, each group succeeds independently (a sum of binomials);
//!   without one, the maximum is the product of the groups' cdfs and the
//!   total a convolution.

use std::collections::{BTreeMap, HashMap};

use super::ast::*;
use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::weight::Weight;

/// Widest law (largest − smallest result + 1) hantei builds.
pub const MAX_SPAN: i64 = 2_000_000;
/// Most pairs combined by one `*` or `/` of two random terms, or by the
/// joint law of result and natural dice.
pub const MAX_PAIRS: u64 = 50_000_000;
/// Most rerolls in a chain before the tail bound is reached.
pub const MAX_DEPTH: usize = 20_000;
/// Most work (faces × dice² × kept sums) of one keep/drop term.
pub const MAX_KEEP_WORK: u64 = 400_000_000;
/// Most multiply-adds of the convolutions that sum one group of dice in
/// floating point (about two seconds on a 2-core machine: `1000D100` is
/// 2.5·10⁹; `1000D1000`, 2.5·10¹¹, would take minutes).
pub const MAX_SUM_WORK: u64 = 5_000_000_000;
/// Most big-integer steps (coefficients × the die's values) of one exact
/// sum.
pub const MAX_EXACT_SUM_WORK: u64 = 20_000_000;
/// Most estimated nanoseconds of one exact sum by Miller's recurrence
/// (`sum_nanos`, measured on a 2-core machine): `800D100` (5.3·10⁹) took
/// 5.5 s, `30R6>=2` (a reroll chain of 210 values, 30 times) 4.5 s;
/// `1000D100` (8.3·10⁹, 8.4 s) is refused.
pub const MAX_EXACT_SUM_NANOS: f64 = 6e9;
/// Most word operations of an exact keep/drop programme (big-integer steps
/// × the 64-bit words they multiply, `keep_word_ops`): `200D6KH100`,
/// 4.8·10⁹, takes 1.2 s on a 2-core machine (it took 432 s on fractions);
/// `200D10KH100`, 2.2·10¹⁰, is refused.
pub const MAX_EXACT_KEEP_WORD_OPS: f64 = 2e10;
/// Most big-fraction bit-steps (fraction operations × bits of their
/// numbers) of the exact keep/drop and reroll-chain work of one command,
/// estimated before any is done ([`check_work`]). Measured at 9–14 ns a
/// bit-step on a 2-core machine (`100D6KH50`: 9.2·10⁶ steps on 258-bit
/// numbers, 2.4·10⁹, took 22 s; `50D6KH25`, 1.5·10⁸, 1.3 s): the limit is
/// about 6 s.
pub const MAX_EXACT_BIT_STEPS: f64 = 6e8;

/// The exact law of a command's result.
#[derive(Clone, Debug)]
pub struct Law<W> {
    /// The result's law (see [`super::roll::Rolled::value`]).
    pub value: Pmf<W>,
    /// xU without a target: the total's law.
    pub total: Option<Pmf<W>>,
    /// Probability cut from exploding dice (0 when nothing explodes).
    pub tail: W,
    /// Whether any dice explode (xR, xU).
    pub explodes: bool,
}

impl<W: Weight> Law<W> {
    /// The result's law of a pool-engine joint law: its total's marginal,
    /// with the mass its cut chains leave out.
    pub fn of_joint(joint: &super::pool::JointLaw<W>) -> Law<W> {
        Law {
            value: joint.marginal(&super::pool::Stat::Total),
            total: None,
            tail: joint.tail.clone(),
            explodes: joint.explodes,
        }
    }
}

fn too_wide(what: &str, span: i64) -> Error {
    Error::Conflict(format!(
        "dice: {what} spans {span} values (at most {MAX_SPAN}); use fewer dice or smaller multipliers"
    ))
}

fn check_span<W: Weight>(p: &Pmf<W>, what: &str) -> Result<()> {
    let span = p.max() - p.min() + 1;
    if span > MAX_SPAN {
        return Err(too_wide(what, span));
    }
    Ok(())
}

/// One die's law: 1..=s, D66's 36 values read as rolled, or the listed
/// faces, each equally likely.
pub fn die<W: Weight>(faces: &DieFaces) -> Pmf<W> {
    match faces {
        DieFaces::Standard(s) => Pmf::uniform(1, *s),
        DieFaces::D66 => Pmf::from_pairs(
            (1..=6).flat_map(|a| (1..=6).map(move |b| (10 * a + b, W::ratio(1, 36)))),
        ),
        DieFaces::Custom(_) | DieFaces::Fate => {
            let n = faces.count();
            Pmf::from_pairs(faces.sides().into_iter().map(|s| (s.value, W::ratio(1, n))))
        }
    }
}

/// D66 with its sort.
pub fn d66<W: Weight>(sort: D66Sort) -> Pmf<W> {
    Pmf::from_pairs((1..=6i64).flat_map(|a| {
        (1..=6i64).map(move |b| {
            let (hi, lo) = (a.max(b), a.min(b));
            let v = match sort {
                D66Sort::None => 10 * a + b,
                D66Sort::Ascending => 10 * lo + hi,
                D66Sort::Descending => 10 * hi + lo,
            };
            (v, W::ratio(1, 36))
        })
    }))
}

/// Sum of `n` dice of law `d`.
pub fn sum_of<W: Weight>(d: &Pmf<W>, n: i64) -> Result<Pmf<W>> {
    let values = (d.max() - d.min() + 1) as u64;
    check_sum::<W>(values, n, 0.0, &|| {
        format!("the sum of {n} dice of {values} values")
    })?;
    if W::EXACT && n >= 2 {
        if let Some(p) = exact_power(d, n as u32) {
            return Ok(p);
        }
    }
    Ok(d.sum_n(n as u32))
}

/// The estimated time of an exact sum by Miller's recurrence, in
/// nanoseconds: `work` steps, each a product of a coefficient (about
/// `n·bits/2` bits on average) by a die's weight (`bits`), measured as
/// 16 ns a 64-bit word of the coefficient plus 1.3 ns a word-by-word
/// product (1000D100, 800D100, 30R6>=2, 50U6[4], 300R6>=5 fit within 40 %).
fn sum_nanos(work: u64, bits: f64, n: i64) -> f64 {
    let coefficient_words = n as f64 * bits / 128.0;
    work as f64 * coefficient_words * (16.0 + 1.3 * bits / 64.0)
}

/// Whether the sum of `n` dice of `values` consecutive values is within
/// the limits (its span, and its work: multiply-adds in floating point,
/// big-integer steps with `--exact`), before any is done. `bits`: the size
/// of one die's exact weights (0: that of a die of `values` faces); `what`
/// names the sum for the message.
fn check_sum<W: Weight>(values: u64, n: i64, bits: f64, what: &dyn Fn() -> String) -> Result<()> {
    let span = (values as i64 - 1).saturating_mul(n).saturating_add(1);
    if span > MAX_SPAN {
        return Err(Error::Conflict(format!(
            "dice: {} spans {span} values (at most {MAX_SPAN}); use fewer dice",
            what()
        )));
    }
    if W::EXACT {
        let work = (span as u64).saturating_mul(values);
        let one = if bits > 0.0 {
            bits
        } else {
            (values.max(2) as f64).log2()
        };
        let nanos = sum_nanos(work, one, n);
        if work > MAX_EXACT_SUM_WORK || nanos > MAX_EXACT_SUM_NANOS {
            return Err(Error::Conflict(format!(
                "dice: {} with --exact takes {work} big-integer steps on numbers of up to {} bits (about {:.0} s; at most {MAX_EXACT_SUM_WORK} steps and a few seconds); drop --exact for floating point, or use fewer dice",
                what(),
                (one * n as f64).ceil(),
                nanos / 1e9
            )));
        }
    } else {
        let work = Pmf::<W>::sum_n_work(values, n as u64);
        if work > MAX_SUM_WORK {
            return Err(Error::Conflict(format!(
                "dice: {} takes {work} multiply-adds (at most {MAX_SUM_WORK}); use fewer dice or fewer sides",
                what()
            )));
        }
    }
    Ok(())
}

/// The law of the sum of `n` copies of `d`, exactly: the generating
/// polynomial's power `P(x)ⁿ` by J. C. P. Miller's recurrence on big-integer
/// numerators over one common denominator,
/// `k·q₀·aₖ = Σᵢ ((n+1)·i − k)·qᵢ·aₖ₋ᵢ`, `a₀ = q₀ⁿ`: O(n·d²) integer
/// steps for a law of d+1 values, where repeated squaring of fractions
/// reduces a gcd of ever larger numbers at every product (200D6 took 14 s,
/// 30R6>=5 22 s). `None` for floats (the recurrence subtracts; floats keep
/// the convolutions).
fn exact_power<W: Weight>(d: &Pmf<W>, n: u32) -> Option<Pmf<W>> {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use num_traits::{One, Pow, Zero};
    let fractions: Vec<(BigInt, BigInt)> = d
        .weights()
        .iter()
        .map(Weight::as_fraction)
        .collect::<Option<_>>()?;
    let den = fractions
        .iter()
        .fold(BigInt::one(), |l, (_, den)| l.lcm(den));
    let q: Vec<BigInt> = fractions.iter().map(|(num, d)| num * (&den / d)).collect();
    let first = q.iter().position(|x| !x.is_zero())?;
    let last = q.iter().rposition(|x| !x.is_zero())?;
    let q = &q[first..=last];
    let deg = q.len() - 1;
    let len = n as usize * deg + 1;
    let mut a: Vec<BigInt> = Vec::with_capacity(len);
    a.push(Pow::pow(&q[0], n));
    for k in 1..len {
        let mut s = BigInt::zero();
        for i in 1..=deg.min(k) {
            let c = (i64::from(n) + 1) * i as i64 - k as i64;
            if c != 0 && !q[i].is_zero() {
                // One product of the big coefficient by a small number
                // (qᵢ·c), not two.
                s += &a[k - i] * (&q[i] * c);
            }
        }
        // Exact: aₖ is a coefficient of an integer polynomial.
        a.push(s / (&q[0] * BigInt::from(k)));
    }
    let min = (d.min() + first as i64) * i64::from(n);
    let weights = match small_factors(&den) {
        // Each aₖ / denⁿ in lowest terms by dividing out the few primes of
        // the denominator (the dice's sides), not by a gcd of big numbers.
        Some(primes) => {
            let total = Pow::pow(&den, n);
            a.into_iter()
                .map(|x| reduce_power(x, &total, &primes, n))
                .map(|(num, den)| W::from_reduced(num, den))
                .collect()
        }
        None => {
            let total = Pow::pow(&den, n);
            a.into_iter()
                .map(|x| W::from_fraction(x, total.clone()))
                .collect()
        }
    };
    Some(Pmf::from_weights(min, weights))
}

/// The prime factors `(p, e)` of `x` when all are below 10,000 (the
/// denominators of dice laws: products of the sides); `None` otherwise.
fn small_factors(x: &num_bigint::BigInt) -> Option<Vec<(u32, u32)>> {
    use num_bigint::BigInt;
    use num_traits::{One, Zero};
    let mut x = x.clone();
    let mut out = Vec::new();
    let mut p: u32 = 2;
    while !x.is_one() {
        if p > 10_000 {
            return None;
        }
        let mut e = 0;
        loop {
            let (q, r) = num_integer::Integer::div_rem(&x, &BigInt::from(p));
            if !r.is_zero() {
                break;
            }
            x = q;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    Some(out)
}

/// `x / total` in lowest terms, where `total = Π pᵉⁿ` for the prime
/// factors `(p, e)` of the denominator's base: divide out each prime while
/// it divides both.
fn reduce_power(
    mut x: num_bigint::BigInt,
    total: &num_bigint::BigInt,
    primes: &[(u32, u32)],
    n: u32,
) -> (num_bigint::BigInt, num_bigint::BigInt) {
    use num_bigint::BigInt;
    use num_traits::{One, Pow, Zero};
    if x.is_zero() {
        return (x, BigInt::one());
    }
    let mut common = BigInt::one();
    for &(p, e) in primes {
        let full = e * n;
        let mut v = 0;
        if p == 2 {
            v = x.trailing_zeros().map_or(0, |t| (t as u32).min(full));
            x >>= v as usize;
        } else {
            // Divide by p^(2^j) from the largest j down: log₂(e·n)
            // divisions, where one at a time took e·n of them (300R6>=5:
            // 11,000 divisions of 29,000-bit numbers per coefficient).
            let mut powers = vec![BigInt::from(p)];
            while 1u32 << powers.len() <= full {
                let last = powers.last().expect("not empty");
                powers.push(last * last);
            }
            for (j, pw) in powers.iter().enumerate().rev() {
                let step = 1u32 << j;
                if v + step > full {
                    continue;
                }
                let (q, r) = num_integer::Integer::div_rem(&x, pw);
                if r.is_zero() {
                    x = q;
                    v += step;
                }
            }
        }
        if v > 0 {
            common *= Pow::pow(&BigInt::from(p), v);
        }
    }
    (x, total / common)
}

/// Steps of the keep/drop programme over `faces` faces, `n` dice and kept
/// sums of `width` values.
fn keep_steps(faces: u64, n: u64, width: u64) -> u64 {
    faces
        .saturating_mul((n + 1).saturating_mul(n + 1))
        .saturating_mul(width)
        / 2
}

/// Whether keeping `k` of `n` dice of `faces` faces (kept sums of `width`
/// values) is within the limits: its steps, and with `--exact` its
/// bit-steps (the fractions have about `n·log₂ faces` bits).
fn check_keep<W: Weight>(faces: u64, n: u64, k: u64, width: u64) -> Result<()> {
    let work = keep_steps(faces, n, width);
    if work > MAX_KEEP_WORK {
        return Err(Error::Conflict(format!(
            "dice: keeping {k} of {n} dice of {faces} faces is too much work (about {work} steps, at most {MAX_KEEP_WORK}); use fewer dice"
        )));
    }
    if W::EXACT {
        let (bits, word_ops) = keep_word_ops(faces, n, work);
        if word_ops > MAX_EXACT_KEEP_WORD_OPS {
            return Err(Error::Conflict(format!(
                "dice: keeping {k} of {n} dice of {faces} faces with --exact takes about {work} big-integer steps on {}-bit numbers ({word_ops:.1e} word operations, at most {MAX_EXACT_KEEP_WORD_OPS:.0e}: a few seconds); drop --exact for floating point, or use fewer dice",
                bits.ceil()
            )));
        }
    }
    Ok(())
}

/// The bits of the numbers of an exact keep/drop programme over `n` dice of
/// `faces` faces (numerators over `faces`ⁿ), and its word operations: one
/// product of two such numbers per step, quadratic in their 64-bit words.
fn keep_word_ops(faces: u64, n: u64, work: u64) -> (f64, f64) {
    let bits = n as f64 * (faces.max(2) as f64).log2();
    let words = bits / 64.0;
    (bits, work as f64 * (1.0 + words * words))
}

/// The kept sum of `n` dice of law `d`, keeping the `k` highest (`high`)
/// or lowest.
pub fn keep<W: Weight>(d: &Pmf<W>, n: i64, k: i64, high: bool) -> Result<Pmf<W>> {
    if k <= 0 || n == 0 {
        return Ok(Pmf::point(0));
    }
    if k >= n {
        return sum_of(d, n);
    }
    let faces: Vec<(i64, W)> = {
        let mut f: Vec<(i64, W)> = d
            .iter()
            .filter(|(_, p)| !p.is_zero())
            .map(|(x, p)| (x, p.clone()))
            .collect();
        if high {
            f.reverse();
        }
        f
    };
    let n = n as usize;
    let k = k as usize;
    let lo = d.min().min(0);
    let hi = d.max().max(0);
    // Kept sums lie in k·lo ..= k·hi.
    let base = k as i64 * lo;
    let width = (k as i64 * (hi - lo) + 1) as usize;
    check_keep::<W>(faces.len() as u64, n as u64, k as u64, width as u64)?;
    if let Some(w) = keep_integers::<W>(&faces, n, k, base, width) {
        return Ok(Pmf::from_weights(base, w));
    }
    // coef[r][m] = C(r, m)
    let mut binom: Vec<Vec<W>> = Vec::with_capacity(n + 1);
    for r in 0..=n {
        let mut row = vec![W::one(); r + 1];
        for m in 1..r {
            row[m] = binom[r - 1][m - 1].clone() + &binom[r - 1][m];
        }
        binom.push(row);
    }
    // The mass of the faces after each one (worse, in keeping order).
    let mut worse: Vec<W> = vec![W::zero(); faces.len()];
    for i in (0..faces.len().saturating_sub(1)).rev() {
        worse[i] = worse[i + 1].clone() + &faces[i + 1].1;
    }
    // state[c] = law of the kept sum (offset base) with c < k dice placed;
    // once k are kept, the sum is final: the dice left fall on worse faces
    // (their mass to the power left), so the law goes to `done` at once.
    let mut state: Vec<Option<Vec<W>>> = vec![None; k];
    state[0] = Some({
        let mut v = vec![W::zero(); width];
        v[(-base) as usize] = W::one();
        v
    });
    let mut done = vec![W::zero(); width];
    for (i, (face, p)) in faces.iter().enumerate() {
        let pow = |x: &W, e: usize| -> Vec<W> {
            let mut v = Vec::with_capacity(e + 1);
            let mut acc = W::one();
            for _ in 0..=e {
                v.push(acc.clone());
                acc = acc * x;
            }
            v
        };
        let powers = pow(p, n);
        let rest = pow(&worse[i], n);
        let mut next: Vec<Option<Vec<W>>> = vec![None; k];
        for c in 0..k {
            let Some(cur) = &state[c] else { continue };
            let r = n - c;
            let need = k - c;
            // m < need dice here: still short of k.
            for m in 0..need.min(r + 1) {
                let w = binom[r][m].clone() * &powers[m];
                if w.is_zero() {
                    continue;
                }
                let shift = m as i64 * face;
                let dst = next[c + m].get_or_insert_with(|| vec![W::zero(); width]);
                for (j, x) in cur.iter().enumerate() {
                    if !x.is_zero() {
                        dst[(j as i64 + shift) as usize] += x.clone() * &w;
                    }
                }
            }
            // m >= need: k kept (`need` of them here), the other r - m
            // dice on worse faces.
            let mut w = W::zero();
            for m in need..=r {
                w += binom[r][m].clone() * &powers[m] * &rest[r - m];
            }
            if w.is_zero() {
                continue;
            }
            let shift = need as i64 * face;
            for (j, x) in cur.iter().enumerate() {
                if !x.is_zero() {
                    done[(j as i64 + shift) as usize] += x.clone() * &w;
                }
            }
        }
        state = next;
    }
    Ok(Pmf::from_weights(base, done))
}

/// [`keep`]'s programme for exact weights on big-integer numerators: the
/// faces' probabilities over one common denominator `q`, a state with `c`
/// dice placed over `qᶜ` (placing `m` more multiplies by `C(r, m)·pᵥᵐ`, an
/// integer over `qᵐ`), so no fraction is reduced until the end (a gcd at
/// every step made `100D6KH50` take 22 s). `None` for floats.
fn keep_integers<W: Weight>(
    faces: &[(i64, W)],
    n: usize,
    k: usize,
    base: i64,
    width: usize,
) -> Option<Vec<W>> {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use num_traits::{One, Pow, Zero};
    let fractions: Vec<(BigInt, BigInt)> = faces
        .iter()
        .map(|(_, p)| p.as_fraction())
        .collect::<Option<_>>()?;
    let den = fractions.iter().fold(BigInt::one(), |l, (_, d)| l.lcm(d));
    let q: Vec<BigInt> = fractions.iter().map(|(num, d)| num * (&den / d)).collect();
    let mut binom: Vec<Vec<BigInt>> = Vec::with_capacity(n + 1);
    for r in 0..=n {
        let mut row = vec![BigInt::one(); r + 1];
        for m in 1..r {
            row[m] = &binom[r - 1][m - 1] + &binom[r - 1][m];
        }
        binom.push(row);
    }
    let mut state: Vec<Option<Vec<BigInt>>> = vec![None; n + 1];
    state[0] = Some({
        let mut v = vec![BigInt::zero(); width];
        v[(-base) as usize] = BigInt::one();
        v
    });
    for ((face, _), qv) in faces.iter().zip(&q) {
        let mut powers = Vec::with_capacity(n + 1);
        let mut acc = BigInt::one();
        for _ in 0..=n {
            powers.push(acc.clone());
            acc *= qv;
        }
        let mut next: Vec<Option<Vec<BigInt>>> = vec![None; n + 1];
        for c in 0..=n {
            let Some(cur) = &state[c] else { continue };
            let r = n - c;
            for m in 0..=r {
                let w = &binom[r][m] * &powers[m];
                if w.is_zero() {
                    continue;
                }
                let shift = m.min(k.saturating_sub(c)) as i64 * face;
                let dst = next[c + m].get_or_insert_with(|| vec![BigInt::zero(); width]);
                for (i, x) in cur.iter().enumerate() {
                    if x.is_zero() {
                        continue;
                    }
                    let j = (i as i64 + shift) as usize;
                    dst[j] += x * &w;
                }
            }
        }
        state = next;
    }
    let last = state[n]
        .take()
        .unwrap_or_else(|| vec![BigInt::zero(); width]);
    let total = Pow::pow(&den, n as u32);
    Some(match small_factors(&den) {
        Some(primes) => last
            .into_iter()
            .map(|x| reduce_power(x, &total, &primes, n as u32))
            .map(|(num, d)| W::from_reduced(num, d))
            .collect(),
        None => last
            .into_iter()
            .map(|x| W::from_fraction(x, total.clone()))
            .collect(),
    })
}

/// The law of one plain dice term ([`PoolTerm::is_plain`]: its scores,
/// modifiers and name are not read; [`node`] sends the others to the pool
/// engine).
pub fn term<W: Weight>(t: &PoolTerm) -> Result<Pmf<W>> {
    debug_assert!(t.is_plain(), "law::term of {t}");
    use super::pool::plan::{self, Algorithm};
    // The planner chooses, as for every term: read by its total alone, a
    // plain term is a power sum or keep/drop order statistics, run here on
    // the die's law directly.
    let d = die::<W>(&t.faces);
    let chosen = plan::plain(t, &d);
    plan::traced(
        || t.to_string(),
        t.count,
        &chosen,
        || match (chosen.algorithm, t.filter) {
            (Algorithm::KeepDp, Some((filter, n))) => {
                let (high, k) = filter.as_keep(n, t.count);
                keep(&d, t.count, k, high)
            }
            _ => sum_of(&d, t.count),
        },
    )
}

fn combine<W: Weight>(op: Op, a: &Pmf<W>, b: &Pmf<W>) -> Result<Pmf<W>> {
    let (la, lb) = (a.weights().len() as i64, b.weights().len() as i64);
    let overflow = || {
        Error::Conflict(format!(
            "dice: a result is out of range (the values must stay within ±{})",
            i64::MAX / 4
        ))
    };
    match op {
        Op::Add | Op::Sub => {
            if la == 1 && a.weights()[0] == W::one() {
                let x = a.min();
                return map_checked(b, |y| op.apply(x, y)).ok_or_else(overflow);
            }
            let b2 = if op == Op::Sub {
                b.map(|y| -y)
            } else {
                b.clone()
            };
            if lb == 1 {
                let y = b2.min();
                return map_checked(a, |x| x.checked_add(y)).ok_or_else(overflow);
            }
            let span = la + lb - 1;
            if span > MAX_SPAN {
                return Err(too_wide("the sum", span));
            }
            Ok(a.convolve(&b2))
        }
        Op::Mul | Op::Div(_) => {
            let pairs = la as u64 * lb as u64;
            if pairs > MAX_PAIRS {
                return Err(Error::Conflict(format!(
                    "dice: combining laws of {la} and {lb} values is {pairs} pairs (at most {MAX_PAIRS}); use fewer dice"
                )));
            }
            let mut acc: HashMap<i64, W> = HashMap::new();
            for (x, p) in a.iter() {
                if p.is_zero() {
                    continue;
                }
                for (y, q) in b.iter() {
                    if q.is_zero() {
                        continue;
                    }
                    let v = op.apply(x, y).ok_or_else(overflow)?;
                    *acc.entry(v).or_insert_with(W::zero) += p.clone() * q;
                }
            }
            let lo = acc.keys().min().copied().unwrap_or(0);
            let hi = acc.keys().max().copied().unwrap_or(0);
            if hi - lo + 1 > MAX_SPAN {
                return Err(too_wide("a product or quotient", hi - lo + 1));
            }
            Ok(Pmf::from_pairs(acc))
        }
    }
}

fn map_checked<W: Weight>(p: &Pmf<W>, f: impl Fn(i64) -> Option<i64>) -> Option<Pmf<W>> {
    let mut pairs = Vec::with_capacity(p.weights().len());
    for (x, w) in p.iter() {
        pairs.push((f(x)?, w.clone()));
    }
    Some(Pmf::from_pairs(pairs))
}

/// The law of an arithmetic expression.
pub fn node<W: Weight>(n: &Node) -> Result<Pmf<W>> {
    let law = match n {
        Node::Num(v) => Pmf::point(*v),
        Node::Pool(t) if t.is_plain() => term(t)?,
        Node::Pool(_) | Node::Group(_) | Node::Chain(_) => {
            super::pool::law::<W>(n, &[], super::DEFAULT_TAIL_EPS)?
                .marginal(&super::pool::Stat::Total)
        }
        Node::Neg(b) => node::<W>(b)?.map(|x| -x),
        Node::Paren(b) => node(b)?,
        Node::Bin(op, a, b) => combine(*op, &node(a)?, &node(b)?)?,
    };
    check_span(&law, "the result")?;
    Ok(law)
}

/// The joint law of (result, natural dice) of an expression: sparse.
pub fn joint<W: Weight>(n: &Node) -> Result<BTreeMap<(i64, i64), W>> {
    Ok(match n {
        Node::Num(v) => BTreeMap::from([((*v, 0), W::one())]),
        Node::Pool(t) if t.is_plain() => term::<W>(t)?
            .iter()
            .filter(|(_, p)| !p.is_zero())
            .map(|(x, p)| ((x, x), p.clone()))
            .collect(),
        Node::Pool(_) | Node::Group(_) | Node::Chain(_) => {
            let stats = [super::pool::Stat::Natural];
            let j = super::pool::law::<W>(n, &stats, super::DEFAULT_TAIL_EPS)?;
            j.cells
                .into_iter()
                .map(|(k, p)| ((k[0], k[1]), p))
                .collect()
        }
        Node::Neg(b) => joint::<W>(b)?
            .into_iter()
            .map(|((v, nat), p)| ((-v, nat), p))
            .collect(),
        Node::Paren(b) => joint(b)?,
        Node::Bin(op, a, b) => {
            let (ja, jb) = (joint::<W>(a)?, joint::<W>(b)?);
            let pairs = ja.len() as u64 * jb.len() as u64;
            if pairs > MAX_PAIRS {
                return Err(Error::Conflict(format!(
                    "dice: the joint law of result and natural dice needs {pairs} pairs (at most {MAX_PAIRS}); drop the natural conditions or use fewer dice"
                )));
            }
            let mut out: BTreeMap<(i64, i64), W> = BTreeMap::new();
            for ((x, nx), p) in &ja {
                for ((y, ny), q) in &jb {
                    let v = op
                        .apply(*x, *y)
                        .ok_or_else(|| Error::Conflict("dice: a result is out of range".into()))?;
                    *out.entry((v, nx + ny)).or_insert_with(W::zero) += p.clone() * q;
                }
            }
            out
        }
    })
}

/// Per-face reroll chain, generic in what a face contributes: `step(face)`
/// gives the face's contribution to the chain's score. Returns the chain's
/// law and the mass cut off (still rerolling).
fn chain<W: Weight>(
    sides: i64,
    reroll: impl Fn(i64) -> bool,
    score: impl Fn(i64) -> i64,
    eps: f64,
) -> Result<(Pmf<W>, W)> {
    let p = W::ratio(1, sides);
    let r = (1..=sides).filter(|&f| reroll(f)).count() as f64 / sides as f64;
    if r >= 1.0 {
        return Err(Error::Conflict(
            "dice: every face rerolls, so the roll never ends".into(),
        ));
    }
    if r > 0.0 {
        let depth = (eps.ln() / r.ln()).ceil();
        if depth > MAX_DEPTH as f64 {
            return Err(Error::Conflict(format!(
                "dice: a die rerolls with probability {r:.4}, so the tail bound {eps:e} takes about {depth} rerolls (reroll depth at most {MAX_DEPTH}); raise --tail-eps or reroll on fewer faces"
            )));
        }
    }
    let stop: Vec<(i64, bool)> = (1..=sides).map(|f| (score(f), reroll(f))).collect();
    // Compress the face law: score → (P(score, stop), P(score, go on)).
    let mut end: HashMap<i64, W> = HashMap::new();
    let mut go: HashMap<i64, W> = HashMap::new();
    for (s, again) in stop {
        let m = if again { &mut go } else { &mut end };
        *m.entry(s).or_insert_with(W::zero) += p.clone();
    }
    let end = Pmf::from_pairs(end);
    let go = if go.is_empty() {
        None
    } else {
        Some(Pmf::from_pairs(go))
    };
    let mut done: Pmf<W> = end.clone();
    let mut alive = match &go {
        Some(g) => g.clone(),
        None => return Ok((done, W::zero())),
    };
    let mut alive_mass = alive.total();
    let mut depth = 0;
    while alive_mass.to_f64() > eps {
        depth += 1;
        if depth > MAX_DEPTH {
            break;
        }
        let g = go.as_ref().expect("go is set when alive");
        done = add_pmf(&done, &alive.convolve(&end));
        alive = alive.convolve(g);
        alive_mass = alive.total();
        check_span(&done, "an exploding roll")?;
    }
    Ok((done, alive_mass))
}

/// Sum of two sub-probability laws over the same values.
fn add_pmf<W: Weight>(a: &Pmf<W>, b: &Pmf<W>) -> Pmf<W> {
    Pmf::from_pairs(
        a.iter()
            .map(|(x, p)| (x, p.clone()))
            .chain(b.iter().map(|(x, p)| (x, p.clone()))),
    )
}

/// n-fold sum of a (sub-)probability law (0 → certainly 0).
fn n_fold<W: Weight>(d: &Pmf<W>, n: i64) -> Result<Pmf<W>> {
    sum_of(d, n)
}

fn tail_of<W: Weight>(law: &Pmf<W>, parts: &[(f64, i64)]) -> W {
    if W::EXACT {
        W::one() - law.total()
    } else {
        // 1 − Π (1 − tᵢ)^nᵢ without cancellation.
        let s: f64 = parts.iter().map(|(t, n)| *n as f64 * (-t).ln_1p()).sum();
        W::from_f64(-s.exp_m1())
    }
}

fn binomial<W: Weight>(n: i64, p: W) -> Result<Pmf<W>> {
    sum_of(&Pmf::bernoulli(p), n)
}

/// The law of a count of exploding dice, with the mass its chains cut.
fn exploding_count<W: Weight>(acc: Pmf<W>, parts: &[(f64, i64)]) -> Law<W> {
    let tail = tail_of(&acc, parts);
    Law {
        value: acc,
        total: None,
        tail,
        explodes: true,
    }
}

fn total_dice(groups: &[Group]) -> i64 {
    groups.iter().map(|g| g.count).sum::<i64>().max(1)
}

/// The law of a command's result (its work checked first: [`check_work`]).
pub fn law<W: Weight>(cmd: &Command, tail_eps: f64) -> Result<Law<W>> {
    check_work::<W>(cmd, tail_eps)?;
    Ok(match &cmd.body {
        Body::Add(a) if super::pool::uses_engine(&a.expr) => {
            Law::of_joint(&super::pool::law::<W>(&a.expr, &[], tail_eps)?)
        }
        Body::Add(a) => Law {
            value: node(&a.expr)?,
            total: None,
            tail: W::zero(),
            explodes: false,
        },
        Body::D66(sort) => Law {
            value: d66(*sort),
            total: None,
            tail: W::zero(),
            explodes: false,
        },
        Body::Barabara(b) => {
            let mut acc = Pmf::point(0);
            for g in &b.groups {
                let part = match b.target {
                    Some((cmp, t)) => {
                        let hits = (1..=g.sides).filter(|&f| cmp.holds(f, t)).count() as i64;
                        binomial(g.count, W::ratio(hits, g.sides))?
                    }
                    None => sum_of(&Pmf::uniform(1, g.sides), g.count)?,
                };
                acc = acc.convolve(&part);
                check_span(&acc, "the result")?;
            }
            Law {
                value: acc,
                total: None,
                tail: W::zero(),
                explodes: false,
            }
        }
        Body::Reroll(r) => {
            let eps = tail_eps / total_dice(&r.groups) as f64;
            let mut acc = Pmf::point(0);
            let mut parts = Vec::new();
            for g in &r.groups {
                let target = r.target;
                let (one, cut) = chain::<W>(
                    g.sides,
                    |f| r.reroll.holds(f),
                    |f| i64::from(target.is_some_and(|t| t.holds(f))),
                    eps,
                )?;
                parts.push((cut.to_f64(), g.count));
                acc = acc.convolve(&n_fold(&one, g.count)?);
                check_span(&acc, "the count")?;
            }
            exploding_count(acc, &parts)
        }
        Body::Upper(u) => {
            let eps = tail_eps / total_dice(&u.groups) as f64;
            let mut laws = Vec::new();
            let mut parts = Vec::new();
            for g in &u.groups {
                let (one, cut) = chain::<W>(g.sides, |f| f >= u.threshold, |f| f, eps)?;
                parts.push((cut.to_f64(), g.count));
                laws.push((one, g.count));
            }
            match u.target {
                Some(t) => {
                    let mut acc = Pmf::point(0);
                    for (one, n) in &laws {
                        // A cut chain is neither success nor failure: each
                        // group's law is short by its cut mass, and so is
                        // the count's, like every other exploding law.
                        let p = one.prob(|s| t.holds(s + u.modifier));
                        let fail = one.total() - &p;
                        acc = acc.convolve(&sum_of(&Pmf::from_weights(0, vec![fail, p]), *n)?);
                    }
                    exploding_count(acc, &parts)
                }
                None => {
                    let mut total = Pmf::point(u.modifier);
                    for (one, n) in &laws {
                        total = total.convolve(&n_fold(one, *n)?);
                        check_span(&total, "the total")?;
                    }
                    let max = max_law(&laws, u.modifier)?;
                    let tail = tail_of(&total, &parts);
                    Law {
                        value: max,
                        total: Some(total),
                        tail,
                        explodes: true,
                    }
                }
            }
        }
    })
}

/// The work of a command's law, estimated and checked before any is done,
/// so that a command too big for `--exact` is refused at once rather than
/// after minutes: the sums (Miller's recurrence), the keep/drop programmes
/// and the reroll chains of every term, in big-fraction bit-steps summed
/// over the command (at most [`MAX_EXACT_BIT_STEPS`]). Floating point has
/// its own limits, checked as the law is built (fast).
pub fn check_work<W: Weight>(cmd: &Command, tail_eps: f64) -> Result<()> {
    if !W::EXACT {
        // Floating point: the refusals the law makes before any work on
        // the terms of an xDy sum (the span and multiply-adds of a sum, the
        // steps of a keep/drop), as `term` meets them, so a server refuses
        // them before the request waits for a worker.
        return match &cmd.body {
            Body::Add(a) => node_work::<W>(&a.expr, &mut Cost::default()),
            _ => Ok(()),
        };
    }
    let mut cost = Cost::default();
    match &cmd.body {
        Body::Add(a) => node_work::<W>(&a.expr, &mut cost)?,
        Body::D66(_) => {}
        Body::Barabara(b) => {
            for g in &b.groups {
                let values = if b.target.is_some() {
                    2
                } else {
                    g.sides as u64
                };
                check_sum::<W>(values, g.count, (g.sides.max(2) as f64).log2(), &|| {
                    format!("counting {}B{}", g.count, g.sides)
                })?;
            }
        }
        Body::Reroll(r) => {
            let eps = tail_eps / total_dice(&r.groups) as f64;
            for g in &r.groups {
                let go = (1..=g.sides).filter(|&f| r.reroll.holds(f)).count() as u64;
                let Some(depth) = chain_depth(g.sides, go, eps) else {
                    continue;
                };
                // A chain counts successes: 0 ..= depth + 1.
                let values = if r.target.is_some() { depth + 2 } else { 1 };
                cost.chain(g.sides, depth, 1, g.count);
                check_sum::<W>(
                    values,
                    g.count,
                    depth as f64 * (g.sides as f64).log2(),
                    &|| {
                        format!(
                        "counting {}R{} (each die's count takes {values} values over {depth} rerolls)",
                        g.count, g.sides
                    )
                    },
                )?;
            }
        }
        Body::Upper(u) => {
            let eps = tail_eps / total_dice(&u.groups) as f64;
            for g in &u.groups {
                let go = (1..=g.sides).filter(|&f| f >= u.threshold).count() as u64;
                let Some(depth) = chain_depth(g.sides, go, eps) else {
                    continue;
                };
                let values = if u.target.is_some() {
                    2
                } else {
                    (depth + 1) * g.sides as u64
                };
                cost.chain(g.sides, depth, g.sides as u64, g.count);
                check_sum::<W>(
                    values,
                    g.count,
                    depth as f64 * (g.sides as f64).log2(),
                    &|| {
                        format!(
                        "the total of {}U{} (each die's total takes about {values} values over {depth} rerolls)",
                        g.count, g.sides
                    )
                    },
                )?;
            }
        }
    }
    cost.check()
}

/// The reroll depth a chain is built to (as [`chain`] does), or `None` when
/// nothing rerolls, every face does, or the depth is past [`MAX_DEPTH`]
/// ([`chain`] refuses those at once itself).
fn chain_depth(sides: i64, go: u64, eps: f64) -> Option<u64> {
    let r = go as f64 / sides as f64;
    if go == 0 || r >= 1.0 {
        return None;
    }
    let depth = (eps.ln() / r.ln()).ceil();
    (depth <= MAX_DEPTH as f64).then_some(depth as u64)
}

/// Exact work of a command, summed over its terms, as a share of the
/// limits (1 = about a few seconds).
#[derive(Default)]
struct Cost {
    share: f64,
    /// The largest part: its share and its description.
    largest: Option<(f64, String)>,
}

impl Cost {
    /// Reroll-chain work in big-fraction bit-steps.
    fn add(&mut self, bit_steps: f64, what: impl FnOnce() -> String) {
        self.add_share(bit_steps / MAX_EXACT_BIT_STEPS, what);
    }

    /// Keep/drop work in word operations.
    fn add_keep(&mut self, word_ops: f64, what: impl FnOnce() -> String) {
        self.add_share(word_ops / MAX_EXACT_KEEP_WORD_OPS, what);
    }

    fn add_share(&mut self, share: f64, what: impl FnOnce() -> String) {
        self.share += share;
        if self.largest.as_ref().is_none_or(|(b, _)| *b < share) {
            self.largest = Some((share, what()));
        }
    }

    /// A reroll chain of d`sides` built `depth` rerolls deep, each face
    /// adding up to `score` (1 for a count, the face for a total), then
    /// its `count`-fold sum's maximum (xU): about depth²·score·sides/2
    /// fraction operations on numbers of depth·log₂ sides bits.
    fn chain(&mut self, sides: i64, depth: u64, score: u64, count: i64) {
        let d = depth as f64;
        let bits = d * (sides.max(2) as f64).log2();
        let ops = d * d * score as f64 * sides as f64 / 2.0;
        // xU without a target also raises each of the chain's cdf values
        // to the power `count` (numbers `count` times as long).
        let powers = if score > 1 {
            (d + 1.0) * sides as f64 * 2.0 * (count.max(2) as f64).log2() * count as f64
        } else {
            0.0
        };
        self.add(ops * bits + powers * bits, || {
            format!("rerolling d{sides} dice {depth} deep")
        });
    }

    fn check(self) -> Result<()> {
        if self.share <= 1.0 {
            return Ok(());
        }
        let what = self.largest.map(|(_, w)| w).unwrap_or_default();
        Err(Error::Conflict(format!(
            "dice: the command with --exact takes about {:.1} times the exact work allowed (a few seconds), most of it {what}; drop --exact for floating point, or use fewer dice",
            self.share
        )))
    }
}

/// The exact work of an expression's dice terms.
fn node_work<W: Weight>(n: &Node, cost: &mut Cost) -> Result<()> {
    match n {
        Node::Num(_) => Ok(()),
        Node::Pool(t) if t.is_plain() => term_work::<W>(n, t, cost),
        // The pool engine estimates its own folds before it starts.
        Node::Pool(_) | Node::Group(_) | Node::Chain(_) => Ok(()),
        Node::Neg(b) | Node::Paren(b) => node_work::<W>(b, cost),
        Node::Bin(_, a, b) => {
            node_work::<W>(a, cost)?;
            node_work::<W>(b, cost)
        }
    }
}

/// The exact work of a plain dice term `t` (the node `term`).
fn term_work<W: Weight>(term: &Node, t: &PoolTerm, cost: &mut Cost) -> Result<()> {
    let (faces, top, values) = match t.faces {
        DieFaces::D66 => (36, 66, 56),
        _ => {
            let s = t.faces.count();
            (s.max(1) as u64, s.max(0), s.max(1) as u64)
        }
    };
    let keep = t.filter.map(|(f, n)| f.as_keep(n, t.count));
    match keep {
        Some((_, k)) if k <= 0 || t.count == 0 => Ok(()),
        Some((_, k)) if k < t.count => {
            let n = t.count as u64;
            let width = k as u64 * top as u64 + 1;
            check_keep::<W>(faces, n, k as u64, width)?;
            let work = keep_steps(faces, n, width);
            let (_, word_ops) = keep_word_ops(faces, n, work);
            cost.add_keep(word_ops, || format!("keeping {k} of {n} dice ({term})"));
            Ok(())
        }
        _ => check_sum::<W>(values, t.count, (faces.max(2) as f64).log2(), &|| {
            format!("the sum of {} dice of {values} values", t.count)
        }),
    }
}

/// Law of the largest group total plus the modifier: P(max ≤ x) = Π Fᵢ(x)^nᵢ.
fn max_law<W: Weight>(laws: &[(Pmf<W>, i64)], modifier: i64) -> Result<Pmf<W>> {
    let live: Vec<&(Pmf<W>, i64)> = laws.iter().filter(|(_, n)| *n > 0).collect();
    if live.is_empty() {
        return Ok(Pmf::point(modifier));
    }
    let lo = live.iter().map(|(p, _)| p.min()).min().unwrap_or(0);
    let hi = live.iter().map(|(p, _)| p.max()).max().unwrap_or(0);
    let mut prev = W::zero();
    let mut w = Vec::with_capacity((hi - lo + 1) as usize);
    for x in lo..=hi {
        let mut c = W::one();
        for (p, n) in &live {
            c = c * &p.cdf(x).powi(*n as u32);
        }
        w.push(c.clone() - &prev);
        prev = c;
    }
    Ok(Pmf::from_weights(lo + modifier, w))
}
