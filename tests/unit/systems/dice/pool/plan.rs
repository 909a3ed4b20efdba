//! Tests of `src/systems/dice/pool/plan.rs` (`hantei::systems::dice::pool::plan`).

use hantei::systems::dice::pool::plan::*;

#[test]
fn multisets_count_by_hand() {
    // 2 dice of 6 outcomes: 21 unordered pairs; 3 of 2: 4.
    assert_eq!(multisets(6, 2), 21);
    assert_eq!(multisets(2, 3), 4);
    assert_eq!(multisets(6, 0), 1);
    assert_eq!(multisets(1, 50), 1);
}
