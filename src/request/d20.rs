//! The d20 request (seed 001): `hantei odds d20` flags, and the same
//! fields in JSON and analysis files. Validation and parameter building
//! only; the math is in [`crate::systems::d20`].
//!
//! Any `--vs-*` flag makes the report a contest (対抗判定) against that side.
use crate::error::{Error, Result};
use crate::report::Report;
use crate::systems::d20::{
    check_report, contest_report, Ability, Check, Contest, FatePlan, Policy, Roll, Side, TieBreak,
    Training,
};
use crate::weight::Weight;

use serde_json::{Map, Value};

use super::de;
use serde::{Deserialize, Serialize};

/// A d20 check or contest: the flags of `hantei odds d20`, and the same
/// fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::{d20, Request};
///
/// // RULES.md §2: 1d20 + 5 against DC 15 succeeds on 10..=20: 55%.
/// let req = Request::D20(d20::Params { modifier: Some(5), dc: Some(15), ..Default::default() });
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(11, 20));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Ability modifier (ステータス修正値), −50..=50 [default: 0].
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-50..=50"))]
    pub modifier: Option<i64>,
    /// Ability score (能力値) 1..=30, giving the modifier floor((s − 10)/2).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=30"))]
    pub score: Option<i64>,
    /// Proficiency bonus (習熟ボーナス), 0..=20 [default: 0].
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=20"))]
    pub proficiency: Option<i64>,
    /// Level 1..=20, giving the proficiency 2 + floor((L − 1)/4).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=20"))]
    pub level: Option<i64>,
    /// Extra flat bonus added to the total, −50..=50.
    #[serde(deserialize_with = "de::int")]
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = super::int_flag("-50..=50"))]
    pub bonus: i64,
    /// Target value (目標値, DC), −50..=100. Required unless a contest.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-50..=100"))]
    pub dc: Option<i64>,
    /// 有利: roll 2d20, keep the higher (with --disadvantage too: neither).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub advantage: bool,
    /// 不利: roll 2d20, keep the lower (with --advantage too: neither).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub disadvantage: bool,
    /// A natural N or more on the kept die is critical (BCDice AT@N), 2..=20
    /// [default: 20].
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("2..=20"))]
    pub crit_on: Option<i64>,
    /// Fate dice (フェイト・ダイス) available for this check, 0..=10.
    #[serde(deserialize_with = "de::int")]
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = super::int_flag("0..=10"))]
    pub fate: i64,
    /// Fate-dice policy whose outcomes are reported [default: optimal with
    /// --fate > 0, else none].
    #[serde(
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub policy: Option<Policy>,
    /// Opposing side's ability modifier (makes a contest).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-50..=50"))]
    pub vs_modifier: Option<i64>,
    /// Opposing side's ability score (makes a contest).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=30"))]
    pub vs_score: Option<i64>,
    /// Opposing side's proficiency bonus (makes a contest).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=20"))]
    pub vs_proficiency: Option<i64>,
    /// Opposing side's level (makes a contest).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=20"))]
    pub vs_level: Option<i64>,
    /// Opposing side's extra bonus (makes a contest).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-50..=50"))]
    pub vs_bonus: Option<i64>,
    /// Opposing side rolls with advantage (makes a contest).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub vs_advantage: bool,
    /// Opposing side rolls with disadvantage (makes a contest).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub vs_disadvantage: bool,
    /// Who takes a tied contest [default: defender].
    #[serde(
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub tie_rule: Option<TieBreak>,
}

/// A report's `params` block as request fields: `mode` follows from the
/// fields, a score or level gives the modifier or proficiency shown, and
/// `roll` becomes the switch.
pub(super) fn unreport(m: &mut Map<String, Value>) {
    m.remove("mode");
    for side in ["", "vs_"] {
        let key = |name: &str| format!("{side}{name}");
        let given =
            |m: &Map<String, Value>, name: &str| m.get(&key(name)).is_some_and(|v| !v.is_null());
        if given(m, "score") {
            m.remove(&key("modifier"));
        }
        if given(m, "level") {
            m.remove(&key("proficiency"));
        }
        if let Some(Value::String(roll)) = m.remove(&key("roll")) {
            if roll == "advantage" || roll == "disadvantage" {
                m.insert(key(&roll), Value::Bool(true));
            }
        }
    }
}

/// One side's flags, before validation.
struct SideFlags {
    modifier: Option<i64>,
    score: Option<i64>,
    proficiency: Option<i64>,
    level: Option<i64>,
    bonus: i64,
    advantage: bool,
    disadvantage: bool,
}

impl SideFlags {
    /// Validate and build; `prefix` names the flags (`""` or `"vs-"`).
    fn side(&self, prefix: &str) -> Result<Side> {
        let both = |a: &str, b: &str| {
            Error::Conflict(format!(
                "--{prefix}{a} and --{prefix}{b} cannot both be given (give one)"
            ))
        };
        let ability = match (self.modifier, self.score) {
            (Some(_), Some(_)) => return Err(both("modifier", "score")),
            (_, Some(s)) => Ability::Score(s),
            (m, None) => Ability::Modifier(m.unwrap_or(0)),
        };
        let training = match (self.proficiency, self.level) {
            (Some(_), Some(_)) => return Err(both("proficiency", "level")),
            (_, Some(l)) => Training::Level(l),
            (p, None) => Training::Proficiency(p.unwrap_or(0)),
        };
        let roll = Roll::from_flags(self.advantage, self.disadvantage);
        Side::new(ability, training, self.bonus, roll, prefix)
    }
}

impl Params {
    fn active(&self) -> SideFlags {
        SideFlags {
            modifier: self.modifier,
            score: self.score,
            proficiency: self.proficiency,
            level: self.level,
            bonus: self.bonus,
            advantage: self.advantage,
            disadvantage: self.disadvantage,
        }
    }

    fn opposing(&self) -> SideFlags {
        SideFlags {
            modifier: self.vs_modifier,
            score: self.vs_score,
            proficiency: self.vs_proficiency,
            level: self.vs_level,
            bonus: self.vs_bonus.unwrap_or(0),
            advantage: self.vs_advantage,
            disadvantage: self.vs_disadvantage,
        }
    }

    fn is_contest(&self) -> bool {
        [
            self.vs_modifier,
            self.vs_score,
            self.vs_proficiency,
            self.vs_level,
            self.vs_bonus,
        ]
        .iter()
        .any(Option::is_some)
            || self.vs_advantage
            || self.vs_disadvantage
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> Result<Report<W>> {
        let active = self.active().side("")?;
        if self.is_contest() {
            let only_checks = [
                ("--dc", self.dc.is_some()),
                ("--crit-on", self.crit_on.is_some()),
                ("--fate", self.fate != 0),
                ("--policy", self.policy.is_some()),
            ];
            if let Some((flag, _)) = only_checks.iter().find(|(_, given)| *given) {
                return Err(Error::Conflict(format!(
                    "{flag} does not apply to a contest (a --vs-* flag was given)"
                )));
            }
            let opposing = self.opposing().side("vs-")?;
            let contest = Contest::new(active, opposing, self.tie_rule.unwrap_or_default());
            return Ok(contest_report(&contest));
        }
        if self.tie_rule.is_some() {
            return Err(Error::Conflict(
                "--tie-rule applies only to a contest (give a --vs-* flag)".into(),
            ));
        }
        let dc = self.dc.ok_or_else(|| {
            Error::Conflict("--dc is required (or give --vs-* flags for a contest)".into())
        })?;
        let crit_on = self.crit_on.unwrap_or(20);
        let crit_on = u32::try_from(crit_on)
            .map_err(|_| Error::param("--crit-on", crit_on, "allowed 2..=20"))?;
        let check = Check::new(active, dc, crit_on)?;
        let fate = u32::try_from(self.fate)
            .map_err(|_| Error::param("--fate", self.fate, "allowed 0..=10"))?;
        let policy = match (self.policy, fate) {
            (Some(p), 0) if p != Policy::None => {
                return Err(Error::param(
                    "--policy",
                    p.key(),
                    "a fate-dice policy needs --fate 1 or more",
                ))
            }
            (Some(p), _) => p,
            (None, 0) => Policy::None,
            (None, _) => Policy::Optimal,
        };
        check_report(&FatePlan::new(check, fate, policy)?)
    }
}
