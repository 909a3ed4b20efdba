//! Call of Cthulhu 7th (`Cthulhu7th`, 新クトゥルフ神話TRPG): `CC(x)<=s[r|h|e|c]`
//! and `CBR(x,y)`, as BCDice codes them (`Cthulhu7th.rb`, `rollable.rb`).
//!
//! `CC(x)` rolls |x|+1 tens d10 first, then one ones d10 ([`super::tens`]);
//! bonus dice (x > 0) keep the lowest reading, penalty dice the highest;
//! |x| ≤ 100. Without a target (or a target ≤ 0) and no bonus dice, BCDice
//! rolls one 1D100 and prints it with no word. Words, checked in this
//! order: クリティカル (1), ファンブル (100, or 96–100 when s < 50),
//! イクストリーム成功 (≤ s/5), ハード成功 (≤ s/2), レギュラー成功 (≤ s),
//! 失敗. A difficulty suffix replaces s by s, s/2, s/5 or 0 and the words
//! by 成功/失敗 (with クリティカル and ファンブル, whose 96 threshold follows the
//! reduced target). `CBR(x,y)`: one d100 judged against both; 成功 (both
//! succeed, success flag), 部分的成功 (one: BCDice sets no flag), 失敗.
//!
//! BCDice vs the book: the book caps bonus and penalty dice at 2; BCDice
//! takes up to 100. A roll of 100 is a fumble even under a skill of 100 or
//! more (BCDice checks the fumble before success). `FAR` (full-auto fire)
//! and the madness/phobia tables are not odds of a check and are not
//! offered.

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::{tens, GameCmd, GameLaw, Outcome, Rolled};

/// A Cthulhu 7th command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `CC(x)<=s[r|h|e|c]`.
    Check {
        /// Bonus (> 0) or penalty (< 0) dice.
        bonus: i64,
        /// The skill as typed (≤ 0 or absent: no comparison).
        skill: Option<i64>,
        /// The difficulty suffix.
        difficulty: Option<Difficulty>,
    },
    /// `CBR(x,y)`.
    Combined(i64, i64),
}

/// A difficulty suffix (難易度).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// `r` レギュラー.
    Regular,
    /// `h` ハード.
    Hard,
    /// `e` イクストリーム.
    Extreme,
    /// `c` クリティカル.
    Critical,
}

const CRITICAL: Outcome = Outcome::succeed("critical", "critical", "クリティカル").crit();
const EXTREME: Outcome = Outcome::succeed("extreme", "extreme success", "イクストリーム成功");
const HARD: Outcome = Outcome::succeed("hard", "hard success", "ハード成功");
const REGULAR: Outcome = Outcome::succeed("regular", "regular success", "レギュラー成功");
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル").fumb();
const PARTIAL: Outcome = Outcome::fail("partial", "partial success", "部分的成功");
/// CBR's 成功 (both succeed).
const BOTH: Outcome = Outcome::succeed("success", "success", "成功");

/// Read a command (upper case, no spaces); `None` if it is not one.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    if let Some(rest) = text.strip_prefix("CBR(") {
        let Some(inner) = rest.strip_suffix(')') else {
            return Ok(None);
        };
        let Some((a, b)) = split_args(inner) else {
            return Ok(None);
        };
        let (Ok(a), Ok(b)) = (parse_constant(a), parse_constant(b)) else {
            return Ok(None);
        };
        return Ok(Some(GameCmd::Cthulhu7th(Cmd::Combined(a, b))));
    }
    let Some(rest) = text.strip_prefix("CC") else {
        return Ok(None);
    };
    let (bonus_text, rest) = match rest.find("<=") {
        Some(i) => (&rest[..i], Some(&rest[i + 2..])),
        None => (rest, None),
    };
    let bonus_text = bonus_text
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(bonus_text);
    let bonus = if bonus_text.is_empty() {
        0
    } else {
        let digits = bonus_text.trim_start_matches(['+', '-']);
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || bonus_text.len() - digits.len() > 1
        {
            return Ok(None);
        }
        bonus_text
            .parse::<i64>()
            .map_err(|_| bonus_error(bonus_text))?
    };
    if !(-100..=100).contains(&bonus) {
        return Err(bonus_error(bonus_text));
    }
    let (skill, difficulty) = match rest {
        None => (None, None),
        Some(r) => {
            let (body, d) = match r.chars().last() {
                Some('R') => (&r[..r.len() - 1], Some(Difficulty::Regular)),
                Some('H') => (&r[..r.len() - 1], Some(Difficulty::Hard)),
                Some('E') => (&r[..r.len() - 1], Some(Difficulty::Extreme)),
                Some('C') => (&r[..r.len() - 1], Some(Difficulty::Critical)),
                _ => (r, None),
            };
            let Ok(s) = parse_constant(body.trim_start_matches('+')) else {
                return Ok(None);
            };
            (Some(s), d)
        }
    };
    Ok(Some(GameCmd::Cthulhu7th(Cmd::Check {
        bonus,
        skill,
        difficulty,
    })))
}

fn bonus_error(text: &str) -> Error {
    Error::param(
        "EXPR",
        format!("CC({text})"),
        "Cthulhu7th: ボーナス・ペナルティダイスの値は-100以上、100以下としてください (bonus/penalty dice from -100 to 100)",
    )
}

/// `a,b` split at the comma outside parentheses.
pub(super) fn split_args(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => return Some((&s[..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The word of a reading `v` against skill `s` (no suffix).
pub fn judge(v: i64, s: i64) -> Outcome {
    if v == 1 {
        CRITICAL
    } else if v == 100 || (v >= 96 && s < 50) {
        FUMBLE
    } else if v <= s / 5 {
        EXTREME
    } else if v <= s / 2 {
        HARD
    } else if v <= s {
        REGULAR
    } else {
        FAILURE
    }
}

/// The word of a reading against a reduced target (with a suffix).
fn judge_reduced(v: i64, t: i64) -> Outcome {
    if v == 1 {
        CRITICAL
    } else if v == 100 || (v >= 96 && t < 50) {
        FUMBLE
    } else if v <= t {
        SUCCESS
    } else {
        FAILURE
    }
}

fn is_success(o: Outcome) -> bool {
    o.success
}

impl Cmd {
    fn compares(&self) -> bool {
        matches!(self, Cmd::Check { skill: Some(s), .. } if *s > 0)
    }

    fn target(&self) -> i64 {
        match self {
            Cmd::Check {
                skill: Some(s),
                difficulty,
                ..
            } => match difficulty {
                None | Some(Difficulty::Regular) => *s,
                Some(Difficulty::Hard) => s / 2,
                Some(Difficulty::Extreme) => s / 5,
                Some(Difficulty::Critical) => 0,
            },
            _ => 0,
        }
    }

    fn word(&self, v: i64) -> Option<Outcome> {
        match self {
            Cmd::Combined(a, b) => {
                let n =
                    usize::from(is_success(judge(v, *a))) + usize::from(is_success(judge(v, *b)));
                Some(match n {
                    2 => BOTH,
                    1 => PARTIAL,
                    _ => FAILURE,
                })
            }
            Cmd::Check { difficulty, .. } => {
                if !self.compares() {
                    None
                } else if difficulty.is_some() {
                    Some(judge_reduced(v, self.target()))
                } else {
                    Some(judge(v, self.target()))
                }
            }
        }
    }

    /// The words, worst first.
    fn outcomes(&self) -> Vec<Outcome> {
        match self {
            Cmd::Combined(..) => vec![FAILURE, PARTIAL, BOTH],
            Cmd::Check { .. } if !self.compares() => vec![],
            Cmd::Check {
                difficulty: Some(_),
                ..
            } => vec![FUMBLE, FAILURE, SUCCESS, CRITICAL],
            Cmd::Check { .. } => vec![FUMBLE, FAILURE, REGULAR, HARD, EXTREME, CRITICAL],
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let v = match self {
            Cmd::Combined(..) => faces.die(100),
            Cmd::Check { bonus: 0, .. } if !self.compares() => faces.die(100),
            Cmd::Check { bonus, .. } => {
                let tens: Vec<i64> = (0..=bonus.abs()).map(|_| faces.die(10)).collect();
                let ones = faces.die(10);
                let readings = tens.iter().map(|&t| tens::reading(t, ones));
                if *bonus >= 0 {
                    readings.min().unwrap_or(100)
                } else {
                    readings.max().unwrap_or(100)
                }
            }
        };
        Rolled {
            value: Some(v),
            outcome: self.word(v),
        }
    }

    /// The kept reading's law (the dice alone).
    pub fn reading_law<W: Weight>(&self) -> Pmf<W> {
        match self {
            // At most 101 tens dice of 10 faces (bonus −100..=100): far
            // inside the planner's limits, exact ones included (tested).
            Cmd::Check { bonus, .. } if *bonus != 0 => {
                tens::d100_kept(bonus.unsigned_abs() as u32 + 1, *bonus > 0)
                    .expect("at most 101 tens dice are within the dice planner's limits")
            }
            _ => Pmf::uniform(1, 100),
        }
    }

    /// The exact law.
    pub fn law<W: Weight>(&self) -> GameLaw<W> {
        GameLaw::judged(&self.outcomes(), &self.reading_law(), |v| self.word(v))
    }
}
