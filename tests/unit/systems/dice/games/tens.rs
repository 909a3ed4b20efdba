//! Tests of `src/systems/dice/games/tens.rs` (`hantei::systems::dice::games::tens`).

use hantei::weight::Weight;

use hantei::systems::dice::games::tens::*;
use hantei::weight::Exact;

/// Against every face of up to three tens dice.
#[test]
fn matches_enumeration() {
    for k in 1..=3u32 {
        for lowest in [true, false] {
            let law = d100_kept::<Exact>(k, lowest);
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
