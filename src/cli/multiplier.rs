//! `hantei odds multiplier`: flags for the d100 success-multiplier check
//! (seed 000, 行為判定). The flags are checked against the kind of check and
//! turned into a [`Query`]; the numbers come from
//! [`crate::systems::multiplier`].
//!
//! The opposing side of a contest (対抗判定) or the stealth roll of
//! perception vs stealth (知覚対隠密) is given with the same flags prefixed
//! `--vs-`. When `--kind` is left out it is `random` if `--rate` is given,
//! `skill` if `--skill-level` or `--required-level` is given, else `ability`.

use crate::error::{Error, Result};
use crate::report::Report;
use crate::systems::multiplier::{
    self as m, AbilityCheck, Check, CheckSpec, Counting, ExtendedParams, Kind, Mode, Options,
    PerceptionRule, Query, SkillCheck,
};
use crate::weight::Weight;

/// A required level: a number ≥ 1, or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequiredLevel(pub Option<i64>);

fn parse_required(s: &str) -> std::result::Result<RequiredLevel, String> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(RequiredLevel(None));
    }
    s.trim()
        .parse::<i64>()
        .map(|n| RequiredLevel(Some(n)))
        .map_err(|_| format!("'{s}' is not a level (expected a number ≥ 1 or 'none')"))
}

/// Flags of `hantei odds multiplier`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The acting (or perceiving) side.
    #[command(flatten)]
    pub main: Box<MainArgs>,
    /// The opposing (or stealth) side.
    #[command(flatten)]
    pub vs: Box<VsArgs>,
    /// Whether a roll of 100 (00) counts as doubles for a fumble.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub hundred_is_doubles: bool,
    /// Perception vs stealth (知覚対隠密): this side perceives, the --vs- side
    /// is the stealth roll; one roll each, a strictly higher tier notices.
    #[arg(long)]
    pub perception: bool,
    /// Perception vs stealth where the perception roll must also succeed
    /// (implies --perception).
    #[arg(long)]
    pub perception_needs_success: bool,
    /// Extended check (継続的な行為判定): successes needed, 1..=1000.
    #[arg(long, allow_negative_numbers = true)]
    pub successes: Option<i64>,
    /// Extended check: attempt limit, 1..=1000. Default 10.
    #[arg(long, allow_negative_numbers = true)]
    pub attempts: Option<i64>,
    /// Extended check: effective success counts 2, decisive 3.
    #[arg(long)]
    pub degrees: bool,
}

/// Flags of the acting side.
#[derive(clap::Args, Debug)]
pub struct MainArgs {
    /// Kind of check: ability (能力値判定), skill (技能判定) or random
    /// (無作為判定). Default: random with --rate, skill with --skill-level or
    /// --required-level, else ability.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Ability score A (基本能力値), 0..=1000. Needed for ability and skill
    /// checks.
    #[arg(long, allow_negative_numbers = true)]
    pub ability: Option<i64>,
    /// A supporter's ability (協力): adds half, rounded up. Repeatable or
    /// comma-separated.
    #[arg(
        long = "supporter",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub supporters: Vec<i64>,
    /// Base success multiplier M (成功倍率), any integer. Default 5.
    #[arg(long, allow_negative_numbers = true)]
    pub multiplier: Option<i64>,
    /// Modifier to the multiplier; repeatable or comma-separated, summed.
    #[arg(
        long = "modifier",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub modifiers: Vec<i64>,
    /// Skill level S (技能レベル); several (repeatable or 3,2) → the lowest.
    /// Default 0 (skill not held).
    #[arg(
        long = "skill-level",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub skill_levels: Vec<i64>,
    /// Required skill level R (要求技能レベル), ≥ 1, or "none". Default 1.
    #[arg(long, value_parser = parse_required, allow_negative_numbers = true)]
    pub required_level: Option<RequiredLevel>,
    /// Ability check: no guaranteed rate (最低保障成功率) when the final
    /// multiplier is ≤ 0 — the check is impossible instead.
    #[arg(long)]
    pub no_guarantee: bool,
    /// Random check: the rate in %, 0..=1000.
    #[arg(long, allow_negative_numbers = true)]
    pub rate: Option<i64>,
}

/// Flags of the opposing side (contest) or the stealth roll (perception):
/// the same as [`MainArgs`], prefixed `--vs-`.
#[derive(clap::Args, Debug)]
pub struct VsArgs {
    /// Opposing side: kind of check (default as for --kind).
    #[arg(long, value_enum)]
    pub vs_kind: Option<Kind>,
    /// Opposing side: ability score.
    #[arg(long, allow_negative_numbers = true)]
    pub vs_ability: Option<i64>,
    /// Opposing side: a supporter's ability.
    #[arg(
        long = "vs-supporter",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub vs_supporters: Vec<i64>,
    /// Opposing side: base multiplier (default 5).
    #[arg(long, allow_negative_numbers = true)]
    pub vs_multiplier: Option<i64>,
    /// Opposing side: modifier to the multiplier.
    #[arg(
        long = "vs-modifier",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub vs_modifiers: Vec<i64>,
    /// Opposing side: skill level(s).
    #[arg(
        long = "vs-skill-level",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub vs_skill_levels: Vec<i64>,
    /// Opposing side: required level, or "none" (default 1).
    #[arg(long, value_parser = parse_required, allow_negative_numbers = true)]
    pub vs_required_level: Option<RequiredLevel>,
    /// Opposing side: no guaranteed rate.
    #[arg(long)]
    pub vs_no_guarantee: bool,
    /// Opposing side: random check rate.
    #[arg(long, allow_negative_numbers = true)]
    pub vs_rate: Option<i64>,
}

/// One side's flags, whatever their prefix.
struct Side<'a> {
    /// `"--"` or `"--vs-"`.
    prefix: &'static str,
    kind: Option<Kind>,
    ability: Option<i64>,
    supporters: &'a [i64],
    multiplier: Option<i64>,
    modifiers: &'a [i64],
    skill_levels: &'a [i64],
    required_level: Option<RequiredLevel>,
    no_guarantee: bool,
    rate: Option<i64>,
}

impl Side<'_> {
    /// Whether any flag of this side was given.
    fn given(&self) -> bool {
        self.kind.is_some()
            || self.ability.is_some()
            || !self.supporters.is_empty()
            || self.multiplier.is_some()
            || !self.modifiers.is_empty()
            || !self.skill_levels.is_empty()
            || self.required_level.is_some()
            || self.no_guarantee
            || self.rate.is_some()
    }

    fn flag(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The check these flags describe.
    fn check(&self) -> Result<Check> {
        let kind = self.kind.unwrap_or(if self.rate.is_some() {
            Kind::Random
        } else if !self.skill_levels.is_empty() || self.required_level.is_some() {
            Kind::Skill
        } else {
            Kind::Ability
        });
        let present = [
            ("ability", self.ability.is_some()),
            ("supporter", !self.supporters.is_empty()),
            ("multiplier", self.multiplier.is_some()),
            ("modifier", !self.modifiers.is_empty()),
            ("skill-level", !self.skill_levels.is_empty()),
            ("required-level", self.required_level.is_some()),
            ("no-guarantee", self.no_guarantee),
            ("rate", self.rate.is_some()),
        ];
        let allowed: &[&str] = match kind {
            Kind::Ability => &[
                "ability",
                "supporter",
                "multiplier",
                "modifier",
                "no-guarantee",
            ],
            Kind::Skill => &[
                "ability",
                "supporter",
                "multiplier",
                "modifier",
                "skill-level",
                "required-level",
            ],
            Kind::Random => &["rate"],
        };
        if let Some((name, _)) = present
            .iter()
            .find(|(name, given)| *given && !allowed.contains(name))
        {
            return Err(Error::Conflict(format!(
                "{} does not apply to {} {}: it takes {}",
                self.flag(name),
                self.flag("kind"),
                kind.key(),
                allowed
                    .iter()
                    .map(|a| self.flag(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let spec = match kind {
            Kind::Random => CheckSpec::Random {
                rate: self
                    .rate
                    .ok_or_else(|| self.missing("rate", "a random check"))?,
            },
            Kind::Ability | Kind::Skill => {
                let ability = self
                    .ability
                    .ok_or_else(|| self.missing("ability", "an ability or skill check"))?;
                let multiplier = self.multiplier.unwrap_or(m::BASE_MULTIPLIER);
                if kind == Kind::Ability {
                    CheckSpec::Ability(AbilityCheck {
                        ability,
                        supporters: self.supporters.to_vec(),
                        multiplier,
                        modifiers: self.modifiers.to_vec(),
                        guarantee: !self.no_guarantee,
                    })
                } else {
                    CheckSpec::Skill(SkillCheck {
                        ability,
                        supporters: self.supporters.to_vec(),
                        multiplier,
                        modifiers: self.modifiers.to_vec(),
                        skill_levels: self.skill_levels.to_vec(),
                        required_level: self
                            .required_level
                            .map_or(Some(m::DEFAULT_REQUIRED_LEVEL), |r| r.0),
                    })
                }
            }
        };
        Check::new(spec).map_err(|e| self.rename(e))
    }

    fn missing(&self, name: &str, what: &str) -> Error {
        Error::Conflict(format!("missing {}: {what} needs it", self.flag(name)))
    }

    /// Errors from the library name the plain flags; give them this side's
    /// prefix.
    fn rename(&self, e: Error) -> Error {
        match e {
            Error::InvalidParam {
                name,
                value,
                allowed,
            } => Error::InvalidParam {
                name: name.replacen("--", self.prefix, 1),
                value,
                allowed,
            },
            other => other,
        }
    }
}

impl Args {
    fn main_side(&self) -> Side<'_> {
        let a = &self.main;
        Side {
            prefix: "--",
            kind: a.kind,
            ability: a.ability,
            supporters: &a.supporters,
            multiplier: a.multiplier,
            modifiers: &a.modifiers,
            skill_levels: &a.skill_levels,
            required_level: a.required_level,
            no_guarantee: a.no_guarantee,
            rate: a.rate,
        }
    }

    fn vs_side(&self) -> Side<'_> {
        let v = &self.vs;
        Side {
            prefix: "--vs-",
            kind: v.vs_kind,
            ability: v.vs_ability,
            supporters: &v.vs_supporters,
            multiplier: v.vs_multiplier,
            modifiers: &v.vs_modifiers,
            skill_levels: &v.vs_skill_levels,
            required_level: v.vs_required_level,
            no_guarantee: v.vs_no_guarantee,
            rate: v.vs_rate,
        }
    }

    /// Validate the flags and build the question.
    pub fn query(&self) -> Result<Query> {
        let check = self.main_side().check()?;
        let vs = self.vs_side();
        let perception = self.perception || self.perception_needs_success;
        let conflict = |msg: &str| Err(Error::Conflict(msg.to_string()));
        let mode = if let Some(k) = self.successes {
            if vs.given() {
                return conflict(
                    "--successes (extended check) cannot be combined with an opposing --vs- side",
                );
            }
            if perception {
                return conflict(
                    "--successes (extended check) cannot be combined with --perception",
                );
            }
            let counting = if self.degrees {
                Counting::Degrees
            } else {
                Counting::Successes
            };
            Mode::Extended(ExtendedParams::new(
                k,
                self.attempts.unwrap_or(m::DEFAULT_ATTEMPTS),
                counting,
            )?)
        } else if self.attempts.is_some() || self.degrees {
            return conflict("--attempts and --degrees need --successes (extended check)");
        } else if vs.given() {
            let other = vs.check()?;
            if perception {
                Mode::Perception {
                    stealth: other,
                    rule: if self.perception_needs_success {
                        PerceptionRule::NeedsSuccess
                    } else {
                        PerceptionRule::HigherTier
                    },
                }
            } else {
                Mode::Contest { vs: other }
            }
        } else if perception {
            return conflict("--perception needs the stealth roll, given with --vs- flags (e.g. --vs-kind skill --vs-ability 12 --vs-skill-level 2 --vs-required-level none)");
        } else {
            Mode::Single
        };
        Ok(Query {
            check,
            mode,
            options: Options {
                hundred_is_doubles: self.hundred_is_doubles,
            },
        })
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> Result<Report<W>> {
        Ok(m::report(&self.query()?))
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::main_with_args;

    fn run(args: &str) -> Result<serde_json::Value, String> {
        let argv = [
            "hantei",
            "odds",
            "--format",
            "json",
            "--exact",
            "multiplier",
        ]
        .into_iter()
        .map(String::from)
        .chain(args.split_whitespace().map(String::from));
        let out = main_with_args(argv)?;
        serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
    }

    #[test]
    fn worked_value_through_the_cli() {
        let j = run("--kind ability --ability 12 --multiplier 5").unwrap();
        assert_eq!(j["system"], "multiplier");
        assert_eq!(j["p_success"], "3/5");
        assert_eq!(j["p_fumble"], "1/20");
        assert_eq!(j["rate"], 60);
        assert_eq!(j["auto_fail_threshold"], 96);
        assert_eq!(j["impossible"], false);
        assert_eq!(j["params"]["guarantee"], true);
        assert_eq!(j["params"]["hundred_is_doubles"], true);
    }

    #[test]
    fn skill_defaults_and_lists() {
        let j =
            run("--kind skill --ability 12 --skill-level 3,2 --modifier -2 --modifier 1").unwrap();
        // S = 2, F = 2 + 5 − 1 = 6, R = 1 met: 36.
        assert_eq!(j["rate"], 36);
        assert_eq!(j["params"]["required_level"], 1);
        let j = run("--ability 12 --required-level none").unwrap();
        assert_eq!(j["params"]["kind"], "skill");
        assert_eq!(j["rate"], 30);
        assert!(j["params"]["required_level"].is_null());
        let j = run("--rate 125").unwrap();
        assert_eq!(j["auto_fail_threshold"], 98);
    }

    #[test]
    fn contest_perception_extended() {
        let j = run("--ability 12 --vs-ability 12").unwrap();
        assert_eq!(j["p_win"], "1/2");
        assert_eq!(j["p_tie"], "0/1");
        let j = run("--ability 12 --vs-kind skill --vs-ability 12 --vs-required-level 5").unwrap();
        assert_eq!(j["vs_impossible"], true);
        let j = run("--ability 12 --perception --vs-rate 30").unwrap();
        assert_eq!(j["params"]["perception_rule"], "higher-tier");
        let j = run("--ability 12 --successes 2 --attempts 3 --degrees").unwrap();
        assert_eq!(j["p_done_by"].as_array().map(Vec::len), Some(3));
        assert_eq!(j["params"]["counting"], "degrees");
    }

    #[test]
    fn bad_inputs_are_one_line_errors() {
        for (args, needle) in [
            ("--ability -3", "--ability"),
            (
                "--kind ability --ability 12 --rate 60",
                "--rate does not apply",
            ),
            (
                "--kind random --rate 60 --ability 3",
                "--ability does not apply",
            ),
            ("--kind skill --ability 12 --no-guarantee", "--no-guarantee"),
            ("--kind random", "missing --rate"),
            ("--multiplier 5", "missing --ability"),
            ("--ability 12 --vs-ability 2000", "--vs-ability"),
            ("--ability 12 --perception", "--perception"),
            ("--ability 12 --attempts 3", "--successes"),
            ("--ability 12 --successes 2 --vs-rate 3", "--successes"),
            ("--rate 1001", "--rate"),
            ("--ability 12 --required-level 0", "--required-level"),
            ("--ability 12 --required-level x", "--required-level"),
        ] {
            let e = run(args).unwrap_err();
            assert!(e.contains(needle), "{args}: {e}");
            assert!(!e.contains('\n'), "{args}: {e}");
        }
    }
}
