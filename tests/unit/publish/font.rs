//! Tests of `src/publish/font.rs` (`hantei::publish::font`).

use ab_glyph::{Font, FontRef};

#[test]
fn the_subset_draws_the_same_glyphs_and_only_those() {
    let text = "判定 成功率 クリティカル Aa%";
    let sub = hantei::publish::font::subset(text.chars()).unwrap();
    let full = FontRef::try_from_slice(hantei::chart::FONT_TTF).unwrap();
    let small = FontRef::try_from_slice(&sub).unwrap();
    assert!(sub.len() < 60_000, "{} bytes", sub.len());
    for c in text.chars().filter(|c| *c != ' ') {
        let (a, b) = (full.glyph_id(c), small.glyph_id(c));
        assert_ne!(b.0, 0, "{c} is in the subset");
        assert_eq!(
            full.h_advance_unscaled(a),
            small.h_advance_unscaled(b),
            "{c}"
        );
        let (oa, ob) = (full.outline(a).unwrap(), small.outline(b).unwrap());
        assert_eq!(
            format!("{:?}", oa.curves),
            format!("{:?}", ob.curves),
            "{c}: same outline"
        );
    }
    // A character not asked for is not there.
    assert_eq!(small.glyph_id('漢').0, 0);
    assert_ne!(full.glyph_id('漢').0, 0);
}
