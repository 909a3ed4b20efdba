//! The law of one roll as the rounds see it: the joint law of a statistic
//! of the roll and its outcome tier ([`per_roll`]), for
//! `hantei odds dice EXPR --until N` ([`crate::rounds`]).
//!
//! The statistic is named by a string key ([`RoundStat`], `--until-stat`).
//! Besides `result`, `natural` and `success`, any statistic of the pool
//! engine a condition can read is accumulated by its name (`count(6)`,
//! `max`, a named term `hope`, a named score `s`): [`RoundStat::Stat`],
//! whose law comes from the engine's joint law of the roll and whose value
//! on real dice from [`super::roll::Facts`].

use std::collections::BTreeMap;

use super::ast::Body;
use super::pool::Stat;
use super::roll::{Facts, Rolled};
use super::{law, Check, Passes};
use crate::error::{Error, Result};
use crate::weight::AddWeight;
use crate::weight::Weight;

/// The statistic a test accumulates, roll after roll.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// A statistic of the pool engine, as a condition names it
    /// (`count(6)`, `max`, `hope`, `s`; 加算ダイス only).
    Stat(Stat),
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
        if let Some((_, s, ..)) = Self::ALL.iter().find(|(name, ..)| *name == k) {
            return Ok(s.clone());
        }
        match super::cond::parse_stat(key) {
            Some(Stat::Total) => Ok(RoundStat::Result),
            Some(Stat::Natural) => Ok(RoundStat::Natural),
            Some(s) => Ok(RoundStat::Stat(s)),
            None => Err(Error::param(
                "--until-stat",
                key,
                format!(
                    "allowed: {}, or a statistic of the roll (max, min, count(6), count(>=5,NAME), a named term or score)",
                    Self::ALL
                        .iter()
                        .map(|(n, ..)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Stable key.
    pub fn key(&self) -> String {
        match self {
            RoundStat::Stat(s) => s.to_string(),
            other => Self::ALL
                .iter()
                .find(|(_, s, ..)| s == other)
                .map_or("result", |(n, ..)| *n)
                .to_string(),
        }
    }

    /// Refuse a statistic the check does not have.
    pub fn validate(&self, check: &Check) -> Result<()> {
        match self {
            RoundStat::Stat(s) => {
                let Some(expr) = check.expr() else {
                    return Err(Error::param(
                        "--until-stat",
                        s,
                        "statistics of the dice apply to 加算ダイス (xDy) commands: xB, xR, xU and D66 have only their result",
                    ));
                };
                super::pool::check_stats(expr, &[resolve(s, check)]).map_err(|e| {
                    Error::param(
                        "--until-stat",
                        s,
                        format!(
                            "{}; allowed: result, natural, success, or a statistic of the roll (max, min, count(6), a named term or score)",
                            e.to_string().trim_start_matches("dice: ")
                        ),
                    )
                })
            }
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
    pub fn of_rolled(&self, check: &Check, rolled: &Rolled, tier: usize) -> i64 {
        match self {
            RoundStat::Result => rolled.value,
            RoundStat::Natural => rolled.natural,
            RoundStat::Success => i64::from(is_success(check, rolled.value, tier)),
            RoundStat::Stat(_) => rolled.value,
        }
    }

    /// The statistic of a roll read by the pool engine's plain rule.
    pub fn of_facts(&self, check: &Check, facts: &Facts, tier: usize) -> i64 {
        match self {
            RoundStat::Result => facts.total,
            RoundStat::Natural => facts.natural,
            RoundStat::Success => i64::from(is_success(check, facts.total, tier)),
            RoundStat::Stat(s) => facts.stat(&resolve(s, check)),
        }
    }

    /// The statistic of the dice this key reads (the result for `result`
    /// and `success`).
    fn own(&self, check: &Check) -> Stat {
        match self {
            RoundStat::Natural => Stat::Natural,
            RoundStat::Stat(s) => resolve(s, check),
            RoundStat::Result | RoundStat::Success => Stat::Total,
        }
    }

    /// The passes of [`per_roll`]: [`Check::joint_passes`] with this
    /// statistic carried.
    pub fn passes(&self, check: &Check) -> Passes {
        check.joint_passes(&[self.own(check)])
    }

    /// Whether the law needs the pool engine (its passes are
    /// [`Passes::Joint`]).
    pub fn needs_engine(&self, check: &Check) -> bool {
        self.passes(check) == Passes::Joint
    }
}

/// A bare name read as a named term or a named score of the check.
fn resolve(s: &Stat, check: &Check) -> Stat {
    match (s, check.expr()) {
        (Stat::Named(n), Some(e)) if super::pool::unit_names(e).iter().any(|u| **u == **n) => {
            Stat::Unit(n.clone())
        }
        _ => s.clone(),
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
        return check.is_success_tier(name);
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
    let mut check = check.clone();
    check.validate()?;
    let check = &check;
    stat.validate(check)?;
    let passes = stat.passes(check);
    super::pool::plan::note(|| {
        format!(
            "passes of one roll of {}: {}",
            check.command,
            passes.describe()
        )
    });
    let Passes::Plain { natural } = passes else {
        // Joint: the pool engine's law of the tiers with the statistic.
        let own = stat.own(check);
        let joint = check.joint_with::<W>(std::slice::from_ref(&own))?;
        let mut out: BTreeMap<(i64, usize), W> = BTreeMap::new();
        for (k, p) in &joint.cells {
            let get = |s: &Stat| joint.index(s).map_or(0, |i| k[i]);
            let tier = if check.tiers.is_empty() {
                0
            } else {
                check.tier_of_stats(&get)
            };
            let s = match stat {
                RoundStat::Success => i64::from(is_success(check, get(&Stat::Total), tier)),
                _ => get(&own),
            };
            out.entry((s, tier)).add_weight(p.clone());
        }
        return Ok(out.into_iter().map(|((s, t), p)| (s, t, p)).collect());
    };
    // (result, natural, p).
    let outcomes: Vec<(i64, i64, W)> = match (&check.command.body, natural) {
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
            RoundStat::Natural => nat,
            RoundStat::Success => i64::from(is_success(check, v, tier)),
            RoundStat::Result | RoundStat::Stat(_) => v,
        };
        out.entry((s, tier)).add_weight(p);
    }
    Ok(out.into_iter().map(|((s, t), p)| (s, t, p)).collect())
}
