//! The facts a game reads from one pool of like dice (出目の集計), from
//! the pool engine ([`crate::systems::dice::pool`]): `n` dice of `sides`
//! faces, optionally keeping the `k` highest for the total, and the joint
//! law of the total with the statistics the game reads (counts of faces,
//! the highest and lowest face). The games' front ends call [`pool()`] and
//! judge each cell, so a game's law is the engine's law read by the game's
//! words, not a law of its own.

use crate::error::Result;
use crate::systems::dice::ast::{Cmp, DieFaces, FaceCond, Filter, Node};
use crate::systems::dice::pool::{self, Stat};
use crate::weight::Weight;

/// Faces equal to `v` (for [`Stat::Count`]).
pub fn count_eq(v: i64) -> Stat {
    Stat::Count(FaceCond::Cmp(Cmp::Eq, v), None)
}

/// Faces at most `v`.
pub fn count_le(v: i64) -> Stat {
    Stat::Count(FaceCond::Cmp(Cmp::Le, v), None)
}

/// Faces at least `v`.
pub fn count_ge(v: i64) -> Stat {
    Stat::Count(FaceCond::Cmp(Cmp::Ge, v), None)
}

/// One cell of a pool's joint law: the total (the kept dice's sum) and
/// the asked statistics, in the order asked.
#[derive(Clone, Debug)]
pub struct Cell<W> {
    /// The kept dice's sum.
    pub total: i64,
    /// The statistics, in the order they were asked.
    pub stats: Vec<i64>,
    /// The probability.
    pub p: W,
}

/// The joint law of `count` d`sides` (the `keep_high` highest summed, or
/// all) with `stats`.
pub fn pool<W: Weight>(
    count: i64,
    sides: i64,
    keep_high: Option<i64>,
    stats: &[Stat],
) -> Result<Vec<Cell<W>>> {
    let node = Node::dice(
        count,
        DieFaces::Standard(sides),
        keep_high.map(|k| (Filter::KeepHighest, k)),
    );
    let law = pool::law::<W>(&node, stats, 1e-15)?;
    let at: Vec<usize> = stats
        .iter()
        .map(|s| {
            law.index(s)
                .expect("the engine carries every asked statistic")
        })
        .collect();
    Ok(law
        .cells
        .into_iter()
        .map(|(k, p)| Cell {
            total: k[0],
            stats: at.iter().map(|&i| k[i]).collect(),
            p,
        })
        .collect())
}
