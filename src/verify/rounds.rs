//! Verification points of tests over several rolls (`dice --until N`):
//! each trial really rolls the command round after round through the
//! plain rule ([`Command::roll`](crate::systems::dice::Command::roll) via
//! [`super::notation::roll`]), judges each roll's tier and statistic there, and
//! adds it up until the threshold, a tier that ends the test, or the cap.
//! The exact law comes from [`crate::rounds`] on
//! [`crate::systems::dice::per_roll::per_roll`] in exact
//! arithmetic.
//!
//! Cells: `done k` and `ended k` (the round the test ended on, done or by
//! a failure tier) for k = 1..K, then `rolling` (still going after K).
//! Races: `win`, `tie`, `loss`, `going`.

use crate::contest::TieRule;
use crate::rounds::{self, Effect, Negative, Side, Spec};
use crate::systems::dice::per_roll::{per_roll, RoundStat};
use crate::systems::dice::until::{parse_bonus, Until};
use crate::systems::dice::{self, Check};
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::notation::roll;
use super::{Point, Sampler};

/// A test over several rolls, rolled.
#[doc(hidden)]
pub struct RoundsSampler {
    #[doc(hidden)]
    pub check: Check,
    #[doc(hidden)]
    pub stat: RoundStat,
    #[doc(hidden)]
    pub effects: Vec<Effect>,
    #[doc(hidden)]
    pub until: i64,
    #[doc(hidden)]
    pub rounds: usize,
    #[doc(hidden)]
    pub negative: Negative,
}

/// What one roll did: `Some(progress)`, or the end it forced.
enum Rolled {
    Add(i64),
    Fail,
    Succeed,
}

fn one_roll(
    check: &Check,
    stat: &RoundStat,
    effects: &[Effect],
    negative: Negative,
    dice: &mut Dice,
) -> Rolled {
    let (tier, s) = if stat.needs_engine(check) {
        let mut faces = |sides: i64| i64::from(dice.roll(sides as u32));
        let f = check.roll_facts(&mut faces).unwrap_or_default();
        let tier = if check.tiers.is_empty() {
            0
        } else {
            check.tier_of_facts(&f)
        };
        (tier, stat.of_facts(check, &f, tier))
    } else {
        let r = roll(&check.command, dice);
        let tier = if check.tiers.is_empty() {
            0
        } else {
            check.tier_of(r.value, r.natural)
        };
        (tier, stat.of_rolled(check, &r, tier))
    };
    let raw = match effects.get(tier).copied().unwrap_or_default() {
        Effect::Fail => return Rolled::Fail,
        Effect::Succeed => return Rolled::Succeed,
        Effect::Add => s,
        Effect::Bonus(b) => s + b,
    };
    Rolled::Add(match negative {
        Negative::Zero => raw.max(0),
        Negative::Subtract => raw,
    })
}

impl Sampler for RoundsSampler {
    fn cells(&self) -> usize {
        2 * self.rounds + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let mut acc = 0;
        for k in 0..self.rounds {
            match one_roll(&self.check, &self.stat, &self.effects, self.negative, dice) {
                Rolled::Fail => return 2 * k + 1,
                Rolled::Succeed => return 2 * k,
                Rolled::Add(d) => {
                    acc += d;
                    if acc >= self.until {
                        return 2 * k;
                    }
                }
            }
        }
        2 * self.rounds
    }
}

/// A race, rolled: both sides each round.
struct RaceSampler {
    check: Check,
    vs: Check,
    until: i64,
    vs_until: i64,
    rounds: usize,
}

impl Sampler for RaceSampler {
    fn cells(&self) -> usize {
        4
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let (mut a, mut b) = (0, 0);
        let stat = RoundStat::Result;
        for _ in 0..self.rounds {
            if let Rolled::Add(x) = one_roll(&self.check, &stat, &[], Negative::Zero, dice) {
                a += x;
            }
            if let Rolled::Add(y) = one_roll(&self.vs, &stat, &[], Negative::Zero, dice) {
                b += y;
            }
            match (a >= self.until, b >= self.vs_until) {
                (true, false) => return 0,
                (true, true) => return 1,
                (false, true) => return 2,
                (false, false) => {}
            }
        }
        3
    }
}

#[doc(hidden)]
pub fn check_of(expr: &str, tiers: &[&str]) -> Check {
    let mut check = Check::new(expr).unwrap_or_else(|e| panic!("grid expression {expr}: {e}"));
    check.tiers = tiers
        .iter()
        .map(|t| dice::parse_tier(t).unwrap_or_else(|e| panic!("grid tier {t}: {e}")))
        .collect();
    check
}

/// A point: `expr` with `tiers`, rules `u` (its `rounds` must be set).
#[doc(hidden)]
pub fn point(expr: &str, tiers: &[&str], u: Until) -> Point {
    let check = check_of(expr, tiers);
    u.validate(&check)
        .unwrap_or_else(|e| panic!("grid point {expr}: {e}"));
    let k = u.rounds.expect("grid points give --rounds");
    let effects = u.effects(&check);
    let law = per_roll::<Exact>(&check, &u.stat).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let spec = Spec {
        until: u.until,
        rounds: Some(k),
        negative: u.negative,
        tail_eps: check.tail_eps,
    };
    let l = rounds::solve(&law, &effects, &spec).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let mut cells = Vec::new();
    let mut exact = Vec::new();
    let (mut pd, mut pa) = (Exact::ratio(0, 1), Exact::ratio(0, 1));
    for i in 0..k {
        cells.push(format!("done {}", i + 1));
        exact.push((l.p_done_by[i].clone() - &pd).to_f64());
        cells.push(format!("ended {}", i + 1));
        exact.push((l.p_aborted_by[i].clone() - &pa).to_f64());
        pd = l.p_done_by[i].clone();
        pa = l.p_aborted_by[i].clone();
    }
    cells.push("rolling".into());
    // The rest: still rolling, and the mass an exploding cut leaves out.
    let rest = Exact::ratio(1, 1) - &pd - &pa;
    exact.push(rest.to_f64());
    let mut label = format!("{} until {} in {k}", check.command, u.until);
    if !tiers.is_empty() {
        label += &format!(" tiers {}", tiers.join(" | "));
    }
    if u.stat != RoundStat::Result {
        label += &format!(" stat {}", u.stat.key());
    }
    if u.negative != Negative::Zero {
        label += &format!(" {}", u.negative.key());
    }
    for (n, b) in &u.bonus {
        label += &format!(" {n}{b:+}");
    }
    for n in &u.fail_tiers {
        label += &format!(" {n} fails");
    }
    for n in &u.success_tiers {
        label += &format!(" {n} succeeds");
    }
    Point {
        system: dice::ID,
        label,
        cells,
        exact,
        sampler: Box::new(RoundsSampler {
            stat: u.stat,
            until: u.until,
            rounds: k,
            negative: u.negative,
            effects,
            check,
        }),
    }
}

fn race_point(expr: &str, vs: &str, until: i64, vs_until: i64, k: usize) -> Point {
    let check = check_of(expr, &[]);
    let other = check_of(vs, &[]);
    let la = per_roll::<Exact>(&check, &RoundStat::Result).expect("grid race");
    let lb = per_roll::<Exact>(&other, &RoundStat::Result).expect("grid race");
    let r = rounds::race(
        Side {
            law: &la,
            effects: &[],
            until,
        },
        Side {
            law: &lb,
            effects: &[],
            until: vs_until,
        },
        Some(k),
        Negative::Zero,
        check.tail_eps,
        TieRule::Separate,
    )
    .expect("grid race");
    Point {
        system: dice::ID,
        label: format!("race {expr} to {until} vs {vs} to {vs_until} in {k}"),
        cells: vec!["win".into(), "tie".into(), "loss".into(), "going".into()],
        exact: vec![
            r.p_win.to_f64(),
            r.p_tie.to_f64(),
            r.p_loss.to_f64(),
            r.tail_mass.to_f64(),
        ],
        sampler: Box::new(RaceSampler {
            check,
            vs: other,
            until,
            vs_until,
            rounds: k,
        }),
    }
}

#[doc(hidden)]
pub fn until(n: i64, k: usize) -> Until {
    Until {
        until: n,
        rounds: Some(k),
        ..Until::default()
    }
}

/// The default grid: damage to HP, a lock of successes, negative results
/// both ways, tiers that end the test or add a bonus, a count of successful
/// rolls, natural dice, an exploding pool, and two races.
pub fn grid() -> Vec<Point> {
    let bonus = |s: &str| parse_bonus(s).unwrap_or_else(|e| panic!("{e}"));
    vec![
        point("2D6", &[], until(30, 6)),
        point("1D6", &[], until(20, 8)),
        point("2D4+1", &[], until(12, 4)),
        point("5B6>=5", &[], until(10, 8)),
        point("1D6-2", &[], until(8, 6)),
        point(
            "1D6-2",
            &[],
            Until {
                negative: Negative::Subtract,
                ..until(4, 6)
            },
        ),
        point(
            "1D10",
            &["critical:==10", "fumble:==1", "hit"],
            Until {
                fail_tiers: vec!["fumble".into()],
                bonus: vec![bonus("critical=+3")],
                ..until(15, 5)
            },
        ),
        point(
            "1D20+5",
            &["nat20:natural==20", "hit:>=15", "miss"],
            Until {
                stat: RoundStat::Success,
                success_tiers: vec!["nat20".into()],
                ..until(3, 6)
            },
        ),
        point(
            "1D6+3",
            &[],
            Until {
                stat: RoundStat::Natural,
                ..until(10, 4)
            },
        ),
        point("3R6>=5", &[], until(5, 4)),
        race_point("2D6", "1D12", 20, 18, 5),
        race_point("1D8", "1D8", 12, 12, 4),
    ]
}
