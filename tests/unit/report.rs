//! Tests of `src/report.rs` (`hantei::report`).

use hantei::report::*;

/// Issue 30 item 2: a floating-point probability a hair outside [0, 1]
/// (or −0) is printed as 0 or 1; values that are no probabilities are
/// left alone, and exact reports are untouched.
#[test]
fn probabilities_are_clamped_at_the_boundary() {
    let r = Report::<f64>::bare("dice", "ダイス", 1.000_000_000_000_01)
        .prob("tail_mass", -0.0)
        .prob("p_loss", -2.2e-16)
        .field("mean", Field::Value(-3.5))
        .field(
            "distribution",
            Field::Object(vec![("5".into(), Field::Prob(-5.2e-26))]),
        )
        .field("p_done_by", Field::Probs(vec![0.5, 1.000_000_000_000_07]))
        .clamp_probabilities();
    let j = r.to_json();
    assert_eq!(j["p_success"], 1.0);
    assert!(!j["tail_mass"].as_f64().unwrap().is_sign_negative());
    assert_eq!(j["p_loss"], 0.0);
    assert_eq!(j["mean"], -3.5);
    assert_eq!(j["distribution"]["5"], 0.0);
    assert_eq!(j["p_done_by"][1], 1.0);
}
