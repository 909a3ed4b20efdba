//! Nechronica (`Nechronica`, ネクロニカ): `nNC[±m]` (判定), `nNA[±m]` (攻撃判定),
//! the older `nR10[±m][[1]]`, and the plain `1D10+m>=t`, as BCDice codes
//! them (`Nechronica.rb`).
//!
//! n d10 (default 1) are rolled and m added to each; the highest is the
//! value. At 11 or more it is 大成功 (success and critical flags), at 6 or
//! more 成功; below, 大失敗 (failure and fumble flags) if some die plus m is
//! at most 1 — with more than one die BCDice adds 使用パーツ全損 (the parts
//! used are destroyed) — else 失敗. `NA` (and `R10…[1]`) also prints the
//! hit location of a success (6 防御側任意 … 10 頭, 11+ 攻撃側任意 with
//! value − 10 extra damage), a function of the value. The plain `1D10+m>=t`
//! is judged the same way against t instead of 6.
//!
//! The law: the joint law of the highest die (the one die kept) and the
//! lowest, from the pool engine ([`super::facts`]).
//!
//! BCDice vs the book: none found for the check; the 未練表 tables are not
//! offered. The plain form is taken for one die only (BCDice's tests do
//! not show what it does with more).

use crate::error::{Error, Result};
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::pool::Stat;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::facts;
use super::log_horizon::arithmetic;
use super::{sum_check, GameCmd, GameLaw, Outcome, Rolled};

/// Most dice one check takes.
pub const MAX_DICE: i64 = 100;

/// `nNC±m` / `nNA±m` / `1D10+m>=t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice (the highest kept).
    pub dice: i64,
    /// Added to each die.
    pub modifier: i64,
    /// 成功 at this or more (6 but in the plain form).
    pub target: i64,
    /// `NA`: the attack check (prints the hit location).
    pub attack: bool,
}

const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "大失敗").fumb();
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const CRITICAL: Outcome = Outcome::succeed("critical", "critical", "大成功").crit();

/// Read `nNC…`, `nNA…`, `nR10…` or a plain `1D10+m>=t`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    let (attack, rest) = if let Some(r) = rest.strip_prefix("NC") {
        (Some(false), r.strip_prefix("10").unwrap_or(r))
    } else if let Some(r) = rest.strip_prefix("NA") {
        (Some(true), r.strip_prefix("10").unwrap_or(r))
    } else if let Some(r) = rest.strip_prefix("R10").filter(|_| digits > 0) {
        (None, r)
    } else {
        return Ok(plain(text).map(GameCmd::Nechronica));
    };
    let (mods, mode) = match rest.find('[') {
        Some(i) if attack.is_none() && rest.ends_with(']') => {
            (&rest[..i], Some(&rest[i + 1..rest.len() - 1]))
        }
        Some(_) => return Ok(None),
        None => (rest, None),
    };
    if !mods.is_empty() && !mods.starts_with(['+', '-']) {
        return Ok(None);
    }
    let Some(modifier) = arithmetic(mods) else {
        return Ok(None);
    };
    let attack = match (attack, mode) {
        (Some(a), _) => a,
        (None, None) => false,
        (None, Some(m)) if !m.is_empty() && m.bytes().all(|b| b.is_ascii_digit()) => m == "1",
        (None, Some(_)) => return Ok(None),
    };
    let dice: i64 = if digits == 0 {
        1
    } else {
        text[..digits].parse().unwrap_or(i64::MAX)
    };
    if !(1..=MAX_DICE).contains(&dice) {
        return Err(Error::param(
            "EXPR",
            text,
            format!("Nechronica: 1 to {MAX_DICE} dice"),
        ));
    }
    Ok(Some(GameCmd::Nechronica(Cmd {
        dice,
        modifier,
        target: 6,
        attack,
    })))
}

fn plain(text: &str) -> Option<Cmd> {
    let cmd = crate::systems::dice::parse(text).ok()?;
    let s = sum_check(&cmd).filter(|s| s.count == 1 && s.sides == 10)?;
    let Some((Cmp::Ge, t)) = s.target else {
        return None;
    };
    Some(Cmd {
        dice: 1,
        modifier: s.modifier,
        target: t,
        attack: false,
    })
}

/// The hit location BCDice prints after an attack's word (none at 5 or
/// less).
pub fn hit_location(value: i64) -> Option<String> {
    const TABLE: [&str; 5] = [
        "防御側任意",
        "脚（なければ攻撃側任意）",
        "胴（なければ攻撃側任意）",
        "腕（なければ攻撃側任意）",
        "頭（なければ攻撃側任意）",
    ];
    match value {
        i64::MIN..=5 => None,
        6..=10 => Some(TABLE[(value - 6) as usize].to_string()),
        _ => Some(format!("攻撃側任意(追加ダメージ{})", value - 10)),
    }
}

impl Cmd {
    /// The word of the highest and lowest die (before the modifier).
    pub fn word(&self, high: i64, low: i64) -> Outcome {
        let value = high + self.modifier;
        if value >= 11 {
            CRITICAL
        } else if value >= self.target {
            SUCCESS
        } else if low + self.modifier <= 1 {
            FUMBLE
        } else {
            FAILURE
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let dice: Vec<i64> = (0..self.dice).map(|_| faces.die(10)).collect();
        let high = dice.iter().copied().max().unwrap_or(0);
        let low = dice.iter().copied().min().unwrap_or(0);
        Rolled {
            value: Some(high + self.modifier),
            outcome: Some(self.word(high, low)),
        }
    }

    /// The exact law: the highest and lowest die from the pool engine.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        let mut law = GameLaw::new(&[FUMBLE, FAILURE, SUCCESS, CRITICAL]);
        for c in facts::pool::<W>(self.dice, 10, Some(1), &[Stat::Min])? {
            let (high, low) = (c.total, c.stats[0]);
            law.add(high + self.modifier, Some(self.word(high, low)), c.p);
        }
        Ok(law)
    }
}
