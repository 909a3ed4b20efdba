//! What moved: the cells of an analysis's table (`NAME.csv`) that differ
//! between a committed copy and what the analysis produces now, from what
//! to what, and by how many points.
//!
//! A table is read with the `csv` crate. Its leading columns are the *key*
//! (`system` and one column per axis, or a ladder's `system`, `ladder`,
//! `step`, `character`); the rest are values. Rows are matched by their key
//! (the column names and labels, in any order), value columns by name (and,
//! when two columns share a name, by which of them it is). Each cell is then
//! `changed` (a number before and a different number now), `added` (a number
//! now, none before: the sweep grew, or a metric applies where it did not),
//! or `removed`. A change is measured in *points*: percentage points for a
//! probability, the metric's own units for anything else (expected rolls, a
//! scaled worth). Everything here is pure; `hantei diff` reads the files and
//! prints.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{json, Value};
use unicode_width::UnicodeWidthStr;

use super::check::xml;
use super::output::{csv, is_probability};
use super::spec::{Kind, Lang, MetricSpec};
use super::{ladders, sweep, Analysis};
use crate::error::Result;

/// The file name of an analysis's table.
pub fn table_name(a: &Analysis) -> String {
    format!("{}.csv", a.name())
}

/// The table the analysis produces now: the bytes `hantei run` writes to
/// `NAME.csv`, from the same functions, without the Markdown, charts or
/// Monte Carlo cross-check.
pub fn current_csv(a: &Analysis) -> Result<Vec<u8>> {
    match a.spec.kind {
        Kind::Sweep => Ok(csv(&sweep(a)?)),
        Kind::Ladders => ladders::csv(a),
    }
}

/// What the analysis file says about its table's columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// Number of leading key columns.
    pub keys: usize,
    /// Each value column's English label, when the file gives one.
    pub labels: Vec<Option<String>>,
    /// Whether each value column is a probability (changes in percentage
    /// points).
    pub percent: Vec<bool>,
}

/// The schema of an analysis's table.
pub fn schema(a: &Analysis) -> Schema {
    match a.spec.kind {
        Kind::Sweep => Schema {
            keys: 1 + a.spec.axis.len(),
            labels: a
                .spec
                .metrics
                .iter()
                .map(|m| match m {
                    MetricSpec::Labelled { label: Some(_), .. } => Some(m.label(Lang::En)),
                    _ => None,
                })
                .collect(),
            percent: a.spec.metrics.iter().map(MetricSpec::is_percent).collect(),
        },
        Kind::Ladders => Schema {
            keys: ladders::CSV_KEYS.len(),
            labels: vec![None],
            percent: vec![true],
        },
    }
}

/// A value column: its header and which column of that name it is
/// (0 for the first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ColumnId {
    /// The header.
    pub header: String,
    /// Occurrence among the columns with this header.
    pub nth: usize,
}

/// A table read from CSV bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Headers of the key columns.
    pub keys: Vec<String>,
    /// The value columns.
    pub columns: Vec<ColumnId>,
    /// Rows: key labels and values (`None`: empty, the metric does not
    /// apply there).
    pub rows: Vec<(Vec<String>, Vec<Option<f64>>)>,
}

impl Table {
    /// Number of value cells.
    pub fn cells(&self) -> usize {
        self.rows
            .iter()
            .map(|(_, v)| v.iter().filter(|x| x.is_some()).count())
            .sum()
    }
}

/// Whether `s` is a number as hantei writes it in a table: fixed ten
/// decimals (`0.7500000000`, `-1.2500000000`).
#[doc(hidden)]
pub fn is_table_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    match digits.split_once('.') {
        Some((int, frac)) => {
            !int.is_empty()
                && int.bytes().all(|b| b.is_ascii_digit())
                && frac.len() == 10
                && frac.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// Read a table. `keys` is the number of key columns when known (the
/// current table); a committed table's key columns are found from its data:
/// the leading columns holding a label that is not a ten-decimal number
/// (hantei writes every value that way and no label that way), `system`
/// always one of them.
pub fn parse(bytes: &[u8], keys: Option<usize>) -> std::result::Result<Table, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(false)
        .from_reader(bytes);
    let mut records = Vec::new();
    for r in reader.records() {
        records.push(r.map_err(|e| format!("not a valid CSV table: {e}"))?);
    }
    let Some(header) = records.first() else {
        return Err("empty file (no header row)".into());
    };
    let header: Vec<String> = header.iter().map(str::to_string).collect();
    let body = &records[1..];
    let keys = match keys {
        Some(k) => k.min(header.len()),
        None => {
            let is_key = |c: usize| {
                body.iter()
                    .any(|r| !r[c].is_empty() && !is_table_number(&r[c]))
            };
            1 + (1..header.len()).take_while(|&c| is_key(c)).count()
        }
    };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let columns = header[keys..]
        .iter()
        .map(|h| {
            let n = seen.entry(h.as_str()).or_insert(0);
            *n += 1;
            ColumnId {
                header: h.clone(),
                nth: *n - 1,
            }
        })
        .collect();
    let mut rows = Vec::with_capacity(body.len());
    for (i, r) in body.iter().enumerate() {
        let key: Vec<String> = r.iter().take(keys).map(str::to_string).collect();
        let mut values = Vec::with_capacity(header.len() - keys);
        for (c, cell) in r.iter().enumerate().skip(keys) {
            values.push(if cell.is_empty() {
                None
            } else {
                Some(
                    cell.parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| {
                            format!(
                                "line {}, column '{}': '{cell}' is not a number",
                                i + 2,
                                header[c]
                            )
                        })?,
                )
            });
        }
        rows.push((key, values));
    }
    Ok(Table {
        keys: header[..keys].to_vec(),
        columns,
        rows,
    })
}

/// Read a committed table. When its header is the current table's, its
/// key columns are the current ones; otherwise (axes or metrics changed)
/// they are found from its data, as [`parse`] does.
pub fn parse_committed(
    bytes: &[u8],
    current: Option<&Table>,
) -> std::result::Result<Table, String> {
    let same_header = current.is_some_and(|t| {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes);
        let header: Option<Vec<String>> = reader
            .records()
            .next()
            .and_then(|r| r.ok())
            .map(|r| r.iter().map(str::to_string).collect());
        let want: Vec<String> = t
            .keys
            .iter()
            .cloned()
            .chain(t.columns.iter().map(|c| c.header.clone()))
            .collect();
        header.as_ref() == Some(&want)
    });
    parse(bytes, current.filter(|_| same_header).map(|t| t.keys.len()))
}

/// What happened to one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A number before, a different number now.
    Changed,
    /// A number now, none before.
    Added,
    /// A number before, none now.
    Removed,
}

impl Status {
    /// `changed`, `added`, `removed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Changed => "changed",
            Status::Added => "added",
            Status::Removed => "removed",
        }
    }
}

/// One cell that differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Its row: key column → label, in the table's order.
    pub row: Vec<(String, String)>,
    /// The row for people (`system` left out when the table has one).
    pub row_label: String,
    /// The column for people (its header; a shared header gets the
    /// metric's label or its position).
    pub column: String,
    /// The committed value.
    pub old: Option<f64>,
    /// The value now.
    pub new: Option<f64>,
    /// Whether the column is a probability.
    pub percent: bool,
    /// What happened.
    pub status: Status,
    /// `new − old` in points (percentage points for a probability), for a
    /// changed cell; rounded to the tables' precision (1e-10 of a value).
    pub change: Option<f64>,
}

/// Whether a table is on both sides or one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Committed and produced now.
    Both,
    /// Produced now, not committed.
    New,
    /// Committed, produced by no analysis now.
    Removed,
}

/// The differences of one analysis's table.
#[derive(Clone, Debug, PartialEq)]
pub struct TableDiff {
    /// The analysis (its output stem).
    pub analysis: String,
    /// The table's file name (`NAME.csv`).
    pub table: String,
    /// Which sides have it.
    pub presence: Presence,
    /// Number of value cells: the current table's (the committed one's
    /// when removed).
    pub size: usize,
    /// The cells that differ, in table order (both sides only; a new or
    /// removed table is summed up by `size`).
    pub cells: Vec<Cell>,
    /// Remarks (key columns that changed, a committed file that is not a
    /// table).
    pub notes: Vec<String>,
}

impl TableDiff {
    /// Cells with this status.
    pub fn count(&self, status: Status) -> usize {
        self.cells.iter().filter(|c| c.status == status).count()
    }

    /// The changed cell that moved most.
    pub fn largest(&self) -> Option<&Cell> {
        self.cells
            .iter()
            .filter(|c| c.status == Status::Changed)
            .max_by(|a, b| magnitude(a).total_cmp(&magnitude(b)))
    }

    /// Whether anything differs.
    pub fn moved(&self) -> bool {
        self.presence != Presence::Both || !self.cells.is_empty()
    }
}

fn magnitude(c: &Cell) -> f64 {
    c.change.map_or(0.0, f64::abs)
}

/// Round to the tables' precision: values have ten decimals, so a change
/// is a multiple of 1e-10 (1e-8 percentage points).
#[doc(hidden)]
pub fn change_points(old: f64, new: f64, percent: bool) -> f64 {
    if percent {
        ((new - old) * 1e10).round() / 1e8
    } else {
        ((new - old) * 1e10).round() / 1e10
    }
}

/// Compare the committed table `old` with the current `new` (either may be
/// missing). `schema` describes the current table's columns.
pub fn compare(
    analysis: &str,
    table: &str,
    old: Option<&Table>,
    new: Option<&Table>,
    schema: Option<&Schema>,
) -> TableDiff {
    let mut diff = TableDiff {
        analysis: analysis.to_string(),
        table: table.to_string(),
        presence: Presence::Both,
        size: 0,
        cells: Vec::new(),
        notes: Vec::new(),
    };
    let (old, new) = match (old, new) {
        (Some(o), Some(n)) => (o, n),
        (None, Some(n)) => {
            diff.presence = Presence::New;
            diff.size = n.cells();
            return diff;
        }
        (Some(o), None) => {
            diff.presence = Presence::Removed;
            diff.size = o.cells();
            return diff;
        }
        (None, None) => return diff,
    };
    diff.size = new.cells();

    // Column names for people, and whether each is a probability.
    let shared = |t: &Table, h: &str| t.columns.iter().filter(|c| c.header == h).count() > 1;
    let new_info: Vec<(String, bool)> = new
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let percent = schema
                .and_then(|s| s.percent.get(i).copied())
                .unwrap_or_else(|| is_probability(&c.header));
            let label = schema.and_then(|s| s.labels.get(i).cloned().flatten());
            let name = if !shared(new, &c.header) {
                c.header.clone()
            } else {
                match label.filter(|l| *l != c.header) {
                    Some(l) => format!("{} ({l})", c.header),
                    None => format!("{} #{}", c.header, c.nth + 1),
                }
            };
            (name, percent)
        })
        .collect();
    let old_info = |i: usize| {
        let c = &old.columns[i];
        let name = if shared(old, &c.header) {
            format!("{} #{}", c.header, c.nth + 1)
        } else {
            c.header.clone()
        };
        (name, is_probability(&c.header))
    };
    let old_col: HashMap<&ColumnId, usize> = old
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c, i))
        .collect();
    let new_col: HashMap<&ColumnId, usize> = new
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c, i))
        .collect();

    let sorted_keys = |t: &Table| {
        let mut k = t.keys.clone();
        k.sort();
        k
    };
    if sorted_keys(old) != sorted_keys(new) {
        diff.notes.push(format!(
            "the key columns changed (committed: {}; now: {}): rows cannot be matched, so every cell is listed as removed and added",
            old.keys.join(", "),
            new.keys.join(", ")
        ));
    }
    // `system` is left out of row labels when the tables hold one system.
    let hide_system = {
        let systems: Vec<&str> = [old, new]
            .iter()
            .filter(|t| t.keys.first().map(String::as_str) == Some("system"))
            .flat_map(|t| t.rows.iter().map(|(k, _)| k[0].as_str()))
            .collect();
        [old, new]
            .iter()
            .all(|t| t.keys.first().map(String::as_str) == Some("system"))
            && systems.windows(2).all(|w| w[0] == w[1])
    };
    let row_of = |t: &Table, key: &[String]| -> (Vec<(String, String)>, String) {
        let pairs: Vec<(String, String)> =
            t.keys.iter().cloned().zip(key.iter().cloned()).collect();
        let text = |hide: bool| {
            pairs
                .iter()
                .filter(|(k, _)| !(hide && k == "system"))
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // A table without axes has only `system` to name its row.
        let label = Some(text(hide_system))
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| text(false));
        (pairs, label)
    };
    // Rows by key (the pairs sorted, so reordered axes still match), and
    // which of several rows with that key.
    let identity = |t: &Table, key: &[String]| {
        let mut pairs: Vec<(String, String)> =
            t.keys.iter().cloned().zip(key.iter().cloned()).collect();
        pairs.sort();
        pairs
    };
    let mut old_rows: HashMap<(Vec<(String, String)>, usize), usize> = HashMap::new();
    let mut count: HashMap<Vec<(String, String)>, usize> = HashMap::new();
    for (i, (key, _)) in old.rows.iter().enumerate() {
        let id = identity(old, key);
        let n = count.entry(id.clone()).or_insert(0);
        old_rows.insert((id, *n), i);
        *n += 1;
    }
    let mut matched = vec![false; old.rows.len()];
    count.clear();
    let mut push = |row: &(Vec<(String, String)>, String),
                    column: &(String, bool),
                    old_v: Option<f64>,
                    new_v: Option<f64>| {
        let (status, change) = match (old_v, new_v) {
            (Some(a), Some(b)) if a != b => (Status::Changed, Some(change_points(a, b, column.1))),
            (None, Some(_)) => (Status::Added, None),
            (Some(_), None) => (Status::Removed, None),
            _ => return,
        };
        diff.cells.push(Cell {
            row: row.0.clone(),
            row_label: row.1.clone(),
            column: column.0.clone(),
            old: old_v,
            new: new_v,
            percent: column.1,
            status,
            change,
        });
    };
    for (key, values) in &new.rows {
        let id = identity(new, key);
        let n = count.entry(id.clone()).or_insert(0);
        let found = old_rows.get(&(id, *n)).copied();
        *n += 1;
        let row = row_of(new, key);
        match found {
            Some(oi) => {
                matched[oi] = true;
                let old_values = &old.rows[oi].1;
                for (ci, c) in new.columns.iter().enumerate() {
                    let o = old_col.get(c).and_then(|&j| old_values[j]);
                    push(&row, &new_info[ci], o, values[ci]);
                }
                for (j, c) in old.columns.iter().enumerate() {
                    if !new_col.contains_key(c) {
                        push(&row, &old_info(j), old_values[j], None);
                    }
                }
            }
            None => {
                for (ci, v) in values.iter().enumerate() {
                    push(&row, &new_info[ci], None, *v);
                }
            }
        }
    }
    for (oi, (key, values)) in old.rows.iter().enumerate() {
        if matched[oi] {
            continue;
        }
        let row = row_of(old, key);
        for (j, c) in old.columns.iter().enumerate() {
            let info = match new_col.get(c) {
                Some(&ci) => new_info[ci].clone(),
                None => old_info(j),
            };
            push(&row, &info, values[j], None);
        }
    }
    diff
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// What the current tables were compared with, for people
    /// (`output/`, `origin/main:output/`).
    pub against: String,
    /// Changes up to this many points pass.
    pub tolerance: f64,
    /// One entry per table, current analyses first, in file order.
    pub tables: Vec<TableDiff>,
    /// Remarks about the comparison as a whole.
    pub notes: Vec<String>,
}

/// Output formats of `hantei diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// An aligned table for a terminal.
    Table,
    /// Markdown, made to be posted as a pull-request comment.
    Md,
    /// JSON for scripts.
    Json,
    /// JUnit XML for CI systems (one test case per table).
    Junit,
}

impl Report {
    /// Whether a changed cell moved more than the tolerance.
    pub fn beyond(&self, c: &Cell) -> bool {
        magnitude(c) > self.tolerance
    }

    /// Every differing cell with its table: changed cells largest first,
    /// then added, then removed, each in table order.
    pub fn cells(&self) -> Vec<(&TableDiff, &Cell)> {
        let mut all: Vec<(&TableDiff, &Cell)> = self
            .tables
            .iter()
            .flat_map(|t| t.cells.iter().map(move |c| (t, c)))
            .collect();
        let rank = |c: &Cell| match c.status {
            Status::Changed => 0,
            Status::Added => 1,
            Status::Removed => 2,
        };
        all.sort_by(|(_, a), (_, b)| {
            rank(a)
                .cmp(&rank(b))
                .then(magnitude(b).total_cmp(&magnitude(a)))
        });
        all
    }

    /// Cells that moved more than the tolerance.
    pub fn failures(&self) -> usize {
        self.tables
            .iter()
            .flat_map(|t| &t.cells)
            .filter(|c| self.beyond(c))
            .count()
    }

    /// Whether every change is within the tolerance.
    pub fn passed(&self) -> bool {
        self.failures() == 0
    }

    fn total(&self, status: Status) -> usize {
        self.tables.iter().map(|t| t.count(status)).sum()
    }

    fn tolerance_text(&self) -> String {
        format!(
            "{} {}",
            self.tolerance,
            if self.tolerance == 1.0 {
                "point"
            } else {
                "points"
            }
        )
    }

    /// The table's one-line summary.
    pub fn summary(&self, t: &TableDiff) -> String {
        match t.presence {
            Presence::New => format!("new table ({} cells)", t.size),
            Presence::Removed => format!("table removed ({} cells; no analysis writes it)", t.size),
            Presence::Both if t.cells.is_empty() => format!("unchanged ({} cells)", t.size),
            Presence::Both => {
                let changed = t.count(Status::Changed);
                let mut s = format!("{changed} changed");
                if let Some(c) = t.largest() {
                    let beyond = t.cells.iter().filter(|c| self.beyond(c)).count();
                    let _ = write!(
                        s,
                        " (largest {}, {beyond} beyond tolerance)",
                        change_text(c)
                    );
                }
                let _ = write!(
                    s,
                    ", {} added, {} removed",
                    t.count(Status::Added),
                    t.count(Status::Removed)
                );
                s
            }
        }
    }

    /// The verdict in one line.
    pub fn verdict(&self) -> String {
        let moved = self.tables.iter().filter(|t| t.moved()).count();
        let changed = self.total(Status::Changed);
        let head = format!(
            "{} {}, {moved} moved",
            self.tables.len(),
            if self.tables.len() == 1 {
                "table"
            } else {
                "tables"
            }
        );
        let failures = self.failures();
        if failures > 0 {
            format!(
                "{head}: {failures} of {changed} changed cells exceed the tolerance of {}",
                self.tolerance_text()
            )
        } else if changed > 0 {
            format!(
                "{head}: every change is within the tolerance of {}",
                self.tolerance_text()
            )
        } else if moved > 0 {
            format!("{head}: no value changed (cells or tables added or removed only)")
        } else {
            format!("{head}: no odds moved")
        }
    }

    /// Render in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Table => self.to_text(),
            Format::Md => self.to_markdown(),
            Format::Json => {
                let mut s = serde_json::to_string_pretty(&self.to_json()).unwrap_or_default();
                s.push('\n');
                s
            }
            Format::Junit => self.to_junit(),
        }
    }

    /// An aligned table for a terminal.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "hantei diff: the current analyses against {} (tolerance {})\n\n",
            self.against,
            self.tolerance_text()
        );
        let cells = self.cells();
        if !cells.is_empty() {
            let mut rows: Vec<[String; 9]> = vec![[
                "analysis".into(),
                "table".into(),
                "row".into(),
                "column".into(),
                "old".into(),
                "→".into(),
                "new".into(),
                "change".into(),
                String::new(),
            ]];
            for (t, c) in &cells {
                let (old, new) = old_and_new(c);
                rows.push([
                    t.analysis.clone(),
                    t.table.clone(),
                    c.row_label.clone(),
                    c.column.clone(),
                    old,
                    "→".into(),
                    new,
                    match c.status {
                        Status::Changed => change_text(c),
                        s => s.as_str().to_string(),
                    },
                    if self.beyond(c) {
                        "beyond tolerance".into()
                    } else {
                        String::new()
                    },
                ]);
            }
            out.push_str(&align(
                &rows,
                &[false, false, false, false, true, false, true, true, false],
            ));
            out.push('\n');
        }
        let width = self
            .tables
            .iter()
            .map(|t| t.analysis.width())
            .max()
            .unwrap_or(0);
        for t in &self.tables {
            let pad = width - t.analysis.width();
            let _ = writeln!(
                out,
                "{}{}  {}",
                t.analysis,
                " ".repeat(pad),
                self.summary(t)
            );
            for n in &t.notes {
                let _ = writeln!(out, "{}  note: {n}", " ".repeat(width));
            }
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let _ = writeln!(out, "\n{}", self.verdict());
        out
    }

    /// Markdown for a pull-request comment: a headline, a summary table of
    /// the tables that moved, and the cells in collapsible sections.
    pub fn to_markdown(&self) -> String {
        let moved: Vec<&TableDiff> = self.tables.iter().filter(|t| t.moved()).collect();
        let mut out = String::new();
        if moved.is_empty() {
            let _ = writeln!(out, "### hantei diff: no odds moved\n");
        } else {
            let _ = writeln!(
                out,
                "### hantei diff: {} of {} {} moved\n",
                moved.len(),
                self.tables.len(),
                if self.tables.len() == 1 {
                    "table"
                } else {
                    "tables"
                }
            );
        }
        let _ = writeln!(
            out,
            "The current analyses against `{}`; tolerance {}.\n",
            self.against,
            self.tolerance_text()
        );
        let _ = writeln!(out, "**{}**\n", self.verdict());
        if !moved.is_empty() {
            let _ = writeln!(
                out,
                "| analysis | table | changed | largest | beyond tolerance | added | removed |"
            );
            let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|");
            for t in &moved {
                match t.presence {
                    Presence::Both => {
                        let _ = writeln!(
                            out,
                            "| {} | {} | {} | {} | {} | {} | {} |",
                            md(&t.analysis),
                            md(&t.table),
                            t.count(Status::Changed),
                            t.largest().map_or("–".into(), change_text),
                            t.cells.iter().filter(|c| self.beyond(c)).count(),
                            t.count(Status::Added),
                            t.count(Status::Removed)
                        );
                    }
                    Presence::New | Presence::Removed => {
                        let _ = writeln!(
                            out,
                            "| {} | {} | {} | – | – | – | – |",
                            md(&t.analysis),
                            md(&t.table),
                            self.summary(t)
                        );
                    }
                }
            }
            out.push('\n');
        }
        let unchanged: Vec<String> = self
            .tables
            .iter()
            .filter(|t| !t.moved())
            .map(|t| format!("{} ({} cells)", md(&t.analysis), t.size))
            .collect();
        if !unchanged.is_empty() && !moved.is_empty() {
            let _ = writeln!(out, "Unchanged: {}.\n", unchanged.join(", "));
        }
        let notes: Vec<String> = self
            .tables
            .iter()
            .flat_map(|t| t.notes.iter().map(move |n| format!("{}: {n}", t.analysis)))
            .chain(self.notes.iter().cloned())
            .collect();
        for n in &notes {
            let _ = writeln!(out, "> {}\n", md(n));
        }
        let cells = self.cells();
        let changed: Vec<_> = cells
            .iter()
            .filter(|(_, c)| c.status == Status::Changed)
            .collect();
        let other: Vec<_> = cells
            .iter()
            .filter(|(_, c)| c.status != Status::Changed)
            .collect();
        let section = |out: &mut String, summary: String, rows: &[&(&TableDiff, &Cell)]| {
            let open = if rows.len() <= 50 { " open" } else { "" };
            let _ = writeln!(out, "<details{open}><summary>{summary}</summary>\n");
            let _ = writeln!(
                out,
                "| analysis | table | row | column | old → new | change | |"
            );
            let _ = writeln!(out, "|---|---|---|---|---:|---:|---|");
            for (t, c) in rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    md(&t.analysis),
                    md(&t.table),
                    md(&c.row_label),
                    md(&c.column),
                    old_new(c),
                    match c.status {
                        Status::Changed => change_text(c),
                        s => s.as_str().to_string(),
                    },
                    if self.beyond(c) {
                        "**beyond tolerance**"
                    } else {
                        ""
                    }
                );
            }
            let _ = writeln!(out, "\n</details>\n");
        };
        if !changed.is_empty() {
            section(
                &mut out,
                format!(
                    "{} changed {}, largest first",
                    changed.len(),
                    if changed.len() == 1 { "cell" } else { "cells" }
                ),
                &changed,
            );
        }
        if !other.is_empty() {
            let added = other
                .iter()
                .filter(|(_, c)| c.status == Status::Added)
                .count();
            section(
                &mut out,
                format!(
                    "{added} added and {} removed {}",
                    other.len() - added,
                    if other.len() == 1 { "cell" } else { "cells" }
                ),
                &other,
            );
        }
        out
    }

    /// JSON for scripts: the summary, one entry per table, every cell.
    pub fn to_json(&self) -> Value {
        let num = |x: Option<f64>| x.map_or(Value::Null, |v| json!(v));
        json!({
            "against": self.against,
            "tolerance": self.tolerance,
            "passed": self.passed(),
            "summary": {
                "tables": self.tables.len(),
                "moved": self.tables.iter().filter(|t| t.moved()).count(),
                "changed_cells": self.total(Status::Changed),
                "beyond_tolerance": self.failures(),
                "added_cells": self.total(Status::Added),
                "removed_cells": self.total(Status::Removed),
                "verdict": self.verdict(),
            },
            "tables": self.tables.iter().map(|t| json!({
                "analysis": t.analysis,
                "table": t.table,
                "status": match t.presence {
                    Presence::New => "new",
                    Presence::Removed => "removed",
                    Presence::Both if t.cells.is_empty() => "unchanged",
                    Presence::Both => "moved",
                },
                "cells": t.size,
                "changed": t.count(Status::Changed),
                "largest": num(t.largest().and_then(|c| c.change)),
                "beyond_tolerance": t.cells.iter().filter(|c| self.beyond(c)).count(),
                "added": t.count(Status::Added),
                "removed": t.count(Status::Removed),
                "summary": self.summary(t),
                "notes": t.notes,
            })).collect::<Vec<_>>(),
            "cells": self.cells().iter().map(|(t, c)| json!({
                "analysis": t.analysis,
                "table": t.table,
                "row": c.row.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect::<serde_json::Map<_, _>>(),
                "column": c.column,
                "status": c.status.as_str(),
                "old": num(c.old),
                "new": num(c.new),
                "change": num(c.change),
                "unit": if c.percent { "percentage points" } else { "points" },
                "beyond_tolerance": self.beyond(c),
            })).collect::<Vec<_>>(),
            "notes": self.notes,
        })
    }

    /// JUnit XML: one test case per table, failing when a cell moved more
    /// than the tolerance; every other difference in its output.
    pub fn to_junit(&self) -> String {
        let failing = |t: &TableDiff| t.cells.iter().any(|c| self.beyond(c));
        let failures = self.tables.iter().filter(|t| failing(t)).count();
        let mut out = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hantei diff\" tests=\"{n}\" failures=\"{failures}\">\n  <testsuite name=\"hantei diff against {}\" tests=\"{n}\" failures=\"{failures}\">\n",
            xml(&self.against),
            n = self.tables.len(),
        );
        let line = |c: &Cell| {
            format!(
                "{} · {}: {} ({})",
                c.row_label,
                c.column,
                old_new(c),
                match c.status {
                    Status::Changed => change_text(c),
                    s => s.as_str().to_string(),
                }
            )
        };
        for t in &self.tables {
            let _ = writeln!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\">",
                xml(&t.table),
                xml(&t.analysis)
            );
            let mut text = format!("{}: {}\n", t.analysis, self.summary(t));
            for n in &t.notes {
                let _ = writeln!(text, "note: {n}");
            }
            if failing(t) {
                let beyond: Vec<&Cell> = {
                    let mut v: Vec<&Cell> = t.cells.iter().filter(|c| self.beyond(c)).collect();
                    v.sort_by(|a, b| magnitude(b).total_cmp(&magnitude(a)));
                    v
                };
                let detail = beyond
                    .iter()
                    .map(|c| line(c))
                    .collect::<Vec<_>>()
                    .join("\n");
                let _ = writeln!(
                    out,
                    "      <failure message=\"{}\">{}</failure>",
                    xml(&format!(
                        "{} {} moved more than the tolerance of {} (largest {})",
                        beyond.len(),
                        if beyond.len() == 1 { "cell" } else { "cells" },
                        self.tolerance_text(),
                        change_text(beyond[0])
                    )),
                    xml(&detail)
                );
            }
            let mut rest: Vec<&Cell> = t.cells.iter().filter(|c| !self.beyond(c)).collect();
            rest.sort_by_key(|c| c.status != Status::Changed);
            for c in rest {
                let _ = writeln!(text, "{}", line(c));
            }
            let _ = writeln!(out, "      <system-out>{}</system-out>", xml(&text));
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Decimals that tell `old` and `new` apart: two for percentages (three
/// for other numbers), more when the change is finer than that.
fn decimals(c: &Cell) -> usize {
    let (base, max) = if c.percent { (2, 8) } else { (3, 10) };
    match (c.old, c.new) {
        (Some(a), Some(b)) => (base..=max)
            .find(|&d| value_text(a, c.percent, d) != value_text(b, c.percent, d))
            .unwrap_or(max),
        _ => base,
    }
}

fn value_text(v: f64, percent: bool, d: usize) -> String {
    if percent {
        format!("{:.d$}%", v * 100.0)
    } else {
        format!("{v:.d$}")
    }
}

/// `55.00%` and `60.00%` (`–` for no value), with the decimals that tell
/// them apart.
fn old_and_new(c: &Cell) -> (String, String) {
    let d = decimals(c);
    let show = |v: Option<f64>| v.map_or("–".to_string(), |x| value_text(x, c.percent, d));
    (show(c.old), show(c.new))
}

/// `55.00% → 60.00%`.
#[doc(hidden)]
pub fn old_new(c: &Cell) -> String {
    let (old, new) = old_and_new(c);
    format!("{old} → {new}")
}

/// `+5.00 pp` (percentage points) or `+0.250` (a number's own units).
#[doc(hidden)]
pub fn change_text(c: &Cell) -> String {
    let d = decimals(c);
    match c.change {
        Some(x) if c.percent => format!("{x:+.d$} pp"),
        Some(x) => format!("{x:+.d$}"),
        None => c.status.as_str().to_string(),
    }
}

/// A Markdown table cell: pipes escaped, no line breaks.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Columns padded to a common width (display width, for Japanese labels);
/// `right` aligns a column to the right. Trailing spaces are trimmed.
fn align<const N: usize>(rows: &[[String; N]], right: &[bool; N]) -> String {
    let mut widths = [0usize; N];
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.width());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.width());
            if i > 0 {
                line.push_str("  ");
            }
            if right[i] {
                line.push_str(&pad);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&pad);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
