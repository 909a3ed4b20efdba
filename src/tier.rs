//! Ordered outcome tiers and their laws.
//!
//! Each system has an enum of tiers ordered worst to best (`Fumble < Failure
//! < Success < …`). A [`TierLaw`] is the probability of each tier, indexed by
//! the tier's position in that order.

use std::marker::PhantomData;

use crate::pmf::Pmf;
use crate::weight::Weight;

/// An outcome tier of a system, ordered worst first.
pub trait Tier: Copy + Ord + std::fmt::Debug + 'static {
    /// Every tier, worst first.
    const ALL: &'static [Self];
    /// Stable machine key (JSON, CSV).
    fn key(self) -> &'static str;
    /// English label.
    fn en(self) -> &'static str;
    /// Japanese label, as the seed writes it.
    fn ja(self) -> &'static str;
    /// Whether this tier counts as success (for `p_success`).
    fn is_success(self) -> bool;
    /// Position in [`Tier::ALL`].
    fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|t| *t == self)
            .expect("tier is listed in ALL")
    }
}

/// The probability of each tier of `T`.
#[derive(Clone, Debug, PartialEq)]
pub struct TierLaw<T, W> {
    p: Vec<W>,
    _tier: PhantomData<T>,
}

impl<T: Tier, W: Weight> TierLaw<T, W> {
    /// From one probability per tier, in [`Tier::ALL`] order.
    pub fn new(p: Vec<W>) -> Self {
        assert_eq!(p.len(), T::ALL.len(), "one probability per tier");
        TierLaw {
            p,
            _tier: PhantomData,
        }
    }

    /// From `(tier, probability)` pairs; repeated tiers add up.
    pub fn from_pairs<I: IntoIterator<Item = (T, W)>>(pairs: I) -> Self {
        let mut p = vec![W::zero(); T::ALL.len()];
        for (t, w) in pairs {
            p[t.index()] += w;
        }
        Self::new(p)
    }

    /// Certainly `t`.
    pub fn certain(t: T) -> Self {
        Self::from_pairs([(t, W::one())])
    }

    /// `P(tier = t)`.
    pub fn p(&self, t: T) -> W {
        self.p[t.index()].clone()
    }

    /// `P(tier ≥ t)`.
    pub fn at_least(&self, t: T) -> W {
        self.p[t.index()..].iter().fold(W::zero(), |a, b| a + b)
    }

    /// `P(tier counts as success)`.
    pub fn p_success(&self) -> W {
        T::ALL
            .iter()
            .filter(|t| t.is_success())
            .fold(W::zero(), |a, t| a + &self.p[t.index()])
    }

    /// `(tier, probability)`, worst first.
    pub fn iter(&self) -> impl Iterator<Item = (T, &W)> + '_ {
        T::ALL.iter().copied().zip(self.p.iter())
    }

    /// Sum of the probabilities (1 for a proper law).
    pub fn total(&self) -> W {
        self.p.iter().fold(W::zero(), |a, b| a + b)
    }

    /// As a [`Pmf`] over tier indices (0 = worst), for contests.
    pub fn to_pmf(&self) -> Pmf<W> {
        Pmf::from_weights(0, self.p.clone())
    }
}
