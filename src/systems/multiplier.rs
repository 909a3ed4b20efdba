//! `multiplier` — d100 roll-under with a success multiplier (seed 000,
//! 行為判定 / 成功倍率).
//!
//! # The rule
//!
//! A check (行為判定) is one of three kinds:
//!
//! * ability check (能力値判定): ability `A` (基本能力値) × final multiplier
//!   (最終成功倍率) `F = M + modifiers`;
//! * skill check (技能判定): `F = S + M + modifiers`, rate `ceil(A × F / 2)`,
//!   where `S` is the skill level (技能レベル) and the GM may set a required
//!   level `R` (要求技能レベル);
//! * random check (無作為判定): the GM gives the rate (成功率) directly.
//!
//! The base multiplier `M` (成功倍率) is 5 by default and may be any
//! integer in −1000..=1000 (a sane bound, not a rule).
//! The rate (in %, may exceed 100) is, with `ceil` for every halving
//! (端数切り上げ):
//!
//! | case | rate |
//! |---|---|
//! | ability, `F > 0` | `A × F` |
//! | ability, `F ≤ 0` | `ceil(A/2)` (最低保障成功率) if the guarantee is on, else impossible |
//! | skill, no `R` or `S ≥ R` | `ceil(A × F / 2)`; if `F ≤ 0`: `ceil(A/2)` |
//! | skill, `S < R` | `ceil(A × F / 4)`; if `F ≤ 0`: impossible (自動的に失敗) |
//! | skill, `R ≥ 5` and `S = 0` (非常に難しい行為) | impossible, no roll |
//!
//! Several skills used together (複数の技能をセットで使う): `S` is the lowest
//! of their levels. Cooperation (協力しての行為判定): `A` = main ability +
//! `ceil(s/2)` for each supporter's ability `s`. An impossible check is its
//! own result ([`Rate::Impossible`]): no roll is made, it is reported as
//! failure with probability 1 and flagged `impossible: true` with a note.
//!
//! One d100 (1..=100, 00 read as 100) is rolled; `r` succeeds when
//! `r ≤ rate`, except the automatic failures (自動的失敗): `r ≥ T` always fails,
//! with `T = 96` when rate < 110 and `96 + min(4, floor((rate − 100)/10))`
//! otherwise (rate 125 → 98; rate ≥ 140 → only 100 fails). Tiers, worst
//! first ([`Outcome`]):
//!
//! * `fumble` (致命的失敗): `r > rate` and `r` is doubles (ゾロ目) — 11, 22,
//!   …, 99 and 100 (shown 00; option [`Options::hundred_is_doubles`]);
//! * `failure` (失敗): everything else, including automatic failures with
//!   `r ≤ rate`;
//! * `success` (成功): `r < T` and `r ≤ rate`;
//! * `effective` (効果的成功): `r < T` and `r ≤ floor(rate/2)`;
//! * `decisive` (決定的成功): `r < T` and `r ≤ floor(rate/10)`.
//!
//! # Contests and repeated checks
//!
//! * Contest (対抗判定, [`Mode::Contest`]): both sides roll, the higher tier
//!   wins, the same tier (two failures included) is rolled again:
//!   `P(win) = P(A > B) / (1 − P(tie))`, expected rolls `1 / (1 − P(tie))`.
//!   The report's `p_tie` is therefore 0; the chance that one roll ties is
//!   `p_tie_per_roll`. When every roll ties (both sides impossible) the
//!   contest never resolves: `p_tie` = 1, no `expected_rolls`, and a note.
//! * Perception vs stealth (知覚対隠密, [`Mode::Perception`]): one roll each,
//!   no reroll; the perceiver notices only with a *success* of a strictly
//!   higher tier than the stealth roll ([`PerceptionRule::NeedsSuccess`],
//!   default: the seed's 「…上回る成功を知覚判定で出せた場合のみ」).
//!   [`PerceptionRule::HigherTier`] (`--perception-rule higher-tier`) takes
//!   the tier order literally, as RULES.md did, so a plain failure beats a
//!   fumbled stealth roll.
//! * Extended check (継続的な行為判定, [`Mode::Extended`]): `K` successes are
//!   needed, one attempt per time unit, within `n` attempts (default
//!   [`DEFAULT_ATTEMPTS`]). [`Counting::Degrees`] counts an effective success
//!   as 2 and a decisive one as 3 (the seed allows it); the default counts
//!   every success as 1. Reported: `P(done within i attempts)` for
//!   `i = 1..=n` and the expected number of attempts with no limit.
//!
//! # Report fields
//!
//! Single check: `outcomes` (the five tiers), `p_success`, `p_critical`
//! (= decisive), `p_fumble`, `p_effective_or_better`, `rate`,
//! `auto_fail_threshold` (both left out when no roll is made) and
//! `impossible`. Contest: `p_win`, `p_tie` (0 after rerolls; 1 in a
//! deadlock), `p_loss`, the one-roll `p_win_per_roll` / `p_tie_per_roll` /
//! `p_loss_per_roll` (also named `p_win_roll` / `p_tie_roll` /
//! `p_loss_roll`, as in every other system), `expected_rolls`, each side's
//! `rate`/`vs_rate`, … and tier laws `tiers` / `vs_tiers`; `outcomes` is
//! empty and `p_success` = `p_win`. With more sides (`--side`) every one of
//! these speaks of the contest of all sides ([`with_more_sides`]). Perception: `p_win` (noticed), `p_tie` (same tier, not noticed),
//! `p_loss`. Extended: `p_done_by`, `p_success` (= done within the limit),
//! `expected_rolls` (no limit), `expected_rolls_within_limit`,
//! `p_success_per_roll`, `tiers`. Every effective input is in `params`
//! (`mode`, the sides' inputs with `vs_` for the other side,
//! `perception_rule`, `successes`, `attempts`, `counting`,
//! `hundred_is_doubles`).
//!
//! # Decisions where RULES.md and the seed are silent
//!
//! * A skill check with no `--skill-level` is made without the skill
//!   (`S = 0`); the required level defaults to 1, the seed's standard
//!   (要求技能レベルは1が標準); "none" must be asked for.
//! * Only rolls above the rate can fumble, so when the rate is 100 or more,
//!   100 is a plain failure (automatic), never a fumble (literal reading).
//! * A contest or stealth roll against an impossible check counts that side
//!   as a plain failure (no roll, so it cannot fumble).
//! * Cooperation applies to ability and skill checks alike (the ability in
//!   the rate is the combined one); supporters do not change `S`.
//! * Input ranges (sane bounds, not rules): ability and supporters 0..=1000,
//!   multiplier and each modifier −1000..=1000, skill levels 0..=100,
//!   required level 1..=100, random rate 0..=1000, successes 1..=1000,
//!   attempts 1..=1000.

use serde_json::Value;

use crate::contest::{compare, Comparison, TieRule};
use crate::error::{check_range, Result};
use crate::extended;
use crate::pmf::Pmf;
use crate::report::{Field, Report};
use crate::tier::{Tier, TierLaw};
use crate::weight::Weight;

/// System id.
pub const ID: &str = "multiplier";
/// Japanese name of the check.
pub const JA: &str = "成功倍率判定 (行為判定)";
/// The standard success multiplier (平均的な行為の成功倍率は5).
pub const BASE_MULTIPLIER: i64 = 5;
/// The standard required skill level (要求技能レベルは1が標準).
pub const DEFAULT_REQUIRED_LEVEL: i64 = 1;
/// Default attempt limit of an extended check.
pub const DEFAULT_ATTEMPTS: i64 = 10;
/// Largest ability (and supporter ability) accepted.
pub const MAX_ABILITY: i64 = 1000;
/// Largest magnitude of the multiplier and of each modifier.
pub const MAX_MULTIPLIER: i64 = 1000;
/// Largest skill level (and required level) accepted.
pub const MAX_SKILL_LEVEL: i64 = 100;
/// Largest rate accepted for a random check.
pub const MAX_RATE: i64 = 1000;
/// Largest number of successes and of attempts of an extended check.
pub const MAX_EXTENDED: i64 = 1000;

/// Outcome tier of one check, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// 致命的失敗: above the rate and doubles.
    Fumble,
    /// 失敗.
    Failure,
    /// 成功.
    Success,
    /// 効果的成功: at most half the rate.
    Effective,
    /// 決定的成功: at most a tenth of the rate.
    Decisive,
}

impl Tier for Outcome {
    const ALL: &'static [Self] = &[
        Outcome::Fumble,
        Outcome::Failure,
        Outcome::Success,
        Outcome::Effective,
        Outcome::Decisive,
    ];

    fn key(self) -> &'static str {
        match self {
            Outcome::Fumble => "fumble",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::Effective => "effective",
            Outcome::Decisive => "decisive",
        }
    }

    fn en(self) -> &'static str {
        match self {
            Outcome::Fumble => "fumble",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::Effective => "effective success",
            Outcome::Decisive => "decisive success",
        }
    }

    fn ja(self) -> &'static str {
        match self {
            Outcome::Fumble => "致命的失敗",
            Outcome::Failure => "失敗",
            Outcome::Success => "成功",
            Outcome::Effective => "効果的成功",
            Outcome::Decisive => "決定的成功",
        }
    }

    fn is_success(self) -> bool {
        self >= Outcome::Success
    }
}

/// Kind of check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// 能力値判定: ability × multiplier.
    Ability,
    /// 技能判定: half the ability × (skill level + multiplier).
    Skill,
    /// 無作為判定: the GM gives the rate.
    Random,
}

impl Kind {
    /// Stable key (`ability`, `skill`, `random`).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Ability => "ability",
            Kind::Skill => "skill",
            Kind::Random => "random",
        }
    }
}

/// Options of the roll itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether 100 (shown 00) counts as doubles for a fumble. Default true.
    pub hundred_is_doubles: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hundred_is_doubles: true,
        }
    }
}

/// Why a check is impossible (no roll is made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impossibility {
    /// Ability check, final multiplier ≤ 0, guarantee off.
    NoGuarantee,
    /// Skill check below the required level with final multiplier ≤ 0.
    BelowRequiredLevel,
    /// Required level ≥ 5 attempted without the skill (非常に難しい行為).
    VeryDifficult,
}

impl Impossibility {
    /// One line for the report's notes.
    pub fn reason(self) -> &'static str {
        match self {
            Impossibility::NoGuarantee => {
                "ability check with final multiplier ≤ 0 and the guaranteed rate off"
            }
            Impossibility::BelowRequiredLevel => {
                "skill level below the required level with final multiplier ≤ 0 (自動的に失敗)"
            }
            Impossibility::VeryDifficult => {
                "required level 5 or more without the skill (非常に難しい行為: ダイスは振りません)"
            }
        }
    }
}

/// The rate of a check, or the fact that no roll can be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rate {
    /// A d100 is rolled against this rate (in %, may exceed 100).
    Roll(i64),
    /// No roll: failure with probability 1.
    Impossible(Impossibility),
}

/// `ceil(n / d)` for `d > 0`, correct for negative `n` too.
pub fn ceil_div(n: i64, d: i64) -> i64 {
    -(-n).div_euclid(d)
}

/// The automatic-failure threshold `T` (自動的失敗): rolls `≥ T` fail.
pub fn auto_fail_threshold(rate: i64) -> i64 {
    if rate < 110 {
        96
    } else {
        96 + 4.min((rate - 100).div_euclid(10))
    }
}

/// Whether `r` (1..=100) is doubles (ゾロ目) for a fumble.
pub fn is_doubles(r: i64, options: &Options) -> bool {
    (1..100).contains(&r) && r % 11 == 0 || r == 100 && options.hundred_is_doubles
}

/// The tier of the d100 roll `r` (1..=100) against `rate`: the plain rule.
pub fn classify_roll(rate: i64, r: i64, options: &Options) -> Outcome {
    if r < auto_fail_threshold(rate) && r <= rate {
        if r <= rate.div_euclid(10) {
            Outcome::Decisive
        } else if r <= rate.div_euclid(2) {
            Outcome::Effective
        } else {
            Outcome::Success
        }
    } else if r > rate && is_doubles(r, options) {
        Outcome::Fumble
    } else {
        Outcome::Failure
    }
}

/// The tier of one check from its rolled faces: `faces[0]` is the d100
/// (1..=100; 0 is read as 00 = 100). An impossible check rolls nothing and
/// fails; a missing face also counts as failure.
pub fn classify(rate: Rate, faces: &[u32], options: &Options) -> Outcome {
    match (rate, faces.first()) {
        (Rate::Roll(rate), Some(&face)) => {
            let r = if face == 0 { 100 } else { i64::from(face) };
            classify_roll(rate, r, options)
        }
        _ => Outcome::Failure,
    }
}

/// Number of d100 faces giving each tier (in [`Tier::ALL`] order), by the
/// closed form of the bands (no enumeration).
pub fn tier_counts(rate: i64, options: &Options) -> [i64; 5] {
    let cap = auto_fail_threshold(rate) - 1;
    let band = |x: i64| x.clamp(0, cap);
    let success_or_better = band(rate);
    let effective_or_better = band(rate.div_euclid(2));
    let decisive = band(rate.div_euclid(10));
    // Doubles 11k (k = 1..=9) above the rate, then 100.
    let fumble =
        9 - rate.div_euclid(11).clamp(0, 9) + i64::from(options.hundred_is_doubles && rate < 100);
    [
        fumble,
        100 - success_or_better - fumble,
        success_or_better - effective_or_better,
        effective_or_better - decisive,
        decisive,
    ]
}

/// The tier law of one check at `rate` — cheap (a few integer operations),
/// meant for sweeps over the rate.
pub fn law_for_rate<W: Weight>(rate: Rate, options: &Options) -> TierLaw<Outcome, W> {
    match rate {
        Rate::Impossible(_) => TierLaw::certain(Outcome::Failure),
        Rate::Roll(rate) => TierLaw::new(
            tier_counts(rate, options)
                .iter()
                .map(|&n| W::ratio(n, 100))
                .collect(),
        ),
    }
}

/// Inputs of an ability check (能力値判定).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbilityCheck {
    /// Main ability `A`.
    pub ability: i64,
    /// Supporters' abilities (each adds half, rounded up).
    pub supporters: Vec<i64>,
    /// Base multiplier `M` (default [`BASE_MULTIPLIER`]).
    pub multiplier: i64,
    /// Modifiers to the multiplier.
    pub modifiers: Vec<i64>,
    /// Whether the guaranteed rate `ceil(A/2)` applies when `F ≤ 0`
    /// (the GM's choice; default true).
    pub guarantee: bool,
}

/// Inputs of a skill check (技能判定).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillCheck {
    /// Main ability `A`.
    pub ability: i64,
    /// Supporters' abilities (each adds half, rounded up).
    pub supporters: Vec<i64>,
    /// Base multiplier `M` (default [`BASE_MULTIPLIER`]).
    pub multiplier: i64,
    /// Modifiers to the multiplier.
    pub modifiers: Vec<i64>,
    /// Levels of the skills used together; the lowest counts; none = 0.
    pub skill_levels: Vec<i64>,
    /// Required level `R` (`None`: no required level).
    pub required_level: Option<i64>,
}

/// Inputs of a check of any kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckSpec {
    /// 能力値判定.
    Ability(AbilityCheck),
    /// 技能判定.
    Skill(SkillCheck),
    /// 無作為判定 with the given rate.
    Random {
        /// The rate in %.
        rate: i64,
    },
}

/// A validated check and its rate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    spec: CheckSpec,
    rate: Rate,
}

/// Validate the ability and supporters shared by ability and skill checks,
/// and return the combined ability.
fn combined_ability(ability: i64, supporters: &[i64]) -> Result<i64> {
    check_range("--ability", ability, 0, MAX_ABILITY)?;
    for &s in supporters {
        check_range("--supporter", s, 0, MAX_ABILITY)?;
    }
    Ok(ability + supporters.iter().map(|&s| ceil_div(s, 2)).sum::<i64>())
}

/// Validate the multiplier and modifiers and return their sum.
fn multiplier_sum(multiplier: i64, modifiers: &[i64]) -> Result<i64> {
    check_range("--multiplier", multiplier, -MAX_MULTIPLIER, MAX_MULTIPLIER)?;
    for &m in modifiers {
        check_range("--modifier", m, -MAX_MULTIPLIER, MAX_MULTIPLIER)?;
    }
    Ok(multiplier + modifiers.iter().sum::<i64>())
}

impl Check {
    /// Validate `spec` and work out its rate.
    pub fn new(spec: CheckSpec) -> Result<Self> {
        let rate = match &spec {
            CheckSpec::Ability(c) => {
                let a = combined_ability(c.ability, &c.supporters)?;
                let f = multiplier_sum(c.multiplier, &c.modifiers)?;
                if f > 0 {
                    Rate::Roll(a * f)
                } else if c.guarantee {
                    Rate::Roll(ceil_div(a, 2))
                } else {
                    Rate::Impossible(Impossibility::NoGuarantee)
                }
            }
            CheckSpec::Skill(c) => {
                let a = combined_ability(c.ability, &c.supporters)?;
                for &s in &c.skill_levels {
                    check_range("--skill-level", s, 0, MAX_SKILL_LEVEL)?;
                }
                if let Some(r) = c.required_level {
                    check_range("--required-level", r, 1, MAX_SKILL_LEVEL)?;
                }
                let s = c.skill_levels.iter().copied().min().unwrap_or(0);
                let f = s + multiplier_sum(c.multiplier, &c.modifiers)?;
                match c.required_level {
                    Some(r) if r >= 5 && s == 0 => Rate::Impossible(Impossibility::VeryDifficult),
                    Some(r) if s < r => {
                        if f > 0 {
                            Rate::Roll(ceil_div(a * f, 4))
                        } else {
                            Rate::Impossible(Impossibility::BelowRequiredLevel)
                        }
                    }
                    _ if f > 0 => Rate::Roll(ceil_div(a * f, 2)),
                    _ => Rate::Roll(ceil_div(a, 2)),
                }
            }
            CheckSpec::Random { rate } => {
                check_range("--rate", *rate, 0, MAX_RATE)?;
                Rate::Roll(*rate)
            }
        };
        Ok(Check { spec, rate })
    }

    /// The inputs.
    pub fn spec(&self) -> &CheckSpec {
        &self.spec
    }

    /// The rate (or impossibility).
    pub fn rate(&self) -> Rate {
        self.rate
    }

    /// The tier law of this check.
    pub fn law<W: Weight>(&self, options: &Options) -> TierLaw<Outcome, W> {
        law_for_rate(self.rate, options)
    }

    /// Every effective input, names prefixed with `prefix` (`""` or `"vs_"`).
    pub fn params(&self, prefix: &str) -> Vec<(String, Value)> {
        let mut p: Vec<(&str, Value)> = Vec::new();
        match &self.spec {
            CheckSpec::Ability(c) => {
                p.push(("kind", Kind::Ability.key().into()));
                p.push(("ability", c.ability.into()));
                p.push(("supporters", c.supporters.clone().into()));
                p.push(("effective_ability", effective(c.ability, &c.supporters)));
                p.push(("multiplier", c.multiplier.into()));
                p.push(("modifier", c.modifiers.iter().sum::<i64>().into()));
                p.push((
                    "final_multiplier",
                    (c.multiplier + c.modifiers.iter().sum::<i64>()).into(),
                ));
                p.push(("guarantee", c.guarantee.into()));
            }
            CheckSpec::Skill(c) => {
                let s = c.skill_levels.iter().copied().min().unwrap_or(0);
                p.push(("kind", Kind::Skill.key().into()));
                p.push(("ability", c.ability.into()));
                p.push(("supporters", c.supporters.clone().into()));
                p.push(("effective_ability", effective(c.ability, &c.supporters)));
                p.push(("multiplier", c.multiplier.into()));
                p.push(("modifier", c.modifiers.iter().sum::<i64>().into()));
                p.push(("skill_levels", c.skill_levels.clone().into()));
                p.push(("skill_level", s.into()));
                p.push((
                    "final_multiplier",
                    (s + c.multiplier + c.modifiers.iter().sum::<i64>()).into(),
                ));
                p.push(("required_level", c.required_level.into()));
            }
            CheckSpec::Random { rate } => {
                p.push(("kind", Kind::Random.key().into()));
                p.push(("rate", (*rate).into()));
            }
        }
        p.into_iter()
            .map(|(k, v)| (format!("{prefix}{k}"), v))
            .collect()
    }

    /// Report fields `rate`, `auto_fail_threshold` (both absent when no roll
    /// is made) and `impossible`, names prefixed with `prefix`.
    fn fields<W: Weight>(&self, prefix: &str) -> Vec<(String, Field<W>)> {
        let mut f = Vec::new();
        if let Rate::Roll(rate) = self.rate {
            f.push((format!("{prefix}rate"), Field::Int(rate)));
            f.push((
                format!("{prefix}auto_fail_threshold"),
                Field::Int(auto_fail_threshold(rate)),
            ));
        }
        f.push((
            format!("{prefix}impossible"),
            Field::Bool(matches!(self.rate, Rate::Impossible(_))),
        ));
        f
    }

    /// Notes a designer should see about this check (`who` names the side).
    fn notes(&self, who: &str) -> Vec<String> {
        let mut n = Vec::new();
        if let Rate::Impossible(why) = self.rate {
            n.push(format!(
                "{who}impossible: {}; no roll is made, counted as failure with probability 1",
                why.reason()
            ));
        }
        let guaranteed = match &self.spec {
            CheckSpec::Ability(c) => {
                c.multiplier + c.modifiers.iter().sum::<i64>() <= 0 && c.guarantee
            }
            CheckSpec::Skill(c) => {
                let s = c.skill_levels.iter().copied().min().unwrap_or(0);
                s + c.multiplier + c.modifiers.iter().sum::<i64>() <= 0
                    && matches!(self.rate, Rate::Roll(_))
            }
            CheckSpec::Random { .. } => false,
        };
        if guaranteed {
            n.push(format!(
                "{who}final multiplier ≤ 0: the guaranteed rate ceil(ability/2) applies (最低保障成功率)"
            ));
        }
        n
    }
}

fn effective(ability: i64, supporters: &[i64]) -> Value {
    (ability + supporters.iter().map(|&s| ceil_div(s, 2)).sum::<i64>()).into()
}

/// Who notices in perception vs stealth.
///
/// Seed 000: 「<隠密>の成功度を上回る成功を知覚判定で出せた場合のみ、対象を
/// 知覚することが出来ます」 — only a *success* that beats the stealth result
/// perceives, so that is the default. The literal tier order of RULES.md
/// (where a failed perception roll beats a fumbled stealth roll) is the
/// option `higher-tier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PerceptionRule {
    /// A strictly higher tier, and the perception roll must succeed (the
    /// seed's words; default).
    #[default]
    NeedsSuccess,
    /// A strictly higher tier than the stealth roll (literal tier order: a
    /// failure beats a fumble).
    HigherTier,
}

impl PerceptionRule {
    /// Stable key.
    pub fn key(self) -> &'static str {
        match self {
            PerceptionRule::HigherTier => "higher-tier",
            PerceptionRule::NeedsSuccess => "needs-success",
        }
    }
}

/// Whether the perceiver notices: the plain rule of 知覚対隠密.
pub fn perceives(perceiver: Outcome, stealth: Outcome, rule: PerceptionRule) -> bool {
    perceiver > stealth && (rule == PerceptionRule::HigherTier || perceiver.is_success())
}

/// How an extended check counts progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Counting {
    /// Every success (of any tier) counts 1. Default.
    #[default]
    Successes,
    /// Success 1, effective 2, decisive 3 (成功2回、成功3回として数える).
    Degrees,
}

impl Counting {
    /// Stable key.
    pub fn key(self) -> &'static str {
        match self {
            Counting::Successes => "successes",
            Counting::Degrees => "degrees",
        }
    }

    /// Progress made by one attempt of tier `t`.
    pub fn progress(self, t: Outcome) -> i64 {
        match (self, t) {
            (_, Outcome::Fumble | Outcome::Failure) => 0,
            (Counting::Successes, _) | (Counting::Degrees, Outcome::Success) => 1,
            (Counting::Degrees, Outcome::Effective) => 2,
            (Counting::Degrees, Outcome::Decisive) => 3,
        }
    }
}

/// Parameters of an extended check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedParams {
    successes: i64,
    attempts: i64,
    counting: Counting,
}

impl ExtendedParams {
    /// `successes` needed within `attempts` attempts.
    pub fn new(successes: i64, attempts: i64, counting: Counting) -> Result<Self> {
        check_range("--successes", successes, 1, MAX_EXTENDED)?;
        check_range("--attempts", attempts, 1, MAX_EXTENDED)?;
        Ok(ExtendedParams {
            successes,
            attempts,
            counting,
        })
    }

    /// Successes needed.
    pub fn successes(&self) -> i64 {
        self.successes
    }

    /// Attempt limit.
    pub fn attempts(&self) -> i64 {
        self.attempts
    }

    /// How progress is counted.
    pub fn counting(&self) -> Counting {
        self.counting
    }
}

/// Progress made by one attempt, as a law over 0..=3.
pub fn progress_law<W: Weight>(law: &TierLaw<Outcome, W>, counting: Counting) -> Pmf<W> {
    Pmf::from_pairs(law.iter().map(|(t, p)| (counting.progress(t), p.clone())))
}

/// The exact law of an extended check.
pub fn extended_law<W: Weight>(
    law: &TierLaw<Outcome, W>,
    params: &ExtendedParams,
) -> extended::ExtendedLaw<W> {
    let step = progress_law(law, params.counting);
    extended::run(params.successes, params.attempts as usize, |_| step.clone())
}

/// Expected attempts of an extended check with no limit; `None` when no
/// attempt can succeed.
pub fn extended_expected_attempts<W: Weight>(
    law: &TierLaw<Outcome, W>,
    params: &ExtendedParams,
) -> Option<W> {
    extended::expected_rolls_unbounded(params.successes, &progress_law(law, params.counting))
}

/// One roll of a contest: P(first side's tier higher / equal / lower).
pub fn contest_per_roll<W: Weight>(
    a: &TierLaw<Outcome, W>,
    b: &TierLaw<Outcome, W>,
) -> Comparison<W> {
    compare(&a.to_pmf(), &b.to_pmf())
}

/// Perception vs stealth (one roll each): `win` = the perceiver notices,
/// `tie` = same tier (not noticed), `loss` = not noticed otherwise.
pub fn perception_law<W: Weight>(
    perceiver: &TierLaw<Outcome, W>,
    stealth: &TierLaw<Outcome, W>,
    rule: PerceptionRule,
) -> Comparison<W> {
    let literal = contest_per_roll(perceiver, stealth);
    let win = match rule {
        PerceptionRule::HigherTier => literal.win,
        PerceptionRule::NeedsSuccess => {
            // Failed perception rolls sink below every stealth tier.
            let success_from = Outcome::Success.index() as i64;
            let lifted = perceiver
                .to_pmf()
                .map(|t| if t < success_from { -1 } else { t });
            compare(&lifted, &stealth.to_pmf()).win
        }
    };
    let loss = W::one() - &win - &literal.tie;
    Comparison {
        win,
        tie: literal.tie,
        loss,
    }
}

/// What to compute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One check.
    Single,
    /// 対抗判定 against `vs`, ties rolled again.
    Contest {
        /// The opposing check.
        vs: Check,
    },
    /// 知覚対隠密: the main check perceives, `stealth` hides.
    Perception {
        /// The stealth check.
        stealth: Check,
        /// Who notices.
        rule: PerceptionRule,
    },
    /// 継続的な行為判定.
    Extended(ExtendedParams),
}

impl Mode {
    fn key(&self) -> &'static str {
        match self {
            Mode::Single => "single",
            Mode::Contest { .. } => "contest",
            Mode::Perception { .. } => "perception",
            Mode::Extended(_) => "extended",
        }
    }
}

/// A full `hantei odds multiplier` question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The (main, acting, perceiving) check.
    pub check: Check,
    /// Single, contest, perception or extended.
    pub mode: Mode,
    /// Roll options.
    pub options: Options,
}

/// A tier law as a report object (tier key → probability).
fn tiers_field<W: Weight>(law: &TierLaw<Outcome, W>) -> Field<W> {
    Field::Object(
        law.iter()
            .map(|(t, p)| (t.key().to_string(), Field::Prob(p.clone())))
            .collect(),
    )
}

fn with_fields<W: Weight>(mut r: Report<W>, fields: Vec<(String, Field<W>)>) -> Report<W> {
    r.fields.extend(fields);
    r
}

fn with_params<W: Weight>(mut r: Report<W>, params: Vec<(String, Value)>) -> Report<W> {
    r.params.extend(params);
    r
}

fn with_notes<W: Weight>(mut r: Report<W>, notes: Vec<String>) -> Report<W> {
    r.notes.extend(notes);
    r
}

/// The report for `query`.
pub fn report<W: Weight>(query: &Query) -> Report<W> {
    crate::systems::dice::pool::plan::note(|| {
        "1D100 read by the tiers' bands (各段階の範囲): each tier is its faces counted over 100, no dice algorithm to choose".to_string()
    });
    let opts = &query.options;
    let law = query.check.law::<W>(opts);
    let r = match &query.mode {
        Mode::Single => {
            let r = Report::from_tiers(ID, JA, &law)
                .prob("p_critical", law.p(Outcome::Decisive))
                .prob("p_fumble", law.p(Outcome::Fumble))
                .prob("p_effective_or_better", law.at_least(Outcome::Effective));
            with_notes(
                with_fields(r, query.check.fields("")),
                query.check.notes(""),
            )
        }
        Mode::Contest { vs } => contest_report(query, &law, vs),
        Mode::Perception { stealth, rule } => perception_report(query, &law, stealth, *rule),
        Mode::Extended(params) => extended_report(query, &law, params),
    };
    let r = with_params(r.param("mode", query.mode.key()), query.check.params(""));
    let r = match &query.mode {
        Mode::Single => r,
        Mode::Contest { vs } => with_params(r, vs.params("vs_")),
        Mode::Perception { stealth, rule } => {
            with_params(r, stealth.params("vs_")).param("perception_rule", rule.key())
        }
        Mode::Extended(p) => r
            .param("successes", p.successes)
            .param("attempts", p.attempts)
            .param("counting", p.counting.key()),
    };
    r.param("hundred_is_doubles", opts.hundred_is_doubles)
}

/// A contest of more than two sides (seed 000: 「2者以上の参加者が対抗して行為
/// 判定を行う」): every side rolls once; the side with a strictly higher tier
/// than every other wins; when the top tier is shared, the contest is
/// stalled and everyone rolls again (「膠着し、再度判定を行います」, applied
/// to the whole contest). `laws[0]` is the acting side. Returns each side's
/// chance to be strictly on top in one round, and P(someone is).
pub fn multi_contest_per_roll<W: Weight>(laws: &[TierLaw<Outcome, W>]) -> (Vec<W>, W) {
    let pmfs: Vec<Pmf<W>> = laws.iter().map(TierLaw::to_pmf).collect();
    let top: Vec<W> = (0..pmfs.len())
        .map(|i| {
            pmfs[i].iter().fold(W::zero(), |acc, (t, p)| {
                let below = pmfs
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .fold(W::one(), |prod, (_, q)| prod * &q.cdf(t - 1));
                acc + p.clone() * &below
            })
        })
        .collect();
    let someone = top.iter().fold(W::zero(), |a, b| a + b);
    (top, someone)
}

/// Fields of a contest report that describe its sides' contest (the
/// two-sided ones are replaced when more sides join).
const CONTEST_FIELDS: [&str; 10] = [
    "p_win",
    "p_tie",
    "p_loss",
    "expected_rolls",
    "p_win_per_roll",
    "p_tie_per_roll",
    "p_loss_per_roll",
    "p_win_roll",
    "p_tie_roll",
    "p_loss_roll",
];

/// The note of a two-sided contest that resolves.
const TWO_SIDED_NOTE: &str = "the same tier (failures included) is rolled again, so p_tie is 0 \
     and p_win/p_loss are after rerolls; p_tie_per_roll is one roll's tie chance";

/// The note of a contest that never resolves.
const DEADLOCK_NOTE: &str = "every roll ties (both sides certain of the same tier): the contest \
     never resolves, p_tie is 1 and there is no expected number of rolls";

/// One round's `p_win`, `p_tie`, `p_loss` under both names: `*_per_roll`
/// (the multiplier's first name) and `*_roll` (every other system's).
fn per_roll_fields<W: Weight>(win: W, tie: W, loss: W) -> Vec<(String, Field<W>)> {
    let mut v = Vec::with_capacity(6);
    for suffix in ["_per_roll", "_roll"] {
        for (name, p) in [("p_win", &win), ("p_tie", &tie), ("p_loss", &loss)] {
            v.push((format!("{name}{suffix}"), Field::Prob(p.clone())));
        }
    }
    v
}

/// A two-sided contest report made a contest of `query`'s side, its `vs`
/// side and `more` sides. Every contest field then speaks of the contest of
/// all sides: `p_top` (each side's chance to come out on top, after stalled
/// rounds are rolled again), `p_top_per_roll`, `p_win` = `p_success` = the
/// acting side's `p_top`, `p_loss` = 1 − `p_win`, `p_tie` = 0,
/// `expected_rolls` = 1 / P(someone on top in a round); one round's
/// `p_win_per_roll` = the acting side's `p_top_per_roll`, `p_tie_per_roll` =
/// P(the round stalls), `p_loss_per_roll` = P(another side on top), and the
/// same under `p_*_roll`.
pub fn with_more_sides<W: Weight>(mut r: Report<W>, query: &Query, more: &[Check]) -> Report<W> {
    let Mode::Contest { vs } = &query.mode else {
        return r;
    };
    let mut laws = vec![
        query.check.law::<W>(&query.options),
        vs.law::<W>(&query.options),
    ];
    laws.extend(more.iter().map(|c| c.law::<W>(&query.options)));
    let (per_roll, someone) = multi_contest_per_roll(&laws);
    let resolves = !someone.is_zero();
    let top: Vec<W> = per_roll
        .iter()
        .map(|p| {
            if resolves {
                p.clone() / &someone
            } else {
                W::zero()
            }
        })
        .collect();
    let win = top[0].clone();
    r.fields
        .retain(|(n, _)| !CONTEST_FIELDS.contains(&n.as_str()));
    r.notes
        .retain(|n| n.as_str() != TWO_SIDED_NOTE && n.as_str() != DEADLOCK_NOTE);
    r.p_success = win.clone();
    let mut fields = vec![
        ("p_win".to_string(), Field::Prob(win.clone())),
        (
            "p_tie".to_string(),
            Field::Prob(if resolves { W::zero() } else { W::one() }),
        ),
        (
            "p_loss".to_string(),
            Field::Prob(if resolves {
                win.complement()
            } else {
                W::zero()
            }),
        ),
    ];
    if resolves {
        fields.push((
            "expected_rolls".to_string(),
            Field::Value(W::one() / &someone),
        ));
    }
    fields.extend(per_roll_fields(
        per_roll[0].clone(),
        someone.complement(),
        someone.clone() - &per_roll[0],
    ));
    fields.push(("p_top".to_string(), Field::Probs(top)));
    fields.push(("p_top_per_roll".to_string(), Field::Probs(per_roll)));
    fields.append(&mut r.fields);
    r.fields = fields;
    for (i, c) in more.iter().enumerate() {
        r.fields.extend(c.fields(&format!("side{}_", i + 3)));
    }
    let r = r.note(format!(
        "contest of {} sides (2者以上の対抗判定): p_top lists each side's chance to come out on top \
         (acting side, --vs- side, then each --side in order); when the top tier is shared the \
         whole contest is rolled again; p_win_per_roll is the acting side's chance to be on top \
         in one round, p_tie_per_roll the chance a round stalls, p_loss_per_roll another side's",
        laws.len()
    ));
    if resolves {
        r
    } else {
        r.note(
            "no side can ever be alone on top: the contest never resolves, p_tie is 1 and \
             there is no expected number of rolls",
        )
    }
}

/// Fields and notes describing both sides of a two-sided report.
fn two_sided<W: Weight>(
    r: Report<W>,
    query: &Query,
    law: &TierLaw<Outcome, W>,
    vs: &Check,
    vs_law: &TierLaw<Outcome, W>,
) -> Report<W> {
    let r = with_fields(r, query.check.fields(""));
    let r = with_fields(r, vs.fields("vs_"));
    let r = r
        .field("tiers", tiers_field(law))
        .field("vs_tiers", tiers_field(vs_law));
    let r = with_notes(r, query.check.notes(""));
    with_notes(r, vs.notes("opposing side: "))
}

fn contest_report<W: Weight>(query: &Query, law: &TierLaw<Outcome, W>, vs: &Check) -> Report<W> {
    let vs_law = vs.law::<W>(&query.options);
    let per_roll = contest_per_roll(law, &vs_law);
    let after = per_roll.with_tie_rule(TieRule::Reroll);
    let r = Report::bare(ID, JA, after.win.clone())
        .prob("p_win", after.win)
        .prob("p_tie", after.tie)
        .prob("p_loss", after.loss);
    let r = with_fields(
        r,
        per_roll_fields(
            per_roll.win.clone(),
            per_roll.tie.clone(),
            per_roll.loss.clone(),
        ),
    );
    let r = match per_roll.expected_rolls() {
        Some(e) => r
            .field("expected_rolls", Field::Value(e))
            .note(TWO_SIDED_NOTE),
        None => r.note(DEADLOCK_NOTE),
    };
    two_sided(r, query, law, vs, &vs_law)
}

fn perception_report<W: Weight>(
    query: &Query,
    law: &TierLaw<Outcome, W>,
    stealth: &Check,
    rule: PerceptionRule,
) -> Report<W> {
    let vs_law = stealth.law::<W>(&query.options);
    let c = perception_law(law, &vs_law, rule);
    let r = Report::bare(ID, JA, c.win.clone())
        .prob("p_win", c.win)
        .prob("p_tie", c.tie)
        .prob("p_loss", c.loss)
        .note(
            "perception vs stealth: one roll each, no reroll; p_win = the perceiver notices \
             (strictly higher tier than the stealth roll), p_tie = same tier (not noticed)",
        );
    let r = match rule {
        PerceptionRule::HigherTier => r.note(
            "tier order is literal: a plain failed perception roll beats a fumbled stealth \
             roll (--perception-rule higher-tier; the seed requires a success)",
        ),
        PerceptionRule::NeedsSuccess => r.note(
            "the perception roll must also succeed (seed 000: 上回る成功を知覚判定で出せた場合のみ)",
        ),
    };
    two_sided(r, query, law, stealth, &vs_law)
}

fn extended_report<W: Weight>(
    query: &Query,
    law: &TierLaw<Outcome, W>,
    params: &ExtendedParams,
) -> Report<W> {
    let ext = extended_law(law, params);
    let r = Report::bare(ID, JA, ext.p_done())
        .field("p_done_by", Field::Probs(ext.p_done_by.clone()))
        .field(
            "expected_rolls_within_limit",
            Field::Value(ext.expected_rolls),
        )
        .prob("p_success_per_roll", law.p_success());
    let r = match extended_expected_attempts(law, params) {
        Some(e) => r.field("expected_rolls", Field::Value(e)),
        None => r.note("no attempt can succeed: the check is never completed (no expected_rolls)"),
    };
    let per_roll_max = match params.counting {
        Counting::Successes => 1,
        Counting::Degrees => 3,
    };
    let r = if params.successes > per_roll_max * params.attempts {
        r.note(format!(
            "{} successes cannot be reached in {} attempts",
            params.successes, params.attempts
        ))
    } else {
        r
    };
    let r = r.field("tiers", tiers_field(law));
    with_notes(
        with_fields(r, query.check.fields("")),
        query.check.notes(""),
    )
}
