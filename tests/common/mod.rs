//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use assert_cmd::Command;

use serde_json::Value;

/// Path of a file under `tests/data/`.
pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// The `cases` array of a BCDice peer file in `tests/data/peer/`.
pub fn peer_cases(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(data_path(&format!("peer/{file}")))
        .unwrap_or_else(|e| panic!("cannot read peer file {file}: {e}"));
    let v: Value = serde_json::from_str(&text).expect("peer file is JSON");
    v["cases"].as_array().expect("cases array").clone()
}

/// Faces as u32 from a JSON array.
pub fn faces(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("array of faces")
        .iter()
        .map(|x| x.as_u64().expect("face") as u32)
        .collect()
}

/// The `hantei` binary under test.
pub fn hantei() -> Command {
    Command::cargo_bin("hantei").expect("binary built")
}

/// A path in the repository.
pub fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}
