//! Tests of `src/analysis/metric.rs` (`hantei::analysis::metric`).

use hantei::weight::{Exact, Weight};

use hantei::analysis::metric::*;
use serde_json::json;

#[test]
fn paths() {
    let r = json!({
        "p_success": 0.5,
        "outcomes": {"critical": 0.05},
        "hits": [0.25, 0.5, 0.25],
        "policies": [{"policy": "none", "worth": 0.0}, {"policy": "optimal", "worth": 0.4}],
        "by_level": [{"level": 1, "p_lands": 0.15}, {"level": 2, "p_lands": 0.18}],
        "best_level": 2,
    });
    let e = |t: &str| Metric::parse(t).unwrap().eval(&r);
    assert_eq!(e("p_success"), Some(0.5));
    assert_eq!(e("outcomes.critical"), Some(0.05));
    assert_eq!(e("hits[1]"), Some(0.5));
    assert_eq!(e("hits>=1"), Some(0.75));
    assert_eq!(e("policies[policy=optimal].worth"), Some(0.4));
    assert_eq!(e("by_level[level=2].p_lands"), Some(0.18));
    assert_eq!(e("best_level"), Some(2.0));
    assert_eq!(e("p_glitch"), None);
    assert_eq!(e("hits[*]"), Some(1.0));
    assert_eq!(e("outcomes[*]"), Some(0.05));
    assert_eq!(e("1-p_success"), Some(0.5));
    assert_eq!(e("1/p_success"), Some(2.0));
    let x = json!({"outcomes": {"a": "1/3", "b": "2/3"}, "hits": ["1/6", "5/6"]});
    let ex = |t: &str| Metric::parse(t).unwrap().eval_exact(&x);
    assert_eq!(ex("outcomes[*]"), Some(Exact::int(1)));
    assert_eq!(ex("hits>=1"), Some(Exact::ratio(5, 6)));
    assert_eq!(ex("1-outcomes.a"), Some(Exact::ratio(2, 3)));
    // Rounds, 1-based: hits:2 is hits[1].
    assert_eq!(e("hits:2"), Some(0.5));
    assert_eq!(e("hits:4"), None);
    assert!(Metric::parse("hits:0").is_err());
    assert!(Metric::parse("hits:x").is_err());
    assert!(Metric::parse("hits>=x").is_err());
    assert!(Metric::parse("a[").is_err());
    assert!(Metric::parse("").is_err());
}
