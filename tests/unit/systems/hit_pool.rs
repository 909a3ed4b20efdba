//! Tests of `src/systems/hit_pool.rs` (`hantei::systems::hit_pool`).

use hantei::report::Field;
use hantei::tier::{Tier, TierLaw};
use hantei::weight::Weight;

use hantei::systems::hit_pool::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

fn one() -> Exact {
    <Exact as Weight>::one()
}

fn plain(n: i64) -> Roll {
    Roll::new(n).unwrap()
}

/// Trailing all-zero rows removed, so laws of different lengths compare.
fn normal(mut law: RollLaw<Exact>) -> RollLaw<Exact> {
    while law
        .by_hits
        .last()
        .is_some_and(|r| r.iter().all(|x| x.is_zero()))
    {
        law.by_hits.pop();
    }
    law
}

/// Every complete roll (faces in rolling order, driven by
/// `dice_needed`) with its probability; branches where `prune` holds
/// are dropped (explosions beyond the cap).
fn enumerate(roll: &Roll, prune: &dyn Fn(&[u32]) -> bool, visit: &mut dyn FnMut(&[u32], &Exact)) {
    fn go(
        roll: &Roll,
        faces: &mut Vec<u32>,
        w: &Exact,
        prune: &dyn Fn(&[u32]) -> bool,
        visit: &mut dyn FnMut(&[u32], &Exact),
    ) {
        let k = dice_needed(roll, faces).expect("valid faces");
        if k == 0 {
            visit(faces, w);
            return;
        }
        let w = w.clone() * Weight::powi(&q(1, 6), k as u32);
        let base = faces.len();
        faces.extend(std::iter::repeat_n(1, k));
        loop {
            if !prune(faces) {
                go(roll, faces, &w, prune, visit);
                faces.truncate(base + k);
            }
            // Next combination of the k new faces.
            let mut i = base + k;
            loop {
                if i == base {
                    faces.truncate(base);
                    return;
                }
                i -= 1;
                if faces[i] < 6 {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
            }
        }
    }
    go(roll, &mut Vec::new(), &one(), prune, visit);
}

/// The law of a roll counted from `classify_roll` over every face
/// combination, and the tier counts for thresholds 0..=5.
fn brute(
    roll: &Roll,
    prune: &dyn Fn(&[u32]) -> bool,
) -> (RollLaw<Exact>, Vec<TierLaw<Outcome, Exact>>) {
    let mut law = RollLaw::<Exact>::zero();
    let mut tiers: Vec<Vec<Exact>> = vec![vec![q(0, 1); Outcome::ALL.len()]; 6];
    let mut kept = <Exact as Weight>::zero();
    enumerate(roll, prune, &mut |faces, w| {
        let v = classify_roll(roll, faces).expect("complete roll");
        kept += w;
        if v.rolled {
            let h = v.hits as usize;
            if law.by_hits.len() <= h {
                law.by_hits.resize(h + 1, [q(0, 1), q(0, 1), q(0, 1)]);
            }
            law.by_hits[h][v.glitch as usize] += w;
        } else {
            law.no_roll += w;
        }
        for (t, counts) in tiers.iter_mut().enumerate() {
            counts[v.tier(t as u32).index()] += w;
        }
    });
    law.tail = one() - kept;
    (normal(law), tiers.into_iter().map(TierLaw::new).collect())
}

/// The exact law (cut at `cap`) equals the enumeration, tiers included.
fn check_brute(roll: &Roll, cap: Option<usize>, explode_from: usize) {
    let prune = |f: &[u32]| {
        cap.is_some_and(|c| f.len() > explode_from && hits_in(&f[explode_from..]) as usize > c)
    };
    let (b, tiers) = brute(roll, &prune);
    let law = normal(roll_law_capped::<Exact>(roll, cap));
    assert_eq!(law, b, "{roll:?}");
    for (t, tl) in tiers.iter().enumerate() {
        assert_eq!(&law.tiers(t as u32), tl, "{roll:?} threshold {t}");
    }
    let total = law.tiers(0).total() + &law.tail;
    assert_eq!(total, one(), "{roll:?} sums to one");
}

#[test]
fn worked_values() {
    let l1 = roll_law::<Exact>(&plain(1));
    assert_eq!(l1.hits()[1], q(1, 3));
    assert_eq!(l1.p_glitch(), q(1, 6));
    assert_eq!(l1.p_critical_glitch(), q(1, 6));
    let l2 = roll_law::<Exact>(&plain(2));
    assert_eq!(l2.p_glitch(), q(11, 36));
    assert_eq!(l2.p_critical_glitch(), q(7, 36));
    for (n, num, den) in [(2, 1, 36), (3, 16, 216), (4, 21, 1296)] {
        let r = plain(n).with_glitch_rule(GlitchRule::MoreThanHalf);
        assert_eq!(roll_law::<Exact>(&r).p_glitch(), q(num, den), "n={n}");
    }
}

#[test]
fn one_exploding_die() {
    // Long shot with Edge 1: one exploding die.
    let r = plain(0).with_edge(1, EdgeUse::Push).unwrap();
    let cap = 8;
    let law = roll_law_capped::<Exact>(&r, Some(cap));
    let hits = law.hits();
    assert_eq!(hits[0], q(4, 6));
    for (k, p) in hits.iter().enumerate().skip(1) {
        assert_eq!(*p, q(10, 6) / Weight::powi(&q(6, 1), k as u32), "k={k}");
    }
    assert_eq!(hits.len(), cap + 1);
    assert_eq!(law.tail, q(2, 1) / Weight::powi(&q(6, 1), cap as u32 + 1));
    let (h1, tail) = exploding_hits::<Exact>(1, cap);
    assert_eq!(h1, hits);
    assert_eq!(tail, law.tail);
}

#[test]
fn seed_example_grain() {
    // 敏捷力3 + 尾行4 − 1 = 6 dice: 6,4,4,4,3,2 → 1 hit.
    let (v, _) = classify(&plain(6), 1, &[6, 4, 4, 4, 3, 2]).unwrap();
    assert_eq!(v.hits, 1);
    assert_eq!(v.glitch, Glitch::None);
}

#[test]
fn classify_rejects_bad_faces() {
    assert_eq!(classify_roll(&plain(2), &[1, 7]), None);
    assert_eq!(classify_roll(&plain(2), &[1]), None);
    assert_eq!(classify_roll(&plain(2), &[1, 2, 3]), None);
    assert_eq!(dice_needed(&plain(2), &[1]), Some(1));
    let push = plain(1).with_edge(1, EdgeUse::Push).unwrap();
    assert_eq!(dice_needed(&push, &[6, 6]), Some(2));
    assert_eq!(dice_needed(&push, &[6, 6, 6, 3]), Some(1));
    assert_eq!(
        classify_roll(&push, &[6, 6, 6, 3, 2]).map(|v| v.hits),
        Some(3)
    );
}

#[test]
fn brute_force_plain_rules_and_limits() {
    for n in 1..=6 {
        for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
            for limit in [None, Some(0), Some(1), Some(2)] {
                let mut r = plain(n).with_glitch_rule(rule);
                if let Some(l) = limit {
                    r = r.with_limit(l).unwrap();
                }
                check_brute(&r, None, 0);
            }
        }
    }
}

#[test]
fn brute_force_negate_and_second_chance() {
    for n in 1..=5 {
        for mode in [NegatedCritical::Cancel, NegatedCritical::Downgrade] {
            let r = plain(n)
                .with_edge(2, EdgeUse::NegateGlitch)
                .unwrap()
                .with_negated_critical(mode);
            check_brute(&r, None, 0);
        }
    }
    // Pools of 4 enumerate 6^4 first rolls times up to 6^4 rerolls: one
    // configuration there, the full grid below.
    let second = |n| plain(n).with_edge(3, EdgeUse::SecondChance).unwrap();
    check_brute(&second(4), None, 0);
    for n in 1..=3 {
        for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
            let r = second(n).with_glitch_rule(rule);
            check_brute(&r, None, 0);
            check_brute(&r.with_limit(1).unwrap(), None, 0);
        }
    }
}

#[test]
fn brute_force_exploding_dice() {
    let modes = [
        ExplodeGlitch::AllDice,
        ExplodeGlitch::OriginalPool,
        ExplodeGlitch::Bcdice,
    ];
    for mode in modes {
        for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
            // push: pool + Edge dice all explode; long shot: Edge only.
            for (pool, edge, cap) in [(1, 1, 4), (2, 1, 3), (1, 2, 3), (-1, 2, 3), (0, 3, 2)] {
                let r = plain(pool)
                    .with_glitch_rule(rule)
                    .with_explode_glitch(mode)
                    .with_edge(edge, EdgeUse::Push)
                    .unwrap();
                check_brute(&r, Some(cap), 0);
            }
            // push-after: the pool's dice do not explode.
            for (pool, edge, cap) in [(1, 1, 3), (2, 1, 3), (3, 2, 2), (-2, 2, 3)] {
                let r = plain(pool)
                    .with_glitch_rule(rule)
                    .with_explode_glitch(mode)
                    .with_edge(edge, EdgeUse::PushAfter)
                    .unwrap();
                check_brute(&r, Some(cap), pool.max(0) as usize);
                check_brute(&r.with_limit(2).unwrap(), Some(cap), pool.max(0) as usize);
            }
        }
    }
}

#[test]
fn brute_force_teamwork() {
    for (pool, helpers, cap) in [
        (2, vec![2, 1], None),
        (2, vec![2, 1], Some(1)),
        (-1, vec![3], None),
        (1, vec![0, 2], Some(2)),
    ] {
        let r = plain(pool).with_helpers(&helpers, cap).unwrap();
        check_brute(&r, None, 0);
    }
    // Teamwork with a pushed leader: explosions start after the helpers.
    let r = plain(1)
        .with_helpers(&[2], None)
        .unwrap()
        .with_edge(1, EdgeUse::Push)
        .unwrap();
    check_brute(&r, Some(2), 2);
}

#[test]
fn brute_force_opposed() {
    for a in 0..=3 {
        for b in 0..=3 {
            let (ra, rb) = (plain(a), plain(b).with_limit(1).unwrap());
            let mut counts = [q(0, 1), q(0, 1), q(0, 1)];
            enumerate(&ra, &|_| false, &mut |fa, wa| {
                enumerate(&rb, &|_| false, &mut |fb, wb| {
                    let net = classify_opposed(&ra, fa, &rb, fb).unwrap();
                    counts[(1 - net.signum()) as usize] += wa.clone() * wb;
                });
            });
            for (tie_rule, win, tie, loss) in [
                (
                    TieRuleOpt::Separate,
                    &counts[0],
                    &counts[1],
                    counts[2].clone(),
                ),
                (
                    TieRuleOpt::Defender,
                    &counts[0],
                    &q(0, 1),
                    counts[2].clone() + &counts[1],
                ),
            ] {
                let r = report::<Exact>(&Check::Opposed {
                    attacker: ra.clone(),
                    defender: rb.clone(),
                    tie_rule,
                });
                let get = |k: &str| match r.get(k) {
                    Some(Field::Prob(p)) => p.clone(),
                    _ => panic!("{k} missing"),
                };
                assert_eq!(&get("p_win"), win, "{a} vs {b}");
                assert_eq!(&get("p_tie"), tie, "{a} vs {b}");
                assert_eq!(get("p_loss"), loss, "{a} vs {b}");
                assert_eq!(&r.p_success, win);
            }
        }
    }
}

/// Issue 21: 4 dice against 1, ties rolled again. One roll: win
/// 163/243, tie 64/243, net ≥ 4 (four hits against none) 1/81 · 2/3 =
/// 2/243. The test is decided by its last roll: P(critical) = (2/243) /
/// (179/243) = 2/179, beside p_win = 163/179.
#[test]
fn opposed_reroll_critical_is_of_the_deciding_roll() {
    let r = report::<Exact>(&Check::Opposed {
        attacker: plain(4),
        defender: plain(1),
        tie_rule: TieRuleOpt::Reroll,
    });
    assert_eq!(r.get("p_win"), Some(&Field::Prob(q(163, 179))));
    assert_eq!(r.get("p_critical"), Some(&Field::Prob(q(2, 179))));
    for rule in [
        TieRuleOpt::Defender,
        TieRuleOpt::Attacker,
        TieRuleOpt::Separate,
    ] {
        let r = report::<Exact>(&Check::Opposed {
            attacker: plain(4),
            defender: plain(1),
            tie_rule: rule,
        });
        assert_eq!(
            r.get("p_critical"),
            Some(&Field::Prob(q(2, 243))),
            "{rule:?}"
        );
    }
}

#[test]
fn extended_tests_end_when_the_pool_is_gone() {
    // The examples, by hand: one die, threshold 1, shrink: the
    // second roll would have no dice, so exactly one roll is made.
    let e = |pool, target, max, shrink| {
        let ext = Extended::new(plain(pool), target, max, shrink, false).unwrap();
        match report::<Exact>(&Check::Extended(ext)).get("expected_rolls") {
            Some(Field::Value(v)) => v.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(e(1, 1, Some(13), true), Exact::int(1));
    assert_eq!(e(0, 2, None, false), Exact::int(0));
    // Pool 3, shrink, threshold 4, at most 5 rolls: rolls of 3, 2, 1
    // dice. E = 1 + P(3 dice give < 4 hits) + P(3 then 2 dice give < 4)
    // = 1 + 1 + (1 − P(≥4 hits in 5 dice)) where P(≥4 of 5) =
    // (5·2 + 1)/243 = 11/243: 3 − 11/243 = 718/243.
    assert_eq!(e(3, 4, Some(5), true), Exact::ratio(718, 243));
}

#[test]
fn brute_force_extended() {
    // Pools that run out (shrink, or ≤ 0): a roll with no dice is not
    // made, so it is not counted (issue 13).
    let both: &[bool] = &[false, true];
    for (pool, target, max_rolls, shrinks) in [
        (2, 2, 3, both),
        (2, 3, 3, both),
        (3, 2, 2, both),
        (1, 1, 13, &[true][..]),
        (3, 4, 5, &[true][..]),
        (0, 2, 3, both),
        (-1, 1, 2, both),
    ] {
        for &shrink in shrinks {
            for ends in [false, true] {
                let ext =
                    Extended::new(plain(pool), target, Some(max_rolls), shrink, ends).unwrap();
                let mut done_by = vec![q(0, 1); max_rolls as usize];
                let (mut aborted, mut rolls) = (q(0, 1), q(0, 1));
                fn seq(
                    ext: &Extended,
                    rolls: &mut Vec<Vec<u32>>,
                    w: &Exact,
                    out: &mut dyn FnMut(ExtendedVerdict, &Exact),
                ) {
                    if let Some(v) = classify_extended(ext, rolls) {
                        out(v, w);
                        return;
                    }
                    assert!(rolls.len() < ext.max_rolls as usize);
                    let roll = ext.roll_at(rolls.len());
                    enumerate(&roll, &|_| false, &mut |faces, wf| {
                        rolls.push(faces.to_vec());
                        seq(ext, rolls, &(w.clone() * wf), out);
                        rolls.pop();
                    });
                }
                seq(&ext, &mut Vec::new(), &one(), &mut |v, w| {
                    rolls += Exact::int(v.rolls as i64) * w;
                    if v.done {
                        for d in done_by.iter_mut().skip(v.rolls.saturating_sub(1)) {
                            *d += w;
                        }
                    }
                    if v.aborted {
                        aborted += w;
                    }
                });
                let r = report::<Exact>(&Check::Extended(ext.clone()));
                assert_eq!(r.get("p_done_by"), Some(&Field::Probs(done_by.clone())));
                assert_eq!(r.get("expected_rolls"), Some(&Field::Value(rolls)));
                assert_eq!(r.get("p_aborted"), Some(&Field::Prob(aborted)));
                assert_eq!(&r.p_success, done_by.last().unwrap());
            }
        }
    }
}

#[test]
fn all_pools_matches_roll_law() {
    for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
        let all = all_pools::<Exact>(12, rule);
        for odds in &all {
            let law = roll_law::<Exact>(&plain(odds.pool as i64).with_glitch_rule(rule));
            assert_eq!(odds.hits, normal(law.clone()).hits(), "n={}", odds.pool);
            assert_eq!(odds.p_glitch, law.p_glitch());
            assert_eq!(odds.p_critical_glitch, law.p_critical_glitch());
        }
    }
}

#[test]
fn pool_100_exact() {
    let all = all_pools::<Exact>(100, GlitchRule::HalfOrMore);
    let law = roll_law::<Exact>(&plain(100));
    let last = &all[99];
    assert_eq!(last.p_glitch, law.p_glitch());
    assert_eq!(last.p_critical_glitch, law.p_critical_glitch());
    assert_eq!(last.hits, law.hits());
    assert_eq!(law.tiers(30).total(), one());
    // P(critical glitch) = P(0 hits, ≥ 50 ones) = Σ C(100,o) 6^-o 2^-(100-o).
    let mut binom = one();
    let mut crit = q(0, 1);
    for o in 0..=100i64 {
        if o >= 50 {
            crit += binom.clone()
                * Weight::powi(&q(1, 6), o as u32)
                * Weight::powi(&q(1, 2), (100 - o) as u32);
        }
        binom *= q(100 - o, o + 1);
    }
    assert_eq!(last.p_critical_glitch, crit);
    assert_eq!(last.hits[100], Weight::powi(&q(1, 3), 100));
}

#[test]
fn all_pools_f64_agrees_with_exact() {
    let e = all_pools::<Exact>(30, GlitchRule::HalfOrMore);
    let f = all_pools::<f64>(30, GlitchRule::HalfOrMore);
    for (a, b) in e.iter().zip(&f) {
        assert!((a.p_glitch.to_f64() - b.p_glitch).abs() < 1e-14);
        assert!((a.p_critical_glitch.to_f64() - b.p_critical_glitch).abs() < 1e-14);
    }
}

#[test]
fn exploding_tail_is_exact_and_small() {
    for mode in [
        ExplodeGlitch::AllDice,
        ExplodeGlitch::OriginalPool,
        ExplodeGlitch::Bcdice,
    ] {
        for use_ in [EdgeUse::Push, EdgeUse::PushAfter] {
            let r = plain(3)
                .with_edge(2, use_)
                .unwrap()
                .with_explode_glitch(mode)
                .with_tail_eps(1e-6)
                .unwrap();
            let law = roll_law::<Exact>(&r);
            assert!(law.tail.to_f64() <= 1e-6 && law.tail.to_f64() > 0.0);
            assert_eq!(law.tiers(2).total() + &law.tail, one());
            let lf = roll_law::<f64>(&r);
            assert!((lf.tail - law.tail.to_f64()).abs() < 1e-18);
            assert!((lf.p_glitch() - law.p_glitch().to_f64()).abs() < 1e-12);
        }
    }
    // The cap is minimal: one less would drop more than eps.
    let cap = explosion_cap(5, 1e-9);
    assert!(exploding_hits::<f64>(5, cap).1 <= 1e-9);
    assert!(exploding_hits::<f64>(5, cap - 1).1 > 1e-9);
}

/// `C(n, k) 2^(n−k) / 3^n` in big integers, rounded once.
fn binomial_third(n: u32, k: u32) -> f64 {
    use num_bigint::BigInt;
    let mut c = BigInt::from(1);
    for i in 0..k {
        c = c * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    let num = c * BigInt::from(2).pow(n - k);
    Exact::new(num, BigInt::from(3).pow(n)).to_f64()
}

#[test]
fn huge_plain_pools_do_not_underflow() {
    // (2/3)^5000 ≈ 1e-881: the old start term underflowed to 0 and so
    // did every probability. Checked against big-integer binomials.
    for n in [5_000u32, 100_000] {
        let law = plain_pool::<f64>(n, GlitchRule::HalfOrMore);
        let hits = law.hits();
        let total: f64 = hits.iter().sum();
        assert!((total - 1.0).abs() < 1e-10, "n={n}: {total}");
        assert!(hits.iter().all(|p| (0.0..=1.0).contains(p)));
        assert!((law.expected_hits() - f64::from(n) / 3.0).abs() < 1e-6 * f64::from(n));
        // P(glitch) = P(Bin(n, 1/6) ≥ n/2) is far below f64's range.
        assert_eq!(law.p_glitch(), 0.0);
        if n == 5_000 {
            for k in [1_500u32, 1_667, 1_800, 2_100] {
                let want = binomial_third(n, k);
                let got = hits[k as usize];
                assert!((got / want - 1.0).abs() < 1e-11, "k={k}: {got} vs {want}");
            }
        }
    }
    // 600 dice still glitch with a representable probability (≈1e-62):
    // it matches the exact law.
    let f = plain_pool::<f64>(600, GlitchRule::HalfOrMore);
    let e = plain_pool::<Exact>(600, GlitchRule::HalfOrMore);
    let (pf, pe) = (f.p_glitch(), e.p_glitch().to_f64());
    assert!(pe > 0.0 && (pf / pe - 1.0).abs() < 1e-12, "{pf} vs {pe}");
}

#[test]
fn pushed_pools_match_the_joint_recurrence() {
    // The closed form (hitting-time theorem) against the die-by-die
    // recurrence on the joint table, every rule and convention that
    // takes it, at the same cap.
    for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
        for mode in [ExplodeGlitch::AllDice, ExplodeGlitch::OriginalPool] {
            for n in [1u32, 2, 7, 40] {
                let roll = Roll::default_for(rule).with_explode_glitch(mode);
                let cap = explosion_cap(n, 1e-12);
                let fast = push_law::<f64>(&roll, n, cap);
                let layout = Layout {
                    plain: 0,
                    exploding: n,
                    second_chance: false,
                };
                let (joint, _) = layout_joint::<f64>(layout, mode, cap);
                let thr = (rule == GlitchRule::MoreThanHalf) as i64;
                for (h, row) in joint.rows.iter().enumerate() {
                    let (mut ok, mut bad) = (0.0, 0.0);
                    for (i, p) in row.iter().enumerate() {
                        if joint.s_lo + i as i64 >= thr {
                            bad += p;
                        } else {
                            ok += p;
                        }
                    }
                    let r = &fast.by_hits[h];
                    let tol = 1e-13 * (ok + bad) + 1e-300;
                    assert!((r[0] - ok).abs() <= tol, "{rule:?} {mode:?} n={n} h={h}");
                    assert!(
                        (r[1] + r[2] - bad).abs() <= tol,
                        "{rule:?} {mode:?} n={n} h={h}"
                    );
                }
            }
        }
    }
}

#[test]
fn big_pushed_pools_sum_to_one() {
    let law = pushed_pool::<f64>(1_000, GlitchRule::HalfOrMore, ExplodeGlitch::AllDice, 1e-15);
    let mut total = law.tail;
    for r in &law.by_hits {
        for p in r {
            assert!((0.0..=1.0).contains(p));
            total += p;
        }
    }
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert!(law.tail <= 1e-15);
    // Mean hits of an exploding die: 0.4 (less the dropped tail).
    assert!((law.expected_hits() - 400.0).abs() < 1e-9);
}

#[test]
fn exploding_means_match_closed_form() {
    // One exploding die has mean 0.4 hits; a plain die 1/3.
    let r = plain(3).with_edge(2, EdgeUse::Push).unwrap();
    let law = roll_law::<f64>(&r);
    assert!((law.expected_hits() - 5.0 * 0.4).abs() < 1e-12);
    let r = plain(3).with_edge(2, EdgeUse::PushAfter).unwrap();
    let law = roll_law::<f64>(&r);
    assert!((law.expected_hits() - (1.0 + 0.8)).abs() < 1e-12);
}

#[test]
fn no_roll_and_buy() {
    let law = roll_law::<Exact>(&plain(-2));
    assert_eq!(law.tiers(0).p(Outcome::Failure), one());
    let law = roll_law::<Exact>(&plain(0).with_edge(3, EdgeUse::SecondChance).unwrap());
    assert_eq!(law.no_roll, one());
    let r = report::<Exact>(&Check::Buy {
        roll: plain(11).with_limit(2).unwrap(),
        threshold: 2,
    });
    assert_eq!(
        r.get("hits"),
        Some(&Field::Probs(vec![q(0, 1), q(0, 1), one()]))
    );
    assert_eq!(r.p_success, one());
}

#[test]
fn success_never_rises_with_threshold_nor_falls_with_pool() {
    let uses = [
        None,
        Some(EdgeUse::Push),
        Some(EdgeUse::PushAfter),
        Some(EdgeUse::SecondChance),
        Some(EdgeUse::NegateGlitch),
    ];
    for use_ in uses {
        let mut prev_pool: Option<Vec<f64>> = None;
        for n in -1..=14 {
            let mut r = plain(n).with_tail_eps(1e-12).unwrap();
            if let Some(u) = use_ {
                r = r.with_edge(2, u).unwrap();
            }
            let law = roll_law::<f64>(&r);
            let ps: Vec<f64> = (0..=8).map(|t| law.tiers(t).p_success()).collect();
            for w in ps.windows(2) {
                assert!(w[1] <= w[0] + 1e-12, "{use_:?} n={n}");
            }
            // At threshold 0 success only means "no critical glitch",
            // which is not monotone in the pool (n=1: 1/6, n=2: 7/36),
            // so the pool property is checked for thresholds ≥ 1.
            if let Some(prev) = &prev_pool {
                for (a, b) in prev.iter().zip(&ps).skip(1) {
                    assert!(b + 1e-12 >= *a, "{use_:?} n={n}");
                }
            }
            prev_pool = Some(ps);
        }
    }
}

#[test]
fn laws_sum_to_one_exactly() {
    let rolls = [
        plain(7),
        plain(5).with_limit(2).unwrap(),
        plain(6).with_edge(2, EdgeUse::SecondChance).unwrap(),
        plain(4).with_helpers(&[3, 3], Some(2)).unwrap(),
        plain(-3).with_helpers(&[4], None).unwrap(),
    ];
    for r in &rolls {
        let law = roll_law::<Exact>(r);
        assert_eq!(law.tiers(3).total(), one(), "{r:?}");
        assert_eq!(law.hits().iter().fold(q(0, 1), |a, b| a + b), one());
    }
}

/// The dice engine's report of `expr` with one tier per (hits, glitch):
/// `h{k}g` (k hits and a glitch) and `h{k}` (k hits, no glitch), for k in
/// 0..=top, in weight `W`.
fn engine_cells<W: Weight>(expr: &str, glitch: &str, top: u32) -> Vec<(W, W)> {
    let mut tier = Vec::new();
    for h in 0..=top {
        tier.push(format!("h{h}g:total=={h} and {glitch}"));
        tier.push(format!("h{h}:total=={h}"));
    }
    tier.push("rest".to_string());
    let p = hantei::request::dice::Params {
        expr: expr.into(),
        tier,
        tail_eps: 1e-15,
        ..Default::default()
    };
    let r = p.report::<W>().unwrap_or_else(|e| panic!("{expr}: {e}"));
    (0..=top)
        .map(|h| {
            let get = |k: &str| r.outcome(k).cloned().unwrap_or_else(W::zero);
            (get(&format!("h{h}")), get(&format!("h{h}g")))
        })
        .collect()
}

/// hit-pool's closed forms against the dice engine on the same roll
/// written in the notation: a die scores a hit on 5–6 (the total) and a
/// glitch score `g` of +1 for a one and −1 for any other face, so `g` is
/// `2 × ones − dice` and a glitch is `g ≥ 0` (`half-or-more`) or `g ≥ 1`
/// (`more-than-half`). Two engines, one law: exactly for plain and
/// second-chance dice (`ro<=4`: every non-hit rerolled once), and within
/// the cut for a pool whose sixes all explode (Edge `push`, `all-dice`:
/// every die rolled counts, `!`).
#[test]
fn the_closed_forms_equal_the_dice_engine_on_the_same_roll() {
    const FACES: &str = "{1:g,2..4:-g,>=5:1-g}";
    for rule in [GlitchRule::HalfOrMore, GlitchRule::MoreThanHalf] {
        let glitch = match rule {
            GlitchRule::HalfOrMore => "g>=0",
            GlitchRule::MoreThanHalf => "g>=1",
        };
        for n in 1..=6i64 {
            let base = plain(n).with_glitch_rule(rule);
            for (roll, expr) in [
                (base.clone(), format!("{n}D6{FACES}")),
                (
                    base.clone().with_edge(0, EdgeUse::SecondChance).unwrap(),
                    format!("{n}D6{FACES}ro<=4"),
                ),
            ] {
                let law = roll_law::<Exact>(&roll);
                let cells = engine_cells::<Exact>(&expr, glitch, n as u32);
                for (h, (none, glitched)) in cells.iter().enumerate() {
                    let row = law
                        .by_hits
                        .get(h)
                        .cloned()
                        .unwrap_or_else(|| [q(0, 1), q(0, 1), q(0, 1)]);
                    assert_eq!(
                        *none,
                        row[0].clone(),
                        "{expr} {rule:?}: {h} hits, no glitch"
                    );
                    assert_eq!(
                        *glitched,
                        row[1].clone() + &row[2],
                        "{expr} {rule:?}: {h} hits, glitch"
                    );
                }
            }
            // Every six exploding: hits up to 2n + 2 compared (the rest is
            // below 1e-3 of mass and both engines cut their own tails).
            // The pool and one Edge die, n + 1 dice in all.
            let pushed = plain(n)
                .with_glitch_rule(rule)
                .with_edge(1, EdgeUse::Push)
                .unwrap();
            let law = roll_law::<f64>(&pushed);
            let top = 2 * n as u32 + 2;
            let expr = format!("{}D6{FACES}!", n + 1);
            let cells = engine_cells::<f64>(&expr, glitch, top);
            for (h, (none, glitched)) in cells.iter().enumerate() {
                let row = law.by_hits.get(h).cloned().unwrap_or([0.0; 3]);
                assert!(
                    (none - row[0]).abs() < 1e-14,
                    "{n} pushed {rule:?}: {h} hits"
                );
                assert!(
                    (glitched - (row[1] + row[2])).abs() < 1e-14,
                    "{n} pushed {rule:?}: {h} hits, glitch"
                );
            }
        }
    }
}

#[test]
fn the_planner_chooses_each_closed_form_by_the_layout() {
    use hantei::systems::dice::pool::plan::{self, Algorithm};
    let cases = [
        (
            plain(12),
            "12D6{1:g,2..4:-g,>=5:1-g}",
            Algorithm::HitsBinomial,
        ),
        (
            plain(12).with_edge(2, EdgeUse::SecondChance).unwrap(),
            "12D6{1:g,2..4:-g,>=5:1-g}ro<=4",
            Algorithm::HitsBinomial,
        ),
        (
            plain(12).with_edge(4, EdgeUse::Push).unwrap(),
            "16D6{1:g,2..4:-g,>=5:1-g}!",
            Algorithm::HitsHittingTime,
        ),
        (
            plain(12).with_edge(4, EdgeUse::PushAfter).unwrap(),
            "12D6{1:g,2..4:-g,>=5:1-g}+4D6{1:g,2..4:-g,>=5:1-g}!",
            Algorithm::HitsJoint,
        ),
        (
            plain(12)
                .with_edge(4, EdgeUse::Push)
                .unwrap()
                .with_explode_glitch(ExplodeGlitch::Bcdice),
            "16D6{1:g,2..4:-g,>=5:1-g}! (the dice an explosion adds: g -1 whatever they show)",
            Algorithm::HitsJoint,
        ),
    ];
    for (roll, program, algorithm) in cases {
        let (law, decisions) = plan::explain(|| roll_law::<f64>(&roll));
        assert_eq!(decisions.len(), 1, "{program}");
        assert_eq!(decisions[0].what, program);
        assert_eq!(decisions[0].algorithm, algorithm, "{program}");
        assert_eq!(
            decisions[0].dice,
            if program.starts_with("12D6") && !program.contains('+') {
                12
            } else {
                16
            }
        );
        // The law is whole but for the reported tail.
        let mass: f64 = law.by_hits.iter().flatten().sum::<f64>() + law.no_roll + law.tail;
        assert!((mass - 1.0).abs() < 1e-12, "{program}: {mass}");
    }
}

/// The planner's estimate for hit-pool's dice is an upper bound on the
/// work each algorithm then counts (cells read and written), over every
/// layout and convention.
#[test]
fn hit_pool_estimates_bound_their_work() {
    use hantei::systems::dice::pool::plan;
    let mut runs = 0;
    for pool in [1i64, 3, 8, 20] {
        for edge in [0i64, 1, 3, 6] {
            let uses: &[EdgeUse] = if edge == 0 {
                &[EdgeUse::Push]
            } else {
                &[
                    EdgeUse::Push,
                    EdgeUse::PushAfter,
                    EdgeUse::SecondChance,
                    EdgeUse::NegateGlitch,
                ]
            };
            for &use_ in uses {
                for mode in [
                    ExplodeGlitch::AllDice,
                    ExplodeGlitch::OriginalPool,
                    ExplodeGlitch::Bcdice,
                ] {
                    let roll = plain(pool)
                        .with_edge(edge, use_)
                        .unwrap()
                        .with_explode_glitch(mode);
                    for exact in [false, true] {
                        if exact && pool + edge > 12 {
                            continue;
                        }
                        let ((), decisions) = plan::explain(|| {
                            if exact {
                                roll_law::<Exact>(&roll);
                            } else {
                                roll_law::<f64>(&roll);
                            }
                        });
                        for d in &decisions {
                            assert!(d.steps > 0, "{}: no steps counted", d.what);
                            assert!(
                                d.steps <= d.estimate,
                                "{}: {} steps over the estimate {}",
                                d.what,
                                d.steps,
                                d.estimate
                            );
                            runs += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(runs > 150, "{runs}");
}
