//! `hantei odds keep-highest`: flags for [`crate::systems::keep_highest`].
//!
//! A check by default; any `--vs-` flag makes it a contest (対決).
use clap::ArgAction;

use crate::error::Error;
use crate::report::Report;
use crate::systems::keep_highest::{self as kh, Check, Contest, Pool, Situation, TieRule};
use crate::weight::Weight;
use serde::{Deserialize, Serialize};

use serde_json::{Map, Value};

use super::de;

/// A keep-highest check or contest: the flags of `hantei odds
/// keep-highest`, and the same fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::Request;
/// use serde_json::json;
///
/// // RULES.md §3: ability 6 (d6), three dice, difficulty 5: 1 − (4/6)³ = 19/27.
/// let req = Request::from_json(&json!({
///     "system": "keep-highest", "ability": 6, "dice": 3, "difficulty": 5
/// }))?;
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(19, 27));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Ability score (能力値) ≥ 1; sets the die size (ダイスサイズ).
    #[serde(deserialize_with = "de::int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub ability: i64,
    /// Number of dice ≥ 1 (1 + base skill held + specialty + effects).
    #[serde(default = "one", deserialize_with = "de::int")]
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub dice: i64,
    /// Difficulty (難易度), 2..=20. Required for a check; not used in a
    /// contest.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("2..=20"))]
    pub difficulty: Option<i64>,
    /// Advantage (有利); repeatable. Any mix with --disadvantage cancels.
    #[serde(default, deserialize_with = "de::count")]
    #[arg(long, action = ArgAction::Count)]
    pub advantage: u8,
    /// Disadvantage (不利); repeatable. Any mix with --advantage cancels.
    #[serde(default, deserialize_with = "de::count")]
    #[arg(long, action = ArgAction::Count)]
    pub disadvantage: u8,
    /// Contest: the passive side's (受動側) ability score.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub vs_ability: Option<i64>,
    /// Contest: the passive side's number of dice (default 1).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("at least 1"))]
    pub vs_dice: Option<i64>,
    /// Contest: the passive side has advantage; repeatable.
    #[serde(default, deserialize_with = "de::count")]
    #[arg(long, action = ArgAction::Count)]
    pub vs_advantage: u8,
    /// Contest: the passive side has disadvantage; repeatable.
    #[serde(default, deserialize_with = "de::count")]
    #[arg(long, action = ArgAction::Count)]
    pub vs_disadvantage: u8,
    /// Contest: the passive side cannot roll (achieved value 0).
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub vs_cannot_roll: bool,
    /// Contest: who takes a tie (the seed's rule is cut off) [default: tie].
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub tie_rule: Option<TieRule>,
}

fn one() -> i64 {
    1
}

/// A report's `params` block as request fields: the die and its cap follow
/// from the ability; the situation (`advantage`) becomes the switches.
pub(super) fn unreport(m: &mut Map<String, Value>) {
    for side in ["", "vs_"] {
        m.remove(&format!("{side}die"));
        m.remove(&format!("{side}cap"));
        let key = format!("{side}advantage");
        if let Some(Value::String(situation)) = m.remove(&key) {
            if situation == "advantage" || situation == "disadvantage" {
                m.insert(format!("{side}{situation}"), Value::from(1));
            }
        }
    }
}

impl Params {
    fn is_contest(&self) -> bool {
        self.vs_ability.is_some()
            || self.vs_dice.is_some()
            || self.vs_advantage > 0
            || self.vs_disadvantage > 0
            || self.vs_cannot_roll
            || self.tie_rule.is_some()
    }

    fn passive(&self) -> crate::Result<Option<Pool>> {
        let situation =
            Situation::from_counts(self.vs_advantage.into(), self.vs_disadvantage.into());
        if self.vs_cannot_roll {
            if self.vs_ability.is_some() || self.vs_dice.is_some() || situation != Situation::Normal
            {
                return Err(Error::Conflict(
                    "--vs-cannot-roll takes no other --vs- flag (a passive side that cannot roll counts as 0)".into(),
                ));
            }
            return Ok(None);
        }
        let ability = self.vs_ability.ok_or_else(|| {
            Error::Conflict(
                "a contest needs --vs-ability (or --vs-cannot-roll for a passive side that cannot roll)"
                    .into(),
            )
        })?;
        Pool::new_vs(ability, self.vs_dice.unwrap_or(1), situation).map(Some)
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        let situation = Situation::from_counts(self.advantage.into(), self.disadvantage.into());
        let active = Pool::new(self.ability, self.dice, situation)?;
        let vs_given = self.vs_ability.is_some()
            || self.vs_dice.is_some()
            || self.vs_advantage > 0
            || self.vs_disadvantage > 0
            || self.vs_cannot_roll;
        if self.tie_rule.is_some() && !vs_given {
            return Err(Error::Conflict(
                "--tie-rule applies only to a contest (対決): give the passive side with --vs-ability (or --vs-cannot-roll)".into(),
            ));
        }
        if self.is_contest() {
            if let Some(d) = self.difficulty {
                return Err(Error::param(
                    "--difficulty",
                    d,
                    "a contest (対決) has no difficulty; drop --difficulty or the --vs- flags",
                ));
            }
            let contest = Contest {
                active,
                passive: self.passive()?,
                tie_rule: self.tie_rule.unwrap_or_default(),
            };
            Ok(kh::contest_report(&contest))
        } else {
            let difficulty = self.difficulty.ok_or_else(|| {
                Error::Conflict(
                    "a check needs --difficulty (2..=20), or --vs-ability for a contest".into(),
                )
            })?;
            Ok(kh::report(&Check::new(active, difficulty)?))
        }
    }
}
