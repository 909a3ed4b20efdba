//! Tests of `src/systems/dice/pool/steps.rs`
//! (`hantei::systems::dice::pool::steps`).
//!
//! Every path of a step (the dense array, the sorted codes, the map of
//! tuples, the few pairs sorted by tuple) against a reference that sums each tuple's pairs in order in a
//! `BTreeMap`: the same tuples in the same order and the same weights, to
//! the last bit.

use std::collections::BTreeMap;

use hantei::systems::dice::pool::steps::{step_by, Path, States};
use hantei::Exact;
use proptest::prelude::*;

/// Every path a step can take.
const PATHS: [Path; 5] = [
    Path::Auto,
    Path::Dense,
    Path::Sorted,
    Path::Tuples,
    Path::Few,
];

/// Pairs `(tuple, w, p)` summed in order into a `BTreeMap` (tuple order).
fn reference(pairs: &[(Vec<i64>, f64, f64)]) -> Vec<(Vec<i64>, f64)> {
    let mut m: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
    for (k, w, p) in pairs {
        *m.entry(k.clone()).or_insert(0.0) += w * p;
    }
    m.into_iter().collect()
}

fn run(len: usize, path: Path, pairs: &[(Vec<i64>, f64, f64)]) -> Vec<(Vec<i64>, f64)> {
    let s: States<f64> = step_by(len, pairs.len(), path, |sink| {
        for (k, w, p) in pairs {
            sink.put(k, w, p);
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(s.count(), s.iter().count());
    s.iter().map(|(k, w)| (k.to_vec(), *w)).collect()
}

/// Slot values: small numbers, and the sentinels an empty maximum,
/// minimum or kept slot takes.
fn slot() -> impl Strategy<Value = i64> {
    prop_oneof![
        8 => -5i64..20,
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
    ]
}

proptest! {
    #[test]
    fn every_path_sums_as_the_reference(
        len in 1usize..5,
        raw in prop::collection::vec((prop::collection::vec(slot(), 4), 0.0f64..1.0, 0.0f64..1.0), 0..200),
    ) {
        let pairs: Vec<(Vec<i64>, f64, f64)> =
            raw.into_iter().map(|(k, w, p)| (k[..len].to_vec(), w, p)).collect();
        let want = reference(&pairs);
        for path in PATHS {
            let got = run(len, path, &pairs);
            prop_assert_eq!(got.len(), want.len(), "{:?}", path);
            for ((gk, gw), (wk, ww)) in got.iter().zip(&want) {
                prop_assert_eq!(gk, wk, "{:?}", path);
                prop_assert_eq!(gw.to_bits(), ww.to_bits(), "{:?} at {:?}", path, gk);
            }
        }
    }
}

#[test]
fn wide_slots_take_the_map_of_tuples_and_agree() {
    // Two slots spanning most of i64: their codes do not fit a u64.
    let pairs = vec![
        (vec![-(1 << 62), 1 << 62], 0.5, 0.5),
        (vec![1 << 62, -(1 << 62)], 0.25, 1.0),
        (vec![-(1 << 62), 1 << 62], 0.125, 1.0),
    ];
    let want = reference(&pairs);
    for path in PATHS {
        assert_eq!(run(2, path, &pairs), want, "{path:?}");
    }
    assert_eq!(want[0], (vec![-(1 << 62), 1 << 62], 0.375));
}

#[test]
fn exact_weights_sum_exactly() {
    let h = Exact::new(1.into(), 2.into());
    let t = Exact::new(1.into(), 3.into());
    for path in PATHS {
        let s: States<Exact> = step_by(1, 3, path, |sink| {
            sink.put(&[2], &h, &t);
            sink.put(&[1], &t, &t);
            sink.put(&[2], &h, &h);
            Ok(())
        })
        .unwrap();
        let got: Vec<(Vec<i64>, Exact)> = s.iter().map(|(k, w)| (k.to_vec(), w.clone())).collect();
        assert_eq!(
            got,
            vec![
                (vec![1], Exact::new(1.into(), 9.into())),
                (vec![2], Exact::new(5.into(), 12.into())),
            ],
            "{path:?}"
        );
    }
}

#[test]
fn a_step_told_few_pairs_that_gets_many_sums_as_the_reference() {
    // `pairs` is the room a step makes, not a bound: told one pair, given
    // three hundred (past the few a step sorts by insertion), it still sums
    // each tuple in the pairs' order.
    let pairs: Vec<(Vec<i64>, f64, f64)> = (0..300i64)
        .map(|i| (vec![i % 7, (i * 5) % 11], 1.0 / (i + 2) as f64, 0.5))
        .collect();
    let want = reference(&pairs);
    let s: States<f64> = step_by(2, 1, Path::Auto, |sink| {
        for (k, w, p) in &pairs {
            sink.put(k, w, p);
        }
        Ok(())
    })
    .unwrap();
    let got: Vec<(Vec<i64>, f64)> = s.iter().map(|(k, w)| (k.to_vec(), *w)).collect();
    assert_eq!(got.len(), 77);
    for ((gk, gw), (wk, ww)) in got.iter().zip(&want) {
        assert_eq!(gk, wk);
        assert_eq!(gw.to_bits(), ww.to_bits(), "at {gk:?}");
    }
}
