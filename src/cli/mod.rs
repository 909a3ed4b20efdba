//! The `hantei` command line (clap derive). It turns arguments into typed
//! requests, calls the library, and renders the result; it does no math.
//!
//! `hantei odds <system>`'s flags are the fields of that system's request
//! ([`crate::request`]): clap parses them straight into a [`Request`].

pub mod check;
pub mod completions;
pub mod diff;
pub mod init;
pub mod publish;
pub mod run;
pub mod serve;
pub mod verify;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

use crate::export::Format;
use crate::request::Request;

/// hantei (判定): exact odds of tabletop-RPG action-resolution rules.
#[derive(Parser, Debug)]
#[command(name = "hantei", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Top-level commands (parsed once per process: the size of `odds`'s
/// flags does not matter).
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Exact odds of one check (確率): tiers, success, contests, extras.
    Odds(OddsArgs),
    /// Prove the exact laws by simulating the dice (Monte Carlo, 検証).
    Verify(verify::Args),
    /// Run the analyses (analyses/*.toml) into tables and charts (output/).
    Run(run::Args),
    /// Evaluate the probability invariants ([[check]]) of analysis files.
    Check(check::Args),
    /// What moved (差分): the cells of the committed tables the current
    /// analyses change, largest first (exit 1 beyond --tolerance).
    Diff(diff::Args),
    /// A static odds site of the analyses (公開): index.html and a page per
    /// analysis with its tables, charts, checks and at-least / at-most
    /// views, EN/日本語; nothing loaded from elsewhere, no server.
    Publish(publish::Args),
    /// Scaffold a designer's rules repo (雛形): an example analysis, its
    /// outputs, a README and a GitHub Actions workflow.
    Init(init::Args),
    /// The odds explorer in a browser (見える化): a local web app and its
    /// JSON API (/api/odds), loopback by default.
    Serve(serve::Args),
    /// One report for `hantei serve`, in a child process it can kill.
    #[command(name = "serve-worker", hide = true)]
    ServeWorker,
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::Args),
    /// Print the man page hantei(1) (roff; `hantei man > hantei.1`), or a
    /// command's page (`hantei man odds > hantei-odds.1`).
    Man(completions::ManArgs),
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
    /// Also print, on standard error, every choice of the dice planner
    /// (計画): each term's or group's algorithm, its work estimated before
    /// any was done, and the work and time it then took.
    #[arg(long, global = true)]
    pub explain: bool,
    /// The system and its parameters.
    #[command(subcommand)]
    pub system: Request,
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
            if let Request::Dice(p) = &a.system {
                if p.list_games {
                    return Ok(Output {
                        stdout: crate::systems::dice::games::list_text().into_bytes(),
                        stderr: Vec::new(),
                        code: 0,
                    });
                }
            }
            use crate::systems::dice::pool::plan;
            let render = || a.system.render(a.exact, a.format);
            let (bytes, stderr) = if a.explain {
                let (bytes, decisions, notes) = plan::explain_all(render);
                (bytes, plan::explain_text(&decisions, &notes).into_bytes())
            } else {
                (render(), Vec::new())
            };
            let bytes = bytes.map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: bytes,
                stderr,
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
        Command::Diff(a) => {
            let out = diff::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: out.stdout,
                stderr: Vec::new(),
                code: out.code,
            })
        }
        Command::Init(a) => {
            let out = init::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: out,
                stderr: Vec::new(),
                code: 0,
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
        Command::Publish(a) => Ok(Output {
            stdout: publish::run(&a).map_err(|e| e.to_string())?,
            stderr: Vec::new(),
            code: 0,
        }),
        Command::Serve(a) => {
            serve::run(&a).map_err(|e| e.to_string())?;
            Ok(Output {
                stdout: Vec::new(),
                stderr: Vec::new(),
                code: 0,
            })
        }
        Command::ServeWorker => Ok(Output {
            stdout: crate::serve::worker::main().map_err(|e| e.to_string())?,
            stderr: Vec::new(),
            code: 0,
        }),
        Command::Completions(a) => Ok(Output {
            stdout: completions::completions(&a),
            stderr: Vec::new(),
            code: 0,
        }),
        Command::Man(a) => Ok(Output {
            stdout: completions::man(&a).map_err(|e| e.to_string())?,
            stderr: Vec::new(),
            code: 0,
        }),
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
    // A usage of several lines (`odds dice`: with EXPR, or --list-games)
    // goes with its indented continuation lines.
    let mut in_usage = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("Usage:") {
                in_usage = true;
            } else if !(in_usage && l.starts_with(char::is_whitespace) && !l.trim().is_empty()) {
                in_usage = false;
            }
            !in_usage
        })
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join(" ")
}
