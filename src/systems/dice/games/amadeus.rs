//! Amadeus (`Amadeus`, アマデウス): `R{S|A|B|C|D}[±m][@s][>t|>=t][@s]`, as
//! BCDice codes it (`Amadeus.rb`).
//!
//! Rank S, A, B, C roll 4, 3, 2, 1 d6; D rolls 2 d6 and keeps the lower.
//! Each die is judged alone, its 達成値 the die plus m: a 1 is ファンブル！,
//! a die ≥ s (default 6) スペシャル！, otherwise 達成値 ≥ t (default 4; `>`
//! also taken) 成功, else 失敗. BCDice prints one verdict per die
//! (`3_失敗[2赤] / 5_成功[4緑]`, the インガ colour after each die) and flags
//! the roll a success if any die succeeds or is special, critical if any
//! is special.
//!
//! hantei reads the roll as one verdict: the value is the best 達成値
//! (the highest die plus m), the word the best of the dice's words
//! (スペシャル！ over 成功 over ファンブル！ over 失敗), and the fumble flag is
//! set when no die succeeds and one shows 1 (BCDice's tests show no
//! fumble flag when another die succeeds; none shows a roll of only
//! failures with a 1).
//!
//! The law: the joint law of the highest die (the one die kept) and the
//! lowest, from the pool engine ([`super::facts`]); success and special are monotone in a die,
//! so the highest die decides them and the lowest decides a fumble.
//!
//! BCDice vs the book: none found for the check; the tables (境遇表, 試練表,
//! …) are not offered.

use crate::error::Result;
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::pool::Stat;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::facts;
use super::log_horizon::arithmetic;
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// `R<rank>±m@s>=t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice rolled (S 4, A 3, B 2, C 1, D 2).
    pub dice: i64,
    /// D rank: only the lower die is judged.
    pub lower: bool,
    /// Added to each die.
    pub modifier: i64,
    /// スペシャル at a die ≥ this.
    pub special: i64,
    /// `>=` or `>`.
    pub cmp: Cmp,
    /// The target.
    pub target: i64,
}

#[doc(hidden)]
pub const SPECIAL: Outcome = Outcome::succeed("special", "special", "スペシャル！").crit();
#[doc(hidden)]
pub const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
#[doc(hidden)]
pub const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル！").fumb();
#[doc(hidden)]
pub const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");

/// Read `R<rank>…`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    Ok(read(text).map(GameCmd::Amadeus))
}

fn read(text: &str) -> Option<Cmd> {
    let rest = text.strip_prefix('R')?;
    let rank = rest.chars().next()?;
    let (dice, lower) = match rank {
        'S' => (4, false),
        'A' => (3, false),
        'B' => (2, false),
        'C' => (1, false),
        'D' => (2, true),
        _ => return None,
    };
    let mut rest = &rest[1..];
    let take = |s: &str| {
        s.bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'+' || *b == b'-')
            .count()
    };
    let n = take(rest);
    let modifier = arithmetic(&rest[..n])?;
    rest = &rest[n..];
    let mut special = None;
    let at = |s: &str| -> Option<(i64, usize)> {
        let d = s
            .strip_prefix('@')?
            .bytes()
            .next()
            .filter(u8::is_ascii_digit)?;
        Some((i64::from(d - b'0'), 2))
    };
    if let Some((s, used)) = at(rest) {
        special = Some(s);
        rest = &rest[used..];
    }
    let mut cmp = Cmp::Ge;
    let mut target = 4;
    if let Some(r) = rest.strip_prefix('>') {
        let (c, r) = match r.strip_prefix('=') {
            Some(r) => (Cmp::Ge, r),
            None => (Cmp::Gt, r),
        };
        let n = take(r);
        cmp = c;
        target = arithmetic(&r[..n])?;
        rest = &r[n..];
    }
    if special.is_none() {
        if let Some((s, used)) = at(rest) {
            special = Some(s);
            rest = &rest[used..];
        }
    }
    if !rest.is_empty() {
        return None;
    }
    Some(Cmd {
        dice,
        lower,
        modifier,
        special: special.unwrap_or(6),
        cmp,
        target,
    })
}

impl Cmd {
    /// The word of one die.
    pub fn die_word(&self, die: i64) -> Outcome {
        if die == 1 {
            FUMBLE
        } else if die >= self.special {
            SPECIAL
        } else if self.cmp.holds(die + self.modifier, self.target) {
            SUCCESS
        } else {
            FAILURE
        }
    }

    /// The roll's word from its highest and lowest judged die.
    pub fn word(&self, high: i64, low: i64) -> Outcome {
        match self.die_word(high) {
            w @ (SPECIAL | SUCCESS) => w,
            _ if low == 1 => FUMBLE,
            _ => FAILURE,
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let dice: Vec<i64> = (0..self.dice).map(|_| faces.die(6)).collect();
        let (high, low) = if self.lower {
            let m = dice.iter().copied().min().unwrap_or(0);
            (m, m)
        } else {
            (
                dice.iter().copied().max().unwrap_or(0),
                dice.iter().copied().min().unwrap_or(0),
            )
        };
        Rolled {
            value: Some(high + self.modifier),
            outcome: Some(self.word(high, low)),
        }
    }

    /// The exact law: the highest and lowest die from the pool engine.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        let mut law = GameLaw::new(&[FUMBLE, FAILURE, SUCCESS, SPECIAL]);
        for c in facts::pool::<W>(self.dice, 6, Some(1), &[Stat::Min])? {
            let (high, low) = if self.lower {
                (c.stats[0], c.stats[0])
            } else {
                (c.total, c.stats[0])
            };
            law.add(high + self.modifier, Some(self.word(high, low)), c.p);
        }
        Ok(law)
    }
}
