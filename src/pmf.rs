//! [`Pmf`]: an immutable probability mass function on the integers.
//!
//! The one distribution type every system is built from. It is dense (a
//! vector of weights from `min` upward), generic over the [`Weight`] number
//! type, and never mutated after construction: every operation returns a new
//! `Pmf`. Outcome tiers are integers too (their index in the tier order).

use num_bigint::BigInt;

use crate::weight::{Memo, Weight};

/// Laws of at most this many values keep no common denominator: their
/// sums are found as they are asked ([`Pmf::over_common_denominator`]).
pub const FEW_VALUES: usize = 4;

/// A probability mass function over a contiguous integer range.
#[derive(Clone, Debug, PartialEq)]
pub struct Pmf<W: Weight> {
    min: i64,
    w: Vec<W>,
    /// Exact weights over one common denominator, found on the first sum
    /// that needs them ([`crate::weight::CommonDenominator`]; nothing in
    /// floating point).
    common: W::Memo,
}

impl<W: Weight> Pmf<W> {
    /// Build from the weight of each outcome `min, min+1, …`. Leading and
    /// trailing zero weights are trimmed. An empty or all-zero input gives
    /// the point mass at `min` with weight zero (a sub-distribution).
    pub fn from_weights(min: i64, mut w: Vec<W>) -> Self {
        let mut min = min;
        while w.len() > 1 && w.last().is_some_and(|x| x.is_zero()) {
            w.pop();
        }
        let lead = w.iter().take_while(|x| x.is_zero()).count();
        if lead == w.len() {
            return Pmf {
                min,
                w: vec![W::zero()],
                common: Default::default(),
            };
        }
        if lead > 0 {
            w.drain(..lead);
            min += lead as i64;
        }
        Pmf {
            min,
            w,
            common: Default::default(),
        }
    }

    /// Build from `(outcome, weight)` pairs; repeated outcomes add up.
    pub fn from_pairs<I: IntoIterator<Item = (i64, W)>>(pairs: I) -> Self {
        let pairs: Vec<(i64, W)> = pairs.into_iter().collect();
        if pairs.is_empty() {
            return Self::point(0);
        }
        // The range of the outcomes that carry weight: a zero-weight
        // outcome far away (an empty sub-law's 0 mixed with values moved by
        // a large modifier) must not size the vector.
        let held = || pairs.iter().filter(|p| !p.1.is_zero()).map(|p| p.0);
        let Some(lo) = held().min() else {
            let lo = pairs.iter().map(|p| p.0).min().unwrap_or(0);
            return Self::from_weights(lo, vec![W::zero()]);
        };
        let hi = held().max().unwrap_or(lo);
        let len = (hi - lo + 1) as usize;
        let mut w = vec![W::zero(); len];
        // What rounding lost in each slot (floating point only).
        let mut carry = if W::EXACT {
            Vec::new()
        } else {
            vec![W::zero(); len]
        };
        for (x, p) in pairs {
            if p.is_zero() {
                continue;
            }
            let i = (x - lo) as usize;
            if W::EXACT {
                // Into an empty slot the weight is moved, not added: adding
                // a long fraction to 0 reduces it again (a gcd of its
                // length).
                if w[i].is_zero() {
                    w[i] = p;
                } else {
                    w[i] += p;
                }
            } else {
                W::add_compensated(&mut w[i], &mut carry[i], p);
            }
        }
        for (s, c) in w.iter_mut().zip(carry) {
            *s += c;
        }
        Self::from_weights(lo, w)
    }

    /// Certainly `x`.
    pub fn point(x: i64) -> Self {
        Pmf {
            min: x,
            w: vec![W::one()],
            common: Default::default(),
        }
    }

    /// Uniform on `lo..=hi`.
    pub fn uniform(lo: i64, hi: i64) -> Self {
        assert!(hi >= lo, "uniform range must be non-empty");
        let n = hi - lo + 1;
        Pmf {
            min: lo,
            w: vec![W::ratio(1, n); n as usize],
            common: Default::default(),
        }
    }

    /// A fair die with faces `1..=sides`.
    pub fn die(sides: u32) -> Self {
        Self::uniform(1, sides as i64)
    }

    /// `1` with probability `p`, else `0`.
    pub fn bernoulli(p: W) -> Self {
        Self::from_weights(0, vec![p.complement(), p])
    }

    /// Smallest outcome with non-zero weight.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// Largest outcome with non-zero weight.
    pub fn max(&self) -> i64 {
        self.min + self.w.len() as i64 - 1
    }

    /// `P(X = x)`.
    pub fn p(&self, x: i64) -> W {
        if x < self.min || x > self.max() {
            W::zero()
        } else {
            self.w[(x - self.min) as usize].clone()
        }
    }

    /// `(outcome, probability)` for every outcome in `min..=max`.
    pub fn iter(&self) -> impl Iterator<Item = (i64, &W)> + '_ {
        self.w
            .iter()
            .enumerate()
            .map(move |(i, p)| (self.min + i as i64, p))
    }

    /// The weights, from `min` upward.
    pub fn weights(&self) -> &[W] {
        &self.w
    }

    /// Exact weights as numerators over one common denominator (found
    /// once for the law); `None` in floating point, for laws of at most
    /// [`FEW_VALUES`] values, or where the weights have none
    /// ([`crate::weight::over_common_denominator`]).
    pub fn over_common_denominator(&self) -> Option<(&[BigInt], &BigInt)> {
        if !W::EXACT || self.w.len() <= FEW_VALUES {
            return None;
        }
        self.common
            .common(|| crate::weight::over_common_denominator(&self.w))
    }

    /// The sum of the weights at positions `at` (ascending): over the law's common
    /// denominator where it has one (integers added, one fraction
    /// reduced), else as [`crate::weight::sum`] adds them.
    fn sum_at(&self, at: &[usize]) -> W {
        match self.over_common_denominator() {
            Some((nums, den)) if at.len() > 4 => {
                let total = at.iter().fold(BigInt::default(), |a, &i| a + &nums[i]);
                W::from_fraction(total, den.clone())
            }
            _ => {
                let held: Vec<W> = at.iter().map(|&i| self.w[i].clone()).collect();
                crate::weight::sum(&held)
            }
        }
    }

    /// [`Self::sum_at`] of the positions `range`.
    fn sum_range(&self, range: std::ops::Range<usize>) -> W {
        match self.over_common_denominator() {
            Some((nums, den)) if range.len() > 4 => {
                let total = nums[range].iter().fold(BigInt::default(), |a, n| a + n);
                W::from_fraction(total, den.clone())
            }
            _ => crate::weight::sum(&self.w[range]),
        }
    }

    /// Sum of all weights (1 for a proper distribution).
    pub fn total(&self) -> W {
        self.sum_range(0..self.w.len())
    }

    /// `P(X ≤ x)`.
    pub fn cdf(&self, x: i64) -> W {
        let end = (x.saturating_sub(self.min).saturating_add(1)).clamp(0, self.w.len() as i64);
        self.sum_range(0..end as usize)
    }

    /// `P(X > x)`.
    pub fn sf(&self, x: i64) -> W {
        let start = (x.saturating_sub(self.min).saturating_add(1)).clamp(0, self.w.len() as i64);
        self.sum_range(start as usize..self.w.len())
    }

    /// `P(X ≥ x)`.
    pub fn at_least(&self, x: i64) -> W {
        self.sf(x - 1)
    }

    /// `P(pred(X))`.
    pub fn prob<F: Fn(i64) -> bool>(&self, pred: F) -> W {
        if self.over_common_denominator().is_some() {
            let held: Vec<usize> = (0..self.w.len())
                .filter(|&i| pred(self.min + i as i64))
                .collect();
            return self.sum_at(&held);
        }
        let held: Vec<W> = self
            .iter()
            .filter(|(k, _)| pred(*k))
            .map(|(_, p)| p.clone())
            .collect();
        crate::weight::sum(&held)
    }

    /// Expected value.
    pub fn mean(&self) -> W {
        self.iter().fold(W::zero(), |a, (k, p)| a + W::int(k) * p) / self.total()
    }

    /// Variance.
    pub fn variance(&self) -> W {
        let m = self.mean();
        self.iter().fold(W::zero(), |a, (k, p)| {
            let d = W::int(k) - &m;
            a + d.clone() * &d * p
        }) / self.total()
    }

    /// Smallest `x` with `P(X ≤ x) ≥ q`.
    pub fn quantile(&self, q: &W) -> i64 {
        let mut acc = W::zero();
        for (k, p) in self.iter() {
            acc += p;
            if &acc >= q {
                return k;
            }
        }
        self.max()
    }

    /// The law of `f(X)`.
    pub fn map<F: Fn(i64) -> i64>(&self, f: F) -> Self {
        Self::from_pairs(self.iter().map(|(k, p)| (f(k), p.clone())))
    }

    /// The sum of two (sub-)probability laws over their values: the
    /// mixture without weights (a chain's stopping paths, depth by depth).
    pub fn add(&self, other: &Self) -> Self {
        Pmf::from_pairs(
            self.iter()
                .map(|(x, p)| (x, p.clone()))
                .chain(other.iter().map(|(x, p)| (x, p.clone()))),
        )
    }

    /// The law of `X + Y` for independent `X` (self) and `Y`.
    pub fn convolve(&self, other: &Self) -> Self {
        // A certain value only shifts the other law.
        for (a, b) in [(self, other), (other, self)] {
            if a.w.len() == 1 && a.w[0] == W::one() {
                return Pmf {
                    min: a.min + b.min,
                    w: b.w.clone(),
                    common: Default::default(),
                };
            }
        }
        if let Some(p) = self.exact_convolve(other) {
            return p;
        }
        let mut w = vec![W::zero(); self.w.len() + other.w.len() - 1];
        let n = other.w.len();
        for (i, a) in self.w.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            // Slices of one length: no bounds checks, so the compiler
            // vectorises the row (the same sums in the same order).
            for (d, b) in w[i..i + n].iter_mut().zip(&other.w) {
                *d += a.clone() * b;
            }
        }
        Self::from_weights(self.min + other.min, w)
    }

    /// [`Pmf::convolve`] of exact laws on big-integer numerators over each
    /// law's common denominator (its largest, when every other divides it,
    /// as for dice laws): one fraction reduced per result, where adding
    /// fractions reduced one at every product (a reroll chain of 200 steps
    /// spent most of its time in gcds). `None` for floats, small laws, or
    /// denominators that do not divide the largest.
    fn exact_convolve(&self, other: &Self) -> Option<Self> {
        if !W::EXACT || self.w.len().min(other.w.len()) < 4 {
            return None;
        }
        let (na, da) = crate::weight::over_common_denominator(&self.w)?;
        let (nb, db) = crate::weight::over_common_denominator(&other.w)?;
        let acc = convolve_numerators(&na, &nb);
        let den = da * db;
        let w = acc
            .into_iter()
            .map(|n| W::from_fraction(n, den.clone()))
            .collect();
        Some(Self::from_weights(self.min + other.min, w))
    }

    /// The multiply-adds [`Pmf::sum_n`] spends on `n` copies of a law of
    /// `len` values (its squarings, and the accumulator times a power where
    /// `n` has a bit): the cost to check before asking for a big sum.
    pub fn sum_n_work(len: u64, mut n: u64) -> u64 {
        let (mut acc, mut base, mut work) = (1u64, len, 0u64);
        while n > 0 {
            if n & 1 == 1 {
                work = work.saturating_add(acc.saturating_mul(base));
                acc = acc.saturating_add(base) - 1;
            }
            n >>= 1;
            if n > 0 {
                work = work.saturating_add(base.saturating_mul(base));
                base = base.saturating_mul(2) - 1;
            }
        }
        work
    }

    /// The law of the sum of `n` independent copies (`n = 0` gives 0).
    pub fn sum_n(&self, mut n: u32) -> Self {
        let mut acc = Self::point(0);
        let mut base = self.clone();
        while n > 0 {
            if n & 1 == 1 {
                acc = acc.convolve(&base);
            }
            n >>= 1;
            if n > 0 {
                base = base.convolve(&base);
            }
        }
        acc
    }

    /// The law of `max(X, Y)` for independent `X` (self) and `Y`:
    /// `P(max ≤ x) = F(x)·G(x)`, with both cdfs accumulated in one pass.
    pub fn max_with(&self, other: &Self) -> Self {
        let lo = self.min.min(other.min);
        let hi = self.max().max(other.max());
        let (mut fa, mut fb) = (W::zero(), W::zero());
        let mut prev = W::zero();
        let mut w = Vec::with_capacity((hi - lo + 1) as usize);
        for x in lo..=hi {
            fa += self.p(x);
            fb += other.p(x);
            let c = fa.clone() * &fb;
            w.push(c.clone() - &prev);
            prev = c;
        }
        Self::from_weights(lo, w)
    }

    /// The law of `min(X, Y)` for independent `X` (self) and `Y`.
    pub fn min_with(&self, other: &Self) -> Self {
        self.map(|x| -x).max_with(&other.map(|x| -x)).map(|x| -x)
    }

    /// Highest of `n ≥ 1` independent copies: `P(max ≤ x) = F(x)^n`.
    ///
    /// `F(x)` is taken from whichever end is shorter (`Σ_{k≤x} p` in the
    /// lower half, `total − Σ_{k>x} p` in the upper), the last one is the
    /// total itself (at most 1: twenty f64 weights of 0.05 sum to
    /// 1.0000000000000002, whose 1000th power is 1.0000000000002), and the
    /// weights are differences of the powers: no probability exceeds 1,
    /// however large `n`. For a
    /// die whose cdf is a count over a denominator use
    /// [`Pmf::from_cdf`] with [`Weight::pow_ratio`], which is exact to the
    /// last bit.
    pub fn max_of(&self, n: u32) -> Self {
        assert!(n >= 1, "max_of needs at least one copy");
        // A cdf is at most 1, whatever the rounding of its sum.
        let total = self.total();
        let total = if total > W::one() { W::one() } else { total };
        let half = total.clone() / W::int(2);
        let len = self.w.len();
        // suffix[i] = Σ_{k ≥ i} w[k].
        let mut suffix = vec![W::zero(); len + 1];
        for i in (0..len).rev() {
            suffix[i] = suffix[i + 1].clone() + &self.w[i];
        }
        let mut prefix = W::zero();
        let cdf = (0..len)
            .map(|i| {
                prefix += &self.w[i];
                let f = if i + 1 == len {
                    total.clone()
                } else if prefix <= half {
                    prefix.clone()
                } else {
                    total.clone() - &suffix[i + 1]
                };
                f.powi(n)
            })
            .collect();
        Self::from_cdf(self.min, cdf)
    }

    /// The law whose cdf is `cdf[i] = P(X ≤ min + i)` (non-decreasing; the
    /// weights are its differences).
    pub fn from_cdf(min: i64, cdf: Vec<W>) -> Self {
        let mut prev = W::zero();
        let w = cdf
            .into_iter()
            .map(|c| {
                let p = c.clone() - &prev;
                prev = c;
                p
            })
            .collect();
        Self::from_weights(min, w)
    }

    /// Lowest of `n ≥ 1` independent copies: `P(min ≥ x) = S(x)^n`.
    pub fn min_of(&self, n: u32) -> Self {
        self.map(|x| -x).max_of(n).map(|x| -x)
    }

    /// Mixture `Σ wᵢ · Pmfᵢ` (the weights should sum to one).
    pub fn mixture(parts: &[(W, &Pmf<W>)]) -> Self {
        Self::from_pairs(
            parts
                .iter()
                .flat_map(|(w, pmf)| pmf.iter().map(move |(k, p)| (k, w.clone() * p))),
        )
    }

    /// The law of `X` given `pred(X)` (renormalised). `None` if
    /// `P(pred(X)) = 0`.
    pub fn condition<F: Fn(i64) -> bool>(&self, pred: F) -> Option<Self> {
        let mass = self.prob(&pred);
        if mass.is_zero() {
            return None;
        }
        Some(Self::from_pairs(
            self.iter()
                .filter(|(k, _)| pred(*k))
                .map(|(k, p)| (k, p.clone() / &mass)),
        ))
    }

    /// The same law in `f64`.
    pub fn to_f64(&self) -> Pmf<f64> {
        Pmf {
            min: self.min,
            w: self.w.iter().map(|p| p.to_f64()).collect(),
            common: Default::default(),
        }
    }
}

/// The convolution of two lists of integer numerators (over one
/// denominator each): `out[i + j] = Σ a[i] · b[j]`, zeros skipped. The
/// integer core of the exact convolutions ([`Pmf::exact_convolve`], the
/// exact compounding chain), whose fractions are reduced once at the end.
pub(crate) fn convolve_numerators(
    a: &[num_bigint::BigInt],
    b: &[num_bigint::BigInt],
) -> Vec<num_bigint::BigInt> {
    use num_traits::Zero;
    let mut out = vec![num_bigint::BigInt::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (o, y) in out[i..].iter_mut().zip(b) {
            if !y.is_zero() {
                *o += x * y;
            }
        }
    }
    out
}
