//! One die's law, after its modifiers: what each outcome contributes to
//! every statistic of the layout.
//!
//! * Faces: `dY` (1..=Y), `d{…}` (listed, repeats allowed), `dF` (−1, 0, 1).
//! * Face scores (`{1:2,<=6:1,10:-1}`): the first rule whose condition holds
//!   on the face gives what the die adds to the total and its named
//!   scores; a face no rule holds scores 0. Everything else (counts, max,
//!   min, natural, keep order) reads the face.
//! * `roCOND`: a face meeting COND is rerolled once, the second face kept;
//!   `riCOND` the same for the die's initial face only (the dice an
//!   explosion adds roll plain: L5R's emphasis, CofD's rote);
//!   `rCOND`: rerolled until it fails COND (the law given ¬COND).
//! * `!!COND` (compounding): while the last face meets COND (default: the
//!   die's highest face) another die is rolled and added into the same
//!   die, whose face is the sum (L5R, Savage Worlds' aces on one die).
//! * `!COND`: each explosion adds a new die to the pool: counts, scores,
//!   the total, max and min read every die of the chain. Keep/drop and
//!   matching sets need dice in order and are refused on `!` (use `!!`).
//!
//! Chains are cut where the mass still rolling falls below the per-die
//! share of `--tail-eps`; the cut mass is the law's shortfall from 1
//! (reported as `tail_mass`).

use super::{add_to, Ctx, Key, Map, Stat};
use crate::error::{Error, Result};
use crate::systems::dice::ast::*;
use crate::weight::Weight;

/// Most dice of one exploding chain.
pub const MAX_CHAIN: usize = 10_000;

/// A die outcome: its order (the face, or a chain's total) and what it
/// contributes to each statistic.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Outcome {
    /// Keep/drop, max and min order the dice by this.
    pub order: i64,
    /// Contribution to each position of the layout.
    pub contrib: Key,
}

/// A die's law: outcomes sorted highest first, with the mass kept (below 1
/// when a chain was cut).
#[derive(Clone, Debug)]
pub struct DieLaw<W> {
    /// Outcomes and their probabilities, highest order first.
    pub outcomes: Vec<(Outcome, W)>,
    /// Sum of the probabilities.
    pub mass: W,
}

/// The score of a face under the term's map (itself without a map).
pub fn score_of(t: &PoolTerm, side: &Score) -> Score {
    if t.scores.is_empty() {
        return side.clone();
    }
    t.scores
        .iter()
        .find(|r| r.cond.holds(side.value))
        .map_or_else(Score::default, |r| r.score.clone())
}

/// What one die with `face` and `score` contributes.
pub fn contribution(layout: &[Stat], name: Option<&str>, face: i64, score: &Score) -> Key {
    layout
        .iter()
        .map(|s| {
            s.contribution(super::stat::Die {
                face,
                score,
                term: name,
            })
        })
        .collect()
}

/// Two chain parts combined: the total adds, the rest by their rules,
/// saturated where the context allows.
pub fn join(ctx: &Ctx, a: &[i64], b: &[i64]) -> Key {
    ctx.layout
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Stat::Total => a[i].saturating_add(b[i]),
            _ => ctx.merged(i, s.combine(a[i], b[i])),
        })
        .collect()
}

/// The probability of each side after the term's reroll.
pub fn side_weights<W: Weight>(t: &PoolTerm) -> Vec<W> {
    let sides = t.faces.sides();
    let n = sides.len() as i64;
    let base = W::ratio(1, n);
    match t.reroll() {
        None => vec![base; sides.len()],
        Some((cond, once)) => {
            let hit = sides.iter().filter(|s| cond.holds(s.value)).count() as i64;
            sides
                .iter()
                .map(|s| {
                    let meets = cond.holds(s.value);
                    if once {
                        // First face kept, or rerolled once (any face kept).
                        let keep = if meets { W::zero() } else { base.clone() };
                        keep + W::ratio(hit, n) * &base
                    } else if meets {
                        W::zero()
                    } else {
                        W::ratio(1, n - hit)
                    }
                })
                .collect()
        }
    }
}

/// The explosion condition with its default (the highest face).
pub fn explode_cond(t: &PoolTerm) -> Option<(FaceCond, bool)> {
    t.explosion().map(|(c, compound)| {
        let top = t.faces.sides().iter().map(|s| s.value).max().unwrap_or(0);
        (c.unwrap_or(FaceCond::Cmp(Cmp::Eq, top)), compound)
    })
}

/// The law of one die of term `t`.
pub fn die_law<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<DieLaw<W>> {
    let sides = t.faces.sides();
    let weights = side_weights::<W>(t);
    // An `ri` reroll takes the initial face only: an explosion's dice roll
    // plain.
    let later = if t.rerolls_first_only() {
        let n = sides.len() as i64;
        vec![W::ratio(1, n); sides.len()]
    } else {
        weights.clone()
    };
    let name = t.name.as_deref();
    let layout = &ctx.layout;
    // Keyed by [order, contribution…]: faces that contribute alike but sort
    // apart stay apart (keep/drop reads the order).
    let mut out: Map<W> = Map::default();
    let keyed = |order: i64, c: &[i64]| -> Vec<i64> {
        let mut k = Vec::with_capacity(c.len() + 1);
        k.push(order);
        k.extend_from_slice(c);
        k
    };
    match explode_cond(t) {
        None => {
            for (s, w) in sides.iter().zip(&weights) {
                if w.is_zero() {
                    continue;
                }
                let c = contribution(layout, name, s.value, &score_of(t, s));
                add_to(&mut out, &keyed(s.value, &c), w.clone());
            }
        }
        Some((cond, true)) => {
            // Compounding: the state is (face sum, unit sums of the sides).
            let mut active: std::collections::BTreeMap<Score, W> =
                std::collections::BTreeMap::from([(Score::default(), W::one())]);
            let mut done: std::collections::BTreeMap<Score, W> = Default::default();
            let mut depth = 0;
            while !active.is_empty() {
                depth += 1;
                let mut next: std::collections::BTreeMap<Score, W> = Default::default();
                let weights = if depth == 1 { &weights } else { &later };
                for (acc, w) in &active {
                    for (s, p) in sides.iter().zip(weights) {
                        if p.is_zero() {
                            continue;
                        }
                        let mut sum = acc.clone();
                        sum.value += s.value;
                        for (u, k) in &s.units {
                            match sum.units.iter_mut().find(|(n, _)| n == u) {
                                Some((_, v)) => *v += k,
                                None => sum.units.push((u.clone(), *k)),
                            }
                        }
                        sum.units.sort();
                        let target = if cond.holds(s.value) {
                            &mut next
                        } else {
                            &mut done
                        };
                        *target.entry(sum).or_insert_with(W::zero) += w.clone() * p;
                    }
                }
                let left: f64 = next.values().map(Weight::to_f64).sum();
                active = next;
                if left < ctx.die_eps {
                    break;
                }
                if depth >= MAX_CHAIN {
                    return Err(chain_error());
                }
            }
            for (sum, w) in done {
                let face = sum.value;
                let score = if t.scores.is_empty() {
                    sum
                } else {
                    score_of(t, &Score::num(face))
                };
                let c = contribution(layout, name, face, &score);
                add_to(&mut out, &keyed(face, &c), w);
            }
        }
        Some((cond, false)) => {
            // Each explosion a new die: contributions join along the chain.
            let per_side: Vec<Key> = sides
                .iter()
                .map(|s| contribution(layout, name, s.value, &score_of(t, s)))
                .collect();
            let mut active: Map<W> = Map::default();
            active.insert(ctx.neutral().into(), W::one());
            let mut done: Map<W> = Map::default();
            let mut depth = 0;
            while !active.is_empty() {
                depth += 1;
                let mut next: Map<W> = Map::default();
                let weights = if depth == 1 { &weights } else { &later };
                for (acc, w) in super::sorted(&active) {
                    for ((s, p), c) in sides.iter().zip(weights).zip(&per_side) {
                        if p.is_zero() {
                            continue;
                        }
                        let joined = join(ctx, acc, c);
                        let target = if cond.holds(s.value) {
                            &mut next
                        } else {
                            &mut done
                        };
                        add_to(target, &joined, w.clone() * p);
                    }
                }
                let left: f64 = next.values().map(Weight::to_f64).sum();
                active = next;
                if left < ctx.die_eps {
                    break;
                }
                if depth >= MAX_CHAIN {
                    return Err(chain_error());
                }
            }
            for (c, w) in done {
                add_to(&mut out, &keyed(c[0], &c), w);
            }
        }
    }
    let mut outcomes: Vec<(Outcome, W)> = out
        .into_iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(k, w)| {
            let contrib: Key = k[1..].into();
            (
                Outcome {
                    order: k[0],
                    contrib,
                },
                w,
            )
        })
        .collect();
    outcomes.sort_by(|a, b| b.0.cmp(&a.0));
    let mass = outcomes.iter().fold(W::zero(), |a, (_, w)| a + w);
    Ok(DieLaw { outcomes, mass })
}

fn chain_error() -> Error {
    Error::Conflict(format!(
        "dice: an exploding die needs more than {MAX_CHAIN} rolls to reach the --tail-eps bound; explode on fewer faces or raise --tail-eps"
    ))
}
