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
    fn exact_text(&self) -> String {
        format!("{self}")
    }
    fn from_fraction(num: BigInt, den: BigInt) -> Self {
        Weight::to_f64(&Exact::new(num, den))
    }
}

impl Weight for Exact {
    const EXACT: bool = true;
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
    fn as_fraction(&self) -> Option<(BigInt, BigInt)> {
        Some((self.numer().clone(), self.denom().clone()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_reduces() {
        assert_eq!(Exact::ratio(6, 36).exact_text(), "1/6");
        assert_eq!(<Exact as Weight>::zero().exact_text(), "0/1");
    }

    #[test]
    fn powi_matches_repeated_multiplication() {
        let x = Exact::ratio(5, 6);
        let mut y = <Exact as Weight>::one();
        for _ in 0..13 {
            y *= &x;
        }
        assert_eq!(x.powi(13), y);
        assert!((Weight::powi(&(5.0f64 / 6.0), 13) - (5.0f64 / 6.0).powi(13)).abs() < 1e-15);
    }

    #[test]
    fn parse_round_trip() {
        assert_eq!(parse_exact("3/9"), Some(Exact::ratio(1, 3)));
        assert_eq!(parse_exact("2"), Some(Exact::int(2)));
        assert_eq!(parse_exact("1/0"), None);
        assert_eq!(parse_exact("x"), None);
    }
}
