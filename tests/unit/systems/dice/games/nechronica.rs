//! Tests of `src/systems/dice/games/nechronica.rs` (`hantei::systems::dice::games::nechronica`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::nechronica::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Nechronica(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of up to three d10.
#[test]
fn law_matches_enumeration() {
    for s in ["1NC", "2NC+1", "3NA-2", "1D10+2>=5", "2R10+2[1]"] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let total = 10i64.pow(c.dice as u32);
        enumerate::assert_law(s, &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 10))
        });
    }
}

/// 2NC: success at a highest die ≥ 6: 1 − (5/10)² = 3/4; 大成功 never
/// (10 is the most); 大失敗 some 1 with the highest < 6: (5² − 4²)/100.
#[test]
fn two_dice_by_hand() {
    let law = cmd("2NC").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(3, 4));
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(0, 1));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(9, 100));
    assert!(cmd("1R10-1+2[1]").attack);
    assert_eq!(
        hit_location(12).as_deref(),
        Some("攻撃側任意(追加ダメージ2)")
    );
}
