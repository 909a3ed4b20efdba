//! `hantei odds levels`: flags for [`crate::systems::levels`].
//!
//! A check by default; a defender's skill (`--vs-skill`, `--vs-from-brp`,
//! `--vs-from-ability`) makes it a contest (対抗判定).
use crate::cli::parse_list;
use crate::error::Error;
use crate::report::Report;
use crate::systems::levels::{self, Check, Contest, CriticalRule, Prior, Required, Skill};
use crate::weight::Weight;

// `std::vec::Vec` (not `Vec`) so that clap takes one comma list per flag
// rather than repeated flags.

/// Flags of `hantei odds levels`.
#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("skill_source").required(true).multiple(false))]
#[command(group = clap::ArgGroup::new("vs_source").multiple(false))]
#[command(group = clap::ArgGroup::new("required").multiple(false))]
pub struct Args {
    /// Target values (判定値) by level, level 1 first: `50,30,15`.
    #[arg(long, group = "skill_source", value_parser = parse_list, allow_hyphen_values = true)]
    pub skill: Option<std::vec::Vec<i64>>,
    /// The skill from a BRP skill value s (0..=100): [s, s/2, s/5, s/10],
    /// stopping at the first derived level below 10.
    #[arg(long, group = "skill_source", allow_negative_numbers = true)]
    pub from_brp: Option<i64>,
    /// The skill from an ability a (≥ 1) used ×n: [5a, 4a, 3a, 2a, a],
    /// capped at 100.
    #[arg(long, group = "skill_source", allow_negative_numbers = true)]
    pub from_ability: Option<i64>,
    /// Declared level (1..=levels). Default: the best level.
    #[arg(long, allow_negative_numbers = true)]
    pub level: Option<i64>,
    /// Required level (難易度) ≥ 1, known.
    #[arg(long, group = "required", allow_negative_numbers = true)]
    pub difficulty: Option<i64>,
    /// Unknown required level: weights for D = 1, 2, … (`1,2,1`).
    #[arg(long, group = "required", value_parser = parse_list, allow_hyphen_values = true)]
    pub prior: Option<std::vec::Vec<i64>>,
    /// Which successful rolls are critical.
    #[arg(long, value_enum, default_value_t = CriticalRule::Exact)]
    pub critical: CriticalRule,
    /// Contest: the defender's (受動側) target values by level.
    #[arg(long, group = "vs_source", value_parser = parse_list, allow_hyphen_values = true)]
    pub vs_skill: Option<std::vec::Vec<i64>>,
    /// Contest: the defender's skill from a BRP skill value.
    #[arg(long, group = "vs_source", allow_negative_numbers = true)]
    pub vs_from_brp: Option<i64>,
    /// Contest: the defender's skill from an ability (×n).
    #[arg(long, group = "vs_source", allow_negative_numbers = true)]
    pub vs_from_ability: Option<i64>,
    /// Contest: the defender's declared level. Default: the best reply
    /// (the attacker's level).
    #[arg(long, allow_negative_numbers = true)]
    pub vs_level: Option<i64>,
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
    Some(built.map_err(|e| name_side(prefix, e)))
}

/// Name the defender's flags in its errors.
fn name_side(prefix: &str, e: Error) -> Error {
    if prefix.is_empty() {
        return e;
    }
    match e {
        Error::InvalidParam {
            name,
            value,
            allowed,
        } => Error::InvalidParam {
            name: name.replacen("--", &format!("--{prefix}"), 1),
            value,
            allowed,
        },
        Error::InvalidLevels {
            level,
            value,
            reason,
        } => Error::InvalidLevels {
            level,
            value,
            reason: format!("{reason} (in --{prefix}skill)"),
        },
        other => other,
    }
}

impl Args {
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
