//! The cross-system difficulty comparison (`kind = "ladders"`).
//!
//! Each system's difficulty ladder (DC, 難易度, threshold, 成功倍率,
//! required level …) is mapped to P(success) for named reference characters
//! defined per system in the file. From those numbers come:
//!
//! * the ladders themselves (character × step);
//! * equivalence: for target odds (90 %, 75 %, 50 %, 25 %, 10 %), the step
//!   of each ladder that comes nearest, and for each step of the first
//!   ladder, the nearest step of every other ladder;
//! * granularity: how many distinct odds a ladder offers, and the value of
//!   one step (mean and largest change of P(success) between neighbours,
//!   over the steps that are not already certain);
//! * spread (how swingy): the number of steps in the uncertain band
//!   10 % < P < 90 %, and the mean of `4·P·(1 − P)` along the ladder (1: a
//!   coin flip at every step; 0: every step is certain).
//!
//! The character used for equivalence, spread and the chart is the one
//! named `trained` when every ladder has it, else the first character.

use std::fmt::Write as _;

use super::output::{csv_bytes, csv_number, human, md_header, render_charts, OutFile};
use super::spec::{LadderSpec, Lang};
use super::Analysis;
use crate::chart::{Chart, ChartBody, Panel};
use crate::error::Result;

/// P(success) along one ladder for each character.
#[derive(Clone, Debug)]
pub struct LadderOdds {
    /// The ladder.
    pub spec: LadderSpec,
    /// `p[character][step]`.
    pub p: Vec<Vec<f64>>,
}

/// Target odds of the equivalence table.
pub const TARGETS: [f64; 5] = [0.9, 0.75, 0.5, 0.25, 0.1];

/// Compute every ladder.
pub fn compute(a: &Analysis) -> Result<Vec<LadderOdds>> {
    a.spec
        .ladder
        .iter()
        .map(|l| {
            let p = l
                .character
                .iter()
                .map(|ch| {
                    l.values
                        .iter()
                        .map(|&v| {
                            let mut params = l.params.clone();
                            for (k, x) in &ch.params {
                                params.insert(k.clone(), x.clone());
                            }
                            params.insert(l.param.clone(), toml::Value::Integer(v));
                            // A ladder reads p_success alone: a dice check
                            // that can report its tiers alone computes
                            // their law alone.
                            let report = super::request(&l.system, &params)
                                .map(|mut r| {
                                    if let crate::request::Request::Dice(p) = &mut r {
                                        p.outcomes_only |= p.reads_outcomes_alone();
                                    }
                                    r
                                })
                                .and_then(|r| r.report::<f64>().map_err(|e| e.to_string()))
                                .map_err(|msg| {
                                    a.error(
                                        &l.param,
                                        Some(&format!("\"{}\"", ch.name)),
                                        format!(
                                            "{} ladder, character {}, step {v}: {msg}",
                                            l.system, ch.name
                                        ),
                                    )
                                })?;
                            Ok(report.p_success)
                        })
                        .collect::<Result<Vec<f64>>>()
                })
                .collect::<Result<_>>()?;
            Ok(LadderOdds { spec: l.clone(), p })
        })
        .collect()
}

/// Index of the reference character in each ladder.
pub fn reference(ladders: &[LadderOdds]) -> Vec<usize> {
    let all_have_trained = ladders
        .iter()
        .all(|l| l.spec.character.iter().any(|c| c.name == "trained"));
    ladders
        .iter()
        .map(|l| {
            if all_have_trained {
                l.spec
                    .character
                    .iter()
                    .position(|c| c.name == "trained")
                    .unwrap_or(0)
            } else {
                0
            }
        })
        .collect()
}

/// The step whose odds are nearest `target` (first one on ties).
pub fn nearest(p: &[f64], target: f64) -> usize {
    let mut best = 0;
    for (i, x) in p.iter().enumerate() {
        if (x - target).abs() < (p[best] - target).abs() - 1e-12 {
            best = i;
        }
    }
    best
}

/// Granularity of one ladder row: distinct odds, mean and largest change
/// per step over steps not already certain at both ends.
pub fn granularity(p: &[f64]) -> (usize, f64, f64) {
    let mut distinct: Vec<f64> = Vec::new();
    for &x in p {
        if !distinct.iter().any(|d| (d - x).abs() < 1e-12) {
            distinct.push(x);
        }
    }
    let steps: Vec<f64> = p
        .windows(2)
        .filter(|w| !(is_certain(w[0]) && is_certain(w[1]) && (w[0] - w[1]).abs() < 1e-12))
        .map(|w| (w[1] - w[0]).abs())
        .collect();
    let mean = if steps.is_empty() {
        0.0
    } else {
        steps.iter().sum::<f64>() / steps.len() as f64
    };
    let max = steps.iter().cloned().fold(0.0, f64::max);
    (distinct.len(), mean, max)
}

fn is_certain(x: f64) -> bool {
    x <= 1e-12 || x >= 1.0 - 1e-12
}

/// Spread of one ladder row: steps with 10 % < P < 90 %, and the mean of
/// `4·P·(1 − P)`.
pub fn spread(p: &[f64]) -> (usize, f64) {
    let band = p.iter().filter(|&&x| x > 0.1 && x < 0.9).count();
    let swing = p.iter().map(|x| 4.0 * x * (1.0 - x)).sum::<f64>() / p.len().max(1) as f64;
    (band, swing)
}

/// The key columns of `NAME.csv` (then one value column, `p_success`).
pub const CSV_KEYS: [&str; 4] = ["system", "ladder", "step", "character"];

/// `NAME.csv` alone (what `hantei diff` compares), the same bytes as in
/// [`files`].
pub fn csv(a: &Analysis) -> Result<Vec<u8>> {
    Ok(csv_of(&compute(a)?))
}

/// `NAME.csv`: long format, one row per ladder step and character.
pub fn csv_of(ladders: &[LadderOdds]) -> Vec<u8> {
    let mut header: Vec<String> = CSV_KEYS.map(String::from).to_vec();
    header.push("p_success".into());
    let mut rows: Vec<Vec<String>> = vec![header];
    for l in ladders {
        for (c, row) in l.p.iter().enumerate() {
            for (v, p) in l.spec.values.iter().zip(row) {
                rows.push(vec![
                    l.spec.system.clone(),
                    l.spec.param.clone(),
                    v.to_string(),
                    l.spec.character[c].name.clone(),
                    csv_number(Some(*p)),
                ]);
            }
        }
    }
    csv_bytes(rows)
}

/// All files of a ladders analysis.
pub fn files(a: &Analysis) -> Result<Vec<OutFile>> {
    let ladders = compute(a)?;
    let refs = reference(&ladders);
    let lang = a.lang();
    let name = a.name();
    let ladder_name = |l: &LadderOdds| ladder_name(l, lang);
    let char_name = |l: &LadderOdds, c: usize| char_name(l, c, lang);

    let csv = csv_of(&ladders);

    // Markdown.
    let mut md = md_header(a);
    let (h_ladders, h_equiv, h_step, h_gran, h_spread) = match lang {
        super::spec::Lang::Ja => (
            "難易度の段階ごとの成功率",
            "同じ成功率になる難易度",
            "基準の段階に対応する難易度",
            "段階の細かさと1段階の重み",
            "振れ幅 (どれだけ運任せか)",
        ),
        super::spec::Lang::En => (
            "Success by ladder step",
            "Equivalent difficulties for target odds",
            "Equivalents of each step of the first ladder",
            "Granularity and the value of one step",
            "Spread (how swingy)",
        ),
    };
    let _ = writeln!(md, "## {h_ladders}\n");
    for l in &ladders {
        let _ = writeln!(md, "### {}\n", ladder_name(l));
        let _ = write!(md, "| | ");
        let _ = writeln!(
            md,
            "{} |",
            l.spec
                .values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" | ")
        );
        let _ = writeln!(md, "|---|{}", "---:|".repeat(l.spec.values.len()));
        for (c, row) in l.p.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|p| human(Some(*p), true)).collect();
            let _ = writeln!(md, "| {} | {} |", char_name(l, c), cells.join(" | "));
        }
        md.push('\n');
    }
    let refname = char_name(&ladders[0], refs[0]);
    let _ = writeln!(md, "## {h_equiv} ({refname})\n");
    let _ = writeln!(
        md,
        "| P(success) | {} |",
        ladders
            .iter()
            .map(ladder_name)
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(md, "|---:|{}", "---:|".repeat(ladders.len()));
    for t in TARGETS {
        let cells: Vec<String> = ladders
            .iter()
            .zip(&refs)
            .map(|(l, &c)| {
                let i = nearest(&l.p[c], t);
                format!("{} ({})", l.spec.values[i], human(Some(l.p[c][i]), true))
            })
            .collect();
        let _ = writeln!(md, "| {} | {} |", human(Some(t), true), cells.join(" | "));
    }
    md.push('\n');
    let _ = writeln!(md, "## {h_step} ({refname})\n");
    let _ = writeln!(
        md,
        "| {} | {} |",
        ladder_name(&ladders[0]),
        ladders[1..]
            .iter()
            .map(ladder_name)
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(
        md,
        "|---:|{}",
        "---:|".repeat(ladders.len().saturating_sub(1))
    );
    for (i, v) in ladders[0].spec.values.iter().enumerate() {
        let p0 = ladders[0].p[refs[0]][i];
        let cells: Vec<String> = ladders[1..]
            .iter()
            .zip(&refs[1..])
            .map(|(l, &c)| {
                let j = nearest(&l.p[c], p0);
                format!("{} ({})", l.spec.values[j], human(Some(l.p[c][j]), true))
            })
            .collect();
        let _ = writeln!(
            md,
            "| {v} ({}) | {} |",
            human(Some(p0), true),
            cells.join(" | ")
        );
    }
    md.push('\n');
    let _ = writeln!(md, "## {h_gran}\n");
    let _ = writeln!(
        md,
        "| ladder | character | steps | distinct odds | mean Δ per step | largest Δ |"
    );
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|");
    for l in &ladders {
        for (c, row) in l.p.iter().enumerate() {
            let (distinct, mean, max) = granularity(row);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} |",
                ladder_name(l),
                char_name(l, c),
                row.len(),
                distinct,
                human(Some(mean), true),
                human(Some(max), true)
            );
        }
    }
    md.push('\n');
    let _ = writeln!(md, "## {h_spread}\n");
    let _ = writeln!(
        md,
        "Steps with 10% < P(success) < 90%, and the mean of 4·P·(1−P) along the ladder \
         (1 = a coin flip at every step, 0 = every step certain).\n"
    );
    let _ = writeln!(md, "| ladder | character | uncertain steps | swing |");
    let _ = writeln!(md, "|---|---|---:|---:|");
    for l in &ladders {
        for (c, row) in l.p.iter().enumerate() {
            let (band, swing) = spread(row);
            let _ = writeln!(
                md,
                "| {} | {} | {band} of {} | {swing:.3} |",
                ladder_name(l),
                char_name(l, c),
                row.len()
            );
        }
    }

    let chart = chart(a, &ladders, lang);
    let mut out = vec![
        (format!("{name}.csv"), csv),
        (format!("{name}.md"), md.into_bytes()),
    ];
    out.extend(render_charts(a, vec![(name.clone(), chart)])?);
    Ok(out)
}

/// The name of a ladder in `lang`: what it is (or the system id) and what
/// its steps are, e.g. "d20 (DC)".
pub fn ladder_name(l: &LadderOdds, lang: Lang) -> String {
    let what = match &l.spec.name {
        Some(n) => lang.pick(n, l.spec.name_ja.as_deref()),
        None => &l.spec.system,
    };
    format!(
        "{what} ({})",
        lang.pick(&l.spec.label, l.spec.label_ja.as_deref())
    )
}

/// The name of character `c` of a ladder in `lang`.
pub fn char_name(l: &LadderOdds, c: usize, lang: Lang) -> String {
    let ch = &l.spec.character[c];
    lang.pick(&ch.name, ch.name_ja.as_deref()).to_string()
}

/// The chart of a ladders analysis, labelled in `lang`: one panel per
/// ladder, its own steps (easiest first) along its x axis, every panel
/// on the same P(success) axis, one line per character (the same colour
/// and marker for the same character in every panel).
pub fn chart(a: &Analysis, ladders: &[LadderOdds], lang: Lang) -> Chart {
    let title = lang
        .pick(&a.spec.title, a.spec.title_ja.as_deref())
        .to_string();
    // The characters, by name, in order of first appearance.
    let mut series: Vec<String> = Vec::new();
    let panels = ladders
        .iter()
        .map(|l| {
            let lines =
                l.p.iter()
                    .enumerate()
                    .map(|(c, row)| {
                        let name = char_name(l, c, lang);
                        let i = match series.iter().position(|s| *s == name) {
                            Some(i) => i,
                            None => {
                                series.push(name);
                                series.len() - 1
                            }
                        };
                        (i, row.iter().map(|&p| Some(p)).collect())
                    })
                    .collect();
            Panel {
                title: match &l.spec.name {
                    Some(n) => lang.pick(n, l.spec.name_ja.as_deref()),
                    None => &l.spec.system,
                }
                .to_string(),
                x_label: lang
                    .pick(&l.spec.label, l.spec.label_ja.as_deref())
                    .to_string(),
                categories: l.spec.values.iter().map(i64::to_string).collect(),
                lines,
            }
        })
        .collect();
    Chart {
        title,
        x_label: lang
            .pick(
                "each panel: one ladder, its own steps from easiest (left) to hardest (right)",
                Some("各パネル: 1つの尺度、その段階を易 (左) から難 (右) へ"),
            )
            .to_string(),
        legend_title: Some(lang.pick("character", Some("キャラクター")).to_string()),
        y_label: lang.pick("P(success) (%)", Some("成功率 (%)")).to_string(),
        body: ChartBody::Panels {
            panels,
            series,
            y_percent: true,
        },
    }
}
