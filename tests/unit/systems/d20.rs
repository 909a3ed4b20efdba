//! Tests of `src/systems/d20.rs` (`hantei::systems::d20`).

use hantei::error::Result;
use hantei::report::Field;
use hantei::tier::{Tier, TierLaw};
use hantei::weight::{Exact, Weight};

use hantei::systems::d20::*;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

const ROLLS: [Roll; 3] = [Roll::Normal, Roll::Advantage, Roll::Disadvantage];

fn check(modifier: i64, dc: i64, roll: Roll, crit_on: u32) -> Check {
    Check::new(Side::with_modifier(modifier, roll).unwrap(), dc, crit_on).unwrap()
}

/// Every sequence of `n` d20 faces.
fn all_faces(n: usize) -> Vec<Vec<u32>> {
    (0..n).fold(vec![vec![]], |acc, _| {
        acc.iter()
            .flat_map(|v| {
                (1..=20).map(move |f| {
                    let mut w = v.clone();
                    w.push(f);
                    w
                })
            })
            .collect()
    })
}

#[test]
fn worked_values_rules_section_2() {
    // +5 vs DC 15: 11/20, advantage 319/400, disadvantage 121/400.
    let want = [q(11, 20), q(319, 400), q(121, 400)];
    for (roll, want) in ROLLS.into_iter().zip(want) {
        let c = check(5, 15, roll, 20);
        assert_eq!(c.law::<Exact>().p_success(), want, "{roll:?}");
        assert_eq!(c.p_success::<Exact>(), want, "{roll:?}");
        assert_eq!(p_success::<Exact>(5, 15, roll), want, "{roll:?}");
    }
    assert_eq!(q(11, 20).to_f64(), 0.55);
    assert_eq!(q(319, 400).to_f64(), 0.7975);
    assert_eq!(q(121, 400).to_f64(), 0.3025);
    let law = check(5, 15, Roll::Normal, 20).law::<Exact>();
    assert_eq!(law.p(D20Tier::Critical), q(1, 20));
    assert_eq!(law.p(D20Tier::Fumble), q(1, 20));
    assert_eq!(law.p(D20Tier::Success), q(10, 20));
    assert_eq!(law.p(D20Tier::Failure), q(8, 20));
}

#[test]
fn seed_example_and_conversions() {
    // Seed: 1d20 + 3 (DEX) + 2 (Prof) -> 18 vs DC 15: success.
    let side = Side::new(
        Ability::Modifier(3),
        Training::Proficiency(2),
        0,
        Roll::Normal,
        "",
    )
    .unwrap();
    let c = Check::new(side, 15, 20).unwrap();
    let v = c.classify(&[13]).unwrap();
    assert_eq!((v.kept, v.total, v.tier), (13, 18, D20Tier::Success));
    assert_eq!(c.classify(&[9]).unwrap().tier, D20Tier::Failure);
    assert_eq!(c.classify(&[10]).unwrap().tier, D20Tier::Success);
    assert_eq!(c.classify(&[1]).unwrap().tier, D20Tier::Fumble);
    assert_eq!(c.classify(&[20]).unwrap().tier, D20Tier::Critical);
    // Ability modifier rounds down, also for negatives.
    for (s, m) in [
        (1, -5),
        (8, -1),
        (9, -1),
        (10, 0),
        (11, 0),
        (12, 1),
        (30, 10),
    ] {
        assert_eq!(ability_modifier(s), m, "score {s}");
    }
    // Seed: Lv1 = +2 … Lv20 = +6.
    for (l, p) in [
        (1, 2),
        (4, 2),
        (5, 3),
        (8, 3),
        (9, 4),
        (13, 5),
        (16, 5),
        (17, 6),
        (20, 6),
    ] {
        assert_eq!(proficiency_for_level(l), p, "level {l}");
    }
    let s = Side::new(Ability::Score(9), Training::Level(20), 1, Roll::Normal, "").unwrap();
    assert_eq!(s.total_modifier(), -1 + 6 + 1);
    // Both advantage and disadvantage cancel.
    assert_eq!(Roll::from_flags(true, true), Roll::Normal);
}

#[test]
fn invalid_inputs_are_errors_naming_the_flag() {
    let bad = |r: Result<Side>, flag: &str| {
        let e = r.unwrap_err().to_string();
        assert!(e.contains(flag), "{e}");
    };
    let n = Roll::Normal;
    let t = Training::default();
    bad(Side::new(Ability::Modifier(51), t, 0, n, ""), "--modifier");
    bad(Side::new(Ability::Score(0), t, 0, n, "vs-"), "--vs-score");
    bad(Side::new(Ability::Score(31), t, 0, n, ""), "--score");
    let a = Ability::default();
    bad(Side::new(a, Training::Level(0), 0, n, ""), "--level");
    bad(Side::new(a, Training::Level(21), 0, n, ""), "1..=20");
    bad(
        Side::new(a, Training::Proficiency(-1), 0, n, ""),
        "--proficiency",
    );
    bad(Side::new(a, t, -51, n, "vs-"), "--vs-bonus");
    let side = Side::with_modifier(0, n).unwrap();
    let e = Check::new(side.clone(), 101, 20).unwrap_err().to_string();
    assert!(e.contains("--dc"), "{e}");
    let e = Check::new(side.clone(), 10, 1).unwrap_err().to_string();
    assert!(e.contains("--crit-on"), "{e}");
    let c = Check::new(side, 10, 20).unwrap();
    let e = FatePlan::new(c, 11, Policy::Optimal)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--fate"), "{e}");
}

#[test]
fn classify_rejects_faces_that_do_not_fit() {
    let c = check(0, 10, Roll::Advantage, 20);
    assert_eq!(c.classify(&[5]), None);
    assert_eq!(c.classify(&[5, 21]), None);
    assert_eq!(c.classify(&[0, 3]), None);
    assert_eq!(c.classify(&[5, 3]).unwrap().kept, 5);
    let plan = FatePlan::new(c, 1, Policy::RerollOnly).unwrap();
    assert_eq!(plan.play(&[2, 3]), Step::Need(20));
    assert_eq!(plan.play(&[2, 3, 4, 25]), Step::BadFace(3));
    assert_eq!(plan.play(&[2]), Step::Need(20));
    let v = plan.classify(&[2, 3, 12, 4]).unwrap();
    assert_eq!((v.verdict.kept, v.rerolls, v.faces_used), (12, 1, 4));
}

/// Brute force: every face combination through `classify` against the
/// exact law, for every roll mode, crit-on and a spread of modifiers/DCs.
#[test]
fn brute_force_plain_checks() {
    for roll in ROLLS {
        let faces = all_faces(roll.dice());
        let n = faces.len() as i64;
        for crit_on in [20, 19, 18, 11, 2] {
            for m in [-12, -3, 0, 5, 14] {
                for dc in [-5, 1, 8, 15, 20, 25, 33] {
                    let c = check(m, dc, roll, crit_on);
                    let mut count = [0i64; 4];
                    for f in &faces {
                        count[c.classify(f).unwrap().tier.index()] += 1;
                    }
                    let law = c.law::<Exact>();
                    for t in D20Tier::ALL {
                        assert_eq!(law.p(*t), q(count[t.index()], n), "{roll:?} {m} {dc} {t:?}");
                    }
                    assert_eq!(c.p_success::<Exact>(), law.p_success());
                    if crit_on == 20 {
                        assert_eq!(p_success::<Exact>(m, dc, roll), law.p_success());
                    }
                    assert_eq!(law.total(), q(1, 1));
                }
            }
        }
    }
}

/// Brute force: both sides' faces (with and without advantage) through
/// `Contest::classify` under every tie rule against the exact comparison.
#[test]
fn brute_force_contests() {
    let ties = [
        TieBreak::Defender,
        TieBreak::Reroll,
        TieBreak::Attacker,
        TieBreak::Tie,
    ];
    for ra in ROLLS {
        for rb in ROLLS {
            for (ma, mb) in [(0, 0), (5, 2), (-1, 7)] {
                let a = Side::with_modifier(ma, ra).unwrap();
                let b = Side::with_modifier(mb, rb).unwrap();
                let contests = ties.map(|t| Contest::new(a.clone(), b.clone(), t));
                // counts[tie rule][Win, Loss, Again, Tie]
                let mut counts = [[0i64; 4]; 4];
                let (fa, fb) = (all_faces(ra.dice()), all_faces(rb.dice()));
                for x in &fa {
                    for y in &fb {
                        for (c, n) in contests.iter().zip(counts.iter_mut()) {
                            let i = match c.classify(x, y).unwrap() {
                                Round::Win => 0,
                                Round::Loss => 1,
                                Round::Again => 2,
                                Round::Tie => 3,
                            };
                            n[i] += 1;
                        }
                    }
                }
                let total = (fa.len() * fb.len()) as i64;
                let [def, rer, att, tie] = counts;
                let cmp = contests[0].comparison::<Exact>();
                assert_eq!(cmp.win, q(def[0], total));
                assert_eq!(cmp.tie, q(rer[2], total));
                assert_eq!(cmp.loss, q(att[1], total));
                assert_eq!(contests[0].p_success::<Exact>(), q(def[0], total));
                assert_eq!(contests[2].p_success::<Exact>(), q(att[0], total));
                assert_eq!(contests[1].p_success::<Exact>(), q(rer[0], rer[0] + rer[1]));
                // Ties stand: p_win, p_tie, p_loss are one roll's.
                let r = contest_report::<Exact>(&contests[3]);
                assert_eq!(r.p_success, q(tie[0], total));
                assert_eq!(r.get("p_tie"), Some(&Field::Prob(q(tie[3], total))));
                assert_eq!(r.get("p_loss"), Some(&Field::Prob(q(tie[1], total))));
                let r = contest_report::<Exact>(&contests[1]);
                assert_eq!(
                    r.get("expected_rolls"),
                    Some(&Field::Value(q(total, rer[0] + rer[1])))
                );
                assert_eq!(cmp.win + &cmp.tie + &cmp.loss, q(1, 1));
            }
        }
    }
}

/// Tier counts of every face sequence played by `plan`, as exact
/// probabilities: the tree of rolls is walked through `play`, which says
/// which die comes next.
fn enumerate(plan: &FatePlan) -> TierLaw<D20Tier, Exact> {
    // Weights over the common denominator 20^(n(k+1)) · 6^k.
    let n = plan.check().side().roll().dice() as u32;
    let k = plan.dice();
    let den = 20i64.pow(n * (k + 1)) * 6i64.pow(k);
    let mut counts = [0i64; 4];
    let mut faces = Vec::new();
    fn walk(plan: &FatePlan, faces: &mut Vec<u32>, w: i64, counts: &mut [i64; 4]) {
        match plan.play(faces) {
            Step::Done(v) => {
                assert_eq!(v.faces_used, faces.len());
                counts[v.verdict.tier.index()] += w;
            }
            Step::Need(sides) => {
                for x in 1..=sides {
                    faces.push(x);
                    walk(plan, faces, w / i64::from(sides), counts);
                    faces.pop();
                }
            }
            Step::BadFace(i) => panic!("bad face at {i} in {faces:?}"),
        }
    }
    walk(plan, &mut faces, den, &mut counts);
    TierLaw::new(counts.iter().map(|c| q(*c, den)).collect())
}

#[test]
fn brute_force_fate_policies() {
    let mut cases = Vec::new();
    for k in [1, 2] {
        for (m, dc, crit_on) in [
            (0, 8, 20),
            (5, 15, 20),
            (3, 22, 20),
            (2, 17, 18),
            (9, 30, 20),
        ] {
            cases.push((m, dc, Roll::Normal, crit_on, k));
        }
    }
    for roll in [Roll::Advantage, Roll::Disadvantage] {
        cases.push((5, 15, roll, 20, 1));
        cases.push((0, 20, roll, 19, 1));
        cases.push((0, 5, roll, 20, 2));
    }
    for (m, dc, roll, crit_on, k) in cases {
        for policy in Policy::ALL {
            let plan = FatePlan::new(check(m, dc, roll, crit_on), k, policy).unwrap();
            let law = plan.law::<Exact>();
            assert_eq!(
                law,
                enumerate(&plan),
                "{m} {dc} {roll:?} @{crit_on} k={k} {policy:?}"
            );
            assert_eq!(law.total(), q(1, 1));
        }
    }
}

/// With one die the optimal choice is small enough to write down: on a
/// failed face `f`, the better of a boost (P(f + M + d6 ≥ DC), none on a
/// natural 1) and a reroll (the plain P(success)).
#[test]
fn one_die_optimum_by_hand() {
    for roll in ROLLS {
        for m in [-2, 0, 4, 9] {
            for dc in [5, 10, 14, 18, 22, 26, 30] {
                let c = check(m, dc, roll, 20);
                let plain = c.p_success::<Exact>();
                let mut p = plain.clone();
                for (f, pf) in roll.kept_law::<Exact>().iter() {
                    if c.judge(f as u32, 0).is_success() {
                        continue;
                    }
                    let boost = if f == 1 {
                        q(0, 1)
                    } else {
                        q((1..=6).filter(|d| f + m + d >= dc).count() as i64, 6)
                    };
                    let best = if boost > plain { boost } else { plain.clone() };
                    p += pf.clone() * &best;
                }
                let plan = FatePlan::new(c, 1, Policy::Optimal).unwrap();
                assert_eq!(plan.law::<Exact>().p_success(), p, "{roll:?} {m} {dc}");
            }
        }
    }
}

/// The optimum by plain recursion on `(face, boost, dice left)`, written
/// apart from the layered programme.
fn best(c: &Check, s: FateState, memo: &mut std::collections::HashMap<FateState, Exact>) -> Exact {
    if c.judge(s.face, s.boost).is_success() {
        return q(1, 1);
    }
    if s.dice_left == 0 {
        return q(0, 1);
    }
    if let Some(v) = memo.get(&s) {
        return v.clone();
    }
    let left = s.dice_left - 1;
    let mut reroll = q(0, 1);
    for (f, p) in c.side().roll().kept_law::<Exact>().iter() {
        let next = FateState {
            face: f as u32,
            boost: 0,
            dice_left: left,
        };
        reroll += p.clone() * &best(c, next, memo);
    }
    let mut v = reroll;
    if s.face != 1 {
        let mut boost = q(0, 1);
        for d in 1..=6 {
            let next = FateState {
                boost: s.boost + d,
                dice_left: left,
                ..s
            };
            boost += q(1, 6) * &best(c, next, memo);
        }
        if boost > v {
            v = boost;
        }
    }
    memo.insert(s, v.clone());
    v
}

#[test]
fn optimum_matches_plain_recursion() {
    for roll in ROLLS {
        for (m, dc, crit_on) in [(0, 12, 20), (3, 19, 18), (-2, 24, 20), (6, 9, 20)] {
            let c = check(m, dc, roll, crit_on);
            for k in 0..=3 {
                let mut memo = std::collections::HashMap::new();
                let mut want = q(0, 1);
                for (f, p) in roll.kept_law::<Exact>().iter() {
                    let s = FateState {
                        face: f as u32,
                        boost: 0,
                        dice_left: k,
                    };
                    want += p.clone() * &best(&c, s, &mut memo);
                }
                let plan = FatePlan::new(c.clone(), k, Policy::Optimal).unwrap();
                assert_eq!(
                    plan.law::<Exact>().p_success(),
                    want,
                    "{roll:?} {m} {dc} k={k}"
                );
            }
        }
    }
}

#[test]
fn decision_rule_invariants() {
    for roll in ROLLS {
        for dc in [6, 14, 21, 27] {
            let plan = FatePlan::new(check(3, dc, roll, 20), 3, Policy::Optimal).unwrap();
            for left in 0..=3u32 {
                for face in 1..=20 {
                    for boost in 0..=(6 * (3 - left) as i64) {
                        let s = FateState {
                            face,
                            boost,
                            dice_left: left,
                        };
                        let a = plan.decide(s);
                        if face == 1 {
                            assert_ne!(a, Action::Boost);
                        }
                        if plan.check().judge(face, boost).is_success() || left == 0 {
                            assert_eq!(a, Action::Stop);
                        }
                    }
                }
            }
            // Outside the table: stop, never panic.
            let s = FateState {
                face: 5,
                boost: 99,
                dice_left: 9,
            };
            assert_eq!(plan.decide(s), Action::Stop);
        }
    }
    // A natural 1 is rerolled (the only way to undo it) when a die is left.
    let plan = FatePlan::new(check(0, 10, Roll::Normal, 20), 1, Policy::Optimal).unwrap();
    let s = FateState {
        face: 1,
        boost: 0,
        dice_left: 1,
    };
    assert_eq!(plan.decide(s), Action::Reroll);
    // One short of the DC: a boost always works, a reroll only 11/20.
    let s = FateState {
        face: 9,
        boost: 0,
        dice_left: 1,
    };
    assert_eq!(plan.decide(s), Action::Boost);
    // Seven short: a boost never works, so reroll.
    let s = FateState {
        face: 3,
        boost: 0,
        dice_left: 1,
    };
    assert_eq!(plan.decide(s), Action::Reroll);
}

#[test]
fn boosted_success_is_not_critical_and_reroll_is_judged_afresh() {
    let c = check(0, 15, Roll::Normal, 20);
    let plan = FatePlan::new(c.clone(), 2, Policy::BoostOnly).unwrap();
    // 14 + boost 1 = 15: success, not critical.
    let v = plan.classify(&[14, 1]).unwrap();
    assert_eq!(
        (v.verdict.tier, v.verdict.total, v.boosts),
        (D20Tier::Success, 15, 1)
    );
    // Boosts stack: 8 + 3 + 4.
    let v = plan.classify(&[8, 3, 4]).unwrap();
    assert_eq!(
        (v.verdict.tier, v.verdict.total, v.boosts),
        (D20Tier::Success, 15, 2)
    );
    // A natural 1 is not boosted.
    let v = plan.classify(&[1, 6, 6]).unwrap();
    assert_eq!((v.verdict.tier, v.faces_used), (D20Tier::Fumble, 1));
    let plan = FatePlan::new(c, 2, Policy::RerollOnly).unwrap();
    // Rerolled into a critical, and into a fumble.
    let v = plan.classify(&[1, 20]).unwrap();
    assert_eq!(v.verdict.tier, D20Tier::Critical);
    let v = plan.classify(&[3, 1, 1]).unwrap();
    assert_eq!((v.verdict.tier, v.rerolls), (D20Tier::Fumble, 2));
}

#[test]
fn properties_monotone_and_ordered() {
    for roll in ROLLS {
        for crit_on in [20, 18] {
            for m in -10..=15 {
                let mut prev = q(2, 1);
                for dc in -10..=40 {
                    let law = check(m, dc, roll, crit_on).law::<Exact>();
                    assert_eq!(law.total(), q(1, 1));
                    let p = law.p_success();
                    assert!(p <= prev, "P rises with DC at {roll:?} m={m} dc={dc}");
                    let higher = check(m + 1, dc, roll, crit_on).p_success::<Exact>();
                    assert!(higher >= p, "P falls with modifier at {m} {dc}");
                    prev = p;
                }
            }
        }
    }
    for m in -5..=10 {
        for dc in 0..=35 {
            let [n, a, d] = ROLLS.map(|r| p_success::<Exact>(m, dc, r));
            assert!(a >= n && n >= d, "m={m} dc={dc}");
        }
    }
}

#[test]
fn properties_fate_dice() {
    for roll in ROLLS {
        for dc in [4, 12, 17, 23, 29] {
            let c = check(2, dc, roll, 20);
            let mut prev = c.p_success::<Exact>();
            let three = FatePlan::new(c.clone(), 3, Policy::Optimal).unwrap();
            for k in 0..=3 {
                let opt = FatePlan::new(c.clone(), k, Policy::Optimal).unwrap();
                let sliced = three.with_dice(k).unwrap();
                assert_eq!(sliced.law::<Exact>(), opt.law::<Exact>(), "k={k}");
                let p = opt.law::<Exact>().p_success();
                assert!(p >= prev, "an extra die hurts at {roll:?} dc={dc} k={k}");
                for policy in Policy::ALL {
                    let law = opt.with_policy(policy).unwrap().law::<Exact>();
                    assert_eq!(law.total(), q(1, 1));
                    assert!(law.p_success() <= p, "{policy:?} beats optimal");
                    assert!(law.p_success() >= c.p_success::<Exact>());
                }
                prev = p;
            }
        }
    }
}

#[test]
fn report_fields_and_f64_agree_with_exact() {
    let plan = FatePlan::new(check(5, 18, Roll::Normal, 20), 2, Policy::BoostOnly).unwrap();
    let ex = check_report::<Exact>(&plan).unwrap();
    let fl = check_report::<f64>(&plan).unwrap();
    assert!((ex.p_success.to_f64() - fl.p_success).abs() < 1e-12);
    assert_eq!(ex.p_success, plan.law::<Exact>().p_success());
    let Some(Field::Rows(rows)) = ex.get("policies") else {
        panic!("policies rows");
    };
    assert_eq!(rows.len(), 4);
    let one = plan
        .with_dice(1)
        .unwrap()
        .with_policy(Policy::Optimal)
        .unwrap();
    let two = plan.with_policy(Policy::Optimal).unwrap();
    let worth = two.law::<Exact>().p_success() - &one.law::<Exact>().p_success();
    assert_eq!(ex.get("worth_of_die"), Some(&Field::Prob(worth)));
    assert_eq!(
        ex.get("p_success_without_fate"),
        Some(&Field::Prob(q(8, 20)))
    );
}

#[test]
fn the_kept_die_is_the_program_the_planner_computes() {
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    let programs = [
        (Roll::Normal, "1D20", Algorithm::PowerSum),
        (Roll::Advantage, "2D20KH1", Algorithm::Extreme),
        (Roll::Disadvantage, "2D20KL1", Algorithm::Extreme),
    ];
    for (roll, text, algorithm) in programs {
        assert_eq!(roll.program().to_string(), text);
        let (law, decisions) = plan::explain(|| roll.kept_law::<Exact>());
        assert_eq!(decisions.len(), 1, "{text}");
        assert_eq!(decisions[0].algorithm, algorithm, "{text}");
        // The success chances' closed form reads the same law: P(kept ≥ t)
        // (advantage: (400 − (t−1)²)/400; disadvantage: (21 − t)²/400).
        for t in 1..=21i64 {
            let tail = law
                .iter()
                .filter(|(v, _)| *v >= t)
                .fold(q(0, 1), |a, (_, p)| a + p);
            assert_eq!(tail, roll.p_at_least::<Exact>(t), "{text} t={t}");
        }
    }
}
