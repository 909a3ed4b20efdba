//! Tests of `src/init/mod.rs` (`hantei::init`).

use hantei::init::*;

#[test]
fn a_source_is_quoted_for_yaml() {
    let w = workflow("https://example.org/o'brien/hantei").unwrap();
    assert!(w.contains("HANTEI_SOURCE: 'https://example.org/o''brien/hantei'\n"));
    assert!(!w.contains("{{source}}"));
    assert!(workflow("a\nb").is_err());
    assert!(workflow(" ").is_err());
}

#[test]
fn every_system_has_its_own_template() {
    use clap::ValueEnum;
    let ids: Vec<&str> = System::value_variants()
        .iter()
        .map(|&s| template(s).id)
        .collect();
    assert_eq!(
        ids,
        [
            "d20",
            "multiplier",
            "keep-highest",
            "levels",
            "hit-pool",
            "dice"
        ]
    );
    for &s in System::value_variants() {
        let t = template(s);
        // `--system ID` names the system as `hantei odds ID` does.
        assert_eq!(s.to_possible_value().unwrap().get_name(), t.id);
        assert!(t.analysis.contains(&format!("system = \"{}\"", t.id)));
        assert!(t.analysis.contains("[[check]]") && t.analysis.contains("[[chart]]"));
    }
}
