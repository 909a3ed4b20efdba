//! `hantei check`: evaluate every `[[check]]` of the analysis files.

use std::path::PathBuf;

use crate::analysis::check::{evaluate_all, to_json, to_junit, CheckResult};
use crate::analysis::spec::Kind;
use crate::analysis::{self};
use crate::error::Result;

/// Output format of `hantei check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// One line per check.
    Table,
    /// JSON for scripts.
    Json,
    /// JUnit XML for CI systems.
    Junit,
}

/// Flags of `hantei check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Analysis files or directories of them (default: analyses/).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
    pub format: CheckFormat,
}

/// What `hantei check` prints.
pub struct CheckOutput {
    /// The verdicts.
    pub stdout: Vec<u8>,
    /// 0 when every check passes, 1 otherwise.
    pub code: u8,
}

/// Every check result of the files under `paths`.
pub fn results(paths: &[PathBuf]) -> Result<Vec<CheckResult>> {
    let mut out = Vec::new();
    for f in &super::run::analysis_files(paths)? {
        let a = analysis::load(f)?;
        if a.spec.check.is_empty() {
            continue;
        }
        if a.spec.kind != Kind::Sweep {
            return Err(a.error(
                "check",
                Some("[[check]]"),
                "checks belong to sweep analyses",
            ));
        }
        out.extend(evaluate_all(&a, &analysis::sweep(&a)?)?);
    }
    Ok(out)
}

fn table(results: &[CheckResult]) -> String {
    let mut out = String::new();
    for r in results {
        out.push_str(&format!("{:<24} {}  {}\n", r.verdict(), r.name, r.message));
        out.push_str(&format!(
            "{:<24} expected {}; found {}\n",
            "", r.expected, r.found
        ));
        if let Some(c) = &r.counterexample {
            let label = if r.holds { "example" } else { "counterexample" };
            out.push_str(&format!("{:<24} {label}: {c}\n", ""));
        }
    }
    let failed = results.iter().filter(|r| !r.pass()).count();
    out.push_str(&format!(
        "\n{} checks: {} pass, {} fail\n",
        results.len(),
        results.len() - failed,
        failed
    ));
    out
}

/// Run `hantei check`.
pub fn run(args: &Args) -> Result<CheckOutput> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("analyses")]
    } else {
        args.paths.clone()
    };
    let results = results(&paths)?;
    let stdout = match args.format {
        CheckFormat::Table => table(&results),
        CheckFormat::Json => {
            let mut s = serde_json::to_string_pretty(&to_json(&results)).unwrap_or_default();
            s.push('\n');
            s
        }
        CheckFormat::Junit => to_junit(&results),
    };
    Ok(CheckOutput {
        stdout: stdout.into_bytes(),
        code: u8::from(results.iter().any(|r| !r.pass())),
    })
}
