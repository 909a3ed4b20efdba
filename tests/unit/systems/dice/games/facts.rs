//! Tests of `src/systems/dice/games/facts.rs` (`hantei::systems::dice::games::facts`).

use hantei::systems::dice::pool::Stat;
use hantei::weight::Weight;

use hantei::systems::dice::games::facts::*;
use hantei::weight::Exact;

/// 3d6: the sum with the count of sixes and the lowest face, against
/// every face.
#[test]
fn matches_enumeration() {
    let cells = pool::<Exact>(3, 6, None, &[count_eq(6), Stat::Min]).unwrap();
    let mut want = std::collections::BTreeMap::new();
    for a in 1..=6i64 {
        for b in 1..=6 {
            for c in 1..=6 {
                let d = [a, b, c];
                let key = (
                    a + b + c,
                    d.iter().filter(|&&x| x == 6).count() as i64,
                    *d.iter().min().unwrap(),
                );
                *want.entry(key).or_insert(0i64) += 1;
            }
        }
    }
    assert_eq!(cells.len(), want.len());
    for c in cells {
        let n = want[&(c.total, c.stats[0], c.stats[1])];
        assert_eq!(c.p, Exact::ratio(n, 216));
    }
}

/// Keep the two highest of three: the total is the kept sum, counts
/// read every die.
#[test]
fn keep_reads_kept_total_and_every_die() {
    let cells = pool::<Exact>(3, 6, Some(2), &[count_eq(1)]).unwrap();
    // Total 2 needs three ones: 1/216, with three ones counted.
    let two: Vec<_> = cells.iter().filter(|c| c.total == 2).collect();
    assert_eq!(two.len(), 1);
    assert_eq!(two[0].stats[0], 3);
    assert_eq!(two[0].p, Exact::ratio(1, 216));
}
