//! Tests of `src/systems/dice/games/tens.rs` (`hantei::systems::dice::games::tens`).

use hantei::weight::Weight;

use hantei::systems::dice::games::tens::*;
use hantei::weight::Exact;

/// Against every face of up to three tens dice.
#[test]
fn matches_enumeration() {
    for k in 1..=3u32 {
        for lowest in [true, false] {
            let law = d100_kept::<Exact>(k, lowest).unwrap();
            let mut counts = std::collections::BTreeMap::new();
            let n = 10i64.pow(k);
            for ones in 1..=10 {
                for code in 0..n {
                    let mut c = code;
                    let mut best: Option<i64> = None;
                    for _ in 0..k {
                        let r = reading(c % 10 + 1, ones);
                        c /= 10;
                        best = Some(match best {
                            None => r,
                            Some(b) if lowest => b.min(r),
                            Some(b) => b.max(r),
                        });
                    }
                    *counts.entry(best.unwrap()).or_insert(0i64) += 1;
                }
            }
            for (v, c) in counts {
                assert_eq!(
                    law.p(v),
                    Exact::ratio(c, 10 * n),
                    "k={k} lowest={lowest} v={v}"
                );
            }
            assert_eq!(law.total(), Exact::ratio(1, 1));
        }
    }
}

/// Each ones die's tens dice are a program the planner keeps one die of
/// by the extreme, up to the 101 dice of `CC(100)`, exactly.
#[test]
fn the_tens_dice_are_a_program_up_to_the_most_bonus_dice() {
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    assert_eq!(
        tens_program(3, 0, true).to_string(),
        "3D{1,2,3,4,5,6,7,8,9,10}KL1"
    );
    assert_eq!(
        tens_program(2, 4, false).to_string(),
        "2D{0,1,2,3,4,5,6,7,8,9}KH1"
    );
    let (law, decisions) = plan::explain(|| d100_kept::<Exact>(101, true).unwrap());
    assert_eq!(decisions.len(), 10);
    assert!(decisions.iter().all(|d| d.algorithm == Algorithm::Extreme));
    assert_eq!(law.total(), Exact::ratio(1, 1));
    // The lowest of 101 tens dice with ones die 1 is 01 unless every tens
    // die shows 1..=9: P(01) = (1 − (9/10)¹⁰¹)/10.
    let nine = Exact::ratio(9, 10).powi(101);
    assert_eq!(law.p(1), (Exact::ratio(1, 1) - &nine) / Exact::int(10));
}
