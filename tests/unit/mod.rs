//! The library's unit tests: the tests of `src/PATH.rs` are in
//! `tests/unit/PATH.rs` (of `src/DIR/mod.rs` in `tests/unit/DIR/mod.rs`).
//! They live in this binary, not in `#[cfg(test)]` modules of the library,
//! so that `cargo test` compiles the library once (`[lib] test = false` in
//! Cargo.toml; issue 30, item 14). Items they need that users do not are
//! `pub` and `#[doc(hidden)]`.

mod analysis;
mod chart;
mod contest;
mod error;
mod export;
mod extended;
mod init;
mod pmf;
mod publish;
mod report;
mod request;
mod rounds;
mod serve;
mod systems;
mod verify;
mod weight;

/// With `[lib] test = false` a `#[cfg(test)]` module in `src/` would never
/// be compiled or run: there are none, and a new one fails here.
#[test]
fn the_library_holds_no_test_modules() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, found);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                if text
                    .lines()
                    .any(|l| l.trim_start().starts_with("#[cfg(test)]"))
                {
                    found.push(p.display().to_string());
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(
        found.is_empty(),
        "move these tests to tests/unit/: {found:?}"
    );
}
