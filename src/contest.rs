//! Contests: two independent results compared, shared by every system.
//!
//! Each side's result is a [`Pmf`] over an ordered integer score (a tier
//! index, an achieved value, a total, a hit count). [`compare`] gives
//! P(first higher), P(equal), P(second higher); the tie rules and rerolled
//! ties are applied on top.

use crate::pmf::Pmf;
use crate::weight::Weight;

/// P(A > B), P(A = B), P(A < B) for independent A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison<W> {
    /// P(A > B).
    pub win: W,
    /// P(A = B).
    pub tie: W,
    /// P(A < B).
    pub loss: W,
}

/// Who takes a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieRule {
    /// Report the tie separately (no one wins it).
    Separate,
    /// The first side (attacker, active) takes it.
    First,
    /// The second side (defender, passive) takes it.
    Second,
    /// Ties are rolled again until someone wins.
    Reroll,
}

/// Compare two independent scores.
pub fn compare<W: Weight>(a: &Pmf<W>, b: &Pmf<W>) -> Comparison<W> {
    let mut win = W::zero();
    let mut tie = W::zero();
    // P(B < x) accumulated as x rises.
    let mut below = W::zero();
    let mut bx = b.min();
    for (x, pa) in a.iter() {
        // Past B's largest value every value is below: stop there, so a
        // law moved far away (`1D6+1000000000 --vs 1D6`) is no billion
        // steps.
        while bx < x && bx <= b.max() {
            below += b.p(bx);
            bx += 1;
        }
        win += pa.clone() * &below;
        tie += pa.clone() * &b.p(x);
    }
    let loss = W::one() - &win - &tie;
    Comparison { win, tie, loss }
}

impl<W: Weight> Comparison<W> {
    /// Apply a tie rule: the tie probability is moved to the side that takes
    /// it (or, for [`TieRule::Reroll`], spread by conditioning on a decisive
    /// roll). Returns the comparison after the rule.
    pub fn with_tie_rule(&self, rule: TieRule) -> Comparison<W> {
        match rule {
            TieRule::Separate => self.clone(),
            TieRule::First => Comparison {
                win: self.win.clone() + &self.tie,
                tie: W::zero(),
                loss: self.loss.clone(),
            },
            TieRule::Second => Comparison {
                win: self.win.clone(),
                tie: W::zero(),
                loss: self.loss.clone() + &self.tie,
            },
            TieRule::Reroll => match self.expected_rolls() {
                Some(_) => {
                    let decisive = W::one() - &self.tie;
                    Comparison {
                        win: self.win.clone() / &decisive,
                        tie: W::zero(),
                        loss: self.loss.clone() / &decisive,
                    }
                }
                None => self.clone(),
            },
        }
    }

    /// The probability of an event no tie produces (a critical success, a
    /// margin of at least one, …) after a tie rule: unchanged unless ties
    /// are rolled again, then conditioned on a decisive roll (the test is
    /// decided by its last roll), `p / (1 − P(tie))`.
    pub fn decisive(&self, rule: TieRule, p: W) -> W {
        match (rule, self.expected_rolls()) {
            (TieRule::Reroll, Some(e)) => p * &e,
            _ => p,
        }
    }

    /// Expected number of rolls when ties are rolled again:
    /// `1 / (1 − P(tie))`; `None` when every roll ties.
    pub fn expected_rolls(&self) -> Option<W> {
        let decisive = W::one() - &self.tie;
        if decisive.is_zero() {
            None
        } else {
            Some(W::one() / decisive)
        }
    }
}
