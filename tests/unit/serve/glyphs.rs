//! Tests of `src/serve/glyphs.rs` (`hantei::serve::glyphs`).

use hantei::serve::glyphs::*;

#[test]
fn glyphs_of_latin_and_japanese() {
    let v = glyphs("判定 A判").unwrap();
    let g = v["glyphs"].as_object().unwrap();
    // Distinct characters: 判, 定, space, A.
    assert_eq!(g.len(), 4);
    // IPAexGothic's kanji are full width (1 em); the space has no outline.
    assert_eq!(g["判"]["adv"], 1000);
    assert!(g["判"]["d"].as_str().unwrap().starts_with('M'));
    assert_eq!(g[" "]["d"], "");
    // A Latin capital sits on the baseline: its outline reaches above
    // it (negative y) and not far below.
    let d = g["A"]["d"].as_str().unwrap();
    let ys: Vec<i32> = d
        .split(|c: char| c.is_ascii_alphabetic())
        .filter(|s| !s.is_empty())
        .flat_map(|s| {
            s.split(' ')
                .filter_map(|n| n.parse().ok())
                .collect::<Vec<i32>>()
                .chunks(2)
                .map(|xy| xy[1])
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(ys.iter().min().unwrap() < &-600, "{d}");
    assert!(ys.iter().max().unwrap() <= &10, "{d}");
}

#[test]
fn too_many_characters_are_refused() {
    let text: String = (0x4E00u32..0x4E00 + 2100)
        .filter_map(char::from_u32)
        .collect();
    let e = glyphs(&text).unwrap_err();
    assert!(e.contains("at most 2000"), "{e}");
}
