//! `hantei odds keep-highest`: flags for [`crate::systems::keep_highest`].
//!
//! A check by default; any `--vs-` flag makes it a contest (対決).
use clap::ArgAction;

use crate::error::Error;
use crate::report::Report;
use crate::systems::keep_highest::{self as kh, Check, Contest, Pool, Situation, TieRule};
use crate::weight::Weight;

/// Flags of `hantei odds keep-highest`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Ability score (能力値) ≥ 1; sets the die size (ダイスサイズ).
    #[arg(long, allow_negative_numbers = true)]
    pub ability: i64,
    /// Number of dice ≥ 1 (1 + base skill held + specialty + effects).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub dice: i64,
    /// Difficulty (難易度), 2..=20. Required for a check; not used in a
    /// contest.
    #[arg(long, allow_negative_numbers = true)]
    pub difficulty: Option<i64>,
    /// Advantage (有利); repeatable. Any mix with --disadvantage cancels.
    #[arg(long, action = ArgAction::Count)]
    pub advantage: u8,
    /// Disadvantage (不利); repeatable. Any mix with --advantage cancels.
    #[arg(long, action = ArgAction::Count)]
    pub disadvantage: u8,
    /// Contest: the passive side's (受動側) ability score.
    #[arg(long, allow_negative_numbers = true)]
    pub vs_ability: Option<i64>,
    /// Contest: the passive side's number of dice (default 1).
    #[arg(long, allow_negative_numbers = true)]
    pub vs_dice: Option<i64>,
    /// Contest: the passive side has advantage; repeatable.
    #[arg(long, action = ArgAction::Count)]
    pub vs_advantage: u8,
    /// Contest: the passive side has disadvantage; repeatable.
    #[arg(long, action = ArgAction::Count)]
    pub vs_disadvantage: u8,
    /// Contest: the passive side cannot roll (achieved value 0).
    #[arg(long)]
    pub vs_cannot_roll: bool,
    /// Contest: who takes a tie (the seed's rule is cut off).
    #[arg(long, value_enum)]
    pub tie_rule: Option<TieRule>,
}

impl Args {
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
