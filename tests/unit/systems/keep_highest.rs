//! Tests of `src/systems/keep_highest.rs` (`hantei::systems::keep_highest`).

use hantei::pmf::Pmf;
use hantei::tier::{Tier, TierLaw};
use hantei::weight::Weight;

use hantei::systems::keep_highest::*;

#[test]
fn odds_by_difficulty_matches_each_check() {
    for v in [1i64, 2, 3, 4, 6, 9, 12, 20] {
        for n in 1..=4 {
            for sit in [
                Situation::Normal,
                Situation::Advantage,
                Situation::Disadvantage,
            ] {
                let pool = Pool::new(v, n, sit).unwrap();
                let all = odds_by_difficulty::<Exact>(&pool);
                for d in 2..=20i64 {
                    let one = odds::<Exact>(&Check::new(pool, d).unwrap());
                    assert_eq!(all[(d - 2) as usize], one, "v={v} n={n} {sit:?} D={d}");
                }
            }
        }
    }
}
use hantei::weight::Exact;
use std::collections::BTreeMap;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

fn pool(v: i64, n: i64, s: Situation) -> Pool {
    Pool::new(v, n, s).expect("valid pool")
}

fn check(v: i64, n: i64, d: i64, s: Situation) -> Check {
    Check::new(pool(v, n, s), d).expect("valid check")
}

const SITUATIONS: [Situation; 3] = [
    Situation::Normal,
    Situation::Advantage,
    Situation::Disadvantage,
];

/// Every sequence of `len` faces of a `sides`-sided die, in turn.
fn for_each_faces(sides: u32, len: usize, mut f: impl FnMut(&[u32])) {
    let mut faces = vec![1u32; len];
    loop {
        f(&faces);
        let mut i = 0;
        loop {
            if i == len {
                return;
            }
            if faces[i] < sides {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// The rule read straight from the seed, written apart from `classify`:
/// each roll's achieved value is its highest die (capped for v ≤ 3);
/// advantage keeps the higher roll (on a tie, the one showing the
/// natural maximum), disadvantage the lower (on a tie, the other).
fn oracle(v: u32, n: usize, d: u32, s: Situation, faces: &[u32]) -> (u32, Outcome) {
    let sides = Die::for_ability(v).sides;
    let cap = if v <= 3 { v } else { sides };
    let rolls: Vec<(u32, bool)> = faces
        .chunks(n)
        .map(|r| {
            let high = *r.iter().max().unwrap();
            (high.min(cap), high == sides)
        })
        .collect();
    let (x, nat) = match s {
        Situation::Normal => rolls[0],
        Situation::Advantage => {
            let (a, b) = (rolls[0], rolls[1]);
            if a.0 > b.0 || (a.0 == b.0 && a.1) {
                a
            } else {
                b
            }
        }
        Situation::Disadvantage => {
            let (a, b) = (rolls[0], rolls[1]);
            if a.0 < b.0 || (a.0 == b.0 && !a.1) {
                a
            } else {
                b
            }
        }
    };
    let tier = if x == 1 {
        Outcome::Fumble
    } else if x < d {
        Outcome::Failure
    } else if nat {
        Outcome::Critical
    } else {
        Outcome::Success
    };
    (x, tier)
}

fn count_law<T: Tier>(counts: &BTreeMap<T, i64>, total: i64) -> TierLaw<T, Exact> {
    TierLaw::from_pairs(counts.iter().map(|(t, c)| (*t, q(*c, total))))
}

#[test]
fn worked_value_v6_n3_d5() {
    let c = check(6, 3, 5, Situation::Normal);
    assert_eq!(c.law::<Exact>().p_success(), q(19, 27));
    assert_eq!(odds::<Exact>(&c).p_success, q(19, 27));
}

#[test]
fn seed_examples() {
    // 〈運動〉【身体】6, skill and specialty: 3d6 showing 1, 3, 5 → 5.
    let c = check(6, 3, 5, Situation::Normal);
    assert_eq!(c.classify(&[1, 3, 5]).kept.value, 5);
    assert_eq!(c.classify(&[1, 3, 5]).tier, Outcome::Success);
    // 2d6 showing 1 and 6: achieved 6, critical on a success.
    let c = check(6, 2, 4, Situation::Normal);
    assert_eq!(c.classify(&[1, 6]).tier, Outcome::Critical);
    // Ability 1–3: only a natural 4 is critical; the value is capped.
    let c = check(3, 2, 3, Situation::Normal);
    assert_eq!(c.classify(&[4, 1]).tier, Outcome::Critical);
    assert_eq!(c.classify(&[3, 1]).tier, Outcome::Success);
    assert_eq!(c.classify(&[4, 1]).kept.value, 3);
    // Achieved 1 is a fumble.
    assert_eq!(c.classify(&[1, 1]).tier, Outcome::Fumble);
}

#[test]
fn die_sizes_and_ladder() {
    let sides: Vec<u32> = (1..=25).map(|v| Die::for_ability(v).sides).collect();
    assert_eq!(
        sides,
        [
            4, 4, 4, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 12, 12, 12, 12, 12, 12, 20, 20, 20, 20, 20,
            20
        ]
    );
    assert_eq!(Die::for_ability(2).cap, Some(2));
    assert_eq!(Die::for_ability(4).cap, None);
    assert_eq!(step_size(6, 1), Some(8));
    assert_eq!(step_size(6, 2), Some(10));
    assert_eq!(step_size(6, -1), Some(4));
    assert_eq!(step_size(4, -1), None);
    assert_eq!(step_size(20, 1), None);
    assert_eq!(step_size(7, 0), None);
}

#[test]
fn validation() {
    let e = Pool::new(6, 0, Situation::Normal).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '0' for --dice: must be at least 1"
    );
    let e = Pool::new(0, 1, Situation::Normal).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '0' for --ability: must be at least 1"
    );
    let e = Pool::new_vs(6, -2, Situation::Normal).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value '-2' for --vs-dice: must be at least 1"
    );
    for d in [1, 21, 0, -5] {
        let e = Check::new(pool(6, 1, Situation::Normal), d).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("invalid value '{d}' for --difficulty: allowed 2..=20")
        );
    }
}

#[test]
fn counts_cancel() {
    assert_eq!(Situation::from_counts(2, 1), Situation::Normal);
    assert_eq!(Situation::from_counts(1, 3), Situation::Normal);
    assert_eq!(Situation::from_counts(2, 0), Situation::Advantage);
    assert_eq!(Situation::from_counts(0, 1), Situation::Disadvantage);
    assert_eq!(Situation::from_counts(0, 0), Situation::Normal);
}

#[test]
fn closed_forms() {
    // P(X ≤ k) = (k/s)^n; advantage (k/s)^(2n); disadvantage 1 − (1 − (k/s)^n)².
    for v in [4i64, 6, 8, 10, 12, 20] {
        let s = Die::for_ability(v as u32).sides as i64;
        for n in 1..=3 {
            for k in 1..=s {
                let f = q(k, s).powi(n as u32);
                let cdf = |sit| pool(v, n, sit).achieved::<Exact>().cdf(k);
                assert_eq!(cdf(Situation::Normal), f);
                assert_eq!(cdf(Situation::Advantage), f.powi(2));
                let g = f.complement();
                assert_eq!(cdf(Situation::Disadvantage), g.powi(2).complement());
            }
        }
    }
}

#[test]
fn ability_one_always_fumbles() {
    for s in SITUATIONS {
        let law = check(1, 3, 2, s).law::<Exact>();
        assert_eq!(law.p(Outcome::Fumble), q(1, 1));
        let r = report::<f64>(&check(1, 3, 2, s));
        assert!(r.notes.iter().any(|n| n.contains("every roll is a fumble")));
    }
}

/// Brute force: every face sequence through `classify`, for every
/// ability 1..=20, dice 1..=4 (fewer with advantage on big dice), every
/// difficulty and situation, against the exact law.
#[test]
fn brute_force_checks() {
    for v in 1..=20i64 {
        let sides = Die::for_ability(v as u32).sides;
        for s in SITUATIONS {
            for n in 1..=4i64 {
                let p = pool(v, n, s);
                let len = p.faces_rolled();
                let total = i64::from(sides).pow(len as u32);
                if total > 300_000 {
                    continue;
                }
                let checks: Vec<Check> = (2..=20).map(|d| check(v, n, d, s)).collect();
                let mut counts = vec![BTreeMap::new(); checks.len()];
                let mut values = BTreeMap::new();
                for_each_faces(sides, len, |faces| {
                    for (c, m) in checks.iter().zip(counts.iter_mut()) {
                        let roll = c.classify(faces);
                        let want = oracle(v as u32, n as usize, c.difficulty(), s, faces);
                        assert_eq!((roll.kept.value, roll.tier), want, "{c:?} {faces:?}");
                        *m.entry(roll.tier).or_insert(0i64) += 1;
                    }
                    *values.entry(p.read(faces).value as i64).or_insert(0i64) += 1;
                });
                for (c, m) in checks.iter().zip(&counts) {
                    assert_eq!(c.law::<Exact>(), count_law(m, total), "{c:?}");
                    let o = odds::<Exact>(c);
                    let law = count_law(m, total);
                    assert_eq!(o.p_success, law.p_success());
                    assert_eq!(o.p_critical, law.p(Outcome::Critical));
                    assert_eq!(o.p_fumble, law.p(Outcome::Fumble));
                }
                let x = Pmf::from_pairs(values.iter().map(|(k, c)| (*k, q(*c, total))));
                assert_eq!(p.achieved::<Exact>(), x, "{p:?}");
            }
        }
    }
}

#[test]
fn brute_force_contests() {
    let actives = [
        pool(2, 2, Situation::Normal),
        pool(3, 1, Situation::Advantage),
        pool(6, 2, Situation::Normal),
        pool(6, 1, Situation::Disadvantage),
        pool(8, 1, Situation::Advantage),
    ];
    let passives = [
        None,
        Some(pool_vs(3, 2, Situation::Disadvantage)),
        Some(pool_vs(4, 1, Situation::Advantage)),
        Some(pool_vs(6, 2, Situation::Normal)),
        Some(pool_vs(8, 1, Situation::Normal)),
    ];
    for a in actives {
        for p in passives {
            for tie_rule in [
                TieRule::Separate,
                TieRule::Active,
                TieRule::Passive,
                TieRule::Reroll,
            ] {
                let contest = Contest {
                    active: a,
                    passive: p,
                    tie_rule,
                };
                let (ps, plen) = p.map_or((1, 0), |p| (p.die().sides, p.faces_rolled()));
                let total = i64::from(a.die().sides).pow(a.faces_rolled() as u32)
                    * i64::from(ps).pow(plen as u32);
                let mut results = BTreeMap::new();
                let (mut crit, mut fumble) = (0i64, 0i64);
                for_each_faces(a.die().sides, a.faces_rolled(), |af| {
                    for_each_faces(ps, plen, |pf| {
                        let r = contest.classify(af, pf);
                        *results.entry(r.result).or_insert(0i64) += 1;
                        crit += i64::from(r.critical);
                        // Under reroll only the rolls that decide count.
                        let decides = tie_rule != TieRule::Reroll || r.result != ContestResult::Tie;
                        fumble += i64::from(decides && r.active.value == 1);
                    });
                });
                let c = contest.comparison::<Exact>();
                let n = |k| results.get(&k).copied().unwrap_or(0);
                // Under reroll, the rolls that decide: every roll but a tie.
                let decided = match tie_rule {
                    TieRule::Reroll => total - n(ContestResult::Tie),
                    _ => total,
                };
                if decided == 0 {
                    continue;
                }
                let count = |k| q(n(k), decided);
                assert_eq!(c.win, count(ContestResult::Win), "{contest:?}");
                if tie_rule == TieRule::Reroll {
                    assert_eq!(c.tie, q(0, 1), "{contest:?}");
                } else {
                    assert_eq!(c.tie, count(ContestResult::Tie), "{contest:?}");
                }
                assert_eq!(c.loss, count(ContestResult::Loss), "{contest:?}");
                assert_eq!(
                    contest.p_critical::<Exact>(),
                    q(crit, decided),
                    "{contest:?}"
                );
                assert_eq!(
                    contest.p_fumble::<Exact>(),
                    q(fumble, decided),
                    "{contest:?}"
                );
            }
        }
    }
}

fn pool_vs(v: i64, n: i64, s: Situation) -> Pool {
    Pool::new_vs(v, n, s).expect("valid pool")
}

#[test]
fn contest_against_no_roll() {
    // The passive side cannot roll: the active side always wins.
    let contest = Contest {
        active: pool(6, 1, Situation::Normal),
        passive: None,
        tie_rule: TieRule::Separate,
    };
    let c = contest.comparison::<Exact>();
    assert_eq!(c.win, q(1, 1));
    assert_eq!(contest.p_critical::<Exact>(), q(1, 6));
}

/// Sums to one; success never rises with difficulty, never falls with
/// ability or dice; advantage ≥ normal ≥ disadvantage.
#[test]
fn properties() {
    let (vs, ns) = (22i64, 5i64);
    let mut p = BTreeMap::new();
    for v in 1..=vs + 1 {
        for n in 1..=ns + 1 {
            for d in 2..=20i64 {
                for (i, s) in SITUATIONS.into_iter().enumerate() {
                    let law = check(v, n, d, s).law::<Exact>();
                    assert_eq!(law.total(), q(1, 1));
                    p.insert((v, n, d, i), law.p_success());
                }
            }
        }
    }
    for v in 1..=vs {
        for n in 1..=ns {
            for d in 2..=20i64 {
                for i in 0..SITUATIONS.len() {
                    let here = &p[&(v, n, d, i)];
                    if d < 20 {
                        assert!(&p[&(v, n, d + 1, i)] <= here);
                    }
                    assert!(&p[&(v + 1, n, d, i)] >= here);
                    assert!(&p[&(v, n + 1, d, i)] >= here);
                }
                let (nor, adv, dis) = (&p[&(v, n, d, 0)], &p[&(v, n, d, 1)], &p[&(v, n, d, 2)]);
                assert!(adv >= nor && nor >= dis, "v={v} n={n} d={d}");
            }
        }
    }
}

#[test]
fn report_fields() {
    let r = report::<Exact>(&check(6, 3, 5, Situation::Normal));
    let j = r.to_json();
    assert_eq!(j["p_success"], "19/27");
    assert_eq!(j["params"]["die"], "d6");
    assert_eq!(j["achieved"].as_array().map(Vec::len), Some(7));
    assert_eq!(j["p_critical"], "91/216");
    assert_eq!(j["p_fumble"], "1/216");
    let r = contest_report::<Exact>(&Contest {
        active: pool(6, 1, Situation::Normal),
        passive: Some(pool_vs(6, 1, Situation::Normal)),
        tie_rule: TieRule::Separate,
    });
    let j = r.to_json();
    assert_eq!(j["p_win"], "5/12");
    assert_eq!(j["p_tie"], "1/6");
    assert_eq!(j["p_success"], "5/12");
    assert_eq!(j["p_critical"], "5/36");
}

#[test]
fn a_roll_is_a_dice_program_the_planner_computes() {
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    // Ability 3: a d4 capped at 3, ranks 2X + [natural 4]: 2, 4, 6, 7.
    let p = pool(3, 2, Situation::Normal);
    assert_eq!(p.program().to_string(), "2D{2,4,6,7}KH1");
    // Advantage: the higher of two rolls is the highest of 2n dice.
    assert_eq!(
        pool(9, 3, Situation::Advantage).program().to_string(),
        "6D{2,4,6,8,10,12,14,17}KH1"
    );
    // The planner keeps one die by the extreme, and says so to --explain.
    let ((), decisions) = plan::explain(|| {
        let law = pool(20, 3, Situation::Normal).achieved::<Exact>();
        // P(X = 20) = 1 − (19/20)³.
        assert_eq!(law.p(20), q(8000 - 6859, 8000));
    });
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0].algorithm, Algorithm::Extreme);
    // The largest pools allowed stay within the planner's limits, exactly
    // too (the system does not expect a refusal there).
    for sit in SITUATIONS {
        let big = pool(20, MAX_DICE, sit);
        let exact = big.achieved::<Exact>();
        assert_eq!(exact.total(), q(1, 1));
        let f = big.achieved::<f64>();
        assert!((f.total() - 1.0).abs() < 1e-12);
    }
}
