//! Tests of `src/systems/dice/games/amadeus.rs` (`hantei::systems::dice::games::amadeus`).

use hantei::systems::dice::games::{GameCmd, Outcome};
use hantei::weight::Weight;

use hantei::systems::dice::games::amadeus::*;
use hantei::weight::Exact;
use std::collections::BTreeMap;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Amadeus(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of each rank's dice, judged die by die as BCDice prints
/// them and summarised (best 達成値, best word).
#[test]
fn law_matches_enumeration() {
    for s in ["RC", "RB+1>=5", "RA-1@5", "RS>3", "RD+2"] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let total = 6i64.pow(c.dice as u32);
        let mut counts: BTreeMap<(i64, &str), i64> = BTreeMap::new();
        for code in 0..total {
            let dice: Vec<i64> = (0..c.dice)
                .map(|i| code / 6i64.pow(i as u32) % 6 + 1)
                .collect();
            let judged: Vec<i64> = if c.lower {
                vec![*dice.iter().min().unwrap()]
            } else {
                dice.clone()
            };
            let words: Vec<Outcome> = judged.iter().map(|&d| c.die_word(d)).collect();
            let rank = |o: &Outcome| {
                [FAILURE, FUMBLE, SUCCESS, SPECIAL]
                    .iter()
                    .position(|w| w == o)
            };
            let best = *words.iter().max_by_key(|o| rank(o)).unwrap();
            let value = judged.iter().max().unwrap() + c.modifier;
            let mut it = dice.into_iter();
            let r = c.roll(&mut |_| it.next().unwrap());
            assert_eq!((r.value, r.outcome), (Some(value), Some(best)), "{s}");
            *counts.entry((value, best.key)).or_default() += 1;
        }
        assert_eq!(counts.len(), law.cells.len(), "{s}");
        for ((v, key), m) in counts {
            let i = law.outcomes.iter().position(|o| o.key == key).unwrap();
            assert_eq!(
                law.cells[&(v, Some(i))],
                Exact::ratio(m, total),
                "{s} {v} {key}"
            );
        }
    }
}

/// RB: success unless both dice are 1–3: 1 − (3/6)² = 3/4; special at
/// least one 6: 11/36.
#[test]
fn rank_b_by_hand() {
    let law = cmd("RB").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(3, 4));
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(11, 36));
    assert_eq!(cmd("RC>=5-1").target, 4);
    assert_eq!(cmd("RB+2>=5@5").special, 5);
}
