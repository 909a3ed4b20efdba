//! Any check a designer can type: BCDice's common dice commands, exactly
//! (`hantei odds dice EXPR`, system id `dice`, ダイス表記).
//!
//! The notation is BCDice's (ココフォリア, ユドナリウム, どどんとふ), read
//! case-insensitively with full-width characters as half-width:
//!
//! | command | 和名 | result |
//! |---|---|---|
//! | `xDy`, `+ - * /`, `/2U` `/2R` `/2F`, `KHn KLn DHn DLn MAX MIN`, `>= > <= < = != <>` | 加算ダイス | the total; 成功/失敗 against the target |
//! | `xBy` (`2B6+3B8>=4`) | バラバラダイス | the number of dice that meet the comparison |
//! | `xRy[cond]>=t`, `xRy>=t@cond` | 個数振り足しダイス | successes, rerolled dice included |
//! | `xUy[n]+m>=t`, `@n` | 上方無限ロール | groups whose total + m meets the target; without a target, the largest group and the total |
//! | `D66`, `D66A`/`D66S`, `D66D`, `D66N` | D66 | tens and ones of two d6 |
//! | `A -> COND: B; C`, `(3B6>=4)D6`, `2D(…)`, `max(0,…)` | 連続ロール | chained rolls: the follow-up's result ([`chained`]) |
//!
//! BCDice's own rules are kept where they surprise: division by zero gives
//! 1; unsuffixed division floors (the common bot's setting); `R` rounds
//! half away from zero; the modifier of `xU` after a `-` is negated as a
//! whole (`3U6[6]-2+1` adds −3); `xR` without a success condition counts 0
//! successes; `xD66` reads its two dice unsorted; `xD` without sides is
//! `xD6` (`2D` = `2D6`, BCDice's implicit sides of the common bot).
//!
//! Where BCDice only prints faces, hantei reports a number: `xB` without a
//! comparison reports the sum of the faces.
//!
//! **Tiers for house rules** (`--tier NAME:COND`, repeatable): the first
//! condition that holds names the outcome, in the order given; a last
//! `--tier NAME` without a condition takes the rest (without one, the rest
//! is `other` (その他)). A condition compares the result (`>=10`) or the
//! natural dice (`natural>=19`: the kept dice of 加算ダイス before any
//! arithmetic). `p_success` is the probability of the success tiers:
//! `--success-tiers` names them; by default the tiers marked `:success`
//! and every unmarked tier but the last (the catch-all, or `other`), never
//! a tier marked `:fail`. Without tiers, `p_success` is the comparison's
//! (成功), or for counting commands P(at least one success).
//!
//! **Contests** (`--vs EXPR`): both commands' results are compared, higher
//! wins (`--lower-wins` for roll-under), with the tie rules of the other
//! systems; `p_success` is then `p_win` after the tie rule.
//!
//! **A table by difficulty** (`--sweep dc=5..25`, [`sweep`], 判定の掃引):
//! tiers holding a placeholder (`total>={dc}`) judged at every value, the
//! dice's law built once; the report gains the table `by_dc`. A
//! placeholder in the dice (`{n}D6 --sweep n=1..6`) is written into each
//! value's roll: the table alone, one die's pools by size in one pass.
//!
//! **Over several rolls** (`--until N`, [`until`]): the command rolled
//! again and again, its result (or another statistic, [`per_roll`]) added
//! up until it reaches `N`, with tiers that end the test or add a bonus,
//! and races of two commands; the math is [`crate::rounds`].

pub mod ast;
pub mod chained;
pub mod cond;
pub mod games;
pub mod hints;
pub mod law;
pub mod lower;
pub mod parse;
pub mod per_roll;
pub mod pool;
pub mod roll;
pub mod sweep;
pub mod until;

use std::collections::BTreeMap;

pub use ast::{Body, Cmp, Command, Condition, Node};
pub use parse::parse;

use crate::contest::{compare, TieRule};
use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::report::{Field, OutcomeRow, Report};
use crate::weight::Weight;

/// System id.
pub const ID: &str = "dice";
/// Japanese name of the check.
pub const JA: &str = "ダイス表記 (BCDice コマンド)";
/// Default bound on the probability cut from exploding dice.
pub const DEFAULT_TAIL_EPS: f64 = 1e-15;
/// Most tiers (`--tier`) and most branches of a chain.
pub const MAX_TIERS: usize = 100;
/// Most outcomes of `--outcomes-by` (one per value the statistics take).
pub const MAX_OUTCOMES: usize = 1000;

/// Who takes a tied contest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TieBreak {
    /// Ties stand: reported as `p_tie`, no one wins (default).
    #[default]
    #[value(alias = "separate")]
    Tie,
    /// The first (active) side takes a tie.
    #[value(alias = "active")]
    Attacker,
    /// The opposing side takes a tie.
    #[value(alias = "passive")]
    Defender,
    /// Both roll again until the results differ.
    Reroll,
}

impl TieBreak {
    /// Stable key.
    pub fn key(self) -> &'static str {
        match self {
            TieBreak::Tie => "tie",
            TieBreak::Attacker => "attacker",
            TieBreak::Defender => "defender",
            TieBreak::Reroll => "reroll",
        }
    }

    fn rule(self) -> TieRule {
        match self {
            TieBreak::Tie => TieRule::Separate,
            TieBreak::Attacker => TieRule::First,
            TieBreak::Defender => TieRule::Second,
            TieBreak::Reroll => TieRule::Reroll,
        }
    }
}

/// A named outcome tier of a house rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierSpec {
    /// Its name (any language).
    pub name: String,
    /// `None`: takes the rest.
    pub cond: Option<cond::Expr>,
    /// Marked `:success` (`Some(true)`) or `:fail` (`Some(false)`) where it
    /// was written; `None`: the default (every tier but the last succeeds).
    pub mark: Option<bool>,
}

impl std::fmt::Display for TierSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)?;
        if let Some(c) = &self.cond {
            write!(f, ":{c}")?;
        }
        match self.mark {
            Some(true) => f.write_str(":success"),
            Some(false) => f.write_str(":fail"),
            None => Ok(()),
        }
    }
}

/// Marks that end a tier: it counts as success or as failure.
const MARKS: &[(&str, bool)] = &[
    ("success", true),
    ("成功", true),
    ("fail", false),
    ("failure", false),
    ("失敗", false),
];

/// Read `NAME:COND[:success|:fail]` or `NAME` (a last catch-all).
pub fn parse_tier(text: &str) -> Result<TierSpec> {
    if let Some(hint) = hints::cut_condition_hint(text) {
        return Err(Error::param("--tier", text, hint));
    }
    let form = "write NAME:COND (e.g. \"strong hit:>=10\", \"critical:natural>=19\", \"fumble:natural==1:fail\", \"crit:count(==6)>=2\") or a last NAME alone for the rest";
    let bad = |why: &str| Error::param("--tier", text, format!("{why}; {form}"));
    let norm = parse::normalize_width(text.trim());
    let (name, rest) = match norm.split_once(':') {
        Some((n, c)) => (n.trim(), Some(c)),
        None => (&*norm, None),
    };
    if name.is_empty() {
        return Err(bad("a tier needs a name"));
    }
    if name.chars().any(char::is_control) {
        return Err(bad("a tier name cannot hold control characters"));
    }
    if rest.is_none() && name.contains(['<', '>', '=']) {
        return Err(bad(
            "the tier has no ':' between its name and its condition",
        ));
    }
    let Some(rest) = rest else {
        return Ok(TierSpec {
            name: name.to_string(),
            cond: None,
            mark: None,
        });
    };
    let mut cond_text = rest.trim();
    let mut mark = None;
    if let Some((c, m)) = cond_text.rsplit_once(':') {
        match MARKS.iter().find(|(w, _)| w.eq_ignore_ascii_case(m.trim())) {
            Some((_, v)) => {
                mark = Some(*v);
                cond_text = c.trim();
            }
            None => {
                return Err(bad(&format!(
                    "'{}' after the condition is no mark (allowed :success, :fail)",
                    m.trim()
                )))
            }
        }
    } else if let Some((_, v)) = MARKS
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(cond_text))
    {
        // `NAME:fail`: a catch-all with a mark.
        return Ok(TierSpec {
            name: name.to_string(),
            cond: None,
            mark: Some(*v),
        });
    }
    if cond_text.is_empty() {
        return Err(bad("the condition after ':' is empty"));
    }
    let expr = match cond::parse(cond_text) {
        Ok(e) => e,
        Err(Error::Notation { pos, message, .. }) => {
            // The condition's place in the tier, counted only for the caret.
            let offset = norm.chars().count() - rest.chars().count()
                + (rest.len() - rest.trim_start().len());
            let cut = !cond_text.contains(['<', '>', '=']);
            let message = if cut {
                format!("{message}. It looks cut at a '>' or '<': in a shell an unquoted > or < redirects, so quote the whole tier (--tier \"{name}:natural>=19\")")
            } else {
                message
            };
            return Err(Error::Notation {
                expr: norm.to_string(),
                pos: offset + pos,
                message: format!("in --tier: {message}"),
            });
        }
        Err(e) => return Err(e),
    };
    Ok(TierSpec {
        name: name.to_string(),
        cond: Some(expr),
        mark,
    })
}

/// A whole-check push: when the first roll lands in `tiers`, the dice the
/// rules name are rerolled once and the check judged again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Push {
    /// The tiers that push.
    pub tiers: Vec<String>,
    /// Which dice are rerolled.
    pub rules: Vec<pool::push::PushRule>,
}

/// Read a `--push-dice` rule: `[NAME:]FACECOND`.
pub fn parse_push_rule(text: &str) -> Result<pool::push::PushRule> {
    let norm = parse::normalize_width(text.trim());
    let (term, c) = match norm.split_once(':') {
        Some((n, c)) => (Some(n.trim().to_string()), c.trim().to_string()),
        None => (None, norm.to_string()),
    };
    let cond = cond::parse_face(&c).map_err(|m| {
        Error::param(
            "--push-dice",
            text,
            format!("{m}; write [TERM:]FACE, e.g. 2..5 (reroll faces 2 to 5), <6, base:2..5"),
        )
    })?;
    Ok(pool::push::PushRule { term, cond })
}

/// A dice check: a command, its tiers, and an optional opposing command.
#[derive(Clone, Debug)]
pub struct Check {
    /// The command.
    pub command: Command,
    /// House-rule tiers, best first as given.
    pub tiers: Vec<TierSpec>,
    /// Tiers that count as success (`None`: the marks, else all but the
    /// last catch-all).
    pub success_tiers: Option<Vec<String>>,
    /// The opposing command of a contest.
    pub vs: Option<Command>,
    /// Who takes a tied contest.
    pub tie: TieBreak,
    /// In a contest, the lower result wins.
    pub lower_wins: bool,
    /// Bound on the mass cut from exploding dice.
    pub tail_eps: f64,
    /// A whole-check push.
    pub push: Option<Push>,
    /// `--outcomes-by`: the statistics whose values name the outcomes (the
    /// tiers are then one per value, built by [`Check::outcomes_by`]).
    pub outcomes_by: Vec<pool::Stat>,
    /// `--outcomes-only`: the report holds the tiers' probabilities and
    /// p_success alone, so no law of the result is built (no
    /// distribution, mean or sd) and the tiers' law carries only what they
    /// read ([`Check::tier_probs_only`]).
    pub outcomes_only: bool,
}

impl Check {
    /// A check of `expr` with no tiers.
    pub fn new(expr: &str) -> Result<Check> {
        Ok(Check::of(parse(expr)?))
    }

    /// A check of a parsed command with no tiers.
    pub fn of(command: Command) -> Check {
        Check {
            command,
            tiers: Vec::new(),
            success_tiers: None,
            vs: None,
            tie: TieBreak::default(),
            lower_wins: false,
            tail_eps: DEFAULT_TAIL_EPS,
            push: None,
            outcomes_by: Vec::new(),
            outcomes_only: false,
        }
    }

    /// Outcomes by the values of `stats` (`--outcomes-by width
    /// --outcomes-by height`): one tier per value, or tuple of values, the
    /// roll can show, greatest first — the One-Roll Engine's sets, a
    /// count's every value — in place of `--tier`.
    pub fn outcomes_by(&mut self, stats: Vec<pool::Stat>) -> Result<()> {
        if stats.is_empty() {
            return Ok(());
        }
        if !self.tiers.is_empty() {
            return Err(Error::Conflict(
                "--outcomes-by names the outcomes by values: give it or --tier, not both".into(),
            ));
        }
        let Some(expr) = self.expr() else {
            return Err(Error::Conflict(
                "--outcomes-by reads the statistics of a 加算ダイス (xDy) command; xB, xR, xU and D66 have only their result (use result)".into(),
            ));
        };
        let units = pool::unit_names(expr);
        let stats: Vec<pool::Stat> = stats
            .into_iter()
            .map(|s| match s {
                pool::Stat::Named(n) if units.iter().any(|u| **u == *n) => pool::Stat::Unit(n),
                s => s,
            })
            .collect();
        let law = pool::facts::<f64>(expr, &stats, self.tail_eps)?;
        let slots: Vec<usize> = stats.iter().map(|s| law.index(s).unwrap_or(0)).collect();
        let mut values: Vec<Vec<i64>> = law
            .cells
            .iter()
            .filter(|(_, w)| *w > 0.0)
            .map(|(k, _)| slots.iter().map(|&i| k[i]).collect())
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        if values.len() > MAX_OUTCOMES {
            return Err(Error::param(
                "--outcomes-by",
                stats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(","),
                format!(
                    "the statistics take {} values together (at most {MAX_OUTCOMES} outcomes); read fewer or use --tier",
                    values.len()
                ),
            ));
        }
        let last = values.len().saturating_sub(1);
        self.tiers = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = stats
                    .iter()
                    .zip(v)
                    .map(|(s, x)| format!("{s}={x}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                let cond = stats
                    .iter()
                    .zip(v)
                    .map(|(s, x)| {
                        cond::Expr::Cmp(
                            ast::Cmp::Eq,
                            Box::new(cond::Expr::Stat(s.clone())),
                            Box::new(cond::Expr::Num(*x)),
                            false,
                        )
                    })
                    .reduce(|a, b| cond::Expr::And(Box::new(a), Box::new(b)));
                // The last value takes the rest when nothing is cut.
                let cond = if i == last && !law.explodes {
                    None
                } else {
                    cond
                };
                TierSpec {
                    name,
                    cond,
                    mark: None,
                }
            })
            .collect();
        self.outcomes_by = stats;
        Ok(())
    }

    /// The expression of a 加算ダイス command.
    pub fn expr(&self) -> Option<&Node> {
        match &self.command.body {
            Body::Add(a) => Some(&a.expr),
            _ => None,
        }
    }

    /// Validate tiers and options, and resolve the names the conditions
    /// read against the command.
    pub fn validate(&mut self) -> Result<()> {
        self.validate_as(None)
    }

    /// [`Check::validate`], the placeholder `{placeholder}` allowed in the
    /// tiers (a sweep's, checked once for every value: a value changes a
    /// number, nothing validation reads).
    fn validate_as(&mut self, placeholder: Option<&str>) -> Result<()> {
        if let Some(why) = self.vs.as_ref().and_then(hints::ignored_vs_target) {
            let vs = self
                .vs
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            return Err(Error::param("--vs", vs, why));
        }
        if !(self.tail_eps > 0.0 && self.tail_eps < 1e-3) {
            return Err(Error::param(
                "--tail-eps",
                self.tail_eps,
                "allowed above 0 and below 0.001",
            ));
        }
        if self.outcomes_only && self.tiers.is_empty() {
            return Err(Error::Conflict(
                "--outcomes-only reports the tiers' probabilities alone: give the tiers with --tier NAME:COND or --outcomes-by STAT".into(),
            ));
        }
        if self.outcomes_only && self.vs.is_some() {
            return Err(Error::Conflict(
                "--outcomes-only reports the tiers of one roll: a contest (--vs) needs the law of both results; leave out one of the two".into(),
            ));
        }
        if self.tiers.len() > MAX_TIERS && self.outcomes_by.is_empty() {
            return Err(Error::param(
                "--tier",
                self.tiers.len(),
                format!("at most {MAX_TIERS} tiers"),
            ));
        }
        // The command's field alone is borrowed: the tiers are marked below.
        let expr = match &self.command.body {
            Body::Add(a) => Some(&a.expr),
            _ => None,
        };
        let (terms, units) = match expr {
            Some(e) => {
                pool::check_names(e)?;
                (pool::term_names(e), pool::unit_names(e))
            }
            None => (Vec::new(), Vec::new()),
        };
        let is_add = expr.is_some();
        for i in 0..self.tiers.len() {
            let last = i + 1 == self.tiers.len();
            let t = &self.tiers[i];
            if t.cond.is_none() && !last {
                return Err(Error::param(
                    "--tier",
                    &t.name,
                    "a tier without a condition takes the rest, so it must be the last",
                ));
            }
            // The tier as errors show it, written only for an error.
            let shown = || t.to_string();
            if let Some(c) = &t.cond {
                let mut vars = Vec::new();
                c.vars(&mut vars);
                if let Some(v) = vars.iter().find(|v| Some(&***v) != placeholder) {
                    return Err(Error::param(
                        "--tier",
                        shown(),
                        format!("{{{v}}} is a placeholder: give its values with --sweep {v}=LO..HI (one law of the dice, judged at each value), or write a number"),
                    ));
                }
                c.check_names(&terms, &units, &shown)?;
                let reads_more = c.reads_where(&|s| *s != pool::Stat::Total, &|_| true);
                if reads_more && !is_add {
                    return Err(Error::param(
                        "--tier",
                        shown(),
                        "conditions on natural dice and other statistics apply to 加算ダイス (xDy) commands: xB, xR, xU and D66 have only their result",
                    ));
                }
            }
            if let Some(c) = &mut self.tiers[i].cond {
                c.mark_units(&units);
            }
        }
        for (i, t) in self.tiers.iter().enumerate() {
            if self.tiers[..i].iter().any(|u| u.name == t.name)
                || t.name == OTHER && t.cond.is_some()
            {
                return Err(Error::param("--tier", &t.name, "tier names must differ"));
            }
        }
        if let Some(names) = &self.success_tiers {
            if self.tiers.is_empty() {
                return Err(Error::Conflict(
                    "--success-tiers names tiers: give them with --tier NAME:COND".into(),
                ));
            }
            for n in names {
                if !self.tier_names().iter().any(|t| t == n) {
                    return Err(Error::param(
                        "--success-tiers",
                        n,
                        format!("allowed: the tier names ({})", self.tier_names().join(", ")),
                    ));
                }
            }
        }
        if let Some(p) = &self.push {
            if !is_add {
                return Err(Error::Conflict(
                    "--push rerolls dice of a 加算ダイス (xDy) command; xB, xR, xU and D66 cannot be pushed".into(),
                ));
            }
            if self.tiers.is_empty() {
                return Err(Error::Conflict(
                    "--push names the tiers that push: give them with --tier NAME:COND".into(),
                ));
            }
            for n in &p.tiers {
                if !self.tier_names().iter().any(|t| t == n) {
                    return Err(Error::param(
                        "--push",
                        n,
                        format!("allowed: the tier names ({})", self.tier_names().join(", ")),
                    ));
                }
            }
            if p.rules.is_empty() {
                return Err(Error::Conflict(
                    "--push needs the dice it rerolls: --push-dice FACE (e.g. 2..5), or TERM:FACE per named term".into(),
                ));
            }
        } else if self.tiers.iter().any(|t| {
            t.cond
                .as_ref()
                .is_some_and(|c| c.reads_where(&|s| *s == pool::Stat::Pushed, &|_| false))
        }) {
            return Err(Error::Conflict(
                "a tier reads 'pushed' but the check has no --push".into(),
            ));
        }
        if self.vs.is_none() && self.lower_wins {
            return Err(Error::Conflict(
                "--lower-wins applies only to a contest: give the opposing roll with --vs EXPR"
                    .into(),
            ));
        }
        Ok(())
    }

    fn has_catch_all(&self) -> bool {
        self.tiers.last().is_some_and(|t| t.cond.is_none())
    }

    /// Tier names best first, with the implicit `other` when no catch-all
    /// is given.
    pub fn tier_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.tiers.iter().map(|t| t.name.clone()).collect();
        if !self.tiers.is_empty() && !self.has_catch_all() {
            v.push(OTHER.to_string());
        }
        v
    }

    /// Whether a tier counts toward `p_success`: `--success-tiers` when
    /// given; else its mark (`:success`, `:fail`); else every tier but the
    /// last.
    pub fn is_success_tier(&self, name: &str) -> bool {
        if let Some(names) = &self.success_tiers {
            return names.iter().any(|n| n == name);
        }
        if let Some(m) = self
            .tiers
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.mark)
        {
            return m;
        }
        match self.tier_count() {
            0 => true,
            n => self.tier_name(n - 1) != name,
        }
    }

    /// How many names [`Check::tier_names`] holds, without building them.
    pub fn tier_count(&self) -> usize {
        match self.tiers.len() {
            0 => 0,
            n => n + usize::from(!self.has_catch_all()),
        }
    }

    /// The name of tier `t` (an index into [`Check::tier_names`]), without
    /// building them: past the tiers given, the implicit `other`.
    pub fn tier_name(&self, t: usize) -> &str {
        self.tiers.get(t).map_or(OTHER, |x| x.name.as_str())
    }

    /// The check's own request fields in a report's params: the command,
    /// tiers, success tiers, outcomes alone, push and contest (`lower_wins` when asked:
    /// `--until` refuses it, so its reports leave it out).
    pub fn write_params<W: Weight>(&self, mut r: Report<W>, lower_wins: bool) -> Report<W> {
        r = r.param("expr", self.command.to_string());
        if !self.outcomes_by.is_empty() {
            r = r.param(
                "outcomes_by",
                serde_json::Value::from(
                    self.outcomes_by
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>(),
                ),
            );
        } else if !self.tiers.is_empty() {
            r = r.param(
                "tier",
                serde_json::Value::from(
                    self.tiers.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
                ),
            );
        }
        if let Some(s) = &self.success_tiers {
            r = r.param("success_tiers", serde_json::Value::from(s.clone()));
        }
        if self.outcomes_only {
            r = r.param("outcomes_only", true);
        }
        if let Some(p) = &self.push {
            r = r
                .param("push", serde_json::Value::from(p.tiers.clone()))
                .param(
                    "push_dice",
                    serde_json::Value::from(
                        p.rules.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
                    ),
                );
        }
        if let Some(vs) = &self.vs {
            r = r
                .param("vs", vs.to_string())
                .param("tie_rule", self.tie.key());
            if lower_wins {
                r = r.param("lower_wins", self.lower_wins);
            }
        }
        r
    }

    /// The statistics the tiers read (the result first).
    pub fn stats(&self) -> Vec<pool::Stat> {
        with_total(self.tier_stats())
    }

    /// Whether the law needs the pool engine (its constructs, statistics
    /// beyond the result and natural dice, or a push).
    pub fn needs_engine(&self) -> bool {
        self.needs_engine_of(&self.tier_stats())
    }

    /// [`Check::needs_engine`] with the tiers' statistics known.
    fn needs_engine_of(&self, tier_stats: &[pool::Stat]) -> bool {
        // Names read by nothing change no law: the plain sum's path, as
        // for the same roll unnamed (the natural dice's joint law takes
        // plain terms alone, so names keep the engine there).
        let engine = if tier_stats.contains(&pool::Stat::Natural) {
            pool::uses_engine
        } else {
            pool::uses_engine_unnamed
        };
        self.expr().is_some_and(engine)
            || self.push.is_some()
            || tier_stats
                .iter()
                .any(|s| !matches!(s, pool::Stat::Total | pool::Stat::Natural))
    }

    /// The tier (index into [`Check::tier_names`]) of a roll's statistics.
    pub fn tier_of_stats(&self, get: &dyn Fn(&pool::Stat) -> i64) -> usize {
        for (i, t) in self.tiers.iter().enumerate() {
            match &t.cond {
                None => return i,
                Some(c) => {
                    if c.holds(get) {
                        return i;
                    }
                }
            }
        }
        self.tiers.len()
    }

    /// The tier (index into [`Check::tier_names`]) of a result and its
    /// natural dice (for tiers that read only those).
    pub fn tier_of(&self, value: i64, natural: i64) -> usize {
        self.tier_of_stats(&|s| match s {
            pool::Stat::Natural => natural,
            _ => value,
        })
    }

    /// The tier of a roll read by the plain rule.
    pub fn tier_of_facts(&self, f: &roll::Facts) -> usize {
        self.tier_of_stats(&|s| f.stat(s))
    }

    /// Whether a first roll with these statistics is pushed.
    pub fn pushes(&self, get: &dyn Fn(&pool::Stat) -> i64) -> bool {
        let Some(p) = &self.push else {
            return false;
        };
        // Read for every simulated roll of a pushed check: the one name.
        let name = self.tier_name(self.tier_of_stats(get));
        p.tiers.iter().any(|n| n == name)
    }

    /// The joint law of the statistics the tiers read, by the pool engine.
    pub fn joint<W: Weight>(&self) -> Result<pool::JointLaw<W>> {
        self.joint_with(&[])
    }

    /// [`Check::joint`] with more statistics carried.
    pub fn joint_with<W: Weight>(&self, extra: &[pool::Stat]) -> Result<pool::JointLaw<W>> {
        let Some(expr) = self.expr() else {
            return Err(Error::Conflict(
                "dice: statistics beyond the result are read from 加算ダイス (xDy) commands".into(),
            ));
        };
        let mut stats = self.stats();
        for s in extra {
            if !stats.contains(s) {
                stats.push(s.clone());
            }
        }
        match &self.push {
            None => pool::law::<W>(expr, &stats, self.tail_eps),
            Some(_) => self.push_law(&stats, None, &[]),
        }
    }

    /// The statistics the tiers read only against numbers, with the range
    /// beyond which their values read alike ([`pool::bounds`]): a law built
    /// for the tiers alone may saturate them.
    pub fn bounds(&self) -> Vec<pool::Bound> {
        pool::bounds(self.tiers.iter().filter_map(|t| t.cond.as_ref()), &[])
    }

    /// The law of what the tiers read and the total, with the tiers'
    /// statistics saturated ([`Check::bounds`]): good for the tiers'
    /// probabilities and the total's law, not for reading the statistics'
    /// values.
    fn tier_law<W: Weight>(&self) -> Result<pool::JointLaw<W>> {
        let Some(expr) = self.expr() else {
            return self.joint();
        };
        let stats = self.stats();
        match &self.push {
            None => pool::law_bounded::<W>(expr, &stats, &self.bounds(), self.tail_eps),
            Some(_) => self.push_law(&stats, None, &self.bounds()),
        }
    }

    /// The pushed check's law of `stats`, its final tuple carrying only
    /// `carried` (`None`: all).
    fn push_law<W: Weight>(
        &self,
        stats: &[pool::Stat],
        carried: Option<&[pool::Stat]>,
        bounds: &[pool::Bound],
    ) -> Result<pool::JointLaw<W>> {
        Ok(self.push_laws(stats, &[carried], bounds)?.remove(0))
    }

    /// [`Check::push_law`] for several final tuples (`carries`), over one
    /// plain roll and one set of push decisions.
    fn push_laws<W: Weight>(
        &self,
        stats: &[pool::Stat],
        carries: &[Option<&[pool::Stat]>],
        bounds: &[pool::Bound],
    ) -> Result<Vec<pool::JointLaw<W>>> {
        let (Some(expr), Some(p)) = (self.expr(), &self.push) else {
            return Err(Error::Conflict("dice: a push needs an xDy command".into()));
        };
        let layout = pool::layout(stats);
        // The tiers resolved to the layout's slots once, and which of them
        // push: the decision is read for every first roll.
        let program = self.tier_program(&layout);
        let names = self.tier_names();
        let pushing: Vec<bool> = (0..=self.tiers.len())
            .map(|t| names.get(t).is_some_and(|n| p.tiers.iter().any(|x| x == n)))
            .collect();
        let decide = |k: &[i64]| -> bool { pushing[program.tier_of(k)] };
        // What the push decision reads of the first roll: the tiers'
        // statistics (the rest of the first roll is dropped early, which
        // keeps the pairs of rolls few).
        let reads = self.tier_stats();
        pool::push::law_each::<W>(
            expr,
            stats,
            &p.rules,
            &decide,
            pool::push::Carry {
                reads: &reads,
                carried: None,
                bounds,
            },
            carries,
            self.tail_eps,
        )
    }

    /// P(tier) for each tier and the result's law, from one reading of
    /// `stats` with the tiers' statistics saturated ([`Check::bounds`]):
    /// straight from the expression's parts where the planner chooses it
    /// ([`pool::product`]), else from the joint law, judged cell by cell.
    fn read_tiers<W: Weight>(
        &self,
        expr: &ast::Node,
        stats: &[pool::Stat],
    ) -> Result<(Vec<W>, law::Law<W>)> {
        self.read_tiers_within(expr, stats, &self.bounds())
    }

    /// [`Check::read_tiers`] with the statistics saturated at `bounds`.
    fn read_tiers_within<W: Weight>(
        &self,
        expr: &ast::Node,
        stats: &[pool::Stat],
        bounds: &[pool::Bound],
    ) -> Result<(Vec<W>, law::Law<W>)> {
        let (tiers, read) = self.tiers_read(expr, stats, bounds)?;
        Ok(match read {
            TiersRead::Judged(law) => (tiers, law),
            TiersRead::Joint(joint) => (tiers, law::Law::of_joint(&joint)?),
        })
    }

    /// [`Check::read_tiers_within`] for the tiers alone: their
    /// probabilities, the mass cut and whether any dice explode, the
    /// result's law not built where the joint law was (refused as it
    /// would be: [`pool::JointLaw::check_span`]).
    fn tiers_only_within<W: Weight>(
        &self,
        expr: &ast::Node,
        stats: &[pool::Stat],
        bounds: &[pool::Bound],
    ) -> Result<(Vec<W>, W, bool)> {
        let (tiers, read) = self.tiers_read(expr, stats, bounds)?;
        Ok(match read {
            TiersRead::Judged(law) => (tiers, law.tail, law.explodes),
            TiersRead::Joint(joint) => {
                joint.check_span(&pool::Stat::Total)?;
                (tiers, joint.tail, joint.explodes)
            }
        })
    }

    /// The tiers' probabilities from one reading of `stats` saturated at
    /// `bounds` (one judge for the parts' product or the joint law's
    /// cells), with the result's law where the product judged them, else
    /// the joint law.
    fn tiers_read<W: Weight>(
        &self,
        expr: &ast::Node,
        stats: &[pool::Stat],
        bounds: &[pool::Bound],
    ) -> Result<(Vec<W>, TiersRead<W>)> {
        let program = self.tier_program(&pool::layout(stats));
        let mut judge = program.judge();
        let read = pool::product::read::<W, _>(
            expr,
            stats,
            bounds,
            self.tail_eps,
            self.tier_count(),
            &mut judge,
        )?;
        Ok(match read {
            pool::product::Read::Judged(j) => (
                j.tiers,
                TiersRead::Judged(law::Law {
                    value: j.total,
                    total: None,
                    tail: j.tail,
                    explodes: j.explodes,
                }),
            ),
            pool::product::Read::Law(joint) => (
                self.tier_probs_by(&joint, &mut judge),
                TiersRead::Joint(joint),
            ),
        })
    }

    /// P(tier) for each tier of [`Check::tier_names`], from a joint law
    /// carrying the statistics the tiers read (empty without tiers).
    pub fn tier_probs<W: Weight>(&self, law: &pool::JointLaw<W>) -> Vec<W> {
        let program = self.tier_program(&law.layout);
        self.tier_probs_by(law, &mut program.judge())
    }

    /// [`Check::tier_probs`] by `judge`, a judge of the tiers on the
    /// law's layout.
    fn tier_probs_by<W: Weight>(&self, law: &pool::JointLaw<W>, judge: &mut Judge) -> Vec<W> {
        if self.tiers.is_empty() {
            return Vec::new();
        }
        if W::EXACT {
            let items: Vec<(usize, &W)> = law
                .cells
                .iter()
                .map(|(k, p)| (judge.tier_of(k), p))
                .collect();
            if let Some(sums) = crate::weight::exact_bucket_sums(self.tier_count(), &items) {
                return sums;
            }
        }
        let mut out = vec![W::zero(); self.tier_count()];
        for (k, p) in &law.cells {
            out[judge.tier_of(k)] += p.clone();
        }
        out
    }

    /// The tiers' probabilities alone, with the mass cut from exploding
    /// dice and whether any explode: the law of what the tiers read
    /// (`tier_stats`), its statistics saturated where the tiers allow, and
    /// no law of the result beside it (`--outcomes-only`).
    pub fn tier_probs_only<W: Weight>(
        &self,
        tier_stats: &[pool::Stat],
        passes: Passes,
    ) -> Result<(Vec<W>, W, bool)> {
        let joint = match (passes, self.expr(), &self.push) {
            (Passes::Plain { .. }, _, _) | (_, None, _) => {
                let natural = tier_stats.contains(&pool::Stat::Natural);
                let (tier_p, law) = self.plain_tiers::<W>(natural)?;
                return Ok((tier_p, law.tail, law.explodes));
            }
            (_, Some(_), Some(_)) => {
                self.push_law::<W>(tier_stats, Some(tier_stats), &self.bounds())?
            }
            (Passes::Joint, Some(expr), None) => {
                law::check_work::<W>(&self.command)?;
                let bounds = self.bounds_with_cap(expr, tier_stats);
                return self.tiers_only_within::<W>(expr, tier_stats, &bounds);
            }
            (_, Some(expr), None) if tiers_carry_the_total(expr, tier_stats) => {
                // A named term's value needs the total: the parts' product
                // read by the tiers, as the whole report reads them.
                let (p, law) = self.read_tiers::<W>(expr, tier_stats)?;
                return Ok((p, law.tail, law.explodes));
            }
            (_, Some(expr), None) => {
                pool::facts_bounded::<W>(expr, tier_stats, &self.bounds(), self.tail_eps)?
            }
        };
        Ok((self.tier_probs(&joint), joint.tail, joint.explodes))
    }

    /// [`Check::bounds`], and the result's own bound where the tiers read
    /// it against numbers alone and [`pool::chain_cap`] lets exploding
    /// chains stop there: for the tiers' law alone (`--outcomes-only`),
    /// never for a law whose result is reported.
    fn bounds_with_cap(&self, expr: &ast::Node, tier_stats: &[pool::Stat]) -> Vec<pool::Bound> {
        // The tiers' thresholds found once, for the bounds and the cap.
        let seen = pool::thresholds(self.tiers.iter().filter_map(|t| t.cond.as_ref()));
        let mut bounds = pool::bounds_from(&seen, &[]);
        let hi = seen
            .iter()
            .find(|(s, _)| *s == pool::Stat::Total)
            .and_then(|(_, t)| t.as_ref()?.iter().max().copied());
        let named: Vec<(pool::Stat, i64)> = bounds
            .iter()
            .filter(|(s, _, _)| matches!(s, pool::Stat::Named(_)))
            .map(|(s, _, h)| (s.clone(), *h))
            .collect();
        if let Some(cap) =
            hi.and_then(|hi| pool::chain_cap(expr, &pool::layout(tier_stats), hi, &named))
        {
            bounds.push((pool::Stat::Total, i64::MIN, cap));
        }
        bounds
    }

    /// A report of the tiers' probabilities `tier_p`: p_success the sum
    /// of the success tiers' (none for outcomes by value unless told which
    /// succeed).
    fn tiers_report<W: Weight>(&self, tier_p: &[W]) -> Report<W> {
        let success: W = (0..self.tier_count())
            .zip(tier_p)
            .filter(|(i, _)| self.is_success_tier(self.tier_name(*i)))
            .fold(W::zero(), |acc, (_, p)| acc + p);
        let report = Report::bare(ID, JA, success);
        if !self.outcomes_by.is_empty() && self.success_tiers.is_none() {
            // Outcomes by value judge nothing unless told which succeed.
            return report.without_success();
        }
        report
    }

    /// The tiers' outcome rows, worst first like every system's.
    fn tier_rows<W: Weight>(&self, tier_p: Vec<W>) -> Vec<OutcomeRow<W>> {
        let mut rows: Vec<OutcomeRow<W>> = (0..self.tier_count())
            .zip(tier_p)
            .map(|(i, p)| {
                let n = self.tier_name(i);
                OutcomeRow::new(n.to_string(), n.to_string(), n.to_string(), p)
            })
            .collect();
        rows.reverse();
        rows
    }

    /// `report` with the mass cut from exploding dice (`tail_mass`) and,
    /// where some is cut, the note that says so.
    fn with_cut<W: Weight>(&self, report: Report<W>, tail: &W) -> Report<W> {
        let report = report.prob("tail_mass", tail.clone());
        if tail.to_f64() > 0.0 {
            return report.note(format!(
                "exploding dice are cut where less than {:e} of the probability is left: {} is not shown (tail_mass); every other probability is that of the cut law",
                self.tail_eps,
                crate::export::percent(tail.to_f64())
            ));
        }
        report
    }

    /// BCDice's plain law of the result ([`Passes::Plain`]) and the tiers'
    /// probabilities read from it (none without tiers), or, where they
    /// read the natural dice (`natural`), from the joint law of result and
    /// natural dice, its floor refused before any work.
    fn plain_tiers<W: Weight>(&self, natural: bool) -> Result<(Vec<W>, law::Law<W>)> {
        let joint_of = match (&self.command.body, natural) {
            (Body::Add(a), true) => {
                law::check_joint_floor::<W>(&a.expr)?;
                Some(&a.expr)
            }
            _ => None,
        };
        let law = law::law::<W>(&self.command, self.tail_eps)?;
        if self.tiers.is_empty() {
            return Ok((Vec::new(), law));
        }
        let mut tier_p = vec![W::zero(); self.tier_count()];
        match joint_of {
            Some(expr) => tier_p = self.natural_tiers(expr, None)?,
            None => {
                for (v, p) in law.value.iter() {
                    if !p.is_zero() {
                        tier_p[self.tier_of(v, v)] += p;
                    }
                }
            }
        }
        Ok((tier_p, law))
    }

    /// P(tier) of a roll whose tiers read its result and natural dice:
    /// from the joint law of the two, or, where its parts make more than
    /// [`law::MAX_JOINT_MAP`] pairs (`by_pairs`: forced either way, for
    /// the tests), from each pair of the parts judged as it is made. The
    /// same numbers exactly in fractions; in floating point, sums in the
    /// parts' order, compensated.
    #[doc(hidden)]
    pub fn natural_tiers<W: Weight>(
        &self,
        expr: &ast::Node,
        by_pairs: Option<bool>,
    ) -> Result<Vec<W>> {
        let mut tier_p = vec![W::zero(); self.tier_count()];
        let parts = law::joint_parts::<W>(expr)?;
        let pairs = parts
            .as_ref()
            .map_or(0, |(_, ja, jb)| ja.len() as u64 * jb.len() as u64);
        match parts {
            Some((op, ja, jb)) if by_pairs.unwrap_or(pairs > law::MAX_JOINT_MAP) => {
                let mut carry = vec![W::zero(); tier_p.len()];
                law::for_each_pair(op, &ja, &jb, |v, nat, w| {
                    let t = self.tier_of(v, nat);
                    W::add_compensated(&mut tier_p[t], &mut carry[t], w);
                })?;
                for (t, c) in tier_p.iter_mut().zip(carry) {
                    *t += c;
                }
            }
            parts => {
                // Ordered, so the f64 sums are the same on every run.
                let joint: BTreeMap<(i64, i64), W> = match parts {
                    Some(parts) => law::joined(&parts)?,
                    None => law::joint(expr)?,
                };
                for ((v, nat), p) in joint {
                    tier_p[self.tier_of(v, nat)] += p;
                }
            }
        }
        Ok(tier_p)
    }

    /// The tiers' conditions with their statistics resolved to the slots
    /// of `layout` (a joint law's), for judging many tuples.
    pub fn tier_program(&self, layout: &[pool::Stat]) -> TierProgram {
        let slot = |s: &pool::Stat| layout.iter().position(|x| x == s);
        TierProgram {
            conds: self
                .tiers
                .iter()
                .map(|t| t.cond.as_ref().map(|c| c.slotted(&slot)))
                .collect(),
        }
    }

    /// The statistics the tiers' conditions read.
    pub fn tier_stats(&self) -> Vec<pool::Stat> {
        let mut out: Vec<pool::Stat> = Vec::new();
        for c in self.tiers.iter().filter_map(|t| t.cond.as_ref()) {
            c.collect(&mut out);
        }
        out
    }

    /// Roll the check once by the plain rule (with its push) and read every
    /// fact.
    pub fn roll_facts<F: roll::Faces>(&self, faces: &mut F) -> Option<roll::Facts> {
        let expr = self.expr()?;
        Some(match &self.push {
            None => roll::roll_facts(expr, faces, None),
            Some(p) => {
                let when = |f: &roll::Facts| self.pushes(&|s| f.stat(s));
                roll::roll_facts(expr, faces, Some((&p.rules, &when)))
            }
        })
    }
}

/// The implicit last tier.
pub const OTHER: &str = "other";

/// What one reading of the tiers gives beside their probabilities
/// ([`Check::tiers_read`]).
enum TiersRead<W: Weight> {
    /// The result's law, where the parts' product judged the tiers.
    Judged(law::Law<W>),
    /// The joint law the tiers were judged on, cell by cell.
    Joint(pool::JointLaw<W>),
}

/// The statistics a law of the tiers carries: the result first, then
/// `tier_stats` ([`Check::stats`]).
fn with_total(tier_stats: Vec<pool::Stat>) -> Vec<pool::Stat> {
    let mut out = Vec::with_capacity(tier_stats.len() + 1);
    out.push(pool::Stat::Total);
    for s in tier_stats {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// A check's tiers over the tuples of one layout ([`Check::tier_program`]):
/// [`Check::tier_of_stats`] without a lookup by statistic per read.
#[derive(Clone, Debug)]
pub struct TierProgram {
    conds: Vec<Option<cond::Slotted>>,
}

impl TierProgram {
    /// The tier (index into [`Check::tier_names`]) of the tuple `k`: the
    /// first whose condition holds, a catch-all, else the implicit last.
    pub fn tier_of(&self, k: &[i64]) -> usize {
        for (i, c) in self.conds.iter().enumerate() {
            match c {
                None => return i,
                Some(c) => {
                    if c.holds(k) {
                        return i;
                    }
                }
            }
        }
        self.conds.len()
    }

    /// A judge of many tuples ([`Judge::tier_of`]).
    pub fn judge(&self) -> Judge<'_> {
        let mut atoms = Vec::new();
        let skeletons: Vec<Option<cond::Skeleton>> = self
            .conds
            .iter()
            .map(|c| c.as_ref().map(|c| c.skeleton(&mut atoms)))
            .collect();
        // Where no test is shared, each tuple reads its tiers' tests in
        // turn until one holds, which reads fewer than all of them (20 d6
        // read by eight tests, none shared: 0.9x by masks).
        let mut occurrences = 0;
        for s in skeletons.iter().flatten() {
            s.count_atoms(&mut occurrences);
        }
        let by_mask = occurrences > atoms.len() && atoms.len() <= Judge::MAX_ATOMS;
        // Rows ([`pool::product::Rows`]) are read by masks wherever the
        // atoms are few: the memo is then made when the first rows come.
        let memo = if by_mask {
            vec![Judge::UNKNOWN; 1 << atoms.len()]
        } else {
            Vec::new()
        };
        Judge {
            program: self,
            atoms,
            skeletons,
            memo,
            by_mask,
            masks: Vec::new(),
            buffers: cond::RowBuffers::default(),
        }
    }
}

/// [`TierProgram::tier_of`] for many tuples: each distinct test the
/// tiers read (an atom: `action+2>c1`, `total>=12`, `doubles`) is read
/// once per tuple, into a mask of truths, and the tier of each mask met is
/// found once and remembered. The tiers' `and` / `or` / `not` are then
/// not walked per tuple, and a test that several tiers share is not
/// read again by each (Ironsworn's five tiers read three tests, each two
/// or three times). Where no test is shared, tuples are judged as
/// [`TierProgram::tier_of`] does.
pub struct Judge<'a> {
    program: &'a TierProgram,
    atoms: Vec<cond::Slotted>,
    skeletons: Vec<Option<cond::Skeleton>>,
    /// The tier of each mask met ([`Judge::UNKNOWN`] before); empty past
    /// [`Judge::MAX_ATOMS`] atoms, where each tuple is judged as
    /// [`TierProgram::tier_of`] does.
    memo: Vec<u8>,
    /// Whether a tuple alone is judged by its mask (some test is shared).
    by_mask: bool,
    /// The rows' masks, reused.
    masks: Vec<u64>,
    buffers: cond::RowBuffers,
}

impl Judge<'_> {
    /// Most atoms whose masks are remembered (a table of 2¹⁰ bytes).
    const MAX_ATOMS: usize = 10;
    /// A mask not met yet.
    const UNKNOWN: u8 = u8::MAX;

    /// The tier of the tuple `k`, as [`TierProgram::tier_of`].
    pub fn tier_of(&mut self, k: &[i64]) -> usize {
        if !self.by_mask {
            return self.program.tier_of(k);
        }
        let mask = self
            .atoms
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, a)| m | u64::from(a.holds(k)) << i);
        self.tier_of_mask(mask)
    }

    /// The tier where the atoms' truths are the bits of `mask`.
    fn tier_of_mask(&mut self, mask: u64) -> usize {
        let known = self.memo[mask as usize];
        if known != Self::UNKNOWN {
            return usize::from(known);
        }
        let tier = self
            .skeletons
            .iter()
            .position(|s| s.as_ref().is_none_or(|s| s.holds(mask)))
            .unwrap_or(self.skeletons.len());
        // Tiers are at most MAX_TIERS, far below UNKNOWN; more are judged
        // each time.
        if let Ok(t) = u8::try_from(tier) {
            if t != Self::UNKNOWN {
                self.memo[mask as usize] = t;
            }
        }
        tier
    }
}

impl pool::product::Judging for Judge<'_> {
    fn tier_of(&mut self, k: &[i64]) -> usize {
        Judge::tier_of(self, k)
    }

    /// Each atom read on every row (a comparison column by column), then
    /// each row's tier by its mask.
    fn tiers_of_rows(&mut self, rows: &pool::product::Rows<'_>, out: &mut [usize]) {
        if self.memo.is_empty() && self.atoms.len() <= Self::MAX_ATOMS {
            self.memo = vec![Self::UNKNOWN; 1 << self.atoms.len()];
        }
        if self.memo.is_empty() {
            // Past `MAX_ATOMS`: each row alone, as `TierProgram::tier_of`.
            return pool::product::rows_one_by_one(self, rows, out);
        }
        self.masks.clear();
        self.masks.resize(out.len(), 0);
        for (bit, atom) in (0u32..).zip(&self.atoms) {
            atom.mark_rows(rows, bit, &mut self.masks, &mut self.buffers);
        }
        for (j, o) in out.iter_mut().enumerate() {
            *o = self.tier_of_mask(self.masks[j]);
        }
    }
}

/// P(at least one) for counting commands; the comparison for 加算ダイス.
fn success_of<W: Weight>(cmd: &Command, law: &Pmf<W>) -> Option<W> {
    match &cmd.body {
        Body::Add(a) => a.target.map(|(cmp, t)| law.prob(|x| cmp.holds(x, t))),
        Body::Barabara(b) => b.target.map(|_| law.prob(|x| x >= 1)),
        Body::Reroll(r) => r.target.map(|_| law.prob(|x| x >= 1)),
        Body::Upper(u) => u.target.map(|_| law.prob(|x| x >= 1)),
        Body::D66(_) => None,
    }
}

fn mean_var<W: Weight>(p: &Pmf<W>) -> (W, W) {
    if let Some(mv) = exact_mean_var(p) {
        return mv;
    }
    let total = p.total();
    let mut m = W::zero();
    for (x, w) in p.iter() {
        m += W::int(x) * w;
    }
    let mean = m / &total;
    let mut v = W::zero();
    for (x, w) in p.iter() {
        let d = W::int(x) - &mean;
        v += d.clone() * &d * w;
    }
    (mean, v / &total)
}

/// Mean and variance of an exact law in big integers over one common
/// denominator ([`crate::weight::over_common_denominator`]), so that a law
/// of thousands of values takes three gcds, not one per addition. `None`
/// for floats or where the weights have no common denominator.
fn exact_mean_var<W: Weight>(p: &Pmf<W>) -> Option<(W, W)> {
    if !W::EXACT {
        return None;
    }
    // The law's own numerators over its common denominator, found once
    // for every sum of it; the denominator cancels. A law of a few values
    // keeps none: found here (a longer law without one has none).
    if let Some((nums, _)) = p.over_common_denominator() {
        return moments(nums.iter().zip(p.min()..));
    }
    if p.weights().len() > crate::pmf::FEW_VALUES {
        return None;
    }
    let (nums, _) = crate::weight::over_common_denominator(p.weights())?;
    moments(nums.iter().zip(p.min()..))
}

/// Mean and variance from `(numerator, value)` pairs over one common
/// denominator (which cancels); `None` for no mass.
fn moments<'a, W: Weight>(
    cells: impl Iterator<Item = (&'a num_bigint::BigInt, i64)>,
) -> Option<(W, W)> {
    use num_bigint::BigInt;
    use num_traits::Zero;
    let (mut s0, mut s1, mut s2) = (BigInt::zero(), BigInt::zero(), BigInt::zero());
    for (c, x) in cells {
        if c.is_zero() {
            continue;
        }
        let xb = BigInt::from(x);
        let cx = c * &xb;
        s2 += &cx * &xb;
        s1 += &cx;
        s0 += c;
    }
    if s0.is_zero() {
        return None;
    }
    // mean = s1/s0; variance = (s2·s0 − s1²)/s0².
    let var_num = &s2 * &s0 - &s1 * &s1;
    let var_den = &s0 * &s0;
    Some((W::from_fraction(s1, s0), W::from_fraction(var_num, var_den)))
}

fn distribution<W: Weight>(p: &Pmf<W>) -> Field<W> {
    Field::Object(
        p.iter()
            .filter(|(_, w)| !w.is_zero())
            .map(|(x, w)| (x.to_string(), Field::Prob(w.clone())))
            .collect(),
    )
}

/// How a report's laws are computed: the passes over the dice, chosen in
/// one place ([`Check::passes`]); within each pass the planner
/// ([`pool::plan`]) chooses every law's algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// A push whose tiers read no total: the tiers' law and the total's
    /// law, each a push of its own.
    PushApart,
    /// Tiers that read no total: their statistics' law without it (states
    /// that differ only in the total merge), and the total's law on its
    /// own.
    TiersApart,
    /// One joint law of everything the tiers read (the pool engine).
    Joint,
    /// The plain law of the result (BCDice's commands), the tiers read
    /// from the result and, where `natural`, the natural dice.
    Plain {
        /// The tiers read the natural dice of a sum.
        natural: bool,
    },
}

impl Passes {
    /// What the passes are, in a line (`--explain`).
    pub fn describe(self) -> &'static str {
        match self {
            Passes::PushApart => "a push for the tiers, another for the total",
            Passes::TiersApart => "the tiers' statistics without the total, then the total alone",
            Passes::Joint => "one joint law of everything the tiers read",
            Passes::Plain { natural: true } => "the plain law of the result with the natural dice",
            Passes::Plain { natural: false } => "the plain law of the result",
        }
    }
}

impl Check {
    /// The passes [`report`] makes for this (validated) check: the tiers'
    /// law apart from the total's where the tiers read no total, else
    /// [`Check::joint_passes`].
    pub fn passes(&self) -> Passes {
        self.passes_of(&self.tier_stats())
    }

    /// [`Check::passes`] with the tiers' statistics known (a report walks
    /// its tiers once for them, where each question walked them again).
    fn passes_of(&self, tier_stats: &[pool::Stat]) -> Passes {
        let apart = !tier_stats.contains(&pool::Stat::Total) && self.expr().is_some();
        if self.push.is_some() && apart {
            Passes::PushApart
        } else if self.needs_engine_of(tier_stats) && apart && !self.tiers.is_empty() {
            Passes::TiersApart
        } else {
            self.joint_passes_of(tier_stats, &[])
        }
    }

    /// The passes for one law of the tiers jointly with the result and
    /// the `extra` statistics ([`Passes::Joint`] or [`Passes::Plain`]):
    /// what [`report`] falls back to and what the law of one roll of
    /// `--until` ([`per_roll::per_roll`], which reads its statistic with
    /// the tier) takes.
    pub fn joint_passes(&self, extra: &[pool::Stat]) -> Passes {
        self.joint_passes_of(&self.tier_stats(), extra)
    }

    /// [`Check::joint_passes`] with the tiers' statistics known.
    fn joint_passes_of(&self, tier_stats: &[pool::Stat], extra: &[pool::Stat]) -> Passes {
        let beyond = |s: &pool::Stat| !matches!(s, pool::Stat::Total | pool::Stat::Natural);
        if self.needs_engine_of(tier_stats) || extra.iter().any(beyond) {
            Passes::Joint
        } else {
            Passes::Plain {
                natural: tier_stats.contains(&pool::Stat::Natural)
                    || extra.contains(&pool::Stat::Natural),
            }
        }
    }
}

/// The report of a dice check.
pub fn report<W: Weight>(check: &Check) -> Result<Report<W>> {
    report_of(check.clone())
}

/// [`report`] of a check the caller gives up (validated in place, not
/// copied first).
pub fn report_of<W: Weight>(owned: Check) -> Result<Report<W>> {
    chained::memo_scope(|| report_in_scope(owned))
}

/// [`report_of`] within its memo's scope ([`chained::memo_scope`]).
fn report_in_scope<W: Weight>(mut owned: Check) -> Result<Report<W>> {
    owned.validate()?;
    let check = &owned;
    if let Some(vs) = &check.vs {
        // What refuses the opposing roll before any work (`--vs
        // 200D1000!`: its sum, 200 dice of 5,999 values) is refused before
        // the roll's own law is built, and the roll's own refusals before
        // the opposing roll's law is (`--vs 100D10! --exact`, 1.3 s).
        law::check_work::<W>(vs)?;
        if let Body::Add(a) = &vs.body {
            law::check_result_before_tiers::<W>(&a.expr, check.tail_eps)?;
        }
    }
    let tier_p: Vec<W>;
    let tier_stats = check.tier_stats();
    let passes = check.passes_of(&tier_stats);
    if check.outcomes_only {
        return outcomes_only(check, &tier_stats, passes);
    }
    pool::plan::note(|| format!("passes: {}", passes.describe()));
    if passes == Passes::Joint {
        // The refusals the result's law makes before any work, before the
        // joint law builds its terms (a group's plain items included).
        law::check_work::<W>(&check.command)?;
    }
    let law = match passes {
        Passes::PushApart => {
            // Each final roll carries only what it is read for.
            let stats = with_total(tier_stats.clone());
            let bounds = check.bounds();
            // One plain roll and its push decisions serve both.
            let laws = check.push_laws::<W>(
                &stats,
                &[Some(&tier_stats), Some(&[pool::Stat::Total])],
                &bounds,
            )?;
            tier_p = check.tier_probs(&laws[0]);
            law::Law::of_joint(&laws[1])?
        }
        Passes::TiersApart => {
            // States that differ only in the total merge.
            let expr = check.expr().expect("an engine expression");
            if tiers_carry_the_total(expr, &tier_stats) {
                // The tiers' law carries the total exactly (a named term's
                // value needs it) and nothing is cut: the result's law is
                // its marginal, not a second law of the same dice.
                let (p, law) = check.read_tiers::<W>(expr, &tier_stats)?;
                tier_p = p;
                law
            } else {
                // What the result's law refuses before any work is
                // refused before the tiers' law is built too (`100D1000!`
                // read by `doubles`: its sum, 1.4·10¹¹ multiply-adds).
                law::check_work::<W>(&check.command)?;
                law::check_result_before_tiers::<W>(expr, check.tail_eps)?;
                let facts =
                    pool::facts_bounded::<W>(expr, &tier_stats, &check.bounds(), check.tail_eps)?;
                tier_p = check.tier_probs(&facts);
                law::law::<W>(&check.command, check.tail_eps)?
            }
        }
        Passes::Joint => match (check.expr(), &check.push) {
            (Some(expr), None) if !check.tiers.is_empty() => {
                let (p, law) = check.read_tiers::<W>(expr, &check.stats())?;
                tier_p = p;
                law
            }
            _ => {
                let joint = check.tier_law::<W>()?;
                tier_p = check.tier_probs(&joint);
                law::Law::of_joint(&joint)?
            }
        },
        Passes::Plain { natural } => {
            let (p, law) = check.plain_tiers::<W>(natural)?;
            tier_p = p;
            law
        }
    };
    let cmp_p = success_of(&check.command, &law.value);

    let mut report: Report<W>;
    let mut fields: Vec<(String, Field<W>)> = Vec::new();
    if let Some(vs_cmd) = &check.vs {
        let vs_law = law::law::<W>(vs_cmd, check.tail_eps)?;
        let c = if check.lower_wins {
            compare(&vs_law.value, &law.value)
        } else {
            compare(&law.value, &vs_law.value)
        };
        let after = c.with_tie_rule(check.tie.rule());
        report = Report::bare(ID, JA, after.win.clone());
        fields.push(("p_win".into(), Field::Prob(after.win)));
        fields.push(("p_tie".into(), Field::Prob(after.tie)));
        fields.push(("p_loss".into(), Field::Prob(after.loss)));
        fields.push(("p_win_roll".into(), Field::Prob(c.win.clone())));
        fields.push(("p_tie_roll".into(), Field::Prob(c.tie.clone())));
        fields.push(("p_loss_roll".into(), Field::Prob(c.loss.clone())));
        if check.tie == TieBreak::Reroll {
            if let Some(e) = c.expected_rolls() {
                fields.push(("expected_rolls".into(), Field::Value(e)));
            }
        }
        fields.push(("vs_distribution".into(), distribution(&vs_law.value)));
        let (m, v) = mean_var(&vs_law.value);
        fields.push(("vs_mean".into(), Field::Value(m)));
        fields.push(sd_field("vs_sd", &v));
        if vs_law.explodes {
            fields.push(("vs_tail_mass".into(), Field::Prob(vs_law.tail.clone())));
        }
        if let Some(p) = cmp_p.clone() {
            fields.push(("p_target".into(), Field::Prob(p)));
        }
    } else if !check.tiers.is_empty() {
        report = check.tiers_report(&tier_p);
        if let Some(p) = cmp_p.clone() {
            fields.push(("p_target".into(), Field::Prob(p)));
        }
    } else {
        report = match cmp_p.clone() {
            Some(p) => Report::bare(ID, JA, p),
            None => Report::bare(ID, JA, W::zero()).without_success(),
        };
        if let (Body::Add(a), Some(p)) = (&check.command.body, cmp_p) {
            // BCDice's two words, worst first like every system's outcomes.
            // The failure is summed over the failing results themselves, not
            // taken as 1 − P(success): `30D6>=31` fails with 6⁻³⁰, which
            // 1 − (almost 1) rounds to −6.7e-16 in floating point.
            let failure = match a.target {
                Some((cmp, t)) => law.value.prob(|x| !cmp.holds(x, t)),
                None => W::one() - &p - &law.tail,
            };
            report.outcomes = vec![
                OutcomeRow::new("failure", "failure", "失敗", failure),
                OutcomeRow::new("success", "success", "成功", p),
            ];
        }
    }
    if !check.tiers.is_empty() {
        report.outcomes = check.tier_rows(tier_p);
    }

    // Params: the request's own fields, so the block reads back as the
    // same request.
    report = check.write_params(report, true);
    if law.explodes || check.vs.as_ref().is_some_and(explodes) {
        report = report.param("tail_eps", check.tail_eps);
    }

    report = report.field("distribution", distribution(&law.value));
    let (m, v) = mean_var(&law.value);
    report = report.field("mean", Field::Value(m));
    let (name, sd) = sd_field("sd", &v);
    report = report.field("variance", Field::Value(v)).field(&name, sd);
    if let Some(total) = &law.total {
        report = report.field("total_distribution", distribution(total));
        let (m, v) = mean_var(total);
        report = report.field("total_mean", Field::Value(m));
        let (name, sd) = sd_field("total_sd", &v);
        report = report.field(&name, sd);
    }
    if law.explodes {
        report = check.with_cut(report, &law.tail);
    }
    for (k, f) in fields {
        report = report.field(&k, f);
    }
    // A chain: how often the first roll takes each branch (crit, hit, miss).
    if let Some(Node::Chain(c)) = check.expr() {
        if let chained::Chained::Branch(b) = &**c {
            let probs = chained::branch_probs::<W>(b, check.tail_eps)?;
            report = report.field(
                "branches",
                Field::Object(
                    probs
                        .into_iter()
                        .map(|(k, p)| (k, Field::Prob(p)))
                        .collect(),
                ),
            );
        }
    }
    if check.command.secret {
        report =
            report.note("S (secret roll) hides the result at the table; the odds are the same");
    }
    if let Body::Reroll(r) = &check.command.body {
        if r.target.is_none() {
            report = report
                .note("no success condition: BCDice counts 0 successes (give one, e.g. 2R6[6]>=5)");
        }
    }
    if let Body::Barabara(b) = &check.command.body {
        if b.target.is_none() {
            report =
                report.note("no comparison: BCDice lists the faces; the result here is their sum");
        }
    }
    Ok(report)
}

/// Whether the tiers' law of `tier_stats` over `expr` (an `xDy` sum's),
/// read as the parts' product ([`Check::read_tiers`]), carries the total
/// exactly and cuts nothing: a named term's value needs the total, and no
/// die explodes. Then it is the result's law as well.
fn tiers_carry_the_total(expr: &Node, tier_stats: &[pool::Stat]) -> bool {
    pool::facts_carry_total(expr, tier_stats) && !pool::explodes(expr)
}

/// The report of a check with `--outcomes-only` (validated): the tiers'
/// probabilities and p_success, from a law of what the tiers read alone.
fn outcomes_only<W: Weight>(
    check: &Check,
    tier_stats: &[pool::Stat],
    passes: Passes,
) -> Result<Report<W>> {
    pool::plan::note(|| "passes: the tiers' statistics alone (--outcomes-only)".to_string());
    let (tier_p, tail, explodes) = check.tier_probs_only::<W>(tier_stats, passes)?;
    let mut report = check.tiers_report(&tier_p);
    report.outcomes = check.tier_rows(tier_p);
    report = check.write_params(report, true);
    if explodes {
        report = check.with_cut(report.param("tail_eps", check.tail_eps), &tail);
    }
    Ok(report)
}

/// Whether a command's law may cut an exploding tail (rerolls, `xR`, `xU`).
pub fn explodes(c: &Command) -> bool {
    match &c.body {
        Body::Reroll(_) | Body::Upper(_) => true,
        Body::Add(a) => pool::explodes(&a.expr),
        _ => false,
    }
}

/// The standard deviation: under `--exact` a fraction when the variance is
/// a square, else its decimal ([`Field::Root`]).
fn sd_field<W: Weight>(name: &str, variance: &W) -> (String, Field<W>) {
    if W::EXACT {
        (name.to_string(), Field::Root(variance.clone()))
    } else {
        let sd = variance.to_f64().max(0.0).sqrt();
        (name.to_string(), Field::Value(W::from_f64(sd)))
    }
}
