//! Log Horizon (`LogHorizon`, ログ・ホライズンTRPG): `xLH[±y][>=z]`, as
//! BCDice codes it (`LogHorizon.rb`).
//!
//! x d6 summed plus y (y and z may be arithmetic). Two or more sixes are
//! クリティカル！ (checked first; success and critical flags), every die
//! showing 1 is ファンブル！ (failure and fumble flags), with or without a
//! target; otherwise the total ≥ z is 成功. With no target and neither,
//! BCDice prints no word.
//!
//! The law: the joint law of the sum, the sixes and the ones, from the
//! pool engine ([`super::facts`]).
//!
//! BCDice vs the book: none found for the check; the consumption (消耗表),
//! treasure (財宝表) and other tables are not offered.

use crate::error::{Error, Result};
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::facts::{self, count_eq};
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// Most dice one check takes.
pub const MAX_DICE: i64 = 30;

/// `xLH±y>=z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice.
    pub dice: i64,
    /// Added to the sum.
    pub modifier: i64,
    /// The target.
    pub target: Option<i64>,
}

const CRITICAL: Outcome = Outcome::succeed("critical", "critical", "クリティカル！").crit();
const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル！").fumb();
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");

/// BCDice's `[+-\d]*` arithmetic: `+1+2` (a modifier), `5-1` (a target);
/// empty is 0.
pub fn arithmetic(s: &str) -> Option<i64> {
    if s.is_empty() {
        return Some(0);
    }
    if !s
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'+' || b == b'-')
    {
        return None;
    }
    parse_constant(&format!("0{s}"))
        .ok()
        .filter(|_| s.starts_with(['+', '-']))
        .or_else(|| parse_constant(s).ok())
}

/// Read `xLH±y>=z`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let Some(at) = text.find("LH") else {
        return Ok(None);
    };
    let count = &text[..at];
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    let rest = &text[at + 2..];
    let (mods, target) = match rest.find(">=") {
        Some(i) => (&rest[..i], Some(&rest[i + 2..])),
        None => (rest, None),
    };
    if !mods.is_empty() && !mods.starts_with(['+', '-']) {
        return Ok(None);
    }
    let Some(modifier) = arithmetic(mods) else {
        return Ok(None);
    };
    let target = match target {
        None => None,
        Some(t) if !t.is_empty() => match arithmetic(t) {
            Some(v) => Some(v),
            None => return Ok(None),
        },
        Some(_) => None,
    };
    let dice: i64 = count.parse().unwrap_or(i64::MAX);
    if !(1..=MAX_DICE).contains(&dice) {
        return Err(Error::param(
            "EXPR",
            text,
            format!("LogHorizon: 1 to {MAX_DICE} dice"),
        ));
    }
    Ok(Some(GameCmd::LogHorizon(Cmd {
        dice,
        modifier,
        target,
    })))
}

impl Cmd {
    /// The word of a roll: its total, sixes and ones.
    pub fn word(&self, total: i64, sixes: i64, ones: i64) -> Option<Outcome> {
        if sixes >= 2 {
            return Some(CRITICAL);
        }
        if ones >= self.dice {
            return Some(FUMBLE);
        }
        let t = self.target?;
        Some(if total >= t { SUCCESS } else { FAILURE })
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let dice: Vec<i64> = (0..self.dice).map(|_| faces.die(6)).collect();
        let total = dice.iter().sum::<i64>() + self.modifier;
        let count = |v: i64| dice.iter().filter(|&&d| d == v).count() as i64;
        Rolled {
            value: Some(total),
            outcome: self.word(total, count(6), count(1)),
        }
    }

    /// The exact law: the sum, sixes and ones from the pool engine.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        let words: &[Outcome] = if self.target.is_some() {
            &[FUMBLE, FAILURE, SUCCESS, CRITICAL]
        } else {
            &[FUMBLE, CRITICAL]
        };
        let mut law = GameLaw::new(words);
        for c in facts::pool::<W>(self.dice, 6, None, &[count_eq(6), count_eq(1)])? {
            let total = c.total + self.modifier;
            law.add(total, self.word(total, c.stats[0], c.stats[1]), c.p);
        }
        Ok(law)
    }
}
