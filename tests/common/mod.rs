//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod chromium;
pub mod server;
pub mod walk;

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

/// A scratch directory under the system's temporary directory, empty at
/// the start and removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh directory named after `tag` (and the process, so parallel
    /// test runs do not meet).
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hantei-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }

    /// A path inside.
    pub fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run git in `dir` with a fixed identity and no signing; panics on failure.
pub fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "hantei tests")
        .env("GIT_AUTHOR_EMAIL", "tests@hantei.invalid")
        .env("GIT_COMMITTER_NAME", "hantei tests")
        .env("GIT_COMMITTER_EMAIL", "tests@hantei.invalid")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
