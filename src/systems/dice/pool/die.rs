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
use crate::weight::AddWeight;
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

impl<W: Weight> DieLaw<W> {
    /// The longest denominator of its exact weights, in bits (0 in
    /// floating point): what the exact work of its powers grows with.
    pub fn den_bits(&self) -> u64 {
        self.outcomes
            .iter()
            .map(|(_, w)| w.den_bits())
            .max()
            .unwrap_or(0)
    }
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
    chain_cut_at(t, die_eps, None).map(|(depth, cut, _)| (depth, cut))
}

/// [`chain_cut`] where a chain may stop at `cap` ([`super::Ctx::chain_cap`]):
/// once `d` rolls that all explode must show `cap` or more (each
/// exploding face shows at least `m` > 0, so `d·m ≥ cap`), the mass still
/// rolling is kept at that depth rather than cut: `(d, 0, true)`. Where
/// the cut comes first, as [`chain_cut`] with `false`.
pub fn chain_cut_at<W: Weight>(
    t: &PoolTerm,
    die_eps: f64,
    cap: Option<i64>,
) -> Result<(usize, W, bool)> {
    let Some((cond, _)) = explode_cond(t) else {
        return Ok((1, W::zero(), false));
    };
    let later = later_weights::<W>(t);
    let first = t.reroll().map(|_| side_weights::<W>(t));
    chain_cut_weighted(t, &cond, die_eps, cap, first.as_deref(), &later)
}

/// [`chain_cut_at`] with the die's explosion `cond` and its sides' weights
/// known: the first roll's (`None` where the die has no reroll: the later
/// ones) and a later roll's.
fn chain_cut_weighted<W: Weight>(
    t: &PoolTerm,
    cond: &FaceCond,
    die_eps: f64,
    cap: Option<i64>,
    first: Option<&[W]>,
    later: &[W],
) -> Result<(usize, W, bool)> {
    let faces = &t.faces;
    let capped_at = cap.and_then(|cap| {
        if !t.scores.is_empty() || !faces.all_non_negative_numbers() {
            return None;
        }
        let least = faces.values().filter(|&v| cond.holds(v)).min()?;
        (least > 0).then(|| ((cap + least - 1) / least).max(1) as usize)
    });
    let go = |w: &[W]| {
        faces
            .values()
            .zip(w)
            .filter(|(v, _)| cond.holds(*v))
            .fold(W::zero(), |a, (_, p)| a + p)
    };
    let r = go(later);
    let mut left = match first {
        // Without a reroll the first roll's weights are the later ones.
        None => r.clone(),
        Some(first) => go(first),
    };
    let stops = faces
        .values()
        .zip(later)
        .any(|(v, p)| !p.is_zero() && !cond.holds(v));
    if !stops && !left.is_zero() {
        return Err(Error::Conflict(format!(
            "dice: every face of {t} explodes, so the roll never ends; explode on fewer faces"
        )));
    }
    let mut depth = 1;
    loop {
        if left.is_zero() {
            return Ok((depth, left, false));
        }
        if capped_at.is_some_and(|d| depth >= d) {
            return Ok((depth, W::zero(), true));
        }
        if left.to_f64() < die_eps {
            return Ok((depth, left, false));
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
            _ => ctx.combined(i, a[i], b[i]),
        })
        .collect()
}

/// The probability of each side after the term's reroll.
pub fn side_weights<W: Weight>(t: &PoolTerm) -> Vec<W> {
    let n = t.faces.count();
    let base = W::ratio(1, n);
    match t.reroll() {
        None => vec![base; n.max(0) as usize],
        Some((cond, once)) => {
            let hit = t.faces.values().filter(|&v| cond.holds(v)).count() as i64;
            t.faces
                .values()
                .map(|v| {
                    let meets = cond.holds(v);
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
        let top = t.faces.max_value();
        (c.unwrap_or(FaceCond::Cmp(Cmp::Eq, top)), compound)
    })
}

/// A compounding chain's law in exact fractions ([`die_law`]'s loop: the
/// chain ends after d rolls with `go_first * goᵈ⁻¹ * end`, or is cut at
/// `depth` rolls, the mass then still rolling kept where `capped`) on
/// big-integer numerators over powers of one common denominator D of the
/// four laws: after d rolls every weight is a numerator over Dᵈ, so the
/// convolutions multiply and add integers and each value's fraction is
/// reduced once at the end. The same loop on fractions reduced a gcd of
/// numbers growing with the depth at every product and sum:
/// `1D10!!2..10` read exactly (328 rolls deep) took 26 s, now a fraction
/// of a second. `None` in floating point, or where the laws have no
/// common denominator short enough.
fn compound_exact<W: Weight>(
    [go_first, end_first, go, end]: [&crate::pmf::Pmf<W>; 4],
    depth: usize,
    capped: bool,
) -> Option<crate::pmf::Pmf<W>> {
    use num_bigint::BigInt;
    use num_traits::Zero;
    if !W::EXACT {
        return None;
    }
    let laws = [go_first, end_first, go, end];
    let (nums, den) =
        crate::weight::over_common_denominator(laws.iter().flat_map(|l| l.weights()))?;
    // Each law's numerators, from its own minimum.
    let mut parts = Vec::with_capacity(4);
    let mut rest = &nums[..];
    for l in laws {
        let (mine, after) = rest.split_at(l.weights().len());
        parts.push((l.min(), mine.to_vec()));
        rest = after;
    }
    let [gf, ef, g, e]: [(i64, Vec<BigInt>); 4] = parts.try_into().ok()?;
    // `a * b` over the sum of their denominators' powers.
    let convolve = |(amin, a): &(i64, Vec<BigInt>), (bmin, b): &(i64, Vec<BigInt>)| {
        (amin + bmin, crate::pmf::convolve_numerators(a, b))
    };
    // `acc` (over Dᵏ) plus `x` (over Dᵏ, its own minimum).
    let add_into = |acc: &mut (i64, Vec<BigInt>), (xmin, x): &(i64, Vec<BigInt>)| {
        let lo = acc.0.min(*xmin);
        let hi = (acc.0 + acc.1.len() as i64).max(xmin + x.len() as i64);
        if lo < acc.0 {
            let mut v = vec![BigInt::zero(); (acc.0 - lo) as usize];
            v.append(&mut acc.1);
            acc.1 = v;
            acc.0 = lo;
        }
        acc.1.resize((hi - lo) as usize, BigInt::zero());
        for (o, y) in acc.1[(xmin - lo) as usize..].iter_mut().zip(x) {
            *o += y;
        }
    };
    // `done` over D^power, `alive` over D^(power) too (both raised as the
    // chain goes one roll deeper).
    let mut done = ef;
    let mut alive = gf;
    let mut power: u32 = 1;
    for _ in 1..depth {
        if alive.1.iter().all(Zero::is_zero) {
            break;
        }
        // One roll deeper: over D^(power + 1).
        for x in done.1.iter_mut() {
            *x *= &den;
        }
        add_into(&mut done, &convolve(&alive, &e));
        alive = convolve(&alive, &g);
        power += 1;
    }
    if capped && !alive.1.iter().all(Zero::is_zero) {
        add_into(&mut done, &alive);
    }
    let den = num_traits::pow(den, power as usize);
    let w: Vec<W> = done
        .1
        .into_iter()
        .map(|n| {
            if n.is_zero() {
                W::zero()
            } else {
                W::from_fraction(n, den.clone())
            }
        })
        .collect();
    Some(crate::pmf::Pmf::from_weights(done.0, w))
}

/// The law of one die of term `t`.
pub fn die_law<W: Weight>(t: &PoolTerm, ctx: &Ctx) -> Result<DieLaw<W>> {
    let sides = t.faces.sides();
    let weights = side_weights::<W>(t);
    let Some(explosion) = explode_cond(t) else {
        return Ok(plain_die(t, ctx, &sides, &weights));
    };
    // An `ri` reroll takes the initial face only: an explosion's dice roll
    // plain.
    let later = later_weights::<W>(t);
    // How deep a chain is built (its cut is the mass then still rolling).
    // Capped: the mass still rolling at that depth is kept, not cut.
    let first = t.reroll().map(|_| &weights[..]);
    let (chain_depth, _, capped) =
        chain_cut_weighted::<W>(t, &explosion.0, ctx.die_eps, ctx.chain_cap, first, &later)?;
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
    match explosion {
        (cond, true) if sides.iter().all(|s| s.units.is_empty()) => {
            // Compounding plain numbers: the state is the face sum alone,
            // dense. With `go` and `end` the laws of one roll's faces that
            // compound and that stop, the chain ends after d rolls with
            // `goᵈ⁻¹ * end` (`*`: convolution), the first roll by its own
            // weights (`ri`).
            let part = |w: &[W], compound: bool| {
                let pairs: Vec<(i64, W)> = sides
                    .iter()
                    .zip(w)
                    .filter(|(s, p)| cond.holds(s.value) == compound && !p.is_zero())
                    .map(|(s, p)| (s.value, p.clone()))
                    .collect();
                if pairs.is_empty() {
                    // No mass (`from_pairs` of nothing is certainly 0).
                    crate::pmf::Pmf::from_weights(0, vec![W::zero()])
                } else {
                    crate::pmf::Pmf::from_pairs(pairs)
                }
            };
            let (go_first, end_first) = (part(&weights, true), part(&weights, false));
            let (go, end) = (part(&later, true), part(&later, false));
            // Before any work: after d rolls the sums span about d times a
            // roll's, each met by every face (two convolutions a roll).
            let width = (go.max().max(end.max()) - go.min().min(end.min()) + 1).max(1) as f64;
            let d = chain_depth as f64;
            let work = d * d / 2.0 * width * (sides.len() as f64);
            if work > MAX_CHAIN_WORK {
                return Err(chain_work_error(t, chain_depth, work));
            }
            let done = match compound_exact([&go_first, &end_first, &go, &end], chain_depth, capped)
            {
                Some(done) => done,
                None => {
                    let mut done = end_first;
                    let mut alive = go_first;
                    for _ in 1..chain_depth {
                        if alive.total().is_zero() {
                            break;
                        }
                        done = done.add(&alive.convolve(&end));
                        alive = alive.convolve(&go);
                    }
                    if capped && !alive.total().is_zero() {
                        done = done.add(&alive);
                    }
                    done
                }
            };
            // Each face once, in order: written as found, with no map.
            let mut all: Vec<(Outcome, W)> = Vec::with_capacity(done.weights().len());
            all.extend(done.iter().filter(|(_, w)| !w.is_zero()).map(|(face, w)| {
                let contrib = contribution(layout, name, face, &score_of(t, &Score::num(face)));
                (
                    Outcome {
                        order: face,
                        contrib,
                    },
                    w.clone(),
                )
            }));
            return Ok(written_die(all));
        }
        (cond, true) => {
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
                        target.entry(sum).add_weight(w.clone() * p);
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
        (cond, false) => {
            // Each explosion a new die: contributions join along the chain.
            // Sides that contribute alike and alike go on or stop are one
            // step of the chain (a d100 rerolling on 2+ and scoring 50+:
            // three steps, not a hundred), their weights summed.
            let mut steps: Vec<(Key, bool, W, W, W, W)> = Vec::with_capacity(sides.len());
            for ((s, p), q) in sides.iter().zip(&weights).zip(&later) {
                let c = contribution(layout, name, s.value, &score_of(t, s));
                let goes = cond.holds(s.value);
                let i = match steps.iter().position(|x| x.1 == goes && x.0 == c) {
                    Some(i) => i,
                    None => {
                        steps.push((c, goes, W::zero(), W::zero(), W::zero(), W::zero()));
                        steps.len() - 1
                    }
                };
                let x = &mut steps[i];
                W::add_compensated(&mut x.2, &mut x.3, p.clone());
                W::add_compensated(&mut x.4, &mut x.5, q.clone());
            }
            let steps: Vec<(Key, bool, W, W)> = steps
                .into_iter()
                .map(|(c, goes, p, pc, q, qc)| (c, goes, p + pc, q + qc))
                .collect();
            // Before any work: after d rolls the chain's states are at most
            // the multisets of d − 1 of the steps that go on, each met by
            // every step.
            let going = steps.iter().filter(|x| x.1).count() as u64;
            let work = (0..chain_depth as u64).fold(0f64, |w, d| {
                w + super::plan::multisets(going, d).min(super::MAX_STATES as u64) as f64
                    * steps.len() as f64
            });
            if work > super::MAX_WORK as f64 {
                return Err(chain_work_error(t, chain_depth, work));
            }
            if going == 1 {
                let mut written = Vec::with_capacity(steps.len() * chain_depth + 1);
                linear_chain(ctx, &steps, chain_depth, capped, &mut written);
                return Ok(written_die(written));
            }
            let mut done: Map<W> = Map::default();
            let mut active: Map<W> = Map::default();
            active.insert(ctx.neutral(), W::one());
            let mut depth = 0;
            while !active.is_empty() {
                depth += 1;
                let mut next: Map<W> = Map::default();
                for (acc, w) in super::sorted(&active) {
                    for (c, goes, first, later) in &steps {
                        let p = if depth == 1 { first } else { later };
                        if p.is_zero() {
                            continue;
                        }
                        let joined = join(ctx, acc, c);
                        let target = if *goes { &mut next } else { &mut done };
                        add_to(target, &joined, w.clone() * p);
                    }
                }
                active = next;
                if depth >= chain_depth {
                    break;
                }
            }
            if capped {
                for (c, w) in super::sorted(&active) {
                    add_to(&mut done, c, w.clone());
                }
            }
            for (c, w) in done {
                add_to(&mut out, &keyed(c[0], &c), w);
            }
        }
    }
    Ok(finish_die(out))
}

/// The law of a die that does not explode: one outcome per face (faces
/// that contribute alike and sort alike merged, their weights summed in
/// the faces' order), highest order first, with no map between. The same
/// outcomes and sums as [`finish_die`] of the faces' map: a stable sort
/// keeps equal outcomes in the faces' order, as the map's sums took them.
fn plain_die<W: Weight>(t: &PoolTerm, ctx: &Ctx, sides: &[Score], weights: &[W]) -> DieLaw<W> {
    let name = t.name.as_deref();
    let all: Vec<(Outcome, W)> = sides
        .iter()
        .zip(weights)
        .filter(|(_, w)| !w.is_zero())
        .map(|(s, w)| {
            let contrib = contribution(&ctx.layout, name, s.value, &score_of(t, s));
            (
                Outcome {
                    order: s.value,
                    contrib,
                },
                w.clone(),
            )
        })
        .collect();
    written_die(all)
}

/// A die's law from its outcomes as they were written, equal ones not
/// yet merged: highest first, equal outcomes' weights summed in the order
/// they were written (a stable sort keeps it: the sums a map of outcomes
/// would have made adding each as it came), zeros dropped, with the mass.
fn written_die<W: Weight>(mut all: Vec<(Outcome, W)>) -> DieLaw<W> {
    // Outcomes written strictly in order (a plain die's faces, an
    // exploding chain's depths) need no sort: strictly, so no two are
    // equal and the merge below finds nothing to sum either way.
    if all.windows(2).all(|w| w[0].0 < w[1].0) {
        all.reverse();
    } else if !all.windows(2).all(|w| w[0].0 > w[1].0) {
        all.sort_by(|a, b| b.0.cmp(&a.0));
    }
    // Merged in place, each run's weights summed in the order written.
    super::merge_runs(&mut all);
    all.retain(|(_, w)| !w.is_zero());
    let mass = all.iter().fold(W::zero(), |a, (_, w)| a + w);
    DieLaw {
        outcomes: all,
        mass,
    }
}

/// A die's law from its outcomes keyed by [order, contribution…]: the
/// outcomes highest first, with their mass.
fn finish_die<W: Weight>(out: Map<W>) -> DieLaw<W> {
    // Distinct keys: nothing for `written_die` to merge.
    written_die(
        out.into_iter()
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
            .collect(),
    )
}

/// The chain of an exploding die where one step alone goes on (a die
/// exploding on its highest face, as most do): the chain is a single
/// state, whose stopping steps are written at every depth, with no map of
/// states between depths. The stopping steps go to `done` in the order
/// they are written, equal tuples not merged ([`written_die`] merges them
/// in that order): the same sums, in the same order, as the general
/// chain's.
fn linear_chain<W: Weight>(
    ctx: &Ctx,
    steps: &[(Key, bool, W, W)],
    depth_most: usize,
    capped: bool,
    done: &mut Vec<(Outcome, W)>,
) {
    // An outcome of the chain ordered by its total.
    let outcome = |contrib: Key| Outcome {
        order: contrib[0],
        contrib,
    };
    let Some((go, _, go_first, go_later)) = steps.iter().find(|x| x.1) else {
        return;
    };
    let mut acc: Key = ctx.neutral();
    let mut w = W::one();
    let mut depth = 0;
    loop {
        depth += 1;
        for (c, goes, first, later) in steps {
            let p = if depth == 1 { first } else { later };
            if *goes || p.is_zero() {
                continue;
            }
            done.push((outcome(join(ctx, &acc, c)), w.clone() * p));
        }
        let p = if depth == 1 { go_first } else { go_later };
        if p.is_zero() {
            return;
        }
        if depth >= depth_most {
            // Capped: the roll still going reads as it stands.
            if capped {
                done.push((outcome(join(ctx, &acc, go)), w * p));
            }
            return;
        }
        acc = join(ctx, &acc, go);
        w = w * p;
    }
}

/// Most multiply-adds of one compounding die's dense chain (as a sum's,
/// [`crate::systems::dice::law`]'s `MAX_SUM_WORK`: a few seconds).
pub const MAX_CHAIN_WORK: f64 = 5e9;

fn chain_work_error(t: &PoolTerm, depth: usize, work: f64) -> Error {
    Error::Conflict(format!(
        "dice: one die of {t} explodes {depth} rolls deep before the --tail-eps bound, about {work:.1e} steps (at most {MAX_CHAIN_WORK:e} multiply-adds, or {} state steps); explode on fewer faces or raise --tail-eps",
        super::MAX_WORK
    ))
}

fn chain_error() -> Error {
    Error::Conflict(format!(
        "dice: an exploding die needs more than {MAX_CHAIN} rolls to reach the --tail-eps bound; explode on fewer faces or raise --tail-eps"
    ))
}
