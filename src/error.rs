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
            } => write!(f, "invalid value '{value}' for {name}: {allowed}"),
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
                let before: String = expr.chars().take(*pos).collect();
                let col = before.width();
                write!(
                    f,
                    "bad dice expression '{expr}' at character {}: {message}\n  {expr}\n  {}^",
                    pos + 1,
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
