//! The bundled analyses, embedded at build time: every `analyses/*.toml`
//! and every file of `output/`, listed at `/api/analyses` and served at
//! `/analyses/NAME` and `/output/NAME`.
//!
//! Files are looked up by name in the embedded tables — never on disk — so
//! a path trick (`..`, `%2e%2e`, a slash, a backslash) matches nothing and
//! gets a 404. (`build.rs` makes cargo rebuild when either folder changes.)

use include_dir::{include_dir, Dir};
use serde::Serialize;

static ANALYSES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/analyses");
static OUTPUT: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/output");

/// One analysis file and the outputs it wrote.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The file's stem (`d20-success`).
    pub name: String,
    /// The analysis file (`d20-success.toml`, served at `/analyses/…`).
    pub file: String,
    /// Its `title`, if it has one.
    pub title: Option<String>,
    /// Its `title_ja`, if it has one.
    pub title_ja: Option<String>,
    /// Its output files (served at `/output/…`), sorted.
    pub outputs: Vec<String>,
}

/// A plain file name: no folder, no parent, nothing hidden.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && !name.contains("..")
}

/// The bytes of `analyses/NAME`, if it is a bundled file.
pub fn analysis_file(name: &str) -> Option<&'static [u8]> {
    if !plain(name) {
        return None;
    }
    ANALYSES.get_file(name).map(|f| f.contents())
}

/// The bytes of `output/NAME`, if it is a bundled file.
pub fn output_file(name: &str) -> Option<&'static [u8]> {
    if !plain(name) {
        return None;
    }
    OUTPUT.get_file(name).map(|f| f.contents())
}

/// The content type of a bundled file, by its extension.
pub fn mime(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("csv") => "text/csv; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("toml") => "text/plain; charset=utf-8",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

fn stem(name: &str) -> &str {
    name.split_once('.').map_or(name, |(s, _)| s)
}

/// Every analysis with its outputs. An output belongs to the analysis whose
/// name is the longest prefix of its own (`d20-success-by-roll.svg` to
/// `d20-success`; `extended-hit-pool.md` to `extended-hit-pool`, not
/// `extended`); outputs of no analysis (the shared `ladders`) are listed
/// under the analysis of their own name when there is one.
pub fn analyses() -> Vec<Analysis> {
    let mut list: Vec<Analysis> = ANALYSES
        .files()
        .filter_map(|f| {
            let file = f.path().to_str()?.to_string();
            let name = file.strip_suffix(".toml")?.to_string();
            let text = f.contents_utf8().unwrap_or("");
            let table: Option<toml::Table> = toml::from_str(text).ok();
            let get = |k: &str| {
                table
                    .as_ref()
                    .and_then(|t| t.get(k))
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            };
            Some(Analysis {
                title: get("title"),
                title_ja: get("title_ja"),
                name,
                file,
                outputs: Vec::new(),
            })
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    let mut outputs: Vec<&str> = OUTPUT.files().filter_map(|f| f.path().to_str()).collect();
    outputs.sort_unstable();
    for out in outputs {
        let s = stem(out);
        let owner = list
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                s == a.name
                    || (s.starts_with(&a.name) && s.as_bytes().get(a.name.len()) == Some(&b'-'))
            })
            .max_by_key(|(_, a)| a.name.len())
            .map(|(i, _)| i);
        if let Some(i) = owner {
            list[i].outputs.push(out.to_string());
        }
    }
    list
}
