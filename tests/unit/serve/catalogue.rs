//! Tests of `src/serve/catalogue.rs` (`hantei::serve::catalogue`).

use hantei::serve::catalogue::*;

#[test]
fn outputs_go_to_the_longest_matching_analysis() {
    let list = analyses();
    let ext = list.iter().find(|a| a.name == "extended").unwrap();
    assert!(ext
        .outputs
        .iter()
        .all(|o| !o.starts_with("extended-hit-pool")));
    let ehp = list.iter().find(|a| a.name == "extended-hit-pool").unwrap();
    assert!(ehp.outputs.contains(&"extended-hit-pool.md".to_string()));
    let d20 = list.iter().find(|a| a.name == "d20-success").unwrap();
    assert!(d20.outputs.contains(&"d20-success-by-roll.svg".to_string()));
}

#[test]
fn path_tricks_find_nothing() {
    for bad in [
        "../Cargo.toml",
        "..",
        ".",
        "",
        "a/b",
        "..\\Cargo.toml",
        "/etc/passwd",
    ] {
        assert!(output_file(bad).is_none(), "{bad}");
        assert!(analysis_file(bad).is_none(), "{bad}");
    }
    assert!(output_file("d20-success.md").is_some());
    assert!(analysis_file("d20-success.toml").is_some());
}
