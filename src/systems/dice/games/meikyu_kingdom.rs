//! Meikyu Kingdom (`MeikyuKingdom`, 迷宮キングダム): `nMK[±m][>=t]` (also
//! written `nMK6`, `nR6`) and the plain `2D6+m>=t`, as BCDice codes them
//! (`MeikyuKingdom.rb`).
//!
//! n d6 are rolled and the two highest summed (one die: that die) plus m
//! (arithmetic). Judged only against a `>=` target: a natural sum ≤ 2 is
//! 絶対失敗, ≥ 12 絶対成功, otherwise the total ≥ t is 成功. BCDice adds the
//! 《気力》 (willpower) gains: with two or more sixes, that many; with one
//! six, the option of reading the roll without it (the six replaced by the
//! third die, 1 気力) — printed as `成功 (もしくは) 4 ＞ 失敗 ＆ 《気力》1点獲得`.
//! The law gives the main reading (the value before (もしくは) and its
//! word); the 気力 option is not a second outcome.
//!
//! The law: the joint law of the two highest dice's sum with the number
//! of sixes, from the pool engine ([`super::facts`]).
//!
//! BCDice vs the book: `nMK` is rewritten to `nR6`, whose result BCDice
//! returns as text with no success/critical/fumble flags; the plain
//! `2D6>=t` sets them. hantei's flags follow the words for both (絶対成功
//! a success with the critical flag, 絶対失敗 a failure with the fumble
//! flag, as the plain form). Other comparisons than `>=` print no verdict;
//! the scattering of tables (散策表, お宝表, 名前表, …) is not offered.

use crate::error::{Error, Result};
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::facts;
use super::log_horizon::arithmetic;
use super::{sum_check, GameCmd, GameLaw, Outcome, Rolled};

/// Most dice one check takes.
pub const MAX_DICE: i64 = 100;

/// `nMK±m>=t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice (the two highest kept).
    pub dice: i64,
    /// Added to the kept sum.
    pub modifier: i64,
    /// The `>=` target (`None`: no verdict).
    pub target: Option<i64>,
    /// The plain `2D6>=t` (BCDice sets flags) rather than `nMK`.
    pub plain: bool,
}

const ABS_FAILURE: Outcome =
    Outcome::fail("absolute_failure", "absolute failure", "絶対失敗").fumb();
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const ABS_SUCCESS: Outcome =
    Outcome::succeed("absolute_success", "absolute success", "絶対成功").crit();

/// Read `nMK…`, `nR6…` or a plain `2D6+m>=t`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    let rest = if digits == 0 {
        None
    } else {
        rest.strip_prefix("MK6")
            .or_else(|| rest.strip_prefix("MK"))
            .or_else(|| rest.strip_prefix("R6"))
    };
    let Some(rest) = rest else {
        return Ok(plain(text).map(GameCmd::MeikyuKingdom));
    };
    let cmp_at = rest.find(['>', '=']);
    let (mods, cmp) = match cmp_at {
        Some(i) => (&rest[..i], Some(&rest[i..])),
        None => (rest, None),
    };
    if !mods.is_empty() && !mods.starts_with(['+', '-']) {
        return Ok(None);
    }
    let Some(modifier) = arithmetic(mods) else {
        return Ok(None);
    };
    let target = match cmp {
        None => None,
        Some(c) => {
            let n = c.bytes().take_while(|b| *b == b'>' || *b == b'=').count();
            let (op, t) = c.split_at(n);
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Ok(None);
            }
            // Only >= is judged; BCDice prints no verdict for the others.
            (op == ">=").then(|| t.parse::<i64>().ok()).flatten()
        }
    };
    let dice: i64 = text[..digits].parse().unwrap_or(i64::MAX);
    if !(1..=MAX_DICE).contains(&dice) {
        return Err(Error::param(
            "EXPR",
            text,
            format!("MeikyuKingdom: 1 to {MAX_DICE} dice"),
        ));
    }
    Ok(Some(GameCmd::MeikyuKingdom(Cmd {
        dice,
        modifier,
        target,
        plain: false,
    })))
}

/// A plain `2D6+m>=t`.
fn plain(text: &str) -> Option<Cmd> {
    let cmd = crate::systems::dice::parse(text).ok()?;
    let s = sum_check(&cmd).filter(|s| s.count == 2 && s.sides == 6)?;
    let Some((Cmp::Ge, t)) = s.target else {
        return None;
    };
    Some(Cmd {
        dice: 2,
        modifier: s.modifier,
        target: Some(t),
        plain: true,
    })
}

impl Cmd {
    /// The word of a natural (kept) sum.
    pub fn word(&self, natural: i64) -> Option<Outcome> {
        let t = self.target?;
        Some(if natural <= 2 {
            ABS_FAILURE
        } else if natural >= 12 {
            ABS_SUCCESS
        } else if natural + self.modifier >= t {
            SUCCESS
        } else {
            FAILURE
        })
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let mut dice: Vec<i64> = (0..self.dice).map(|_| faces.die(6)).collect();
        dice.sort_unstable();
        let natural: i64 = dice.iter().rev().take(2).sum();
        Rolled {
            value: Some(natural + self.modifier),
            outcome: self.word(natural),
        }
    }

    /// The exact law: the two highest dice's sum from the pool engine.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        let words: &[Outcome] = if self.target.is_some() {
            &[ABS_FAILURE, FAILURE, SUCCESS, ABS_SUCCESS]
        } else {
            &[]
        };
        let mut law = GameLaw::new(words);
        for c in facts::pool::<W>(self.dice, 6, Some(2), &[])? {
            law.add(c.total + self.modifier, self.word(c.total), c.p);
        }
        Ok(law)
    }
}
