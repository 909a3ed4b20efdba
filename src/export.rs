//! Renderings of a [`Report`]: terminal table, CSV, JSON and Markdown.
//! Every exporter is pure and returns bytes; writing files is the caller's
//! business.

use std::fmt::Write as _;

use crate::report::{Field, Report};
use crate::weight::Weight;

/// Output format of `hantei odds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned table for a terminal: percentages, English and Japanese names.
    Table,
    /// Long-format CSV: `section,name,label_en,label_ja,value`.
    Csv,
    /// JSON (the stable contract for scripts).
    Json,
    /// Markdown tables, ready for a rulebook.
    Md,
}

/// Render `report` in `format`.
pub fn render<W: Weight>(report: &Report<W>, format: Format) -> Vec<u8> {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default();
            s.push('\n');
            s.into_bytes()
        }
        Format::Table => table(report).into_bytes(),
        Format::Csv => csv(report).into_bytes(),
        Format::Md => markdown(report).into_bytes(),
    }
}

/// Display width of `s` in a terminal (East Asian wide characters count 2).
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let u = c as u32;
            let wide = (0x1100..=0x115F).contains(&u)
                || (0x2E80..=0xA4CF).contains(&u)
                || (0xAC00..=0xD7A3).contains(&u)
                || (0xF900..=0xFAFF).contains(&u)
                || (0xFE30..=0xFE4F).contains(&u)
                || (0xFF00..=0xFF60).contains(&u)
                || (0xFFE0..=0xFFE6).contains(&u);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}

fn pad(s: &str, width: usize) -> String {
    let w = display_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

fn lpad(s: &str, width: usize) -> String {
    let w = display_width(s);
    format!("{}{s}", " ".repeat(width.saturating_sub(w)))
}

/// A probability as a percentage for people: `55.00%`; small values keep
/// three significant digits (`0.00214%`), tiny ones go scientific
/// (`1.00e-9%`); exact `0%` and `100%`.
pub fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if p == 0.0 {
        "0%".into()
    } else if p == 1.0 {
        "100%".into()
    } else if pc < 1e-6 {
        format!("{pc:.2e}%")
    } else if pc < 0.01 {
        let decimals = (2.0 - pc.log10().floor()) as usize;
        format!("{pc:.decimals$}%")
    } else if p > 1.0 - 1e-4 {
        format!("{pc:.4}%")
    } else {
        format!("{pc:.2}%")
    }
}

fn scalar_text<W: Weight>(f: &Field<W>) -> Option<String> {
    Some(match f {
        Field::Prob(p) => {
            if W::EXACT {
                format!("{} ({})", percent(p.to_f64()), p.exact_text())
            } else {
                percent(p.to_f64())
            }
        }
        Field::Value(v) => {
            if W::EXACT {
                format!("{:.4} ({})", v.to_f64(), v.exact_text())
            } else {
                format!("{:.4}", v.to_f64())
            }
        }
        Field::Int(n) => n.to_string(),
        Field::Bool(b) => b.to_string(),
        Field::Text(t) => t.clone(),
        _ => return None,
    })
}

fn prob_cell<W: Weight>(p: &W) -> String {
    if W::EXACT {
        format!("{} ({})", percent(p.to_f64()), p.exact_text())
    } else {
        percent(p.to_f64())
    }
}

fn params_line<W: Weight>(r: &Report<W>) -> String {
    r.params
        .iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect::<Vec<_>>()
        .join("  ")
}

fn table<W: Weight>(r: &Report<W>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", r.system, r.system_ja);
    let _ = writeln!(out, "  {}", params_line(r));
    if !r.outcomes.is_empty() {
        let w_en = r
            .outcomes
            .iter()
            .map(|o| display_width(o.en))
            .max()
            .unwrap_or(0)
            .max(7);
        let w_ja = r
            .outcomes
            .iter()
            .map(|o| display_width(o.ja))
            .max()
            .unwrap_or(0)
            .max(4);
        let cells: Vec<String> = r.outcomes.iter().map(|o| prob_cell(&o.p)).collect();
        let w_p = cells
            .iter()
            .map(|c| display_width(c))
            .max()
            .unwrap_or(0)
            .max(11);
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "  {}  {}  {}",
            pad("outcome", w_en),
            pad("判定", w_ja),
            lpad("probability", w_p)
        );
        for (o, c) in r.outcomes.iter().zip(&cells).rev() {
            let _ = writeln!(
                out,
                "  {}  {}  {}",
                pad(o.en, w_en),
                pad(o.ja, w_ja),
                lpad(c, w_p)
            );
        }
    }
    let _ = writeln!(out);
    let mut scalars: Vec<(String, String)> = vec![("p_success".into(), prob_cell(&r.p_success))];
    let mut blocks: Vec<(&str, &Field<W>)> = Vec::new();
    for (name, f) in &r.fields {
        match scalar_text(f) {
            Some(t) => scalars.push((name.clone(), t)),
            None => blocks.push((name, f)),
        }
    }
    let w_name = scalars.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (n, t) in &scalars {
        let _ = writeln!(out, "  {}  {}", pad(n, w_name), t);
    }
    for (name, f) in blocks {
        let _ = writeln!(out);
        let _ = writeln!(out, "  {name}:");
        write_block(&mut out, f, "    ");
    }
    for n in &r.notes {
        let _ = writeln!(out, "\n  note: {n}");
    }
    out
}

fn write_block<W: Weight>(out: &mut String, f: &Field<W>, indent: &str) {
    match f {
        Field::Probs(ps) => {
            for (k, p) in ps.iter().enumerate() {
                let _ = writeln!(out, "{indent}{k:>3}  {}", prob_cell(p));
            }
        }
        Field::Rows(rows) => {
            let Some(first) = rows.first() else {
                return;
            };
            let header: Vec<&str> = first.iter().map(|(k, _)| k.as_str()).collect();
            let body: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|(_, v)| scalar_text(v).unwrap_or_else(|| "…".into()))
                        .collect()
                })
                .collect();
            let widths: Vec<usize> = header
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    body.iter()
                        .map(|r| r.get(i).map_or(0, |c| display_width(c)))
                        .max()
                        .unwrap_or(0)
                        .max(display_width(h))
                })
                .collect();
            let line = |cells: Vec<String>| {
                cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| lpad(c, *w))
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            let _ = writeln!(
                out,
                "{indent}{}",
                line(header.iter().map(|h| h.to_string()).collect())
            );
            for r in body {
                let _ = writeln!(out, "{indent}{}", line(r));
            }
        }
        Field::Object(items) => {
            let w = items.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
            for (k, v) in items {
                match scalar_text(v) {
                    Some(t) => {
                        let _ = writeln!(out, "{indent}{}  {t}", pad(k, w));
                    }
                    None => {
                        let _ = writeln!(out, "{indent}{k}:");
                        write_block(out, v, &format!("{indent}  "));
                    }
                }
            }
        }
        other => {
            if let Some(t) = scalar_text(other) {
                let _ = writeln!(out, "{indent}{t}");
            }
        }
    }
}

fn csv_value<W: Weight>(p: &W) -> String {
    if W::EXACT {
        p.exact_text()
    } else {
        format!("{}", p.to_f64())
    }
}

fn csv_escape(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv<W: Weight>(r: &Report<W>) -> String {
    let mut out = String::from("section,name,label_en,label_ja,value\n");
    let mut row = |section: &str, name: &str, en: &str, ja: &str, value: String| {
        let _ = writeln!(
            out,
            "{},{},{},{},{}",
            csv_escape(section),
            csv_escape(name),
            csv_escape(en),
            csv_escape(ja),
            csv_escape(&value)
        );
    };
    row(
        "system",
        "system",
        r.system,
        r.system_ja,
        r.system.to_string(),
    );
    for (k, v) in &r.params {
        let text = match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        row("param", k, "", "", text);
    }
    for o in &r.outcomes {
        row("outcome", o.key, o.en, o.ja, csv_value(&o.p));
    }
    row(
        "field",
        "p_success",
        "success or better",
        "成功以上",
        csv_value(&r.p_success),
    );
    fn flatten<W: Weight>(prefix: &str, f: &Field<W>, rows: &mut Vec<(String, String)>) {
        match f {
            Field::Prob(p) | Field::Value(p) => rows.push((prefix.into(), csv_value(p))),
            Field::Probs(ps) => {
                for (i, p) in ps.iter().enumerate() {
                    rows.push((format!("{prefix}[{i}]"), csv_value(p)));
                }
            }
            Field::Int(n) => rows.push((prefix.into(), n.to_string())),
            Field::Bool(b) => rows.push((prefix.into(), b.to_string())),
            Field::Text(t) => rows.push((prefix.into(), t.clone())),
            Field::Rows(rs) => {
                for (i, r) in rs.iter().enumerate() {
                    for (k, v) in r {
                        flatten(&format!("{prefix}[{i}].{k}"), v, rows);
                    }
                }
            }
            Field::Object(items) => {
                for (k, v) in items {
                    flatten(&format!("{prefix}.{k}"), v, rows);
                }
            }
        }
    }
    let mut rows = Vec::new();
    for (name, f) in &r.fields {
        flatten(name, f, &mut rows);
    }
    for (name, value) in rows {
        row("field", &name, "", "", value);
    }
    out
}

fn markdown<W: Weight>(r: &Report<W>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### {} ({})\n", r.system, r.system_ja);
    let _ = writeln!(out, "Parameters: {}\n", params_line(r).replace("  ", ", "));
    if !r.outcomes.is_empty() {
        let _ = writeln!(out, "| outcome | 判定 | probability |");
        let _ = writeln!(out, "|---|---|---:|");
        for o in r.outcomes.iter().rev() {
            let _ = writeln!(out, "| {} | {} | {} |", o.en, o.ja, prob_cell(&o.p));
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "| measure | value |");
    let _ = writeln!(out, "|---|---:|");
    let _ = writeln!(out, "| p_success | {} |", prob_cell(&r.p_success));
    let mut blocks = Vec::new();
    for (name, f) in &r.fields {
        match scalar_text(f) {
            Some(t) => {
                let _ = writeln!(out, "| {name} | {t} |");
            }
            None => blocks.push((name, f)),
        }
    }
    for (name, f) in blocks {
        let _ = writeln!(out, "\n**{name}**\n");
        match f {
            Field::Probs(ps) => {
                let _ = writeln!(out, "| k | probability |\n|---:|---:|");
                for (k, p) in ps.iter().enumerate() {
                    let _ = writeln!(out, "| {k} | {} |", prob_cell(p));
                }
            }
            Field::Rows(rows) if !rows.is_empty() => {
                let header: Vec<&str> = rows[0].iter().map(|(k, _)| k.as_str()).collect();
                let _ = writeln!(out, "| {} |", header.join(" | "));
                let _ = writeln!(out, "|{}", "---:|".repeat(header.len()));
                for r in rows {
                    let cells: Vec<String> = r
                        .iter()
                        .map(|(_, v)| scalar_text(v).unwrap_or_default())
                        .collect();
                    let _ = writeln!(out, "| {} |", cells.join(" | "));
                }
            }
            Field::Object(items) => {
                let _ = writeln!(out, "| name | value |\n|---|---:|");
                for (k, v) in items {
                    let _ = writeln!(out, "| {k} | {} |", scalar_text(v).unwrap_or_default());
                }
            }
            _ => {}
        }
    }
    for n in &r.notes {
        let _ = writeln!(out, "\n> note: {n}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_double() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("成功"), 4);
        assert_eq!(display_width("クリティカル"), 12);
    }

    #[test]
    fn percent_formats() {
        assert_eq!(percent(0.55), "55.00%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(1e-7), "0.0000100%");
        assert_eq!(percent(2.143e-5), "0.00214%");
        assert_eq!(percent(1e-11), "1.00e-9%");
    }
}
