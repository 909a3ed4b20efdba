//! Exact laws of BCDice commands, without enumerating faces.
//!
//! Every command is first a dice program ([`super::lower`]): バラバラダイス
//! `xB`, 個数振り足しダイス `xR`, 上方無限ロール `xU` and `D66` are pool
//! terms (scored faces, explosions that add a die, compounding) whose laws
//! the planner ([`super::pool::plan`]) chooses the algorithm for: a
//! count's power sum, the highest die by a power of the distribution
//! function, exploding chains cut where the mass still rolling is below
//! the per-die share of `tail_eps` (that mass, combined over the dice, is
//! the reported tail). What stays here is the plain `xDy` arithmetic:
//!
//! * Sums are convolutions; `*` and `/` of two random terms combine the two
//!   laws pairwise (they are independent: every die appears once).
//! * Keep/drop (`KHn`, `KLn`, `DHn`, `DLn`) is a dynamic programme over the
//!   faces from the best down (icepool's method, AIIDE 2022): the state is
//!   how many dice are placed and the kept sum; placing `m` of the `r`
//!   remaining dice on face `v` weighs `C(r, m)·p_v^m`. Θ(ℓ·n²·k·ℓ) for n
//!   dice of ℓ faces keeping k, never ℓⁿ.

use std::collections::{BTreeMap, HashMap};

use super::ast::*;
use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::weight::AddWeight;
use crate::weight::Weight;

/// Widest law (largest − smallest result + 1) hantei builds.
pub const MAX_SPAN: i64 = 2_000_000;
/// Most pairs combined by one `*` or `/` of two random terms, or by the
/// joint law of result and natural dice.
pub const MAX_PAIRS: u64 = 50_000_000;
/// Most steps ([`keep_steps`]: faces × kept sums × the counts kept) of
/// one keep/drop term. In floating point the rows' spans stop where their
/// weights do, so the steps run are far fewer: `200D40KH70`, 2.8·10⁸
/// steps, takes 8 ms.
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
/// × the 64-bit words they multiply, `keep_word_ops`). Measured on a
/// 2-core machine once the programme carried only the counts short of
/// `k` ([`keep_steps`]): `200D6KH100`, 1.3·10⁹, 0.09 s (1.2 s when it
/// carried every count placed, 432 s on fractions); `200D15KH100`,
/// 1.8·10¹⁰, 0.76 s; `100D100KL2`, 1.7 s before, 0.08 s. At the dearest
/// rate measured (0.07 ns a word operation) the limit is about a second
/// and a half; `200D16KH100`, 2.1·10¹⁰, is refused.
pub const MAX_EXACT_KEEP_WORD_OPS: f64 = 2e10;

/// The exact law of a command's result.
#[derive(Clone, Debug)]
pub struct Law<W: Weight> {
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
    pub fn of_joint(joint: &super::pool::JointLaw<W>) -> Result<Law<W>> {
        Ok(Law {
            value: joint.total_law()?,
            total: None,
            tail: joint.tail.clone(),
            explodes: joint.explodes,
        })
    }
}

pub(crate) fn too_wide(what: &str, span: i64) -> Error {
    Error::Conflict(format!(
        "dice: {what} spans {span} values (at most {MAX_SPAN}); use fewer dice or smaller multipliers"
    ))
}

/// Refuse a result whose values (`values`, as met) span more than
/// [`MAX_SPAN`]: its law is a vector over that span. A roll of named
/// terms or one read by tiers goes through the pool engine, whose tuples
/// hold any value; where its total's law is built, it is refused as the
/// same roll unnamed is (`1D2[a]*1000000000*1000000000+1D2[b]`: its law
/// would be 10¹⁸ cells, where `1D2*…` is refused by the law itself).
pub fn check_result_span(values: impl IntoIterator<Item = i64>) -> Result<()> {
    let mut range: Option<(i64, i64)> = None;
    for v in values {
        range = Some(range.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
    }
    match range {
        Some((lo, hi)) => check_range("the result", i128::from(lo), i128::from(hi)),
        None => Ok(()),
    }
}

/// Refuse values `lo..=hi` (named `what`) spanning more than [`MAX_SPAN`].
fn check_range(what: &str, lo: i128, hi: i128) -> Result<()> {
    let span = hi - lo + 1;
    if span > i128::from(MAX_SPAN) {
        return Err(too_wide(what, i64::try_from(span).unwrap_or(i64::MAX)));
    }
    Ok(())
}

/// Refuse a sum, difference or product whose parts range over `a` and
/// `b` (least, greatest) where the result would span more than
/// [`MAX_SPAN`]: its extremes are those of the parts' extremes, so this
/// is known before any pair is made. Other operations pass.
pub(crate) fn check_op_span(op: Op, (a0, a1): (i128, i128), (b0, b1): (i128, i128)) -> Result<()> {
    match op {
        Op::Add => check_range("the sum", a0 + b0, a1 + b1),
        Op::Sub => check_range("the sum", a0 - b1, a1 - b0),
        Op::Mul => {
            let corners = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
            let lo = corners.iter().copied().min().unwrap_or(0);
            let hi = corners.iter().copied().max().unwrap_or(0);
            check_range("a product or quotient", lo, hi)
        }
        _ => Ok(()),
    }
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
        DieFaces::Custom(v) => {
            let n = v.len() as i64;
            Pmf::from_pairs(v.iter().map(|s| (s.value, W::ratio(1, n))))
        }
        DieFaces::Fate => Pmf::uniform(-1, 1),
    }
}

/// The lowest and highest value of one die of `faces`.
fn face_range(faces: &DieFaces) -> (i64, i64) {
    match faces {
        DieFaces::Standard(s) => (1, *s),
        DieFaces::D66 => (11, 66),
        DieFaces::Fate => (-1, 1),
        DieFaces::Custom(v) => v.iter().fold((i64::MAX, i64::MIN), |(lo, hi), s| {
            (lo.min(s.value), hi.max(s.value))
        }),
    }
}

/// What the result's law of `expr` refuses from what is known before any
/// law is built, checked before a report builds its tiers' law:
///
/// * each exploding term's sum, as [`sum_of`] will check it: its one die
///   cut as the pool engine cuts it for the result (its share of
///   `tail_eps`), its values and denominators counted;
/// * where the pool engine computes the result, each combination of two
///   parts from the floors on their cells
///   ([`super::pool::combine::check_floor`]).
///
/// `100D1000!` read by `doubles` built its tiers' law for 2.3 s before its
/// result's sum was refused (100 dice of 5,999 values, 1.4·10¹¹
/// multiply-adds), and `100D1000ri1+3D1000` for 3 s before its result's
/// combination was (3·10⁸ pairs); both are now refused in milliseconds.
pub fn check_result_before_tiers<W: Weight>(expr: &Node, tail_eps: f64) -> Result<()> {
    use super::pool;
    let ctx = pool::Ctx::new(
        pool::layout(&[]),
        tail_eps / pool::dice_count(expr).max(1) as f64,
        true,
    );
    let mut terms: Vec<&PoolTerm> = Vec::new();
    pool::visit(expr, &mut |n| {
        if let Node::Pool(t) = n {
            terms.push(t);
        }
    });
    let summed = |t: &&PoolTerm| {
        t.explosion().is_some() && t.kept_filter().is_none() && t.scores.is_empty() && t.count >= 2
    };
    for t in terms.into_iter().filter(summed) {
        let law = pool::die::die_law::<W>(t, &ctx)?;
        let orders = || law.outcomes.iter().map(|(o, _)| o.order);
        let (Some(lo), Some(hi)) = (orders().min(), orders().max()) else {
            continue;
        };
        let values = (hi - lo + 1) as u64;
        check_sum::<W>(values, t.count, law.den_bits() as f64, &|| {
            format!("the sum of {} dice of {values} values", t.count)
        })?;
    }
    // The result's law takes the pool engine where its dice need it once
    // names are set aside ([`law`]).
    let plain = unnamed(expr);
    if !pool::uses_engine(&plain) {
        return Ok(());
    }
    let mut pairs: Vec<(&Node, &Node, &Node)> = Vec::new();
    pool::visit(&plain, &mut |n| {
        if let Node::Bin(_, a, b) = n {
            if !matches!((&**a, &**b), (Node::Num(_), _) | (_, Node::Num(_))) {
                pairs.push((n, a, b));
            }
        }
    });
    for (n, a, b) in pairs {
        pool::combine::check_floor::<W>(n, a, b, &ctx)?;
    }
    Ok(())
}

/// Sum of `n` dice of law `d`.
pub fn sum_of<W: Weight>(d: &Pmf<W>, n: i64) -> Result<Pmf<W>> {
    let values = (d.max() - d.min() + 1) as u64;
    // The size of one die's exact weights: a die's own faces (0: log₂ of
    // its values), or an exploding chain's long denominators.
    let bits = d.weights().iter().map(Weight::den_bits).max().unwrap_or(0) as f64;
    check_sum::<W>(values, n, bits, &|| {
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
    if deg >= 1 && q[1..].iter().all(|x| *x == q[1]) {
        // Every face alike but perhaps the lowest (`20D1000`; `20D20ro1`,
        // `20D1000ri1`, a reroll of the lowest face): the recurrence's sum
        // is q₁·((n + 1)·S₁ − k·S₀) over the last `deg` coefficients, S₀
        // their sum and S₁ their sum weighted by distance, both slid along
        // in a few additions a step, so the law takes `len` steps where
        // the sum over the faces took `len · deg` (20D1000: 0.9 s).
        let d = deg;
        let (q0, q1) = (q[0].clone(), q[1].clone());
        let (mut s0, mut s1) = (BigInt::zero(), BigInt::zero());
        for k in 1..len {
            // From S(k − 1) to S(k): aₖ₋₁ enters at distance 1, every
            // other moves one farther, a_{k−1−d} leaves from distance d.
            let leaving = (k > d).then(|| &a[k - 1 - d]);
            s1 += &s0 + &a[k - 1];
            s0 += &a[k - 1];
            if let Some(x) = leaving {
                s1 -= x * BigInt::from(d as u64 + 1);
                s0 -= x;
            }
            let s = (&s1 * (i64::from(n) + 1) - &s0 * k as i64) * &q1;
            // Exact: aₖ is a coefficient of an integer polynomial.
            a.push(s / (&q0 * BigInt::from(k)));
        }
    } else {
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
    }
    let min = (d.min() + first as i64) * i64::from(n);
    let weights = match small_factors(&den) {
        // Each aₖ / denⁿ in lowest terms by dividing out the few primes of
        // the denominator (the dice's sides), not by a gcd of big numbers.
        Some(primes) => reduce_powers(a, &primes, n)
            .into_iter()
            .map(|(num, den)| W::from_reduced(num, den))
            .collect(),
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

/// Each `x / total` in lowest terms, where `total = Π pᵉⁿ` for the prime
/// factors `(p, e)` of the denominator's base: divide out each prime while
/// it divides both.
///
/// The ladder of each odd prime's powers `p^(2^j)` is built once for every
/// coefficient (it was squared again for each: most of `1000R6[6]>=5
/// --exact`'s time), the coefficients are stripped in parallel where they
/// are long (each on its own, so the answer is the same on any number of
/// threads), and a denominator `Π p^(e·n − v)` is built once for each
/// distinct tuple of the primes' exponents `v` divided out, not divided
/// out of `total` for each coefficient.
fn reduce_powers(
    a: Vec<num_bigint::BigInt>,
    primes: &[(u32, u32)],
    n: u32,
) -> Vec<(num_bigint::BigInt, num_bigint::BigInt)> {
    use num_bigint::BigInt;
    use num_traits::{One, Pow, Zero};
    use rayon::prelude::*;
    // Per prime: p, e·n, and p^(2^j) for 2^j ≤ e·n (odd primes).
    let ladders: Vec<(u32, u32, Vec<BigInt>)> = primes
        .iter()
        .map(|&(p, e)| {
            let full = e * n;
            let mut powers = Vec::new();
            if p != 2 {
                powers.push(BigInt::from(p));
                while 1u32 << powers.len() <= full {
                    let last = powers.last().expect("not empty");
                    powers.push(last * last);
                }
            }
            (p, full, powers)
        })
        .collect();
    let strip = |x: BigInt| strip_primes(x, &ladders);
    // Long coefficients in parallel (a few thousand bits and up).
    let bits: u64 = a.iter().map(|x| x.bits()).max().unwrap_or(0);
    let stripped: Vec<(BigInt, Vec<u32>)> = if bits.saturating_mul(a.len() as u64) > 1 << 22 {
        a.into_par_iter().map(strip).collect()
    } else {
        a.into_iter().map(strip).collect()
    };
    let mut dens: HashMap<Vec<u32>, BigInt> = HashMap::new();
    stripped
        .into_iter()
        .map(|(x, v)| {
            if x.is_zero() {
                return (x, BigInt::one());
            }
            let den = dens
                .entry(v)
                .or_insert_with_key(|v| {
                    ladders
                        .iter()
                        .zip(v)
                        .fold(BigInt::one(), |d, ((p, full, _), v)| {
                            let left = full - v;
                            if *p == 2 {
                                d << left as usize
                            } else {
                                d * Pow::pow(&BigInt::from(*p), left)
                            }
                        })
                })
                .clone();
            (x, den)
        })
        .collect()
}

/// `x` with each prime of `ladders` (`(p, e·n, p^(2^j)…)`) divided out
/// while it divides `x`, at most `e·n` times, and how many times each was.
fn strip_primes(
    mut x: num_bigint::BigInt,
    ladders: &[(u32, u32, Vec<num_bigint::BigInt>)],
) -> (num_bigint::BigInt, Vec<u32>) {
    use num_traits::Zero;
    let mut out = Vec::with_capacity(ladders.len());
    if x.is_zero() {
        return (x, vec![0; ladders.len()]);
    }
    for (p, full, powers) in ladders {
        let mut v = 0;
        if *p == 2 {
            v = x.trailing_zeros().map_or(0, |t| (t as u32).min(*full));
            x >>= v as usize;
        } else {
            // Divide by p^(2^j) from the largest j down: log₂(e·n)
            // divisions, where one at a time took e·n of them (300R6>=5:
            // 11,000 divisions of 29,000-bit numbers per coefficient).
            for (j, pw) in powers.iter().enumerate().rev() {
                let step = 1u32 << j;
                if v + step > *full {
                    continue;
                }
                let (q, r) = num_integer::Integer::div_rem(&x, pw);
                if r.is_zero() {
                    x = q;
                    v += step;
                }
            }
        }
        out.push(v);
    }
    (x, out)
}

/// Steps of the keep/drop programme ([`keep`]) keeping `k` of `n` dice of
/// `faces` faces, kept sums of `width` values: at each face, the powers of
/// its chance and of the worse faces' (`2(n + 1)` products), and for each
/// of the `k` counts placed so far (`c`), a row of sums moved for each
/// count still short of `k` here (`k − c` rows) and one row finished, with
/// the weight of the rest on worse faces summed over the counts left
/// (three products each): `faces · (2(n + 1) + width · k(k + 3)/2 +
/// 3k(n + 1))` at most.
pub fn keep_steps(faces: u64, n: u64, k: u64, width: u64) -> u64 {
    let rows = k.saturating_mul(k + 3) / 2;
    let per_face = (2 * (n + 1))
        .saturating_add(width.saturating_mul(rows))
        .saturating_add((3 * k).saturating_mul(n + 1));
    faces.saturating_mul(per_face)
}

/// Whether keeping `k` of `n` dice of `faces` faces (kept sums of `width`
/// values) is within the limits: its steps, and with `--exact` its
/// bit-steps (the fractions have about `n·log₂ faces` bits).
fn check_keep<W: Weight>(faces: u64, n: u64, k: u64, width: u64) -> Result<()> {
    let work = keep_steps(faces, n, k, width);
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

/// The highest (`high`) or lowest of `n` dice of `faces`, every face
/// equally likely: the planner's [`Algorithm::Extreme`] for a plain term
/// keeping one die (`2D20KH1`, `4D6KL1`, `3D6DH2`), read by its total.
/// With `c(v)` the faces at most `v` of the die's `s`, `P(max ≤ v) =
/// (c/s)ⁿ`, and `P(min ≥ v) = (c'/s)ⁿ` with `c'` the faces at least `v`:
/// each power taken at once and correctly rounded
/// ([`Weight::pow_ratio`]), never accumulated, so no probability exceeds 1.
/// `values · log n` multiplications, where the keep/drop programme takes
/// `faces · n · span`.
///
/// [`Algorithm::Extreme`]: super::pool::plan::Algorithm::Extreme
pub fn extreme<W: Weight>(faces: &DieFaces, n: u32, high: bool) -> Pmf<W> {
    if n == 0 {
        return Pmf::point(0);
    }
    match faces {
        DieFaces::Standard(s) => extreme_sorted(1..=*s, (*s).max(0) as u64, n, high),
        DieFaces::Custom(v) if v.is_sorted_by_key(|s| s.value) => {
            extreme_sorted(v.iter().map(|s| s.value), v.len() as u64, n, high)
        }
        _ => {
            let mut sides: Vec<i64> = faces.sides().into_iter().map(|s| s.value).collect();
            sides.sort_unstable();
            let s = sides.len() as u64;
            extreme_sorted(sides.into_iter(), s, n, high)
        }
    }
}

/// [`extreme`] of a die whose `s` faces are `sides`, ascending.
fn extreme_sorted<W: Weight, I>(sides: I, s: u64, n: u32, high: bool) -> Pmf<W>
where
    I: DoubleEndedIterator<Item = i64> + Clone,
{
    let (Some(lo), Some(hi)) = (sides.clone().next(), sides.clone().next_back()) else {
        return Pmf::point(0);
    };
    let mut weights = vec![W::zero(); (hi - lo + 1) as usize];
    if high {
        extreme_walk(sides, s, n, lo, &mut weights);
    } else {
        extreme_walk(sides.rev(), s, n, lo, &mut weights);
    }
    Pmf::from_weights(lo, weights)
}

/// Walk the faces from the reading's far end (`faces`, equal ones next to
/// each other), taking at each distinct value the power of the faces
/// passed so far once — `P(max ≤ v)`, or `P(min ≥ v)` — and writing its
/// step into `weights` (offset `lo`).
fn extreme_walk<W: Weight>(
    faces: impl Iterator<Item = i64>,
    s: u64,
    n: u32,
    lo: i64,
    weights: &mut [W],
) {
    let mut faces = faces.peekable();
    let mut before = W::zero();
    let mut passed = 0u64;
    while let Some(v) = faces.next() {
        passed += 1;
        if faces.peek() != Some(&v) {
            super::pool::plan::count(1);
            let now = W::pow_ratio(passed, s, n);
            weights[(v - lo) as usize] = now.clone() - &before;
            before = now;
        }
    }
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
    // Two sets of rows, reused face after face (each cleared over the span
    // it reached).
    let mut state: Vec<Row<W>> = (0..k).map(|_| Row::new(width)).collect();
    let mut next: Vec<Row<W>> = (0..k).map(|_| Row::new(width)).collect();
    state[0].add((-base) as usize, &[W::one()], &W::one());
    let mut done = vec![W::zero(); width];
    let mut powers: Vec<W> = Vec::with_capacity(n + 1);
    let mut rest: Vec<W> = Vec::with_capacity(n + 1);
    for (i, (face, p)) in faces.iter().enumerate() {
        let pow = |v: &mut Vec<W>, x: &W| {
            v.clear();
            let mut acc = W::one();
            for _ in 0..=n {
                v.push(acc.clone());
                acc = acc * x;
            }
        };
        pow(&mut powers, p);
        pow(&mut rest, &worse[i]);
        for row in next.iter_mut() {
            row.clear();
        }
        for c in 0..k {
            let cur = &state[c];
            // Only the span of the sums reached is read.
            let Some((from, src)) = cur.span() else {
                continue;
            };
            let r = n - c;
            let need = k - c;
            // m < need dice here: still short of k.
            for m in 0..need.min(r + 1) {
                let w = binom[r][m].clone() * &powers[m];
                if w.is_zero() {
                    continue;
                }
                let shift = m as i64 * face;
                next[c + m].add((from as i64 + shift) as usize, src, &w);
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
            add_scaled(&mut done, (from as i64 + shift) as usize, src, &w);
        }
        std::mem::swap(&mut state, &mut next);
    }
    Ok(Pmf::from_weights(base, done))
}

/// One state of [`keep`]: the law of the kept sum over `width` sums, and
/// the span `from..to` every sum it reached lies in (empty: not reached).
/// Read over its span only, where it was scanned for its first and last
/// weight that is not zero: a zero at the span's edge adds exactly nothing.
struct Row<W> {
    v: Vec<W>,
    from: usize,
    to: usize,
}

impl<W: Weight> Row<W> {
    fn new(width: usize) -> Self {
        Row {
            v: vec![W::zero(); width],
            from: usize::MAX,
            to: 0,
        }
    }

    /// Its span and weights there; `None` if not reached.
    fn span(&self) -> Option<(usize, &[W])> {
        (self.from < self.to).then(|| (self.from, &self.v[self.from..self.to]))
    }

    /// Back to no sum reached.
    fn clear(&mut self) {
        if self.from < self.to {
            self.v[self.from..self.to].fill(W::zero());
        }
        self.from = usize::MAX;
        self.to = 0;
    }

    /// `v[at + j] += src[j] · w` ([`add_scaled`]), the span widened.
    fn add(&mut self, at: usize, src: &[W], w: &W) {
        add_scaled(&mut self.v, at, src, w);
        self.from = self.from.min(at);
        self.to = self.to.max(at + src.len());
    }
}

/// `dst[at + j] += src[j] · w` for every `j`: a loop without branches
/// in floating point, which the compiler vectorises (a zero weight adds
/// exactly nothing, so the sums are those of skipping it); exact weights
/// skip their zeros, each addition of a fraction being a gcd.
fn add_scaled<W: Weight>(dst: &mut [W], at: usize, src: &[W], w: &W) {
    let dst = &mut dst[at..at + src.len()];
    for (d, x) in dst.iter_mut().zip(src) {
        if W::EXACT && x.is_zero() {
            continue;
        }
        *d += x.clone() * w;
    }
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
    // The numerators (over `den` per die) of the faces after each one,
    // worse in keeping order.
    let mut worse: Vec<BigInt> = vec![BigInt::zero(); q.len()];
    for i in (0..q.len().saturating_sub(1)).rev() {
        worse[i] = &worse[i + 1] + &q[i + 1];
    }
    // As `keep` does on fractions: state[c] is the kept sum with c < k
    // dice placed; once k are kept the sum is final and the dice left fall
    // on worse faces (their numerators to the power left), so the law goes
    // to `done` at once. Every die contributes one numerator over `den`,
    // so `done` is over denᵏ⁺⁽ⁿ⁻ᵏ⁾ = denⁿ throughout.
    let mut state: Vec<Option<Vec<BigInt>>> = vec![None; k];
    state[0] = Some({
        let mut v = vec![BigInt::zero(); width];
        v[(-base) as usize] = BigInt::one();
        v
    });
    let mut done = vec![BigInt::zero(); width];
    let powers_of = |x: &BigInt| {
        let mut v = Vec::with_capacity(n + 1);
        let mut acc = BigInt::one();
        for _ in 0..=n {
            v.push(acc.clone());
            acc *= x;
        }
        v
    };
    for (((face, _), qv), wv) in faces.iter().zip(&q).zip(&worse) {
        let powers = powers_of(qv);
        let rest = powers_of(wv);
        let mut next: Vec<Option<Vec<BigInt>>> = vec![None; k];
        for c in 0..k {
            let Some(cur) = &state[c] else { continue };
            let r = n - c;
            let need = k - c;
            let add = |dst: &mut Vec<BigInt>, m: usize, w: &BigInt| {
                let shift = m as i64 * face;
                for (i, x) in cur.iter().enumerate() {
                    if x.is_zero() {
                        continue;
                    }
                    let j = (i as i64 + shift) as usize;
                    dst[j] += x * w;
                }
            };
            // m < need dice here: still short of k.
            for m in 0..need.min(r + 1) {
                let w = &binom[r][m] * &powers[m];
                if w.is_zero() {
                    continue;
                }
                let dst = next[c + m].get_or_insert_with(|| vec![BigInt::zero(); width]);
                add(dst, m, &w);
            }
            // m >= need: k kept (`need` of them here), the other r - m
            // dice on worse faces.
            let mut w = BigInt::zero();
            for m in need..=r {
                w += &binom[r][m] * &powers[m] * &rest[r - m];
            }
            if !w.is_zero() {
                add(&mut done, need, &w);
            }
        }
        state = next;
    }
    let last = done;
    Some(match small_factors(&den) {
        Some(primes) => reduce_powers(last, &primes, n as u32)
            .into_iter()
            .map(|(num, d)| W::from_reduced(num, d))
            .collect(),
        None => {
            let total = Pow::pow(&den, n as u32);
            last.into_iter()
                .map(|x| W::from_fraction(x, total.clone()))
                .collect()
        }
    })
}

/// The law of one term of equally likely faces with no scores,
/// modifiers or name, read by its total: BCDice's plain terms
/// ([`PoolTerm::is_plain`]; [`node`] sends the others to the pool
/// engine) and the seed systems' dice programs (keep-highest's ranked
/// faces, d20's `2D20KH1`).
pub fn term<W: Weight>(t: &PoolTerm) -> Result<Pmf<W>> {
    debug_assert!(
        t.scores.is_empty() && t.mods.is_empty() && t.name.is_none(),
        "law::term of {t}"
    );
    use super::pool::plan::{self, Algorithm};
    // The planner chooses, as for every term: read by its total alone, a
    // plain term is a power sum or keep/drop order statistics, run here on
    // the die's law directly.
    let (lo, hi) = face_range(&t.faces);
    let chosen = plan::plain::<W>(t, lo, hi);
    plan::traced(
        || t.to_string(),
        t.count,
        &chosen,
        || match (chosen.algorithm, t.filter) {
            (Algorithm::KeepDp, Some((filter, n))) => {
                let (high, k) = filter.as_keep(n, t.count);
                keep(&die(&t.faces), t.count, k, high)
            }
            (Algorithm::Extreme, Some((filter, n))) => {
                let (high, _) = filter.as_keep(n, t.count);
                // Each power is of fractions over `faces`ⁿ.
                let die_bits = (t.faces.count().max(2) as f64).log2();
                let values = (hi - lo + 1) as usize;
                let count = super::pool::fold::extreme_dice::<W>(t, die_bits, values)?;
                Ok(extreme(&t.faces, count, high))
            }
            _ => sum_of(&die(&t.faces), t.count),
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
                    acc.entry(v).add_weight(p.clone() * q);
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

/// A product's extremes are the products of the laws' extremes: a span
/// too wide is refused before any pair (`10D1000*2D1000DL1 --exact`: 10
/// million pairs of long fractions, past 30 s, then refused). Called by
/// [`node`] before [`combine`]: inside `combine` (even out of line and
/// cold) it slowed the rounds' laws by 8–12 % through code layout alone
/// (peers `rounds_pool_20`, `chain_dnd_round_100`).
#[cold]
#[inline(never)]
fn check_product_span<W: Weight>(a: &Pmf<W>, b: &Pmf<W>) -> Result<()> {
    let range = |p: &Pmf<W>| (i128::from(p.min()), i128::from(p.max()));
    check_op_span(Op::Mul, range(a), range(b))
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
            super::pool::law::<W>(n, &[], super::DEFAULT_TAIL_EPS)?.total_law()?
        }
        Node::Neg(b) => node::<W>(b)?.map(|x| -x),
        Node::Paren(b) => node(b)?,
        Node::Bin(op, a, b) => {
            let (a, b) = (node(a)?, node(b)?);
            if *op == Op::Mul {
                check_product_span(&a, &b)?;
            }
            combine(*op, &a, &b)?
        }
    };
    check_span(&law, "the result")?;
    Ok(law)
}

/// Refuse the joint law of result and natural dice of at least `pairs`
/// pairs on `bits`-bit denominators (floors of its parts, counted before
/// either is built), past [`MAX_PAIRS`] or, exactly, the combination's
/// big-fraction units.
/// With `floor` false, the same of the pairs and bits its built parts
/// have.
fn check_joint_pairs<W: Weight>(pairs: u64, bits: u64, floor: bool) -> Result<()> {
    let (least, before) = if floor {
        ("at least ", ", counted before either part was built")
    } else {
        ("", "")
    };
    if pairs > MAX_PAIRS {
        return Err(Error::Conflict(format!(
            "dice: the joint law of result and natural dice needs {least}{pairs} pairs{before} (at most {MAX_PAIRS}); drop the natural conditions or use fewer dice"
        )));
    }
    let units = super::pool::combine::exact_units(pairs, bits);
    let most = super::pool::combine::MAX_EXACT_COMBINE_UNITS;
    if W::EXACT && units > most {
        return Err(Error::Conflict(format!(
            "dice: the exact joint law of result and natural dice takes {least}about {units:.1e} big-fraction units ({pairs} pairs on {bits}-bit denominators{before}; at most {most:e}); drop --exact (floating point is exact to about 1e-15), drop the natural conditions or use fewer dice"
        )));
    }
    Ok(())
}

/// Refuse the joint law of result and natural dice of `n` from its
/// parts' floors, before either is built (and before the result's own
/// law: `20D1000-50D8` read by `natural>=19`, exactly, built its result's
/// and its parts' laws for 2 s before its 7 million pairs were refused).
pub fn check_joint_floor<W: Weight>(n: &Node) -> Result<()> {
    match n {
        Node::Paren(b) | Node::Neg(b) => check_joint_floor::<W>(b),
        Node::Bin(_, a, b) => {
            let eps = super::DEFAULT_TAIL_EPS;
            let (fa, fb) = (
                super::pool::combine::plain_floor(a, eps),
                super::pool::combine::plain_floor(b, eps),
            );
            check_joint_pairs::<W>(fa.0.saturating_mul(fb.0), fa.1 + fb.1, true)
        }
        _ => Ok(()),
    }
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
        Node::Bin(..) => match joint_parts::<W>(n)? {
            Some(parts) => joined(&parts)?,
            None => BTreeMap::new(),
        },
    })
}

/// The two parts of `n` where it is two parts joined (`a op b`, in
/// parentheses or not), each part's joint law of result and natural dice,
/// checked first from their floors and then from the laws built; `None`
/// for any other node.
pub fn joint_parts<W: Weight>(n: &Node) -> Result<Option<JointParts<W>>> {
    let (op, a, b) = match n {
        Node::Paren(b) => return joint_parts(b),
        Node::Bin(op, a, b) => (*op, a, b),
        _ => return Ok(None),
    };
    check_joint_floor::<W>(n)?;
    let (ja, jb) = (joint::<W>(a)?, joint::<W>(b)?);
    // Each pair a product and a sum of fractions, as a
    // combination of two parts counts them (`1D1000+200D10` read
    // by `natural>=19`, exactly: 1.8 million pairs on 674-bit
    // denominators answered after 51 s).
    let bits = |j: &BTreeMap<(i64, i64), W>| j.values().map(Weight::den_bits).max().unwrap_or(0);
    check_joint_pairs::<W>(
        ja.len() as u64 * jb.len() as u64,
        bits(&ja) + bits(&jb),
        false,
    )?;
    Ok(Some((op, ja, jb)))
}

/// Two parts of a joint law of result and natural dice, and the operator
/// joining them ([`joint_parts`]).
pub type JointParts<W> = (Op, BTreeMap<(i64, i64), W>, BTreeMap<(i64, i64), W>);

/// The joint law of two parts joined: each pair's weight added to its
/// (result, natural dice) cell.
pub fn joined<W: Weight>((op, ja, jb): &JointParts<W>) -> Result<BTreeMap<(i64, i64), W>> {
    let mut out: BTreeMap<(i64, i64), W> = BTreeMap::new();
    for_each_pair(*op, ja, jb, |v, nat, w| out.entry((v, nat)).add_weight(w))?;
    Ok(out)
}

/// Each pair of a cell of `ja` and one of `jb` joined by `op`: its result,
/// its natural dice and its weight, handed to `f` in the parts' order.
pub fn for_each_pair<W: Weight>(
    op: Op,
    ja: &BTreeMap<(i64, i64), W>,
    jb: &BTreeMap<(i64, i64), W>,
    mut f: impl FnMut(i64, i64, W),
) -> Result<()> {
    for ((x, nx), p) in ja {
        for ((y, ny), q) in jb {
            let v = op
                .apply(*x, *y)
                .ok_or_else(|| Error::Conflict("dice: a result is out of range".into()))?;
            f(v, nx + ny, p.clone() * q);
        }
    }
    Ok(())
}

/// Most pairs of a joint law of result and natural dice that are met in a
/// map before the tiers read them (`Check`'s plain tiers); past this the
/// tiers read each pair as it is made and no joint law is built.
/// Where no two pairs meet (`100D100-10D1000KH3`: each of its 29.7
/// million pairs a cell of its own) the map took 9.5 s and 1.6 GB; pair by
/// pair it is a judgment and an addition each.
pub const MAX_JOINT_MAP: u64 = 1 << 20;

/// The law of a command's result (its work checked first: [`check_work`]):
/// the command's dice program ([`super::lower`]) through the planner,
/// plain `xDy` sums by [`node`], the rest by the pool engine.
pub fn law<W: Weight>(cmd: &Command, tail_eps: f64) -> Result<Law<W>> {
    check_work::<W>(cmd)?;
    let p = super::lower::program(cmd)?;
    let explodes = matches!(cmd.body, Body::Reroll(_) | Body::Upper(_));
    use super::pool::Stat;
    // A name changes no total: a sum of plain dice, some named
    // (`3D10[normal]+2D10[hunger]`), is the plain sum, by the same
    // algorithm as its unnamed spelling (its names still checked).
    let total_only = p.result == Stat::Total && !p.total && p.shift == 0;
    let bare = (total_only && super::pool::uses_engine(&p.expr)).then(|| unnamed(&p.expr));
    let plain = bare.as_ref().unwrap_or(&p.expr);
    if !super::pool::uses_engine(plain) {
        if bare.is_some() {
            super::pool::check_names(&p.expr)?;
        }
        return Ok(Law {
            value: node(plain)?,
            total: None,
            tail: W::zero(),
            explodes,
        });
    }
    // A refusal names the command as typed, and the program it became.
    let about = |e: Error| match e {
        Error::Conflict(m) if !matches!(cmd.body, Body::Add(_)) => {
            let verb = match cmd.body {
                Body::Barabara(_) | Body::Reroll(_) => "counting",
                _ => "rolling",
            };
            let rest = m.strip_prefix("dice: ").unwrap_or(&m);
            Error::Conflict(format!(
                "dice: {verb} {cmd} (the dice program {}): {rest}",
                p.expr
            ))
        }
        other => other,
    };
    // The result and the total are read apart (xU: the highest die and
    // the sum), each without the other's states.
    let shifted = |m: Pmf<W>| {
        map_checked(&m, |x| x.checked_add(p.shift))
            .ok_or_else(|| Error::Conflict("dice: a result is out of range".into()))
    };
    // The total first: a sum too big is refused before the extreme's work.
    let total = if p.total {
        let law = super::pool::law::<W>(&p.expr, &[], tail_eps).map_err(about)?;
        Some(shifted(law.total_law()?)?)
    } else {
        None
    };
    let joint = if p.result == Stat::Total {
        super::pool::law::<W>(&p.expr, &[], tail_eps)
    } else {
        super::pool::facts::<W>(&p.expr, std::slice::from_ref(&p.result), tail_eps)
    }
    .map_err(about)?;
    Ok(Law {
        value: shifted(joint.marginal_checked(&p.result)?)?,
        total,
        tail: joint.tail.clone(),
        explodes: explodes || joint.explodes,
    })
}

/// `n` with its terms' names taken off (a name changes no total).
fn unnamed(n: &Node) -> Node {
    match n {
        Node::Pool(t) if t.name.is_some() => {
            let mut t = t.clone();
            t.name = None;
            Node::Pool(t)
        }
        Node::Neg(b) => Node::Neg(Box::new(unnamed(b))),
        Node::Paren(b) => Node::Paren(Box::new(unnamed(b))),
        Node::Bin(op, a, b) => Node::Bin(*op, Box::new(unnamed(a)), Box::new(unnamed(b))),
        other => other.clone(),
    }
}

/// The work of a command's law, estimated and checked before any is done,
/// so that a command too big for `--exact` is refused at once rather than
/// after minutes: the sums (Miller's recurrence) and keep/drop programmes
/// of an `xDy` sum's plain terms, each a share of its limit
/// ([`MAX_EXACT_SUM_NANOS`], [`MAX_EXACT_KEEP_WORD_OPS`]) summed over the
/// command; the counting commands' and
/// the pool terms' work is the planner's ([`super::pool::plan`]),
/// estimated as their laws are planned. Floating point has its own limits,
/// checked as the law is built (fast).
pub fn check_work<W: Weight>(cmd: &Command) -> Result<()> {
    let Body::Add(a) = &cmd.body else {
        return Ok(());
    };
    // In floating point too: the refusals the law makes before any work
    // on the terms of an xDy sum (the span and multiply-adds of a sum, the
    // steps of a keep/drop), as `term` meets them, so a server refuses
    // them before the request waits for a worker.
    let mut cost = Cost::default();
    node_work::<W>(&a.expr, &mut cost)?;
    if W::EXACT {
        cost.check()?;
    }
    Ok(())
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
        // A group's plain items are built as plain terms are: each
        // counted before any is built (`{20D10ri1,10D3KL2,100D100KL2,
        // 200D100KH3}KH2 --exact` built three items' laws for 1.6 s
        // before the last one's keep/drop was refused).
        Node::Group(g) => g.items.iter().try_for_each(|it| node_work::<W>(it, cost)),
        // The pool engine estimates its own folds before it starts.
        Node::Pool(_) | Node::Chain(_) => Ok(()),
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
            let work = keep_steps(faces, n, k as u64, width);
            let (_, word_ops) = keep_word_ops(faces, n, work);
            cost.add_keep(word_ops, || format!("keeping {k} of {n} dice ({term})"));
            Ok(())
        }
        _ => check_sum::<W>(values, t.count, (faces.max(2) as f64).log2(), &|| {
            format!("the sum of {} dice of {values} values", t.count)
        }),
    }
}
