//! Brute force: every sequence of faces a plain rule asks for, walked depth
//! first, each with its exact probability.

use std::collections::BTreeMap;

use hantei::systems::dice::roll::Faces;
use hantei::{Exact, Weight};

/// A face source that replays a forced prefix and records what is asked;
/// a path asking for more than `max_dice` dice is cut (its mass reported).
pub struct Walk {
    forced: Vec<i64>,
    asked: Vec<i64>,
    max_dice: usize,
    /// The face a cut path rolls from then on: one that ends every chain,
    /// so the rest of a discarded path is quick.
    stop: i64,
    cut: bool,
}

impl Faces for Walk {
    fn die(&mut self, sides: i64) -> i64 {
        let k = self.asked.len();
        self.asked.push(sides);
        if k >= self.max_dice {
            self.cut = true;
            return self.stop.min(sides);
        }
        self.forced.get(k).copied().unwrap_or(1)
    }
}

/// The enumerated law of what `roll` reads off each path, and the mass of
/// cut paths.
///
/// A path's probability is 1 / (product of the sides it rolled); paths are
/// counted per product in integers and turned into fractions once at the end
/// (big-fraction sums per path would make the walk a hundred times slower).
pub fn walk<K: Ord>(
    max_dice: usize,
    stop: i64,
    mut roll: impl FnMut(&mut Walk) -> K,
) -> (BTreeMap<K, Exact>, Exact) {
    let mut counts: BTreeMap<Option<K>, BTreeMap<u128, u64>> = BTreeMap::new();
    let mut forced: Vec<i64> = Vec::new();
    let mut w = Walk {
        forced: Vec::new(),
        asked: Vec::new(),
        max_dice,
        stop,
        cut: false,
    };
    loop {
        w.forced.clone_from(&forced);
        w.asked.clear();
        w.cut = false;
        let k = roll(&mut w);
        let used = w.asked.len().min(max_dice);
        let den: u128 = w.asked[..used].iter().map(|&s| s as u128).product();
        let key = (!w.cut).then_some(k);
        *counts.entry(key).or_default().entry(den).or_insert(0) += 1;
        // Next path: the odometer over the faces actually asked for.
        let mut path: Vec<i64> = (0..used)
            .map(|k| forced.get(k).copied().unwrap_or(1))
            .collect();
        loop {
            let n = path.len();
            if n == 0 {
                let mut out = BTreeMap::new();
                let mut cut = Exact::zero();
                for (key, by_den) in counts {
                    let p = by_den.into_iter().fold(Exact::zero(), |acc, (den, c)| {
                        acc + Exact::new((c as i64).into(), (den as i128).into())
                    });
                    match key {
                        Some(k) => {
                            out.insert(k, p);
                        }
                        None => cut = p,
                    }
                }
                return (out, cut);
            }
            if path[n - 1] < w.asked[n - 1] {
                path[n - 1] += 1;
                break;
            }
            path.pop();
        }
        forced = path;
    }
}
