//! `hantei init [DIR] [--system SYSTEM]`: scaffold a designer's rules repo —
//! the example analysis of the system, its outputs (rendered as `hantei run`
//! renders them, so `hantei run --check` passes at once), a README and a
//! GitHub Actions workflow. Existing files are never overwritten.

use std::path::{Path, PathBuf};

use crate::analysis;
use crate::error::{Error, Result};
use crate::init::{readme, template, workflow, System, WORKFLOW_PATH};

/// Flags of `hantei init`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory of the rules repo (created if missing).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// The system of the example analysis.
    #[arg(long, value_enum, default_value_t = System::D20)]
    pub system: System,
    /// Where the CI workflow installs hantei from: a git URL (`cargo install
    /// --git`), or a directory of the repo holding hantei's source, such as a
    /// git submodule (`cargo install --path`).
    #[arg(long, value_name = "GIT-URL|DIR", default_value = "hantei")]
    pub hantei_source: String,
}

/// Run `hantei init`: the list of files written.
pub fn run(args: &Args) -> Result<Vec<u8>> {
    let t = template(args.system);
    let analysis_path = format!("analyses/{}.toml", t.id);
    // Rendered from memory, as the repo will see it (paths relative to it).
    let a = analysis::load_str(Path::new(&analysis_path), t.analysis.to_string())?;
    let mut files: Vec<(String, Vec<u8>)> = vec![(analysis_path, t.analysis.as_bytes().to_vec())];
    files.extend(
        super::run::render(&a)?
            .into_iter()
            .map(|(name, bytes)| (format!("output/{name}"), bytes)),
    );
    files.push((
        WORKFLOW_PATH.to_string(),
        workflow(&args.hantei_source)?.into_bytes(),
    ));
    let listed: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    files.push((
        "README.md".to_string(),
        readme(args.system, &listed).into_bytes(),
    ));

    let existing: Vec<&str> = files
        .iter()
        .map(|(p, _)| p.as_str())
        .filter(|p| args.dir.join(p).symlink_metadata().is_ok())
        .collect();
    if !existing.is_empty() {
        return Err(Error::Conflict(format!(
            "refusing to overwrite existing files in {}: {} (nothing was written; move them away or choose another directory)",
            args.dir.display(),
            existing.join(", ")
        )));
    }
    let targets: Vec<(PathBuf, &Vec<u8>)> = files
        .iter()
        .map(|(p, bytes)| (args.dir.join(p), bytes))
        .collect();
    for (path, _) in &targets {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::Io(format!("cannot create {}: {e}", parent.display())))?;
        }
    }
    super::run::write_all_or_nothing(&targets)?;

    let mut out = format!(
        "hantei init: a {} rules repo in {} ({} files)\n",
        t.id,
        args.dir.display(),
        files.len()
    );
    for (p, _) in &files {
        out.push_str(&format!("  {p}\n"));
    }
    out.push_str(
        "next: edit the analysis, then `hantei run`, `hantei check` and `hantei diff`; README.md explains each file\n",
    );
    Ok(out.into_bytes())
}
