//! Tens dice against one ones die (CoC 7th ボーナス・ペナルティダイス): `k`
//! tens d10 (a 10 reads as 0) and one ones d10 (a 10 reads as 0); each
//! tens die with the ones die reads tens + ones, 00 reading as 100; bonus
//! dice keep the lowest reading, penalty dice the highest.
//!
//! The law without enumerating faces: given the ones die `o`, a reading is
//! `10·T + o` where `T` is uniform on 0..=9, except that with `o = 0` the
//! tens 0 reads 100, so `T` is uniform on 1..=10. The readings are then
//! monotone in `T`, and the kept reading is `10·min(T…) + o` (or `max`).

use crate::error::Result;
use crate::pmf::Pmf;
use crate::systems::dice::ast::{DieFaces, Filter, PoolTerm, Score};
use crate::systems::dice::law;
use crate::weight::Weight;

/// The tens dice read against a ones die `ones` (0..=9), as a dice
/// program: `k` tens dice uniform on 0..=9 (`kD{0,…,9}`), or on 1..=10
/// with a ones die of 0 (the tens 0 reading 100), keeping the lowest
/// (`lowest`: bonus dice) or the highest.
pub fn tens_program(tens_dice: u32, ones: i64, lowest: bool) -> PoolTerm {
    let from = i64::from(ones == 0);
    let faces = (from..from + 10).map(Score::num).collect();
    let keep = if lowest {
        Filter::KeepLowest
    } else {
        Filter::KeepHighest
    };
    PoolTerm::plain(
        i64::from(tens_dice.max(1)),
        DieFaces::Custom(faces),
        Some((keep, 1)),
    )
}

/// The kept d100 reading of `tens_dice` tens dice (at least 1) against one
/// ones die; `lowest`: bonus dice (keep the lowest), else penalty dice.
/// Each ones die's kept tens digit is the law of [`tens_program`], by the
/// algorithm the dice planner chooses (the extreme by a power of the
/// distribution function).
pub fn d100_kept<W: Weight>(tens_dice: u32, lowest: bool) -> Result<Pmf<W>> {
    let mut pairs = Vec::with_capacity(100);
    for ones in 0..10 {
        let kept = law::term::<W>(&tens_program(tens_dice, ones, lowest))?;
        for (k, p) in kept.iter() {
            pairs.push((10 * k + ones, p.clone() / W::int(10)));
        }
    }
    Ok(Pmf::from_pairs(pairs))
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
