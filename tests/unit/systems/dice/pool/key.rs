//! Tests of `src/systems/dice/pool/key.rs` (`hantei::systems::dice::pool::key`).

use hantei::systems::dice::pool::key::*;
use std::collections::HashMap;

#[test]
fn keys_look_up_by_slice_inline_and_spilled() {
    let mut m: HashMap<
        Key,
        u32,
        std::hash::BuildHasherDefault<hantei::systems::dice::pool::FxHasher>,
    > = HashMap::default();
    let short = [1i64, -2, 3];
    let long = [1i64, 2, 3, 4, 5, 6, 7, 8, 9];
    m.insert(Key::from(&short[..]), 1);
    m.insert(Key::from(&long[..]), 2);
    assert_eq!(m.get(&short[..]), Some(&1));
    assert_eq!(m.get(&long[..]), Some(&2));
    assert_eq!(m.get(&long[..8]), None);
    assert_eq!(INLINE, 8);
    assert!(matches!(Key::from(&short[..]), Key::Inline(3, _)));
    assert!(matches!(Key::from(&long[..]), Key::Heap(_)));
    // Order is the slice order.
    assert!(Key::from(&[1i64, 2][..]) < Key::from(&[1i64, 3][..]));
    assert!(Key::from(&[1i64][..]) < Key::from(&[1i64, 0][..]));
    let collected: Key = (0..9).collect();
    assert_eq!(&collected[..], &(0..9).collect::<Vec<i64>>()[..]);
    let collected: Key = (0..8).collect();
    assert!(matches!(collected, Key::Inline(8, _)));
}
