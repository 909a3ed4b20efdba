//! `hantei odds hit-pool`: flags for the Nd6 hit pool (seed 004,
//! ダイス・プール判定). Validates the flags, builds a
//! [`Check`] and asks the system module for
//! its report; no math here.

use crate::report::Report;
use crate::systems::hit_pool::{
    self, Check, EdgeUse, ExplodeGlitch, Extended, GlitchRule, NegatedCritical, Roll, TieRuleOpt,
    DEFAULT_TAIL_EPS,
};
use crate::weight::Weight;
use crate::Error;

/// Flags of `hantei odds hit-pool`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Dice pool: attribute + skill + modifiers (may be ≤ 0: no roll unless
    /// Edge gives a long shot).
    #[arg(long, allow_negative_numbers = true)]
    pub pool: i64,
    /// Threshold (基準値): hits needed; the target of an extended test.
    #[arg(long)]
    pub threshold: Option<i64>,
    /// When ones make a glitch.
    #[arg(long, value_enum, default_value_t = GlitchRule::HalfOrMore)]
    pub glitch_rule: GlitchRule,
    /// Limit (Shadowrun 5): hits above it are cut after the glitch is judged.
    #[arg(long)]
    pub limit: Option<i64>,
    /// Buy hits instead of rolling: floor(pool/4) hits, no glitch.
    #[arg(long)]
    pub buy: bool,
    /// Edge rating spent on this test (one use).
    #[arg(long, allow_negative_numbers = true)]
    pub edge: Option<i64>,
    /// How the Edge point is used (default push).
    #[arg(long, value_enum)]
    pub edge_use: Option<EdgeUse>,
    /// How ones are counted when dice explode.
    #[arg(long, value_enum, default_value_t = ExplodeGlitch::AllDice)]
    pub explode_glitch: ExplodeGlitch,
    /// What negate-glitch does to a critical glitch.
    #[arg(long, value_enum, default_value_t = NegatedCritical::Cancel)]
    pub negate_critical: NegatedCritical,
    /// Largest probability mass dropped when cutting exploding dice.
    #[arg(long, default_value_t = DEFAULT_TAIL_EPS)]
    pub tail_eps: f64,
    /// A teamwork helper's pool (repeatable): each hit adds a die.
    #[arg(long = "helper", allow_negative_numbers = true)]
    pub helpers: Vec<i64>,
    /// Cap on the dice helpers add (the leader's skill).
    #[arg(long)]
    pub team_cap: Option<i64>,
    /// Opposed test: the defender's pool.
    #[arg(long, allow_negative_numbers = true)]
    pub vs_pool: Option<i64>,
    /// The defender's limit.
    #[arg(long)]
    pub vs_limit: Option<i64>,
    /// The defender's Edge.
    #[arg(long, allow_negative_numbers = true)]
    pub vs_edge: Option<i64>,
    /// How the defender uses Edge (default push).
    #[arg(long, value_enum)]
    pub vs_edge_use: Option<EdgeUse>,
    /// Who takes a tie in an opposed test.
    #[arg(long, value_enum, default_value_t = TieRuleOpt::Defender)]
    pub tie_rule: TieRuleOpt,
    /// Extended test: roll until the hits reach the threshold.
    #[arg(long)]
    pub extended: bool,
    /// Most rolls in an extended test (default: the pool size).
    #[arg(long)]
    pub max_rolls: Option<i64>,
    /// Extended test: one die fewer per roll after the first (Shadowrun 5).
    #[arg(long)]
    pub shrink: bool,
    /// Extended test: a critical glitch fails the whole test.
    #[arg(long)]
    pub critical_glitch_ends: bool,
}

fn conflict(msg: &str) -> Error {
    Error::Conflict(msg.to_string())
}

impl Args {
    /// One side's roll from its flags.
    fn roll(
        &self,
        pool: i64,
        limit: Option<i64>,
        edge: Option<i64>,
        edge_use: Option<EdgeUse>,
        edge_flags: (&str, &str),
    ) -> crate::Result<Roll> {
        let mut roll = Roll::new(pool)?
            .with_glitch_rule(self.glitch_rule)
            .with_explode_glitch(self.explode_glitch)
            .with_negated_critical(self.negate_critical)
            .with_tail_eps(self.tail_eps)?;
        if let Some(l) = limit {
            roll = roll.with_limit(l)?;
        }
        match (edge, edge_use) {
            (Some(e), u) => roll = roll.with_edge(e, u.unwrap_or_default())?,
            (None, Some(_)) => {
                return Err(conflict(&format!(
                    "{} needs {} (the Edge rating)",
                    edge_flags.1, edge_flags.0
                )))
            }
            (None, None) => {}
        }
        Ok(roll)
    }

    /// The check these flags describe.
    pub fn check(&self) -> crate::Result<Check> {
        let mut roll = self.roll(
            self.pool,
            self.limit,
            self.edge,
            self.edge_use,
            ("--edge", "--edge-use"),
        )?;
        roll = roll.with_helpers(&self.helpers, self.team_cap)?;
        if self.team_cap.is_some() && self.helpers.is_empty() {
            return Err(conflict("--team-cap needs at least one --helper"));
        }
        let vs = self.vs_pool.is_some()
            || self.vs_limit.is_some()
            || self.vs_edge.is_some()
            || self.vs_edge_use.is_some();
        let threshold = self.threshold.map(hit_pool::threshold).transpose()?;
        if !self.extended && (self.max_rolls.is_some() || self.shrink || self.critical_glitch_ends)
        {
            return Err(conflict(
                "--max-rolls, --shrink and --critical-glitch-ends need --extended",
            ));
        }
        if self.buy {
            if self.edge.is_some() || !self.helpers.is_empty() || vs || self.extended {
                return Err(conflict(
                    "--buy takes no --edge, --helper, --vs-* or --extended (bought hits are not rolled)",
                ));
            }
            return Ok(Check::Buy {
                roll,
                threshold: threshold.unwrap_or(0),
            });
        }
        if vs {
            if self.extended {
                return Err(conflict("--extended cannot be combined with --vs-* flags"));
            }
            if threshold.is_some() {
                return Err(conflict(
                    "--threshold does not apply to an opposed test (--vs-*): the defender's hits are the bar",
                ));
            }
            let Some(vs_pool) = self.vs_pool else {
                return Err(conflict("an opposed test needs --vs-pool"));
            };
            let defender = self.roll(
                vs_pool,
                self.vs_limit,
                self.vs_edge,
                self.vs_edge_use,
                ("--vs-edge", "--vs-edge-use"),
            )?;
            return Ok(Check::Opposed {
                attacker: roll,
                defender,
                tie_rule: self.tie_rule,
            });
        }
        if self.extended {
            let Some(target) = self.threshold else {
                return Err(conflict(
                    "--extended needs --threshold (the hits to accumulate)",
                ));
            };
            return Ok(Check::Extended(Extended::new(
                roll,
                target,
                self.max_rolls,
                self.shrink,
                self.critical_glitch_ends,
            )?));
        }
        Ok(Check::Success {
            roll,
            threshold: threshold.unwrap_or(0),
        })
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        Ok(hit_pool::report(&self.check()?))
    }
}
