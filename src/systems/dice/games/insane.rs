//! Insane (`Insane`, インセイン): the plain `2D6+m>=x`, as BCDice codes it
//! (`Insane.rb`): a natural 2 is ファンブル (判定失敗。山札から【狂気】を1枚獲得),
//! a natural 12 スペシャル (判定成功。【生命力】1点か【正気度】1点回復), with or
//! without a target (`2D6>=?`); otherwise the total ≥ x is 成功. The
//! same special/fumble check as ShinobiGami's ([`super::shinobigami`]).
//!
//! BCDice vs the book: none found; the scene, horrorscape and other
//! tables are not offered.

use crate::error::Result;
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::shinobigami::{self, Words};
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// Insane's words.
pub const WORDS: Words = Words {
    special: Outcome::succeed(
        "special",
        "special",
        "スペシャル(判定成功。【生命力】1点か【正気度】1点回復)",
    )
    .crit(),
    fumble: Outcome::fail(
        "fumble",
        "fumble",
        "ファンブル(判定失敗。山札から【狂気】を1枚獲得)",
    )
    .fumb(),
};

/// An Insane 2D6 check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd(pub shinobigami::Cmd);

/// Read a plain 2D6 sum.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    Ok(shinobigami::plain_2d6(text).map(|c| GameCmd::Insane(Cmd(c))))
}

impl Cmd {
    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        self.0.roll_with(faces, &WORDS)
    }

    /// The exact law.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        self.0.law_with(&WORDS)
    }
}
