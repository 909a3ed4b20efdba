//! The `hantei` command line (clap derive). It turns arguments into typed
//! parameters, calls the library, and renders the result; it does no math.
//!
//! Each system's `hantei odds <system>` flags live in their own file here,
//! next to the system's module in `src/systems/`.

pub mod check;
pub mod d20;
pub mod hit_pool;
pub mod keep_highest;
pub mod levels;
pub mod multiplier;
pub mod run;
pub mod verify;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::export::{render, Format};
use crate::report::Report;
use crate::weight::{Exact, Weight};

/// hantei (判定): exact odds of tabletop-RPG action-resolution rules.
#[derive(Parser, Debug)]
#[command(name = "hantei", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Exact odds of one check (確率): tiers, success, contests, extras.
    Odds(OddsArgs),
    /// Prove the exact laws by simulating the dice (Monte Carlo, 検証).
    Verify(verify::Args),
    /// Run the analyses (analyses/*.toml) into tables and charts (output/).
    Run(run::Args),
    /// Evaluate the probability invariants ([[check]]) of analysis files.
    Check(check::Args),
}

/// `hantei odds`.
#[derive(clap::Args, Debug)]
pub struct OddsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table, global = true)]
    pub format: Format,
    /// Exact fractions instead of floating point (every probability as
    /// "num/den" in JSON and CSV).
    #[arg(long, global = true)]
    pub exact: bool,
    #[command(subcommand)]
    pub system: OddsSystem,
}

/// One subcommand per system.
#[derive(Subcommand, Debug)]
pub enum OddsSystem {
    /// d100 roll-under, rate = ability × multiplier (seed 000, 成功倍率).
    Multiplier(multiplier::Args),
    /// 1d20 + modifier + proficiency vs DC (seed 001, 判定値 vs 目標値).
    D20(d20::Args),
    /// Keep the highest of n dice sized by ability (seed 002, 達成値 vs 難易度).
    #[command(name = "keep-highest")]
    KeepHighest(keep_highest::Args),
    /// Levelled d100 roll-under with level bidding (seed 003, レベル付き下方判定).
    Levels(levels::Args),
    /// Nd6 hit pool, hits on 5+, glitches, Edge (seed 004, ダイス・プール).
    #[command(name = "hit-pool")]
    HitPool(hit_pool::Args),
}

impl OddsSystem {
    /// The report for these arguments, in weight type `W`.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        match self {
            OddsSystem::Multiplier(a) => a.report(),
            OddsSystem::D20(a) => a.report(),
            OddsSystem::KeepHighest(a) => a.report(),
            OddsSystem::Levels(a) => a.report(),
            OddsSystem::HitPool(a) => a.report(),
        }
    }
}

/// What a run prints and how it exits.
#[derive(Debug)]
pub struct Output {
    /// Bytes for standard output.
    pub stdout: Vec<u8>,
    /// Bytes for standard error (failures of a check or verification).
    pub stderr: Vec<u8>,
    /// Exit code (0 ok, 1 a check failed).
    pub code: u8,
}

/// Run the CLI on `args` (including the program name). `Err` carries the
/// one-line message for a usage or input error (exit code 2).
pub fn main_with_args<I, T>(args: I) -> Result<Output, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(Output {
                    stdout: e.render().to_string().into_bytes(),
                    stderr: Vec::new(),
                    code: if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    },
                }),
                _ => Err(one_line(&e.render().to_string())),
            };
        }
    };
    match cli.command {
        Command::Odds(a) => {
            let bytes = if a.exact {
                render(
                    &a.system.report::<Exact>().map_err(|e| e.to_string())?,
                    a.format,
                )
            } else {
                render(
                    &a.system.report::<f64>().map_err(|e| e.to_string())?,
                    a.format,
                )
            };
            Ok(Output {
                stdout: bytes,
                stderr: Vec::new(),
                code: 0,
            })
        }
        Command::Check(a) => {
            let out = check::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: out.stdout,
                stderr: Vec::new(),
                code: out.code,
            })
        }
        Command::Run(a) => {
            let out = run::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: out.stdout,
                stderr: out.stderr,
                code: out.code,
            })
        }
        Command::Verify(a) => {
            let out = verify::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: out.stdout,
                stderr: out.stderr,
                code: out.code,
            })
        }
    }
}

/// Condense clap's multi-line error into one line: the message and what is
/// allowed, without the usage block.
pub(crate) fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parse a comma-separated list of integers (`50,30,15`).
pub fn parse_list(s: &str) -> Result<Vec<i64>, String> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<i64>()
                .map_err(|_| format!("'{x}' is not an integer (expected a list like 50,30,15)"))
        })
        .collect()
}
