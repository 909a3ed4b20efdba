//! Tests of `src/systems/dice/games/satasupe.rs` (`hantei::systems::dice::games::satasupe`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::satasupe::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Satasupe(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of up to three rolls.
#[test]
fn law_matches_enumeration() {
    for s in [
        "1R>=7",
        "2R>=5[1,2,7]",
        "3R>=8[2,1,9S]",
        "3R>=13",
        "2R>=3[,3]",
    ] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let n = 2 * c.rolls as u32;
        let total = 6i64.pow(n);
        enumerate::assert_law(s, &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 6))
        });
    }
}

/// 1R>=7: one success at 7+ (21/36) unless the dice are a fumbling
/// pair 1-1 (1/36, sum 2, no success).
#[test]
fn one_roll_by_hand() {
    let law = cmd("1R>=7").law::<Exact>().unwrap();
    assert_eq!(law.values().p(1), Exact::ratio(21, 36));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 36));
    let c = cmd("5R>=13");
    assert_eq!((c.target, c.fumble), (12, 2));
    assert_eq!(cmd("5R>=3").target, 5);
    assert!(cmd("5R>=5[10,6]").law::<Exact>().unwrap().outcomes[0].key == "auto_failure");
}
