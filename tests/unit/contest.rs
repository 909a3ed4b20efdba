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

/// Exact laws of more than a few values are compared on their numerators
/// over a common denominator: equal to the double sum over every pair of
/// values, on laws with gaps, of different denominators, overlapping in
/// part, one moved past the other's end.
#[test]
fn exact_comparison_equals_the_double_sum() {
    let a = Pmf::<Exact>::from_pairs([
        (1, Exact::ratio(1, 7)),
        (3, Exact::ratio(2, 7)),
        (4, Exact::ratio(0, 1)),
        (6, Exact::ratio(1, 3)),
        (9, Exact::ratio(5, 21)),
    ]);
    let b = Pmf::<Exact>::from_pairs([
        (0, Exact::ratio(1, 10)),
        (3, Exact::ratio(3, 10)),
        (5, Exact::ratio(1, 4)),
        (6, Exact::ratio(1, 4)),
        (7, Exact::ratio(1, 10)),
    ]);
    let far = Pmf::<Exact>::from_pairs((100..110).map(|x| (x, Exact::ratio(1, 10))));
    // Laws of a few values (no common denominator kept of their own),
    // against a long law and against each other.
    let coin = Pmf::<Exact>::from_pairs([(1, Exact::ratio(1, 3)), (6, Exact::ratio(2, 3))]);
    let three = Pmf::<Exact>::from_pairs([
        (0, Exact::ratio(1, 5)),
        (4, Exact::ratio(1, 2)),
        (200, Exact::ratio(3, 10)),
    ]);
    for (x, y) in [
        (&a, &b),
        (&b, &a),
        (&a, &far),
        (&far, &b),
        (&a, &a),
        (&a, &coin),
        (&coin, &b),
        (&coin, &three),
        (&three, &far),
    ] {
        let (mut win, mut tie) = (Exact::zero(), Exact::zero());
        for (u, p) in x.iter() {
            for (v, q) in y.iter() {
                if u > v {
                    win += p.clone() * q;
                } else if u == v {
                    tie += p.clone() * q;
                }
            }
        }
        let c = compare(x, y);
        assert_eq!((c.win.clone(), c.tie.clone()), (win.clone(), tie.clone()));
        assert_eq!(c.loss, Exact::one() - &win - &tie);
    }
}
