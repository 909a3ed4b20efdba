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
///
/// Exact laws of more than a few values are compared on their numerators
/// over each law's common denominator (found once per law,
/// [`Pmf::over_common_denominator`]): integer products and sums, and one
/// fraction reduced for each answer, where each value took a product and
/// a sum of long fractions, two gcds (`200D100ro1 --vs 20D100!!`, exactly:
/// 9 s of a 10 s answer on 2,657-bit denominators).
pub fn compare<W: Weight>(a: &Pmf<W>, b: &Pmf<W>) -> Comparison<W> {
    // A law of a few values keeps no common denominator of its own
    // ([`crate::pmf::FEW_VALUES`]): its numerators are found here, so that
    // a long law against a short one is compared on integers too
    // (`200D2!! --exact --vs 200D2KH1`: 2.2 s of fractions added one by
    // one, each a gcd of long integers).
    let few = |p: &Pmf<W>| {
        (W::EXACT && p.weights().len() <= crate::pmf::FEW_VALUES)
            .then(|| crate::weight::over_common_denominator(p.weights()))
            .flatten()
    };
    let (fa, fb) = (few(a), few(b));
    if let (Some((na, da)), Some((nb, db))) = (numerators(a, &fa), numerators(b, &fb)) {
        let (win, tie) = compare_numerators(a.min(), na, b.min(), nb);
        let den = da * db;
        let win = W::from_fraction(win, den.clone());
        let tie = W::from_fraction(tie, den);
        let loss = W::one() - &win - &tie;
        return Comparison { win, tie, loss };
    }
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

/// A law's numerators and their common denominator: its own, kept with it,
/// or those found for a law of a few values (`few`).
fn numerators<'a, W: Weight>(
    p: &'a Pmf<W>,
    few: &'a Option<(Vec<num_bigint::BigInt>, num_bigint::BigInt)>,
) -> Option<(&'a [num_bigint::BigInt], &'a num_bigint::BigInt)> {
    p.over_common_denominator()
        .or_else(|| few.as_ref().map(|(n, d)| (&n[..], d)))
}

/// [`compare`] on numerators: `a` of values `amin..` and `b` of values
/// `bmin..`, each over its own denominator; the numerators of P(A > B)
/// and P(A = B) over the product of the denominators.
fn compare_numerators(
    amin: i64,
    na: &[num_bigint::BigInt],
    bmin: i64,
    nb: &[num_bigint::BigInt],
) -> (num_bigint::BigInt, num_bigint::BigInt) {
    use num_traits::Zero;
    let bmax = bmin + nb.len() as i64 - 1;
    let (mut win, mut tie, mut below) = (
        num_bigint::BigInt::zero(),
        num_bigint::BigInt::zero(),
        num_bigint::BigInt::zero(),
    );
    let mut bx = bmin;
    for (x, pa) in (amin..).zip(na) {
        // As in `compare`: past B's largest value, nothing more is added.
        while bx < x && bx <= bmax {
            below += &nb[(bx - bmin) as usize];
            bx += 1;
        }
        if pa.is_zero() {
            continue;
        }
        if !below.is_zero() {
            win += pa * &below;
        }
        if (bmin..=bmax).contains(&x) {
            tie += pa * &nb[(x - bmin) as usize];
        }
    }
    (win, tie)
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
