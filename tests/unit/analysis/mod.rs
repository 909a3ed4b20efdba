//! Tests of `src/analysis/mod.rs` (`hantei::analysis`).

use serde_json::json;

#[test]
fn the_notations_own_braces_are_kept() {
    let mut m = json!({"expr": "{{n}D8!,1D6!}KH1+2D{0,s}+3D6{1:2}", "n": 2})
        .as_object()
        .unwrap()
        .clone();
    hantei::analysis::fill_placeholders(&mut m).unwrap();
    assert_eq!(m["expr"], "{2D8!,1D6!}KH1+2D{0,s}+3D6{1:2}");
}

#[test]
fn placeholders_are_filled_from_other_fields_and_consumed() {
    let mut m = json!({"expr": "1D20+{mod}>={dc}", "mod": 5, "dc": 15, "tier": "x"})
        .as_object()
        .unwrap()
        .clone();
    hantei::analysis::fill_placeholders(&mut m).unwrap();
    assert_eq!(m["expr"], "1D20+5>=15");
    assert!(m.get("mod").is_none() && m.get("dc").is_none());
    assert_eq!(m["tier"], "x");
    let mut m = json!({"expr": "{{}}{n}D6", "n": 2})
        .as_object()
        .unwrap()
        .clone();
    hantei::analysis::fill_placeholders(&mut m).unwrap();
    assert_eq!(m["expr"], "{}2D6");
    // Lists of texts (tiers) are filled too; other items stay.
    let mut m =
        json!({"expr": "2D6+{stat}", "tier": ["hit:>={dc}", "miss", 3], "stat": 1, "dc": 7})
            .as_object()
            .unwrap()
            .clone();
    hantei::analysis::fill_placeholders(&mut m).unwrap();
    assert_eq!(m["expr"], "2D6+1");
    assert_eq!(m["tier"], json!(["hit:>=7", "miss", 3]));
    assert!(m.get("stat").is_none() && m.get("dc").is_none());
    for bad in [
        json!({"expr": "1D20+{x}"}),
        json!({"expr": "1D20", "tier": ["hit:>={dc}"]}),
    ] {
        let mut m = bad.as_object().unwrap().clone();
        let e = hantei::analysis::fill_placeholders(&mut m).unwrap_err();
        assert!(
            (e.contains("expr") || e.contains("tier")) && !e.contains('\n'),
            "{e}"
        );
    }
}

mod diff;
mod ladders;
mod metric;
mod output;
