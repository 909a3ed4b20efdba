//! Tests of `src/systems/dice/games/night_wizard.rs` (`hantei::systems::dice::games::night_wizard`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use hantei::systems::dice::games::night_wizard::*;
use hantei::weight::Exact;
use std::collections::BTreeMap;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::NightWizard(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of the first rolls to a depth: each enumerated cell is
/// in the law, within what the depth left unexplored.
#[test]
fn law_matches_enumeration() {
    for s in [
        "0NW+5@8#6+3",
        "NW",
        "3NW@9,10#2,5$1>=12",
        "2R6M[1,2]C[7]F[2]>=10",
    ] {
        let c = cmd(s);
        let law = c.law::<Exact>(1e-12).unwrap();
        let mut cells: BTreeMap<(i64, Option<&str>), Exact> = BTreeMap::new();
        let mut left = Exact::ratio(0, 1);
        // Faces: 2 per 2D6 roll; enumerate up to 3 rolls and the prana.
        let depth = 3usize;
        let n = 2 * depth + c.prana as usize;
        let each = Exact::ratio(1, 6i64.pow(n as u32));
        for code in 0..6i64.pow(n as u32) {
            let faces: Vec<i64> = (0..n).map(|i| code / 6i64.pow(i as u32) % 6 + 1).collect();
            let mut it = faces.into_iter();
            let mut short = false;
            let r = c.roll(&mut |_| {
                it.next().unwrap_or_else(|| {
                    short = true;
                    1
                })
            });
            if short {
                left += each.clone();
                continue;
            }
            *cells
                .entry((r.value.unwrap(), r.outcome.map(|o| o.key)))
                .or_insert(Exact::ratio(0, 1)) += each.clone();
        }
        for ((v, key), p) in &cells {
            let i = key.map(|k| law.outcomes.iter().position(|o| o.key == k).unwrap());
            let got = law
                .cells
                .get(&(*v, i))
                .cloned()
                .unwrap_or(Exact::ratio(0, 1));
            assert!(got >= *p && got <= p.clone() + &left, "{s}: {v} {key:?}");
        }
        let total: Exact = law.cells.values().fold(Exact::ratio(0, 1), |a, b| a + b);
        assert_eq!(total + law.tail.clone().unwrap(), Exact::ratio(1, 1), "{s}");
    }
}

/// NW: fumble on a first 5 (4/36); critical on a first 10 (3/36).
#[test]
fn default_sets_by_hand() {
    let law = cmd("NW").law::<Exact>(1e-15).unwrap();
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(4, 36));
    assert_eq!(
        law.p_flag(|o| o.critical) + law.tail.unwrap(),
        Exact::ratio(3, 36)
    );
    assert!(parse("NW@2,3,4,5,6,7,8,9,10,11,12").is_err());
}
