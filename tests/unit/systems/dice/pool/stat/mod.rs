//! Tests of `src/systems/dice/pool/stat/` (`hantei::systems::dice::pool::stat`).
//!
//! Each statistic's algebra (what one die contributes, how parts combine,
//! `times`, `finish`) against its plain rule on rolled dice: for every
//! sequence of up to four dice over a small set of faces, scores and
//! terms, the contributions combined from the neutral value and finished
//! equal `of_roll` on the same dice.

use hantei::systems::dice::ast::{Cmp, FaceCond, Score};
use hantei::systems::dice::cond;
use hantei::systems::dice::pool::stat::{Die, Stat, WORDS};
use hantei::systems::dice::pool::RESERVED;
use hantei::systems::dice::roll::{DieRec, Facts};

/// The dice a test rolls: (face, score, term).
fn dice() -> Vec<(i64, Score, Option<String>)> {
    let scored = |v, s: i64| Score {
        value: v,
        units: if s == 0 {
            Vec::new()
        } else {
            vec![("s".to_string(), s)]
        },
    };
    vec![
        (1, scored(1, 0), None),
        (3, scored(0, 1), Some("a".into())),
        (6, scored(6, 2), Some("a".into())),
        (6, scored(2, 0), None),
        (-1, scored(-1, 0), Some("b".into())),
    ]
}

/// Every statistic whose value combines die by die.
fn order_free_stats() -> Vec<Stat> {
    vec![
        Stat::Total,
        Stat::Natural,
        Stat::Max,
        Stat::Min,
        Stat::Count(FaceCond::Cmp(Cmp::Eq, 6), None),
        Stat::Count(FaceCond::Cmp(Cmp::Ge, 3), Some("a".into())),
        Stat::Count(FaceCond::Range(-1, 1), None),
        Stat::Unit("s".into()),
        Stat::AllEqual,
    ]
}

/// Every sequence of `n` dice of [`dice`].
fn rolls(n: usize) -> Vec<Vec<usize>> {
    let k = dice().len();
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|r| {
                (0..k).map(move |i| {
                    let mut r = r.clone();
                    r.push(i);
                    r
                })
            })
            .collect();
    }
    out
}

fn facts(roll: &[usize]) -> Facts {
    let d = dice();
    let recs: Vec<DieRec> = roll
        .iter()
        .map(|&i| DieRec {
            face: d[i].0,
            score: d[i].1.clone(),
            term: d[i].2.clone(),
        })
        .collect();
    Facts {
        total: recs.iter().map(|r| r.score.value).sum(),
        natural: recs.iter().map(|r| r.face).sum(),
        dice: recs,
        named: Vec::new(),
        pushed: false,
    }
}

#[test]
fn contributions_combined_equal_the_plain_rule() {
    let d = dice();
    for s in order_free_stats() {
        assert!(s.order_free(), "{s}");
        for n in 0..=4 {
            for roll in rolls(n) {
                let folded = roll.iter().fold(s.neutral(), |acc, &i| {
                    let c = s.contribution(Die {
                        face: d[i].0,
                        score: &d[i].1,
                        term: d[i].2.as_deref(),
                    });
                    s.combine(acc, c)
                });
                assert_eq!(
                    s.finish(folded),
                    s.of_roll(&facts(&roll)),
                    "{s} on faces {:?}",
                    roll.iter().map(|&i| d[i].0).collect::<Vec<_>>()
                );
            }
        }
    }
}

#[test]
fn times_is_repeated_combination() {
    let d = dice();
    for s in order_free_stats() {
        for (face, score, term) in &d {
            let c = s.contribution(Die {
                face: *face,
                score,
                term: term.as_deref(),
            });
            let mut acc = s.neutral();
            for m in 0..=5 {
                assert_eq!(s.times(c, m), acc, "{s}: {m} dice of face {face}");
                acc = s.combine(acc, c);
            }
        }
    }
}

#[test]
fn sets_are_read_from_multiplicities() {
    // Width and height: the widest set, the highest face on ties.
    let roll = [0, 3, 2, 1]; // faces 1, 6, 6, 3
    let f = facts(&roll);
    assert_eq!(Stat::Width.of_roll(&f), 2);
    assert_eq!(Stat::Height.of_roll(&f), 6);
    let tie = facts(&[0, 1]); // faces 1, 3
    assert_eq!(Stat::Width.of_roll(&tie), 1);
    assert_eq!(Stat::Height.of_roll(&tie), 3);
    assert!(!Stat::Width.order_free() && !Stat::Height.order_free());
}

#[test]
fn every_word_parses_to_its_statistic_and_is_reserved() {
    for (w, s) in WORDS {
        assert!(RESERVED.contains(w), "'{w}' must be reserved for names");
        let c = cond::parse(&format!("{w}>=1")).unwrap();
        assert_eq!(c.stats(), vec![s.clone()], "{w}");
        // Its written form reads back as itself.
        assert_eq!(Stat::by_word(&s.to_string()).as_ref(), Some(s), "{w}");
    }
    assert!(RESERVED.contains(&"count"));
}
