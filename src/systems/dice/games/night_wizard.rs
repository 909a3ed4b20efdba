//! Night Wizard 3rd (`NightWizard3rd`, ナイトウィザード The 3rd Edition):
//! `[a]NW[±b][@x,…][#y,…][$z][±c][>=t]` and `2R6M[b,c]C[x,…]F[y,…][>=t]`,
//! as BCDice codes them (`NightWizard.rb`, `NightWizard3rd.rb`).
//!
//! The first 2D6: a sum in the fumble set (default {5}) is ファンブル: −10
//! and the roll stops; a sum in the critical set (default {10}) is
//! クリティカル: +10 and 2D6 again, as long as the sums are critical
//! (later rolls cannot fumble); any other sum is added. Unless fumbled,
//! z d6 of プラーナ are added. The 3rd edition adds a + b + c in every case
//! (the 2nd drops c on a fumble). BCDice prints the status word before
//! the total, and 成功/失敗 after it when a comparison is given
//! (`>=`, `>`, `=`).
//!
//! The law: the first 2D6 sum split into fumble, critical and the rest;
//! the critical chain ([`crate::systems::dice::pool::chain`]) cut below `--tail-eps`; the
//! prana dice's sum convolved.
//!
//! BCDice vs the book: BCDice returns the result as text with no
//! success/critical/fumble flags; hantei's flags follow the words. A
//! critical set holding every sum 2–12 never stops and is refused.

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::law;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::{GameCmd, GameLaw, Outcome, Rolled};
use crate::systems::dice::pool::chain;

/// Most prana dice.
pub const MAX_PRANA: i64 = 100;

/// A Night Wizard check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// a + b + c: added in every case in the 3rd edition.
    pub base: i64,
    /// Critical sums.
    pub critical: Vec<i64>,
    /// Fumble sums (first roll only).
    pub fumble: Vec<i64>,
    /// Prana dice (d6) added unless fumbled.
    pub prana: i64,
    /// The comparison.
    pub target: Option<(Cmp, i64)>,
}

const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル").fumb();
const CRITICAL: Outcome = Outcome::fail("critical", "critical", "クリティカル").crit();
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUCCESS_CRIT: Outcome =
    Outcome::succeed("success_critical", "success after a critical", "成功").crit();
const FAILURE_CRIT: Outcome =
    Outcome::fail("failure_critical", "failure after a critical", "失敗").crit();
const SUCCESS_FUMBLE: Outcome =
    Outcome::succeed("success_fumble", "success despite a fumble", "成功").fumb();
const FAILURE_FUMBLE: Outcome =
    Outcome::fail("failure_fumble", "failure after a fumble", "失敗").fumb();

fn signed_sum(s: &str) -> Option<i64> {
    // ((?:[-+]\d+)+): every term signed.
    if s.is_empty() || !s.starts_with(['+', '-']) {
        return None;
    }
    super::log_horizon::arithmetic(s)
}

fn list(s: &str) -> Option<Vec<i64>> {
    s.split(',')
        .map(|x| {
            (!x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))
                .then(|| x.parse().ok())
                .flatten()
        })
        .collect()
}

/// Split `s` at the first of `stops`.
fn until<'a>(s: &'a str, stops: &[char]) -> (&'a str, &'a str) {
    match s.find(stops) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    }
}

fn comparison(s: &str) -> Option<Option<(Cmp, i64)>> {
    if s.is_empty() {
        return Some(None);
    }
    let n = s.bytes().take_while(|b| *b == b'>' || *b == b'=').count();
    let (op, t) = s.split_at(n);
    let cmp = match op {
        ">=" | "=>" => Cmp::Ge,
        ">" => Cmp::Gt,
        "=" | "==" => Cmp::Eq,
        _ => return None,
    };
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Some((cmp, t.parse().ok()?)))
}

/// Read `aNW…` or `2R6M[…]…`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let cmd = if let Some(i) = text.find("NW") {
        parse_nw(&text[..i], &text[i + 2..])
    } else if let Some(rest) = text.strip_prefix("2R6M[") {
        parse_2r6(rest)
    } else {
        None
    };
    let Some(cmd) = cmd else {
        return Ok(None);
    };
    if (2..=12).all(|s| cmd.critical.contains(&s)) {
        return Err(Error::param(
            "EXPR",
            text,
            "NightWizard3rd: every 2D6 sum is critical, the roll never stops; allowed: a critical set missing some sum 2–12",
        ));
    }
    if cmd.prana > MAX_PRANA {
        return Err(Error::param(
            "EXPR",
            text,
            format!("NightWizard3rd: at most {MAX_PRANA} prana dice"),
        ));
    }
    Ok(Some(GameCmd::NightWizard(cmd)))
}

fn parse_nw(head: &str, rest: &str) -> Option<Cmd> {
    let a = if head.is_empty() {
        0
    } else {
        let digits = head.strip_prefix(['+', '-']).unwrap_or(head);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        head.parse::<i64>().ok()?
    };
    let (b_text, rest) = until(rest, &['@', '#', '$', '>', '=']);
    // b_text may hold b and, with no @ # $, also c: both are added.
    let b = if b_text.is_empty() {
        0
    } else {
        signed_sum(b_text)?
    };
    let mut rest = rest;
    let mut critical = vec![10];
    let mut fumble = vec![5];
    let mut prana = 0;
    if let Some(r) = rest.strip_prefix('@') {
        let (l, r) = until(r, &['#', '$', '+', '-', '>', '=']);
        critical = list(l)?;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix('#') {
        let (l, r) = until(r, &['$', '+', '-', '>', '=']);
        fumble = list(l)?;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix('$') {
        let (l, r) = until(r, &['+', '-', '>', '=']);
        prana = *list(l)?.first()?;
        rest = r;
    }
    let (c_text, rest) = until(rest, &['>', '=']);
    let c = if c_text.is_empty() {
        0
    } else {
        signed_sum(c_text)?
    };
    Some(Cmd {
        base: a.checked_add(b)?.checked_add(c)?,
        critical,
        fumble,
        prana,
        target: comparison(rest)?,
    })
}

fn parse_2r6(rest: &str) -> Option<Cmd> {
    let (mods, rest) = rest.split_once(']')?;
    let (passive, active) = match mods.split_once(',') {
        Some((p, a)) => (p, a),
        None => (mods, ""),
    };
    let sum = |s: &str| -> Option<i64> {
        if s.is_empty() {
            Some(0)
        } else {
            super::log_horizon::arithmetic(s)
        }
    };
    let base = sum(passive)?.checked_add(sum(active)?)?;
    let mut rest = rest;
    let mut critical = vec![10];
    let mut fumble = vec![5];
    if let Some(r) = rest.strip_prefix("C[") {
        let (l, r) = r.split_once(']')?;
        critical = list(l)?;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix("F[") {
        let (l, r) = r.split_once(']')?;
        fumble = list(l)?;
        rest = r;
    }
    Some(Cmd {
        base,
        critical,
        fumble,
        prana: 0,
        target: comparison(rest)?,
    })
}

/// The status of a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Plain,
    Critical,
    Fumble,
}

impl Cmd {
    fn word(&self, total: i64, status: Status) -> Option<Outcome> {
        match (self.target, status) {
            (None, Status::Plain) => None,
            (None, Status::Critical) => Some(CRITICAL),
            (None, Status::Fumble) => Some(FUMBLE),
            (Some((cmp, t)), s) => Some(match (cmp.holds(total, t), s) {
                (true, Status::Plain) => SUCCESS,
                (false, Status::Plain) => FAILURE,
                (true, Status::Critical) => SUCCESS_CRIT,
                (false, Status::Critical) => FAILURE_CRIT,
                (true, Status::Fumble) => SUCCESS_FUMBLE,
                (false, Status::Fumble) => FAILURE_FUMBLE,
            }),
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let mut sum2 = || faces.die(6) + faces.die(6);
        let first = sum2();
        let (dice, status) = if self.fumble.contains(&first) {
            (-10, Status::Fumble)
        } else if self.critical.contains(&first) {
            let mut acc = 10;
            loop {
                let s = sum2();
                if self.critical.contains(&s) {
                    acc += 10;
                } else {
                    acc += s;
                    break;
                }
            }
            (acc, Status::Critical)
        } else {
            (first, Status::Plain)
        };
        let prana: i64 = if status == Status::Fumble {
            0
        } else {
            (0..self.prana).map(|_| faces.die(6)).sum()
        };
        let total = dice + prana + self.base;
        Rolled {
            value: Some(total),
            outcome: self.word(total, status),
        }
    }

    /// The exact law (the critical chain cut below `tail_eps`).
    pub fn law<W: Weight>(&self, tail_eps: f64) -> Result<GameLaw<W>> {
        let words: Vec<Outcome> = match self.target {
            None => vec![FUMBLE, CRITICAL],
            Some(_) => vec![
                FAILURE_FUMBLE,
                SUCCESS_FUMBLE,
                FAILURE,
                SUCCESS,
                FAILURE_CRIT,
                SUCCESS_CRIT,
            ],
        };
        let mut out = GameLaw::new(&words);
        let two = law::sum_of(&Pmf::<W>::die(6), 2)?;
        // The sub-law of the sums `keep` holds: no sum is no mass (a
        // critical no sum reaches, `@13`, is no chain), where
        // `Pmf::from_pairs` of nothing would be the certain 0.
        let part = |keep: &dyn Fn(i64) -> bool| {
            let pairs: Vec<(i64, W)> = two
                .iter()
                .filter(|(s, _)| keep(*s))
                .map(|(s, p)| (s, p.clone()))
                .collect();
            if pairs.is_empty() {
                Pmf::from_weights(0, vec![W::zero()])
            } else {
                Pmf::from_pairs(pairs)
            }
        };
        let fumbled = part(&|s| self.fumble.contains(&s));
        let crit_first = part(&|s| !self.fumble.contains(&s) && self.critical.contains(&s));
        let plain = part(&|s| !self.fumble.contains(&s) && !self.critical.contains(&s));
        let go = Pmf::from_pairs([(10, part(&|s| self.critical.contains(&s)).total())]);
        let stop = part(&|s| !self.critical.contains(&s));
        let what = || {
            let critical: Vec<String> = self.critical.iter().map(i64::to_string).collect();
            format!(
                "NW@{}: 2D6 rolled again on a critical, +10 each",
                critical.join(",")
            )
        };
        let chained = chain::simple(what, |_| (go.clone(), stop.clone()), tail_eps)?;
        let after_crit = chained.sum_over(|_| true).map(|v| v + 10);
        let prana = law::sum_of(&Pmf::<W>::die(6), self.prana)?;
        let p_crit = crit_first.total();
        for (v, p) in fumbled.iter() {
            let _ = v;
            let total = self.base - 10;
            out.add(total, self.word(total, Status::Fumble), p.clone());
        }
        for (status, dice, weight) in [
            (Status::Plain, plain, W::one()),
            (Status::Critical, after_crit, p_crit.clone()),
        ] {
            for (v, p) in dice.convolve(&prana).iter() {
                let total = v + self.base;
                out.add(total, self.word(total, status), p.clone() * &weight);
            }
        }
        out.tail = Some(chained.tail * &p_crit);
        Ok(out)
    }
}
