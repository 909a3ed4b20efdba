//! Tests of `src/systems/dice/games/shinobigami.rs` (`hantei::systems::dice::games::shinobigami`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use hantei::systems::dice::games::shinobigami::*;
use hantei::weight::Exact;

/// 4SG+1>=7 against every face of four d6.
#[test]
fn four_dice_match_enumeration() {
    let GameCmd::ShinobiGami(c) = parse("4SG+1@11#3>=7").unwrap().unwrap() else {
        unreachable!()
    };
    let law = c.law::<Exact>().unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for code in 0..6i64.pow(4) {
        let faces: Vec<i64> = (0..4).map(|i| (code / 6i64.pow(i)) % 6 + 1).collect();
        let mut it = faces.into_iter();
        let r = c.roll(&mut |_| it.next().unwrap());
        let i = law
            .outcomes
            .iter()
            .position(|o| Some(*o) == r.outcome)
            .unwrap();
        *counts.entry((r.value.unwrap(), i)).or_insert(0i64) += 1;
    }
    for ((v, i), n) in counts {
        assert_eq!(law.cells[&(v, Some(i))], Exact::ratio(n, 1296));
    }
}
