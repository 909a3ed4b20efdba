//! BCDice game-system commands, exactly (`hantei odds dice CMD --game ID`,
//! ゲームシステム別コマンド).
//!
//! The registry: each game's id as BCDice spells it (looked up
//! case-insensitively; an unknown id is named with the nearest one), its
//! commands, and the text of `--list-games`. One file per game; each reads
//! its syntax into a typed command with
//!
//! - a **plain rule** ([`GameCmd::roll`]): given the dice faces in BCDice's
//!   roll order, the value BCDice prints last, its result words and its
//!   success/critical/fumble flags (replayed against BCDice's own test
//!   data in `tests/peer_games.rs`), and
//! - an **exact law** ([`GameCmd::law`]): a front end of the dice engine.
//!   The dice a game reads come from the pool engine
//!   ([`crate::systems::dice::pool`]: [`facts`] for one pool's total with
//!   its counts, maximum or minimum — Arianrhod, Log Horizon, Meikyu
//!   Kingdom, Nechronica, Amadeus, Satasupe; `pool::facts_by_size` for
//!   Double Cross's groups of every size; the sum and keep laws
//!   `law::sum_of` / `law::keep` for 2D6 and Shinobigami's keep-two), and
//!   the planner's chain of rounds (振り足し,
//!   [`crate::systems::dice::pool::chain`]: a roll repeated while a
//!   condition holds, with a lookup per round — Sword World's power table,
//!   Double Cross, Night Wizard — cut below `--tail-eps`) and [`tens`]
//!   (tens dice against one ones die, CoC). The
//!   game file reads its syntax, builds these, and judges each cell with
//!   BCDice's words; it computes no dice law of its own.
//!
//! As in BCDice, a game also changes what its plain `xD6` sums mean (Sword
//! World's `2D6+m>=t` with automatic success on 12 and failure on 2):
//! [`sum_check`] recognises those; any other common command keeps its
//! plain meaning ([`crate::systems::dice`]).

pub mod amadeus;
pub mod arianrhod;
pub mod cthulhu;
pub mod cthulhu7th;
pub mod double_cross;
pub mod emoklore;
pub mod facts;
pub mod insane;
pub mod log_horizon;
pub mod meikyu_kingdom;
pub mod nechronica;
pub mod night_wizard;
pub mod ryutama;
pub mod satasupe;
pub mod shinobigami;
pub mod sword_world;
pub mod tens;

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::report::{Field, OutcomeRow, Report};
use crate::weight::AddWeight;
use crate::weight::Weight;

use super::ast::{Body, Cmp, Node};
use super::roll::Faces;

/// One of BCDice's result words with the flags BCDice sets for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Machine key (JSON).
    pub key: &'static str,
    /// English name.
    pub en: &'static str,
    /// BCDice's own word.
    pub ja: &'static str,
    /// BCDice's success flag.
    pub success: bool,
    /// BCDice's critical flag.
    pub critical: bool,
    /// BCDice's fumble flag.
    pub fumble: bool,
    /// Whether BCDice prints the word (false: ours, for a state BCDice
    /// marks only with a flag, like Sword World's 回転).
    pub printed: bool,
}

impl Outcome {
    /// A word with no flag but failure.
    pub const fn fail(key: &'static str, en: &'static str, ja: &'static str) -> Outcome {
        Outcome {
            key,
            en,
            ja,
            success: false,
            critical: false,
            fumble: false,
            printed: true,
        }
    }
    /// A success word.
    pub const fn succeed(key: &'static str, en: &'static str, ja: &'static str) -> Outcome {
        Outcome {
            success: true,
            ..Outcome::fail(key, en, ja)
        }
    }
    /// With the critical flag.
    pub const fn crit(self) -> Outcome {
        Outcome {
            critical: true,
            ..self
        }
    }
    /// A word BCDice does not print.
    pub const fn unprinted(self) -> Outcome {
        Outcome {
            printed: false,
            ..self
        }
    }
    /// With the fumble flag.
    pub const fn fumb(self) -> Outcome {
        Outcome {
            fumble: true,
            ..self
        }
    }
}

/// What one roll of a game command came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// The value BCDice prints last (`None`: no roll, e.g. 自動成功).
    pub value: Option<i64>,
    /// The result word and its flags (`None`: BCDice prints no word).
    pub outcome: Option<Outcome>,
}

/// The exact law of a game command: the joint law of the printed value and
/// the result word.
#[derive(Clone, Debug)]
pub struct GameLaw<W> {
    /// The result words, worst first.
    pub outcomes: Vec<Outcome>,
    /// `(value, word index)` → probability.
    pub cells: BTreeMap<(i64, Option<usize>), W>,
    /// Whether BCDice prints a value (false for 自動成功 and the like).
    pub prints_value: bool,
    /// The mass cut from a chain (`None`: no chain).
    pub tail: Option<W>,
    /// Whether BCDice judges success at all (false for Sword World's
    /// power table, which only flags criticals and fumbles).
    pub judges: bool,
}

impl<W: Weight> GameLaw<W> {
    /// An empty law over these words.
    pub fn new(outcomes: &[Outcome]) -> Self {
        GameLaw {
            outcomes: outcomes.to_vec(),
            cells: BTreeMap::new(),
            prints_value: true,
            tail: None,
            judges: !outcomes.is_empty(),
        }
    }

    /// Add `p` to the cell of `value` judged `word`.
    pub fn add(&mut self, value: i64, word: Option<Outcome>, p: W) {
        if p.is_zero() {
            return;
        }
        let i = word.map(|w| self.index(w));
        self.cells.entry((value, i)).add_weight(p);
    }

    fn index(&mut self, w: Outcome) -> usize {
        match self.outcomes.iter().position(|o| *o == w) {
            Some(i) => i,
            None => {
                self.outcomes.push(w);
                self.outcomes.len() - 1
            }
        }
    }

    /// The law of a value judged by a function of the value alone.
    pub fn judged(
        outcomes: &[Outcome],
        value: &Pmf<W>,
        judge: impl Fn(i64) -> Option<Outcome>,
    ) -> Self {
        let mut law = GameLaw::new(outcomes);
        for (v, p) in value.iter() {
            law.add(v, judge(v), p.clone());
        }
        law
    }

    /// The printed value's law, value by value (sparse: the values of a
    /// game law may lie far apart, a fumble's 0 and a modifier's 10¹³).
    pub fn value_map(&self) -> BTreeMap<i64, W> {
        let mut m: BTreeMap<i64, W> = BTreeMap::new();
        for ((v, _), p) in &self.cells {
            m.entry(*v).add_weight(p.clone());
        }
        m
    }

    /// The printed value's law (dense: for laws of a narrow range).
    pub fn values(&self) -> Pmf<W> {
        Pmf::from_pairs(self.cells.iter().map(|((v, _), p)| (*v, p.clone())))
    }

    /// P(word) for each word, in `outcomes` order.
    pub fn word_probs(&self) -> Vec<W> {
        let mut out = vec![W::zero(); self.outcomes.len()];
        for ((_, i), p) in &self.cells {
            if let Some(i) = i {
                out[*i] += p;
            }
        }
        out
    }

    /// P(flag) over the words.
    pub fn p_flag(&self, flag: impl Fn(&Outcome) -> bool) -> W {
        self.cells
            .iter()
            .filter(|((_, i), _)| i.is_some_and(|i| flag(&self.outcomes[i])))
            .fold(W::zero(), |a, (_, p)| a + p)
    }
}

/// A parsed game command.
#[derive(Clone, Debug, PartialEq)]
pub enum GameCmd {
    /// Call of Cthulhu 7th.
    Cthulhu7th(cthulhu7th::Cmd),
    /// Call of Cthulhu 6th.
    Cthulhu(cthulhu::Cmd),
    /// Sword World 2.0 / 2.5.
    SwordWorld(sword_world::Cmd),
    /// Double Cross.
    DoubleCross(double_cross::Cmd),
    /// ShinobiGami.
    ShinobiGami(shinobigami::Cmd),
    /// Insane.
    Insane(insane::Cmd),
    /// Emoklore.
    Emoklore(emoklore::Cmd),
    /// Arianrhod.
    Arianrhod(arianrhod::Cmd),
    /// Log Horizon.
    LogHorizon(log_horizon::Cmd),
    /// Meikyu Kingdom.
    MeikyuKingdom(meikyu_kingdom::Cmd),
    /// Nechronica.
    Nechronica(nechronica::Cmd),
    /// Night Wizard 3rd.
    NightWizard(night_wizard::Cmd),
    /// Satasupe.
    Satasupe(satasupe::Cmd),
    /// Ryutama.
    Ryutama(ryutama::Cmd),
    /// Amadeus.
    Amadeus(amadeus::Cmd),
}

impl GameCmd {
    /// The plain rule: one roll with `faces`, in BCDice's order.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        match self {
            GameCmd::Cthulhu7th(c) => c.roll(faces),
            GameCmd::Cthulhu(c) => c.roll(faces),
            GameCmd::SwordWorld(c) => c.roll(faces),
            GameCmd::DoubleCross(c) => c.roll(faces),
            GameCmd::ShinobiGami(c) => c.roll(faces),
            GameCmd::Insane(c) => c.roll(faces),
            GameCmd::Emoklore(c) => c.roll(faces),
            GameCmd::Arianrhod(c) => c.roll(faces),
            GameCmd::LogHorizon(c) => c.roll(faces),
            GameCmd::MeikyuKingdom(c) => c.roll(faces),
            GameCmd::Nechronica(c) => c.roll(faces),
            GameCmd::NightWizard(c) => c.roll(faces),
            GameCmd::Satasupe(c) => c.roll(faces),
            GameCmd::Ryutama(c) => c.roll(faces),
            GameCmd::Amadeus(c) => c.roll(faces),
        }
    }

    /// The result words of its law and whether the law cuts a chain's
    /// tail, where they are known without the law (a chain of rolls, whose
    /// law takes seconds: Sword World's power table and 超越判定, Double
    /// Cross); `None` for the others, read from their law.
    pub fn words(&self) -> Option<(Vec<Outcome>, bool)> {
        match self {
            GameCmd::SwordWorld(c) => c.words(),
            GameCmd::DoubleCross(c) => Some(c.words()),
            _ => None,
        }
    }

    /// The least and greatest value of its law, where they are counted
    /// before the law's work (a chain of rolls: Sword World's power table
    /// and 超越判定, Double Cross, from the chain's spans); refused as the
    /// law would be when the chain is past its limits. `None` for the
    /// others.
    pub fn value_span(&self, tail_eps: f64, exact: bool) -> Result<Option<(i64, i64)>> {
        match self {
            GameCmd::SwordWorld(c) => c.value_span(tail_eps, exact),
            GameCmd::DoubleCross(c) => c.value_span(tail_eps, exact).map(Some),
            _ => Ok(None),
        }
    }

    /// The exact law (chains cut below `tail_eps`).
    pub fn law<W: Weight>(&self, tail_eps: f64) -> Result<GameLaw<W>> {
        match self {
            GameCmd::Cthulhu7th(c) => Ok(c.law()),
            GameCmd::Cthulhu(c) => Ok(c.law()),
            GameCmd::SwordWorld(c) => c.law(tail_eps),
            GameCmd::DoubleCross(c) => c.law(tail_eps),
            GameCmd::ShinobiGami(c) => c.law(),
            GameCmd::Insane(c) => c.law(),
            GameCmd::Emoklore(c) => c.law(),
            GameCmd::Arianrhod(c) => c.law(),
            GameCmd::LogHorizon(c) => c.law(),
            GameCmd::MeikyuKingdom(c) => c.law(),
            GameCmd::Nechronica(c) => c.law(),
            GameCmd::NightWizard(c) => c.law(tail_eps),
            GameCmd::Satasupe(c) => c.law(),
            GameCmd::Ryutama(c) => c.law(),
            GameCmd::Amadeus(c) => c.law(),
        }
    }
}

/// A game system: its BCDice id, name and commands.
pub struct Game {
    /// BCDice's id (`Cthulhu7th`, `SwordWorld2.5`).
    pub id: &'static str,
    /// Japanese name.
    pub ja: &'static str,
    /// The commands it accepts (one line).
    pub commands: &'static str,
    parse: fn(&str) -> Result<Option<GameCmd>>,
    /// How the game rewrites a common command before reading it (`8D` is
    /// `8D10` in Double Cross).
    plain: fn(&str) -> String,
}

fn as_is(text: &str) -> String {
    text.to_string()
}

/// BCDice's `>=?` (target unknown): the common command with no target.
fn no_target(text: &str) -> String {
    text.strip_suffix(">=?").unwrap_or(text).to_string()
}

/// Every complete game, in the order of the issue.
pub const GAMES: &[Game] = &[
    Game {
        id: "Cthulhu7th",
        ja: "新クトゥルフ神話TRPG",
        commands: "CC, CC(x)<=s[r|h|e|c], CC±x<=s, CBR(x,y)",
        parse: cthulhu7th::parse,
        plain: as_is,
    },
    Game {
        id: "Cthulhu",
        ja: "クトゥルフ神話TRPG",
        commands: "CC<=s, CCB<=s, CC(n)<=s, CCB(n)<=s, CBR(x,y), CBRB(x,y), RES(a-b), RESB(a-b)",
        parse: cthulhu::parse,
        plain: as_is,
    },
    Game {
        id: "SwordWorld2.5",
        ja: "ソード・ワールド2.5",
        commands: "2D6+m>=t, Kx[+m][@c][$f|$+a|$~+a][#a][rN][gf|sfN|tfN][szN][adN][H|OH|DB], 2D6@c+m>=t (超越判定)",
        parse: sword_world::parse_25,
        plain: as_is,
    },
    Game {
        id: "SwordWorld2.0",
        ja: "ソード・ワールド2.0",
        commands: "2D6+m>=t, Kx[+m][@c][$f|$+a][rN][gf|sfN|tfN][szN][adN][H|OH|DB], 2D6@c+m>=t (超越判定)",
        parse: sword_world::parse_20,
        plain: as_is,
    },
    Game {
        id: "DoubleCross",
        ja: "ダブルクロス2nd,3rd",
        commands: "nDX[+m][@c][>=t], nDXc[+m][>=t] (nD is nD10)",
        parse: double_cross::parse,
        plain: double_cross::plain,
    },
    Game {
        id: "ShinobiGami",
        ja: "シノビガミ",
        commands: "[n]SG[+m][@s][#f][>=x], 2D6+m>=x (スペシャル 12, ファンブル 2)",
        parse: shinobigami::parse,
        plain: as_is,
    },
    Game {
        id: "Insane",
        ja: "インセイン",
        commands: "2D6+m>=x (スペシャル 12, ファンブル 2)",
        parse: insane::parse,
        plain: as_is,
    },
    Game {
        id: "Emoklore",
        ja: "エモクロアTRPG",
        commands: "[x]DM<=y[Ez] (技能値判定), sDAa[+z] (取得技能判定; s = 1–3 or B)",
        parse: emoklore::parse,
        plain: as_is,
    },
    Game {
        id: "Arianrhod",
        ja: "アリアンロッドRPG",
        commands: "nD6+m>=t, nD6+m>=? (ファンブル all 1s, クリティカル(+kD6) two or more 6s)",
        parse: arianrhod::parse,
        plain: as_is,
    },
    Game {
        id: "LogHorizon",
        ja: "ログ・ホライズンTRPG",
        commands: "xLH[±y][>=z] (クリティカル！ two or more 6s, ファンブル！ all 1s)",
        parse: log_horizon::parse,
        plain: as_is,
    },
    Game {
        id: "MeikyuKingdom",
        ja: "迷宮キングダム",
        commands: "nMK[±m][>=t] (also nMK6, nR6; two highest dice), 2D6+m>=t (絶対成功 12, 絶対失敗 2)",
        parse: meikyu_kingdom::parse,
        plain: no_target,
    },
    Game {
        id: "Nechronica",
        ja: "ネクロニカ",
        commands: "nNC[±m] (判定), nNA[±m] (攻撃判定), nR10[±m][[1]], 1D10+m>=t",
        parse: nechronica::parse,
        plain: no_target,
    },
    Game {
        id: "NightWizard3rd",
        ja: "ナイトウィザード The 3rd Edition",
        commands: "[a]NW[±b][@x,…][#y,…][$z][±c][>=t], 2R6M[b,c]C[x,…]F[y,…][>=t]",
        parse: night_wizard::parse,
        plain: as_is,
    },
    Game {
        id: "Satasupe",
        ja: "サタスペ",
        commands: "nR>=x[y,z,c[S]] (n rolls, 難易度 x, 目標成功度 y, ファンブル率 z, 必殺 c)",
        parse: satasupe::parse,
        plain: as_is,
    },
    Game {
        id: "Ryutama",
        ja: "りゅうたま",
        commands: "Rx[,y][±m][>=t] (x, y in 2, 4, 6, 8, 10, 12, 20; R86 is R8,6)",
        parse: ryutama::parse,
        plain: as_is,
    },
    Game {
        id: "Amadeus",
        ja: "アマデウス",
        commands: "R{S|A|B|C|D}[±m][@s][>=t|>t] (each die judged; 4/3/2/1 dice, D the lower of 2)",
        parse: amadeus::parse,
        plain: as_is,
    },
];

/// Abbreviations players use for the games (`coc`, `sw`, `dx`…): an
/// unknown id equal to one is answered with its game.
#[doc(hidden)]
pub const ABBREVIATIONS: &[(&str, &str)] = &[
    ("coc", "Cthulhu7th"),
    ("coc7", "Cthulhu7th"),
    ("coc6", "Cthulhu"),
    ("sw", "SwordWorld2.5"),
    ("sw25", "SwordWorld2.5"),
    ("sw2.5", "SwordWorld2.5"),
    ("sw20", "SwordWorld2.0"),
    ("sw2.0", "SwordWorld2.0"),
    ("dx", "DoubleCross"),
    ("dx3", "DoubleCross"),
    ("sg", "ShinobiGami"),
    ("lh", "LogHorizon"),
    ("mk", "MeikyuKingdom"),
    ("nc", "Nechronica"),
    ("nw", "NightWizard3rd"),
    ("nw3", "NightWizard3rd"),
];

/// The id to suggest for an unknown `key` (lower case): a known
/// abbreviation, else the first id it begins, else the first id holding
/// it, else the nearest by edit distance.
pub fn nearest(key: &str) -> &'static str {
    if let Some((_, id)) = ABBREVIATIONS.iter().find(|(a, _)| *a == key) {
        return id;
    }
    let lower = |g: &Game| g.id.to_ascii_lowercase();
    if !key.is_empty() {
        if let Some(g) = GAMES.iter().find(|g| lower(g).starts_with(key)) {
            return g.id;
        }
        if let Some(g) = GAMES.iter().find(|g| lower(g).contains(key)) {
            return g.id;
        }
    }
    GAMES
        .iter()
        .min_by_key(|g| crate::error::edit_distance(&lower(g), key))
        .map(|g| g.id)
        .unwrap_or("Cthulhu7th")
}

/// The game of `id` (case-insensitive); an unknown id is named with the
/// nearest one ([`nearest`]).
pub fn find(id: &str) -> Result<&'static Game> {
    let key = id.trim().to_ascii_lowercase();
    if let Some(g) = GAMES.iter().find(|g| g.id.to_ascii_lowercase() == key) {
        return Ok(g);
    }
    let nearest = nearest(&key);
    Err(Error::param(
        "--game",
        id,
        format!(
            "not a game hantei knows; did you mean {nearest}? (hantei odds dice --list-games lists them)"
        ),
    ))
}

/// The text of `hantei odds dice --list-games`.
pub fn list_text() -> String {
    let mut s = String::from("game (--game)   名前   commands\n");
    for g in GAMES {
        s.push_str(&format!("{}   {}   {}\n", g.id, g.ja, g.commands));
    }
    s.push_str("Every game also takes BCDice's common commands (xDy, xBy, xRy, xUy, D66).\n");
    s
}

/// A command read under a game: the game's own, or a common command.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    /// The game's command.
    Game(GameCmd),
    /// A common command with its plain meaning.
    Plain(super::Command),
}

impl Game {
    /// The game's own command `text` (not a common one), if it is one.
    pub fn own(&self, text: &str) -> Result<Option<GameCmd>> {
        let text = super::parse::normalize_width(text.trim()).to_ascii_uppercase();
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Ok(None);
        }
        (self.parse)(&text)
    }

    /// Read `expr` as this game reads it. A command neither the game nor
    /// the common bot knows is refused naming the game and its commands.
    /// A chain (`A -> COND: B; C`) is read whole, its stages as the game
    /// reads them ([`super::parse::parse_in`]).
    pub fn parse(&'static self, expr: &str) -> Result<Parsed> {
        if super::chained::is_chain(expr) {
            return super::parse::parse_in(expr, Some(self)).map(Parsed::Plain);
        }
        let text = super::parse::normalize_width(expr.trim()).to_ascii_uppercase();
        // BCDice reads the command up to its first space.
        let text = text.split_whitespace().next().unwrap_or("").to_string();
        let refuse = || {
            Error::param(
                "EXPR",
                expr,
                format!(
                    "not a {} command: it accepts {} and BCDice's common commands (xDy, xBy, xRy, xUy, D66)",
                    self.id, self.commands
                ),
            )
        };
        if text.is_empty() {
            return Err(refuse());
        }
        if let Some(cmd) = (self.parse)(&text)? {
            return Ok(Parsed::Game(cmd));
        }
        // A leading S is BCDice's secret roll.
        if let Some(rest) = text.strip_prefix('S') {
            if let Some(cmd) = (self.parse)(rest)? {
                return Ok(Parsed::Game(cmd));
            }
        }
        match super::parse(&(self.plain)(&text)) {
            Ok(c) => Ok(Parsed::Plain(c)),
            Err(_) => Err(refuse()),
        }
    }
}

/// A plain `xDy` sum with additive modifiers: `count`, `sides`, the
/// modifier and the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumCheck {
    /// Number of dice.
    pub count: i64,
    /// Sides.
    pub sides: i64,
    /// What is added to the dice's sum.
    pub modifier: i64,
    /// The comparison, if any.
    pub target: Option<(Cmp, i64)>,
}

/// `xDy+m cmp t`: one unfiltered dice term whose sum enters the
/// expression with coefficient 1 (checked on every value it can take).
pub fn sum_check(cmd: &super::Command) -> Option<SumCheck> {
    let Body::Add(a) = &cmd.body else {
        return None;
    };
    let terms = a.expr.terms();
    let [t] = terms.as_slice() else {
        return None;
    };
    let super::ast::DieFaces::Standard(sides) = t.faces else {
        return None;
    };
    if t.filter.is_some() || t.count < 1 || t.count > 100 || sides < 1 {
        return None;
    }
    let m = eval_with(&a.expr, 0)?;
    for x in t.count..=t.count * sides {
        if eval_with(&a.expr, x)? != x + m {
            return None;
        }
    }
    Some(SumCheck {
        count: t.count,
        sides,
        modifier: m,
        target: a.target,
    })
}

fn eval_with(n: &Node, x: i64) -> Option<i64> {
    match n {
        Node::Num(v) => Some(*v),
        Node::Pool(t) if t.is_plain() => Some(x),
        Node::Neg(b) => eval_with(b, x)?.checked_neg(),
        Node::Paren(b) => eval_with(b, x),
        Node::Bin(op, a, b) => op.apply(eval_with(a, x)?, eval_with(b, x)?),
        // The pool engine's terms are no plain xD6 sum.
        Node::Pool(_) | Node::Group(_) | Node::Chain(_) => None,
    }
}

/// The report of a game command.
pub fn report<W: Weight>(
    game: &Game,
    cmd: &GameCmd,
    expr: &str,
    tail_eps: f64,
) -> Result<Report<W>> {
    if !(tail_eps > 0.0 && tail_eps < 1e-3) {
        return Err(Error::param(
            "--tail-eps",
            tail_eps,
            "allowed above 0 and below 0.001",
        ));
    }
    let law = cmd.law::<W>(tail_eps)?;
    let probs = law.word_probs();
    let has_words = !law.outcomes.is_empty();
    let p_success = law.p_flag(|o| o.success);
    let mut report = if law.judges {
        Report::bare(super::ID, super::JA, p_success.clone())
    } else {
        Report::bare(super::ID, super::JA, W::zero()).without_success()
    };
    report.outcomes = law
        .outcomes
        .iter()
        .zip(probs)
        .map(|(o, p)| OutcomeRow::new(o.key, o.en, o.ja, p))
        .collect();
    report = report.param("expr", expr.trim()).param("game", game.id);
    if law.tail.is_some() {
        report = report.param("tail_eps", tail_eps);
    }
    if law.prints_value {
        // Sparse: a modifier only moves the values (K0+9999999999999 puts
        // the fumble's 0 and the rest 10¹³ apart), so no dense law is built.
        let values = law.value_map();
        report = report.field(
            "distribution",
            Field::Object(
                values
                    .iter()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(x, w)| (x.to_string(), Field::Prob(w.clone())))
                    .collect(),
            ),
        );
        let total = values.values().fold(W::zero(), |a, p| a + p);
        if !total.is_zero() {
            // Moments about the smallest value, so a large modifier costs
            // no floating-point digits of the variance.
            let x0 = values.keys().next().copied().unwrap_or(0);
            let shifted = values
                .iter()
                .fold(W::zero(), |a, (x, p)| a + W::int(x - x0) * p)
                / &total;
            let var = values.iter().fold(W::zero(), |a, (x, p)| {
                let d = W::int(x - x0) - &shifted;
                a + d.clone() * &d * p
            }) / &total;
            let mean = shifted + &W::int(x0);
            let sd = var.to_f64().max(0.0).sqrt();
            report = report
                .field("mean", Field::Value(mean))
                .field("variance", Field::Value(var.clone()));
            // With --exact: a fraction when the variance is a square, else
            // the decimal rounded to 15 significant digits (the README's
            // rule for every `sd`), as the common commands print it.
            report = if W::EXACT {
                report.field("sd", Field::Root(var))
            } else {
                report.field("sd", Field::Value(W::from_f64(sd)))
            };
        }
    } else {
        report = report.note("BCDice rolls no dice here: the result is decided by the numbers");
    }
    if has_words {
        report = report
            .prob("p_critical", law.p_flag(|o| o.critical))
            .prob("p_fumble", law.p_flag(|o| o.fumble));
    }
    if let Some(tail) = law.tail {
        if tail.to_f64() > 0.0 {
            report = report.note(format!(
                "the chain of rolls is cut where less than {tail_eps:e} of the probability is left: {} is not shown (tail_mass)",
                crate::export::percent(tail.to_f64())
            ));
        }
        report = report.prob("tail_mass", tail);
    }
    Ok(report)
}
