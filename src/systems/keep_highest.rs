//! `keep-highest` (seed 002, RULES.md §3): roll a few dice whose size comes
//! from an ability score and keep the highest.
//!
//! # The rule
//!
//! * The ability score (能力値) `v ≥ 1` sets the die size (ダイスサイズ):
//!   1–3 → d4 with the achieved value capped at `v`; 4–5 → d4; 6–7 → d6;
//!   8–9 → d8; 10–11 → d10; 12–19 → d12; 20 and up → d20 ([`Die::for_ability`]).
//!   The ladder of sizes is [`SIZE_LADDER`]; [`step_size`] moves a size up or
//!   down by steps (段階), as the seed's examples do.
//! * The number of dice `n ≥ 1` is 1, plus 1 if the base skill (基礎技能) is
//!   held, plus 1 for a combined specialty (専門技能); other effects may add
//!   more, so any `n ≥ 1` is accepted (at most [`MAX_DICE`]).
//! * The achieved value (達成値) `X` is the highest die (capped at `v` when
//!   `v ≤ 3`), so `P(X ≤ k) = (k/s)^n` ([`Pmf::max_of`]).
//! * Advantage (有利) rolls the whole pool twice and keeps the higher `X`;
//!   disadvantage (不利) keeps the lower. Any mix of the two cancels
//!   (相殺), whatever the counts ([`Situation::from_counts`]).
//! * Difficulty (難易度) `D` is 2..=20.
//!
//! Outcome tiers ([`Outcome`]), worst first:
//! * `fumble` (ファンブル): `X = 1`. With `v = 1` every roll fumbles; the
//!   report says so in a note.
//! * `failure` (失敗): `X < D`, not a fumble.
//! * `success` (成功): `X ≥ D`.
//! * `critical` (クリティカル): success, and the kept die shows its maximum
//!   face. For `v ≤ 3` (a capped d4) only a natural 4 counts, as the seed
//!   says (BCDice never gives one there; see `tests/peer_keep_highest.rs`).
//!
//! # Contest (対決)
//!
//! The active side (能動側) and the passive side (受動側) each roll with their
//! own ability, dice and advantage; there is no difficulty and no
//! success/failure in a contest roll. A passive side that cannot roll counts
//! as achieved value 0. The achieved values are compared; the seed's winning
//! conditions are cut off, so the report gives P(active higher), P(equal),
//! P(passive higher), and the tie rule is an option ([`TieRule`], default
//! `separate`: the tie is reported on its own). `p_critical` is P(the active
//! side wins — after the tie rule — and its kept die shows its maximum face),
//! the seed's "\[勝利\]している場合". `p_fumble` is P(active `X = 1`), reported
//! whatever the contest's result.
//!
//! # Decisions where the seed and RULES.md are silent
//!
//! * Which of two rolls is kept when advantage rolls tie on `X` (only
//!   possible to tell apart for a capped d4, where 4 and 3 both read 3 for
//!   `v = 3`): under advantage the roll showing the natural maximum, under
//!   disadvantage the other (RULES.md §3). Internally each roll gets a rank
//!   `2X + [natural max shown]`, and advantage keeps the higher rank,
//!   disadvantage the lower.
//! * A roll of no dice at all (BCDice accepts a dice count ≤ 0 and then rolls
//!   two dice keeping the lowest) is not supported: our rules require
//!   `n ≥ 1` and [`Pool::new`] rejects anything less.
//! * `classify` expects `n` faces (one roll), or `2n` with advantage or
//!   disadvantage (the first roll's `n` faces, then the second's).

use crate::contest::{self, compare, Comparison};
use crate::error::{check_min, check_range, Error, Result};
use crate::pmf::Pmf;
use crate::report::{Field, Report};
use crate::systems::dice::ast::{DieFaces, Filter, PoolTerm, Score};
use crate::tier::{Tier, TierLaw};
use crate::weight::Weight;

/// System id.
pub const ID: &str = "keep-highest";
/// The seed's name for a check.
pub const JA: &str = "判定";

/// Die sizes (ダイスサイズ) from smallest to largest.
pub const SIZE_LADDER: [u32; 6] = [4, 6, 8, 10, 12, 20];

/// Most dice one pool may roll (a sanity bound, far above any real pool).
pub const MAX_DICE: i64 = 1000;

/// The lowest and highest difficulty (難易度) the seed allows.
pub const DIFFICULTY_RANGE: (i64, i64) = (2, 20);

/// The size `steps` places up (positive) or down (negative) the ladder from
/// `sides`; `None` if `sides` is not on the ladder or the step leaves it.
pub fn step_size(sides: u32, steps: i32) -> Option<u32> {
    let at = SIZE_LADDER.iter().position(|&s| s == sides)?;
    let to = i64::try_from(at).ok()? + i64::from(steps);
    usize::try_from(to)
        .ok()
        .and_then(|i| SIZE_LADDER.get(i).copied())
}

/// The die an ability score rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Die {
    /// Number of faces.
    pub sides: u32,
    /// Cap on the achieved value (abilities 1–3), if any.
    pub cap: Option<u32>,
}

impl Die {
    /// The die for ability `v` (ダイスサイズ表).
    pub fn for_ability(v: u32) -> Die {
        let sides = match v {
            0..=5 => 4,
            6..=7 => 6,
            8..=9 => 8,
            10..=11 => 10,
            12..=19 => 12,
            _ => 20,
        };
        Die {
            sides,
            cap: (v <= 3).then_some(v),
        }
    }

    /// Highest achievable value.
    pub fn top(self) -> u32 {
        self.cap.unwrap_or(self.sides)
    }

    /// Achieved value read off one face.
    pub fn value(self, face: u32) -> u32 {
        face.min(self.top())
    }

    /// Order in which faces (and whole rolls) are kept: `2 × value`, plus 1
    /// when the face is the die's natural maximum. Monotone in the face.
    fn rank(self, face: u32) -> i64 {
        2 * i64::from(self.value(face)) + i64::from(face == self.sides)
    }
}

/// What a kept roll shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    /// Achieved value (達成値); 0 for a side that cannot roll.
    pub value: u32,
    /// Whether the kept die shows its natural maximum face.
    pub natural_max: bool,
}

impl Kept {
    fn from_rank(rank: i64) -> Kept {
        Kept {
            value: u32::try_from(rank / 2).unwrap_or(0),
            natural_max: rank % 2 == 1,
        }
    }

    /// The law of the achieved value read off a law of ranks.
    fn values<W: Weight>(ranks: &Pmf<W>) -> Pmf<W> {
        ranks.map(|r| r / 2)
    }
}

/// Advantage (有利) or disadvantage (不利).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Situation {
    /// Neither (default), or both cancelled.
    #[default]
    Normal,
    /// Roll the pool twice, keep the higher achieved value.
    Advantage,
    /// Roll the pool twice, keep the lower achieved value.
    Disadvantage,
}

impl Situation {
    /// From the number of advantages and disadvantages gained: any mix
    /// cancels to [`Situation::Normal`] whatever the counts (相殺).
    pub fn from_counts(advantages: u32, disadvantages: u32) -> Situation {
        match (advantages > 0, disadvantages > 0) {
            (true, false) => Situation::Advantage,
            (false, true) => Situation::Disadvantage,
            _ => Situation::Normal,
        }
    }

    /// Stable key for reports.
    pub fn key(self) -> &'static str {
        match self {
            Situation::Normal => "none",
            Situation::Advantage => "advantage",
            Situation::Disadvantage => "disadvantage",
        }
    }

    fn rolls(self) -> usize {
        match self {
            Situation::Normal => 1,
            _ => 2,
        }
    }
}

/// One side's roll: ability, number of dice, advantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool {
    ability: u32,
    dice: u32,
    situation: Situation,
}

impl Pool {
    /// A validated pool: `ability ≥ 1`, `1 ≤ dice ≤` [`MAX_DICE`]. Errors
    /// name `--ability` and `--dice`.
    pub fn new(ability: i64, dice: i64, situation: Situation) -> Result<Pool> {
        Self::build("--", ability, dice, situation)
    }

    /// As [`Pool::new`] for the passive side of a contest: errors name
    /// `--vs-ability` and `--vs-dice`.
    pub fn new_vs(ability: i64, dice: i64, situation: Situation) -> Result<Pool> {
        Self::build("--vs-", ability, dice, situation)
    }

    fn build(prefix: &str, ability: i64, dice: i64, situation: Situation) -> Result<Pool> {
        // The flags are named only when an error needs them.
        if ability < 1 {
            check_min(&format!("{prefix}ability"), ability, 1)?;
        }
        if dice < 1 {
            check_min(&format!("{prefix}dice"), dice, 1)?;
        }
        if dice > MAX_DICE {
            return Err(Error::param(
                &format!("{prefix}dice"),
                dice,
                format!("must be at most {MAX_DICE}"),
            ));
        }
        Ok(Pool {
            ability: u32::try_from(ability).unwrap_or(u32::MAX),
            dice: u32::try_from(dice).unwrap_or(1),
            situation,
        })
    }

    /// Ability score.
    pub fn ability(&self) -> u32 {
        self.ability
    }

    /// Number of dice in one roll.
    pub fn dice(&self) -> u32 {
        self.dice
    }

    /// Advantage or disadvantage.
    pub fn situation(&self) -> Situation {
        self.situation
    }

    /// The die rolled.
    pub fn die(&self) -> Die {
        Die::for_ability(self.ability)
    }

    /// How many faces one check rolls (`n`, or `2n` with advantage or
    /// disadvantage).
    pub fn faces_rolled(&self) -> usize {
        self.dice as usize * self.situation.rolls()
    }

    /// Read the kept roll off `faces` (see the module doc for their order).
    /// No faces at all reads as value 0.
    pub fn read(&self, faces: &[u32]) -> Kept {
        let die = self.die();
        let roll_rank = |roll: &[u32]| roll.iter().map(|&f| die.rank(f)).max().unwrap_or(0);
        let rank = match self.situation {
            Situation::Normal => roll_rank(faces),
            Situation::Advantage => faces
                .chunks(self.dice as usize)
                .map(roll_rank)
                .max()
                .unwrap_or(0),
            Situation::Disadvantage => faces
                .chunks(self.dice as usize)
                .map(roll_rank)
                .min()
                .unwrap_or(0),
        };
        Kept::from_rank(rank)
    }

    /// One roll of the pool as a dice program: `n` dice whose faces read
    /// as their ranks (`2X + [natural max]`), keeping the
    /// highest: `nD{2,4,…,2s+1}KH1` (a capped d4 for `v = 3`:
    /// `nD{2,4,6,7}KH1`). With advantage the higher of two rolls is the
    /// highest of `2n` dice: `2nD{…}KH1`.
    pub fn program(&self) -> PoolTerm {
        let die = self.die();
        let ranks = (1..=die.sides).map(|f| Score::num(die.rank(f))).collect();
        let dice = match self.situation {
            Situation::Advantage => 2 * self.dice,
            _ => self.dice,
        };
        PoolTerm::plain(
            i64::from(dice),
            DieFaces::Custom(ranks),
            Some((Filter::KeepHighest, 1)),
        )
    }

    /// Exact law of the kept roll's rank (`2X + [natural max]`): the law
    /// of [`Pool::program`], by the algorithm the dice planner chooses for
    /// it (the extreme by a power of the distribution function: `P(rank ≤
    /// r) = (c/s)ⁿ`, `c(r)` the faces of rank ≤ `r` out of `s`, each power
    /// correctly rounded). Disadvantage keeps the lower of two such rolls
    /// ([`Pmf::min_of`]).
    fn kept_rank<W: Weight>(&self) -> Pmf<W> {
        // At most MAX_DICE dice of at most 20 faces: far inside the
        // planner's limits, exact ones included (tested at MAX_DICE).
        let roll = crate::systems::dice::law::term(&self.program())
            .expect("a keep-highest pool is within the dice planner's limits");
        match self.situation {
            Situation::Disadvantage => roll.min_of(2),
            _ => roll,
        }
    }

    /// Exact law of the achieved value `X` (達成値).
    pub fn achieved<W: Weight>(&self) -> Pmf<W> {
        Kept::values(&self.kept_rank())
    }

    /// The report parameters of this pool, names prefixed by `prefix`.
    fn params<W: Weight>(&self, report: Report<W>, prefix: &str) -> Report<W> {
        let die = self.die();
        report
            .param(&format!("{prefix}ability"), self.ability)
            .param(&format!("{prefix}die"), format!("d{}", die.sides))
            .param(&format!("{prefix}cap"), die.cap)
            .param(&format!("{prefix}dice"), self.dice)
            .param(&format!("{prefix}advantage"), self.situation.key())
    }

    /// Notes a designer should see about this pool.
    fn notes(&self, side: &str) -> Vec<String> {
        let mut notes = Vec::new();
        if self.ability == 1 {
            notes.push(format!(
                "{side}ability 1: the achieved value is capped at 1, so every roll is a fumble (ファンブル)"
            ));
        } else if let Some(cap) = self.die().cap {
            notes.push(format!(
                "{side}ability {cap} rolls d4 with the achieved value capped at {cap}; only a natural 4 is critical (seed 002)"
            ));
        }
        notes
    }
}

/// A check: a pool against a difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The roll.
    pub pool: Pool,
    difficulty: u32,
}

impl Check {
    /// A validated check: `difficulty` in 2..=20 (error names `--difficulty`).
    pub fn new(pool: Pool, difficulty: i64) -> Result<Check> {
        let (lo, hi) = DIFFICULTY_RANGE;
        check_range("--difficulty", difficulty, lo, hi)?;
        Ok(Check {
            pool,
            difficulty: u32::try_from(difficulty).unwrap_or(2),
        })
    }

    /// Difficulty (難易度).
    pub fn difficulty(&self) -> u32 {
        self.difficulty
    }

    /// The plain rule on one set of faces (`n`, or `2n` with advantage or
    /// disadvantage, in the order rolled; each in `1..=sides`).
    pub fn classify(&self, faces: &[u32]) -> Roll {
        let kept = self.pool.read(faces);
        Roll {
            kept,
            tier: self.judge(kept),
        }
    }

    fn judge(&self, kept: Kept) -> Outcome {
        if kept.value == 1 {
            Outcome::Fumble
        } else if kept.value < self.difficulty {
            Outcome::Failure
        } else if kept.natural_max {
            Outcome::Critical
        } else {
            Outcome::Success
        }
    }

    /// Exact law of the tiers.
    pub fn law<W: Weight>(&self) -> TierLaw<Outcome, W> {
        self.law_of(&self.pool.kept_rank::<W>())
    }

    /// The tiers of the kept roll's rank law `ranks`.
    fn law_of<W: Weight>(&self, ranks: &Pmf<W>) -> TierLaw<Outcome, W> {
        TierLaw::from_pairs(
            ranks
                .iter()
                .map(|(r, p)| (self.judge(Kept::from_rank(r)), p.clone())),
        )
    }
}

/// One classified check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The kept roll.
    pub kept: Kept,
    /// Its tier.
    pub tier: Outcome,
}

/// Outcome tiers, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Achieved value 1 (ファンブル).
    Fumble,
    /// Below the difficulty (失敗).
    Failure,
    /// At least the difficulty (成功).
    Success,
    /// Success with the kept die on its natural maximum (クリティカル).
    Critical,
}

impl Tier for Outcome {
    const ALL: &'static [Self] = &[
        Outcome::Fumble,
        Outcome::Failure,
        Outcome::Success,
        Outcome::Critical,
    ];
    fn key(self) -> &'static str {
        match self {
            Outcome::Fumble => "fumble",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::Critical => "critical",
        }
    }
    fn en(self) -> &'static str {
        match self {
            Outcome::Fumble => "fumble",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::Critical => "critical",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            Outcome::Fumble => "ファンブル",
            Outcome::Failure => "失敗",
            Outcome::Success => "成功",
            Outcome::Critical => "クリティカル",
        }
    }
    fn is_success(self) -> bool {
        self >= Outcome::Success
    }
}

/// The headline probabilities of a check.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds<W> {
    /// P(success or critical).
    pub p_success: W,
    /// P(critical).
    pub p_critical: W,
    /// P(fumble).
    pub p_fumble: W,
}

/// P(success), P(critical), P(fumble) of a check: cheap (a few dozen
/// operations on at most 41 outcomes), for sweeps.
pub fn odds<W: Weight>(check: &Check) -> Odds<W> {
    let law = check.law::<W>();
    Odds {
        p_success: law.p_success(),
        p_critical: law.p(Outcome::Critical),
        p_fumble: law.p(Outcome::Fumble),
    }
}

/// [`Odds`] at every difficulty 2..=20 for one pool, from one law of the
/// kept roll and its suffix sums: the cheap path for grids
/// (`result[d - 2]` is difficulty `d`).
// Not inlined: a caller's loop over pools (a grid, the peers bench) ran
// 10 % slower with this body inlined into it (measured, 2026-11-27).
#[inline(never)]
pub fn odds_by_difficulty<W: Weight>(pool: &Pool) -> Vec<Odds<W>> {
    let ranks = pool.kept_rank::<W>();
    let (lo, hi) = DIFFICULTY_RANGE;
    // at_least[v] = P(X ≥ v), crit_at_least[v] = P(X ≥ v and natural max),
    // for v in 0..=hi + 1 (X never exceeds 20).
    let top = hi as usize + 1;
    let mut at_least = vec![W::zero(); top + 2];
    let mut crit_at_least = vec![W::zero(); top + 2];
    let mut fumble = W::zero();
    for (r, p) in ranks.iter() {
        let kept = Kept::from_rank(r);
        let v = (kept.value as usize).min(top);
        at_least[v] += p;
        if kept.natural_max {
            crit_at_least[v] += p;
        }
        if kept.value == 1 {
            fumble += p;
        }
    }
    for v in (0..=top).rev() {
        let (a, c) = (at_least[v + 1].clone(), crit_at_least[v + 1].clone());
        at_least[v] += &a;
        crit_at_least[v] += &c;
    }
    (lo..=hi)
        .map(|d| {
            let d = d as usize;
            Odds {
                p_success: at_least[d].clone(),
                p_critical: crit_at_least[d].clone(),
                p_fumble: fumble.clone(),
            }
        })
        .collect()
}

/// `P(X = k)` for `k = 0, 1, …, max`.
fn by_value<W: Weight>(x: &Pmf<W>) -> Vec<W> {
    (0..=x.max()).map(|k| x.p(k)).collect()
}

/// The report of a check: tiers, `p_critical`, `p_fumble`, `achieved`.
pub fn report<W: Weight>(check: &Check) -> Report<W> {
    // One law of the kept roll: the tiers and the achieved values.
    let ranks = check.pool.kept_rank::<W>();
    let law = check.law_of(&ranks);
    let top = check.pool.die().top();
    let mut r = check
        .pool
        .params(Report::from_tiers(ID, JA, &law), "")
        .param("difficulty", check.difficulty)
        .prob("p_critical", law.p(Outcome::Critical))
        .prob("p_fumble", law.p(Outcome::Fumble))
        .field("achieved", Field::Probs(by_value(&Kept::values(&ranks))));
    for n in check.pool.notes("") {
        r = r.note(n);
    }
    if top < check.difficulty {
        r = r.note(format!(
            "difficulty {} is above the highest achievable value {top}: success is impossible",
            check.difficulty
        ));
    }
    r
}

/// Who takes a tied contest, by the values every system accepts
/// (`tie`, `attacker`, `defender`, `reroll`); this system's first names
/// `separate`, `active`, `passive` are aliases, and what reports print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TieRule {
    /// Report the tie on its own (default; the seed's rule is cut off).
    #[default]
    #[value(name = "tie", alias = "separate")]
    Separate,
    /// The active side (能動側) wins ties.
    #[value(name = "attacker", alias = "active")]
    Active,
    /// The passive side (受動側) wins ties.
    #[value(name = "defender", alias = "passive")]
    Passive,
    /// Both roll again until the achieved values differ; every contest
    /// field is then that of the roll that decides.
    Reroll,
}

impl TieRule {
    /// Stable key for reports (the names reports have always printed).
    pub fn key(self) -> &'static str {
        match self {
            TieRule::Separate => "separate",
            TieRule::Active => "active",
            TieRule::Passive => "passive",
            TieRule::Reroll => "reroll",
        }
    }

    fn core(self) -> contest::TieRule {
        match self {
            TieRule::Separate => contest::TieRule::Separate,
            TieRule::Active => contest::TieRule::First,
            TieRule::Passive => contest::TieRule::Second,
            TieRule::Reroll => contest::TieRule::Reroll,
        }
    }
}

/// A contest (対決): active against passive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contest {
    /// The active side (能動側).
    pub active: Pool,
    /// The passive side (受動側); `None` if it cannot roll (achieved 0).
    pub passive: Option<Pool>,
    /// Who takes a tie.
    pub tie_rule: TieRule,
}

/// The result of one contest, after the tie rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContestResult {
    /// The passive side wins.
    Loss,
    /// Equal achieved values under the `separate` tie rule (under
    /// `reroll`: this round is rolled again).
    Tie,
    /// The active side wins.
    Win,
}

impl Tier for ContestResult {
    const ALL: &'static [Self] = &[ContestResult::Loss, ContestResult::Tie, ContestResult::Win];
    fn key(self) -> &'static str {
        match self {
            ContestResult::Loss => "loss",
            ContestResult::Tie => "tie",
            ContestResult::Win => "win",
        }
    }
    fn en(self) -> &'static str {
        match self {
            ContestResult::Loss => "passive wins",
            ContestResult::Tie => "tie",
            ContestResult::Win => "active wins",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            ContestResult::Loss => "敗北",
            ContestResult::Tie => "引き分け",
            ContestResult::Win => "勝利",
        }
    }
    fn is_success(self) -> bool {
        self == ContestResult::Win
    }
}

/// One classified contest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContestRoll {
    /// The active side's kept roll.
    pub active: Kept,
    /// The passive side's kept roll (value 0 if it cannot roll).
    pub passive: Kept,
    /// Who won.
    pub result: ContestResult,
    /// Active win with the kept die on its natural maximum (クリティカル).
    pub critical: bool,
}

impl Contest {
    /// The plain rule: `active_faces` as for [`Check::classify`],
    /// `passive_faces` likewise (ignored if the passive side cannot roll).
    pub fn classify(&self, active_faces: &[u32], passive_faces: &[u32]) -> ContestRoll {
        let active = self.active.read(active_faces);
        let passive = self.passive.map_or(
            Kept {
                value: 0,
                natural_max: false,
            },
            |p| p.read(passive_faces),
        );
        let result = match (active.value.cmp(&passive.value), self.tie_rule) {
            (std::cmp::Ordering::Greater, _) | (std::cmp::Ordering::Equal, TieRule::Active) => {
                ContestResult::Win
            }
            (std::cmp::Ordering::Equal, TieRule::Separate | TieRule::Reroll) => ContestResult::Tie,
            _ => ContestResult::Loss,
        };
        ContestRoll {
            active,
            passive,
            result,
            critical: result == ContestResult::Win && active.natural_max,
        }
    }

    fn passive_achieved<W: Weight>(&self) -> Pmf<W> {
        self.passive.map_or(Pmf::point(0), |p| p.achieved())
    }

    /// Exact P(win), P(tie), P(loss) after the tie rule.
    pub fn comparison<W: Weight>(&self) -> Comparison<W> {
        compare(&self.active.achieved(), &self.passive_achieved())
            .with_tie_rule(self.tie_rule.core())
    }

    /// One roll's P(win), P(tie), P(loss), before the tie rule.
    fn one_roll<W: Weight>(&self) -> Comparison<W> {
        compare(&self.active.achieved(), &self.passive_achieved())
    }

    /// Exact P(the active side wins and its kept die shows its maximum);
    /// under `reroll`, of the roll that decides.
    pub fn p_critical<W: Weight>(&self) -> W {
        let rank = self.active.kept_rank::<W>();
        let natural_max = |r: i64| r % 2 == 1;
        match rank.condition(natural_max) {
            None => W::zero(),
            Some(given) => {
                let c = compare(&Kept::values(&given), &self.passive_achieved());
                if self.tie_rule == TieRule::Reroll {
                    // A critical is a strict win: no tie produces it.
                    self.one_roll::<W>()
                        .decisive(contest::TieRule::Reroll, rank.prob(natural_max) * &c.win)
                } else {
                    rank.prob(natural_max) * &c.with_tie_rule(self.tie_rule.core()).win
                }
            }
        }
    }

    /// P(the active side's achieved value is 1, a fumble); under `reroll`,
    /// of the roll that decides (a fumble against a passive 1 is a tie,
    /// rolled again).
    pub fn p_fumble<W: Weight>(&self) -> W {
        let one = self.active.achieved::<W>().p(1);
        if self.tie_rule != TieRule::Reroll {
            return one;
        }
        let tied = one.clone() * &self.passive_achieved::<W>().p(1);
        self.one_roll::<W>()
            .decisive(contest::TieRule::Reroll, one - &tied)
    }
}

/// The report of a contest: outcomes `loss`/`tie`/`win` (after the tie
/// rule), `p_win`, `p_tie`, `p_loss`, `p_critical`, `p_fumble` (active),
/// `achieved` and `vs_achieved`; `p_success` = `p_win`.
pub fn contest_report<W: Weight>(contest: &Contest) -> Report<W> {
    let c = contest.comparison::<W>();
    let law = TierLaw::<ContestResult, W>::new(vec![c.loss.clone(), c.tie.clone(), c.win.clone()]);
    let mut r = contest
        .active
        .params(Report::from_tiers(ID, "対決", &law), "");
    r = match &contest.passive {
        Some(p) => p.params(r, "vs_"),
        None => r,
    };
    let active_x = contest.active.achieved::<W>();
    let mut r = r
        .param("vs_cannot_roll", contest.passive.is_none())
        .param("tie_rule", contest.tie_rule.key())
        .prob("p_win", c.win)
        .prob("p_tie", c.tie)
        .prob("p_loss", c.loss)
        .prob("p_critical", contest.p_critical())
        .prob("p_fumble", contest.p_fumble())
        .field("achieved", Field::Probs(by_value(&active_x)))
        .field(
            "vs_achieved",
            Field::Probs(by_value(&contest.passive_achieved())),
        );
    if contest.tie_rule == TieRule::Reroll {
        if let Some(e) = contest.one_roll::<W>().expected_rolls() {
            r = r.field("expected_rolls", Field::Value(e));
        }
    }
    let mut notes = contest.active.notes("active ");
    if contest.tie_rule == TieRule::Reroll {
        notes.push(
            "ties are rolled again: p_win, p_loss, p_critical and p_fumble are those of the \
             roll that decides; achieved and vs_achieved are one roll's"
                .into(),
        );
    }
    match &contest.passive {
        Some(p) => notes.extend(p.notes("passive ")),
        None => notes.push("the passive side cannot roll: its achieved value is 0".into()),
    }
    for n in notes {
        r = r.note(n);
    }
    r
}
