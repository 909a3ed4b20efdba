//! Hints for dice input that was cut or would be silently ignored: a
//! `--tier` condition a shell cut at its `>` or `<` (an unquoted `>=19` is a
//! redirection: the shell makes a file `=19` and passes
//! `critical:natural`), and an opposing command whose comparison a contest
//! would ignore (`--vs "1D6>=4"`).

use super::ast::{Body, Command};

/// Why a `--tier` value looks cut at a `>` or `<` by a shell, and how to
/// quote it; `None` when it does not. A value is cut when its condition
/// (after the last `:`, or the full-width `：`) is empty (`hit:` from
/// `hit:>=15`) or is `natural` with nothing after it (`critical:natural`
/// from `critical:natural>=19`).
pub fn cut_condition_hint(text: &str) -> Option<String> {
    let t = text.trim();
    let (name, cond) = t.rsplit_once([':', '：'])?;
    let cond = cond.trim();
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let example = if cond.is_empty() {
        format!("'{name}:>=15'")
    } else if cond.eq_ignore_ascii_case("natural") {
        format!("'{name}:natural>=19'")
    } else {
        return None;
    };
    Some(format!(
        "the condition after the colon {}: a shell cuts an unquoted value at > or < (a redirection, which may have made a file such as '=15'); quote the whole value, e.g. --tier {example}",
        if cond.is_empty() {
            "is empty".to_string()
        } else {
            format!("is '{cond}' with no comparison")
        }
    ))
}

/// Why an opposing command cannot be used as given, or `None`: a contest
/// compares the two commands' results, and the result of a 加算ダイス
/// command is its total, so a comparison written on it (`1D6>=4`) would be
/// ignored. (xB, xR and xU with a target count successes: their counts are
/// compared, so their targets are used.)
pub fn ignored_vs_target(vs: &Command) -> Option<String> {
    match &vs.body {
        Body::Add(a) => a.target.map(|(cmp, value)| {
            format!(
                "a contest compares the two totals, so the opposing roll's comparison {}{value} would be ignored; give the roll alone (--vs \"{}\") and put a condition on your own command or a --tier",
                cmp.text(),
                a.expr
            )
        }),
        _ => None,
    }
}
