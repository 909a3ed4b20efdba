//! Tests of `src/contest.rs` (`hantei::contest`).

use hantei::pmf::Pmf;
use hantei::weight::Weight;

use hantei::contest::*;
use hantei::weight::Exact;

#[test]
fn d6_vs_d6_by_enumeration() {
    let d = Pmf::<Exact>::die(6);
    let c = compare(&d, &d);
    assert_eq!(c.win, Exact::ratio(15, 36));
    assert_eq!(c.tie, Exact::ratio(6, 36));
    assert_eq!(c.loss, Exact::ratio(15, 36));
    let r = c.with_tie_rule(TieRule::Reroll);
    assert_eq!(r.win, Exact::ratio(1, 2));
    assert_eq!(c.expected_rolls(), Some(Exact::ratio(6, 5)));
    assert_eq!(c.with_tie_rule(TieRule::Second).loss, Exact::ratio(21, 36));
    // P(A ≥ B + 5) = 1/36 for one roll; 1/30 of the rolls that decide.
    let five = Exact::ratio(1, 36);
    assert_eq!(
        c.decisive(TieRule::Reroll, five.clone()),
        Exact::ratio(1, 30)
    );
    assert_eq!(c.decisive(TieRule::Second, five.clone()), five);
}

#[test]
fn disjoint_supports() {
    let a = Pmf::<Exact>::uniform(1, 4);
    let b = Pmf::<Exact>::uniform(10, 12);
    let c = compare(&a, &b);
    assert_eq!(c.loss, Exact::ratio(1, 1));
    let c = compare(&b, &a);
    assert_eq!(c.win, Exact::ratio(1, 1));
    let p = Pmf::<Exact>::point(3);
    let c = compare(&p, &p);
    assert_eq!(c.expected_rolls(), None);
}
