//! Fast, unbiased, reproducible dice for the Monte Carlo sampler.
//!
//! One 64-bit draw from the generator yields many dice: a draw `x` below
//! `limit = sᵏ·⌊2⁶⁴/sᵏ⌋` is reduced to `x mod sᵏ`, uniform on `0..sᵏ`,
//! whose `k` base-`s` digits are `k` independent fair dice. Draws at or above
//! `limit` are rejected, so there is no bias at all; `k` is chosen to
//! maximise dice per draw (23 d6, 9 d100 per accepted draw).

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator behind every simulation (fast, fixed algorithm, so a seed
/// gives the same stream on every platform and version).
pub type SimRng = Xoshiro256PlusPlus;

/// SplitMix64 finaliser: a bijective mixer of 64-bit values.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator of batch `batch` of a run seeded with `seed`. Every batch
/// has its own stream, so results do not depend on which thread runs it.
pub fn batch_rng(seed: u64, batch: u64) -> SimRng {
    SimRng::seed_from_u64(mix(seed ^ mix(batch.wrapping_add(0x9e37_79b9_7f4a_7c15))))
}

/// Digits of one die size, extracted from 64-bit draws.
#[derive(Clone, Debug)]
struct DigitPool {
    sides: u64,
    /// `sᵏ`.
    span: u64,
    /// Draws at or above this are rejected.
    limit: u64,
    /// Digits per accepted draw.
    per_draw: u32,
    cur: u64,
    left: u32,
}

impl DigitPool {
    fn new(sides: u32) -> Self {
        assert!(sides >= 2, "a die has at least two sides");
        let s = sides as u64;
        // Choose k maximising k · P(accept).
        let mut best = (1u32, s, 0.0f64);
        let mut span = s;
        let mut k = 1u32;
        loop {
            let limit = (u64::MAX / span) * span; // ≈ sᵏ·⌊2⁶⁴/sᵏ⌋
            let yield_ = k as f64 * (limit as f64 / u64::MAX as f64);
            if yield_ > best.2 {
                best = (k, span, yield_);
            }
            match span.checked_mul(s) {
                Some(next) => {
                    span = next;
                    k += 1;
                }
                None => break,
            }
        }
        let (per_draw, span, _) = best;
        DigitPool {
            sides: s,
            span,
            limit: (u64::MAX / span) * span,
            per_draw,
            cur: 0,
            left: 0,
        }
    }

    #[inline]
    fn next<R: RngCore>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            let x = loop {
                let x = rng.next_u64();
                if x < self.limit {
                    break x;
                }
            };
            self.cur = x % self.span;
            self.left = self.per_draw;
        }
        self.left -= 1;
        // Constant divisors compile to multiplications; the common sizes
        // get their own arm.
        let d = match self.sides {
            6 => split::<6>(&mut self.cur),
            10 => split::<10>(&mut self.cur),
            20 => split::<20>(&mut self.cur),
            100 => split::<100>(&mut self.cur),
            4 => split::<4>(&mut self.cur),
            8 => split::<8>(&mut self.cur),
            12 => split::<12>(&mut self.cur),
            s => {
                let d = self.cur % s;
                self.cur /= s;
                d
            }
        };
        d as u32 + 1
    }
}

/// The lowest base-`S` digit of `cur`, removed from it.
#[inline(always)]
fn split<const S: u64>(cur: &mut u64) -> u64 {
    let d = *cur % S;
    *cur /= S;
    d
}

/// A source of fair dice of any size, drawing from one seeded generator.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: SimRng,
    pools: Vec<DigitPool>,
    /// Index of the pool used last (dice of one size come in runs).
    last: usize,
}

impl Dice {
    /// Dice from a seeded generator.
    pub fn new(rng: SimRng) -> Self {
        Dice {
            rng,
            pools: Vec::new(),
            last: 0,
        }
    }

    /// Dice for batch `batch` of a run seeded with `seed`.
    pub fn for_batch(seed: u64, batch: u64) -> Self {
        Self::new(batch_rng(seed, batch))
    }

    /// One roll of a die with faces `1..=sides`.
    #[inline]
    pub fn roll(&mut self, sides: u32) -> u32 {
        let i = self.pool_index(sides);
        self.pools[i].next(&mut self.rng)
    }

    fn pool_index(&mut self, sides: u32) -> usize {
        if self.pools.get(self.last).is_some_and(|p| p.sides == sides as u64) {
            return self.last;
        }
        self.last = match self.pools.iter().position(|p| p.sides == sides as u64) {
            Some(i) => i,
            None => {
                self.pools.push(DigitPool::new(sides));
                self.pools.len() - 1
            }
        };
        self.last
    }

    /// `n` rolls of a die with faces `1..=sides`, appended to `out`.
    pub fn roll_into(&mut self, n: usize, sides: u32, out: &mut Vec<u32>) {
        let i = self.pool_index(sides);
        let pool = &mut self.pools[i];
        out.extend((0..n).map(|_| pool.next(&mut self.rng)));
    }

    /// `n` rolls of a die with faces `1..=sides`.
    pub fn roll_n(&mut self, n: usize, sides: u32) -> Vec<u32> {
        let mut v = Vec::with_capacity(n);
        self.roll_into(n, sides, &mut v);
        v
    }

    /// A raw 64-bit draw (for the throughput baseline).
    pub fn raw(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_per_draw() {
        assert_eq!(DigitPool::new(6).per_draw, 23);
        assert_eq!(DigitPool::new(100).per_draw, 9);
    }

    #[test]
    fn faces_in_range_and_roughly_uniform() {
        let mut d = Dice::for_batch(1, 0);
        for sides in [2u32, 4, 6, 8, 10, 12, 20, 100] {
            let n = 20_000 * sides as usize;
            let mut counts = vec![0usize; sides as usize];
            for _ in 0..n {
                let f = d.roll(sides);
                assert!((1..=sides).contains(&f));
                counts[f as usize - 1] += 1;
            }
            // Each face: 20,000 expected; 6σ ≈ 850.
            for c in counts {
                assert!((c as i64 - 20_000).abs() < 850, "d{sides}: {c}");
            }
        }
    }

    #[test]
    fn batches_are_reproducible_and_distinct() {
        let a: Vec<u32> = Dice::for_batch(7, 3).roll_n(50, 6);
        let b: Vec<u32> = Dice::for_batch(7, 3).roll_n(50, 6);
        let c: Vec<u32> = Dice::for_batch(7, 4).roll_n(50, 6);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
