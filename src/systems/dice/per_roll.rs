//! The law of one roll as the rounds see it: the joint law of a statistic
//! of the roll and its outcome tier ([`per_roll`]), for
//! `hantei odds dice EXPR --until N` ([`crate::rounds`]).
//!
//! The statistic is named by a string key ([`RoundStat`], `--until-stat`).
//! **Extension point**: a new statistic (the pool engine's `max`, `min`,
//! `count(...)`, named dice) is one more variant, one more row in
//! [`RoundStat::ALL`], and one more arm in [`per_roll`] (and in
//! [`RoundStat::of_rolled`], which `hantei verify` uses to read it off
//! real dice).

use std::collections::BTreeMap;

use super::ast::Body;
use super::roll::Rolled;
use super::{law, Check};
use crate::error::{Error, Result};
use crate::weight::Weight;

/// The statistic a test accumulates, roll after roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoundStat {
    /// The command's result (default): its total (加算ダイス, D66), its
    /// successes (xB, xR, xU with a target), the largest group (xU
    /// without one).
    #[default]
    Result,
    /// The kept dice before any arithmetic (加算ダイス only).
    Natural,
    /// 1 when the roll succeeds, else 0 (成功数): the success tiers with
    /// `--tier`, otherwise the comparison's 成功 (加算ダイス) or at least one
    /// success (counting commands).
    Success,
}

impl RoundStat {
    /// Every statistic: key, English and Japanese description.
    pub const ALL: &'static [(&'static str, RoundStat, &'static str, &'static str)] = &[
        (
            "result",
            RoundStat::Result,
            "the command's result: its total, or its successes for counting commands",
            "コマンドの結果 (合計値、数えるコマンドは成功数)",
        ),
        (
            "natural",
            RoundStat::Natural,
            "the kept dice before arithmetic (xDy only)",
            "修正前の出目 (xDy のみ)",
        ),
        (
            "success",
            RoundStat::Success,
            "1 per successful roll (the success tiers, or the comparison)",
            "成功した回数 (成功の段階、または比較)",
        ),
    ];

    /// The statistic named `key` (`--until-stat`).
    pub fn parse(key: &str) -> Result<RoundStat> {
        let k = key.trim().to_ascii_lowercase();
        Self::ALL
            .iter()
            .find(|(name, ..)| *name == k)
            .map(|(_, s, ..)| *s)
            .ok_or_else(|| {
                Error::param(
                    "--until-stat",
                    key,
                    format!(
                        "allowed: {}",
                        Self::ALL
                            .iter()
                            .map(|(n, ..)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }

    /// Stable key.
    pub fn key(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, s, ..)| *s == self)
            .map_or("result", |(n, ..)| *n)
    }

    /// Refuse a statistic the check does not have.
    pub fn validate(self, check: &Check) -> Result<()> {
        match self {
            RoundStat::Result => Ok(()),
            RoundStat::Natural => match check.command.body {
                Body::Add(_) => Ok(()),
                _ => Err(Error::param(
                    "--until-stat",
                    "natural",
                    "natural applies to 加算ダイス (xDy) commands: xB, xR, xU and D66 have no natural total",
                )),
            },
            RoundStat::Success => {
                if !check.tiers.is_empty() || has_comparison(&check.command.body) {
                    Ok(())
                } else {
                    Err(Error::param(
                        "--until-stat",
                        "success",
                        "success needs a comparison (2D6>=7, 5B6>=5) or --tier NAME:COND",
                    ))
                }
            }
        }
    }

    /// The statistic of a roll judged by the plain rule, in `tier`.
    pub fn of_rolled(self, check: &Check, rolled: &Rolled, tier: usize) -> i64 {
        match self {
            RoundStat::Result => rolled.value,
            RoundStat::Natural => rolled.natural,
            RoundStat::Success => i64::from(is_success(check, rolled.value, tier)),
        }
    }
}

fn has_comparison(body: &Body) -> bool {
    match body {
        Body::Add(a) => a.target.is_some(),
        Body::Barabara(b) => b.target.is_some(),
        Body::Reroll(r) => r.target.is_some(),
        Body::Upper(u) => u.target.is_some(),
        Body::D66(_) => false,
    }
}

/// Whether a result (in `tier`) is a success: a success tier when tiers
/// are given (the `--success-tiers`, or all but the last), otherwise the
/// comparison (加算ダイス) or at least one success (counting commands).
fn is_success(check: &Check, value: i64, tier: usize) -> bool {
    if !check.tiers.is_empty() {
        let names = check.tier_names();
        let name = &names[tier.min(names.len() - 1)];
        return match &check.success_tiers {
            Some(s) => s.iter().any(|n| n == name),
            None => tier + 1 != names.len(),
        };
    }
    match &check.command.body {
        Body::Add(a) => a.target.is_some_and(|(cmp, t)| cmp.holds(value, t)),
        _ => value >= 1,
    }
}

/// The joint law of (`stat`, tier) of one roll of `check`'s command,
/// `(stat, tier index into Check::tier_names, p)` sorted and merged. The
/// tier index is 0 when the check has no tiers. Exploding commands give a
/// law short of one by their cut tail.
pub fn per_roll<W: Weight>(check: &Check, stat: &RoundStat) -> Result<Vec<(i64, usize, W)>> {
    stat.validate(check)?;
    let needs_natural = *stat == RoundStat::Natural
        || check
            .tiers
            .iter()
            .any(|t| t.cond.is_some_and(|c| c.natural));
    // (result, natural, p).
    let outcomes: Vec<(i64, i64, W)> = match (&check.command.body, needs_natural) {
        (Body::Add(a), true) => law::joint::<W>(&a.expr)?
            .into_iter()
            .map(|((v, n), p)| (v, n, p))
            .collect(),
        _ => law::law::<W>(&check.command, check.tail_eps)?
            .value
            .iter()
            .filter(|(_, p)| !p.is_zero())
            .map(|(v, p)| (v, v, p.clone()))
            .collect(),
    };
    let mut out: BTreeMap<(i64, usize), W> = BTreeMap::new();
    for (v, nat, p) in outcomes {
        let tier = if check.tiers.is_empty() {
            0
        } else {
            check.tier_of(v, nat)
        };
        let s = match stat {
            RoundStat::Result => v,
            RoundStat::Natural => nat,
            RoundStat::Success => i64::from(is_success(check, v, tier)),
        };
        *out.entry((s, tier)).or_insert_with(W::zero) += p;
    }
    Ok(out.into_iter().map(|((s, t), p)| (s, t, p)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dice::parse_tier;
    use crate::weight::Exact;

    fn q(n: i64, d: i64) -> Exact {
        Exact::ratio(n, d)
    }

    #[test]
    fn stats_of_one_d6_plus_one() {
        let c = Check::new("1D6+1>=5").unwrap();
        let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
        assert_eq!(r, (2..=7).map(|v| (v, 0, q(1, 6))).collect::<Vec<_>>());
        let n = per_roll::<Exact>(&c, &RoundStat::Natural).unwrap();
        assert_eq!(n, (1..=6).map(|v| (v, 0, q(1, 6))).collect::<Vec<_>>());
        // 1D6+1 ≥ 5 on 4, 5, 6.
        let s = per_roll::<Exact>(&c, &RoundStat::Success).unwrap();
        assert_eq!(s, vec![(0, 0, q(1, 2)), (1, 0, q(1, 2))]);
    }

    #[test]
    fn tiers_and_counting_commands() {
        let mut c = Check::new("1D20").unwrap();
        c.tiers = [
            "critical:natural>=19",
            "fumble:natural==1",
            "hit:>=11",
            "miss",
        ]
        .iter()
        .map(|t| parse_tier(t).unwrap())
        .collect();
        let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
        assert_eq!(r.len(), 20);
        assert!(r.contains(&(20, 0, q(1, 20))) && r.contains(&(1, 1, q(1, 20))));
        assert!(r.contains(&(11, 2, q(1, 20))) && r.contains(&(10, 3, q(1, 20))));
        // Success: critical and hit (fumble is a tier before the last, so it
        // counts too by default — name the success tiers to leave it out).
        c.success_tiers = Some(vec!["critical".into(), "hit".into()]);
        let s = per_roll::<Exact>(&c, &RoundStat::Success).unwrap();
        let p1: Exact = s.iter().filter(|x| x.0 == 1).map(|x| x.2.clone()).sum();
        assert_eq!(p1, q(10, 20));
        let c = Check::new("3B6>=5").unwrap();
        let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
        assert_eq!(r[0], (0, 0, q(8, 27)));
        assert!(RoundStat::Natural.validate(&c).is_err());
        assert!(RoundStat::Success
            .validate(&Check::new("D66").unwrap())
            .is_err());
        assert_eq!(RoundStat::parse("Success").unwrap(), RoundStat::Success);
        assert!(RoundStat::parse("max").is_err());
    }
}
