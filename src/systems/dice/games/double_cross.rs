//! Double Cross 2nd/3rd (`DoubleCross`, ダブルクロス): `nDX[+m][@c][>=t]` and
//! `nDXc[+m][>=t]` (疾風怒濤式), as BCDice codes them (`DoubleCross.rb`).
//!
//! n d10 are rolled; a group's value is 10 if any die shows c or more
//! (default 10), else its highest die; as many dice as showed c or more
//! are rolled again, and so on. The achievement (達成値) is the groups'
//! sum + m. If every die of the first roll is 1 it is a fumble: BCDice
//! prints 0 and (with a target) 失敗. BCDice flags a critical when there is
//! more than one group. n < 1 is 自動失敗; c < 2 is refused; only `>=` is a
//! target. A bare `nD` rolls d10 in this game (`8D` is `8D10`).
//!
//! A front end of the dice engine: each group of `j` dice is the pool
//! engine's joint law of (dice reaching c, highest die) of `jD10`
//! ([`Cmd::groups`]), and the groups follow one another in a round chain
//! whose state is the number of dice still rolling ([`crate::systems::dice::pool::chain`]):
//! every group that goes on adds exactly 10, the last one its highest die.
//!
//! BCDice vs the book: none found for the check itself; the tables (`ET`,
//! `HC`, `PCP`, `PCN`) are not offered.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::systems::dice::ast::{Cmp, DieFaces, FaceCond, PoolTerm};
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::pool::{self, Stat};
use crate::systems::dice::roll::Faces;
use crate::weight::AddWeight;
use crate::weight::Weight;

use super::{GameCmd, GameLaw, Outcome, Rolled};
use crate::systems::dice::pool::chain::{self, Next};

/// One group's law: (dice reaching the critical value → probability, for
/// 1 or more; the sub-law of the highest die when none does).
pub type Group<W> = (Vec<(i64, W)>, Pmf<W>);

/// Most dice a `DX` roll takes.
pub const MAX_DICE: i64 = 200;

/// `nDX@c+m>=t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice.
    pub dice: i64,
    /// Critical value.
    pub critical: i64,
    /// Modifier.
    pub modifier: i64,
    /// `>=` target.
    pub target: Option<i64>,
}

const AUTO_FAILURE: Outcome = Outcome::fail("auto_failure", "automatic failure", "自動失敗");
const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "失敗").fumb();
const FUMBLE_NO_TARGET: Outcome = Outcome::fail("fumble", "fumble", "ファンブル")
    .fumb()
    .unprinted();
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const FAILURE_CRIT: Outcome =
    Outcome::fail("failure_critical", "failure after a critical", "失敗").crit();
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const SUCCESS_CRIT: Outcome =
    Outcome::succeed("success_critical", "success with a critical", "成功").crit();
const PLAIN: Outcome = Outcome::fail("no_critical", "no critical", "クリティカルなし").unprinted();
const CRITICAL: Outcome = Outcome::fail("critical", "critical", "クリティカル")
    .crit()
    .unprinted();

/// Read `nDX…`; `Ok(None)` if the text is not one.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let Some(at) = text.find("DX") else {
        return Ok(None);
    };
    let Ok(dice) = parse_constant(&text[..at]) else {
        return Ok(None);
    };
    let rest = &text[at + 2..];
    // nDXc: a number or a parenthesised expression right after DX.
    let (inline, rest) = if rest.starts_with(|c: char| c.is_ascii_digit()) {
        let n = rest.bytes().take_while(u8::is_ascii_digit).count();
        (Some(&rest[..n]), &rest[n..])
    } else if rest.starts_with('(') {
        match close(rest) {
            Some(n) => (Some(&rest[..n]), &rest[n..]),
            None => return Ok(None),
        }
    } else {
        (None, rest)
    };
    let (body, target) = match rest.find(">=") {
        Some(i) => (&rest[..i], Some(&rest[i + 2..])),
        None => (rest, None),
    };
    if body.contains(['<', '>', '=']) {
        return Ok(None);
    }
    let (mods, at_crit) = match body.find('@') {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let critical = match (inline, at_crit) {
        (Some(_), Some(_)) => return Ok(None),
        (Some(c), None) | (None, Some(c)) => match parse_constant(c) {
            Ok(v) => v,
            Err(_) => return Ok(None),
        },
        (None, None) => 10,
    };
    let modifier = if mods.is_empty() {
        0
    } else if mods.starts_with(['+', '-']) {
        match parse_constant(&format!("0{mods}")) {
            Ok(v) => v,
            Err(_) => return Ok(None),
        }
    } else {
        return Ok(None);
    };
    let target = match target {
        None => None,
        Some(t) => match parse_constant(t) {
            Ok(v) => Some(v),
            Err(_) => return Ok(None),
        },
    };
    if critical < 2 {
        return Err(Error::param(
            "EXPR",
            text,
            "DoubleCross: クリティカル値が低すぎます。2以上を指定してください (the critical value is at least 2)",
        ));
    }
    if dice > MAX_DICE {
        return Err(Error::param(
            "EXPR",
            text,
            format!("DoubleCross: at most {MAX_DICE} dice"),
        ));
    }
    Ok(Some(GameCmd::DoubleCross(Cmd {
        dice,
        critical,
        modifier,
        target,
    })))
}

/// The length of a parenthesised prefix `(…)`.
fn close(s: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A bare `nD` is `nD10` in this game.
pub fn plain(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        let after = chars.get(i + 1).copied();
        let before_digit = i > 0 && (chars[i - 1].is_ascii_digit() || chars[i - 1] == ')');
        if c == 'D' && before_digit && !after.is_some_and(|a| a.is_ascii_alphanumeric() || a == '(')
        {
            out.push_str("10");
        }
    }
    out
}

impl Cmd {
    #[doc(hidden)]
    pub fn word(&self, total: i64, critical: bool, fumble: bool) -> Outcome {
        match (self.target, fumble) {
            (None, true) => FUMBLE_NO_TARGET,
            (None, false) if critical => CRITICAL,
            (None, false) => PLAIN,
            (Some(_), true) => FUMBLE,
            (Some(t), false) => match (total >= t, critical) {
                (true, true) => SUCCESS_CRIT,
                (true, false) => SUCCESS,
                (false, true) => FAILURE_CRIT,
                (false, false) => FAILURE,
            },
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        if self.dice < 1 {
            return Rolled {
                value: None,
                outcome: Some(AUTO_FAILURE),
            };
        }
        let mut n = self.dice;
        let mut sum = 0;
        let mut groups = 0;
        loop {
            let dice: Vec<i64> = (0..n).map(|_| faces.die(10)).collect();
            groups += 1;
            if groups == 1 && dice.iter().all(|&d| d == 1) {
                return Rolled {
                    value: Some(0),
                    outcome: Some(self.word(0, false, true)),
                };
            }
            let crits = dice.iter().filter(|&&d| d >= self.critical).count() as i64;
            if crits == 0 {
                sum += dice.iter().max().copied().unwrap_or(0);
                break;
            }
            sum += 10;
            n = crits;
        }
        let total = sum + self.modifier;
        Rolled {
            value: Some(total),
            outcome: Some(self.word(total, groups > 1, false)),
        }
    }

    /// The groups of 1..=`n` dice, read by the pool engine: the joint law
    /// of (how many dice reach the critical value, the highest die) of a
    /// pool of d10 of each size ([`pool::facts_by_size`], one pass) — per
    /// size, the chance that exactly `i ≥ 1` dice reach it, and the
    /// sub-law of the highest die when none does. Entry `j` is `j` dice
    /// (entry 0 is empty).
    pub fn groups<W: Weight>(&self, n: i64) -> Result<Vec<Group<W>>> {
        let crit = Stat::Count(FaceCond::Cmp(Cmp::Ge, self.critical), None);
        let d10 = PoolTerm::plain(1, DieFaces::Standard(10), None);
        let laws = pool::facts_by_size::<W>(&d10, &[crit.clone(), Stat::Max], n, 0.0)?;
        let mut out = Vec::with_capacity(laws.len());
        for law in &laws {
            let (ci, mi) = (
                law.index(&crit).expect("in the layout"),
                law.index(&Stat::Max).expect("in the layout"),
            );
            let mut go: BTreeMap<i64, W> = BTreeMap::new();
            let mut stop: Vec<(i64, W)> = Vec::new();
            for (k, p) in &law.cells {
                if k[ci] >= 1 {
                    go.entry(k[ci]).add_weight(p.clone());
                } else {
                    stop.push((k[mi], p.clone()));
                }
            }
            out.push((go.into_iter().collect(), Pmf::from_pairs(stop)));
        }
        Ok(out)
    }

    /// The exact law.
    pub fn law<W: Weight>(&self, tail_eps: f64) -> Result<GameLaw<W>> {
        let words: Vec<Outcome> = match self.target {
            None => vec![FUMBLE_NO_TARGET, PLAIN, CRITICAL],
            Some(_) => vec![FUMBLE, FAILURE, FAILURE_CRIT, SUCCESS, SUCCESS_CRIT],
        };
        let mut law = GameLaw::new(&words);
        // Without a target BCDice judges no success (as Sword World's
        // power table): no p_success.
        law.judges = self.target.is_some();
        if self.dice < 1 {
            let mut law = GameLaw::new(&[AUTO_FAILURE]);
            law.add(0, Some(AUTO_FAILURE), W::one());
            law.prints_value = false;
            return Ok(law);
        }
        // The groups of each size, read in one pass; the chain counted
        // before any of its work, from the groups read as masses and
        // spans. In exact fractions the groups' own work is counted first
        // and the chain from the floating-point groups (the exact ones take
        // seconds of their own).
        let (groups, counted) = if W::EXACT {
            self.check_exact_groups()?;
            let counted = self.check_chain(&self.groups::<f64>(self.dice)?, tail_eps, true)?;
            (self.groups::<W>(self.dice)?, counted)
        } else {
            let groups = self.groups::<W>(self.dice)?;
            let counted = self.check_chain(&groups, tail_eps, false)?;
            (groups, counted)
        };
        // Round 0 by hand: the all-ones fumble is part of "no die reached c".
        let (go0, stop0) = groups[self.dice as usize].clone();
        let fumble = W::ratio(1, 10).powi(self.dice as u32);
        law.add(0, Some(self.word(0, false, true)), fumble.clone());
        for (v, p) in stop0.iter() {
            // A highest die of 1 with none reaching c (c ≥ 2) is every die
            // showing 1: all of it is the fumble. Skipped, not taken as
            // p − fumble, which rounds to −5e-26 in floating point.
            if v == 1 {
                continue;
            }
            let total = v + self.modifier;
            law.add(total, Some(self.word(total, false, false)), p.clone());
        }
        let start = start(go0);
        let what = || {
            format!(
                "{}DX@{}: the dice reaching {} rolled again, 10 a round",
                self.dice, self.critical, self.critical
            )
        };
        let chained = chain::run_counted(
            what,
            &counted,
            start,
            1,
            |_, &j| round(&groups, j),
            tail_eps,
        )?;
        for part in chained.stopped.iter().skip(1) {
            for (s, p) in part.iter() {
                let total = s + self.modifier;
                law.add(total, Some(self.word(total, true, false)), p.clone());
            }
        }
        law.tail = Some(chained.tail);
        Ok(law)
    }

    /// Refuse at once exact groups that would take more than seconds:
    /// about 10(k+1) states of (dice reaching c, highest die) times 10
    /// faces for the k-th die, each fraction about k digits long:
    /// 100·Σk², at most [`MAX_EXACT_GROUPS`].
    fn check_exact_groups(&self) -> Result<()> {
        let n = self.dice as u64;
        let work: u64 = (1..=n).map(|k| 100 * k * k).sum();
        if work > MAX_EXACT_GROUPS {
            return Err(Error::Conflict(format!(
                "--exact: DoubleCross {}DX: the groups of 1 to {} dice take about {work} big-fraction steps (at most {MAX_EXACT_GROUPS}); drop --exact (floating point answers it) or roll fewer dice",
                self.dice, self.dice
            )));
        }
        Ok(())
    }

    /// Refuse at once a chain of rounds that would take more than
    /// seconds ([`chain::cost`], counted from `groups`, each read once as
    /// masses and spans; in exact fractions, weighted by the dice).
    fn check_chain<V: Weight>(
        &self,
        groups: &[Group<V>],
        tail_eps: f64,
        exact: bool,
    ) -> Result<chain::Cost> {
        self.count_chain(groups, tail_eps, exact)
            .map(|(cost, _)| cost)
    }

    /// [`Cmd::check_chain`], giving the least and greatest sum of the
    /// chains that stop in each round ([`chain::cost_stops`]).
    fn count_chain<V: Weight>(
        &self,
        groups: &[Group<V>],
        tail_eps: f64,
        exact: bool,
    ) -> Result<(chain::Cost, chain::Stops)> {
        let n = self.dice as u64;
        let branches: Vec<Vec<(Next<i64>, chain::Span)>> = (0..groups.len())
            .map(|j| {
                round(groups, j as i64)
                    .iter()
                    .map(|(to, add)| chain::span(to, add))
                    .collect()
            })
            .collect();
        let start = chain::spans(&start(groups[self.dice as usize].0.clone()));
        let (cost, stops) = chain::cost_stops(
            start,
            1,
            &mut |_, &j| branches[j as usize].clone(),
            tail_eps,
            exact,
        );
        cost.check(tail_eps, exact)?;
        if !exact {
            return Ok((cost, stops));
        }
        // A fraction's digits grow with the dice as well as the rounds
        // (measured: about 2 µs a step on the 2-core reference machine,
        // 10DX7 to 60DX10).
        let work = cost.work.saturating_mul(n.max(10)) / 10;
        if work > MAX_EXACT_CHAIN {
            return Err(Error::Conflict(format!(
                "--exact: DoubleCross {}DX@{}: the chain of rolls takes about {work} big-fraction steps over {} rounds (at most {MAX_EXACT_CHAIN}); drop --exact (floating point answers it), roll fewer dice, or raise --tail-eps or the critical value",
                self.dice, self.critical, cost.rounds
            )));
        }
        Ok((cost, stops))
    }

    /// The result words of the law and that it cuts a chain's tail (no
    /// chain without dice), known without the law.
    pub fn words(&self) -> (Vec<Outcome>, bool) {
        if self.dice < 1 {
            return (vec![AUTO_FAILURE], false);
        }
        let words = match self.target {
            None => vec![FUMBLE_NO_TARGET, PLAIN, CRITICAL],
            Some(_) => vec![FUMBLE, FAILURE, FAILURE_CRIT, SUCCESS, SUCCESS_CRIT],
        };
        (words, true)
    }

    /// The least and greatest value of the law, counted before the
    /// chain's work: the groups in floating point and the chain's spans
    /// (as the law counts them, [`chain::cost_stops`]; refused as the law
    /// would be past its limits): the fumble's 0, the first roll's highest
    /// die (2 to c − 1: a highest 1 is the fumble), and 10 a round of
    /// criticals with the last roll's highest die.
    pub fn value_span(&self, tail_eps: f64, exact: bool) -> Result<(i64, i64)> {
        if self.dice < 1 {
            return Ok((0, 0));
        }
        if exact {
            self.check_exact_groups()?;
        }
        let groups = self.groups::<f64>(self.dice)?;
        let (_, stops) = self.count_chain(&groups, tail_eps, exact)?;
        let (mut lo, mut hi) = (0, 0);
        let mut take = |a: i64, b: i64| {
            lo = lo.min(a + self.modifier);
            hi = hi.max(b + self.modifier);
        };
        for (v, p) in groups[self.dice as usize].1.iter() {
            if v != 1 && *p > 0.0 {
                take(v, v);
            }
        }
        for (a, b) in stops.iter().skip(1).flatten() {
            take(*a, *b);
        }
        Ok((lo, hi))
    }
}

/// Most big-fraction steps of the groups of an exact `nDX` (100·Σk² for
/// n dice: 60 dice, about a second).
pub const MAX_EXACT_GROUPS: u64 = 10_000_000;

/// Most big-fraction steps of an exact `nDX`'s chain of rolls
/// ([`chain::Cost::work`] times the dice over 10, at least 1: about 2 µs
/// each, 8 s).
pub const MAX_EXACT_CHAIN: u64 = 4_000_000;

/// The chain's start: each number of dice reaching c in the first roll,
/// with 10 added.
fn start<W: Weight>(go0: Vec<(i64, W)>) -> BTreeMap<i64, Pmf<W>> {
    go0.into_iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(i, p)| (i, Pmf::from_pairs([(10, p)])))
        .collect()
}

/// A round of `j` dice: on with 10 added for each number of dice that
/// reach c, or stop with the highest die.
fn round<W: Weight>(groups: &[Group<W>], j: i64) -> Vec<(Next<i64>, Pmf<W>)> {
    let (go, stop) = groups[j as usize].clone();
    let mut out: Vec<(Next<i64>, Pmf<W>)> = go
        .into_iter()
        .map(|(i, p)| (Next::Go(i), Pmf::from_pairs([(10, p)])))
        .collect();
    out.push((Next::Stop, stop));
    out
}
