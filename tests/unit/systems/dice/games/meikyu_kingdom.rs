//! Tests of `src/systems/dice/games/meikyu_kingdom.rs` (`hantei::systems::dice::games::meikyu_kingdom`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::meikyu_kingdom::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::MeikyuKingdom(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of up to four d6.
#[test]
fn law_matches_enumeration() {
    for s in ["1MK>=2", "2MK+3>=10", "3MK", "4MK6-1>=8", "2D6+1>=7"] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let total = 6i64.pow(c.dice as u32);
        enumerate::assert_law(s, &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 6))
        });
    }
}

/// 3MK: 絶対成功 needs two sixes among three: 16/216; 絶対失敗 three
/// ones: 1/216.
#[test]
fn three_dice_by_hand() {
    let law = cmd("3MK>=20").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(16, 216));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 216));
    assert!(cmd("2MK>7").target.is_none());
}
