//! `hantei odds multiplier`: flags for the d100 success-multiplier check
//! (seed 000, 行為判定). The flags are checked against the kind of check and
//! turned into a [`Query`]; the numbers come from
//! [`crate::systems::multiplier`].
//!
//! The opposing side of a contest (対抗判定) or the stealth roll of
//! perception vs stealth (知覚対隠密) is given with the same flags prefixed
//! `--vs-`. When `--kind` is left out it is `random` if `--rate` is given,
//! `skill` if `--skill-level` or `--required-level` is given, else `ability`.

use crate::error::{Error, Result};
use crate::report::Report;
use crate::systems::multiplier::{
    self as m, AbilityCheck, Check, CheckSpec, Counting, ExtendedParams, Kind, Mode, Options,
    PerceptionRule, Query, SkillCheck,
};
use crate::weight::Weight;
use serde::{Deserialize, Serialize};

use serde_json::{Map, Value};

use super::de;

/// Largest successes × attempts of an extended check in exact fractions.
pub const EXACT_EXTENDED_MAX: i64 = 40_000;

/// A required level: a number ≥ 1, or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequiredLevel(pub Option<i64>);

fn parse_required(s: &str) -> std::result::Result<RequiredLevel, String> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(RequiredLevel(None));
    }
    s.trim()
        .parse::<i64>()
        .map(|n| RequiredLevel(Some(n)))
        .map_err(|_| format!("'{s}' is not a level (expected a number ≥ 1 or 'none')"))
}

fn opt_required<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<RequiredLevel>, D::Error> {
    use serde::de::Error as _;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Level {
        Number(i64),
        Text(String),
    }
    match Option::<Level>::deserialize(d)? {
        None => Ok(None),
        Some(Level::Number(n)) => Ok(Some(RequiredLevel(Some(n)))),
        Some(Level::Text(t)) => parse_required(&t).map(Some).map_err(D::Error::custom),
    }
}

fn ser_required<S: serde::Serializer>(
    v: &Option<RequiredLevel>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        None => s.serialize_none(),
        Some(RequiredLevel(None)) => s.serialize_str("none"),
        Some(RequiredLevel(Some(n))) => s.serialize_i64(*n),
    }
}

/// A multiplier check, contest, perception roll or extended check: the
/// flags of `hantei odds multiplier`, and the same fields (snake_case) in a
/// request. The acting (or perceiving) side's flags come first, then the
/// opposing (or stealth) side's, prefixed `--vs-`.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::{multiplier, Request};
///
/// // Seed 000: ability 12 × multiplier 5 = a 60% rate, exactly 3/5.
/// let req = Request::Multiplier(Box::new(multiplier::Params {
///     ability: Some(12),
///     ..Default::default()
/// }));
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(3, 5));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// Kind of check: ability (能力値判定), skill (技能判定) or random
    /// (無作為判定). Default: random with --rate, skill with --skill-level or
    /// --required-level, else ability.
    #[serde(
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Ability score A (基本能力値), 0..=1000. Needed for ability and skill
    /// checks.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub ability: Option<i64>,
    /// A supporter's ability (協力): adds half, rounded up. Repeatable or
    /// comma-separated.
    #[serde(rename = "supporter", deserialize_with = "de::ints")]
    #[arg(long = "supporter", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub supporters: Vec<i64>,
    /// Base success multiplier M (成功倍率), −1000..=1000. Default 5.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-1000..=1000"))]
    pub multiplier: Option<i64>,
    /// Modifier to the multiplier, each −1000..=1000; repeatable or
    /// comma-separated, summed.
    #[serde(rename = "modifier", deserialize_with = "de::ints")]
    #[arg(long = "modifier", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("-1000..=1000"))]
    pub modifiers: Vec<i64>,
    /// Skill level S (技能レベル), 0..=100; several (repeatable or 3,2) → the lowest.
    /// Default 0 (skill not held).
    #[serde(rename = "skill_level", deserialize_with = "de::ints")]
    #[arg(long = "skill-level", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("0..=100"))]
    pub skill_levels: Vec<i64>,
    /// Required skill level R (要求技能レベル), ≥ 1, or "none". Default 1.
    #[serde(deserialize_with = "opt_required", serialize_with = "ser_required")]
    #[arg(long, value_parser = parse_required, allow_negative_numbers = true)]
    pub required_level: Option<RequiredLevel>,
    /// Ability check: no guaranteed rate (最低保障成功率) when the final
    /// multiplier is ≤ 0 — the check is impossible instead.
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub no_guarantee: bool,
    /// Random check: the rate in %, 0..=1000.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub rate: Option<i64>,
    /// Another main person (メインの人物) in a shared check: their ability
    /// is added in full, not halved like a --supporter's (seed 000:
    /// 「メインの人物(能力値を半減しない)を増やしてもかまいません」). Repeatable.
    #[serde(default, rename = "co_ability", deserialize_with = "de::ints")]
    #[arg(long = "co-ability", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub co_abilities: Vec<i64>,
    /// Opposing side: kind of check (default as for --kind).
    #[serde(
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub vs_kind: Option<Kind>,
    /// Opposing side: ability score.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub vs_ability: Option<i64>,
    /// Opposing side: a supporter's ability.
    #[serde(rename = "vs_supporter", deserialize_with = "de::ints")]
    #[arg(long = "vs-supporter", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub vs_supporters: Vec<i64>,
    /// Opposing side: base multiplier, −1000..=1000 (default 5).
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("-1000..=1000"))]
    pub vs_multiplier: Option<i64>,
    /// Opposing side: modifier to the multiplier.
    #[serde(rename = "vs_modifier", deserialize_with = "de::ints")]
    #[arg(long = "vs-modifier", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("-1000..=1000"))]
    pub vs_modifiers: Vec<i64>,
    /// Opposing side: skill level(s).
    #[serde(rename = "vs_skill_level", deserialize_with = "de::ints")]
    #[arg(long = "vs-skill-level", value_delimiter = ',', allow_negative_numbers = true, value_parser = super::int_flag("0..=100"))]
    pub vs_skill_levels: Vec<i64>,
    /// Opposing side: required level, or "none" (default 1).
    #[serde(deserialize_with = "opt_required", serialize_with = "ser_required")]
    #[arg(long, value_parser = parse_required, allow_negative_numbers = true)]
    pub vs_required_level: Option<RequiredLevel>,
    /// Opposing side: no guaranteed rate.
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub vs_no_guarantee: bool,
    /// Opposing side: random check rate.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("0..=1000"))]
    pub vs_rate: Option<i64>,
    /// Whether a roll of 100 (00) counts as doubles for a fumble.
    #[serde(deserialize_with = "de::switch")]
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub hundred_is_doubles: bool,
    /// Perception vs stealth (知覚対隠密): this side perceives, the --vs- side
    /// is the stealth roll; one roll each, a success of a strictly higher
    /// tier notices (the seed; see --perception-rule).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub perception: bool,
    /// Perception vs stealth where the perception roll must also succeed
    /// (implies --perception; the default rule, kept for scripts).
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub perception_needs_success: bool,
    /// Who notices in perception vs stealth: needs-success (a success of a
    /// higher tier: the seed's words, default) or higher-tier (the literal
    /// tier order: a failure beats a fumble). Implies --perception.
    #[serde(
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub perception_rule: Option<PerceptionRule>,
    /// Extended check (継続的な行為判定): successes needed, 1..=1000.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=1000"))]
    pub successes: Option<i64>,
    /// Extended check: attempt limit, 1..=1000. Default 10.
    #[serde(deserialize_with = "de::opt_int")]
    #[arg(long, allow_negative_numbers = true, value_parser = super::int_flag("1..=1000"))]
    pub attempts: Option<i64>,
    /// Extended check: effective success counts 2, decisive 3.
    #[serde(deserialize_with = "de::switch")]
    #[arg(long)]
    pub degrees: bool,
    /// A further side of a contest of more than two (2者以上の対抗判定),
    /// as `key=value` pairs of this side's flags without `--`, e.g.
    /// `--side ability=10,multiplier=4` or `--side rate=40`. Repeatable;
    /// needs the --vs- side. Each side's chance to come out on top is
    /// reported as p_top.
    #[serde(default, rename = "side", deserialize_with = "de::strings")]
    #[arg(long = "side", value_name = "KEY=VALUE,...")]
    pub sides: Vec<String>,
}

/// A report's `params` block as request fields: derived values (`mode`,
/// effective ability, final multiplier, the lowest skill level) go, the
/// lists take their flag names, and the rule names become switches.
pub(super) fn unreport(m: &mut Map<String, Value>) {
    m.remove("mode");
    for side in ["", "vs_"] {
        let key = |name: &str| format!("{side}{name}");
        for derived in ["effective_ability", "final_multiplier", "skill_level"] {
            m.remove(&key(derived));
        }
        super::rename(m, &key("supporters"), &key("supporter"));
        super::rename(m, &key("skill_levels"), &key("skill_level"));
        if let Some(Value::Bool(g)) = m.remove(&key("guarantee")) {
            m.insert(key("no_guarantee"), Value::Bool(!g));
        }
        if m.get(&key("required_level")).is_some_and(Value::is_null) {
            m.insert(key("required_level"), Value::from("none"));
        }
    }
    super::rename(m, "co_abilities", "co_ability");
    super::rename(m, "sides", "side");
    if m.contains_key("perception_rule") {
        m.insert("perception".into(), Value::Bool(true));
    }
    if let Some(Value::String(counting)) = m.remove("counting") {
        m.insert("degrees".into(), Value::Bool(counting == "degrees"));
    }
}

/// One side's flags, whatever their prefix.
struct Side<'a> {
    /// `"--"` or `"--vs-"`.
    prefix: &'static str,
    kind: Option<Kind>,
    ability: Option<i64>,
    supporters: &'a [i64],
    multiplier: Option<i64>,
    modifiers: &'a [i64],
    skill_levels: &'a [i64],
    required_level: Option<RequiredLevel>,
    no_guarantee: bool,
    rate: Option<i64>,
}

impl Side<'_> {
    /// Whether any flag of this side was given.
    fn given(&self) -> bool {
        self.kind.is_some()
            || self.ability.is_some()
            || !self.supporters.is_empty()
            || self.multiplier.is_some()
            || !self.modifiers.is_empty()
            || !self.skill_levels.is_empty()
            || self.required_level.is_some()
            || self.no_guarantee
            || self.rate.is_some()
    }

    fn flag(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The check these flags describe.
    fn check(&self) -> Result<Check> {
        let kind = self.kind.unwrap_or(if self.rate.is_some() {
            Kind::Random
        } else if !self.skill_levels.is_empty() || self.required_level.is_some() {
            Kind::Skill
        } else {
            Kind::Ability
        });
        let present = [
            ("ability", self.ability.is_some()),
            ("supporter", !self.supporters.is_empty()),
            ("multiplier", self.multiplier.is_some()),
            ("modifier", !self.modifiers.is_empty()),
            ("skill-level", !self.skill_levels.is_empty()),
            ("required-level", self.required_level.is_some()),
            ("no-guarantee", self.no_guarantee),
            ("rate", self.rate.is_some()),
        ];
        let allowed: &[&str] = match kind {
            Kind::Ability => &[
                "ability",
                "supporter",
                "multiplier",
                "modifier",
                "no-guarantee",
            ],
            Kind::Skill => &[
                "ability",
                "supporter",
                "multiplier",
                "modifier",
                "skill-level",
                "required-level",
            ],
            Kind::Random => &["rate"],
        };
        if let Some((name, _)) = present
            .iter()
            .find(|(name, given)| *given && !allowed.contains(name))
        {
            return Err(Error::Conflict(format!(
                "{} does not apply to {} {}: it takes {}",
                self.flag(name),
                self.flag("kind"),
                kind.key(),
                allowed
                    .iter()
                    .map(|a| self.flag(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let spec = match kind {
            Kind::Random => CheckSpec::Random {
                rate: self
                    .rate
                    .ok_or_else(|| self.missing("rate", "a random check"))?,
            },
            Kind::Ability | Kind::Skill => {
                let ability = self
                    .ability
                    .ok_or_else(|| self.missing("ability", "an ability or skill check"))?;
                let multiplier = self.multiplier.unwrap_or(m::BASE_MULTIPLIER);
                if kind == Kind::Ability {
                    CheckSpec::Ability(AbilityCheck {
                        ability,
                        supporters: self.supporters.to_vec(),
                        multiplier,
                        modifiers: self.modifiers.to_vec(),
                        guarantee: !self.no_guarantee,
                    })
                } else {
                    CheckSpec::Skill(SkillCheck {
                        ability,
                        supporters: self.supporters.to_vec(),
                        multiplier,
                        modifiers: self.modifiers.to_vec(),
                        skill_levels: self.skill_levels.to_vec(),
                        required_level: self
                            .required_level
                            .map_or(Some(m::DEFAULT_REQUIRED_LEVEL), |r| r.0),
                    })
                }
            }
        };
        Check::new(spec).map_err(|e| self.rename(e))
    }

    fn missing(&self, name: &str, what: &str) -> Error {
        Error::Conflict(format!("missing {}: {what} needs it", self.flag(name)))
    }

    /// Errors from the library name the plain flags; give them this side's
    /// prefix.
    fn rename(&self, e: Error) -> Error {
        e.on_side(self.prefix.trim_start_matches("--"))
    }
}

impl Default for Params {
    fn default() -> Self {
        Params {
            kind: None,
            ability: None,
            supporters: Vec::new(),
            multiplier: None,
            modifiers: Vec::new(),
            skill_levels: Vec::new(),
            required_level: None,
            no_guarantee: false,
            rate: None,
            co_abilities: Vec::new(),
            vs_kind: None,
            vs_ability: None,
            vs_supporters: Vec::new(),
            vs_multiplier: None,
            vs_modifiers: Vec::new(),
            vs_skill_levels: Vec::new(),
            vs_required_level: None,
            vs_no_guarantee: false,
            vs_rate: None,
            hundred_is_doubles: true,
            perception: false,
            perception_needs_success: false,
            perception_rule: None,
            successes: None,
            attempts: None,
            degrees: false,
            sides: Vec::new(),
        }
    }
}

impl Params {
    fn main_side(&self) -> Side<'_> {
        let a = self;
        Side {
            prefix: "--",
            kind: a.kind,
            ability: a.ability.map(|x| x + a.co_abilities.iter().sum::<i64>()),
            supporters: &a.supporters,
            multiplier: a.multiplier,
            modifiers: &a.modifiers,
            skill_levels: &a.skill_levels,
            required_level: a.required_level,
            no_guarantee: a.no_guarantee,
            rate: a.rate,
        }
    }

    fn vs_side(&self) -> Side<'_> {
        let v = self;
        Side {
            prefix: "--vs-",
            kind: v.vs_kind,
            ability: v.vs_ability,
            supporters: &v.vs_supporters,
            multiplier: v.vs_multiplier,
            modifiers: &v.vs_modifiers,
            skill_levels: &v.vs_skill_levels,
            required_level: v.vs_required_level,
            no_guarantee: v.vs_no_guarantee,
            rate: v.vs_rate,
        }
    }

    /// Validate the flags and build the question.
    pub fn query(&self) -> Result<Query> {
        if !self.co_abilities.is_empty() {
            for &c in &self.co_abilities {
                crate::error::check_range("--co-ability", c, 0, 1000)?;
            }
            let Some(a) = self.ability else {
                return Err(Error::Conflict(
                    "--co-ability adds a main person's ability to --ability: give --ability".into(),
                ));
            };
            let total = a + self.co_abilities.iter().sum::<i64>();
            if total > 1000 {
                return Err(Error::param(
                    "--ability + --co-ability",
                    total,
                    "allowed 0..=1000 in all",
                ));
            }
        }
        let check = self.main_side().check()?;
        let vs = self.vs_side();
        let perception =
            self.perception || self.perception_needs_success || self.perception_rule.is_some();
        let conflict = |msg: &str| Err(Error::Conflict(msg.to_string()));
        let mode = if let Some(k) = self.successes {
            if vs.given() {
                return conflict(
                    "--successes (extended check) cannot be combined with an opposing --vs- side",
                );
            }
            if perception {
                return conflict(
                    "--successes (extended check) cannot be combined with --perception",
                );
            }
            let counting = if self.degrees {
                Counting::Degrees
            } else {
                Counting::Successes
            };
            Mode::Extended(ExtendedParams::new(
                k,
                self.attempts.unwrap_or(m::DEFAULT_ATTEMPTS),
                counting,
            )?)
        } else if self.attempts.is_some() || self.degrees {
            return conflict("--attempts and --degrees need --successes (extended check)");
        } else if vs.given() {
            let other = vs.check()?;
            if perception {
                Mode::Perception {
                    stealth: other,
                    rule: match (self.perception_rule, self.perception_needs_success) {
                        (Some(PerceptionRule::HigherTier), true) => {
                            return conflict(
                                "--perception-needs-success and --perception-rule higher-tier contradict each other (give one)",
                            )
                        }
                        (Some(rule), _) => rule,
                        (None, _) => PerceptionRule::NeedsSuccess,
                    },
                }
            } else {
                Mode::Contest { vs: other }
            }
        } else if perception {
            return conflict("--perception needs the stealth roll, given with --vs- flags (e.g. --vs-kind skill --vs-ability 12 --vs-skill-level 2 --vs-required-level none)");
        } else {
            Mode::Single
        };
        Ok(Query {
            check,
            mode,
            options: Options {
                hundred_is_doubles: self.hundred_is_doubles,
            },
        })
    }

    /// The report for these flags.
    /// The further sides of a contest, each from its `key=value` spec.
    fn more_sides(&self) -> Result<Vec<m::Check>> {
        const KEYS: &[&str] = &[
            "kind",
            "ability",
            "supporter",
            "multiplier",
            "modifier",
            "skill_level",
            "required_level",
            "no_guarantee",
            "rate",
            "co_ability",
        ];
        self.sides
            .iter()
            .map(|spec| {
                let bad = |msg: String| Error::Conflict(format!("--side '{spec}': {msg}"));
                let mut fields = serde_json::Map::new();
                for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, "true"));
                    let k = k.trim().replace('-', "_");
                    if !KEYS.contains(&k.as_str()) {
                        return Err(bad(format!(
                            "'{k}' is not a side's flag (allowed: {})",
                            KEYS.join(", ").replace('_', "-")
                        )));
                    }
                    // Only a switch stands alone; every other flag needs its
                    // value (`ability` alone read as `ability=true`).
                    if !pair.contains('=') && k != "no_guarantee" {
                        return Err(bad(format!(
                            "'{}' needs a value: write {}=N (a side is KEY=VALUE pairs joined by commas, e.g. ability=10,multiplier=4)",
                            k.replace('_', "-"),
                            k.replace('_', "-")
                        )));
                    }
                    let v = v.trim();
                    let value = v
                        .parse::<i64>()
                        .map(Value::from)
                        .or_else(|_| v.parse::<bool>().map(Value::from))
                        .unwrap_or_else(|_| Value::from(v));
                    match fields.get_mut(&k) {
                        Some(Value::Array(items)) => items.push(value),
                        Some(old) => *old = Value::Array(vec![old.clone(), value]),
                        None => {
                            fields.insert(k, value);
                        }
                    }
                }
                let side: Params = match super::Request::from_fields("multiplier", &fields) {
                    Ok(super::Request::Multiplier(p)) => *p,
                    Ok(_) => unreachable!("from_fields(\"multiplier\") gives a multiplier request"),
                    Err(e) => return Err(bad(e.to_string())),
                };
                side.query()
                    .map(|q| q.check)
                    .map_err(|e| bad(e.to_string()))
            })
            .collect()
    }

    pub fn report<W: Weight>(&self) -> Result<Report<W>> {
        let query = self.query()?;
        let more = self.more_sides()?;
        if !more.is_empty() && !matches!(query.mode, m::Mode::Contest { .. }) {
            return Err(Error::Conflict(
                "--side adds a third (or further) side to a contest: give the second side with --vs- flags (and no --perception or --successes)".into(),
            ));
        }
        if let (true, Some(k)) = (W::EXACT, self.successes) {
            let n = self.attempts.unwrap_or(m::DEFAULT_ATTEMPTS);
            if k.saturating_mul(n) > EXACT_EXTENDED_MAX {
                return Err(Error::param(
                    "--successes × --attempts",
                    k.saturating_mul(n),
                    format!(
                        "--exact allows at most {EXACT_EXTENDED_MAX} for an extended check (exact fractions of longer tests take minutes: N = 1000 took 147 s); drop --exact for floating point"
                    ),
                ));
            }
        }
        let mut r = m::report(&query);
        if !self.co_abilities.is_empty() {
            // Show the main person's own ability and the others beside it.
            if let Some(i) = r.params.iter().position(|(k, _)| k == "ability") {
                r.params[i].1 = Value::from(self.ability);
                r.params.insert(
                    i + 1,
                    (
                        "co_abilities".into(),
                        Value::from(self.co_abilities.clone()),
                    ),
                );
            }
        }
        if !more.is_empty() {
            r = m::with_more_sides(r, &query, &more).param("sides", self.sides.clone());
        }
        Ok(r)
    }
}
