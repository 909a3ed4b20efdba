//! Verification grid of `multiplier` (d100 roll-under with a success
//! multiplier).
//!
//! Every sampler rolls real d100s and judges each face with
//! [`classify`]; an impossible check rolls nothing (and `classify` of no face
//! is a failure). Contests roll both sides again and again until the tiers
//! differ, perception rolls once each and applies [`perceives`], extended
//! checks roll attempt after attempt, adding [`Counting::progress`], until
//! the target or the attempt limit.
//!
//! Cells:
//! * single check: the five tiers (`fumble` … `decisive`); the auto-fail
//!   sweep picks one of ten rates with a d10 and reports `rate=R:tier`;
//! * contest: `win@j` / `loss@j` for the round `j` = 1, 2, 3 that decided
//!   it, and `win@4+` / `loss@4+` — so the per-roll tie chance (hence the
//!   expected number of rolls) is checked too. Exact:
//!   `P(win@j) = tieʲ⁻¹·win`, `P(win@4+) = tie³·win/(1 − tie)` from
//!   [`contest_per_roll`];
//! * perception: `noticed`, `same_tier`, `unnoticed` ([`perception_law`]);
//! * extended: `done@j` (completed at attempt `j`) and `not_done`, from the
//!   differences of [`extended_law`]'s `p_done_by`.

use crate::systems::multiplier::{
    classify, contest_per_roll, extended_law, law_for_rate, perceives, perception_law,
    AbilityCheck, Check, CheckSpec, Counting, ExtendedParams, Options, Outcome, PerceptionRule,
    Rate, SkillCheck, ID,
};
use crate::tier::{Tier, TierLaw};
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::{Point, Sampler};

/// Sides of the percentile die.
const D100: u32 = 100;

/// Roll one check: a d100 judged by [`classify`], or no roll at all for an
/// impossible check.
fn roll_check(rate: Rate, options: &Options, dice: &mut Dice) -> Outcome {
    match rate {
        Rate::Roll(_) => classify(rate, &[dice.roll(D100)], options),
        Rate::Impossible(_) => classify(rate, &[], options),
    }
}

fn to_f64(v: &[Exact]) -> Vec<f64> {
    v.iter().map(Weight::to_f64).collect()
}

fn tier_names() -> Vec<String> {
    Outcome::ALL.iter().map(|t| t.key().to_string()).collect()
}

fn law_cells(law: &TierLaw<Outcome, Exact>) -> Vec<f64> {
    law.iter().map(|(_, p)| p.to_f64()).collect()
}

// ---- single check ----------------------------------------------------------

/// One check: roll, classify, report the tier.
struct Single {
    rate: Rate,
    options: Options,
}

impl Sampler for Single {
    fn cells(&self) -> usize {
        Outcome::ALL.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        roll_check(self.rate, &self.options, dice).index()
    }
}

fn single(label: &str, check: Check, options: Options) -> Point {
    Point {
        system: ID,
        label: format!(
            "{label} ({}){}",
            rate_text(check.rate()),
            options_text(&options)
        ),
        cells: tier_names(),
        exact: law_cells(&check.law::<Exact>(&options)),
        sampler: Box::new(Single {
            rate: check.rate(),
            options,
        }),
    }
}

fn rate_text(rate: Rate) -> String {
    match rate {
        Rate::Roll(r) => format!("rate={r}"),
        Rate::Impossible(_) => "impossible".to_string(),
    }
}

/// Label suffix for the roll options (empty for the default).
fn options_text(options: &Options) -> &'static str {
    if options.hundred_is_doubles {
        ""
    } else {
        " 00-not-doubles"
    }
}

/// A rate drawn with a die from a list, then one check at that rate.
struct RateSweep {
    rates: Vec<i64>,
    options: Options,
}

impl Sampler for RateSweep {
    fn cells(&self) -> usize {
        self.rates.len() * Outcome::ALL.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let i = dice.roll(self.rates.len() as u32) as usize - 1;
        let t = roll_check(Rate::Roll(self.rates[i]), &self.options, dice);
        i * Outcome::ALL.len() + t.index()
    }
}

fn rate_sweep(rates: &[i64], options: Options) -> Point {
    let share = Exact::ratio(1, rates.len() as i64);
    let mut cells = Vec::new();
    let mut exact = Vec::new();
    for &r in rates {
        let law = law_for_rate::<Exact>(Rate::Roll(r), &options);
        for (t, p) in law.iter() {
            cells.push(format!("rate={r}:{}", t.key()));
            exact.push((p.clone() * &share).to_f64());
        }
    }
    Point {
        system: ID,
        label: format!(
            "random, rate by d{} from {:?} (auto-fail band)",
            rates.len(),
            rates
        ),
        cells,
        exact,
        sampler: Box::new(RateSweep {
            rates: rates.to_vec(),
            options,
        }),
    }
}

// ---- contest ---------------------------------------------------------------

/// Rounds reported separately; later rounds share the last cell.
const ROUNDS: usize = 4;

/// Contest with rerolled ties: both roll until the tiers differ.
struct Contest {
    a: Rate,
    b: Rate,
    options: Options,
}

impl Sampler for Contest {
    fn cells(&self) -> usize {
        2 * ROUNDS
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        // The grid has no deadlock (a tie on every roll), so this ends.
        let mut round = 1usize;
        loop {
            let ta = roll_check(self.a, &self.options, dice);
            let tb = roll_check(self.b, &self.options, dice);
            let col = round.min(ROUNDS) - 1;
            match ta.cmp(&tb) {
                std::cmp::Ordering::Greater => return col,
                std::cmp::Ordering::Less => return ROUNDS + col,
                std::cmp::Ordering::Equal => round += 1,
            }
        }
    }
}

fn contest(label: &str, a: Check, b: Check, options: Options) -> Point {
    let per = contest_per_roll(&a.law::<Exact>(&options), &b.law::<Exact>(&options));
    let decisive = Exact::one() - &per.tie;
    assert!(
        !decisive.is_zero(),
        "a contest that always ties never resolves: not in the grid"
    );
    let mut cells = Vec::new();
    let mut exact = Vec::new();
    for (side, p) in [("win", &per.win), ("loss", &per.loss)] {
        for j in 1..=ROUNDS {
            let reach = per.tie.powi(j as u32 - 1);
            let pj = if j < ROUNDS {
                reach * p
            } else {
                reach * p / &decisive
            };
            cells.push(if j < ROUNDS {
                format!("{side}@{j}")
            } else {
                format!("{side}@{j}+")
            });
            exact.push(pj.to_f64());
        }
    }
    Point {
        system: ID,
        label: format!(
            "contest {label} ({} vs {}){}",
            rate_text(a.rate()),
            rate_text(b.rate()),
            options_text(&options)
        ),
        cells,
        exact,
        sampler: Box::new(Contest {
            a: a.rate(),
            b: b.rate(),
            options,
        }),
    }
}

/// A contest of three or more sides: everyone rolls; a side strictly on
/// top wins; otherwise the whole contest is rolled again (seed 000).
struct MultiContest {
    rates: Vec<Rate>,
    options: Options,
}

impl Sampler for MultiContest {
    fn cells(&self) -> usize {
        self.rates.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        loop {
            let tiers: Vec<Outcome> = self
                .rates
                .iter()
                .map(|&r| roll_check(r, &self.options, dice))
                .collect();
            let best = *tiers.iter().max().expect("at least one side");
            let mut at_top = tiers.iter().enumerate().filter(|(_, &t)| t == best);
            if let (Some((i, _)), None) = (at_top.next(), at_top.next()) {
                return i;
            }
        }
    }
}

fn multi_contest(label: &str, sides: Vec<Check>, options: Options) -> Point {
    let laws: Vec<_> = sides.iter().map(|c| c.law::<Exact>(&options)).collect();
    let (per_roll, someone) = crate::systems::multiplier::multi_contest_per_roll(&laws);
    assert!(!someone.is_zero(), "a stalled contest is not in the grid");
    Point {
        system: ID,
        label: format!(
            "contest of {} {label} ({}){}",
            sides.len(),
            sides
                .iter()
                .map(|c| rate_text(c.rate()))
                .collect::<Vec<_>>()
                .join(" vs "),
            options_text(&options)
        ),
        cells: (1..=sides.len())
            .map(|i| format!("side {i} on top"))
            .collect(),
        exact: per_roll
            .iter()
            .map(|p| (p.clone() / &someone).to_f64())
            .collect(),
        sampler: Box::new(MultiContest {
            rates: sides.iter().map(Check::rate).collect(),
            options,
        }),
    }
}

// ---- perception ------------------------------------------------------------

/// Perception vs stealth: one roll each, no reroll.
struct Perception {
    perceiver: Rate,
    stealth: Rate,
    rule: PerceptionRule,
    options: Options,
}

impl Sampler for Perception {
    fn cells(&self) -> usize {
        3
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let p = roll_check(self.perceiver, &self.options, dice);
        let s = roll_check(self.stealth, &self.options, dice);
        if perceives(p, s, self.rule) {
            0
        } else if p == s {
            1
        } else {
            2
        }
    }
}

fn perception(perceiver: Check, stealth: Check, rule: PerceptionRule) -> Point {
    let options = Options::default();
    let c = perception_law(
        &perceiver.law::<Exact>(&options),
        &stealth.law::<Exact>(&options),
        rule,
    );
    Point {
        system: ID,
        label: format!(
            "perception {} vs stealth {} rule={}",
            rate_text(perceiver.rate()),
            rate_text(stealth.rate()),
            rule.key()
        ),
        cells: vec!["noticed".into(), "same_tier".into(), "unnoticed".into()],
        exact: to_f64(&[c.win, c.tie, c.loss]),
        sampler: Box::new(Perception {
            perceiver: perceiver.rate(),
            stealth: stealth.rate(),
            rule,
            options,
        }),
    }
}

// ---- extended --------------------------------------------------------------

/// Extended check: attempt after attempt until the target or the limit.
struct Extended {
    rate: Rate,
    successes: i64,
    attempts: usize,
    counting: Counting,
    options: Options,
}

impl Sampler for Extended {
    fn cells(&self) -> usize {
        self.attempts + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let mut progress = 0;
        for j in 0..self.attempts {
            progress += self
                .counting
                .progress(roll_check(self.rate, &self.options, dice));
            if progress >= self.successes {
                return j;
            }
        }
        self.attempts
    }
}

fn extended(check: Check, successes: i64, attempts: i64, counting: Counting) -> Point {
    let options = Options::default();
    let params = ExtendedParams::new(successes, attempts, counting).expect("valid extended");
    let law = extended_law(&check.law::<Exact>(&options), &params);
    let mut exact = Vec::new();
    let mut before = Exact::zero();
    for p in &law.p_done_by {
        exact.push(p.clone() - &before);
        before = p.clone();
    }
    exact.push(Exact::one() - &before);
    let mut cells: Vec<String> = (1..=attempts).map(|j| format!("done@{j}")).collect();
    cells.push("not_done".into());
    Point {
        system: ID,
        label: format!(
            "extended {} K={successes} n={attempts} counting={}",
            rate_text(check.rate()),
            counting.key()
        ),
        cells,
        exact: to_f64(&exact),
        sampler: Box::new(Extended {
            rate: check.rate(),
            successes,
            attempts: attempts as usize,
            counting,
            options,
        }),
    }
}

// ---- checks ----------------------------------------------------------------

fn ability(a: i64, supporters: &[i64], m: i64, modifiers: &[i64], guarantee: bool) -> Check {
    Check::new(CheckSpec::Ability(AbilityCheck {
        ability: a,
        supporters: supporters.to_vec(),
        multiplier: m,
        modifiers: modifiers.to_vec(),
        guarantee,
    }))
    .expect("valid ability check")
}

fn skill(a: i64, supporters: &[i64], m: i64, levels: &[i64], required: Option<i64>) -> Check {
    Check::new(CheckSpec::Skill(SkillCheck {
        ability: a,
        supporters: supporters.to_vec(),
        multiplier: m,
        modifiers: vec![],
        skill_levels: levels.to_vec(),
        required_level: required,
    }))
    .expect("valid skill check")
}

fn random(rate: i64) -> Check {
    Check::new(CheckSpec::Random { rate }).expect("valid random check")
}

/// The default verification grid of this system.
pub fn grid() -> Vec<Point> {
    let on = Options::default();
    let off = Options {
        hundred_is_doubles: false,
    };
    vec![
        // Rate table, every row.
        single("ability A=12 M=5", ability(12, &[], 5, &[], true), on),
        single(
            "ability A=9 M=5 mod=-7 guarantee",
            ability(9, &[], 5, &[-7], true),
            on,
        ),
        single(
            "ability A=9 M=0 no guarantee",
            ability(9, &[], 0, &[], false),
            on,
        ),
        single(
            "ability A=10 supporters=7,4 M=5",
            ability(10, &[7, 4], 5, &[], true),
            off,
        ),
        single(
            "skill A=11 S=min(3,2) R=2 M=5",
            skill(11, &[], 5, &[3, 2], Some(2)),
            on,
        ),
        single(
            "skill A=13 S=1 R=3 M=5 (below R)",
            skill(13, &[], 5, &[1], Some(3)),
            on,
        ),
        single(
            "skill A=12 S=0 R=none M=-3 (guarantee)",
            skill(12, &[], -3, &[0], None),
            off,
        ),
        single(
            "skill A=12 S=1 R=3 M=-1 (below R, F<=0)",
            skill(12, &[], -1, &[1], Some(3)),
            on,
        ),
        single(
            "skill A=12 S=0 R=5 (very difficult)",
            skill(12, &[], 5, &[0], Some(5)),
            on,
        ),
        // Automatic failures across the 110–150 band, and rate 0.
        rate_sweep(&[0, 100, 109, 110, 119, 120, 125, 139, 140, 150], on),
        // Contests with rerolled ties.
        contest(
            "ability A=12 M=5 vs skill A=10 S=2 R=1",
            ability(12, &[], 5, &[], true),
            skill(10, &[], 5, &[2], Some(1)),
            on,
        ),
        contest("random 125 vs 125", random(125), random(125), off),
        multi_contest("random", vec![random(60), random(45), random(30)], off),
        multi_contest(
            "random",
            vec![random(50), random(50), random(90), random(10)],
            off,
        ),
        contest(
            "random 30 vs very difficult skill",
            random(30),
            skill(12, &[], 5, &[0], Some(5)),
            on,
        ),
        // Perception vs stealth, both rules.
        perception(
            ability(8, &[], 5, &[], true),
            random(60),
            PerceptionRule::HigherTier,
        ),
        perception(
            ability(8, &[], 5, &[], true),
            random(60),
            PerceptionRule::NeedsSuccess,
        ),
        // Extended checks.
        extended(ability(12, &[], 5, &[], true), 4, 10, Counting::Successes),
        extended(ability(12, &[], 5, &[], true), 4, 6, Counting::Degrees),
        extended(random(125), 5, 4, Counting::Degrees),
    ]
}
