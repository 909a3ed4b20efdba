//! Call of Cthulhu 6th (`Cthulhu`, クトゥルフ神話TRPG): `CC<=s`, `CCB<=s`,
//! `CC(n)<=s`, `CBR(x,y)`, `RES(a-b)` and their `B` (5%) forms, as BCDice
//! codes them (`Cthulhu.rb`).
//!
//! One d100 against s: 成功 if ≤ s and below 100; among successes,
//! 決定的成功 at ≤ 1 (`B`: ≤ 5) and スペシャル at ≤ max(1, ⌊s·20/100⌋)
//! (both: 決定的成功/スペシャル); among failures, 致命的失敗 at 100 (`B`:
//! ≥ 96) when s < 100. `CC(n)`: a roll ≥ n is 故障 (malfunction), which
//! replaces a success or failure word and is appended to 致命的失敗
//! (`致命的失敗/故障`); BCDice flags 故障 as a failure. `CC` with no
//! target (or ≤ 0) prints the roll and no word. `RES(a-b)`: target
//! 50 + 5(a − b), 自動失敗 below 5 and 自動成功 above 95 without a roll.
//! `CBR(x,y)`: one roll against both, 成功/部分的成功/失敗; BCDice's flags
//! are success if either succeeds, critical or fumble if either is.
//!
//! BCDice vs the book: the book's special is ⌊s/5⌋ (the same as
//! ⌊s·20/100⌋) and BCDice keeps a special of at least 1; a plain
//! `1D100<=s` in this game has no critical or fumble (BCDice's common
//! command).

use crate::error::Result;
use crate::pmf::Pmf;
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::cthulhu7th::split_args;
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// A Cthulhu 6th command; `five`: the `B` (5%) rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `CC[B][(n)]<=s`.
    Check {
        /// 5% critical/fumble.
        five: bool,
        /// 故障ナンバー (0: none).
        broken: i64,
        /// The target (≤ 0 or absent: no comparison).
        target: Option<i64>,
    },
    /// `RES[B](a-b)`.
    Resist {
        /// 5% critical/fumble.
        five: bool,
        /// 50 + 5(a − b).
        target: i64,
    },
    /// `CBR[B](x,y)`.
    Combined {
        /// 5% critical/fumble.
        five: bool,
        /// First target.
        a: i64,
        /// Second target.
        b: i64,
    },
}

const CRIT_SPECIAL: Outcome = Outcome::succeed(
    "critical_special",
    "critical and special",
    "決定的成功/スペシャル",
)
.crit();
const CRIT: Outcome = Outcome::succeed("critical", "critical", "決定的成功").crit();
const SPECIAL: Outcome = Outcome::succeed("special", "special", "スペシャル");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "致命的失敗").fumb();
const BROKEN: Outcome = Outcome::fail("malfunction", "malfunction", "故障");
const FUMBLE_BROKEN: Outcome = Outcome::fail(
    "fumble_malfunction",
    "fumble and malfunction",
    "致命的失敗/故障",
)
.fumb();
const AUTO_SUCCESS: Outcome = Outcome::succeed("auto_success", "automatic success", "自動成功");
const AUTO_FAILURE: Outcome = Outcome::fail("auto_failure", "automatic failure", "自動失敗");
const PARTIAL: Outcome = Outcome::succeed("partial", "partial success", "部分的成功");

/// Read a command (upper case, no spaces); `None` if it is not one.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let wrap = |c| Ok(Some(GameCmd::Cthulhu(c)));
    for (prefix, five) in [("CBRB(", true), ("CBR(", false)] {
        if let Some(rest) = text.strip_prefix(prefix) {
            let Some((a, b)) = rest.strip_suffix(')').and_then(split_args) else {
                return Ok(None);
            };
            let (Ok(a), Ok(b)) = (parse_constant(a), parse_constant(b)) else {
                return Ok(None);
            };
            return wrap(Cmd::Combined { five, a, b });
        }
    }
    for (prefix, five) in [("RESB(", true), ("RES(", false)] {
        if let Some(rest) = text.strip_prefix(prefix) {
            let Some(inner) = rest.strip_suffix(')') else {
                return Ok(None);
            };
            // a-b, each a whole number (a leading minus allowed).
            let Some(i) = inner
                .char_indices()
                .skip(1)
                .find(|(_, c)| *c == '-')
                .map(|(i, _)| i)
            else {
                return Ok(None);
            };
            let (Ok(a), Ok(b)) = (inner[..i].parse::<i64>(), inner[i + 1..].parse::<i64>()) else {
                return Ok(None);
            };
            let target = 50 + 5 * (a - b);
            return wrap(Cmd::Resist { five, target });
        }
    }
    let (five, rest) = if let Some(r) = text.strip_prefix("CCB") {
        (true, r)
    } else if let Some(r) = text.strip_prefix("CC") {
        (false, r)
    } else {
        return Ok(None);
    };
    let (head, target) = match rest.find("<=") {
        Some(i) => (&rest[..i], Some(&rest[i + 2..])),
        None => (rest, None),
    };
    let broken = if head.is_empty() {
        0
    } else {
        let digits = head
            .strip_prefix('(')
            .and_then(|h| h.strip_suffix(')'))
            .unwrap_or(head);
        match digits.parse::<i64>() {
            Ok(n) if digits.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Ok(None),
        }
    };
    let target = match target {
        None => None,
        Some(t) => match parse_constant(t.trim_start_matches('+')) {
            Ok(v) => Some(v),
            Err(_) => return Ok(None),
        },
    };
    wrap(Cmd::Check {
        five,
        broken,
        target,
    })
}

/// BCDice's `getCheckResultText`.
pub fn judge(v: i64, target: i64, five: bool, broken: i64) -> Outcome {
    let pct = if five { 5 } else { 1 };
    let special = (target * 20 / 100).max(1);
    let mut fumble = false;
    let mut word = if v <= target && v < 100 {
        if v <= pct {
            if v <= special {
                CRIT_SPECIAL
            } else {
                CRIT
            }
        } else if v <= special {
            SPECIAL
        } else {
            SUCCESS
        }
    } else if v >= 101 - pct && target < 100 {
        fumble = true;
        FUMBLE
    } else {
        FAILURE
    };
    if broken > 0 && v >= broken {
        word = if fumble { FUMBLE_BROKEN } else { BROKEN };
    }
    word
}

impl Cmd {
    fn rolls(&self) -> bool {
        !matches!(self, Cmd::Resist { target, .. } if !(5..=95).contains(target))
    }

    fn word(&self, v: i64) -> Option<Outcome> {
        match *self {
            Cmd::Check {
                five,
                broken,
                target,
            } => match target {
                Some(t) if t > 0 => Some(judge(v, t, five, broken)),
                _ => None,
            },
            Cmd::Resist { target, .. } if target < 5 => Some(AUTO_FAILURE),
            Cmd::Resist { target, .. } if target > 95 => Some(AUTO_SUCCESS),
            Cmd::Resist { five, target } => Some(judge(v, target, five, 0)),
            Cmd::Combined { five, a, b } => {
                let (x, y) = (judge(v, a, five, 0), judge(v, b, five, 0));
                let n = usize::from(x.success) + usize::from(y.success);
                let base = match n {
                    2 => SUCCESS,
                    1 => PARTIAL,
                    _ => FAILURE,
                };
                // BCDice's flags: critical or fumble if either judgement is.
                let (crit, fumb) = (x.critical || y.critical, x.fumble || y.fumble);
                Some(combined_word(base, crit, fumb))
            }
        }
    }

    /// The words, worst first.
    fn outcomes(&self) -> Vec<Outcome> {
        match self {
            Cmd::Check { target, .. } if !target.is_some_and(|t| t > 0) => vec![],
            Cmd::Check { broken, .. } if *broken > 0 => vec![
                FUMBLE_BROKEN,
                FUMBLE,
                BROKEN,
                FAILURE,
                SUCCESS,
                SPECIAL,
                CRIT,
                CRIT_SPECIAL,
            ],
            Cmd::Resist { target, .. } if *target < 5 => vec![AUTO_FAILURE],
            Cmd::Resist { target, .. } if *target > 95 => vec![AUTO_SUCCESS],
            Cmd::Combined { .. } => vec![
                combined_word(FAILURE, false, true),
                combined_word(FAILURE, false, false),
                combined_word(PARTIAL, false, true),
                combined_word(PARTIAL, false, false),
                combined_word(PARTIAL, true, false),
                combined_word(SUCCESS, false, false),
                combined_word(SUCCESS, true, false),
            ],
            _ => vec![FUMBLE, FAILURE, SUCCESS, SPECIAL, CRIT, CRIT_SPECIAL],
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        if !self.rolls() {
            return Rolled {
                value: None,
                outcome: self.word(0),
            };
        }
        let v = faces.die(100);
        Rolled {
            value: Some(v),
            outcome: self.word(v),
        }
    }

    /// The exact law.
    pub fn law<W: Weight>(&self) -> GameLaw<W> {
        if !self.rolls() {
            let mut law = GameLaw::new(&self.outcomes());
            law.add(0, self.word(0), W::one());
            law.prints_value = false;
            return law;
        }
        GameLaw::judged(&self.outcomes(), &Pmf::uniform(1, 100), |v| self.word(v))
    }
}

/// CBR's word with BCDice's flags (same word, different flags: distinct keys).
fn combined_word(base: Outcome, crit: bool, fumb: bool) -> Outcome {
    let mut w = base;
    w.critical = crit;
    w.fumble = fumb;
    w.key = match (base.key, crit, fumb) {
        ("success", true, _) => "success_critical",
        ("partial", true, false) => "partial_critical",
        ("partial", false, true) => "partial_fumble",
        ("partial", true, true) => "partial_critical_fumble",
        ("failure", _, true) => "failure_fumble",
        (k, _, _) => k,
    };
    w
}
