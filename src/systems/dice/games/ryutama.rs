//! Ryutama (`Ryutama`, りゅうたま): `Rx[,y][±m][>=t]`, as BCDice codes it
//! (`Ryutama.rb`).
//!
//! One dx and one dy (x, y ∈ {2, 4, 6, 8, 10, 12, 20}; `R86` is `R8,6`,
//! `R2020` is `R20,20`, a lone valid size one die) summed plus m. Both
//! dice showing 1 is １ゾロ【１ゾロポイント＋１】 (checked first); both
//! showing 6, or both their maximum, クリティカル成功; with or without a
//! target. Otherwise the total ≥ t is 成功. One die has neither.
//!
//! The law: the two dice's joint law (independent, of different sizes)
//! read by the words.
//!
//! BCDice vs the book: BCDice returns the result as text with no
//! success/critical/fumble flags; hantei's flags follow the words
//! (クリティカル成功 a success with the critical flag, １ゾロ a failure with
//! the fumble flag). With a comma BCDice takes the second size as written
//! (any number of sides); hantei follows.

use crate::error::Result;
use crate::pmf::Pmf;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::log_horizon::arithmetic;
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// The die sizes BCDice takes.
pub const SIZES: [i64; 7] = [20, 12, 10, 8, 6, 4, 2];
/// Most sides of a second die written after a comma.
pub const MAX_SIDES: i64 = 1000;

/// `Rx,y±m>=t` (`second` 0: one die).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// The first die's sides.
    pub first: i64,
    /// The second die's sides (0: none).
    pub second: i64,
    /// Added to the sum.
    pub modifier: i64,
    /// The target.
    pub target: Option<i64>,
}

const ONES: Outcome = Outcome::fail(
    "fumble",
    "fumble (double ones)",
    "１ゾロ【１ゾロポイント＋１】",
)
.fumb();
const CRITICAL: Outcome =
    Outcome::succeed("critical", "critical success", "クリティカル成功").crit();
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");

fn valid(d: i64) -> bool {
    SIZES.contains(&d)
}

/// BCDice's reading of the sizes (`getDiceType`).
fn dice_type(d1: i64, d2: i64) -> Option<(i64, i64)> {
    if d2 != 0 {
        return valid(d1).then_some((d1, d2));
    }
    for base in [10, 100] {
        let (a, b) = (d1 / base, d1 % base);
        if valid(a) && valid(b) {
            return Some((a, b));
        }
    }
    valid(d1).then_some((d1, 0))
}

/// Read `Rx[,y][±m][>=t]`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let Some(rest) = text.strip_prefix('R') else {
        return Ok(None);
    };
    let n = rest.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || n > 9 {
        return Ok(None);
    }
    let d1: i64 = rest[..n].parse().unwrap_or(0);
    let mut rest = &rest[n..];
    let mut d2 = 0;
    if let Some(r) = rest.strip_prefix(',') {
        let m = r.bytes().take_while(u8::is_ascii_digit).count();
        if m == 0 || m > 9 {
            return Ok(None);
        }
        d2 = r[..m].parse().unwrap_or(0);
        rest = &r[m..];
    }
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
        Some(t) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
        Some(_) => return Ok(None),
    };
    let Some((first, second)) = dice_type(d1, d2) else {
        return Ok(None);
    };
    if second > MAX_SIDES {
        return Ok(None);
    }
    Ok(Some(GameCmd::Ryutama(Cmd {
        first,
        second,
        modifier,
        target,
    })))
}

impl Cmd {
    /// The word of the two faces (`b` 0: one die).
    pub fn word(&self, a: i64, b: i64) -> Option<Outcome> {
        if a == 1 && b == 1 {
            return Some(ONES);
        }
        if b != 0 && ((a == 6 && b == 6) || (a == self.first && b == self.second)) {
            return Some(CRITICAL);
        }
        let t = self.target?;
        Some(if a + b + self.modifier >= t {
            SUCCESS
        } else {
            FAILURE
        })
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let a = faces.die(self.first);
        let b = if self.second == 0 {
            0
        } else {
            faces.die(self.second)
        };
        Rolled {
            value: Some(a + b + self.modifier),
            outcome: self.word(a, b),
        }
    }

    /// The exact law: the two dice's joint law.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        let words: &[Outcome] = match (self.target.is_some(), self.second != 0) {
            (true, true) => &[ONES, FAILURE, SUCCESS, CRITICAL],
            (true, false) => &[FAILURE, SUCCESS],
            (false, true) => &[ONES, CRITICAL],
            (false, false) => &[],
        };
        let mut law = GameLaw::new(words);
        // Without a target BCDice judges no success (１ゾロ and クリティカル
        // are only flagged): no p_success, as the power table and nDX.
        law.judges = self.target.is_some();
        let one = Pmf::<W>::die(self.first as u32);
        let two = if self.second == 0 {
            Pmf::point(0)
        } else {
            Pmf::die(self.second as u32)
        };
        for (a, p) in one.iter() {
            for (b, q) in two.iter() {
                law.add(a + b + self.modifier, self.word(a, b), p.clone() * q);
            }
        }
        Ok(law)
    }
}
