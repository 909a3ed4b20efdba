//! Tests of `src/systems/dice/hints.rs` (`hantei::systems::dice::hints`).

use hantei::systems::dice::hints::*;

#[test]
fn cut_conditions_are_recognised() {
    let h = cut_condition_hint("critical:natural").expect("cut");
    assert!(
        h.contains("quote") && h.contains("'critical:natural>=19'"),
        "{h}"
    );
    let h = cut_condition_hint("hit:").expect("cut");
    assert!(h.contains("is empty") && h.contains("'hit:>=15'"), "{h}");
    assert!(cut_condition_hint("強打：").is_some());
    for fine in [
        "hit:>=15",
        "critical:natural>=19",
        "miss",
        "other",
        ":",
        "決定的成功:<=6",
    ] {
        assert_eq!(cut_condition_hint(fine), None, "{fine}");
    }
}

#[test]
fn an_opposing_total_with_a_comparison_is_refused() {
    let cmd = hantei::systems::dice::parse("1D6>=4").unwrap();
    let why = ignored_vs_target(&cmd).expect("refused");
    assert!(why.contains(">=4") && why.contains("--vs \"1D6\""), "{why}");
    for fine in ["1D6", "2B6>=4", "3R6>=5", "2D6+3"] {
        let cmd = hantei::systems::dice::parse(fine).unwrap();
        assert_eq!(ignored_vs_target(&cmd), None, "{fine}");
    }
}
