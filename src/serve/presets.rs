//! `/api/presets`: the checks the explorer's pickers load (プリセット).
//!
//! * **Mechanics** — every Western mechanic W1–W24 as `docs/mechanics.md`
//!   types it: the first `$ hantei odds dice …` line of each `## Wn.`
//!   section, read from the page itself (embedded at build time), so the
//!   explorer loads exactly the commands that `cargo test` runs and
//!   compares (`tests/guide.rs`). Nothing is typed twice.
//! * **Chained rolls** — every command of the page's "Chained rolls"
//!   section (attack → damage, a round to 30 HP, DX3 達成値 → ダメージ, …),
//!   titled by [`CHAIN_TITLES`].
//! * **Games** — each BCDice game system's main checks ([`GAME_PRESETS`]),
//!   run with `--game ID`; a test holds every game of
//!   [`crate::systems::dice::games::GAMES`] to at least one.
//!
//! A preset carries its command line and the same request as query pairs
//! (`expr`, `tier`, `game`, …), read by the CLI's own clap definition, so
//! the page fills its controls with what the command line means.

use std::sync::OnceLock;

use clap::parser::ValueSource;
use clap::{ArgAction, Command};
use serde::Serialize;

const MECHANICS_MD: &str = include_str!("../../docs/mechanics.md");

/// One preset of the dice system.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    /// Stable id (`W4`, `Cthulhu7th-1`): the picker's value.
    pub id: String,
    /// `mechanics` or `game`.
    pub group: &'static str,
    /// The game id for a game preset (`Cthulhu7th`).
    pub game: Option<&'static str>,
    /// English title.
    pub title: String,
    /// Japanese title.
    pub title_ja: String,
    /// One line on what it reads (English, from the page or the table).
    pub about: String,
    /// The command line (`hantei odds dice …`).
    pub command: String,
    /// The request as query pairs, in command-line order.
    pub pairs: Vec<(String, String)>,
}

/// A game's main checks: (game id, command, English title, Japanese title).
pub const GAME_PRESETS: &[(&str, &str, &str, &str)] = &[
    (
        "Cthulhu7th",
        "CC<=50",
        "skill roll, skill 50",
        "技能ロール (技能値50)",
    ),
    (
        "Cthulhu7th",
        "CC(1)<=50",
        "one bonus die",
        "ボーナス・ダイス1個",
    ),
    (
        "Cthulhu7th",
        "CC(-1)<=50",
        "one penalty die",
        "ペナルティ・ダイス1個",
    ),
    (
        "Cthulhu7th",
        "CC<=50h",
        "hard success needed",
        "ハード成功が必要",
    ),
    (
        "Cthulhu7th",
        "CBR(50,40)",
        "combined roll",
        "組み合わせロール",
    ),
    (
        "Cthulhu",
        "CCB<=50",
        "skill roll (1–5 critical, 96–100 fumble)",
        "技能ロール (CCB)",
    ),
    (
        "Cthulhu",
        "CC<=50",
        "skill roll (1 critical, 100 fumble)",
        "技能ロール (CC)",
    ),
    (
        "Cthulhu",
        "RES(12-10)",
        "resistance roll, 12 against 10",
        "抵抗表ロール",
    ),
    (
        "SwordWorld2.5",
        "2D6+4>=10",
        "check, +4 against 10",
        "行為判定 (+4、目標値10)",
    ),
    (
        "SwordWorld2.5",
        "K20+5@10",
        "power 20 damage, critical 10",
        "威力表 K20 (C値10)",
    ),
    (
        "SwordWorld2.5",
        "K30+8@9",
        "power 30 damage, critical 9",
        "威力表 K30 (C値9)",
    ),
    (
        "SwordWorld2.0",
        "K20+5@10",
        "power 20 damage, critical 10",
        "威力表 K20 (C値10)",
    ),
    (
        "DoubleCross",
        "10DX7+4",
        "10 dice, critical 7, +4",
        "10個のダイス、C値7、+4",
    ),
    (
        "DoubleCross",
        "5DX+2>=10",
        "5 dice against difficulty 10",
        "5個のダイス、難易度10",
    ),
    (
        "ShinobiGami",
        "2D6>=5",
        "check against 5",
        "行為判定 (目標値5)",
    ),
    ("Insane", "2D6>=5", "check against 5", "行為判定 (目標値5)"),
    (
        "Emoklore",
        "2DM<=6",
        "2 dice, skill value 6",
        "技能値判定 (2ダイス、判定値6)",
    ),
    (
        "Emoklore",
        "1DA3",
        "acquired skill, level 1, ability 3",
        "取得技能判定 (技能レベル1、能力値3)",
    ),
    (
        "Arianrhod",
        "2D6+4>=10",
        "check, +4 against 10",
        "判定 (+4、目標値10)",
    ),
    (
        "LogHorizon",
        "3LH+2>=9",
        "3 dice, +2 against 9",
        "判定 (3ダイス、+2、目標値9)",
    ),
    (
        "MeikyuKingdom",
        "2MK+3>=9",
        "check, +3 against 9",
        "判定 (+3、目標値9)",
    ),
    ("Nechronica", "2NC", "2 dice check", "判定 (2ダイス)"),
    (
        "Nechronica",
        "2NA",
        "2 dice attack with hit location",
        "攻撃判定 (2ダイス)",
    ),
    (
        "NightWizard3rd",
        "2NW+8>=14",
        "check, +8 against 14",
        "判定 (+8、目標値14)",
    ),
    (
        "Satasupe",
        "3R>=8[2,2,10]",
        "3 rolls against 8, goal 2, fumble 2",
        "行為判定 (3回、難易度8、目標成功度2、ファンブル率2)",
    ),
    (
        "Ryutama",
        "R8,6>=7",
        "d8 and d6 against 7",
        "判定 (d8とd6、目標値7)",
    ),
    (
        "Amadeus",
        "RA+1>=4",
        "rank A, +1 against 4",
        "判定 (ランクA、+1、目標値4)",
    ),
];

/// The titles (English, Japanese) of the commands of the page's "Chained
/// rolls" section, in order (a test holds the count to the page's).
pub const CHAIN_TITLES: &[(&str, &str)] = &[
    ("D&D 5e attack → damage", "D&D 第5版 攻撃 → ダメージ"),
    (
        "two attacks a round: rounds to drop 30 HP",
        "1ラウンド2回攻撃: HP 30 を削るラウンド数",
    ),
    (
        "damage minus armour, at least 0",
        "ダメージ − 装甲 (0 未満は 0)",
    ),
    (
        "Double Cross: damage dice from the achievement",
        "ダブルクロス: 達成値からダメージダイス",
    ),
    (
        "Call of Cthulhu 7th: an extreme success impales",
        "クトゥルフ神話TRPG 第7版: イクストリーム成功で貫通",
    ),
    (
        "Sword World 2.5: hit check → power table − armour",
        "ソード・ワールド2.5: 命中判定 → 威力表 − 防護点",
    ),
];

/// The commands of the page's "Chained rolls" section as presets.
fn chains(dice: &Command) -> Vec<Preset> {
    let Some(section) = MECHANICS_MD
        .split("\n## ")
        .find(|s| s.starts_with("Chained rolls"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut about = String::new();
    for line in section.lines().skip(1) {
        if let Some(words) = line
            .strip_prefix("$ hantei odds dice ")
            .and_then(split_words)
        {
            let k = out.len();
            let (title, title_ja) = CHAIN_TITLES.get(k).copied().unwrap_or(("", ""));
            out.push(Preset {
                id: format!("C{}", k + 1),
                group: "chains",
                game: None,
                title: title.to_string(),
                title_ja: title_ja.to_string(),
                about: about.clone(),
                command: command_line(&words),
                pairs: pairs(dice, &words).unwrap_or_default(),
            });
        } else if !line.trim().is_empty() && !line.starts_with("```") && !line.starts_with("  ") {
            about = line.trim_end_matches(':').to_string();
        }
    }
    out
}

/// Every preset (computed once): mechanics W1–W24, the chained rolls, then
/// the games.
pub fn presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        let dice = dice_command();
        let mut out = mechanics(&dice);
        out.extend(chains(&dice));
        for (i, &(game, expr, title, title_ja)) in GAME_PRESETS.iter().enumerate() {
            let n = GAME_PRESETS[..i].iter().filter(|p| p.0 == game).count() + 1;
            let words = vec![expr.to_string(), "--game".to_string(), game.to_string()];
            out.push(Preset {
                id: format!("{game}-{n}"),
                group: "game",
                game: Some(game),
                title: title.to_string(),
                title_ja: title_ja.to_string(),
                about: format!("{game}: {expr}"),
                command: command_line(&words),
                pairs: pairs(&dice, &words).unwrap_or_default(),
            });
        }
        out
    })
}

/// The `dice` subcommand of `hantei odds`, as the CLI builds it.
#[doc(hidden)]
pub fn dice_command() -> Command {
    super::schema::odds_command()
        .find_subcommand("dice")
        .cloned()
        .expect("the odds command has a dice subcommand")
}

/// The W sections of `docs/mechanics.md`: heading, first line of prose,
/// first command.
fn mechanics(dice: &Command) -> Vec<Preset> {
    let mut out = Vec::new();
    let mut sections = MECHANICS_MD.split("\n## ").skip(1);
    for section in sections.by_ref() {
        let mut lines = section.lines();
        let heading = lines.next().unwrap_or_default();
        let Some((id, rest)) = heading.split_once(". ") else {
            continue;
        };
        if !id.starts_with('W') {
            continue;
        }
        let (title, title_ja) = match rest.rsplit_once(" (") {
            Some((en, ja)) => (en.to_string(), ja.trim_end_matches(')').to_string()),
            None => (rest.to_string(), rest.to_string()),
        };
        let about = section
            .lines()
            .skip(1)
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .to_string();
        let Some(words) = section
            .lines()
            .find_map(|l| l.strip_prefix("$ hantei odds dice "))
            .and_then(split_words)
        else {
            continue;
        };
        out.push(Preset {
            id: id.to_string(),
            group: "mechanics",
            game: None,
            title,
            title_ja,
            about,
            command: command_line(&words),
            pairs: pairs(dice, &words).unwrap_or_default(),
        });
    }
    out
}

/// `hantei odds dice WORDS…`, each word quoted for a POSIX shell when it
/// needs it.
fn command_line(words: &[String]) -> String {
    let mut line = String::from("hantei odds dice");
    for w in words {
        line.push(' ');
        let plain = !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.,:=+-@/".contains(c));
        if plain {
            line.push_str(w);
        } else {
            line.push('"');
            line.push_str(&w.replace('\\', "\\\\").replace('"', "\\\""));
            line.push('"');
        }
    }
    line
}

/// The words of a command line as a POSIX shell splits it (double and
/// single quotes, backslash escapes); `None` for an unclosed quote.
pub fn split_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            e @ ('"' | '\\' | '$' | '`') => word.push(e),
                            e => {
                                word.push('\\');
                                word.push(e);
                            }
                        },
                        e => word.push(e),
                    }
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        e => word.push(e),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// The request fields of the dice command line `words`, as query pairs
/// (`--push-dice` ↔ `push_dice`, the expression ↔ `expr`), read by clap.
pub fn pairs(dice: &Command, words: &[String]) -> Result<Vec<(String, String)>, String> {
    let argv = std::iter::once("dice".to_string()).chain(words.iter().cloned());
    let m = dice
        .clone()
        .try_get_matches_from(argv)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for arg in dice.get_arguments() {
        let id = arg.get_id().as_str();
        if m.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let field = match arg.get_long() {
            Some(long) => long.replace('-', "_"),
            None => id.to_string(),
        };
        match arg.get_action() {
            ArgAction::SetTrue => out.push((field, "true".to_string())),
            ArgAction::Count => out.push((field, m.get_count(id).to_string())),
            _ => {
                for v in m.get_raw(id).into_iter().flatten() {
                    out.push((field.clone(), v.to_string_lossy().into_owned()));
                }
            }
        }
    }
    Ok(out)
}
