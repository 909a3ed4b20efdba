//! Verification grid of `levels` (levelled d100 roll-under).
//!
//! Checks roll a d100 and judge it with [`Check::classify`]; an unknown
//! difficulty is first drawn from the prior with a die over the prior's
//! total weight (face `u` gives the first `D` whose cumulative weight
//! reaches `u`), then the d100 is rolled against it. Contests roll the
//! attacker's d100 and, only if it succeeds and the defender has a level
//! that may reply, the defender's, judged by [`Contest::classify`]. The
//! defender's best reply is executed as a decision: among its levels
//! `≥ La` the one with the highest target value (ties to the lowest) — not
//! the engine's `Ld = La`, which the exact law assumes. An undeclared level
//! is likewise chosen by the sampler, by the integer score of the rule
//! (`v_L × Σ_{D ≤ L} w_D` for a check, `va × (100 − vd)` for a contest,
//! ties to the lowest level), independently of the engine's `best_level`.
//!
//! Cells: the tiers (`failure`, `short`, `achieved`, `critical`) of a
//! check, the outcomes (`attack_fails`, `defended`, `lands`, `critical`) of
//! a contest; exact laws from [`Check::law`] and [`Contest::law`].

use crate::systems::levels::{Check, Contest, CriticalRule, Prior, Required, Skill, ID};
use crate::tier::{Tier, TierLaw};
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::{Point, Sampler};

/// Sides of the percentile die.
const D100: u32 = 100;

/// Stand-in for the defender's roll when it does not roll: above every
/// target value, so it could never stop anything.
const NO_ROLL: u32 = D100 + 1;

fn cells_and_exact<T: Tier>(law: &TierLaw<T, Exact>) -> (Vec<String>, Vec<f64>) {
    law.iter()
        .map(|(t, p)| (t.key().to_string(), p.to_f64()))
        .unzip()
}

// ---- checks ----------------------------------------------------------------

/// How the sampler finds the required level of one trial.
#[derive(Clone, Debug)]
enum Difficulty {
    /// Set by the GM.
    Known(u32),
    /// Drawn with a die over the total weight: `cumulative[d - 1]` is
    /// `Σ_{D ≤ d} w_D`.
    Prior { cumulative: Vec<u32>, total: u32 },
}

impl Difficulty {
    fn draw(&self, dice: &mut Dice) -> u32 {
        match self {
            Difficulty::Known(d) => *d,
            Difficulty::Prior { cumulative, total } => {
                let u = dice.roll(*total);
                cumulative.iter().position(|&c| u <= c).unwrap_or(0) as u32 + 1
            }
        }
    }
}

/// A check: draw the difficulty (if unknown), roll, classify.
struct CheckSampler {
    /// The check at the level the player declares (decided by the sampler
    /// when the point declares none).
    judge: Check,
    difficulty: Difficulty,
}

impl Sampler for CheckSampler {
    fn cells(&self) -> usize {
        4
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let d = self.difficulty.draw(dice);
        self.judge.classify(dice.roll(D100), d).index()
    }
}

/// The required level of a grid point.
#[derive(Clone, Copy, Debug)]
enum Given<'a> {
    /// Known: `D`.
    D(u32),
    /// Unknown: weights over `D = 1, 2, …`.
    Prior(&'a [u32]),
}

/// A check point. `level`: the declared level, or `None` for the player's
/// best choice.
fn check(values: &[i64], level: Option<usize>, required: Given, critical: CriticalRule) -> Point {
    let skill = Skill::new(values).expect("valid skill");
    let (req, difficulty, req_text) = match required {
        Given::D(d) => (Required::Known(d), Difficulty::Known(d), format!("D={d}")),
        Given::Prior(w) => {
            let weights: Vec<i64> = w.iter().map(|&x| i64::from(x)).collect();
            let cumulative: Vec<u32> = w
                .iter()
                .scan(0, |s, &x| {
                    *s += x;
                    Some(*s)
                })
                .collect();
            let total = *cumulative.last().expect("non-empty prior");
            (
                Required::Prior(Prior::new(&weights).expect("valid prior")),
                Difficulty::Prior { cumulative, total },
                format!("prior={w:?}"),
            )
        }
    };
    let exact_check = Check::new(
        skill.clone(),
        level.map(|l| l as i64),
        req.clone(),
        critical,
    )
    .expect("valid check");
    // The player's declaration: given, or the best by the rule's own score.
    let declared = level.unwrap_or_else(|| best_check_level(&skill, &difficulty));
    let judge = Check::new(skill, Some(declared as i64), req, critical).expect("valid level");
    let (cells, exact) = cells_and_exact(&exact_check.law::<Exact>());
    let level_text = match level {
        Some(l) => format!("L={l}"),
        None => format!("L=best({declared})"),
    };
    Point {
        system: ID,
        label: format!(
            "check skill={values:?} {level_text} {req_text} critical={}",
            critical.key()
        ),
        cells,
        exact,
        sampler: Box::new(CheckSampler { judge, difficulty }),
    }
}

/// The level with the highest `v_L × P(D ≤ L)` (in integers: `v_L` times
/// the weight of `D ≤ L`), ties to the lowest.
fn best_check_level(skill: &Skill, difficulty: &Difficulty) -> usize {
    let reach = |l: usize| -> u64 {
        match difficulty {
            Difficulty::Known(d) => u64::from(*d as usize <= l),
            Difficulty::Prior { cumulative, total } => {
                u64::from(cumulative.get(l - 1).copied().unwrap_or(*total))
            }
        }
    };
    best_by_score(skill.levels(), |l| {
        u64::from(skill.value(l).unwrap_or(0)) * reach(l)
    })
}

/// 1-based argmax, ties to the lowest.
fn best_by_score<F: Fn(usize) -> u64>(levels: usize, score: F) -> usize {
    let mut best = (1, score(1));
    for l in 2..=levels {
        let s = score(l);
        if s > best.1 {
            best = (l, s);
        }
    }
    best.0
}

// ---- contests --------------------------------------------------------------

/// How the defender picks its level.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub enum Reply {
    /// Its best reply, decided when the attack succeeds.
    Best,
    /// A fixed level.
    Level(usize),
}

/// The defender's level against attacker level `la`: the best reply is the
/// allowed level (`≥ la`) with the highest target value, ties to the
/// lowest; a fixed level replies only if allowed. `None`: no level may
/// reply, the defender does not roll.
#[doc(hidden)]
pub fn defender_level(defender: &Skill, reply: Reply, la: usize) -> Option<usize> {
    match reply {
        Reply::Best => (la <= defender.levels()).then(|| {
            (la..=defender.levels())
                .fold((la, 0u32), |(bl, bv), l| {
                    let v = defender.value(l).unwrap_or(0);
                    if l == la || v > bv {
                        (l, v)
                    } else {
                        (bl, bv)
                    }
                })
                .0
        }),
        Reply::Level(l) => (l >= la).then_some(l),
    }
}

/// A contest at a fixed attacker level: the attacker rolls; on a success
/// the defender decides its level and rolls (if any level may reply).
struct ContestSampler {
    attacker_value: u32,
    la: usize,
    /// Target value of the level the defender replies with against `la`
    /// (its decision; the same on every trial, as `la` is fixed), or `None`
    /// when no level may reply and the defender does not roll.
    defence: Option<u32>,
    /// The contest judged with the defender's decided level (fixed reply).
    judge: Contest,
}

impl Sampler for ContestSampler {
    fn cells(&self) -> usize {
        4
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let r_att = dice.roll(D100);
        let r_def = if r_att <= self.attacker_value && self.defence.is_some() {
            dice.roll(D100)
        } else {
            NO_ROLL
        };
        self.judge.classify(r_att, r_def, self.la).index()
    }
}

fn contest(
    attacker: &[i64],
    defender: &[i64],
    la: Option<usize>,
    reply: Reply,
    critical: CriticalRule,
) -> Point {
    let att = Skill::new(attacker).expect("valid attacker");
    let def = Skill::new(defender).expect("valid defender");
    let fixed = match reply {
        Reply::Best => None,
        Reply::Level(l) => Some(l as i64),
    };
    let exact_contest = Contest::new(
        att.clone(),
        def.clone(),
        la.map(|l| l as i64),
        fixed,
        critical,
    )
    .expect("valid contest");
    // The attacker's declaration: given, or the best by the rule's score
    // va × (100 − value of the defender's reply).
    let stop = |l: usize| {
        defender_level(&def, reply, l)
            .and_then(|ld| def.value(ld))
            .unwrap_or(0)
    };
    let level = la.unwrap_or_else(|| {
        best_by_score(att.levels(), |l| {
            u64::from(att.value(l).unwrap_or(0)) * u64::from(D100 - stop(l))
        })
    });
    let ld = defender_level(&def, reply, level);
    // Judge with the defender's decided level fixed; with no level to reply
    // a fixed level below the attacker's cannot stop it either.
    let judge = Contest::new(
        att.clone(),
        def.clone(),
        Some(level as i64),
        Some(ld.unwrap_or(1) as i64),
        critical,
    )
    .expect("valid judge");
    let (cells, exact) = cells_and_exact(&exact_contest.law::<Exact>());
    let level_text = match la {
        Some(l) => format!("La={l}"),
        None => format!("La=best({level})"),
    };
    let reply_text = match reply {
        Reply::Best => match ld {
            Some(l) => format!("Ld=best({l})"),
            None => "Ld=none".to_string(),
        },
        Reply::Level(l) => format!("Ld={l}"),
    };
    Point {
        system: ID,
        label: format!(
            "contest {attacker:?} vs {defender:?} {level_text} {reply_text} critical={}",
            critical.key()
        ),
        cells,
        exact,
        sampler: Box::new(ContestSampler {
            attacker_value: att.value(level).unwrap_or(0),
            la: level,
            defence: ld.and_then(|l| def.value(l)),
            judge,
        }),
    }
}

/// The default verification grid of this system.
pub fn grid() -> Vec<Point> {
    use CriticalRule::{Exact as Ex, Top5};
    let seed = [50, 30, 15];
    vec![
        // Known difficulty: short, achieved, both critical bands.
        check(&seed, Some(1), Given::D(2), Ex),
        check(&seed, Some(2), Given::D(2), Ex),
        check(&[60, 48, 36, 24, 12], Some(1), Given::D(1), Top5),
        check(&[100, 100, 95, 40, 0], Some(2), Given::D(1), Top5),
        check(&[100, 100, 100], Some(3), Given::D(2), Ex),
        check(&[99, 49, 19], Some(3), Given::D(4), Top5),
        // Unknown difficulty: D drawn from the prior, then the roll.
        check(&seed, Some(2), Given::Prior(&[1, 1, 2]), Ex),
        check(&seed, Some(3), Given::Prior(&[1, 1, 2]), Top5),
        check(&[100, 60, 40], None, Given::Prior(&[1, 1, 1]), Top5),
        check(
            &[60, 48, 36, 24, 12],
            Some(4),
            Given::Prior(&[0, 3, 1, 2, 0, 1]),
            Top5,
        ),
        check(
            &[100, 100, 95, 40, 0],
            None,
            Given::Prior(&[2, 5, 1, 1]),
            Ex,
        ),
        // Contests: the defender's best reply, lacking the level, fixed.
        contest(&[50, 30, 15, 10], &[70, 40, 30], Some(2), Reply::Best, Ex),
        contest(&[50, 30, 15, 10], &[70, 40, 30], Some(4), Reply::Best, Top5),
        contest(
            &[100, 100, 60],
            &[80, 50, 45, 20],
            Some(2),
            Reply::Best,
            Top5,
        ),
        contest(&[50, 30, 15, 10], &[50, 30, 15], None, Reply::Best, Top5),
        contest(&[60, 48, 36], &[70, 40, 30], Some(1), Reply::Level(2), Top5),
        contest(&[60, 48, 36], &[70, 40, 30], Some(3), Reply::Level(2), Ex),
    ]
}
