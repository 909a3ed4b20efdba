//! The files of an analysis: `NAME.csv`, `NAME.md`, and its charts as
//! `NAME.svg` / `NAME.png` (later charts `NAME-ID.svg` …). Everything is
//! rendered in memory as bytes; `hantei run` writes or compares them.

use std::fmt::Write as _;

use super::spec::{ChartSpec, Lang};
use super::{value_text, Analysis, Grid, Point};
use crate::chart::{self, Chart, ChartBody};
use crate::error::Result;

/// One output file: name (relative to the output directory) and bytes.
pub type OutFile = (String, Vec<u8>);

/// Numbers in CSV: fixed 10 decimals (stable bytes, well past any
/// rulebook's precision).
pub fn csv_number(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => {
            let s = format!("{v:.10}");
            if s == "-0.0000000000" {
                "0.0000000000".into()
            } else {
                s
            }
        }
        _ => String::new(),
    }
}

pub use crate::export::csv_bytes;

/// Whether a metric is a probability (shown as a percentage).
pub fn is_probability(path: &str) -> bool {
    let last = path
        .rsplit('.')
        .next()
        .unwrap_or(path)
        .split(['[', '>'])
        .next()
        .unwrap_or(path);
    if path.starts_with("outcomes.") || path.starts_with("distribution") {
        // Tier names are the designer's: a tier named "mean" is still a
        // probability.
        return true;
    }
    !(path.starts_with("1/")
        || last.starts_with("expected")
        || last == "mean"
        || last == "sd"
        || last == "variance"
        || last.ends_with("_mean")
        || last.ends_with("_sd")
        || last.ends_with("_variance")
        || matches!(
            last,
            "best_level"
                | "rate"
                | "auto_fail_threshold"
                | "threshold"
                | "total_modifier"
                | "level"
                | "value"
        ))
}

/// A value for people: `55.0%` for probabilities, otherwise 3 decimals
/// (integers plain).
pub fn human(x: Option<f64>, probability: bool) -> String {
    let Some(v) = x else {
        return "–".into();
    };
    if probability {
        // Rounded to 15 significant digits first, as every table does: a
        // float sum missing 1 by an ulp is 100%.
        let v = crate::weight::tidy(v);
        if v == 0.0 {
            "0%".into()
        } else if v == 1.0 {
            "100%".into()
        } else if v < 0.0005 && v > 0.0 {
            "<0.1%".into()
        } else if v > 0.9995 && v < 1.0 {
            ">99.9%".into()
        } else {
            // An exact tie (0.2775 → 27.75%) rounds half up whatever the
            // last bit of its f64 says: tidied to 15 digits first.
            let tenths = (crate::weight::tidy(v * 100.0) * 10.0).round();
            format!("{:.1}%", tenths / 10.0)
        }
    } else if v.fract() == 0.0 && v.abs() < 1e12 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
    }
}

/// `NAME.csv`: `system`, one column per axis, one per metric; one row per
/// point, first axis outermost.
pub fn csv(grid: &Grid) -> Vec<u8> {
    let mut header = vec!["system".to_string()];
    header.extend(grid.axes.iter().map(|ax| ax.id.clone()));
    header.extend(grid.metrics.iter().map(|(m, _)| m.text().to_string()));
    let rows = grid.points.iter().zip(&grid.values).map(|(p, vals)| {
        let mut row = vec![p.system.clone()];
        row.extend(
            grid.axes
                .iter()
                .zip(&p.coords)
                .map(|(ax, &c)| ax.points[c].label.clone()),
        );
        row.extend(vals.iter().map(|v| csv_number(*v)));
        row
    });
    csv_bytes(std::iter::once(header).chain(rows))
}

/// Whether point `p` matches every `where` entry (axis id → value label).
fn matches(grid: &Grid, p: &Point, filter: &toml::Table) -> bool {
    filter.iter().all(|(k, v)| {
        grid.axis_index(k)
            .is_some_and(|i| grid.axes[i].points[p.coords[i]].label == value_text(v))
    })
}

fn check_filter(a: &Analysis, grid: &Grid, filter: &toml::Table, what: &str) -> Result<()> {
    for (k, v) in filter {
        let Some(i) = grid.axis_index(k) else {
            return Err(a.error("where", Some(k), format!("{what}: no axis named '{k}'")));
        };
        if !grid.axes[i].points.iter().any(|p| p.label == value_text(v)) {
            return Err(a.error(
                "where",
                Some(k),
                format!("{what}: axis '{k}' has no value '{}'", value_text(v)),
            ));
        }
    }
    Ok(())
}

/// The head of `NAME.md`: title, description, where it comes from.
pub fn md_header(a: &Analysis) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", a.title());
    let description = match a.lang() {
        Lang::Ja => a
            .spec
            .description_ja
            .as_ref()
            .or(a.spec.description.as_ref()),
        Lang::En => a.spec.description.as_ref(),
    };
    if let Some(d) = description {
        let _ = writeln!(out, "{}\n", d.trim());
    }
    let _ = writeln!(
        out,
        "_Exact odds computed by `hantei run` from `{}`; regenerate, don't edit._\n",
        source_path(a)
    );
    out
}

/// The analysis file as the reader should find it: relative to the current
/// directory when it is below it (`analyses/d20-success.toml`), else as
/// given, with `/` separators.
fn source_path(a: &Analysis) -> String {
    let cwd = std::env::current_dir().ok();
    let abs = if a.path.is_absolute() {
        a.path.clone()
    } else {
        cwd.as_ref().map_or(a.path.clone(), |c| c.join(&a.path))
    };
    let shown = cwd
        .and_then(|c| abs.strip_prefix(&c).ok().map(std::path::Path::to_path_buf))
        .unwrap_or_else(|| a.path.clone());
    shown
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// `NAME.md`: title, description, and the table (a pivot when `[table]`
/// is given, else one row per point), percentages for probabilities.
pub fn markdown(a: &Analysis, grid: &Grid) -> Result<Vec<u8>> {
    let lang = a.lang();
    let mut out = md_header(a);
    match &a.spec.table {
        Some(t) => {
            let (Some(r), Some(c), Some(m)) = (
                grid.axis_index(&t.rows),
                grid.axis_index(&t.columns),
                grid.metric_index(&t.metric),
            ) else {
                return Err(a.error(
                    "table",
                    Some("[table]"),
                    "rows and columns must name axes, metric one of `metrics`",
                ));
            };
            check_filter(a, grid, &t.where_, "[table]")?;
            let prob = grid.percent[m];
            // One pivot per combination of the other axes.
            let mut seen: Vec<Vec<usize>> = Vec::new();
            for p in grid.points.iter().filter(|p| matches(grid, p, &t.where_)) {
                let key: Vec<usize> = p
                    .coords
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| if i == r || i == c { 0 } else { x })
                    .collect();
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key.clone());
                let others: Vec<String> = (0..grid.axes.len())
                    .filter(|&i| i != r && i != c && grid.axes[i].points.len() > 1)
                    .map(|i| {
                        let ax = &grid.axes[i];
                        format!(
                            "{} = {}",
                            lang.pick(&ax.label, ax.label_ja.as_deref()),
                            grid.coord_label(p, i, lang)
                        )
                    })
                    .collect();
                if !others.is_empty() {
                    let _ = writeln!(out, "### {}\n", others.join(", "));
                }
                let (ra, ca) = (&grid.axes[r], &grid.axes[c]);
                let _ = write!(
                    out,
                    "| {} \\ {} |",
                    lang.pick(&ra.label, ra.label_ja.as_deref()),
                    lang.pick(&ca.label, ca.label_ja.as_deref())
                );
                for cp in &ca.points {
                    let _ = write!(out, " {} |", lang.pick(&cp.label, cp.label_ja.as_deref()));
                }
                let _ = writeln!(out, "\n|---|{}", "---:|".repeat(ca.points.len()));
                for (ri, rp) in ra.points.iter().enumerate() {
                    let _ = write!(out, "| {} |", lang.pick(&rp.label, rp.label_ja.as_deref()));
                    for ci in 0..ca.points.len() {
                        let mut want = key.clone();
                        want[r] = ri;
                        want[c] = ci;
                        let v = grid.index_of(&want).and_then(|i| grid.values[i][m]);
                        let _ = write!(out, " {} |", human(v, prob));
                    }
                    out.push('\n');
                }
                out.push('\n');
            }
        }
        None => {
            let mut header: Vec<String> = grid
                .axes
                .iter()
                .map(|ax| lang.pick(&ax.label, ax.label_ja.as_deref()).to_string())
                .collect();
            header.extend(grid.metrics.iter().map(|(_, l)| l.clone()));
            let _ = writeln!(out, "| {} |", header.join(" | "));
            let _ = writeln!(
                out,
                "|{}{}",
                "---|".repeat(grid.axes.len()),
                "---:|".repeat(grid.metrics.len())
            );
            for (p, vals) in grid.points.iter().zip(&grid.values) {
                let mut cells: Vec<String> = (0..grid.axes.len())
                    .map(|i| grid.coord_label(p, i, lang))
                    .collect();
                cells.extend(vals.iter().zip(&grid.percent).map(|(v, &pc)| human(*v, pc)));
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
            out.push('\n');
        }
    }
    Ok(out.into_bytes())
}

/// Points matching a chart's `where`, checking that every axis other than
/// `free` is then fixed to one value.
fn chart_points<'g>(
    a: &Analysis,
    grid: &'g Grid,
    c: &ChartSpec,
    free: &[usize],
) -> Result<Vec<&'g Point>> {
    check_filter(a, grid, &c.where_, "[[chart]]")?;
    for (i, ax) in grid.axes.iter().enumerate() {
        if !free.contains(&i) && ax.points.len() > 1 && !c.where_.contains_key(&ax.id) {
            return Err(a.error(
                "where",
                Some(&format!("x = \"{}\"", c.x)),
                format!(
                    "chart '{}': axis '{}' varies; fix it with `where = {{ {} = … }}` or use it as x/series",
                    c.kind, ax.id, ax.id
                ),
            ));
        }
    }
    Ok(grid
        .points
        .iter()
        .filter(|p| matches(grid, p, &c.where_))
        .collect())
}

fn need_axis(a: &Analysis, grid: &Grid, id: &str, key: &str) -> Result<usize> {
    grid.axis_index(id)
        .ok_or_else(|| a.error(key, Some(id), format!("no axis named '{id}'")))
}

fn need_metric(a: &Analysis, grid: &Grid, path: &str, key: &str) -> Result<usize> {
    grid.metric_index(path).ok_or_else(|| {
        a.error(
            key,
            Some(path),
            format!("'{path}' is not one of this analysis's `metrics`"),
        )
    })
}

/// Build chart `c` of the analysis.
pub fn build_chart(a: &Analysis, grid: &Grid, c: &ChartSpec) -> Result<Chart> {
    let lang = a.lang();
    let x = need_axis(a, grid, &c.x, "x")?;
    let axis_label = |i: usize| {
        let ax = &grid.axes[i];
        lang.pick(&ax.label, ax.label_ja.as_deref()).to_string()
    };
    let metric_label = |m: usize| grid.metrics[m].1.clone();
    let title = lang
        .pick(
            c.title.as_deref().unwrap_or(&a.spec.title),
            c.title_ja.as_deref().or(a.spec.title_ja.as_deref()),
        )
        .to_string();
    let value_at = |p: &Point, m: usize| grid.index_of(&p.coords).and_then(|i| grid.values[i][m]);
    let series_axis = match &c.series {
        Some(s) => Some(need_axis(a, grid, s, "series")?),
        None => None,
    };
    let body_label = |m: usize| {
        let base = metric_label(m);
        lang.pick(
            c.y_label.as_deref().unwrap_or(&base),
            c.y_label_ja.as_deref(),
        )
        .to_string()
    };
    let (y_label, body) = match c.kind.as_str() {
        "line" | "bar" => {
            let y = c.y.as_deref().ok_or_else(|| {
                a.error("y", Some(&c.x), "line and bar charts need `y` (a metric)")
            })?;
            let m = need_metric(a, grid, y, "y")?;
            let mut free = vec![x];
            free.extend(series_axis);
            let pts = chart_points(a, grid, c, &free)?;
            let series_values: Vec<usize> = match series_axis {
                Some(s) => (0..grid.axes[s].points.len()).collect(),
                None => vec![0],
            };
            let mut series = Vec::new();
            for sv in &series_values {
                let name = match series_axis {
                    Some(s) => {
                        let ap = &grid.axes[s].points[*sv];
                        lang.pick(&ap.label, ap.label_ja.as_deref()).to_string()
                    }
                    None => metric_label(m),
                };
                let ys: Vec<Option<f64>> = (0..grid.axes[x].points.len())
                    .map(|xi| {
                        pts.iter()
                            .find(|p| {
                                p.coords[x] == xi && series_axis.is_none_or(|s| p.coords[s] == *sv)
                            })
                            .and_then(|p| value_at(p, m))
                    })
                    .collect();
                series.push((name, ys));
            }
            let percent = grid.percent[m];
            let body = if c.kind == "line" {
                let xs: Vec<f64> = grid.axes[x]
                    .points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| p.label.parse::<f64>().unwrap_or(i as f64))
                    .collect();
                ChartBody::Lines {
                    x: xs,
                    series,
                    y_percent: percent,
                }
            } else {
                ChartBody::Bars {
                    categories: grid.axes[x]
                        .points
                        .iter()
                        .map(|p| lang.pick(&p.label, p.label_ja.as_deref()).to_string())
                        .collect(),
                    series: series
                        .into_iter()
                        .map(|(n, v)| (n, v.into_iter().map(|x| x.unwrap_or(0.0)).collect()))
                        .collect(),
                    y_percent: percent,
                }
            };
            (body_label(m), body)
        }
        "heatmap" => {
            let ya = need_axis(a, grid, c.y.as_deref().unwrap_or(""), "y")?;
            let v = c.value.as_deref().ok_or_else(|| {
                a.error("value", Some(&c.x), "a heatmap needs `value` (a metric)")
            })?;
            let m = need_metric(a, grid, v, "value")?;
            let pts = chart_points(a, grid, c, &[x, ya])?;
            let labels = |i: usize| -> Vec<String> {
                grid.axes[i]
                    .points
                    .iter()
                    .map(|p| lang.pick(&p.label, p.label_ja.as_deref()).to_string())
                    .collect()
            };
            let values = (0..grid.axes[ya].points.len())
                .map(|yi| {
                    (0..grid.axes[x].points.len())
                        .map(|xi| {
                            pts.iter()
                                .find(|p| p.coords[x] == xi && p.coords[ya] == yi)
                                .and_then(|p| value_at(p, m))
                        })
                        .collect()
                })
                .collect();
            (
                axis_label(ya),
                ChartBody::Heatmap {
                    x: labels(x),
                    y: labels(ya),
                    values,
                    value_label: body_label(m),
                    percent: grid.percent[m],
                },
            )
        }
        "stacked" => {
            let tiers = c.tiers.as_ref().ok_or_else(|| {
                a.error(
                    "tiers",
                    Some(&c.x),
                    "a stacked chart needs `tiers` (metrics, worst first)",
                )
            })?;
            let ms: Vec<usize> = tiers
                .iter()
                .map(|t| need_metric(a, grid, t, "tiers"))
                .collect::<Result<_>>()?;
            let pts = chart_points(a, grid, c, &[x])?;
            let values = (0..grid.axes[x].points.len())
                .map(|xi| {
                    let p = pts.iter().find(|p| p.coords[x] == xi);
                    ms.iter()
                        .map(|&m| p.and_then(|p| value_at(p, m)).unwrap_or(0.0))
                        .collect()
                })
                .collect();
            (
                lang.pick(
                    c.y_label.as_deref().unwrap_or("probability (%)"),
                    Some(c.y_label_ja.as_deref().unwrap_or("確率 (%)")),
                )
                .to_string(),
                ChartBody::Stacked {
                    categories: grid.axes[x]
                        .points
                        .iter()
                        .map(|p| lang.pick(&p.label, p.label_ja.as_deref()).to_string())
                        .collect(),
                    tiers: ms.iter().map(|&m| metric_label(m)).collect(),
                    values,
                },
            )
        }
        other => {
            return Err(a.error(
                "kind",
                Some(other),
                format!("unknown chart kind '{other}' (allowed: line, bar, heatmap, stacked)"),
            ))
        }
    };
    Ok(Chart {
        title,
        x_label: axis_label(x),
        y_label,
        // The series are the points of the series axis: its name titles
        // the legend ("skill" over 0…8).
        legend_title: series_axis.map(axis_label),
        body,
    })
}

/// Output names of the analysis's charts: `NAME`, then `NAME-ID` (or
/// `NAME-2`, `NAME-3` …).
pub fn chart_stem(name: &str, index: usize, c: &ChartSpec) -> String {
    match (&c.id, index) {
        (Some(id), _) => format!("{name}-{id}"),
        (None, 0) => name.to_string(),
        (None, i) => format!("{name}-{}", i + 1),
    }
}

/// Render charts (output stem, chart) to SVG and PNG files.
pub fn render_charts(a: &Analysis, charts: Vec<(String, Chart)>) -> Result<Vec<OutFile>> {
    let mut files = Vec::new();
    for (stem, chart) in charts {
        let fail = |e: crate::Error| a.error("chart", None, format!("{stem}: {e}"));
        files.push((format!("{stem}.svg"), chart::svg(&chart).map_err(fail)?));
        files.push((format!("{stem}.png"), chart::png(&chart).map_err(fail)?));
    }
    Ok(files)
}

/// All files of a sweep analysis.
pub fn sweep_files(a: &Analysis, grid: &Grid) -> Result<Vec<OutFile>> {
    let name = a.name();
    let mut files = vec![
        (format!("{name}.csv"), csv(grid)),
        (format!("{name}.md"), markdown(a, grid)?),
    ];
    let charts = a
        .spec
        .chart
        .iter()
        .enumerate()
        .map(|(i, c)| Ok((chart_stem(&name, i, c), build_chart(a, grid, c)?)))
        .collect::<Result<Vec<_>>>()?;
    files.extend(render_charts(a, charts)?);
    Ok(files)
}
