//! [`Report`]: what `hantei odds` computes for one parameter point, in a
//! form every exporter (table, CSV, JSON, Markdown) can render.
//!
//! Systems build reports; they never format text. JSON field names are a
//! contract (see the README): `system`, `params`, `outcomes`, `p_success`,
//! and the optional fields named by each system.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::tier::{Tier, TierLaw};
use crate::weight::Weight;

/// One outcome tier's probability.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeRow<W> {
    /// Machine key (JSON object key).
    pub key: Cow<'static, str>,
    /// English label.
    pub en: Cow<'static, str>,
    /// Japanese label.
    pub ja: Cow<'static, str>,
    /// Probability.
    pub p: W,
}

impl<W> OutcomeRow<W> {
    /// A row from its key, labels and probability (a system's tier names
    /// are `&'static str`; a house rule's are its own strings).
    pub fn new(
        key: impl Into<Cow<'static, str>>,
        en: impl Into<Cow<'static, str>>,
        ja: impl Into<Cow<'static, str>>,
        p: W,
    ) -> Self {
        OutcomeRow {
            key: key.into(),
            en: en.into(),
            ja: ja.into(),
            p,
        }
    }
}

/// A named value in a report.
#[derive(Clone, Debug, PartialEq)]
pub enum Field<W> {
    /// A probability (a `"num/den"` string in exact JSON).
    Prob(W),
    /// A non-probability exact quantity such as expected rolls.
    Value(W),
    /// The square root of a non-negative quantity (a standard deviation,
    /// holding its variance): a fraction when the variance is the square of
    /// one, else the decimal rounded to 15 significant digits
    /// ([`crate::weight::exact_sqrt`]).
    Root(W),
    /// A list of probabilities (e.g. `hits[k]`).
    Probs(Vec<W>),
    /// An integer.
    Int(i64),
    /// A boolean flag.
    Bool(bool),
    /// Free text.
    Text(String),
    /// A table: rows of named fields (e.g. `by_level`).
    Rows(Vec<Vec<(String, Field<W>)>>),
    /// Nested named fields.
    Object(Vec<(String, Field<W>)>),
}

/// Everything `hantei odds` says about one parameter point.
#[derive(Clone, Debug, PartialEq)]
pub struct Report<W> {
    /// System id (`hit-pool`, `d20`, …).
    pub system: &'static str,
    /// Japanese name of the system's check, for the table header.
    pub system_ja: &'static str,
    /// Every effective parameter, defaults included, in a stable order.
    pub params: Vec<(String, Value)>,
    /// Outcome tiers, worst first.
    pub outcomes: Vec<OutcomeRow<W>>,
    /// P(success or better).
    pub p_success: W,
    /// Whether `p_success` means anything (a dice roll with no comparison
    /// and no tiers has none: the field is left out).
    pub has_success: bool,
    /// Further named fields (`p_critical`, `hits`, `p_win`, …).
    pub fields: Vec<(String, Field<W>)>,
    /// Remarks a designer should see (impossible checks, truncation, …).
    pub notes: Vec<String>,
}

impl<W: Weight> Report<W> {
    /// A report whose outcomes are the tiers of `law`.
    pub fn from_tiers<T: Tier>(
        system: &'static str,
        system_ja: &'static str,
        law: &TierLaw<T, W>,
    ) -> Self {
        Report {
            system,
            system_ja,
            params: Vec::new(),
            outcomes: law
                .iter()
                .map(|(t, p)| OutcomeRow::new(t.key(), t.en(), t.ja(), p.clone()))
                .collect(),
            p_success: law.p_success(),
            has_success: true,
            fields: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A report with no tiers (contests, tables); `p_success` is given.
    pub fn bare(system: &'static str, system_ja: &'static str, p_success: W) -> Self {
        Report {
            system,
            system_ja,
            params: Vec::new(),
            outcomes: Vec::new(),
            p_success,
            has_success: true,
            fields: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A report with no success probability (`p_success` left out).
    pub fn without_success(mut self) -> Self {
        self.has_success = false;
        self
    }

    /// Add an effective parameter.
    pub fn param(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.params.push((name.to_string(), value.into()));
        self
    }

    /// Add a named field.
    pub fn field(mut self, name: &str, value: Field<W>) -> Self {
        self.fields.push((name.to_string(), value));
        self
    }

    /// Add a probability field.
    pub fn prob(self, name: &str, p: W) -> Self {
        self.field(name, Field::Prob(p))
    }

    /// Add a note.
    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(text.into());
        self
    }

    /// Look up a field by name.
    pub fn get(&self, name: &str) -> Option<&Field<W>> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, f)| f)
    }

    /// Look up an outcome's probability by key.
    pub fn outcome(&self, key: &str) -> Option<&W> {
        self.outcomes.iter().find(|o| o.key == key).map(|o| &o.p)
    }

    /// Every floating-point probability held to [0, 1], and −0 read as 0:
    /// rounding can leave a sum of many terms a hair above 1
    /// (`1000B10000>=5000`) or a difference a hair below 0; the last guard
    /// before any output ([`crate::request::Request::report`] applies it).
    /// Exact reports are left as they are.
    pub fn clamp_probabilities(mut self) -> Self {
        if W::EXACT {
            return self;
        }
        for o in &mut self.outcomes {
            clamp_prob(&mut o.p);
        }
        clamp_prob(&mut self.p_success);
        for (_, f) in &mut self.fields {
            clamp_field(f);
        }
        self
    }

    /// The JSON form: the stable contract read by scripts and CI.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("system".into(), Value::from(self.system));
        m.insert(
            "params".into(),
            Value::Object(self.params.iter().cloned().collect()),
        );
        let outcomes: Map<String, Value> = self
            .outcomes
            .iter()
            .map(|o| (o.key.to_string(), prob_json(&o.p)))
            .collect();
        m.insert("outcomes".into(), Value::Object(outcomes));
        let labels: Map<String, Value> = self
            .outcomes
            .iter()
            .map(|o| {
                (
                    o.key.to_string(),
                    serde_json::json!({ "en": o.en, "ja": o.ja }),
                )
            })
            .collect();
        m.insert("labels".into(), Value::Object(labels));
        if self.has_success {
            m.insert("p_success".into(), prob_json(&self.p_success));
        }
        for (name, f) in &self.fields {
            m.insert(name.clone(), field_json(f));
        }
        m.insert("exact".into(), Value::Bool(W::EXACT));
        m.insert(
            "notes".into(),
            Value::Array(self.notes.iter().map(|n| Value::from(n.as_str())).collect()),
        );
        Value::Object(m)
    }
}

/// A floating-point probability held to [0, 1] (−0 and NaN left to 0 and
/// NaN: `max`/`min` of a NaN keep the bound, so NaN is kept on purpose).
fn clamp_prob<W: Weight>(p: &mut W) {
    let x = p.to_f64();
    if x.is_nan() {
        return;
    }
    if !(0.0..=1.0).contains(&x) || (x == 0.0 && x.is_sign_negative()) {
        *p = W::from_f64(x.clamp(0.0, 1.0) + 0.0);
    }
}

fn clamp_field<W: Weight>(f: &mut Field<W>) {
    match f {
        Field::Prob(p) => clamp_prob(p),
        Field::Probs(ps) => ps.iter_mut().for_each(clamp_prob),
        Field::Rows(rows) => rows
            .iter_mut()
            .flat_map(|r| r.iter_mut())
            .for_each(|(_, f)| clamp_field(f)),
        Field::Object(items) => items.iter_mut().for_each(|(_, f)| clamp_field(f)),
        Field::Value(_) | Field::Root(_) | Field::Int(_) | Field::Bool(_) | Field::Text(_) => {}
    }
}

/// The decimal of `√v`, rounded to 15 significant digits and printed
/// shortest (`√(35/3)` → `3.41565025531987`).
pub fn root_text<W: Weight>(v: &W) -> String {
    format!("{}", crate::weight::tidy(v.to_f64().max(0.0).sqrt()))
}

/// A probability as JSON: `"num/den"` when exact, a number otherwise
/// (tidied to 15 significant digits: [`crate::weight::tidy`]).
pub fn prob_json<W: Weight>(p: &W) -> Value {
    if W::EXACT {
        Value::from(p.exact_text())
    } else {
        serde_json::Number::from_f64(crate::weight::tidy(p.to_f64()))
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// `f` of each probability, in order: in parallel for a long exact list
/// (the digits of thousands of fractions of thousands of digits: each
/// text on its own, so the same on any number of threads).
pub fn map_probs<W: Weight, T: Send>(ps: &[W], f: impl Fn(&W) -> T + Sync + Send) -> Vec<T> {
    map_long(W::EXACT, ps, Weight::den_bits, f)
}

/// `f` of each named field, in order: in parallel where they hold a long
/// exact law (a distribution of thousands of long fractions), as
/// [`map_probs`].
pub fn map_items<W: Weight, T: Send>(
    items: &[(String, Field<W>)],
    f: impl Fn(&(String, Field<W>)) -> T + Sync + Send,
) -> Vec<T> {
    let bits = |(_, v): &(String, Field<W>)| match v {
        Field::Prob(p) | Field::Value(p) => p.den_bits(),
        _ => 0,
    };
    map_long(W::EXACT, items, bits, f)
}

/// `f` of each item, in order, in parallel where the items are `exact`
/// and their denominators (`bits` of each) add up past a million bits
/// over more than 64 items.
fn map_long<I: Sync, T: Send>(
    exact: bool,
    items: &[I],
    bits: impl Fn(&I) -> u64,
    f: impl Fn(&I) -> T + Sync + Send,
) -> Vec<T> {
    if exact && items.len() > 64 && items.iter().map(bits).sum::<u64>() > 1 << 20 {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// A field as JSON (the same text as [`Report::to_json`] gives it).
pub fn field_json<W: Weight>(f: &Field<W>) -> Value {
    match f {
        Field::Prob(p) | Field::Value(p) => prob_json(p),
        Field::Root(v) => match crate::weight::exact_sqrt(v) {
            Some(root) => prob_json(&root),
            // An irrational root of an exact variance: its decimal, a
            // string like every exact number.
            None => Value::from(root_text(v)),
        },
        Field::Probs(ps) => Value::Array(map_probs(ps, prob_json)),
        Field::Int(n) => Value::from(*n),
        Field::Bool(b) => Value::from(*b),
        Field::Text(t) => Value::from(t.as_str()),
        Field::Rows(rows) => Value::Array(
            rows.iter()
                .map(|r| Value::Object(r.iter().map(|(k, v)| (k.clone(), field_json(v))).collect()))
                .collect(),
        ),
        Field::Object(items) => Value::Object(
            map_items(items, |(k, v)| (k.clone(), field_json(v)))
                .into_iter()
                .collect(),
        ),
    }
}
