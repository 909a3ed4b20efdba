//! Analyses: grids of `hantei odds` calls described in `analyses/*.toml`,
//! turned into CSV tables, rulebook Markdown and charts (`hantei run`).
//!
//! Every number of an analysis is computed by the same path as `hantei
//! odds`: each point's keys become the system's typed
//! [`Request`] (the same fields as the CLI's flags, validated by the same
//! code), its report is computed — points in parallel on rayon, collected
//! in order — and a [`metric::Metric`] path reads the number from the
//! report's typed fields. So the tables always agree with `hantei odds`,
//! and are the same bytes on any number of threads. [`spec`] is the file format, [`output`] renders the files,
//! [`ladders`] is the cross-system difficulty comparison.

pub mod check;
pub mod diff;
pub mod ladders;
pub mod metric;
pub mod output;
pub mod spec;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::request::Request;
use metric::Metric;
use spec::{AxisSpec, Labels, Lang, Spec};

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

    /// Label language (`both` writes English first: see
    /// [`Analysis::languages`]).
    pub fn lang(&self) -> Lang {
        match self.spec.labels {
            Labels::Ja => Lang::Ja,
            Labels::En | Labels::Both => Lang::En,
        }
    }

    /// The analysis once per language it writes: itself, and for `labels =
    /// "both"` the English one then a Japanese copy named `NAME-ja` (its
    /// checks and Monte Carlo cross-check are the English one's, not
    /// repeated).
    pub fn languages(&self) -> Vec<Analysis> {
        if self.spec.labels != Labels::Both {
            return vec![self.clone()];
        }
        let mut en = self.clone();
        en.spec.labels = Labels::En;
        en.spec.name = Some(self.name());
        let mut ja = self.clone();
        ja.spec.labels = Labels::Ja;
        ja.spec.name = Some(format!("{}-ja", self.name()));
        ja.spec.check.clear();
        ja.spec.monte_carlo = None;
        vec![en, ja]
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
    load_str(path, source)
}

/// Parse and validate an analysis whose text is already in memory, as if
/// read from `path` (which names it in errors and in `NAME.md`; it need not
/// exist yet — `hantei init` renders a template before writing it).
pub fn load_str(path: &Path, source: String) -> Result<Analysis> {
    let spec: Spec = toml::from_str(&source).map_err(|e| {
        let line = e
            .span()
            .map(|s| source[..s.start.min(source.len())].matches('\n').count() + 1);
        let message = e.message().to_string();
        let key = toml_error_key(&source, e.span(), &message);
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

/// The key a TOML error is about: serde names an unknown field in
/// backticks; otherwise it is the key assigned on the line where the bad
/// value starts (`range = [5.5, 10]` → `range`), or `(file)` when the text
/// is not key = value TOML at all.
fn toml_error_key(source: &str, span: Option<std::ops::Range<usize>>, message: &str) -> String {
    if message.starts_with("unknown field") || message.starts_with("missing field") {
        if let Some(k) = message.split('`').nth(1) {
            return k.to_string();
        }
    }
    let Some(span) = span else {
        return "(file)".into();
    };
    let start = span.start.min(source.len());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &source[line_start..start];
    // The last `key =` before the value (inline tables: `{ a = 1, b = x }`).
    before
        .rsplit_once('=')
        .map(|(left, _)| {
            left.rsplit(['{', ',', '['])
                .next()
                .unwrap_or(left)
                .trim()
                .trim_matches('"')
                .to_string()
        })
        .filter(|k| !k.is_empty() && !k.contains(char::is_whitespace))
        .unwrap_or_else(|| "(file)".into())
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

/// Why `stem` cannot be an output file stem, if it cannot: it must be a
/// plain name, with no directory part.
pub fn stem_problem(stem: &str) -> Option<&'static str> {
    if stem.is_empty() {
        Some("it is empty")
    } else if stem.contains(['/', '\\']) {
        Some("it contains a path separator")
    } else if stem.contains("..") || stem.starts_with('.') {
        Some("it starts with '.' or contains '..'")
    } else if stem
        .chars()
        .any(|c| c.is_control() || "<>:\"|?*".contains(c))
    {
        Some("it contains a control character or one of < > : \" | ? *")
    } else {
        None
    }
}

fn validate(a: &Analysis) -> Result<()> {
    let s = &a.spec;
    if let Some(name) = &s.name {
        if let Some(why) = stem_problem(name) {
            return Err(a.error(
                "name",
                None,
                format!("'{name}' cannot name the output files: {why} (use a plain file stem like \"d20-success\")"),
            ));
        }
    }
    let mut ids: Vec<&str> = Vec::new();
    for c in &s.chart {
        if let Some(id) = &c.id {
            if let Some(why) = stem_problem(id) {
                return Err(a.error(
                    "id",
                    Some(&format!("\"{id}\"")),
                    format!("chart id '{id}' cannot name a file: {why} (use a plain stem like \"by-roll\")"),
                ));
            }
        }
        let id = c.id.as_deref().unwrap_or("");
        if ids.contains(&id) {
            let shown = if id.is_empty() {
                "(none: the main chart)"
            } else {
                id
            };
            return Err(a.error(
                "id",
                (!id.is_empty()).then(|| format!("\"{id}\"")).as_deref(),
                format!(
                    "two charts have the id {shown}: each chart needs its own `id` (its file name)"
                ),
            ));
        }
        ids.push(id);
    }
    let mut names: Vec<&str> = Vec::new();
    for c in &s.check {
        if names.contains(&c.name.as_str()) {
            return Err(a.error(
                "name",
                Some(&format!("\"{}\"", c.name)),
                format!(
                    "two checks are named '{}': check names must be unique",
                    c.name
                ),
            ));
        }
        names.push(&c.name);
        if let Some(b) = &c.between {
            match b.as_slice() {
                [lo, hi] if lo <= hi => {}
                [lo, hi] => {
                    return Err(a.error(
                        "between",
                        Some(&c.name),
                        format!("check '{}': between = [{lo}, {hi}] has its bounds reversed (write [low, high])", c.name),
                    ))
                }
                other => {
                    return Err(a.error(
                        "between",
                        Some(&c.name),
                        format!("check '{}': between takes two numbers [low, high], not {}", c.name, other.len()),
                    ))
                }
            }
        }
    }
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
        (None, Some(range), None, Some(p)) => {
            let &[lo, hi] = range.as_slice() else {
                return Err(a.error(
                    "range",
                    Some(&needle),
                    format!(
                        "axis '{id}': a range is two numbers [from, to] (with an optional `step` key), not {} numbers; use `values` for a list",
                        range.len()
                    ),
                ));
            };
            let step = ax.step.unwrap_or(1);
            if step <= 0 || hi < lo {
                return Err(a.error(
                    "range",
                    Some(&needle),
                    format!("range [{lo}, {hi}] step {step}: need from ≤ to and step ≥ 1"),
                ));
            }
            // Count before making any point: a range may be astronomically
            // long.
            let len = (i128::from(hi) - i128::from(lo)) / i128::from(step) + 1;
            let limit = a.spec.max_points.unwrap_or(spec::DEFAULT_MAX_POINTS);
            if len > i128::from(limit) {
                return Err(a.error(
                    "range",
                    Some(&needle),
                    format!(
                        "axis '{id}': range [{lo}, {hi}] step {step} has {len} values, above the sweep limit of {limit} points (set `max_points = N` at the top of the file to allow more)"
                    ),
                ));
            }
            (0..len as i64)
                .map(|i| single(p, toml::Value::Integer(lo + i * step)))
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
    for (i, x) in points.iter().enumerate() {
        if points[..i].iter().any(|y| y.label == x.label) {
            return Err(a.error(
                "label",
                Some(&format!("\"{}\"", x.label)),
                format!(
                    "axis '{id}' has two values labelled '{}' (rows could not be told apart; give each a distinct label)",
                    x.label
                ),
            ));
        }
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

/// A TOML value as JSON (for building a request).
fn toml_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::from(s.as_str()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::from(*b),
        toml::Value::Datetime(d) => Value::from(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(toml_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.clone(), toml_json(v))).collect())
        }
    }
}

/// The request of an analysis point: `system` with `params` (keys as in
/// the file: flag names, dashes or underscores). The error is the one-line
/// message the CLI gives for the same values.
pub fn request(system: &str, params: &toml::Table) -> std::result::Result<Request, String> {
    let mut fields: serde_json::Map<String, Value> = params
        .iter()
        .map(|(k, v)| (k.replace('-', "_"), toml_json(v)))
        .collect();
    fill_placeholders(&mut fields)?;
    Request::from_fields(system, &fields).map_err(|e| e.to_string())
}

/// Fill `{name}` placeholders in text fields (a dice expression such as
/// `"1D20+{mod}>={dc}"`, or the texts of a list such as `tier =
/// ["hit:>={dc}", "miss"]`) from the point's other fields — typically sweep
/// axes — and drop the fields used that way: they are the placeholders'
/// values, not the system's parameters. `{{` and `}}` are literal braces.
pub fn fill_placeholders(
    fields: &mut serde_json::Map<String, Value>,
) -> std::result::Result<(), String> {
    let braced = |v: &Value| v.as_str().is_some_and(|s| s.contains(['{', '}']));
    let has = |v: &Value| braced(v) || v.as_array().is_some_and(|a| a.iter().any(braced));
    if !fields.values().any(has) {
        return Ok(());
    }
    let mut used: Vec<String> = Vec::new();
    let mut filled: Vec<(String, Value)> = Vec::new();
    for (key, v) in fields.iter().filter(|(_, v)| has(v)) {
        let value = match v {
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| match item.as_str() {
                        Some(text) if braced(item) => {
                            fill_text(key, text, fields, &mut used).map(Value::from)
                        }
                        _ => Ok(item.clone()),
                    })
                    .collect::<std::result::Result<_, _>>()?,
            ),
            _ => Value::from(fill_text(key, v.as_str().unwrap_or(""), fields, &mut used)?),
        };
        filled.push((key.clone(), value));
    }
    for (k, value) in filled {
        fields.insert(k, value);
    }
    for k in used {
        fields.remove(&k);
    }
    Ok(())
}

/// One text with its `{name}` placeholders filled from `fields` (the names
/// used are added to `used`).
fn fill_text(
    key: &str,
    text: &str,
    fields: &serde_json::Map<String, Value>,
    used: &mut Vec<String>,
) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let placeholder_next = |t: &str| {
            t.find('}').is_some_and(|c| {
                let n = t[1..c].trim();
                n.chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
                    && n.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-')
            })
        };
        if tail.starts_with("{{") && placeholder_next(&tail[1..]) {
            // A group opening on a placeholder: `{{n}D8!,1D6!}KH1`.
            out.push('{');
            rest = &tail[1..];
            continue;
        }
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if let Some(after) = tail.strip_prefix('}') {
            // The closing brace of the notation's own braces.
            out.push('}');
            rest = after;
            continue;
        }
        let close = tail.find('}');
        // Braces around anything but a name are the dice notation's own
        // (groups {1D8!,1D6!}KH1, faces D{0,1,2}, scores {1:2}): kept as
        // written, placeholders inside them still filled.
        let is_name = |s: &str| {
            let s = s.trim();
            s.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if close.is_none_or(|c| !is_name(&tail[1..c])) {
            out.push('{');
            rest = &tail[1..];
            continue;
        }
        let close = close.unwrap_or(0);
        let name = tail[1..close].trim().replace('-', "_");
        let value = fields.get(&name).filter(|_| name != key).ok_or_else(|| {
            let known: Vec<&str> = fields
                .keys()
                .map(String::as_str)
                .filter(|k| *k != key)
                .collect();
            format!(
                "'{text}' in {key}: no value for placeholder {{{name}}} (give an axis or param named '{name}'; known: {})",
                known.join(", ")
            )
        })?;
        match value {
            Value::String(s) => out.push_str(s),
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Bool(b) => out.push_str(&b.to_string()),
            other => {
                return Err(format!(
                    "'{text}' in {key}: placeholder {{{name}}} is {other}, not a number or text"
                ))
            }
        }
        if !used.contains(&name) {
            used.push(name);
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The JSON report (`hantei odds --format json`, f64) of `system` with
/// `params`.
pub fn odds_json(system: &str, params: &toml::Table) -> std::result::Result<Value, String> {
    odds_json_in(system, params, false)
}

/// [`odds_json`], in exact fractions when `exact` (`hantei odds --exact`).
pub fn odds_json_in(
    system: &str,
    params: &toml::Table,
    exact: bool,
) -> std::result::Result<Value, String> {
    let req = request(system, params)?;
    if exact {
        req.report::<crate::weight::Exact>()
            .map(|r| r.to_json())
            .map_err(|e| e.to_string())
    } else {
        req.report::<f64>()
            .map(|r| r.to_json())
            .map_err(|e| e.to_string())
    }
}

/// One point of a sweep: a value index per axis (its flags are the fixed
/// params, then each axis value's: [`Grid::params`]).
#[derive(Clone, Debug)]
pub struct Point {
    /// Index into each axis's points.
    pub coords: Vec<usize>,
    /// System id.
    pub system: String,
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
    /// The fixed params of the file.
    pub base: toml::Table,
    /// Further metrics the file's checks read (not tabulated).
    pub extra: Vec<Metric>,
    /// `extra_values[point][extra metric]`.
    pub extra_values: Vec<Vec<Option<f64>>>,
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

    /// All flags of point `p`: the fixed params, then each axis value's.
    pub fn params(&self, p: &Point) -> toml::Table {
        let mut params = self.base.clone();
        for (ax, &c) in self.axes.iter().zip(&p.coords) {
            for (k, v) in &ax.points[c].params {
                if k != "system" {
                    params.insert(k.clone(), v.clone());
                }
            }
        }
        params
    }

    /// Index of the point at `coords` (points run in odometer order, the
    /// last axis fastest), without searching.
    pub fn index_of(&self, coords: &[usize]) -> Option<usize> {
        index_of(&self.axes, coords)
    }

    /// The value of metric `m` at point `i`: a tabulated metric, or one the
    /// checks read. `None` when the report has no such field there.
    pub fn value(&self, m: &Metric, i: usize) -> Option<f64> {
        if let Some(k) = self.metrics.iter().position(|(x, _)| x.text() == m.text()) {
            // Tabulated values may be worths (minus/scale); a check reads
            // the raw metric, kept in `extra` when the two differ.
            if let Some(e) = self.extra.iter().position(|x| x.text() == m.text()) {
                return self.extra_values[i][e];
            }
            return self.values[i][k];
        }
        let e = self.extra.iter().position(|x| x.text() == m.text())?;
        self.extra_values[i][e]
    }

    /// Label of a point's value on axis `i` in `lang`.
    pub fn coord_label(&self, p: &Point, i: usize, lang: Lang) -> String {
        let ap = &self.axes[i].points[p.coords[i]];
        lang.pick(&ap.label, ap.label_ja.as_deref()).to_string()
    }
}

/// Index of the point at `coords` in a sweep over `axes` (odometer order,
/// last axis fastest).
fn index_of(axes: &[Axis], coords: &[usize]) -> Option<usize> {
    if coords.len() != axes.len() {
        return None;
    }
    let mut i = 0usize;
    for (ax, &c) in axes.iter().zip(coords) {
        if c >= ax.points.len() {
            return None;
        }
        i = i * ax.points.len() + c;
    }
    Some(i)
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
    let limit = a.spec.max_points.unwrap_or(spec::DEFAULT_MAX_POINTS);
    let count = axes
        .iter()
        .try_fold(1u64, |n, ax| n.checked_mul(ax.points.len() as u64))
        .filter(|&n| n <= limit)
        .ok_or_else(|| {
            let shown = axes
                .iter()
                .try_fold(1u128, |n, ax| n.checked_mul(ax.points.len() as u128))
                .map_or("more than 2^128".to_string(), |n| n.to_string());
            a.error(
                "axis",
                Some("[[axis]]"),
                format!(
                    "the sweep has {shown} points, above the limit of {limit} (set `max_points = N` at the top of the file to allow more)"
                ),
            )
        })?;
    let mut points = Vec::with_capacity(count as usize);
    let mut coords = vec![0usize; axes.len()];
    loop {
        let mut system = a.spec.system.clone();
        for (ax, &c) in axes.iter().zip(&coords) {
            if let Some(v) = ax.points[c].params.get("system") {
                system = Some(value_text(v));
            }
        }
        points.push(Point {
            coords: coords.clone(),
            system: system.unwrap_or_default(),
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
    let extra = check_metrics(a, &metrics);
    // Every point's report, in parallel; results are collected in point
    // order, so the grid (and its files) are the same on any thread count.
    type Values = (Vec<Option<f64>>, Vec<Option<f64>>);
    // Each point's fields as JSON, from pieces converted once: the fixed
    // params, then each axis value's.
    let json_of = |t: &toml::Table| -> serde_json::Map<String, Value> {
        t.iter()
            .filter(|(k, _)| k.as_str() != "system")
            .map(|(k, v)| (k.replace('-', "_"), toml_json(v)))
            .collect()
    };
    let base = json_of(&a.spec.params);
    let axis_json: Vec<Vec<serde_json::Map<String, Value>>> = axes
        .iter()
        .map(|ax| ax.points.iter().map(|ap| json_of(&ap.params)).collect())
        .collect();
    let evaluated: Vec<std::result::Result<Values, String>> = points
        .par_iter()
        .map(|p| {
            let mut fields = base.clone();
            for (ax, &c) in axis_json.iter().zip(&p.coords) {
                for (k, v) in &ax[c] {
                    fields.insert(k.clone(), v.clone());
                }
            }
            fill_placeholders(&mut fields)?;
            let report = Request::from_fields(&p.system, &fields)
                .and_then(|r| r.report::<f64>())
                .map_err(|e| e.to_string())?;
            Ok((
                metrics
                    .iter()
                    .map(|(m, _)| m.eval_report(&report))
                    .collect(),
                extra.iter().map(|m| m.eval_report(&report)).collect(),
            ))
        })
        .collect();
    let mut values: Vec<Vec<Option<f64>>> = Vec::with_capacity(points.len());
    let mut extra_values = Vec::with_capacity(points.len());
    for (p, result) in points.iter().zip(evaluated) {
        let (v, e) = result.map_err(|msg| {
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
        values.push(v);
        extra_values.push(e);
    }
    // A metric found at no point is a misspelt path, not an empty column.
    for (mi, (m, _)) in metrics.iter().enumerate() {
        if !values.is_empty() && values.iter().all(|v| v[mi].is_none()) {
            let first = &points[0];
            let mut fields = base.clone();
            for (ax, &c) in axis_json.iter().zip(&first.coords) {
                for (k, v) in &ax[c] {
                    fields.insert(k.clone(), v.clone());
                }
            }
            let _ = fill_placeholders(&mut fields);
            let known = Request::from_fields(&first.system, &fields)
                .and_then(|r| r.report::<f64>())
                .map(|r| report_paths(&r))
                .unwrap_or_default();
            let nearest = nearest(m.text(), &known)
                .map(|n| format!("; did you mean '{n}'?"))
                .unwrap_or_default();
            return Err(a.error(
                "metrics",
                Some(m.text()),
                format!(
                    "metric '{}' is in no point's report{nearest} (the {} report has: {})",
                    m.text(),
                    first.system,
                    known.join(", ")
                ),
            ));
        }
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
                Some(_) => index_of(&axes, &bc).and_then(|bi| raw[bi][mi]),
                None => Some(0.0),
            };
            values[pi][mi] = match (raw[pi][mi], base) {
                (Some(x), Some(b)) => Some((x - b) * ms.scale()),
                _ => None,
            };
        }
    }
    Ok(Grid {
        base: a.spec.params.clone(),
        extra,
        extra_values,
        ids: a.spec.metrics.iter().map(|m| m.label(Lang::En)).collect(),
        percent: a.spec.metrics.iter().map(|m| m.is_percent()).collect(),
        axes,
        metrics,
        points,
        values,
    })
}

/// The metrics the file's checks read that the table does not show as
/// they are (derived worths show a difference, checks read the raw value).
fn check_metrics(a: &Analysis, shown: &[(Metric, String)]) -> Vec<Metric> {
    let mut out: Vec<Metric> = Vec::new();
    let derived: Vec<&str> = a
        .spec
        .metrics
        .iter()
        .filter(|m| m.is_derived())
        .map(|m| m.path())
        .collect();
    for c in &a.spec.check {
        let texts = [
            c.metric.clone(),
            c.left
                .as_ref()
                .and_then(|t| t.get("metric"))
                .map(value_text),
            c.right
                .as_ref()
                .and_then(|t| t.get("metric"))
                .map(value_text),
        ];
        for text in texts.into_iter().flatten() {
            let Ok(m) = Metric::parse(&text) else {
                continue;
            };
            let plain_shown =
                shown.iter().any(|(x, _)| x.text() == m.text()) && !derived.contains(&m.text());
            if !plain_shown && !out.iter().any(|x| x.text() == m.text()) {
                out.push(m);
            }
        }
    }
    out
}

/// The metric paths a report offers at its top level: `p_success`, each
/// `outcomes.<tier>`, and its fields.
fn report_paths(r: &crate::report::Report<f64>) -> Vec<String> {
    let mut v = vec!["p_success".to_string()];
    v.extend(r.outcomes.iter().map(|o| format!("outcomes.{}", o.key)));
    v.extend(r.fields.iter().map(|(n, _)| n.clone()));
    v
}

pub(crate) use crate::error::nearest;
