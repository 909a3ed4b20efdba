//! Tests of `src/extended.rs` (`hantei::extended`).

use hantei::pmf::Pmf;
use hantei::weight::Weight;

use hantei::extended::*;
use hantei::weight::Exact;

#[test]
fn coin_flips_until_two_heads() {
    let coin = Pmf::<Exact>::bernoulli(Exact::ratio(1, 2));
    let law = run(2, 3, |_| coin.clone());
    // P(2 heads within 2) = 1/4; within 3 = 1/4 + 2·1/8 = 1/2.
    assert_eq!(law.p_done_by[0], Exact::ratio(0, 1));
    assert_eq!(law.p_done_by[1], Exact::ratio(1, 4));
    assert_eq!(law.p_done_by[2], Exact::ratio(1, 2));
    // Rolls made: 1 + 1 + P(not done after 2) = 2 + 3/4.
    assert_eq!(law.expected_rolls, Exact::ratio(11, 4));
    // Negative binomial mean: 2 / (1/2) = 4.
    assert_eq!(expected_rolls_unbounded(2, &coin), Some(Exact::int(4)));
}

#[test]
fn abort_ends_the_test() {
    let step = Pmf::<Exact>::from_pairs([
        (ABORT, Exact::ratio(1, 3)),
        (0, Exact::ratio(1, 3)),
        (1, Exact::ratio(1, 3)),
    ]);
    let law = run(1, 1, |_| step.clone());
    assert_eq!(law.p_done(), Exact::ratio(1, 3));
    assert_eq!(law.p_aborted, Exact::ratio(1, 3));
    // e = 1 / (2/3) = 3/2 (abort ends it too).
    assert_eq!(expected_rolls_unbounded(1, &step), Some(Exact::ratio(3, 2)));
}
