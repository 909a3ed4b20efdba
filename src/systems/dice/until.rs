//! Over several rolls (`hantei odds dice EXPR --until N`): extended checks,
//! rounds to defeat and races for any command, on [`crate::rounds`].
//!
//! The command is rolled again and again; each roll's statistic
//! (`--until-stat`, [`RoundStat`]: the result by default) is accumulated
//! until it reaches `N` (`--until`). `--rounds K` caps the rolls (default:
//! where less than `--tail-eps` is still rolling). Tiers of the command
//! (`--tier`) can end the test (`--until-fail-tier`, `--until-success-tier`)
//! or add a bonus (`--until-bonus NAME=+2`). With `--vs EXPR` the two sides
//! race, each to its own threshold (`--vs-until`, default `N`).

use super::per_roll::{per_roll, RoundStat};
use super::pool::plan;
use super::{Check, ID, JA};
use crate::error::{Error, Result};
use crate::report::{Field, OutcomeRow, Report};
use crate::rounds::{self, Effect, Negative, Spec, MAX_ROUNDS, MAX_UNTIL};
use crate::weight::Weight;

/// The rules of a test over several rolls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Until {
    /// Threshold (`--until`).
    pub until: i64,
    /// Cap (`--rounds`); `None`: automatic.
    pub rounds: Option<usize>,
    /// What is accumulated (`--until-stat`).
    pub stat: RoundStat,
    /// Tiers that end the test, failed (`--until-fail-tier`).
    pub fail_tiers: Vec<String>,
    /// Tiers that end the test, done (`--until-success-tier`).
    pub success_tiers: Vec<String>,
    /// Tiers that add a bonus (`--until-bonus NAME=+2`).
    pub bonus: Vec<(String, i64)>,
    /// Results below zero (`--until-negative`).
    pub negative: Negative,
    /// Race: the opposing side's threshold (`--vs-until`; default `until`).
    pub vs_until: Option<i64>,
}

/// Read `NAME=+2` (`--until-bonus`).
pub fn parse_bonus(text: &str) -> Result<(String, i64)> {
    let bad = || {
        Error::param(
            "--until-bonus",
            text,
            "write NAME=BONUS with a tier name and a whole number, e.g. critical=+2 or glitch=-1",
        )
    };
    let (name, b) = text.rsplit_once('=').ok_or_else(bad)?;
    let b = b.trim();
    let digits = b.strip_prefix(['+', '-']).unwrap_or(b);
    let too_big = || {
        Error::param(
            "--until-bonus",
            text,
            format!("a bonus is a whole number from -{MAX_UNTIL} to +{MAX_UNTIL}"),
        )
    };
    let b: i64 = match b.strip_prefix('+').unwrap_or(b).parse() {
        Ok(v) => v,
        // Digits too many for an integer: out of range, not malformed.
        Err(_) if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) => {
            return Err(too_big())
        }
        Err(_) => return Err(bad()),
    };
    if name.trim().is_empty() {
        return Err(bad());
    }
    if b.unsigned_abs() > MAX_UNTIL as u64 {
        return Err(too_big());
    }
    Ok((name.trim().to_string(), b))
}

impl Until {
    /// Refuse what cannot be computed, before any work.
    pub fn validate(&self, check: &Check) -> Result<()> {
        check.clone().validate()?;
        for (flag, n) in [("--until", Some(self.until)), ("--vs-until", self.vs_until)] {
            if let Some(n) = n {
                if !(1..=MAX_UNTIL).contains(&n) {
                    return Err(Error::param(flag, n, format!("allowed 1..={MAX_UNTIL}")));
                }
            }
        }
        if let Some(k) = self.rounds {
            if !(1..=MAX_ROUNDS).contains(&k) {
                return Err(Error::param(
                    "--rounds",
                    k,
                    format!("allowed 1..={MAX_ROUNDS}"),
                ));
            }
        }
        if self.vs_until.is_some() && check.vs.is_none() {
            return Err(Error::Conflict(
                "--vs-until is the opposing side's threshold in a race: give the opposing roll with --vs EXPR".into(),
            ));
        }
        if check.lower_wins {
            return Err(Error::Conflict(
                "--lower-wins does not apply to a race over rounds (--until): each side accumulates towards its own threshold".into(),
            ));
        }
        self.stat.validate(check)?;
        let names = check.tier_names();
        let mut seen: Vec<&str> = Vec::new();
        let lists: [(&str, Vec<&str>); 3] = [
            (
                "--until-fail-tier",
                self.fail_tiers.iter().map(String::as_str).collect(),
            ),
            (
                "--until-success-tier",
                self.success_tiers.iter().map(String::as_str).collect(),
            ),
            (
                "--until-bonus",
                self.bonus.iter().map(|(n, _)| n.as_str()).collect(),
            ),
        ];
        for (flag, list) in &lists {
            for n in list {
                if names.is_empty() {
                    return Err(Error::Conflict(format!(
                        "{flag} names tiers of the command: give them with --tier NAME:COND"
                    )));
                }
                if !names.iter().any(|t| t == n) {
                    return Err(Error::param(
                        flag,
                        n,
                        format!("allowed: the tier names ({})", names.join(", ")),
                    ));
                }
                if seen.contains(n) {
                    return Err(Error::param(
                        flag,
                        n,
                        "a tier has one effect: name it in one of --until-fail-tier, --until-success-tier, --until-bonus, once",
                    ));
                }
                seen.push(n);
            }
        }
        Ok(())
    }

    /// Each tier's effect, by index into [`Check::tier_names`].
    pub fn effects(&self, check: &Check) -> Vec<Effect> {
        check
            .tier_names()
            .iter()
            .map(|n| {
                if self.fail_tiers.contains(n) {
                    Effect::Fail
                } else if self.success_tiers.contains(n) {
                    Effect::Succeed
                } else if let Some((_, b)) = self.bonus.iter().find(|(t, _)| t == n) {
                    Effect::Bonus(*b)
                } else {
                    Effect::Add
                }
            })
            .collect()
    }
}

/// The report of a test over several rolls (or of a race, with `--vs`).
pub fn report<W: Weight>(check: &Check, u: &Until) -> Result<Report<W>> {
    super::chained::memo_scope(|| report_in_scope(check, u))
}

/// [`report`] within its memo's scope ([`super::chained::memo_scope`]).
fn report_in_scope<W: Weight>(check: &Check, u: &Until) -> Result<Report<W>> {
    u.validate(check)?;
    let law = per_roll::<W>(check, &u.stat)?;
    let effects = u.effects(check);
    if rounds::never_reaches(&law, &effects) {
        return Err(Error::param(
            "--until",
            u.until,
            format!(
                "the {} of {} is never positive, so it never adds up to {}: accumulate another --until-stat, or end the test with --until-success-tier",
                u.stat.key(),
                check.command,
                u.until
            ),
        ));
    }
    let cut = cut_of(&check.command, &law);
    let report = match &check.vs {
        None => solo(check, u, &law, &effects)?,
        Some(vs) => {
            let mut other = check.clone();
            other.command = vs.clone();
            other.tiers.clear();
            other.success_tiers = None;
            other.vs = None;
            if u.stat.validate(&other).is_err() {
                return Err(Error::param(
                    "--until-stat",
                    u.stat.key(),
                    format!(
                        "the opposing roll {vs} has no {} to add up (both sides of a race add up the same statistic)",
                        u.stat.key()
                    ),
                ));
            }
            let vs_law = per_roll::<W>(&other, &u.stat)?;
            let vs_until = u.vs_until.unwrap_or(u.until);
            if rounds::never_reaches(&vs_law, &[]) {
                return Err(Error::param(
                    "--vs-until",
                    vs_until,
                    format!(
                        "the {} of {} is never positive, so it never adds up to {vs_until}",
                        u.stat.key(),
                        vs
                    ),
                ));
            }
            let vs_cut = cut_of(vs, &vs_law);
            let r = race(check, u, &law, &effects, &vs_law, vs_until)?;
            if vs_cut.is_zero() {
                r
            } else {
                r.prob("vs_roll_tail_mass", vs_cut)
            }
        }
    };
    Ok(with_cut(report, cut, check.tail_eps))
}

/// The mass an exploding command's law is short of (0 for the others,
/// never below 0 in floating point).
fn cut_of<W: Weight>(cmd: &super::Command, law: &[(i64, usize, W)]) -> W {
    if !super::explodes(cmd) {
        return W::zero();
    }
    let cut = W::one() - &law.iter().fold(W::zero(), |a, (_, _, p)| a + p);
    if cut.to_f64() <= 0.0 {
        W::zero()
    } else {
        cut
    }
}

fn with_cut<W: Weight>(r: Report<W>, cut: W, eps: f64) -> Report<W> {
    if cut.is_zero() {
        return r;
    }
    r.param("tail_eps", eps)
        .prob("roll_tail_mass", cut)
        .note(format!(
            "exploding dice are cut where less than {eps:e} of a roll's probability is left (roll_tail_mass): that mass ends no test and is missing from every round"
        ))
}

fn params<W: Weight>(mut r: Report<W>, check: &Check, u: &Until) -> Report<W> {
    r = check.write_params(r, false);
    r = r.param("until", u.until);
    if let Some(k) = u.rounds {
        r = r.param("rounds", k);
    }
    r = r.param("until_stat", u.stat.key());
    if !u.fail_tiers.is_empty() {
        r = r.param(
            "until_fail_tier",
            serde_json::Value::from(u.fail_tiers.clone()),
        );
    }
    if !u.success_tiers.is_empty() {
        r = r.param(
            "until_success_tier",
            serde_json::Value::from(u.success_tiers.clone()),
        );
    }
    if !u.bonus.is_empty() {
        r = r.param(
            "until_bonus",
            serde_json::Value::from(
                u.bonus
                    .iter()
                    .map(|(n, b)| format!("{n}={b:+}"))
                    .collect::<Vec<_>>(),
            ),
        );
    }
    r = r.param("until_negative", u.negative.key());
    if check.vs.is_some() {
        r = r.param("vs_until", u.vs_until.unwrap_or(u.until));
    }
    r
}

fn rolls_field<W: Weight>(rolls: Vec<W>) -> Field<W> {
    Field::Object(
        rolls
            .into_iter()
            .enumerate()
            .map(|(k, p)| ((k + 1).to_string(), Field::Prob(p)))
            .collect(),
    )
}

fn cap_note(until: i64, rounds: usize, auto: bool, tail: f64, eps: f64) -> String {
    if auto && tail >= eps {
        format!(
            "capped at {rounds} rounds (the most, {MAX_ROUNDS}): {} is still rolling (tail_mass)",
            crate::export::percent(tail)
        )
    } else if auto {
        format!(
            "until {until}: rolled until less than {eps:e} is still rolling, {rounds} rounds (tail_mass)"
        )
    } else {
        format!("until {until}: at most {rounds} rounds (--rounds)")
    }
}

fn solo<W: Weight>(
    check: &Check,
    u: &Until,
    law: &[(i64, usize, W)],
    effects: &[Effect],
) -> Result<Report<W>> {
    let spec = Spec {
        until: u.until,
        rounds: u.rounds,
        negative: u.negative,
        tail_eps: check.tail_eps,
    };
    // A law with a cut tail (exploding dice) shows no uncapped mean.
    let complete = cut_of(&check.command, law).is_zero();
    // The planner's rounds: budgeted (and refused) before any is rolled.
    let budget = rounds::budget(law, effects, &spec)?;
    let l = plan::traced(
        || format!("{} --until {}", check.command, u.until),
        budget.rounds as i64,
        &plan::accumulate(&[budget]),
        || -> Result<_> {
            let (l, work) = rounds::solve_within(law, effects, &spec, &budget, complete)?;
            plan::count(work);
            Ok(l)
        },
    )?;
    let step = rounds::progress(law, effects, u.negative);
    let has_fail = !step.fail.is_zero();
    // Still rolling at the cap, and (exploding dice) the mass cut.
    let not_done = if complete {
        l.tail_mass.clone()
    } else {
        W::one() - &l.p_success() - &l.p_aborted()
    };
    let mut r = Report::bare(ID, JA, l.p_success());
    r.outcomes = vec![OutcomeRow::new("not_done", "not done", "未達成", not_done)];
    if has_fail {
        r.outcomes.push(OutcomeRow::new(
            "aborted",
            "ended by a tier",
            "中断",
            l.p_aborted(),
        ));
    }
    r.outcomes
        .push(OutcomeRow::new("done", "done", "達成", l.p_success()));
    r = params(r, check, u);
    r = r
        .field("p_done_by", Field::Probs(l.p_done_by.clone()))
        .field("expected_rolls", Field::Value(l.expected_rolls.clone()));
    if let (Some(e), true) = (&l.expected_rolls_unbounded, complete) {
        r = r.field("expected_rolls_unbounded", Field::Value(e.clone()));
    }
    if let (Some(work), true) = (l.unbounded_skipped, complete) {
        r = r.note(format!(
            "expected_rolls_unbounded (the mean with no cap) is not given in exact fractions: its fraction would take about {work:.1e} word operations (at most {:e}); run without --exact for it in floating point",
            crate::rounds::MAX_EXACT_MEAN_WORD_OPS
        ));
    }
    r = r
        .field("rolls", rolls_field(l.rolls()))
        .prob("tail_mass", l.tail_mass.clone())
        .field("rounds", Field::Int(l.rounds() as i64));
    if has_fail {
        r = r.prob("p_aborted", l.p_aborted());
    }
    let mut mean = W::zero();
    let dist = step
        .incs
        .iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(d, p)| {
            mean += W::int(*d) * p;
            (d.to_string(), Field::Prob(p.clone()))
        })
        .collect();
    r = r
        .field("progress_distribution", Field::Object(dist))
        .field("progress_mean", Field::Value(mean));
    if !step.succeed.is_zero() {
        r = r.prob("p_succeed_per_roll", step.succeed.clone());
    }
    if has_fail {
        r = r.prob("p_fail_per_roll", step.fail.clone());
    }
    r = r.note(format!(
        "over several rolls: the {} is added up roll after roll ({}); {}",
        u.stat.key(),
        match u.negative {
            Negative::Zero => "a roll below 0 adds 0",
            Negative::Subtract => "a roll below 0 subtracts",
        },
        cap_note(
            u.until,
            l.rounds(),
            l.auto_cap,
            l.tail_mass.to_f64(),
            check.tail_eps
        )
    ));
    Ok(r)
}

fn race<W: Weight>(
    check: &Check,
    u: &Until,
    law: &[(i64, usize, W)],
    effects: &[Effect],
    vs_law: &[(i64, usize, W)],
    vs_until: i64,
) -> Result<Report<W>> {
    let side = rounds::Side {
        law,
        effects,
        until: u.until,
    };
    let vs = rounds::Side {
        law: vs_law,
        effects: &[],
        until: vs_until,
    };
    // The planner's rounds for both sides, budgeted before any is rolled.
    let budgets = rounds::race_budgets(&side, &vs, u.rounds, u.negative, check.tail_eps)?;
    let rl = plan::traced(
        || {
            let vs = check
                .vs
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            format!(
                "{} --until {} --vs {vs} --vs-until {vs_until}",
                check.command, u.until
            )
        },
        budgets[0].rounds as i64,
        &plan::accumulate(&budgets),
        || -> Result<_> {
            let (rl, work) = rounds::race_within(
                side,
                vs,
                &budgets,
                u.negative,
                check.tail_eps,
                check.tie.rule(),
            )?;
            plan::count(work);
            Ok(rl)
        },
    )?;
    let mut r = Report::bare(ID, JA, rl.p_win.clone());
    r = params(r, check, u);
    let k = rl.p_done_by.len();
    r = r
        .prob("p_win", rl.p_win.clone())
        .prob("p_tie", rl.p_tie.clone())
        .prob("p_loss", rl.p_loss.clone())
        .prob("p_tie_same_round", rl.p_tie_same_round.clone());
    if !rl.p_neither.is_zero() {
        r = r.prob("p_neither", rl.p_neither.clone());
    }
    r = r
        .field("p_done_by", Field::Probs(rl.p_done_by.clone()))
        .field("expected_rolls", Field::Value(rl.expected_rolls.clone()))
        .field("rolls", rolls_field(rl.rolls()))
        .prob("tail_mass", rl.tail_mass.clone())
        .field("rounds", Field::Int(k as i64))
        .field(
            "side_p_done_by",
            Field::Probs(rl.sides[0].p_done_by.clone()),
        )
        .field("vs_p_done_by", Field::Probs(rl.sides[1].p_done_by.clone()));
    let auto = u.rounds.is_none();
    r = r.note(format!(
        "race over rounds: both roll each round, the first whose {} adds up to its threshold ({} vs {vs_until}) wins; both on the same round is a tie ({}); {}",
        u.stat.key(),
        u.until,
        check.tie.key(),
        cap_note(u.until, k, auto, rl.tail_mass.to_f64(), check.tail_eps)
    ));
    if check.tie == super::TieBreak::Reroll {
        r = r.note("a tie restarts the race: p_done_by and rolls are those of one race, expected_rolls counts the restarts");
    }
    Ok(r)
}
