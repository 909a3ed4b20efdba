//! Tests of `src/systems/dice/per_roll.rs` (`hantei::systems::dice::per_roll`).

use hantei::systems::dice::pool::Stat;
use hantei::systems::dice::Check;
use hantei::weight::Weight;

use hantei::systems::dice::parse_tier;
use hantei::systems::dice::per_roll::*;
use hantei::weight::Exact;

fn q(n: i64, d: i64) -> Exact {
    Exact::ratio(n, d)
}

#[test]
fn stats_of_one_d6_plus_one() {
    let c = Check::new("1D6+1>=5").unwrap();
    let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
    assert_eq!(r, (2..=7).map(|v| (v, 0, q(1, 6))).collect::<Vec<_>>());
    let n = per_roll::<Exact>(&c, &RoundStat::Natural).unwrap();
    assert_eq!(n, (1..=6).map(|v| (v, 0, q(1, 6))).collect::<Vec<_>>());
    // 1D6+1 ≥ 5 on 4, 5, 6.
    let s = per_roll::<Exact>(&c, &RoundStat::Success).unwrap();
    assert_eq!(s, vec![(0, 0, q(1, 2)), (1, 0, q(1, 2))]);
}

#[test]
fn tiers_and_counting_commands() {
    let mut c = Check::new("1D20").unwrap();
    c.tiers = [
        "critical:natural>=19",
        "fumble:natural==1",
        "hit:>=11",
        "miss",
    ]
    .iter()
    .map(|t| parse_tier(t).unwrap())
    .collect();
    let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
    assert_eq!(r.len(), 20);
    assert!(r.contains(&(20, 0, q(1, 20))) && r.contains(&(1, 1, q(1, 20))));
    assert!(r.contains(&(11, 2, q(1, 20))) && r.contains(&(10, 3, q(1, 20))));
    // Success: critical and hit (fumble is a tier before the last, so it
    // counts too by default — name the success tiers to leave it out).
    c.success_tiers = Some(vec!["critical".into(), "hit".into()]);
    let s = per_roll::<Exact>(&c, &RoundStat::Success).unwrap();
    let p1: Exact = s.iter().filter(|x| x.0 == 1).map(|x| x.2.clone()).sum();
    assert_eq!(p1, q(10, 20));
    let c = Check::new("3B6>=5").unwrap();
    let r = per_roll::<Exact>(&c, &RoundStat::Result).unwrap();
    assert_eq!(r[0], (0, 0, q(8, 27)));
    assert!(RoundStat::Natural.validate(&c).is_err());
    assert!(RoundStat::Success
        .validate(&Check::new("D66").unwrap())
        .is_err());
    assert_eq!(RoundStat::parse("Success").unwrap(), RoundStat::Success);
    assert_eq!(RoundStat::parse("max").unwrap(), RoundStat::Stat(Stat::Max));
    assert!(RoundStat::parse("max(").is_err());
}
