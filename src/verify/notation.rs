//! Verification grid of `dice` (ダイス表記, BCDice commands): every construct
//! of the notation — sums, arithmetic and BCDice's division rounding,
//! computed counts and sides, keep/drop, D66, バラバラ (xB), 個数振り足し (xR,
//! rerolls really rolled), 上方無限 (xU) — plus house-rule tiers on natural
//! dice, 成功/失敗 of a comparison, and contests.
//!
//! Every sampler rolls the parsed command with [`Dice`] through the plain
//! rule ([`Command::roll`], the function the BCDice peer cases check) and
//! judges the result there ([`Check::tier_of`], [`Rolled::success`]); the
//! exact law is computed separately, in exact arithmetic. A value the law
//! gives no mass lands in the `outside` cell, whose exact probability is the
//! law's cut tail (zero for commands that do not explode), so a sampled
//! value the law says is impossible fails the point.

use crate::systems::dice::roll::Rolled;
use crate::systems::dice::{self, Check, Command, DEFAULT_TAIL_EPS};
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::{Point, Sampler};

/// System id.
const SYSTEM: &str = dice::ID;

/// A law with at most this many values gets one cell per value; a wider
/// one is cut into about [`BINS`] ranges of similar mass.
const MAX_VALUE_CELLS: usize = 200;

/// Ranges of a wide law.
const BINS: usize = 100;

/// The name of the cell of values the law does not hold.
const OUTSIDE: &str = "outside";

/// The command's result, rolled with the dice of `verify`.
pub fn roll(cmd: &Command, dice: &mut Dice) -> Rolled {
    cmd.roll(&mut |sides: i64| i64::from(dice.roll(sides as u32)))
}

/// Value cells: inclusive ranges `lo..=hi`, sorted and disjoint.
#[derive(Clone, Debug)]
pub struct Ranges {
    lo: Vec<i64>,
    hi: Vec<i64>,
}

impl Ranges {
    /// The cell of `x`: its range, or `len()` (outside) when no range holds it.
    pub fn cell(&self, x: i64) -> usize {
        let i = self.lo.partition_point(|&l| l <= x);
        if i > 0 && x <= self.hi[i - 1] {
            i - 1
        } else {
            self.lo.len()
        }
    }

    /// Number of ranges (the outside cell is one more).
    pub fn len(&self) -> usize {
        self.lo.len()
    }

    /// Whether there are no ranges.
    pub fn is_empty(&self) -> bool {
        self.lo.is_empty()
    }

    fn label(&self, i: usize) -> String {
        if self.lo[i] == self.hi[i] {
            self.lo[i].to_string()
        } else {
            format!("{}..{}", self.lo[i], self.hi[i])
        }
    }
}

/// Cells of a value law (`(value, p)`, sorted, every `p > 0`): names, exact
/// probabilities (the last, `outside`, is `tail`) and the ranges.
pub fn value_cells(law: &[(i64, f64)], tail: f64) -> (Vec<String>, Vec<f64>, Ranges) {
    let mut r = Ranges {
        lo: Vec::new(),
        hi: Vec::new(),
    };
    let mut exact = Vec::new();
    if law.len() <= MAX_VALUE_CELLS {
        for &(x, p) in law {
            r.lo.push(x);
            r.hi.push(x);
            exact.push(p);
        }
    } else {
        // Ranges of about 1/BINS of the mass each; every range starts and
        // ends on a value the law holds, and the gaps between ranges hold
        // no mass either, so `outside` stays impossible.
        let bar = 1.0 / BINS as f64;
        let mut acc = 0.0;
        let mut start = law[0].0;
        for (i, &(x, p)) in law.iter().enumerate() {
            acc += p;
            if acc >= bar || i + 1 == law.len() {
                r.lo.push(start);
                r.hi.push(x);
                exact.push(acc);
                acc = 0.0;
                if let Some(&(next, _)) = law.get(i + 1) {
                    start = next;
                }
            }
        }
    }
    let mut names: Vec<String> = (0..r.len()).map(|i| r.label(i)).collect();
    names.push(OUTSIDE.into());
    exact.push(tail);
    (names, exact, r)
}

/// The command's value: one cell per value (or range), then `outside`.
pub struct ValueSampler {
    cmd: Command,
    ranges: Ranges,
}

impl ValueSampler {
    /// A sampler of `cmd` into `ranges`.
    pub fn new(cmd: Command, ranges: Ranges) -> ValueSampler {
        ValueSampler { cmd, ranges }
    }
}

impl Sampler for ValueSampler {
    fn cells(&self) -> usize {
        self.ranges.len() + 1
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        self.ranges.cell(roll(&self.cmd, dice).value)
    }
}

/// House-rule tiers: the tier of each roll's result and natural dice.
struct TierSampler {
    check: Check,
}

impl Sampler for TierSampler {
    fn cells(&self) -> usize {
        self.check.tier_names().len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        tier_trial(&self.check, dice)
    }
}

/// The tier of one roll of `check` by the plain rule: the pool engine's
/// checks read every fact of their dice (and push when their tiers say).
fn tier_trial(check: &Check, dice: &mut Dice) -> usize {
    if check.needs_engine() {
        let mut faces = |sides: i64| i64::from(dice.roll(sides as u32));
        match check.roll_facts(&mut faces) {
            Some(f) => check.tier_of_facts(&f),
            None => check.tier_names().len() - 1,
        }
    } else {
        let r = roll(&check.command, dice);
        check.tier_of(r.value, r.natural)
    }
}

/// 成功/失敗 of a 加算ダイス comparison, as the plain rule reads it. Cells:
/// `成功`, `失敗`, `unjudged` (the rule gave no verdict).
struct SuccessSampler {
    cmd: Command,
}

impl Sampler for SuccessSampler {
    fn cells(&self) -> usize {
        3
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        match roll(&self.cmd, dice).success {
            Some(true) => 0,
            Some(false) => 1,
            None => 2,
        }
    }
}

/// A contest: both commands rolled once. Cells: `win`, `tie`, `loss` of the
/// first side (before any tie rule).
struct ContestSampler {
    check: Check,
}

impl Sampler for ContestSampler {
    fn cells(&self) -> usize {
        3
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let a = roll(&self.check.command, dice).value;
        let b = match &self.check.vs {
            Some(vs) => roll(vs, dice).value,
            None => return 1,
        };
        let (a, b) = if self.check.lower_wins {
            (b, a)
        } else {
            (a, b)
        };
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }
    }
}

/// The exact law of a command's value, in exact arithmetic: `(value, p)`
/// for every value with mass, and the cut tail.
pub fn exact_values(cmd: &Command) -> (Vec<(i64, f64)>, f64) {
    // Exploding dice of the pool engine have fractions of hundreds of
    // digits: their law in floating point (exact to about 1e-15) is
    // computed by the same engine.
    if matches!(&cmd.body, dice::Body::Add(a) if dice::pool::explodes(&a.expr)) {
        let law = dice::law::law::<f64>(cmd, DEFAULT_TAIL_EPS)
            .unwrap_or_else(|e| panic!("{cmd}: the grid's command has a law: {e}"));
        let values = law
            .value
            .iter()
            .filter(|(_, p)| **p > 0.0)
            .map(|(x, p)| (x, *p))
            .collect();
        return (values, law.tail);
    }
    let law = dice::law::law::<Exact>(cmd, DEFAULT_TAIL_EPS)
        .unwrap_or_else(|e| panic!("{cmd}: the grid's command has a law: {e}"));
    let values = law
        .value
        .iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(x, p)| (x, p.to_f64()))
        .collect();
    (values, law.tail.to_f64())
}

/// A point of the value law of `expr`.
pub fn value_point(expr: &str) -> Point {
    value_point_in(expr, None)
}

/// A point of the value law of `expr` read under `game` (a chain whose
/// stages are the game's commands).
pub fn value_point_in(expr: &str, game: Option<&str>) -> Point {
    let g = game.map(|id| dice::games::find(id).unwrap_or_else(|e| panic!("{id}: {e}")));
    let cmd =
        dice::parse::parse_in(expr, g).unwrap_or_else(|e| panic!("grid expression {expr}: {e}"));
    let (law, tail) = exact_values(&cmd);
    let (cells, exact, ranges) = value_cells(&law, tail);
    Point {
        system: SYSTEM,
        label: match game {
            Some(id) => format!("{cmd} --game {id}"),
            None => format!("{cmd}"),
        },
        cells,
        exact,
        sampler: Box::new(ValueSampler::new(cmd, ranges)),
    }
}

fn check_of(expr: &str, tiers: &[&str]) -> Check {
    check_with_push(expr, tiers, None)
}

/// A grid check, with a push (`(tiers, [TERM:]FACE rules)`).
pub fn check_with_push(expr: &str, tiers: &[&str], push: Option<(&str, &[&str])>) -> Check {
    let mut check = Check::new(expr).unwrap_or_else(|e| panic!("grid expression {expr}: {e}"));
    check.tiers = tiers
        .iter()
        .map(|t| dice::parse_tier(t).unwrap_or_else(|e| panic!("grid tier {t}: {e}")))
        .collect();
    if let Some((when, rules)) = push {
        check.push = Some(dice::Push {
            tiers: when.split(',').map(str::to_string).collect(),
            rules: rules
                .iter()
                .map(|r| dice::parse_push_rule(r).unwrap_or_else(|e| panic!("grid push {r}: {e}")))
                .collect(),
        });
    }
    check
        .validate()
        .unwrap_or_else(|e| panic!("grid check {expr}: {e}"));
    check
}

fn exact_report(check: &Check) -> crate::report::Report<Exact> {
    dice::report::<Exact>(check).unwrap_or_else(|e| panic!("grid check: {e}"))
}

fn tier_point(expr: &str, tiers: &[&str]) -> Point {
    checked_tier_point(check_of(expr, tiers))
}

/// The tier point of a built check (its tiers' exact law).
pub fn checked_tier_point(check: Check) -> Point {
    let report = exact_report(&check);
    let names = check.tier_names();
    let exact = names
        .iter()
        .map(|n| report.outcome(n).map(Weight::to_f64).unwrap_or(0.0))
        .collect();
    Point {
        system: SYSTEM,
        label: format!(
            "{} tiers {}{}",
            check.command,
            check
                .tiers
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" | "),
            match &check.push {
                Some(p) => format!(
                    " push {} rerolling {}",
                    p.tiers.join(","),
                    p.rules
                        .iter()
                        .map(|r| r.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                None => String::new(),
            }
        ),
        cells: names,
        exact,
        sampler: Box::new(TierSampler { check }),
    }
}

fn success_point(expr: &str) -> Point {
    let check = check_of(expr, &[]);
    let report = exact_report(&check);
    let p = report.p_success.to_f64();
    Point {
        system: SYSTEM,
        label: format!("{} 成功/失敗", check.command),
        cells: vec!["成功".into(), "失敗".into(), "unjudged".into()],
        exact: vec![p, 1.0 - p, 0.0],
        sampler: Box::new(SuccessSampler {
            cmd: check.command.clone(),
        }),
    }
}

fn contest_point(expr: &str, vs: &str, lower_wins: bool) -> Point {
    let mut check = check_of(expr, &[]);
    check.vs = Some(dice::parse(vs).unwrap_or_else(|e| panic!("grid vs {vs}: {e}")));
    check.lower_wins = lower_wins;
    let report = exact_report(&check);
    let field = |name: &str| match report.get(name) {
        Some(crate::report::Field::Prob(p)) => p.to_f64(),
        other => panic!("contest report lacks {name}: {other:?}"),
    };
    Point {
        system: SYSTEM,
        label: format!(
            "{} vs {}{}",
            check.command,
            vs,
            if lower_wins { " lower wins" } else { "" }
        ),
        cells: vec!["win".into(), "tie".into(), "loss".into()],
        exact: vec![
            field("p_win_roll"),
            field("p_tie_roll"),
            field("p_loss_roll"),
        ],
        sampler: Box::new(ContestSampler { check }),
    }
}

/// The commands of the value points: every construct of the notation.
pub const GRID_EXPRS: &[&str] = &[
    // 加算ダイス: sums, arithmetic, comparisons.
    "2D6",
    "1D20+5>=15",
    "3D6+1D4-2",
    "-1D8+10",
    "1D4*1D6",
    "(1+1)D(2+4)*2",
    // BCDice's division: floor, round up, round half up, by dice.
    "2D6/2",
    "1D10/3U",
    "1D10/3R",
    "1D6/1D3",
    // Keep / drop.
    "3D6KH2+1",
    "4D6DL1",
    "2D20KL1",
    "5D4DH2",
    "3D10MAX",
    "3D10MIN",
    "10D10KH3",
    // Wide laws (ranges of cells).
    "20D6",
    // D66 and its sorted forms.
    "D66",
    "D66A",
    "D66D",
    // バラバラダイス.
    "5B6>=4",
    "2B6+3B8>=5",
    "6B6=3",
    "3B10",
    "100B6>=5",
    // 個数振り足しダイス: rerolls really rolled.
    "3R6>=5",
    "2R6[6]>=4",
    "1R6[<=2]>=4",
    "2R10>=8@>=9",
    "1R4+1R6[>4]>=4",
    // 上方無限ロール.
    "2U6[6]",
    "3U10[10]>=15",
    "1U6[5]+2>=8",
    // A secret roll is the same roll.
    "S2D6>=7",
    // The pool engine: custom and Fate faces, face scores, rerolls,
    // explosions (each die on its own maximum), compounding, groups.
    "2D{0,0,1,1,2,3}",
    "4DF+2",
    "5D10{1:2,<=6:1,10:-1}",
    "2D20ro1",
    "3D6r<3",
    "2D6!",
    "3D6!!KH2",
    "{1D8!,1D6!}KH1",
    "5D10!!KH3",
    "{1D10,1D8,1D8,1D6}KH2",
    // Chained rolls: each stage really rolled after the last.
    "1D20+5->natural==20:2D8+4;>=15:1D8+4;0",
    "(3B6>=4)D6",
    "2D(1D20+5->>=15:1D8+4;0)",
    "((10D6{6:2,3..5:1})D6{>=4:1})D6{<=2:1}",
    "(1D6->>=4:(result)D4;0)",
    "max(0,2D6-5)",
    "7D10ri1!!KH5",
    "5D10{>=8:1}ri<8!",
];

/// Chained rolls whose stages are a game's commands: (expression, game).
pub const GAME_CHAINS: &[(&str, &str)] = &[
    ("5DX7+4->>=15:(result/10+1)D10+8;0", "DoubleCross"),
    (
        "CC<=50->critical or extreme:8+1D8;success:1D8;0",
        "Cthulhu7th",
    ),
    ("2D6+5>=11->success:max(0,(K20+5@10)-3);0", "SwordWorld2.5"),
];

/// Tier points of the pool engine's statistics: the mechanics of
/// MECHANICS.md with their own tiers, pushes really pushed.
fn engine_points() -> Vec<Point> {
    let mut points = vec![
        // W4 Blades in the Dark.
        tier_point(
            "4D6",
            &[
                "critical:count(==6)>=2",
                "full:max==6",
                "partial:max>=4",
                "bad",
            ],
        ),
        // W14 Daggerheart: duality dice.
        tier_point(
            "1D12[hope]+1D12[fear]+2",
            &[
                "critical:doubles",
                "success with hope:total>=14 and hope>fear",
                "success with fear:total>=14",
                "failure with hope:hope>fear:fail",
                "failure with fear",
            ],
        ),
        // W11 Savage Worlds: trait and wild die, snake eyes.
        tier_point(
            "{1D8![trait],1D6![wild]}KH1",
            &[
                "snake eyes:trait==1 and wild==1:fail",
                "raise:>=8",
                "success:>=4",
                "failure",
            ],
        ),
        // W15 Genesys symbols: net success and advantage.
        tier_point(
            "2D{0,s,s,2s,a,a,s+a,2a}+1D{0,-s,-s,-2s,-a,-a,-s-a,-2a}",
            &[
                "success with advantage:s>=1 and a>=1",
                "success:s>=1",
                "failure",
            ],
        ),
        // W22 One-Roll Engine: sets.
        tier_point(
            "6D10",
            &[
                "wide:width>=3",
                "set:width==2 and height>=6",
                "low set:width==2",
                "none",
            ],
        ),
        // W16 Cortex: hitches beside the two highest.
        tier_point(
            "{1D10,1D8,1D8,1D6}KH2",
            &["botch:count(==1)==4:fail", "beat 11:>=11", "miss"],
        ),
        // W7 V20-style scores with a botch.
        tier_point(
            "5D10{1:-1,>=6:1}",
            &[
                "botch:count(>=6)==0 and count(==1)>=1:fail",
                "success:>=1",
                "failure",
            ],
        ),
    ];
    // W5 Year Zero: a failed roll pushed (base 2–5, skill 1–5 rerolled);
    // base 1s after the push hurt.
    points.push(checked_tier_point(check_with_push(
        "3D6[base]+2D6[skill]",
        &[
            "hurt:pushed and count(1,base)>=1:fail",
            "success:count(==6)>=1",
            "failure",
        ],
        Some(("failure", &["base:2..5", "skill:<6"])),
    )));
    // W19 Dragonbane: a failed d20 ≤ 12 pushed, a demon never.
    points.push(checked_tier_point(check_with_push(
        "1D20",
        &[
            "dragon:natural==1",
            "demon:natural==20:fail",
            "success:<=12",
            "failure",
        ],
        Some(("failure", &[">=1"])),
    )));
    points
}

/// The default grid: the value law of every command in [`GRID_EXPRS`],
/// house-rule tiers (natural criticals, a PbtA ladder, a d100 band table),
/// 成功/失敗 of comparisons, and contests.
pub fn grid() -> Vec<Point> {
    let mut points: Vec<Point> = GRID_EXPRS.iter().map(|e| value_point(e)).collect();
    points.extend(GAME_CHAINS.iter().map(|(e, g)| value_point_in(e, Some(g))));
    points.push(tier_point(
        "1D20+5->natural==20:2D8+4;>=15:1D8+4;0",
        &["dead:>=12", "hurt:>=1", "missed"],
    ));
    points.push(tier_point(
        "1D20+5",
        &[
            "critical:natural>=19",
            "fumble:natural==1",
            "hit:>=15",
            "miss",
        ],
    ));
    points.push(tier_point(
        "2D6+1",
        &["strong hit:>=10", "weak hit:>=7", "miss"],
    ));
    points.push(tier_point(
        "1D100",
        &[
            "決定的成功:<=6",
            "効果的成功:<=30",
            "成功:<=60",
            "致命的失敗:>=96",
            "失敗",
        ],
    ));
    points.push(tier_point("4D6DL1", &["high:natural>=15", "low"]));
    for expr in ["2D6+2>=9", "3D6KH2<=6", "1D20-1D6<>0"] {
        points.push(success_point(expr));
    }
    points.push(contest_point("2D6+1", "2D6", false));
    points.push(contest_point("1D20", "1D20+2", true));
    points.push(contest_point("3B6>=5", "2R6>=5", false));
    points.extend(engine_points());
    points
}

/// Planted rule bugs for the power test: a copy of a value sampler that
/// judges one roll in `one_in` with a wrong command (a mis-read division,
/// rerolls forgotten, the wrong end kept).
pub mod planted {
    use super::*;

    /// Rolls `wrong` instead of the honest command once in `one_in` rolls.
    pub struct Sometimes {
        /// The honest sampler (its ranges are the honest law's).
        pub honest: ValueSampler,
        /// The wrong rule.
        pub wrong: Command,
        /// How rarely the wrong rule is used.
        pub one_in: u32,
    }

    impl Sampler for Sometimes {
        fn cells(&self) -> usize {
            self.honest.cells()
        }
        fn trial(&self, dice: &mut Dice) -> usize {
            if dice.roll(self.one_in) == 1 {
                self.honest.ranges.cell(roll(&self.wrong, dice).value)
            } else {
                self.honest.trial(dice)
            }
        }
    }

    /// Judges one roll in `one_in` with a wrong check (a push forgotten).
    pub struct SometimesCheck {
        /// The honest check.
        pub honest: Check,
        /// The wrong one.
        pub wrong: Check,
        /// How rarely the wrong check is used.
        pub one_in: u32,
    }

    impl Sampler for SometimesCheck {
        fn cells(&self) -> usize {
            self.honest.tier_names().len()
        }
        fn trial(&self, dice: &mut Dice) -> usize {
            if dice.roll(self.one_in) == 1 {
                tier_trial(&self.wrong, dice)
            } else {
                tier_trial(&self.honest, dice)
            }
        }
    }

    /// The tier point of `honest` whose sampler judges by `wrong` once in
    /// `one_in` rolls.
    pub fn tier_point(honest: Check, wrong: Check, one_in: u32) -> Point {
        let p = checked_tier_point(honest.clone());
        Point {
            label: format!(
                "PLANTED {} as {} once in {one_in}",
                honest.command, wrong.command
            ),
            sampler: Box::new(SometimesCheck {
                honest,
                wrong,
                one_in,
            }),
            ..p
        }
    }

    /// The point of `honest`'s exact law whose sampler uses `wrong` once in
    /// `one_in` rolls.
    pub fn point(honest: &str, wrong: &str, one_in: u32) -> Point {
        let p = value_point(honest);
        let cmd = dice::parse(honest).unwrap_or_else(|e| panic!("{honest}: {e}"));
        let wrong = dice::parse(wrong).unwrap_or_else(|e| panic!("{wrong}: {e}"));
        let (law, tail) = exact_values(&cmd);
        let (_, _, ranges) = value_cells(&law, tail);
        Point {
            label: format!("PLANTED {honest} as {wrong} once in {one_in}"),
            sampler: Box::new(Sometimes {
                honest: ValueSampler::new(cmd, ranges),
                wrong,
                one_in,
            }),
            ..p
        }
    }
}
