//! A law built step by step on packed states (the fold, the group
//! product): each step's new states accumulated in a dense array or a map
//! of `u64`, not in a map of tuples.
//!
//! A step is a generator that hands every pair (a new state's tuple, the
//! old state's weight, the factor) to a [`Buffer`], in a fixed order. The
//! pairs go to a buffer that learns each slot's least and greatest value
//! as they come; then they are summed:
//!
//! * every tuple packed into one `u64` (each slot offset by its least
//!   value, the first slot most significant, so codes keep the tuples'
//!   order): in a **dense array** over the box of codes where it is small,
//!   else by sorting the codes (ties in the pairs' order) and summing runs;
//! * the tuples themselves in a map ([`Map`]), then sorted, where codes do
//!   not fit a `u64` or a step has too many pairs to buffer;
//! * a step of at most [`FEW_PAIRS`] pairs (Year Zero's two dice pushed)
//!   sorts the tuples themselves, stably, with no bounds, packing or
//!   array, which cost more than so few pairs ([`Path::Few`]).
//!
//! Die-by-die steps whose states stay few run on a [`Table`] instead: each
//! state's successor under each outcome found once, then a step is a table
//! read and a multiply-add per pair, in the same order, to the same sums.
//!
//! Each state's weight is summed in the pairs' order on every path, and a
//! step's states come out in tuple order on every path, so which path runs
//! never changes a value, to the last bit (`tests/pool.rs` holds the paths
//! equal), and the order of the next step's pairs is the tuples' order, not
//! a hash's. Where a map of tuples hashed and compared every slot and
//! copied a 72-byte key per pair, a dense step is a code and an add: the
//! group product and the fold run 1.2–1.3× faster (benches/README).

use super::{add_to, Key, Map, MAX_STATES};
use crate::error::Result;
use crate::weight::Weight;

/// Most bytes of weights in a dense array (a million codes in floating
/// point; fewer exact fractions, each larger).
const DENSE_BYTES: usize = 8 << 20;

/// A step's states: flat tuples of `len` slots, in tuple order, and their
/// weights.
#[derive(Clone, Debug)]
pub struct States<W> {
    len: usize,
    keys: Vec<i64>,
    weights: Vec<W>,
}

impl<W: Weight> States<W> {
    /// States from their flat tuples of `len` slots, in tuple order, and
    /// their weights.
    fn from_parts(len: usize, keys: Vec<i64>, weights: Vec<W>) -> Self {
        debug_assert_eq!(keys.len(), len * weights.len());
        States { len, keys, weights }
    }

    /// The one state `start` (one slot or more), of weight one.
    pub fn one(start: &[i64]) -> Self {
        assert!(!start.is_empty(), "a state has one slot or more");
        States {
            len: start.len(),
            keys: start.to_vec(),
            weights: vec![W::one()],
        }
    }

    /// How many states.
    pub fn count(&self) -> usize {
        self.weights.len()
    }

    /// Every state's tuple and weight, in tuple order.
    pub fn iter(&self) -> impl Iterator<Item = (&[i64], &W)> {
        self.keys.chunks_exact(self.len).zip(&self.weights)
    }

    /// Every state as a cell, in tuple order (the weights moved, not
    /// copied).
    pub fn into_cells(self) -> Vec<(Key, W)> {
        self.keys
            .chunks_exact(self.len)
            .map(Key::from)
            .zip(self.weights)
            .collect()
    }

    /// Every state moved into a map, its tuple mapped by `f` (states that
    /// `f` makes equal summed in tuple order).
    pub fn into_map(self, mut f: impl FnMut(&[i64], &mut Vec<i64>)) -> Map<W> {
        let mut out: Map<W> = Map::with_capacity_and_hasher(self.count(), Default::default());
        let mut t = Vec::with_capacity(self.len);
        for (k, w) in self.keys.chunks_exact(self.len).zip(self.weights) {
            t.clear();
            f(k, &mut t);
            add_to(&mut out, &t, w);
        }
        out
    }
}

/// Each slot's least and greatest value over a step's pairs, the
/// sentinels `i64::MIN` and `i64::MAX` (an empty maximum, minimum or
/// kept slot) apart.
pub(super) struct Bounds {
    lo: Vec<i64>,
    hi: Vec<i64>,
    min: Vec<bool>,
    max: Vec<bool>,
}

impl Bounds {
    /// No tuple of `len` slots seen yet.
    pub(super) fn new(len: usize) -> Bounds {
        Bounds {
            lo: vec![i64::MAX; len],
            hi: vec![i64::MIN; len],
            min: vec![false; len],
            max: vec![false; len],
        }
    }

    /// One more tuple seen.
    #[inline]
    pub(super) fn see(&mut self, key: &[i64]) {
        for (i, &x) in key.iter().enumerate() {
            self.see_slot(i, x);
        }
    }

    /// Slot `i`'s value `x` seen.
    #[inline]
    fn see_slot(&mut self, i: usize, x: i64) {
        match x {
            i64::MIN => self.min[i] = true,
            i64::MAX => self.max[i] = true,
            x => {
                self.lo[i] = self.lo[i].min(x);
                self.hi[i] = self.hi[i].max(x);
            }
        }
    }
}

/// Tuples packed into `u64` codes: each slot's digit its offset from
/// the slot's least value (after `i64::MIN`, before `i64::MAX`, where
/// they occur), scaled by the radices of the slots after it.
pub(super) struct Packing {
    slots: Vec<Digit>,
    size: u64,
    /// No slot holds a sentinel: every digit is the offset from the least
    /// value.
    plain: bool,
}

/// One slot's digits.
#[derive(Clone, Copy)]
struct Digit {
    /// The least ordinary value.
    lo: i64,
    /// Whether `i64::MIN` occurs (digit 0; `i64::MAX` takes the last).
    min: bool,
    /// Whether `i64::MAX` occurs.
    max: bool,
    radix: u64,
}

impl Packing {
    /// `None` where the box of codes does not fit a `u64`.
    pub(super) fn new(b: &Bounds) -> Option<Packing> {
        let mut size: u128 = 1;
        let mut slots = Vec::with_capacity(b.lo.len());
        for i in 0..b.lo.len() {
            let (lo, hi) = (b.lo[i], b.hi[i]);
            let ordinary = if lo <= hi {
                (hi as i128 - lo as i128 + 1) as u128
            } else {
                0
            };
            let r = (ordinary + u128::from(b.min[i]) + u128::from(b.max[i])).max(1);
            size = size.checked_mul(r)?;
            slots.push(Digit {
                lo,
                min: b.min[i],
                max: b.max[i],
                radix: u64::try_from(r).ok()?,
            });
        }
        Some(Packing {
            plain: slots.iter().all(|d| !d.min && !d.max),
            slots,
            size: u64::try_from(size).ok()?,
        })
    }

    /// The tuple of the digits `digits`, written into `key` (the inverse
    /// of [`Packing::code`] on the box).
    fn decode(&self, digits: &[u64], key: &mut [i64]) {
        for ((x, d), &digit) in key.iter_mut().zip(&self.slots).zip(digits) {
            *x = if d.min && digit == 0 {
                i64::MIN
            } else if d.max && digit == d.radix - 1 {
                i64::MAX
            } else {
                d.lo.wrapping_add((digit - u64::from(d.min)) as i64)
            };
        }
    }

    /// The digits of the code `code` (the last slot the lowest).
    fn digits_of(&self, mut code: u64, digits: &mut [u64]) {
        for (x, d) in digits.iter_mut().zip(&self.slots).rev() {
            *x = code % d.radix;
            code /= d.radix;
        }
    }

    /// The digits of the code `k` after the one of `digits` (the last
    /// slot turning fastest, as an odometer: a division a slot the
    /// carry reaches).
    #[inline]
    fn advance(&self, digits: &mut [u64], mut k: u64) {
        for (x, d) in digits.iter_mut().zip(&self.slots).rev() {
            if k == 0 {
                return;
            }
            let v = *x + k;
            if v < d.radix {
                *x = v;
                return;
            }
            *x = v % d.radix;
            k = v / d.radix;
        }
    }

    /// Bits of the largest code.
    pub(super) fn bits(&self) -> u32 {
        64 - self.size.saturating_sub(1).leading_zeros()
    }

    /// A tuple's code.
    #[inline]
    pub(super) fn code(&self, key: &[i64]) -> u64 {
        if self.plain {
            return key
                .iter()
                .zip(&self.slots)
                .fold(0u64, |c, (&x, d)| c * d.radix + x.wrapping_sub(d.lo) as u64);
        }
        key.iter().zip(&self.slots).fold(0u64, |c, (&x, d)| {
            let digit = match x {
                i64::MIN => 0,
                i64::MAX => d.radix - 1,
                x => x.wrapping_sub(d.lo) as u64 + u64::from(d.min),
            };
            c * d.radix + digit
        })
    }
}

/// The map of tuples, for a step too large to hold in a buffer or whose
/// codes do not fit a `u64`; stops adding past [`MAX_STATES`] states (the
/// step is then refused).
struct Tuples<W> {
    map: Map<W>,
    full: bool,
}

impl<W: Weight> Tuples<W> {
    /// The pairs of flat tuples of `len` slots `keys`, and `weights`, in
    /// their order.
    fn of(len: usize, keys: &[i64], weights: impl IntoIterator<Item = W>) -> Tuples<W> {
        let mut t = Tuples {
            map: Map::default(),
            full: false,
        };
        for (k, w) in keys.chunks_exact(len).zip(weights) {
            t.add(k, w);
        }
        t
    }

    #[inline]
    fn add(&mut self, key: &[i64], w: W) {
        if !self.full {
            add_to(&mut self.map, key, w);
            self.full = self.map.len() > MAX_STATES;
        }
    }
}

/// Most pairs of one step held in the buffer (beyond, they go to a map
/// of tuples as they come).
pub const BUFFER_MAX: usize = 1 << 18;

/// Where a step's generator hands its pairs, in order: their tuples,
/// their weights and the bounds of their slots, or (past `BUFFER_MAX`
/// pairs) a map of tuples. A concrete type, not a trait object, so that
/// [`Buffer::put`] inlines into the generator's loop.
pub struct Buffer<W> {
    len: usize,
    keys: Vec<i64>,
    weights: Vec<W>,
    /// Each slot's least and greatest value, the sentinels included
    /// (two branch-free comparisons a slot; [`Buffer::bounds`] sets the
    /// sentinels apart after the step).
    lo: Vec<i64>,
    hi: Vec<i64>,
    spilled: Option<Tuples<W>>,
    /// The tuple a pair past the buffer is edited in.
    scratch: Vec<i64>,
    /// The sums over a box known before the step, made as the pairs come
    /// ([`step_within`]).
    direct: Option<Direct<W>>,
}

/// One slot's values in a box known before a step ([`step_within`]):
/// its ordinary values `lo..=hi`, and whether "no die yet" (`i64::MIN`)
/// or "two that differ" (`i64::MAX`) can occur.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotRange {
    /// The least ordinary value.
    pub lo: i64,
    /// The greatest ordinary value.
    pub hi: i64,
    /// `i64::MIN` can occur.
    pub none_low: bool,
    /// `i64::MAX` can occur.
    pub none_high: bool,
}

impl SlotRange {
    /// Whether `v` lies in it.
    #[inline]
    fn holds(&self, v: i64) -> bool {
        match v {
            i64::MIN => self.none_low,
            i64::MAX => self.none_high,
            v => self.lo <= v && v <= self.hi,
        }
    }
}

/// A step summed straight by the codes of the box its caller knows
/// before any pair ([`step_within`]): no buffer, no map of tuples.
struct Direct<W> {
    packing: Packing,
    /// Each slot's values in the box.
    within: Vec<SlotRange>,
    sums: Sums<W>,
    /// A pair fell outside the box (never, the box being sound; the step
    /// is then refused rather than summed wrong).
    outside: bool,
}

/// Where a step in its box sums its pairs.
enum Sums<W> {
    /// A dense array over the box, and which codes a pair met.
    Dense { weights: Vec<W>, met: Vec<bool> },
    /// A box too wide for an array: a map keyed by the code (one word
    /// hashed and compared, where a map of tuples takes a 72-byte key);
    /// it stops adding past [`MAX_STATES`] states (the step is refused).
    Codes {
        map: std::collections::HashMap<u64, W, super::FxBuild>,
        full: bool,
    },
}

impl<W: Weight> Buffer<W> {
    /// One pair: the new state `key` gets `w · p` (the old state's weight
    /// `w` times the step's factor `p`).
    #[inline]
    pub fn put(&mut self, key: &[i64], w: &W, p: &W) {
        self.put_edit(key, w, p, |_| {});
    }

    /// One pair whose tuple is `from` changed in place by `edit`, of weight
    /// `w · p` ([`Buffer::put`] without a tuple built apart and copied).
    #[inline]
    pub fn put_edit(&mut self, from: &[i64], w: &W, p: &W, edit: impl FnOnce(&mut [i64])) {
        let x = w.clone() * p;
        if let Some(d) = &mut self.direct {
            self.scratch.clear();
            self.scratch.extend_from_slice(from);
            edit(&mut self.scratch);
            let inside = self.scratch.iter().zip(&d.within).all(|(&v, r)| r.holds(v));
            if !inside {
                d.outside = true;
                return;
            }
            let c = d.packing.code(&self.scratch);
            match &mut d.sums {
                Sums::Dense { weights, met } => {
                    weights[c as usize] += x;
                    met[c as usize] = true;
                }
                Sums::Codes { map, full } => {
                    if !*full {
                        *map.entry(c).or_insert_with(W::zero) += x;
                        *full = map.len() > MAX_STATES;
                    }
                }
            }
            return;
        }
        if let Some(t) = &mut self.spilled {
            // Past the buffer: edited in one reused tuple, into the map.
            self.scratch.clear();
            self.scratch.extend_from_slice(from);
            edit(&mut self.scratch);
            t.add(&self.scratch, x);
            return;
        }
        let at = self.keys.len();
        self.keys.extend(from.iter().copied());
        let key = &mut self.keys[at..];
        edit(key);
        for ((l, h), &v) in self.lo.iter_mut().zip(self.hi.iter_mut()).zip(&*key) {
            *l = (*l).min(v);
            *h = (*h).max(v);
        }
        self.weights.push(x);
        if self.weights.len() >= BUFFER_MAX {
            self.spill();
        }
    }

    /// Past [`BUFFER_MAX`] pairs: the pairs so far into a map of tuples,
    /// and every pair after them.
    #[cold]
    fn spill(&mut self) {
        let weights = std::mem::take(&mut self.weights);
        self.spilled = Some(Tuples::of(self.len, &self.keys, weights));
        self.keys = Vec::new();
    }
}

impl<W> Buffer<W> {
    /// The bounds of the buffered pairs' slots, the sentinels apart: a
    /// slot whose least value is `i64::MIN` or greatest `i64::MAX` is
    /// read again without them.
    fn bounds(&self) -> Bounds {
        let mut b = Bounds::new(self.len);
        for i in 0..self.len {
            if self.lo[i] != i64::MIN && self.hi[i] != i64::MAX {
                b.lo[i] = self.lo[i];
                b.hi[i] = self.hi[i];
                continue;
            }
            for k in self.keys.chunks_exact(self.len) {
                b.see_slot(i, k[i]);
            }
        }
        b
    }
}

/// One step: the states of `len` slots (one or more) that `gen` hands
/// its buffer (about `pairs` pairs, room made for them first), equal tuples
/// summed in the pairs' order, in tuple order. Refused past
/// [`MAX_STATES`] states.
pub fn step<W: Weight>(
    len: usize,
    pairs: usize,
    gen: impl FnOnce(&mut Buffer<W>) -> Result<()>,
) -> Result<States<W>> {
    step_by(len, pairs, Path::Auto, gen)
}

/// How a step sums its pairs: [`step`] chooses; the tests run each and
/// hold them equal to the last bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The dense array where the box of codes is small, else the sorted
    /// codes, else (codes past a `u64`) the map of tuples.
    Auto,
    /// A dense array over the box of codes (where it fits, else the sorted
    /// codes).
    Dense,
    /// The codes sorted, ties in the pairs' order (where they fit).
    Sorted,
    /// The pairs' tuples sorted in place of codes, ties in the pairs'
    /// order: what [`Path::Auto`] takes for a step of at most
    /// [`FEW_PAIRS`] pairs, where a box's bounds, packing and array cost
    /// more than the pairs (Year Zero's two dice pushed: a few dozen).
    Few,
    /// A map of tuples, then sorted.
    Tuples,
}

/// [`step`] by the path `path` (a path whose codes do not fit a `u64`
/// takes the map of tuples).
pub fn step_by<W: Weight>(
    len: usize,
    pairs: usize,
    path: Path,
    gen: impl FnOnce(&mut Buffer<W>) -> Result<()>,
) -> Result<States<W>> {
    step_within(len, pairs, path, None, gen)
}

/// [`step_by`] where the caller knows, before any pair, a box every new
/// state lies in (`within`: each slot's ordinary values and its marks).
/// A step of more pairs than its buffer holds is summed straight into a
/// dense array over the box where it fits one no larger than the step's
/// pairs, else into a map keyed by the box's codes (one word hashed and
/// compared), where its pairs went to a map of 72-byte tuples (two d1000
/// compounding, read by the total and a count: 36 million pairs, 1.35 s
/// in the map, 0.29 s in the array; read by `doubles`, 0.43 s by code):
/// each state's sum in the pairs' order and the states in tuple order,
/// as on every path, so the same values to the last bit.
pub fn step_within<W: Weight>(
    len: usize,
    pairs: usize,
    path: Path,
    within: Option<&[SlotRange]>,
    gen: impl FnOnce(&mut Buffer<W>) -> Result<()>,
) -> Result<States<W>> {
    let dense_max = (DENSE_BYTES / std::mem::size_of::<W>().max(1)) as u64;
    let direct = within
        .filter(|b| path == Path::Auto && pairs > BUFFER_MAX && b.len() == len)
        .and_then(|b| {
            let mut bounds = Bounds::new(len);
            for (i, r) in b.iter().enumerate() {
                if r.lo <= r.hi {
                    bounds.see_slot(i, r.lo);
                    bounds.see_slot(i, r.hi);
                }
                bounds.min[i] |= r.none_low;
                bounds.max[i] |= r.none_high;
            }
            Packing::new(&bounds).map(|packing| (b, packing))
        })
        .map(|(b, packing)| Direct {
            sums: if packing.size <= dense_max && packing.size as usize <= pairs {
                Sums::Dense {
                    weights: vec![W::zero(); packing.size as usize],
                    met: vec![false; packing.size as usize],
                }
            } else {
                Sums::Codes {
                    map: Default::default(),
                    full: false,
                }
            },
            packing,
            within: b.to_vec(),
            outside: false,
        });
    let room = if direct.is_some() {
        0
    } else {
        pairs.min(BUFFER_MAX)
    };
    // A step known to be few pairs before they come sorts them by tuple
    // and needs no bounds.
    let few = direct.is_none() && (path == Path::Few || path == Path::Auto && pairs <= FEW_PAIRS);
    let slots = if few { 0 } else { len };
    let mut buf = Buffer {
        len,
        keys: Vec::with_capacity(room * len),
        weights: Vec::with_capacity(room),
        lo: vec![i64::MAX; slots],
        hi: vec![i64::MIN; slots],
        spilled: None,
        // Made as a pair past the buffer or in a box first needs it.
        scratch: Vec::new(),
        direct,
    };
    gen(&mut buf)?;
    let mut out = States {
        len,
        keys: Vec::new(),
        weights: Vec::new(),
    };
    if let Some(d) = buf.direct {
        if d.outside {
            return Err(crate::error::Error::Conflict(
                "dice: a step's states left the box planned for them (a bug of hantei: please report the command)".into(),
            ));
        }
        return match d.sums {
            Sums::Dense { weights, met } => from_dense(&d.packing, weights, met, out),
            Sums::Codes { map, full } => from_codes(&d.packing, map, full, out),
        };
    }
    if let Some(t) = buf.spilled {
        return from_tuples(t, out);
    }
    let pairs = buf.weights.len();
    if path == Path::Few || path == Path::Auto && pairs <= FEW_PAIRS {
        return from_few(&buf.keys, buf.weights, out);
    }
    if few {
        // More pairs came than the step was told (`pairs` is room made,
        // not a bound), and no bounds were kept for packing them: the map
        // of tuples, not an insertion sort of them all.
        return from_tuples(Tuples::of(len, &buf.keys, buf.weights), out);
    }
    let packing = Packing::new(&buf.bounds()).filter(|_| path != Path::Tuples);
    let Some(packing) = packing else {
        return from_tuples(Tuples::of(len, &buf.keys, buf.weights), out);
    };
    let fits = packing.size <= dense_max;
    let small = fits && packing.size as usize <= (4 * pairs).max(4096);
    if path == Path::Dense && fits || path == Path::Auto && small {
        // A dense array over the box of codes, and which codes a pair met
        // (each such code's tuple decoded from it).
        let size = packing.size as usize;
        let mut weights = vec![W::zero(); size];
        let mut met = vec![false; size];
        for (k, w) in buf.keys.chunks_exact(len).zip(buf.weights) {
            let c = packing.code(k) as usize;
            weights[c] += w;
            met[c] = true;
        }
        return from_dense(&packing, weights, met, out);
    }
    // The codes sorted (ties in the pairs' order), equal codes summed.
    let mut codes: Vec<(u64, u32)> = buf
        .keys
        .chunks_exact(len)
        .enumerate()
        .map(|(at, k)| (packing.code(k), at as u32))
        .collect();
    super::radix_sort(&mut codes, packing.bits());
    let mut weights: Vec<Option<W>> = buf.weights.into_iter().map(Some).collect();
    let mut last = None;
    for (c, at) in codes {
        let w = weights[at as usize].take().unwrap_or_else(W::zero);
        if last == Some(c) {
            if let Some(x) = out.weights.last_mut() {
                *x += w;
            }
        } else {
            // A code's first pair (ties come in the pairs' order) gives
            // the state its tuple.
            super::check_count(out.weights.len() + 1)?;
            let at = at as usize * len;
            out.keys.extend_from_slice(&buf.keys[at..at + len]);
            out.weights.push(w);
            last = Some(c);
        }
    }
    Ok(out)
}

/// Most pairs of a step that [`Path::Auto`] sorts by their tuples
/// ([`Path::Few`]).
pub const FEW_PAIRS: usize = 64;

/// A step's few pairs (`keys`, `len` slots each, and `weights`) as states
/// in tuple order into `out`: their indices sorted by tuple, by insertion
/// (stable, so equal tuples sum in the pairs' order, as on every path).
fn from_few<W: Weight>(keys: &[i64], mut weights: Vec<W>, mut out: States<W>) -> Result<States<W>> {
    let len = out.len;
    let key = |i: usize| &keys[i * len..(i + 1) * len];
    // Room for every pair a state of its own, made once.
    out.keys.reserve(keys.len());
    out.weights.reserve(weights.len());
    let mut order: Vec<usize> = Vec::with_capacity(weights.len());
    for i in 0..weights.len() {
        let mut at = order.len();
        while at > 0 && key(order[at - 1]) > key(i) {
            at -= 1;
        }
        order.insert(at, i);
    }
    let mut last: Option<usize> = None;
    for i in order {
        let w = std::mem::replace(&mut weights[i], W::zero());
        match (last, out.weights.last_mut()) {
            (Some(l), Some(x)) if key(l) == key(i) => *x += w,
            _ => {
                super::check_count(out.weights.len() + 1)?;
                out.keys.extend_from_slice(key(i));
                out.weights.push(w);
                last = Some(i);
            }
        }
    }
    Ok(out)
}

/// The codes a step met in a dense array over `packing`'s box (`met`),
/// with their weights, as states in tuple order into `out` (each code's
/// tuple decoded from it).
fn from_dense<W: Weight>(
    packing: &Packing,
    weights: Vec<W>,
    met: Vec<bool>,
    mut out: States<W>,
) -> Result<States<W>> {
    let len = out.len;
    let count = met.iter().filter(|m| **m).count();
    super::check_count(count)?;
    out.keys.resize(count * len, 0);
    out.weights.reserve(count);
    // The codes met in order, their digits turned as an odometer.
    let mut digits = vec![0u64; len];
    let (mut at, mut last) = (0, 0);
    for (c, (w, m)) in weights.into_iter().zip(met).enumerate() {
        if m {
            packing.advance(&mut digits, (c - last) as u64);
            last = c;
            packing.decode(&digits, &mut out.keys[at..at + len]);
            out.weights.push(w);
            at += len;
        }
    }
    Ok(out)
}

/// A step's states summed by code (their box too wide for an array), in
/// code order, which is tuple order, into `out`.
fn from_codes<W: Weight>(
    packing: &Packing,
    map: std::collections::HashMap<u64, W, super::FxBuild>,
    full: bool,
    mut out: States<W>,
) -> Result<States<W>> {
    super::check_count(if full { MAX_STATES + 1 } else { map.len() })?;
    let len = out.len;
    let mut cells: Vec<(u64, W)> = map.into_iter().collect();
    cells.sort_unstable_by_key(|c| c.0);
    out.keys.resize(cells.len() * len, 0);
    out.weights.reserve(cells.len());
    let mut digits = vec![0u64; len];
    for (at, (code, w)) in cells.into_iter().enumerate() {
        packing.digits_of(code, &mut digits);
        packing.decode(&digits, &mut out.keys[at * len..(at + 1) * len]);
        out.weights.push(w);
    }
    Ok(out)
}

/// A map of tuples' states, in tuple order, into `out`.
fn from_tuples<W: Weight>(t: Tuples<W>, mut out: States<W>) -> Result<States<W>> {
    super::check_count(if t.full { MAX_STATES + 1 } else { t.map.len() })?;
    let mut cells: Vec<(Key, W)> = t.map.into_iter().collect();
    cells.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (k, w) in cells {
        out.keys.extend_from_slice(&k);
        out.weights.push(w);
    }
    Ok(out)
}

/// Most states a [`Table`] holds: past them, the steps go on with
/// [`step`]'s buffer.
pub const TABLE_STATES: usize = 1 << 8;

/// States of a [`Table`] found by scanning their tuples; past them, by a
/// map.
const SCAN_STATES: usize = 8;

/// Die-by-die steps on a table of transitions, for laws whose states stay
/// few (Blades' sixes and highest die over six dice: seven states).
///
/// Every state met gets an index, and the state each outcome of the die
/// leads it to is found once and kept (`state × outcome → state`). A step
/// is then, for each live state in tuple order and each outcome in order,
/// a table read and a multiply-add into the next state's weight: the
/// pairs [`step`] would buffer, in the same order, summed in the same
/// order from zero as its dense array sums them, so the states and their
/// weights are the same to the last bit. No buffer, codes or decoding per
/// step; the live states are sorted by tuple after each step.
pub struct Table<W> {
    len: usize,
    outcomes: usize,
    /// Every state's tuple, flat, by index.
    keys: Vec<i64>,
    index: std::collections::HashMap<Key, u32, super::FxBuild>,
    /// `state × outcome`: the state it leads to (`u32::MAX`: not yet found).
    next: Vec<u32>,
    /// The live states, in tuple order, and their weights.
    live: Vec<(u32, W)>,
    /// The next step's weight of each state, and which states it met.
    acc: Vec<W>,
    met: Vec<bool>,
    touched: Vec<u32>,
    scratch: Vec<i64>,
}

impl<W: Weight> Table<W> {
    /// The one state `start`, of weight one, for a die of `outcomes`
    /// outcomes.
    pub fn new(start: &[i64], outcomes: usize) -> Self {
        let mut t = Table {
            len: start.len(),
            outcomes,
            keys: Vec::new(),
            index: Default::default(),
            next: Vec::new(),
            live: Vec::new(),
            acc: Vec::new(),
            met: Vec::new(),
            touched: Vec::new(),
            scratch: Vec::with_capacity(start.len()),
        };
        let s = t.add(start);
        t.live.push((s, W::one()));
        t
    }

    /// The index of the state `key`, if met: by a scan of the tuples
    /// while they are few (no hashing, no `memcmp` call), by the map after.
    #[inline]
    fn find(&self, key: &[i64]) -> Option<u32> {
        if self.index.is_empty() {
            return self
                .keys
                .chunks_exact(self.len)
                .position(|k| k.iter().zip(key).all(|(a, b)| a == b))
                .map(|s| s as u32);
        }
        self.index.get(key).copied()
    }

    /// A new state `key`, its index.
    fn add(&mut self, key: &[i64]) -> u32 {
        let s = (self.keys.len() / self.len) as u32;
        self.keys.extend_from_slice(key);
        if s as usize == SCAN_STATES {
            // Past a scan's worth: every state into the map.
            let len = self.len;
            self.index.extend(
                self.keys
                    .chunks_exact(len)
                    .enumerate()
                    .map(|(i, k)| (Key::from(k), i as u32)),
            );
        } else if s as usize > SCAN_STATES {
            self.index.insert(Key::from(key), s);
        }
        self.next
            .extend(std::iter::repeat_n(u32::MAX, self.outcomes));
        self.acc.push(W::zero());
        self.met.push(false);
        s
    }

    fn key(&self, s: u32) -> &[i64] {
        let at = s as usize * self.len;
        &self.keys[at..at + self.len]
    }

    /// How many states are live.
    pub fn count(&self) -> usize {
        self.live.len()
    }

    /// One more die of the contributions `die` (in their order, as many as
    /// the table was made for): each live state's tuple changed in place
    /// by `edit(tuple, contribution)`. `false` (the live states as they
    /// were) where the states met would pass [`TABLE_STATES`].
    pub fn step(&mut self, die: &[(&[i64], &W)], edit: impl Fn(&mut [i64], &[i64])) -> bool {
        debug_assert_eq!(die.len(), self.outcomes);
        let live = std::mem::take(&mut self.live);
        for (s, w) in &live {
            let row = *s as usize * self.outcomes;
            for (o, (c, p)) in die.iter().enumerate() {
                let mut t = self.next[row + o];
                if t == u32::MAX {
                    let mut key = std::mem::take(&mut self.scratch);
                    key.clear();
                    key.extend_from_slice(self.key(*s));
                    edit(&mut key, c);
                    t = match self.find(&key) {
                        Some(t) => t,
                        None if self.met.len() >= TABLE_STATES => {
                            self.scratch = key;
                            // Abandoned: this step's weights so far are
                            // cleared, the live states kept as they were.
                            for &t in &self.touched {
                                self.met[t as usize] = false;
                                self.acc[t as usize] = W::zero();
                            }
                            self.touched.clear();
                            self.live = live;
                            return false;
                        }
                        None => self.add(&key),
                    };
                    self.scratch = key;
                    self.next[row + o] = t;
                }
                let at = t as usize;
                if !self.met[at] {
                    self.met[at] = true;
                    self.touched.push(t);
                }
                self.acc[at] += w.clone() * *p;
            }
        }
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_unstable_by(|a, b| self.key(*a).cmp(self.key(*b)));
        self.live = touched
            .drain(..)
            .map(|t| {
                self.met[t as usize] = false;
                (t, std::mem::replace(&mut self.acc[t as usize], W::zero()))
            })
            .collect();
        self.touched = touched;
        true
    }

    /// The live states, in tuple order.
    pub fn states(&self) -> States<W> {
        let mut keys = Vec::with_capacity(self.live.len() * self.len);
        let mut weights = Vec::with_capacity(self.live.len());
        for (s, w) in &self.live {
            keys.extend_from_slice(self.key(*s));
            weights.push(w.clone());
        }
        States::from_parts(self.len, keys, weights)
    }
}
