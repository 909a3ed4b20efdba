//! `hit-pool` verification grid: real d6 rolled in BCDice's order and
//! judged by [`classify_roll`] / [`classify_extended`] (exploding sixes
//! really explode, second chance really rerolls, helpers really roll first).

use std::cell::RefCell;

use crate::contest::compare;
use crate::systems::hit_pool::{
    classify_extended, classify_roll, dice_needed, extended_law, roll_law, EdgeUse, ExplodeGlitch,
    Extended, GlitchRule, NegatedCritical, Roll, TieRuleOpt, Verdict,
};
use crate::verify::dice::Dice;
use crate::verify::{Point, Sampler};

thread_local! {
    /// Scratch faces, reused across trials on each thread.
    static FACES: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Roll one complete `roll` (as many d6 as [`dice_needed`] asks for, in
/// order) into `faces`.
pub fn roll_faces(roll: &Roll, dice: &mut Dice, faces: &mut Vec<u32>) {
    faces.clear();
    while let Some(k) = dice_needed(roll, faces).filter(|&k| k > 0) {
        dice.roll_into(k, 6, faces);
    }
}

/// Largest plain pool rolled into a stack buffer.
const STACK_POOL: usize = 64;

/// Roll the `n ≤ N` dice of a plain roll into a buffer of `N` faces on the
/// stack and judge them.
fn roll_plain_on_stack<const N: usize>(roll: &Roll, dice: &mut Dice, n: usize) -> Option<Verdict> {
    let mut buf = [0u32; N];
    dice.roll_slice(6, &mut buf[..n]);
    classify_roll(roll, &buf[..n])
}

/// Hits and glitch status of one simulated roll (`None` when no roll is
/// possible).
fn simulate_roll(roll: &Roll, dice: &mut Dice) -> Option<(u32, usize)> {
    let n = roll.pool.max(0) as usize;
    if roll.edge.is_none() && roll.helpers.is_empty() && n <= STACK_POOL {
        // A plain roll: the pool is all there is (what `dice_needed` would
        // ask for in one go); no allocation.
        // (A small buffer for small pools: zeroing 64 faces costs as much
        // as rolling 12.)
        let v = if n <= 16 {
            roll_plain_on_stack::<16>(roll, dice, n)
        } else {
            roll_plain_on_stack::<STACK_POOL>(roll, dice, n)
        };
        let v = v.filter(|v| v.rolled)?;
        return Some((v.hits, v.glitch as usize));
    }
    FACES.with(|f| {
        let faces = &mut f.borrow_mut();
        let (plain, exploding, second_chance) = roll.leader_dice();
        if roll.helpers.is_empty() && !second_chance {
            // The plain dice, the exploding first roll, then one die per
            // six of the last group: the order `dice_needed` asks for,
            // without parsing the roll again after every group.
            faces.clear();
            dice.roll_into(plain as usize + exploding as usize, 6, faces);
            let mut from = plain as usize;
            loop {
                let sixes = faces[from..].iter().filter(|&&f| f == 6).count();
                if sixes == 0 {
                    break;
                }
                from = faces.len();
                dice.roll_into(sixes, 6, faces);
            }
        } else {
            roll_faces(roll, dice, faces);
        }
        let v = classify_roll(roll, faces).filter(|v| v.rolled)?;
        Some((v.hits, v.glitch as usize))
    })
}

/// One roll, cells: no roll; (hits h, glitch status) for `h < k`; `≥ k` hits.
pub struct RollSampler {
    roll: Roll,
    k: u32,
}

impl RollSampler {
    /// A sampler of `roll` with hit cells below `k`.
    pub fn new(roll: Roll, k: u32) -> Self {
        RollSampler { roll, k }
    }

    fn cell(&self, h: u32, g: usize) -> usize {
        1 + 3 * h as usize + g
    }

    /// The cell of a roll's (hits, glitch status), `None` when no roll
    /// was possible.
    fn cell_of(&self, roll: Option<(u32, usize)>) -> usize {
        match roll {
            None => 0,
            Some((h, _)) if h >= self.k => self.cells() - 1,
            Some((h, g)) => self.cell(h, g),
        }
    }

    fn names(&self) -> Vec<String> {
        let mut v = vec!["no roll".to_string()];
        for h in 0..self.k {
            for g in ["none", "glitch", "critical"] {
                v.push(format!("{h} hits/{g}"));
            }
        }
        v.push(format!("≥{} hits", self.k));
        v
    }

    fn exact(&self) -> Vec<f64> {
        let law = roll_law::<f64>(&self.roll);
        let mut p = vec![0.0; self.cells()];
        p[0] = law.no_roll;
        for (h, row) in law.by_hits.iter().enumerate().take(self.k as usize) {
            for (g, x) in row.iter().enumerate() {
                p[self.cell(h as u32, g)] = *x;
            }
        }
        let rest = 1.0 - p.iter().sum::<f64>();
        *p.last_mut().expect("cells") = if rest.abs() < 1e-12 { 0.0 } else { rest };
        p
    }
}

impl Sampler for RollSampler {
    fn cells(&self) -> usize {
        3 * self.k as usize + 2
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        self.cell_of(simulate_roll(&self.roll, dice))
    }
}

/// Rounds reported separately in a rerolled opposed test; later rounds share
/// the last cell.
const ROUNDS: usize = 4;

/// An opposed test, rolled round after round under the tie rule.
struct OpposedSampler {
    attacker: Roll,
    defender: Roll,
    tie_rule: TieRuleOpt,
}

impl OpposedSampler {
    fn names(&self) -> Vec<String> {
        match self.tie_rule {
            TieRuleOpt::Reroll => ["win", "loss"]
                .iter()
                .flat_map(|w| {
                    (1..=ROUNDS).map(move |r| {
                        let plus = if r == ROUNDS { "+" } else { "" };
                        format!("{w}@{r}{plus}")
                    })
                })
                .collect(),
            _ => vec!["win".into(), "tie".into(), "loss".into()],
        }
    }

    fn exact(&self) -> Vec<f64> {
        let a = roll_law::<f64>(&self.attacker).hits_pmf();
        let d = roll_law::<f64>(&self.defender).hits_pmf();
        let (win, tie, loss) = (
            compare(&a, &d).win,
            compare(&a, &d).tie,
            compare(&d, &a).win,
        );
        match self.tie_rule {
            TieRuleOpt::Reroll => {
                let by_round = |p: f64| -> Vec<f64> {
                    let mut v: Vec<f64> = (0..ROUNDS - 1).map(|j| tie.powi(j as i32) * p).collect();
                    v.push(tie.powi(ROUNDS as i32 - 1) * p / (1.0 - tie));
                    v
                };
                let mut v = by_round(win);
                v.extend(by_round(loss));
                v
            }
            TieRuleOpt::Defender => vec![win, 0.0, loss + tie],
            TieRuleOpt::Attacker => vec![win + tie, 0.0, loss],
            TieRuleOpt::Separate => vec![win, tie, loss],
        }
    }
}

impl Sampler for OpposedSampler {
    fn cells(&self) -> usize {
        match self.tie_rule {
            TieRuleOpt::Reroll => 2 * ROUNDS,
            _ => 3,
        }
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        use std::cmp::Ordering;
        let mut round = 1;
        loop {
            let a = simulate_roll(&self.attacker, dice).map_or(0, |r| r.0);
            let d = simulate_roll(&self.defender, dice).map_or(0, |r| r.0);
            let win = match (a.cmp(&d), self.tie_rule) {
                (Ordering::Greater, _) | (Ordering::Equal, TieRuleOpt::Attacker) => true,
                (Ordering::Less, _) | (Ordering::Equal, TieRuleOpt::Defender) => false,
                (Ordering::Equal, TieRuleOpt::Separate) => return 1,
                (Ordering::Equal, TieRuleOpt::Reroll) => {
                    round += 1;
                    continue;
                }
            };
            return match (self.tie_rule, win) {
                (TieRuleOpt::Reroll, true) => round.min(ROUNDS) - 1,
                (TieRuleOpt::Reroll, false) => ROUNDS + round.min(ROUNDS) - 1,
                (_, true) => 0,
                (_, false) => 2,
            };
        }
    }
}

/// An extended test, rolled attempt after attempt.
struct ExtendedSampler {
    ext: Extended,
}

impl ExtendedSampler {
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = (1..=self.ext.max_rolls)
            .map(|j| format!("done@{j}"))
            .collect();
        v.push("aborted".into());
        v.push("not done".into());
        v
    }

    fn exact(&self) -> Vec<f64> {
        let law = extended_law::<f64>(&self.ext);
        let mut v = Vec::new();
        let mut prev = 0.0;
        for p in &law.p_done_by {
            v.push(p - prev);
            prev = *p;
        }
        v.push(law.p_aborted);
        let rest = 1.0 - prev - law.p_aborted;
        v.push(if rest.abs() < 1e-12 { 0.0 } else { rest });
        v
    }
}

impl Sampler for ExtendedSampler {
    fn cells(&self) -> usize {
        self.ext.max_rolls as usize + 2
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let mut rolls: Vec<Vec<u32>> = Vec::new();
        let mut sum = 0;
        // A roll with no dice is not made: the test ends there.
        for i in 0..self.ext.rolls_with_dice() as usize {
            let roll = self.ext.roll_at(i);
            let mut faces = Vec::new();
            roll_faces(&roll, dice, &mut faces);
            let v = classify_roll(&roll, &faces);
            rolls.push(faces);
            let Some(v) = v else { break };
            if self.ext.critical_glitch_ends && v.glitch as usize == 2 {
                break;
            }
            sum += v.hits;
            if sum >= self.ext.target {
                break;
            }
        }
        match classify_extended(&self.ext, &rolls) {
            Some(v) if v.done => v.rolls - 1,
            Some(v) if v.aborted => self.ext.max_rolls as usize,
            _ => self.ext.max_rolls as usize + 1,
        }
    }
}

fn roll_point(label: &str, roll: Roll, k: u32) -> Point {
    let s = RollSampler::new(roll, k);
    Point {
        system: crate::systems::hit_pool::ID,
        label: label.to_string(),
        cells: s.names(),
        exact: s.exact(),
        sampler: Box::new(s),
    }
}

fn opposed_point(label: &str, attacker: Roll, defender: Roll, tie_rule: TieRuleOpt) -> Point {
    let s = OpposedSampler {
        attacker,
        defender,
        tie_rule,
    };
    Point {
        system: crate::systems::hit_pool::ID,
        label: label.to_string(),
        cells: s.names(),
        exact: s.exact(),
        sampler: Box::new(s),
    }
}

fn extended_point(label: &str, ext: Extended) -> Point {
    let s = ExtendedSampler { ext };
    Point {
        system: crate::systems::hit_pool::ID,
        label: label.to_string(),
        cells: s.names(),
        exact: s.exact(),
        sampler: Box::new(s),
    }
}

/// A plain roll of `n` dice (grid parameters are valid by construction).
fn pool(n: i64) -> Roll {
    Roll::new(n).expect("grid pool is valid")
}

fn edge(n: i64, e: i64, use_: EdgeUse) -> Roll {
    pool(n).with_edge(e, use_).expect("grid edge is valid")
}

/// The default grid: every rule and option of `hit-pool`.
pub fn grid() -> Vec<Point> {
    let more = GlitchRule::MoreThanHalf;
    vec![
        roll_point("pool=1", pool(1), 2),
        roll_point("pool=2", pool(2), 3),
        roll_point(
            "pool=3 glitch=more-than-half",
            pool(3).with_glitch_rule(more),
            4,
        ),
        roll_point(
            "pool=4 glitch=more-than-half",
            pool(4).with_glitch_rule(more),
            5,
        ),
        roll_point("pool=12", pool(12), 10),
        roll_point(
            "pool=8 limit=3",
            pool(8).with_limit(3).expect("valid limit"),
            4,
        ),
        roll_point("pool=6 edge=push:3", edge(6, 3, EdgeUse::Push), 10),
        roll_point(
            "pool=6 edge=push:3 explode-glitch=original-pool",
            edge(6, 3, EdgeUse::Push).with_explode_glitch(ExplodeGlitch::OriginalPool),
            10,
        ),
        roll_point(
            "pool=6 edge=push:3 explode-glitch=bcdice",
            edge(6, 3, EdgeUse::Push).with_explode_glitch(ExplodeGlitch::Bcdice),
            10,
        ),
        roll_point(
            "pool=5 edge=push-after:2",
            edge(5, 2, EdgeUse::PushAfter),
            9,
        ),
        roll_point(
            "pool=6 edge=second-chance",
            edge(6, 1, EdgeUse::SecondChance),
            7,
        ),
        roll_point(
            "pool=3 edge=negate-glitch",
            edge(3, 1, EdgeUse::NegateGlitch),
            4,
        ),
        roll_point(
            "pool=3 edge=negate-glitch negate-critical=downgrade",
            edge(3, 1, EdgeUse::NegateGlitch).with_negated_critical(NegatedCritical::Downgrade),
            4,
        ),
        roll_point(
            "pool=-2 long shot edge=push:3",
            edge(-2, 3, EdgeUse::Push),
            8,
        ),
        roll_point("pool=0 (no roll)", pool(0), 1),
        roll_point(
            "pool=4 helpers=3,2 team-cap=2",
            pool(4)
                .with_helpers(&[3, 2], Some(2))
                .expect("valid helpers"),
            7,
        ),
        opposed_point(
            "pool=6 vs 5 tie=defender",
            pool(6),
            pool(5),
            TieRuleOpt::Defender,
        ),
        opposed_point(
            "pool=4 vs 4 tie=attacker",
            pool(4),
            pool(4),
            TieRuleOpt::Attacker,
        ),
        opposed_point(
            "pool=5 vs 5 tie=separate",
            pool(5),
            pool(5),
            TieRuleOpt::Separate,
        ),
        opposed_point(
            "pool=4 vs 3+helpers:2,2 cap:2 tie=defender",
            pool(4),
            pool(3).with_helpers(&[2, 2], Some(2)).expect("valid team"),
            TieRuleOpt::Defender,
        ),
        opposed_point(
            "pool=3 vs 4 tie=reroll",
            pool(3),
            pool(4),
            TieRuleOpt::Reroll,
        ),
        opposed_point(
            "pool=4+push:2 vs 5 tie=reroll",
            edge(4, 2, EdgeUse::Push),
            pool(5),
            TieRuleOpt::Reroll,
        ),
        extended_point(
            "pool=6 extended target=5",
            Extended::new(pool(6), 5, None, false, false).expect("valid extended"),
        ),
        extended_point(
            "pool=5 extended target=4 shrink critical-glitch-ends",
            Extended::new(pool(5), 4, None, true, true).expect("valid extended"),
        ),
    ]
}

/// Planted bugs for the power test: copies of the plain-roll sampler with a
/// small rule change, to show `verify` catches them.
pub mod planted {
    use super::*;

    /// A plain pool where one die in `one_in` counts a 4 as a hit.
    pub struct HitsOnFourSometimes {
        /// The honest sampler whose cells are reused.
        pub inner: RollSampler,
        /// How rare the wrong rule is.
        pub one_in: u32,
    }

    impl Sampler for HitsOnFourSometimes {
        fn cells(&self) -> usize {
            self.inner.cells()
        }
        fn trial(&self, dice: &mut Dice) -> usize {
            FACES.with(|f| {
                let faces = &mut f.borrow_mut();
                roll_faces(&self.inner.roll, dice, faces);
                for face in faces.iter_mut() {
                    if *face == 4 && dice.roll(self.one_in) == 1 {
                        *face = 5;
                    }
                }
                let v = classify_roll(&self.inner.roll, faces).filter(|v| v.rolled);
                self.inner.cell_of(v.map(|v| (v.hits, v.glitch as usize)))
            })
        }
    }

    /// A plain pool judged with the glitch rule of one die fewer.
    pub struct GlitchOffByOne {
        /// The honest sampler whose cells are reused.
        pub inner: RollSampler,
    }

    impl Sampler for GlitchOffByOne {
        fn cells(&self) -> usize {
            self.inner.cells()
        }
        fn trial(&self, dice: &mut Dice) -> usize {
            FACES.with(|f| {
                let faces = &mut f.borrow_mut();
                roll_faces(&self.inner.roll, dice, faces);
                let Some(v) = classify_roll(&self.inner.roll, faces).filter(|v| v.rolled) else {
                    return 0;
                };
                // Wrong: glitch when 2 × ones ≥ dice − 1.
                let glitch = 2 * v.ones + 1 >= v.dice;
                let g = match (glitch, v.raw_hits) {
                    (false, _) => 0,
                    (true, 0) => 2,
                    (true, _) => 1,
                };
                self.inner.cell_of(Some((v.hits, g)))
            })
        }
    }

    /// The honest exact law of the wrapped sampler.
    pub fn exact(inner: &RollSampler) -> Vec<f64> {
        inner.exact()
    }
}
