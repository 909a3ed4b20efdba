//! Tests of `src/systems/dice/games/ryutama.rs` (`hantei::systems::dice::games::ryutama`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use hantei::systems::dice::games::ryutama::*;
use hantei::weight::Exact;
use std::collections::BTreeMap;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Ryutama(c) => c,
        _ => unreachable!(),
    }
}

/// Every face of the pair.
#[test]
fn law_matches_enumeration() {
    for s in ["R6,6>=7", "R86+1>=9", "R4", "R2020", "R8,10-2"] {
        let c = cmd(s);
        let law = c.law::<Exact>().unwrap();
        let n2 = c.second.max(1);
        let total = c.first * n2;
        let mut counts: BTreeMap<(i64, Option<&str>), i64> = BTreeMap::new();
        for a in 1..=c.first {
            for b in 1..=n2 {
                let mut q = [a, b].into_iter();
                let r = c.roll(&mut |_| q.next().unwrap());
                *counts
                    .entry((r.value.unwrap(), r.outcome.map(|o| o.key)))
                    .or_default() += 1;
            }
        }
        assert_eq!(counts.len(), law.cells.len(), "{s}");
        for ((v, key), m) in counts {
            let i = key.map(|k| law.outcomes.iter().position(|o| o.key == k).unwrap());
            assert_eq!(
                law.cells[&(v, i)],
                Exact::ratio(m, total),
                "{s} {v} {key:?}"
            );
        }
    }
}

/// R8,6: critical on 6-6 or 8-6: 2/48; R6,6: only 6-6, 1/36.
#[test]
fn criticals_by_hand() {
    let law = cmd("R8,6").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(2, 48));
    let law = cmd("R66").law::<Exact>().unwrap();
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(1, 36));
    assert!(parse("R801").unwrap().is_none());
    assert_eq!(
        cmd("R122"),
        Cmd {
            first: 12,
            second: 2,
            modifier: 0,
            target: None
        }
    );
}
