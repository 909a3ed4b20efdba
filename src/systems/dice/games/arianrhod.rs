//! Arianrhod (`Arianrhod`, アリアンロッドRPG): the plain `nD6+m>=t`, as
//! BCDice codes it (`Arianrhod.rb`, `result_nd6`).
//!
//! n d6 summed plus m. Every die showing 1 is ファンブル (checked first,
//! failure and fumble flags); two or more sixes are クリティカル(+kD6), k
//! the number of sixes (the extra damage dice), a success with the
//! critical flag; otherwise the total ≥ t is 成功. With `>=?` (no target)
//! only the critical and the fumble are judged. Other comparisons keep
//! the common command's meaning.
//!
//! The law: the joint law of the sum, the sixes and the ones, from the
//! pool engine ([`super::facts`]).
//!
//! BCDice vs the book: none found for the check; BCDice prints the
//! critical's extra dice (+kD6) but does not roll them.

use crate::error::{Error, Result};
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::facts::{self, count_eq};
use super::{sum_check, GameCmd, GameLaw, Outcome, Rolled};

/// Most dice the game's check takes (BCDice prints one critical word per
/// number of sixes; hantei lists them up to this).
pub const MAX_DICE: i64 = 30;

/// `nD6+m>=t` (t `None`: `>=?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice.
    pub dice: i64,
    /// Added to the sum.
    pub modifier: i64,
    /// The target (`None`: `>=?`).
    pub target: Option<i64>,
}

const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル").fumb();
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");

/// The critical words: (key, English, BCDice's word) for 2..=30 sixes.
const CRITICALS: [(&str, &str, &str); 29] = [
    ("critical_2d6", "critical (+2D6)", "クリティカル(+2D6)"),
    ("critical_3d6", "critical (+3D6)", "クリティカル(+3D6)"),
    ("critical_4d6", "critical (+4D6)", "クリティカル(+4D6)"),
    ("critical_5d6", "critical (+5D6)", "クリティカル(+5D6)"),
    ("critical_6d6", "critical (+6D6)", "クリティカル(+6D6)"),
    ("critical_7d6", "critical (+7D6)", "クリティカル(+7D6)"),
    ("critical_8d6", "critical (+8D6)", "クリティカル(+8D6)"),
    ("critical_9d6", "critical (+9D6)", "クリティカル(+9D6)"),
    ("critical_10d6", "critical (+10D6)", "クリティカル(+10D6)"),
    ("critical_11d6", "critical (+11D6)", "クリティカル(+11D6)"),
    ("critical_12d6", "critical (+12D6)", "クリティカル(+12D6)"),
    ("critical_13d6", "critical (+13D6)", "クリティカル(+13D6)"),
    ("critical_14d6", "critical (+14D6)", "クリティカル(+14D6)"),
    ("critical_15d6", "critical (+15D6)", "クリティカル(+15D6)"),
    ("critical_16d6", "critical (+16D6)", "クリティカル(+16D6)"),
    ("critical_17d6", "critical (+17D6)", "クリティカル(+17D6)"),
    ("critical_18d6", "critical (+18D6)", "クリティカル(+18D6)"),
    ("critical_19d6", "critical (+19D6)", "クリティカル(+19D6)"),
    ("critical_20d6", "critical (+20D6)", "クリティカル(+20D6)"),
    ("critical_21d6", "critical (+21D6)", "クリティカル(+21D6)"),
    ("critical_22d6", "critical (+22D6)", "クリティカル(+22D6)"),
    ("critical_23d6", "critical (+23D6)", "クリティカル(+23D6)"),
    ("critical_24d6", "critical (+24D6)", "クリティカル(+24D6)"),
    ("critical_25d6", "critical (+25D6)", "クリティカル(+25D6)"),
    ("critical_26d6", "critical (+26D6)", "クリティカル(+26D6)"),
    ("critical_27d6", "critical (+27D6)", "クリティカル(+27D6)"),
    ("critical_28d6", "critical (+28D6)", "クリティカル(+28D6)"),
    ("critical_29d6", "critical (+29D6)", "クリティカル(+29D6)"),
    ("critical_30d6", "critical (+30D6)", "クリティカル(+30D6)"),
];

/// The critical word of `sixes` sixes (2 or more).
pub fn critical(sixes: i64) -> Outcome {
    let (key, en, ja) = CRITICALS[(sixes.clamp(2, 30) - 2) as usize];
    Outcome::succeed(key, en, ja).crit()
}

/// Read a plain `nD6+m>=t` or `nD6+m>=?`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let (body, unknown) = match text.strip_suffix(">=?") {
        Some(t) => (t, true),
        None => (text, false),
    };
    let Ok(cmd) = crate::systems::dice::parse(body) else {
        return Ok(None);
    };
    let Some(s) = sum_check(&cmd).filter(|s| s.sides == 6) else {
        return Ok(None);
    };
    let target = match (s.target, unknown) {
        (None, true) => None,
        (Some((Cmp::Ge, t)), false) => Some(t),
        _ => return Ok(None),
    };
    if s.count > MAX_DICE {
        return Err(Error::param(
            "EXPR",
            text,
            format!("Arianrhod: at most {MAX_DICE} dice in a check"),
        ));
    }
    Ok(Some(GameCmd::Arianrhod(Cmd {
        dice: s.count,
        modifier: s.modifier,
        target,
    })))
}

impl Cmd {
    /// The word of a roll: its total, sixes and ones.
    pub fn word(&self, total: i64, sixes: i64, ones: i64) -> Option<Outcome> {
        if ones == self.dice {
            return Some(FUMBLE);
        }
        if sixes >= 2 {
            return Some(critical(sixes));
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
        let mut words = vec![FUMBLE];
        if self.target.is_some() {
            words.extend([FAILURE, SUCCESS]);
        }
        words.extend((2..=self.dice).map(critical));
        let mut law = GameLaw::new(&words);
        for c in facts::pool::<W>(self.dice, 6, None, &[count_eq(6), count_eq(1)])? {
            let total = c.total + self.modifier;
            law.add(total, self.word(total, c.stats[0], c.stats[1]), c.p);
        }
        Ok(law)
    }
}
