//! Tests of `src/systems/dice/cond.rs` (`hantei::systems::dice::cond`).

use hantei::systems::dice::ast::{Cmp, FaceCond};
use hantei::systems::dice::pool::Stat;

use hantei::systems::dice::cond::*;

fn get(s: &Stat) -> i64 {
    match s {
        Stat::Total => 12,
        Stat::Max => 6,
        Stat::Count(FaceCond::Cmp(Cmp::Eq, 6), None) => 2,
        Stat::Named(n) if &**n == "hope" => 7,
        Stat::Named(n) if &**n == "fear" => 5,
        Stat::AllEqual => 0,
        _ => 0,
    }
}

#[test]
fn reads_and_evaluates() {
    for (text, want) in [
        (">=10", true),
        (">=13", false),
        ("total>=10 and max==6", true),
        ("count(==6)>=2", true),
        ("count(6)>=3", false),
        ("hope>fear", true),
        ("hope>fear and not doubles", true),
        ("(hope-fear)*2==4", true),
        ("max<6 or total==12", true),
        ("!(max==6)", false),
        ("total/5==2", true),
        ("-3<total-14", true),
    ] {
        let e = parse(text).unwrap();
        assert_eq!(e.holds(&get), want, "{text}");
        // Echo re-parses to the same condition.
        let again = parse(&e.to_string()).unwrap();
        assert_eq!(again, e, "{text} → {e}");
    }
}

#[test]
fn refuses_with_a_caret() {
    for text in [
        "",
        "total",
        "max>=",
        "count(==6",
        ">=10 )",
        "1+",
        "max ≥ 3",
        "count()",
    ] {
        assert!(parse(text).is_err(), "{text}");
    }
}

#[test]
fn a_misspelt_count_is_named() {
    let e = parse("cuont(6)>=2").unwrap_err().to_string();
    assert!(e.contains("'cuont(' is no statistic"), "{e}");
    assert!(e.contains("did you mean count?"), "{e}");
    let e = parse("hope(1)>=2").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
}
