//! Tests of `src/systems/dice/games/cthulhu7th.rs` (`hantei::systems::dice::games::cthulhu7th`).

use hantei::systems::dice::games::GameCmd;
use hantei::weight::Weight;

use hantei::systems::dice::games::cthulhu7th::*;
use hantei::weight::Exact;

fn cmd(s: &str) -> Cmd {
    match parse(s).unwrap().unwrap() {
        GameCmd::Cthulhu7th(c) => c,
        _ => unreachable!(),
    }
}

/// By hand: with one bonus die and s = 50, a regular success or better
/// needs the kept reading ≤ 50. For ones o in 1..=9 a reading ≤ 50
/// needs a tens digit ≤ 4 (5 of 10) on at least one of two dice:
/// 1 − (1/2)² = 3/4. For o = 0 the readings are 10·T with T in 1..=10,
/// ≤ 50 needs T ≤ 5 on one of two: again 3/4. So 3/4.
#[test]
fn bonus_die_at_fifty_is_three_quarters() {
    let law = cmd("CC(1)<=50").law::<Exact>();
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(3, 4));
    // No bonus: 50/100, fumble only on 100 (s = 50 is not below 50).
    let law = cmd("CC<=50").law::<Exact>();
    assert_eq!(law.p_flag(|o| o.success), Exact::ratio(1, 2));
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(1, 100));
    let law = cmd("CC<=49").law::<Exact>();
    assert_eq!(law.p_flag(|o| o.fumble), Exact::ratio(5, 100));
    assert_eq!(law.p_flag(|o| o.critical), Exact::ratio(1, 100));
}
