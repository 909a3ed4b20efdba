//! `hantei diff`: the cells of the committed tables (`output/NAME.csv`, or
//! another directory, or `output/` at a git revision) that the current
//! analyses move. The current tables are computed in memory, as
//! `hantei run --check` does; nothing is written.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::analysis::diff::{self, compare, Format, Report, Table};
use crate::analysis::{self};
use crate::error::{Error, Result};

/// Flags of `hantei diff`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Analysis files or directories of them (default: analyses/).
    pub paths: Vec<PathBuf>,
    /// The directory of the committed tables (as `hantei run --out`).
    #[arg(long, default_value = "output")]
    pub out: PathBuf,
    /// Compare with the tables in this directory, or with `--out` as
    /// committed at this git revision (`origin/main`, `HEAD~1`, a commit).
    /// A directory that exists wins. Default: `--out` as it is on disk.
    #[arg(long, value_name = "DIR|REV")]
    pub against: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Changes up to this many points are reported but pass; a larger one
    /// exits 1. Points are percentage points for a probability, the
    /// metric's own units otherwise (expected rolls, a scaled worth).
    #[arg(
        long,
        default_value_t = 0.0,
        value_name = "POINTS",
        allow_negative_numbers = true,
        value_parser = tolerance_flag
    )]
    pub tolerance: f64,
}

/// `--tolerance`: a number (a negative one is read as a value, not as a
/// flag, so that [`run`] can say what is allowed rather than clap's `-- -1`
/// hint; text gets the same allowed range, not "invalid float literal").
fn tolerance_flag(s: &str) -> std::result::Result<f64, String> {
    s.trim().parse::<f64>().map_err(|_| {
        format!("'{s}' is not a number (allowed: a number of points, 0 or more, e.g. 0.5)")
    })
}

/// What `hantei diff` prints.
pub struct DiffOutput {
    /// The report.
    pub stdout: Vec<u8>,
    /// 0 when every change is within the tolerance, 1 otherwise.
    pub code: u8,
}

/// Where the committed tables come from.
enum Source {
    /// A directory on disk.
    Dir(PathBuf),
    /// A directory in a git revision: the revision and the directory as a
    /// `REV:PATH` path (`./output`, relative to the current directory, or
    /// relative to the top of the work tree).
    Git { rev: String, dir: String },
}

impl Source {
    /// For people: `output/`, `origin/main:output/`.
    fn describe(&self) -> String {
        match self {
            Source::Dir(d) => {
                let text = d.display().to_string();
                match text.trim_end_matches('/') {
                    "" if text.starts_with('/') => "/".into(),
                    trimmed => format!("{trimmed}/"),
                }
            }
            Source::Git { rev, dir } => {
                format!("{rev}:{}/", dir.strip_prefix("./").unwrap_or(dir))
            }
        }
    }

    /// The table file names there (`*.csv`, not Monte Carlo `*.verify.csv`),
    /// or `None` when the directory does not exist there.
    fn list(&self) -> Result<Option<BTreeSet<String>>> {
        let names: Vec<String> = match self {
            Source::Dir(d) => {
                if !d.is_dir() {
                    return Ok(None);
                }
                std::fs::read_dir(d)
                    .map_err(|e| Error::Io(format!("cannot read {}: {e}", d.display())))?
                    .filter_map(|e| e.ok())
                    .filter(|e| e.path().is_file())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            }
            Source::Git { rev, dir } => {
                let spec = format!("{rev}:{dir}");
                if git(&["cat-file", "-t", &spec]).ok().as_deref() != Some(b"tree\n".as_slice()) {
                    return Ok(None);
                }
                // --full-tree: from a subdirectory, ls-tree would otherwise
                // list only the entries under that subdirectory's path.
                let out = git(&["ls-tree", "-z", "--full-tree", "--name-only", &spec])?;
                out.split(|&b| b == 0)
                    .filter(|n| !n.is_empty())
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .collect()
            }
        };
        Ok(Some(
            names
                .into_iter()
                .filter(|n| {
                    n.ends_with(".csv") && !n.ends_with(".verify.csv") && !n.starts_with('.')
                })
                .collect(),
        ))
    }

    /// The bytes of table `name`.
    fn read(&self, name: &str) -> Result<Vec<u8>> {
        match self {
            Source::Dir(d) => {
                let p = d.join(name);
                std::fs::read(&p)
                    .map_err(|e| Error::Io(format!("cannot read {}: {e}", p.display())))
            }
            Source::Git { rev, dir } => git(&["cat-file", "blob", &format!("{rev}:{dir}/{name}")]),
        }
    }
}

/// Run git; its standard output, or its message as an error.
fn git(args: &[&str]) -> Result<Vec<u8>> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| Error::Io(format!("cannot run git: {e}")))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(Error::Io(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

/// `dir` as the path part of `REV:PATH`: `./dir` (relative to the current
/// directory, with `/`) for a relative directory, or relative to the top of
/// the work tree for an absolute one.
fn tree_path(dir: &Path) -> Result<String> {
    let join = |p: &Path| {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/")
    };
    if dir.is_relative() {
        return Ok(format!("./{}", join(dir)));
    }
    let top = git(&["rev-parse", "--show-toplevel"])?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
    let top = top.canonicalize().unwrap_or(top);
    let abs = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    abs.strip_prefix(&top).map(join).map_err(|_| {
        Error::param(
            "--out",
            dir.display(),
            format!(
                "with a git revision, the directory must be inside the work tree ({})",
                top.display()
            ),
        )
    })
}

/// Where `--against` (or its absence) points.
fn source(args: &Args) -> Result<Source> {
    let Some(against) = &args.against else {
        return Ok(Source::Dir(args.out.clone()));
    };
    if Path::new(against).is_dir() {
        return Ok(Source::Dir(PathBuf::from(against)));
    }
    let not_found = |why: String| {
        Error::param(
            "--against",
            against,
            format!(
                "allowed: a directory of tables, or a git revision here such as HEAD~1 or origin/main ({why})"
            ),
        )
    };
    if against.is_empty() || against.starts_with('-') {
        return Err(not_found("a revision does not start with '-'".into()));
    }
    git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        &format!("{against}^{{commit}}"),
    ])
    .map_err(|e| {
        // `--quiet` leaves git's message empty when the name is unknown;
        // other failures (not a repository, no git) say why.
        let text = e.to_string();
        match text.split_once(": ").map(|(_, why)| why.trim()) {
            Some(why) if !why.is_empty() => not_found(why.to_string()),
            _ => not_found(format!(
                "no directory {against}, and git knows no commit {against}"
            )),
        }
    })?;
    Ok(Source::Git {
        rev: against.clone(),
        dir: tree_path(&args.out)?,
    })
}

/// Run `hantei diff`.
pub fn run(args: &Args) -> Result<DiffOutput> {
    if !args.tolerance.is_finite() || args.tolerance < 0.0 {
        return Err(Error::param(
            "--tolerance",
            args.tolerance,
            "a number of points, 0 or more",
        ));
    }
    let defaulted = args.paths.is_empty();
    let paths = if defaulted {
        vec![PathBuf::from("analyses")]
    } else {
        args.paths.clone()
    };
    let files = super::run::analysis_files(&paths)?;
    let source = source(args)?;
    let committed = source.list()?;
    let mut notes = Vec::new();
    if committed.is_none() {
        notes.push(format!(
            "{} does not exist: every table is new",
            source.describe()
        ));
    }
    let committed = committed.unwrap_or_default();
    let read_old = |name: &str, current: Option<&Table>| -> Result<Table> {
        diff::parse_committed(&source.read(name)?, current)
            .map_err(|e| Error::Io(format!("{}{name}: {e}", source.describe())))
    };

    let mut tables = Vec::new();
    let mut seen: Vec<(String, PathBuf)> = Vec::new();
    for f in &files {
        let a = analysis::load(f)?;
        let name = diff::table_name(&a);
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
            return Err(a.error(
                "name",
                None,
                format!("output {name} is also written by {}", other.display()),
            ));
        }
        seen.push((name.clone(), f.clone()));
        let schema = diff::schema(&a);
        let new = diff::parse(&diff::current_csv(&a)?, Some(schema.keys))
            .map_err(|e| Error::Io(format!("{name} (as computed now): {e}")))?;
        let old = if committed.contains(&name) {
            Some(read_old(&name, Some(&new))?)
        } else {
            None
        };
        tables.push(compare(
            &a.name(),
            &name,
            old.as_ref(),
            Some(&new),
            Some(&schema),
        ));
    }
    // With the default analyses, a committed table no analysis writes any
    // more is listed as removed (as `hantei run --check` lists it).
    if defaulted {
        for name in &committed {
            if seen.iter().any(|(n, _)| n == name) {
                continue;
            }
            let stem = name.strip_suffix(".csv").unwrap_or(name);
            match read_old(name, None) {
                Ok(old) => tables.push(compare(stem, name, Some(&old), None, None)),
                Err(e) => notes.push(format!("{e} (not compared)")),
            }
        }
    }
    let report = Report {
        against: source.describe(),
        tolerance: args.tolerance,
        tables,
        notes,
    };
    Ok(DiffOutput {
        stdout: report.render(args.format).into_bytes(),
        code: u8::from(!report.passed()),
    })
}
