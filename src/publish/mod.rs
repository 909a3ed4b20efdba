//! `hantei publish`: a static odds site from the analyses, to put beside a
//! rulebook (any static host, or opened from disk through `file://`).
//!
//! The site is `index.html`, one `NAME.html` per analysis, each analysis's
//! `NAME.csv` (the same bytes `hantei run` writes to `output/`) and the
//! licence of the embedded font. A page holds:
//!
//! * the analysis's table, one row per point, every number the CSV's
//!   (`data-v` holds the CSV text, the cell shows it as `hantei run`'s
//!   Markdown does), with a filter per axis;
//! * its charts as inline SVG, in English and in Japanese, drawn by
//!   [`crate::chart`] with the text as glyph outlines;
//! * its `[[check]]`s and their verdicts, as `hantei check` computes them;
//! * an *at least / at most / exactly* column over the outcome tiers, when
//!   the table's `outcomes.*` columns partition every point (they sum to 1):
//!   summed in the page (a small inline script) from the published numbers,
//!   tiers worst first as the report lists them — or over a count whose
//!   `X>=1`, `X>=2`, … columns the table has (`hits>=k`);
//! * an EN / 日本語 switch (remembered, and carried by the links).
//!
//! Nothing is loaded from elsewhere: the style and the script are inline,
//! and the page's Japanese text is set in a subset of IPAexGothic embedded
//! as a `data:` URL ([`font`]), so it renders where no Japanese font is
//! installed. Every number comes from the analysis runner
//! ([`crate::analysis`]): the same grid, CSV and checks as `hantei run` and
//! `hantei check`.

pub mod font;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::analysis::output::{csv as sweep_csv, csv_number, human};
use crate::analysis::spec::{Kind, Lang};
use crate::analysis::{self, check, ladders, Analysis, Grid};
use crate::chart::{self, Chart};
use crate::error::{Error, Result};

/// The mark `index.html` carries, by which a later publish knows it may
/// replace the directory.
pub const GENERATOR: &str = "<meta name=\"generator\" content=\"hantei publish\">";

const CSS: &str = include_str!("site.css");
const JS: &str = include_str!("site.js");
const FONT_LICENCE: &[u8] =
    include_bytes!("../../assets/fonts/IPA_Font_License_Agreement_v1.0.txt");
const FONT_LICENCE_FILE: &str = "IPA_Font_License_Agreement_v1.0.txt";

/// One file of the site: its name in the site directory and its bytes.
pub type SiteFile = (String, Vec<u8>);

/// What the index says about a page.
struct Entry {
    name: String,
    title: String,
    title_ja: Option<String>,
    kind: Kind,
    rows: usize,
    checks: Option<(usize, usize)>,
}

/// Text in the two languages, one shown at a time (the switch).
fn both(en: &str, ja: Option<&str>) -> String {
    match ja {
        Some(ja) if ja != en => format!(
            "<span class=\"only-en\" lang=\"en\">{}</span><span class=\"only-ja\" lang=\"ja\">{}</span>",
            esc(en),
            esc(ja)
        ),
        _ => esc(en),
    }
}

/// A term in both languages, both shown: the page's language first, the
/// other beside it, smaller.
fn term(en: &str, ja: Option<&str>) -> String {
    match ja {
        Some(ja) if ja != en => format!(
            "<span class=\"t\"><span class=\"t-en\" lang=\"en\">{}</span><span class=\"t-ja\" lang=\"ja\">{}</span></span>",
            esc(en),
            esc(ja)
        ),
        _ => esc(en),
    }
}

/// HTML text escaping.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text with its `code` spans, escaped.
fn inline(text: &str) -> String {
    let mut html = String::new();
    for (i, piece) in esc(text).split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(html, "<code>{piece}</code>");
        } else {
            html.push_str(piece);
        }
    }
    html
}

/// A description as HTML: paragraphs (blank lines separate them), lists
/// (lines starting `* ` or `- `), `code` spans kept.
#[doc(hidden)]
pub fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    for para in text.trim().split("\n\n") {
        // Lines, a list item running on over the lines after it.
        let mut lead: Vec<String> = Vec::new();
        let mut items: Vec<String> = Vec::new();
        for line in para.lines().map(str::trim) {
            if let Some(item) = line.strip_prefix("* ").or_else(|| line.strip_prefix("- ")) {
                items.push(item.to_string());
            } else if let Some(last) = items.last_mut() {
                last.push(' ');
                last.push_str(line);
            } else {
                lead.push(line.to_string());
            }
        }
        if !lead.is_empty() {
            let _ = writeln!(out, "<p>{}</p>", inline(&lead.join(" ")));
        }
        if !items.is_empty() {
            out.push_str("<ul>");
            for item in &items {
                let _ = write!(out, "<li>{}</li>", inline(item));
            }
            out.push_str("</ul>\n");
        }
    }
    out
}

/// A chart as inline SVG: the document without its XML namespace (no URL
/// in the page; HTML needs none) and scaled to the page's width.
fn inline_svg(chart: &Chart, label: &str) -> Result<String> {
    let bytes = chart::svg(chart)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let text = text.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    // `<svg width="W" height="H" viewBox=…>` → responsive.
    let text = match (text.find("<svg "), text.find("viewBox=")) {
        (Some(a), Some(b)) if a < b => format!(
            "{}<svg role=\"img\" aria-label=\"{}\" class=\"chart\" {}",
            &text[..a],
            esc(label),
            &text[b..]
        ),
        _ => text,
    };
    Ok(text)
}

/// The sweep's charts with their labels in `lang`.
fn sweep_charts(a: &Analysis, grid: &Grid, lang: Lang) -> Result<Vec<Chart>> {
    let mut a = a.clone();
    a.spec.labels = match lang {
        Lang::En => analysis::spec::Labels::En,
        Lang::Ja => analysis::spec::Labels::Ja,
    };
    let mut grid = grid.clone();
    for (m, spec) in grid.metrics.iter_mut().zip(&a.spec.metrics) {
        m.1 = spec.label(lang);
    }
    a.spec
        .chart
        .iter()
        .map(|c| analysis::output::build_chart(&a, &grid, c))
        .collect()
}

/// The charts section: each chart in English and in Japanese.
fn charts_html(pairs: &[(Chart, Chart)]) -> Result<String> {
    if pairs.is_empty() {
        return Ok(String::new());
    }
    let mut out = format!(
        "<section id=\"charts\"><h2>{}</h2>\n",
        both("Charts", Some("グラフ"))
    );
    for (i, (en, ja)) in pairs.iter().enumerate() {
        let _ = writeln!(
            out,
            "<figure id=\"chart-{}\"><div class=\"only-en\">{}</div><div class=\"only-ja\">{}</div></figure>",
            i + 1,
            inline_svg(en, &en.title)?,
            inline_svg(ja, &ja.title)?
        );
    }
    out.push_str("</section>\n");
    Ok(out)
}

/// The tier columns of a sweep, worst first, when the table's `outcomes.*`
/// columns are every tier of every point (they sum to 1 everywhere): their
/// metric indices, and the rank of the lowest success tier (the first
/// point's tiers from it up sum to its `p_success`), the view's default.
fn tier_columns(grid: &Grid) -> (Vec<usize>, usize) {
    let cols: Vec<(usize, &str)> = grid
        .metrics
        .iter()
        .enumerate()
        .filter_map(|(i, (m, _))| m.text().strip_prefix("outcomes.").map(|k| (i, k)))
        .filter(|(i, k)| !k.contains(['[', '*', '>', '<']) && grid.percent[*i])
        .collect();
    if cols.len() < 2 || grid.points.is_empty() {
        return (Vec::new(), 0);
    }
    let partition = grid.values.iter().all(|row| {
        let s: f64 = cols.iter().map(|(i, _)| row[*i].unwrap_or(f64::NAN)).sum();
        (s - 1.0).abs() < 1e-9
    });
    if !partition {
        return (Vec::new(), 0);
    }
    // The report's order of the tiers (worst first), from the first point.
    let p = &grid.points[0];
    let Ok(report) = analysis::request(&p.system, &grid.params(p))
        .and_then(|r| r.report::<f64>().map_err(|e| e.to_string()))
    else {
        return (Vec::new(), 0);
    };
    let mut ordered: Vec<(usize, usize)> = Vec::new();
    for (i, k) in &cols {
        match report.outcomes.iter().position(|o| o.key == *k) {
            Some(pos) => ordered.push((pos, *i)),
            None => return (Vec::new(), 0),
        }
    }
    ordered.sort_unstable();
    let cols: Vec<usize> = ordered.into_iter().map(|(_, i)| i).collect();
    let first = &grid.values[0];
    let lowest_success = (0..cols.len())
        .find(|&r| {
            let above: f64 = cols[r..].iter().filter_map(|&i| first[i]).sum();
            report.has_success && (above - report.p_success).abs() < 1e-9
        })
        .unwrap_or(0);
    (cols, lowest_success)
}

/// A count's "at least k" columns (`hits>=1`, `hits>=2`, … `hits>=K`,
/// K ≥ 2, consecutive from 1): the count's name and the metric of each k.
fn count_columns(grid: &Grid) -> Option<(String, Vec<usize>)> {
    let mut by_name: Vec<(String, Vec<(u32, usize)>)> = Vec::new();
    for (i, (m, _)) in grid.metrics.iter().enumerate() {
        let Some((name, k)) = m.text().split_once(">=") else {
            continue;
        };
        let (Ok(k), true) = (k.trim().parse::<u32>(), grid.percent[i]) else {
            continue;
        };
        if name.is_empty() || name.contains(['[', ']', '*', '<', '>']) {
            continue;
        }
        match by_name.iter_mut().find(|(n, _)| n == name) {
            Some((_, ks)) => ks.push((k, i)),
            None => by_name.push((name.to_string(), vec![(k, i)])),
        }
    }
    by_name
        .into_iter()
        .filter_map(|(name, mut ks)| {
            ks.sort_unstable();
            let run: Vec<usize> = ks
                .iter()
                .enumerate()
                .take_while(|(j, (k, _))| *k as usize == j + 1)
                .map(|(_, (_, i))| *i)
                .collect();
            (run.len() >= 2).then_some((name, run))
        })
        .max_by_key(|(_, run)| run.len())
}

/// A page's table of a sweep: one row per point, the CSV's numbers.
fn sweep_table(a: &Analysis, grid: &Grid) -> String {
    let (tiers, default_tier) = tier_columns(grid);
    let counts = if tiers.is_empty() {
        count_columns(grid)
    } else {
        None
    };
    // The cells the at-least column reads: `data-tier="rank"` (a tier's
    // own probability) or `data-ge="k"` (P(count ≥ k)).
    let ladder_attr = |m: usize| -> String {
        if let Some(r) = tiers.iter().position(|&t| t == m) {
            return format!(" data-tier=\"{r}\"");
        }
        match &counts {
            Some((_, cols)) => cols
                .iter()
                .position(|&c| c == m)
                .map(|j| format!(" data-ge=\"{}\"", j + 1))
                .unwrap_or_default(),
            None => String::new(),
        }
    };
    let has_ladder = !tiers.is_empty() || counts.is_some();
    let mut out = format!(
        "<section id=\"table\"><h2>{}</h2>\n",
        both("Table", Some("表"))
    );
    // Filters.
    out.push_str("<div class=\"controls\">");
    for (ai, ax) in grid.axes.iter().enumerate() {
        if ax.points.len() < 2 {
            continue;
        }
        let _ = write!(
            out,
            "<label>{} <select class=\"filter\" data-axis=\"{ai}\"><option value=\"\" data-en=\"all\" data-ja=\"すべて\">all</option>",
            term(&ax.label, ax.label_ja.as_deref())
        );
        for (pi, p) in ax.points.iter().enumerate() {
            let ja = p.label_ja.as_deref().unwrap_or(&p.label);
            let _ = write!(
                out,
                "<option value=\"{pi}\" data-en=\"{}\" data-ja=\"{}\">{}</option>",
                esc(&p.label),
                esc(ja),
                esc(&p.label)
            );
        }
        out.push_str("</select></label>");
    }
    if has_ladder {
        let _ = write!(
            out,
            "<label>{} <select id=\"cum-mode\"><option value=\"ge\" data-en=\"at least\" data-ja=\"以上\">at least</option><option value=\"le\" data-en=\"at most\" data-ja=\"以下\">at most</option><option value=\"eq\" data-en=\"exactly\" data-ja=\"ちょうど\">exactly</option></select></label>",
            both("Result", Some("結果"))
        );
        match &counts {
            Some((name, cols)) => {
                let _ = write!(
                    out,
                    "<label>{} <select id=\"cum-tier\" data-kind=\"count\" data-max=\"{}\">",
                    esc(name),
                    cols.len()
                );
                for k in 0..=cols.len() {
                    let _ = write!(
                        out,
                        "<option value=\"{k}\"{} data-en=\"{k} {n}\" data-ja=\"{n} {k}\">{k} {n}</option>",
                        if k == 1 { " selected" } else { "" },
                        n = esc(name)
                    );
                }
            }
            None => {
                let _ = write!(
                    out,
                    "<label>{} <select id=\"cum-tier\" data-kind=\"tier\">",
                    both("tier", Some("成功度"))
                );
            }
        }
        for (rank, &m) in tiers.iter().enumerate() {
            let spec = &a.spec.metrics[m];
            let en = spec.label(Lang::En);
            let ja = spec.label(Lang::Ja);
            let _ = write!(
                out,
                "<option value=\"{rank}\"{} data-en=\"{}\" data-ja=\"{}\">{}</option>",
                if rank == default_tier {
                    " selected"
                } else {
                    ""
                },
                esc(&en),
                esc(&ja),
                esc(&en)
            );
        }
        out.push_str("</select></label>");
    }
    out.push_str("</div>\n");
    if !has_ladder {
        let _ = writeln!(
            out,
            "<p class=\"note\">{}</p>",
            both(
                "At least / at most: this table has neither every outcome tier (outcomes.* columns summing to 1) nor a count's at-least columns (hits>=1, hits>=2, …).",
                Some("以上・以下: この表には成功度の全段階 (合計1になる outcomes.* の列) も、個数の「以上」の列 (hits>=1, hits>=2, …) もありません。")
            )
        );
    }
    out.push_str("<div class=\"scroll\"><table class=\"data\"><thead><tr>");
    for ax in &grid.axes {
        let _ = write!(
            out,
            "<th scope=\"col\">{}</th>",
            term(&ax.label, ax.label_ja.as_deref())
        );
    }
    // The at-least column first, beside the row's labels.
    if has_ladder {
        out.push_str("<th scope=\"col\" class=\"num cum-head\"></th>");
    }
    for (m, spec) in a.spec.metrics.iter().enumerate() {
        let en = spec.label(Lang::En);
        let ja = spec.label(Lang::Ja);
        let tier = ladder_attr(m);
        let _ = write!(
            out,
            "<th scope=\"col\" class=\"num\" title=\"{}\"{tier}>{}</th>",
            esc(spec.path()),
            term(&en, Some(&ja))
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let col_names: Vec<String> = grid
        .metrics
        .iter()
        .map(|(m, _)| m.text().to_string())
        .collect();
    for (row, (p, vals)) in grid.points.iter().zip(&grid.values).enumerate() {
        let coords: Vec<String> = p.coords.iter().map(usize::to_string).collect();
        let _ = write!(out, "<tr data-c=\"{}\">", coords.join(","));
        for (ax, &c) in grid.axes.iter().zip(&p.coords) {
            let ap = &ax.points[c];
            let _ = write!(
                out,
                "<th scope=\"row\">{}</th>",
                term(&ap.label, ap.label_ja.as_deref())
            );
        }
        if has_ladder {
            out.push_str("<td class=\"num cum\"></td>");
        }
        for (m, v) in vals.iter().enumerate() {
            let tier = ladder_attr(m);
            let _ = write!(
                out,
                "<td class=\"num\" data-row=\"{}\" data-col=\"{}\" data-v=\"{}\"{tier}>{}</td>",
                row + 1,
                esc(&col_names[m]),
                csv_number(*v),
                esc(&human(*v, grid.percent[m]))
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">{} <a href=\"{n}.csv\" download>{n}.csv</a></p>",
        both(
            "Every number as hantei run writes it:",
            Some("hantei run が書き出すままの数値:")
        ),
        n = esc(&a.name())
    );
    out.push_str("</section>\n");
    out
}

/// The checks section.
fn checks_html(results: &[check::CheckResult]) -> String {
    if results.is_empty() {
        return String::new();
    }
    let passed = results.iter().filter(|r| r.pass()).count();
    let mut out = format!(
        "<section id=\"checks\"><h2>{}</h2>\n<p class=\"summary\">{}</p>\n",
        both("Checks", Some("検証")),
        both(
            &format!(
                "{} checks: {passed} pass, {} fail",
                results.len(),
                results.len() - passed
            ),
            Some(&format!(
                "検証 {} 件: 合格 {passed}、不合格 {}",
                results.len(),
                results.len() - passed
            ))
        )
    );
    out.push_str("<div class=\"scroll\"><table class=\"checks\"><thead><tr>");
    for (en, ja) in [
        ("verdict", "判定"),
        ("check", "検証"),
        ("claim", "主張"),
        ("expected", "期待"),
        ("found", "結果"),
    ] {
        let _ = write!(out, "<th scope=\"col\">{}</th>", term(en, Some(ja)));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in results {
        let ja = match (r.pass(), r.known_false) {
            (true, false) => "合格",
            (true, true) => "反証済み (既知の誤り)",
            (false, false) => "不合格",
            (false, true) => "不合格 (主張が成立)",
        };
        let found = match &r.counterexample {
            Some(c) => format!(
                "{}<br><span class=\"ce\">{}: {}</span>",
                esc(&r.found),
                if r.holds { "example" } else { "counterexample" },
                esc(c)
            ),
            None => esc(&r.found),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td class=\"verdict\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{found}</td></tr>",
            if r.pass() { "pass" } else { "fail" },
            term(r.verdict(), Some(ja)),
            esc(&r.name),
            esc(&r.message),
            esc(&r.expected),
        );
    }
    out.push_str("</tbody></table></div></section>\n");
    out
}

/// A ladders analysis's tables: one per ladder, characters × steps.
fn ladder_tables(a: &Analysis, odds: &[ladders::LadderOdds]) -> String {
    let mut out = format!(
        "<section id=\"table\"><h2>{}</h2>\n",
        both("Success by ladder step", Some("難易度の段階ごとの成功率"))
    );
    let mut row = 0usize;
    for l in odds {
        let _ = writeln!(
            out,
            "<h3>{}</h3>",
            term(
                &ladders::ladder_name(l, Lang::En),
                Some(&ladders::ladder_name(l, Lang::Ja))
            )
        );
        out.push_str("<div class=\"scroll\"><table class=\"data\"><thead><tr><th></th>");
        for v in &l.spec.values {
            let _ = write!(out, "<th scope=\"col\" class=\"num\">{v}</th>");
        }
        out.push_str("</tr></thead><tbody>\n");
        for (c, ps) in l.p.iter().enumerate() {
            let _ = write!(
                out,
                "<tr><th scope=\"row\">{}</th>",
                term(
                    &ladders::char_name(l, c, Lang::En),
                    Some(&ladders::char_name(l, c, Lang::Ja))
                )
            );
            for p in ps {
                row += 1;
                let _ = write!(
                    out,
                    "<td class=\"num\" data-row=\"{row}\" data-col=\"p_success\" data-v=\"{}\">{}</td>",
                    csv_number(Some(*p)),
                    esc(&human(Some(*p), true))
                );
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div>\n");
    }
    let _ = writeln!(
        out,
        "<p class=\"note\">{} <a href=\"{n}.csv\" download>{n}.csv</a></p></section>",
        both(
            "Every number as hantei run writes it:",
            Some("hantei run が書き出すままの数値:")
        ),
        n = esc(&a.name())
    );
    out
}

/// The switch and the link home, at the top of every page.
fn top_bar(home: bool) -> String {
    let back = if home {
        String::new()
    } else {
        format!(
            "<a class=\"home\" href=\"index.html\">← {}</a>",
            both("All analyses", Some("分析の一覧"))
        )
    };
    format!(
        "<header class=\"bar\">{back}<span class=\"brand\">hantei 判定</span><span class=\"lang\" role=\"group\" aria-label=\"language 言語\"><button type=\"button\" data-set-lang=\"en\">EN</button><button type=\"button\" data-set-lang=\"ja\">日本語</button></span></header>\n"
    )
}

/// A whole HTML document: the style, the subset font, the script.
fn document(title: &str, lang: Lang, body: &str) -> Result<String> {
    let lang = match lang {
        Lang::En => "en",
        Lang::Ja => "ja",
    };
    let skeleton = format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\" data-default-lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n{GENERATOR}\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n@@FONT@@{CSS}</style>\n</head>\n<body>\n{body}<footer><p>{}</p></footer>\n<script>\n{JS}</script>\n</body>\n</html>\n",
        esc(title),
        both(
            "Exact odds computed by hantei (判定) from the analysis files; regenerate with hantei publish, don't edit. Japanese text is set in IPAexGothic (IPA Font License v1.0, ",
            Some("hantei (判定) が分析ファイルから計算した厳密な確率です。編集せず hantei publish で作り直してください。日本語は IPAexゴシック (IPA フォントライセンス v1.0、")
        ) + &format!("<a href=\"{FONT_LICENCE_FILE}\">{FONT_LICENCE_FILE}</a>).")
    );
    // The glyphs of every Japanese character the page shows.
    let mut chars: Vec<char> = skeleton.chars().filter(|&c| is_japanese(c)).collect();
    chars.sort_unstable();
    chars.dedup();
    let ttf = font::subset(chars.iter().copied())?;
    let face = format!(
        "@font-face {{ font-family: \"hantei-ja\"; src: url(data:font/ttf;base64,{}) format(\"truetype\"); unicode-range: {JA_RANGES}; }}\n",
        base64(&ttf)
    );
    Ok(skeleton.replacen("@@FONT@@", &face, 1))
}

/// The code points the subset font serves (`unicode-range`): CJK symbols
/// and punctuation, kana, CJK ideographs, full- and half-width forms.
const JA_RANGES: &str = "U+3000-30FF, U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+FF00-FFEF";

/// Whether `c` is in [`JA_RANGES`].
fn is_japanese(c: char) -> bool {
    matches!(u32::from(c), 0x3000..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Standard base64 (RFC 4648, padded).
pub fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// One analysis's page and CSV.
fn page(a: &Analysis) -> Result<(Entry, Vec<SiteFile>)> {
    let name = a.name();
    let mut body = top_bar(false);
    let _ = writeln!(
        body,
        "<main>\n<h1>{}</h1>",
        both(&a.spec.title, a.spec.title_ja.as_deref())
    );
    if let Some(d) = &a.spec.description {
        let _ = writeln!(body, "<div class=\"description\">{}</div>", paragraphs(d));
    }
    let source = a
        .path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (csv, rows, checks, sections) = match a.spec.kind {
        Kind::Sweep => {
            let grid = analysis::sweep(a)?;
            let en = sweep_charts(a, &grid, Lang::En)?;
            let ja = sweep_charts(a, &grid, Lang::Ja)?;
            let pairs: Vec<(Chart, Chart)> = en.into_iter().zip(ja).collect();
            let results = check::evaluate_all(a, &grid)?;
            let mut s = charts_html(&pairs)?;
            s.push_str(&sweep_table(a, &grid));
            s.push_str(&checks_html(&results));
            let passed = results.iter().filter(|r| r.pass()).count();
            (
                sweep_csv(&grid),
                grid.points.len(),
                (!results.is_empty()).then_some((passed, results.len())),
                s,
            )
        }
        Kind::Ladders => {
            let odds = ladders::compute(a)?;
            let pairs = vec![(
                ladders::chart(a, &odds, Lang::En),
                ladders::chart(a, &odds, Lang::Ja),
            )];
            let mut s = charts_html(&pairs)?;
            s.push_str(&ladder_tables(a, &odds));
            let rows = odds.iter().map(|l| l.p.len() * l.spec.values.len()).sum();
            (ladders::csv_of(&odds), rows, None, s)
        }
    };
    let _ = writeln!(
        body,
        "<p class=\"source\">{} <code>{}</code></p>",
        both("From the analysis file", Some("分析ファイル")),
        esc(&source)
    );
    body.push_str(&sections);
    body.push_str("</main>\n");
    let title = a.lang().pick(&a.spec.title, a.spec.title_ja.as_deref());
    let html = document(title, a.lang(), &body)?;
    Ok((
        Entry {
            name: name.clone(),
            title: a.spec.title.clone(),
            title_ja: a.spec.title_ja.clone(),
            kind: a.spec.kind,
            rows,
            checks,
        },
        vec![
            (format!("{name}.html"), html.into_bytes()),
            (format!("{name}.csv"), csv),
        ],
    ))
}

/// `index.html`: every page, with what it holds.
fn index(entries: &[Entry]) -> Result<String> {
    let mut body = top_bar(true);
    let _ = writeln!(
        body,
        "<main>\n<h1>{}</h1>\n<p>{}</p>",
        both("Odds of the rules", Some("ルールの確率")),
        both(
            "Exact odds of each analysis, with its tables, charts and checks.",
            Some("分析ごとの厳密な確率: 表、グラフ、検証。")
        )
    );
    body.push_str("<table class=\"index\"><thead><tr>");
    for (en, ja) in [
        ("analysis", "分析"),
        ("kind", "種類"),
        ("rows", "行数"),
        ("checks", "検証"),
    ] {
        let _ = write!(body, "<th scope=\"col\">{}</th>", term(en, Some(ja)));
    }
    body.push_str("</tr></thead><tbody>\n");
    for e in entries {
        let kind = match e.kind {
            Kind::Sweep => term("sweep", Some("掃引")),
            Kind::Ladders => term("ladders", Some("難易度の比較")),
        };
        let checks = match e.checks {
            Some((p, n)) if p == n => format!("<span class=\"pass\">{p}/{n} ✓</span>"),
            Some((p, n)) => format!("<span class=\"fail\">{p}/{n} ✗</span>"),
            None => "–".to_string(),
        };
        let _ = writeln!(
            body,
            "<tr><td><a class=\"page-link\" href=\"{n}.html\">{}</a><br><small><code>{n}</code></small></td><td>{kind}</td><td class=\"num\">{}</td><td class=\"num\">{checks}</td></tr>",
            both(&e.title, e.title_ja.as_deref()),
            e.rows,
            n = esc(&e.name)
        );
    }
    body.push_str("</tbody></table>\n</main>\n");
    document("hantei: odds of the rules (ルールの確率)", Lang::En, &body)
}

/// Every file of the site of the analysis files `files`, in memory.
pub fn build(files: &[PathBuf]) -> Result<Vec<SiteFile>> {
    let mut entries = Vec::new();
    let mut site: Vec<SiteFile> = Vec::new();
    for f in files {
        let a = analysis::load(f)?;
        let (entry, pages) = page(&a)?;
        for (n, bytes) in pages {
            if site.iter().any(|(m, _)| *m == n) {
                return Err(a.error(
                    "name",
                    None,
                    format!("{n} is also published by another analysis (give each its own `name`)"),
                ));
            }
            site.push((n, bytes));
        }
        entries.push(entry);
    }
    site.push(("index.html".into(), index(&entries)?.into_bytes()));
    site.push((FONT_LICENCE_FILE.into(), FONT_LICENCE.to_vec()));
    Ok(site)
}

/// Whether `dir` may be replaced: it does not exist, is empty, or is a
/// site an earlier `hantei publish` wrote.
pub fn check_out_dir(dir: &Path) -> Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    if !dir.is_dir() {
        return Err(Error::param(
            "--out",
            dir.display(),
            "is a file; give a directory for the site (new, empty, or an earlier hantei publish)",
        ));
    }
    let empty = std::fs::read_dir(dir)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false);
    let ours = std::fs::read_to_string(dir.join("index.html"))
        .map(|s| s.contains(GENERATOR))
        .unwrap_or(false);
    if empty || ours {
        Ok(())
    } else {
        Err(Error::param(
            "--out",
            dir.display(),
            "holds files hantei publish did not write (no index.html of an earlier publish); give a new or empty directory",
        ))
    }
}

/// Write the site into `dir` as a whole: built in a temporary directory
/// beside it, then renamed into place (an earlier site there is replaced).
/// On failure nothing at `dir` changes.
pub fn write(dir: &Path, files: &[SiteFile]) -> Result<()> {
    check_out_dir(dir)?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::param("--out", dir.display(), "give a directory name"))?;
    std::fs::create_dir_all(&parent)
        .map_err(|e| Error::Io(format!("cannot create {}: {e}", parent.display())))?;
    let pid = std::process::id();
    let tmp = parent.join(format!(".{base}.publish-{pid}"));
    let old = parent.join(format!(".{base}.old-{pid}"));
    let _ = std::fs::remove_dir_all(&tmp);
    let fail = |e: std::io::Error, what: &Path| {
        let _ = std::fs::remove_dir_all(&tmp);
        Error::Io(format!(
            "cannot write {}: {e} (nothing was written)",
            what.display()
        ))
    };
    std::fs::create_dir(&tmp).map_err(|e| fail(e, &tmp))?;
    for (name, bytes) in files {
        let p = tmp.join(name);
        std::fs::write(&p, bytes).map_err(|e| fail(e, &p))?;
    }
    if dir.exists() {
        std::fs::rename(dir, &old).map_err(|e| fail(e, dir))?;
        if let Err(e) = std::fs::rename(&tmp, dir) {
            let _ = std::fs::rename(&old, dir);
            return Err(fail(e, dir));
        }
        let _ = std::fs::remove_dir_all(&old);
    } else {
        std::fs::rename(&tmp, dir).map_err(|e| fail(e, dir))?;
    }
    Ok(())
}
