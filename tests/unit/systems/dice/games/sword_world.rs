//! Tests of `src/systems/dice/games/sword_world.rs` (`hantei::systems::dice::games::sword_world`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;
use std::collections::BTreeMap;

use hantei::systems::dice::games::sword_world::*;
use hantei::weight::Exact;

fn rating_of(s: &str) -> Rating {
    match parse_25(&s.to_ascii_uppercase()).unwrap().unwrap() {
        GameCmd::SwordWorld(Cmd::Rating(r)) => r,
        other => panic!("{other:?}"),
    }
}

/// Every way the chain can go to `depth` rounds, enumerated on the
/// plain rule's own steps; what goes deeper is bounded by the law's
/// tail and the enumeration's leftover.
fn enumerate(r: &Rating, depth: usize) -> (BTreeMap<(i64, bool, bool), Exact>, Exact) {
    let mut out = BTreeMap::new();
    let mut left = Exact::ratio(0, 1);
    // (round, sum, probability)
    let mut stack = vec![(0usize, 0i64, Exact::ratio(1, 1))];
    while let Some((k, sum, p)) = stack.pop() {
        if k == depth {
            left += p;
            continue;
        }
        for (raw, q) in r.raw_law::<Exact>(k).iter() {
            if q.is_zero() {
                continue;
            }
            let pq = p.clone() * q;
            let (v, go, fumble) = r.step(k, raw);
            if fumble {
                *out.entry((0, false, true)).or_insert(Exact::ratio(0, 1)) += pq;
            } else if go {
                stack.push((k + 1, sum + v, pq));
            } else {
                let key = (r.total(sum + v, k as i64), k > 0, false);
                *out.entry(key).or_insert(Exact::ratio(0, 1)) += pq;
            }
        }
    }
    (out, left)
}

#[test]
fn power_table_law_matches_enumeration() {
    for s in [
        "K20+5",
        "K10r10@9",
        "K40+24@8$12r10",
        "HK20+6@9",
        "K20$+1#1ad2OH+1",
        "K30gf@9sz4",
        "K20tf3@8",
        "K20sf3@9DB",
    ] {
        let r = rating_of(s);
        let law = r.law::<Exact>(1e-12).unwrap();
        let (cells, left) = enumerate(&r, 6);
        let mut seen = Exact::ratio(0, 1);
        for ((v, crit, fumble), p) in &cells {
            let word = if *fumble {
                K_FUMBLE
            } else if *crit {
                K_CRITICAL
            } else {
                K_PLAIN
            };
            let i = law.outcomes.iter().position(|o| *o == word).unwrap();
            let got = law
                .cells
                .get(&(*v, Some(i)))
                .cloned()
                .unwrap_or(Exact::ratio(0, 1));
            // The law holds at least what the enumeration reached, and
            // no more than that plus what it left unexplored.
            assert!(got >= *p && got <= p.clone() + &left, "{s}: value {v}");
            seen += got;
        }
        let total: Exact = law.cells.values().fold(Exact::ratio(0, 1), |a, b| a + b);
        assert_eq!(
            total.clone() + law.tail.clone().unwrap(),
            Exact::ratio(1, 1),
            "{s}"
        );
        assert!(
            total - seen <= left,
            "{s}: mass outside the enumerated cells"
        );
    }
}

/// K20+5@10 by hand: no critical unless 10+ (6/36), fumble on [1,1].
#[test]
fn fumble_and_critical_rates() {
    let law = rating_of("K20+5").law::<Exact>(1e-15).unwrap();
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 36));
    // The chain is cut: what went past the cut is the tail.
    assert_eq!(
        law.p_flag(|o| o.critical) + law.tail.unwrap(),
        Exact::ratio(6, 36)
    );
}
