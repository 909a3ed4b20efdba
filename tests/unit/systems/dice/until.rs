//! Tests of `src/systems/dice/until.rs` (`hantei::systems::dice::until`).

use hantei::report::Field;
use hantei::rounds::MAX_ROUNDS;
use hantei::systems::dice::Check;
use hantei::weight::Weight;

use hantei::systems::dice::parse_tier;
use hantei::systems::dice::until::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

fn until(n: i64, k: Option<usize>) -> Until {
    Until {
        until: n,
        rounds: k,
        ..Until::default()
    }
}

#[test]
fn one_d6_until_three() {
    let c = Check::new("1D6").unwrap();
    let r = report::<Exact>(&c, &until(3, Some(2))).unwrap();
    // By 1 on 3..6; by 2 unless 1 then 1.
    assert_eq!(r.p_success, q(35, 36));
    assert_eq!(
        r.get("p_done_by"),
        Some(&Field::Probs(vec![q(2, 3), q(35, 36)]))
    );
    // E(2 left... ) by hand: from 2, one roll; from 1, 1 + 1/6; from 0,
    // 1 + (1/6)(7/6) + (1/6)(1) = 49/36.
    assert_eq!(
        r.get("expected_rolls_unbounded"),
        Some(&Field::Value(q(49, 36)))
    );
    assert_eq!(r.outcome("not_done"), Some(&q(1, 36)));
}

#[test]
fn lock_with_ten_successes_of_five_dice() {
    // 5B6>=5 until 10: each round succeeds Binomial(5, 1/3) times. One
    // round can give at most 5, so two rounds need 5 + 5: (1/3)^10.
    let c = Check::new("5B6>=5").unwrap();
    let r = report::<Exact>(&c, &until(10, Some(2))).unwrap();
    let Some(Field::Probs(by)) = r.get("p_done_by") else {
        panic!()
    };
    assert_eq!(by[0], q(0, 1));
    assert_eq!(by[1], q(1, 3i64.pow(10)));
    // Mean 5/3 a round.
    assert_eq!(r.get("progress_mean"), Some(&Field::Value(q(5, 3))));
}

#[test]
fn fumble_ends_and_critical_adds() {
    let mut c = Check::new("1D6").unwrap();
    c.tiers = ["crit:==6", "fumble:==1", "hit"]
        .iter()
        .map(|t| parse_tier(t).unwrap())
        .collect();
    let u = Until {
        fail_tiers: vec!["fumble".into()],
        bonus: vec![("crit".into(), 4)],
        ..until(10, Some(1))
    };
    // One roll reaches 10 only with a 6 (+4).
    let r = report::<Exact>(&c, &u).unwrap();
    assert_eq!(r.p_success, q(1, 6));
    assert_eq!(r.get("p_aborted"), Some(&Field::Prob(q(1, 6))));
}

#[test]
fn bad_input_is_refused() {
    let c = Check::new("1D6-6").unwrap();
    let e = report::<f64>(&c, &until(3, None)).unwrap_err().to_string();
    assert!(e.contains("--until") && e.contains("never positive"), "{e}");
    let c = Check::new("1D6").unwrap();
    let u = Until {
        fail_tiers: vec!["x".into()],
        ..until(3, None)
    };
    assert!(report::<f64>(&c, &u).is_err());
    let e = report::<f64>(&c, &until(3, Some(MAX_ROUNDS + 1)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("10000"), "{e}");
    assert_eq!(parse_bonus("critical=+2").unwrap(), ("critical".into(), 2));
    assert!(parse_bonus("critical").is_err());
}

#[test]
fn race_of_equal_sides_is_fair() {
    let mut c = Check::new("1D6").unwrap();
    c.vs = Some(hantei::systems::dice::parse("1D6").unwrap());
    let r = report::<Exact>(&c, &until(5, Some(30))).unwrap();
    let g = |n: &str| match r.get(n) {
        Some(Field::Prob(p)) => p.clone(),
        _ => panic!("{n}"),
    };
    assert_eq!(g("p_win"), g("p_loss"));
    c.tie = hantei::systems::dice::TieBreak::Attacker;
    let r2 = report::<Exact>(&c, &until(5, Some(30))).unwrap();
    assert!(r2.p_success > r.p_success);
}
