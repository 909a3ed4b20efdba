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

/// A long exact law's texts (written in parallel past a million bits of
/// denominators) come out in order, each its own fraction: as JSON
/// (an object and a list) and as CSV rows.
#[test]
fn long_exact_laws_print_in_order() {
    use hantei::weight::{Exact, Weight};
    use num_bigint::BigInt;
    use num_traits::Pow;
    let den = Pow::pow(&BigInt::from(6), 1200u32);
    let ps: Vec<Exact> = (0..1000)
        .map(|k| Exact::new(BigInt::from(k * 7 + 1), den.clone()))
        .collect();
    let items: Vec<(String, Field<Exact>)> = ps
        .iter()
        .enumerate()
        .map(|(k, p)| (k.to_string(), Field::Prob(p.clone())))
        .collect();
    let obj = field_json(&Field::Object(items.clone()));
    let list = field_json(&Field::Probs(ps.clone()));
    for (k, p) in ps.iter().enumerate() {
        assert_eq!(obj[k.to_string()], p.exact_text(), "object at {k}");
        assert_eq!(list[k], p.exact_text(), "list at {k}");
    }
    let keys: Vec<&String> = obj.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 1000);
    let r = Report::<Exact>::bare(
        "dice",
        "ダイス",
        Exact::new(BigInt::from(1), BigInt::from(2)),
    )
    .field("distribution", Field::Object(items));
    let csv = String::from_utf8(hantei::export::render(&r, hantei::export::Format::Csv)).unwrap();
    let rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.starts_with("field,distribution."))
        .collect();
    assert_eq!(rows.len(), 1000);
    for (k, row) in rows.iter().enumerate() {
        assert!(
            row.starts_with(&format!("field,distribution.{k},")),
            "{row}"
        );
        assert!(row.ends_with(&ps[k].exact_text()), "row {k}");
    }
}
