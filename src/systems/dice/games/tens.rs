//! Tens dice against one ones die (CoC 7th ボーナス・ペナルティダイス): `k`
//! tens d10 (a 10 reads as 0) and one ones d10 (a 10 reads as 0); each
//! tens die with the ones die reads tens + ones, 00 reading as 100; bonus
//! dice keep the lowest reading, penalty dice the highest.
//!
//! The law without enumerating faces: given the ones die `o`, a reading is
//! `10·T + o` where `T` is uniform on 0..=9, except that with `o = 0` the
//! tens 0 reads 100, so `T` is uniform on 1..=10. The readings are then
//! monotone in `T`, and the kept reading is `10·min(T…) + o` (or `max`).

use crate::pmf::Pmf;
use crate::weight::Weight;

/// The law of the tens digit for a ones die `ones` (0..=9).
pub fn tens_law<W: Weight>(ones: i64) -> Pmf<W> {
    if ones == 0 {
        Pmf::uniform(1, 10)
    } else {
        Pmf::uniform(0, 9)
    }
}

/// The kept d100 reading of `tens_dice` tens dice (at least 1) against one
/// ones die; `lowest`: bonus dice (keep the lowest), else penalty dice.
pub fn d100_kept<W: Weight>(tens_dice: u32, lowest: bool) -> Pmf<W> {
    let tens_dice = tens_dice.max(1);
    let mut pairs = Vec::with_capacity(100);
    for ones in 0..10 {
        let t = tens_law::<W>(ones);
        let kept = if lowest {
            t.min_of(tens_dice)
        } else {
            t.max_of(tens_dice)
        };
        for (k, p) in kept.iter() {
            pairs.push((10 * k + ones, p.clone() / W::int(10)));
        }
    }
    Pmf::from_pairs(pairs)
}

/// The reading of one tens die and the ones die (faces 1..=10, 10 as 0).
pub fn reading(tens: i64, ones: i64) -> i64 {
    let v = 10 * (tens % 10) + ones % 10;
    if v == 0 {
        100
    } else {
        v
    }
}
