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

/// Display width of `s` in a terminal (East Asian wide characters count 2),
/// by the Unicode width tables of the `unicode-width` crate.
pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// An exact fraction for people: in full up to 32 characters, else each
/// long part shortened to its first and last digits with its length
/// (`123456…7890 (310 digits)/…`). JSON and CSV keep every digit.
pub fn short_fraction(text: &str) -> String {
    if text.len() <= 32 {
        return text.to_string();
    }
    let part = |p: &str| {
        if p.len() <= 14 {
            p.to_string()
        } else {
            format!("{}…{} ({} digits)", &p[..6], &p[p.len() - 4..], p.len())
        }
    };
    match text.split_once('/') {
        Some((n, d)) => format!("{}/{}", part(n), part(d)),
        None => part(text),
    }
}

/// [`short_fraction`] of an exact weight's text (`num/den`), without
/// writing out a long fraction's digits: a part past 14 characters needs
/// only its length, its first digits and its last four, which take a
/// power of ten and a division with a short quotient, where the decimal
/// text of a 54,000-bit number takes a divide-and-conquer conversion
/// (`1000R6[6]>=5 --exact` printed 1,200 such fractions in about 5 s).
pub fn short_exact<W: Weight>(w: &W) -> String {
    let Some((n, d)) = w.as_fraction() else {
        return short_fraction(&w.exact_text());
    };
    // Short fractions (at most about 33 digits in all) are written out.
    if n.bits() + d.bits() <= 110 {
        return short_fraction(&w.exact_text());
    }
    format!("{}/{}", short_part(&n), short_part(&d))
}

/// One part of [`short_exact`]: as [`short_fraction`] shows it (the sign
/// counts as a character).
fn short_part(n: &num_bigint::BigInt) -> String {
    let sign = usize::from(n.sign() == num_bigint::Sign::Minus);
    let m = n.magnitude();
    if m.bits() <= 40 {
        // At most 13 digits: whole.
        return n.to_string();
    }
    let (digits, lead, last) = decimal_summary(m, 6 - sign);
    let len = digits + sign;
    if len <= 14 {
        return n.to_string();
    }
    format!(
        "{}{lead}…{last:04} ({len} digits)",
        if sign == 1 { "-" } else { "" }
    )
}

/// The decimal digits of `m ≥ 10¹²`, its first `lead` digits and its last
/// four (as a number).
fn decimal_summary(m: &num_bigint::BigUint, lead: usize) -> (usize, u64, u64) {
    // 10^(d−1) ≤ m < 10^d, from the bit length, then corrected.
    let bits = m.bits();
    let mut d = ((bits - 1) as f64 * std::f64::consts::LOG10_2).floor() as usize + 1;
    let mut p = power_of_ten(d - 1);
    while &p > m {
        p /= 10u32;
        d -= 1;
    }
    loop {
        let next = &p * 10u32;
        if &next > m {
            break;
        }
        p = next;
        d += 1;
    }
    // m / 10^(d − lead): the leading digits (a short quotient).
    let scale = &p / 10u64.pow((lead - 1) as u32);
    let first = (m / scale).to_u64_digits().first().copied().unwrap_or(0);
    let last = (m % 10_000u32)
        .to_u64_digits()
        .first()
        .copied()
        .unwrap_or(0);
    (d, first, last)
}

/// `10^e`, the last few kept (a law's fractions share their lengths:
/// its denominators are mostly one number).
fn power_of_ten(e: usize) -> num_bigint::BigUint {
    use std::cell::RefCell;
    thread_local! {
        static POWERS: RefCell<Vec<(usize, num_bigint::BigUint)>> = const { RefCell::new(Vec::new()) };
    }
    POWERS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, p)) = cache.iter().find(|(k, _)| *k == e) {
            return p.clone();
        }
        let p = num_traits::Pow::pow(&num_bigint::BigUint::from(10u32), e as u32);
        if cache.len() >= 8 {
            cache.remove(0);
        }
        cache.push((e, p.clone()));
        p
    })
}

/// Japanese name of a report section shown as its own block.
fn block_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "hits" => "ヒット数",
        "p_done_by" => "k回以内に達成",
        "policies" => "フェイト・ダイスの方針",
        "by_level" => "レベル別",
        "tiers" => "段階",
        "achieved" => "達成値",
        "vs_achieved" => "相手の達成値",
        "distribution" => "分布",
        "worth" => "価値",
        // A sweep's table (`--sweep dc=…`: `by_dc`).
        n if n.starts_with("by_") => "掃引",
        _ => return None,
    })
}

/// The label of index `k` of a list field: `p_done_by[k]` is "within k + 1
/// rolls", and so are a race's `side_p_done_by` and `vs_p_done_by`; every
/// other list is indexed from 0 (`hits[k]` = k hits).
fn list_label(name: &str, k: usize) -> usize {
    if matches!(name, "p_done_by" | "side_p_done_by" | "vs_p_done_by") {
        k + 1
    } else {
        k
    }
}

fn pad(s: &str, width: usize) -> String {
    let w = display_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

fn lpad(s: &str, width: usize) -> String {
    let w = display_width(s);
    format!("{}{s}", " ".repeat(width.saturating_sub(w)))
}

/// CSV bytes of `rows` (the first is the header), written by the `csv`
/// crate: RFC 4180 quoting where a field needs it, `\n` line ends.
pub fn csv_bytes<I, R>(rows: I) -> Vec<u8>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for row in rows {
        // Writing to a Vec cannot fail.
        let _ = w.write_record(row);
    }
    w.into_inner().unwrap_or_default()
}

/// A probability as a percentage for people: `55.00%`; small values keep
/// three significant digits (`0.00214%`), tiny ones go scientific
/// (`1.00e-9%`); exact `0%` and `100%`. The value is first rounded to 15
/// significant digits ([`crate::weight::tidy`]), as JSON and CSV print it:
/// a float sum that misses 1 by an ulp is `100%` everywhere, never
/// `100.0000%`.
pub fn percent(p: f64) -> String {
    let p = crate::weight::tidy(p);
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
        Field::Prob(p) => prob_cell(p),
        Field::Value(v) => {
            if W::EXACT {
                format!("{:.4} ({})", v.to_f64(), short_exact(v))
            } else {
                format!("{:.4}", v.to_f64())
            }
        }
        Field::Root(v) => match crate::weight::exact_sqrt(v) {
            Some(root) => scalar_text(&Field::Value(root))?,
            // Irrational: the same shape as every exact value, the
            // decimal and the exact number (`3.4157 (√(35/3))`).
            None => format!("{:.4} (√({}))", v.to_f64().max(0.0).sqrt(), short_exact(v)),
        },
        Field::Int(n) => n.to_string(),
        Field::Bool(b) => b.to_string(),
        Field::Text(t) => t.clone(),
        _ => return None,
    })
}

fn prob_cell<W: Weight>(p: &W) -> String {
    if W::EXACT {
        format!("{} ({})", percent(p.to_f64()), short_exact(p))
    } else {
        percent(p.to_f64())
    }
}

fn params_line<W: Weight>(r: &Report<W>) -> String {
    r.params
        .iter()
        .filter(|(_, v)| !v.is_null())
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
            .map(|o| display_width(&o.en))
            .max()
            .unwrap_or(0)
            .max(7);
        let w_ja = r
            .outcomes
            .iter()
            .map(|o| display_width(&o.ja))
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
                pad(&o.en, w_en),
                pad(&o.ja, w_ja),
                lpad(c, w_p)
            );
        }
    }
    let mut scalars: Vec<(String, String)> = Vec::new();
    if r.has_success {
        scalars.push(("p_success".into(), prob_cell(&r.p_success)));
    }
    let mut blocks: Vec<(&str, &Field<W>)> = Vec::new();
    for (name, f) in &r.fields {
        match scalar_text(f) {
            Some(t) => scalars.push((name.clone(), t)),
            None => blocks.push((name, f)),
        }
    }
    // A report of blocks alone (a sweep's table) starts at its first
    // block's own blank line.
    if !r.outcomes.is_empty() || !scalars.is_empty() {
        let _ = writeln!(out);
    }
    let w_name = scalars.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let w_value = scalars
        .iter()
        .map(|(_, t)| display_width(t))
        .max()
        .unwrap_or(0);
    for (n, t) in &scalars {
        let _ = writeln!(out, "  {}  {}", pad(n, w_name), lpad(t, w_value));
    }
    for (name, f) in blocks {
        let _ = writeln!(out);
        match block_ja(name) {
            Some(ja) => {
                let _ = writeln!(out, "  {name} ({ja}):");
            }
            None => {
                let _ = writeln!(out, "  {name}:");
            }
        }
        write_block(&mut out, name, f, "    ");
    }
    for n in &r.notes {
        let _ = writeln!(out, "\n  note: {n}");
    }
    out
}

fn write_block<W: Weight>(out: &mut String, name: &str, f: &Field<W>, indent: &str) {
    match f {
        Field::Probs(ps) => {
            let cells: Vec<String> = ps.iter().map(prob_cell).collect();
            let w = cells.iter().map(|c| display_width(c)).max().unwrap_or(0);
            for (k, c) in cells.iter().enumerate() {
                let _ = writeln!(out, "{indent}{:>3}  {}", list_label(name, k), lpad(c, w));
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
                        write_block(out, k, v, &format!("{indent}  "));
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
        format!("{}", crate::weight::tidy(p.to_f64()))
    }
}

fn csv<W: Weight>(r: &Report<W>) -> String {
    let mut records: Vec<[String; 5]> =
        vec![["section", "name", "label_en", "label_ja", "value"].map(String::from)];
    let mut row = |section: &str, name: &str, en: &str, ja: &str, value: String| {
        records.push([section.into(), name.into(), en.into(), ja.into(), value]);
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
            // A parameter that is not set: an empty cell, not `null`.
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        };
        row("param", k, "", "", text);
    }
    for o in &r.outcomes {
        row("outcome", &o.key, &o.en, &o.ja, csv_value(&o.p));
    }
    if r.has_success {
        row(
            "field",
            "p_success",
            "success or better",
            "成功以上",
            csv_value(&r.p_success),
        );
    }
    fn flatten<W: Weight>(prefix: &str, f: &Field<W>, rows: &mut Vec<(String, String)>) {
        match f {
            Field::Prob(p) | Field::Value(p) => rows.push((prefix.into(), csv_value(p))),
            Field::Root(_) => rows.push((
                prefix.into(),
                match crate::report::field_json(f) {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                },
            )),
            Field::Probs(ps) => {
                let texts = crate::report::map_probs(ps, csv_value);
                for (i, t) in texts.into_iter().enumerate() {
                    rows.push((format!("{prefix}[{i}]"), t));
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
                let parts = crate::report::map_items(items, |(k, v)| {
                    let mut part = Vec::new();
                    flatten(&format!("{prefix}.{k}"), v, &mut part);
                    part
                });
                rows.extend(parts.into_iter().flatten());
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
    String::from_utf8(csv_bytes(records)).unwrap_or_default()
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
    if r.has_success {
        let _ = writeln!(out, "| p_success | {} |", prob_cell(&r.p_success));
    }
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
        match block_ja(name) {
            Some(ja) => {
                let _ = writeln!(out, "\n**{name}** ({ja})\n");
            }
            None => {
                let _ = writeln!(out, "\n**{name}**\n");
            }
        }
        match f {
            Field::Probs(ps) => {
                let _ = writeln!(out, "| k | probability |\n|---:|---:|");
                for (k, p) in ps.iter().enumerate() {
                    let _ = writeln!(out, "| {} | {} |", list_label(name, k), prob_cell(p));
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
