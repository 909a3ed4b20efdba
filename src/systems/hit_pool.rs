//! `hit-pool` — ダイス・プール判定 (seed 004, Shadowrun 4th edition rules).
//!
//! # The rule
//!
//! Roll a dice pool (ダイス・プール) of `n` six-sided dice, `n` = attribute +
//! skill + modifiers (no skill, デフォルティング: attribute − 1 + modifiers).
//! Every die showing 5 or 6 is a hit (Hit). Every die showing 1 is a one.
//!
//! * Glitch (グリッチ, 事故): half or more of the dice rolled show 1
//!   (`2 × ones ≥ dice`). Option [`GlitchRule`]: `half-or-more` (default, the
//!   seed's and Shadowrun 4's rule) or `more-than-half` (Shadowrun 5,
//!   `2 × ones > dice`).
//! * Critical glitch (クリティカル・グリッチ): a glitch with no hit at all.
//! * Success test (成功テスト): success iff hits ≥ threshold `t` (基準値);
//!   net hits (差し引きHit) = hits − t; critical success (決定的成功) iff net
//!   hits ≥ 4.
//! * Tiers, worst first ([`Outcome`]): `critical_glitch` (whatever the
//!   threshold), `failure`, `success`, `critical_success`. A non-critical
//!   glitch does not change the tier; it is reported as `p_glitch` (every
//!   glitch, critical ones included) next to `p_critical_glitch`.
//! * Buying hits (成功数の購入, [`Check::Buy`]): `floor(n/4)` hits, no roll,
//!   no glitch.
//! * Limit (option, Shadowrun 5): hits above the limit are cut after the
//!   glitch (and the critical glitch, on the raw hits) has been judged. A
//!   roll pushed with Edge (`push`, `push-after`) ignores the limit
//!   (Shadowrun 5's "Push the Limit"; option `edge_limit = apply` keeps it,
//!   the strict reading). Second chance and negate-glitch keep the limit.
//! * Opposed test (対抗テスト, [`Check::Opposed`]): net = hits_A − hits_B;
//!   P(A>B), P(tie), P(A<B) with a tie rule (default `defender`: ties go to
//!   the defender). `p_critical` there is P(net ≥ 4); under `reroll` every
//!   contest field (`p_win`, `p_loss`, `p_critical`) is that of the roll
//!   that decides the test, while the glitch fields and the hit laws stay
//!   those of one roll of each pool.
//! * Extended test (連続テスト, [`Check::Extended`]): roll again and again,
//!   summing hits, until the sum reaches the threshold; at most `max_rolls`
//!   rolls (default: the pool size, as the seed suggests). Option `shrink`
//!   (Shadowrun 5): one die fewer per roll after the first. Option
//!   `critical_glitch_ends`: a critical glitch fails the whole test.
//! * Teamwork (協力テスト): each helper rolls its own pool first; each hit adds
//!   one die to the leader's pool, optionally capped at the leader's skill
//!   (`team_cap`). Helpers' glitches do not affect the leader (the seed says
//!   nothing about them). The law is the exact mixture over the added dice.
//! * Edge (エッジ, one use per test, [`EdgeUse`]):
//!   - `push`: add Edge dice before the roll; every six explodes (6のルール: a
//!     six rolls one more die, which can explode again);
//!   - `push-after`: add Edge dice after the roll; only those dice explode;
//!   - `second-chance`: reroll every die that is not a hit, once;
//!   - `negate-glitch` (事故を無効にする): the glitch is cancelled. Option
//!     [`NegatedCritical`]: a critical glitch is cancelled too (`cancel`,
//!     default, the seed: the accident is negated) or only downgraded to a
//!     plain glitch (`downgrade`, Shadowrun 4A).
//!   - long shot (大穴テスト): a pool ≤ 0 can roll only with Edge: with `push`
//!     or `push-after`, the Edge dice alone are rolled and sixes explode.
//!
//! # Decisions where the texts are silent
//!
//! * Pool ≤ 0 without a long shot (no Edge, or `second-chance` /
//!   `negate-glitch`): no roll is possible; the test fails (`failure` with
//!   probability 1, even at threshold 0), 0 hits, no glitch; the report says
//!   so in a note. In a contest such a side has 0 hits.
//! * Teamwork: the leader's pool after the helpers' dice decides whether a
//!   roll is possible; Edge applies to the leader's roll.
//! * `--edge` without `--edge-use` means `push`.
//! * Exploding dice and glitches ([`ExplodeGlitch`]): `all-dice` (default:
//!   the ones among every die rolled against the number of dice rolled),
//!   `original-pool` (ones among every die against the dice of the first
//!   roll, Edge dice included), `bcdice` (BCDice: ones of the first roll only
//!   against every die rolled). With `push-after` the first roll is the pool
//!   plus the Edge dice.
//! * `second-chance`: the glitch is judged on the final dice (kept hits and
//!   rerolls), against the pool size.
//! * Exploding dice are unbounded. The exact law is cut where the hits of the
//!   exploding dice exceed a cap `H` (every explosion comes from a six, a hit,
//!   so this also bounds the explosions), with `H` the smallest cap whose
//!   dropped mass is at most `tail_eps` (default 1e-15). The dropped mass is
//!   reported exactly as `tail_mass`; every other probability is that of the
//!   truncated law (they sum to 1 − `tail_mass`).
//! * Extended tests take no Edge and no helpers (Edge is one use per test),
//!   and the threshold is the target; `--buy` takes no Edge, helpers,
//!   contest or extended test.
//!
//! # Exact laws
//!
//! Plain and second-chance dice (no exploding dice) take a closed form in
//! O(n): hits are `Bin(n, p_hit)` and, given `h` hits, the ones are
//! `Bin(n − h, q)`, so P(h hits, glitch) is a binomial term times a binomial
//! tail; all tails come from one recurrence in `n − h` ([`plain_pool`]).
//! A pool pushed with Edge (all dice explode) under `all-dice` or
//! `original-pool` takes a closed form in O(n·H) (`H` the cap on hits):
//! exactly `n` dice are non-sixes, uniform on 1..=5, and the number of
//! sixes follows the hitting-time theorem ([`pushed_pool`]). Every long
//! product is carried with its binary exponent apart, so nothing underflows
//! on the way: a pool of 100,000 dice has its law, with P(0 hits) =
//! (2/3)^100000 correctly 0. Other layouts (Edge dice added after the roll,
//! the `bcdice` convention) use [`Joint`], the dense joint law of (hits,
//! glitch score), the score being `2 × ones counted − dice counted` (so a
//! glitch is `score ≥ 0`, or `> 0`): exploding dice are added one at a
//! time, the chain of explosions summed by a geometric recurrence (cost
//! linear in the table per die), and [`roll_law`] collapses it into hits ×
//! glitch status. [`all_pools`] gives every plain pool `1..=max` at once,
//! each from the one before (O(max²)). Exact mode runs the same code on
//! fractions: pool 20 + Edge 4 pushed in well under 0.1 s.
//!
//! # Rolling order (for [`classify`] and samplers)
//!
//! Faces are given in the order rolled: each helper's pool, then the leader's
//! plain dice (the pool, or nothing with `push`), then the exploding first
//! roll (the Edge dice; the pool plus Edge with `push`), then one more die per
//! six of the previous exploding group, group by group (BCDice's order). With
//! `second-chance`, the pool's faces are followed by one reroll per non-hit,
//! in order. [`dice_needed`] says how many more dice a partial roll needs.

use crate::contest::{compare, Comparison, TieRule};
use crate::error::{check_min, check_range, Error, Result};
use crate::extended;
use crate::pmf::Pmf;
use crate::report::{Field, Report};
use crate::systems::dice::pool::plan;
use crate::tier::{Tier, TierLaw};
use crate::weight::Weight;

/// System id.
pub const ID: &str = "hit-pool";
/// Japanese name of the check.
pub const NAME_JA: &str = "ダイス・プール判定";
/// Net hits needed for a critical success (決定的成功).
pub const CRITICAL_NET_HITS: u32 = 4;
/// Smallest pool accepted.
pub const POOL_MIN: i64 = -100;
/// Largest pool accepted.
pub const POOL_MAX: i64 = 300;
/// Largest Edge accepted.
pub const EDGE_MAX: i64 = 50;
/// Largest threshold or limit accepted.
pub const HITS_MAX: i64 = 1000;
/// Default `tail_eps` for exploding dice.
pub const DEFAULT_TAIL_EPS: f64 = 1e-15;

// ---------------------------------------------------------------------------
// Options and tiers

/// Outcome of a success test, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Glitch with no hit (クリティカル・グリッチ).
    CriticalGlitch,
    /// Hits below the threshold, or no roll possible (失敗).
    Failure,
    /// Hits ≥ threshold, net hits < 4 (成功).
    Success,
    /// Net hits ≥ 4 (決定的成功).
    CriticalSuccess,
}

impl Tier for Outcome {
    const ALL: &'static [Self] = &[
        Outcome::CriticalGlitch,
        Outcome::Failure,
        Outcome::Success,
        Outcome::CriticalSuccess,
    ];
    fn key(self) -> &'static str {
        match self {
            Outcome::CriticalGlitch => "critical_glitch",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::CriticalSuccess => "critical_success",
        }
    }
    fn en(self) -> &'static str {
        match self {
            Outcome::CriticalGlitch => "critical glitch",
            Outcome::Failure => "failure",
            Outcome::Success => "success",
            Outcome::CriticalSuccess => "critical success",
        }
    }
    fn ja(self) -> &'static str {
        match self {
            Outcome::CriticalGlitch => "クリティカル・グリッチ",
            Outcome::Failure => "失敗",
            Outcome::Success => "成功",
            Outcome::CriticalSuccess => "決定的成功",
        }
    }
    fn is_success(self) -> bool {
        matches!(self, Outcome::Success | Outcome::CriticalSuccess)
    }
}

/// When ones make a glitch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GlitchRule {
    /// `2 × ones ≥ dice` (seed, Shadowrun 4).
    #[default]
    HalfOrMore,
    /// `2 × ones > dice` (Shadowrun 5).
    MoreThanHalf,
}

/// How ones are counted when dice explode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplodeGlitch {
    /// Ones among all dice rolled, against the number of dice rolled.
    #[default]
    AllDice,
    /// Ones among all dice rolled, against the dice of the first roll.
    OriginalPool,
    /// BCDice: ones of the first roll only, against every die rolled.
    Bcdice,
}

/// Whether a limit holds for a roll pushed with Edge (`push`, `push-after`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum EdgeLimit {
    /// Pushed dice ignore the limit (Shadowrun 5, "Push the Limit"; default).
    #[default]
    Ignore,
    /// The limit holds for a pushed roll too (the strict reading).
    Apply,
}

/// How an Edge point is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum EdgeUse {
    /// Add Edge dice before the roll; all sixes explode.
    #[default]
    Push,
    /// Add Edge dice after the roll; only those sixes explode.
    PushAfter,
    /// Reroll every non-hit once.
    SecondChance,
    /// Cancel the glitch (事故を無効にする).
    NegateGlitch,
}

/// What `negate-glitch` does to a critical glitch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum NegatedCritical {
    /// Cancelled like any glitch (the seed).
    #[default]
    Cancel,
    /// Downgraded to a plain glitch (Shadowrun 4A).
    Downgrade,
}

/// Who takes a tie in an opposed test: the values every system accepts
/// (attacker, defender, reroll, tie; `active`, `passive` and `separate` as
/// aliases).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TieRuleOpt {
    /// The defender (Shadowrun).
    #[default]
    #[value(alias = "passive")]
    Defender,
    /// The attacker.
    #[value(alias = "active")]
    Attacker,
    /// Roll again until someone wins.
    Reroll,
    /// Report ties separately.
    #[value(name = "tie", alias = "separate")]
    Separate,
}

impl TieRuleOpt {
    /// The name reports print (`separate` for ties that stand, as they
    /// always have).
    pub fn key(self) -> &'static str {
        match self {
            TieRuleOpt::Defender => "defender",
            TieRuleOpt::Attacker => "attacker",
            TieRuleOpt::Reroll => "reroll",
            TieRuleOpt::Separate => "separate",
        }
    }

    fn rule(self) -> TieRule {
        match self {
            TieRuleOpt::Defender => TieRule::Second,
            TieRuleOpt::Attacker => TieRule::First,
            TieRuleOpt::Reroll => TieRule::Reroll,
            TieRuleOpt::Separate => TieRule::Separate,
        }
    }
}

/// Glitch status of one roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Glitch {
    /// No glitch.
    None = 0,
    /// A glitch (グリッチ) that is not critical.
    Glitch = 1,
    /// A critical glitch (クリティカル・グリッチ).
    Critical = 2,
}

fn option_name<T: clap::ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------
// Parameters

/// An Edge use with its number of dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Edge rating (dice added by `push` / `push-after` and the long shot).
    pub dice: u32,
    /// How the point is used.
    pub use_: EdgeUse,
}

/// One side's roll: pool, options, Edge, helpers.
#[derive(Clone, Debug, PartialEq)]
pub struct Roll {
    /// Pool `n` (attribute + skill + modifiers); may be ≤ 0.
    pub pool: i64,
    /// Hits above this are cut (after the glitch is judged).
    pub limit: Option<u32>,
    /// When ones make a glitch.
    pub glitch_rule: GlitchRule,
    /// How ones are counted when dice explode.
    pub explode_glitch: ExplodeGlitch,
    /// What `negate-glitch` does to a critical glitch.
    pub negated_critical: NegatedCritical,
    /// Edge use, if any.
    pub edge: Option<Edge>,
    /// Helpers' pools (teamwork), rolled before the leader.
    pub helpers: Vec<i64>,
    /// Cap on the dice helpers add (the leader's skill).
    pub team_cap: Option<u32>,
    /// Largest dropped mass allowed when dice explode.
    pub tail_eps: f64,
    /// Whether the limit holds when Edge pushes the roll.
    pub edge_limit: EdgeLimit,
}

impl Roll {
    /// A plain roll of `pool` dice with every option at its default.
    pub fn new(pool: i64) -> Result<Self> {
        check_range("--pool", pool, POOL_MIN, POOL_MAX)?;
        Ok(Roll {
            pool,
            limit: None,
            glitch_rule: GlitchRule::default(),
            explode_glitch: ExplodeGlitch::default(),
            negated_critical: NegatedCritical::default(),
            edge: None,
            helpers: Vec::new(),
            team_cap: None,
            tail_eps: DEFAULT_TAIL_EPS,
            edge_limit: EdgeLimit::default(),
        })
    }

    /// A roll with every option at its default but the glitch rule (the
    /// pool is given by a layout, not by `pool`).
    #[doc(hidden)]
    pub fn default_for(rule: GlitchRule) -> Roll {
        Roll {
            glitch_rule: rule,
            ..Roll::new(0).expect("a pool of 0 is allowed")
        }
    }

    /// Set whether the limit holds for a roll pushed with Edge.
    pub fn with_edge_limit(mut self, edge_limit: EdgeLimit) -> Self {
        self.edge_limit = edge_limit;
        self
    }

    /// Set the limit (Shadowrun 5).
    pub fn with_limit(mut self, limit: i64) -> Result<Self> {
        check_range("--limit", limit, 0, HITS_MAX)?;
        self.limit = Some(limit as u32);
        Ok(self)
    }

    /// Set the glitch rule.
    pub fn with_glitch_rule(mut self, rule: GlitchRule) -> Self {
        self.glitch_rule = rule;
        self
    }

    /// Set how ones are counted when dice explode.
    pub fn with_explode_glitch(mut self, mode: ExplodeGlitch) -> Self {
        self.explode_glitch = mode;
        self
    }

    /// Set what `negate-glitch` does to a critical glitch.
    pub fn with_negated_critical(mut self, mode: NegatedCritical) -> Self {
        self.negated_critical = mode;
        self
    }

    /// Use Edge (`dice` = the Edge rating).
    pub fn with_edge(mut self, dice: i64, use_: EdgeUse) -> Result<Self> {
        check_range("--edge", dice, 0, EDGE_MAX)?;
        self.edge = Some(Edge {
            dice: dice as u32,
            use_,
        });
        Ok(self)
    }

    /// Add teamwork helpers (their pools) and an optional cap on the added
    /// dice.
    pub fn with_helpers(mut self, helpers: &[i64], team_cap: Option<i64>) -> Result<Self> {
        for &h in helpers {
            check_range("--helper", h, POOL_MIN, POOL_MAX)?;
        }
        if let Some(c) = team_cap {
            check_range("--team-cap", c, 0, POOL_MAX)?;
        }
        self.helpers = helpers.to_vec();
        self.team_cap = team_cap.map(|c| c as u32);
        Ok(self)
    }

    /// Set the largest dropped mass allowed for exploding dice.
    pub fn with_tail_eps(mut self, eps: f64) -> Result<Self> {
        if !(1e-30..=0.5).contains(&eps) {
            return Err(Error::param("--tail-eps", eps, "allowed 1e-30..=0.5"));
        }
        self.tail_eps = eps;
        Ok(self)
    }

    /// The same roll with another pool (extended tests shrink the pool).
    fn with_pool(&self, pool: i64) -> Self {
        Roll {
            pool,
            ..self.clone()
        }
    }

    /// The leader's dice with no helpers: `(plain, exploding, second
    /// chance)` — the plain dice rolled first (the pool, or none with
    /// `push`), then the exploding first roll, whose sixes each roll one
    /// more die, group by group (see the rolling order in the module doc).
    /// Samplers use it to roll a whole roll without asking
    /// [`dice_needed`] after every group.
    pub fn leader_dice(&self) -> (u32, u32, bool) {
        let l = self.layout(self.pool);
        (l.plain, l.exploding, l.second_chance)
    }

    /// Whether any dice can explode.
    fn explodes(&self) -> bool {
        matches!(
            self.edge,
            Some(Edge {
                use_: EdgeUse::Push | EdgeUse::PushAfter,
                ..
            })
        )
    }

    /// The dice the leader rolls with `pool` dice after teamwork.
    fn layout(&self, pool: i64) -> Layout {
        let n = pool.max(0) as u32;
        let (plain, exploding, second_chance) = match self.edge {
            None => (n, 0, false),
            Some(Edge { dice, use_ }) => match use_ {
                EdgeUse::Push => (0, if pool > 0 { n + dice } else { dice }, false),
                EdgeUse::PushAfter => (n, dice, false),
                EdgeUse::SecondChance => (n, 0, true),
                EdgeUse::NegateGlitch => (n, 0, false),
            },
        };
        Layout {
            plain,
            exploding,
            second_chance,
        }
    }

    /// Hits after the limit. A roll pushed with Edge (`push`,
    /// `push-after`) ignores the limit unless `edge_limit` is `apply`
    /// (Shadowrun 5: "Push the Limit").
    fn limited(&self, raw_hits: u32) -> u32 {
        let pushed = matches!(
            self.edge,
            Some(Edge {
                use_: EdgeUse::Push | EdgeUse::PushAfter,
                ..
            })
        );
        if pushed && self.edge_limit == EdgeLimit::Ignore {
            return raw_hits;
        }
        self.limit.map_or(raw_hits, |l| raw_hits.min(l))
    }

    /// The glitch status of a roll that glitched (or not) with `raw_hits`,
    /// after `negate-glitch`.
    fn status(&self, glitched: bool, raw_hits: u32) -> Glitch {
        let g = match (glitched, raw_hits == 0) {
            (false, _) => Glitch::None,
            (true, false) => Glitch::Glitch,
            (true, true) => Glitch::Critical,
        };
        match (self.edge, g) {
            (
                Some(Edge {
                    use_: EdgeUse::NegateGlitch,
                    ..
                }),
                Glitch::Critical,
            ) if self.negated_critical == NegatedCritical::Downgrade => Glitch::Glitch,
            (
                Some(Edge {
                    use_: EdgeUse::NegateGlitch,
                    ..
                }),
                _,
            ) => Glitch::None,
            _ => g,
        }
    }
}

/// The leader's dice: plain (or second-chance) dice and exploding dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Layout {
    #[doc(hidden)]
    pub plain: u32,
    #[doc(hidden)]
    pub exploding: u32,
    #[doc(hidden)]
    pub second_chance: bool,
}

impl Layout {
    fn rolls(&self) -> bool {
        self.plain + self.exploding > 0
    }
}

/// An extended test (連続テスト).
#[derive(Clone, Debug, PartialEq)]
pub struct Extended {
    /// The roll (no Edge, no helpers).
    pub roll: Roll,
    /// Hits to accumulate.
    pub target: u32,
    /// Most rolls allowed.
    pub max_rolls: u32,
    /// One die fewer per roll after the first (Shadowrun 5).
    pub shrink: bool,
    /// A critical glitch fails the whole test.
    pub critical_glitch_ends: bool,
}

impl Extended {
    /// An extended test; `max_rolls` defaults to the pool size (at least 1).
    pub fn new(
        roll: Roll,
        target: i64,
        max_rolls: Option<i64>,
        shrink: bool,
        critical_glitch_ends: bool,
    ) -> Result<Self> {
        check_range("--threshold", target, 0, HITS_MAX)?;
        if roll.edge.is_some() || !roll.helpers.is_empty() {
            return Err(Error::Conflict(
                "--extended takes no --edge and no --helper (Edge is one use per test)".into(),
            ));
        }
        let max_rolls = match max_rolls {
            Some(m) => {
                check_range("--max-rolls", m, 1, HITS_MAX)?;
                m as u32
            }
            None => roll.pool.max(1) as u32,
        };
        Ok(Extended {
            roll,
            target: target as u32,
            max_rolls,
            shrink,
            critical_glitch_ends,
        })
    }

    /// How many rolls can be made: a roll with no dice is not a roll, so
    /// the test ends when the pool (shrinking with `shrink`) reaches 0.
    pub fn rolls_with_dice(&self) -> u32 {
        match self.roll.pool {
            p if p <= 0 => 0,
            p if self.shrink => self.max_rolls.min(u32::try_from(p).unwrap_or(u32::MAX)),
            _ => self.max_rolls,
        }
    }

    /// The roll made at roll `i` (0-based): the pool shrinks with `shrink`.
    pub fn roll_at(&self, i: usize) -> Roll {
        if self.shrink {
            self.roll.with_pool(self.roll.pool - i as i64)
        } else {
            self.roll.clone()
        }
    }
}

/// What `hantei odds hit-pool` computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// A success test against a threshold.
    Success {
        /// The roll.
        roll: Roll,
        /// Threshold (基準値).
        threshold: u32,
    },
    /// Buying hits: `floor(pool / 4)` hits, no roll.
    Buy {
        /// The roll (only pool and limit matter).
        roll: Roll,
        /// Threshold.
        threshold: u32,
    },
    /// An opposed test.
    Opposed {
        /// The active side.
        attacker: Roll,
        /// The passive side.
        defender: Roll,
        /// Who takes ties.
        tie_rule: TieRuleOpt,
    },
    /// An extended test.
    Extended(Extended),
}

/// Check a threshold value.
pub fn threshold(t: i64) -> Result<u32> {
    check_min("--threshold", t, 0)?;
    check_range("--threshold", t, 0, HITS_MAX)?;
    Ok(t as u32)
}

// ---------------------------------------------------------------------------
// classify: the rule applied to rolled faces

/// The verdict on one roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether any dice were rolled (false: pool ≤ 0 and no long shot).
    pub rolled: bool,
    /// Hits after the limit.
    pub hits: u32,
    /// Hits before the limit.
    pub raw_hits: u32,
    /// Ones counted for the glitch (per [`ExplodeGlitch`]).
    pub ones: u32,
    /// Dice counted for the glitch (per [`ExplodeGlitch`]).
    pub dice: u32,
    /// Glitch status, after `negate-glitch`.
    pub glitch: Glitch,
}

impl Verdict {
    fn no_roll() -> Self {
        Verdict {
            rolled: false,
            hits: 0,
            raw_hits: 0,
            ones: 0,
            dice: 0,
            glitch: Glitch::None,
        }
    }

    /// The tier against threshold `t`.
    pub fn tier(&self, t: u32) -> Outcome {
        if !self.rolled {
            Outcome::Failure
        } else if self.glitch == Glitch::Critical {
            Outcome::CriticalGlitch
        } else if self.hits < t {
            Outcome::Failure
        } else if self.hits - t >= CRITICAL_NET_HITS {
            Outcome::CriticalSuccess
        } else {
            Outcome::Success
        }
    }
}

/// Whether `ones` out of `dice` make a glitch under `rule`.
pub fn is_glitch(rule: GlitchRule, ones: u32, dice: u32) -> bool {
    dice > 0
        && match rule {
            GlitchRule::HalfOrMore => 2 * ones >= dice,
            GlitchRule::MoreThanHalf => 2 * ones > dice,
        }
}

/// Counts read off the faces of the leader's roll.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    hits: u32,
    ones_first: u32,
    ones_explosions: u32,
    dice_first: u32,
    dice_explosions: u32,
}

/// Parsing a partial roll: finished (verdict, faces used) or short of dice.
enum Parse {
    Done(Verdict, usize),
    Need(usize),
}

/// Take the next `k` faces, or say how many are missing.
fn take<'a>(faces: &'a [u32], pos: &mut usize, k: usize) -> std::result::Result<&'a [u32], usize> {
    let rest = &faces[(*pos).min(faces.len())..];
    if rest.len() < k {
        return Err(k - rest.len());
    }
    *pos += k;
    Ok(&rest[..k])
}

// Counting folds with u32 accumulators (they vectorise well).
#[doc(hidden)]
pub fn hits_in(faces: &[u32]) -> u32 {
    faces.iter().fold(0, |n, &f| n + u32::from(f >= 5))
}

fn ones_in(faces: &[u32]) -> u32 {
    faces.iter().fold(0, |n, &f| n + u32::from(f == 1))
}

fn parse(roll: &Roll, faces: &[u32]) -> Option<Parse> {
    // Branch-free (vectorisable) check that every face is in 1..=6.
    if !faces
        .iter()
        .fold(true, |ok, &f| ok & (f.wrapping_sub(1) < 6))
    {
        return None;
    }
    let mut pos = 0;
    let mut helper_hits = 0u32;
    for &h in &roll.helpers {
        match take(faces, &mut pos, h.max(0) as usize) {
            Ok(f) => helper_hits += hits_in(f),
            Err(k) => return Some(Parse::Need(k)),
        }
    }
    let added = roll.team_cap.map_or(helper_hits, |c| helper_hits.min(c));
    let layout = roll.layout(roll.pool + added as i64);
    if !layout.rolls() {
        return Some(Parse::Done(Verdict::no_roll(), pos));
    }
    let mut c = Counts::default();
    let plain = match take(faces, &mut pos, layout.plain as usize) {
        Ok(f) => f,
        Err(k) => return Some(Parse::Need(k)),
    };
    c.dice_first += layout.plain;
    if layout.second_chance {
        let misses = plain.len() - hits_in(plain) as usize;
        match take(faces, &mut pos, misses) {
            Ok(rerolls) => {
                c.hits += hits_in(plain) + hits_in(rerolls);
                c.ones_first += ones_in(rerolls);
            }
            Err(k) => return Some(Parse::Need(k)),
        }
    } else {
        c.hits += hits_in(plain);
        c.ones_first += ones_in(plain);
    }
    let mut group = match take(faces, &mut pos, layout.exploding as usize) {
        Ok(f) => f,
        Err(k) => return Some(Parse::Need(k)),
    };
    c.dice_first += layout.exploding;
    c.hits += hits_in(group);
    c.ones_first += ones_in(group);
    loop {
        let sixes = group.iter().filter(|&&f| f == 6).count();
        if sixes == 0 {
            break;
        }
        group = match take(faces, &mut pos, sixes) {
            Ok(f) => f,
            Err(k) => return Some(Parse::Need(k)),
        };
        c.dice_explosions += sixes as u32;
        c.hits += hits_in(group);
        c.ones_explosions += ones_in(group);
    }
    Some(Parse::Done(judge(roll, c), pos))
}

/// The glitch counting, negation and limit applied to the counts.
fn judge(roll: &Roll, c: Counts) -> Verdict {
    let (ones, dice) = match roll.explode_glitch {
        ExplodeGlitch::AllDice => (
            c.ones_first + c.ones_explosions,
            c.dice_first + c.dice_explosions,
        ),
        ExplodeGlitch::OriginalPool => (c.ones_first + c.ones_explosions, c.dice_first),
        ExplodeGlitch::Bcdice => (c.ones_first, c.dice_first + c.dice_explosions),
    };
    Verdict {
        rolled: true,
        hits: roll.limited(c.hits),
        raw_hits: c.hits,
        ones,
        dice,
        glitch: roll.status(is_glitch(roll.glitch_rule, ones, dice), c.hits),
    }
}

/// The verdict on one complete roll, faces in the order rolled (see the
/// module doc): helpers' pools, the leader's plain dice, rerolls or the
/// exploding first roll, then one die per six, group by group. `None` if a
/// face is outside 1..=6 or the faces are not exactly one complete roll.
pub fn classify_roll(roll: &Roll, faces: &[u32]) -> Option<Verdict> {
    if roll.helpers.is_empty() && roll.edge.is_none() {
        // A plain roll: the pool's faces and nothing else (the same reading
        // as `parse`, without its bookkeeping; samplers call this per trial).
        let n = roll.pool.max(0) as usize;
        if faces.len() != n
            || !faces
                .iter()
                .fold(true, |ok, &f| ok & (f.wrapping_sub(1) < 6))
        {
            return None;
        }
        if n == 0 {
            return Some(Verdict::no_roll());
        }
        let c = Counts {
            hits: hits_in(faces),
            ones_first: ones_in(faces),
            dice_first: n as u32,
            ..Counts::default()
        };
        return Some(judge(roll, c));
    }
    match parse(roll, faces)? {
        Parse::Done(v, used) if used == faces.len() => Some(v),
        _ => None,
    }
}

/// The verdict and tier of a success test against threshold `t`.
pub fn classify(roll: &Roll, t: u32, faces: &[u32]) -> Option<(Verdict, Outcome)> {
    classify_roll(roll, faces).map(|v| (v, v.tier(t)))
}

/// How many more dice the partial roll `faces` needs (0 when it is
/// complete). `None` if a face is outside 1..=6. A sampler rolls that many,
/// appends them, and asks again.
pub fn dice_needed(roll: &Roll, faces: &[u32]) -> Option<usize> {
    Some(match parse(roll, faces)? {
        Parse::Done(..) => 0,
        Parse::Need(k) => k,
    })
}

/// Net hits of an opposed test (attacker − defender) from both sides'
/// faces; `None` if either roll is not complete and valid.
pub fn classify_opposed(
    attacker: &Roll,
    attacker_faces: &[u32],
    defender: &Roll,
    defender_faces: &[u32],
) -> Option<i64> {
    let a = classify_roll(attacker, attacker_faces)?;
    let d = classify_roll(defender, defender_faces)?;
    Some(a.hits as i64 - d.hits as i64)
}

/// How an extended test went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedVerdict {
    /// Rolls made.
    pub rolls: usize,
    /// Whether the target was reached.
    pub done: bool,
    /// Whether a critical glitch ended the test.
    pub aborted: bool,
}

/// Judge an extended test from its rolls (`rolls[i]` = the faces of roll
/// `i`, made with [`Extended::roll_at`]). Rolls after the test has ended
/// are not allowed; nor is a roll with no dice (the test ends when the pool
/// is gone). `None` if a roll is invalid or the sequence is not a whole
/// test (too many rolls, or it stops while the test goes on).
pub fn classify_extended(ext: &Extended, rolls: &[Vec<u32>]) -> Option<ExtendedVerdict> {
    let limit = ext.rolls_with_dice() as usize;
    let mut sum = 0u32;
    if ext.target == 0 {
        return rolls.is_empty().then_some(ExtendedVerdict {
            rolls: 0,
            done: true,
            aborted: false,
        });
    }
    for (i, faces) in rolls.iter().enumerate() {
        if i >= limit {
            return None;
        }
        let v = classify_roll(&ext.roll_at(i), faces)?;
        let end = |done, aborted| {
            (i + 1 == rolls.len()).then_some(ExtendedVerdict {
                rolls: i + 1,
                done,
                aborted,
            })
        };
        if ext.critical_glitch_ends && v.glitch == Glitch::Critical {
            return end(false, true);
        }
        sum += v.hits;
        if sum >= ext.target {
            return end(true, false);
        }
    }
    (rolls.len() == limit).then_some(ExtendedVerdict {
        rolls: rolls.len(),
        done: false,
        aborted: false,
    })
}

// ---------------------------------------------------------------------------
// The joint law: a dense table over (hits, glitch score)

/// A dense 2-D law over (hits `h ≥ 0`, glitch score `s`): the joint law of
/// hits and ones. The score is `2 × ones counted − dice counted`, so a roll
/// glitches iff `s ≥ 0` (`half-or-more`) or `s > 0` (`more-than-half`); for
/// plain dice `s = 2 × ones − n`, a one-to-one image of the trinomial law of
/// (hits, ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Joint<W> {
    #[doc(hidden)]
    pub s_lo: i64,
    width: usize,
    #[doc(hidden)]
    pub rows: Vec<Vec<W>>,
}

impl<W: Weight> Joint<W> {
    fn empty() -> Self {
        Joint {
            s_lo: 0,
            width: 0,
            rows: Vec::new(),
        }
    }

    /// No dice: 0 hits, score 0, certainly.
    pub fn point() -> Self {
        Joint {
            s_lo: 0,
            width: 1,
            rows: vec![vec![W::one()]],
        }
    }

    /// P(hits = h, score = s).
    pub fn p(&self, h: usize, s: i64) -> W {
        let i = s - self.s_lo;
        match self.rows.get(h) {
            Some(row) if i >= 0 && (i as usize) < self.width => row[i as usize].clone(),
            _ => W::zero(),
        }
    }

    /// Sum of all cells.
    pub fn total(&self) -> W {
        self.rows.iter().flatten().fold(W::zero(), |a, b| a + b)
    }

    /// Grow the frame to hold rows `< h_len` and scores `s_lo..=s_hi`.
    fn grow(&mut self, h_len: usize, s_lo: i64, s_hi: i64) {
        if self.width == 0 {
            self.s_lo = s_lo;
            self.width = (s_hi - s_lo + 1) as usize;
        } else {
            let lo = self.s_lo.min(s_lo);
            let hi = (self.s_lo + self.width as i64 - 1).max(s_hi);
            if lo < self.s_lo || hi > self.s_lo + self.width as i64 - 1 {
                let width = (hi - lo + 1) as usize;
                let off = (self.s_lo - lo) as usize;
                for row in &mut self.rows {
                    let mut r = vec![W::zero(); width];
                    for (i, x) in row.drain(..).enumerate() {
                        r[off + i] = x;
                    }
                    *row = r;
                }
                self.s_lo = lo;
                self.width = width;
            }
        }
        while self.rows.len() < h_len {
            self.rows.push(vec![W::zero(); self.width]);
        }
    }

    /// Add `w × src` shifted by `(dh, ds)`, dropping rows above `cap`.
    fn add_shifted(&mut self, src: &Joint<W>, dh: usize, ds: i64, w: &W, cap: usize) {
        let h_len = (src.rows.len() + dh).min(cap.saturating_add(1));
        if h_len <= dh || src.width == 0 {
            return;
        }
        self.grow(h_len, src.s_lo + ds, src.s_lo + ds + src.width as i64 - 1);
        // The cells read, for the planner's estimate (held to it by tests).
        plan::count(((h_len - dh) * src.width) as u64);
        let off = (src.s_lo + ds - self.s_lo) as usize;
        for (h, row) in src.rows.iter().enumerate().take(h_len - dh) {
            let target = &mut self.rows[h + dh][off..off + src.width];
            for (t, x) in target.iter_mut().zip(row) {
                if !x.is_zero() {
                    *t += x.clone() * w;
                }
            }
        }
    }

    /// The law of the sum of two independent tables, rows above `cap`
    /// dropped.
    fn convolve(&self, other: &Joint<W>, cap: usize) -> Joint<W> {
        let mut out = Joint::empty();
        for (h, row) in other.rows.iter().enumerate() {
            for (i, x) in row.iter().enumerate() {
                if !x.is_zero() {
                    out.add_shifted(self, h, other.s_lo + i as i64, x, cap);
                }
            }
        }
        out
    }

    /// `n` non-exploding dice, each a hit with `p_hit`, a one with `p_one`
    /// (else neither): the trinomial law, in closed form
    /// `P(h, o) = Bin(n, p_hit)(h) · Bin(n − h, p_one / (1 − p_hit))(o)`,
    /// at score `2o − n`.
    pub fn plain(n: u32, p_hit: &W, p_one: &W) -> Self {
        if n == 0 {
            return Self::point();
        }
        let n_i = n as i64;
        let miss = p_hit.complement();
        let q = p_one.clone() / &miss;
        let q_odds = q.clone() / &q.complement();
        let hit_odds = p_hit.clone() / &miss;
        let mut rows = Vec::with_capacity(n as usize + 1);
        plan::count(u64::from(n + 1) * u64::from(2 * n + 1));
        let mut ph = miss.powi(n);
        for h in 0..=n_i {
            let m = n_i - h;
            let mut row = vec![W::zero(); 2 * n as usize + 1];
            let mut po = ph.clone() * &q.complement().powi(m as u32);
            for o in 0..=m {
                row[(2 * o) as usize] = po.clone();
                po = po * &W::ratio(m - o, o + 1) * &q_odds;
            }
            rows.push(row);
            ph = ph * &W::ratio(n_i - h, h + 1) * &hit_odds;
        }
        Joint {
            s_lo: -n_i,
            width: 2 * n as usize + 1,
            rows,
        }
    }

    /// The geometric chain `Σ_y 6^-y · self` shifted by `(y, y·ds)`, rows
    /// above `cap` dropped, by the recurrence `V(h,s) = U(h,s) + V(h−1,s−ds)/6`.
    fn geometric(&self, ds: i64, cap: usize) -> Joint<W> {
        let rows = cap + 1;
        let extra = rows as i64 - 1;
        let s_lo = self.s_lo + ds.min(0) * extra;
        let width = self.width + (ds.abs() * extra) as usize;
        let mut v = Joint {
            s_lo,
            width,
            rows: vec![vec![W::zero(); width]; rows],
        };
        let sixth = W::ratio(1, 6);
        plan::count((rows * width) as u64);
        let off = (self.s_lo - s_lo) as usize;
        for h in 0..rows {
            if let Some(row) = self.rows.get(h) {
                for (i, x) in row.iter().enumerate() {
                    v.rows[h][off + i] = x.clone();
                }
            }
            if h > 0 {
                let (done, rest) = v.rows.split_at_mut(h);
                let prev = &done[h - 1];
                for (j, cell) in rest[0].iter_mut().enumerate() {
                    let from = j as i64 - ds;
                    if from >= 0 && (from as usize) < width && !prev[from as usize].is_zero() {
                        *cell += prev[from as usize].clone() * &sixth;
                    }
                }
            }
        }
        v.trim()
    }

    /// Drop all-zero score columns at both ends and all-zero rows at the
    /// top.
    fn trim(mut self) -> Self {
        while self
            .rows
            .last()
            .is_some_and(|r| r.iter().all(|x| x.is_zero()))
        {
            self.rows.pop();
        }
        let used = |i: usize| self.rows.iter().any(|r| !r[i].is_zero());
        let Some(first) = (0..self.width).find(|&i| used(i)) else {
            return Joint::empty();
        };
        let last = (0..self.width).rev().find(|&i| used(i)).unwrap_or(first);
        for row in &mut self.rows {
            row.truncate(last + 1);
            row.drain(..first);
        }
        self.s_lo += first as i64;
        self.width = last - first + 1;
        self
    }

    /// Roll one more exploding die (a die of the first roll whose sixes
    /// explode), rows above `cap` dropped.
    fn explode_step(&self, mode: ExplodeGlitch, cap: usize) -> Joint<W> {
        let mut out = Joint::empty();
        for (dh, ds, w) in face_kernel::<W>(first_score) {
            out.add_shifted(self, dh, ds, &w, cap);
        }
        let mut six = Joint::empty();
        six.add_shifted(self, 1, first_score(6), &W::ratio(1, 6), cap);
        let chain = six.geometric(explosion_score(mode, 6), cap);
        for (dh, ds, w) in face_kernel::<W>(|f| explosion_score(mode, f)) {
            out.add_shifted(&chain, dh, ds, &w, cap);
        }
        out.trim()
    }
}

/// Score of a die of the first roll: +1 for a one, −1 otherwise.
fn first_score(face: u32) -> i64 {
    if face == 1 {
        1
    } else {
        -1
    }
}

/// Score of an explosion die under each ones-counting convention.
fn explosion_score(mode: ExplodeGlitch, face: u32) -> i64 {
    match mode {
        ExplodeGlitch::AllDice => first_score(face),
        ExplodeGlitch::OriginalPool => 2 * (face == 1) as i64,
        ExplodeGlitch::Bcdice => -1,
    }
}

/// The non-six faces 1..=5 as `(hits, score, probability)`, equal cells
/// merged.
fn face_kernel<W: Weight>(score: impl Fn(u32) -> i64) -> Vec<(usize, i64, W)> {
    let mut cells: Vec<(usize, i64, i64)> = Vec::new();
    for face in 1..=5u32 {
        let key = ((face >= 5) as usize, score(face));
        match cells.iter_mut().find(|c| (c.0, c.1) == key) {
            Some(c) => c.2 += 1,
            None => cells.push((key.0, key.1, 1)),
        }
    }
    cells
        .into_iter()
        .map(|(h, s, k)| (h, s, W::ratio(k, 6)))
        .collect()
}

/// The law of the total hits of `e` exploding dice, cut above `cap`:
/// `(P(hits = h) for h ≤ cap, P(hits > cap))`. One die gives 0 hits with
/// 4/6 and `k ≥ 1` hits with `10/6^(k+1)`, so `P(one die > m) = 2/6^(m+1)`.
pub fn exploding_hits<W: Weight>(e: u32, cap: usize) -> (Vec<W>, W) {
    let mut law = vec![W::zero(); cap + 1];
    law[0] = W::one();
    let mut tail = W::zero();
    let sixth = W::ratio(1, 6);
    let first = W::ratio(10, 36);
    for _ in 0..e {
        // Mass that leaves the kept range: Σ_a law[a] · 2/6^(cap − a + 1).
        let mut beyond = W::ratio(2, 6);
        for a in (0..=cap).rev() {
            if !law[a].is_zero() {
                tail += law[a].clone() * &beyond;
            }
            beyond = beyond * &sixth;
        }
        // new[h] = 4/6·old[h] + Σ_{k≥1} old[h−k]·10/6^(k+1) (S by recurrence).
        let mut s = W::zero();
        let mut next = Vec::with_capacity(cap + 1);
        for h in 0..=cap {
            if h > 0 {
                s = s * &sixth + &(law[h - 1].clone() * &first);
            }
            next.push(law[h].clone() * &W::ratio(4, 6) + &s);
        }
        law = next;
    }
    (law, tail)
}

/// The smallest cap on the hits of `e` exploding dice whose dropped mass is
/// at most `eps` (chosen in `f64`, so `f64` and exact runs agree).
pub fn explosion_cap(e: u32, eps: f64) -> usize {
    let mut big = 2 * e as usize + 32;
    loop {
        let (law, tail) = exploding_hits::<f64>(e, big);
        if tail <= eps * 1e-6 {
            let mut t = tail;
            for h in (0..=big).rev() {
                if t + law[h] > eps {
                    return h;
                }
                t += law[h];
            }
            return 0;
        }
        big *= 2;
    }
}

// ---------------------------------------------------------------------------
// The law of one roll

/// The law of one roll: for each hit count (after the limit), the
/// probability of each [`Glitch`] status; plus the mass where no roll was
/// possible and the truncated tail of exploding dice.
#[derive(Clone, Debug, PartialEq)]
pub struct RollLaw<W> {
    /// `by_hits[h][g]` = P(h hits, glitch status `g as usize`), rolled.
    pub by_hits: Vec<[W; 3]>,
    /// P(no roll possible) (0 hits, failure).
    pub no_roll: W,
    /// Mass dropped by truncating exploding dice (not in `by_hits`).
    pub tail: W,
}

impl<W: Weight> RollLaw<W> {
    #[doc(hidden)]
    pub fn zero() -> Self {
        RollLaw {
            by_hits: Vec::new(),
            no_roll: W::zero(),
            tail: W::zero(),
        }
    }

    /// The three status cells of a roll with `h` hits (before the limit),
    /// the table grown to hold them.
    fn cells(&mut self, roll: &Roll, h: u32) -> &mut [W; 3] {
        let hl = roll.limited(h) as usize;
        if self.by_hits.len() <= hl {
            self.by_hits
                .resize(hl + 1, [W::zero(), W::zero(), W::zero()]);
        }
        &mut self.by_hits[hl]
    }

    fn add_scaled(&mut self, other: &RollLaw<W>, w: &W) {
        if self.by_hits.len() < other.by_hits.len() {
            self.by_hits
                .resize(other.by_hits.len(), [W::zero(), W::zero(), W::zero()]);
        }
        for (a, b) in self.by_hits.iter_mut().zip(&other.by_hits) {
            for g in 0..3 {
                a[g] += b[g].clone() * w;
            }
        }
        self.no_roll += other.no_roll.clone() * w;
        self.tail += other.tail.clone() * w;
    }

    /// P(exactly k hits), no-roll counted as 0 hits.
    pub fn hits(&self) -> Vec<W> {
        let mut v: Vec<W> = self
            .by_hits
            .iter()
            .map(|r| r[0].clone() + &r[1] + &r[2])
            .collect();
        if v.is_empty() {
            v.push(W::zero());
        }
        v[0] += &self.no_roll;
        v
    }

    /// The hit count as a [`Pmf`] (a sub-distribution if truncated).
    pub fn hits_pmf(&self) -> Pmf<W> {
        Pmf::from_weights(0, self.hits())
    }

    fn sum_status(&self, g: Glitch) -> W {
        self.by_hits
            .iter()
            .fold(W::zero(), |a, r| a + &r[g as usize])
    }

    /// P(glitch), critical glitches included.
    pub fn p_glitch(&self) -> W {
        self.sum_status(Glitch::Glitch) + self.sum_status(Glitch::Critical)
    }

    /// P(critical glitch).
    pub fn p_critical_glitch(&self) -> W {
        self.sum_status(Glitch::Critical)
    }

    /// Expected hits (of the truncated law).
    pub fn expected_hits(&self) -> W {
        self.hits()
            .iter()
            .enumerate()
            .fold(W::zero(), |a, (k, p)| a + W::int(k as i64) * p)
    }

    /// The tiers against threshold `t`.
    pub fn tiers(&self, t: u32) -> TierLaw<Outcome, W> {
        let mut pairs = vec![(Outcome::Failure, self.no_roll.clone())];
        for (h, r) in self.by_hits.iter().enumerate() {
            let v = Verdict {
                rolled: true,
                hits: h as u32,
                raw_hits: h as u32,
                ones: 0,
                dice: 0,
                glitch: Glitch::None,
            };
            pairs.push((Outcome::CriticalGlitch, r[2].clone()));
            pairs.push((v.tier(t), r[0].clone() + &r[1]));
        }
        TierLaw::from_pairs(pairs)
    }
}

// ---------------------------------------------------------------------------
// Closed forms in O(n) (plain dice) and O(n·H) (pushed dice)

/// A non-negative weight carried as `m · 2^e` ([`Weight::frexp`]): a
/// product of thousands of factors below 1 (`(2/3)^5000`) never underflows
/// on the way to a representable result. Exact weights keep `e = 0`.
#[derive(Clone, Debug)]
struct Scaled<W> {
    m: W,
    e: i64,
}

impl<W: Weight> Scaled<W> {
    fn new(x: W) -> Self {
        let (m, e) = x.frexp();
        Scaled { m, e }
    }

    fn zero() -> Self {
        Scaled { m: W::zero(), e: 0 }
    }

    fn mul(&self, x: &W) -> Self {
        let (m, e) = (self.m.clone() * x).frexp();
        Scaled { m, e: self.e + e }
    }

    fn times(&self, o: &Scaled<W>) -> Self {
        let (m, e) = (self.m.clone() * &o.m).frexp();
        Scaled {
            m,
            e: self.e + o.e + e,
        }
    }

    fn add(&self, o: &Scaled<W>) -> Self {
        if o.m.is_zero() {
            return self.clone();
        }
        if self.m.is_zero() {
            return o.clone();
        }
        let e = self.e.max(o.e);
        let (m, de) = (self.m.ldexp(self.e - e) + &o.m.ldexp(o.e - e)).frexp();
        Scaled { m, e: e + de }
    }

    /// `x^n`, scaled as it goes.
    fn powi(x: &W, mut n: u32) -> Self {
        let mut acc = Scaled::new(W::one());
        let mut base = Scaled::new(x.clone());
        while n > 0 {
            if n & 1 == 1 {
                acc = acc.times(&base);
            }
            n >>= 1;
            if n > 0 {
                base = base.times(&base);
            }
        }
        acc
    }

    fn value(&self) -> W {
        self.m.ldexp(self.e)
    }
}

/// `Bin(n, p)(k)` for `k = 0..=n`, by the ratio recurrence from
/// `(1 − p)^n`, scaled (no underflow however large `n`).
fn binomial_scaled<W: Weight>(n: u32, p: &W) -> Vec<Scaled<W>> {
    let miss = p.complement();
    let odds = p.clone() / &miss;
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut b = Scaled::powi(&miss, n);
    let n_i = i64::from(n);
    for k in 0..=n_i {
        out.push(b.clone());
        if k < n_i {
            b = b.mul(&(W::ratio(n_i - k, k + 1) * &odds));
        }
    }
    out
}

/// `(P(Bin(m, q) ≥ k), P(Bin(m, q) < k))` for `m = 0..=n`: the upper tail
/// summed upward from `m = k` and the lower one downward from `m = n`, both
/// by `T(m+1) = T(m) + q·Bin(m, q)(k−1)`, so neither is ever a difference.
fn tails_scaled<W: Weight>(n: u32, q: &W, k: u32) -> (Vec<Scaled<W>>, Vec<Scaled<W>>) {
    let len = n as usize + 1;
    if k == 0 {
        return (vec![Scaled::new(W::one()); len], vec![Scaled::zero(); len]);
    }
    let mut upper = vec![Scaled::zero(); len];
    let mut lower = vec![Scaled::new(W::one()); len];
    if k > n {
        return (upper, lower);
    }
    // pmf[m] = Bin(m, q)(k − 1) for m = k − 1..=n − 1.
    let j = i64::from(k - 1);
    let miss = q.complement();
    let mut pmf = Vec::with_capacity(len);
    let mut b = Scaled::powi(q, k - 1);
    for m in j..i64::from(n) {
        pmf.push(b.clone());
        b = b.mul(&(W::ratio(m + 1, m + 1 - j) * &miss));
    }
    let step = |m: usize| pmf[m - (k as usize - 1)].mul(q);
    for m in k as usize..len {
        upper[m] = upper[m - 1].add(&step(m - 1));
    }
    // Lower tail at n summed directly, then downward.
    let full = binomial_scaled(n, q);
    lower[n as usize] = full[..k as usize]
        .iter()
        .fold(Scaled::zero(), |a, b| a.add(b));
    for m in (k as usize..n as usize).rev() {
        lower[m] = lower[m + 1].add(&step(m));
    }
    (upper, lower)
}

/// The ones a roll of `dice` dice needs to glitch (`2 × ones − dice ≥ 0`,
/// or `> 0`).
fn ones_to_glitch(rule: GlitchRule, dice: u64) -> u64 {
    match rule {
        GlitchRule::HalfOrMore => dice.div_ceil(2),
        GlitchRule::MoreThanHalf => dice / 2 + 1,
    }
}

/// The law of `n ≥ 1` plain (or second-chance) dice in O(n): hits `h` with
/// `Bin(n, p_hit)(h)`, and given `h` the ones are `Bin(n − h, q)` with
/// `q = p_one / (1 − p_hit)`, so `P(h, glitch) = Bin(n, p_hit)(h) ·
/// P(Bin(n − h, q) ≥ o*)` with both tails from [`tails_scaled`].
fn plain_law<W: Weight>(roll: &Roll, n: u32, p_hit: &W, p_one: &W) -> RollLaw<W> {
    let q = p_one.clone() / &p_hit.complement();
    let hits = binomial_scaled(n, p_hit);
    let k = ones_to_glitch(roll.glitch_rule, u64::from(n)) as u32;
    let (upper, lower) = tails_scaled(n, &q, k);
    // The hits' terms, the two tails, and the cells written.
    plan::count(3 * (u64::from(n) + 1));
    let mut law = RollLaw::zero();
    for (h, b) in hits.iter().enumerate() {
        let m = n as usize - h;
        let h = h as u32;
        let cells = law.cells(roll, h);
        cells[roll.status(false, h) as usize] += b.times(&lower[m]).value();
        cells[roll.status(true, h) as usize] += b.times(&upper[m]).value();
    }
    law
}

/// The law of `n` dice rolled together whose sixes all explode (Edge
/// `push`), hits cut above `cap`, for the `all-dice` and `original-pool`
/// conventions, in closed form. Each die starts a chain that ends at its
/// first non-six, so exactly `n` dice are non-sixes, uniform on 1..=5 and
/// independent of how many sixes came before. With `s` sixes in all
/// (`n + s` dice), the hitting-time theorem gives `P(s) = n/(n+s) ·
/// C(n+s, s) · 6^-s · (5/6)^n`, i.e. `P(s+1) = P(s) · (n+s) / (6(s+1))`;
/// the fives among the non-sixes are `Bin(n, 1/5)` and, given `f` fives,
/// the ones are `Bin(n − f, 1/4)`. Hits are `s + f`; a glitch needs
/// `o*(n + s)` ones (`all-dice`) or `o*(n)` (`original-pool`). Cost
/// O(n · cap).
#[doc(hidden)]
pub fn push_law<W: Weight>(roll: &Roll, n: u32, cap: usize) -> RollLaw<W> {
    let cap = cap.min(u32::MAX as usize / 2) as u64;
    let n64 = u64::from(n);
    let fives = binomial_scaled(n, &W::ratio(1, 5));
    let q = W::ratio(1, 4);
    let mut law = RollLaw::zero();
    let mut p_s = Scaled::powi(&W::ratio(5, 6), n);
    // The tails for the current glitch count `k` (recomputed when it moves).
    type Tails<W> = (u64, Vec<Scaled<W>>, Vec<Scaled<W>>);
    let mut tails: Option<Tails<W>> = None;
    for s in 0..=cap {
        let dice = match roll.explode_glitch {
            ExplodeGlitch::OriginalPool => n64,
            _ => n64 + s,
        };
        let k = ones_to_glitch(roll.glitch_rule, dice);
        if tails.as_ref().is_none_or(|t| t.0 != k) {
            plan::count(n64 + 1);
            let kk = k.min(n64 + 1) as u32;
            let (u, l) = tails_scaled(n, &q, kk);
            tails = Some((k, u, l));
        }
        let Some((_, upper, lower)) = tails.as_ref() else {
            continue;
        };
        plan::count((cap - s).min(n64) + 1);
        for f in 0..=(cap - s).min(n64) {
            let h = (s + f) as u32;
            let m = (n64 - f) as usize;
            let w = p_s.times(&fives[f as usize]);
            let cells = law.cells(roll, h);
            cells[roll.status(false, h) as usize] += w.times(&lower[m]).value();
            cells[roll.status(true, h) as usize] += w.times(&upper[m]).value();
        }
        p_s = p_s.mul(&W::ratio((n64 + s) as i64, 6 * (s as i64 + 1)));
    }
    law
}

/// The joint law of the leader's dice, exploding hits cut above `cap`, and
/// the exact mass dropped.
#[doc(hidden)]
pub fn layout_joint<W: Weight>(layout: Layout, mode: ExplodeGlitch, cap: usize) -> (Joint<W>, W) {
    let mut j = Joint::point();
    for _ in 0..layout.exploding {
        j = j.explode_step(mode, cap);
    }
    let tail = if layout.exploding > 0 {
        exploding_hits::<W>(layout.exploding, cap).1
    } else {
        W::zero()
    };
    // Second chance: a die ends a hit w.p. 1/3 + 2/3·1/3 = 5/9, a one w.p.
    // 2/3·1/6 = 1/9.
    let (p_hit, p_one) = if layout.second_chance {
        (W::ratio(5, 9), W::ratio(1, 9))
    } else {
        (W::ratio(1, 3), W::ratio(1, 6))
    };
    let plain = Joint::plain(layout.plain, &p_hit, &p_one);
    (j.convolve(&plain, usize::MAX), tail)
}

/// The law of the leader's roll with `pool` dice (teamwork already added),
/// exploding hits cut above `cap` (`None`: chosen from `tail_eps`).
fn leader_law<W: Weight>(roll: &Roll, pool: i64, cap: Option<usize>) -> RollLaw<W> {
    layout_law(roll, roll.layout(pool), cap)
}

/// The law of `n` plain dice under `rule`, for any `n` (the CLI stops at
/// [`POOL_MAX`]; this does not): O(n), no underflow (a pool of 100,000 dice
/// has its hits near 33,333 with probabilities near 0.004, and P(0 hits) =
/// (2/3)^100000 is 0 in `f64`, as it should be).
pub fn plain_pool<W: Weight>(n: u32, rule: GlitchRule) -> RollLaw<W> {
    let roll = Roll::default_for(rule);
    let layout = Layout {
        plain: n,
        exploding: 0,
        second_chance: false,
    };
    layout_law(&roll, layout, None)
}

/// The law of `n` dice whose sixes all explode (Edge `push` on a pool of
/// `n` dice in all), for any `n`: hits cut where the dropped mass reaches
/// `tail_eps` (reported as `tail`). O(n · H), `H` the cap on hits.
pub fn pushed_pool<W: Weight>(
    n: u32,
    rule: GlitchRule,
    mode: ExplodeGlitch,
    tail_eps: f64,
) -> RollLaw<W> {
    let mut roll = Roll::default_for(rule).with_explode_glitch(mode);
    roll.tail_eps = tail_eps;
    let layout = Layout {
        plain: 0,
        exploding: n,
        second_chance: false,
    };
    layout_law(&roll, layout, None)
}

/// The leader's dice laid out as `layout`, as a dice program in the
/// notation (a hit on 5–6 is the total, `g` the glitch score: +1 a one,
/// −1 any other face), for `--explain`: `12D6{…}`, `12D6{…}ro<=4` (second
/// chance), `16D6{…}!` (Edge `push`), `12D6{…}+4D6{…}!` (`push-after`).
/// Under `original-pool` and `bcdice` the dice an explosion adds score
/// apart (+2 for a one and 0 otherwise, or −1 each), which the text notes.
fn layout_program(roll: &Roll, layout: Layout) -> String {
    const FACES: &str = "D6{1:g,2..4:-g,>=5:1-g}";
    let mut parts = Vec::new();
    if layout.plain > 0 {
        let reroll = if layout.second_chance { "ro<=4" } else { "" };
        parts.push(format!("{}{FACES}{reroll}", layout.plain));
    }
    if layout.exploding > 0 {
        parts.push(format!("{}{FACES}!", layout.exploding));
    }
    let mut text = parts.join("+");
    match (layout.exploding, roll.explode_glitch) {
        (0, _) | (_, ExplodeGlitch::AllDice) => {}
        (_, ExplodeGlitch::OriginalPool) => {
            text.push_str(" (the dice an explosion adds: g +2 for a one, else 0)")
        }
        (_, ExplodeGlitch::Bcdice) => {
            text.push_str(" (the dice an explosion adds: g -1 whatever they show)")
        }
    }
    text
}

/// The law of the leader's dice laid out as `layout`: lowered to d6
/// counted for hits and a glitch score ([`layout_program`]), computed by
/// the algorithm the dice planner chooses for it
/// ([`crate::systems::dice::pool::plan::hits`]: binomial tails, the
/// hitting-time theorem, or the joint table).
fn layout_law<W: Weight>(roll: &Roll, layout: Layout, cap: Option<usize>) -> RollLaw<W> {
    use plan::Algorithm;
    if !layout.rolls() {
        return RollLaw {
            by_hits: Vec::new(),
            no_roll: W::one(),
            tail: W::zero(),
        };
    }
    let cap = match (layout.exploding, cap) {
        (0, _) => usize::MAX,
        (_, Some(c)) => c,
        (e, None) => explosion_cap(e, roll.tail_eps),
    };
    let every_die_counts = roll.explode_glitch != ExplodeGlitch::Bcdice;
    let chosen = plan::hits(
        u64::from(layout.plain),
        u64::from(layout.exploding),
        cap as u64,
        every_die_counts,
    );
    let dice = i64::from(layout.plain) + i64::from(layout.exploding);
    plan::traced(
        || layout_program(roll, layout),
        dice,
        &chosen,
        || {
            match chosen.algorithm {
                Algorithm::HitsBinomial => {
                    // Second chance: a die ends a hit w.p. 1/3 + 2/3·1/3 = 5/9,
                    // a one w.p. 2/3·1/6 = 1/9.
                    let (p_hit, p_one) = if layout.second_chance {
                        (W::ratio(5, 9), W::ratio(1, 9))
                    } else {
                        (W::ratio(1, 3), W::ratio(1, 6))
                    };
                    plain_law(roll, layout.plain, &p_hit, &p_one)
                }
                Algorithm::HitsHittingTime => {
                    let mut law = push_law(roll, layout.exploding, cap);
                    law.tail = exploding_hits::<W>(layout.exploding, cap).1;
                    law
                }
                _ => joint_law(roll, layout, cap),
            }
        },
    )
}

/// [`Algorithm::HitsJoint`](crate::systems::dice::pool::plan::Algorithm::HitsJoint):
/// the joint table of hits and glitch score, collapsed to hits × glitch
/// status.
fn joint_law<W: Weight>(roll: &Roll, layout: Layout, cap: usize) -> RollLaw<W> {
    let (joint, tail) = layout_joint::<W>(layout, roll.explode_glitch, cap);
    let threshold = match roll.glitch_rule {
        GlitchRule::HalfOrMore => 0,
        GlitchRule::MoreThanHalf => 1,
    };
    let mut law = RollLaw::zero();
    law.tail = tail;
    for (h, row) in joint.rows.iter().enumerate() {
        let h = h as u32;
        let cells = law.cells(roll, h);
        for (i, p) in row.iter().enumerate() {
            if !p.is_zero() {
                let glitched = joint.s_lo + i as i64 >= threshold;
                cells[roll.status(glitched, h) as usize] += p;
            }
        }
    }
    law
}

/// The law of one roll, teamwork included (exact mixture over the dice the
/// helpers add).
pub fn roll_law<W: Weight>(roll: &Roll) -> RollLaw<W> {
    roll_law_capped(roll, None)
}

/// [`roll_law`] with the cap on exploding hits given (tests compare it with
/// an enumeration cut at the same cap).
#[doc(hidden)]
pub fn roll_law_capped<W: Weight>(roll: &Roll, cap: Option<usize>) -> RollLaw<W> {
    if roll.helpers.is_empty() {
        return leader_law(roll, roll.pool, cap);
    }
    let hit = Pmf::bernoulli(W::ratio(1, 3));
    let added = roll.helpers.iter().fold(Pmf::point(0), |acc, &h| {
        acc.convolve(&hit.sum_n(h.max(0) as u32))
    });
    let added = match roll.team_cap {
        Some(c) => added.map(|a| a.min(c as i64)),
        None => added,
    };
    let mut law = RollLaw::zero();
    for (a, p) in added.iter() {
        if !p.is_zero() {
            law.add_scaled(&leader_law(roll, roll.pool + a, cap), p);
        }
    }
    law
}

// ---------------------------------------------------------------------------
// Fast path: every pool at once

/// Odds of a plain roll of `pool` dice.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolOdds<W> {
    /// Pool size.
    pub pool: usize,
    /// `hits[k]` = P(exactly k hits).
    pub hits: Vec<W>,
    /// P(glitch), critical included.
    pub p_glitch: W,
    /// P(critical glitch).
    pub p_critical_glitch: W,
}

/// Plain-roll odds for every pool `1..=max`, computed incrementally: one
/// die is convolved in per step into three dense arrays (hits ~ Bin(n, 1/3),
/// ones ~ Bin(n, 1/6), and P(0 hits, o ones)), so the whole table costs
/// O(max²). P(glitch) = P(ones ≥ o*), P(critical glitch) = P(0 hits, ones ≥
/// o*) with o* = ⌈n/2⌉ (`half-or-more`) or ⌊n/2⌋+1 (`more-than-half`).
pub fn all_pools<W: Weight>(max: usize, rule: GlitchRule) -> Vec<PoolOdds<W>> {
    let (third, two_thirds) = (W::ratio(1, 3), W::ratio(2, 3));
    let (sixth, five_sixths, half) = (W::ratio(1, 6), W::ratio(5, 6), W::ratio(1, 2));
    let mut hits = vec![W::zero(); max + 1];
    let mut ones = vec![W::zero(); max + 1];
    let mut dry = vec![W::zero(); max + 1]; // P(0 hits, o ones)
    hits[0] = W::one();
    ones[0] = W::one();
    dry[0] = W::one();
    let mut out = Vec::with_capacity(max);
    for n in 1..=max {
        for k in (1..=n).rev() {
            hits[k] = hits[k].clone() * &two_thirds + &(hits[k - 1].clone() * &third);
            ones[k] = ones[k].clone() * &five_sixths + &(ones[k - 1].clone() * &sixth);
            dry[k] = dry[k].clone() * &half + &(dry[k - 1].clone() * &sixth);
        }
        hits[0] = hits[0].clone() * &two_thirds;
        ones[0] = ones[0].clone() * &five_sixths;
        dry[0] = dry[0].clone() * &half;
        let o_star = match rule {
            GlitchRule::HalfOrMore => n.div_ceil(2),
            GlitchRule::MoreThanHalf => n / 2 + 1,
        };
        let sum = |v: &[W]| v[o_star..=n].iter().fold(W::zero(), |a, b| a + b);
        out.push(PoolOdds {
            pool: n,
            hits: hits[..=n].to_vec(),
            p_glitch: sum(&ones),
            p_critical_glitch: sum(&dry),
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Reports

fn roll_params<W: Weight>(mut r: Report<W>, prefix: &str, roll: &Roll) -> Report<W> {
    let p = |name: &str| format!("{prefix}{name}");
    let (edge, edge_use) = match roll.edge {
        Some(e) => (
            serde_json::Value::from(e.dice),
            serde_json::Value::from(option_name(e.use_)),
        ),
        None => (serde_json::Value::Null, serde_json::Value::Null),
    };
    r = r
        .param(&p("pool"), roll.pool)
        .param(&p("limit"), roll.limit)
        .param(&p("edge"), edge)
        .param(&p("edge_use"), edge_use);
    if prefix.is_empty() {
        r = r
            .param("glitch_rule", option_name(roll.glitch_rule))
            .param("explode_glitch", option_name(roll.explode_glitch))
            .param("negate_critical", option_name(roll.negated_critical))
            .param("tail_eps", roll.tail_eps)
            .param("edge_limit", option_name(roll.edge_limit));
    }
    r.param(&p("helpers"), roll.helpers.clone())
        .param(&p("team_cap"), roll.team_cap)
}

fn roll_notes<W: Weight>(mut r: Report<W>, roll: &Roll, law: &RollLaw<W>, who: &str) -> Report<W> {
    if !law.no_roll.is_zero() {
        r = r.note(format!(
            "{who}pool ≤ 0 and no long shot (push/push-after with Edge): no roll is possible \
             (P = {}), counted as 0 hits and a failure",
            law.no_roll.to_f64()
        ));
    }
    if roll.explodes() {
        r = r.note(format!(
            "{who}exploding dice are cut where their hits get too many: tail_mass = {} \
             is left out, and the probabilities are those of the truncated law",
            crate::export::percent(law.tail.to_f64())
        ));
    }
    r
}

fn glitch_fields<W: Weight>(r: Report<W>, prefix: &str, law: &RollLaw<W>) -> Report<W> {
    r.prob(&format!("{prefix}p_glitch"), law.p_glitch())
        .prob(
            &format!("{prefix}p_critical_glitch"),
            law.p_critical_glitch(),
        )
        .field(&format!("{prefix}hits"), Field::Probs(law.hits()))
        .field(
            &format!("{prefix}expected_hits"),
            Field::Value(law.expected_hits()),
        )
}

/// The report for a check.
pub fn report<W: Weight>(check: &Check) -> Report<W> {
    match check {
        Check::Success { roll, threshold } => {
            let law = roll_law::<W>(roll);
            let tiers = law.tiers(*threshold);
            let mut r = roll_params(Report::from_tiers(ID, NAME_JA, &tiers), "", roll)
                .param("threshold", *threshold)
                .prob("p_critical", tiers.p(Outcome::CriticalSuccess));
            r = glitch_fields(r, "", &law);
            if roll.explodes() {
                r = r.prob("tail_mass", law.tail.clone());
            }
            if *threshold == 0 {
                r = r.note(
                    "threshold 0 (the default): every roll that is made succeeds; \
                     give --threshold for the hits needed (基準値)",
                );
            }
            roll_notes(r, roll, &law, "")
        }
        Check::Buy { roll, threshold } => {
            let bought = (roll.pool.max(0) / 4) as u32;
            let hits = roll.limit.map_or(bought, |l| bought.min(l));
            let mut by_hits = vec![[W::zero(), W::zero(), W::zero()]; hits as usize + 1];
            by_hits[hits as usize][0] = W::one();
            let law = RollLaw {
                by_hits,
                no_roll: W::zero(),
                tail: W::zero(),
            };
            let tiers = law.tiers(*threshold);
            let r = roll_params(Report::from_tiers(ID, NAME_JA, &tiers), "", roll)
                .param("threshold", *threshold)
                .param("buy", true)
                .prob("p_critical", tiers.p(Outcome::CriticalSuccess));
            glitch_fields(r, "", &law).note(format!(
                "hits bought (成功数の購入): floor({}/4) = {bought}, no roll, no glitch",
                roll.pool.max(0)
            ))
        }
        Check::Opposed {
            attacker,
            defender,
            tie_rule,
        } => opposed_report(attacker, defender, *tie_rule),
        Check::Extended(ext) => extended_report(ext),
    }
}

fn opposed_report<W: Weight>(attacker: &Roll, defender: &Roll, tie_rule: TieRuleOpt) -> Report<W> {
    let la = roll_law::<W>(attacker);
    let ld = roll_law::<W>(defender);
    let (a, d) = (la.hits_pmf(), ld.hits_pmf());
    // The laws may be truncated: P(A < B) is computed, not 1 − win − tie.
    let raw = Comparison {
        win: compare(&a, &d).win,
        tie: compare(&a, &d).tie,
        loss: compare(&d, &a).win,
    };
    let c = raw.with_tie_rule(tie_rule.rule());
    let net = a.convolve(&d.map(|x| -x));
    // A critical success (net ≥ 4) is never a tie: under `reroll` it is
    // the chance of the roll that decides the test.
    let critical = raw.decisive(tie_rule.rule(), net.at_least(CRITICAL_NET_HITS as i64));
    let mut r = roll_params(Report::bare(ID, NAME_JA, c.win.clone()), "", attacker);
    r = roll_params(r, "vs_", defender)
        .param("tie_rule", tie_rule.key())
        .prob("p_win", c.win)
        .prob("p_tie", c.tie)
        .prob("p_loss", c.loss)
        .prob("p_critical", critical);
    if tie_rule == TieRuleOpt::Reroll {
        if let Some(e) = raw.expected_rolls() {
            r = r.field("expected_rolls", Field::Value(e));
        }
    }
    r = glitch_fields(r, "", &la);
    r = glitch_fields(r, "vs_", &ld);
    if attacker.explodes() || defender.explodes() {
        let tail = la.tail.clone() + &ld.tail - &(la.tail.clone() * &ld.tail);
        r = r.prob("tail_mass", tail);
    }
    r = roll_notes(r, attacker, &la, "");
    roll_notes(r, defender, &ld, "defender: ")
}

/// Progress of roll `i` of an extended test: its hits, or
/// [`extended::ABORT`] for a critical glitch under `critical_glitch_ends`.
fn extended_step<W: Weight>(ext: &Extended, i: usize) -> Pmf<W> {
    let law = roll_law::<W>(&ext.roll_at(i));
    let mut pairs = vec![(0, law.no_roll.clone())];
    for (h, r) in law.by_hits.iter().enumerate() {
        pairs.push((h as i64, r[0].clone() + &r[1]));
        let crit = if ext.critical_glitch_ends {
            extended::ABORT
        } else {
            h as i64
        };
        pairs.push((crit, r[2].clone()));
    }
    Pmf::from_pairs(pairs)
}

/// The exact law of an extended test (連続テスト). The test ends when a
/// roll would have no dice ([`Extended::rolls_with_dice`]): such a roll is
/// not made (nor counted in `expected_rolls`), and `p_done_by` stays flat
/// from there to the roll limit.
pub fn extended_law<W: Weight>(ext: &Extended) -> extended::ExtendedLaw<W> {
    let mut law = extended::run(ext.target as i64, ext.rolls_with_dice() as usize, |i| {
        extended_step(ext, i)
    });
    let last = law.p_done_by.last().cloned().unwrap_or_else(|| {
        if ext.target == 0 {
            W::one()
        } else {
            W::zero()
        }
    });
    law.p_done_by.resize(ext.max_rolls as usize, last);
    law
}

fn extended_report<W: Weight>(ext: &Extended) -> Report<W> {
    let step = |i: usize| extended_step::<W>(ext, i);
    let law = extended_law::<W>(ext);
    let mut r = roll_params(Report::bare(ID, NAME_JA, law.p_done()), "", &ext.roll)
        .param("threshold", ext.target)
        .param("extended", true)
        .param("max_rolls", ext.max_rolls)
        .param("shrink", ext.shrink)
        .param("critical_glitch_ends", ext.critical_glitch_ends)
        .field("p_done_by", Field::Probs(law.p_done_by.clone()))
        .field("expected_rolls", Field::Value(law.expected_rolls.clone()))
        .prob("p_aborted", law.p_aborted.clone());
    if !ext.shrink {
        if let Some(e) = extended::expected_rolls_unbounded(ext.target as i64, &step(0)) {
            r = r.field("expected_rolls_unbounded", Field::Value(e));
        }
    }
    if ext.roll.pool <= 0 {
        r = r.note("pool ≤ 0: no roll is possible, the extended test fails");
    }
    r.note(format!(
        "extended test (連続テスト): hits summed until they reach {}, at most {} rolls",
        ext.target, ext.max_rolls
    ))
}
