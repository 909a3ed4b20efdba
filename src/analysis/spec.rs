//! The analysis file format (`analyses/*.toml`), as read by serde.
//! `analyses/README.md` documents it for designers.

use serde::Deserialize;
use toml::Value;

/// One analysis file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Output file stem (default: the file's stem).
    pub name: Option<String>,
    /// `sweep` (default) or `ladders` (the cross-system comparison).
    #[serde(default)]
    pub kind: Kind,
    /// Title (English).
    pub title: String,
    /// Title (Japanese).
    pub title_ja: Option<String>,
    /// Label language of tables and charts: `en` (default), `ja`, or
    /// `both` (the English outputs `NAME.*` and the Japanese `NAME-ja.*`
    /// from the one file).
    #[serde(default)]
    pub labels: Labels,
    /// A paragraph for the Markdown output.
    pub description: Option<String>,
    /// The paragraph in Japanese (the Japanese outputs; English otherwise).
    pub description_ja: Option<String>,
    /// System id (a variant may override it).
    pub system: Option<String>,
    /// Fixed flags of `hantei odds <system>` (without `--`).
    #[serde(default)]
    pub params: toml::Table,
    /// Sweep axes, outermost first.
    #[serde(default)]
    pub axis: Vec<AxisSpec>,
    /// Metrics to tabulate (paths into the `hantei odds` JSON).
    #[serde(default)]
    pub metrics: Vec<MetricSpec>,
    /// Markdown pivot table (default: one row per point).
    pub table: Option<TableSpec>,
    /// Charts.
    #[serde(default)]
    pub chart: Vec<ChartSpec>,
    /// Ladders (kind = "ladders").
    #[serde(default)]
    pub ladder: Vec<LadderSpec>,
    /// Optional Monte Carlo cross-check of the systems used.
    pub monte_carlo: Option<MonteCarloSpec>,
    /// Probability invariants (`hantei check`).
    #[serde(default)]
    pub check: Vec<CheckSpec>,
    /// Most points a sweep may have (default [`DEFAULT_MAX_POINTS`]); raise
    /// it here for a bigger sweep.
    pub max_points: Option<u64>,
}

/// Most points a sweep may have unless the file raises `max_points`: a
/// point costs about 1–10 µs and well under 1 KB, so a million points is
/// seconds and tens of MB, while a typo in a range is not hours and
/// gigabytes.
pub const DEFAULT_MAX_POINTS: u64 = 1_000_000;

/// One invariant. Exactly one of `between`, `equals`, `monotone`, `op`
/// (with `left` / `right`) or `monte_carlo` says what kind it is.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    /// Short name (a JUnit test case).
    pub name: String,
    /// What the invariant means to a designer (the claim it checks).
    pub message: String,
    /// The metric (a path into the `hantei odds` JSON).
    pub metric: Option<String>,
    /// The points it applies to: axis → value (all matching points).
    #[serde(default)]
    pub at: toml::Table,
    /// Bounds: `[lo, hi]`, inclusive.
    pub between: Option<Vec<f64>>,
    /// An exact fraction (`"3/5"`, checked in exact arithmetic) or a
    /// number (within `tolerance`, default 1e-12).
    pub equals: Option<toml::Value>,
    /// Tolerance of a numeric `equals`.
    pub tolerance: Option<f64>,
    /// `non-increasing`, `non-decreasing`, `increasing`, `decreasing`.
    pub monotone: Option<String>,
    /// The axis of a monotone check.
    pub along: Option<String>,
    /// Relation: one side (axis → value, and optionally `metric`).
    pub left: Option<toml::Table>,
    /// Relation: the other side.
    pub right: Option<toml::Table>,
    /// Relation: `<=`, `>=`, `<`, `>`, `==`.
    pub op: Option<String>,
    /// Relation: `|left − right| ≤ within` (with or instead of `op`).
    pub within: Option<f64>,
    /// Monte Carlo agreement of the systems used, at this many trials.
    pub monte_carlo: Option<u64>,
    /// The claim is known to be false: the check passes when it is
    /// refuted, and says so (the seeds' own claims are audited this way).
    #[serde(default)]
    pub known_false: bool,
}

/// Analysis kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A grid of `hantei odds` calls.
    #[default]
    Sweep,
    /// Difficulty ladders of several systems compared.
    Ladders,
}

/// The languages an analysis writes its outputs in (`labels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Labels {
    /// English.
    #[default]
    En,
    /// Japanese.
    Ja,
    /// Both: `NAME.*` in English and `NAME-ja.*` in Japanese.
    Both,
}

/// Label language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Pick the label in this language (Japanese falls back to English).
    pub fn pick<'a>(self, en: &'a str, ja: Option<&'a str>) -> &'a str {
        match (self, ja) {
            (Lang::Ja, Some(ja)) => ja,
            _ => en,
        }
    }
}

/// A sweep axis.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisSpec {
    /// Id used by tables and charts (default: `param`).
    pub name: Option<String>,
    /// The flag this axis sets (without `--`); absent for variant axes.
    pub param: Option<String>,
    /// Axis label (English; default: the name).
    pub label: Option<String>,
    /// Axis label (Japanese).
    pub label_ja: Option<String>,
    /// Explicit values.
    pub values: Option<Vec<Value>>,
    /// Inclusive integer range `[from, to]`.
    pub range: Option<Vec<i64>>,
    /// Step of `range` (default 1).
    pub step: Option<i64>,
    /// Named sets of flags (tables with `label`, optional `label_ja`, and
    /// any flags, `system` included).
    pub variants: Option<Vec<toml::Table>>,
}

/// A metric: a path, or a table with labels.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum MetricSpec {
    /// Just the path.
    Path(String),
    /// Path and labels.
    Labelled {
        /// Path into the report JSON.
        path: String,
        /// Column label (English).
        label: Option<String>,
        /// Column label (Japanese).
        label_ja: Option<String>,
        /// Subtract the same metric at the point with these axes set to
        /// these values (a worth: ΔP against a baseline).
        #[serde(default)]
        minus: toml::Table,
        /// Multiply the value (after `minus`) by this.
        scale: Option<f64>,
    },
}

impl MetricSpec {
    /// The path.
    pub fn path(&self) -> &str {
        match self {
            MetricSpec::Path(p) => p,
            MetricSpec::Labelled { path, .. } => path,
        }
    }

    /// Baseline of a worth (`minus`), if any.
    pub fn minus(&self) -> Option<&toml::Table> {
        match self {
            MetricSpec::Labelled { minus, .. } if !minus.is_empty() => Some(minus),
            _ => None,
        }
    }

    /// Scale factor.
    pub fn scale(&self) -> f64 {
        match self {
            MetricSpec::Labelled { scale: Some(s), .. } => *s,
            _ => 1.0,
        }
    }

    /// Whether the column is a probability, shown as a percentage (a
    /// scaled worth is a number of points instead).
    pub fn is_percent(&self) -> bool {
        super::output::is_probability(self.path()) && self.scale() == 1.0
    }

    /// Whether two entries name the same column.
    pub fn is_derived(&self) -> bool {
        self.minus().is_some() || self.scale() != 1.0
    }

    /// The label in `lang`.
    pub fn label(&self, lang: Lang) -> String {
        match self {
            MetricSpec::Path(p) => p.clone(),
            MetricSpec::Labelled {
                path,
                label,
                label_ja,
                ..
            } => lang
                .pick(label.as_deref().unwrap_or(path), label_ja.as_deref())
                .to_string(),
        }
    }
}

/// A Markdown pivot: one metric, rows × columns of two axes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Axis down the side.
    pub rows: String,
    /// Axis across the top.
    pub columns: String,
    /// Metric in the cells.
    pub metric: String,
    /// Fixed values of the other axes (one table per combination otherwise).
    #[serde(default, rename = "where")]
    pub where_: toml::Table,
}

/// A chart.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    /// `line`, `bar`, `heatmap` or `stacked`.
    pub kind: String,
    /// Output suffix (default: none for the first chart, its index after).
    pub id: Option<String>,
    /// Title (default: the analysis title).
    pub title: Option<String>,
    /// Title (Japanese).
    pub title_ja: Option<String>,
    /// Axis along x.
    pub x: String,
    /// Metric on y (line, bar) or axis on y (heatmap).
    pub y: Option<String>,
    /// Axis giving one series per value (line, bar).
    pub series: Option<String>,
    /// Metric in the cells (heatmap).
    pub value: Option<String>,
    /// Metrics stacked (stacked), worst first.
    pub tiers: Option<Vec<String>>,
    /// y-axis label (English; default: the metric's label).
    pub y_label: Option<String>,
    /// y-axis label (Japanese).
    pub y_label_ja: Option<String>,
    /// Fixed values of the other axes.
    #[serde(default, rename = "where")]
    pub where_: toml::Table,
}

/// One system's difficulty ladder (kind = "ladders").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderSpec {
    /// System id.
    pub system: String,
    /// What the ladder is, when the system id does not say it (a house rule
    /// in dice notation: "PbtA 2D6+stat"); shown in place of the id.
    pub name: Option<String>,
    /// Its Japanese name.
    pub name_ja: Option<String>,
    /// Name of the ladder (English), e.g. "DC".
    pub label: String,
    /// Name of the ladder (Japanese), e.g. "目標値".
    pub label_ja: Option<String>,
    /// The flag that is the difficulty.
    pub param: String,
    /// Its values, easiest first.
    pub values: Vec<i64>,
    /// Fixed flags.
    #[serde(default)]
    pub params: toml::Table,
    /// Reference characters (novice, trained, …): name and their flags.
    pub character: Vec<CharacterSpec>,
}

/// A reference character of a ladder.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    /// Name shared across systems (novice, trained, expert, master).
    pub name: String,
    /// Japanese name.
    pub name_ja: Option<String>,
    /// Their flags.
    pub params: toml::Table,
}

/// Monte Carlo cross-check of an analysis.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonteCarloSpec {
    /// Trials per verification point.
    pub trials: u64,
    /// Seed (default: `hantei verify`'s).
    pub seed: Option<u64>,
}
