//! Rulebook-quality charts of hantei's odds, as PNG or SVG bytes.
//!
//! A [`Chart`] says *what* to show (title, axis labels, and a [`ChartBody`]:
//! lines, grouped bars, a heatmap or stacked tier bars); [`png()`] and [`svg()`]
//! draw it with [plotters](https://docs.rs/plotters).
//!
//! * **Fonts.** Text is set in IPAexGothic (IPAexゴシック, IPA Font License
//!   v1.0, `assets/fonts/`), embedded in the binary, so PNGs render Latin and
//!   Japanese text on a machine with no fonts installed. SVG text is drawn
//!   as the embedded font's glyph outlines (`<path>`), so it looks the same
//!   in a browser without a Japanese font, with the text itself kept as
//!   transparent `<text>` for search and selection. The font is registered with
//!   plotters (`ab_glyph` feature, no system font lookup), but PNG text is
//!   rasterised here with `ab_glyph` directly: plotters 0.3.7's `ab_glyph`
//!   text drops each glyph's left side bearing, which mis-spaces Japanese.
//! * **PNG** is drawn at 2× and averaged down (anti-aliased lines, markers
//!   and text), 1000 × 600 (heatmaps up to 1600 × 1200), 8-bit RGB.
//! * **Colours.** Series and tiers use the Okabe–Ito palette (safe for the
//!   common colour-vision deficiencies); line series also differ by marker
//!   shape. Heatmaps use viridis (perceptually uniform) with a colour bar,
//!   and print each value in its cell, in black or white for contrast, when
//!   the grid is at most 30 × 30 and the text fits.
//! * **Percent.** Probabilities are fractions in `0..=1`; percent axes run
//!   0%–100% and read "25%". A probability that is neither 0 nor 1 is never
//!   printed as "0%" or "100%" ("<1%", ">99%" instead).
//! * **Deterministic.** The same chart gives byte-identical output.
//!
//! Bad shapes (a series whose length differs from its axis, negative tier
//! probabilities, non-finite bar values) are [`Error::Conflict`]; empty
//! charts (no series, no categories, all values missing) render axes and
//! a "no data" note.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, Glyph, OutlineCurve, PxScale, ScaleFont};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::FontStyle;

use crate::{Error, Result};

/// What a chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Title, drawn centred above the chart.
    pub title: String,
    /// Horizontal axis label (with its unit, e.g. "目標値 (DC)").
    pub x_label: String,
    /// Vertical axis label (with its unit, e.g. "成功率 (%)").
    pub y_label: String,
    /// Title of the legend: what the series are (the series axis's name,
    /// e.g. "skill"); `None` for a legend without one.
    pub legend_title: Option<String>,
    /// The data and the kind of chart.
    pub body: ChartBody,
}

/// The data of a [`Chart`] and how it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum ChartBody {
    /// Numeric x; one line per series; `None` = missing point (gap).
    ///
    /// Every series has one value per `x`. With `y_percent` the values are
    /// probabilities (`0..=1`) on a 0%–100% axis.
    Lines {
        x: Vec<f64>,
        series: Vec<(String, Vec<Option<f64>>)>,
        y_percent: bool,
    },
    /// Grouped bars: one group per category, one bar per series.
    ///
    /// Every series has one value per category. With `y_percent` the values
    /// are probabilities (`0..=1`) on a 0%–100% axis.
    Bars {
        categories: Vec<String>,
        series: Vec<(String, Vec<f64>)>,
        y_percent: bool,
    },
    /// values\[row\]\[col\]: rows are y categories (first row at the TOP),
    /// cols are x categories; None = blank cell.
    ///
    /// With `percent` the values are probabilities (`0..=1`) on a fixed
    /// 0%–100% colour scale; otherwise the scale spans the data.
    /// `value_label` names the colour bar.
    Heatmap {
        x: Vec<String>,
        y: Vec<String>,
        values: Vec<Vec<Option<f64>>>,
        value_label: String,
        percent: bool,
    },
    /// One stacked bar per category; values\[category\]\[tier\], tiers listed
    /// worst first, stacked bottom-up; each bar sums to 1 (probabilities).
    Stacked {
        categories: Vec<String>,
        tiers: Vec<String>,
        values: Vec<Vec<f64>>,
    },
    /// Small multiples: one panel per [`Panel`], each with its own x
    /// categories (a difficulty ladder's own steps) under its own title,
    /// all on one shared y axis, with one legend of `series` names for
    /// every panel (series `i` has the same colour and marker in each).
    /// With `y_percent` the values are probabilities (`0..=1`) on a
    /// 0%–100% axis.
    Panels {
        panels: Vec<Panel>,
        series: Vec<String>,
        y_percent: bool,
    },
}

/// One panel of [`ChartBody::Panels`].
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Drawn above the panel (wrapped onto more lines, never cut).
    pub title: String,
    /// Drawn under the panel's tick labels: what its steps are (e.g. "DC").
    pub x_label: String,
    /// The panel's own x categories, left to right: its tick labels.
    pub categories: Vec<String>,
    /// The lines: (index into the body's `series`, one value per
    /// category; `None` = a gap).
    pub lines: Vec<(usize, Vec<Option<f64>>)>,
}

/// The `font-family` of every SVG text element. Its first entry is the font
/// embedded for PNG rendering.
pub const FONT_FAMILY: &str = "IPAexGothic, 'Noto Sans CJK JP', 'Hiragino Sans', sans-serif";

/// IPAexGothic 004.01 (IPA Font License v1.0, see `assets/fonts/`).
pub static FONT_TTF: &[u8] = include_bytes!("../assets/fonts/ipaexg.ttf");

/// Render `chart` as an SVG document (UTF-8 bytes). Text is drawn as the
/// outlines of the embedded font's glyphs (`<path>`), so the SVG looks the
/// same on a machine without a Japanese font, and is kept as transparent
/// `<text>` on top, so it can still be searched, selected and read aloud.
pub fn svg(chart: &Chart) -> Result<Vec<u8>> {
    ensure_font()?;
    validate(chart)?;
    let (w, h) = canvas_size(chart)?;
    let mut out = String::new();
    let text = RefCell::new(String::new());
    {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        render(
            &Painter {
                area: &root,
                raster: false,
                scale: 1,
                svg_text: Some(&text),
            },
            chart,
        )?;
        root.present().map_err(draw_err)?;
    }
    let at = out.rfind("</svg>").unwrap_or(out.len());
    out.insert_str(at, &text.into_inner());
    Ok(out.into_bytes())
}

/// A number for SVG path data: one decimal, no trailing `.0`.
fn num(x: f32) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// XML text escaping.
fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Append a glyph's outline to the SVG path `d`, each point placed by
/// `map` (the charts' text, the explorer's glyphs).
pub fn outline_path<T: std::fmt::Display>(
    d: &mut String,
    outline: &ab_glyph::Outline,
    map: impl Fn(ab_glyph::Point) -> (T, T),
) {
    let mut last: Option<ab_glyph::Point> = None;
    for c in &outline.curves {
        let (start, end) = match c {
            OutlineCurve::Line(p0, p1) => (*p0, *p1),
            OutlineCurve::Quad(p0, _, p2) => (*p0, *p2),
            OutlineCurve::Cubic(p0, _, _, p3) => (*p0, *p3),
        };
        if last != Some(start) {
            if last.is_some() {
                d.push('Z');
            }
            let (x, y) = map(start);
            let _ = write!(d, "M{x} {y}");
        }
        match c {
            OutlineCurve::Line(_, p1) => {
                let (x, y) = map(*p1);
                let _ = write!(d, "L{x} {y}");
            }
            OutlineCurve::Quad(_, p1, p2) => {
                let ((x1, y1), (x2, y2)) = (map(*p1), map(*p2));
                let _ = write!(d, "Q{x1} {y1} {x2} {y2}");
            }
            OutlineCurve::Cubic(_, p1, p2, p3) => {
                let ((x1, y1), (x2, y2), (x3, y3)) = (map(*p1), map(*p2), map(*p3));
                let _ = write!(d, "C{x1} {y1} {x2} {y2} {x3} {y3}");
            }
        }
        last = Some(end);
    }
    if last.is_some() {
        d.push('Z');
    }
}

/// SVG for `s`: its glyph outlines as one path, and the text itself
/// (transparent) for search. `(x, y)` is the anchor, `dx`/`dy` the offset
/// of the layout box from it, as for the PNG.
fn svg_text(s: &str, px: f64, color: RGBColor, a: &TextAt, dx: f32, dy: f32) -> Result<String> {
    let face = face()?;
    let sf = face.as_scaled(PxScale::from(px as f32));
    let (glyphs, width) = layout(s, px)?;
    let (hs, vs) = (sf.h_scale_factor(), sf.v_scale_factor());
    let (ox, oy) = (a.x as f32 + dx, a.y as f32 + dy);
    let mut d = String::new();
    for g in &glyphs {
        let Some(outline) = face.outline(g.id) else {
            continue;
        };
        let (gx, gy) = (ox + g.position.x, oy + g.position.y);
        let map = |p: ab_glyph::Point| (num(gx + p.x * hs), num(gy - p.y * vs));
        outline_path(&mut d, &outline, map);
    }
    let fill = format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2);
    let rotate = match a.rot {
        Rot::None => String::new(),
        Rot::Up => format!(" transform=\"rotate(-90 {} {})\"", a.x, a.y),
    };
    let baseline = oy + sf.ascent();
    Ok(format!(
        "<g{rotate}><path fill=\"{fill}\" d=\"{d}\"/><text x=\"{}\" y=\"{}\" textLength=\"{}\" font-family=\"{FONT_FAMILY_ATTR}\" font-size=\"{}\" fill-opacity=\"0\">{}</text></g>\n",
        num(ox),
        num(baseline),
        num(width),
        num(px as f32),
        xml_escape(s)
    ))
}

/// [`FONT_FAMILY`] as an XML attribute value.
const FONT_FAMILY_ATTR: &str = "IPAexGothic, sans-serif";

/// Render `chart` as a PNG file (8-bit RGB), returned as the file's bytes.
pub fn png(chart: &Chart) -> Result<Vec<u8>> {
    ensure_font()?;
    validate(chart)?;
    let (w, h) = canvas_size(chart)?;
    // Drawn at SUPERSAMPLE × the size and averaged down: smooth edges.
    let s = SUPERSAMPLE;
    let mut pixels = vec![255u8; (w * s) as usize * (h * s) as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (w * s, h * s)).into_drawing_area();
        render(
            &Painter {
                area: &root,
                raster: true,
                scale: s as i32,
                svg_text: None,
            },
            chart,
        )?;
        root.present().map_err(draw_err)?;
    }
    encode_png(&downsample(&pixels, w, h, s), w, h)
}

// ---------------------------------------------------------------------------
// Font and text

/// The embedded font, parsed once, also registered with plotters (as
/// [`FONT_FAMILY`] and as its default "sans-serif").
fn face() -> Result<&'static FontRef<'static>> {
    static FACE: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FACE.get_or_init(|| {
        let face = FontRef::try_from_slice(FONT_TTF).ok()?;
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_TTF).ok()?;
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT_TTF).ok()?;
        Some(face)
    })
    .as_ref()
    .ok_or_else(|| {
        Error::Conflict("chart: the embedded font (IPAexGothic) could not be loaded".to_string())
    })
}

fn ensure_font() -> Result<()> {
    face().map(|_| ())
}

fn draw_err<E: std::fmt::Display>(e: E) -> Error {
    Error::Conflict(format!("chart: drawing failed: {e}"))
}

/// Glyphs of `text` at `px` (em size in pixels) on a baseline at `ascent`,
/// and the advance width.
fn layout(text: &str, px: f64) -> Result<(Vec<Glyph>, f32)> {
    let face = face()?;
    let sf = face.as_scaled(PxScale::from(px as f32));
    let mut pen = 0f32;
    let mut prev = None;
    let mut glyphs = Vec::with_capacity(text.len());
    for c in text.chars() {
        let id = sf.glyph_id(c);
        if let Some(p) = prev {
            pen += sf.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(px as f32, point(pen, sf.ascent())));
        pen += sf.h_advance(id);
        prev = Some(id);
    }
    Ok((glyphs, pen))
}

/// Width and height in pixels of `text` at `px`.
#[doc(hidden)]
pub fn measure(text: &str, px: f64) -> Result<(i32, i32)> {
    let (_, w) = layout(text, px)?;
    Ok((w.ceil() as i32, px.ceil() as i32))
}

/// `text` cut with "…" to fit `max_w` pixels at `px`.
fn fit_text(text: &str, px: f64, max_w: i32) -> Result<String> {
    if measure(text, px)?.0 <= max_w {
        return Ok(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut lo, mut hi) = (0usize, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        let cand: String = chars[..mid].iter().collect::<String>() + "…";
        if measure(&cand, px)?.0 <= max_w {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(chars[..lo].iter().collect::<String>() + "…")
}

/// Text direction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rot {
    /// Horizontal.
    None,
    /// Turned 90° counter-clockwise (reads bottom to top).
    Up,
}

/// Where text goes, and its anchor: `h`/`v` place the text's box (in the
/// text's own direction) relative to the point.
#[derive(Clone, Copy)]
struct TextAt {
    x: i32,
    y: i32,
    h: HPos,
    v: VPos,
    rot: Rot,
}

fn at(x: i32, y: i32, h: HPos, v: VPos) -> TextAt {
    TextAt {
        x,
        y,
        h,
        v,
        rot: Rot::None,
    }
}

/// Offset of a text's layout box from its anchor, by alignment.
fn box_offset(h: HPos, v: VPos, width: f32, height: f32) -> (f32, f32) {
    let dx = match h {
        HPos::Left => 0.0,
        HPos::Center => -width / 2.0,
        HPos::Right => -width,
    };
    let dy = match v {
        VPos::Top => 0.0,
        VPos::Center => -height / 2.0,
        VPos::Bottom => -height,
    };
    (dx, dy)
}

/// Draws on one backend. PNG text is rasterised here from the embedded font
/// (exact glyph metrics); SVG text is emitted as `<text>` elements.
///
/// Callers work in chart pixels; the painter multiplies by `scale` (the
/// PNG supersampling factor).
struct Painter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    raster: bool,
    scale: i32,
    /// SVG only: the text drawn, as glyph outlines, added after the shapes.
    svg_text: Option<&'a RefCell<String>>,
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// Canvas size in chart pixels.
    fn size(&self) -> (i32, i32) {
        let (w, h) = self.area.dim_in_pixel();
        (w as i32 / self.scale, h as i32 / self.scale)
    }

    fn dev(&self, (x, y): (i32, i32)) -> (i32, i32) {
        (x * self.scale, y * self.scale)
    }

    fn text(&self, s: &str, px: f64, color: RGBColor, a: TextAt) -> Result<()> {
        if s.is_empty() {
            return Ok(());
        }
        if let (false, Some(out)) = (self.raster, self.svg_text) {
            let face = face()?;
            let sf = face.as_scaled(PxScale::from(px as f32));
            let (_, width) = layout(s, px)?;
            let height = sf.ascent() - sf.descent();
            let (dx, dy) = box_offset(a.h, a.v, width, height);
            out.borrow_mut()
                .push_str(&svg_text(s, px, color, &a, dx, dy)?);
            return Ok(());
        }
        let face = face()?;
        let px = px * self.scale as f64;
        let (ax, ay) = self.dev((a.x, a.y));
        let sf = face.as_scaled(PxScale::from(px as f32));
        let (glyphs, width) = layout(s, px)?;
        let height = sf.ascent() - sf.descent();
        let (dx, dy) = box_offset(a.h, a.v, width, height);
        let mut cov = Vec::new();
        for mut g in glyphs {
            g.position = point(g.position.x + dx, g.position.y + dy);
            if let Some(og) = face.outline_glyph(g) {
                let b = og.px_bounds();
                og.draw(|gx, gy, c| {
                    if c > 0.004 {
                        cov.push((b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, c));
                    }
                });
            }
        }
        for (lx, ly, c) in cov {
            let (ox, oy) = match a.rot {
                Rot::None => (lx, ly),
                Rot::Up => (ly, -lx),
            };
            self.area
                .draw_pixel((ax + ox, ay + oy), &color.mix(c.min(1.0) as f64))
                .map_err(draw_err)?;
        }
        Ok(())
    }

    /// Fill the pixels from one corner up to (not including) the other.
    fn fill_rect(&self, a: (i32, i32), b: (i32, i32), c: RGBColor) -> Result<()> {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        if x1 == x0 || y1 == y0 {
            return Ok(());
        }
        // Both backends fill up to, not including, the second corner.
        let (p0, p1) = (self.dev((x0, y0)), self.dev((x1, y1)));
        self.area
            .draw(&Rectangle::new([p0, p1], c.filled()))
            .map_err(draw_err)
    }

    /// A one-pixel outline.
    fn stroke_rect(&self, a: (i32, i32), b: (i32, i32), c: RGBColor) -> Result<()> {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        self.line(vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], c, 1)
    }

    fn line(&self, pts: Vec<(i32, i32)>, c: RGBColor, width: u32) -> Result<()> {
        let pts: Vec<(i32, i32)> = pts.into_iter().map(|q| self.dev(q)).collect();
        self.area
            .draw(&PathElement::new(
                pts,
                c.stroke_width(width * self.scale as u32),
            ))
            .map_err(draw_err)
    }

    fn polygon(&self, pts: &[(i32, i32)], c: RGBColor) -> Result<()> {
        let pts: Vec<(i32, i32)> = pts.iter().map(|&q| self.dev(q)).collect();
        self.area
            .draw(&Polygon::new(pts, c.filled()))
            .map_err(draw_err)
    }

    fn disc(&self, center: (i32, i32), r: i32, c: RGBColor) -> Result<()> {
        self.area
            .draw(&Circle::new(self.dev(center), r * self.scale, c.filled()))
            .map_err(draw_err)
    }

    fn ring(&self, center: (i32, i32), r: i32, c: RGBColor, width: u32) -> Result<()> {
        let style = ShapeStyle {
            color: c.to_rgba(),
            filled: false,
            stroke_width: width * self.scale as u32,
        };
        self.area
            .draw(&Circle::new(self.dev(center), r * self.scale, style))
            .map_err(draw_err)
    }
}

/// PNGs are drawn this many times larger and averaged down.
const SUPERSAMPLE: u32 = 2;

/// Average `s` × `s` blocks of an RGB image of `w*s` × `h*s` pixels.
fn downsample(big: &[u8], w: u32, h: u32, s: u32) -> Vec<u8> {
    if s == 1 {
        return big.to_vec();
    }
    let (w, h, s) = (w as usize, h as usize, s as usize);
    let big_w = w * s;
    let n = (s * s) as u32;
    let mut out = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            for ch in 0..3 {
                let mut sum = 0u32;
                for dy in 0..s {
                    let row = (y * s + dy) * big_w;
                    for dx in 0..s {
                        sum += big[(row + x * s + dx) * 3 + ch] as u32;
                    }
                }
                out[(y * w + x) * 3 + ch] = ((sum + n / 2) / n) as u8;
            }
        }
    }
    out
}

const W: u32 = 1000;
const H: u32 = 600;
const MARGIN: i32 = 18;

/// Font sizes: the em in pixels.
const TITLE_PX: f64 = 26.0;
const DESC_PX: f64 = 18.0;
const TICK_PX: f64 = 15.0;
#[doc(hidden)]
pub const LEGEND_PX: f64 = 16.0;
const VALUE_PX: f64 = 14.0;

const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
const AXIS: RGBColor = RGBColor(0x55, 0x55, 0x55);
const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
const GRID_LIGHT: RGBColor = RGBColor(0xF0, 0xF0, 0xF0);
const MUTED: RGBColor = RGBColor(0x77, 0x77, 0x77);
const BLANK: RGBColor = RGBColor(0xF2, 0xF2, 0xF2);

// Okabe & Ito (2008), "Color Universal Design".
const OI_ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const OI_SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const OI_GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
const OI_YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);
const OI_BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const OI_VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const OI_PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
const OI_BLACK: RGBColor = RGBColor(0x00, 0x00, 0x00);

/// Series colours, most distinct first; yellow (weak on white) last.
const SERIES: [RGBColor; 8] = [
    OI_BLUE,
    OI_VERMILLION,
    OI_GREEN,
    OI_ORANGE,
    OI_SKY,
    OI_PURPLE,
    OI_BLACK,
    OI_YELLOW,
];

fn series_color(i: usize) -> RGBColor {
    SERIES[i % SERIES.len()]
}

/// Tier colours, worst first: warm (failures) to cool (successes).
fn tier_colors(n: usize) -> Vec<RGBColor> {
    use self::{
        OI_BLACK as K, OI_BLUE as B, OI_GREEN as G, OI_ORANGE as O, OI_PURPLE as P, OI_SKY as S,
        OI_VERMILLION as V, OI_YELLOW as Y,
    };
    let pick: &[RGBColor] = match n {
        0 => &[],
        1 => &[B],
        2 => &[V, B],
        3 => &[V, S, B],
        4 => &[V, O, S, B],
        5 => &[V, O, Y, S, B],
        6 => &[V, O, Y, S, B, G],
        7 => &[P, V, O, Y, S, B, G],
        _ => &[K, P, V, O, Y, S, B, G],
    };
    (0..n).map(|i| pick[i % pick.len()]).collect()
}

/// viridis (matplotlib), sampled at 0, 0.1, …, 1.
const VIRIDIS: [(u8, u8, u8); 11] = [
    (0x44, 0x01, 0x54),
    (0x48, 0x24, 0x75),
    (0x41, 0x44, 0x87),
    (0x35, 0x5f, 0x8d),
    (0x2a, 0x78, 0x8e),
    (0x21, 0x91, 0x8c),
    (0x22, 0xa8, 0x84),
    (0x44, 0xbf, 0x70),
    (0x7a, 0xd1, 0x51),
    (0xbd, 0xdf, 0x26),
    (0xfd, 0xe7, 0x25),
];

fn viridis(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pos = t * (VIRIDIS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(VIRIDIS.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever contrasts more with `bg` (WCAG luminance).
fn text_on(bg: RGBColor) -> RGBColor {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * lin(bg.0) + 0.7152 * lin(bg.1) + 0.0722 * lin(bg.2);
    if l > 0.179 {
        RGBColor(0x11, 0x11, 0x11)
    } else {
        WHITE
    }
}
fn is_whole(v: f64) -> bool {
    (v - v.round()).abs() < 1e-9
}

/// A number without needless zeros: 3, 2.5, 0.125 (at most `max_dec` decimals).
#[doc(hidden)]
pub fn fmt_num(v: f64, max_dec: usize) -> String {
    if is_whole(v) {
        return format!("{}", v.round() as i64);
    }
    let s = format!("{v:.max_dec$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// A probability as a percentage with `dec` decimals; never shows a
/// possible-but-not-certain value as 0% or 100%.
#[doc(hidden)]
pub fn fmt_pct(p: f64, dec: usize) -> String {
    let scale = 10f64.powi(dec as i32);
    let r = (p * 100.0 * scale).round() / scale;
    let unit = 1.0 / scale;
    if p > 0.0 && r <= 0.0 {
        format!("<{}%", fmt_num(unit, dec))
    } else if p < 1.0 && r >= 100.0 && p > 0.5 {
        format!(">{}%", fmt_num(100.0 - unit, dec))
    } else {
        let s = format!("{r:.dec$}%");
        if s.starts_with("-0") && r == 0.0 {
            s[1..].to_string()
        } else {
            s
        }
    }
}

/// An axis tick of a percent axis (ticks are round numbers).
#[doc(hidden)]
pub fn fmt_pct_tick(p: f64) -> String {
    format!("{}%", fmt_num(p * 100.0, 1))
}

/// A value label: percent with 0 or 1 decimals, or a plain number.
fn fmt_value(v: f64, percent: bool, dec: usize) -> String {
    if percent {
        fmt_pct(v, dec)
    } else {
        fmt_num(v, dec.max(1) + 1)
    }
}

// ---------------------------------------------------------------------------
// Validation and sizing

fn shape_err(chart: &Chart, what: String) -> Error {
    Error::Conflict(format!("chart {:?}: {what}", chart.title))
}

fn validate(chart: &Chart) -> Result<()> {
    match &chart.body {
        ChartBody::Lines { x, series, .. } => {
            for (name, ys) in series {
                if ys.len() != x.len() {
                    return Err(shape_err(
                        chart,
                        format!(
                            "line series {name:?} has {} values but there are {} x values",
                            ys.len(),
                            x.len()
                        ),
                    ));
                }
            }
        }
        ChartBody::Bars {
            categories, series, ..
        } => {
            for (name, vs) in series {
                if vs.len() != categories.len() {
                    return Err(shape_err(
                        chart,
                        format!(
                            "bar series {name:?} has {} values but there are {} categories",
                            vs.len(),
                            categories.len()
                        ),
                    ));
                }
                if let Some(v) = vs.iter().find(|v| !v.is_finite()) {
                    return Err(shape_err(
                        chart,
                        format!("bar series {name:?} has a non-finite value ({v})"),
                    ));
                }
            }
        }
        ChartBody::Heatmap { x, y, values, .. } => {
            if values.len() != y.len() {
                return Err(shape_err(
                    chart,
                    format!(
                        "heatmap has {} rows of values but {} y categories",
                        values.len(),
                        y.len()
                    ),
                ));
            }
            for (r, row) in values.iter().enumerate() {
                if row.len() != x.len() {
                    return Err(shape_err(
                        chart,
                        format!(
                            "heatmap row {} ({:?}) has {} values but there are {} x categories",
                            r + 1,
                            y[r],
                            row.len(),
                            x.len()
                        ),
                    ));
                }
            }
        }
        ChartBody::Stacked {
            categories,
            tiers,
            values,
        } => {
            if values.len() != categories.len() {
                return Err(shape_err(
                    chart,
                    format!(
                        "stacked chart has {} bars of values but {} categories",
                        values.len(),
                        categories.len()
                    ),
                ));
            }
            for (c, bar) in values.iter().enumerate() {
                if bar.len() != tiers.len() {
                    return Err(shape_err(
                        chart,
                        format!(
                            "stacked bar {:?} has {} values but there are {} tiers",
                            categories[c],
                            bar.len(),
                            tiers.len()
                        ),
                    ));
                }
                if let Some(v) = bar.iter().find(|v| !v.is_finite() || **v < 0.0) {
                    return Err(shape_err(
                        chart,
                        format!(
                            "stacked bar {:?} has a value {v} that is not a probability",
                            categories[c]
                        ),
                    ));
                }
            }
        }
        ChartBody::Panels { panels, series, .. } => {
            for panel in panels {
                for (i, ys) in &panel.lines {
                    if *i >= series.len() {
                        return Err(shape_err(
                            chart,
                            format!(
                                "panel {:?} has a line of series {} but there are {} series",
                                panel.title,
                                i + 1,
                                series.len()
                            ),
                        ));
                    }
                    if ys.len() != panel.categories.len() {
                        return Err(shape_err(
                            chart,
                            format!(
                                "panel {:?}: line {:?} has {} values but there are {} categories",
                                panel.title,
                                series[*i],
                                ys.len(),
                                panel.categories.len()
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

fn canvas_size(chart: &Chart) -> Result<(u32, u32)> {
    match &chart.body {
        ChartBody::Heatmap { .. } => Ok(heatmap_layout(chart)?.canvas),
        ChartBody::Panels { .. } => Ok(panels_layout(chart)?.canvas),
        _ => Ok((W, H)),
    }
}

// ---------------------------------------------------------------------------
// Axes, ticks, legends

/// Nice round axis range covering `lo..hi`.
fn nice_range(lo: f64, hi: f64) -> (f64, f64) {
    let (lo, hi) = if !(lo.is_finite() && hi.is_finite()) {
        (0.0, 1.0)
    } else if hi - lo < 1e-12 {
        if lo == 0.0 {
            (0.0, 1.0)
        } else {
            (lo - lo.abs() * 0.1, hi + hi.abs() * 0.1)
        }
    } else {
        (lo, hi)
    };
    let step = nice_step((hi - lo) / 8.0);
    ((lo / step).floor() * step, (hi / step).ceil() * step)
}

/// The smallest of 1, 2, 2.5, 5 × 10ⁿ that is ≥ `raw`.
fn nice_step(raw: f64) -> f64 {
    let raw = if raw > 0.0 && raw.is_finite() {
        raw
    } else {
        1.0
    };
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f <= 1.0 + 1e-9 {
        1.0
    } else if f <= 2.0 + 1e-9 {
        2.0
    } else if f <= 2.5 + 1e-9 {
        2.5
    } else if f <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Value range of a percent or plain axis for `vals`, with 0 included.
fn value_axis(vals: impl Iterator<Item = f64>, percent: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if percent {
        // Rounding error in sums of probabilities does not widen the axis.
        let lo = if lo < -1e-9 {
            nice_range(lo, 0.0).0
        } else {
            0.0
        };
        let hi = if hi > 1.0 + 1e-9 {
            nice_range(0.0, hi).1
        } else {
            1.0
        };
        return (lo, hi);
    }
    nice_range(lo.min(0.0), hi.max(0.0))
}

/// Ticks from `lo` to `hi` every `step`, labelled by `fmt`.
fn ticks(lo: f64, hi: f64, step: f64, fmt: &dyn Fn(f64) -> String) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    if !(step > 0.0 && lo.is_finite() && hi.is_finite()) {
        return out;
    }
    let first = (lo / step - 1e-9).ceil() as i64;
    let mut k = first;
    while (k as f64) * step <= hi + step * 1e-9 && out.len() < 60 {
        let v = k as f64 * step;
        out.push((v, fmt(if v.abs() < step * 1e-9 { 0.0 } else { v })));
        k += 1;
    }
    out
}

fn y_ticks(lo: f64, hi: f64, percent: bool) -> Vec<(f64, String)> {
    if percent {
        let step = if (hi - lo - 1.0).abs() < 1e-9 {
            0.1
        } else {
            nice_step((hi - lo) / 8.0)
        };
        ticks(lo, hi, step, &fmt_pct_tick)
    } else {
        ticks(lo, hi, nice_step((hi - lo) / 8.0), &|v| fmt_num(v, 6))
    }
}

/// Numeric x ticks that do not overlap on `plot_w` pixels.
fn x_ticks(lo: f64, hi: f64, plot_w: i32) -> Result<Vec<(f64, String)>> {
    let span = hi - lo;
    let integral = is_whole(lo) && is_whole(hi);
    let mut step = if integral && span <= 25.0 {
        1.0
    } else {
        nice_step(span / 10.0)
    };
    loop {
        let t = ticks(lo, hi, step, &|v| fmt_num(v, 4));
        let mut max_w = 0;
        for (_, l) in &t {
            max_w = max_w.max(measure(l, TICK_PX)?.0);
        }
        let spacing = plot_w as f64 * step / span.max(1e-12);
        if t.len() <= 2 || spacing >= (max_w + 14) as f64 {
            return Ok(t);
        }
        let mut next = nice_step(step * 1.01);
        if integral {
            while !is_whole(next) {
                next = nice_step(next * 1.01);
            }
        }
        step = next;
    }
}

/// A plot rectangle in pixels and its data ranges.
struct Frame {
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
    x: (f64, f64),
    y: (f64, f64),
    /// Horizontal padding between the axis box and the data.
    inset: i32,
}

impl Frame {
    fn px(&self, x: f64) -> i32 {
        let (a, b) = (self.left + self.inset, self.right - self.inset);
        a + ((x - self.x.0) / (self.x.1 - self.x.0) * (b - a) as f64).round() as i32
    }
    fn py(&self, y: f64) -> i32 {
        let t = (y - self.y.0) / (self.y.1 - self.y.0);
        self.bottom - (t * (self.bottom - self.top) as f64).round() as i32
    }
    fn pt(&self, (x, y): (f64, f64)) -> (i32, i32) {
        (self.px(x), self.py(y))
    }
}

/// Lay out a cartesian plot under `top`, leaving `legend_w` on the right
/// and `x_extent` under the axis for x tick labels.
fn frame_layout(
    p_size: (i32, i32),
    top: i32,
    legend_w: i32,
    y_ticks: &[(f64, String)],
    x_extent: i32,
) -> Result<(i32, i32, i32, i32)> {
    let mut tick_w = 0;
    for (_, l) in y_ticks {
        tick_w = tick_w.max(measure(l, TICK_PX)?.0);
    }
    let left = MARGIN + DESC_PX as i32 + 14 + tick_w + 10;
    let right = p_size.0 - MARGIN - legend_w;
    let bottom = p_size.1 - MARGIN - DESC_PX as i32 - 14 - x_extent - 10;
    Ok((left, right.max(left + 50), top, bottom.max(top + 50)))
}

/// Grid, axes, y ticks, numeric x ticks and the axis descriptions.
fn draw_frame<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    f: &Frame,
    yt: &[(f64, String)],
    xt: Option<&[(f64, String)]>,
) -> Result<()> {
    if let Some(xt) = xt {
        for (v, _) in xt {
            let x = f.px(*v);
            p.line(vec![(x, f.top), (x, f.bottom)], GRID_LIGHT, 1)?;
        }
    }
    for (v, l) in yt {
        let y = f.py(*v);
        p.line(vec![(f.left, y), (f.right, y)], GRID, 1)?;
        p.line(vec![(f.left - 5, y), (f.left, y)], AXIS, 1)?;
        p.text(
            l,
            TICK_PX,
            INK,
            at(f.left - 9, y, HPos::Right, VPos::Center),
        )?;
    }
    if let Some(xt) = xt {
        for (v, l) in xt {
            let x = f.px(*v);
            p.line(vec![(x, f.bottom), (x, f.bottom + 5)], AXIS, 1)?;
            p.text(
                l,
                TICK_PX,
                INK,
                at(x, f.bottom + 9, HPos::Center, VPos::Top),
            )?;
        }
    }
    p.line(vec![(f.left, f.top), (f.left, f.bottom)], AXIS, 1)?;
    p.line(vec![(f.left, f.bottom), (f.right, f.bottom)], AXIS, 1)?;
    let (_, h) = p.size();
    let x_desc = fit_text(&chart.x_label, DESC_PX, f.right - f.left)?;
    p.text(
        &x_desc,
        DESC_PX,
        INK,
        at(
            (f.left + f.right) / 2,
            h - MARGIN,
            HPos::Center,
            VPos::Bottom,
        ),
    )?;
    let y_desc = fit_text(&chart.y_label, DESC_PX, f.bottom - f.top + 40)?;
    p.text(
        &y_desc,
        DESC_PX,
        INK,
        TextAt {
            rot: Rot::Up,
            ..at(MARGIN, (f.top + f.bottom) / 2, HPos::Center, VPos::Top)
        },
    )
}

/// Draw the title centred at the top; returns the y where content starts.
fn draw_title<DB: DrawingBackend>(p: &Painter<'_, DB>, title: &str) -> Result<i32> {
    let (w, _) = p.size();
    let max_w = w - 2 * MARGIN;
    let mut px = TITLE_PX;
    while px > 16.0 && measure(title, px)?.0 > max_w {
        px -= 1.0;
    }
    let text = fit_text(title, px, max_w)?;
    p.text(&text, px, INK, at(w / 2, MARGIN, HPos::Center, VPos::Top))?;
    Ok(MARGIN + TITLE_PX as i32 + 22)
}

#[derive(Clone, Copy)]
enum Swatch {
    /// A line, with marker shape `usize` if the lines have markers.
    Line(RGBColor, Option<usize>),
    /// A filled box.
    Box(RGBColor),
}

const LEGEND_ROW: i32 = 28;
const LEGEND_SWATCH: i32 = 34;
#[doc(hidden)]
pub const LEGEND_MAX_TEXT: i32 = 240;
const LEGEND_GAP: i32 = 24;

/// Width of the legend column for `names` and its title (0 when there is
/// no entry), including the gap to the plot.
#[doc(hidden)]
pub fn legend_width(names: &[&str], title: Option<&str>) -> Result<i32> {
    if names.is_empty() {
        return Ok(0);
    }
    let mut w = 0;
    for n in names {
        for line in wrap_text(n, LEGEND_PX, LEGEND_MAX_TEXT)? {
            w = w.max(measure(&line, LEGEND_PX)?.0);
        }
    }
    let body = LEGEND_SWATCH + 10 + w;
    let mut head = 0;
    if let Some(t) = title {
        for line in wrap_text(t, LEGEND_PX, LEGEND_SWATCH + 10 + LEGEND_MAX_TEXT)? {
            head = head.max(measure(&line, LEGEND_PX)?.0);
        }
    }
    Ok(LEGEND_GAP + body.max(head))
}

/// `text` in lines of at most `max_w` pixels, broken between words (or
/// between characters for a word, or a Japanese phrase, wider than a
/// line). Every character is kept: a long text takes more lines, it is
/// never cut.
#[doc(hidden)]
pub fn wrap_text(text: &str, px: f64, max_w: i32) -> Result<Vec<String>> {
    if measure(text, px)?.0 <= max_w {
        return Ok(vec![text.to_string()]);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        let cand = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if measure(&cand, px)?.0 <= max_w {
            cur = cand;
            continue;
        }
        if !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
        }
        // The word alone: split by characters where it is too wide.
        for ch in word.chars() {
            let c2 = format!("{cur}{ch}");
            if !cur.is_empty() && measure(&c2, px)?.0 > max_w {
                lines.push(std::mem::take(&mut cur));
                cur.push(ch);
            } else {
                cur = c2;
            }
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    Ok(lines)
}

/// Draw a legend column right of the plot at `x`, from `y` down, under
/// its title if it has one.
fn draw_legend<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    entries: &[(String, Swatch)],
    x: i32,
    y: i32,
    title: Option<&str>,
) -> Result<()> {
    let x = x + LEGEND_GAP;
    let wrapped: Vec<Vec<String>> = entries
        .iter()
        .map(|(n, _)| wrap_text(n, LEGEND_PX, LEGEND_MAX_TEXT))
        .collect::<Result<_>>()?;
    let title = match title.filter(|t| !t.is_empty() && !entries.is_empty()) {
        Some(t) => wrap_text(t, LEGEND_PX, LEGEND_SWATCH + 10 + LEGEND_MAX_TEXT)?,
        None => Vec::new(),
    };
    let lines: usize = wrapped.iter().map(Vec::len).sum::<usize>() + title.len();
    // Tighter rows when many entries would run off the canvas.
    let room = p.size().1 - MARGIN - y;
    let row = (room / lines.max(1) as i32).clamp(LEGEND_PX as i32 + 2, LEGEND_ROW);
    // Lines of one entry (or of the title) sit closer than entries.
    let line_h = (LEGEND_PX as i32 + 4).min(row);
    let mut top = y;
    for (k, t) in title.iter().enumerate() {
        p.text(
            t,
            LEGEND_PX,
            INK,
            at(
                x,
                top + row / 2 + k as i32 * line_h,
                HPos::Left,
                VPos::Center,
            ),
        )?;
    }
    if !title.is_empty() {
        top += row + (title.len() as i32 - 1) * line_h;
    }
    for ((_, swatch), text) in entries.iter().zip(&wrapped) {
        let extra = (text.len() as i32 - 1) * line_h;
        let cy = top + row / 2;
        top += row + extra;
        match *swatch {
            Swatch::Line(c, m) => {
                p.line(vec![(x, cy), (x + LEGEND_SWATCH, cy)], c, 3)?;
                if let Some(m) = m {
                    draw_marker(p, (x + LEGEND_SWATCH / 2, cy), m, c)?;
                }
            }
            Swatch::Box(c) => {
                let (a, b) = ((x + 7, cy - 8), (x + LEGEND_SWATCH - 7, cy + 8));
                p.fill_rect(a, b, c)?;
            }
        }
        for (k, line) in text.iter().enumerate() {
            p.text(
                line,
                LEGEND_PX,
                INK,
                at(
                    x + LEGEND_SWATCH + 10,
                    cy + k as i32 * line_h,
                    HPos::Left,
                    VPos::Center,
                ),
            )?;
        }
    }
    Ok(())
}

/// Marker shape of series `i`: with the colours (also 8) it gives 64
/// distinct pairs.
fn marker_of(i: usize) -> usize {
    (i + i / SERIES.len()) % 8
}

/// Marker `shape` (cycled through 8) centred at a pixel.
fn draw_marker<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    (x, y): (i32, i32),
    shape: usize,
    color: RGBColor,
) -> Result<()> {
    let r = 5;
    let poly = |pts: &[(i32, i32)], filled: bool| -> Result<()> {
        let pts: Vec<(i32, i32)> = pts.iter().map(|&(a, b)| (x + a, y + b)).collect();
        if filled {
            p.polygon(&pts, color)
        } else {
            p.polygon(&pts, WHITE)?;
            let mut closed = pts.clone();
            closed.push(pts[0]);
            p.line(closed, color, 2)
        }
    };
    let square = [(-r, -r), (r, -r), (r, r), (-r, r)];
    let diamond = [(0, -r - 2), (r + 2, 0), (0, r + 2), (-r - 2, 0)];
    match shape % 8 {
        0 => p.disc((x, y), r, color),
        1 => poly(&square, true),
        2 => poly(&[(0, -r - 2), (r + 1, r), (-r - 1, r)], true),
        3 => poly(&diamond, true),
        4 => poly(&[(0, r + 2), (r + 1, -r), (-r - 1, -r)], true),
        5 => {
            p.disc((x, y), r, WHITE)?;
            p.ring((x, y), r, color, 2)
        }
        6 => poly(&square, false),
        _ => poly(&diamond, false),
    }
}

/// How category labels along a horizontal axis are set.
#[doc(hidden)]
pub struct CatLabels {
    /// Labels (cut to fit); only every `step`-th is drawn.
    #[doc(hidden)]
    pub texts: Vec<String>,
    #[doc(hidden)]
    pub step: usize,
    rotated: bool,
    /// Extent below the axis, in pixels.
    extent: i32,
}

const ROTATED_MAX: i32 = 150;

/// Upright labels when they fit their slot; short labels (numbers) upright
/// and thinned; long ones turned to read upwards, thinned if need be.
fn cat_labels(labels: &[String], slot_px: f64) -> Result<CatLabels> {
    let text_h = TICK_PX as i32;
    let mut max_w = 0;
    for l in labels {
        max_w = max_w.max(measure(l, TICK_PX)?.0);
    }
    let slot = slot_px.max(1.0);
    if (max_w + 10) as f64 <= slot {
        return Ok(CatLabels {
            texts: labels.to_vec(),
            step: 1,
            rotated: false,
            extent: text_h,
        });
    }
    if max_w <= 3 * text_h {
        let step = ((max_w + 14) as f64 / slot).ceil().max(1.0) as usize;
        return Ok(CatLabels {
            texts: labels.to_vec(),
            step,
            rotated: false,
            extent: text_h,
        });
    }
    let mut texts = Vec::with_capacity(labels.len());
    let mut extent = 0;
    for l in labels {
        let t = fit_text(l, TICK_PX, ROTATED_MAX)?;
        extent = extent.max(measure(&t, TICK_PX)?.0);
        texts.push(t);
    }
    let step = ((text_h + 6) as f64 / slot).ceil().max(1.0) as usize;
    Ok(CatLabels {
        texts,
        step,
        rotated: true,
        extent,
    })
}

/// Draw category labels centred on `xs`, hanging from `top`.
fn draw_cat_labels<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    cl: &CatLabels,
    xs: &[i32],
    top: i32,
) -> Result<()> {
    for (i, (t, &x)) in cl.texts.iter().zip(xs).enumerate() {
        if i % cl.step != 0 {
            continue;
        }
        if cl.rotated {
            p.text(
                t,
                TICK_PX,
                INK,
                TextAt {
                    rot: Rot::Up,
                    ..at(x, top, HPos::Right, VPos::Center)
                },
            )?;
        } else {
            p.text(t, TICK_PX, INK, at(x, top, HPos::Center, VPos::Top))?;
        }
    }
    Ok(())
}

/// A "no data" note centred at (x, y).
fn draw_no_data<DB: DrawingBackend>(p: &Painter<'_, DB>, x: i32, y: i32) -> Result<()> {
    p.text(
        "no data · データなし",
        DESC_PX,
        MUTED,
        at(x, y, HPos::Center, VPos::Center),
    )
}

// ---------------------------------------------------------------------------
// Rendering

fn render<DB: DrawingBackend>(p: &Painter<'_, DB>, chart: &Chart) -> Result<()> {
    p.area.fill(&WHITE).map_err(draw_err)?;
    let top = draw_title(p, &chart.title)?;
    match &chart.body {
        ChartBody::Lines {
            x,
            series,
            y_percent,
        } => render_lines(p, chart, top, x, series, *y_percent),
        ChartBody::Bars {
            categories,
            series,
            y_percent,
        } => render_bars(p, chart, top, categories, series, *y_percent),
        ChartBody::Heatmap {
            x,
            y,
            values,
            value_label,
            percent,
        } => render_heatmap(p, chart, x, y, values, value_label, *percent),
        ChartBody::Stacked {
            categories,
            tiers,
            values,
        } => render_stacked(p, chart, top, categories, tiers, values),
        ChartBody::Panels { panels, series, .. } => render_panels(p, chart, panels, series),
    }
}

fn render_lines<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    top: i32,
    x: &[f64],
    series: &[(String, Vec<Option<f64>>)],
    y_percent: bool,
) -> Result<()> {
    // Points in x order; non-finite values are gaps.
    let mut order: Vec<usize> = (0..x.len()).filter(|&i| x[i].is_finite()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let pts: Vec<Vec<Option<(f64, f64)>>> = series
        .iter()
        .map(|(_, ys)| {
            order
                .iter()
                .map(|&i| ys[i].filter(|v| v.is_finite()).map(|v| (x[i], v)))
                .collect()
        })
        .collect();
    let any = pts.iter().flatten().any(|q| q.is_some());
    let (x0, x1) = match (order.first(), order.last()) {
        (Some(&a), Some(&b)) if x[b] > x[a] => (x[a], x[b]),
        (Some(&a), Some(_)) => (x[a] - 1.0, x[a] + 1.0),
        _ => (0.0, 1.0),
    };
    let y_range = value_axis(pts.iter().flatten().flatten().map(|q| q.1), y_percent);
    let yt = y_ticks(y_range.0, y_range.1, y_percent);
    let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
    let legend_w = legend_width(&names, chart.legend_title.as_deref())?;
    let (left, right, top, bottom) = frame_layout(p.size(), top, legend_w, &yt, TICK_PX as i32)?;
    let f = Frame {
        left,
        right,
        top,
        bottom,
        x: (x0, x1),
        y: y_range,
        inset: 12,
    };
    let xt = x_ticks(x0, x1, right - left - 2 * f.inset)?;
    draw_frame(p, chart, &f, &yt, Some(&xt))?;

    let show_markers = order.len() <= 40;
    for (si, ps) in pts.iter().enumerate() {
        let color = series_color(si);
        let segments: Vec<Vec<(i32, i32)>> = ps
            .split(|q| q.is_none())
            .filter(|s| !s.is_empty())
            .map(|s| s.iter().flatten().map(|&q| f.pt(q)).collect())
            .collect();
        for seg in segments.iter().filter(|s| s.len() > 1) {
            p.line(seg.clone(), color, 3)?;
        }
        for seg in &segments {
            if show_markers || seg.len() == 1 {
                for &q in seg {
                    draw_marker(p, q, marker_of(si), color)?;
                }
            }
        }
    }
    if !any {
        draw_no_data(p, (left + right) / 2, (top + bottom) / 2)?;
    }
    let entries: Vec<(String, Swatch)> = series
        .iter()
        .enumerate()
        .map(|(i, (n, _))| {
            let marker = show_markers.then_some(marker_of(i));
            (n.clone(), Swatch::Line(series_color(i), marker))
        })
        .collect();
    draw_legend(p, &entries, right, top, chart.legend_title.as_deref())
}

/// Layout of a chart with one slot per category.
fn category_frame(
    p_size: (i32, i32),
    top: i32,
    legend_w: i32,
    categories: &[String],
    y_range: (f64, f64),
    yt: &[(f64, String)],
) -> Result<(Frame, CatLabels)> {
    let n = categories.len().max(1);
    let (l0, r0, _, _) = frame_layout(p_size, top, legend_w, yt, 0)?;
    let cl = cat_labels(categories, (r0 - l0) as f64 / n as f64)?;
    let (left, right, top, bottom) = frame_layout(p_size, top, legend_w, yt, cl.extent)?;
    Ok((
        Frame {
            left,
            right,
            top,
            bottom,
            x: (0.0, n as f64),
            y: y_range,
            inset: 0,
        },
        cl,
    ))
}

fn render_bars<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    top: i32,
    categories: &[String],
    series: &[(String, Vec<f64>)],
    y_percent: bool,
) -> Result<()> {
    let n = categories.len();
    let m = series.len();
    let y_range = value_axis(series.iter().flat_map(|s| s.1.iter().copied()), y_percent);
    let yt = y_ticks(y_range.0, y_range.1, y_percent);
    let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
    let legend_w = legend_width(&names, chart.legend_title.as_deref())?;
    // Room above the top gridline for value labels.
    let (f, cl) = category_frame(p.size(), top + 16, legend_w, categories, y_range, &yt)?;
    draw_frame(p, chart, &f, &yt, None)?;

    let group = if m > 1 { 0.8 } else { 0.6 };
    let bw = if m > 0 { group / m as f64 } else { 0.0 };
    let gap = if m > 1 { bw * 0.1 } else { 0.0 };
    let base = 0.0f64.clamp(y_range.0, y_range.1);
    let mut rects = Vec::new();
    for (si, (_, vs)) in series.iter().enumerate() {
        for (ci, &v) in vs.iter().enumerate() {
            let xa = ci as f64 + (1.0 - group) / 2.0 + si as f64 * bw + gap / 2.0;
            let a = f.pt((xa, base));
            let b = f.pt((xa + bw - gap, v));
            rects.push((v, a, b));
            p.fill_rect(a, b, series_color(si))?;
        }
    }
    // Baseline over the bars.
    let yb = f.py(base);
    p.line(vec![(f.left, yb), (f.right, yb)], AXIS, 1)?;
    // Value labels, when every one fits over its bar.
    let fits = |dec: usize| -> Result<bool> {
        for &(v, a, b) in &rects {
            if measure(&fmt_value(v, y_percent, dec), VALUE_PX)?.0 + 2 > (b.0 - a.0).abs() {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let dec = if y_percent { 1 } else { 2 };
    let label_dec = if fits(dec)? {
        Some(dec)
    } else if fits(0)? {
        Some(0)
    } else {
        None
    };
    if let Some(dec) = label_dec {
        for &(v, a, b) in &rects {
            let cx = (a.0 + b.0) / 2;
            let (y, vpos) = if v >= base {
                (b.1 - 3, VPos::Bottom)
            } else {
                (b.1 + 3, VPos::Top)
            };
            p.text(
                &fmt_value(v, y_percent, dec),
                VALUE_PX,
                INK,
                at(cx, y, HPos::Center, vpos),
            )?;
        }
    }
    let xs: Vec<i32> = (0..n).map(|i| f.px(i as f64 + 0.5)).collect();
    draw_cat_labels(p, &cl, &xs, f.bottom + 9)?;
    if n == 0 || m == 0 {
        draw_no_data(p, (f.left + f.right) / 2, (f.top + f.bottom) / 2)?;
    }
    let entries: Vec<(String, Swatch)> = series
        .iter()
        .enumerate()
        .map(|(i, (s, _))| (s.clone(), Swatch::Box(series_color(i))))
        .collect();
    draw_legend(p, &entries, f.right, f.top, chart.legend_title.as_deref())
}

fn render_stacked<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    top: i32,
    categories: &[String],
    tiers: &[String],
    values: &[Vec<f64>],
) -> Result<()> {
    let n = categories.len();
    let max_sum = values
        .iter()
        .map(|b| b.iter().sum::<f64>())
        .fold(0.0f64, f64::max);
    let y_range = value_axis(std::iter::once(max_sum), true);
    let yt = y_ticks(y_range.0, y_range.1, true);
    let names: Vec<&str> = tiers.iter().map(|s| s.as_str()).collect();
    let legend_w = legend_width(&names, chart.legend_title.as_deref())?;
    let (f, cl) = category_frame(p.size(), top, legend_w, categories, y_range, &yt)?;
    draw_frame(p, chart, &f, &yt, None)?;
    let colors = tier_colors(tiers.len());
    let width = if n <= 3 { 0.5 } else { 0.66 };
    for (ci, bar) in values.iter().enumerate() {
        let xa = ci as f64 + (1.0 - width) / 2.0;
        let xb = xa + width;
        let mut acc = 0.0;
        for (ti, &v) in bar.iter().enumerate() {
            if v <= 0.0 {
                continue;
            }
            let a = f.pt((xa, acc));
            let b = f.pt((xb, acc + v));
            acc += v;
            p.fill_rect(a, b, colors[ti])?;
            let (seg_h, bar_w) = ((a.1 - b.1).abs(), (b.0 - a.0).abs());
            let mut label = fmt_pct(v, 1);
            if measure(&label, VALUE_PX)?.0 + 8 > bar_w {
                label = fmt_pct(v, 0);
            }
            if seg_h >= VALUE_PX as i32 + 3 && measure(&label, VALUE_PX)?.0 + 8 <= bar_w {
                p.text(
                    &label,
                    VALUE_PX,
                    text_on(colors[ti]),
                    at((a.0 + b.0) / 2, (a.1 + b.1) / 2, HPos::Center, VPos::Center),
                )?;
            }
        }
        // White hairlines between segments.
        let mut acc = 0.0;
        for &v in bar.iter().take(bar.len().saturating_sub(1)) {
            acc += v.max(0.0);
            if acc > 0.0 && acc < max_sum {
                let y = f.py(acc);
                p.line(vec![(f.px(xa), y), (f.px(xb) - 1, y)], WHITE, 1)?;
            }
        }
    }
    let xs: Vec<i32> = (0..n).map(|i| f.px(i as f64 + 0.5)).collect();
    draw_cat_labels(p, &cl, &xs, f.bottom + 9)?;
    if n == 0 || tiers.is_empty() {
        draw_no_data(p, (f.left + f.right) / 2, (f.top + f.bottom) / 2)?;
    }
    // Best tier first, as it sits on top of the bars.
    let entries: Vec<(String, Swatch)> = tiers
        .iter()
        .enumerate()
        .rev()
        .map(|(i, t)| (t.clone(), Swatch::Box(colors[i])))
        .collect();
    draw_legend(p, &entries, f.right, f.top, chart.legend_title.as_deref())
}

// ---------------------------------------------------------------------------
// Heatmap

struct HeatLayout {
    canvas: (u32, u32),
    /// Grid origin (top left) in pixels, and cell size.
    gx: i32,
    gy: i32,
    cell_w: f64,
    cell_h: f64,
    x_labels: CatLabels,
    /// y labels (cut to fit) and their thinning step.
    y_texts: Vec<String>,
    y_step: usize,
    /// Range of the colour scale.
    lo: f64,
    hi: f64,
    /// Decimals of the values printed in cells, if they are.
    cell_dec: Option<usize>,
    cell_px: f64,
}

// ---------------------------------------------------------------------------
// Small multiples (panels)

const PANEL_TITLE_PX: f64 = 16.0;
const PANEL_LABEL_PX: f64 = 14.0;
const PANEL_GAP_X: i32 = 22;
const PANEL_GAP_Y: i32 = 18;
const PANEL_MIN_W: i32 = 200;
const PANEL_MIN_PLOT_H: i32 = 170;
/// Below this plot height a percent axis is labelled every 20%, not 10%.
const PANEL_FINE_TICKS_H: i32 = 240;
/// A panel's markers are drawn where its steps are at least this far apart.
const PANEL_MARKER_SLOT: f64 = 16.0;

/// Where everything of a [`ChartBody::Panels`] chart goes.
#[doc(hidden)]
pub struct PanelLayout {
    canvas: (u32, u32),
    cols: usize,
    /// x of the first column's plot; y of the first row's titles.
    left: i32,
    top: i32,
    panel_w: i32,
    /// Height of one row of panels, and of its parts.
    block_h: i32,
    title_h: i32,
    plot_h: i32,
    /// From the plot's bottom to the panel's x label.
    tick_h: i32,
    /// Each panel's title and x label in lines, and its tick labels.
    #[doc(hidden)]
    pub titles: Vec<Vec<String>>,
    x_labels: Vec<Vec<String>>,
    #[doc(hidden)]
    pub ticks: Vec<CatLabels>,
    caption: Vec<String>,
    y: (f64, f64),
    yt: Vec<(f64, String)>,
}

/// Lines of `px` text one under the other.
fn lines_h(n: usize, px: f64) -> i32 {
    n as i32 * (px as i32 + 4)
}

#[doc(hidden)]
pub fn panels_layout(chart: &Chart) -> Result<PanelLayout> {
    let ChartBody::Panels {
        panels,
        series,
        y_percent,
    } = &chart.body
    else {
        return Err(shape_err(chart, "not a panels chart".to_string()));
    };
    let names: Vec<&str> = series.iter().map(String::as_str).collect();
    let legend_w = legend_width(&names, chart.legend_title.as_deref())?;
    let y = value_axis(
        panels
            .iter()
            .flat_map(|p| p.lines.iter().flat_map(|l| l.1.iter().flatten().copied())),
        *y_percent,
    );
    let mut yt = y_ticks(y.0, y.1, *y_percent);
    let mut tick_w = 0;
    for (_, l) in &yt {
        tick_w = tick_w.max(measure(l, TICK_PX)?.0);
    }
    let left = MARGIN + DESC_PX as i32 + 14 + tick_w + 10;
    let top = MARGIN + TITLE_PX as i32 + 22;
    let n = panels.len().max(1);
    let cols = match n {
        1..=3 => n,
        4 => 2,
        5 | 6 => 3,
        _ => 4,
    };
    let rows = n.div_ceil(cols) as i32;
    let gaps = (cols as i32 - 1) * PANEL_GAP_X;
    let w = (W as i32).max(left + cols as i32 * PANEL_MIN_W + gaps + legend_w + MARGIN);
    let panel_w = (w - left - legend_w - MARGIN - gaps) / cols as i32;
    let mut titles = Vec::with_capacity(panels.len());
    let mut x_labels = Vec::with_capacity(panels.len());
    let mut ticks = Vec::with_capacity(panels.len());
    let (mut title_n, mut label_n, mut extent) = (1, 1, TICK_PX as i32);
    for p in panels {
        let t = wrap_text(&p.title, PANEL_TITLE_PX, panel_w)?;
        let l = wrap_text(&p.x_label, PANEL_LABEL_PX, panel_w)?;
        let slot = panel_w as f64 / p.categories.len().max(1) as f64;
        let mut cl = cat_labels(&p.categories, slot)?;
        // Thinned labels end on the last step too where a step up to
        // twice as wide allows it (2 8 14 20 rather than 2 6 10 14 18).
        let last = p.categories.len().saturating_sub(1);
        if cl.step > 1 && last % cl.step != 0 {
            if let Some(s) = (cl.step + 1..=2 * cl.step).find(|s| last % s == 0) {
                cl.step = s;
            }
        }
        title_n = title_n.max(t.len());
        label_n = label_n.max(l.len());
        extent = extent.max(cl.extent);
        titles.push(t);
        x_labels.push(l);
        ticks.push(cl);
    }
    let title_h = lines_h(title_n, PANEL_TITLE_PX) + 6;
    let tick_h = 9 + extent + 6;
    let fixed = title_h + tick_h + lines_h(label_n, PANEL_LABEL_PX) + PANEL_GAP_Y;
    // The caption under the panels, wrapped on the canvas's width.
    let caption = wrap_text(&chart.x_label, DESC_PX, w - 2 * MARGIN)?;
    let footer = lines_h(caption.len().max(1), DESC_PX) + 10 + MARGIN;
    let plot_h = ((H as i32 - top - footer) / rows - fixed).max(PANEL_MIN_PLOT_H);
    let block_h = fixed + plot_h;
    if *y_percent && plot_h < PANEL_FINE_TICKS_H && (y.1 - y.0 - 1.0).abs() < 1e-9 {
        yt = self::ticks(y.0, y.1, 0.2, &fmt_pct_tick);
    }
    // The legend's own height, every entry whole.
    let mut legend_lines = 0;
    if let Some(t) = chart.legend_title.as_deref() {
        legend_lines += wrap_text(t, LEGEND_PX, LEGEND_SWATCH + 10 + LEGEND_MAX_TEXT)?.len();
    }
    for n in &names {
        legend_lines += wrap_text(n, LEGEND_PX, LEGEND_MAX_TEXT)?.len();
    }
    let legend_h = legend_lines as i32 * LEGEND_ROW;
    let h = (H as i32)
        .max(top + rows * block_h + footer)
        .max(top + legend_h + MARGIN);
    Ok(PanelLayout {
        canvas: (w as u32, h as u32),
        cols,
        left,
        top,
        panel_w,
        block_h,
        title_h,
        plot_h,
        tick_h,
        titles,
        x_labels,
        ticks,
        caption,
        y,
        yt,
    })
}

fn render_panels<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    panels: &[Panel],
    series: &[String],
) -> Result<()> {
    let l = panels_layout(chart)?;
    let (_, h) = p.size();
    let rows = panels.len().max(1).div_ceil(l.cols) as i32;
    let grid_right = l.left + l.cols as i32 * (l.panel_w + PANEL_GAP_X) - PANEL_GAP_X;
    let grid_bottom = l.top + rows * l.block_h - PANEL_GAP_Y;
    let mut markers_anywhere = false;
    for (i, panel) in panels.iter().enumerate() {
        let (r, c) = ((i / l.cols) as i32, (i % l.cols) as i32);
        let x0 = l.left + c * (l.panel_w + PANEL_GAP_X);
        let y0 = l.top + r * l.block_h;
        let mid = x0 + l.panel_w / 2;
        for (k, t) in l.titles[i].iter().enumerate() {
            p.text(
                t,
                PANEL_TITLE_PX,
                INK,
                at(
                    mid,
                    y0 + lines_h(k, PANEL_TITLE_PX),
                    HPos::Center,
                    VPos::Top,
                ),
            )?;
        }
        let n = panel.categories.len();
        let f = Frame {
            left: x0,
            right: x0 + l.panel_w,
            top: y0 + l.title_h,
            bottom: y0 + l.title_h + l.plot_h,
            x: (0.0, n.max(1) as f64),
            y: l.y,
            inset: 0,
        };
        for (v, label) in &l.yt {
            let y = f.py(*v);
            p.line(vec![(f.left, y), (f.right, y)], GRID, 1)?;
            if c == 0 {
                p.line(vec![(f.left - 5, y), (f.left, y)], AXIS, 1)?;
                p.text(
                    label,
                    TICK_PX,
                    INK,
                    at(f.left - 9, y, HPos::Right, VPos::Center),
                )?;
            }
        }
        let xs: Vec<i32> = (0..n).map(|j| f.px(j as f64 + 0.5)).collect();
        for &x in &xs {
            p.line(vec![(x, f.bottom), (x, f.bottom + 4)], AXIS, 1)?;
        }
        p.line(vec![(f.left, f.top), (f.left, f.bottom)], AXIS, 1)?;
        p.line(vec![(f.left, f.bottom), (f.right, f.bottom)], AXIS, 1)?;
        draw_cat_labels(p, &l.ticks[i], &xs, f.bottom + 9)?;
        for (k, t) in l.x_labels[i].iter().enumerate() {
            p.text(
                t,
                PANEL_LABEL_PX,
                INK,
                at(
                    mid,
                    f.bottom + l.tick_h + lines_h(k, PANEL_LABEL_PX),
                    HPos::Center,
                    VPos::Top,
                ),
            )?;
        }
        let markers = n > 0 && l.panel_w as f64 / n as f64 >= PANEL_MARKER_SLOT;
        markers_anywhere |= markers;
        let mut any = false;
        for (si, ys) in &panel.lines {
            let color = series_color(*si);
            let pts: Vec<Option<(i32, i32)>> = ys
                .iter()
                .enumerate()
                .map(|(j, v)| v.filter(|v| v.is_finite()).map(|v| (xs[j], f.py(v))))
                .collect();
            for seg in pts.split(|q| q.is_none()).filter(|s| !s.is_empty()) {
                let seg: Vec<(i32, i32)> = seg.iter().flatten().copied().collect();
                any = true;
                if seg.len() > 1 {
                    p.line(seg.clone(), color, 2)?;
                }
                if markers || seg.len() == 1 {
                    for q in seg {
                        draw_marker(p, q, marker_of(*si), color)?;
                    }
                }
            }
        }
        if !any {
            draw_no_data(p, mid, (f.top + f.bottom) / 2)?;
        }
    }
    if panels.is_empty() {
        draw_no_data(p, (l.left + grid_right) / 2, (l.top + grid_bottom) / 2)?;
    }
    // The shared axis and the caption under every panel.
    let y_desc = fit_text(&chart.y_label, DESC_PX, grid_bottom - l.top)?;
    p.text(
        &y_desc,
        DESC_PX,
        INK,
        TextAt {
            rot: Rot::Up,
            ..at(MARGIN, (l.top + grid_bottom) / 2, HPos::Center, VPos::Top)
        },
    )?;
    // Centred under the panels when it fits there, else on the canvas.
    let (w, _) = p.size();
    let mut cx = (l.left + grid_right) / 2;
    for line in &l.caption {
        let half = measure(line, DESC_PX)?.0 / 2 + 1;
        if cx - half < MARGIN || cx + half > w - MARGIN {
            cx = w / 2;
        }
    }
    let n = l.caption.len();
    for (k, line) in l.caption.iter().enumerate() {
        p.text(
            line,
            DESC_PX,
            INK,
            at(
                cx,
                h - MARGIN - lines_h(n - 1 - k, DESC_PX),
                HPos::Center,
                VPos::Bottom,
            ),
        )?;
    }
    let entries: Vec<(String, Swatch)> = series
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let marker = markers_anywhere.then_some(marker_of(i));
            (n.clone(), Swatch::Line(series_color(i), marker))
        })
        .collect();
    draw_legend(
        p,
        &entries,
        grid_right,
        l.top,
        chart.legend_title.as_deref(),
    )
}

const CBAR_W: i32 = 22;
const Y_LABEL_MAX: i32 = 200;

fn heatmap_layout(chart: &Chart) -> Result<HeatLayout> {
    let ChartBody::Heatmap {
        x,
        y,
        values,
        percent,
        ..
    } = &chart.body
    else {
        return Err(Error::Conflict("chart: not a heatmap".to_string()));
    };
    let percent = *percent;
    let nx = x.len().max(1);
    let ny = y.len().max(1);
    let vals = values.iter().flatten().flatten().copied();
    let (lo, hi) = if percent {
        value_axis(vals, true)
    } else {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in vals.filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (0.0, 1.0)
        } else if hi - lo < 1e-12 {
            (lo - 0.5, hi + 0.5)
        } else {
            (lo, hi)
        }
    };
    let mut tick_w = 0;
    for (_, t) in cbar_ticks(lo, hi, percent) {
        tick_w = tick_w.max(measure(&t, TICK_PX)?.0);
    }
    let right = 28 + CBAR_W + 9 + tick_w + 14 + DESC_PX as i32 + MARGIN;
    let mut y_texts = Vec::with_capacity(y.len());
    let mut y_label_w = 0;
    for l in y {
        let t = fit_text(l, TICK_PX, Y_LABEL_MAX)?;
        y_label_w = y_label_w.max(measure(&t, TICK_PX)?.0);
        y_texts.push(t);
    }
    let left = MARGIN + DESC_PX as i32 + 14 + y_label_w + 10;
    let canvas_w = (left + right + nx as i32 * 44).clamp(W as i32, 1600);
    let grid_w = (canvas_w - left - right).max(40);
    let cell_w = grid_w as f64 / nx as f64;
    let x_labels = cat_labels(x, cell_w)?;
    let top = MARGIN + TITLE_PX as i32 + 22;
    let bottom = 9 + x_labels.extent + 14 + DESC_PX as i32 + MARGIN;
    let want_h = (cell_w * 0.7).clamp(26.0, 60.0);
    let canvas_h = (top + bottom + (want_h * ny as f64) as i32).clamp(480, 1200);
    let grid_h = canvas_h - top - bottom;
    let cell_h = grid_h as f64 / ny as f64;
    let y_step = ((TICK_PX + 4.0) / cell_h).ceil().max(1.0) as usize;

    // Values in cells: at most 30 × 30, and only if every one fits.
    let cell_px = (cell_h * 0.5).clamp(9.0, VALUE_PX + 1.0);
    let mut cell_dec = None;
    if x.len() <= 30 && y.len() <= 30 && cell_h >= cell_px + 4.0 {
        for dec in [1usize, 0] {
            let mut ok = true;
            for v in values.iter().flatten().flatten() {
                if measure(&fmt_value(*v, percent, dec), cell_px)?.0 as f64 + 6.0 > cell_w {
                    ok = false;
                    break;
                }
            }
            if ok {
                cell_dec = Some(dec);
                break;
            }
        }
    }
    Ok(HeatLayout {
        canvas: (canvas_w as u32, canvas_h as u32),
        gx: left,
        gy: top,
        cell_w,
        cell_h,
        x_labels,
        y_texts,
        y_step,
        lo,
        hi,
        cell_dec,
        cell_px,
    })
}

/// Tick values and labels of the colour bar.
fn cbar_ticks(lo: f64, hi: f64, percent: bool) -> Vec<(f64, String)> {
    let step = nice_step((hi - lo) / 5.0);
    if percent {
        ticks(lo, hi, step, &fmt_pct_tick)
    } else {
        ticks(lo, hi, step, &|v| fmt_num(v, 6))
    }
}

fn render_heatmap<DB: DrawingBackend>(
    p: &Painter<'_, DB>,
    chart: &Chart,
    x: &[String],
    y: &[String],
    values: &[Vec<Option<f64>>],
    value_label: &str,
    percent: bool,
) -> Result<()> {
    let l = heatmap_layout(chart)?;
    let (nx, ny) = (x.len(), y.len());
    let grid_w = (l.cell_w * nx.max(1) as f64).round() as i32;
    let grid_h = (l.cell_h * ny.max(1) as f64).round() as i32;
    let cx = |c: usize| l.gx + (l.cell_w * c as f64).round() as i32;
    let cy = |r: usize| l.gy + (l.cell_h * r as f64).round() as i32;
    let norm = |v: f64| (v - l.lo) / (l.hi - l.lo);
    let gutter = if l.cell_w >= 8.0 && l.cell_h >= 8.0 {
        1
    } else {
        0
    };

    // Missing cells stay a pale grey.
    p.fill_rect((l.gx, l.gy), (l.gx + grid_w, l.gy + grid_h), BLANK)?;
    let mut any = false;
    for (r, row) in values.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            let Some(v) = v.filter(|v| v.is_finite()) else {
                continue;
            };
            any = true;
            let color = viridis(norm(v));
            let (x0, y0, x1, y1) = (cx(c), cy(r), cx(c + 1), cy(r + 1));
            p.fill_rect((x0, y0), (x1 - gutter, y1 - gutter), color)?;
            if let Some(dec) = l.cell_dec {
                p.text(
                    &fmt_value(v, percent, dec),
                    l.cell_px,
                    text_on(color),
                    at((x0 + x1) / 2, (y0 + y1) / 2, HPos::Center, VPos::Center),
                )?;
            }
        }
    }
    if !any {
        draw_no_data(p, l.gx + grid_w / 2, l.gy + grid_h / 2)?;
    }

    // Category labels and axis descriptions.
    let xs: Vec<i32> = (0..nx).map(|c| (cx(c) + cx(c + 1)) / 2).collect();
    draw_cat_labels(p, &l.x_labels, &xs, l.gy + grid_h + 9)?;
    for (r, t) in l.y_texts.iter().enumerate() {
        if r % l.y_step == 0 {
            p.text(
                t,
                TICK_PX,
                INK,
                at(
                    l.gx - 10,
                    (cy(r) + cy(r + 1)) / 2,
                    HPos::Right,
                    VPos::Center,
                ),
            )?;
        }
    }
    let x_desc = fit_text(&chart.x_label, DESC_PX, grid_w + 100)?;
    p.text(
        &x_desc,
        DESC_PX,
        INK,
        at(
            l.gx + grid_w / 2,
            p.size().1 - MARGIN,
            HPos::Center,
            VPos::Bottom,
        ),
    )?;
    let y_desc = fit_text(&chart.y_label, DESC_PX, grid_h + 60)?;
    p.text(
        &y_desc,
        DESC_PX,
        INK,
        TextAt {
            rot: Rot::Up,
            ..at(MARGIN, l.gy + grid_h / 2, HPos::Center, VPos::Top)
        },
    )?;

    // Colour bar with its ticks and name.
    let bx = l.gx + grid_w + 28;
    let bar_h = grid_h.clamp(40, 360);
    let by = l.gy + (grid_h - bar_h) / 2;
    for i in 0..bar_h {
        let t = 1.0 - (i as f64 + 0.5) / bar_h as f64;
        p.fill_rect((bx, by + i), (bx + CBAR_W, by + i + 1), viridis(t))?;
    }
    p.stroke_rect((bx, by), (bx + CBAR_W, by + bar_h), AXIS)?;
    let mut tick_w = 0;
    for (v, t) in cbar_ticks(l.lo, l.hi, percent) {
        let ty = by + ((1.0 - norm(v)) * bar_h as f64).round() as i32;
        p.line(vec![(bx + CBAR_W, ty), (bx + CBAR_W + 5, ty)], AXIS, 1)?;
        p.text(
            &t,
            TICK_PX,
            INK,
            at(bx + CBAR_W + 9, ty, HPos::Left, VPos::Center),
        )?;
        tick_w = tick_w.max(measure(&t, TICK_PX)?.0);
    }
    let name = fit_text(value_label, DESC_PX, grid_h.max(bar_h + 80))?;
    p.text(
        &name,
        DESC_PX,
        INK,
        TextAt {
            rot: Rot::Up,
            ..at(
                bx + CBAR_W + 9 + tick_w + 14,
                by + bar_h / 2,
                HPos::Center,
                VPos::Top,
            )
        },
    )
}

// ---------------------------------------------------------------------------
// PNG encoding

fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>> {
    let fail = |e: png::EncodingError| Error::Conflict(format!("chart: PNG encoding failed: {e}"));
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Default);
        let mut writer = enc.write_header().map_err(fail)?;
        writer.write_image_data(rgb).map_err(fail)?;
        writer.finish().map_err(fail)?;
    }
    Ok(out)
}
