//! The class fold ([`super::plan::Algorithm::ClassFold`]): dice placed
//! by classes of outcomes, not outcome by outcome.
//!
//! Outcomes that contribute alike to every statistic but the total (a
//! d6's 2, 3, 4 and 5 when the conditions read the total, the sixes and
//! the ones) form a class. How many dice fall in each class is
//! multinomial, placed class by class by binomials as in the fold; within
//! a class, `m` dice add `m` times its contribution to the counts and the
//! law of their total is the class's own law to the power `m` (computed
//! once for every `m`). The widest class goes last, where the dice left
//! must all fall in it, so its totals are met once, at the end: 80 d6 read
//! by their total, sixes and ones take the ~270,000 cells of the answer
//! times the last class's span, where the fold carried the total through
//! every face.

use super::die::DieLaw;
use super::{add_to, too_many, Ctx, Key, Map, Stat, MAX_STATES};
use crate::error::Result;
use crate::weight::Weight;

/// One class: its outcomes' total contributions (with their probability
/// given the class), its contribution to the other statistics, its mass.
struct Class<W> {
    totals: Vec<(i64, W)>,
    rest: Vec<i64>,
    mass: W,
}

/// The slots summed like the total (the total and the natural dice).
fn summed(s: &Stat) -> bool {
    s.kept_only()
}

/// Whether the class fold applies: statistics that combine without order
/// (checked by the planner), and the natural dice, if read, equal to the
/// total of every outcome (no score map), so one law carries both.
pub fn applies<W: Weight>(law: &DieLaw<W>, ctx: &Ctx) -> bool {
    let nat = ctx.layout.iter().position(|s| *s == Stat::Natural);
    let tot = ctx.layout.iter().position(|s| *s == Stat::Total);
    match (nat, tot) {
        (Some(n), Some(t)) => {
            ctx.total
                && law
                    .outcomes
                    .iter()
                    .all(|(o, _)| o.contrib[n] == o.contrib[t])
        }
        (Some(_), None) => false,
        _ => true,
    }
}

/// Whether two outcomes' contributions fall in one class ([`split`]'s
/// first half equal), with no class written out.
pub fn same_class(a: &[i64], b: &[i64], ctx: &Ctx) -> bool {
    a.iter()
        .zip(b)
        .zip(&ctx.layout)
        .all(|((x, y), s)| summed(s) || x == y)
}

/// An outcome's class (what it contributes to every statistic but the
/// total and the natural dice) and its total (0 where the total is not
/// carried).
pub fn split(contrib: &[i64], ctx: &Ctx) -> (Vec<i64>, i64) {
    let rest = contrib
        .iter()
        .zip(&ctx.layout)
        .map(|(v, s)| if summed(s) { 0 } else { *v })
        .collect();
    (rest, total_slot(ctx).map_or(0, |i| contrib[i]))
}

/// The slot of the total where it is carried (an outcome's class leaves
/// it out: [`split`]).
pub fn total_slot(ctx: &Ctx) -> Option<usize> {
    ctx.layout
        .iter()
        .position(|s| *s == Stat::Total)
        .filter(|_| ctx.total)
}

fn classes<W: Weight>(law: &DieLaw<W>, ctx: &Ctx) -> Vec<Class<W>> {
    let mut out: Vec<Class<W>> = Vec::new();
    for (o, p) in &law.outcomes {
        let (rest, t) = split(&o.contrib, ctx);
        let c = match out.iter_mut().position(|c| c.rest == rest) {
            Some(i) => &mut out[i],
            None => {
                out.push(Class {
                    totals: Vec::new(),
                    rest,
                    mass: W::zero(),
                });
                out.last_mut().expect("pushed")
            }
        };
        c.mass += p.clone();
        match c.totals.iter_mut().find(|(x, _)| *x == t) {
            Some((_, q)) => *q += p.clone(),
            None => c.totals.push((t, p.clone())),
        }
    }
    for c in &mut out {
        let m = c.mass.clone();
        for (_, q) in &mut c.totals {
            *q = q.clone() / &m;
        }
        c.totals.sort_by_key(|(t, _)| *t);
    }
    // The widest class last: its totals are convolved once, at the end.
    out.sort_by_key(|c| c.totals.len());
    out
}

/// The laws of the total of 0, 1, …, `n` dice of one class, each a list
/// of (total, probability) in order of total, every total met kept (a
/// zero weight too, as it came); their multiply-adds are spent as work.
fn powers<W: Weight>(c: &Class<W>, n: i64, work: &mut u64) -> Result<Vec<Vec<(i64, W)>>> {
    let mut out = vec![vec![(0i64, W::one())]];
    let (t_lo, t_hi) = match (c.totals.first(), c.totals.last()) {
        (Some(a), Some(b)) => (a.0, b.0),
        _ => (0, 0),
    };
    for _ in 0..n {
        let last = out.last().expect("one law at least");
        let (lo, hi) = match (last.first(), last.last()) {
            (Some(a), Some(b)) => (a.0.saturating_add(t_lo), b.0.saturating_add(t_hi)),
            _ => (0, 0),
        };
        super::spend(work, last.len() as u64 * c.totals.len() as u64)?;
        // Dense, in the order the sums meet each total (ascending `a`,
        // then ascending `b`), so every weight is the same sum as before.
        let width = usize::try_from(hi.saturating_sub(lo)).unwrap_or(0) + 1;
        let mut next: Vec<Option<W>> = vec![None; width];
        for (a, p) in last {
            for (b, q) in &c.totals {
                let at = (a.saturating_add(*b) - lo) as usize;
                match &mut next[at] {
                    Some(x) => *x += p.clone() * q,
                    slot => *slot = Some(p.clone() * q),
                }
            }
        }
        out.push(
            next.into_iter()
                .enumerate()
                .filter_map(|(i, w)| w.map(|w| (lo + i as i64, w)))
                .collect(),
        );
    }
    Ok(out)
}

/// The work of `powers` for a class of `totals` distinct totals
/// spanning `width`, to `n` dice: each power's totals times the class's.
pub fn powers_work(totals: u64, width: u64, n: u64) -> u64 {
    // Power m spans at most m·width + 1 totals (and no more than
    // totals^m): summed for m = 0..n.
    let mut work: u64 = 0;
    let mut count: u64 = 1;
    for m in 0..n {
        let span = m.saturating_mul(width).saturating_add(1);
        work = work.saturating_add(span.min(count).saturating_mul(totals));
        count = count.saturating_mul(totals.max(1));
    }
    work
}

/// The law of `n` dice of `law` by classes, as distinct cells.
pub fn law<W: Weight>(law: &DieLaw<W>, ctx: &Ctx, n: i64) -> Result<Vec<(Key, W)>> {
    let classes = classes(law, ctx);
    let total_mass = classes.iter().fold(W::zero(), |a, c| a + &c.mass);
    let len = ctx.layout.len();
    // State: [dice placed, the tuple…].
    let mut start = vec![0i64];
    start.extend_from_slice(&ctx.neutral());
    let mut states: Map<W> = Map::default();
    states.insert(start.into(), W::one());
    // The mass of the classes not yet placed.
    let mut left = total_mass.clone();
    let mut work: u64 = 0;
    let mut key: Vec<i64> = vec![0; len + 1];
    let mut cell: Vec<i64> = vec![0; len + 1];
    let Some((last, before)) = classes.split_last() else {
        return Ok(vec![(ctx.neutral(), W::one())]);
    };
    for c in before {
        // A class of the dice not in an earlier class.
        let q = if left.is_zero() {
            W::zero()
        } else {
            c.mass.clone() / &left
        };
        left = left - &c.mass;
        let pw = powers(c, n, &mut work)?;
        let mut next: Map<W> = Map::default();
        // The binomials of the dice left, once per count left.
        let mut rows: Vec<Option<Vec<W>>> = vec![None; n.max(0) as usize + 1];
        for (state, w) in super::sorted(&states) {
            let r = n - state[0];
            let row = rows[r as usize].get_or_insert_with(|| super::fold::binomial_row(r, &q));
            for (m, b) in row.iter().enumerate() {
                if b.is_zero() {
                    continue;
                }
                let m = m as i64;
                super::spend(&mut work, pw[m as usize].len() as u64)?;
                place(ctx, c, state, m, &mut key);
                let wb = w.clone() * b;
                for (t, p) in &pw[m as usize] {
                    cell.copy_from_slice(&key);
                    add_total(ctx, &mut cell[1..], *t);
                    add_to(&mut next, &cell, wb.clone() * p);
                }
            }
            super::check_states(&next)?;
        }
        states = next;
    }
    // The last class takes every die left, so its cells are the answer.
    // States that agree but for the summed slots land on a common row of
    // totals: each such group adds into one dense array, which no hash
    // meets; the count placed (all `n`) is dropped.
    let pw = powers(last, n, &mut work)?;
    let scale = total_mass.powi(n as u32);
    let first_sum = ctx.layout.iter().position(|s| summed(s) && carried(ctx, s));
    if first_sum.is_none() {
        // No total carried: each state is one cell (states that differ
        // only in the dice placed meet), with no row of totals to fill.
        let mut out: Map<W> = Map::with_capacity_and_hasher(states.len(), Default::default());
        for (state, w) in super::sorted(&states) {
            let m = n - state[0];
            super::spend(&mut work, pw[m as usize].len() as u64)?;
            place(ctx, last, state, m, &mut key);
            let wm = pw[m as usize].iter().fold(W::zero(), |a, (_, p)| a + p);
            add_to(&mut out, &key[1..], w.clone() * &scale * &wm);
            super::check_states(&out)?;
        }
        return Ok(out.into_iter().collect());
    }
    let mut groups: Map<usize> = Map::default();
    // Per group: its tuple (summed slots relative to the first summed one),
    // then its entries (base total, weight, dice of the class).
    let mut rows: Vec<Row<W>> = Vec::new();
    for (state, w) in super::sorted(&states) {
        let m = n - state[0];
        super::spend(&mut work, pw[m as usize].len() as u64)?;
        place(ctx, last, state, m, &mut key);
        let tuple = &mut key[1..];
        let base = first_sum.map_or(0, |f| tuple[f]);
        for (i, s) in ctx.layout.iter().enumerate() {
            if summed(s) && carried(ctx, s) {
                tuple[i] = tuple[i].saturating_sub(base);
            }
        }
        let at = *groups.entry(Key::from(&*tuple)).or_insert_with(|| {
            rows.push((Key::from(&*tuple), Vec::new()));
            rows.len() - 1
        });
        rows[at].1.push((base, w.clone() * &scale, m as usize));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(Key, W)> = Vec::new();
    for (tuple, entries) in rows {
        let lo = entries
            .iter()
            .map(|(b, _, m)| b.saturating_add(pw[*m].first().map_or(0, |x| x.0)))
            .min()
            .unwrap_or(0);
        let hi = entries
            .iter()
            .map(|(b, _, m)| b.saturating_add(pw[*m].last().map_or(0, |x| x.0)))
            .max()
            .unwrap_or(0);
        let mut dense = vec![W::zero(); (hi - lo + 1) as usize];
        for (b, w, m) in &entries {
            for (t, p) in &pw[*m] {
                dense[(b + t - lo) as usize] += w.clone() * p;
            }
        }
        for (i, w) in dense.into_iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            let mut k = tuple.clone();
            add_total(ctx, &mut k, lo + i as i64);
            out.push((k, w));
        }
        if out.len() > MAX_STATES {
            return Err(too_many(out.len()));
        }
    }
    Ok(out)
}

/// A group of the last class's states: its tuple, then per state the base
/// total, the weight and the dice of the class.
type Row<W> = (Key, Vec<(i64, W, usize)>);

/// Whether slot `s` is carried (the total only where the caller reads it).
fn carried(ctx: &Ctx, s: &Stat) -> bool {
    ctx.total || *s != Stat::Total
}

/// `state` with `m` dice of class `c` placed, the totals aside: `key`.
fn place<W: Weight>(ctx: &Ctx, c: &Class<W>, state: &[i64], m: i64, key: &mut [i64]) {
    key.copy_from_slice(state);
    key[0] += m;
    for (i, (k, &r)) in key[1..].iter_mut().zip(&c.rest).enumerate() {
        if !ctx.kept_only(i) {
            *k = ctx.combined(i, *k, ctx.times(i, r, m));
        }
    }
}

/// Add `t` to the summed slots of `tuple` (the total, if carried, and the
/// natural dice).
fn add_total(ctx: &Ctx, tuple: &mut [i64], t: i64) {
    for (i, s) in ctx.layout.iter().enumerate() {
        if summed(s) && carried(ctx, s) {
            tuple[i] = tuple[i].saturating_add(t);
        }
    }
}
