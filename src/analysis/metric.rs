//! Metric paths: which number of a `hantei odds` JSON report to tabulate.
//!
//! A path is a dotted list of segments, each a field name optionally
//! followed by an index `[3]` or a selector `[key=value]` (the first array
//! element whose `key` equals `value`); a trailing `>=k` sums an array from
//! index `k` on. Examples: `p_success`, `outcomes.critical`, `hits[2]`,
//! `hits>=3`, `policies[policy=optimal].worth`, `by_level[level=2].p_lands`,
//! `best_level`. `hits[*]` / `outcomes[*]` sums every element or value, and
//! a leading `1-` takes the complement (`1-p_success`), `1/` the reciprocal
//! (`1/p_success`: expected tries until a success). Over several rolls,
//! `p_done_by:5` is round 5 of a per-round array (1-based: the same as
//! `p_done_by[4]`), P(done by round 5).

use serde_json::Value;

use crate::report::{Field, OutcomeRow, Report};
use crate::weight::{parse_exact, Exact, Weight};

/// A place in a report, read through its typed fields (no JSON text is
/// made): the same tree as [`Report::to_json`].
enum Node<'a, W> {
    Report(&'a Report<W>),
    Outcomes(&'a [OutcomeRow<W>]),
    Field(&'a Field<W>),
    Rows(&'a [Vec<(String, Field<W>)>]),
    Row(&'a [(String, Field<W>)]),
    Weight(&'a W),
    Params(&'a [(String, Value)]),
    Json(&'a Value),
}

impl<'a, W: Weight> Node<'a, W> {
    fn of_field(f: &'a Field<W>) -> Self {
        match f {
            Field::Prob(p) | Field::Value(p) => Node::Weight(p),
            Field::Rows(rows) => Node::Rows(rows),
            Field::Object(items) => Node::Row(items),
            other => Node::Field(other),
        }
    }

    fn get(&self, name: &str) -> Option<Node<'a, W>> {
        match self {
            Node::Report(r) => match name {
                "outcomes" => Some(Node::Outcomes(&r.outcomes)),
                "p_success" if r.has_success => Some(Node::Weight(&r.p_success)),
                "params" => Some(Node::Params(&r.params)),
                "labels" | "system" | "notes" | "exact" => None,
                _ => r.get(name).map(Node::of_field),
            },
            Node::Outcomes(o) => o.iter().find(|x| x.key == name).map(|x| Node::Weight(&x.p)),
            Node::Row(items) => items
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, f)| Node::of_field(f)),
            Node::Params(p) => p
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| Node::Json(v)),
            Node::Json(v) => v.get(name).map(Node::Json),
            _ => None,
        }
    }

    fn index(&self, i: usize) -> Option<Node<'a, W>> {
        match self {
            Node::Field(Field::Probs(ps)) => ps.get(i).map(Node::Weight),
            Node::Rows(rows) => rows.get(i).map(|r| Node::Row(r)),
            Node::Json(v) => v.get(i).map(Node::Json),
            _ => None,
        }
    }

    fn items(&self) -> Option<Vec<Node<'a, W>>> {
        match self {
            Node::Field(Field::Probs(ps)) => Some(ps.iter().map(Node::Weight).collect()),
            Node::Rows(rows) => Some(rows.iter().map(|r| Node::Row(r)).collect()),
            Node::Outcomes(o) => Some(o.iter().map(|x| Node::Weight(&x.p)).collect()),
            Node::Row(items) => Some(items.iter().map(|(_, f)| Node::of_field(f)).collect()),
            Node::Json(Value::Array(a)) => Some(a.iter().map(Node::Json).collect()),
            Node::Json(Value::Object(o)) => Some(o.values().map(Node::Json).collect()),
            _ => None,
        }
    }

    /// Whether this node equals the selector text `want`.
    fn matches(&self, want: &str) -> bool {
        let num = || want.parse::<f64>().ok();
        match self {
            Node::Field(Field::Text(s)) => s == want,
            Node::Field(Field::Int(n)) => num() == Some(*n as f64),
            Node::Field(Field::Bool(b)) => want.parse::<bool>().ok() == Some(*b),
            Node::Weight(w) => num() == Some(w.to_f64()),
            Node::Json(Value::String(s)) => s == want,
            Node::Json(Value::Number(n)) => num() == n.as_f64(),
            Node::Json(Value::Bool(b)) => want.parse::<bool>().ok() == Some(*b),
            _ => false,
        }
    }
}

/// How a typed leaf becomes the evaluation's number type `T`.
struct Leaves<W, T> {
    weight: fn(&W) -> T,
    json: fn(&Value) -> Option<T>,
    int: fn(i64) -> T,
}

impl<W: Weight, T> Leaves<W, T> {
    fn leaf(&self, n: &Node<'_, W>) -> Option<T> {
        match n {
            Node::Weight(w) => Some((self.weight)(w)),
            Node::Field(Field::Int(i)) => Some((self.int)(*i)),
            Node::Field(Field::Bool(b)) => Some((self.int)(i64::from(*b))),
            Node::Json(v) => (self.json)(v),
            Node::Field(f @ Field::Root(_)) => (self.json)(&crate::report::field_json(*f)),
            _ => None,
        }
    }
}

/// A parsed metric path.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    text: String,
    segments: Vec<Segment>,
    at_least: Option<usize>,
    complement: bool,
    reciprocal: bool,
}

#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Field(String),
    Index(usize),
    Select(String, String),
    /// `[*]`: the sum of every element (array) or value (object).
    All,
}

impl Metric {
    /// Parse `text`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Metric, String> {
        let (complement, rest) = match text.trim().strip_prefix("1-") {
            Some(r) => (true, r),
            None => (false, text.trim()),
        };
        let (reciprocal, rest) = match rest.strip_prefix("1/") {
            Some(r) if !complement => (true, r),
            _ => (false, rest),
        };
        let (path, at_least) = match rest.split_once(">=") {
            Some((p, k)) => (
                p.trim(),
                Some(
                    k.trim()
                        .parse::<usize>()
                        .map_err(|_| format!("'{k}' after >= is not a whole number"))?,
                ),
            ),
            None => (rest.trim(), None),
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
            // `p_done_by:5`: round 5 of a per-round array (1-based).
            let (name, round) = match name.split_once(':') {
                Some((n, k)) => match k.trim().parse::<usize>() {
                    Ok(k) if k >= 1 => (n, Some(k)),
                    _ => {
                        return Err(format!(
                            "'{k}' after ':' is not a round (1, 2, 3 …: p_done_by:5 is P(done by round 5))"
                        ))
                    }
                },
                None => (name, None),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("'{part}' is not a field name"));
            }
            segments.push(Segment::Field(name.to_string()));
            if let Some(k) = round {
                segments.push(Segment::Index(k - 1));
            }
            while !rest.is_empty() {
                let close = rest
                    .find(']')
                    .filter(|_| rest.starts_with('['))
                    .ok_or_else(|| format!("unbalanced brackets in '{part}'"))?;
                let inner = &rest[1..close];
                segments.push(match inner.split_once('=') {
                    _ if inner.trim() == "*" => Segment::All,
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
        if at_least.is_some() && segments.last() == Some(&Segment::All) {
            return Err("`[*]` and `>=` cannot be combined".into());
        }
        Ok(Metric {
            text: text.to_string(),
            segments,
            at_least,
            complement,
            reciprocal,
        })
    }

    /// The path as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The value in `report` (JSON of `hantei odds`), as a number. `None`
    /// when the report has no such field (the metric does not apply).
    pub fn eval(&self, report: &Value) -> Option<f64> {
        let v = self.eval_with(report, number, |a, b| a + b, 0.0)?;
        Some(match (self.complement, self.reciprocal) {
            (true, _) => 1.0 - v,
            (_, true) => 1.0 / v,
            _ => v,
        })
    }

    /// The value in an exact report (`hantei odds --exact`, probabilities
    /// as `"num/den"`), as an exact fraction.
    pub fn eval_exact(&self, report: &Value) -> Option<Exact> {
        let v = self.eval_with(report, exact_number, |a, b| a + b, Exact::int(0))?;
        Some(match (self.complement, self.reciprocal) {
            (true, _) => Exact::int(1) - v,
            (_, true) if !Weight::is_zero(&v) => Exact::int(1) / v,
            (_, true) => return None,
            _ => v,
        })
    }

    /// The value in a typed report, as a number, read through its fields
    /// (the same answer as [`Metric::eval`] on its JSON, without making
    /// the JSON).
    pub fn eval_report<W: Weight>(&self, report: &Report<W>) -> Option<f64> {
        let leaves = Leaves {
            weight: |w: &W| w.to_f64(),
            json: number,
            int: |i| i as f64,
        };
        let v = self.eval_typed(report, &leaves, |a, b| a + b, 0.0)?;
        Some(match (self.complement, self.reciprocal) {
            (true, _) => 1.0 - v,
            (_, true) => 1.0 / v,
            _ => v,
        })
    }

    /// The value in an exact typed report, as an exact fraction.
    pub fn eval_report_exact(&self, report: &Report<Exact>) -> Option<Exact> {
        let leaves = Leaves {
            weight: |w: &Exact| w.clone(),
            json: exact_number,
            int: Exact::int,
        };
        let v = self.eval_typed(report, &leaves, |a, b| a + b, Exact::int(0))?;
        Some(match (self.complement, self.reciprocal) {
            (true, _) => Exact::int(1) - v,
            (_, true) if !Weight::is_zero(&v) => Exact::int(1) / v,
            (_, true) => return None,
            _ => v,
        })
    }

    fn eval_typed<W: Weight, T: Clone>(
        &self,
        report: &Report<W>,
        leaves: &Leaves<W, T>,
        add: fn(T, T) -> T,
        zero: T,
    ) -> Option<T> {
        let mut v = Node::Report(report);
        for (i, s) in self.segments.iter().enumerate() {
            v = match s {
                Segment::Field(name) => v.get(name)?,
                Segment::Index(i) => v.index(*i)?,
                Segment::Select(k, want) => v
                    .items()?
                    .into_iter()
                    .find(|e| e.get(k).is_some_and(|x| x.matches(want)))?,
                Segment::All => {
                    if i + 1 != self.segments.len() {
                        return None;
                    }
                    return v
                        .items()?
                        .iter()
                        .map(|n| leaves.leaf(n))
                        .try_fold(zero, |acc, x| Some(add(acc, x?)));
                }
            };
        }
        match self.at_least {
            Some(k) => v
                .items()?
                .iter()
                .skip(k)
                .map(|n| leaves.leaf(n))
                .try_fold(zero, |acc, x| Some(add(acc, x?))),
            None => leaves.leaf(&v),
        }
    }

    fn eval_with<T: Clone>(
        &self,
        report: &Value,
        leaf: fn(&Value) -> Option<T>,
        add: fn(T, T) -> T,
        zero: T,
    ) -> Option<T> {
        let mut v = report;
        for (i, s) in self.segments.iter().enumerate() {
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
                Segment::All => {
                    // Only as the last segment (checked when parsing `>=`;
                    // later segments would have nothing to read).
                    if i + 1 != self.segments.len() {
                        return None;
                    }
                    let items: Vec<&Value> = match v {
                        Value::Array(a) => a.iter().collect(),
                        Value::Object(o) => o.values().collect(),
                        _ => return None,
                    };
                    return items
                        .into_iter()
                        .map(leaf)
                        .try_fold(zero, |acc, x| Some(add(acc, x?)));
                }
            };
        }
        match self.at_least {
            Some(k) => v
                .as_array()?
                .iter()
                .skip(k)
                .map(leaf)
                .try_fold(zero, |acc, x| Some(add(acc, x?))),
            None => leaf(v),
        }
    }
}

fn exact_number(v: &Value) -> Option<Exact> {
    match v {
        Value::String(s) => parse_exact(s),
        Value::Number(n) => n.as_i64().map(Exact::int),
        Value::Bool(b) => Some(Exact::int(i64::from(*b))),
        _ => None,
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}
