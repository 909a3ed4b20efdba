//! Tests of `src/request/de.rs` (`hantei::request::de`).

use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
struct T {
    #[serde(deserialize_with = "hantei::request::de::ints")]
    list: Vec<i64>,
    #[serde(deserialize_with = "hantei::request::de::opt_int")]
    n: Option<i64>,
    #[serde(deserialize_with = "hantei::request::de::count")]
    c: u8,
    #[serde(deserialize_with = "hantei::request::de::float")]
    f: f64,
}

#[test]
fn lists_numbers_and_counts_read_as_typed() {
    let t: T =
        serde_json::from_value(json!({"list": "50,30,15", "n": "7", "c": true, "f": 1})).unwrap();
    assert_eq!(t.list, vec![50, 30, 15]);
    assert_eq!(t.n, Some(7));
    assert_eq!(t.c, 1);
    assert_eq!(t.f, 1.0);
    let t: T = serde_json::from_value(json!({"list": 4, "n": null, "c": 2})).unwrap();
    assert_eq!(t.list, vec![4]);
    assert_eq!(t.n, None);
    assert_eq!(t.c, 2);
    let t: T = serde_json::from_value(json!({"list": [1, -2]})).unwrap();
    assert_eq!(t.list, vec![1, -2]);
}

#[test]
fn errors_name_the_value() {
    let e = serde_json::from_value::<T>(json!({"n": "1e9"})).unwrap_err();
    assert!(e.to_string().contains("'1e9' is not an integer"), "{e}");
    let e = serde_json::from_value::<T>(json!({"c": "x"})).unwrap_err();
    assert!(e.to_string().contains("'x'"), "{e}");
}
