//! Emoklore (`Emoklore`, エモクロアTRPG): `[x]DM<=y[Ez]` (技能値判定) and
//! `sDAa[+z]` (取得技能判定), as BCDice codes them (`Emoklore.rb`).
//!
//! x d10 are rolled (x defaults to 1; x and y may be arithmetic, `Ez`
//! adds z dice). Each die scores 1 if it is ≤ y, 1 more if it shows 1,
//! and −1 if it shows 10; the sum is the 成功数 BCDice prints. Below 0 is
//! ファンブル, 0 失敗, 1 成功, 2 ダブル, 3 トリプル, 4–9 ミラクル, 10 and more
//! カタストロフ; every word from ダブル up is a success with BCDice's
//! critical flag. With no dice (x + z ≤ 0) BCDice rolls nothing and prints
//! 確定失敗 with the failure and fumble flags. `sDAa+z` is
//! `(s+z)DM<=(s+a)`, with `B` (base skill) rolling 1 die against a alone
//! and an omitted s rolling 1 die against a.
//!
//! The law: each die's score is a law over {−1, 0, 1, 2} read off its ten
//! faces, and the 成功数 is the sum of x such scores
//! ([`crate::systems::dice::law::sum_of`], the engine's sum of like dice).
//! (The pool engine's counts give the same law but carry the dice's total
//! too, which grows with x; the sum of scores does not.)
//!
//! BCDice vs the book: no difference is known to hantei. Of note: BCDice
//! scores a 1 as "≤ y, plus one", so against a threshold of 0 a 1 scores
//! 1 (`1DM<=0` → 成功数1 in BCDice's own test; earlier BCDice versions
//! scored every 1 as 2). `sDA` takes the skill levels of the help text,
//! 1–3 or `B`; another number (`4DA3`, `0DA3`) is refused, exit 2.

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::systems::dice::law;
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::{GameCmd, GameLaw, Outcome, Rolled};

/// Most dice one check takes.
pub const MAX_DICE: i64 = 60;

/// `xDM<=y`: `dice` d10 against `threshold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice rolled (≤ 0: 確定失敗, no roll).
    pub dice: i64,
    /// 判定値: a die at most this scores.
    pub threshold: i64,
}

const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル").fumb();
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const DOUBLE: Outcome = Outcome::succeed("double", "double", "ダブル").crit();
const TRIPLE: Outcome = Outcome::succeed("triple", "triple", "トリプル").crit();
const MIRACLE: Outcome = Outcome::succeed("miracle", "miracle", "ミラクル").crit();
const CATASTROPHE: Outcome = Outcome::succeed("catastrophe", "catastrophe", "カタストロフ").crit();
const NO_DICE: Outcome = Outcome::fail("no_dice", "no dice: certain failure", "確定失敗").fumb();

/// The words of a check, worst first.
pub const WORDS: [Outcome; 7] = [
    FUMBLE,
    FAILURE,
    SUCCESS,
    DOUBLE,
    TRIPLE,
    MIRACLE,
    CATASTROPHE,
];

/// The word of a 成功数.
pub fn word(successes: i64) -> Outcome {
    match successes {
        i64::MIN..=-1 => FUMBLE,
        0 => FAILURE,
        1 => SUCCESS,
        2 => DOUBLE,
        3 => TRIPLE,
        4..=9 => MIRACLE,
        _ => CATASTROPHE,
    }
}

/// What one die scores against `threshold`.
pub fn score(face: i64, threshold: i64) -> i64 {
    i64::from(face <= threshold) + i64::from(face == 1) - i64::from(face == 10)
}

/// Read `xDM<=y[Ez]` or `sDAa[+z]`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let cmd = if let Some(i) = text.find("DM<=") {
        parse_dm(&text[..i], &text[i + 4..])
    } else if let Some(i) = text.find("DA") {
        let level = &text[..i];
        if !matches!(level, "" | "B" | "1" | "2" | "3") && level.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(Error::param(
                "EXPR",
                text,
                format!(
                    "Emoklore sDAa: the skill level s is 1, 2, 3 or B (base skill), not {}",
                    crate::error::quote(level)
                ),
            ));
        }
        parse_da(level, &text[i + 2..])
    } else {
        None
    };
    let Some(cmd) = cmd else {
        return Ok(None);
    };
    if cmd.dice > MAX_DICE {
        return Err(Error::param(
            "EXPR",
            text,
            format!("Emoklore: at most {MAX_DICE} dice"),
        ));
    }
    Ok(Some(GameCmd::Emoklore(cmd)))
}

fn arithmetic(s: &str) -> Option<i64> {
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-*/()".contains(&b))
    {
        return None;
    }
    parse_constant(s).ok()
}

fn parse_dm(count: &str, rest: &str) -> Option<Cmd> {
    let dice = if count.is_empty() {
        1
    } else {
        arithmetic(count)?
    };
    let (threshold, extra) = match rest.find('E') {
        Some(i) => {
            let e = &rest[i + 1..];
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (&rest[..i], e.parse::<i64>().ok()?)
        }
        None => (rest, 0),
    };
    Some(Cmd {
        dice: dice.checked_add(extra)?,
        threshold: arithmetic(threshold)?,
    })
}

fn parse_da(level: &str, rest: &str) -> Option<Cmd> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (ability, bonus) = match rest.split_once('+') {
        Some((a, z)) if digits(z) => (a, z.parse::<i64>().ok()?),
        Some(_) => return None,
        None => (rest, 0),
    };
    if !digits(ability) {
        return None;
    }
    let ability: i64 = ability.parse().ok()?;
    let (dice, add) = match level {
        "" => (1, 0),
        "B" => (1, 0),
        "1" | "2" | "3" => {
            let s: i64 = level.parse().ok()?;
            (s, s)
        }
        _ => return None,
    };
    Some(Cmd {
        dice: dice.checked_add(bonus)?,
        threshold: ability.checked_add(add)?,
    })
}

impl Cmd {
    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        if self.dice <= 0 {
            return Rolled {
                value: None,
                outcome: Some(NO_DICE),
            };
        }
        let n: i64 = (0..self.dice)
            .map(|_| score(faces.die(10), self.threshold))
            .sum();
        Rolled {
            value: Some(n),
            outcome: Some(word(n)),
        }
    }

    /// The law of one die's score.
    pub fn die_score<W: Weight>(&self) -> Pmf<W> {
        Pmf::from_pairs((1..=10).map(|f| (score(f, self.threshold), W::ratio(1, 10))))
    }

    /// The exact law: the sum of the dice's scores.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        if self.dice <= 0 {
            let mut law = GameLaw::new(&[NO_DICE]);
            law.add(0, Some(NO_DICE), W::one());
            law.prints_value = false;
            return Ok(law);
        }
        let successes = law::sum_of(&self.die_score::<W>(), self.dice)?;
        Ok(GameLaw::judged(&WORDS, &successes, |n| Some(word(n))))
    }
}
