//! Peer cases for the game systems (`--game`): every `[[ test ]]` of
//! BCDice's own test data for the games hantei offers
//! (`tests/data/peer/bcdice/*.toml`, BSD-3-Clause, notice in
//! `tests/data/peer/README.md`). Given BCDice's dice (`rands`), the plain
//! rule must give the value BCDice prints last, its result word and its
//! success/critical/fumble flags; what BCDice refuses must be refused.
//! Commands out of scope (tables, full-auto fire, …) are listed below with
//! the reason, and every file's cases are counted so none is skipped
//! silently.

use std::collections::VecDeque;

use hantei::systems::dice::games::{self, Parsed};
use hantei::systems::dice::roll::Faces;

use crate::common::data_path;

/// Faces in the order BCDice asked for them, sides checked.
struct Queue(VecDeque<(i64, i64)>, String);

impl Faces for Queue {
    fn die(&mut self, sides: i64) -> i64 {
        let (s, v) = self
            .0
            .pop_front()
            .unwrap_or_else(|| panic!("{}: more dice asked for than BCDice rolled", self.1));
        assert_eq!(
            s, sides,
            "{}: a d{sides} asked for, BCDice rolled a d{s}",
            self.1
        );
        v
    }
}

/// A game's file, its id, the commands out of scope (upper-case prefixes
/// of the command, with the reason) and the expected counts:
/// (replayed, refused, out of scope).
struct Suite {
    file: &'static str,
    id: &'static str,
    out_of_scope: &'static [(&'static str, &'static str)],
    /// Whether cases whose text names a table (表) are out of scope (the
    /// games with dozens of tables).
    tables: bool,
    /// The game's checks (upper case, secret `S` removed): with it, a
    /// command the game refuses that is no check is a table, out of scope
    /// (the games whose dozens of tables do not all name themselves 表).
    checks: Option<fn(&str) -> bool>,
    /// Commands whose result BCDice returns as text with no flags set
    /// (their flags are not compared; hantei's follow the words).
    flagless: fn(&str) -> bool,
    /// BCDice's text as the replay reads it (the identity but for games
    /// printing more than one verdict: see each use).
    clean: fn(&str) -> String,
    counts: (usize, usize, usize),
}

/// The defaults of a suite's new fields.
const PLAIN: Suite = Suite {
    file: "",
    id: "",
    out_of_scope: &[],
    tables: false,
    checks: None,
    flagless: never,
    clean: as_is,
    counts: (0, 0, 0),
};

fn never(_: &str) -> bool {
    false
}

fn always(_: &str) -> bool {
    true
}

/// `^\d+` then `word`: a game's check command.
fn numbered(upper: &str, words: &[&str]) -> bool {
    let rest = upper.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < upper.len() && words.iter().any(|w| rest.starts_with(w))
}

fn as_is(s: &str) -> String {
    s.to_string()
}

/// Words in BCDice's error texts (it prints a message, rolls nothing).
const ERROR_TEXTS: &[&str] = &["してください", "までです", "小さすぎ", "以上、100以下"];

fn run(suite: &Suite) {
    let text = std::fs::read_to_string(data_path(&format!("peer/bcdice/{}", suite.file)))
        .unwrap_or_else(|e| panic!("{}: {e}", suite.file));
    let doc: toml::Value = toml::from_str(&text).expect("BCDice test data is TOML");
    let tests = doc["test"].as_array().expect("[[ test ]] list");
    let game = games::find(suite.id).expect("game is registered");
    let (mut replayed, mut refused, mut skipped) = (0, 0, 0);
    for (n, t) in tests.iter().enumerate() {
        let id = format!("{}:{}", suite.file, n + 1);
        let input = t["input"].as_str().unwrap();
        let command = input.split_whitespace().next().unwrap_or("");
        let upper = command.to_ascii_uppercase();
        let upper = upper
            .strip_prefix('S')
            .filter(|r| out_of_scope(suite, r))
            .unwrap_or(&upper);
        if out_of_scope(suite, upper) {
            skipped += 1;
            continue;
        }
        let output = (suite.clean)(t["output"].as_str().unwrap_or(""));
        let output = output.as_str();
        if suite.tables && is_table(output) && game.parse(command).is_err() {
            skipped += 1;
            continue;
        }
        if suite
            .checks
            .is_some_and(|is_check| !is_check(upper) && game.parse(command).is_err())
        {
            skipped += 1;
            continue;
        }
        let rands: VecDeque<(i64, i64)> = t
            .get("rands")
            .and_then(|r| r.as_array())
            .map(|a| {
                a.iter()
                    .map(|r| {
                        (
                            r["sides"].as_integer().unwrap(),
                            r["value"].as_integer().unwrap(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let flag = |k: &str| t.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
        let parsed = game.parse(command);
        if output.is_empty() || (rands.is_empty() && ERROR_TEXTS.iter().any(|e| output.contains(e)))
        {
            assert!(
                parsed.is_err(),
                "{id}: BCDice refuses {command:?} ({output:?}), we read {parsed:?}"
            );
            refused += 1;
            continue;
        }
        let parsed = parsed.unwrap_or_else(|e| panic!("{id}: {command:?} refused: {e}"));
        let segments: Vec<&str> = output.split(" ＞ ").collect();
        let last = *segments.last().unwrap();
        let mut queue = Queue(rands, id.clone());
        match parsed {
            Parsed::Plain(cmd) => {
                let r = cmd.roll(&mut queue);
                let (value_seg, word) = match r.success {
                    Some(s) => (
                        segments[segments.len() - 2],
                        Some(if s { "成功" } else { "失敗" }),
                    ),
                    None => (last, None),
                };
                if let Some(w) = word {
                    assert_eq!(last, w, "{id}: {command:?} word");
                }
                assert_eq!(
                    leading_int(value_seg),
                    Some(r.value),
                    "{id}: {command:?} value"
                );
                assert_eq!(
                    r.success == Some(true),
                    flag("success"),
                    "{id}: success flag"
                );
            }
            Parsed::Game(cmd) => {
                let r = cmd.roll(&mut queue);
                let printed = r.outcome.filter(|o| o.printed);
                // The word is a segment (or a segment's last word, after
                // a space: 成功数2 ダブル); the value is the segment before
                // it, or the last one when the word is not last (NW's
                // ファンブル ＞ -2; Nechronica's hit location after the word).
                let value_seg = match printed {
                    Some(o) => {
                        let w = segments
                            .iter()
                            .rposition(|s| *s == o.ja || s.ends_with(&format!(" {}", o.ja)))
                            .unwrap_or_else(|| {
                                panic!("{id}: {command:?} word {} not printed ({output})", o.ja)
                            });
                        if segments[w] != o.ja {
                            // 成功数N WORD: the value is in the segment too.
                            Some(segments[w])
                        } else if w + 1 < segments.len() && value_of(last).is_some() {
                            Some(last)
                        } else {
                            segments.get(w.wrapping_sub(1)).copied()
                        }
                    }
                    None => Some(last),
                };
                match (r.value, value_seg) {
                    (None, _) => {}
                    // Sword World's fumbled power table prints ** and no total.
                    (Some(0), Some("**")) if printed.is_some_and(|o| o.fumble) => {}
                    (Some(v), Some(seg)) => {
                        assert_eq!(value_of(seg), Some(v), "{id}: {command:?} value ({output})")
                    }
                    (Some(v), None) => panic!("{id}: {command:?} gives {v}, BCDice prints none"),
                }
                if !(suite.flagless)(upper) {
                    let o = r.outcome;
                    assert_eq!(
                        o.is_some_and(|o| o.success),
                        flag("success"),
                        "{id}: {command:?} success flag ({output})"
                    );
                    assert_eq!(
                        o.is_some_and(|o| o.critical),
                        flag("critical"),
                        "{id}: {command:?} critical flag ({output})"
                    );
                    assert_eq!(
                        o.is_some_and(|o| o.fumble),
                        flag("fumble"),
                        "{id}: {command:?} fumble flag ({output})"
                    );
                } else {
                    assert!(
                        !["success", "critical", "fumble", "failure"]
                            .iter()
                            .any(|k| flag(k)),
                        "{id}: {command:?} is listed flagless but BCDice sets a flag"
                    );
                }
            }
        }
        assert!(
            queue.0.is_empty(),
            "{id}: {command:?} left dice unread: {:?}",
            queue.0
        );
        replayed += 1;
    }
    assert_eq!(replayed + refused + skipped, tests.len());
    assert_eq!(
        (replayed, refused, skipped),
        suite.counts,
        "{}: (replayed, refused, out of scope)",
        suite.file
    );
}

/// A case is a table when BCDice's text names one and hantei does not
/// read the command: tables pick text, they have no odds of success.
fn is_table(output: &str) -> bool {
    let head = output.split(" ＞ ").next().unwrap_or("");
    head.contains('表')
        || head.contains("ホラースケープ")
        || head.contains("シーン")
        || head.contains("数奇")
}

/// A command is out of scope when it is one of the listed names, alone or
/// followed by its arguments (a number, `(` or `[`): `GREEN` is not `GR`.
fn out_of_scope(suite: &Suite, upper: &str) -> bool {
    suite.out_of_scope.iter().any(|(p, _)| {
        upper.strip_prefix(p).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(|c: char| c.is_ascii_digit() || c == '(' || c == '[')
        })
    })
}

/// The value a segment shows: its leading integer, after Satasupe's
/// 成功度 or Emoklore's 成功数 (`成功数2 ダブル` → 2).
fn value_of(s: &str) -> Option<i64> {
    let s = s
        .strip_prefix("成功度")
        .or_else(|| s.strip_prefix("成功数"))
        .unwrap_or(s);
    leading_int(s)
}

/// The integer a segment opens with (`30[ハード成功,…]` → 30).
fn leading_int(s: &str) -> Option<i64> {
    let end = s
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && *c == '-')))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    s[..end].parse().ok()
}

#[test]
fn cthulhu7th() {
    run(&Suite {
        file: "Cthulhu7th.toml",
        id: "Cthulhu7th",
        // 50 CC (2 refused), 12 CBR (1 refused), 75 FAR, 14 tables.
        out_of_scope: &[
            (
                "FAR",
                "full-auto fire counts hits and penetrations over a burst, not a check's odds",
            ),
            ("BMR", "table (狂気の発作)"),
            ("BMS", "table (狂気の発作)"),
            ("FCL", "table (キャスティング・ロール失敗)"),
            ("FCM", "table (キャスティング・ロール失敗)"),
            ("PH", "table (恐怖症)"),
            ("MA", "table (マニア)"),
        ],
        tables: false,
        counts: (59, 3, 89),
        ..PLAIN
    });
}

#[test]
fn cthulhu() {
    run(&Suite {
        file: "Cthulhu.toml",
        id: "Cthulhu",
        out_of_scope: &[],
        tables: false,
        counts: (101, 4, 0),
        ..PLAIN
    });
}

const SW_TABLES: &[(&str, &str)] = &[
    ("GR", "growth (成長) picks abilities, not a check"),
    ("FT", "table (防御ファンブル表)"),
    ("TT", "table (絡み効果表)"),
    ("ABT", "table (アビスカース表)"),
    ("AABT", "table (追加アビスカース表)"),
    (
        "DRU",
        "druid power (Dru) reads a three-value list, not in the issue's scope",
    ),
    (
        "BIB",
        "Bib (ビブリオマンサー応急行使判定) is not in the issue's scope",
    ),
];

#[test]
fn sword_world_2_5() {
    run(&Suite {
        file: "SwordWorld2_5.toml",
        id: "SwordWorld2.5",
        out_of_scope: SW_TABLES,
        tables: false,
        counts: (91, 12, 41),
        ..PLAIN
    });
}

#[test]
fn sword_world_2_0() {
    run(&Suite {
        file: "SwordWorld2_0.toml",
        id: "SwordWorld2.0",
        out_of_scope: SW_TABLES,
        tables: false,
        counts: (52, 4, 19),
        ..PLAIN
    });
}

#[test]
fn double_cross() {
    run(&Suite {
        file: "DoubleCross.toml",
        id: "DoubleCross",
        out_of_scope: &[
            ("ET", "table (感情表)"),
            ("HC", "table (ハプニングチャート)"),
            ("PCP", "table (プロローグチャート)"),
            ("PCN", "table (プロローグチャート)"),
        ],
        tables: false,
        counts: (79, 3, 19),
        ..PLAIN
    });
}

#[test]
fn shinobigami() {
    run(&Suite {
        file: "ShinobiGami.toml",
        id: "ShinobiGami",
        out_of_scope: &[
            ("RTT", "table (ランダム指定特技表)"),
            ("RCT", "table (ランダム分野表)"),
            ("MT", "table (異形表)"),
            ("NMT", "table (新異形表)"),
            ("IRN", "number generator, not a check"),
        ],
        tables: true,
        counts: (29, 2, 131),
        ..PLAIN
    });
}

#[test]
fn insane() {
    run(&Suite {
        file: "Insane.toml",
        id: "Insane",
        out_of_scope: &[
            ("IRN", "暫定整理番号作成: a number generator, not a check"),
            ("RTT", "table (ランダム特技表)"),
            ("RCT", "table (ランダム分野表)"),
        ],
        tables: true,
        counts: (7, 0, 56),
        ..PLAIN
    });
}

#[test]
fn emoklore() {
    run(&Suite {
        file: "Emoklore.toml",
        id: "Emoklore",
        counts: (33, 0, 0),
        ..PLAIN
    });
}

#[test]
fn arianrhod() {
    run(&Suite {
        file: "Arianrhod.toml",
        id: "Arianrhod",
        counts: (27, 0, 0),
        ..PLAIN
    });
}

#[test]
fn log_horizon() {
    run(&Suite {
        file: "LogHorizon.toml",
        id: "LogHorizon",
        // 消耗表, 財宝表, 探索表 and the other tables and generators.
        checks: Some(|u| numbered(u, &["LH"])),
        counts: (5, 0, 263),
        ..PLAIN
    });
}

/// Meikyu Kingdom prints the 《気力》 option after the verdict
/// (`8 ＞ 成功 (もしくは) 2 ＞ 失敗 ＆ 《気力》1点獲得`): the replay reads the
/// main verdict, the value and word before (もしくは).
fn meikyu_main(output: &str) -> String {
    let main = output.split(" (もしくは) ").next().unwrap_or(output);
    match main.find(" ＆ 《気力》") {
        Some(i) => main[..i].to_string(),
        None => main.to_string(),
    }
}

#[test]
fn meikyu_kingdom() {
    run(&Suite {
        file: "MeikyuKingdom.toml",
        id: "MeikyuKingdom",
        // 散策表, 休憩表, お宝表, 名前表 and the other tables.
        checks: Some(|u| numbered(u, &["MK", "R6"]) || u.starts_with("2D6")),
        flagless: |u| numbered(u, &["MK", "R6"]),
        clean: meikyu_main,
        counts: (74, 0, 548),
        ..PLAIN
    });
}

#[test]
fn nechronica() {
    run(&Suite {
        file: "Nechronica.toml",
        id: "Nechronica",
        tables: true,
        counts: (31, 0, 6),
        ..PLAIN
    });
}

#[test]
fn night_wizard_3rd() {
    run(&Suite {
        file: "NightWizard3rd.toml",
        id: "NightWizard3rd",
        flagless: always,
        counts: (3, 0, 0),
        ..PLAIN
    });
}

#[test]
fn satasupe() {
    run(&Suite {
        file: "Satasupe.toml",
        id: "Satasupe",
        out_of_scope: &[
            (
                "SR",
                "性業値 (seigou) compares 2D6 with a character value: 激/迷/律, no odds of success",
            ),
            ("GETSST", "サタスペ作成 builds an item from tables"),
        ],
        tables: true,
        counts: (75, 0, 271),
        ..PLAIN
    });
}

#[test]
fn ryutama() {
    run(&Suite {
        file: "Ryutama.toml",
        id: "Ryutama",
        flagless: |u| u.starts_with('R'),
        counts: (45, 1, 0),
        ..PLAIN
    });
}

/// Amadeus prints one verdict per die (`3_失敗[2赤] / 5_成功[4緑]`); the
/// replay reads them as hantei summarises them (see `games/amadeus.rs`):
/// the best 達成値 and the best word.
fn amadeus_best(output: &str) -> String {
    let Some((head, last)) = output.rsplit_once(" ＞ ") else {
        return output.to_string();
    };
    if !last.contains('_') {
        return output.to_string();
    }
    const RANK: [&str; 4] = ["失敗", "ファンブル！", "成功", "スペシャル！"];
    let mut best: Option<(i64, usize)> = None;
    for part in last.split(" / ") {
        let (v, rest) = part.split_once('_').expect("achievement_word[die]");
        let word = rest.split('[').next().unwrap();
        let v: i64 = v.parse().expect("achievement");
        let r = RANK.iter().position(|w| *w == word).expect("a known word");
        best = Some(match best {
            None => (v, r),
            Some((bv, br)) => (bv.max(v), br.max(r)),
        });
    }
    let (v, r) = best.unwrap();
    format!("{head} ＞ {v} ＞ {}", RANK[r])
}

#[test]
fn amadeus() {
    run(&Suite {
        file: "Amadeus.toml",
        id: "Amadeus",
        tables: true,
        clean: amadeus_best,
        counts: (18, 0, 69),
        ..PLAIN
    });
}

/// The CLI: `--game`, `--list-games`, and the refusals (exit 2, one line).
mod cli {
    use crate::common::hantei;

    #[test]
    fn coc7_bonus_die_at_fifty_is_three_quarters() {
        let out = hantei()
            .args([
                "odds",
                "dice",
                "CC(1)<=50",
                "--game",
                "cthulhu7th",
                "--exact",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["p_success"], "3/4");
        assert_eq!(v["params"]["game"], "Cthulhu7th");
        assert_eq!(v["labels"]["extreme"]["ja"], "イクストリーム成功");
        // Fumble: only 100 at s = 50; with one bonus die, a kept 100 needs
        // ones 0 and both tens 0 (read as 100): 1/10 · 1/100.
        assert_eq!(v["p_fumble"], "1/1000");
    }

    #[test]
    fn list_games_names_every_game() {
        let out = hantei()
            .args(["odds", "dice", "--list-games"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        for id in [
            "Cthulhu7th",
            "Cthulhu",
            "SwordWorld2.5",
            "SwordWorld2.0",
            "DoubleCross",
            "ShinobiGami",
            "Insane",
            "Emoklore",
            "Arianrhod",
            "LogHorizon",
            "MeikyuKingdom",
            "Nechronica",
            "NightWizard3rd",
            "Satasupe",
            "Ryutama",
            "Amadeus",
        ] {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("{id} "))),
                "{id} missing"
            );
        }
    }

    #[test]
    fn unknown_game_names_the_nearest() {
        let out = hantei()
            .args(["odds", "dice", "K20", "--game", "SwordWorld25"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1);
        assert!(err.contains("did you mean SwordWorld2.5?"), "{err}");
    }

    /// `--game sw` is Sword World, not the nearest by edit distance
    /// (Insane); `coc` is Call of Cthulhu 7th.
    #[test]
    fn unknown_game_prefers_prefixes_and_abbreviations() {
        for (id, want) in [
            ("sw", "SwordWorld2.5"),
            ("coc", "Cthulhu7th"),
            ("nechro", "Nechronica"),
        ] {
            let out = hantei()
                .args(["odds", "dice", "2D6", "--game", id])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2));
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.trim().lines().count(), 1);
            assert!(
                err.contains(&format!("did you mean {want}?")),
                "{id}: {err}"
            );
        }
    }

    /// Each new game refuses a command it does not know naming itself
    /// and its commands (exit 2, one line).
    #[test]
    fn new_games_refuse_unknown_commands() {
        for (game, bad, names) in [
            ("Emoklore", "2DM>=5", "DM<=y"),
            ("Arianrhod", "ABC", "nD6+m>=t"),
            ("LogHorizon", "PCT1", "xLH"),
            ("MeikyuKingdom", "LRT", "nMK"),
            ("Nechronica", "NM", "nNC"),
            ("NightWizard3rd", "NW@", "NW"),
            ("Satasupe", "SR6", "nR>=x"),
            ("Ryutama", "R801", "Rx[,y]"),
            ("Amadeus", "RX", "R{S|A|B|C|D}"),
        ] {
            let out = hantei()
                .args(["odds", "dice", bad, "--game", game])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{game} {bad}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(
                err.contains(&format!("not a {game} command: it accepts")) && err.contains(names),
                "{game}: {err}"
            );
        }
    }

    /// Emoklore `DM<=5` exactly: a die scores at 1–5 (5/10), 2 of it at 1.
    #[test]
    fn emoklore_one_die_is_a_coin_flip() {
        let out = hantei()
            .args([
                "odds", "dice", "DM<=5", "--game", "emoklore", "--exact", "--format", "json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["p_success"], "1/2");
        assert_eq!(v["p_critical"], "1/10");
        assert_eq!(v["p_fumble"], "1/10");
        assert_eq!(v["params"]["game"], "Emoklore");
        assert_eq!(v["distribution"]["2"], "1/10");
    }

    #[test]
    fn unknown_command_names_the_game() {
        let out = hantei()
            .args(["odds", "dice", "FAR(25,70,98)", "--game", "Cthulhu7th"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1);
        assert!(
            err.contains("not a Cthulhu7th command: it accepts CC"),
            "{err}"
        );
        let out = hantei()
            .args(["odds", "dice", "K20@2", "--game", "SwordWorld2.5"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    }
}
