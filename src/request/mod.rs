//! The typed request: one system and its parameters, as plain Rust values.
//!
//! Every front end builds a [`Request`] and gets one [`Report`] back from
//! [`crate::odds`]: the CLI (each system's flags *are* its request fields,
//! parsed by clap), analysis files (a point's TOML keys), the JSON API (a
//! body like `{"system": "d20", "modifier": 5, "dc": 15}`) and library
//! callers. Validation happens once, in the same code whatever the front
//! end, so a bad value gets the same one-line error everywhere.
//!
//! Field names are the flag names with `-` → `_` (`--vs-modifier` ↔
//! `vs_modifier`); analysis files may keep the dashes. A report's `params`
//! block is a request too: [`Request::from_report_params`] reads it back,
//! and the report it gives is the same report.
//!
//! A sixth system adds a module here with its `Params` (clap + serde), a
//! variant of [`Request`] and an arm in each `match` below.

pub mod d20;
#[doc(hidden)]
pub mod de;
pub mod dice;
pub mod hit_pool;
pub mod keep_highest;
pub mod levels;
pub mod multiplier;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::report::Report;
use crate::weight::Weight;

/// One check of one system: what `hantei odds <system> [flags]` asks.
#[derive(clap::Subcommand, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "kebab-case")]
pub enum Request {
    /// d100 roll-under, rate = ability × multiplier (seed 000, 成功倍率).
    Multiplier(Box<multiplier::Params>),
    /// 1d20 + modifier + proficiency vs DC (seed 001, 判定値 vs 目標値).
    ///
    /// A natural 20 on the kept die always succeeds (クリティカル, whatever
    /// the DC) and a natural 1 always fails (ファンブル, whatever the total),
    /// as seed 001 rules; `--crit-on N` makes a natural N or more critical.
    /// In a contest (`--vs-*`) neither has an effect: the totals are
    /// compared.
    D20(d20::Params),
    /// Keep the highest of n dice sized by ability (seed 002, 達成値 vs 難易度).
    #[command(name = "keep-highest")]
    KeepHighest(keep_highest::Params),
    /// Levelled d100 roll-under with level bidding (seed 003, レベル付き下方判定).
    Levels(levels::Params),
    /// Nd6 hit pool, hits on 5+, glitches, Edge (seed 004, ダイス・プール).
    #[command(name = "hit-pool")]
    HitPool(hit_pool::Params),
    /// Any check in BCDice notation: "2D6+1>=7", 4D6DL1, "5B6>=4", "10R6>=5@6", with house-rule tiers (ダイス表記).
    #[command(
        override_usage = "hantei odds dice [OPTIONS] <EXPR>\n       hantei odds dice --list-games"
    )]
    Dice(dice::Params),
}

impl Request {
    /// The system id (`multiplier`, `d20`, `keep-highest`, `levels`,
    /// `hit-pool`).
    pub fn system(&self) -> &'static str {
        match self {
            Request::Multiplier(_) => "multiplier",
            Request::D20(_) => "d20",
            Request::KeepHighest(_) => "keep-highest",
            Request::Levels(_) => "levels",
            Request::HitPool(_) => "hit-pool",
            Request::Dice(_) => "dice",
        }
    }

    /// The report, in weight type `W` (`f64`, or [`crate::Exact`]
    /// fractions). Validates the parameters; the errors are the CLI's.
    pub fn report<W: Weight>(&self) -> Result<Report<W>> {
        match self {
            Request::Multiplier(p) => p.report(),
            Request::D20(p) => p.report(),
            Request::KeepHighest(p) => p.report(),
            Request::Levels(p) => p.report(),
            Request::HitPool(p) => p.report(),
            Request::Dice(p) => p.report(),
        }
        .map(Report::clamp_probabilities)
    }

    /// The report rendered as `hantei odds … [--exact] --format …` prints it:
    /// exact fractions when `exact`, else floating point. The CLI, the
    /// server and its worker processes all answer through this.
    pub fn render(&self, exact: bool, format: crate::export::Format) -> Result<Vec<u8>> {
        Ok(if exact {
            crate::export::render(&self.report::<crate::Exact>()?, format)
        } else {
            crate::export::render(&self.report::<f64>()?, format)
        })
    }

    /// The request for `system` with these fields (JSON values; keys may
    /// use `-` or `_`). Errors name the field and what is allowed.
    pub fn from_fields(system: &str, fields: &Map<String, Value>) -> Result<Request> {
        let normalized: Map<String, Value>;
        let fields = if fields.keys().any(|k| k.contains('-')) {
            normalized = fields
                .iter()
                .map(|(k, v)| (k.replace('-', "_"), v.clone()))
                .collect();
            &normalized
        } else {
            fields
        };
        fn read<'a, T: Deserialize<'a>>(system: &str, m: &'a Map<String, Value>) -> Result<T> {
            serde_path_to_error::deserialize(MapRef(m)).map_err(|e| {
                let field = e.path().to_string();
                field_error(system, &field, &e.into_inner().to_string())
            })
        }
        Ok(match system {
            "multiplier" => Request::Multiplier(Box::new(read(system, fields)?)),
            "d20" => Request::D20(read(system, fields)?),
            "keep-highest" => Request::KeepHighest(read(system, fields)?),
            "levels" => Request::Levels(read(system, fields)?),
            "hit-pool" => Request::HitPool(read(system, fields)?),
            "dice" => Request::Dice(read(system, fields)?),
            other => {
                return Err(Error::param(
                    "system",
                    other,
                    format!("allowed: {}", crate::systems::IDS.join(", ")),
                ))
            }
        })
    }

    /// A request from JSON: an object with `system` and the fields.
    pub fn from_json(value: &Value) -> Result<Request> {
        let obj = value.as_object().ok_or_else(|| {
            Error::param(
                "request",
                value,
                "a JSON object like {\"system\": \"d20\", \"modifier\": 5, \"dc\": 15}",
            )
        })?;
        let system = match obj.get("system") {
            Some(Value::String(s)) => s.as_str(),
            _ => {
                return Err(Error::param(
                    "system",
                    obj.get("system").unwrap_or(&Value::Null),
                    format!("allowed: {}", crate::systems::IDS.join(", ")),
                ))
            }
        };
        let mut fields = obj.clone();
        fields.remove("system");
        Request::from_fields(system, &fields)
    }

    /// The request a report's `params` block describes (with its `system`):
    /// derived values shown in the block (a d20 modifier from a score, the
    /// keep-highest die, `mode`, …) are read back as the fields that give
    /// them, so the request's report is the same report.
    pub fn from_report_params(system: &str, params: &Map<String, Value>) -> Result<Request> {
        let mut m = params.clone();
        match system {
            "multiplier" => multiplier::unreport(&mut m),
            "d20" => d20::unreport(&mut m),
            "keep-highest" => keep_highest::unreport(&mut m),
            "levels" => levels::unreport(&mut m),
            "hit-pool" => hit_pool::unreport(&mut m),
            _ => {}
        }
        Request::from_fields(system, &m)
    }
}

/// The odds of one request: its report in weight type `W`.
///
/// ```
/// use hantei::request::{d20, Request};
///
/// let request = Request::D20(d20::Params {
///     modifier: Some(5),
///     dc: Some(15),
///     ..Default::default()
/// });
/// let report = hantei::odds::<f64>(&request)?;
/// assert!((report.p_success - 0.55).abs() < 1e-12);
/// # Ok::<(), hantei::Error>(())
/// ```
pub fn odds<W: Weight>(request: &Request) -> Result<Report<W>> {
    request.report()
}

/// A serde error as the one-line message of a bad field, naming the field
/// and its flag.
fn field_error(system: &str, field: &str, message: &str) -> Error {
    // serde quotes names in backticks; the CLI's messages use quotes.
    let message = message.replace('`', "'");
    if field.is_empty() || field == "." {
        Error::Conflict(format!("{system}: {message}"))
    } else {
        let flag = field.replace('_', "-");
        Error::Conflict(format!("{system}: {field} (--{flag}): {message}"))
    }
}

/// Rename a key of a params block, if present.
fn rename(m: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = m.remove(from) {
        m.insert(to.to_string(), v);
    }
}

/// A clap value parser for an integer flag whose values are `allowed`
/// (e.g. `"-50..=100"`): it only reads the integer — the system checks the
/// range and names it — but a value that is no integer at all (`1e9`,
/// `x`) or does not fit one gets a message that says what is allowed, not
/// Rust's "invalid digit found in string".
pub fn int_flag(
    allowed: &'static str,
) -> impl Fn(&str) -> std::result::Result<i64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let t = s.trim();
        t.parse::<i64>().map_err(|e| {
            use std::num::IntErrorKind::{NegOverflow, PosOverflow};
            match e.kind() {
                PosOverflow | NegOverflow => {
                    format!(
                        "{} is too large for an integer (allowed {allowed})",
                        crate::error::quote(s)
                    )
                }
                _ => format!(
                    "{} is not an integer (allowed {allowed})",
                    crate::error::quote(s)
                ),
            }
        })
    }
}

/// A clap value parser for a decimal flag (`--tail-eps`): a value that is
/// no number, or none a float can hold (`1e309`, which reads as infinity),
/// is refused quoting the text as typed and what is allowed; the system
/// checks the range.
pub fn float_flag(
    allowed: &'static str,
) -> impl Fn(&str) -> std::result::Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!(
            "{} is beyond what a decimal number holds (allowed {allowed})",
            crate::error::quote(s)
        )),
        Err(_) => Err(format!(
            "{} is not a number (allowed {allowed})",
            crate::error::quote(s)
        )),
    }
}

/// A clap value parser for a whole-number flag (`--trials`, `--seed`,
/// `--threads`): a negative number, a decimal or an overflow gets a message
/// naming what is allowed.
pub fn whole_flag(
    allowed: &'static str,
) -> impl Fn(&str) -> std::result::Result<u64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        s.trim().parse::<u64>().map_err(|_| {
            format!(
                "{} is not a whole number (allowed {allowed})",
                crate::error::quote(s)
            )
        })
    }
}

/// Parse a comma-separated list of integers (`50,30,15`).
pub fn parse_list(s: &str) -> std::result::Result<Vec<i64>, String> {
    s.split(',')
        .map(|x| {
            x.trim().parse::<i64>().map_err(|_| {
                format!(
                    "{} is not an integer (expected a list like 50,30,15)",
                    crate::error::quote(x)
                )
            })
        })
        .collect()
}

/// Deserialize a struct from a borrowed JSON object without cloning it.
struct MapRef<'a>(&'a Map<String, Value>);

impl<'de> serde::Deserializer<'de> for MapRef<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, Self::Error> {
        visitor.visit_map(serde::de::value::MapDeserializer::new(
            self.0.iter().map(|(k, v)| (k.as_str(), v)),
        ))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
