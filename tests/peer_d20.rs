//! Peer cases for `d20`: BCDice's DungeonsAndDragons5 `AT` (attack roll)
//! command, replayed through [`Check::classify`].
//!
//! `AT[+m][@N][>=DC][A|D][B…]`: 1d20 (2d20 with `A`/`D`) + m; a natural N or
//! more (default 20) is critical, a natural 1 a fumble, otherwise success iff
//! total ≥ DC. That is seed 001's rule with `--crit-on N`. Without a DC,
//! BCDice only reports critical / fumble / nothing.
//!
//! The `B` suffix adds a bonus die (1d4, or the dice in `B[…]`) to the total.
//! Seed 001 has no bonus die; we support these cases by folding the rolled
//! bonus dice into the flat `bonus` of the check (a die already rolled is a
//! flat bonus), which is exactly what BCDice does: criticals and fumbles are
//! read on the d20 alone.
//!
//! Out of scope, skipped with counted filters: `AR` (ability roll, no
//! critical/fumble), `2H` (two-handed damage rerolls) and inputs BCDice does
//! not accept as commands.

use hantei::systems::d20::{Ability, Check, D20Tier, Roll, Side, Training};
use serde_json::Value;

use crate::common::{faces, peer_cases};

const FILE: &str = "bcdice-DungeonsAndDragons5.json";

fn kind(case: &Value) -> &str {
    case["parsed"]["kind"].as_str().unwrap_or("")
}

fn int(v: &Value, what: &str) -> i64 {
    v.as_i64()
        .unwrap_or_else(|| panic!("{what} is an integer: {v}"))
}

#[test]
fn peer_case_kinds_are_counted() {
    let cases = peer_cases(FILE);
    let count = |k: &str| cases.iter().filter(|c| kind(c) == k).count();
    assert_eq!(cases.len(), 74);
    assert_eq!(count("attack_roll"), 38, "AT cases replayed");
    // Skipped: other commands, out of seed 001's scope.
    assert_eq!(count("ability_roll"), 26, "AR skipped");
    assert_eq!(count("two_handed_damage_reroll_1_2"), 8, "2H skipped");
    assert_eq!(count("not_a_command"), 2, "non-commands skipped");
}

#[test]
fn peer_bcdice_attack_rolls() {
    let cases = peer_cases(FILE);
    let mut replayed = 0;
    let mut with_dc = 0;
    let mut with_bonus_dice = 0;
    for case in cases.iter().filter(|c| kind(c) == "attack_roll") {
        let id = case["id"].as_str().unwrap_or("?");
        let p = &case["parsed"];
        let roll = match p["advantage"].as_str() {
            None => Roll::Normal,
            Some("advantage") => Roll::Advantage,
            Some("disadvantage") => Roll::Disadvantage,
            Some(other) => panic!("{id}: unknown advantage {other}"),
        };
        let bonus_dice = faces(&p["bonus_dice"]);
        if !bonus_dice.is_empty() {
            with_bonus_dice += 1;
        }
        let bonus: i64 = bonus_dice.iter().map(|&d| i64::from(d)).sum();
        let side = Side::new(
            Ability::Modifier(int(&p["modifier"], "modifier")),
            Training::Proficiency(0),
            bonus,
            roll,
            "",
        )
        .unwrap_or_else(|e| panic!("{id}: {e}"));
        // Without a DC only the natural die's verdict is compared; any DC
        // serves to run the rule.
        let dc = p["dc"].as_i64();
        let crit_on = u32::try_from(int(&p["critical_on"], "critical_on")).expect("crit face");
        let check =
            Check::new(side, dc.unwrap_or(0), crit_on).unwrap_or_else(|e| panic!("{id}: {e}"));
        let v = check
            .classify(&faces(&p["d20s"]))
            .unwrap_or_else(|| panic!("{id}: faces do not fit"));
        assert_eq!(
            i64::from(v.kept),
            int(&p["kept_d20"], "kept"),
            "{id}: kept die"
        );
        assert_eq!(v.total, int(&p["total"], "total"), "{id}: total");
        let got = match (dc, v.tier) {
            (_, D20Tier::Critical) => Some("critical"),
            (_, D20Tier::Fumble) => Some("fumble"),
            (None, _) => None,
            (Some(_), D20Tier::Success) => Some("success"),
            (Some(_), D20Tier::Failure) => Some("failure"),
        };
        assert_eq!(got, p["result"].as_str(), "{id}: {}", case["input"]);
        replayed += 1;
        with_dc += usize::from(dc.is_some());
    }
    assert_eq!(replayed, 38);
    assert_eq!(with_dc, 29);
    assert_eq!(with_bonus_dice, 5, "B cases folded into the bonus");
}
