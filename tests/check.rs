//! `hantei check`: the bundled invariants pass, a deliberately broken copy
//! fails with a clear message, JUnit output is valid XML, and a malformed
//! file exits 2.

use std::path::PathBuf;

use crate::common::{hantei, repo};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hantei-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bundled_checks_pass_and_junit_is_valid() {
    let o = hantei()
        .args([
            "check",
            repo("analyses").to_str().unwrap(),
            "--format",
            "junit",
        ])
        .output()
        .unwrap();
    let xml = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(0), "{xml}");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("failures"), Some("0"));
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert!(cases >= 40, "{cases} test cases");
    // The seed audits are there, with their known-false claims refuted.
    assert!(xml.contains("seed000-master-70-80-standard-human"));
    assert!(xml.contains("refuted (known false)"));
}

#[test]
fn a_broken_copy_fails_with_a_clear_message() {
    // The keep-highest analysis with a wrong worked value planted.
    let text = std::fs::read_to_string(repo("analyses/keep-highest.toml"))
        .unwrap()
        .replace("equals = \"19/27\"", "equals = \"2/3\"");
    let p = temp_file("keep-highest-broken.toml", &text);
    for format in ["table", "json", "junit"] {
        let o = hantei()
            .arg("check")
            .arg(&p)
            .args(["--format", format])
            .output()
            .unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert_eq!(o.status.code(), Some(1), "{format}: {out}");
        assert!(out.contains("keep-highest-worked-value"), "{format}: {out}");
        assert!(
            out.contains("19/27"),
            "{format}: names what it found: {out}"
        );
        assert!(
            out.contains("ability=6 dice=3 difficulty=5"),
            "{format}: the point: {out}"
        );
    }
    // A broken monotone claim names the first counterexample along the axis.
    let text = std::fs::read_to_string(repo("analyses/keep-highest.toml"))
        .unwrap()
        .replace(
            "monotone = \"non-increasing\"\nalong = \"difficulty\"",
            "monotone = \"non-decreasing\"\nalong = \"difficulty\"",
        );
    let p = temp_file("keep-highest-monotone.toml", &text);
    let o = hantei().arg("check").arg(&p).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "counterexample: [ability=2 dice=1 difficulty=2] → [ability=2 dice=1 difficulty=3]"
        ),
        "{out}"
    );
    // The JUnit form marks it as a failure.
    let o = hantei()
        .arg("check")
        .arg(&p)
        .args(["--format", "junit"])
        .output()
        .unwrap();
    let xml = String::from_utf8(o.stdout).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("failure"))
            .count(),
        1
    );
}

#[test]
fn a_malformed_check_exits_2() {
    let p = temp_file(
        "malformed.toml",
        "title = \"t\"\nsystem = \"d20\"\nparams = { modifier = 0 }\nmetrics = [\"p_success\"]\n\n[[axis]]\nparam = \"dc\"\nrange = [5, 10]\n\n[[check]]\nname = \"c\"\nmessage = \"m\"\nmetric = \"p_success\"\nmonotone = \"sideways\"\nalong = \"dc\"\n",
    );
    let o = hantei().arg("check").arg(&p).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("malformed.toml:"), "{err}");
    assert!(err.contains("sideways"), "{err}");
    assert!(err.contains("non-increasing"), "what is allowed: {err}");
}
