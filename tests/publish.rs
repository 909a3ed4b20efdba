//! `hantei publish`: the static odds site. Its numbers are the CSV `hantei
//! run` writes, its verdicts `hantei check`'s, it refers to nothing outside
//! itself, its Japanese needs no installed font, bad input writes nothing,
//! and in Chromium from `file://` a person can go from the index to a page,
//! switch EN/JA and read an at-least value that is the published number.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use ab_glyph::{Font as _, FontRef};
use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::common::chromium::{binaries, screenshots_dir, session, Driver};
use crate::common::{hantei, repo, Scratch};

const ANALYSES: [&str; 3] = [
    "analyses/ja-cthulhu7th.toml",
    "analyses/d20-success.toml",
    "analyses/ladders.toml",
];

/// `hantei SUB FILES --out dir` (`publish`: the site; `run`: the CSV
/// files a designer commits); panics unless it succeeds.
fn hantei_out(sub: &str, files: &[&str], dir: &Path) {
    let out = hantei()
        .current_dir(repo(""))
        .arg(sub)
        .args(files)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap_or_else(|e| panic!("run hantei {sub}: {e}"));
    assert!(
        out.status.success(),
        "{sub} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn publish(files: &[&str], dir: &Path) {
    hantei_out("publish", files, dir);
}

fn run(files: &[&str], dir: &Path) {
    hantei_out("run", files, dir);
}

/// A CSV as (header, rows).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')?;
    Some(&tag[at..at + end])
}

/// Every element `<name …>…</name>` of `html`: (opening tag, inner text).
fn elements<'a>(html: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let open = format!("<{name} ");
    let close = format!("</{name}>");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let from = &rest[i..];
        let Some(gt) = from.find('>') else { break };
        let Some(end) = from.find(&close) else { break };
        out.push((&from[..=gt], &from[gt + 1..end]));
        rest = &from[end..];
    }
    out
}

/// A shown number back as a fraction: "55.0%" → 0.55 (within half a unit
/// of its last digit), "<0.1%" → (0, 0.0005).
fn shown_range(text: &str) -> (f64, f64) {
    match text {
        "0%" => (0.0, 0.0),
        "100%" => (1.0, 1.0),
        "<0.1%" => (1e-300, 0.0005),
        ">99.9%" => (0.9995, 1.0 - 1e-300),
        t if t.ends_with('%') => {
            let v: f64 = t.trim_end_matches('%').parse().unwrap();
            ((v - 0.05) / 100.0 - 1e-12, (v + 0.05) / 100.0 + 1e-12)
        }
        t => {
            let v: f64 = t.parse().unwrap_or_else(|_| panic!("not a number: {t:?}"));
            (v - 0.0005 - 1e-12, v + 0.0005 + 1e-12)
        }
    }
}

/// Standard base64 decoding (no line breaks).
fn unbase64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(val(c)) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// The text a page shows: its markup without tags, the style and the
/// script (which hold no visible text but the at-least heading's words).
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut skip = false;
    let mut rest = html;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("<style") || rest.starts_with("<svg") {
            skip = true;
        }
        if rest.starts_with("</style>") || rest.starts_with("</svg>") {
            skip = false;
        }
        if c == '<' {
            depth += 1;
        } else if c == '>' {
            depth -= 1;
        } else if depth == 0 && !skip {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[test]
fn the_site_publishes_the_runs_numbers_and_the_checks_verdicts() {
    let s = Scratch::new("publish-site");
    let site = s.join("site");
    publish(&ANALYSES, &site);
    let out = s.join("out");
    run(&ANALYSES, &out);

    // The index links every page, and every page is there.
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let links: BTreeSet<String> = elements(&index, "a")
        .iter()
        .filter_map(|(tag, _)| attr(tag, "href"))
        .filter(|h| h.ends_with(".html"))
        .map(String::from)
        .collect();
    let want: BTreeSet<String> = ["ja-cthulhu7th", "d20-success", "ladders"]
        .iter()
        .map(|n| format!("{n}.html"))
        .collect();
    assert_eq!(links, want);

    for name in ["ja-cthulhu7th", "d20-success", "ladders"] {
        let html = std::fs::read_to_string(site.join(format!("{name}.html"))).unwrap();
        // The CSV beside the page is the run's, byte for byte.
        assert_eq!(
            std::fs::read(site.join(format!("{name}.csv"))).unwrap(),
            std::fs::read(out.join(format!("{name}.csv"))).unwrap(),
            "{name}.csv"
        );
        let (header, rows) = read_csv(&out.join(format!("{name}.csv")));
        // The number columns: every cell a fixed-10-decimals number.
        let fixed = |x: &str| {
            let x = x.strip_prefix('-').unwrap_or(x);
            x.split_once('.').is_some_and(|(i, f)| {
                !i.is_empty()
                    && i.bytes().all(|b| b.is_ascii_digit())
                    && f.len() == 10
                    && f.bytes().all(|b| b.is_ascii_digit())
            })
        };
        let value_cols: Vec<usize> = (0..header.len())
            .filter(|&i| {
                rows.iter().all(|r| r[i].is_empty() || fixed(&r[i]))
                    && rows.iter().any(|r| fixed(&r[i]))
            })
            .collect();
        assert!(!value_cols.is_empty());
        let mut seen: BTreeSet<(usize, String)> = BTreeSet::new();
        for (tag, text) in elements(&html, "td") {
            let Some(v) = attr(tag, "data-v") else {
                continue;
            };
            if tag.contains("class=\"num cum\"") {
                continue;
            }
            let row: usize = attr(tag, "data-row").unwrap().parse().unwrap();
            let col = attr(tag, "data-col").unwrap();
            let ci = header
                .iter()
                .position(|h| h == col)
                .unwrap_or_else(|| panic!("{col}"));
            let csv = &rows[row - 1][ci];
            assert_eq!(v, csv, "{name}: row {row} {col}");
            if !csv.is_empty() {
                let x: f64 = csv.parse().unwrap();
                let text = text.replace("&lt;", "<").replace("&gt;", ">");
                let (lo, hi) = shown_range(&text);
                assert!(
                    lo <= x && x <= hi,
                    "{name}: row {row} {col}: shows {text} for {csv}"
                );
            }
            seen.insert((row, col.to_string()));
        }
        // Every number of the CSV is in the page.
        for (r, _) in rows.iter().enumerate() {
            for &c in &value_cols {
                assert!(
                    seen.contains(&(r + 1, header[c].clone())),
                    "{name}: CSV row {} {} is not in the page",
                    r + 1,
                    header[c]
                );
            }
        }
        assert!(seen.len() >= rows.len(), "{name}: {} cells", seen.len());
    }

    // The checks and their verdicts are hantei check's.
    for name in ["ja-cthulhu7th", "d20-success"] {
        let html = std::fs::read_to_string(site.join(format!("{name}.html"))).unwrap();
        let out = hantei()
            .current_dir(repo(""))
            .args([
                "check",
                &format!("analyses/{name}.toml"),
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let checks = json["checks"].as_array().unwrap();
        assert!(!checks.is_empty());
        let rows: BTreeMap<String, String> = elements(&html, "tr")
            .into_iter()
            .filter_map(|(tag, inner)| {
                let class = attr(tag, "class")?.to_string();
                let code = inner.split("<code>").nth(1)?.split("</code>").next()?;
                Some((code.to_string(), class))
            })
            .collect();
        assert_eq!(rows.len(), checks.len(), "{name}: one row per check");
        for c in checks {
            let n = c["name"].as_str().unwrap();
            let want = if c["pass"].as_bool().unwrap() {
                "pass"
            } else {
                "fail"
            };
            assert_eq!(rows.get(n).map(String::as_str), Some(want), "{name}: {n}");
            assert!(html.contains(&format!("{}</span>", c["verdict"].as_str().unwrap())));
        }
    }
}

#[test]
fn the_site_refers_to_nothing_outside_itself_and_carries_its_japanese_glyphs() {
    let s = Scratch::new("publish-offline");
    let site = s.join("site");
    publish(&ANALYSES, &site);
    let files: Vec<String> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.iter().all(|f| !f.starts_with('.')), "{files:?}");
    for f in files.iter().filter(|f| f.ends_with(".html")) {
        let html = std::fs::read_to_string(site.join(f)).unwrap();
        for bad in [
            "http://", "https://", "://", "@import", "<link", "<img", "<iframe",
        ] {
            assert!(!html.contains(bad), "{f} contains {bad}");
        }
        // Every reference is a file of the site or a fragment.
        for key in ["href=\"", "src=\"", "action=\""] {
            for piece in html.split(key).skip(1) {
                let target = piece.split('"').next().unwrap();
                let file = target.split(['?', '#']).next().unwrap();
                assert!(
                    target.starts_with('#') || files.iter().any(|x| x == file),
                    "{f}: {key}{target} is not a file of the site"
                );
            }
        }
        for piece in html.split("url(").skip(1) {
            assert!(
                piece.starts_with("data:"),
                "{f}: url({})",
                &piece[..20.min(piece.len())]
            );
        }
        assert!(!html.contains("<script src"), "{f}");

        // Charts: glyph outlines; any <text> is a transparent copy for
        // search, so no text needs a font to be seen.
        let svgs: Vec<&str> = html.split("<svg ").skip(1).collect();
        for svg in &svgs {
            let svg = svg.split("</svg>").next().unwrap();
            for (tag, _) in elements(svg, "text") {
                assert!(
                    tag.contains("fill-opacity=\"0\""),
                    "{f}: visible SVG text {tag}"
                );
            }
            assert!(
                svg.contains("<path fill="),
                "{f}: a chart without glyph paths"
            );
        }
        if f != "index.html" {
            assert!(svgs.len() >= 2, "{f}: its charts in EN and JA");
        }

        // The page's Japanese: every character has a glyph in the font the
        // page embeds (a data: URL), so no installed font is needed.
        let b64 = html
            .split("url(data:font/ttf;base64,")
            .nth(1)
            .and_then(|x| x.split(')').next())
            .unwrap_or_else(|| panic!("{f}: no embedded font"));
        let ttf = unbase64(b64);
        let font = FontRef::try_from_slice(&ttf).expect("the embedded font parses");
        let text = visible_text(&html);
        let japanese: BTreeSet<char> = text
            .chars()
            .filter(|&c| matches!(u32::from(c), 0x3040..=0x30FF | 0x4E00..=0x9FFF))
            .collect();
        assert!(
            japanese.len() > 10,
            "{f}: {} Japanese characters",
            japanese.len()
        );
        for c in &japanese {
            let g = font.glyph_id(*c);
            assert_ne!(g.0, 0, "{f}: no glyph for {c}");
            assert!(font.outline(g).is_some(), "{f}: empty glyph for {c}");
        }
        // And it is a subset: far smaller than the 6 MB font.
        assert!(ttf.len() < 400_000, "{f}: {} bytes of font", ttf.len());
    }
}

#[test]
fn bad_input_writes_nothing_and_a_republish_replaces_the_site() {
    let s = Scratch::new("publish-bad");
    let fail = |args: &[&str]| {
        let out = hantei().current_dir(repo("")).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        err
    };
    let site = s.join("site");
    let site_s = site.to_string_lossy().into_owned();
    // A file that does not exist.
    let e = fail(&["publish", "analyses/nope.toml", "--out", &site_s]);
    assert!(e.contains("nope.toml"), "{e}");
    assert!(!site.exists());
    // A broken analysis among good ones.
    let broken = s.join("broken.toml");
    std::fs::write(
        &broken,
        "title = \"x\"\nsystem = \"no-such-system\"\nmetrics = [\"p_success\"]\n",
    )
    .unwrap();
    let e = fail(&[
        "publish",
        ANALYSES[0],
        &broken.to_string_lossy(),
        "--out",
        &site_s,
    ]);
    assert!(e.contains("no-such-system"), "{e}");
    assert!(!site.exists());
    // A directory with someone else's files is not replaced.
    let other = s.join("notes");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("mine.txt"), "keep me").unwrap();
    let e = fail(&["publish", ANALYSES[0], "--out", &other.to_string_lossy()]);
    assert!(e.contains("--out"), "{e}");
    assert_eq!(
        std::fs::read_to_string(other.join("mine.txt")).unwrap(),
        "keep me"
    );
    // A file is not a directory.
    let e = fail(&[
        "publish",
        ANALYSES[0],
        "--out",
        &other.join("mine.txt").to_string_lossy(),
    ]);
    assert!(e.contains("mine.txt"), "{e}");

    // A publish, then another with fewer analyses: the site is replaced as
    // a whole (no stale page), with no temporary directory left beside it.
    publish(&ANALYSES[..2], &site);
    assert!(site.join("d20-success.html").exists());
    publish(&ANALYSES[..1], &site);
    assert!(site.join("ja-cthulhu7th.html").exists());
    assert!(!site.join("d20-success.html").exists());
    let beside: Vec<String> = std::fs::read_dir(&s.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
    // A failing republish leaves the earlier site as it was.
    let before = std::fs::read(site.join("index.html")).unwrap();
    fail(&["publish", &broken.to_string_lossy(), "--out", &site_s]);
    assert_eq!(std::fs::read(site.join("index.html")).unwrap(), before);
}

#[test]
fn publish_is_in_the_help() {
    let out = hantei().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("publish"), "{text}");
    let out = hantei().args(["publish", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("--out <DIR>") && text.contains("file://") || text.contains("from disk"),
        "{text}"
    );
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect(script)
}

/// Poll `script` until it returns something `pred` accepts (15 s at most).
async fn wait_js(c: &Client, script: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let v = js(c, script).await;
        if pred(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "{script}: still {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Choose `value` in the select `css`, as a person would.
async fn pick(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
}

async fn shot(c: &Client, name: &str) {
    let _ = c
        .execute("return document.fonts.ready.then(() => true)", vec![])
        .await;
    let png = c.screenshot().await.expect("screenshot");
    let path = screenshots_dir().join(name);
    std::fs::write(&path, png).expect("write screenshot");
    eprintln!("publish: saved {}", path.display());
}

#[test]
fn the_site_works_from_file_urls_in_chromium() {
    let Some((chromium, driver)) = binaries("publish browser test") else {
        return;
    };
    let s = Scratch::new("publish-browser");
    let site = s.join("site");
    publish(&[ANALYSES[0], ANALYSES[1], "analyses/hit-pool.toml"], &site);
    let out = s.join("out");
    run(&[ANALYSES[0], "analyses/hit-pool.toml"], &out);
    // CC<=50, no bonus dice: the CSV's P(regular success or better) and
    // P(failure or fumble). The rule (01–50 of 100) says 1/2 for both.
    let (header, rows) = read_csv(&out.join("ja-cthulhu7th.csv"));
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let row = rows
        .iter()
        .position(|r| r[col("bonus")] == "0" && r[col("skill")] == "50")
        .unwrap();
    let p_success: f64 = rows[row][col("p_success")].parse().unwrap();
    assert_eq!(p_success, 0.5);
    let p_fail: f64 = rows[row][col("outcomes.failure")].parse::<f64>().unwrap()
        + rows[row][col("outcomes.fumble")].parse::<f64>().unwrap();
    // Four dice, a hit on 5–6 (1/3): the CSV's P(hits ≥ 2) and P(hits ≥ 3).
    let (header, rows) = read_csv(&out.join("hit-pool.csv"));
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let row = rows
        .iter()
        .position(|r| r[col("rule")] == "half-or-more" && r[col("pool")] == "4")
        .unwrap();
    let ge2: f64 = rows[row][col("hits>=2")].parse().unwrap();
    let ge3: f64 = rows[row][col("hits>=3")].parse().unwrap();
    let hits = (ge2, ge3);

    let driver = Driver::start(&driver);
    let profile =
        std::env::temp_dir().join(format!("hantei-publish-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let index = format!("file://{}", site.join("index.html").display());
    runtime.block_on(async {
        let c = session(&driver, &chromium, &profile, (1280, 900)).await;
        let task = tokio::spawn({
            let c = c.clone();
            async move { steps(&c, &index, p_success, p_fail, hits).await }
        });
        let result = task.await;
        let _ = c.close().await;
        if let Err(e) = result {
            std::panic::resume_unwind(e.into_panic());
        }
    });
    let _ = std::fs::remove_dir_all(&profile);
}

async fn steps(c: &Client, index: &str, p_success: f64, p_fail: f64, (ge2, ge3): (f64, f64)) {
    c.goto(index).await.expect("open the index from file://");
    shot(c, "publish-index.png").await;
    // From the index to the CoC7 page, as a person would: click its link.
    c.find(Locator::Css("a.page-link[href^='ja-cthulhu7th.html']"))
        .await
        .expect("the CoC7 link")
        .click()
        .await
        .expect("click");
    wait_js(c, "return location.pathname", |v| {
        v.as_str()
            .is_some_and(|p| p.ends_with("/ja-cthulhu7th.html"))
    })
    .await;
    assert!(c
        .current_url()
        .await
        .unwrap()
        .as_str()
        .starts_with("file://"));

    // The embedded font is used: loaded, with the page's Japanese in it.
    wait_js(
        c,
        "return document.fonts.ready.then(() => [...document.fonts].some(f => f.family.includes('hantei-ja') && f.status === 'loaded'))",
        |v| v == &Value::Bool(true),
    )
    .await;

    // EN / JA: the title follows the switch.
    let h1 = "return document.querySelector('h1').innerText";
    c.find(Locator::Css("[data-set-lang='en']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let en = wait_js(c, h1, |v| {
        v.as_str()
            .is_some_and(|t| t.starts_with("新クトゥルフ神話TRPG") && t.contains("Call of Cthulhu"))
    })
    .await;
    c.find(Locator::Css("[data-set-lang='ja']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let ja = wait_js(c, h1, |v| {
        v.as_str().is_some_and(|t| !t.contains("Call of Cthulhu"))
    })
    .await;
    assert_eq!(
        ja,
        "新クトゥルフ神話TRPG: 技能値とボーナス・ペナルティダイスごとの成功度"
    );
    assert_ne!(en, ja);
    assert_eq!(js(c, "return document.documentElement.lang").await, "ja");

    // Filter to bonus 0, skill 50, and ask for "at least a regular success".
    pick(c, "select.filter[data-axis='0']", "2").await; // bonus −2, −1, 0
    pick(c, "select.filter[data-axis='1']", "9").await; // skill 5, 10, …, 50
    pick(c, "#cum-mode", "ge").await;
    let regular = js(
        c,
        "return [...document.querySelectorAll('#cum-tier option')].find(o => o.dataset.en === 'regular success').value",
    )
    .await;
    pick(c, "#cum-tier", regular.as_str().unwrap()).await;
    let shown = wait_js(
        c,
        "return [...document.querySelectorAll('table.data tbody tr')].filter(r => !r.hidden).map(r => [r.dataset.c, r.querySelector('td.cum').innerText, r.querySelector('td.cum').dataset.v])",
        |v| v.as_array().is_some_and(|a| a.len() == 1),
    )
    .await;
    assert_eq!(shown[0][0], "2,9");
    assert_eq!(shown[0][1], "50.0%");
    let v: f64 = shown[0][2].as_str().unwrap().parse().unwrap();
    assert!(
        (v - p_success).abs() < 1e-9,
        "at least regular success {v} vs {p_success}"
    );
    let head = js(c, "return document.querySelector('.cum-head').innerText").await;
    assert_eq!(head, "レギュラー成功 以上の確率");
    shot(c, "publish-coc7-ja.png").await;

    // At most a failure: fumble + failure from the same published numbers.
    pick(c, "#cum-mode", "le").await;
    let failure = js(
        c,
        "return [...document.querySelectorAll('#cum-tier option')].find(o => o.dataset.en === 'failure').value",
    )
    .await;
    pick(c, "#cum-tier", failure.as_str().unwrap()).await;
    c.find(Locator::Css("[data-set-lang='en']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let head = wait_js(
        c,
        "return document.querySelector('.cum-head').innerText",
        |v| v.as_str().is_some_and(|t| t.starts_with("P(at most")),
    )
    .await;
    assert_eq!(head, "P(at most failure)");
    let v: f64 = js(
        c,
        "return document.querySelector('tr[data-c=\"2,9\"] td.cum').dataset.v",
    )
    .await
    .as_str()
    .unwrap()
    .parse()
    .unwrap();
    assert!((v - p_fail).abs() < 1e-9, "at most failure {v} vs {p_fail}");
    assert!((v - 0.5).abs() < 1e-9);
    js(c, "document.querySelector('#table').scrollIntoView()").await;
    shot(c, "publish-coc7-en-table.png").await;

    // The language carries to the next page through the link home.
    c.find(Locator::Css("a.home"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_js(c, "return location.pathname + location.search", |v| {
        v.as_str()
            .is_some_and(|p| p.ends_with("/index.html?lang=en"))
    })
    .await;
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&index.replace("index.html", "ja-cthulhu7th.html?lang=ja"))
        .await
        .unwrap();
    assert_eq!(js(c, "return document.documentElement.lang").await, "ja");
    let wide = js(
        c,
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await;
    assert_eq!(wide, Value::Bool(true), "the page fits a phone's width");
    shot(c, "publish-coc7-phone.png").await;

    // A count: hit-pool's P(hits ≥ k) columns give exactly / at most k.
    c.set_window_size(1280, 900).await.unwrap();
    c.goto(&index.replace("index.html", "hit-pool.html?lang=en"))
        .await
        .unwrap();
    pick(c, "select.filter[data-axis='0']", "0").await; // half-or-more
    pick(c, "select.filter[data-axis='1']", "3").await; // pool 1, 2, 3, 4
    let cum = "return document.querySelector('tr[data-c=\"0,3\"] td.cum').dataset.v";
    // The default: at least 1 hit, 1 − (2/3)⁴ = 65/81.
    let v: f64 = js(c, cum).await.as_str().unwrap().parse().unwrap();
    assert!((v - 65.0 / 81.0).abs() < 1e-9, "at least 1 hit: {v}");
    pick(c, "#cum-mode", "eq").await;
    pick(c, "#cum-tier", "2").await;
    let v: f64 = js(c, cum).await.as_str().unwrap().parse().unwrap();
    // Exactly two hits of four: C(4,2) (1/3)² (2/3)² = 24/81.
    assert!((v - 24.0 / 81.0).abs() < 1e-9, "exactly 2 hits: {v}");
    assert!(
        (v - (ge2 - ge3)).abs() < 1e-9,
        "exactly 2 hits from the CSV: {v}"
    );
    pick(c, "#cum-mode", "le").await;
    pick(c, "#cum-tier", "1").await;
    let v: f64 = js(c, cum).await.as_str().unwrap().parse().unwrap();
    assert!((v - 48.0 / 81.0).abs() < 1e-9, "at most 1 hit: {v}");
    assert!((v - (1.0 - ge2)).abs() < 1e-9);
    assert_eq!(
        js(c, "return document.querySelector('.cum-head').innerText").await,
        "P(at most 1 hits)"
    );
    // Past the published columns (6 hits) at most / exactly are unknown.
    pick(c, "#cum-tier", "6").await;
    assert_eq!(
        js(
            c,
            "return document.querySelector('tr[data-c=\"0,3\"] td.cum').innerText"
        )
        .await,
        "–"
    );
    shot(c, "publish-hit-pool.png").await;
}
