//! Extended tests: roll repeatedly, accumulating progress, until a target is
//! reached — shared by `multiplier` (K successes) and `hit-pool` (summed
//! hits).
//!
//! Each roll's progress is a [`Pmf`] over increments `≥ 0`; the outcome
//! [`ABORT`] ends the whole test in failure (e.g. a critical glitch under
//! `critical_glitch_ends`). The law of each roll may depend on the roll's
//! index (a pool that shrinks).

use crate::pmf::Pmf;
use crate::weight::Weight;

/// Outcome of one roll that ends the test in failure.
pub const ABORT: i64 = -1;

/// The law of an extended test.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtendedLaw<W> {
    /// `p_done_by[k]` = P(target reached within `k + 1` rolls).
    pub p_done_by: Vec<W>,
    /// P(the test was aborted within the roll limit).
    pub p_aborted: W,
    /// Expected number of rolls made (stopping at done, abort or the limit).
    pub expected_rolls: W,
}

impl<W: Weight> ExtendedLaw<W> {
    /// P(target reached within the roll limit).
    pub fn p_done(&self) -> W {
        self.p_done_by.last().cloned().unwrap_or_else(W::zero)
    }
}

/// Run an extended test with at most `max_rolls` rolls; `roll(i)` is the
/// law of the progress made by roll `i` (0-based).
pub fn run<W: Weight, F: Fn(usize) -> Pmf<W>>(
    target: i64,
    max_rolls: usize,
    roll: F,
) -> ExtendedLaw<W> {
    let target = target.max(0);
    // going[s] = P(still rolling with s progress made), s < target.
    let mut going = vec![W::zero(); target.max(1) as usize];
    let mut done = W::zero();
    if target == 0 {
        done = W::one();
    } else {
        going[0] = W::one();
    }
    let mut aborted = W::zero();
    let mut expected = W::zero();
    let mut p_done_by = Vec::with_capacity(max_rolls);
    for i in 0..max_rolls {
        let alive = going.iter().fold(W::zero(), |a, b| a + b);
        if alive.is_zero() {
            p_done_by.push(done.clone());
            continue;
        }
        expected += &alive;
        let step = roll(i);
        let mut next = vec![W::zero(); going.len()];
        for (s, ps) in going.iter().enumerate() {
            if ps.is_zero() || target == 0 {
                continue;
            }
            for (d, pd) in step.iter() {
                if pd.is_zero() {
                    continue;
                }
                let mass = ps.clone() * pd;
                if d == ABORT {
                    aborted += mass;
                } else if s as i64 + d >= target {
                    done += mass;
                } else {
                    next[(s as i64 + d) as usize] += mass;
                }
            }
        }
        going = next;
        p_done_by.push(done.clone());
    }
    ExtendedLaw {
        p_done_by,
        p_aborted: aborted,
        expected_rolls: expected,
    }
}

/// Expected rolls until the test ends (target reached or aborted) with no
/// roll limit, when every roll has the same law `step`. `None` when a roll
/// can never make progress or end the test.
pub fn expected_rolls_unbounded<W: Weight>(target: i64, step: &Pmf<W>) -> Option<W> {
    if target <= 0 {
        return Some(W::zero());
    }
    let stay = step.p(0);
    let leave = W::one() - &stay;
    if leave.is_zero() {
        return None;
    }
    // e[r] = expected rolls with r progress still needed.
    let mut e: Vec<W> = vec![W::zero(); target as usize + 1];
    for r in 1..=target as usize {
        let mut acc = W::one();
        for (d, pd) in step.iter() {
            if d >= 1 && (d as usize) < r {
                acc += pd.clone() * &e[r - d as usize];
            }
        }
        e[r] = acc / &leave;
    }
    e.pop()
}
