//! Tests of `src/chart.rs` (`hantei::chart`).

use hantei::Error;

use hantei::chart::*;

fn lines(ja: bool) -> Chart {
    let x: Vec<f64> = (2..=20).map(f64::from).collect();
    let p = |m: i32| -> Vec<Option<f64>> {
        (2..=20)
            .map(|dc| Some((((21 + m - dc) as f64) / 20.0).clamp(0.05, 0.95)))
            .collect()
    };
    let mut gap = p(7);
    gap[5] = None;
    gap[6] = None;
    let (t, xl, yl, a, b, c) = if ja {
        (
            "d20判定の成功率（修正値別）",
            "目標値 (DC)",
            "成功率 (%)",
            "修正値 +0",
            "修正値 +3",
            "修正値 +7（一部欠損）",
        )
    } else {
        (
            "d20 check: chance of success by modifier",
            "Difficulty class (DC)",
            "Chance of success (%)",
            "modifier +0",
            "modifier +3",
            "modifier +7 (with gap)",
        )
    };
    Chart {
        legend_title: None,
        title: t.into(),
        x_label: xl.into(),
        y_label: yl.into(),
        body: ChartBody::Lines {
            x,
            series: vec![(a.into(), p(0)), (b.into(), p(3)), (c.into(), gap)],
            y_percent: true,
        },
    }
}

fn bars(ja: bool) -> Chart {
    let cats: Vec<String> = if ja {
        ["なし", "有利", "不利", "幸運", "集中"]
    } else {
        ["none", "advantage", "disadvantage", "lucky", "focus"]
    }
    .iter()
    .map(|s| s.to_string())
    .collect();
    Chart {
        legend_title: None,
        title: if ja {
            "条件別の成功率と決定的成功率"
        } else {
            "Success and critical chance by condition"
        }
        .into(),
        x_label: if ja { "条件" } else { "Condition" }.into(),
        y_label: if ja { "確率 (%)" } else { "Probability (%)" }.into(),
        body: ChartBody::Bars {
            categories: cats,
            series: vec![
                (
                    if ja { "成功" } else { "success" }.into(),
                    vec![0.55, 0.7975, 0.3025, 0.6, 0.65],
                ),
                (
                    if ja { "クリティカル" } else { "critical" }.into(),
                    vec![0.05, 0.0975, 0.0025, 0.06, 0.05],
                ),
            ],
            y_percent: true,
        },
    }
}

fn heatmap(ja: bool, n: usize) -> Chart {
    let x: Vec<String> = (1..=n).map(|d| format!("{}", d * 2)).collect();
    let y: Vec<String> = (1..=n.min(12))
        .map(|k| {
            if ja {
                format!("{k}個")
            } else {
                format!("{k} dice")
            }
        })
        .collect();
    let values: Vec<Vec<Option<f64>>> = (0..y.len())
        .map(|r| {
            (0..n)
                .map(|c| {
                    if r == 0 && c == n - 1 {
                        None
                    } else {
                        let p = 1.0 - (c as f64 / n as f64).powf(1.0 + r as f64 * 0.5).min(1.0);
                        Some(1.0 - p * (0.3 + r as f64 * 0.05))
                    }
                })
                .collect()
        })
        .collect();
    Chart {
        legend_title: None,
        title: if ja {
            "ダイス数と難易度ごとの成功率"
        } else {
            "Chance of success by dice and difficulty"
        }
        .into(),
        x_label: if ja { "難易度" } else { "Difficulty" }.into(),
        y_label: if ja { "ダイス数" } else { "Dice kept" }.into(),
        body: ChartBody::Heatmap {
            x,
            y,
            values,
            value_label: if ja {
                "成功率 (%)"
            } else {
                "Chance of success (%)"
            }
            .into(),
            percent: true,
        },
    }
}

fn stacked(ja: bool) -> Chart {
    let tiers: Vec<String> = if ja {
        vec!["致命的失敗", "失敗", "成功", "効果的成功", "決定的成功"]
    } else {
        vec!["fumble", "failure", "success", "hard success", "critical"]
    }
    .into_iter()
    .map(String::from)
    .collect();
    let cats: Vec<String> = [30, 45, 60, 75, 90]
        .iter()
        .map(|s| {
            if ja {
                format!("技能 {s}")
            } else {
                format!("skill {s}")
            }
        })
        .collect();
    let values = [30.0, 45.0, 60.0, 75.0, 90.0]
        .iter()
        .map(|s: &f64| {
            let crit = (s / 5.0).floor() / 100.0;
            let hard = (s / 2.0).floor() / 100.0 - crit;
            let succ = s / 100.0 - hard - crit;
            let fumble = 0.01 + if *s < 50.0 { 0.04 } else { 0.0 };
            vec![fumble, 1.0 - s / 100.0 - fumble, succ, hard, crit]
        })
        .collect();
    Chart {
        legend_title: None,
        title: if ja {
            "技能値ごとの判定結果の内訳"
        } else {
            "Outcome of a check by skill"
        }
        .into(),
        x_label: if ja { "技能値" } else { "Skill" }.into(),
        y_label: if ja { "確率 (%)" } else { "Probability (%)" }.into(),
        body: ChartBody::Stacked {
            categories: cats,
            tiers,
            values,
        },
    }
}

fn samples() -> Vec<(&'static str, Chart)> {
    vec![
        ("lines_en", lines(false)),
        ("lines_ja", lines(true)),
        ("bars_en", bars(false)),
        ("bars_ja", bars(true)),
        ("heatmap_en", heatmap(false, 10)),
        ("heatmap_ja", heatmap(true, 10)),
        ("heatmap_big", heatmap(true, 30)),
        ("stacked_en", stacked(false)),
        ("stacked_ja", stacked(true)),
        ("crowded_bars", crowded_bars()),
        ("crowded_stacked", crowded_stacked()),
        ("plain_lines", plain_lines()),
        ("many_series", many_series()),
        ("panels_en", panels(false)),
        ("panels_ja", panels(true)),
    ]
}

/// Issue 30: a long legend entry wraps between words (or characters)
/// onto at most three lines, every character kept, none wider than the
/// column; only beyond three lines is the rest cut.
#[test]
fn long_legend_entries_wrap_instead_of_being_cut() {
    let long = "Cortex Prime d12 d10 d8 d6 against a difficulty of eleven";
    let lines = wrap_text(long, LEGEND_PX, LEGEND_MAX_TEXT).unwrap();
    assert!(lines.len() > 1, "{lines:?}");
    assert_eq!(lines.join(" "), long);
    for l in &lines {
        assert!(measure(l, LEGEND_PX).unwrap().0 <= LEGEND_MAX_TEXT, "{l}");
    }
    let ja = "コルテックス・プライムのダイス・プールと難易度十一に対する判定の結果";
    let lines = wrap_text(ja, LEGEND_PX, LEGEND_MAX_TEXT).unwrap();
    assert!(lines.len() > 1, "{lines:?}");
    assert_eq!(lines.concat(), ja);
    assert_eq!(
        wrap_text("short", LEGEND_PX, LEGEND_MAX_TEXT).unwrap(),
        vec!["short".to_string()]
    );
    // The legend column is as wide as its title needs.
    let narrow = legend_width(&["a"], None).unwrap();
    let titled = legend_width(&["a"], Some("a legend title, rather long")).unwrap();
    assert!(titled > narrow);
}

/// 18 series (colours and markers cycle; the legend tightens).
fn many_series() -> Chart {
    let x: Vec<f64> = (1..=12).map(f64::from).collect();
    let series = (0..18)
        .map(|k| {
            let ys = x
                .iter()
                .map(|v| Some((v * (k as f64 + 1.0) / 150.0).min(1.0)))
                .collect();
            (format!("プール {k}"), ys)
        })
        .collect();
    Chart {
        legend_title: None,
        title: "多数の系列".into(),
        x_label: "x".into(),
        y_label: "確率 (%)".into(),
        body: ChartBody::Lines {
            x,
            series,
            y_percent: true,
        },
    }
}

/// Small multiples: five ladders of their own steps (one of 26 steps,
/// thinned), a panel with a gap, one with no data.
fn panels(ja: bool) -> Chart {
    let ladder = |title: &str, label: &str, steps: Vec<i64>, lines: usize| {
        let n = steps.len();
        Panel {
            title: title.into(),
            x_label: label.into(),
            categories: steps.iter().map(i64::to_string).collect(),
            lines: (0..lines)
                .map(|k| {
                    let ys = (0..n)
                        .map(|i| {
                            let p = 1.0 - (i as f64 + 1.0) / (n as f64 + 1.0);
                            Some((p + k as f64 * 0.1).min(1.0))
                        })
                        .collect();
                    (k, ys)
                })
                .collect(),
        }
    };
    let mut gap = ladder("ギャップ", "段階", (1..=6).collect(), 2);
    gap.lines[0].1[2] = None;
    let empty = Panel {
        lines: Vec::new(),
        ..ladder("空", "段階", (1..=3).collect(), 0)
    };
    Chart {
        legend_title: Some(
            if ja {
                "キャラクター"
            } else {
                "character"
            }
            .into(),
        ),
        title: if ja {
            "難易度の段階"
        } else {
            "Difficulty ladders"
        }
        .into(),
        x_label: "each panel: its own steps".into(),
        y_label: if ja {
            "成功率 (%)"
        } else {
            "P(success) (%)"
        }
        .into(),
        body: ChartBody::Panels {
            panels: vec![
                ladder("d20", "DC", (5..=30).collect(), 4),
                ladder(
                    "Chronicles of Darkness with 10-again and a very long name",
                    "successes needed",
                    (1..=5).collect(),
                    4,
                ),
                ladder("multiplier", "成功倍率", (-5..=10).rev().collect(), 3),
                gap,
                empty,
            ],
            series: ["novice", "trained", "expert", "master"]
                .map(String::from)
                .to_vec(),
            y_percent: true,
        },
    }
}

/// Panels: every panel's title whole; a crowded ladder's labels thinned
/// to a regular step that keeps both of its ends (5 … 30 every 5),
/// every step of the others labelled.
#[test]
fn panels_label_each_ladder_with_its_own_steps() {
    let chart = panels(false);
    let l = panels_layout(&chart).unwrap();
    let ChartBody::Panels { panels, .. } = &chart.body else {
        unreachable!()
    };
    assert_eq!(l.titles[1].join(" "), panels[1].title);
    assert!(l.titles[1].len() > 1, "{:?}", l.titles[1]);
    let shown = |i: usize| -> Vec<String> {
        l.ticks[i]
            .texts
            .iter()
            .enumerate()
            .filter(|(k, _)| k % l.ticks[i].step == 0)
            .map(|(_, t)| t.clone())
            .collect()
    };
    assert_eq!(shown(0), ["5", "10", "15", "20", "25", "30"]);
    assert_eq!(shown(1), ["1", "2", "3", "4", "5"]);
    let svg = String::from_utf8(svg(&chart).unwrap()).unwrap();
    for t in ["d20", "DC", "successes needed", "character", "master"] {
        assert!(svg.contains(&format!(">{t}</text>")), "{t}");
    }
}

/// 24 long Japanese categories: labels must turn or thin, not overlap.
fn crowded_bars() -> Chart {
    let categories: Vec<String> = (1..=24)
        .map(|i| format!("対抗判定 レベル{i}（攻撃側）"))
        .collect();
    let a: Vec<f64> = (1..=24).map(|i| f64::from(i) / 25.0).collect();
    let b: Vec<f64> = a.iter().map(|v| v * v).collect();
    let c: Vec<f64> = a.iter().map(|v| 1.0 - v).collect();
    Chart {
        legend_title: None,
        title: "レベル別の勝率（多数のカテゴリ）".into(),
        x_label: "攻撃側のレベル".into(),
        y_label: "勝率 (%)".into(),
        body: ChartBody::Bars {
            categories,
            series: vec![
                ("勝ち".into(), a),
                ("引き分け".into(), b),
                ("負け".into(), c),
            ],
            y_percent: true,
        },
    }
}

/// 40 numeric categories and two tiers.
fn crowded_stacked() -> Chart {
    let categories: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    let values = (1..=40)
        .map(|i| {
            let p = f64::from(i) / 41.0;
            vec![1.0 - p, p]
        })
        .collect();
    Chart {
        legend_title: None,
        title: "Pool size vs. glitch".into(),
        x_label: "Pool (dice)".into(),
        y_label: "Probability (%)".into(),
        body: ChartBody::Stacked {
            categories,
            tiers: vec!["グリッチ".into(), "no glitch".into()],
            values,
        },
    }
}

/// Non-percent y, 120 points, fractional x.
fn plain_lines() -> Chart {
    let x: Vec<f64> = (0..120).map(|i| f64::from(i) * 0.25).collect();
    let s1 = x.iter().map(|v| Some(1.5 + v * 0.3)).collect();
    let s2 = x
        .iter()
        .map(|v| Some(2.0 + (v * 0.5).sin() * 3.0))
        .collect();
    Chart {
        legend_title: None,
        title: "Expected hits by pool size".into(),
        x_label: "Pool (dice)".into(),
        y_label: "Expected hits".into(),
        body: ChartBody::Lines {
            x,
            series: vec![("expected".into(), s1), ("wobble".into(), s2)],
            y_percent: false,
        },
    }
}

/// PNG signature and the IHDR width and height.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let decoder = png::Decoder::new(bytes);
    let reader = decoder.read_info().expect("decodable PNG");
    assert_eq!((reader.info().width, reader.info().height), (w, h));
    (w, h)
}

#[test]
fn svg_text_carries_its_glyphs() {
    // Issue 13: a Japanese SVG showed boxes in a browser without a CJK
    // font. Every text is drawn as glyph outlines; the text itself stays
    // (transparent) for search. Each visible character has at least one
    // contour in its path.
    for (name, chart) in samples() {
        let s = String::from_utf8(svg(&chart).unwrap()).unwrap();
        let doc = roxmltree::Document::parse(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let texts: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .collect();
        assert!(!texts.is_empty(), "{name}");
        for t in texts {
            let content = t.text().unwrap_or("");
            assert_eq!(
                t.attribute("fill-opacity"),
                Some("0"),
                "{name}: '{content}' visible as text"
            );
            let g = t.parent().expect("in a group");
            let path = g
                .children()
                .find(|n| n.has_tag_name("path"))
                .unwrap_or_else(|| panic!("{name}: no outline for '{content}'"));
            let contours = path.attribute("d").unwrap_or("").matches('M').count();
            let visible = content.chars().filter(|c| !c.is_whitespace()).count();
            assert!(
                contours >= visible,
                "{name}: '{content}': {contours} contours for {visible} glyphs"
            );
        }
    }
}

#[test]
fn every_kind_renders_png_and_svg() {
    for (name, chart) in samples() {
        let p = png(&chart).unwrap();
        let (w, h) = png_size(&p);
        assert!(
            (800..=1600).contains(&w) && (400..=1200).contains(&h),
            "{name}: {w}x{h}"
        );
        let s = String::from_utf8(svg(&chart).unwrap()).unwrap();
        assert!(s.starts_with("<svg"), "{name}");
        assert!(s.contains(&chart.title), "{name}: title as text");
        assert!(s.contains("IPAexGothic"), "{name}: font family");
        if name.ends_with("_ja") || name.ends_with("big") {
            assert!(s.contains(&chart.x_label), "{name}: Japanese label as text");
        }
    }
}

#[test]
fn rendering_is_deterministic() {
    for (name, chart) in samples() {
        assert_eq!(png(&chart).unwrap(), png(&chart).unwrap(), "{name} png");
        assert_eq!(svg(&chart).unwrap(), svg(&chart).unwrap(), "{name} svg");
    }
}

fn degenerate() -> Vec<Chart> {
    let c = |body| Chart {
        legend_title: None,
        title: "空のグラフ".into(),
        x_label: String::new(),
        y_label: String::new(),
        body,
    };
    vec![
        c(ChartBody::Lines {
            x: vec![],
            series: vec![],
            y_percent: true,
        }),
        c(ChartBody::Lines {
            x: vec![3.0],
            series: vec![("one".into(), vec![Some(0.5)])],
            y_percent: true,
        }),
        c(ChartBody::Lines {
            x: vec![1.0, 2.0, f64::NAN],
            series: vec![("none".into(), vec![None, None, Some(f64::INFINITY)])],
            y_percent: false,
        }),
        c(ChartBody::Lines {
            x: vec![1.0, 2.0],
            series: vec![("flat".into(), vec![Some(7.0), Some(7.0)])],
            y_percent: false,
        }),
        c(ChartBody::Bars {
            categories: vec![],
            series: vec![],
            y_percent: false,
        }),
        c(ChartBody::Bars {
            categories: vec!["a".into()],
            series: vec![("s".into(), vec![-2.5])],
            y_percent: false,
        }),
        c(ChartBody::Heatmap {
            x: vec![],
            y: vec![],
            values: vec![],
            value_label: String::new(),
            percent: true,
        }),
        c(ChartBody::Heatmap {
            x: vec!["a".into(), "b".into()],
            y: vec!["r".into()],
            values: vec![vec![None, None]],
            value_label: "v".into(),
            percent: false,
        }),
        c(ChartBody::Heatmap {
            x: vec!["a".into()],
            y: vec!["r".into()],
            values: vec![vec![Some(3.0)]],
            value_label: "v".into(),
            percent: false,
        }),
        c(ChartBody::Stacked {
            categories: vec![],
            tiers: vec![],
            values: vec![],
        }),
        c(ChartBody::Stacked {
            categories: vec!["x".into()],
            tiers: vec!["失敗".into(), "成功".into()],
            values: vec![vec![0.0, 0.0]],
        }),
    ]
}

#[test]
fn degenerate_inputs_render() {
    for chart in degenerate() {
        let p = png(&chart).unwrap_or_else(|e| panic!("{:?}: {e}", chart.body));
        png_size(&p);
        let s = String::from_utf8(svg(&chart).unwrap()).unwrap();
        assert!(s.contains("空のグラフ"));
    }
}

#[test]
fn bad_shapes_are_clear_errors() {
    let c = |body| Chart {
        legend_title: None,
        title: "t".into(),
        x_label: String::new(),
        y_label: String::new(),
        body,
    };
    let bad = [
        c(ChartBody::Lines {
            x: vec![1.0, 2.0],
            series: vec![("s".into(), vec![Some(1.0)])],
            y_percent: false,
        }),
        c(ChartBody::Bars {
            categories: vec!["a".into()],
            series: vec![("s".into(), vec![f64::NAN])],
            y_percent: false,
        }),
        c(ChartBody::Heatmap {
            x: vec!["a".into()],
            y: vec!["r".into(), "q".into()],
            values: vec![vec![Some(1.0)]],
            value_label: String::new(),
            percent: false,
        }),
        c(ChartBody::Heatmap {
            x: vec!["a".into()],
            y: vec!["r".into()],
            values: vec![vec![Some(1.0), None]],
            value_label: String::new(),
            percent: false,
        }),
        c(ChartBody::Stacked {
            categories: vec!["a".into()],
            tiers: vec!["x".into()],
            values: vec![vec![-0.5]],
        }),
        c(ChartBody::Panels {
            panels: vec![Panel {
                title: "p".into(),
                x_label: String::new(),
                categories: vec!["a".into(), "b".into()],
                lines: vec![(0, vec![Some(0.5)])],
            }],
            series: vec!["s".into()],
            y_percent: true,
        }),
        c(ChartBody::Panels {
            panels: vec![Panel {
                title: "p".into(),
                x_label: String::new(),
                categories: vec!["a".into()],
                lines: vec![(1, vec![Some(0.5)])],
            }],
            series: vec!["s".into()],
            y_percent: true,
        }),
    ];
    for chart in bad {
        for r in [png(&chart), svg(&chart)] {
            match r {
                Err(Error::Conflict(msg)) => assert!(msg.starts_with("chart \"t\": "), "{msg}"),
                other => panic!("{:?}: {other:?}", chart.body),
            }
        }
    }
}

#[test]
fn percent_labels_never_round_to_certainty() {
    assert_eq!(fmt_pct(0.0004, 1), "<0.1%");
    assert_eq!(fmt_pct(0.9996, 1), ">99.9%");
    assert_eq!(fmt_pct(0.996, 0), ">99%");
    assert_eq!(fmt_pct(0.0, 1), "0.0%");
    assert_eq!(fmt_pct(1.0, 0), "100%");
    assert_eq!(fmt_pct(0.25, 0), "25%");
    assert_eq!(fmt_pct_tick(0.25), "25%");
    assert_eq!(fmt_num(2.50, 3), "2.5");
}

/// Set HANTEI_CHART_SAMPLES=DIR to write the sample charts there.
#[test]
fn write_samples_when_asked() {
    let Ok(dir) = std::env::var("HANTEI_CHART_SAMPLES") else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    for (name, chart) in samples() {
        std::fs::write(format!("{dir}/{name}.png"), png(&chart).unwrap()).unwrap();
        std::fs::write(format!("{dir}/{name}.svg"), svg(&chart).unwrap()).unwrap();
    }
}
