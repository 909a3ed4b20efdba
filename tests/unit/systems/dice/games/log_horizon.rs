//! Tests of `src/systems/dice/games/log_horizon.rs` (`hantei::systems::dice::games::log_horizon`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::log_horizon::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::LogHorizon(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of up to four d6.
#[test]
fn law_matches_enumeration() {
    for s in ["1LH>=4", "2LH+1>=9", "3LH", "4LH-2+1>=13"] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let total = 6i64.pow(c.dice as u32);
        enumerate::assert_law(s, &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 6))
        });
    }
}

/// 3LH: a critical is two or more sixes, 1 − P(no six) − P(one six)
/// = 1 − 125/216 − 75/216 = 16/216; a fumble three ones, 1/216.
#[test]
fn three_dice_by_hand() {
    let law = cmd("3LH>=10").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(16, 216));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 216));
    assert_eq!(
        cmd("3LH+1+2>=5-1"),
        Cmd {
            dice: 3,
            modifier: 3,
            target: Some(4)
        }
    );
}
