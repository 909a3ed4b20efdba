//! `levels` (seed 003, RULES.md §4): levelled d100 roll-under
//! (レベル付き下方判定), with a required level and level bidding in contests.
//!
//! # Skills
//!
//! A skill (技能) is a list of target values (判定値) by level,
//! `[v1, v2, …, vk]`, each in 0..=100, each strictly below the one before
//! unless every lower level is 100 (then it may be 100 too) ([`Skill::new`];
//! a bad list is [`Error::InvalidLevels`] naming the level). The seed says a
//! level after `[1:100]` may take 1–100 but after `[1:50]` 0–49; we allow 0
//! in both cases (a 0 level never succeeds, so it changes nothing).
//!
//! Conversions: [`Skill::from_brp`] — a BRP skill `s` in 0..=100 gives
//! `[s, ⌊s/2⌋, ⌊s/5⌋, ⌊s/10⌋]`, dropping the first level 2–4 value below 10
//! and every level after it (level 1 is kept whatever its value: the seed's
//! "計算結果" are the derived levels); [`Skill::from_ability`] — an ability
//! `a ≥ 1` used as "×n" gives `[5a, 4a, 3a, 2a, a]`, each capped at 100.
//!
//! # Check (判定)
//!
//! The player declares a level `L`, the GM has set a required level
//! (難易度) `D ≥ 1`; d100 gives `r` in 1..=100 (00 read as 100). Tiers
//! ([`Outcome`]), worst first:
//! * `failure` (失敗): `r > v_L`;
//! * `short` (未達): `r ≤ v_L` but `L < D` — no penalty, no result;
//! * `achieved` (達成): `r ≤ v_L` and `L ≥ D`;
//! * `critical` (クリティカル): achieved and `r` in the critical band of
//!   `v_L` ([`CriticalRule`]: `exact` (default) `r = v_L`; `top5` the seed's
//!   footnote, the top `max(1, ⌊v_L/20⌋)` values of the band).
//!
//! There are no fumbles (ファンブル) or automatic failures. `p_success` is
//! P(achieved or critical).
//!
//! Unknown difficulty: a prior ([`Prior`], weights over `D = 1..=m`,
//! normalised exactly) gives `P(achieved | L) = v_L/100 × P(D ≤ L)`. The
//! report has a by-level table and `best_level`: the level with the highest
//! `p_success`, ties going to the lowest level (the safest declaration
//! among equals). Without a declared level the report's outcomes are those
//! of the best level.
//!
//! # Contest (対抗判定)
//!
//! The attacker (能動側) declares `La` and rolls under `va[La]`; a failure
//! ends it (the attack fails, the defender does not roll). On a success the
//! defender (受動側) must declare `Ld ≥ La`; a lower level cannot stop the
//! attack, nor can a defender without such a level: the attack lands.
//! Otherwise the defender rolls under `vd[Ld]`: success stops the attack,
//! failure lets it land. The defender's best reply ([`Reply::Best`],
//! default) is `Ld = La`, the lowest allowed level with the highest value,
//! so `P(lands | La) = va[La]/100 × (1 − vd[La]/100)` (factor 1 if the
//! defender lacks level `La`). [`Reply::Level`] fixes the defender's level
//! instead. Criticals are the attacker's only, and only when the attack
//! lands. The report gives `by_level` (every `La`: `p_lands`, which
//! includes criticals, and `p_critical`), `best_level` (highest `p_lands`,
//! ties to the lowest level), and the outcomes, `p_win` and `p_loss` of the
//! declared level (or the best one).
//!
//! The best level is always chosen in exact arithmetic, so `f64` reports
//! never break a tie differently.

use crate::error::{check_min, check_range, Error, Result};
use crate::report::{Field, Report};
use crate::tier::{Tier, TierLaw};
use crate::weight::{Exact, Weight};

/// System id.
pub const ID: &str = "levels";
/// The seed's name for a check.
pub const JA: &str = "レベル付き下方判定";

/// Faces of the percentile roll.
const D100: u32 = 100;

/// A skill: target values by level, level 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    values: Vec<u32>,
}

impl Skill {
    /// A validated skill (see the module doc for the rule).
    pub fn new(values: &[i64]) -> Result<Skill> {
        if values.is_empty() {
            return Err(Error::param(
                "--skill",
                "",
                "a skill needs at least one level value",
            ));
        }
        let mut out: Vec<u32> = Vec::with_capacity(values.len());
        for (i, &v) in values.iter().enumerate() {
            let bad = |reason: String| Error::InvalidLevels {
                level: i + 1,
                value: v,
                reason,
            };
            let v32 = u32::try_from(v)
                .ok()
                .filter(|&x| x <= D100)
                .ok_or_else(|| bad("must be in 0..=100".into()))?;
            if let Some(&prev) = out.last() {
                let all_hundred = out.iter().all(|&x| x == D100);
                if !all_hundred && v32 >= prev {
                    return Err(bad(format!("must be below level {i}'s {prev}")));
                }
            }
            out.push(v32);
        }
        Ok(Skill { values: out })
    }

    /// From a BRP skill value `s` in 0..=100: `[s, ⌊s/2⌋, ⌊s/5⌋, ⌊s/10⌋]`
    /// up to (not including) the first derived level below 10.
    pub fn from_brp(s: i64) -> Result<Skill> {
        check_range("--from-brp", s, 0, i64::from(D100))?;
        let mut values = vec![s];
        values.extend([2, 5, 10].iter().map(|d| s / d).take_while(|&x| x >= 10));
        Skill::new(&values)
    }

    /// From an ability `a ≥ 1` used as "×n": `[5a, 4a, 3a, 2a, a]`, capped
    /// at 100.
    pub fn from_ability(a: i64) -> Result<Skill> {
        check_min("--from-ability", a, 1)?;
        let values: Vec<i64> = (1..=5)
            .rev()
            .map(|k: i64| a.saturating_mul(k).min(i64::from(D100)))
            .collect();
        Skill::new(&values)
    }

    /// Number of levels.
    pub fn levels(&self) -> usize {
        self.values.len()
    }

    /// Target values, level 1 first.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// Target value of a 1-based level, if the skill has it.
    pub fn value(&self, level: usize) -> Option<u32> {
        level
            .checked_sub(1)
            .and_then(|i| self.values.get(i).copied())
    }

    /// Check that `level` is one of this skill's levels; `flag` names it in
    /// the error.
    fn check_level(&self, flag: &str, level: i64) -> Result<usize> {
        check_range(flag, level, 1, self.levels() as i64)?;
        usize::try_from(level).map_err(|_| Error::param(flag, level, "must be a level"))
    }

    fn json(&self) -> serde_json::Value {
        self.values.clone().into()
    }
}

/// Which rolls of a success are critical.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CriticalRule {
    /// `r = v_L` (the seed's rule; default).
    #[default]
    Exact,
    /// The top `max(1, ⌊v_L/20⌋)` values of the band (the seed's footnote:
    /// the top 5%, rounded down).
    Top5,
}

impl CriticalRule {
    /// How many rolls of the band `1..=value` are critical (0 for value 0).
    pub fn band(self, value: u32) -> u32 {
        match (self, value) {
            (_, 0) => 0,
            (CriticalRule::Exact, _) => 1,
            (CriticalRule::Top5, v) => (v / 20).max(1),
        }
    }

    /// Whether roll `r` (already a success under `value`) is critical.
    fn is_critical(self, r: u32, value: u32) -> bool {
        r <= value && r + self.band(value) > value
    }

    /// Stable key for reports.
    pub fn key(self) -> &'static str {
        match self {
            CriticalRule::Exact => "exact",
            CriticalRule::Top5 => "top5",
        }
    }
}

/// A prior over the unknown required level: weights for `D = 1, 2, …, m`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prior {
    weights: Vec<i64>,
    total: i64,
}

impl Prior {
    /// Largest single weight accepted.
    pub const MAX_WEIGHT: i64 = 1_000_000_000;

    /// Validated weights (each 0..=[`Prior::MAX_WEIGHT`], at most 1000 of
    /// them, not all zero). Errors name `--prior`.
    pub fn new(weights: &[i64]) -> Result<Prior> {
        let text = || {
            weights
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        if weights.is_empty() || weights.len() > 1000 {
            return Err(Error::param("--prior", text(), "give 1 to 1000 weights"));
        }
        if let Some(w) = weights
            .iter()
            .find(|w| !(0..=Self::MAX_WEIGHT).contains(*w))
        {
            return Err(Error::param(
                "--prior",
                w,
                format!("each weight must be in 0..={}", Self::MAX_WEIGHT),
            ));
        }
        let total: i64 = weights.iter().sum();
        if total == 0 {
            return Err(Error::param(
                "--prior",
                text(),
                "at least one weight must be positive",
            ));
        }
        Ok(Prior {
            weights: weights.to_vec(),
            total,
        })
    }

    /// `P(D = d)`.
    pub fn p<W: Weight>(&self, d: usize) -> W {
        let w = d
            .checked_sub(1)
            .and_then(|i| self.weights.get(i))
            .copied()
            .unwrap_or(0);
        W::ratio(w, self.total)
    }

    /// `P(D ≤ level)`.
    pub fn at_most<W: Weight>(&self, level: usize) -> W {
        W::ratio(self.weights.iter().take(level).sum(), self.total)
    }

    /// Largest `D` with a weight.
    pub fn max_difficulty(&self) -> usize {
        self.weights.len()
    }
}

/// The required level (難易度): known, or a prior.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Required {
    /// The GM's required level `D ≥ 1`.
    Known(u32),
    /// Unknown; weights over `D = 1..=m`.
    Prior(Prior),
}

impl Required {
    /// A known required level, validated `≥ 1` (error names `--difficulty`).
    pub fn known(d: i64) -> Result<Required> {
        check_min("--difficulty", d, 1)?;
        Ok(Required::Known(u32::try_from(d).unwrap_or(u32::MAX)))
    }

    /// `P(D ≤ level)`.
    fn reached<W: Weight>(&self, level: usize) -> W {
        match self {
            Required::Known(d) => {
                if *d as usize <= level {
                    W::one()
                } else {
                    W::zero()
                }
            }
            Required::Prior(p) => p.at_most(level),
        }
    }
}

/// Outcome tiers of a check, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// `r > v_L` (失敗).
    Failure,
    /// A success below the required level (未達): no penalty, no result.
    Short,
    /// A success at or above the required level (達成).
    Achieved,
    /// Achieved, on the critical band (クリティカル).
    Critical,
}

impl Tier for Outcome {
    const ALL: &'static [Self] = &[
        Outcome::Failure,
        Outcome::Short,
        Outcome::Achieved,
        Outcome::Critical,
    ];
    fn key(self) -> &'static str {
        match self {
            Outcome::Failure => "failure",
            Outcome::Short => "short",
            Outcome::Achieved => "achieved",
            Outcome::Critical => "critical",
        }
    }
    fn en(self) -> &'static str {
        match self {
            Outcome::Failure => "failure",
            Outcome::Short => "short of the required level",
            Outcome::Achieved => "achieved",
            Outcome::Critical => "critical",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            Outcome::Failure => "失敗",
            Outcome::Short => "未達",
            Outcome::Achieved => "達成",
            Outcome::Critical => "クリティカル",
        }
    }
    fn is_success(self) -> bool {
        self >= Outcome::Achieved
    }
}

/// The law of a roll under `value` split into failure / success-but-not-
/// good-enough (`low`) / good (`high`, then split by the critical band).
/// `p_good` is P(the success counts) — P(D ≤ L) for a check, P(the defence
/// does not stop it) for a contest.
fn split_law<T: Tier, W: Weight>(
    value: u32,
    critical: CriticalRule,
    p_good: &W,
    [fail, low, good, crit]: [T; 4],
) -> TierLaw<T, W> {
    let band = critical.band(value);
    let p = |n: u32| W::ratio(i64::from(n), i64::from(D100));
    TierLaw::from_pairs([
        (fail, p(D100 - value)),
        (low, p(value) * &p_good.complement()),
        (good, p(value - band) * p_good),
        (crit, p(band) * p_good),
    ])
}

/// The level with the highest `score` (ties → lowest level), 1-based.
fn best_by<F: Fn(usize) -> Exact>(levels: usize, score: F) -> usize {
    let mut best = (1, score(1));
    for l in 2..=levels {
        let s = score(l);
        if s > best.1 {
            best = (l, s);
        }
    }
    best.0
}

/// A check: a skill, a declared level (or none: the best one), the
/// required level and the critical rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    skill: Skill,
    declared: Option<usize>,
    required: Required,
    critical: CriticalRule,
}

impl Check {
    /// A validated check: `level` (if given) must be one of the skill's
    /// levels (error names `--level` and the allowed range).
    pub fn new(
        skill: Skill,
        level: Option<i64>,
        required: Required,
        critical: CriticalRule,
    ) -> Result<Check> {
        let declared = level.map(|l| skill.check_level("--level", l)).transpose()?;
        Ok(Check {
            skill,
            declared,
            required,
            critical,
        })
    }

    /// The level declared, or the best level if none was.
    pub fn level(&self) -> usize {
        self.declared.unwrap_or_else(|| self.best_level())
    }

    /// The level with the highest `p_success` (ties → lowest).
    pub fn best_level(&self) -> usize {
        best_by(self.skill.levels(), |l| self.law_at::<Exact>(l).p_success())
    }

    #[doc(hidden)]
    pub fn law_at<W: Weight>(&self, level: usize) -> TierLaw<Outcome, W> {
        let value = self.skill.value(level).unwrap_or(0);
        split_law(
            value,
            self.critical,
            &self.required.reached::<W>(level),
            [
                Outcome::Failure,
                Outcome::Short,
                Outcome::Achieved,
                Outcome::Critical,
            ],
        )
    }

    /// Exact law of the tiers at [`Check::level`] (mixed over the prior if
    /// the difficulty is unknown).
    pub fn law<W: Weight>(&self) -> TierLaw<Outcome, W> {
        self.law_at(self.level())
    }

    /// The plain rule: d100 roll `r` (1..=100) at [`Check::level`] against
    /// the required level `difficulty` actually set (for a prior, the one
    /// drawn).
    pub fn classify(&self, r: u32, difficulty: u32) -> Outcome {
        let level = self.level();
        let value = self.skill.value(level).unwrap_or(0);
        if r > value {
            Outcome::Failure
        } else if (level as u64) < u64::from(difficulty) {
            Outcome::Short
        } else if self.critical.is_critical(r, value) {
            Outcome::Critical
        } else {
            Outcome::Achieved
        }
    }
}

/// The report of a check: tiers at the level used, `p_critical`,
/// `by_level` (`level`, `value`, `p_success`, `p_critical`, `p_short`) and
/// `best_level`.
pub fn report<W: Weight>(check: &Check) -> Report<W> {
    crate::systems::dice::pool::plan::note(|| {
        "1D100 read under the declared level's value (判定値): each tier is its faces counted over 100, no dice algorithm to choose".to_string()
    });
    let level = check.level();
    let law = check.law::<W>();
    let mut r = Report::from_tiers(ID, JA, &law)
        .param("skill", check.skill.json())
        .param("level", level)
        .param("level_declared", check.declared.is_some());
    r = match &check.required {
        Required::Known(d) => r.param("difficulty", *d),
        Required::Prior(p) => r.param("prior", p.weights.clone()),
    };
    let rows = (1..=check.skill.levels())
        .map(|l| {
            let law = check.law_at::<W>(l);
            vec![
                ("level".to_string(), Field::Int(l as i64)),
                (
                    "value".to_string(),
                    Field::Int(i64::from(check.skill.value(l).unwrap_or(0))),
                ),
                ("p_success".to_string(), Field::Prob(law.p_success())),
                (
                    "p_critical".to_string(),
                    Field::Prob(law.p(Outcome::Critical)),
                ),
                ("p_short".to_string(), Field::Prob(law.p(Outcome::Short))),
            ]
        })
        .collect();
    let best = check.best_level();
    r = r
        .param("critical", check.critical.key())
        .prob("p_critical", law.p(Outcome::Critical))
        .prob("p_short", law.p(Outcome::Short))
        .field("by_level", Field::Rows(rows))
        .field("best_level", Field::Int(best as i64));
    if check.declared.is_none() {
        r = r.note(format!(
            "no level declared: the outcomes are those of the best level, {best}"
        ));
    }
    let reachable = match &check.required {
        Required::Known(d) => *d as usize <= check.skill.levels(),
        Required::Prior(p) => !p.at_most::<Exact>(check.skill.levels()).is_zero(),
    };
    if !reachable {
        r = r.note(
            "the skill has no level as high as the required level: the act cannot be achieved",
        );
    }
    r
}

/// The defender's declared level in a contest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reply {
    /// The lowest allowed level, `Ld = La` (the best reply; default).
    #[default]
    Best,
    /// A fixed level; below `La` it cannot stop the attack.
    Level(usize),
}

/// Outcomes of a contest from the attacker's side, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContestOutcome {
    /// The attacker's roll fails (行動失敗); the defender does not roll.
    AttackFails,
    /// The defender stops it (防御成功).
    Defended,
    /// The attack lands (攻撃成功).
    Lands,
    /// It lands on the critical band (クリティカル).
    Critical,
}

impl Tier for ContestOutcome {
    const ALL: &'static [Self] = &[
        ContestOutcome::AttackFails,
        ContestOutcome::Defended,
        ContestOutcome::Lands,
        ContestOutcome::Critical,
    ];
    fn key(self) -> &'static str {
        match self {
            ContestOutcome::AttackFails => "attack_fails",
            ContestOutcome::Defended => "defended",
            ContestOutcome::Lands => "lands",
            ContestOutcome::Critical => "critical",
        }
    }
    fn en(self) -> &'static str {
        match self {
            ContestOutcome::AttackFails => "attack fails",
            ContestOutcome::Defended => "defended",
            ContestOutcome::Lands => "lands",
            ContestOutcome::Critical => "critical",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            ContestOutcome::AttackFails => "行動失敗",
            ContestOutcome::Defended => "防御成功",
            ContestOutcome::Lands => "攻撃成功",
            ContestOutcome::Critical => "クリティカル",
        }
    }
    fn is_success(self) -> bool {
        self >= ContestOutcome::Lands
    }
}

/// A contest (対抗判定): attacker's skill against defender's skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    attacker: Skill,
    defender: Skill,
    declared: Option<usize>,
    reply: Reply,
    critical: CriticalRule,
}

impl Contest {
    /// A validated contest: `level` (the attacker's, optional) must be one
    /// of the attacker's levels (`--level`), `reply_level` (the defender's
    /// fixed level, optional; none = best reply) one of the defender's
    /// (`--vs-level`).
    pub fn new(
        attacker: Skill,
        defender: Skill,
        level: Option<i64>,
        reply_level: Option<i64>,
        critical: CriticalRule,
    ) -> Result<Contest> {
        let declared = level
            .map(|l| attacker.check_level("--level", l))
            .transpose()?;
        let reply = match reply_level {
            None => Reply::Best,
            Some(l) => Reply::Level(defender.check_level("--vs-level", l)?),
        };
        Ok(Contest {
            attacker,
            defender,
            declared,
            reply,
            critical,
        })
    }

    /// The attacker's declared level, or the best level if none was.
    pub fn level(&self) -> usize {
        self.declared.unwrap_or_else(|| self.best_level())
    }

    /// The attacker's level with the highest P(lands) (ties → lowest).
    pub fn best_level(&self) -> usize {
        best_by(self.attacker.levels(), |l| {
            self.law_at::<Exact>(l).p_success()
        })
    }

    /// The defender's level and target value against attacker level `la`,
    /// or `None` when no allowed level can stop the attack.
    fn defence(&self, la: usize) -> Option<u32> {
        let ld = match self.reply {
            Reply::Best => la,
            Reply::Level(ld) if ld >= la => ld,
            Reply::Level(_) => return None,
        };
        self.defender.value(ld)
    }

    #[doc(hidden)]
    pub fn law_at<W: Weight>(&self, la: usize) -> TierLaw<ContestOutcome, W> {
        let va = self.attacker.value(la).unwrap_or(0);
        let stop = self
            .defence(la)
            .map_or(W::zero(), |vd| W::ratio(i64::from(vd), i64::from(D100)));
        split_law(
            va,
            self.critical,
            &stop.complement(),
            [
                ContestOutcome::AttackFails,
                ContestOutcome::Defended,
                ContestOutcome::Lands,
                ContestOutcome::Critical,
            ],
        )
    }

    /// Exact law of the outcomes at [`Contest::level`].
    pub fn law<W: Weight>(&self) -> TierLaw<ContestOutcome, W> {
        self.law_at(self.level())
    }

    /// The plain rule: the attacker at level `la` rolls `r_att`, the
    /// defender (replying by [`Reply`]) rolls `r_def` (ignored when it does
    /// not roll). Both rolls in 1..=100.
    pub fn classify(&self, r_att: u32, r_def: u32, la: usize) -> ContestOutcome {
        let va = self.attacker.value(la).unwrap_or(0);
        if r_att > va {
            return ContestOutcome::AttackFails;
        }
        if matches!(self.defence(la), Some(vd) if r_def <= vd) {
            return ContestOutcome::Defended;
        }
        if self.critical.is_critical(r_att, va) {
            ContestOutcome::Critical
        } else {
            ContestOutcome::Lands
        }
    }
}

/// The report of a contest: `by_level` (`level`, `value`, `p_lands`,
/// `p_critical` for every attacker level), `best_level`, and for the
/// declared (or best) level its outcomes, `p_win`, `p_loss`, `p_critical`.
pub fn contest_report<W: Weight>(contest: &Contest) -> Report<W> {
    crate::systems::dice::pool::plan::note(|| {
        "each side's 1D100 read under its level's value (判定値): each tier is its faces counted over 100, no dice algorithm to choose".to_string()
    });
    let level = contest.level();
    let law = contest.law::<W>();
    let rows = (1..=contest.attacker.levels())
        .map(|l| {
            let law = contest.law_at::<W>(l);
            vec![
                ("level".to_string(), Field::Int(l as i64)),
                (
                    "value".to_string(),
                    Field::Int(i64::from(contest.attacker.value(l).unwrap_or(0))),
                ),
                ("p_lands".to_string(), Field::Prob(law.p_success())),
                (
                    "p_critical".to_string(),
                    Field::Prob(law.p(ContestOutcome::Critical)),
                ),
            ]
        })
        .collect();
    let reply = match contest.reply {
        Reply::Best => serde_json::Value::from("best"),
        Reply::Level(l) => serde_json::Value::from(l),
    };
    let mut r = Report::from_tiers(ID, "対抗判定", &law)
        .param("skill", contest.attacker.json())
        .param("vs_skill", contest.defender.json())
        .param("level", level)
        .param("level_declared", contest.declared.is_some())
        .param("vs_level", reply)
        .param("critical", contest.critical.key())
        .prob("p_win", law.p_success())
        .prob("p_loss", law.p_success().complement())
        .prob("p_critical", law.p(ContestOutcome::Critical))
        .field("by_level", Field::Rows(rows))
        .field("best_level", Field::Int(contest.best_level() as i64));
    if contest.declared.is_none() {
        r = r.note(format!(
            "no attacker level declared: the outcomes are those of the best level, {level}"
        ));
    }
    r
}
