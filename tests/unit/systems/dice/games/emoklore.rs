//! Tests of `src/systems/dice/games/emoklore.rs` (`hantei::systems::dice::games::emoklore`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use crate::unit::systems::dice::games::enumerate;
use hantei::systems::dice::games::emoklore::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Emoklore(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of up to three d10, against thresholds around the
/// special faces.
#[test]
fn law_matches_enumeration() {
    for (n, y) in [(1, 0), (1, 5), (2, 1), (2, 10), (3, 6), (3, 11)] {
        let c = Cmd {
            dice: n,
            threshold: y,
        };
        let law = c.law::<Exact>().unwrap();
        let total = 10i64.pow(n as u32);
        enumerate::assert_law(&format!("{n}DM<={y}"), &law, total, |code| {
            c.roll(&mut enumerate::faces(code, 10))
        });
    }
}

/// 1DM<=5 by hand: 1 scores 2 (1/10), 2–5 score 1 (4/10), 6–9 score
/// 0 (4/10), 10 scores −1 (1/10).
#[test]
fn one_die_by_hand() {
    let law = cmd("DM<=5").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(1, 10));
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(5, 10));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 10));
}

#[test]
fn reads_the_forms() {
    assert_eq!(cmd("2*3DM<=5").dice, 6);
    assert_eq!(
        cmd("1+2DM<=3+2"),
        Cmd {
            dice: 3,
            threshold: 5
        }
    );
    assert_eq!(cmd("3DM<=5E-1").dice, 2);
    assert_eq!(
        cmd("BDA3+5"),
        Cmd {
            dice: 6,
            threshold: 3
        }
    );
    assert_eq!(
        cmd("3DA3+4"),
        Cmd {
            dice: 7,
            threshold: 6
        }
    );
    assert_eq!(
        cmd("DA3+1"),
        Cmd {
            dice: 2,
            threshold: 3
        }
    );
    assert!(parse("2DM<=X").unwrap().is_none());
    assert!(parse("100DM<=5").is_err());
}
