//! Tests of `src/rounds.rs` (`hantei::rounds`).

use hantei::contest::TieRule;
use hantei::weight::Weight;
use num_bigint::BigInt;

use hantei::rounds::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

/// One die of `s` faces, every face in tier 0.
fn die(s: i64) -> Vec<(i64, usize, Exact)> {
    (1..=s).map(|f| (f, 0, q(1, s))).collect()
}

fn spec(until: i64, rounds: usize) -> Spec {
    Spec {
        until,
        rounds: Some(rounds),
        negative: Negative::Zero,
        tail_eps: 1e-15,
    }
}

/// Every roll sequence of up to `k` rolls, enumerated: per-round done
/// and aborted, the mass still going, and the expected rolls made.
struct Brute {
    done: Vec<Exact>,
    aborted: Vec<Exact>,
    tail: Exact,
    expected: Exact,
}

fn brute(
    law: &[(i64, usize, Exact)],
    effects: &[Effect],
    until: i64,
    k: usize,
    neg: Negative,
) -> Brute {
    let mut b = Brute {
        done: vec![q(0, 1); k],
        aborted: vec![q(0, 1); k],
        tail: q(0, 1),
        expected: q(0, 1),
    };
    #[allow(clippy::too_many_arguments)]
    fn go(
        law: &[(i64, usize, Exact)],
        effects: &[Effect],
        until: i64,
        k: usize,
        neg: Negative,
        acc: i64,
        round: usize,
        p: Exact,
        b: &mut Brute,
    ) {
        if round == k {
            b.tail += &p;
            b.expected += p * Exact::from_integer((k as i64).into());
            return;
        }
        // Mass a short law (an exploding cut) loses made this roll.
        let lost = law.iter().fold(q(1, 1), |a, (_, _, w)| a - w);
        b.expected += p.clone() * lost * Exact::from_integer(((round + 1) as i64).into());
        for (v, t, w) in law {
            let pw = p.clone() * w;
            let ended = |b: &mut Brute, into_done: bool| {
                let slot = if into_done {
                    &mut b.done
                } else {
                    &mut b.aborted
                };
                slot[round] += &pw;
                b.expected += pw.clone() * Exact::from_integer(((round + 1) as i64).into());
            };
            let add = match effects.get(*t).copied().unwrap_or_default() {
                Effect::Fail => {
                    ended(b, false);
                    continue;
                }
                Effect::Succeed => {
                    ended(b, true);
                    continue;
                }
                Effect::Add => *v,
                Effect::Bonus(x) => v + x,
            };
            let add = if neg == Negative::Zero {
                add.max(0)
            } else {
                add
            };
            if acc + add >= until {
                ended(b, true);
            } else {
                go(
                    law,
                    effects,
                    until,
                    k,
                    neg,
                    acc + add,
                    round + 1,
                    pw.clone(),
                    b,
                );
            }
        }
    }
    go(law, effects, until, k, neg, 0, 0, q(1, 1), &mut b);
    b
}

fn assert_matches_brute(
    law: &[(i64, usize, Exact)],
    effects: &[Effect],
    until: i64,
    k: usize,
    neg: Negative,
) {
    let s = Spec {
        negative: neg,
        ..spec(until, k)
    };
    let got = solve(law, effects, &s).unwrap();
    let b = brute(law, effects, until, k, neg);
    let by = cumulative(b.done.iter().cloned());
    let ab = cumulative(b.aborted.iter().cloned());
    assert_eq!(got.p_done_by, by, "p_done_by until {until} in {k}");
    assert_eq!(got.p_aborted_by, ab, "aborted until {until} in {k}");
    assert_eq!(got.tail_mass, b.tail, "tail until {until} in {k}");
    assert_eq!(got.expected_rolls, b.expected, "E until {until} in {k}");
    let rolls_total = got
        .rolls()
        .into_iter()
        .fold(got.tail_mass.clone(), |a, r| a + r);
    let complete = law.iter().fold(q(0, 1), |a, (_, _, w)| a + w) == q(1, 1);
    assert!(!complete || rolls_total == q(1, 1));
    // The f64 run agrees.
    let lf: Vec<(i64, usize, f64)> = to_f64(law);
    let f = solve::<f64>(&lf, effects, &s).unwrap();
    for (x, y) in f.p_done_by.iter().zip(&got.p_done_by) {
        assert!((x - Weight::to_f64(y)).abs() < 1e-12);
    }
    // The uncapped mean: big integers and floats agree.
    match (&f.expected_rolls_unbounded, &got.expected_rolls_unbounded) {
        (Some(x), Some(y)) => assert!((x - Weight::to_f64(y)).abs() < 1e-9 * x.max(1.0)),
        (None, None) => {}
        other => panic!("unbounded mean {other:?}"),
    }
}

#[test]
fn one_d6_until_two_by_hand() {
    let l = solve(&die(6), &[], &spec(2, 3)).unwrap();
    // Done in 1 unless a 1: 5/6; after a 1, any second roll makes 2.
    assert_eq!(l.p_done_by, vec![q(5, 6), q(1, 1), q(1, 1)]);
    assert_eq!(l.tail_mass, q(0, 1));
    // Rolls made: 1 + 1/6 (a 1 leaves one more roll).
    assert_eq!(l.expected_rolls, q(7, 6));
    assert_eq!(l.expected_rolls_unbounded, Some(q(7, 6)));
    assert_eq!(l.rolls(), vec![q(5, 6), q(1, 6), q(0, 1)]);
    // Until 3 in 2: by 1 on 3..6 (4/6); by 2 unless 1 then 1 (35/36).
    let l = solve(&die(6), &[], &spec(3, 2)).unwrap();
    assert_eq!(l.p_done_by, vec![q(2, 3), q(35, 36)]);
    assert_eq!(l.tail_mass, q(1, 36));
}

#[test]
fn one_d6_until_seven_by_hand() {
    let l = solve(&die(6), &[], &spec(7, 2)).unwrap();
    // One roll never reaches 7; two reach it when a + b ≥ 7: 21/36.
    assert_eq!(l.p_done_by, vec![q(0, 1), q(21, 36)]);
}

#[test]
fn coin_until_two_matches_extended() {
    // The same test as extended::tests::coin_flips_until_two_heads.
    let coin = vec![(0, 0, q(1, 2)), (1, 0, q(1, 2))];
    let l = solve(&coin, &[], &spec(2, 3)).unwrap();
    assert_eq!(l.p_done_by, vec![q(0, 1), q(1, 4), q(1, 2)]);
    assert_eq!(l.expected_rolls, q(11, 4));
    assert_eq!(l.expected_rolls_unbounded, Some(q(4, 1)));
}

#[test]
fn matches_brute_force_plain() {
    for until in [1, 3, 7, 12] {
        for k in [1, 2, 4] {
            assert_matches_brute(&die(6), &[], until, k, Negative::Zero);
        }
    }
    // 2D4+1 as a law.
    let mut l: Vec<(i64, usize, Exact)> = Vec::new();
    for a in 1..=4 {
        for b in 1..=4 {
            l.push((a + b + 1, 0, q(1, 16)));
        }
    }
    assert_matches_brute(&l, &[], 20, 4, Negative::Zero);
}

#[test]
fn matches_brute_force_negative_results() {
    // 1D6-3: −2..3.
    let l: Vec<(i64, usize, Exact)> = (1..=6).map(|f| (f - 3, 0, q(1, 6))).collect();
    for neg in [Negative::Zero, Negative::Subtract] {
        for until in [1, 4, 6] {
            assert_matches_brute(&l, &[], until, 5, neg);
        }
    }
}

#[test]
fn matches_brute_force_tier_effects() {
    // 1D10: 1 fumble ends the test, 10 critical adds 2, 2..9 add.
    let l: Vec<(i64, usize, Exact)> = (1..=10)
        .map(|f| {
            let t = match f {
                10 => 0,
                1 => 2,
                _ => 1,
            };
            (f, t, q(1, 10))
        })
        .collect();
    let eff = [Effect::Bonus(2), Effect::Add, Effect::Fail];
    assert_matches_brute(&l, &eff, 15, 4, Negative::Zero);
    let eff = [Effect::Succeed, Effect::Bonus(-3), Effect::Fail];
    for neg in [Negative::Zero, Negative::Subtract] {
        assert_matches_brute(&l, &eff, 12, 4, neg);
    }
}

#[test]
fn sub_stochastic_laws_lose_their_cut() {
    // A law short of 1/10 (an exploding cut): the missing mass is
    // neither done, aborted nor still rolling.
    let l = vec![(1, 0, q(9, 10))];
    assert_matches_brute(&l, &[], 2, 3, Negative::Zero);
}

#[test]
fn automatic_cap_stops_where_nothing_is_left() {
    // 2D6 to 100: at least 2 a round, so all done within 50.
    let mut l: Vec<(i64, usize, f64)> = Vec::new();
    for a in 1..=6 {
        for b in 1..=6 {
            l.push((a + b, 0, 1.0 / 36.0));
        }
    }
    let s = Spec {
        rounds: None,
        ..spec(100, 1)
    };
    let law = solve(&l, &[], &s).unwrap();
    assert!(law.auto_cap);
    assert!(law.rounds() <= 50 && law.tail_mass < 1e-15);
    let shorter = Spec {
        rounds: Some(law.rounds() - 1),
        ..s
    };
    assert!(solve(&l, &[], &shorter).unwrap().tail_mass >= 1e-15);
    assert!((law.p_success() - 1.0).abs() < 1e-12);
    // Mean 7 per round: about 100/7 + overshoot.
    let e = law.expected_rolls_unbounded.unwrap();
    assert!((law.expected_rolls - e).abs() < 1e-9 && (14.0..16.0).contains(&e));
    // 1D6 to 10 with tail_eps 1e-6: every round leaves a falling mass.
    let s = Spec {
        rounds: None,
        tail_eps: 1e-6,
        ..spec(10, 1)
    };
    let law = solve(&to_f64(&die(6)), &[], &s).unwrap();
    // Not done after k rolls: the sum of k d6 is at most 9. k = 8:
    // 9/6⁸ = 5.4e-6; k = 9: 1/6⁹ = 9.9e-8, the first below 1e-6.
    assert_eq!(law.rounds(), 9);
    assert!((law.tail_mass - 1.0 / 6f64.powi(9)).abs() < 1e-18);
    let shorter = solve(
        &to_f64(&die(6)),
        &[],
        &Spec {
            rounds: Some(law.rounds() - 1),
            ..s
        },
    )
    .unwrap();
    assert!(shorter.tail_mass >= 1e-6);
}

#[test]
fn unreachable_thresholds_are_spotted() {
    let l = vec![(0, 0, q(1, 2)), (-1, 0, q(1, 2))];
    assert!(never_reaches(&l, &[]));
    assert!(!never_reaches(&l, &[Effect::Succeed]));
    assert!(!never_reaches(&l, &[Effect::Bonus(2)]));
    assert!(!never_reaches(&die(6), &[]));
}

fn side(law: &[(i64, usize, Exact)], until: i64) -> Side<'_, Exact> {
    Side {
        law,
        effects: &[],
        until,
    }
}

/// Two sides enumerated jointly round by round.
fn brute_race(
    a: &[(i64, usize, Exact)],
    b: &[(i64, usize, Exact)],
    na: i64,
    nb: i64,
    k: usize,
) -> (Exact, Exact, Exact, Exact) {
    // State: accumulated values; both still rolling.
    let (mut win, mut tie, mut loss, mut going) = (q(0, 1), q(0, 1), q(0, 1), q(0, 1));
    #[allow(clippy::too_many_arguments)]
    fn go(
        a: &[(i64, usize, Exact)],
        b: &[(i64, usize, Exact)],
        na: i64,
        nb: i64,
        left: usize,
        sa: i64,
        sb: i64,
        p: Exact,
        out: &mut [&mut Exact; 4],
    ) {
        if left == 0 {
            *out[3] += p;
            return;
        }
        for (x, _, pa) in a {
            for (y, _, pb) in b {
                let pw = p.clone() * pa * pb;
                let (ta, tb) = (sa + x.max(&0) >= na, sb + y.max(&0) >= nb);
                match (ta, tb) {
                    (true, false) => *out[0] += pw,
                    (true, true) => *out[1] += pw,
                    (false, true) => *out[2] += pw,
                    (false, false) => go(
                        a,
                        b,
                        na,
                        nb,
                        left - 1,
                        sa + x.max(&0),
                        sb + y.max(&0),
                        pw,
                        out,
                    ),
                }
            }
        }
    }
    go(
        a,
        b,
        na,
        nb,
        k,
        0,
        0,
        q(1, 1),
        &mut [&mut win, &mut tie, &mut loss, &mut going],
    );
    (win, tie, loss, going)
}

#[test]
fn race_matches_brute_force() {
    let d4: Vec<(i64, usize, Exact)> = die(4);
    let d6 = die(6);
    for (na, nb, k) in [(5, 6, 3), (4, 4, 4), (7, 3, 3)] {
        let r = race(
            side(&d6, na),
            side(&d4, nb),
            Some(k),
            Negative::Zero,
            1e-15,
            TieRule::Separate,
        )
        .unwrap();
        let (w, t, l, g) = brute_race(&d6, &d4, na, nb, k);
        assert_eq!(
            (r.p_win.clone(), r.p_tie.clone(), r.p_loss.clone()),
            (w, t, l)
        );
        assert_eq!(r.tail_mass, g);
        let total = r
            .rolls()
            .into_iter()
            .fold(r.tail_mass.clone(), |a, x| a + x);
        assert_eq!(total, q(1, 1));
    }
}

/// A race where the first side's tier 1 ends its test (it drops out),
/// enumerated: (win, tie, loss, still going, neither).
fn brute_race_fumble(
    a: &[(i64, usize, Exact)],
    b: &[(i64, usize, Exact)],
    na: i64,
    nb: i64,
    k: usize,
) -> [Exact; 5] {
    let mut out: [Exact; 5] = std::array::from_fn(|_| q(0, 1));
    // Some(value) rolling, None out.
    let mut states: Vec<(Option<i64>, i64, Exact)> = vec![(Some(0), 0, q(1, 1))];
    for _ in 0..k {
        let mut next = Vec::new();
        for (sa, sb, p) in states {
            let a_outcomes: Vec<(Option<i64>, Exact)> = match sa {
                None => vec![(None, q(1, 1))],
                Some(v) => a
                    .iter()
                    .map(|(x, t, w)| (if *t == 1 { None } else { Some(v + x) }, w.clone()))
                    .collect(),
            };
            for (na_v, pa) in &a_outcomes {
                for (y, _, pb) in b {
                    let pw = p.clone() * pa * pb;
                    let a_done = na_v.is_some_and(|v| v >= na);
                    let b_done = sb + y >= nb;
                    match (a_done, b_done) {
                        (true, false) => out[0] += pw,
                        (true, true) => out[1] += pw,
                        (false, true) => out[2] += pw,
                        (false, false) => next.push((*na_v, sb + y, pw)),
                    }
                }
            }
        }
        states = next;
    }
    for (_, _, p) in states {
        out[3] += p;
    }
    out
}

#[test]
fn race_with_a_fumble_matches_brute_force() {
    // First side: 1D6, a 1 drops it out; the other: 1D4.
    let a: Vec<(i64, usize, Exact)> = (1..=6).map(|f| (f, usize::from(f == 1), q(1, 6))).collect();
    let d4 = die(4);
    let eff = [Effect::Add, Effect::Fail];
    for (na, nb, k) in [(6, 7, 3), (4, 9, 4)] {
        let r = race(
            Side {
                law: &a,
                effects: &eff,
                until: na,
            },
            side(&d4, nb),
            Some(k),
            Negative::Zero,
            1e-15,
            TieRule::Separate,
        )
        .unwrap();
        let [w, t, l, g, _] = brute_race_fumble(&a, &d4, na, nb, k);
        assert_eq!((r.p_win, r.p_tie, r.p_loss), (w, t, l));
        assert_eq!(r.tail_mass, g);
        // The other side cannot drop out, so neither is 0.
        assert_eq!(r.p_neither, q(0, 1));
    }
}

#[test]
fn race_tie_rules_by_hand() {
    // 1D2 vs 1D2, both until 2, one round: each reaches it on a 2.
    let d2 = die(2);
    let run = |tie| {
        race(
            side(&d2, 2),
            side(&d2, 2),
            Some(1),
            Negative::Zero,
            1e-15,
            tie,
        )
        .unwrap()
    };
    let r = run(TieRule::Separate);
    assert_eq!((r.p_win, r.p_tie, r.p_loss), (q(1, 4), q(1, 4), q(1, 4)));
    assert_eq!(r.tail_mass, q(1, 4));
    let r = run(TieRule::First);
    assert_eq!((r.p_win, r.p_tie), (q(1, 2), q(0, 1)));
    let r = run(TieRule::Reroll);
    // Restarting on a tie: win = (1/4) / (3/4) = 1/3.
    assert_eq!((r.p_win, r.p_loss), (q(1, 3), q(1, 3)));
    assert_eq!(r.expected_rolls, q(4, 3));
}

#[test]
fn bounds_are_refused() {
    let s = Spec {
        rounds: Some(MAX_ROUNDS + 1),
        ..spec(10, 1)
    };
    let e = solve(&die(6), &[], &s).unwrap_err().to_string();
    assert!(e.contains("--rounds") && e.contains("10000"), "{e}");
    let e = solve(&die(6), &[], &spec(MAX_UNTIL + 1, 3))
        .unwrap_err()
        .to_string();
    assert!(e.contains("--until"), "{e}");
}

#[test]
fn big_ratio() {
    let n = BigInt::from(3) << 2000usize;
    let d = BigInt::from(4) << 2000usize;
    assert_eq!(ratio_f64(&n, &d), 0.75);
}
