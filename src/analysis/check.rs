//! Probability invariants: the `[[check]]` blocks of analysis files,
//! evaluated on the analysis's grid (`hantei check`).
//!
//! Kinds: bounds (`between`), an exact value (`equals = "3/5"`, checked in
//! exact arithmetic), monotonicity along an axis (`monotone`, `along`), a
//! relation between two points, two metrics or two systems (`left`,
//! `right`, `op` and/or `within`), and Monte Carlo agreement
//! (`monte_carlo = trials`). A claim known to be false (`known_false =
//! true`) passes when it is refuted, so a seed's wrong claim stays
//! documented, with the numbers that refute it, instead of being loosened.

use serde_json::{json, Value};

use super::metric::Metric;
use super::output::human;
use super::spec::CheckSpec;
use super::{value_text, Analysis, Grid, Point};
use crate::error::Result;
use crate::verify;
use crate::weight::{parse_exact, Weight};

/// The verdict of one check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    /// File it comes from.
    pub file: String,
    /// Its name.
    pub name: String,
    /// Its message.
    pub message: String,
    /// Whether the claim holds.
    pub holds: bool,
    /// Whether it was declared known false.
    pub known_false: bool,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
    /// The point (or first counterexample) that broke it, if any.
    pub counterexample: Option<String>,
}

impl CheckResult {
    /// Whether the check passes (the claim holds, or is refuted as
    /// declared).
    pub fn pass(&self) -> bool {
        self.holds != self.known_false
    }

    /// `pass`, `FAIL`, or `refuted` (a known-false claim, refuted).
    pub fn verdict(&self) -> &'static str {
        match (self.pass(), self.known_false) {
            (true, false) => "pass",
            (true, true) => "refuted (known false)",
            (false, false) => "FAIL",
            (false, true) => "FAIL (claim now holds)",
        }
    }
}

fn describe(grid: &Grid, p: &Point) -> String {
    let parts: Vec<String> = grid
        .axes
        .iter()
        .zip(&p.coords)
        .filter(|(ax, _)| ax.points.len() > 1)
        .map(|(ax, &c)| format!("{}={}", ax.id, ax.points[c].label))
        .collect();
    format!("[{}]", parts.join(" "))
}

/// Points matching `filter` (axis → value label); errors name the key.
fn matching<'g>(
    a: &Analysis,
    grid: &'g Grid,
    filter: &toml::Table,
    c: &CheckSpec,
) -> Result<Vec<(usize, &'g Point)>> {
    for (k, v) in filter {
        if k == "metric" {
            continue;
        }
        let ai = grid.axis_index(k).ok_or_else(|| {
            a.error(
                k,
                Some(&c.name),
                format!("check '{}': no axis named '{k}'", c.name),
            )
        })?;
        if !grid.axes[ai]
            .points
            .iter()
            .any(|p| p.label == value_text(v))
        {
            return Err(a.error(
                k,
                Some(&c.name),
                format!(
                    "check '{}': axis '{k}' has no value '{}'",
                    c.name,
                    value_text(v)
                ),
            ));
        }
    }
    let pts: Vec<(usize, &Point)> = grid
        .points
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            filter.iter().filter(|(k, _)| *k != "metric").all(|(k, v)| {
                grid.axis_index(k)
                    .is_some_and(|i| grid.axes[i].points[p.coords[i]].label == value_text(v))
            })
        })
        .collect();
    if pts.is_empty() {
        return Err(a.error(
            "at",
            Some(&c.name),
            format!("check '{}' matches no point", c.name),
        ));
    }
    Ok(pts)
}

fn metric_of(a: &Analysis, c: &CheckSpec, side: Option<&toml::Table>) -> Result<Metric> {
    let text = side
        .and_then(|t| t.get("metric"))
        .map(value_text)
        .or_else(|| c.metric.clone())
        .ok_or_else(|| {
            a.error(
                "metric",
                Some(&c.name),
                format!("check '{}' needs `metric`", c.name),
            )
        })?;
    Metric::parse(&text).map_err(|e| a.error("metric", Some(&text), e))
}

fn value(a: &Analysis, grid: &Grid, m: &Metric, i: usize, c: &CheckSpec) -> Result<f64> {
    grid.value(m, i).ok_or_else(|| {
        a.error(
            "metric",
            Some(&format!("\"{}\"", c.name)),
            format!(
                "check '{}': metric '{}' is not in the report at {}",
                c.name,
                m.text(),
                describe(grid, &grid.points[i])
            ),
        )
    })
}

/// Evaluate one check on the grid.
pub fn evaluate(a: &Analysis, grid: &Grid, c: &CheckSpec) -> Result<CheckResult> {
    let mut r = CheckResult {
        file: a.path.display().to_string(),
        name: c.name.clone(),
        message: c.message.clone(),
        holds: true,
        known_false: c.known_false,
        expected: String::new(),
        found: String::new(),
        counterexample: None,
    };
    let kinds = [
        c.between.is_some(),
        c.equals.is_some(),
        c.monotone.is_some(),
        c.left.is_some() || c.right.is_some(),
        c.monte_carlo.is_some(),
    ]
    .iter()
    .filter(|x| **x)
    .count();
    if kinds != 1 {
        return Err(a.error(
            "check",
            Some(&c.name),
            format!(
                "check '{}' needs exactly one of `between`, `equals`, `monotone`, `left`/`right`, `monte_carlo`",
                c.name
            ),
        ));
    }
    if let Some(&[lo, hi]) = c.between.as_deref() {
        let m = metric_of(a, c, None)?;
        let prob = super::output::is_probability(m.text());
        r.expected = format!(
            "{} between {} and {}",
            m.text(),
            human(Some(lo), prob),
            human(Some(hi), prob)
        );
        let mut seen = Vec::new();
        for (i, p) in matching(a, grid, &c.at, c)? {
            let v = value(a, grid, &m, i, c)?;
            seen.push(v);
            if !(lo - 1e-12..=hi + 1e-12).contains(&v) && r.holds {
                r.holds = false;
                r.counterexample = Some(format!(
                    "{} = {} at {}",
                    m.text(),
                    human(Some(v), prob),
                    describe(grid, p)
                ));
            }
        }
        r.found = range_text(&seen, prob);
    } else if let Some(eq) = &c.equals {
        let m = metric_of(a, c, None)?;
        match eq {
            toml::Value::String(frac) => {
                let want = parse_exact(frac).ok_or_else(|| {
                    a.error(
                        "equals",
                        Some(frac),
                        format!("'{frac}' is not a fraction like \"3/5\""),
                    )
                })?;
                r.expected = format!("{} = {} exactly", m.text(), want.exact_text());
                let mut found = Vec::new();
                for (_, p) in matching(a, grid, &c.at, c)? {
                    let report = super::request(&p.system, &grid.params(p))
                        .and_then(|r| {
                            r.report::<crate::weight::Exact>()
                                .map_err(|e| e.to_string())
                        })
                        .map_err(|e| a.error("equals", Some(&c.name), e))?;
                    let got = m.eval_report_exact(&report).ok_or_else(|| {
                        a.error(
                            "metric",
                            Some(m.text()),
                            format!("'{}' is not in the exact report", m.text()),
                        )
                    })?;
                    if !found.contains(&got.exact_text()) {
                        found.push(got.exact_text());
                    }
                    if got != want && r.holds {
                        r.holds = false;
                        r.counterexample = Some(format!(
                            "{} = {} at {}",
                            m.text(),
                            got.exact_text(),
                            describe(grid, p)
                        ));
                    }
                }
                r.found = found.join(", ");
            }
            other => {
                let want = other
                    .as_float()
                    .or_else(|| other.as_integer().map(|i| i as f64))
                    .ok_or_else(|| {
                        a.error(
                            "equals",
                            Some(&c.name),
                            "`equals` takes a fraction string or a number",
                        )
                    })?;
                let tol = c.tolerance.unwrap_or(1e-12);
                r.expected = format!("{} = {want} ± {tol}", m.text());
                let mut seen = Vec::new();
                for (i, p) in matching(a, grid, &c.at, c)? {
                    let v = value(a, grid, &m, i, c)?;
                    seen.push(v);
                    if (v - want).abs() > tol && r.holds {
                        r.holds = false;
                        r.counterexample =
                            Some(format!("{} = {v} at {}", m.text(), describe(grid, p)));
                    }
                }
                r.found = range_text(&seen, false);
            }
        }
    } else if let Some(dir) = &c.monotone {
        let m = metric_of(a, c, None)?;
        let along = c.along.as_deref().ok_or_else(|| {
            a.error(
                "along",
                Some(&c.name),
                format!("check '{}': `monotone` needs `along` (an axis)", c.name),
            )
        })?;
        let ai = grid
            .axis_index(along)
            .ok_or_else(|| a.error("along", Some(along), format!("no axis named '{along}'")))?;
        let ok: fn(f64, f64) -> bool = match dir.as_str() {
            "non-increasing" => |x, y| y <= x + 1e-12,
            "non-decreasing" => |x, y| y >= x - 1e-12,
            "increasing" => |x, y| y > x + 1e-12,
            "decreasing" => |x, y| y < x - 1e-12,
            other => {
                return Err(a.error(
                    "monotone",
                    Some(other),
                    format!(
                    "'{other}' (allowed: non-increasing, non-decreasing, increasing, decreasing)"
                ),
                ))
            }
        };
        r.expected = format!("{} {dir} along {along}", m.text());
        let pts = matching(a, grid, &c.at, c)?;
        let prob = super::output::is_probability(m.text());
        let mut lines = 0;
        for (i, p) in &pts {
            if p.coords[ai] != 0 {
                continue;
            }
            lines += 1;
            let mut prev = (*i, value(a, grid, &m, *i, c)?);
            for step in 1..grid.axes[ai].points.len() {
                let mut want = p.coords.clone();
                want[ai] = step;
                let Some(j) = grid.index_of(&want) else {
                    continue;
                };
                let v = value(a, grid, &m, j, c)?;
                if !ok(prev.1, v) && r.holds {
                    r.holds = false;
                    r.counterexample = Some(format!(
                        "{} → {}: {} → {}",
                        describe(grid, &grid.points[prev.0]),
                        describe(grid, &grid.points[j]),
                        human(Some(prev.1), prob),
                        human(Some(v), prob)
                    ));
                }
                prev = (j, v);
            }
        }
        r.found = if r.holds {
            format!("{dir} on all {lines} lines")
        } else {
            "broken".into()
        };
    } else if c.left.is_some() || c.right.is_some() {
        let empty = toml::Table::new();
        let left = c.left.as_ref().unwrap_or(&empty);
        let right = c.right.as_ref().unwrap_or(&empty);
        let (ml, mr) = (metric_of(a, c, Some(left))?, metric_of(a, c, Some(right))?);
        if c.op.is_none() && c.within.is_none() {
            return Err(a.error(
                "op",
                Some(&c.name),
                format!("check '{}' needs `op` or `within`", c.name),
            ));
        }
        let op = c.op.as_deref();
        let cmp: fn(f64, f64) -> bool = match op {
            None => |_, _| true,
            Some("<=") => |x, y| x <= y + 1e-12,
            Some(">=") => |x, y| x >= y - 1e-12,
            Some("<") => |x, y| x < y - 1e-12,
            Some(">") => |x, y| x > y + 1e-12,
            Some("==") => |x, y| (x - y).abs() <= 1e-12,
            Some(other) => {
                return Err(a.error(
                    "op",
                    Some(other),
                    format!("'{other}' (allowed: <=, >=, <, >, ==)"),
                ))
            }
        };
        r.expected = match (op, c.within) {
            (Some(o), Some(w)) => format!("{} {o} {} and within {w}", ml.text(), mr.text()),
            (Some(o), None) => format!("{} {o} {}", ml.text(), mr.text()),
            (None, Some(w)) => format!("|{} − {}| ≤ {w}", ml.text(), mr.text()),
            (None, None) => String::new(),
        };
        matching(a, grid, right, c)?;
        let prob = super::output::is_probability(ml.text());
        let mut pairs = 0;
        let mut worst: f64 = 0.0;
        for (i, p) in matching(a, grid, left, c)? {
            // The partner: the same point with the right side's axes set.
            let mut want = p.coords.clone();
            for (k, v) in right.iter().filter(|(k, _)| *k != "metric") {
                let ai = grid.axis_index(k).unwrap_or(0);
                want[ai] = grid.axes[ai]
                    .points
                    .iter()
                    .position(|x| x.label == value_text(v))
                    .unwrap_or(0);
            }
            let Some(j) = grid.index_of(&want) else {
                continue;
            };
            pairs += 1;
            let (x, y) = (value(a, grid, &ml, i, c)?, value(a, grid, &mr, j, c)?);
            worst = worst.max((x - y).abs());
            let within = c.within.is_none_or(|w| (x - y).abs() <= w + 1e-12);
            if !(cmp(x, y) && within) && r.holds {
                r.holds = false;
                r.counterexample = Some(format!(
                    "{} at {} = {} vs {} at {} = {}",
                    ml.text(),
                    describe(grid, p),
                    human(Some(x), prob),
                    mr.text(),
                    describe(grid, &grid.points[j]),
                    human(Some(y), prob)
                ));
            }
        }
        if pairs == 0 {
            return Err(a.error(
                "left",
                Some(&c.name),
                format!("check '{}': no pair of points to compare", c.name),
            ));
        }
        r.found = format!(
            "{pairs} pair{}, largest |difference| {}",
            if pairs == 1 { "" } else { "s" },
            human(Some(worst), prob)
        );
    } else if let Some(trials) = c.monte_carlo {
        crate::verify::check_trials("monte_carlo", trials)
            .map_err(|e| a.error("monte_carlo", Some(&c.name), e.to_string()))?;
        let mut systems: Vec<&str> = grid.points.iter().map(|p| p.system.as_str()).collect();
        systems.sort();
        systems.dedup();
        let points: Vec<verify::Point> = verify::default_grid()
            .into_iter()
            .filter(|p| systems.contains(&p.system))
            .collect();
        let run = verify::run::run(
            &points,
            trials,
            verify::run::DEFAULT_SEED,
            verify::run::DEFAULT_ALPHA,
            |_| {},
        );
        r.expected = format!(
            "simulation agrees with the exact laws of {} ({} points, {trials} trials each, α = {})",
            systems.join(", "),
            points.len(),
            verify::run::DEFAULT_ALPHA
        );
        r.holds = run.passed();
        r.found = format!(
            "{} of {} points agree",
            points.len() - run.failures().len(),
            points.len()
        );
        r.counterexample = run
            .failures()
            .first()
            .map(|f| format!("{} [{}] p = {:.2e}", f.system, f.label, f.p_value));
    }
    Ok(r)
}

fn range_text(seen: &[f64], prob: bool) -> String {
    let lo = seen.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = seen.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        "no value".into()
    } else if (hi - lo).abs() < 1e-12 {
        human(Some(lo), prob)
    } else {
        format!("{} … {}", human(Some(lo), prob), human(Some(hi), prob))
    }
}

/// Every check of an analysis (a sweep) on its grid.
pub fn evaluate_all(a: &Analysis, grid: &Grid) -> Result<Vec<CheckResult>> {
    a.spec.check.iter().map(|c| evaluate(a, grid, c)).collect()
}

/// `NAME.checks.md`: the verdicts, for `output/`.
pub fn markdown(a: &Analysis, results: &[CheckResult]) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut out = format!("# Checks: {}\n\n", a.title());
    let _ = writeln!(
        out,
        "_Verdicts of the `[[check]]` blocks in `{}`, as `hantei check` gives them._\n",
        a.path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "| check | claim | expected | found | counterexample | verdict |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    for r in results {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            esc(&r.name),
            esc(&r.message),
            esc(&r.expected),
            esc(&r.found),
            esc(r.counterexample.as_deref().unwrap_or("–")),
            r.verdict()
        );
    }
    out.into_bytes()
}

/// JSON of the verdicts.
pub fn to_json(results: &[CheckResult]) -> Value {
    json!({
        "passed": results.iter().all(CheckResult::pass),
        "checks": results.iter().map(|r| json!({
            "file": r.file,
            "name": r.name,
            "message": r.message,
            "pass": r.pass(),
            "verdict": r.verdict(),
            "claim_holds": r.holds,
            "known_false": r.known_false,
            "expected": r.expected,
            "found": r.found,
            "counterexample": r.counterexample,
        })).collect::<Vec<_>>(),
    })
}

/// `s` escaped for XML text and attributes.
pub(crate) fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// JUnit XML: one test suite per file, one test case per check.
pub fn to_junit(results: &[CheckResult]) -> String {
    let mut files: Vec<&str> = results.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    let failures = results.iter().filter(|r| !r.pass()).count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hantei check\" tests=\"{}\" failures=\"{failures}\">\n",
        results.len()
    );
    for f in files {
        let rs: Vec<&CheckResult> = results.iter().filter(|r| r.file == f).collect();
        let fails = rs.iter().filter(|r| !r.pass()).count();
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\">\n",
            xml(f),
            rs.len()
        ));
        for r in rs {
            out.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"{}\">\n",
                xml(&r.name),
                xml(f)
            ));
            let detail = format!(
                "{}\nexpected: {}\nfound: {}\n{}",
                r.message,
                r.expected,
                r.found,
                r.counterexample
                    .as_deref()
                    .map(|c| format!("counterexample: {c}"))
                    .unwrap_or_default()
            );
            if r.pass() {
                out.push_str(&format!(
                    "      <system-out>{}</system-out>\n",
                    xml(&format!("{}: {detail}", r.verdict()))
                ));
            } else {
                out.push_str(&format!(
                    "      <failure message=\"{}\">{}</failure>\n",
                    xml(&format!("{}: {}", r.verdict(), r.message)),
                    xml(&detail)
                ));
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
