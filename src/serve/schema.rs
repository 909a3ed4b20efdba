//! `/api/schema`: every system's parameters, read from the same clap
//! definition that `hantei odds <system> --help` prints, so the page's
//! controls never drift from the command line.
//!
//! For each flag: its request field (`--vs-modifier` ↔ `vs_modifier`), its
//! kind (`int`, `number`, `switch`, `count`, `choice`, `list`, `text`), the
//! allowed range (what the flag's own parser names when it refuses a value:
//! `allowed -50..=50`), the choices with their help, the default, whether
//! it repeats, and the help text — English exactly as `--help` shows it,
//! Japanese from [`super::help_ja`].

use std::sync::OnceLock;

use clap::error::ErrorKind;
use clap::{ArgAction, Command, Subcommand};
use serde::Serialize;

use crate::request::Request;

/// One system: its id, its one-line description and its parameters.
#[derive(Debug, Clone, Serialize)]
pub struct System {
    /// The system id (`d20`, `hit-pool`, …).
    pub id: String,
    /// The subcommand's about line (English with the Japanese terms).
    pub about: String,
    /// Its parameters, in `--help` order.
    pub params: Vec<Param>,
}

/// One parameter (flag or positional argument) of a system.
#[derive(Debug, Clone, Serialize)]
pub struct Param {
    /// The request field (JSON key, query parameter).
    pub field: String,
    /// The flag (`--vs-modifier`), or the positional's value name (`EXPR`).
    pub flag: String,
    /// `int`, `number`, `switch`, `count`, `choice`, `list` or `text`.
    pub kind: &'static str,
    /// Lowest allowed value of an `int` (from the flag's parser).
    pub min: Option<i64>,
    /// Highest allowed value of an `int`.
    pub max: Option<i64>,
    /// What the flag's parser says is allowed (`-50..=50`).
    pub allowed: Option<String>,
    /// The choices of a `choice`.
    pub choices: Vec<Choice>,
    /// clap's default value, if it has one (else the help text says what an
    /// absent value means).
    pub default: Option<String>,
    /// Repeatable (`--tier`, `--helper`): the field takes a list.
    pub repeatable: bool,
    /// Required (`--pool`, the dice expression).
    pub required: bool,
    /// Help as `--help` prints it.
    pub help_en: String,
    /// The same help in Japanese.
    pub help_ja: String,
}

/// One choice of a `choice` parameter.
#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    /// The value (`push`).
    pub name: String,
    /// Its help line.
    pub help: String,
    /// A name to show beside the value (a game's Japanese name), if any.
    pub label: Option<String>,
}

/// The clap command of `hantei odds` (its subcommands are the systems).
pub(crate) fn odds_command() -> Command {
    let mut cmd = Request::augment_subcommands(Command::new("odds"));
    cmd.build();
    cmd
}

/// Every system's parameters (computed once).
pub fn systems() -> &'static [System] {
    static SCHEMA: OnceLock<Vec<System>> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let cmd = odds_command();
        cmd.get_subcommands()
            .filter(|s| crate::systems::IDS.contains(&s.get_name()))
            .map(system)
            .collect()
    })
}

/// The schema of one system, if `id` is one.
pub fn system_schema(id: &str) -> Option<&'static System> {
    systems().iter().find(|s| s.id == id)
}

fn system(sub: &Command) -> System {
    let id = sub.get_name().to_string();
    let params = sub
        .get_arguments()
        .filter(|a| {
            let name = a.get_id().as_str();
            !a.is_hide_set() && name != "help" && name != "version"
        })
        .map(|a| param(sub, &id, a))
        .collect();
    System {
        about: sub.get_about().map(|s| s.to_string()).unwrap_or_default(),
        id,
        params,
    }
}

fn param(sub: &Command, system: &str, arg: &clap::Arg) -> Param {
    let (field, flag) = match arg.get_long() {
        Some(long) => (long.replace('-', "_"), format!("--{long}")),
        None => (
            arg.get_id().as_str().to_string(),
            arg.get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| arg.get_id().to_string(), |s| s.to_string()),
        ),
    };
    let help_en = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let mut choices: Vec<Choice> = arg
        .get_possible_values()
        .into_iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| Choice {
            name: p.get_name().to_string(),
            help: p.get_help().map(|s| s.to_string()).unwrap_or_default(),
            label: None,
        })
        .collect();
    // `--game` takes its ids case-insensitively (a parser of its own, so
    // clap lists no values): the page offers the registry's games.
    if system == "dice" && field == "game" {
        choices = crate::systems::dice::games::GAMES
            .iter()
            .map(|g| Choice {
                name: g.id.to_string(),
                help: g.commands.to_string(),
                label: Some(g.ja.to_string()),
            })
            .collect();
    }
    let repeatable = matches!(arg.get_action(), ArgAction::Append);
    let mut min = None;
    let mut max = None;
    let mut allowed = None;
    let kind = match arg.get_action() {
        ArgAction::SetTrue => "switch",
        ArgAction::Count => "count",
        _ if !choices.is_empty() => "choice",
        _ => match probe(sub, arg, "x") {
            Probe::Refused(msg) => {
                // A decimal flag's parser names what is allowed too
                // (`--tail-eps`): a flag that takes 0.5 is a number.
                if matches!(probe(sub, arg, "0.5"), Probe::Accepted) {
                    "number"
                } else if let Some(a) = allowed_in(&msg) {
                    let (lo, hi) = bounds(&a);
                    min = lo;
                    max = hi;
                    allowed = Some(a);
                    "int"
                } else if msg.contains("expected a list") {
                    "list"
                } else {
                    "text"
                }
            }
            Probe::Accepted => "text",
        },
    };
    let default = arg
        .get_default_values()
        .first()
        .map(|v| v.to_string_lossy().into_owned());
    Param {
        help_ja: super::help_ja::help(system, &field)
            .unwrap_or_default()
            .to_string(),
        field,
        flag,
        kind,
        min,
        max,
        allowed,
        choices,
        default,
        repeatable,
        // A positional (dice's EXPR) is required of a request even where
        // the command line lets `--list-games` stand alone.
        required: arg.is_required_set() || arg.is_positional(),
        help_en,
    }
}

enum Probe {
    Accepted,
    Refused(String),
}

/// Give `value` to the flag's own parser: its refusal names what is
/// allowed.
fn probe(sub: &Command, arg: &clap::Arg, value: &str) -> Probe {
    let mut argv: Vec<String> = vec![sub.get_name().to_string()];
    match arg.get_long() {
        Some(long) => argv.push(format!("--{long}={value}")),
        None => argv.push(value.to_string()),
    }
    match sub.clone().try_get_matches_from(argv) {
        Err(e) if e.kind() == ErrorKind::ValueValidation || e.kind() == ErrorKind::InvalidValue => {
            Probe::Refused(e.to_string())
        }
        _ => Probe::Accepted,
    }
}

/// `-50..=50` from "… (allowed -50..=50)".
fn allowed_in(msg: &str) -> Option<String> {
    let start = msg.find("(allowed ")? + "(allowed ".len();
    let end = start + msg[start..].find(')')?;
    Some(msg[start..end].trim().to_string())
}

/// The bounds of `lo..=hi`, `lo..`.
fn bounds(allowed: &str) -> (Option<i64>, Option<i64>) {
    if let Some(n) = allowed.strip_prefix("at least ") {
        return (n.trim().parse().ok(), None);
    }
    let Some((lo, hi)) = allowed.split_once("..") else {
        return (None, None);
    };
    let hi = hi.trim_start_matches('=');
    (lo.trim().parse().ok(), hi.trim().parse().ok())
}
