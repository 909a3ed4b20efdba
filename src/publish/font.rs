//! A subset of the embedded Japanese font (IPAexGothic, IPA Font License
//! v1.0, `assets/fonts/`) holding only the glyphs a page uses, so a
//! published page can carry it as a `data:` URL `@font-face` and render its
//! Japanese text on a machine with no Japanese font installed, with nothing
//! loaded from elsewhere (a browser will not load a font file beside a page
//! opened from `file://`).
//!
//! The subset is a plain TrueType font: the glyphs of the characters asked
//! for (and the components of composite glyphs), renumbered from 0
//! (`.notdef`); a new `cmap` (format 4), `glyf`, `loca` (long), `hmtx`;
//! `head`, `hhea`, `maxp` and `post` (version 3, no glyph names) adjusted;
//! `OS/2`, `name` and the hinting tables copied; the layout tables (GSUB,
//! GPOS, …) and vertical metrics left out. Characters outside the Basic
//! Multilingual Plane, or that the font lacks, are left to the browser's
//! fallback fonts.

use std::collections::BTreeMap;

use ab_glyph::{Font as _, FontRef};

use crate::chart::FONT_TTF;
use crate::error::{Error, Result};

fn bad(what: &str) -> Error {
    Error::Conflict(format!(
        "font subset: the embedded font's {what} is malformed"
    ))
}

fn u16_at(d: &[u8], at: usize) -> Result<u16> {
    d.get(at..at + 2)
        .map(|b| u16::from_be_bytes([b[0], b[1]]))
        .ok_or_else(|| bad("data"))
}

fn u32_at(d: &[u8], at: usize) -> Result<u32> {
    d.get(at..at + 4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| bad("data"))
}

/// The tables of a TrueType font, by tag.
fn tables(font: &[u8]) -> Result<BTreeMap<[u8; 4], &[u8]>> {
    let n = u16_at(font, 4)? as usize;
    let mut out = BTreeMap::new();
    for i in 0..n {
        let rec = 12 + 16 * i;
        let tag: [u8; 4] = font
            .get(rec..rec + 4)
            .and_then(|t| t.try_into().ok())
            .ok_or_else(|| bad("table directory"))?;
        let off = u32_at(font, rec + 8)? as usize;
        let len = u32_at(font, rec + 12)? as usize;
        let data = font
            .get(off..off + len)
            .ok_or_else(|| bad("table directory"))?;
        out.insert(tag, data);
    }
    Ok(out)
}

fn need<'a>(t: &BTreeMap<[u8; 4], &'a [u8]>, tag: &[u8; 4]) -> Result<&'a [u8]> {
    t.get(tag)
        .copied()
        .ok_or_else(|| bad(&String::from_utf8_lossy(tag)))
}

/// Composite glyph flags.
const ARG_1_AND_2_ARE_WORDS: u16 = 0x0001;
const WE_HAVE_A_SCALE: u16 = 0x0008;
const MORE_COMPONENTS: u16 = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE: u16 = 0x0040;
const WE_HAVE_A_TWO_BY_TWO: u16 = 0x0080;

/// Offsets (within the glyph) of the component glyph ids of a composite
/// glyph; empty for a simple one.
fn component_offsets(glyph: &[u8]) -> Result<Vec<usize>> {
    if glyph.len() < 10 || (u16_at(glyph, 0)? as i16) >= 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut at = 10;
    loop {
        let flags = u16_at(glyph, at)?;
        out.push(at + 2);
        at += 4;
        at += if flags & ARG_1_AND_2_ARE_WORDS != 0 {
            4
        } else {
            2
        };
        if flags & WE_HAVE_A_SCALE != 0 {
            at += 2;
        } else if flags & WE_HAVE_AN_X_AND_Y_SCALE != 0 {
            at += 4;
        } else if flags & WE_HAVE_A_TWO_BY_TWO != 0 {
            at += 8;
        }
        if flags & MORE_COMPONENTS == 0 {
            return Ok(out);
        }
    }
}

/// A TrueType font holding the glyphs of `chars` (those the embedded font
/// has, in the Basic Multilingual Plane), as the bytes of a `.ttf` file.
pub fn subset(chars: impl IntoIterator<Item = char>) -> Result<Vec<u8>> {
    let face = FontRef::try_from_slice(FONT_TTF).map_err(|_| bad("header"))?;
    let t = tables(FONT_TTF)?;
    let (head, hhea, maxp, hmtx, loca, glyf) = (
        need(&t, b"head")?,
        need(&t, b"hhea")?,
        need(&t, b"maxp")?,
        need(&t, b"hmtx")?,
        need(&t, b"loca")?,
        need(&t, b"glyf")?,
    );
    let num_glyphs = u16_at(maxp, 4)? as usize;
    let long_loca = u16_at(head, 50)? == 1;
    let glyph = |id: usize| -> Result<&[u8]> {
        let (a, b) = if long_loca {
            (
                u32_at(loca, id * 4)? as usize,
                u32_at(loca, id * 4 + 4)? as usize,
            )
        } else {
            (
                u16_at(loca, id * 2)? as usize * 2,
                u16_at(loca, id * 2 + 2)? as usize * 2,
            )
        };
        glyf.get(a..b).ok_or_else(|| bad("loca"))
    };
    // The characters and their glyphs.
    let mut map: BTreeMap<u16, u16> = BTreeMap::new();
    for c in chars {
        let Ok(code) = u16::try_from(u32::from(c)) else {
            continue;
        };
        let id = face.glyph_id(c).0;
        if id != 0 && code != 0xFFFF {
            map.insert(code, id);
        }
    }
    // Glyphs kept: .notdef, the characters', and their components.
    let mut keep: Vec<u16> = vec![0];
    keep.extend(map.values().copied());
    let mut i = 0;
    while i < keep.len() {
        let g = glyph(keep[i] as usize)?;
        for off in component_offsets(g)? {
            let c = u16_at(g, off)?;
            if (c as usize) < num_glyphs && !keep.contains(&c) {
                keep.push(c);
            }
        }
        i += 1;
    }
    keep.sort_unstable();
    keep.dedup();
    let new_id = |old: u16| keep.binary_search(&old).map(|i| i as u16).unwrap_or(0);
    // glyf and loca (long offsets), component ids renumbered.
    let mut new_glyf: Vec<u8> = Vec::new();
    let mut new_loca: Vec<u8> = Vec::new();
    for &old in &keep {
        new_loca.extend((new_glyf.len() as u32).to_be_bytes());
        let mut g = glyph(old as usize)?.to_vec();
        for off in component_offsets(&g)? {
            let c = new_id(u16_at(&g, off)?);
            g[off..off + 2].copy_from_slice(&c.to_be_bytes());
        }
        new_glyf.extend(&g);
        while new_glyf.len() % 4 != 0 {
            new_glyf.push(0);
        }
    }
    new_loca.extend((new_glyf.len() as u32).to_be_bytes());
    // hmtx: every glyph its own advance and left side bearing.
    let long_metrics = u16_at(hhea, 34)? as usize;
    let mut new_hmtx = Vec::new();
    for &old in &keep {
        let old = old as usize;
        let (adv, lsb) = if old < long_metrics {
            (u16_at(hmtx, old * 4)?, u16_at(hmtx, old * 4 + 2)?)
        } else {
            (
                u16_at(hmtx, (long_metrics - 1) * 4)?,
                u16_at(hmtx, long_metrics * 4 + (old - long_metrics) * 2)?,
            )
        };
        new_hmtx.extend(adv.to_be_bytes());
        new_hmtx.extend(lsb.to_be_bytes());
    }
    let n = keep.len() as u16;
    let mut new_head = head.to_vec();
    new_head[8..12].copy_from_slice(&[0; 4]);
    new_head[50..52].copy_from_slice(&1u16.to_be_bytes());
    let mut new_hhea = hhea.to_vec();
    new_hhea[34..36].copy_from_slice(&n.to_be_bytes());
    let mut new_maxp = maxp.to_vec();
    new_maxp[4..6].copy_from_slice(&n.to_be_bytes());
    let mut new_post = need(&t, b"post")?
        .get(..32)
        .ok_or_else(|| bad("post"))?
        .to_vec();
    new_post[0..4].copy_from_slice(&0x0003_0000u32.to_be_bytes());
    let cmap = cmap4(&map, new_id);

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = vec![
        (*b"OS/2", need(&t, b"OS/2")?.to_vec()),
        (*b"cmap", cmap),
        (*b"glyf", new_glyf),
        (*b"head", new_head),
        (*b"hhea", new_hhea),
        (*b"hmtx", new_hmtx),
        (*b"loca", new_loca),
        (*b"maxp", new_maxp),
        (*b"name", need(&t, b"name")?.to_vec()),
        (*b"post", new_post),
    ];
    for tag in [b"cvt ", b"fpgm", b"gasp", b"prep"] {
        if let Some(d) = t.get(tag) {
            out_tables.push((*tag, d.to_vec()));
        }
    }
    out_tables.sort_by_key(|t| t.0);
    Ok(assemble(&out_tables))
}

/// A `cmap` with one (3, 1) format 4 subtable: one segment per character.
fn cmap4(map: &BTreeMap<u16, u16>, new_id: impl Fn(u16) -> u16) -> Vec<u8> {
    let mut ends = Vec::new();
    let mut starts = Vec::new();
    let mut deltas = Vec::new();
    for (&code, &old) in map {
        starts.push(code);
        ends.push(code);
        deltas.push(new_id(old).wrapping_sub(code));
    }
    starts.push(0xFFFF);
    ends.push(0xFFFF);
    deltas.push(1);
    let segs = starts.len() as u16;
    let (pow, log) = search_range(segs);
    let mut sub = Vec::new();
    let len = 16 + 8 * segs as usize;
    for v in [
        4u16,
        len as u16,
        0,
        segs * 2,
        pow * 2,
        log,
        segs * 2 - pow * 2,
    ] {
        sub.extend(v.to_be_bytes());
    }
    ends.iter().for_each(|v| sub.extend(v.to_be_bytes()));
    sub.extend(0u16.to_be_bytes());
    starts.iter().for_each(|v| sub.extend(v.to_be_bytes()));
    deltas.iter().for_each(|v| sub.extend(v.to_be_bytes()));
    (0..segs).for_each(|_| sub.extend(0u16.to_be_bytes()));
    let mut out = Vec::new();
    for v in [0u16, 1, 3, 1] {
        out.extend(v.to_be_bytes());
    }
    out.extend(12u32.to_be_bytes());
    out.extend(sub);
    out
}

/// The largest power of two not above `n` and its log, from which the
/// binary-search fields of the table directory and of `cmap` format 4 are
/// made.
fn search_range(n: u16) -> (u16, u16) {
    let mut pow = 1u16;
    let mut log = 0u16;
    while pow * 2 <= n {
        pow *= 2;
        log += 1;
    }
    (pow, log)
}

fn checksum(d: &[u8]) -> u32 {
    d.chunks(4).fold(0u32, |s, c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        s.wrapping_add(u32::from_be_bytes(w))
    })
}

/// The font file of `tables` (sorted by tag), with checksums and the
/// `head` checksum adjustment.
fn assemble(tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let n = tables.len() as u16;
    let (pow, log) = search_range(n);
    let mut out = Vec::new();
    out.extend(0x0001_0000u32.to_be_bytes());
    for v in [n, pow * 16, log, n * 16 - pow * 16] {
        out.extend(v.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    let mut body = Vec::new();
    let mut head_at = None;
    for (tag, data) in tables {
        out.extend(tag);
        out.extend(checksum(data).to_be_bytes());
        out.extend((offset as u32).to_be_bytes());
        out.extend((data.len() as u32).to_be_bytes());
        if tag == b"head" {
            head_at = Some(offset);
        }
        body.extend(data);
        while body.len() % 4 != 0 {
            body.push(0);
        }
        offset = 12 + 16 * tables.len() + body.len();
    }
    out.extend(body);
    if let Some(at) = head_at {
        let adj = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[at + 8..at + 12].copy_from_slice(&adj.to_be_bytes());
    }
    out
}
