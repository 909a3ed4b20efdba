//! Tests of `src/systems/multiplier.rs` (`hantei::systems::multiplier`).

use hantei::report::Field;
use hantei::tier::TierLaw;
use hantei::weight::Weight;

use hantei::systems::multiplier::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

fn opts() -> Options {
    Options::default()
}

fn ability(a: i64, m: i64) -> Check {
    ability_g(a, m, true)
}

fn ability_g(a: i64, m: i64, guarantee: bool) -> Check {
    Check::new(CheckSpec::Ability(AbilityCheck {
        ability: a,
        supporters: vec![],
        multiplier: m,
        modifiers: vec![],
        guarantee,
    }))
    .unwrap()
}

fn skill(a: i64, m: i64, s: &[i64], r: Option<i64>) -> Check {
    Check::new(CheckSpec::Skill(SkillCheck {
        ability: a,
        supporters: vec![],
        multiplier: m,
        modifiers: vec![],
        skill_levels: s.to_vec(),
        required_level: r,
    }))
    .unwrap()
}

fn random(rate: i64) -> Check {
    Check::new(CheckSpec::Random { rate }).unwrap()
}

/// Every rate the brute-force tests sweep: 0..=200, a few large ones,
/// and the three impossibilities.
fn all_rates() -> Vec<Rate> {
    let mut v: Vec<Rate> = (0..=200).map(Rate::Roll).collect();
    v.extend([250, 999, 1000, 5000].map(Rate::Roll));
    v.extend(
        [
            Impossibility::NoGuarantee,
            Impossibility::BelowRequiredLevel,
            Impossibility::VeryDifficult,
        ]
        .map(Rate::Impossible),
    );
    v
}

/// Brute force: classify every face, count.
fn enumerated(rate: Rate, o: &Options) -> TierLaw<Outcome, Exact> {
    TierLaw::from_pairs((1..=100u32).map(|r| (classify(rate, &[r], o), q(1, 100))))
}

// ---- worked values -------------------------------------------------

#[test]
fn rules_worked_value_a12_m5() {
    let c = ability(12, 5);
    assert_eq!(c.rate(), Rate::Roll(60));
    assert_eq!(auto_fail_threshold(60), 96);
    let o = opts();
    for r in 1..=100 {
        let want = match r {
            1..=6 => Outcome::Decisive,
            7..=30 => Outcome::Effective,
            31..=60 => Outcome::Success,
            66 | 77 | 88 | 99 | 100 => Outcome::Fumble,
            _ => Outcome::Failure,
        };
        assert_eq!(classify(c.rate(), &[r], &o), want, "r = {r}");
    }
    let law = c.law::<Exact>(&o);
    assert_eq!(law.p(Outcome::Fumble), q(5, 100));
    assert_eq!(law.p_success(), q(60, 100));
    assert_eq!(law.p(Outcome::Decisive), q(6, 100));
    assert_eq!(law.p(Outcome::Effective), q(24, 100));
    assert_eq!(law.p(Outcome::Success), q(30, 100));
    assert_eq!(law.p(Outcome::Failure), q(35, 100));
    let rep = report::<Exact>(&Query {
        check: c,
        mode: Mode::Single,
        options: o,
    });
    assert_eq!(rep.p_success, q(3, 5));
    assert_eq!(rep.get("p_fumble"), Some(&Field::Prob(q(1, 20))));
    assert_eq!(rep.get("p_critical"), Some(&Field::Prob(q(6, 100))));
    assert_eq!(rep.get("rate"), Some(&Field::Int(60)));
    assert_eq!(rep.get("auto_fail_threshold"), Some(&Field::Int(96)));
    assert_eq!(rep.get("impossible"), Some(&Field::Bool(false)));
}

#[test]
fn seed_auto_fail_examples() {
    // 成功率110%未満の場合は96以上のダイスの目は自動的に失敗.
    assert_eq!(auto_fail_threshold(0), 96);
    assert_eq!(auto_fail_threshold(109), 96);
    assert_eq!(auto_fail_threshold(110), 97);
    assert_eq!(auto_fail_threshold(119), 97);
    assert_eq!(auto_fail_threshold(120), 98);
    // 成功率が125%の行為判定は…98以上のダイスの目の場合.
    assert_eq!(auto_fail_threshold(125), 98);
    assert_eq!(auto_fail_threshold(130), 99);
    assert_eq!(auto_fail_threshold(139), 99);
    // 成功率が140%以上ならば自動的失敗は100の目だけ.
    for rate in [140, 150, 200, 1000, 5000] {
        assert_eq!(auto_fail_threshold(rate), 100);
        let law = law_for_rate::<Exact>(Rate::Roll(rate), &opts());
        assert_eq!(law.p_success(), q(99, 100), "rate {rate}");
        // 100 ≤ rate: an automatic failure, not a fumble.
        assert_eq!(law.p(Outcome::Failure), q(1, 100));
        assert_eq!(law.p(Outcome::Fumble), q(0, 1));
    }
    let law = law_for_rate::<Exact>(Rate::Roll(125), &opts());
    assert_eq!(law.p_success(), q(97, 100));
    // 100の目は常に失敗 even at rate 100: 96..=100 fail, none fumble.
    let law = law_for_rate::<Exact>(Rate::Roll(100), &opts());
    assert_eq!(law.p_success(), q(95, 100));
    assert_eq!(law.p(Outcome::Fumble), q(0, 1));
    assert_eq!(law.p(Outcome::Decisive), q(10, 100));
    assert_eq!(law.p(Outcome::Effective), q(40, 100));
}

#[test]
fn seed_quick_reference_table() {
    // 早見表, ability 12, multiplier 5, skill level 3.
    // 満たしている: 能力値×1/2×(技能レベル+成功倍率).
    assert_eq!(skill(12, 5, &[3], Some(1)).rate(), Rate::Roll(48));
    assert_eq!(skill(12, 5, &[3], Some(3)).rate(), Rate::Roll(48));
    // 満たしていない: … ×1/2 (端数切り上げ): ceil(12·8/4) = 24; ceil(11·5/4) = 14.
    assert_eq!(skill(12, 5, &[3], Some(4)).rate(), Rate::Roll(24));
    assert_eq!(skill(11, 5, &[0], Some(1)).rate(), Rate::Roll(14));
    // 要求技能レベルが無い: ceil(11·5/2) = 28.
    assert_eq!(skill(11, 5, &[0], None).rate(), Rate::Roll(28));
    // 能力値判定: 基本能力値×成功倍率.
    assert_eq!(ability(12, 5).rate(), Rate::Roll(60));
    assert_eq!(ability(12, 3).rate(), Rate::Roll(36));
    // 成功率の保障 (基本能力値×1/2) when F ≤ 0: ability (GM's choice),
    // met level and no level; not when the level is not met.
    assert_eq!(ability(13, 0).rate(), Rate::Roll(7));
    assert_eq!(ability(13, -4).rate(), Rate::Roll(7));
    assert_eq!(
        ability_g(13, -4, false).rate(),
        Rate::Impossible(Impossibility::NoGuarantee)
    );
    assert_eq!(skill(13, -5, &[2], Some(2)).rate(), Rate::Roll(7));
    assert_eq!(skill(13, -9, &[2], None).rate(), Rate::Roll(7));
    assert_eq!(
        skill(13, -5, &[2], Some(3)).rate(),
        Rate::Impossible(Impossibility::BelowRequiredLevel)
    );
    // 非常に難しい行為: R ≥ 5 without the skill fails, no roll; one level
    // of skill only halves.
    assert_eq!(
        skill(18, 5, &[0], Some(5)).rate(),
        Rate::Impossible(Impossibility::VeryDifficult)
    );
    assert_eq!(
        skill(18, 9, &[], Some(6)).rate(),
        Rate::Impossible(Impossibility::VeryDifficult)
    );
    assert_eq!(skill(18, 5, &[1], Some(5)).rate(), Rate::Roll(27));
    // R = 4 without the skill is only halved.
    assert_eq!(skill(18, 5, &[0], Some(4)).rate(), Rate::Roll(23));
}

#[test]
fn seed_examples_in_prose() {
    // 〈植物知識〉(5/1): without the skill the rate is halved.
    assert_eq!(skill(14, 5, &[], Some(1)).rate(), Rate::Roll(18));
    assert_eq!(skill(14, 5, &[1], Some(1)).rate(), Rate::Roll(42));
    // <長槍><乗馬>: the lower level is used.
    assert_eq!(
        skill(12, 5, &[3, 2], Some(1)).rate(),
        skill(12, 5, &[2], Some(1)).rate()
    );
    // Modifiers are summed into the multiplier (薄暗い −2, 動いている +2).
    let with_mods = Check::new(CheckSpec::Skill(SkillCheck {
        ability: 12,
        supporters: vec![],
        multiplier: 5,
        modifiers: vec![-2, -2, 2],
        skill_levels: vec![2],
        required_level: None,
    }))
    .unwrap();
    assert_eq!(with_mods.rate(), Rate::Roll(30)); // 6 × (2 + 3)
                                                  // 協力: main STR 14 + supporters 11 and 9 → 14 + 6 + 5 = 25.
    let team = Check::new(CheckSpec::Ability(AbilityCheck {
        ability: 14,
        supporters: vec![11, 9],
        multiplier: 5,
        modifiers: vec![],
        guarantee: true,
    }))
    .unwrap();
    assert_eq!(team.rate(), Rate::Roll(125));
    assert_eq!(auto_fail_threshold(125), 98);
    // Master (level 5) at multiplier 5: 7–8割 for ability 14–16;
    // journeyman (level 3): 6割 at ability 15.
    for a in 14..=16 {
        assert!(matches!(
            skill(a, 5, &[5], Some(1)).rate(),
            Rate::Roll(70..=80)
        ));
    }
    assert_eq!(skill(15, 5, &[3], Some(1)).rate(), Rate::Roll(60));
}

#[test]
fn seed_perception_example() {
    use Outcome::*;
    let rule = PerceptionRule::HigherTier;
    // 隠密に効果的成功 → 聴力で決定的成功が必要.
    assert!(perceives(Decisive, Effective, rule));
    assert!(!perceives(Effective, Effective, rule));
    assert!(!perceives(Success, Effective, rule));
    // Literal tier order: a failure beats a fumble, unless success is needed.
    assert!(perceives(Failure, Fumble, rule));
    assert!(!perceives(Failure, Fumble, PerceptionRule::NeedsSuccess));
    assert!(perceives(Success, Fumble, PerceptionRule::NeedsSuccess));
}

#[test]
fn impossible_report_is_flagged() {
    let c = skill(18, 5, &[0], Some(5));
    let rep = report::<Exact>(&Query {
        check: c,
        mode: Mode::Single,
        options: opts(),
    });
    assert_eq!(rep.p_success, q(0, 1));
    assert_eq!(rep.outcome("failure"), Some(&q(1, 1)));
    assert_eq!(rep.get("impossible"), Some(&Field::Bool(true)));
    assert_eq!(rep.get("rate"), None);
    assert!(rep.notes.iter().any(|n| n.contains("impossible")));
}

#[test]
fn ceil_div_rounds_up_for_every_sign() {
    assert_eq!(ceil_div(7, 2), 4);
    assert_eq!(ceil_div(6, 2), 3);
    assert_eq!(ceil_div(0, 4), 0);
    assert_eq!(ceil_div(-7, 2), -3);
    assert_eq!(ceil_div(-8, 4), -2);
    assert_eq!(ceil_div(-1, 4), 0);
    assert_eq!(ceil_div(1, 4), 1);
}

#[test]
fn classify_reads_00_as_100_and_impossible_rolls_nothing() {
    let o = opts();
    assert_eq!(classify(Rate::Roll(60), &[0], &o), Outcome::Fumble);
    assert_eq!(
        classify(Rate::Impossible(Impossibility::NoGuarantee), &[1], &o),
        Outcome::Failure
    );
    assert_eq!(classify(Rate::Roll(60), &[], &o), Outcome::Failure);
    let plain = Options {
        hundred_is_doubles: false,
    };
    assert_eq!(classify(Rate::Roll(60), &[100], &plain), Outcome::Failure);
}

// ---- brute force ---------------------------------------------------

#[test]
fn brute_force_single_roll_every_rate() {
    for hundred_is_doubles in [true, false] {
        let o = Options { hundred_is_doubles };
        for rate in all_rates() {
            let law = law_for_rate::<Exact>(rate, &o);
            assert_eq!(law, enumerated(rate, &o), "{rate:?} {o:?}");
            assert_eq!(law.total(), q(1, 1));
            // f64 agrees.
            let f = law_for_rate::<f64>(rate, &o);
            for (t, p) in law.iter() {
                assert!((f.p(t) - p.to_f64()).abs() < 1e-12);
            }
        }
    }
}

/// The rate table, written a second way (branch per row of RULES.md).
fn rate_by_table(
    kind: Kind,
    a: i64,
    f_without_skill: i64,
    s: i64,
    r: Option<i64>,
    g: bool,
) -> Rate {
    let half_up = |x: i64| (x + 1) / 2;
    match kind {
        Kind::Ability => {
            let f = f_without_skill;
            if f > 0 {
                Rate::Roll(a * f)
            } else if g {
                Rate::Roll(half_up(a))
            } else {
                Rate::Impossible(Impossibility::NoGuarantee)
            }
        }
        Kind::Skill => {
            let f = s + f_without_skill;
            let r0 = r.unwrap_or(0);
            if r0 >= 5 && s == 0 {
                Rate::Impossible(Impossibility::VeryDifficult)
            } else if s >= r0 {
                Rate::Roll(if f > 0 { (a * f + 1) / 2 } else { half_up(a) })
            } else if f > 0 {
                Rate::Roll((a * f + 3) / 4)
            } else {
                Rate::Impossible(Impossibility::BelowRequiredLevel)
            }
        }
        Kind::Random => unreachable!(),
    }
}

#[test]
fn rate_table_grid() {
    for a in 0..=25 {
        for m in -8..=10 {
            for g in [true, false] {
                assert_eq!(
                    ability_g(a, m, g).rate(),
                    rate_by_table(Kind::Ability, a, m, 0, None, g)
                );
            }
            for s in 0..=6 {
                for r in [None, Some(1), Some(2), Some(4), Some(5), Some(7)] {
                    assert_eq!(
                        skill(a, m, &[s], r).rate(),
                        rate_by_table(Kind::Skill, a, m, s, r, true),
                        "A={a} M={m} S={s} R={r:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn brute_force_contests_of_three_sides() {
    // Seed 000: 2者以上の対抗判定. Count all 10⁶ triples of rolls: a side
    // is on top when its tier beats both others strictly.
    let o = opts();
    for rates in [
        [Rate::Roll(60), Rate::Roll(45), Rate::Roll(30)],
        [
            Rate::Roll(125),
            Rate::Roll(7),
            Rate::Impossible(Impossibility::VeryDifficult),
        ],
        [Rate::Roll(50), Rate::Roll(50), Rate::Roll(99)],
    ] {
        let mut top = [0i64; 3];
        for x in 1..=100u32 {
            let ta = classify(rates[0], &[x], &o);
            for y in 1..=100u32 {
                let tb = classify(rates[1], &[y], &o);
                for z in 1..=100u32 {
                    let tc = classify(rates[2], &[z], &o);
                    if ta > tb && ta > tc {
                        top[0] += 1;
                    } else if tb > ta && tb > tc {
                        top[1] += 1;
                    } else if tc > ta && tc > tb {
                        top[2] += 1;
                    }
                }
            }
        }
        let laws: Vec<TierLaw<Outcome, Exact>> =
            rates.iter().map(|&r| law_for_rate(r, &o)).collect();
        let (per_roll, someone) = multi_contest_per_roll(&laws);
        for i in 0..3 {
            assert_eq!(per_roll[i], q(top[i], 1_000_000), "{rates:?} side {i}");
        }
        assert_eq!(someone, q(top.iter().sum(), 1_000_000));
    }
}

#[test]
fn brute_force_contests_and_perception() {
    let o = opts();
    let rates = [
        Rate::Roll(0),
        Rate::Roll(7),
        Rate::Roll(33),
        Rate::Roll(60),
        Rate::Roll(99),
        Rate::Roll(125),
        Rate::Roll(150),
        Rate::Impossible(Impossibility::VeryDifficult),
    ];
    for &ra in &rates {
        for &rb in &rates {
            // Count all 10,000 pairs of rolls.
            let (mut win, mut tie, mut loss) = (0i64, 0i64, 0i64);
            let (mut seen, mut seen_needs) = (0i64, 0i64);
            for x in 1..=100u32 {
                let ta = classify(ra, &[x], &o);
                for y in 1..=100u32 {
                    let tb = classify(rb, &[y], &o);
                    match ta.cmp(&tb) {
                        std::cmp::Ordering::Greater => win += 1,
                        std::cmp::Ordering::Equal => tie += 1,
                        std::cmp::Ordering::Less => loss += 1,
                    }
                    seen += i64::from(perceives(ta, tb, PerceptionRule::HigherTier));
                    seen_needs += i64::from(perceives(ta, tb, PerceptionRule::NeedsSuccess));
                }
            }
            let la = law_for_rate::<Exact>(ra, &o);
            let lb = law_for_rate::<Exact>(rb, &o);
            let per = contest_per_roll(&la, &lb);
            assert_eq!(per.win, q(win, 10_000));
            assert_eq!(per.tie, q(tie, 10_000));
            assert_eq!(per.loss, q(loss, 10_000));
            let rep = report::<Exact>(&Query {
                check: checks_for(ra),
                mode: Mode::Contest { vs: checks_for(rb) },
                options: o,
            });
            if win + loss > 0 {
                // Rerolled ties: P(win) = win / (win + loss).
                assert_eq!(rep.p_success, q(win, win + loss));
                assert_eq!(rep.get("p_loss"), Some(&Field::Prob(q(loss, win + loss))));
                assert_eq!(rep.get("p_tie"), Some(&Field::Prob(q(0, 1))));
                assert_eq!(
                    rep.get("expected_rolls"),
                    Some(&Field::Value(q(10_000, win + loss)))
                );
            } else {
                assert_eq!(rep.p_success, q(0, 1));
                assert_eq!(rep.get("p_tie"), Some(&Field::Prob(q(1, 1))));
                assert_eq!(rep.get("expected_rolls"), None);
                assert!(rep.notes.iter().any(|n| n.contains("never resolves")));
            }
            assert_eq!(
                rep.get("p_tie_per_roll"),
                Some(&Field::Prob(q(tie, 10_000)))
            );
            for (rule, count) in [
                (PerceptionRule::HigherTier, seen),
                (PerceptionRule::NeedsSuccess, seen_needs),
            ] {
                let p = perception_law(&la, &lb, rule);
                assert_eq!(p.win, q(count, 10_000), "{ra:?} vs {rb:?} {rule:?}");
                assert_eq!(p.tie, q(tie, 10_000));
                assert_eq!(p.win.clone() + &p.tie + &p.loss, q(1, 1));
            }
        }
    }
}

/// A check with the given rate (random, or an impossible skill check).
fn checks_for(rate: Rate) -> Check {
    match rate {
        Rate::Roll(r) => random(r),
        Rate::Impossible(_) => skill(10, 5, &[0], Some(5)),
    }
}

#[test]
fn both_impossible_contest_is_a_deadlock() {
    let c = skill(10, 5, &[0], Some(5));
    let rep = report::<Exact>(&Query {
        check: c.clone(),
        mode: Mode::Contest { vs: c },
        options: opts(),
    });
    assert_eq!(rep.p_success, q(0, 1));
    assert_eq!(rep.get("expected_rolls"), None);
    assert_eq!(rep.get("vs_impossible"), Some(&Field::Bool(true)));
}

/// Enumerate every sequence of `n` d100 rolls; count those reaching
/// `k` progress, stopping at the first attempt that reaches it.
fn extended_counts(rate: Rate, k: i64, n: u32, counting: Counting) -> Vec<i64> {
    let o = opts();
    let mut done_by = vec![0i64; n as usize];
    let total = 100i64.pow(n);
    for idx in 0..total {
        let mut rest = idx;
        let mut progress = 0;
        for attempt in 0..n as usize {
            let r = (rest % 100 + 1) as u32;
            rest /= 100;
            progress += counting.progress(classify(rate, &[r], &o));
            if progress >= k {
                for d in &mut done_by[attempt..] {
                    *d += 1;
                }
                break;
            }
        }
    }
    done_by
}

#[test]
fn brute_force_extended() {
    let o = opts();
    for rate in [
        Rate::Roll(0),
        Rate::Roll(25),
        Rate::Roll(60),
        Rate::Roll(150),
        Rate::Impossible(Impossibility::NoGuarantee),
    ] {
        let law = law_for_rate::<Exact>(rate, &o);
        for counting in [Counting::Successes, Counting::Degrees] {
            for k in 1..=3 {
                for n in 1..=3u32 {
                    let counts = extended_counts(rate, k, n, counting);
                    let p = ExtendedParams::new(k, i64::from(n), counting).unwrap();
                    let ext = extended_law(&law, &p);
                    let want: Vec<Exact> = counts.iter().map(|&c| q(c, 100i64.pow(n))).collect();
                    assert_eq!(ext.p_done_by, want, "{rate:?} k={k} n={n} {counting:?}");
                }
                // Unbounded expected attempts: K/p for plain counting.
                let p = ExtendedParams::new(k, 10, counting).unwrap();
                let e = extended_expected_attempts(&law, &p);
                let ps = law.p_success();
                if ps.is_zero() {
                    assert_eq!(e, None);
                } else if counting == Counting::Successes || k == 1 {
                    assert_eq!(e, Some(Exact::int(k) / ps));
                }
            }
        }
    }
}

#[test]
fn extended_degrees_expected_attempts_by_first_step() {
    // Rate 60: P(+1) = 30/100, P(+2) = 24/100, P(+3) = 6/100, P(0) = 40/100.
    // e1 = 1/0.6; e2 = (1 + 0.3·e1)/0.6; e3 = (1 + 0.3·e2 + 0.24·e1)/0.6.
    let law = law_for_rate::<Exact>(Rate::Roll(60), &opts());
    let p = ExtendedParams::new(3, 10, Counting::Degrees).unwrap();
    let e1 = q(5, 3);
    let e2 = (q(1, 1) + q(3, 10) * &e1) / q(3, 5);
    let e3 = (q(1, 1) + q(3, 10) * &e2 + q(24, 100) * &e1) / q(3, 5);
    assert_eq!(extended_expected_attempts(&law, &p), Some(e3));
}

#[test]
fn extended_report_fields() {
    // Seed: 4 successes needed (整地), STR 12 (5).
    let rep = report::<Exact>(&Query {
        check: ability(12, 5),
        mode: Mode::Extended(ExtendedParams::new(4, 10, Counting::Successes).unwrap()),
        options: opts(),
    });
    let Some(Field::Probs(by)) = rep.get("p_done_by") else {
        panic!("p_done_by missing");
    };
    assert_eq!(by.len(), 10);
    assert_eq!(by[3], q(3, 5).powi(4));
    assert_eq!(rep.p_success, by[9]);
    assert_eq!(rep.get("expected_rolls"), Some(&Field::Value(q(20, 3))));
    let rep = report::<Exact>(&Query {
        check: ability(12, 5),
        mode: Mode::Extended(ExtendedParams::new(40, 10, Counting::Degrees).unwrap()),
        options: opts(),
    });
    assert_eq!(rep.p_success, q(0, 1));
    assert!(rep.notes.iter().any(|n| n.contains("cannot be reached")));
}

// ---- properties ----------------------------------------------------

#[test]
fn success_is_monotone() {
    let o = opts();
    let p = |c: Check| c.law::<Exact>(&o).p_success();
    let levels = [None, Some(1), Some(2), Some(3), Some(5), Some(8)];
    for a in 0..=30 {
        for m in -6..=12 {
            for g in [true, false] {
                // Ability.
                assert!(p(ability_g(a + 1, m, g)) >= p(ability_g(a, m, g)));
                assert!(p(ability_g(a, m + 1, g)) >= p(ability_g(a, m, g)));
            }
            for s in 0..=6 {
                for (i, r) in levels.iter().enumerate() {
                    let here = p(skill(a, m, &[s], *r));
                    assert!(p(skill(a + 1, m, &[s], *r)) >= here);
                    assert!(p(skill(a, m + 1, &[s], *r)) >= here);
                    assert!(p(skill(a, m, &[s + 1], *r)) >= here);
                    if let Some(harder) = levels.get(i + 1) {
                        assert!(p(skill(a, m, &[s], *harder)) <= here, "A={a} M={m} S={s}");
                    }
                }
            }
        }
    }
    for rate in 0..=300 {
        assert!(p(random(rate + 1)) >= p(random(rate)));
    }
}

#[test]
fn every_law_sums_to_one() {
    let o = opts();
    for a in [0, 1, 7, 12, 20, 1000] {
        for m in [-3, 0, 1, 5, 20] {
            assert_eq!(ability(a, m).law::<Exact>(&o).total(), q(1, 1));
            for r in [None, Some(1), Some(5)] {
                assert_eq!(skill(a, m, &[0], r).law::<Exact>(&o).total(), q(1, 1));
            }
        }
    }
}

#[test]
fn invalid_inputs_name_the_flag() {
    let bad = |spec| Check::new(spec).unwrap_err().to_string();
    let base = AbilityCheck {
        ability: 12,
        supporters: vec![],
        multiplier: 5,
        modifiers: vec![],
        guarantee: true,
    };
    assert!(bad(CheckSpec::Ability(AbilityCheck {
        ability: -1,
        ..base.clone()
    }))
    .contains("--ability"));
    assert!(bad(CheckSpec::Ability(AbilityCheck {
        supporters: vec![2000],
        ..base.clone()
    }))
    .contains("--supporter"));
    assert!(bad(CheckSpec::Ability(AbilityCheck {
        modifiers: vec![-5000],
        ..base
    }))
    .contains("--modifier"));
    assert!(bad(CheckSpec::Random { rate: -1 }).contains("--rate"));
    assert!(bad(CheckSpec::Skill(SkillCheck {
        ability: 10,
        supporters: vec![],
        multiplier: 5,
        modifiers: vec![],
        skill_levels: vec![1],
        required_level: Some(0),
    }))
    .contains("--required-level"));
    assert!(ExtendedParams::new(0, 10, Counting::Successes).is_err());
    assert!(ExtendedParams::new(1, 0, Counting::Successes).is_err());
}
