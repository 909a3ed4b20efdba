//! Serde adapters for request fields.
//!
//! A request arrives from JSON (`POST /api/odds`, a report's `params`
//! block), from an analysis file (TOML) or from flags. Values are read the
//! way a designer types them: a list may be one number, an array, or a
//! comma list (`"50,30,15"`, as on the command line); a repeatable switch
//! may be `true` or a count; an option is its name as on the command line
//! (`--tie-rule attacker` ↔ `"tie_rule": "attacker"`). Each error names
//! what was found and what is allowed.

use clap::ValueEnum;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// Any scalar or list, before it is read as the field's type. (A visitor,
/// not `#[serde(untagged)]`: no buffering, no trial errors; a request is
/// read once per analysis point.)
enum Loose {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
    List(Vec<Loose>),
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> serde::de::Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number, true/false, a text or a list")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Loose, E> {
        Ok(Loose::Int(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Loose, E> {
        i64::try_from(v)
            .map(Loose::Int)
            .map_err(|_| E::custom(format!("{v} is too large (at most {})", i64::MAX)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Loose, E> {
        Ok(Loose::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Loose, E> {
        Ok(Loose::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Loose, E> {
        Ok(Loose::Text(v))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        let mut items = Vec::new();
        while let Some(x) = seq.next_element::<Loose>()? {
            items.push(x);
        }
        Ok(Loose::List(items))
    }
}

impl Loose {
    fn describe(&self) -> String {
        match self {
            Loose::Int(i) => i.to_string(),
            Loose::Float(f) => f.to_string(),
            Loose::Bool(b) => b.to_string(),
            Loose::Text(s) => crate::error::quote(s),
            Loose::List(_) => "a list".into(),
        }
    }

    fn int(&self) -> Result<i64, String> {
        match self {
            Loose::Int(i) => Ok(*i),
            Loose::Text(s) => s
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("{} is not an integer", crate::error::quote(s))),
            other => Err(format!("{} is not an integer", other.describe())),
        }
    }

    fn ints(self) -> Result<Vec<i64>, String> {
        match self {
            Loose::List(items) => items.iter().map(Loose::int).collect(),
            Loose::Text(s) => crate::request::parse_list(&s),
            one => Ok(vec![one.int()?]),
        }
    }
}

/// An integer (or its text).
pub fn int<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    Loose::deserialize(d)?.int().map_err(D::Error::custom)
}

/// An optional integer (`null` or absent: none).
pub fn opt_int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<Loose>::deserialize(d)?
        .map(|l| l.int())
        .transpose()
        .map_err(D::Error::custom)
}

/// A list of integers: one number, an array, or a comma list.
pub fn ints<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    match Option::<Loose>::deserialize(d)? {
        None => Ok(Vec::new()),
        Some(l) => l.ints().map_err(D::Error::custom),
    }
}

/// A list of texts: one text or an array of texts.
pub fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    match Option::<Loose>::deserialize(d)? {
        None => Ok(Vec::new()),
        Some(Loose::Text(s)) => Ok(vec![s]),
        Some(Loose::List(items)) => items
            .into_iter()
            .map(|x| match x {
                Loose::Text(s) => Ok(s),
                other => Err(D::Error::custom(format!(
                    "{} is not a text",
                    other.describe()
                ))),
            })
            .collect(),
        Some(other) => Err(D::Error::custom(format!(
            "{} is not a text or a list of texts",
            other.describe()
        ))),
    }
}

/// A list of texts from a comma-delimited flag: a comma list (`"a,b"`, as
/// on the command line) or an array of texts.
pub fn comma_strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(strings(d)?
        .iter()
        .flat_map(|s| s.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect())
}

/// An optional list of integers.
pub fn opt_ints<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    Option::<Loose>::deserialize(d)?
        .map(Loose::ints)
        .transpose()
        .map_err(D::Error::custom)
}

/// A number (integer or decimal).
pub fn float<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    match Loose::deserialize(d)? {
        Loose::Int(i) => Ok(i as f64),
        Loose::Float(f) => Ok(f),
        Loose::Text(s) => match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => Err(D::Error::custom(format!(
                "{} is beyond what a decimal number holds",
                crate::error::quote(&s)
            ))),
            Err(_) => Err(D::Error::custom(format!(
                "{} is not a number",
                crate::error::quote(&s)
            ))),
        },
        other => Err(D::Error::custom(format!(
            "{} is not a number",
            other.describe()
        ))),
    }
}

/// A switch: `true`/`false`.
pub fn switch<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match Option::<Loose>::deserialize(d)? {
        None => Ok(false),
        Some(Loose::Bool(b)) => Ok(b),
        Some(Loose::Text(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(other) => Err(D::Error::custom(format!(
            "{} is not true or false",
            other.describe()
        ))),
    }
}

/// A repeatable switch: `true` (once), `false`, or how many times.
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    match Option::<Loose>::deserialize(d)? {
        None | Some(Loose::Bool(false)) => Ok(0),
        Some(Loose::Bool(true)) => Ok(1),
        Some(Loose::Int(n)) if (0..=u8::MAX as i64).contains(&n) => Ok(n as u8),
        Some(other) => Err(D::Error::custom(format!(
            "{} is not true, false or a count 0..=255",
            other.describe()
        ))),
    }
}

fn choice<T: ValueEnum>(s: &str) -> Result<T, String> {
    T::from_str(s.trim(), true).map_err(|_| {
        let allowed: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|p| p.get_name().to_string())
            .collect();
        format!(
            "{} is not allowed (allowed: {})",
            crate::error::quote(s),
            allowed.join(", ")
        )
    })
}

fn name_of<T: ValueEnum>(v: &T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

/// A named option, as on the command line.
pub fn option<'de, D: Deserializer<'de>, T: ValueEnum>(d: D) -> Result<T, D::Error> {
    choice(&String::deserialize(d)?).map_err(D::Error::custom)
}

/// An optional named option.
pub fn opt_option<'de, D: Deserializer<'de>, T: ValueEnum>(d: D) -> Result<Option<T>, D::Error> {
    Option::<String>::deserialize(d)?
        .map(|s| choice(&s))
        .transpose()
        .map_err(D::Error::custom)
}

/// Write a named option.
pub fn ser_option<S: Serializer, T: ValueEnum>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&name_of(v))
}

/// Write an optional named option.
pub fn ser_opt_option<S: Serializer, T: ValueEnum>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(&name_of(v)),
        None => s.serialize_none(),
    }
}
