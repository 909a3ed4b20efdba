//! `hantei odds levels`: flags for [`crate::systems::levels`].
//!
//! A check by default; a defender's skill (`--vs-skill`, `--vs-from-brp`,
//! `--vs-from-ability`) makes it a contest (対抗判定).
use super::parse_list;
use crate::error::Error;
use crate::report::Report;
use crate::systems::levels::{self, Check, Contest, CriticalRule, Prior, Required, Skill};
use crate::weight::Weight;
use serde::{Deserialize, Serialize};

use serde_json::{Map, Value};

use super::de;

// `std::vec::Vec` (not `Vec`) so that clap takes one comma list per flag
// rather than repeated flags.

/// A levels check or contest: the flags of `hantei odds levels`, and the
/// same fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::{levels, Request};
///
/// // Seed 003: attack [50,30,15,10] against defence [70,40,30]: the attack
/// // lands with 0.15, 0.18, 0.105, 0.10 by level; the best level is 2.
/// let req = Request::Levels(levels::Params {
///     skill: Some(vec![50, 30, 15, 10]),
///     vs_skill: Some(vec![70, 40, 30]),
///     ..Default::default()
/// });
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(9, 50));
/// assert_eq!(report.get("best_level"), Some(&hantei::Field::Int(2)));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[command(group = clap::ArgGroup::new("skill_source").required(true).multiple(false))]
#[command(group = clap::ArgGroup::new("vs_source").multiple(false))]
#[command(group = clap::ArgGroup::new("required").multiple(false))]
pub struct Params {
    /// Target values (判定値) by level, level 1 first: `50,30,15`.
    #[serde(deserialize_with = "de::opt_ints")]
    #[arg(long, group = "skill_source", value_parser = parse_list, allow_hyphen_values = true)]
    pub skill: Option<std::vec::Vec<i64>>,
    /// The skill from a BRP skill value s (0..=100): [s, s/2, s/5, s/10],
    /// stopping at the first derived level below 10.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, group = "skill_source", allow_negative_numbers = true, value_parser = super::int_flag("0..=100"))]
    pub from_brp: Option<i64>,
    /// The skill from an ability a (≥ 1) used ×n: [5a, 4a, 3a, 2a, a],
    /// capped at 100.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, group = "skill_source", allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub from_ability: Option<i64>,
    /// Declared level (1..=levels). Default: the best level.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=the number of levels"))]
    pub level: Option<i64>,
    /// Required level (難易度) ≥ 1, known.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, group = "required", allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub difficulty: Option<i64>,
    /// Unknown required level: weights for D = 1, 2, … (`1,2,1`).
    #[serde(deserialize_with = "de::opt_ints")]
    #[arg(long, group = "required", value_parser = parse_list, allow_hyphen_values = true)]
    pub prior: Option<std::vec::Vec<i64>>,
    /// Which successful rolls are critical.
    #[serde(deserialize_with = "de::option", serialize_with = "de::ser_option")]
    #[arg(long, value_enum, default_value_t = CriticalRule::Exact)]
    pub critical: CriticalRule,
    /// Contest: the defender's (受動側) target values by level.
    #[serde(deserialize_with = "de::opt_ints")]
    #[arg(long, group = "vs_source", value_parser = parse_list, allow_hyphen_values = true)]
    pub vs_skill: Option<std::vec::Vec<i64>>,
    /// Contest: the defender's skill from a BRP skill value.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, group = "vs_source", allow_negative_numbers = true, value_parser = super::int_flag("0..=100"))]
    pub vs_from_brp: Option<i64>,
    /// Contest: the defender's skill from an ability (×n).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, group = "vs_source", allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub vs_from_ability: Option<i64>,
    /// Contest: the defender's declared level. Default: the best reply
    /// (the attacker's level).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=the number of levels"))]
    pub vs_level: Option<i64>,
}

/// A report's `params` block as request fields: the level shown is the
/// best one unless it was declared, and a defender's `best` reply is the
/// default.
pub(super) fn unreport(m: &mut Map<String, Value>) {
    if m.remove("level_declared") == Some(Value::Bool(false)) {
        m.remove("level");
    }
    if m.get("vs_level").is_some_and(|v| v == "best") {
        m.remove("vs_level");
    }
}

/// The skill given by one of the three source flags (`prefix` "" or "vs-").
fn skill(
    prefix: &str,
    list: &Option<std::vec::Vec<i64>>,
    brp: Option<i64>,
    ability: Option<i64>,
) -> Option<crate::Result<Skill>> {
    let built = match (list, brp, ability) {
        (Some(l), _, _) => Skill::new(l),
        (_, Some(s), _) => Skill::from_brp(s),
        (_, _, Some(a)) => Skill::from_ability(a),
        _ => return None,
    };
    Some(built.map_err(|e| e.on_side(prefix)))
}

impl Params {
    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        let attacker =
            skill("", &self.skill, self.from_brp, self.from_ability).ok_or_else(|| {
                Error::Conflict("give --skill, --from-brp or --from-ability".into())
            })??;
        let defender = skill(
            "vs-",
            &self.vs_skill,
            self.vs_from_brp,
            self.vs_from_ability,
        )
        .transpose()?;
        match defender {
            Some(defender) => {
                if self.difficulty.is_some() || self.prior.is_some() {
                    return Err(Error::Conflict(
                        "a contest (対抗判定) has no required level: drop --difficulty/--prior or the --vs- skill".into(),
                    ));
                }
                let contest =
                    Contest::new(attacker, defender, self.level, self.vs_level, self.critical)?;
                Ok(levels::contest_report(&contest))
            }
            None => {
                if let Some(l) = self.vs_level {
                    return Err(Error::param(
                        "--vs-level",
                        l,
                        "only for a contest (give the defender's --vs-skill)",
                    ));
                }
                let required = match (self.difficulty, &self.prior) {
                    (Some(d), _) => Required::known(d)?,
                    (_, Some(w)) => Required::Prior(Prior::new(w)?),
                    _ => {
                        return Err(Error::Conflict(
                            "a check needs --difficulty (the required level) or --prior, or a --vs-skill for a contest".into(),
                        ))
                    }
                };
                let check = Check::new(attacker, self.level, required, self.critical)?;
                Ok(levels::report(&check))
            }
        }
    }
}
