//! The library's layers, enforced: a module calls only modules of its own
//! layer or below (issue 27). Read from the sources: every `crate::NAME`
//! path outside comments and test modules.
//!
//! | layer | modules |
//! |---|---|
//! | 0 numbers and errors | `weight`, `error` |
//! | 1 laws | `pmf`, `tier`, `contest`, `extended`, `rounds` |
//! | 2 reports and their formats | `report`, `export` |
//! | 3 the systems (the dice program and its engine, the five seeds, the games) | `systems` |
//! | 4 charts, simulation | `chart`, `verify` |
//! | 5 requests (one typed value from flags, TOML, JSON) | `request` |
//! | 6 analyses | `analysis` |
//! | 7 front ends | `serve`, `init`, `publish`, `cli` |
//!
//! A sixth system goes in layer 3 (`src/systems/NAME.rs`), its request in
//! layer 5, its sampler in `verify`.

use std::path::Path;

fn layer(module: &str) -> Option<u32> {
    Some(match module {
        "weight" | "error" | "Error" | "Result" | "Exact" | "Weight" => 0,
        "pmf" | "Pmf" | "tier" | "Tier" | "TierLaw" | "contest" | "extended" | "rounds" => 1,
        "report" | "Report" | "Field" | "export" => 2,
        "systems" => 3,
        "chart" | "verify" => 4,
        "request" | "Request" | "odds" => 5,
        "analysis" => 6,
        "serve" | "init" | "publish" | "cli" => 7,
        _ => return None,
    })
}

/// The code of a source file without comments and `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap_or(line));
        out.push('\n');
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_module_calls_up_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut wrong = Vec::new();
    let mut seen = 0;
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let Some(own) = layer(&top) else {
            wrong.push(format!(
                "{}: module '{top}' has no layer in tests/layers.rs",
                rel.display()
            ));
            continue;
        };
        let text = code(&std::fs::read_to_string(f).unwrap());
        let mut rest = text.as_str();
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let names: Vec<&str> = if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}').unwrap_or(inner.len());
                inner[..end]
                    .split(',')
                    .map(|n| n.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                vec![rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")]
            };
            for name in names.into_iter().filter(|n| !n.is_empty()) {
                seen += 1;
                match layer(name) {
                    Some(l) if l > own => wrong.push(format!(
                        "{}: '{top}' (layer {own}) calls crate::{name} (layer {l})",
                        rel.display()
                    )),
                    Some(_) => {}
                    None => wrong.push(format!("{}: crate::{name} has no layer", rel.display())),
                }
            }
        }
    }
    assert!(seen > 100, "the scan found only {seen} paths");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The scanner itself: a call upwards in a sample is found.
#[test]
fn the_scanner_sees_a_call_upwards() {
    let sample = "use crate::pmf::Pmf;\n// crate::cli in a comment\nfn f() { crate::analysis::nearest(); }\n#[cfg(test)]\nmod t { use crate::cli; }\n";
    let text = code(sample);
    assert!(text.contains("crate::analysis"));
    assert!(!text.contains("crate::cli"));
    assert!(layer("analysis") > layer("systems"));
}
