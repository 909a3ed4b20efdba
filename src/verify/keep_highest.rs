//! Verification grid of `keep-highest` (seed 002): checks over abilities
//! 1–3 (a d4 with the achieved value capped, critical only on a natural 4),
//! every die size of the ladder (ability boundaries 4, 7, 9, 11, 19, 25),
//! dice counts 1–5, advantage and disadvantage, an unreachable difficulty;
//! and contests under each tie rule, including a passive side that cannot
//! roll.
//!
//! Every sampler rolls the pool's faces with [`Dice`] — `n` dice, or twice
//! `n` with advantage or disadvantage — and judges them with the system's
//! own plain rule, [`Check::classify`] or [`Contest::classify`].

use crate::systems::keep_highest::{
    Check, Contest, ContestResult, Outcome, Pool, Situation, TieRule,
};
use crate::tier::Tier;
use crate::weight::{Exact, Weight};

use super::dice::Dice;
use super::{Point, Sampler};

/// System id.
const SYSTEM: &str = crate::systems::keep_highest::ID;

/// Most faces one side rolls in the grid (`2n` with advantage).
const MAX_FACES: usize = 16;

/// Roll a pool's faces into `buf` (first roll, then the second under
/// advantage or disadvantage) and return them.
fn roll_pool<'a>(pool: &Pool, dice: &mut Dice, buf: &'a mut [u32; MAX_FACES]) -> &'a [u32] {
    let sides = pool.die().sides;
    let n = pool.faces_rolled().min(MAX_FACES);
    for f in buf[..n].iter_mut() {
        *f = dice.roll(sides);
    }
    &buf[..n]
}

/// A check: one pool's faces judged by [`Check::classify`]. Cells: the tiers.
struct CheckSampler {
    check: Check,
}

impl Sampler for CheckSampler {
    fn cells(&self) -> usize {
        Outcome::ALL.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let mut buf = [0; MAX_FACES];
        let faces = roll_pool(&self.check.pool, dice, &mut buf);
        self.check.classify(faces).tier.index()
    }
}

/// Most rounds of a contest whose ties are rolled again.
const MAX_ROUNDS: usize = 10_000;

/// Contest cells: who won (after the tie rule), the active side's win split
/// by whether its kept die shows its natural maximum (クリティカル).
const CONTEST_CELLS: [&str; 4] = ["loss", "tie", "win", "win critical"];

/// A contest: both sides roll (a passive side that cannot roll rolls
/// nothing), judged by [`Contest::classify`].
struct ContestSampler {
    contest: Contest,
}

impl Sampler for ContestSampler {
    fn cells(&self) -> usize {
        CONTEST_CELLS.len()
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        let (mut a, mut b) = ([0; MAX_FACES], [0; MAX_FACES]);
        // Under `reroll` a tied round is rolled again (at most
        // MAX_ROUNDS; a contest still tied then is counted a tie, a cell
        // whose exact mass is 0).
        let rounds = if self.contest.tie_rule == TieRule::Reroll {
            MAX_ROUNDS
        } else {
            1
        };
        let mut r = None;
        for _ in 0..rounds {
            let active = roll_pool(&self.contest.active, dice, &mut a);
            let passive = match &self.contest.passive {
                Some(p) => roll_pool(p, dice, &mut b),
                None => &[],
            };
            let round = self.contest.classify(active, passive);
            r = Some(round);
            if round.result != ContestResult::Tie {
                break;
            }
        }
        let r = r.expect("at least one round");
        match (r.result, r.critical) {
            (ContestResult::Loss, _) => 0,
            (ContestResult::Tie, _) => 1,
            (ContestResult::Win, false) => 2,
            (ContestResult::Win, true) => 3,
        }
    }
}

fn situation_tag(s: Situation) -> &'static str {
    match s {
        Situation::Normal => "",
        Situation::Advantage => " adv",
        Situation::Disadvantage => " dis",
    }
}

fn pool_tag(p: &Pool) -> String {
    let die = p.die();
    let cap = die.cap.map_or(String::new(), |c| format!("≤{c}"));
    format!(
        "v={} {}d{}{cap}{}",
        p.ability(),
        p.dice(),
        die.sides,
        situation_tag(p.situation())
    )
}

fn pool(v: i64, n: i64, s: Situation) -> Pool {
    let p = Pool::new(v, n, s).expect("grid pool is valid");
    assert!(
        p.faces_rolled() <= MAX_FACES,
        "grid pool rolls too many faces"
    );
    p
}

#[doc(hidden)]
pub fn check_point(v: i64, n: i64, difficulty: i64, s: Situation) -> Point {
    let pool = pool(v, n, s);
    let check = Check::new(pool, difficulty).expect("grid check is valid");
    Point {
        system: SYSTEM,
        label: format!("check {} D={difficulty}", pool_tag(&pool)),
        cells: Outcome::ALL.iter().map(|t| t.key().to_string()).collect(),
        exact: check
            .law::<Exact>()
            .iter()
            .map(|(_, p)| p.to_f64())
            .collect(),
        sampler: Box::new(CheckSampler { check }),
    }
}

/// The exact law of [`CONTEST_CELLS`] from the engine: loss and tie from
/// the comparison after the tie rule, the win split by `p_critical`.
fn contest_law(contest: &Contest) -> Vec<Exact> {
    let c = contest.comparison::<Exact>();
    let crit = contest.p_critical::<Exact>();
    vec![c.loss, c.tie, c.win - &crit, crit]
}

fn contest_point(active: Pool, passive: Option<Pool>, tie_rule: TieRule) -> Point {
    let contest = Contest {
        active,
        passive,
        tie_rule,
    };
    let vs = passive.map_or("cannot roll".to_string(), |p| pool_tag(&p));
    Point {
        system: SYSTEM,
        label: format!(
            "contest {} vs {vs} tie={}",
            pool_tag(&active),
            tie_rule.key()
        ),
        cells: CONTEST_CELLS.iter().map(|s| s.to_string()).collect(),
        exact: contest_law(&contest).iter().map(Weight::to_f64).collect(),
        sampler: Box::new(ContestSampler { contest }),
    }
}

/// The default verification grid of this system.
///
/// * Checks (12): ability 1 (every roll a fumble); abilities 2 and 3 (capped
///   d4; a natural 4 is critical, and under advantage / disadvantage the
///   roll showing it is preferred / avoided on equal values); each die size
///   d4, d6, d8, d10, d12, d20 at the abilities where the size changes; 1–5
///   dice; advantage and disadvantage; a difficulty above the highest
///   achievable value.
/// * Contests (7): each tie rule (separate, active, passive, and reroll:
///   rounds rolled until one decides), capped d4 on either side, advantage
///   against disadvantage, and a passive side that cannot roll (achieved
///   value 0) against a capped and an ability-1 pool.
pub fn grid() -> Vec<Point> {
    use Situation::{Advantage as Adv, Disadvantage as Dis, Normal};
    let mut points = vec![
        check_point(1, 2, 2, Normal),
        check_point(2, 3, 2, Normal),
        check_point(3, 2, 3, Adv),
        check_point(3, 1, 2, Dis),
        check_point(4, 1, 3, Normal),
        check_point(5, 2, 20, Adv),
        check_point(7, 3, 5, Normal),
        check_point(9, 2, 6, Adv),
        check_point(11, 4, 8, Dis),
        check_point(19, 2, 10, Normal),
        check_point(20, 3, 15, Adv),
        check_point(25, 5, 20, Dis),
    ];
    let vs = |v, n, s| Some(Pool::new_vs(v, n, s).expect("grid pool is valid"));
    for (active, passive, tie) in [
        (pool(6, 2, Normal), vs(7, 2, Normal), TieRule::Separate),
        (pool(3, 2, Adv), vs(4, 1, Normal), TieRule::Active),
        (pool(8, 1, Dis), vs(10, 2, Adv), TieRule::Passive),
        (pool(12, 3, Normal), vs(2, 2, Dis), TieRule::Separate),
        (pool(2, 1, Normal), None, TieRule::Separate),
        (pool(1, 2, Adv), None, TieRule::Passive),
        (pool(6, 2, Normal), vs(6, 2, Normal), TieRule::Reroll),
    ] {
        points.push(contest_point(active, passive, tie));
    }
    points
}
