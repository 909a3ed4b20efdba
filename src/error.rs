//! Typed errors that tell the user what was wrong and what is allowed.

use std::fmt;

/// Every error hantei reports. The CLI prints its `Display` on one line and
/// exits with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A parameter value outside what the rule allows.
    InvalidParam {
        /// The parameter (as the CLI spells it, e.g. `--pool`).
        name: String,
        /// The value given.
        value: String,
        /// What is allowed instead.
        allowed: String,
    },
    /// A skill level list breaks the levels rule (seed 003).
    InvalidLevels {
        /// 1-based level that breaks the rule.
        level: usize,
        /// Its value.
        value: i64,
        /// Why.
        reason: String,
    },
    /// Parameters that cannot be combined.
    Conflict(String),
    /// A problem in an analysis file.
    Analysis {
        /// The file.
        file: String,
        /// 1-based line, where known.
        line: Option<usize>,
        /// The key at fault.
        key: String,
        /// What is wrong and what is allowed.
        message: String,
    },
    /// A file could not be read or written.
    Io(String),
    /// A dice expression (BCDice notation) that does not parse.
    Notation {
        /// The expression (half-width, trimmed).
        expr: String,
        /// Character position of the fault.
        pos: usize,
        /// What was wrong and what was expected there.
        message: String,
    },
}

/// Most characters of user text an error message quotes; a longer text is
/// cut in the middle ([`quote`]), so a 100 KB expression does not make a
/// 200 KB message.
pub const MAX_QUOTED: usize = 120;

/// User text as an error message quotes it: in single quotes, every control
/// character escaped (`\n`, `\t`, `\u{1b}`: a typed ESC or BEL never
/// reaches the terminal, a newline never splits the line), and cut in the
/// middle past [`MAX_QUOTED`] characters. The one helper for echoing what
/// the user typed.
pub fn quote(text: &str) -> String {
    format!("'{}'", shown(text))
}

/// [`quote`] without the quotes.
pub fn shown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX_QUOTED {
        return escape_controls(text);
    }
    let half = MAX_QUOTED / 2;
    let head: String = chars[..half].iter().collect();
    let tail: String = chars[chars.len() - half..].iter().collect();
    format!(
        "{}…[{} characters in all]…{}",
        escape_controls(&head),
        chars.len(),
        escape_controls(&tail)
    )
}

/// Every control character escaped as Rust writes it (`\n`, `\u{7}`);
/// other characters, Japanese included, as they are.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A whole message made safe for a terminal: control characters escaped
/// except the newlines that separate its own lines (a bad expression's
/// caret). The last guard before an error is printed.
pub fn printable(message: &str) -> String {
    message
        .split('\n')
        .map(escape_controls)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Levenshtein distance between two texts, for "did you mean …" hints.
/// The candidate nearest to `text` by edit distance, if any is close (at
/// most a third of its length away).
pub fn nearest<'a>(text: &str, candidates: &'a [String]) -> Option<&'a str> {
    let head = text.split(['[', '>']).next().unwrap_or(text);
    candidates
        .iter()
        .map(|c| (edit_distance(head, c), c))
        .filter(|(d, c)| *d <= c.len().div_ceil(3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.as_str())
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Error {
    /// Shorthand for [`Error::InvalidParam`].
    pub fn param(name: &str, value: impl fmt::Display, allowed: impl Into<String>) -> Self {
        Error::InvalidParam {
            name: name.to_string(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

impl Error {
    /// The same error about the other side of a contest: flags named as
    /// the library names them (`--pool`) get the side's prefix (`vs-` →
    /// `--vs-pool`).
    pub fn on_side(self, prefix: &str) -> Self {
        if prefix.is_empty() {
            return self;
        }
        match self {
            Error::InvalidParam {
                name,
                value,
                allowed,
            } if name.starts_with("--") && !name.starts_with(&format!("--{prefix}")) => {
                Error::InvalidParam {
                    name: name.replacen("--", &format!("--{prefix}"), 1),
                    value,
                    allowed,
                }
            }
            Error::InvalidLevels {
                level,
                value,
                reason,
            } => Error::InvalidLevels {
                level,
                value,
                reason: format!("{reason} (in --{prefix}skill)"),
            },
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParam {
                name,
                value,
                allowed,
            } => write!(f, "invalid value {} for {name}: {allowed}", quote(value)),
            Error::InvalidLevels {
                level,
                value,
                reason,
            } => write!(
                f,
                "invalid skill list: level {level} (value {value}) {reason}"
            ),
            Error::Conflict(msg) | Error::Io(msg) => write!(f, "{msg}"),
            Error::Notation { expr, pos, message } => {
                use unicode_width::UnicodeWidthStr;
                // The expression's line: a window of it around the caret,
                // at most MAX_QUOTED characters, control characters
                // escaped.
                let chars: Vec<char> = expr.chars().collect();
                let half = MAX_QUOTED / 2;
                let start = if chars.len() <= MAX_QUOTED {
                    0
                } else {
                    pos.saturating_sub(half).min(chars.len() - MAX_QUOTED)
                };
                let end = (start + MAX_QUOTED).min(chars.len());
                let lead = if start > 0 { "…" } else { "" };
                let trail = if end < chars.len() { "…" } else { "" };
                let before: String = chars[start..(*pos).clamp(start, end)].iter().collect();
                let window: String = chars[start..end].iter().collect();
                let col = lead.width() + escape_controls(&before).width();
                write!(
                    f,
                    "bad dice expression {} at character {}: {message}\n  {lead}{}{trail}\n  {}^",
                    quote(expr),
                    pos + 1,
                    escape_controls(&window),
                    " ".repeat(col)
                )
            }
            Error::Analysis {
                file,
                line,
                key,
                message,
            } => match line {
                Some(l) => write!(f, "{file}:{l}: key '{key}': {message}"),
                None => write!(f, "{file}: key '{key}': {message}"),
            },
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with hantei's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Check `lo <= value <= hi`, naming the parameter in the error.
pub fn check_range(name: &str, value: i64, lo: i64, hi: i64) -> Result<()> {
    if value < lo || value > hi {
        return Err(Error::param(name, value, format!("allowed {lo}..={hi}")));
    }
    Ok(())
}

/// Check `value >= lo`, naming the parameter in the error.
pub fn check_min(name: &str, value: i64, lo: i64) -> Result<()> {
    if value < lo {
        return Err(Error::param(name, value, format!("must be at least {lo}")));
    }
    Ok(())
}
