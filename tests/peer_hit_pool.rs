//! Peer cases for `hit-pool`: BCDice's ShadowRun4 (the seed's glitch rule,
//! `half-or-more`) and ShadowRun5 (`more-than-half`, limits) test data.
//!
//! For every dice command (`xB6…` plain, `xB6@L` with a limit, `xR6`
//! exploding sixes) the faces BCDice rolled (`dice_rolled`, in its rolling
//! order: the first roll, then one die per six, group by group) go through
//! `classify_roll`, and hits, glitch and critical glitch are checked against
//! BCDice's verdict (`parsed`). BCDice counts the ones of the first roll
//! only, against every die rolled, so for `xR6` its verdict is reproduced
//! with `ExplodeGlitch::Bcdice`; the other conventions are checked against
//! `parsed.glitch_variants` (our default `all-dice` differs from BCDice on
//! purpose, e.g. ShadowRun4:16 `1R6` → 6,1 glitches under `all-dice`).

use hantei::systems::hit_pool::{
    classify_roll, EdgeUse, ExplodeGlitch, Glitch, GlitchRule, Roll, Verdict,
};
use serde_json::Value;

use crate::common::{faces, peer_cases};

/// The roll a BCDice command describes: `xB6` is a plain pool of x dice;
/// `xR6` is x dice whose sixes explode, i.e. a long shot with Edge x (pool
/// 0, `push`), which rolls exactly x exploding dice.
fn roll_for(p: &Value, rule: GlitchRule, mode: ExplodeGlitch) -> Roll {
    let pool = p["pool"].as_i64().expect("pool");
    let mut roll = match p["kind"].as_str() {
        Some("reroll_explode") => Roll::new(0)
            .unwrap()
            .with_edge(pool, EdgeUse::Push)
            .unwrap(),
        _ => Roll::new(pool).unwrap(),
    };
    if let Some(l) = p["limit"].as_i64() {
        roll = roll.with_limit(l).unwrap();
    }
    roll.with_glitch_rule(rule).with_explode_glitch(mode)
}

fn is_dice_command(c: &Value) -> bool {
    matches!(
        c["parsed"]["kind"].as_str(),
        Some("barabara_count" | "barabara_count_with_limit" | "reroll_explode")
    )
}

fn verdict(c: &Value, rule: GlitchRule, mode: ExplodeGlitch) -> Verdict {
    let p = &c["parsed"];
    classify_roll(&roll_for(p, rule, mode), &faces(&c["dice_rolled"]))
        .unwrap_or_else(|| panic!("{}: dice_rolled is not one complete roll", c["id"]))
}

fn run(file: &str, rule: GlitchRule, expected: usize) {
    let cases = peer_cases(file);
    let dice: Vec<&Value> = cases.iter().filter(|c| is_dice_command(c)).collect();
    assert_eq!(dice.len(), expected, "{file}: dice commands found");
    for c in dice {
        let id = &c["id"];
        let p = &c["parsed"];
        assert_eq!(
            p["check_ok"],
            Value::Bool(true),
            "{id}: peer data self-check"
        );
        let v = verdict(c, rule, ExplodeGlitch::Bcdice);
        assert_eq!(
            v.hits as u64,
            p["hits_reported"].as_u64().unwrap(),
            "{id} hits"
        );
        assert_eq!(
            v.raw_hits as u64,
            p["hits_raw"].as_u64().unwrap(),
            "{id} raw hits"
        );
        let glitch = p["glitch"].as_bool().unwrap();
        let critical = p["critical_glitch"].as_bool().unwrap();
        assert_eq!(
            v.glitch != Glitch::None,
            glitch,
            "{id} glitch (bcdice counting)"
        );
        assert_eq!(
            v.glitch == Glitch::Critical,
            critical,
            "{id} critical glitch"
        );
        assert_eq!(
            v.ones as u64,
            p["ones_counted"].as_u64().unwrap(),
            "{id} ones"
        );
        assert_eq!(
            v.dice as u64,
            p["dice_total_count"].as_u64().unwrap(),
            "{id} dice"
        );
        // Every ones-counting convention, under both editions' rules.
        for (edition, r) in [
            ("sr4_half_or_more", GlitchRule::HalfOrMore),
            ("sr5_more_than_half", GlitchRule::MoreThanHalf),
        ] {
            for (key, mode) in [
                ("all_ones_vs_all_dice", ExplodeGlitch::AllDice),
                ("all_ones_vs_pool", ExplodeGlitch::OriginalPool),
                ("bcdice_first_roll_ones_vs_all_dice", ExplodeGlitch::Bcdice),
            ] {
                let want = p["glitch_variants"][edition][key].as_bool().unwrap();
                let got = verdict(c, r, mode).glitch != Glitch::None;
                assert_eq!(got, want, "{id}: {edition} / {key}");
            }
        }
    }
}

#[test]
fn shadowrun4_half_or_more() {
    // 10 `xB6` + 26 `xR6`.
    run("bcdice-ShadowRun4.json", GlitchRule::HalfOrMore, 36);
}

#[test]
fn shadowrun5_more_than_half_and_limits() {
    // 14 `xB6` + 2 `xB6@5` + 30 `xR6`.
    run("bcdice-ShadowRun5.json", GlitchRule::MoreThanHalf, 46);
}

#[test]
fn all_dice_counting_differs_from_bcdice_on_purpose() {
    // ShadowRun4:16, `1R6` → 6 then 1: BCDice ignores the exploded one; our
    // default counts it (1 one of 2 dice: a glitch, not critical: 1 hit).
    let cases = peer_cases("bcdice-ShadowRun4.json");
    let c = cases
        .iter()
        .find(|c| c["id"] == "ShadowRun4:16")
        .expect("case ShadowRun4:16");
    assert_eq!(c["parsed"]["glitch"], Value::Bool(false));
    let v = verdict(c, GlitchRule::HalfOrMore, ExplodeGlitch::AllDice);
    assert_eq!(v.glitch, Glitch::Glitch);
}
