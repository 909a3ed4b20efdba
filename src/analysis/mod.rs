//! Analyses: grids of `hantei odds` calls described in `analyses/*.toml`,
//! turned into CSV tables, rulebook Markdown and charts (`hantei run`).
//!
//! Every number of an analysis is computed by the same path as `hantei
//! odds`: the point's flags are parsed by the CLI's own argument structs and
//! the system's report is evaluated, then a [`metric::Metric`] path picks
//! the number out of its JSON. So the tables always agree with `hantei
//! odds`. [`spec`] is the file format, [`output`] renders the files,
//! [`ladders`] is the cross-system difficulty comparison.

pub mod check;
pub mod ladders;
pub mod metric;
pub mod output;
pub mod spec;

use std::path::{Path, PathBuf};

use clap::Parser;
use serde_json::Value;

use crate::cli::{Cli, Command};
use crate::error::{Error, Result};
use metric::Metric;
use spec::{AxisSpec, Lang, Spec};

/// An analysis file, read and checked.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its text (for error lines).
    pub source: String,
    /// Its content.
    pub spec: Spec,
}

impl Analysis {
    /// Output file stem.
    pub fn name(&self) -> String {
        self.spec.name.clone().unwrap_or_else(|| {
            self.path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "analysis".into())
        })
    }

    /// Label language.
    pub fn lang(&self) -> Lang {
        self.spec.labels
    }

    /// The title in the label language.
    pub fn title(&self) -> &str {
        self.lang()
            .pick(&self.spec.title, self.spec.title_ja.as_deref())
    }

    /// An error about `key`, located at the first line of the file that
    /// contains `needle` (or mentions the key).
    pub fn error(&self, key: &str, needle: Option<&str>, message: impl Into<String>) -> Error {
        let find = |n: &str| {
            self.source
                .lines()
                .position(|l| l.contains(n))
                .map(|i| i + 1)
        };
        let line = needle
            .and_then(find)
            .or_else(|| find(&format!("{key} =")))
            .or_else(|| find(key));
        Error::Analysis {
            file: self.path.display().to_string(),
            line,
            key: key.to_string(),
            message: message.into(),
        }
    }
}

/// Read and parse one analysis file.
pub fn load(path: &Path) -> Result<Analysis> {
    let source = std::fs::read_to_string(path)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
    let spec: Spec = toml::from_str(&source).map_err(|e| {
        let line = e
            .span()
            .map(|s| source[..s.start.min(source.len())].matches('\n').count() + 1);
        let message = e.message().to_string();
        // serde names the field in backticks ("unknown field `x`").
        let key = message.split('`').nth(1).unwrap_or("(file)").to_string();
        Error::Analysis {
            file: path.display().to_string(),
            line,
            key,
            message,
        }
    })?;
    let a = Analysis {
        path: path.to_path_buf(),
        source,
        spec,
    };
    validate(&a)?;
    Ok(a)
}

/// Every `*.toml` under `dir`, sorted by name.
pub fn find_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::Io(format!("cannot read directory {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

/// The analysis files named by `paths`: files as given, directories'
/// `*.toml` sorted by name.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            files.extend(find_files(p)?);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(Error::param(
                "PATHS",
                p.display(),
                "no such file or directory (give analysis .toml files or directories)",
            ));
        }
    }
    Ok(files)
}

fn validate(a: &Analysis) -> Result<()> {
    let s = &a.spec;
    let known = |id: &str| crate::systems::IDS.contains(&id);
    if let Some(sys) = &s.system {
        if !known(sys) {
            return Err(a.error(
                "system",
                None,
                format!(
                    "unknown system '{sys}' (allowed: {})",
                    crate::systems::IDS.join(", ")
                ),
            ));
        }
    }
    match s.kind {
        spec::Kind::Sweep => {
            if s.metrics.is_empty() {
                return Err(a.error("metrics", None, "a sweep needs at least one metric"));
            }
            for m in &s.metrics {
                Metric::parse(m.path()).map_err(|e| a.error("metrics", Some(m.path()), e))?;
            }
            if s.system.is_none()
                && !s.axis.iter().any(|ax| {
                    ax.variants
                        .as_ref()
                        .is_some_and(|v| v.iter().all(|t| t.contains_key("system")))
                })
            {
                return Err(a.error(
                    "system",
                    None,
                    "no system: give `system = \"…\"` or a variant axis whose variants all set one",
                ));
            }
            axes(a)?;
        }
        spec::Kind::Ladders => {
            if s.ladder.is_empty() {
                return Err(a.error(
                    "ladder",
                    None,
                    "a ladders analysis needs [[ladder]] entries",
                ));
            }
            for l in &s.ladder {
                if !known(&l.system) {
                    return Err(a.error(
                        "system",
                        Some(&format!("\"{}\"", l.system)),
                        format!("unknown system '{}'", l.system),
                    ));
                }
                if l.values.is_empty() || l.character.is_empty() {
                    return Err(a.error(
                        "values",
                        Some(&format!("\"{}\"", l.system)),
                        "a ladder needs values and at least one [[ladder.character]]",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// One value along an axis.
#[derive(Clone, Debug)]
pub struct AxisPoint {
    /// Its label (as written in tables; also what `where` filters match).
    pub label: String,
    /// Its Japanese label, if any.
    pub label_ja: Option<String>,
    /// The flags it sets.
    pub params: toml::Table,
}

/// A sweep axis, expanded.
#[derive(Clone, Debug)]
pub struct Axis {
    /// Id.
    pub id: String,
    /// Label (English).
    pub label: String,
    /// Label (Japanese).
    pub label_ja: Option<String>,
    /// Its values, in order.
    pub points: Vec<AxisPoint>,
}

/// Text of a TOML value as a flag value or label.
pub fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(a) => a.iter().map(value_text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

fn axis(a: &Analysis, ax: &AxisSpec) -> Result<Axis> {
    let id = ax
        .name
        .clone()
        .or_else(|| ax.param.clone())
        .ok_or_else(|| a.error("axis", Some("[[axis]]"), "an axis needs `name` or `param`"))?;
    let needle = format!("\"{id}\"");
    let single = |param: &str, v: toml::Value| {
        let mut params = toml::Table::new();
        params.insert(param.to_string(), v.clone());
        AxisPoint {
            label: value_text(&v),
            label_ja: None,
            params,
        }
    };
    let points: Vec<AxisPoint> = match (&ax.values, &ax.range, &ax.variants, &ax.param) {
        (Some(vals), None, None, Some(p)) => vals.iter().map(|v| single(p, v.clone())).collect(),
        (None, Some([lo, hi]), None, Some(p)) => {
            let step = ax.step.unwrap_or(1);
            if step <= 0 || hi < lo {
                return Err(a.error(
                    "range",
                    Some(&needle),
                    format!("range [{lo}, {hi}] step {step}: need from ≤ to and step ≥ 1"),
                ));
            }
            (0..)
                .map(|i| lo + i * step)
                .take_while(|x| x <= hi)
                .map(|x| single(p, toml::Value::Integer(x)))
                .collect()
        }
        (None, None, Some(vars), None) => vars
            .iter()
            .map(|t| {
                let label = t
                    .get("label")
                    .map(value_text)
                    .ok_or_else(|| a.error("variants", Some(&needle), "every variant needs a `label`"))?;
                let label_ja = t.get("label_ja").map(value_text);
                let mut params = t.clone();
                params.remove("label");
                params.remove("label_ja");
                Ok(AxisPoint {
                    label,
                    label_ja,
                    params,
                })
            })
            .collect::<Result<_>>()?,
        _ => {
            return Err(a.error(
                "axis",
                Some(&needle),
                format!(
                    "axis '{id}': give `param` with `values` or `range`, or `variants` (without `param`)"
                ),
            ))
        }
    };
    if points.is_empty() {
        return Err(a.error("axis", Some(&needle), format!("axis '{id}' has no values")));
    }
    Ok(Axis {
        label: ax.label.clone().unwrap_or_else(|| id.clone()),
        label_ja: ax.label_ja.clone(),
        id,
        points,
    })
}

/// The analysis's axes, expanded.
pub fn axes(a: &Analysis) -> Result<Vec<Axis>> {
    let axes: Vec<Axis> = a
        .spec
        .axis
        .iter()
        .map(|ax| axis(a, ax))
        .collect::<Result<_>>()?;
    for (i, x) in axes.iter().enumerate() {
        if axes[..i].iter().any(|y| y.id == x.id) {
            return Err(a.error(
                "name",
                Some(&format!("\"{}\"", x.id)),
                format!("two axes are named '{}'", x.id),
            ));
        }
    }
    Ok(axes)
}

/// Evaluate `hantei odds <system>` with `params` (flag → value), exactly as
/// the CLI would, and return its JSON report (f64).
pub fn odds_json(system: &str, params: &toml::Table) -> std::result::Result<Value, String> {
    odds_json_in(system, params, false)
}

/// [`odds_json`], in exact fractions when `exact` (`hantei odds --exact`).
pub fn odds_json_in(
    system: &str,
    params: &toml::Table,
    exact: bool,
) -> std::result::Result<Value, String> {
    let mut argv = vec!["hantei".to_string(), "odds".into(), system.to_string()];
    for (k, v) in params {
        match v {
            toml::Value::Boolean(true) => argv.push(format!("--{k}")),
            toml::Value::Boolean(false) => {}
            toml::Value::Array(items) => {
                for x in items {
                    argv.push(format!("--{k}={}", value_text(x)));
                }
            }
            other => argv.push(format!("--{k}={}", value_text(other))),
        }
    }
    let cli =
        Cli::try_parse_from(&argv).map_err(|e| crate::cli::one_line(&e.render().to_string()))?;
    match cli.command {
        Command::Odds(o) if exact => o
            .system
            .report::<crate::weight::Exact>()
            .map(|r| r.to_json())
            .map_err(|e| e.to_string()),
        Command::Odds(o) => o
            .system
            .report::<f64>()
            .map(|r| r.to_json())
            .map_err(|e| e.to_string()),
        _ => Err("not an odds command".into()),
    }
}

/// One point of a sweep: a value index per axis, and its flags.
#[derive(Clone, Debug)]
pub struct Point {
    /// Index into each axis's points.
    pub coords: Vec<usize>,
    /// System id.
    pub system: String,
    /// All flags (fixed params, then each axis's).
    pub params: toml::Table,
}

/// A computed sweep: points and metric values.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The axes.
    pub axes: Vec<Axis>,
    /// The metrics, parsed, with their labels (and the file's entries).
    pub metrics: Vec<(Metric, String)>,
    /// Whether each metric is shown as a percentage.
    pub percent: Vec<bool>,
    /// Each metric's English label (or path), for references.
    pub ids: Vec<String>,
    /// Points, first axis outermost.
    pub points: Vec<Point>,
    /// `values[point][metric]` (`None`: the metric does not apply there).
    pub values: Vec<Vec<Option<f64>>>,
    /// Each point's full `hantei odds` JSON (checks read any field).
    pub reports: Vec<Value>,
}

impl Grid {
    /// Index of the axis `id`.
    pub fn axis_index(&self, id: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.id == id)
    }

    /// Index of the metric named `name`: its English label first (derived
    /// metrics share their path), then its path.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.ids
            .iter()
            .position(|id| id == name)
            .or_else(|| self.metrics.iter().position(|(m, _)| m.text() == name))
    }

    /// Label of a point's value on axis `i` in `lang`.
    pub fn coord_label(&self, p: &Point, i: usize, lang: Lang) -> String {
        let ap = &self.axes[i].points[p.coords[i]];
        lang.pick(&ap.label, ap.label_ja.as_deref()).to_string()
    }
}

/// Compute a sweep.
pub fn sweep(a: &Analysis) -> Result<Grid> {
    let axes = axes(a)?;
    let metrics: Vec<(Metric, String)> = a
        .spec
        .metrics
        .iter()
        .map(|m| {
            Metric::parse(m.path())
                .map(|x| (x, m.label(a.lang())))
                .map_err(|e| a.error("metrics", Some(m.path()), e))
        })
        .collect::<Result<_>>()?;
    let mut points = Vec::new();
    let mut coords = vec![0usize; axes.len()];
    loop {
        let mut params = a.spec.params.clone();
        let mut system = a.spec.system.clone();
        for (ax, &c) in axes.iter().zip(&coords) {
            for (k, v) in &ax.points[c].params {
                if k == "system" {
                    system = Some(value_text(v));
                } else {
                    params.insert(k.clone(), v.clone());
                }
            }
        }
        points.push(Point {
            coords: coords.clone(),
            system: system.unwrap_or_default(),
            params,
        });
        // Odometer, last axis fastest.
        let mut i = axes.len();
        loop {
            if i == 0 {
                break;
            }
            i -= 1;
            coords[i] += 1;
            if coords[i] < axes[i].points.len() {
                break;
            }
            coords[i] = 0;
        }
        if coords.iter().all(|&c| c == 0) {
            break;
        }
    }
    let mut values: Vec<Vec<Option<f64>>> = Vec::with_capacity(points.len());
    let mut reports = Vec::with_capacity(points.len());
    for p in &points {
        let json = odds_json(&p.system, &p.params).map_err(|msg| {
            let at: Vec<String> = axes
                .iter()
                .zip(&p.coords)
                .map(|(ax, &c)| format!("{}={}", ax.id, ax.points[c].label))
                .collect();
            let key = msg
                .split("--")
                .nth(1)
                .and_then(|rest| {
                    rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                        .next()
                })
                .unwrap_or("params")
                .to_string();
            a.error(&key, None, format!("at point [{}]: {msg}", at.join(" ")))
        })?;
        values.push(metrics.iter().map(|(m, _)| m.eval(&json)).collect());
        reports.push(json);
    }
    // Worths: subtract the baseline point's value, then scale.
    let raw = values.clone();
    for (mi, ms) in a.spec.metrics.iter().enumerate() {
        if !ms.is_derived() {
            continue;
        }
        let base_coords = |p: &Point| -> Result<Vec<usize>> {
            let mut c = p.coords.clone();
            for (k, v) in ms.minus().into_iter().flatten() {
                let needle = format!("{k} =");
                let ai = axes.iter().position(|ax| &ax.id == k).ok_or_else(|| {
                    a.error("minus", Some(&needle), format!("no axis named '{k}'"))
                })?;
                c[ai] = axes[ai]
                    .points
                    .iter()
                    .position(|ap| ap.label == value_text(v))
                    .ok_or_else(|| {
                        a.error(
                            "minus",
                            Some(&needle),
                            format!("axis '{k}' has no value '{}'", value_text(v)),
                        )
                    })?;
            }
            Ok(c)
        };
        for (pi, p) in points.iter().enumerate() {
            let bc = base_coords(p)?;
            let base = match ms.minus() {
                Some(_) => points
                    .iter()
                    .position(|q| q.coords == bc)
                    .and_then(|bi| raw[bi][mi]),
                None => Some(0.0),
            };
            values[pi][mi] = match (raw[pi][mi], base) {
                (Some(x), Some(b)) => Some((x - b) * ms.scale()),
                _ => None,
            };
        }
    }
    Ok(Grid {
        reports,
        ids: a.spec.metrics.iter().map(|m| m.label(Lang::En)).collect(),
        percent: a
            .spec
            .metrics
            .iter()
            .map(|m| output::is_probability(m.path()) && m.scale() == 1.0)
            .collect(),
        axes,
        metrics,
        points,
        values,
    })
}
