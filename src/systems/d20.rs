//! `d20` — 1d20 判定 (判定値 vs 目標値), seed 001 and RULES.md §2.
//!
//! # The rule
//!
//! 判定値 (total) = kept d20 + ステータス修正値 (ability modifier) +
//! 習熟ボーナス (proficiency) + extra bonus, compared with 目標値 (DC).
//!
//! * Ability modifier: given directly (`--modifier`, default 0) or from an
//!   能力値 (ability score `s`, `--score`, 1..=30) as `floor((s − 10) / 2)`;
//!   the floor rounds toward −∞, so `s = 9` gives −1 (the seed writes
//!   `(能力値 - 10) / 2` and D&D-style tables round down).
//! * Proficiency: given directly (`--proficiency`, 0..=20, default 0 = not
//!   proficient) or from a level `L` in 1..=20 (`--level`) as
//!   `2 + floor((L − 1) / 4)`: +2 at level 1 … +6 at level 17–20, matching the
//!   seed's `Lv1=+2 〜 Lv20=+6`.
//! * 有利 (advantage) rolls 2d20 and keeps the higher, 不利 (disadvantage)
//!   keeps the lower; both at once cancel to a plain roll ([`Roll`]).
//!
//! Tiers, worst first ([`D20Tier`]): ファンブル (fumble: natural 1 on the kept
//! die, failure whatever the total), 失敗 (failure: total < DC), 成功
//! (success: total ≥ DC), クリティカル (critical: natural 20 on the kept die,
//! success whatever the DC). Extension (not in the seed, matching BCDice's
//! `AT@N`): `--crit-on N` (2..=20, default 20) makes a natural N or more
//! critical.
//!
//! # 対抗判定 (contest)
//!
//! Both sides roll; their totals are compared ([`Contest`]). Natural 20 and
//! natural 1 have no special effect and there is no DC. A tie is resolved by
//! [`TieBreak`]: `defender` (default — the status quo stands, so the active
//! side loses a tie), `attacker` (the active side takes it) or `reroll` (both
//! roll again until the totals differ; the expected number of rolls is
//! reported).
//!
//! # フェイト・ダイス (fate dice)
//!
//! With `k` fate dice (0..=10) available for one check, after seeing a
//! *failed* roll (failure or fumble) the player may spend one die to
//!
//! * **boost** (ブースト): add 1d6 to the total. It cannot undo a natural 1,
//!   so boosting is not offered on a natural 1;
//! * **reroll** (リロール): roll the d20 again (under advantage or
//!   disadvantage the whole 2d20 is rolled again and the kept die taken
//!   afresh). The new roll is judged afresh: it can be critical or a fumble.
//!
//! Decisions where the seed is silent:
//!
//! * fate dice are only spent on a failed roll (a success cannot get better
//!   for P(success); a boost never turns a success into a critical);
//! * several boosts stack, each seen before deciding on the next;
//! * a boosted success is tier `success`, never `critical` (only the natural
//!   die makes a critical);
//! * a reroll replaces the roll: boosts already added to the old roll are
//!   lost ("judged afresh"), and later boosts add to the new roll;
//! * the state of a check is therefore `(kept face, boost so far, dice
//!   left)` ([`FateState`]), and every order of boosts and rerolls is covered
//!   by the dynamic programme over it.
//!
//! Policies ([`Policy`]): `none` (never spend), `boost-only` (boost while
//! failing and not a natural 1), `reroll-only` (reroll while failing) and
//! `optimal`: the action maximising P(success) given the state, found by
//! exact dynamic programming over `(state, dice left)` in exact fractions (so
//! the decisions do not depend on floating-point rounding). Ties in
//! P(success) go to stopping, then boosting, then rerolling. The decisions
//! are exposed as a rule ([`FatePlan::decide`]) and played on real faces by
//! [`FatePlan::play`] / [`FatePlan::classify`]. The report's `outcomes` are
//! the tier law under the policy chosen by `--policy` (default `optimal`
//! when `--fate` > 0), and it lists every policy's P(success) and its worth
//! (ΔP against no fate dice), plus the worth of the k-th die under the
//! optimal policy (`P(k dice) − P(k − 1 dice)`).
//!
//! For sweeps, [`p_success`] gives P(success) of a plain check in closed
//! form.

use std::cmp::Ordering;

use crate::contest::{compare, Comparison, TieRule};
use crate::error::{check_range, Result};
use crate::pmf::Pmf;
use crate::report::{Field, Report};
use crate::systems::dice::ast::{DieFaces, Filter, PoolTerm};
use crate::tier::{Tier, TierLaw};
use crate::weight::{Exact, Weight};

/// System id.
pub const ID: &str = "d20";
/// Japanese name of the check.
pub const JA: &str = "1d20判定 (判定値 vs 目標値)";

/// Allowed modifiers (ability modifier and extra bonus).
pub const MODIFIER_RANGE: (i64, i64) = (-50, 50);
/// Allowed ability scores.
pub const SCORE_RANGE: (i64, i64) = (1, 30);
/// Allowed proficiency bonuses.
pub const PROFICIENCY_RANGE: (i64, i64) = (0, 20);
/// Allowed levels.
pub const LEVEL_RANGE: (i64, i64) = (1, 20);
/// Allowed DCs.
pub const DC_RANGE: (i64, i64) = (-50, 100);
/// Allowed `--crit-on` faces.
pub const CRIT_ON_RANGE: (i64, i64) = (2, 20);
/// Allowed number of fate dice.
pub const FATE_RANGE: (i64, i64) = (0, 10);

/// Faces of a fate boost die.
const BOOST_SIDES: u32 = 6;

/// Ability modifier of a score: `floor((s − 10) / 2)` (`s = 9` gives −1).
pub fn ability_modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

/// Proficiency bonus at a level: `2 + floor((L − 1) / 4)` (+2 at 1, +6 at 20).
pub fn proficiency_for_level(level: i64) -> i64 {
    2 + (level - 1).div_euclid(4)
}

/// Outcome tiers, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum D20Tier {
    /// Natural 1 on the kept die (ファンブル): failure whatever the total.
    Fumble,
    /// Total below the DC (失敗).
    Failure,
    /// Total at least the DC (成功).
    Success,
    /// Natural 20 (or `--crit-on` or more) on the kept die (クリティカル):
    /// success whatever the DC.
    Critical,
}

impl Tier for D20Tier {
    const ALL: &'static [Self] = &[
        D20Tier::Fumble,
        D20Tier::Failure,
        D20Tier::Success,
        D20Tier::Critical,
    ];
    fn key(self) -> &'static str {
        match self {
            D20Tier::Fumble => "fumble",
            D20Tier::Failure => "failure",
            D20Tier::Success => "success",
            D20Tier::Critical => "critical",
        }
    }
    fn en(self) -> &'static str {
        match self {
            D20Tier::Fumble => "fumble",
            D20Tier::Failure => "failure",
            D20Tier::Success => "success",
            D20Tier::Critical => "critical",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            D20Tier::Fumble => "ファンブル",
            D20Tier::Failure => "失敗",
            D20Tier::Success => "成功",
            D20Tier::Critical => "クリティカル",
        }
    }
    fn is_success(self) -> bool {
        self >= D20Tier::Success
    }
}

/// How the d20 is rolled: one die, or two keeping the higher (有利) or the
/// lower (不利).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Roll {
    /// One d20 (default).
    #[default]
    Normal,
    /// 有利: 2d20, keep the higher.
    Advantage,
    /// 不利: 2d20, keep the lower.
    Disadvantage,
}

impl Roll {
    /// From the two flags; both at once cancel to [`Roll::Normal`].
    pub fn from_flags(advantage: bool, disadvantage: bool) -> Self {
        match (advantage, disadvantage) {
            (true, false) => Roll::Advantage,
            (false, true) => Roll::Disadvantage,
            _ => Roll::Normal,
        }
    }

    /// Stable key for reports.
    pub fn key(self) -> &'static str {
        match self {
            Roll::Normal => "normal",
            Roll::Advantage => "advantage",
            Roll::Disadvantage => "disadvantage",
        }
    }

    /// Number of d20 rolled.
    pub fn dice(self) -> usize {
        match self {
            Roll::Normal => 1,
            Roll::Advantage | Roll::Disadvantage => 2,
        }
    }

    /// The kept die of `faces` (exactly [`Roll::dice`] d20 faces, each
    /// 1..=20); `None` otherwise.
    pub fn keep(self, faces: &[u32]) -> Option<u32> {
        if faces.len() != self.dice() || faces.iter().any(|f| !(1..=20).contains(f)) {
            return None;
        }
        match self {
            Roll::Normal => faces.first().copied(),
            Roll::Advantage => faces.iter().copied().max(),
            Roll::Disadvantage => faces.iter().copied().min(),
        }
    }

    /// The roll as a dice program: `1D20`, `2D20KH1` (advantage, 有利),
    /// `2D20KL1` (disadvantage, 不利).
    pub fn program(self) -> PoolTerm {
        let keep = |f| Some((f, 1));
        match self {
            Roll::Normal => PoolTerm::plain(1, DieFaces::Standard(20), None),
            Roll::Advantage => {
                PoolTerm::plain(2, DieFaces::Standard(20), keep(Filter::KeepHighest))
            }
            Roll::Disadvantage => {
                PoolTerm::plain(2, DieFaces::Standard(20), keep(Filter::KeepLowest))
            }
        }
    }

    /// The law of the kept die: the law of [`Roll::program`], computed by
    /// the algorithm the dice planner chooses for it (the extreme of two
    /// d20 by a power of the distribution function: `P(max ≤ v) =
    /// (v/20)²`).
    pub fn kept_law<W: Weight>(self) -> Pmf<W> {
        // Two d20 are far inside every limit of the planner.
        crate::systems::dice::law::term(&self.program())
            .expect("the law of at most two d20 is within every limit")
    }

    /// `P(kept die ≥ t)` in closed form.
    pub fn p_at_least<W: Weight>(self, t: i64) -> W {
        let t = t.clamp(1, 21);
        let above = 21 - t; // faces ≥ t
        let below = t - 1; // faces < t
        match self {
            Roll::Normal => W::ratio(above, 20),
            Roll::Advantage => W::ratio(400 - below * below, 400),
            Roll::Disadvantage => W::ratio(above * above, 400),
        }
    }
}

/// The lowest kept face that succeeds (success or critical) for a total
/// modifier `modifier` against `dc` with criticals on `crit_on` or more.
pub fn success_threshold(modifier: i64, dc: i64, crit_on: u32) -> i64 {
    (dc - modifier).max(2).min(i64::from(crit_on))
}

/// P(success or critical) of a plain check (criticals on a natural 20),
/// `modifier` being the total of modifier, proficiency and bonus. Closed
/// form, cheap enough for grid sweeps.
pub fn p_success<W: Weight>(modifier: i64, dc: i64, roll: Roll) -> W {
    roll.p_at_least(success_threshold(modifier, dc, 20))
}

/// One roller: ability modifier, proficiency, extra bonus and how the d20 is
/// rolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    modifier: i64,
    score: Option<i64>,
    proficiency: i64,
    level: Option<i64>,
    bonus: i64,
    roll: Roll,
}

/// How a side's ability modifier is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ability {
    /// The modifier itself.
    Modifier(i64),
    /// An ability score, turned into `floor((s − 10) / 2)`.
    Score(i64),
}

impl Default for Ability {
    /// Modifier 0.
    fn default() -> Self {
        Ability::Modifier(0)
    }
}

/// How a side's proficiency is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Training {
    /// The proficiency bonus itself.
    Proficiency(i64),
    /// A level, turned into `2 + floor((L − 1) / 4)`.
    Level(i64),
}

impl Default for Training {
    /// Proficiency 0 (not proficient).
    fn default() -> Self {
        Training::Proficiency(0)
    }
}

impl Side {
    /// A validated side. `prefix` is the flag prefix used in error messages
    /// (`""` for the active side, `"vs-"` for the opposing side).
    pub fn new(
        ability: Ability,
        training: Training,
        bonus: i64,
        roll: Roll,
        prefix: &str,
    ) -> Result<Self> {
        let flag = |name: &str| format!("--{prefix}{name}");
        let (modifier, score) = match ability {
            Ability::Modifier(m) => {
                check_range(&flag("modifier"), m, MODIFIER_RANGE.0, MODIFIER_RANGE.1)?;
                (m, None)
            }
            Ability::Score(s) => {
                check_range(&flag("score"), s, SCORE_RANGE.0, SCORE_RANGE.1)?;
                (ability_modifier(s), Some(s))
            }
        };
        let (proficiency, level) = match training {
            Training::Proficiency(p) => {
                check_range(
                    &flag("proficiency"),
                    p,
                    PROFICIENCY_RANGE.0,
                    PROFICIENCY_RANGE.1,
                )?;
                (p, None)
            }
            Training::Level(l) => {
                check_range(&flag("level"), l, LEVEL_RANGE.0, LEVEL_RANGE.1)?;
                (proficiency_for_level(l), Some(l))
            }
        };
        check_range(&flag("bonus"), bonus, MODIFIER_RANGE.0, MODIFIER_RANGE.1)?;
        Ok(Side {
            modifier,
            score,
            proficiency,
            level,
            bonus,
            roll,
        })
    }

    /// A side given by its total modifier alone (no proficiency, no bonus).
    pub fn with_modifier(modifier: i64, roll: Roll) -> Result<Self> {
        Self::new(
            Ability::Modifier(modifier),
            Training::default(),
            0,
            roll,
            "",
        )
    }

    /// Ability modifier (from the score when one was given).
    pub fn modifier(&self) -> i64 {
        self.modifier
    }

    /// Proficiency bonus (from the level when one was given).
    pub fn proficiency(&self) -> i64 {
        self.proficiency
    }

    /// Extra bonus.
    pub fn bonus(&self) -> i64 {
        self.bonus
    }

    /// How the d20 is rolled.
    pub fn roll(&self) -> Roll {
        self.roll
    }

    /// Modifier + proficiency + bonus: what is added to the kept die.
    pub fn total_modifier(&self) -> i64 {
        self.modifier + self.proficiency + self.bonus
    }

    /// The law of the total (kept die + total modifier).
    pub fn total_law<W: Weight>(&self) -> Pmf<W> {
        let m = self.total_modifier();
        self.roll.kept_law().map(|f| f + m)
    }

    /// The total of one roll (`None` for invalid faces).
    pub fn total(&self, faces: &[u32]) -> Option<i64> {
        self.roll
            .keep(faces)
            .map(|k| i64::from(k) + self.total_modifier())
    }

    /// Report this side's parameters, names prefixed by `prefix`.
    fn params<W: Weight>(&self, r: Report<W>, prefix: &str) -> Report<W> {
        let n = |name: &str| format!("{prefix}{name}");
        r.param(&n("modifier"), self.modifier)
            .param(&n("score"), self.score)
            .param(&n("proficiency"), self.proficiency)
            .param(&n("level"), self.level)
            .param(&n("bonus"), self.bonus)
            .param(&n("roll"), self.roll.key())
    }
}

/// What one plain roll came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The tier.
    pub tier: D20Tier,
    /// The kept d20 (natural).
    pub kept: u32,
    /// The total (kept die + modifiers + any boost).
    pub total: i64,
}

/// A check against a DC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    side: Side,
    dc: i64,
    crit_on: u32,
}

impl Check {
    /// A validated check: DC in [`DC_RANGE`], `crit_on` in [`CRIT_ON_RANGE`].
    pub fn new(side: Side, dc: i64, crit_on: u32) -> Result<Self> {
        check_range("--dc", dc, DC_RANGE.0, DC_RANGE.1)?;
        check_range(
            "--crit-on",
            i64::from(crit_on),
            CRIT_ON_RANGE.0,
            CRIT_ON_RANGE.1,
        )?;
        Ok(Check { side, dc, crit_on })
    }

    /// The roller.
    pub fn side(&self) -> &Side {
        &self.side
    }

    /// The DC (目標値).
    pub fn dc(&self) -> i64 {
        self.dc
    }

    /// Natural faces at least this are critical.
    pub fn crit_on(&self) -> u32 {
        self.crit_on
    }

    /// The tier of a kept die `kept` with `boost` added to the total.
    pub fn judge(&self, kept: u32, boost: i64) -> D20Tier {
        if kept == 1 {
            D20Tier::Fumble
        } else if kept >= self.crit_on {
            D20Tier::Critical
        } else if i64::from(kept) + self.side.total_modifier() + boost >= self.dc {
            D20Tier::Success
        } else {
            D20Tier::Failure
        }
    }

    /// The plain rule on one roll's faces (1 or 2 d20 as the roll asks, in
    /// the order rolled). `None` if the faces do not fit.
    pub fn classify(&self, faces: &[u32]) -> Option<Verdict> {
        let kept = self.side.roll.keep(faces)?;
        Some(self.verdict(kept, 0))
    }

    fn verdict(&self, kept: u32, boost: i64) -> Verdict {
        Verdict {
            tier: self.judge(kept, boost),
            kept,
            total: i64::from(kept) + self.side.total_modifier() + boost,
        }
    }

    /// The lowest natural face that succeeds.
    pub fn threshold(&self) -> i64 {
        success_threshold(self.side.total_modifier(), self.dc, self.crit_on)
    }

    /// The exact tier law of one roll (no fate dice).
    pub fn law<W: Weight>(&self) -> TierLaw<D20Tier, W> {
        TierLaw::from_pairs(
            self.side
                .roll
                .kept_law::<W>()
                .iter()
                .map(|(f, p)| (self.judge(f as u32, 0), p.clone())),
        )
    }

    /// P(success or critical), closed form.
    pub fn p_success<W: Weight>(&self) -> W {
        self.side.roll.p_at_least(self.threshold())
    }
}

/// Who takes a tied contest: the values every system accepts (attacker,
/// defender, reroll, tie; `active`, `passive` and `separate` as aliases).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TieBreak {
    /// The status quo stands: the defender (opposing side) takes the tie
    /// (default).
    #[default]
    #[value(alias = "passive")]
    Defender,
    /// Both roll again until the totals differ.
    Reroll,
    /// The active side takes the tie.
    #[value(alias = "active")]
    Attacker,
    /// The tie stands: reported as `p_tie`, no one wins.
    #[value(alias = "separate")]
    Tie,
}

impl TieBreak {
    /// Stable key.
    pub fn key(self) -> &'static str {
        match self {
            TieBreak::Defender => "defender",
            TieBreak::Reroll => "reroll",
            TieBreak::Attacker => "attacker",
            TieBreak::Tie => "tie",
        }
    }

    fn rule(self) -> TieRule {
        match self {
            TieBreak::Defender => TieRule::Second,
            TieBreak::Reroll => TieRule::Reroll,
            TieBreak::Attacker => TieRule::First,
            TieBreak::Tie => TieRule::Separate,
        }
    }
}

/// What one round of a contest came to, after the tie rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// The active side wins.
    Win,
    /// The active side loses.
    Loss,
    /// Tied under [`TieBreak::Reroll`]: roll again.
    Again,
    /// Tied under [`TieBreak::Tie`]: no one wins.
    Tie,
}

/// 対抗判定: the active side's total against the opposing side's total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contest {
    active: Side,
    opposing: Side,
    tie: TieBreak,
}

impl Contest {
    /// A contest (sides are validated when built).
    pub fn new(active: Side, opposing: Side, tie: TieBreak) -> Self {
        Contest {
            active,
            opposing,
            tie,
        }
    }

    /// Win / tie / loss of the active side, before the tie rule.
    pub fn comparison<W: Weight>(&self) -> Comparison<W> {
        compare(&self.active.total_law(), &self.opposing.total_law())
    }

    /// P(the active side wins) after the tie rule.
    pub fn p_success<W: Weight>(&self) -> W {
        self.comparison().with_tie_rule(self.tie.rule()).win
    }

    /// One round on rolled faces (each side's d20s in the order rolled).
    /// `None` if the faces do not fit.
    pub fn classify(&self, active: &[u32], opposing: &[u32]) -> Option<Round> {
        let a = self.active.total(active)?;
        let b = self.opposing.total(opposing)?;
        Some(match a.cmp(&b) {
            Ordering::Greater => Round::Win,
            Ordering::Less => Round::Loss,
            Ordering::Equal => match self.tie {
                TieBreak::Defender => Round::Loss,
                TieBreak::Attacker => Round::Win,
                TieBreak::Reroll => Round::Again,
                TieBreak::Tie => Round::Tie,
            },
        })
    }
}

/// A fate-dice policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Policy {
    /// Never spend a fate die.
    None,
    /// Boost while failing (never on a natural 1).
    BoostOnly,
    /// Reroll while failing.
    RerollOnly,
    /// The action maximising P(success) (exact dynamic programming).
    #[default]
    Optimal,
}

impl Policy {
    /// Every policy, in report order.
    pub const ALL: [Policy; 4] = [
        Policy::None,
        Policy::BoostOnly,
        Policy::RerollOnly,
        Policy::Optimal,
    ];

    /// Stable key (as on the command line).
    pub fn key(self) -> &'static str {
        match self {
            Policy::None => "none",
            Policy::BoostOnly => "boost-only",
            Policy::RerollOnly => "reroll-only",
            Policy::Optimal => "optimal",
        }
    }
}

/// What to do with the roll in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Keep the result.
    Stop,
    /// Spend a die: add 1d6 to the total.
    Boost,
    /// Spend a die: roll the d20 (or 2d20) again, judged afresh.
    Reroll,
}

/// Where a check stands while fate dice may still be spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FateState {
    /// The kept d20 of the current roll (natural).
    pub face: u32,
    /// Sum of the boost d6 added to the current roll.
    pub boost: i64,
    /// Fate dice left.
    pub dice_left: u32,
}

/// What a check with fate dice came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FateVerdict {
    /// The final roll's tier, kept die and total.
    pub verdict: Verdict,
    /// Boosts spent.
    pub boosts: u32,
    /// Rerolls spent.
    pub rerolls: u32,
    /// Faces read (d20s and d6s, in order).
    pub faces_used: usize,
}

/// Playing a policy on a sequence of faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The check is over.
    Done(FateVerdict),
    /// The faces ran out: the next die to roll has this many sides.
    Need(u32),
    /// The face at this index is not a face of the die it stands for.
    BadFace(usize),
}

/// A check with `dice` fate dice, played by a policy.
#[derive(Clone, Debug)]
pub struct FatePlan {
    check: Check,
    dice: u32,
    policy: Policy,
    /// For [`Policy::Optimal`]: the decision of every reachable state,
    /// indexed like [`Layers`].
    table: Option<Vec<Vec<Action>>>,
    /// For [`Policy::Optimal`]: the exact tier law of the check with `j`
    /// fate dice, `j` in `0..=dice`, found while solving the decisions (so
    /// an exact report solves once, not once per law it shows).
    exact_laws: Option<std::sync::Arc<Vec<Law<Exact>>>>,
}

/// Per number of dice left `j`, one entry per state `(face, boost)` with
/// `boost` in `0..=6(k − j)` (the boosts reachable with `j` left of `k`).
struct Layers {
    dice: u32,
}

impl Layers {
    fn width(&self, left: u32) -> usize {
        (BOOST_SIDES * (self.dice - left)) as usize + 1
    }

    fn len(&self, left: u32) -> usize {
        20 * self.width(left)
    }

    fn index(&self, s: FateState) -> Option<usize> {
        if s.dice_left > self.dice || !(1..=20).contains(&s.face) || s.boost < 0 {
            return None;
        }
        let b = usize::try_from(s.boost).ok()?;
        let w = self.width(s.dice_left);
        (b < w).then(|| (s.face as usize - 1) * w + b)
    }

    fn states(&self, left: u32) -> impl Iterator<Item = FateState> {
        let w = self.width(left) as i64;
        (1..=20u32).flat_map(move |face| {
            (0..w).map(move |boost| FateState {
                face,
                boost,
                dice_left: left,
            })
        })
    }
}

/// A tier law as one weight per tier (worst first).
type Law<W> = Vec<W>;

fn certain<W: Weight>(t: D20Tier) -> Law<W> {
    D20Tier::ALL
        .iter()
        .map(|u| if *u == t { W::one() } else { W::zero() })
        .collect()
}

fn law_success<W: Weight>(law: &Law<W>) -> W {
    law[D20Tier::Success.index()].clone() + &law[D20Tier::Critical.index()]
}

/// `Σ wᵢ · lawᵢ`.
fn mix<'a, W: Weight>(parts: impl Iterator<Item = (W, &'a Law<W>)>) -> Law<W> {
    let mut acc = vec![W::zero(); D20Tier::ALL.len()];
    for (w, law) in parts {
        for (a, p) in acc.iter_mut().zip(law) {
            *a += w.clone() * p;
        }
    }
    acc
}

impl FatePlan {
    /// A plan: `dice` in [`FATE_RANGE`]. For [`Policy::Optimal`] the
    /// decisions are solved here, exactly.
    pub fn new(check: Check, dice: u32, policy: Policy) -> Result<Self> {
        check_range("--fate", i64::from(dice), FATE_RANGE.0, FATE_RANGE.1)?;
        let mut plan = FatePlan {
            check,
            dice,
            policy,
            table: None,
            exact_laws: None,
        };
        if policy == Policy::Optimal {
            let layers = Layers { dice };
            let mut table: Vec<Vec<Action>> = (0..=dice)
                .map(|j| vec![Action::Stop; layers.len(j)])
                .collect();
            let laws = plan.solve::<Exact>(Some(&mut table));
            plan.table = Some(table);
            plan.exact_laws = Some(std::sync::Arc::new(laws));
        }
        Ok(plan)
    }

    /// The check.
    pub fn check(&self) -> &Check {
        &self.check
    }

    /// Fate dice available.
    pub fn dice(&self) -> u32 {
        self.dice
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The same check and policy with another number of dice. With fewer
    /// dice the optimal decisions are read off this plan's table (a decision
    /// depends on the dice left, not on how many there were).
    pub fn with_dice(&self, dice: u32) -> Result<Self> {
        match &self.table {
            Some(table) if dice <= self.dice => {
                let (from, to) = (Layers { dice: self.dice }, Layers { dice });
                let table = (0..=dice)
                    .map(|left| {
                        to.states(left)
                            .map(|s| {
                                from.index(s)
                                    .map_or(Action::Stop, |i| table[left as usize][i])
                            })
                            .collect()
                    })
                    .collect();
                // The laws with fewer dice are the first ones of this
                // plan's (the decisions depend on the dice left only).
                let exact_laws = self
                    .exact_laws
                    .as_ref()
                    .map(|l| std::sync::Arc::new(l[..=dice as usize].to_vec()));
                Ok(FatePlan {
                    check: self.check.clone(),
                    dice,
                    policy: self.policy,
                    table: Some(table),
                    exact_laws,
                })
            }
            _ => Self::new(self.check.clone(), dice, self.policy),
        }
    }

    /// The same check and dice with another policy.
    pub fn with_policy(&self, policy: Policy) -> Result<Self> {
        Self::new(self.check.clone(), self.dice, policy)
    }

    /// The decision rule: what the policy does in state `s`. Always
    /// [`Action::Stop`] when the roll succeeds or no die is left; never
    /// [`Action::Boost`] on a natural 1. States the plan cannot reach (more
    /// dice left than it has, or more boost than its dice can give) get
    /// [`Action::Stop`].
    pub fn decide(&self, s: FateState) -> Action {
        let failing = !self.check.judge(s.face, s.boost).is_success();
        if !failing || s.dice_left == 0 {
            return Action::Stop;
        }
        match self.policy {
            Policy::None => Action::Stop,
            Policy::BoostOnly if s.face == 1 => Action::Stop,
            Policy::BoostOnly => Action::Boost,
            Policy::RerollOnly => Action::Reroll,
            Policy::Optimal => {
                let layers = Layers { dice: self.dice };
                match (&self.table, layers.index(s)) {
                    (Some(t), Some(i)) => t[s.dice_left as usize][i],
                    _ => Action::Stop,
                }
            }
        }
    }

    /// Dynamic programme over the states, from no die left upward. With a
    /// `table`, the optimal action of every failing state with dice left
    /// (the most P(success) of boost and reroll; a boost is never taken on
    /// a natural 1) is found and written there; without, the plan's
    /// [`FatePlan::decide`] picks it (and only the law it needs is made).
    /// Returns the tier law of a fresh check with `j` dice for every `j` in
    /// `0..=dice` (the last is the whole check's).
    fn solve<W: Weight>(&self, mut table: Option<&mut Vec<Vec<Action>>>) -> Vec<Law<W>> {
        let layers = Layers { dice: self.dice };
        let kept = self.check.side.roll.kept_law::<W>();
        // The law of a fresh roll with the layer's dice left.
        let fresh = |layer: &[Law<W>], left: u32| {
            mix(kept.iter().map(|(f, p)| {
                let s = FateState {
                    face: f as u32,
                    boost: 0,
                    dice_left: left,
                };
                let i = layers.index(s).unwrap_or(0);
                (p.clone(), &layer[i])
            }))
        };
        let mut below: Vec<Law<W>> = Vec::new();
        let mut reroll: Law<W> = Vec::new();
        let mut laws = Vec::with_capacity(self.dice as usize + 1);
        for left in 0..=self.dice {
            let mut layer = Vec::with_capacity(layers.len(left));
            for s in layers.states(left) {
                let tier = self.check.judge(s.face, s.boost);
                if tier.is_success() || left == 0 {
                    layer.push(certain(tier));
                    continue;
                }
                let boost = |below: &[Law<W>]| {
                    (s.face != 1).then(|| {
                        mix((1..=BOOST_SIDES as i64).map(|d| {
                            let next = FateState {
                                boost: s.boost + d,
                                dice_left: left - 1,
                                ..s
                            };
                            let i = layers.index(next).unwrap_or(0);
                            (W::ratio(1, BOOST_SIDES as i64), &below[i])
                        }))
                    })
                };
                let law = match table.as_deref_mut() {
                    Some(table) => {
                        let boost = boost(&below);
                        let mut best = (Action::Stop, W::zero());
                        for (a, law) in [
                            (Action::Boost, boost.as_ref()),
                            (Action::Reroll, Some(&reroll)),
                        ] {
                            if let Some(law) = law {
                                let p = law_success(law);
                                if p > best.1 {
                                    best = (a, p);
                                }
                            }
                        }
                        if let Some(i) = layers.index(s) {
                            table[left as usize][i] = best.0;
                        }
                        match best.0 {
                            Action::Stop => certain(tier),
                            Action::Boost => boost.unwrap_or_else(|| certain(tier)),
                            Action::Reroll => reroll.clone(),
                        }
                    }
                    None => match self.decide(s) {
                        Action::Stop => certain(tier),
                        Action::Boost => boost(&below).unwrap_or_else(|| certain(tier)),
                        Action::Reroll => reroll.clone(),
                    },
                };
                layer.push(law);
            }
            reroll = fresh(&layer, left);
            laws.push(reroll.clone());
            below = layer;
        }
        laws
    }

    /// The exact tier law of the check played by this plan.
    pub fn law<W: Weight>(&self) -> TierLaw<D20Tier, W> {
        if W::EXACT {
            if let Some(laws) = &self.exact_laws {
                if let Some(last) = laws.get(self.dice as usize) {
                    return TierLaw::new(
                        last.iter()
                            .map(|p| W::from_reduced(p.numer().clone(), p.denom().clone()))
                            .collect(),
                    );
                }
            }
        }
        TierLaw::new(self.solve::<W>(None).pop().unwrap_or_default())
    }

    /// Play the policy on faces in the order rolled: the first roll's d20s,
    /// then for each boost one d6 and for each reroll the d20s of a fresh
    /// roll. Faces beyond the end of the check are ignored.
    pub fn play(&self, faces: &[u32]) -> Step {
        let n = self.check.side.roll.dice();
        let mut pos = 0;
        // Read one roll's d20s at `pos` and keep the right one.
        let roll = |pos: &mut usize| -> std::result::Result<u32, Step> {
            let start = *pos;
            let Some(part) = faces.get(start..start + n) else {
                return Err(Step::Need(20));
            };
            let bad = part.iter().position(|f| !(1..=20).contains(f));
            let kept = self
                .check
                .side
                .roll
                .keep(part)
                .ok_or(Step::BadFace(start + bad.unwrap_or(0)))?;
            *pos = start + n;
            Ok(kept)
        };
        let mut state = match roll(&mut pos) {
            Ok(face) => FateState {
                face,
                boost: 0,
                dice_left: self.dice,
            },
            Err(step) => return step,
        };
        let (mut boosts, mut rerolls) = (0, 0);
        loop {
            match self.decide(state) {
                Action::Stop => {
                    return Step::Done(FateVerdict {
                        verdict: self.check.verdict(state.face, state.boost),
                        boosts,
                        rerolls,
                        faces_used: pos,
                    })
                }
                Action::Boost => {
                    let Some(&d) = faces.get(pos) else {
                        return Step::Need(BOOST_SIDES);
                    };
                    if !(1..=BOOST_SIDES).contains(&d) {
                        return Step::BadFace(pos);
                    }
                    pos += 1;
                    boosts += 1;
                    state.boost += i64::from(d);
                    state.dice_left -= 1;
                }
                Action::Reroll => {
                    state.face = match roll(&mut pos) {
                        Ok(face) => face,
                        Err(step) => return step,
                    };
                    rerolls += 1;
                    state.boost = 0;
                    state.dice_left -= 1;
                }
            }
        }
    }

    /// [`FatePlan::play`], `None` unless the faces complete the check.
    pub fn classify(&self, faces: &[u32]) -> Option<FateVerdict> {
        match self.play(faces) {
            Step::Done(v) => Some(v),
            Step::Need(_) | Step::BadFace(_) => None,
        }
    }
}

/// Report of a check against a DC, with fate dice when the plan has any.
pub fn check_report<W: Weight>(plan: &FatePlan) -> Result<Report<W>> {
    let check = &plan.check;
    let law = plan.law::<W>();
    let mut r = Report::from_tiers(ID, JA, &law).param("mode", "check");
    r = check
        .side
        .params(r, "")
        .param("dc", check.dc)
        .param("crit_on", check.crit_on)
        .param("fate", plan.dice)
        .param("policy", plan.policy.key())
        .prob("p_critical", law.p(D20Tier::Critical))
        .prob("p_fumble", law.p(D20Tier::Fumble))
        .field("total_modifier", Field::Int(check.side.total_modifier()))
        .field("threshold", Field::Int(check.threshold()));
    if check.crit_on < 20 {
        r = r.note(format!(
            "critical on a natural {} or more (--crit-on, as BCDice's AT@{})",
            check.crit_on, check.crit_on
        ));
    }
    if plan.dice > 0 {
        // Each policy's law once (an exact optimal plan is solved once, with
        // its laws for every number of dice).
        let optimal = match plan.policy {
            Policy::Optimal => plan.clone(),
            _ => plan.with_policy(Policy::Optimal)?,
        };
        let mut p_success = Vec::with_capacity(Policy::ALL.len());
        for &p in &Policy::ALL {
            p_success.push(if p == plan.policy {
                law.p_success()
            } else if p == Policy::Optimal {
                optimal.law::<W>().p_success()
            } else {
                plan.with_policy(p)?.law::<W>().p_success()
            });
        }
        let none = p_success[0].clone();
        let rows = Policy::ALL
            .iter()
            .zip(p_success)
            .map(|(&p, ps)| {
                vec![
                    ("policy".to_string(), Field::Text(p.key().to_string())),
                    ("p_success".to_string(), Field::Prob(ps.clone())),
                    ("worth".to_string(), Field::Prob(ps - &none)),
                ]
            })
            .collect::<Vec<_>>();
        let fewer = optimal.with_dice(plan.dice - 1)?;
        let worth = optimal.law::<W>().p_success() - &fewer.law::<W>().p_success();
        r = r
            .prob("p_success_without_fate", none)
            .field("policies", Field::Rows(rows))
            .field("worth_of_die", Field::Prob(worth))
            .note(
                "fate dice are spent only on a failed roll; boosts stack; a boosted \
                 success is not critical; a reroll is judged afresh and drops earlier boosts",
            );
    }
    Ok(r)
}

/// Report of a contest: `p_success` = `p_win`, and `p_win`, `p_tie`,
/// `p_loss` are after the tie rule, as in every other system (a tie given
/// to a side counts as its win; under `reroll` ties are rolled again until
/// someone wins). The chances of one roll of each side, before the tie rule,
/// are `p_win_roll`, `p_tie_roll`, `p_loss_roll`.
pub fn contest_report<W: Weight>(contest: &Contest) -> Report<W> {
    let c = contest.comparison::<W>();
    let after = c.with_tie_rule(contest.tie.rule());
    let mut r = Report::bare(ID, JA, after.win.clone()).param("mode", "contest");
    r = contest.active.params(r, "");
    r = contest
        .opposing
        .params(r, "vs_")
        .param("tie_rule", contest.tie.key())
        .prob("p_win", after.win.clone())
        .prob("p_tie", after.tie.clone())
        .prob("p_loss", after.loss.clone())
        .prob("p_win_roll", c.win.clone())
        .prob("p_tie_roll", c.tie.clone())
        .prob("p_loss_roll", c.loss.clone())
        .note("contest: totals compared; natural 20 and natural 1 have no effect");
    if contest.tie == TieBreak::Reroll {
        if let Some(e) = c.expected_rolls() {
            r = r.field("expected_rolls", Field::Value(e));
        }
    }
    r
}
