//! Sword World 2.5 and 2.0 (`SwordWorld2.5`, `SwordWorld2.0`, ソード・ワールド),
//! as BCDice codes them (`SwordWorld.rb`, `SwordWorld2_0.rb`,
//! `SwordWorld2_5.rb`, `sword_world/rating_parser.y`,
//! `sword_world/transcendent_test.rb`).
//!
//! - **`2D6+m>=t`** (行為判定): a natural 12 is 自動的成功 (success and
//!   critical) and a natural 2 自動的失敗 (fumble), with or without a target;
//!   otherwise `>=` gives 成功/失敗 and any other comparison BCDice's
//!   common judgement.
//! - **`Kx…`** (威力表, the power table): each round rolls 2D6 and reads the
//!   101-row table (K0–K100, columns 3–12; [`TABLE`]). A natural ≤ 2
//!   (ピンゾロ) reads `**` (0) and ends the chain; on the first roll it is
//!   自動的失敗 (the damage distribution counts it as 0: BCDice prints no
//!   total). The chain goes on while the adjusted 2D6 ≥ the critical value
//!   (`@c` or `[c]`, default 10, 13 with `H`/`OH`); `rN` raises the key by N
//!   each round (首切り); `$N` sets the first roll, `$+N` adjusts it, `$~+N`
//!   adjusts it only when it is 10 or less (2.5); `#N` adjusts every roll
//!   but a 2 (2.5); `gf` doubles one die, `sfN` rolls one die and fixes the
//!   other at N every round, `tfN` on the first round only; `szN` reads 0
//!   for an adjusted roll ≤ N; `adN` adds N per critical. Total = Σ table
//!   values + m (+ ad × criticals); `H` halves (rounding up), `OH` takes
//!   ×1.5 (rounding up), `DB` ×2, each with an optional modifier after it
//!   (`K10OH+1+1`: the first `+1` comes after the ×1.5). BCDice flags a
//!   critical when the chain went round at least once (n回転).
//! - **`2D6@c+m>=t`** (超越判定): 2D6 rolled again and added while the last
//!   pair's sum ≥ c, except after a first `[1,1]` (自動的失敗); a first `[6,6]`
//!   is 自動的成功; a success of 41 or more after at least one reroll is
//!   超成功. c < 3 is refused.
//!
//! BCDice vs the book: BCDice lets any critical value from the lowest one
//! that ends the chain (3, or more with `sf`) where the book floors it at
//! 8; `$` and `#` follow BCDice's order (the first-roll `$` before `#`).
//! Sword World 2.0 takes the same power-table options but `#` and `$~+`
//! (2.5 only in BCDice's grammar). Tables (`FT`, `TT`, `ABT`), growth
//! (`Gr`), `Dru` and `Bib` are not checks with odds here and are not
//! offered.
//!
//! Bounds: a modifier (and every other number of the power table's
//! options) is at most 10⁹ in magnitude, as every number of the common
//! notation (`K0+9999999999999` is refused, exit 2). Within it the law is
//! only moved: the report reads it value by value, so the fumble's 0 and
//! the rest 10⁹ away make no vector of 10⁹ entries.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::systems::dice::ast::Cmp;
use crate::systems::dice::parse::{parse_constant, MAX_CONST};
use crate::systems::dice::roll::Faces;
use crate::weight::Weight;

use super::{sum_check, GameCmd, GameLaw, Outcome, Rolled, SumCheck};
use crate::systems::dice::pool::chain::{self, Next};

/// BCDice's power table (`getSW2_0_RatingTable`), keys K0–K100, columns for
/// an adjusted 2D6 of 3 to 12. Copied from BCDice (BSD-3-Clause, Copyright
/// (c) 2011, Faceless and たいたい竹流; the notice is in
/// `tests/data/peer/README.md`), which copies the rulebook's table.
pub const TABLE: [[i64; 10]; 101] = [
    [0, 0, 0, 1, 2, 2, 3, 3, 4, 4],          // K0
    [0, 0, 0, 1, 2, 3, 3, 3, 4, 4],          // K1
    [0, 0, 0, 1, 2, 3, 4, 4, 4, 4],          // K2
    [0, 0, 1, 1, 2, 3, 4, 4, 4, 5],          // K3
    [0, 0, 1, 2, 2, 3, 4, 4, 5, 5],          // K4
    [0, 1, 1, 2, 2, 3, 4, 5, 5, 5],          // K5
    [0, 1, 1, 2, 3, 3, 4, 5, 5, 5],          // K6
    [0, 1, 1, 2, 3, 4, 4, 5, 5, 6],          // K7
    [0, 1, 2, 2, 3, 4, 4, 5, 6, 6],          // K8
    [0, 1, 2, 3, 3, 4, 4, 5, 6, 7],          // K9
    [1, 1, 2, 3, 3, 4, 5, 5, 6, 7],          // K10
    [1, 2, 2, 3, 3, 4, 5, 6, 6, 7],          // K11
    [1, 2, 2, 3, 4, 4, 5, 6, 6, 7],          // K12
    [1, 2, 3, 3, 4, 4, 5, 6, 7, 7],          // K13
    [1, 2, 3, 4, 4, 4, 5, 6, 7, 8],          // K14
    [1, 2, 3, 4, 4, 5, 5, 6, 7, 8],          // K15
    [1, 2, 3, 4, 4, 5, 6, 7, 7, 8],          // K16
    [1, 2, 3, 4, 5, 5, 6, 7, 7, 8],          // K17
    [1, 2, 3, 4, 5, 6, 6, 7, 7, 8],          // K18
    [1, 2, 3, 4, 5, 6, 7, 7, 8, 9],          // K19
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],         // K20
    [1, 2, 3, 4, 6, 6, 7, 8, 9, 10],         // K21
    [1, 2, 3, 5, 6, 6, 7, 8, 9, 10],         // K22
    [2, 2, 3, 5, 6, 7, 7, 8, 9, 10],         // K23
    [2, 3, 4, 5, 6, 7, 7, 8, 9, 10],         // K24
    [2, 3, 4, 5, 6, 7, 8, 8, 9, 10],         // K25
    [2, 3, 4, 5, 6, 8, 8, 9, 9, 10],         // K26
    [2, 3, 4, 6, 6, 8, 8, 9, 9, 10],         // K27
    [2, 3, 4, 6, 6, 8, 9, 9, 10, 10],        // K28
    [2, 3, 4, 6, 7, 8, 9, 9, 10, 10],        // K29
    [2, 4, 4, 6, 7, 8, 9, 10, 10, 10],       // K30
    [2, 4, 5, 6, 7, 8, 9, 10, 10, 11],       // K31
    [3, 4, 5, 6, 7, 8, 10, 10, 10, 11],      // K32
    [3, 4, 5, 6, 8, 8, 10, 10, 10, 11],      // K33
    [3, 4, 5, 6, 8, 9, 10, 10, 11, 11],      // K34
    [3, 4, 5, 7, 8, 9, 10, 10, 11, 12],      // K35
    [3, 5, 5, 7, 8, 9, 10, 11, 11, 12],      // K36
    [3, 5, 6, 7, 8, 9, 10, 11, 12, 12],      // K37
    [3, 5, 6, 7, 8, 10, 10, 11, 12, 13],     // K38
    [4, 5, 6, 7, 8, 10, 11, 11, 12, 13],     // K39
    [4, 5, 6, 7, 9, 10, 11, 11, 12, 13],     // K40
    [4, 6, 6, 7, 9, 10, 11, 12, 12, 13],     // K41
    [4, 6, 7, 7, 9, 10, 11, 12, 13, 13],     // K42
    [4, 6, 7, 8, 9, 10, 11, 12, 13, 14],     // K43
    [4, 6, 7, 8, 10, 10, 11, 12, 13, 14],    // K44
    [4, 6, 7, 9, 10, 10, 11, 12, 13, 14],    // K45
    [4, 6, 7, 9, 10, 10, 12, 13, 13, 14],    // K46
    [4, 6, 7, 9, 10, 11, 12, 13, 13, 15],    // K47
    [4, 6, 7, 9, 10, 12, 12, 13, 13, 15],    // K48
    [4, 6, 7, 10, 10, 12, 12, 13, 14, 15],   // K49
    [4, 6, 8, 10, 10, 12, 12, 13, 15, 15],   // K50
    [5, 7, 8, 10, 10, 12, 12, 13, 15, 15],   // K51
    [5, 7, 8, 10, 11, 12, 12, 13, 15, 15],   // K52
    [5, 7, 9, 10, 11, 12, 12, 14, 15, 15],   // K53
    [5, 7, 9, 10, 11, 12, 13, 14, 15, 16],   // K54
    [5, 7, 10, 10, 11, 12, 13, 14, 16, 16],  // K55
    [5, 8, 10, 10, 11, 12, 13, 15, 16, 16],  // K56
    [5, 8, 10, 11, 11, 12, 13, 15, 16, 17],  // K57
    [5, 8, 10, 11, 12, 12, 13, 15, 16, 17],  // K58
    [5, 9, 10, 11, 12, 12, 14, 15, 16, 17],  // K59
    [5, 9, 10, 11, 12, 13, 14, 15, 16, 18],  // K60
    [5, 9, 10, 11, 12, 13, 14, 16, 17, 18],  // K61
    [5, 9, 10, 11, 13, 13, 14, 16, 17, 18],  // K62
    [5, 9, 10, 11, 13, 13, 15, 17, 17, 18],  // K63
    [5, 9, 10, 11, 13, 14, 15, 17, 17, 18],  // K64
    [5, 9, 10, 12, 13, 14, 15, 17, 18, 18],  // K65
    [5, 9, 10, 12, 13, 15, 15, 17, 18, 19],  // K66
    [5, 9, 10, 12, 13, 15, 16, 17, 19, 19],  // K67
    [5, 9, 10, 12, 14, 15, 16, 17, 19, 19],  // K68
    [5, 9, 10, 12, 14, 16, 16, 17, 19, 19],  // K69
    [5, 9, 10, 12, 14, 16, 17, 18, 19, 19],  // K70
    [5, 9, 10, 13, 14, 16, 17, 18, 19, 20],  // K71
    [5, 9, 10, 13, 15, 16, 17, 18, 19, 20],  // K72
    [5, 9, 10, 13, 15, 16, 17, 19, 20, 21],  // K73
    [6, 9, 10, 13, 15, 16, 18, 19, 20, 21],  // K74
    [6, 9, 10, 13, 16, 16, 18, 19, 20, 21],  // K75
    [6, 9, 10, 13, 16, 17, 18, 19, 20, 21],  // K76
    [6, 9, 10, 13, 16, 17, 18, 20, 21, 22],  // K77
    [6, 9, 10, 13, 16, 17, 19, 20, 22, 23],  // K78
    [6, 9, 10, 13, 16, 18, 19, 20, 22, 23],  // K79
    [6, 9, 10, 13, 16, 18, 20, 21, 22, 23],  // K80
    [6, 9, 10, 13, 17, 18, 20, 21, 22, 23],  // K81
    [6, 9, 10, 14, 17, 18, 20, 21, 22, 24],  // K82
    [6, 9, 11, 14, 17, 18, 20, 21, 23, 24],  // K83
    [6, 9, 11, 14, 17, 19, 20, 21, 23, 24],  // K84
    [6, 9, 11, 14, 17, 19, 21, 22, 23, 24],  // K85
    [7, 10, 11, 14, 17, 19, 21, 22, 23, 25], // K86
    [7, 10, 12, 14, 17, 19, 21, 22, 24, 25], // K87
    [7, 10, 12, 14, 18, 19, 21, 22, 24, 25], // K88
    [7, 10, 12, 15, 18, 19, 21, 22, 24, 26], // K89
    [7, 10, 12, 15, 18, 19, 21, 23, 25, 26], // K90
    [7, 11, 13, 15, 18, 19, 21, 23, 25, 26], // K91
    [7, 11, 13, 15, 18, 20, 21, 23, 25, 27], // K92
    [8, 11, 13, 15, 18, 20, 22, 23, 25, 27], // K93
    [8, 11, 13, 16, 18, 20, 22, 23, 25, 28], // K94
    [8, 11, 14, 16, 18, 20, 22, 23, 26, 28], // K95
    [8, 11, 14, 16, 19, 20, 22, 23, 26, 28], // K96
    [8, 12, 14, 16, 19, 20, 22, 24, 26, 28], // K97
    [8, 12, 15, 16, 19, 20, 22, 24, 27, 28], // K98
    [8, 12, 15, 17, 19, 20, 22, 24, 27, 29], // K99
    [8, 12, 15, 18, 19, 20, 22, 24, 27, 30], // K100
];

/// The table value of `key` (clamped to 0..=100) for an adjusted roll.
pub fn rate(key: i64, dice: i64) -> i64 {
    if dice < 3 {
        return 0;
    }
    TABLE[key.clamp(0, 100) as usize][(dice.min(12) - 3) as usize]
}

/// Which edition's grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// ソード・ワールド2.0.
    V20,
    /// ソード・ワールド2.5.
    V25,
}

/// How each round's dice are rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dice {
    /// 2D6.
    Two,
    /// `gf` (グレイテストフォーチュン): one die, doubled.
    Greatest,
    /// `sfN`: one die + N, every round.
    SemiFixed(i64),
    /// `tfN`: one die + N on the first round, then 2D6.
    TmpFixed(i64),
}

/// The first roll's adjustment (`$`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// None.
    None,
    /// `$N`: the first roll is N.
    To(i64),
    /// `$+N`: the first roll + N.
    Modify(i64),
    /// `$~+N`: + N if the first roll is 10 or less.
    ModifyIfTen(i64),
}

/// What the total is multiplied by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// As is.
    One,
    /// `H`: half, rounded up, then + the modifier after.
    Half(i64),
    /// `OH`: ×1.5 rounded up, then + the modifier after.
    OneAndHalf(i64),
    /// `DB`: ×2, then + the modifier after.
    Double(i64),
}

/// A power-table command `Kx…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The key (威力).
    pub key: i64,
    /// The critical value.
    pub critical: i64,
    /// Added to the total.
    pub modifier: i64,
    /// `#`: added to every roll but a 2.
    pub kept: i64,
    /// `$`.
    pub first: First,
    /// `r`: the key's rise per round.
    pub rateup: i64,
    /// `ad`: added per critical.
    pub add_damage: i64,
    /// The dice.
    pub dice: Dice,
    /// `sz`: an adjusted roll ≤ this reads 0.
    pub set_zero: i64,
    /// `H`/`OH`/`DB`.
    pub scale: Scale,
}

/// A Sword World command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `2D6+m cmp t`.
    Check(SumCheck),
    /// `Kx…`.
    Rating(Rating),
    /// `2D6@c+m[>=t]`.
    Transcendent {
        /// The critical value.
        critical: i64,
        /// The modifier.
        modifier: i64,
        /// `>=` or `>` and the target.
        target: Option<(Cmp, i64)>,
    },
}

const AUTO_SUCCESS: Outcome =
    Outcome::succeed("critical", "automatic success", "自動的成功").crit();
const AUTO_FAILURE: Outcome = Outcome::fail("fumble", "automatic failure", "自動的失敗").fumb();
const SUCCESS: Outcome = Outcome::succeed("success", "success", "成功");
const FAILURE: Outcome = Outcome::fail("failure", "failure", "失敗");
const SUPER: Outcome = Outcome::succeed("super_success", "super success", "超成功");
#[doc(hidden)]
pub const K_FUMBLE: Outcome = Outcome::fail("fumble", "automatic failure", "自動的失敗").fumb();
#[doc(hidden)]
pub const K_PLAIN: Outcome = Outcome::fail("no_critical", "no critical", "回転なし").unprinted();
#[doc(hidden)]
pub const K_CRITICAL: Outcome =
    Outcome::fail("critical", "critical (n回転)", "クリティカル（回転）")
        .crit()
        .unprinted();

/// Read a Sword World 2.5 command.
pub fn parse_25(text: &str) -> Result<Option<GameCmd>> {
    parse(text, Version::V25)
}

/// Read a Sword World 2.0 command.
pub fn parse_20(text: &str) -> Result<Option<GameCmd>> {
    parse(text, Version::V20)
}

fn parse(text: &str, version: Version) -> Result<Option<GameCmd>> {
    let wrap = |c| Ok(Some(GameCmd::SwordWorld(c)));
    if let Some(t) = transcendent(text)? {
        return wrap(t);
    }
    if let Some(r) = rating(text, version)? {
        return wrap(Cmd::Rating(r));
    }
    if let Ok(cmd) = crate::systems::dice::parse(text) {
        if let Some(s) = sum_check(&cmd).filter(|s| s.count == 2 && s.sides == 6) {
            return wrap(Cmd::Check(s));
        }
    }
    Ok(None)
}

/// A modifier (or another number of the power table's options) beyond the
/// common notation's bound, [`MAX_CONST`]: refused, exit 2. Within it the
/// law is only moved, never made wider (the report reads it value by
/// value).
fn too_large(text: &str) -> Error {
    Error::param(
        "EXPR",
        text,
        format!("SwordWorld: a modifier is at most {MAX_CONST} in magnitude (as in the common notation)"),
    )
}

/// `2D6?@(\d+)([-+\d]+)?((>=?)(\d+))?`, the rest ignored as BCDice does.
fn transcendent(text: &str) -> Result<Option<Cmd>> {
    let rest = match text
        .strip_prefix("2D6@")
        .or_else(|| text.strip_prefix("2D@"))
    {
        Some(r) => r,
        None => return Ok(None),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Ok(None);
    }
    let critical: i64 = rest[..digits].parse().unwrap_or(i64::MAX);
    let rest = &rest[digits..];
    let m_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'+' || *b == b'-')
        .count();
    let modifier = if m_len == 0 {
        0
    } else {
        parse_constant(&format!("0{}", &rest[..m_len])).map_err(|_| {
            Error::param(
                "EXPR",
                text,
                "SwordWorld 2D6@c: the modifier is whole numbers joined by + and -",
            )
        })?
    };
    let rest = &rest[m_len..];
    let target = if let Some(t) = rest.strip_prefix(">=") {
        number_prefix(t).map(|v| (Cmp::Ge, v))
    } else if let Some(t) = rest.strip_prefix('>') {
        number_prefix(t).map(|v| (Cmp::Gt, v))
    } else {
        None
    };
    if modifier.unsigned_abs() > MAX_CONST as u64 {
        return Err(too_large(text));
    }
    if critical < 3 {
        return Err(Error::param(
            "EXPR",
            text,
            "SwordWorld 2D6@c: クリティカル値が小さすぎます。3以上を指定してください (the critical value is at least 3)",
        ));
    }
    Ok(Some(Cmd::Transcendent {
        critical,
        modifier,
        target,
    }))
}

fn number_prefix(t: &str) -> Option<i64> {
    let n = t.bytes().take_while(u8::is_ascii_digit).count();
    t[..n].parse().ok()
}

/// A little reader for the power table's grammar.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn eat_str(&mut self, s: &str) -> bool {
        if self.s[self.i..].starts_with(s.as_bytes()) {
            self.i += s.len();
            true
        } else {
            false
        }
    }
    fn number(&mut self) -> Option<i64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
    /// unary: (+|-) unary | ( add ) | NUMBER.
    fn unary(&mut self) -> Option<i64> {
        if self.eat(b'+') {
            return self.unary();
        }
        if self.eat(b'-') {
            return self.unary()?.checked_neg();
        }
        if self.eat(b'(') {
            let v = self.add()?;
            return self.eat(b')').then_some(v);
        }
        self.number()
    }
    fn mul(&mut self) -> Option<i64> {
        let mut v = self.unary()?;
        loop {
            if self.eat(b'*') {
                v = v.checked_mul(self.unary()?)?;
            } else if self.eat(b'/') {
                let d = self.unary()?;
                if d == 0 {
                    return None;
                }
                // BCDice's Sword World rounds divisions up.
                v = crate::systems::dice::ast::divide(
                    v,
                    d,
                    crate::systems::dice::ast::Rounding::Ceil,
                );
            } else {
                return Some(v);
            }
        }
    }
    fn add(&mut self) -> Option<i64> {
        let mut v = self.mul()?;
        loop {
            if self.eat(b'+') {
                v = v.checked_add(self.mul()?)?;
            } else if self.eat(b'-') {
                v = v.checked_sub(self.mul()?)?;
            } else {
                return Some(v);
            }
        }
    }
    /// modifier: (+|-) mul, repeated.
    fn modifier(&mut self) -> Option<i64> {
        let mut v = 0i64;
        while let Some(c) = self.peek().filter(|c| *c == b'+' || *c == b'-') {
            self.i += 1;
            let m = self.mul()?;
            v = if c == b'+' {
                v.checked_add(m)?
            } else {
                v.checked_sub(m)?
            };
        }
        Some(v)
    }
    /// After H/OH/DB: a unary if one follows, else 0.
    fn optional_unary(&mut self) -> Option<i64> {
        match self.peek() {
            Some(b'+' | b'-' | b'(') => self.unary(),
            Some(c) if c.is_ascii_digit() => self.unary(),
            _ => Some(0),
        }
    }
}

#[derive(Default)]
struct Options {
    modifier: Option<i64>,
    critical: Option<i64>,
    first: Option<First>,
    half: Option<i64>,
    one_and_half: Option<i64>,
    double: Option<i64>,
    rateup: Option<i64>,
    add_damage: Option<i64>,
    dice: Option<Dice>,
    set_zero: Option<i64>,
    kept: Option<i64>,
}

/// `[H|OH|DB]Kx` and its options; `Ok(None)` when the text is not one.
fn rating(text: &str, version: Version) -> Result<Option<Rating>> {
    let mut r = Reader {
        s: text.as_bytes(),
        i: 0,
    };
    let prefix = if r.eat_str("OH") {
        Some(1)
    } else if r.eat_str("DB") {
        Some(2)
    } else if r.eat(b'H') {
        Some(0)
    } else {
        None
    };
    if !r.eat(b'K') {
        return Ok(None);
    }
    let Some(key) = r.number() else {
        return Ok(None);
    };
    let Some(mut o) = options(&mut r, version) else {
        return Ok(None);
    };
    if r.i != r.s.len() {
        return Ok(None);
    }
    match prefix {
        Some(0) if o.one_and_half.is_none() && o.double.is_none() => {
            o.half.get_or_insert(0);
        }
        Some(1) if o.half.is_none() && o.double.is_none() => {
            o.one_and_half.get_or_insert(0);
        }
        Some(2) if o.half.is_none() && o.one_and_half.is_none() => {
            o.double.get_or_insert(0);
        }
        None => {}
        _ => return Ok(None),
    }
    let scales = [
        o.half.is_some(),
        o.one_and_half.is_some(),
        o.double.is_some(),
    ];
    if scales.iter().filter(|b| **b).count() > 1 {
        return Ok(None);
    }
    let scale = match (o.half, o.one_and_half, o.double) {
        (Some(a), _, _) => Scale::Half(a),
        (_, Some(a), _) => Scale::OneAndHalf(a),
        (_, _, Some(a)) => Scale::Double(a),
        _ => Scale::One,
    };
    let critical = match o.critical {
        Some(c) => c.clamp(0, 13),
        None if matches!(scale, Scale::Half(_) | Scale::OneAndHalf(_)) => 13,
        None => 10,
    };
    let rating = Rating {
        key,
        critical,
        modifier: o.modifier.unwrap_or(0),
        kept: o.kept.unwrap_or(0),
        first: o.first.unwrap_or(First::None),
        rateup: o.rateup.unwrap_or(0),
        add_damage: o.add_damage.unwrap_or(0),
        dice: o.dice.unwrap_or(Dice::Two),
        set_zero: o.set_zero.unwrap_or(0),
        scale,
    };
    let scale_add = match scale {
        Scale::One => 0,
        Scale::Half(a) | Scale::OneAndHalf(a) | Scale::Double(a) => a,
    };
    let biggest = [
        rating.modifier,
        rating.add_damage,
        rating.rateup,
        rating.kept,
        rating.set_zero,
        scale_add,
    ]
    .into_iter()
    .map(i64::unsigned_abs)
    .max()
    .unwrap_or(0);
    if biggest > MAX_CONST as u64 {
        return Err(too_large(text));
    }
    if key > 100 {
        return Err(Error::param(
            "EXPR",
            text,
            "SwordWorld: キーナンバーは100までです (the key is at most 100)",
        ));
    }
    let min = rating.min_critical();
    if critical < min {
        return Err(Error::param(
            "EXPR",
            text,
            format!("SwordWorld: C値を{min}以上にしてください (the critical value must be at least {min}, or the chain never ends)"),
        ));
    }
    Ok(Some(rating))
}

fn options(r: &mut Reader<'_>, version: Version) -> Option<Options> {
    let mut o = Options::default();
    fn once<T>(slot: &mut Option<T>, v: T) -> Option<()> {
        if slot.is_some() {
            return None;
        }
        *slot = Some(v);
        Some(())
    }
    loop {
        match r.peek() {
            None => return Some(o),
            Some(b'+' | b'-') => {
                let m = r.modifier()?;
                once(&mut o.modifier, m)?;
            }
            Some(b'[') => {
                r.i += 1;
                let c = r.unary()?;
                if !r.eat(b']') {
                    return None;
                }
                once(&mut o.critical, c)?;
            }
            Some(b'@') => {
                r.i += 1;
                let c = r.unary()?;
                once(&mut o.critical, c)?;
            }
            Some(b'$') => {
                r.i += 1;
                let f = if r.eat(b'+') {
                    First::Modify(r.number()?)
                } else if r.eat(b'-') {
                    First::Modify(-r.number()?)
                } else if version == Version::V25 && r.eat_str("~+") {
                    First::ModifyIfTen(r.number()?)
                } else {
                    First::To(r.number()?)
                };
                once(&mut o.first, f)?;
            }
            Some(b'H') => {
                r.i += 1;
                let a = r.optional_unary()?;
                once(&mut o.half, a)?;
            }
            Some(b'O') => {
                r.i += 1;
                if !r.eat(b'H') {
                    return None;
                }
                let a = r.optional_unary()?;
                once(&mut o.one_and_half, a)?;
            }
            Some(b'D') => {
                r.i += 1;
                if !r.eat(b'B') {
                    return None;
                }
                let a = r.optional_unary()?;
                once(&mut o.double, a)?;
            }
            Some(b'R') => {
                r.i += 1;
                let v = r.unary()?;
                once(&mut o.rateup, v)?;
            }
            Some(b'A') => {
                r.i += 1;
                if !r.eat(b'D') {
                    return None;
                }
                let v = r.unary()?;
                once(&mut o.add_damage, v)?;
            }
            Some(b'G') => {
                r.i += 1;
                if !r.eat(b'F') {
                    return None;
                }
                once(&mut o.dice, Dice::Greatest)?;
            }
            Some(b'S') => {
                r.i += 1;
                if r.eat(b'F') {
                    let v = r.number()?.clamp(1, 6);
                    once(&mut o.dice, Dice::SemiFixed(v))?;
                } else if r.eat(b'Z') {
                    // sz may be given again: the last one counts.
                    o.set_zero = Some(r.number()?);
                } else {
                    return None;
                }
            }
            Some(b'T') => {
                r.i += 1;
                if !r.eat(b'F') {
                    return None;
                }
                let v = r.number()?.clamp(1, 6);
                once(&mut o.dice, Dice::TmpFixed(v))?;
            }
            Some(b'#') if version == Version::V25 => {
                r.i += 1;
                let v = r.unary()?;
                once(&mut o.kept, v)?;
            }
            _ => return Some(o),
        }
    }
}

impl Rating {
    /// The lowest critical value whose chain ends (BCDice's
    /// `min_critical`).
    pub fn min_critical(&self) -> i64 {
        match self.dice {
            Dice::SemiFixed(v) if v > 1 => (v + self.kept + 2).clamp(3, 13),
            _ => 3,
        }
    }

    /// The raw roll's law in round `k` (the only dice input).
    pub fn raw_law<W: Weight>(&self, k: usize) -> Pmf<W> {
        let d6 = Pmf::<W>::die(6);
        match (self.dice, k) {
            (Dice::Two, _) | (Dice::TmpFixed(_), 1..) => d6.convolve(&d6),
            (Dice::Greatest, _) => d6.map(|x| 2 * x),
            (Dice::SemiFixed(n), _) | (Dice::TmpFixed(n), 0) => d6.map(|x| x + n),
        }
    }

    /// One round on a raw roll: `(table value, goes on, first-round fumble)`.
    pub fn step(&self, k: usize, raw: i64) -> (i64, bool, bool) {
        let (mut raw, mut dice) = (raw, raw);
        if k == 0 {
            match self.first {
                First::None => {}
                First::To(v) => {
                    raw = v;
                    dice = v;
                }
                First::Modify(m) => dice += m,
                First::ModifyIfTen(m) => {
                    if raw <= 10 {
                        dice += m;
                    }
                }
            }
        }
        if raw <= 2 {
            return (0, false, k == 0);
        }
        if self.kept != 0 && dice != 2 {
            dice += self.kept;
        }
        let dice = dice.clamp(2, 12);
        let key = self.key + k as i64 * self.rateup;
        let value = if dice > self.set_zero {
            rate(key, dice)
        } else {
            0
        };
        (value, dice >= self.critical, k == 0 && dice <= 2)
    }

    /// The printed total from the table sum and the criticals.
    pub fn total(&self, table_sum: i64, criticals: i64) -> i64 {
        let t = table_sum + self.modifier + self.add_damage * criticals;
        match self.scale {
            Scale::One => t,
            Scale::Half(a) => (t + 1).div_euclid(2) + a,
            Scale::OneAndHalf(a) => (3 * t + 1).div_euclid(2) + a,
            Scale::Double(a) => 2 * t + a,
        }
    }

    fn roll_raw<F: Faces>(&self, k: usize, faces: &mut F) -> i64 {
        match (self.dice, k) {
            (Dice::Two, _) | (Dice::TmpFixed(_), 1..) => faces.die(6) + faces.die(6),
            (Dice::Greatest, _) => 2 * faces.die(6),
            (Dice::SemiFixed(n), _) | (Dice::TmpFixed(n), 0) => faces.die(6) + n,
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        let mut sum = 0;
        let mut k = 0usize;
        loop {
            let raw = self.roll_raw(k, faces);
            let (v, go, fumble) = self.step(k, raw);
            if fumble {
                return Rolled {
                    value: Some(0),
                    outcome: Some(K_FUMBLE),
                };
            }
            sum += v;
            if !go {
                break;
            }
            k += 1;
        }
        let outcome = if k > 0 { K_CRITICAL } else { K_PLAIN };
        Rolled {
            value: Some(self.total(sum, k as i64)),
            outcome: Some(outcome),
        }
    }

    /// The round's branches: goes on, stops (and the fumble mass in round 0).
    fn round<W: Weight>(&self, k: usize) -> (Pmf<W>, Pmf<W>, W) {
        let (mut go, mut stop, mut fumble) = (Vec::new(), Vec::new(), W::zero());
        for (raw, p) in self.raw_law::<W>(k).iter() {
            if p.is_zero() {
                continue;
            }
            let (v, on, f) = self.step(k, raw);
            if f {
                fumble += p;
            } else if on {
                go.push((v, p.clone()));
            } else {
                stop.push((v, p.clone()));
            }
        }
        (sub_law(go), sub_law(stop), fumble)
    }

    /// The least and greatest value the law can give, counted before any
    /// of its work from the chain's masses and spans ([`chain::cost_stops`]):
    /// the fumble's 0, the first round's totals and those of each round a
    /// critical chain stops in (the total rises with the table's sum).
    /// Refused as [`Rating::law`] refuses a chain past its limits.
    pub fn value_span(&self, tail_eps: f64, exact: bool) -> Result<(i64, i64)> {
        let (go0, stop0, fumble) = self.round::<f64>(0);
        let start = chain::spans(&BTreeMap::from([((), go0)]));
        let (cost, stops) = chain::cost_stops(
            start,
            1,
            &mut |k, _| {
                let (go, stop, _) = self.round::<f64>(k);
                vec![
                    chain::span(&Next::Go(()), &go),
                    chain::span(&Next::Stop, &stop),
                ]
            },
            tail_eps,
            exact,
        );
        cost.check(tail_eps, exact)?;
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        let mut take = |a: i64, b: i64| {
            lo = lo.min(a);
            hi = hi.max(b);
        };
        if fumble > 0.0 {
            take(0, 0);
        }
        if stop0.total() > 0.0 {
            take(self.total(stop0.min(), 0), self.total(stop0.max(), 0));
        }
        for (k, s) in stops.iter().enumerate().skip(1) {
            if let Some((a, b)) = s {
                take(self.total(*a, k as i64), self.total(*b, k as i64));
            }
        }
        Ok(if lo > hi { (0, 0) } else { (lo, hi) })
    }

    /// The exact law.
    pub fn law<W: Weight>(&self, tail_eps: f64) -> Result<GameLaw<W>> {
        let (go0, stop0, fumble) = self.round::<W>(0);
        let what = || {
            format!(
                "K{}@{}: the power table (威力表) rolled again on {}+",
                self.key, self.critical, self.critical
            )
        };
        let chained = chain::run(
            what,
            BTreeMap::from([((), go0)]),
            1,
            |k, _| {
                let (go, stop, _) = self.round::<W>(k);
                vec![(Next::Go(()), go), (Next::Stop, stop)]
            },
            tail_eps,
        )?;
        let mut law = GameLaw::new(&[K_FUMBLE, K_PLAIN, K_CRITICAL]);
        law.add(0, Some(K_FUMBLE), fumble);
        for (s, p) in stop0.iter() {
            law.add(self.total(s, 0), Some(K_PLAIN), p.clone());
        }
        // The criticals' totals gathered densely first (the total rises
        // with the table's sum, so each round's lie between those of its
        // least and greatest sum), each cell added in the same order as
        // one cell at a time: 1,226 rounds of `K100@3` put 1.8·10⁷ masses
        // into 37,000 cells.
        let parts: Vec<(i64, &Pmf<W>)> = chained
            .stopped
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, part)| !part.total().is_zero())
            .map(|(k, part)| (k as i64, part))
            .collect();
        if let (Some(lo), Some(hi)) = (
            parts.iter().map(|(k, p)| self.total(p.min(), *k)).min(),
            parts.iter().map(|(k, p)| self.total(p.max(), *k)).max(),
        ) {
            let mut crit = vec![W::zero(); (hi - lo + 1) as usize];
            for (k, part) in &parts {
                for (s, p) in part.iter() {
                    if !p.is_zero() {
                        crit[(self.total(s, *k) - lo) as usize] += p;
                    }
                }
            }
            for (i, p) in crit.into_iter().enumerate() {
                law.add(lo + i as i64, Some(K_CRITICAL), p);
            }
        }
        law.tail = Some(chained.tail);
        law.judges = false;
        Ok(law)
    }
}

fn sub_law<W: Weight>(pairs: Vec<(i64, W)>) -> Pmf<W> {
    if pairs.is_empty() {
        return Pmf::from_weights(0, vec![W::zero()]);
    }
    Pmf::from_pairs(pairs)
}

/// The 2D6 check's word.
fn check_word(s: &SumCheck, natural: i64) -> Option<Outcome> {
    if natural >= 12 {
        return Some(AUTO_SUCCESS);
    }
    if natural <= 2 {
        return Some(AUTO_FAILURE);
    }
    let (cmp, t) = s.target?;
    Some(if cmp.holds(natural + s.modifier, t) {
        SUCCESS
    } else {
        FAILURE
    })
}

/// 超越判定's word.
fn transcendent_word(
    target: Option<(Cmp, i64)>,
    total: i64,
    groups: usize,
    first: i64,
) -> Option<Outcome> {
    let (cmp, t) = target?;
    Some(if first == 2 {
        AUTO_FAILURE
    } else if first == 12 {
        AUTO_SUCCESS
    } else if cmp.holds(total, t) {
        if groups >= 2 && total >= 41 {
            SUPER
        } else {
            SUCCESS
        }
    } else {
        FAILURE
    })
}

fn two_d6<W: Weight>() -> Pmf<W> {
    let d6 = Pmf::<W>::die(6);
    d6.convolve(&d6)
}

impl Cmd {
    /// The result words of the law and whether it cuts a chain's tail,
    /// known without the law for the commands whose law is a chain of
    /// rolls (the power table, 超越判定); `None` for the 2D6 check, whose
    /// law is read at once.
    pub fn words(&self) -> Option<(Vec<Outcome>, bool)> {
        match self {
            Cmd::Check(_) => None,
            Cmd::Rating(_) => Some((vec![K_FUMBLE, K_PLAIN, K_CRITICAL], true)),
            Cmd::Transcendent { target, .. } => Some((
                if target.is_some() {
                    vec![AUTO_FAILURE, FAILURE, SUCCESS, SUPER, AUTO_SUCCESS]
                } else {
                    Vec::new()
                },
                true,
            )),
        }
    }

    /// The least and greatest value of a chain of rolls' law, counted
    /// before any of its work ([`Rating::value_span`]; 超越判定 from the
    /// spans of its rolls after the first); `None` for the 2D6 check.
    pub fn value_span(&self, tail_eps: f64, exact: bool) -> Result<Option<(i64, i64)>> {
        match self {
            Cmd::Check(_) => Ok(None),
            Cmd::Rating(r) => r.value_span(tail_eps, exact).map(Some),
            Cmd::Transcendent {
                critical, modifier, ..
            } => {
                let c = *critical;
                let d = two_d6::<f64>();
                let part = |keep: &dyn Fn(i64) -> bool| {
                    let (m, lo, hi) = d
                        .iter()
                        .filter(|(v, _)| keep(*v))
                        .fold((0.0, i64::MAX, i64::MIN), |(m, lo, hi), (v, p)| {
                            (m + p, lo.min(v), hi.max(v))
                        });
                    if m > 0.0 {
                        (m, lo, hi)
                    } else {
                        (0.0, 0, 0)
                    }
                };
                let (go, stop) = (part(&|v| v >= c), part(&|v| v < c));
                let (cost, stops) = chain::cost_stops(
                    BTreeMap::from([((), (1.0, 0, 0))]),
                    0,
                    &mut |_, _| vec![(Next::Go(()), go), (Next::Stop, stop)],
                    tail_eps,
                    exact,
                );
                cost.check(tail_eps, exact)?;
                // The rolls after the first, added.
                let (rlo, rhi) = stops
                    .iter()
                    .flatten()
                    .fold((i64::MAX, i64::MIN), |(a, b), (lo, hi)| {
                        (a.min(*lo), b.max(*hi))
                    });
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for first in 2..=12 {
                    let (a, b) = if first == 2 || first < c {
                        (first, first)
                    } else if rlo <= rhi {
                        (first + rlo, first + rhi)
                    } else {
                        continue;
                    };
                    lo = lo.min(a + modifier);
                    hi = hi.max(b + modifier);
                }
                Ok(Some((lo, hi)))
            }
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        match self {
            Cmd::Check(s) => {
                let n = faces.die(6) + faces.die(6);
                Rolled {
                    value: Some(n + s.modifier),
                    outcome: check_word(s, n),
                }
            }
            Cmd::Rating(r) => r.roll(faces),
            Cmd::Transcendent {
                critical,
                modifier,
                target,
            } => {
                let first = faces.die(6) + faces.die(6);
                let mut sum = first;
                let mut groups = 1;
                let mut last = first;
                if first != 2 {
                    while last >= *critical {
                        last = faces.die(6) + faces.die(6);
                        sum += last;
                        groups += 1;
                    }
                }
                let total = sum + modifier;
                Rolled {
                    value: Some(total),
                    outcome: transcendent_word(*target, total, groups, first),
                }
            }
        }
    }

    /// The exact law.
    pub fn law<W: Weight>(&self, tail_eps: f64) -> Result<GameLaw<W>> {
        match self {
            Cmd::Check(s) => {
                let words: &[Outcome] = if s.target.is_some() {
                    &[AUTO_FAILURE, FAILURE, SUCCESS, AUTO_SUCCESS]
                } else {
                    &[AUTO_FAILURE, AUTO_SUCCESS]
                };
                let mut law = GameLaw::new(words);
                for (n, p) in two_d6::<W>().iter() {
                    law.add(n + s.modifier, check_word(s, n), p.clone());
                }
                Ok(law)
            }
            Cmd::Rating(r) => r.law(tail_eps),
            Cmd::Transcendent {
                critical,
                modifier,
                target,
            } => {
                let c = *critical;
                let d = two_d6::<W>();
                // After the first roll: 2D6 again while the last sum ≥ c.
                let rest = chain::simple(
                    || format!("2D6@{c}: 超越判定 rolled again on {c}+"),
                    |_| {
                        let go = sub_law(
                            d.iter()
                                .filter(|(v, _)| *v >= c)
                                .map(|(v, p)| (v, p.clone()))
                                .collect(),
                        );
                        let stop = sub_law(
                            d.iter()
                                .filter(|(v, _)| *v < c)
                                .map(|(v, p)| (v, p.clone()))
                                .collect(),
                        );
                        (go, stop)
                    },
                    tail_eps,
                )?;
                let rest_all = rest.sum_over(|_| true);
                let words: &[Outcome] = if target.is_some() {
                    &[AUTO_FAILURE, FAILURE, SUCCESS, SUPER, AUTO_SUCCESS]
                } else {
                    &[]
                };
                let mut law = GameLaw::new(words);
                let mut tail = W::zero();
                for (first, p) in d.iter() {
                    if first == 2 || first < c {
                        let total = first + modifier;
                        law.add(
                            total,
                            transcendent_word(*target, total, 1, first),
                            p.clone(),
                        );
                    } else {
                        tail += p.clone() * &rest.tail;
                        for (t, q) in rest_all.iter() {
                            let total = first + t + modifier;
                            law.add(
                                total,
                                transcendent_word(*target, total, 2, first),
                                p.clone() * q,
                            );
                        }
                    }
                }
                law.tail = Some(tail);
                Ok(law)
            }
        }
    }
}
