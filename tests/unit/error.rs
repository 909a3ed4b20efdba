//! Tests of `src/error.rs` (`hantei::error`).

use hantei::error::*;

/// Issue 30 item 5: control characters escaped, Japanese kept, a long
/// text cut in the middle with its length; a bad expression's lines
/// stay short and the caret under the fault.
#[test]
fn user_text_is_escaped_and_capped() {
    assert_eq!(quote("x\u{1b}]0;t\u{7}"), r"'x\u{1b}]0;t\u{7}'");
    assert_eq!(quote("a\nb"), r"'a\nb'");
    assert_eq!(quote("成功"), "'成功'");
    let long = "a".repeat(10_000);
    let q = quote(&long);
    assert!(q.chars().count() < MAX_QUOTED + 40, "{q}");
    assert!(q.contains("[10000 characters in all]"), "{q}");
    let e = Error::Notation {
        expr: format!("{}x", "1+".repeat(5_000)),
        pos: 10_000,
        message: "expected a number".into(),
    };
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(text.len() < 800, "{}", text.len());
    // The caret sits under the x.
    let col = lines[2].find('^').unwrap();
    assert_eq!(lines[1].chars().nth(col), Some('x'), "{text}");
    assert_eq!(printable("a\u{1b}b\nc"), "a\\u{1b}b\nc");
}
