//! `hantei odds hit-pool`: flags for the Nd6 hit pool (seed 004,
//! ダイス・プール判定). Validates the flags, builds a
//! [`Check`] and asks the system module for
//! its report; no math here.

use crate::report::Report;
use crate::systems::hit_pool::{
    self, Check, EdgeLimit, EdgeUse, ExplodeGlitch, Extended, GlitchRule, NegatedCritical, Roll,
    TieRuleOpt, DEFAULT_TAIL_EPS,
};
use crate::weight::Weight;
use serde::{Deserialize, Serialize};

use serde_json::{Map, Value};

use super::de;
use crate::Error;

/// A hit-pool test: the flags of `hantei odds hit-pool`, and the same
/// fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::Request;
/// use serde_json::json;
///
/// // One die, threshold 1: a hit on 5 or 6, 1/3.
/// let req = Request::from_json(&json!({"system": "hit-pool", "pool": 1, "threshold": 1}))?;
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(1, 3));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Dice pool: attribute + skill + modifiers (may be ≤ 0: no roll unless
    /// Edge gives a long shot).
    #[serde(deserialize_with = "de::int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-100..=300"))]
    pub pool: i64,
    /// Threshold (基準値): hits needed; the target of an extended test.
    /// Default 0: any roll that is made succeeds.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub threshold: Option<i64>,
    /// When ones make a glitch.
    #[serde(
        default = "default_glitch_rule",
        deserialize_with = "de::option",
        serialize_with = "de::ser_option"
    )]
    #[arg(long, value_enum, default_value_t = GlitchRule::HalfOrMore)]
    pub glitch_rule: GlitchRule,
    /// Limit (Shadowrun 5): hits above it are cut after the glitch is judged.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub limit: Option<i64>,
    /// Buy hits instead of rolling: floor(pool/4) hits, no glitch.
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub buy: bool,
    /// Edge rating spent on this test (one use).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=50"))]
    pub edge: Option<i64>,
    /// How the Edge point is used (default push).
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub edge_use: Option<EdgeUse>,
    /// How ones are counted when dice explode.
    #[serde(
        default = "default_explode_glitch",
        deserialize_with = "de::option",
        serialize_with = "de::ser_option"
    )]
    #[arg(long, value_enum, default_value_t = ExplodeGlitch::AllDice)]
    pub explode_glitch: ExplodeGlitch,
    /// What negate-glitch does to a critical glitch.
    #[serde(
        default = "default_negate_critical",
        deserialize_with = "de::option",
        serialize_with = "de::ser_option"
    )]
    #[arg(long, value_enum, default_value_t = NegatedCritical::Cancel)]
    pub negate_critical: NegatedCritical,
    /// Whether --limit holds for a roll pushed with Edge (push, push-after):
    /// ignore (Shadowrun 5, "Push the Limit"; default) or apply (strict).
    #[serde(
        default,
        deserialize_with = "de::option",
        serialize_with = "de::ser_option"
    )]
    #[arg(long, value_enum, default_value_t = EdgeLimit::Ignore)]
    pub edge_limit: EdgeLimit,
    /// Largest probability mass dropped when cutting exploding dice
    /// (allowed 1e-30..=0.5).
    #[serde(default = "default_tail_eps", deserialize_with = "de::float")]
    #[arg(
        long,
        default_value_t = DEFAULT_TAIL_EPS,
        allow_negative_numbers = true,
        value_parser = super::float_flag("1e-30..=0.5")
    )]
    pub tail_eps: f64,
    /// A teamwork helper's pool (repeatable): each hit adds a die.
    #[serde(default, rename = "helper", deserialize_with = "de::ints")]
    #[arg(long = "helper", allow_negative_numbers = true, value_parser = super::int_flag("-100..=300"))]
    pub helpers: Vec<i64>,
    /// Cap on the dice helpers add (the leader's skill).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=300"))]
    pub team_cap: Option<i64>,
    /// Opposed test: the defender's pool.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-100..=300"))]
    pub vs_pool: Option<i64>,
    /// The defender's limit.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub vs_limit: Option<i64>,
    /// The defender's Edge.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=50"))]
    pub vs_edge: Option<i64>,
    /// How the defender uses Edge (default push).
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub vs_edge_use: Option<EdgeUse>,
    /// The defender's teamwork helper's pool (repeatable): an opposing team.
    #[serde(default, rename = "vs_helper", deserialize_with = "de::ints")]
    #[arg(long = "vs-helper", allow_negative_numbers = true, value_parser = super::int_flag("-100..=300"))]
    pub vs_helpers: Vec<i64>,
    /// Cap on the dice the defender's helpers add (the defender's skill).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=300"))]
    pub vs_team_cap: Option<i64>,
    /// Who takes a tie in an opposed test.
    #[serde(
        default = "default_tie_rule",
        deserialize_with = "de::option",
        serialize_with = "de::ser_option"
    )]
    #[arg(long, value_enum, default_value_t = TieRuleOpt::Defender)]
    pub tie_rule: TieRuleOpt,
    /// Extended test: roll until the hits reach the threshold.
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub extended: bool,
    /// Most rolls in an extended test (default: the pool size).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=1000"))]
    pub max_rolls: Option<i64>,
    /// Extended test: one die fewer per roll after the first (Shadowrun 5).
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub shrink: bool,
    /// Extended test: a critical glitch fails the whole test.
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub critical_glitch_ends: bool,
}

/// Most dice (pool + Edge) of an exploding roll in exact fractions, where
/// the law is built die by die (`push-after`, `--explode-glitch bcdice`:
/// 30 dice take about 2 s).
pub const EXACT_EXPLODING_MAX: i64 = 30;

/// Most dice of a roll pushed with Edge in exact fractions when every die
/// explodes and the closed form applies (`push` with `all-dice` or
/// `original-pool`): 100 dice take under a second, 300 about 12 s.
pub const EXACT_PUSH_MAX: i64 = 100;

/// Most dice rolled in all (pool × rolls, one die fewer a roll with
/// `--shrink`) by an extended test in exact fractions: 1,600 (a pool of 40,
/// 40 rolls) take about 2 s; the fractions' denominators grow with every die.
pub const EXACT_EXTENDED_DICE_MAX: i64 = 1600;

/// Most teamwork helpers.
pub const HELPERS_MAX: usize = 20;

fn default_glitch_rule() -> GlitchRule {
    GlitchRule::HalfOrMore
}
fn default_explode_glitch() -> ExplodeGlitch {
    ExplodeGlitch::AllDice
}
fn default_negate_critical() -> NegatedCritical {
    NegatedCritical::Cancel
}
fn default_tail_eps() -> f64 {
    DEFAULT_TAIL_EPS
}
fn default_tie_rule() -> TieRuleOpt {
    TieRuleOpt::Defender
}

/// A report's `params` block as request fields: `helpers` is the
/// repeatable `helper`; an opposing side without a team shows an empty one.
pub(super) fn unreport(m: &mut Map<String, Value>) {
    if m.get("vs_helpers")
        .is_some_and(|v| v.as_array().is_some_and(Vec::is_empty))
    {
        m.remove("vs_helpers");
    }
    if m.get("vs_team_cap").is_some_and(Value::is_null) {
        m.remove("vs_team_cap");
    }
    super::rename(m, "helpers", "helper");
    super::rename(m, "vs_helpers", "vs_helper");
}

fn conflict(msg: &str) -> Error {
    Error::Conflict(msg.to_string())
}

impl Params {
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
            .with_edge_limit(self.edge_limit)
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
        if self.helpers.len() > HELPERS_MAX {
            return Err(Error::param(
                "--helper",
                format!("{} helpers", self.helpers.len()),
                format!("at most {HELPERS_MAX} helpers in a teamwork test"),
            ));
        }
        roll = roll.with_helpers(&self.helpers, self.team_cap)?;
        if self.team_cap.is_some() && self.helpers.is_empty() {
            return Err(conflict("--team-cap needs at least one --helper"));
        }
        let vs = self.vs_pool.is_some()
            || self.vs_limit.is_some()
            || self.vs_edge.is_some()
            || self.vs_edge_use.is_some()
            || !self.vs_helpers.is_empty()
            || self.vs_team_cap.is_some();
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
            let defender = self
                .roll(
                    vs_pool,
                    self.vs_limit,
                    self.vs_edge,
                    self.vs_edge_use,
                    ("--vs-edge", "--vs-edge-use"),
                )
                .map_err(|e| e.on_side("vs-"))?;
            if self.vs_helpers.len() > HELPERS_MAX {
                return Err(Error::param(
                    "--vs-helper",
                    format!("{} helpers", self.vs_helpers.len()),
                    format!("at most {HELPERS_MAX} helpers in a teamwork test"),
                ));
            }
            if self.vs_team_cap.is_some() && self.vs_helpers.is_empty() {
                return Err(conflict("--vs-team-cap needs at least one --vs-helper"));
            }
            let defender = defender
                .with_helpers(&self.vs_helpers, self.vs_team_cap)
                .map_err(|e| e.on_side("vs-"))?;
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
        let check = self.check()?;
        if W::EXACT {
            self.check_exact_size()?;
        }
        Ok(hit_pool::report(&check))
    }

    /// Exact fractions of exploding dice grow with every die: refuse what
    /// would take minutes (`--pool 50 --edge 50 --exact` took 90 s), with
    /// the way out. Floating point has no such limit.
    fn check_exact_size(&self) -> crate::Result<()> {
        let sides = [
            ("--pool", "--edge", self.pool, self.edge, self.edge_use),
            (
                "--vs-pool",
                "--vs-edge",
                self.vs_pool.unwrap_or(0),
                self.vs_edge,
                self.vs_edge_use,
            ),
        ];
        if self.extended {
            let pool = self.pool.max(0);
            let rolls = self.max_rolls.unwrap_or(pool.max(1));
            let dice: i64 = if self.shrink {
                (0..rolls).map(|i| (pool - i).max(0)).sum()
            } else {
                pool * rolls
            };
            if dice > EXACT_EXTENDED_DICE_MAX {
                return Err(Error::param(
                    "--pool × --max-rolls",
                    dice,
                    format!(
                        "--exact with an extended test allows at most {EXACT_EXTENDED_DICE_MAX} dice rolled in all (--max-rolls defaults to the pool; exact fractions of more take minutes); drop --exact or set a smaller --max-rolls"
                    ),
                ));
            }
        }
        for (pool_flag, edge_flag, pool, edge, edge_use) in sides {
            let explodes = edge.is_some()
                && matches!(
                    edge_use.unwrap_or_default(),
                    EdgeUse::Push | EdgeUse::PushAfter
                );
            let dice = pool.max(0) + edge.unwrap_or(0);
            let closed_form = matches!(edge_use.unwrap_or_default(), EdgeUse::Push)
                && self.explode_glitch != ExplodeGlitch::Bcdice;
            let max = if closed_form {
                EXACT_PUSH_MAX
            } else {
                EXACT_EXPLODING_MAX
            };
            if explodes && dice > max {
                return Err(Error::param(
                    &format!("{pool_flag} + {edge_flag}"),
                    dice,
                    format!(
                        "--exact with exploding dice (Edge push) allows at most {max} dice (exact fractions of longer explosions take minutes); drop --exact: floating point is exact to the reported tail_mass"
                    ),
                ));
            }
        }
        Ok(())
    }
}
