//! `hantei run`: every analysis into `output/` (or `--check` that the
//! committed outputs are current).

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::analysis::output::OutFile;
use crate::analysis::spec::Kind;
use crate::analysis::{self, ladders, Analysis};
use crate::error::{Error, Result};
use crate::verify::{self, run as verify_run};

/// Flags of `hantei run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Analysis files or directories of them (default: analyses/).
    pub paths: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "output")]
    pub out: PathBuf,
    /// Regenerate in memory and list the files in the output directory that
    /// are stale (exit 1), writing nothing.
    #[arg(long)]
    pub check: bool,
}

/// What `hantei run` prints.
pub struct RunOutput {
    /// Summary.
    pub stdout: Vec<u8>,
    /// Stale files (with `--check`).
    pub stderr: Vec<u8>,
    /// 0 ok, 1 stale outputs.
    pub code: u8,
}

/// Systems an analysis uses.
fn systems(a: &Analysis) -> Vec<String> {
    let mut s: Vec<String> = a.spec.system.iter().cloned().collect();
    for ax in &a.spec.axis {
        for v in ax.variants.iter().flatten() {
            if let Some(x) = v.get("system") {
                s.push(analysis::value_text(x));
            }
        }
    }
    s.extend(a.spec.ladder.iter().map(|l| l.system.clone()));
    s.sort();
    s.dedup();
    s
}

/// Every output file of one analysis, in memory: once per language it
/// writes (`labels = "both"`: `NAME.*` and `NAME-ja.*`).
pub fn render(a: &Analysis) -> Result<Vec<OutFile>> {
    let mut files = Vec::new();
    for one in a.languages() {
        files.extend(render_one(&one)?);
    }
    Ok(files)
}

/// The output files of an analysis in its one label language.
fn render_one(a: &Analysis) -> Result<Vec<OutFile>> {
    let mut files = match a.spec.kind {
        Kind::Sweep => {
            let grid = analysis::sweep(a)?;
            let mut files = analysis::output::sweep_files(a, &grid)?;
            if !a.spec.check.is_empty() {
                let results = analysis::check::evaluate_all(a, &grid)?;
                files.push((
                    format!("{}.checks.md", a.name()),
                    analysis::check::markdown(a, &results),
                ));
            }
            files
        }
        Kind::Ladders => ladders::files(a)?,
    };
    if let Some(mc) = &a.spec.monte_carlo {
        verify::check_trials("monte_carlo.trials", mc.trials)
            .map_err(|e| a.error("trials", None, e.to_string()))?;
        let used = systems(a);
        let points: Vec<verify::Point> = verify::default_grid()
            .into_iter()
            .filter(|p| used.iter().any(|s| s == p.system))
            .collect();
        let result = verify_run::run(
            &points,
            mc.trials,
            mc.seed.unwrap_or(verify_run::DEFAULT_SEED),
            verify_run::DEFAULT_ALPHA,
            |_| {},
        );
        if !result.passed() {
            return Err(a.error(
                "monte_carlo",
                None,
                format!(
                    "the Monte Carlo cross-check disagrees with the exact engine at: {}",
                    result
                        .failures()
                        .iter()
                        .map(|r| format!("{} [{}]", r.system, r.label))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            ));
        }
        files.push((
            format!("{}.verify.csv", a.name()),
            result.to_csv().into_bytes(),
        ));
    }
    Ok(files)
}

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Error::Io(format!("cannot write {}: {e}", path.display()))
        })
}

/// Write every file, or none: each goes to a temporary file beside its
/// target first, and only when all of them are written (and no target is a
/// directory) are they renamed into place. A failure removes the temporary
/// files and leaves every target as it was.
pub fn write_all_or_nothing(files: &[(PathBuf, &Vec<u8>)]) -> Result<()> {
    let tmp_of = |path: &Path| {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        path.parent()
            .unwrap_or(Path::new("."))
            .join(format!(".{name}.tmp"))
    };
    let mut written: Vec<PathBuf> = Vec::new();
    let cleanup = |written: &[PathBuf]| {
        for t in written {
            let _ = std::fs::remove_file(t);
        }
    };
    for (path, bytes) in files {
        if path.is_dir() {
            cleanup(&written);
            return Err(Error::Io(format!(
                "cannot write {}: it is a directory (nothing was written)",
                path.display()
            )));
        }
        let tmp = tmp_of(path);
        if let Err(e) = std::fs::write(&tmp, bytes) {
            let _ = std::fs::remove_file(&tmp);
            cleanup(&written);
            return Err(Error::Io(format!(
                "cannot write {}: {e} (nothing was written)",
                path.display()
            )));
        }
        written.push(tmp);
    }
    for ((path, _), tmp) in files.iter().zip(&written) {
        std::fs::rename(tmp, path)
            .map_err(|e| Error::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// The file in the output directory that lists what `hantei run` wrote
/// there and for which analysis (`NAME<TAB>ANALYSIS` lines, sorted; the
/// analysis path relative to the output directory's parent, so the list
/// reads the same from any working directory).
pub const MANIFEST: &str = ".hantei-outputs";

/// What a run does to the outputs it wrote before: the files to remove
/// (listed in the manifest, written by an analysis that is gone, or by an
/// analysis of this run that no longer writes them) and the new manifest.
struct Plan {
    /// Output names to remove, with the analysis that wrote them.
    remove: Vec<(String, String)>,
    /// Output names a kept entry of the manifest names, with their analysis
    /// (written by an analysis this run did not load, which still exists).
    kept: BTreeMap<String, String>,
    /// The new manifest's bytes.
    manifest: Vec<u8>,
}

/// The directory analysis paths in the manifest are relative to.
fn manifest_base(out: &Path) -> PathBuf {
    let out = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
    out.parent().map(Path::to_path_buf).unwrap_or(out)
}

/// An analysis file as the manifest names it.
fn manifest_key(base: &Path, file: &Path) -> String {
    let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    abs.strip_prefix(base)
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_else(|_| abs.to_string_lossy().into_owned())
}

/// The manifest's entries (empty when there is none).
fn read_manifest(out: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(out.join(MANIFEST))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(n, a)| (n.to_string(), a.to_string()))
        .collect()
}

fn plan(out: &Path, files: &[PathBuf], outputs: &BTreeMap<String, (Vec<u8>, PathBuf)>) -> Plan {
    let base = manifest_base(out);
    let run: std::collections::BTreeSet<String> =
        files.iter().map(|f| manifest_key(&base, f)).collect();
    let mut entries: BTreeMap<String, String> = outputs
        .iter()
        .map(|(name, (_, f))| (name.clone(), manifest_key(&base, f)))
        .collect();
    let mut remove = Vec::new();
    let mut kept = BTreeMap::new();
    for (name, analysis) in read_manifest(out) {
        if entries.contains_key(&name) {
            continue;
        }
        let gone = run.contains(&analysis) || !base.join(&analysis).is_file();
        // A name that is not a plain file name is not ours to remove.
        let plain = !name.contains('/') && !name.contains('\\') && !name.starts_with('.');
        if gone && plain {
            remove.push((name, analysis));
        } else if plain {
            kept.insert(name.clone(), analysis.clone());
            entries.insert(name, analysis);
        }
    }
    let manifest = entries
        .iter()
        .map(|(n, a)| format!("{n}\t{a}\n"))
        .collect::<String>()
        .into_bytes();
    Plan {
        remove,
        kept,
        manifest,
    }
}

/// The analysis files under `paths`; none is an error (exit 2), for `run`
/// and `check` alike.
pub fn analysis_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let files = analysis::collect_files(paths)?;
    if files.is_empty() {
        return Err(Error::param(
            "PATHS",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" "),
            "holds no .toml analysis files",
        ));
    }
    Ok(files)
}

/// Run `hantei run`.
pub fn run(args: &Args) -> Result<RunOutput> {
    let defaulted = args.paths.is_empty();
    let paths = if defaulted {
        vec![PathBuf::from("analyses")]
    } else {
        args.paths.clone()
    };
    let files = analysis_files(&paths)?;
    let show = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let bar = if show {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} analyses  {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    // Everything is computed before anything is written: a failure leaves
    // the earlier outputs as they were.
    let mut outputs: BTreeMap<String, (Vec<u8>, PathBuf)> = BTreeMap::new();
    for f in &files {
        bar.set_message(f.display().to_string());
        let a = analysis::load(f)?;
        for (name, bytes) in render(&a)? {
            if let Some((_, other)) = outputs.get(&name) {
                return Err(a.error(
                    "name",
                    None,
                    format!("output {name} is also written by {}", other.display()),
                ));
            }
            outputs.insert(name, (bytes, f.clone()));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();

    let plan = plan(&args.out, &files, &outputs);
    if args.check {
        let mut stale = Vec::new();
        for (name, (bytes, _)) in &outputs {
            let path = args.out.join(name);
            match std::fs::read(&path) {
                Ok(current) if current == *bytes => {}
                Ok(_) => stale.push(format!("{} (differs)", path.display())),
                Err(_) => stale.push(format!("{} (missing)", path.display())),
            }
        }
        if defaulted {
            if let Ok(entries) = std::fs::read_dir(&args.out) {
                let mut orphans: Vec<String> = entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| {
                        !n.starts_with('.')
                            && n != "README.md"
                            && !outputs.contains_key(n)
                            && !plan.kept.contains_key(n)
                    })
                    .map(|n| {
                        let path = args.out.join(&n);
                        // Say the command that removes it: `hantei run`
                        // for what it wrote (its manifest says so), `rm`
                        // for a file it did not write.
                        match plan.remove.iter().find(|(r, _)| *r == n) {
                            Some((_, a)) => format!(
                                "{} (written for {a}, which is gone or no longer writes it: `hantei run` removes it)",
                                path.display()
                            ),
                            None => format!(
                                "{} (no analysis writes it, and hantei run did not write it: remove it with `rm {}`)",
                                path.display(),
                                path.display()
                            ),
                        }
                    })
                    .collect();
                orphans.sort();
                stale.extend(orphans);
            }
            // A missing list is not stale (nothing recorded yet: `hantei
            // init` and older runs write none); a differing one is.
            let path = args.out.join(MANIFEST);
            if std::fs::read(&path).is_ok_and(|cur| cur != plan.manifest) {
                stale.push(format!(
                    "{} (the list of what hantei run wrote; differs)",
                    path.display()
                ));
            }
        }
        let summary = format!(
            "checked {} files from {} {}: {}\n",
            outputs.len(),
            files.len(),
            plural(files.len(), "analysis", "analyses"),
            if stale.is_empty() {
                "all current".to_string()
            } else {
                format!("{} stale", stale.len())
            }
        );
        let stderr = if stale.is_empty() {
            String::new()
        } else {
            format!(
                "hantei run --check: stale outputs (run `hantei run` and commit):\n{}\n",
                stale
                    .iter()
                    .map(|s| format!("  {s}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        };
        return Ok(RunOutput {
            stdout: summary.into_bytes(),
            stderr: stderr.into_bytes(),
            code: u8::from(!stale.is_empty()),
        });
    }

    std::fs::create_dir_all(&args.out)
        .map_err(|e| Error::Io(format!("cannot create {}: {e}", args.out.display())))?;
    let mut todo: Vec<(PathBuf, &Vec<u8>)> = outputs
        .iter()
        .map(|(name, (bytes, _))| (args.out.join(name), bytes))
        .filter(|(path, bytes)| !std::fs::read(path).is_ok_and(|cur| cur == **bytes))
        .collect();
    let changed = todo.len();
    let manifest_path = args.out.join(MANIFEST);
    if !std::fs::read(&manifest_path).is_ok_and(|cur| cur == plan.manifest) {
        todo.push((manifest_path, &plan.manifest));
    }
    write_all_or_nothing(&todo)?;
    // Then the outputs it wrote for analyses that are gone (or that no
    // longer write them), and only those: the manifest lists what it wrote.
    let mut removed = 0;
    for (name, _) in &plan.remove {
        match std::fs::remove_file(args.out.join(name)) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(Error::Io(format!(
                    "cannot remove {}: {e}",
                    args.out.join(name).display()
                )))
            }
        }
    }
    Ok(RunOutput {
        stdout: format!(
            "{} {} → {} files in {} ({} changed{})\n",
            files.len(),
            plural(files.len(), "analysis", "analyses"),
            outputs.len(),
            args.out.display(),
            changed,
            if removed > 0 {
                format!(", {removed} removed: their analyses are gone")
            } else {
                String::new()
            }
        )
        .into_bytes(),
        stderr: Vec::new(),
        code: 0,
    })
}

/// `one` for 1, `many` otherwise.
fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}
