//! Dense state keys: a tuple of statistics stored inline, without an
//! allocation, hashed a word at a time.
//!
//! Every state of the engine is a short tuple of `i64` (the total, then one
//! slot per statistic the conditions read). The engine creates and merges
//! millions of them, so a key must cost no allocation and one hash: tuples
//! of up to [`INLINE`] slots (nearly every check: the total and a few
//! counts or names) live in the key itself; longer ones spill to the heap.
//! A key hashes and compares exactly as the slice it holds, so maps keyed by
//! [`Key`] are looked up with a plain `&[i64]`.

use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// Slots held inline: the total and six counts, with the count of dice
/// placed the class fold carries beside them (at 6, such tuples spilled
/// to the heap, an allocation per new state: 30 d20 read by six counts
/// took 7.9 s, now 4.7 s).
pub const INLINE: usize = 8;

/// A statistic tuple.
#[derive(Clone)]
pub enum Key {
    /// Up to [`INLINE`] slots, in place.
    Inline(u8, [i64; INLINE]),
    /// More slots, on the heap.
    Heap(Box<[i64]>),
}

impl Key {
    /// A tuple of `len` zeros.
    pub fn zeros(len: usize) -> Key {
        if len <= INLINE {
            Key::Inline(len as u8, [0; INLINE])
        } else {
            Key::Heap(vec![0; len].into_boxed_slice())
        }
    }
}

impl From<&[i64]> for Key {
    #[inline]
    fn from(v: &[i64]) -> Key {
        if v.len() <= INLINE {
            // Slot by slot, a fixed number of them: copying the slice's
            // length of bytes took calls to `memset` and `memcpy`, whose
            // narrow stores then stalled the key's wide loads (a third of
            // the best item's pass writing its cells).
            let a: [i64; INLINE] = std::array::from_fn(|i| v.get(i).copied().unwrap_or(0));
            Key::Inline(v.len() as u8, a)
        } else {
            Key::Heap(v.into())
        }
    }
}

impl From<Vec<i64>> for Key {
    fn from(v: Vec<i64>) -> Key {
        Key::from(&v[..])
    }
}

impl From<&Vec<i64>> for Key {
    fn from(v: &Vec<i64>) -> Key {
        Key::from(&v[..])
    }
}

impl From<Box<[i64]>> for Key {
    fn from(v: Box<[i64]>) -> Key {
        Key::from(&v[..])
    }
}

impl FromIterator<i64> for Key {
    fn from_iter<I: IntoIterator<Item = i64>>(iter: I) -> Key {
        let mut a = [0; INLINE];
        let mut n = 0;
        let mut it = iter.into_iter();
        for x in it.by_ref() {
            if n == INLINE {
                let mut v = a.to_vec();
                v.push(x);
                v.extend(it);
                return Key::Heap(v.into_boxed_slice());
            }
            a[n] = x;
            n += 1;
        }
        Key::Inline(n as u8, a)
    }
}

impl Deref for Key {
    type Target = [i64];
    #[inline]
    fn deref(&self) -> &[i64] {
        match self {
            Key::Inline(n, a) => &a[..*n as usize],
            Key::Heap(b) => b,
        }
    }
}

impl DerefMut for Key {
    #[inline]
    fn deref_mut(&mut self) -> &mut [i64] {
        match self {
            Key::Inline(n, a) => &mut a[..*n as usize],
            Key::Heap(b) => b,
        }
    }
}

impl Borrow<[i64]> for Key {
    #[inline]
    fn borrow(&self) -> &[i64] {
        self
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        match (self, other) {
            // The slots past the length are zero in every inline key (each
            // constructor writes zeros, and a key is only changed through
            // its slice), so whole arrays compare, as one reduction of
            // their differences in vector registers: the arrays' `==` and
            // the slices' each took a call to `memcmp` (8 % of a
            // 144-cell law's time, in `finish_with`'s merge).
            (Key::Inline(n, a), Key::Inline(m, b)) => {
                n == m && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
            }
            _ => **self == **other,
        }
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    #[inline]
    fn partial_cmp(&self, other: &Key) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    #[inline]
    fn cmp(&self, other: &Key) -> Ordering {
        (**self).cmp(&**other)
    }
}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Exactly as the slice hashes, so `&[i64]` looks a key up.
        (**self).hash(state)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}
