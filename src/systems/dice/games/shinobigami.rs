//! ShinobiGami (`ShinobiGami`, シノビガミ): `[n]SG[+m][@s][#f][>=x]` and the
//! plain `2D6+m>=x`, as BCDice codes them (`ShinobiGami.rb`).
//!
//! n d6 (default 2, n ≤ 1 refused) are rolled and the two highest kept. A
//! natural sum ≤ f (default 2) is ファンブル, checked first; ≥ s (default
//! 12) is スペシャル (success and critical); otherwise the total + m ≥ x is
//! 成功. The modifier never moves a special or a fumble. The plain `2D6`
//! sum judges special and fumble the same way, with or without a target
//! (`2D6>=?` has no target).
//!
//! BCDice vs the book: none found for the check; the many scene and
//! fumble tables are not offered.

use crate::error::Result;
use crate::pmf::Pmf;
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::law;
use crate::systems::dice::parse::parse_constant;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::{sum_check, GameCmd, GameLaw, Outcome, Rolled};

/// Most dice `nSG` takes.
pub const MAX_DICE: i64 = 100;

/// A check on the two highest of n d6 with special and fumble values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Dice rolled (the two highest are kept).
    pub dice: i64,
    /// Added to the kept dice.
    pub modifier: i64,
    /// スペシャル at a natural sum ≥ this.
    pub special: i64,
    /// ファンブル at a natural sum ≤ this.
    pub fumble: i64,
    /// The comparison.
    pub target: Option<(Cmp, i64)>,
}

/// The result words of a game's 2D6 check.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// スペシャル.
    pub special: Outcome,
    /// ファンブル.
    pub fumble: Outcome,
}

/// ShinobiGami's words.
pub const WORDS: Words = Words {
    special: Outcome::succeed(
        "special",
        "special",
        "スペシャル(【生命力】1点か変調一つを回復)",
    )
    .crit(),
    fumble: Outcome::fail("fumble", "fumble", "ファンブル").fumb(),
};
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");

/// Read `nSG…` or a plain 2D6 sum.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    if let Some(i) = text.find("SG") {
        return Ok(parse_sg(&text[..i], &text[i + 2..]).map(GameCmd::ShinobiGami));
    }
    Ok(plain_2d6(text).map(GameCmd::ShinobiGami))
}

/// A plain `2D6+m cmp t` (or `2D6>=?`) as a special/fumble check.
pub fn plain_2d6(text: &str) -> Option<Cmd> {
    let (text, unknown) = match text.strip_suffix(">=?") {
        Some(t) => (t, true),
        None => (text, false),
    };
    let cmd = crate::systems::dice::parse(text).ok()?;
    let s = sum_check(&cmd).filter(|s| s.count == 2 && s.sides == 6)?;
    if unknown && s.target.is_some() {
        return None;
    }
    Some(Cmd {
        dice: 2,
        modifier: s.modifier,
        special: 12,
        fumble: 2,
        target: s.target,
    })
}

fn parse_sg(count: &str, rest: &str) -> Option<Cmd> {
    let dice = if count.is_empty() {
        2
    } else {
        parse_constant(count).ok()?
    };
    if !(2..=MAX_DICE).contains(&dice) {
        return None;
    }
    let (body, target) = match rest.find(">=") {
        Some(i) => (&rest[..i], Some(parse_constant(&rest[i + 2..]).ok()?)),
        None => (rest, None),
    };
    let mut cmd = Cmd {
        dice,
        modifier: 0,
        special: 12,
        fumble: 2,
        target: target.map(|t| (Cmp::Ge, t)),
    };
    let mut s = body;
    while !s.is_empty() {
        let end = s[1..].find(['@', '#']).map(|i| i + 1).unwrap_or(s.len());
        let (part, next) = (&s[..end], &s[end..]);
        match part.as_bytes()[0] {
            b'@' => cmd.special = part[1..].parse().ok()?,
            b'#' => cmd.fumble = part[1..].parse().ok()?,
            b'+' | b'-' => cmd.modifier = parse_constant(&format!("0{part}")).ok()?,
            _ => return None,
        }
        s = next;
    }
    Some(cmd)
}

impl Cmd {
    /// The word of a natural sum.
    pub fn word(&self, natural: i64, words: &Words) -> Option<Outcome> {
        if natural <= self.fumble {
            return Some(words.fumble);
        }
        if natural >= self.special {
            return Some(words.special);
        }
        let (cmp, t) = self.target?;
        Some(if cmp.holds(natural + self.modifier, t) {
            SUCCESS
        } else {
            FAILURE
        })
    }

    /// The plain rule.
    pub fn roll_with<F: Faces>(&self, faces: &mut F, words: &Words) -> Rolled {
        let mut dice: Vec<i64> = (0..self.dice).map(|_| faces.die(6)).collect();
        dice.sort_unstable();
        let natural: i64 = dice.iter().rev().take(2).sum();
        Rolled {
            value: Some(natural + self.modifier),
            outcome: self.word(natural, words),
        }
    }

    /// The natural sum's law (the two highest of n d6).
    pub fn natural_law<W: Weight>(&self) -> Result<Pmf<W>> {
        law::keep(&Pmf::die(6), self.dice, 2, true)
    }

    /// The exact law.
    pub fn law_with<W: Weight>(&self, words: &Words) -> Result<GameLaw<W>> {
        let list: Vec<Outcome> = if self.target.is_some() {
            vec![words.fumble, FAILURE, SUCCESS, words.special]
        } else {
            vec![words.fumble, words.special]
        };
        let mut out = GameLaw::new(&list);
        for (n, p) in self.natural_law::<W>()?.iter() {
            out.add(n + self.modifier, self.word(n, words), p.clone());
        }
        Ok(out)
    }

    /// The plain rule with ShinobiGami's words.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        self.roll_with(faces, &WORDS)
    }

    /// The exact law with ShinobiGami's words.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        self.law_with(&WORDS)
    }
}
