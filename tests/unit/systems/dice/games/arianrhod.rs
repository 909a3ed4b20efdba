//! Tests of `src/systems/dice/games/arianrhod.rs` (`hantei::systems::dice::games::arianrhod`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::arianrhod::*;
use hantei::weight::Exact;

/// Every face of up to four d6.
#[test]
fn law_matches_enumeration() {
    for (n, m, t) in [
        (1, 0, Some(3)),
        (2, 1, Some(8)),
        (3, 0, None),
        (4, -2, Some(12)),
    ] {
        let c = Cmd {
            dice: n,
            modifier: m,
            target: t,
        };
        let law = c.law::<Exact>().unwrap();
        let total = 6i64.pow(n as u32);
        enumerate::assert_law(&format!("{n}D6"), &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 6))
        });
    }
}

/// 2D6: critical on 6-6 (1/36), fumble on 1-1 (1/36).
#[test]
fn two_dice_by_hand() {
    let GameCmd::Arianrhod(c) = parse("2D6>=13").unwrap().unwrap() else {
        unreachable!()
    };
    let law = c.law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(1, 36));
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(1, 36));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 36));
}
