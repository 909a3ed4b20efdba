//! Tests of `src/systems/levels.rs` (`hantei::systems::levels`).

use hantei::tier::{Tier, TierLaw};
use hantei::weight::{Exact, Weight};

use hantei::systems::levels::*;
use std::collections::BTreeMap;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

fn skill(v: &[i64]) -> Skill {
    Skill::new(v).expect("valid skill")
}

const RULES: [CriticalRule; 2] = [CriticalRule::Exact, CriticalRule::Top5];

/// Skill lists with 100-runs, zeros, single levels and long ladders.
fn skills() -> Vec<Skill> {
    [
        &[50, 30, 15][..],
        &[50, 30, 15, 10],
        &[70, 40, 30],
        &[100],
        &[0],
        &[1],
        &[100, 100, 95, 40, 0],
        &[100, 100, 100],
        &[99, 98, 2, 1, 0],
        &[60, 48, 36, 24, 12],
        &[37, 19, 0],
        &[20, 19],
    ]
    .iter()
    .map(|v| skill(v))
    .collect()
}

fn count_law<T: Tier>(counts: &BTreeMap<T, i64>, total: i64) -> TierLaw<T, Exact> {
    TierLaw::from_pairs(counts.iter().map(|(t, c)| (*t, q(*c, total))))
}

#[test]
fn validation() {
    let e = Skill::new(&[50, 30, 40]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid skill list: level 3 (value 40) must be below level 2's 30"
    );
    let e = Skill::new(&[50, 60, 15]).unwrap_err();
    assert!(e.to_string().contains("level 2 (value 60)"));
    let e = Skill::new(&[50, 50]).unwrap_err();
    assert!(e
        .to_string()
        .contains("level 2 (value 50) must be below level 1's 50"));
    let e = Skill::new(&[101]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid skill list: level 1 (value 101) must be in 0..=100"
    );
    assert!(Skill::new(&[50, -1]).is_err());
    assert!(Skill::new(&[]).is_err());
    // 100-runs: allowed while every lower level is 100.
    assert!(Skill::new(&[100, 100, 100]).is_ok());
    assert!(Skill::new(&[100, 100, 95, 95]).is_err());
    assert!(Skill::new(&[100, 50, 100]).is_err());
    assert!(Skill::new(&[50, 0]).is_ok());
    let s = skill(&[50, 30, 15]);
    let e = Check::new(s.clone(), Some(4), Required::Known(1), CriticalRule::Exact).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '4' for --level: allowed 1..=3"
    );
    assert!(Check::new(s.clone(), Some(0), Required::Known(1), CriticalRule::Exact).is_err());
    let e = Required::known(0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '0' for --difficulty: must be at least 1"
    );
    let e = Contest::new(s.clone(), s, None, Some(5), CriticalRule::Exact).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '5' for --vs-level: allowed 1..=3"
    );
    assert!(Prior::new(&[0, 0]).is_err());
    assert!(Prior::new(&[1, -1]).is_err());
    assert!(Prior::new(&[]).is_err());
}

#[test]
fn conversions() {
    assert_eq!(Skill::from_brp(50).unwrap().values(), [50, 25, 10]);
    assert_eq!(Skill::from_brp(30).unwrap().values(), [30, 15]);
    assert_eq!(Skill::from_brp(100).unwrap().values(), [100, 50, 20, 10]);
    assert_eq!(Skill::from_brp(99).unwrap().values(), [99, 49, 19]);
    assert_eq!(Skill::from_brp(15).unwrap().values(), [15]);
    assert_eq!(Skill::from_brp(5).unwrap().values(), [5]);
    assert!(Skill::from_brp(101).is_err());
    assert!(Skill::from_brp(-1).is_err());
    assert_eq!(
        Skill::from_ability(12).unwrap().values(),
        [60, 48, 36, 24, 12]
    );
    assert_eq!(
        Skill::from_ability(30).unwrap().values(),
        [100, 100, 90, 60, 30]
    );
    assert_eq!(Skill::from_ability(200).unwrap().values(), [100; 5]);
    assert!(Skill::from_ability(0).is_err());
    // Every ability gives a valid list.
    for a in 1..=120 {
        assert!(Skill::from_ability(a).is_ok(), "{a}");
    }
    for s in 0..=100 {
        assert!(Skill::from_brp(s).is_ok(), "{s}");
    }
}

#[test]
fn seed_check_examples() {
    // 《目星:[1:50],[2:30],[3:15]》, hidden door needs level 2; the
    // player declares level 1 and rolls 15: a level-1 success, short.
    let s = skill(&[50, 30, 15]);
    let c = Check::new(s.clone(), Some(1), Required::Known(2), CriticalRule::Exact).unwrap();
    assert_eq!(c.classify(15, 2), Outcome::Short);
    assert_eq!(c.law::<Exact>().p_success(), q(0, 1));
    assert_eq!(c.law::<Exact>().p(Outcome::Short), q(1, 2));
    // Level 2 against difficulty 2: achieved iff r ≤ 30.
    let c = Check::new(s.clone(), Some(2), Required::Known(2), CriticalRule::Exact).unwrap();
    assert_eq!(c.law::<Exact>().p_success(), q(3, 10));
    assert_eq!(c.classify(30, 2), Outcome::Critical);
    assert_eq!(c.classify(29, 2), Outcome::Achieved);
    assert_eq!(c.classify(31, 2), Outcome::Failure);
    // Level 4 is required: no roll can achieve it.
    let c = Check::new(s.clone(), None, Required::Known(4), CriticalRule::Exact).unwrap();
    assert_eq!(c.law::<Exact>().p_success(), q(0, 1));
    // Footnote: value 50 with the top-5% band → 49 and 50 are critical.
    let c = Check::new(
        skill(&[50]),
        Some(1),
        Required::Known(1),
        CriticalRule::Top5,
    )
    .unwrap();
    assert_eq!(c.classify(49, 1), Outcome::Critical);
    assert_eq!(c.classify(48, 1), Outcome::Achieved);
    assert_eq!(c.law::<Exact>().p(Outcome::Critical), q(2, 100));
}

#[test]
fn seed_contest_table() {
    let c = Contest::new(
        skill(&[50, 30, 15, 10]),
        skill(&[70, 40, 30]),
        None,
        None,
        CriticalRule::Exact,
    )
    .unwrap();
    let lands: Vec<Exact> = (1..=4).map(|l| c.law_at::<Exact>(l).p_success()).collect();
    assert_eq!(lands, [q(15, 100), q(18, 100), q(105, 1000), q(10, 100)]);
    assert_eq!(c.best_level(), 2);
    let r = contest_report::<Exact>(&c).to_json();
    assert_eq!(r["best_level"], 2);
    assert_eq!(r["by_level"][2]["p_lands"], "21/200");
    assert_eq!(r["by_level"][0]["p_critical"], "3/1000");
    assert_eq!(r["p_win"], "9/50");
}

#[test]
fn seed_contest_narrative() {
    let a_attack = skill(&[50, 30, 15, 10]);
    let a_defence = skill(&[50, 30, 15]);
    let b_attack = skill(&[40, 20]);
    let b_defence = skill(&[70, 40, 30]);
    let contest = |att: &Skill, def: &Skill| {
        Contest::new(att.clone(), def.clone(), None, None, CriticalRule::Exact).unwrap()
    };
    // A attacks at level 1, 25: success; B defends at 1, 30: success.
    let ab = contest(&a_attack, &b_defence);
    assert_eq!(ab.classify(25, 30, 1), ContestOutcome::Defended);
    // B attacks at 1, 38; A defends at 1, 71: fails → the attack lands.
    let ba = contest(&b_attack, &a_defence);
    assert_eq!(ba.classify(38, 71, 1), ContestOutcome::Lands);
    // A attacks at level 4, 7; B has no level 4 → lands whatever B rolls.
    for r_def in 1..=100 {
        assert_eq!(ab.classify(7, r_def, 4), ContestOutcome::Lands);
    }
    // B attacks at 1 and rolls 100: the attack fails, no defence roll.
    for r_def in 1..=100 {
        assert_eq!(ba.classify(100, r_def, 1), ContestOutcome::AttackFails);
    }
    // A attacks at level 1 and rolls exactly 50, but B's defence
    // succeeds: defended, not critical.
    assert_eq!(ab.classify(50, 70, 1), ContestOutcome::Defended);
    assert_eq!(ab.classify(50, 71, 1), ContestOutcome::Critical);
    // A defence below the attacker's level cannot stop it.
    let low = Contest::new(
        a_attack.clone(),
        b_defence.clone(),
        None,
        Some(1),
        CriticalRule::Exact,
    )
    .unwrap();
    assert_eq!(low.classify(20, 1, 2), ContestOutcome::Lands);
    assert_eq!(low.classify(20, 1, 1), ContestOutcome::Defended);
}

/// Brute force over every d100 roll (and every difficulty), against the
/// closed-form law, for many skills, levels, difficulties and both
/// critical rules.
#[test]
fn brute_force_checks() {
    for s in skills() {
        for critical in RULES {
            for level in 1..=s.levels() {
                for d in 1..=s.levels() as u32 + 1 {
                    let c = Check::new(s.clone(), Some(level as i64), Required::Known(d), critical)
                        .unwrap();
                    let mut counts = BTreeMap::new();
                    for r in 1..=100 {
                        *counts.entry(c.classify(r, d)).or_insert(0) += 1;
                    }
                    assert_eq!(c.law::<Exact>(), count_law(&counts, 100), "{c:?}");
                }
            }
        }
    }
}

#[test]
fn brute_force_priors() {
    let priors = [
        &[1, 1, 1][..],
        &[0, 3, 1, 2],
        &[5],
        &[0, 0, 0, 0, 0, 1],
        &[2, 1],
    ];
    for s in skills() {
        for w in priors {
            let prior = Prior::new(w).unwrap();
            for critical in RULES {
                for level in 1..=s.levels() {
                    let c = Check::new(
                        s.clone(),
                        Some(level as i64),
                        Required::Prior(prior.clone()),
                        critical,
                    )
                    .unwrap();
                    let total: i64 = w.iter().sum::<i64>() * 100;
                    let mut counts = BTreeMap::new();
                    for (i, &wd) in w.iter().enumerate() {
                        for r in 1..=100 {
                            *counts.entry(c.classify(r, i as u32 + 1)).or_insert(0) += wd;
                        }
                    }
                    assert_eq!(c.law::<Exact>(), count_law(&counts, total), "{c:?}");
                    // P(achieved | L) = v_L/100 × P(D ≤ L).
                    let v = i64::from(s.value(level).unwrap());
                    assert_eq!(
                        c.law::<Exact>().p_success(),
                        q(v, 100) * prior.at_most::<Exact>(level)
                    );
                }
                // The best level by brute force, ties to the lowest.
                let c =
                    Check::new(s.clone(), None, Required::Prior(prior.clone()), critical).unwrap();
                let scores: Vec<Exact> = (1..=s.levels())
                    .map(|l| {
                        let v = i64::from(s.value(l).unwrap());
                        q(v, 100) * prior.at_most::<Exact>(l)
                    })
                    .collect();
                let top = scores.iter().max().unwrap();
                let want = scores.iter().position(|x| x == top).unwrap() + 1;
                assert_eq!(c.best_level(), want);
                assert_eq!(c.level(), want);
            }
        }
    }
}

#[test]
fn brute_force_contests() {
    let sk = skills();
    for att in &sk {
        for def in &sk {
            let replies: Vec<Option<i64>> = std::iter::once(None)
                .chain((1..=def.levels() as i64).map(Some))
                .collect();
            for reply in replies {
                for critical in RULES {
                    let c = Contest::new(att.clone(), def.clone(), None, reply, critical).unwrap();
                    for la in 1..=att.levels() {
                        let mut counts = BTreeMap::new();
                        for ra in 1..=100 {
                            for rd in 1..=100 {
                                *counts.entry(c.classify(ra, rd, la)).or_insert(0) += 1;
                            }
                        }
                        assert_eq!(
                            c.law_at::<Exact>(la),
                            count_law(&counts, 10_000),
                            "{c:?} la={la}"
                        );
                    }
                }
            }
        }
    }
}

/// Sums to one; success never rises with the required level and never
/// falls when a level's value rises.
#[test]
fn properties() {
    for s in skills() {
        for critical in RULES {
            for level in 1..=s.levels() {
                let p = |d: u32| {
                    let c = Check::new(s.clone(), Some(level as i64), Required::Known(d), critical)
                        .unwrap();
                    let law = c.law::<Exact>();
                    assert_eq!(law.total(), q(1, 1));
                    law.p_success()
                };
                for d in 1..=6 {
                    assert!(p(d + 1) <= p(d));
                }
            }
        }
    }
    // Raising a single-level skill's value never lowers success.
    for v in 0..100 {
        let p = |v: i64| {
            Check::new(
                skill(&[v]),
                Some(1),
                Required::Known(1),
                CriticalRule::Exact,
            )
            .unwrap()
            .law::<Exact>()
            .p_success()
        };
        assert!(p(v + 1) >= p(v));
    }
    // A defence never helps the attacker: p_lands falls as vd rises.
    for vd in 0..100 {
        let p = |vd: i64| {
            Contest::new(
                skill(&[60]),
                skill(&[vd]),
                Some(1),
                None,
                CriticalRule::Exact,
            )
            .unwrap()
            .law::<Exact>()
            .p_success()
        };
        assert!(p(vd + 1) <= p(vd));
    }
}

#[test]
fn best_level_ties_go_low() {
    // [100, 100]: both levels always succeed at D = 1 → level 1.
    let c = Check::new(
        skill(&[100, 100]),
        None,
        Required::Known(1),
        CriticalRule::Exact,
    )
    .unwrap();
    assert_eq!(c.best_level(), 1);
    // [100, 100] against a defence of 0 at level 1 and none at level 2:
    // both levels always land → level 1.
    let c = Contest::new(
        skill(&[100, 100]),
        skill(&[0]),
        None,
        None,
        CriticalRule::Exact,
    )
    .unwrap();
    assert_eq!(c.best_level(), 1);
}

#[test]
fn report_fields() {
    let c = Check::new(
        skill(&[50, 30, 15]),
        None,
        Required::Prior(Prior::new(&[1, 1, 2]).unwrap()),
        CriticalRule::Exact,
    )
    .unwrap();
    let j = report::<Exact>(&c).to_json();
    // P(achieved | L): 50%·1/4, 30%·1/2, 15%·1 → best is level 2.
    assert_eq!(j["by_level"][0]["p_success"], "1/8");
    assert_eq!(j["by_level"][1]["p_success"], "3/20");
    assert_eq!(j["by_level"][2]["p_success"], "3/20");
    assert_eq!(j["best_level"], 2);
    assert_eq!(j["params"]["level"], 2);
    assert_eq!(j["p_success"], "3/20");
    assert_eq!(j["params"]["prior"], serde_json::json!([1, 1, 2]));
}
