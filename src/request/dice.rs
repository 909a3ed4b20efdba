//! `hantei odds dice EXPR`: flags for [`crate::systems::dice`].
use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::systems::dice::{self, Check, TieBreak};
use crate::weight::Weight;

use super::de;

/// A check typed in BCDice notation: the flags of `hantei odds dice`, and
/// the same fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::Request;
/// use serde_json::json;
///
/// // PbtA: 2D6+1, 10+ strong hit, 7–9 weak hit. P(2D6 ≥ 6) = 26/36.
/// let req = Request::from_json(&json!({
///     "system": "dice", "expr": "2D6+1",
///     "tier": ["strong hit:>=10", "weak hit:>=7", "miss"]
/// }))?;
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(26, 36));
/// assert_eq!(report.outcome("strong hit"), Some(&hantei::Exact::ratio(10, 36)));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The BCDice command (ダイスコマンド), quoted in a shell when it holds a
    /// comparison: "2D6+1>=7", "1D20+5>=15", 4D6DL1, "5B6>=4", "10R6>=5@6",
    /// "3U6>=10@6", D66. Case-insensitive.
    #[arg(value_name = "EXPR", allow_hyphen_values = true)]
    pub expr: String,
    /// A house-rule tier NAME:COND (repeatable, best first; the first that
    /// holds wins), quoted in a shell: COND compares the result
    /// (--tier "hit:>=10") or the natural dice (--tier "crit:natural>=19").
    /// A last NAME alone takes the rest.
    #[serde(default, deserialize_with = "de::strings")]
    #[arg(long = "tier", value_name = "NAME:COND")]
    pub tier: Vec<String>,
    /// The tiers that count as success for p_success (comma list; default:
    /// every tier but the last).
    #[serde(default, deserialize_with = "de::comma_strings")]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub success_tiers: Vec<String>,
    /// Contest (対決): the opposing roll, compared with this one.
    #[serde(default)]
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub vs: Option<String>,
    /// Contest: who takes a tie (default: ties stand, reported as p_tie).
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub tie_rule: Option<TieBreak>,
    /// Contest: the lower result wins (roll-under).
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub lower_wins: bool,
    /// Largest probability mass dropped when cutting exploding dice (xR, xU;
    /// allowed above 0 and below 0.001).
    #[serde(default = "default_tail_eps", deserialize_with = "de::float")]
    #[arg(long, default_value_t = dice::DEFAULT_TAIL_EPS)]
    pub tail_eps: f64,
}

fn default_tail_eps() -> f64 {
    dice::DEFAULT_TAIL_EPS
}

impl Params {
    /// The parameters as a [`Check`].
    pub fn check(&self) -> crate::Result<Check> {
        let mut check = Check::new(&self.expr)?;
        check.tiers = self
            .tier
            .iter()
            .map(|t| dice::parse_tier(t))
            .collect::<crate::Result<_>>()?;
        if !self.success_tiers.is_empty() {
            check.success_tiers = Some(
                self.success_tiers
                    .iter()
                    .map(|s| s.trim().to_string())
                    .collect(),
            );
        }
        if let Some(vs) = &self.vs {
            check.vs = Some(dice::parse(vs)?);
        } else if let Some(t) = self.tie_rule {
            return Err(crate::Error::param(
                "--tie-rule",
                t.key(),
                "a tie rule applies only to a contest: give the opposing roll with --vs EXPR",
            ));
        }
        check.tie = self.tie_rule.unwrap_or_default();
        check.lower_wins = self.lower_wins;
        check.tail_eps = self.tail_eps;
        Ok(check)
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        dice::report(&self.check()?)
    }
}
