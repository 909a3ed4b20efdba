//! `GET /api/glyphs?text=…`: the outlines of the embedded font's glyphs for
//! the characters of `text`, so the page can save a chart as an SVG that
//! draws its own text (Japanese included) on a machine with no Japanese
//! font, as `hantei run`'s SVG charts do ([`crate::chart::svg`]).
//!
//! The answer is `{"em": 1000, "glyphs": {"判": {"adv": 1000, "d": "M…Z"}, …}}`:
//! each glyph's advance and its outline as SVG path data in units of 1/1000
//! em, on a baseline at y = 0 with y down (SVG's direction). A character
//! the font lacks is left out (the page keeps its text for it).

use std::collections::BTreeMap;

use ab_glyph::{Font, FontRef};
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// Most distinct characters one request may ask for.
pub const MAX_CHARS: usize = 2000;

/// The glyph outlines of the distinct characters of `text`.
pub fn glyphs(text: &str) -> Result<Value, String> {
    let face = FontRef::try_from_slice(crate::chart::FONT_TTF)
        .map_err(|e| format!("the embedded font cannot be read ({e})"))?;
    let upm = face.units_per_em().unwrap_or(1000.0);
    let k = 1000.0 / upm;
    let distinct: std::collections::BTreeSet<char> =
        text.chars().filter(|c| !c.is_control()).collect();
    if distinct.len() > MAX_CHARS {
        return Err(format!(
            "invalid value '{} distinct characters' for text: allowed at most {MAX_CHARS}",
            distinct.len()
        ));
    }
    let mut out = BTreeMap::new();
    for c in distinct {
        let id = face.glyph_id(c);
        if id.0 == 0 && c != ' ' {
            continue;
        }
        let adv = face.h_advance_unscaled(id) * k;
        let mut d = String::new();
        if let Some(outline) = face.outline(id) {
            let p = |q: ab_glyph::Point| ((q.x * k).round() as i32, (-q.y * k).round() as i32);
            crate::chart::outline_path(&mut d, &outline, p);
        }
        out.insert(c.to_string(), json!({ "adv": adv.round() as i32, "d": d }));
    }
    Ok(json!({ "em": 1000, "glyphs": out }))
}

/// `GET /api/glyphs?text=…`.
pub async fn handler(query: Query<Vec<(String, String)>>) -> Response {
    let text: String = query
        .0
        .iter()
        .filter(|(k, _)| k == "text")
        .map(|(_, v)| v.as_str())
        .collect();
    match glyphs(&text) {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => super::api::error_response(StatusCode::BAD_REQUEST, &e),
    }
}
