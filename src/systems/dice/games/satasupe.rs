//! Satasupe (`Satasupe`, サタスペ): `nR>=x[y,z,c[S]]` (判定), as BCDice codes
//! it (`Satasupe.rb`).
//!
//! Up to n rolls of 2D6. Before each roll, if a goal y (目標成功度) is set
//! and reached, the rolling stops. A roll whose sum is ≥ x (難易度) is one
//! success (成功度); a sum ≥ c is 必殺 (stopping the rolls with `S`); a
//! pair of equal dice at most z (ファンブル率, default 1) is a ファンブル:
//! it cancels the 必殺 and stops. x above 12 is cut to 12 and the excess
//! added to z; c outside 1–12 means no 必殺; z ≥ 6 is an automatic failure
//! without a roll (ファンブル率が6を超えたため自動失敗！); x below 5 is 5.
//! BCDice prints the 成功度, then ファンブル, or 必殺発動可能！ when a 必殺
//! came with at least one success. Its flags: failure and fumble on a
//! ファンブル, critical on 必殺発動可能！, success when the goal y is set and
//! reached without a fumble (hantei's reading of BCDice's tests: no case
//! has all three).
//!
//! The law: each roll's sum, doubles and highest die from the pool
//! engine ([`super::facts`]), then the rolls in turn over the state
//! (successes so far, 必殺 seen): at most n rolls, no tail.
//!
//! BCDice vs the book: none found for the check; 性業値 (`SRx`), the
//! information, encounter and other tables are not offered.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::systems::dice::pool::Stat;
use crate::systems::dice::roll::Faces;
use crate::weight::AddWeight;
use crate::weight::Weight;

use super::facts;
use super::{GameCmd, GameLaw, Outcome, Rolled};

/// Most rolls one check takes.
pub const MAX_ROLLS: i64 = 200;

/// `nR>=x[y,z,c]` with BCDice's adjustments made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cmd {
    /// Most rolls.
    pub rolls: i64,
    /// 難易度 (5–12 after adjustment).
    pub target: i64,
    /// 目標成功度 (0: none).
    pub goal: i64,
    /// ファンブル率 (after adjustment).
    pub fumble: i64,
    /// 必殺値 (13: none).
    pub critical: i64,
    /// Stop at the first 必殺.
    pub stop: bool,
}

const AUTO_FAILURE: Outcome = Outcome::fail(
    "auto_failure",
    "automatic failure (fumble rate 6 or more)",
    "ファンブル率が6を超えたため自動失敗！",
);
const FUMBLE: Outcome = Outcome::fail("fumble", "fumble", "ファンブル").fumb();
const CRITICAL: Outcome =
    Outcome::fail("critical", "critical (必殺) available", "必殺発動可能！").crit();
const CRITICAL_GOAL: Outcome =
    Outcome::succeed("critical_goal", "critical, goal reached", "必殺発動可能！").crit();
const GOAL: Outcome = Outcome::succeed("goal", "goal reached", "目標成功度達成").unprinted();
const SHORT: Outcome = Outcome::fail("short", "goal not reached", "目標成功度未達").unprinted();

/// Read `nR>=x[y,z,c[S]]`.
pub fn parse(text: &str) -> Result<Option<GameCmd>> {
    let Some(cmd) = read(text) else {
        return Ok(None);
    };
    if cmd.rolls > MAX_ROLLS {
        return Err(Error::param(
            "EXPR",
            text,
            format!("Satasupe: at most {MAX_ROLLS} rolls"),
        ));
    }
    Ok(Some(GameCmd::Satasupe(cmd)))
}

fn num(s: &str) -> Option<i64> {
    if s.is_empty() {
        return Some(0);
    }
    if s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn read(text: &str) -> Option<Cmd> {
    let (rolls, rest) = text.split_once("R>=")?;
    if rolls.is_empty() {
        return None;
    }
    let rolls = num(rolls)?;
    let (x, params) = match rest.find('[') {
        Some(i) => (&rest[..i], Some(rest[i + 1..].strip_suffix(']')?)),
        None => (rest, None),
    };
    if x.is_empty() {
        return None;
    }
    let mut target = num(x)?;
    let (mut goal, mut fumble, mut critical, mut stop) = (0, 1, 13, false);
    if let Some(p) = params {
        let parts: Vec<&str> = p.split(',').collect();
        if parts.len() > 3 {
            return None;
        }
        goal = num(parts[0])?;
        if let Some(z) = parts.get(1) {
            let z = num(z)?;
            if z != 0 {
                fumble = z;
            }
        }
        if let Some(c) = parts.get(2) {
            let (c, s) = match c.strip_suffix('S') {
                Some(c) => (c, true),
                None => (*c, false),
            };
            if c.is_empty() {
                return None;
            }
            critical = num(c)?;
            stop = s;
        }
    }
    if target > 12 {
        fumble += target - 12;
        target = 12;
    }
    if !(1..=12).contains(&critical) {
        critical = 13;
    }
    target = target.max(5);
    Some(Cmd {
        rolls,
        target,
        goal,
        fumble,
        critical,
        stop,
    })
}

/// What one roll of 2D6 brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Step {
    success: bool,
    critical: bool,
    fumble: bool,
}

impl Cmd {
    fn auto_failure(&self) -> bool {
        self.fumble >= 6
    }

    fn step(&self, a: i64, b: i64) -> Step {
        Step {
            success: a + b >= self.target,
            critical: a + b >= self.critical,
            fumble: a == b && a <= self.fumble,
        }
    }

    /// The word of a finished check.
    fn word(&self, successes: i64, critical: bool, fumble: bool) -> Option<Outcome> {
        let reached = self.goal > 0 && successes >= self.goal;
        if fumble {
            Some(FUMBLE)
        } else if critical && successes > 0 {
            Some(if reached { CRITICAL_GOAL } else { CRITICAL })
        } else if self.goal > 0 {
            Some(if reached { GOAL } else { SHORT })
        } else {
            None
        }
    }

    /// The plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        if self.auto_failure() {
            return Rolled {
                value: None,
                outcome: Some(AUTO_FAILURE),
            };
        }
        let (mut n, mut crit, mut fumble) = (0, false, false);
        for _ in 0..self.rolls {
            if self.goal != 0 && n >= self.goal {
                break;
            }
            let a = faces.die(6);
            let b = faces.die(6);
            let s = self.step(a, b);
            n += i64::from(s.success);
            crit |= s.critical;
            if s.fumble {
                fumble = true;
                crit = false;
                break;
            }
            if crit && self.stop {
                break;
            }
        }
        Rolled {
            value: Some(n),
            outcome: self.word(n, crit, fumble),
        }
    }

    /// The exact law: one roll's facts from the pool engine, then the
    /// rolls in turn.
    pub fn law<W: Weight>(&self) -> Result<GameLaw<W>> {
        if self.auto_failure() {
            let mut law = GameLaw::new(&[AUTO_FAILURE]);
            law.add(0, Some(AUTO_FAILURE), W::one());
            law.prints_value = false;
            return Ok(law);
        }
        let words: Vec<Outcome> = if self.goal > 0 {
            vec![FUMBLE, SHORT, GOAL, CRITICAL, CRITICAL_GOAL]
        } else {
            vec![FUMBLE, CRITICAL]
        };
        let mut law = GameLaw::new(&words);
        if self.goal == 0 {
            // BCDice flags no success without a goal.
            law.judges = false;
        }
        // One roll: the sum, whether the dice are equal, the higher die.
        let mut steps: BTreeMap<Step, W> = BTreeMap::new();
        for c in facts::pool::<W>(2, 6, None, &[Stat::AllEqual, Stat::Max])? {
            let (equal, high) = (c.stats[0] == 1, c.stats[1]);
            let s = Step {
                success: c.total >= self.target,
                critical: c.total >= self.critical,
                fumble: equal && high <= self.fumble,
            };
            steps.entry(s).add_weight(c.p);
        }
        let mut running: BTreeMap<(i64, bool), W> = BTreeMap::from([((0, false), W::one())]);
        let done = |law: &mut GameLaw<W>, n: i64, crit: bool, fumble: bool, p: W| {
            law.add(n, self.word(n, crit, fumble), p);
        };
        for _ in 0..self.rolls {
            let mut next: BTreeMap<(i64, bool), W> = BTreeMap::new();
            for ((n, crit), p) in running {
                if self.goal != 0 && n >= self.goal {
                    done(&mut law, n, crit, false, p);
                    continue;
                }
                for (s, q) in &steps {
                    let n2 = n + i64::from(s.success);
                    let crit2 = crit || s.critical;
                    let pq = p.clone() * q;
                    if s.fumble {
                        done(&mut law, n2, false, true, pq);
                    } else if crit2 && self.stop {
                        done(&mut law, n2, true, false, pq);
                    } else {
                        next.entry((n2, crit2)).add_weight(pq);
                    }
                }
            }
            running = next;
        }
        for ((n, crit), p) in running {
            done(&mut law, n, crit, false, p);
        }
        Ok(law)
    }
}
