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

/// How deep one die's exploding chain is built and the mass it cuts: the
/// first depth where the mass still rolling falls below `die_eps` (or
/// nothing rolls on), and that mass. The mass still rolling after `d`
/// rolls is `r₁·rᵈ⁻¹` (`r₁`, `r`: the chance the first and a later roll
/// explode), so the cut is known without building the law, exactly, and in
/// floating point without the cancellation of `1 − mass`: the tail of a
/// roll of many exploding dice is their cuts combined
/// (`tail_of_cuts` in `pool`). `(1, 0)` for a die that does not explode.
pub fn chain_cut<W: Weight>(t: &PoolTerm, die_eps: f64) -> Result<(usize, W)> {
    let Some((cond, _)) = explode_cond(t) else {
        return Ok((1, W::zero()));
    };
    let sides = t.faces.sides();
    let go = |w: &[W]| {
        sides
            .iter()
            .zip(w)
            .filter(|(s, _)| cond.holds(s.value))
            .fold(W::zero(), |a, (_, p)| a + p)
    };
    let later = later_weights::<W>(t);
    let r = go(&later);
    let mut left = go(&side_weights::<W>(t));
    let stops = sides
        .iter()
        .zip(&later)
        .any(|(s, p)| !p.is_zero() && !cond.holds(s.value));
    if !stops && !left.is_zero() {
        return Err(Error::Conflict(format!(
            "dice: every face of {t} explodes, so the roll never ends; explode on fewer faces"
        )));
    }
    let mut depth = 1;
    loop {
        if left.is_zero() || left.to_f64() < die_eps {
            return Ok((depth, left));
        }
        if depth >= MAX_CHAIN {
            return Err(chain_error());
        }
        depth += 1;
        left = left * &r;
    }
}

/// The weights of the sides an explosion adds: after the term's reroll,
/// or plain for `ri` (which takes the die's initial face only).
fn later_weights<W: Weight>(t: &PoolTerm) -> Vec<W> {
    if t.rerolls_first_only() {
        let n = t.faces.count();
        vec![W::ratio(1, n); n.max(0) as usize]
    } else {
        side_weights(t)
    }
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
    let later = later_weights::<W>(t);
    // How deep a chain is built (its cut is the mass then still rolling).
    let (chain_depth, _) = chain_cut::<W>(t, ctx.die_eps)?;
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
                active = next;
                if depth >= chain_depth {
                    break;
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
                active = next;
                if depth >= chain_depth {
                    break;
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
