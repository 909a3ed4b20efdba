//! `hantei serve-worker` (hidden): one report in a child process, so the
//! server can kill work that runs past its time limit.
//!
//! Reads `{"request": <typed request JSON>, "exact": bool, "format":
//! "json"|"csv"|"md"|"table"}` on standard input and writes the rendered
//! report — the bytes of `hantei odds … --format …` — on standard output; a
//! bad request is the CLI's one-line message (exit 2).

use std::io::Read as _;

use clap::ValueEnum as _;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::export::Format;
use crate::request::Request;

/// The job a worker reads.
pub fn job(request: &Value, exact: bool, format: Format) -> Value {
    let name = format
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_else(|| "json".into());
    serde_json::json!({ "request": request, "exact": exact, "format": name })
}

/// Run one job from `input`: the rendered report.
pub fn run_job(input: &[u8]) -> Result<Vec<u8>> {
    let job: Value = serde_json::from_slice(input)
        .map_err(|e| Error::Conflict(format!("serve-worker: the job is not JSON ({e})")))?;
    let request = Request::from_json(&job["request"])?;
    let exact = job["exact"].as_bool().unwrap_or(false);
    let format = job["format"]
        .as_str()
        .and_then(|f| Format::from_str(f, true).ok())
        .unwrap_or(Format::Json);
    request.render(exact, format)
}

/// `hantei serve-worker`: a job on standard input.
pub fn main() -> Result<Vec<u8>> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| Error::Conflict(format!("serve-worker: cannot read the job ({e})")))?;
    run_job(&input)
}
