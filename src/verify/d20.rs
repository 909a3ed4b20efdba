//! Verification grid of `d20` (1d20 判定): plain checks in every roll mode
//! and with `--crit-on`, contests under every tie rule (rerolled ties rolled
//! again for real, counted by winner and round), and fate dice under every
//! policy with 1–3 dice, the policy played as a decision rule on the faces
//! seen.
//!
//! Every sampler rolls d20s (and d6 boosts) with [`Dice`] and judges them
//! with the system's own plain rule: [`Check::classify`] / [`Check::judge`],
//! [`Side::total`] and [`Contest::classify`], [`FatePlan::decide`]. Every
//! point has an `unjudged` cell of exact probability 0: a roll the plain rule
//! refuses, a tie where none may stay, or a decision rule that spends a die
//! it does not have lands there and fails the point as an impossible
//! outcome instead of panicking.

use crate::systems::d20::{
    Ability, Action, Check, Contest, D20Tier, FatePlan, FateState, Policy, Roll, Round, Side,
    TieBreak, Training,
};
use crate::tier::Tier;
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::{Point, Sampler};

/// System id.
const SYSTEM: &str = crate::systems::d20::ID;

/// Faces of a fate boost die (the module's rule: add 1d6).
const BOOST_SIDES: u32 = 6;

/// Rerolled-tie contests are cut off after this many rounds (into
/// `unjudged`); a d20 contest ties forever with probability 0.
const MAX_ROUNDS: u32 = 10_000;

/// Rounds told apart in a rerolled-tie contest: 1, 2, 3, and `≥ ROUNDS`.
#[doc(hidden)]
pub const ROUNDS: usize = 4;

/// Roll the `n` (1 or 2) d20s of one roll; the slot past `n` is unused.
fn roll_d20s(n: usize, dice: &mut Dice) -> [u32; 2] {
    [dice.roll(20), if n > 1 { dice.roll(20) } else { 0 }]
}

fn tier_cells() -> Vec<String> {
    D20Tier::ALL
        .iter()
        .map(|t| t.key().to_string())
        .chain(["unjudged".to_string()])
        .collect()
}

fn tier_exact(law: &crate::tier::TierLaw<D20Tier, Exact>) -> Vec<f64> {
    law.iter().map(|(_, p)| p.to_f64()).chain([0.0]).collect()
}

/// A plain check: one roll judged by [`Check::classify`]. Cells: the tiers,
/// then `unjudged`.
struct PlainSampler {
    check: Check,
}

impl Sampler for PlainSampler {
    fn cells(&self) -> usize {
        D20Tier::ALL.len() + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let n = self.check.side().roll().dice();
        let faces = roll_d20s(n, dice);
        match self.check.classify(&faces[..n]) {
            Some(v) => v.tier.index(),
            None => D20Tier::ALL.len(),
        }
    }
}

/// A contest whose tie goes to one side: both sides roll once, the round is
/// judged by [`Contest::classify`], and [`Side::total`] tells whether the
/// totals tied. Cells: `win`, `win on tie`, `loss on tie`, `loss`,
/// `unjudged`.
struct ContestSampler {
    contest: Contest,
    active: Side,
    opposing: Side,
}

const CONTEST_CELLS: [&str; 6] = [
    "win",
    "win on tie",
    "loss on tie",
    "loss",
    "tie",
    "unjudged",
];

impl Sampler for ContestSampler {
    fn cells(&self) -> usize {
        CONTEST_CELLS.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let (na, nb) = (self.active.roll().dice(), self.opposing.roll().dice());
        let (fa, fb) = (roll_d20s(na, dice), roll_d20s(nb, dice));
        let (fa, fb) = (&fa[..na], &fb[..nb]);
        let (Some(round), Some(a), Some(b)) = (
            self.contest.classify(fa, fb),
            self.active.total(fa),
            self.opposing.total(fb),
        ) else {
            return 5;
        };
        match (round, a == b) {
            (Round::Win, false) => 0,
            (Round::Win, true) => 1,
            (Round::Loss, true) => 2,
            (Round::Loss, false) => 3,
            (Round::Tie, _) => 4,
            (Round::Again, _) => 5,
        }
    }
}

/// A contest with rerolled ties: both sides roll, and roll again while
/// [`Contest::classify`] says `Again`. Cells: `win@1`, `win@2`, `win@3`,
/// `win@4+`, `loss@1` … `loss@4+` (winner and number of rounds), `unjudged`.
struct RerollSampler {
    contest: Contest,
    active: Roll,
    opposing: Roll,
}

impl Sampler for RerollSampler {
    fn cells(&self) -> usize {
        2 * ROUNDS + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        for round in 1..=MAX_ROUNDS {
            let (na, nb) = (self.active.dice(), self.opposing.dice());
            let (fa, fb) = (roll_d20s(na, dice), roll_d20s(nb, dice));
            let col = (round as usize).min(ROUNDS) - 1;
            match self.contest.classify(&fa[..na], &fb[..nb]) {
                Some(Round::Win) => return col,
                Some(Round::Loss) => return ROUNDS + col,
                Some(Round::Again) => continue,
                Some(Round::Tie) | None => break,
            }
        }
        2 * ROUNDS
    }
}

/// Roll one check's d20s through `roll` and keep the right one.
fn kept_by(mode: Roll, roll: &mut impl FnMut(u32) -> u32) -> Option<u32> {
    let faces = [roll(20), if mode.dice() > 1 { roll(20) } else { 0 }];
    mode.keep(&faces[..mode.dice()])
}

/// Play a check with fate dice by the plan's decision rule, rolling each die
/// with `roll(sides)` when the rule asks for it: the first roll's d20s; then,
/// while [`FatePlan::decide`] says so, a d6 added to the total (boost) or a
/// fresh roll judged afresh, dropping earlier boosts (reroll). The final
/// roll is judged by [`Check::judge`]. `None` if the rule refuses the faces
/// or spends a die it does not have.
#[doc(hidden)]
pub fn play_fate(plan: &FatePlan, mut roll: impl FnMut(u32) -> u32) -> Option<D20Tier> {
    let mode = plan.check().side().roll();
    let mut state = FateState {
        face: kept_by(mode, &mut roll)?,
        boost: 0,
        dice_left: plan.dice(),
    };
    loop {
        let action = plan.decide(state);
        if action != Action::Stop && state.dice_left == 0 {
            return None;
        }
        match action {
            Action::Stop => return Some(plan.check().judge(state.face, state.boost)),
            Action::Boost => state.boost += i64::from(roll(BOOST_SIDES)),
            Action::Reroll => {
                state.face = kept_by(mode, &mut roll)?;
                state.boost = 0;
            }
        }
        state.dice_left -= 1;
    }
}

/// A check with fate dice, played by [`play_fate`]. Cells: the tiers, then
/// `unjudged`.
struct FateSampler {
    plan: FatePlan,
}

impl Sampler for FateSampler {
    fn cells(&self) -> usize {
        D20Tier::ALL.len() + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        play_fate(&self.plan, |sides| dice.roll(sides)).map_or(D20Tier::ALL.len(), |t| t.index())
    }
}

fn roll_tag(roll: Roll) -> &'static str {
    match roll {
        Roll::Normal => "",
        Roll::Advantage => " adv",
        Roll::Disadvantage => " dis",
    }
}

fn crit_tag(crit_on: u32) -> String {
    if crit_on == 20 {
        String::new()
    } else {
        format!(" crit-on={crit_on}")
    }
}

#[doc(hidden)]
pub fn side(modifier: i64, roll: Roll) -> Side {
    Side::with_modifier(modifier, roll).expect("grid side is valid")
}

#[doc(hidden)]
pub fn check_point(side: Side, desc: &str, dc: i64, crit_on: u32) -> Point {
    let roll = side.roll();
    let check = Check::new(side, dc, crit_on).expect("grid check is valid");
    Point {
        system: SYSTEM,
        label: format!(
            "check {desc} dc={dc}{}{}",
            roll_tag(roll),
            crit_tag(crit_on)
        ),
        cells: tier_cells(),
        exact: tier_exact(&check.law::<Exact>()),
        sampler: Box::new(PlainSampler { check }),
    }
}

fn contest_label(a: &Side, b: &Side, tie: TieBreak) -> String {
    format!(
        "contest {:+}{} vs {:+}{} tie={}",
        a.total_modifier(),
        roll_tag(a.roll()),
        b.total_modifier(),
        roll_tag(b.roll()),
        tie.key()
    )
}

/// A contest whose tie goes to one side (`defender` or `attacker`) or
/// stands (`tie`).
fn contest_point(active: Side, opposing: Side, tie: TieBreak) -> Point {
    assert_ne!(tie, TieBreak::Reroll, "rerolled ties: reroll_point");
    let contest = Contest::new(active.clone(), opposing.clone(), tie);
    let c = contest.comparison::<Exact>();
    let zero = <Exact as Weight>::zero();
    let (win_tie, loss_tie, tied) = match tie {
        TieBreak::Attacker => (c.tie.clone(), zero.clone(), zero),
        TieBreak::Tie => (zero.clone(), zero, c.tie.clone()),
        _ => (zero.clone(), c.tie.clone(), zero),
    };
    Point {
        system: SYSTEM,
        label: contest_label(&active, &opposing, tie),
        cells: CONTEST_CELLS.iter().map(|s| s.to_string()).collect(),
        exact: [
            c.win,
            win_tie,
            loss_tie,
            c.loss,
            tied,
            <Exact as Weight>::zero(),
        ]
        .iter()
        .map(Weight::to_f64)
        .collect(),
        sampler: Box::new(ContestSampler {
            contest,
            active,
            opposing,
        }),
    }
}

/// The law of (winner, rounds) of a rerolled-tie contest from one round's
/// win / tie / loss: `P(side at round j) = tieʲ⁻¹ · p` for `j < ROUNDS`, and
/// `tie^(ROUNDS−1) · p / (1 − tie)` for `j ≥ ROUNDS`; then `unjudged` (0).
#[doc(hidden)]
pub fn reroll_law(win: &Exact, tie: &Exact, loss: &Exact) -> Vec<Exact> {
    let mut law = Vec::with_capacity(2 * ROUNDS + 1);
    for p in [win, loss] {
        for j in 1..ROUNDS {
            law.push(tie.powi(j as u32 - 1) * p);
        }
        law.push(tie.powi(ROUNDS as u32 - 1) * p / &tie.complement());
    }
    law.push(<Exact as Weight>::zero());
    law
}

/// A contest with rerolled ties.
fn reroll_point(active: Side, opposing: Side) -> Point {
    let (ra, rb) = (active.roll(), opposing.roll());
    let label = contest_label(&active, &opposing, TieBreak::Reroll);
    let contest = Contest::new(active, opposing, TieBreak::Reroll);
    let c = contest.comparison::<Exact>();
    let mut cells = Vec::with_capacity(2 * ROUNDS + 1);
    for who in ["win", "loss"] {
        for j in 1..ROUNDS {
            cells.push(format!("{who}@{j}"));
        }
        cells.push(format!("{who}@{ROUNDS}+"));
    }
    cells.push("unjudged".to_string());
    Point {
        system: SYSTEM,
        label,
        cells,
        exact: reroll_law(&c.win, &c.tie, &c.loss)
            .iter()
            .map(Weight::to_f64)
            .collect(),
        sampler: Box::new(RerollSampler {
            contest,
            active: ra,
            opposing: rb,
        }),
    }
}

fn fate_point(policy: Policy, k: u32, modifier: i64, dc: i64, roll: Roll, crit_on: u32) -> Point {
    let check = Check::new(side(modifier, roll), dc, crit_on).expect("grid check is valid");
    let plan = FatePlan::new(check, k, policy).expect("grid plan is valid");
    Point {
        system: SYSTEM,
        label: format!(
            "fate k={k} {} mod={modifier:+} dc={dc}{}{}",
            policy.key(),
            roll_tag(roll),
            crit_tag(crit_on)
        ),
        cells: tier_cells(),
        exact: tier_exact(&plan.law::<Exact>()),
        sampler: Box::new(FateSampler { plan }),
    }
}

/// The default verification grid of this system.
///
/// * Plain checks (5): each roll mode; a side given by ability score, level
///   and bonus; `--crit-on` below 20 with a DC no total reaches (only
///   criticals succeed) and with a DC every total reaches (only fumbles
///   fail).
/// * Contests (5): ties to the defender, to the attacker (with advantage
///   against disadvantage), ties that stand (`tie`), and rerolled ties
///   (plain, and advantage against advantage for a side built from score
///   and level), by winner and round.
/// * Fate dice (12): every policy with k = 1, 2, 3, over every roll mode,
///   some with `--crit-on`.
pub fn grid() -> Vec<Point> {
    use Roll::{Advantage as Adv, Disadvantage as Dis, Normal};
    let built =
        |roll| Side::new(Ability::Score(14), Training::Level(5), 1, roll, "").expect("valid side");
    let mut points = vec![
        check_point(side(5, Normal), "mod=+5", 15, 20),
        check_point(built(Adv), "score=14 level=5 bonus=+1", 18, 20),
        check_point(side(3, Dis), "mod=+3", 12, 20),
        check_point(side(0, Adv), "mod=+0", 30, 18),
        check_point(side(12, Normal), "mod=+12", 5, 19),
    ];
    points.push(contest_point(
        side(3, Normal),
        side(1, Normal),
        TieBreak::Defender,
    ));
    points.push(contest_point(
        side(0, Adv),
        side(2, Dis),
        TieBreak::Attacker,
    ));
    points.push(contest_point(side(1, Normal), side(1, Adv), TieBreak::Tie));
    points.push(reroll_point(side(2, Normal), side(2, Normal)));
    points.push(reroll_point(built(Adv), side(4, Adv)));
    for (policy, k, m, dc, roll, crit_on) in [
        (Policy::None, 1, 2, 15, Normal, 20),
        (Policy::None, 2, 4, 18, Adv, 20),
        (Policy::None, 3, 1, 12, Dis, 19),
        (Policy::BoostOnly, 1, 3, 16, Normal, 20),
        (Policy::BoostOnly, 2, 0, 15, Adv, 20),
        (Policy::BoostOnly, 3, 2, 20, Dis, 20),
        (Policy::RerollOnly, 1, 5, 15, Normal, 20),
        (Policy::RerollOnly, 2, 0, 17, Dis, 18),
        (Policy::RerollOnly, 3, 1, 21, Adv, 20),
        (Policy::Optimal, 1, 4, 16, Normal, 20),
        (Policy::Optimal, 2, 2, 19, Adv, 19),
        (Policy::Optimal, 3, 0, 18, Dis, 20),
    ] {
        points.push(fate_point(policy, k, m, dc, roll, crit_on));
    }
    points
}
