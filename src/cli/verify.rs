//! `hantei verify`: Monte Carlo cross-check of every exact law.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::Error;
use crate::systems::IDS;
use crate::verify::run::{self, DEFAULT_ALPHA, DEFAULT_SEED, DEFAULT_TRIALS};
use crate::verify::{default_grid, Point};

/// Output format of `hantei verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VerifyFormat {
    /// Aligned table for a terminal.
    Table,
    /// One CSV row per parameter point.
    Csv,
    /// JSON for scripts.
    Json,
}

/// Flags of `hantei verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only this system (multiplier, d20, keep-highest, levels, hit-pool, dice).
    #[arg(long, value_name = "ID")]
    pub system: Option<String>,
    /// Simulated checks per parameter point: the default is the quick run
    /// (CI's); 2000000 is the thorough one (about ten times longer).
    #[arg(long, default_value_t = DEFAULT_TRIALS, allow_negative_numbers = true,
          value_parser = crate::request::whole_flag("10000..=100000000"))]
    pub trials: u64,
    /// Seed: the same seed gives the same counts on any number of threads.
    #[arg(long, default_value_t = DEFAULT_SEED, allow_negative_numbers = true,
          value_parser = crate::request::whole_flag("0..=18446744073709551615"))]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, allow_negative_numbers = true, value_parser = threads_flag)]
    pub threads: Option<usize>,
    /// Family-wise error rate of the whole run (Holm–Bonferroni).
    #[arg(long, default_value_t = DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = VerifyFormat::Table)]
    pub format: VerifyFormat,
}

/// What `hantei verify` prints: stdout, stderr, exit code.
pub struct VerifyOutput {
    /// The table / CSV / JSON.
    pub stdout: Vec<u8>,
    /// The failing points, if any.
    pub stderr: Vec<u8>,
    /// 0 when every point agrees, 1 otherwise.
    pub code: u8,
}

fn threads_flag(s: &str) -> std::result::Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| format!("'{s}' is not a whole number of threads (allowed 1..=1024)"))
}

fn validate(a: &Args) -> crate::Result<Vec<Point>> {
    crate::verify::check_trials("--trials", a.trials)?;
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        return Err(Error::param(
            "--alpha",
            a.alpha,
            "must be between 0 and 1 (exclusive)",
        ));
    }
    if let Some(t) = a.threads {
        if t == 0 || t > 1024 {
            return Err(Error::param("--threads", t, "allowed 1..=1024"));
        }
    }
    let mut points = default_grid();
    if let Some(id) = &a.system {
        if !IDS.contains(&id.as_str()) {
            return Err(Error::param(
                "--system",
                id,
                format!("allowed: {}", IDS.join(", ")),
            ));
        }
        points.retain(|p| p.system == id);
    }
    Ok(points)
}

/// The line `hantei verify` prints on a terminal before it starts.
pub fn expected_line(points: usize, trials: u64, threads: usize, seconds: f64) -> String {
    format!(
        "hantei verify: {points} points × {} trials on {threads} thread(s), expected about {} (a timing pass of {} trials per point); --trials 10000 is quicker, 2000000 thorough",
        group(trials),
        duration(seconds),
        group(run::PILOT_TRIALS),
    )
}

/// `1234567` as `1,234,567`.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration as a person reads it: `8 s`, `2 min 5 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.ceil().max(1.0) as u64;
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {} s", s / 60, s % 60)
    }
}

/// Run `hantei verify`.
pub fn run(a: &Args) -> crate::Result<VerifyOutput> {
    let points = validate(a)?;
    let show = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let go = || {
        // On a terminal: the expected time up front (a timing pass), then a
        // bar weighted by each point's expected time, so its ETA is honest.
        let (bar, weights) = if show {
            let est = run::estimate(&points, a.trials, a.seed);
            let total: f64 = est.iter().sum();
            eprintln!(
                "{}",
                expected_line(points.len(), a.trials, rayon::current_num_threads(), total)
            );
            let weights: Vec<u64> = est.iter().map(|s| (s * 1000.0).ceil() as u64 + 1).collect();
            let bar = ProgressBar::new(weights.iter().sum());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {percent:>3}%  {elapsed} elapsed, about {eta} left  {msg}",
            ) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            (bar, weights)
        } else {
            (ProgressBar::hidden(), Vec::new())
        };
        let mut done = 0usize;
        let result = run::run(&points, a.trials, a.seed, a.alpha, |r| {
            bar.set_message(format!(
                "{}/{} points: {} {}",
                (done + 1).min(points.len()),
                points.len(),
                r.system,
                r.label
            ));
            bar.inc(weights.get(done).copied().unwrap_or(0));
            done += 1;
        });
        bar.finish_and_clear();
        result
    };
    let result = match a.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::Conflict(format!("cannot start {n} threads: {e}")))?
            .install(go),
        None => go(),
    };
    let stdout = match a.format {
        VerifyFormat::Table => result.to_table(),
        VerifyFormat::Csv => result.to_csv(),
        VerifyFormat::Json => {
            let mut s = serde_json::to_string_pretty(&result.to_json()).unwrap_or_default();
            s.push('\n');
            s
        }
    };
    let failures = result.failures();
    let stderr = if failures.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = failures
            .iter()
            .map(|r| {
                format!(
                    "{} [{}] (p = {:.2e}, worst cell {})",
                    r.system, r.label, r.p_value, r.worst_cell
                )
            })
            .collect();
        format!(
            "hantei verify: {} point(s) disagree with the exact law: {}\n",
            failures.len(),
            names.join("; ")
        )
    };
    Ok(VerifyOutput {
        stdout: stdout.into_bytes(),
        stderr: stderr.into_bytes(),
        code: if failures.is_empty() { 0 } else { 1 },
    })
}
