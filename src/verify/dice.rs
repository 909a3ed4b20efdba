//! Fast, unbiased, reproducible dice for the Monte Carlo sampler.
//!
//! One 64-bit draw from the generator yields many dice, without bias:
//!
//! * small dice (d2–d6) read the draw byte by byte: a byte below
//!   `sᵏ·⌊256/sᵏ⌋` is `k` dice by table lookup (3 d6 per byte below 216,
//!   about 20 d6 per draw), others are skipped;
//! * larger dice take a whole draw `x` below `limit = sᵏ·⌊2⁶⁴/sᵏ⌋`, reduce it
//!   to `x mod sᵏ` (uniform on `0..sᵏ`) and read its `k` base-`s` digits
//!   (`k` chosen to maximise dice per draw: 9 d100, 14 d20 per draw).
//!
//! Every accepted value is uniform on its range and rejected values are
//! skipped, so every face is exactly equally likely.

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

/// Base-`s` digits of accepted 64-bit draws (large dice: d8 and up).
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct Digits {
    sides: u64,
    /// `sᵏ`.
    span: u64,
    /// Draws at or above this are rejected.
    limit: u64,
    /// Digits per accepted draw.
    #[doc(hidden)]
    pub per_draw: u32,
    cur: u64,
    left: u32,
}

impl Digits {
    #[doc(hidden)]
    pub fn new(s: u64) -> Self {
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
        Digits {
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
            10 => split::<10>(&mut self.cur),
            20 => split::<20>(&mut self.cur),
            100 => split::<100>(&mut self.cur),
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

/// Small dice (d2–d6) from single bytes: a byte below
/// `limit = sᵏ·⌊256/sᵏ⌋` gives `k` dice by table lookup (3 d6 from a byte
/// below 216), with no division at all.
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct Bytes {
    /// Bytes at or above this are rejected.
    #[doc(hidden)]
    pub limit: u32,
    /// Dice per accepted byte.
    #[doc(hidden)]
    pub per_byte: usize,
    /// The `per_byte` faces of each accepted byte value, in the order they
    /// are dealt (last digit first).
    table: Vec<[u32; 8]>,
    word: u64,
    bytes_left: u32,
    buf: [u32; 8],
    /// Dice of `buf` not dealt yet (the last `buf_left` of the first
    /// `per_byte`).
    buf_left: usize,
}

impl Bytes {
    #[doc(hidden)]
    pub fn new(s: u64) -> Self {
        let (mut per_byte, mut span) = (1usize, s);
        while span * s <= 256 {
            span *= s;
            per_byte += 1;
        }
        // Fewer digits per byte when that rejects less (never for d2–d6).
        let limit = (256 / span) * span;
        let table = (0..limit)
            .map(|b| {
                let mut faces = [0u32; 8];
                let mut x = b % span;
                for f in faces.iter_mut().take(per_byte).rev() {
                    *f = (x % s) as u32 + 1;
                    x /= s;
                }
                faces
            })
            .collect();
        Bytes {
            limit: limit as u32,
            per_byte,
            table,
            word: 0,
            bytes_left: 0,
            buf: [0; 8],
            buf_left: 0,
        }
    }

    /// The next accepted byte (below `limit`), skipping rejected ones.
    #[inline]
    fn accepted_byte(&mut self, rng: &mut impl RngCore) -> usize {
        loop {
            if self.bytes_left == 0 {
                self.word = rng.next_u64();
                self.bytes_left = 8;
            }
            let b = (self.word & 0xff) as u32;
            self.word >>= 8;
            self.bytes_left -= 1;
            if b < self.limit {
                return b as usize;
            }
        }
    }

    #[inline]
    fn next(&mut self, rng: &mut impl RngCore) -> u32 {
        if self.buf_left == 0 {
            let b = self.accepted_byte(rng);
            self.buf = self.table[b];
            self.buf_left = self.per_byte;
        }
        let face = self.buf[self.per_byte - self.buf_left];
        self.buf_left -= 1;
        face
    }

    /// Fill `dst` with dice, in the order [`Bytes::next`] would give them,
    /// a whole byte's dice at a time while a table row fits.
    fn fill(&mut self, rng: &mut impl RngCore, dst: &mut [u32]) {
        let n = dst.len();
        let mut i = 0;
        while i < n && self.buf_left > 0 {
            dst[i] = self.next(rng);
            i += 1;
        }
        let k = self.per_byte;
        while i + 8 <= n {
            // A fixed-size copy of the whole row; only `k` are kept.
            let b = self.accepted_byte(rng);
            let row: &[u32; 8] = &self.table[b];
            if let Ok(slot) = <&mut [u32; 8]>::try_from(&mut dst[i..i + 8]) {
                *slot = *row;
            }
            i += k;
        }
        while i + k <= n {
            // An element loop, not `copy_from_slice`: a runtime-length
            // copy becomes a `memcpy` call, measurably slower here.
            let b = self.accepted_byte(rng);
            let row = &self.table[b];
            #[allow(clippy::manual_memcpy)]
            for j in 0..k {
                dst[i + j] = row[j];
            }
            i += k;
        }
        while i < n {
            dst[i] = self.next(rng);
            i += 1;
        }
    }
}

/// Digits of one die size: bytes for small dice, base-`s` digits of whole
/// draws for the rest.
#[derive(Clone, Debug)]
enum DigitPool {
    Bytes(u64, Bytes),
    Digits(Digits),
}

impl DigitPool {
    fn new(sides: u32) -> Self {
        assert!(sides >= 2, "a die has at least two sides");
        let s = sides as u64;
        if s <= 6 {
            DigitPool::Bytes(s, Bytes::new(s))
        } else {
            DigitPool::Digits(Digits::new(s))
        }
    }

    fn sides(&self) -> u64 {
        match self {
            DigitPool::Bytes(s, _) => *s,
            DigitPool::Digits(d) => d.sides,
        }
    }

    #[inline]
    fn next<R: RngCore>(&mut self, rng: &mut R) -> u32 {
        match self {
            DigitPool::Bytes(_, b) => b.next(rng),
            DigitPool::Digits(d) => d.next(rng),
        }
    }
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
        if self
            .pools
            .get(self.last)
            .is_some_and(|p| p.sides() == sides as u64)
        {
            return self.last;
        }
        self.last = match self.pools.iter().position(|p| p.sides() == sides as u64) {
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
        let start = out.len();
        out.resize(start + n, 0);
        self.roll_slice(sides, &mut out[start..]);
    }

    /// Fill `out` with rolls of a die with faces `1..=sides`.
    pub fn roll_slice(&mut self, sides: u32, out: &mut [u32]) {
        let i = self.pool_index(sides);
        match &mut self.pools[i] {
            DigitPool::Bytes(_, b) => b.fill(&mut self.rng, out),
            pool => out.iter_mut().for_each(|f| *f = pool.next(&mut self.rng)),
        }
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
