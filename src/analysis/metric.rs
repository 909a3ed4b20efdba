//! Metric paths: which number of a `hantei odds` JSON report to tabulate.
//!
//! A path is a dotted list of segments, each a field name optionally
//! followed by an index `[3]` or a selector `[key=value]` (the first array
//! element whose `key` equals `value`); a trailing `>=k` sums an array from
//! index `k` on. Examples: `p_success`, `outcomes.critical`, `hits[2]`,
//! `hits>=3`, `policies[policy=optimal].worth`, `by_level[level=2].p_lands`,
//! `best_level`.

use serde_json::Value;

/// A parsed metric path.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    text: String,
    segments: Vec<Segment>,
    at_least: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Field(String),
    Index(usize),
    Select(String, String),
}

impl Metric {
    /// Parse `text`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Metric, String> {
        let (path, at_least) = match text.split_once(">=") {
            Some((p, k)) => (
                p.trim(),
                Some(
                    k.trim()
                        .parse::<usize>()
                        .map_err(|_| format!("'{k}' after >= is not a whole number"))?,
                ),
            ),
            None => (text.trim(), None),
        };
        if path.is_empty() {
            return Err("empty metric".into());
        }
        let mut segments = Vec::new();
        for part in path.split('.') {
            let (name, mut rest) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("'{part}' is not a field name"));
            }
            segments.push(Segment::Field(name.to_string()));
            while !rest.is_empty() {
                let close = rest
                    .find(']')
                    .filter(|_| rest.starts_with('['))
                    .ok_or_else(|| format!("unbalanced brackets in '{part}'"))?;
                let inner = &rest[1..close];
                segments.push(match inner.split_once('=') {
                    Some((k, v)) => Segment::Select(k.trim().into(), v.trim().into()),
                    None => Segment::Index(
                        inner
                            .trim()
                            .parse()
                            .map_err(|_| format!("'[{inner}]' is not an index or key=value"))?,
                    ),
                });
                rest = &rest[close + 1..];
            }
        }
        Ok(Metric {
            text: text.to_string(),
            segments,
            at_least,
        })
    }

    /// The path as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The value in `report` (JSON of `hantei odds`), as a number. `None`
    /// when the report has no such field (the metric does not apply).
    pub fn eval(&self, report: &Value) -> Option<f64> {
        let mut v = report;
        for s in &self.segments {
            v = match s {
                Segment::Field(name) => v.get(name)?,
                Segment::Index(i) => v.get(*i)?,
                Segment::Select(k, want) => v.as_array()?.iter().find(|e| {
                    e.get(k).is_some_and(|x| match x {
                        Value::String(s) => s == want,
                        Value::Number(n) => want.parse::<f64>().ok() == n.as_f64(),
                        Value::Bool(b) => want.parse::<bool>().ok() == Some(*b),
                        _ => false,
                    })
                })?,
            };
        }
        match self.at_least {
            Some(k) => Some(
                v.as_array()?
                    .iter()
                    .skip(k)
                    .map(Value::as_f64)
                    .sum::<Option<f64>>()?,
            ),
            None => number(v),
        }
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths() {
        let r = json!({
            "p_success": 0.5,
            "outcomes": {"critical": 0.05},
            "hits": [0.25, 0.5, 0.25],
            "policies": [{"policy": "none", "worth": 0.0}, {"policy": "optimal", "worth": 0.4}],
            "by_level": [{"level": 1, "p_lands": 0.15}, {"level": 2, "p_lands": 0.18}],
            "best_level": 2,
        });
        let e = |t: &str| Metric::parse(t).unwrap().eval(&r);
        assert_eq!(e("p_success"), Some(0.5));
        assert_eq!(e("outcomes.critical"), Some(0.05));
        assert_eq!(e("hits[1]"), Some(0.5));
        assert_eq!(e("hits>=1"), Some(0.75));
        assert_eq!(e("policies[policy=optimal].worth"), Some(0.4));
        assert_eq!(e("by_level[level=2].p_lands"), Some(0.18));
        assert_eq!(e("best_level"), Some(2.0));
        assert_eq!(e("p_glitch"), None);
        assert!(Metric::parse("hits>=x").is_err());
        assert!(Metric::parse("a[").is_err());
        assert!(Metric::parse("").is_err());
    }
}
