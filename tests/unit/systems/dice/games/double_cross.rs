//! Tests of `src/systems/dice/games/double_cross.rs` (`hantei::systems::dice::games::double_cross`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;
use std::collections::BTreeMap;

use hantei::systems::dice::games::double_cross::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::DoubleCross(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of every group to a depth, on the plain rule's own
/// faces; the law holds each enumerated cell, within what the
/// enumeration left unexplored.
#[test]
fn law_matches_enumeration() {
    for s in ["1DX", "2DX8+3", "3DX7>=15", "2DX@5", "3DX(9)-1>=10"] {
        let c = cmd(s);
        let law = c.law::<Exact>(1e-12).unwrap();
        let mut cells: BTreeMap<(i64, String), Exact> = BTreeMap::new();
        // Chains still rolling at depth k, by their dice (the sum so
        // far is 10·k): merged, so the enumeration stays small.
        let mut level: BTreeMap<i64, Exact> = BTreeMap::from([(c.dice, Exact::ratio(1, 1))]);
        for k in 0..5usize {
            let mut next: BTreeMap<i64, Exact> = BTreeMap::new();
            for (&n, p) in &level {
                let each = p.clone() / Exact::int(10i64.pow(n as u32));
                for code in 0..10i64.pow(n as u32) {
                    let dice: Vec<i64> = (0..n)
                        .map(|i| (code / 10i64.pow(i as u32)) % 10 + 1)
                        .collect();
                    let crits = dice.iter().filter(|&&d| d >= c.critical).count() as i64;
                    let (v, o) = if k == 0 && dice.iter().all(|&d| d == 1) {
                        (0, c.word(0, false, true))
                    } else if crits == 0 {
                        let t = 10 * k as i64 + dice.iter().max().unwrap() + c.modifier;
                        (t, c.word(t, k > 0, false))
                    } else {
                        *next.entry(crits).or_insert(Exact::ratio(0, 1)) += each.clone();
                        continue;
                    };
                    *cells
                        .entry((v, o.key.to_string()))
                        .or_insert(Exact::ratio(0, 1)) += each.clone();
                }
            }
            level = next;
        }
        let left: Exact = level.values().fold(Exact::ratio(0, 1), |a, b| a + b);
        for ((v, key), p) in &cells {
            let i = law.outcomes.iter().position(|o| o.key == key).unwrap();
            let got = law
                .cells
                .get(&(*v, Some(i)))
                .cloned()
                .unwrap_or(Exact::ratio(0, 1));
            assert!(got >= *p && got <= p.clone() + &left, "{s}: {v} {key}");
        }
        let total: Exact = law.cells.values().fold(Exact::ratio(0, 1), |a, b| a + b);
        assert_eq!(total + law.tail.unwrap(), Exact::ratio(1, 1), "{s}");
    }
}

/// 1DX: a fumble on 1 (1/10), a critical on 10 (1/10).
#[test]
fn one_die() {
    let law = cmd("1DX").law::<Exact>(1e-15).unwrap();
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 10));
    assert_eq!(
        law.p_flag(|o| o.critical) + law.tail.unwrap(),
        Exact::ratio(1, 10)
    );
}
