//! Probability weights: one trait, two number types.
//!
//! Every calculator in hantei is written once, generic over [`Weight`], and
//! runs either in fast `f64` or in exact rational arithmetic ([`Exact`], a
//! big-integer fraction, so a pool of 100 d6 with denominators of 6^100 is
//! still exact). The CLI's `--exact` switch picks [`Exact`].

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, Mul, Sub};

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};

/// An exact probability: a reduced fraction of big integers.
pub type Exact = num_rational::BigRational;

/// A number a probability can be computed in.
///
/// Implemented for `f64` (fast) and [`Exact`] (exact fractions).
pub trait Weight:
    Clone
    + Debug
    + PartialEq
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + AddAssign
    + for<'a> AddAssign<&'a Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
    + for<'a> Div<&'a Self, Output = Self>
{
    /// Whether this type is exact (fractions) rather than floating point.
    const EXACT: bool;
    /// What a law of these weights keeps beside them ([`Memo`]): nothing
    /// in floating point; exact weights over one common denominator,
    /// found once.
    type Memo: Memo;
    fn zero() -> Self;
    fn one() -> Self;
    /// `num / den`. `den` must not be zero.
    fn ratio(num: i64, den: i64) -> Self;
    /// An integer as a weight.
    fn int(n: i64) -> Self {
        Self::ratio(n, 1)
    }
    fn to_f64(&self) -> f64;
    /// A float as a weight (exactly, for [`Exact`]); NaN and infinities
    /// give 0.
    fn from_f64(x: f64) -> Self;
    fn is_zero(&self) -> bool;
    /// `self^n` by repeated squaring.
    fn powi(&self, mut n: u32) -> Self {
        let mut base = self.clone();
        let mut acc = Self::one();
        while n > 0 {
            if n & 1 == 1 {
                acc = acc * &base;
            }
            n >>= 1;
            if n > 0 {
                base = base.clone() * &base;
            }
        }
        acc
    }
    /// `(num / den)^n` for `num ≤ den` (a probability raised to a power),
    /// computed directly rather than accumulated. In `f64` the power is
    /// taken in double-double arithmetic (about 106 bits, [`pow_ratio_f64`])
    /// and rounded once, so the result is the correctly rounded value in all
    /// but freak cases, and never above 1.
    fn pow_ratio(num: u64, den: u64, n: u32) -> Self;
    /// Add `x` into `sum`, with `carry` keeping what rounding lost: the sum
    /// is then `sum + carry`. In `f64` Neumaier's compensated summation, so
    /// that many small weights merged into one (5,001 faces of a d10000
    /// scoring alike) add up to their correctly rounded total rather than
    /// drifting by thousands of roundings; exact weights add exactly and
    /// leave `carry` alone.
    fn add_compensated(sum: &mut Self, carry: &mut Self, x: Self) {
        let _ = carry;
        *sum += x;
    }
    /// `(m, e)` with `self = m · 2^e`, `m` in `[0.5, 1)` for a non-zero
    /// `f64` (its exponent taken off, exactly); exact weights give
    /// `(self, 0)`. With [`Weight::ldexp`], lets a recurrence carry its
    /// scale apart so that a long product never underflows on the way.
    fn frexp(&self) -> (Self, i64) {
        (self.clone(), 0)
    }
    /// `self · 2^e` (exact weights are only ever asked for `e = 0`, but
    /// any `e` is exact).
    fn ldexp(&self, e: i64) -> Self {
        if e == 0 {
            return self.clone();
        }
        let two = Self::int(2);
        let p = two.powi(e.unsigned_abs().min(u32::MAX as u64) as u32);
        if e > 0 {
            self.clone() * &p
        } else {
            self.clone() / &p
        }
    }
    /// `1 - self`.
    fn complement(&self) -> Self {
        Self::one() - self
    }
    /// The exact text of the number: `"num/den"` for fractions, the shortest
    /// round-trip decimal for floats.
    fn exact_text(&self) -> String;
    /// The fraction `(numerator, denominator)` of an exact weight (`None`
    /// for floats): lets exact algorithms work on big integers over a
    /// common denominator instead of reducing fractions at every step.
    fn as_fraction(&self) -> Option<(BigInt, BigInt)> {
        None
    }
    /// The bits of an exact weight's denominator (0 in floating point):
    /// what the exact work estimates read, without copying the fraction.
    fn den_bits(&self) -> u64 {
        0
    }
    /// `num / den` as a weight (`den` not zero).
    fn from_fraction(num: BigInt, den: BigInt) -> Self;
    /// `num / den` already in lowest terms with `den > 0` (no gcd is
    /// taken: the caller knows the factors).
    fn from_reduced(num: BigInt, den: BigInt) -> Self {
        Self::from_fraction(num, den)
    }
}

impl Weight for f64 {
    const EXACT: bool = false;
    type Memo = ();
    fn add_compensated(sum: &mut f64, carry: &mut f64, x: f64) {
        let t = *sum + x;
        *carry += if sum.abs() >= x.abs() {
            (*sum - t) + x
        } else {
            (x - t) + *sum
        };
        *sum = t;
    }
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn ratio(num: i64, den: i64) -> Self {
        num as f64 / den as f64
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn from_f64(x: f64) -> Self {
        if x.is_finite() {
            x
        } else {
            0.0
        }
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn powi(&self, n: u32) -> Self {
        f64::powi(*self, n as i32)
    }
    fn pow_ratio(num: u64, den: u64, n: u32) -> Self {
        pow_ratio_f64(num, den, n)
    }
    fn frexp(&self) -> (Self, i64) {
        let x = *self;
        if x == 0.0 || !x.is_finite() {
            return (x, 0);
        }
        // Subnormals are first brought into the normal range.
        let (x, bias) = if x.abs() < f64::MIN_POSITIVE {
            (x * 2f64.powi(64), -64)
        } else {
            (x, 0)
        };
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64 - 1022;
        let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
        (m, exp + bias)
    }
    fn ldexp(&self, e: i64) -> Self {
        let mut x = *self;
        let mut e = e;
        while e > 1000 {
            x *= 2f64.powi(1000);
            e -= 1000;
        }
        while e < -1000 {
            x *= 2f64.powi(-1000);
            e += 1000;
            if x == 0.0 {
                return 0.0;
            }
        }
        x * 2f64.powi(e as i32)
    }
    fn exact_text(&self) -> String {
        format!("{self}")
    }
    fn from_fraction(num: BigInt, den: BigInt) -> Self {
        Weight::to_f64(&Exact::new(num, den))
    }
}

impl Weight for Exact {
    const EXACT: bool = true;
    type Memo = CommonDenominator;
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn ratio(num: i64, den: i64) -> Self {
        Exact::new(BigInt::from(num), BigInt::from(den))
    }
    fn to_f64(&self) -> f64 {
        // Ratio::to_f64 handles numerators and denominators beyond f64 range.
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
    fn from_f64(x: f64) -> Self {
        Exact::from_float(x).unwrap_or_else(Zero::zero)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn exact_text(&self) -> String {
        format!("{}/{}", self.numer(), self.denom())
    }
    fn pow_ratio(num: u64, den: u64, n: u32) -> Self {
        let base = Exact::new(BigInt::from(num), BigInt::from(den));
        num_traits::Pow::pow(base, n)
    }
    fn as_fraction(&self) -> Option<(BigInt, BigInt)> {
        Some((self.numer().clone(), self.denom().clone()))
    }
    fn den_bits(&self) -> u64 {
        self.denom().bits()
    }
    fn from_fraction(num: BigInt, den: BigInt) -> Self {
        Exact::new(num, den)
    }
    fn from_reduced(num: BigInt, den: BigInt) -> Self {
        debug_assert!(
            num_integer::Integer::gcd(&num, &den) == BigInt::one()
                || Zero::is_zero(&num) && den == BigInt::one()
        );
        Exact::new_raw(num, den)
    }
}

/// A double-double number `hi + lo` (`|lo| ≤ ulp(hi)/2`).
#[derive(Clone, Copy)]
struct Dd(f64, f64);

/// `a × b` exactly as `hi + lo` (Dekker's product with Veltkamp splitting:
/// no fused multiply-add needed, which is slow where the CPU lacks one).
fn two_prod(a: f64, b: f64) -> Dd {
    const SPLIT: f64 = 134_217_729.0; // 2^27 + 1
    let p = a * b;
    let split = |x: f64| {
        let c = SPLIT * x;
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    Dd(p, e)
}

impl Dd {
    fn mul(self, o: Dd) -> Dd {
        let Dd(p, e) = two_prod(self.0, o.0);
        let e = e + (self.0 * o.1 + self.1 * o.0);
        let hi = p + e;
        Dd(hi, e - (hi - p))
    }
}

/// `(num / den)^n` in `f64`, for `num ≤ den < 2^53`: the base is the
/// double-double `num/den` (its rounding residual is exact), the power is
/// taken by repeated squaring in double-double (relative error about
/// `2·log2(n)·2^-104`), and the sum `hi + lo` is rounded once. For the
/// powers a probability law needs (`n` up to millions) that is the
/// correctly rounded value except when the exact value lies within about
/// `10^-28` relative of a rounding boundary. Values below the subnormal
/// range are 0; the result is never above 1 when `num ≤ den`. (The splitting
/// loses its extra bits once `hi` is subnormal, so results below about
/// `10^-290` may be off by an ulp of the subnormal grid.)
pub fn pow_ratio_f64(num: u64, den: u64, n: u32) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if num == 0 {
        return 0.0;
    }
    if num == den {
        return 1.0;
    }
    // Small powers: num^n and den^n are integers below 2^53, exact in f64,
    // and one division rounds correctly.
    if n <= 64 {
        let small = (0..n).try_fold((1u64, 1u64), |(p, q), _| {
            let q = q.checked_mul(den).filter(|&q| q <= 1 << 53)?;
            Some((p * num, q))
        });
        if let Some((p, q)) = small {
            return p as f64 / q as f64;
        }
    }
    let (a, b) = (num as f64, den as f64);
    let hi = a / b;
    // a - hi·b is exact (Dekker), so lo carries the rounding error of hi.
    let Dd(p, e) = two_prod(hi, b);
    let lo = ((a - p) - e) / b;
    let mut base = Dd(hi, lo);
    let mut acc = Dd(1.0, 0.0);
    let mut n = n;
    loop {
        if n & 1 == 1 {
            acc = acc.mul(base);
        }
        n >>= 1;
        if n == 0 {
            break;
        }
        base = base.mul(base);
        // Below ~1e-290 the splitting overflows nothing but loses precision;
        // below the subnormal range everything is 0 from here on.
        if base.0 == 0.0 {
            return 0.0;
        }
    }
    (acc.0 + acc.1).clamp(0.0, 1.0)
}

/// An `f64` probability as printed: rounded to 15 significant digits (all
/// that an f64 carries through a law's sums and products), so that the
/// shortest decimal that round-trips is printed. The floating-point law of
/// +5 vs DC 15 gives 0.39999999999999997 for the exact 2/5; tidied, it
/// prints as 0.4, the decimal of the correctly rounded value. Values that
/// need all 17 digits to round-trip lose at most one unit in the 15th
/// significant digit — far below anything a probability table shows.
pub fn tidy(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.14e}").parse().unwrap_or(x)
}

/// What a law keeps beside its weights ([`Weight::Memo`]), found the first
/// time it is asked and never part of the law: two laws are equal whether
/// or not it was found.
pub trait Memo: Clone + Debug + PartialEq + Default + Send + Sync {
    /// The law's weights as numerators over one common denominator, `find`
    /// run the first time only; `None` in floating point.
    fn common(
        &self,
        find: impl FnOnce() -> Option<(Vec<BigInt>, BigInt)>,
    ) -> Option<(&[BigInt], &BigInt)>;
}

/// Floating-point laws keep nothing (and take no room for it).
impl Memo for () {
    fn common(
        &self,
        _: impl FnOnce() -> Option<(Vec<BigInt>, BigInt)>,
    ) -> Option<(&[BigInt], &BigInt)> {
        None
    }
}

/// An exact law's weights as numerators over one common denominator
/// ([`over_common_denominator`]), found once: every later sum of its
/// weights (a tier's probability, a tail, the total, the mean) adds
/// integers and reduces one fraction, where each brought its weights over
/// a common denominator again, one division of numbers of thousands of
/// digits a weight.
#[derive(Clone, Default)]
pub struct CommonDenominator(std::sync::OnceLock<Option<Box<Numerators>>>);

/// Numerators over one denominator, and the denominator.
type Numerators = (Vec<BigInt>, BigInt);

impl PartialEq for CommonDenominator {
    fn eq(&self, _: &CommonDenominator) -> bool {
        true
    }
}

impl Debug for CommonDenominator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("…")
    }
}

impl Memo for CommonDenominator {
    fn common(
        &self,
        find: impl FnOnce() -> Option<(Vec<BigInt>, BigInt)>,
    ) -> Option<(&[BigInt], &BigInt)> {
        self.0
            .get_or_init(|| find().map(Box::new))
            .as_deref()
            .map(|(n, d)| (&n[..], d))
    }
}

/// Exact weights as big-integer numerators over one common denominator
/// (`None` for floats, or where the least common multiple of the
/// denominators grows past twice the largest's bits): the largest
/// denominator when every other divides it (a law of one kind of die);
/// else the largest power of two among them times the largest odd part
/// (a law whose denominators are 2ᵃ·pᵇ in varying powers, as
/// `1000R20[20]>=15`'s 2ᵃ·5ᵇ, whose sums fell back to adding 13,000
/// fractions of 56,000 bits one gcd at a time, for minutes); else their
/// least common multiple.
pub fn over_common_denominator<'a, W: Weight>(
    ws: impl IntoIterator<Item = &'a W>,
) -> Option<(Vec<BigInt>, BigInt)> {
    use num_integer::Integer;
    use std::collections::HashMap;
    let fr: Vec<(BigInt, BigInt)> = ws
        .into_iter()
        .map(Weight::as_fraction)
        .collect::<Option<_>>()?;
    // The distinct denominators, largest first (their quotients are the
    // shortest, and one that does not divide shows soonest).
    let mut distinct: Vec<&BigInt> = fr.iter().map(|(_, d)| d).collect();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let max = (*distinct.first()?).clone();
    if max.sign() != num_bigint::Sign::Plus {
        return None;
    }
    // Each distinct denominator's quotient, found once (24,000 divisions of
    // 60,000-bit numbers for `1000R6[6]>=5` were most of its sums).
    // `two_adic`: long quotients by the 2-adic inverse, which wins where
    // the denominators' powers of two differ (else a division is as fast).
    let over = |den: &BigInt, two_adic: bool| -> Option<HashMap<&BigInt, BigInt>> {
        let mut q = HashMap::with_capacity(distinct.len());
        for d in &distinct {
            if *d != den {
                q.insert(*d, quotient(den, d, two_adic)?);
            }
        }
        Some(q)
    };
    let twos = |d: &BigInt| d.trailing_zeros().unwrap_or(0);
    let (den, quotients) = match over(&max, false) {
        Some(q) => (max, q),
        None => {
            let most_bits = 2 * max.bits() + 64;
            let most_twos = distinct.iter().map(|d| twos(d)).max().unwrap_or(0);
            let odd = distinct.iter().map(|d| *d >> twos(d)).max()?;
            let mut den = odd << most_twos;
            match over(&den, true) {
                Some(q) => (den, q),
                None => {
                    for d in &distinct {
                        if quotient(&den, d, true).is_none() {
                            den = den.lcm(d);
                            if den.bits() > most_bits {
                                return None;
                            }
                        }
                    }
                    let q = over(&den, true)?;
                    (den, q)
                }
            }
        }
    };
    let scale = |(n, d): &(BigInt, BigInt)| match quotients.get(d) {
        Some(q) => n * q,
        None => n.clone(),
    };
    // The products in parallel where they are long (each on its own: the
    // same numerators on any number of threads).
    let nums: Vec<BigInt> = if den.bits().saturating_mul(fr.len() as u64) > 1 << 24 {
        use rayon::prelude::*;
        fr.par_iter().map(scale).collect()
    } else {
        fr.iter().map(scale).collect()
    };
    Some((nums, den))
}

/// Exact weights added into `n` buckets (`items`: each weight with its
/// bucket) over one common denominator ([`over_common_denominator`]): each
/// weight's numerator scaled once and added as an integer, each bucket's
/// fraction reduced once at the end, where adding fractions one by one
/// took a gcd of long integers each (the tiers' and the total's sums of a
/// long exact joint law). `None` in floating point (whose sums keep their
/// own order and rounding) or where the weights have no common
/// denominator short enough. A bucket of one weight is that weight, as it
/// is (already reduced): only the buckets where weights meet are summed,
/// so a marginal whose values are all distinct (the total of `200D3!!`
/// read exactly: 12,000 cells of thousands of bits) is not brought over a
/// common denominator and reduced again cell by cell (5 s, where the law
/// took 0.5 s).
pub fn exact_bucket_sums<W: Weight>(n: usize, items: &[(usize, &W)]) -> Option<Vec<W>> {
    if !W::EXACT {
        return None;
    }
    let mut count = vec![0u32; n];
    for (b, _) in items {
        count[*b] = count[*b].saturating_add(1);
    }
    let mut out = vec![W::zero(); n];
    let mut met: Vec<(usize, &W)> = Vec::new();
    for &(b, w) in items {
        if count[b] == 1 {
            out[b] = w.clone();
        } else {
            met.push((b, w));
        }
    }
    if met.is_empty() {
        return Some(out);
    }
    let (nums, den) = over_common_denominator(met.iter().map(|(_, w)| *w))?;
    let mut sums: Vec<Option<BigInt>> = vec![None; n];
    for ((b, _), num) in met.iter().zip(nums) {
        *sums[*b].get_or_insert_with(BigInt::zero) += num;
    }
    for (o, s) in out.iter_mut().zip(sums) {
        if let Some(s) = s {
            *o = W::from_fraction(s, den.clone());
        }
    }
    Some(out)
}

/// `a / b` for positive `b` when it divides `a`, else `None`, in time for
/// the quotient's length rather than `a`'s: a short quotient from the top
/// bits of both; a long one, the powers of two apart, as the odd quotient
/// `a′·b′⁻¹ mod 2ᵏ` for `k` past its bits (Jebelean's exact division, the
/// inverse by Newton's iteration), checked by one product. A law's
/// denominators differ by powers of the sides, so a quotient is short
/// beside them, where a general division of numbers of tens of thousands
/// of bits took milliseconds.
pub fn exact_quotient(a: &BigInt, b: &BigInt) -> Option<BigInt> {
    quotient(a, b, true)
}

/// [`exact_quotient`], a long quotient by division unless `two_adic`.
fn quotient(a: &BigInt, b: &BigInt, two_adic: bool) -> Option<BigInt> {
    use num_bigint::{BigUint, Sign};
    if b.sign() != Sign::Plus {
        return None;
    }
    if a.is_zero() {
        return Some(BigInt::zero());
    }
    if a.sign() == Sign::Minus {
        // On magnitudes: the top bits below round one way.
        return quotient(&-a, b, two_adic).map(|q| -q);
    }
    // A quotient much shorter than `b`: from the top bits of both, with
    // `s` low bits dropped from each, leaving `b` 128 bits more than the
    // quotient, `⌊(a≫s)/(b≫s)⌋` is `q` or `q − 1`.
    let (abits, bbits) = (a.bits(), b.bits());
    if abits >= bbits {
        let qbits = abits - bbits + 1;
        if bbits > qbits + 128 {
            let s = (bbits - (qbits + 128)) as usize;
            let q0 = (a >> s) / (b >> s);
            for q in [q0.clone(), q0 + 1] {
                if &q * b == *a {
                    return Some(q);
                }
            }
            return None;
        }
    }
    if !two_adic {
        use num_integer::Integer;
        let (q, r) = a.div_rem(b);
        return r.is_zero().then_some(q);
    }
    let (ta, tb) = (a.trailing_zeros()?, b.trailing_zeros()?);
    if tb > ta {
        return None;
    }
    let a_odd: BigUint = a.magnitude() >> ta;
    let b_odd: BigUint = b.magnitude() >> tb;
    if a_odd.bits() < b_odd.bits() {
        return None;
    }
    // The odd quotient has at most this many bits.
    let k = a_odd.bits() - b_odd.bits() + 1;
    let inv = inverse_mod_pow2(&b_odd, k);
    let q = low_bits(&(low_bits(&a_odd, k) * inv), k);
    if &q * &b_odd != a_odd {
        return None;
    }
    Some(BigInt::from(q << (ta - tb)))
}

/// `x mod 2ⁿ`.
fn low_bits(x: &num_bigint::BigUint, n: u64) -> num_bigint::BigUint {
    if x.bits() <= n {
        return x.clone();
    }
    let mask = (num_bigint::BigUint::one() << n) - 1u32;
    x & mask
}

/// `b⁻¹ mod 2ᵏ` for odd `b`: a word by Newton's iteration on machine
/// integers (each step doubles the correct bits), then lifted the same way
/// on big integers, `x ← x·(2 − b·x) mod 2²ᵐ`.
fn inverse_mod_pow2(b: &num_bigint::BigUint, k: u64) -> num_bigint::BigUint {
    use num_bigint::BigUint;
    let b0 = b.iter_u64_digits().next().unwrap_or(1);
    // b·b ≡ 1 (mod 8) for odd b: 3 correct bits, then 6, 12, 24, 48, 96.
    let mut x0 = b0;
    for _ in 0..5 {
        x0 = x0.wrapping_mul(2u64.wrapping_sub(b0.wrapping_mul(x0)));
    }
    let mut x = BigUint::from(x0);
    let mut prec = 64u64;
    while prec < k {
        prec = (2 * prec).min(k);
        let t = low_bits(&(low_bits(b, prec) * &x), prec);
        // 2 − t (mod 2^prec), t odd and below 2^prec.
        let two_minus_t = low_bits(&((BigUint::one() << prec) + 2u32 - t), prec);
        x = low_bits(&(x * two_minus_t), prec);
    }
    low_bits(&x, k)
}

/// The sum of weights: for exact fractions over their common denominator
/// ([`over_common_denominator`], one reduction in all rather than one per
/// addition: a sum of thousands of fractions of thousands of digits took
/// seconds of gcds), else added in order.
pub fn sum<W: Weight>(ws: &[W]) -> W {
    if W::EXACT && ws.len() > 4 {
        if let Some((nums, den)) = over_common_denominator(ws) {
            let total = nums.into_iter().fold(BigInt::zero(), |a, n| a + n);
            return W::from_fraction(total, den);
        }
    }
    ws.iter().fold(W::zero(), |a, b| a + b)
}

/// `√x` as a weight when it is one: in `f64` always (of `max(x, 0)`); in
/// exact fractions when `x` is the square of a fraction (`4/9` → `2/3`),
/// else `None` (`35/3`).
pub fn exact_sqrt<W: Weight>(x: &W) -> Option<W> {
    match x.as_fraction() {
        None => Some(W::from_f64(x.to_f64().max(0.0).sqrt())),
        Some((n, d)) => {
            if n < BigInt::zero() || d <= BigInt::zero() {
                return None;
            }
            let (rn, rd) = (n.sqrt(), d.sqrt());
            (&rn * &rn == n && &rd * &rd == d).then(|| W::from_fraction(rn, rd))
        }
    }
}

/// Parse an exact fraction `"num/den"` (or an integer).
pub fn parse_exact(text: &str) -> Option<Exact> {
    let text = text.trim();
    let (n, d) = match text.split_once('/') {
        Some((n, d)) => (n.trim(), d.trim()),
        None => (text, "1"),
    };
    let n: BigInt = n.parse().ok()?;
    let d: BigInt = d.parse().ok()?;
    if d.is_zero() {
        return None;
    }
    Some(Exact::new(n, d))
}

/// A weight added into a map's entry: inserted as it is where the key is
/// new. Adding it to zero gives the same value in both number types, but
/// costs a fraction a gcd of its denominator: 1000 d6's law has 5,001
/// cells on 2,585-bit denominators, and reading it by its values took
/// 0.3 s of gcds before `1000D6 --until 20000 --exact` was refused.
pub trait AddWeight<W> {
    /// Add `p` here.
    fn add_weight(self, p: W);
}

impl<K: Ord, W: Weight> AddWeight<W> for std::collections::btree_map::Entry<'_, K, W> {
    #[inline]
    fn add_weight(self, p: W) {
        match self {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(p);
            }
            std::collections::btree_map::Entry::Occupied(mut e) => *e.get_mut() += p,
        }
    }
}

impl<K, W: Weight> AddWeight<W> for std::collections::hash_map::Entry<'_, K, W> {
    #[inline]
    fn add_weight(self, p: W) {
        match self {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(p);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => *e.get_mut() += p,
        }
    }
}
