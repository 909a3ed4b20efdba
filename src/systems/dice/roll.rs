//! The plain rule: a command judged on given faces, exactly as BCDice
//! rolls and reads them. Monte Carlo (`hantei verify --system dice`) and
//! the BCDice peer cases both go through here; the exact laws never do.

use super::ast::*;

/// What one roll of a command came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// The result: the total (加算ダイス, D66), the number of successes
    /// (xB, xR, xU with a target), the largest group (xU without one) or
    /// the faces' sum (xB without a target).
    pub value: i64,
    /// The kept dice before arithmetic (加算ダイス); the value otherwise.
    pub natural: i64,
    /// 成功/失敗 of a 加算ダイス comparison.
    pub success: Option<bool>,
    /// xU without a target: the sum of every group plus the modifier once.
    pub total: Option<i64>,
    /// Every face read, in the order rolled (D66 as its two-digit value).
    pub faces: Vec<i64>,
}

/// A source of faces: `die(sides)` gives 1..=sides.
pub trait Faces {
    /// One die of `sides` faces.
    fn die(&mut self, sides: i64) -> i64;
}

impl<F: FnMut(i64) -> i64> Faces for F {
    fn die(&mut self, sides: i64) -> i64 {
        self(sides)
    }
}

/// Most dice rolled by one exploding command before the roll is cut off
/// (the exact laws report the same cut as a tail).
pub const MAX_ROLLED: usize = 1_000_000;

fn d66<F: Faces>(faces: &mut F, sort: D66Sort) -> i64 {
    let (a, b) = (faces.die(6), faces.die(6));
    let (hi, lo) = (a.max(b), a.min(b));
    match sort {
        D66Sort::None => 10 * a + b,
        D66Sort::Ascending => 10 * lo + hi,
        D66Sort::Descending => 10 * hi + lo,
    }
}

struct AddRoll<'a, F> {
    faces: &'a mut F,
    natural: i64,
    all: Vec<i64>,
}

impl<F: Faces> AddRoll<'_, F> {
    fn eval(&mut self, node: &Node) -> i64 {
        match node {
            Node::Num(v) => *v,
            Node::Neg(b) => -self.eval(b),
            Node::Paren(b) => self.eval(b),
            Node::Bin(op, a, b) => {
                let x = self.eval(a);
                let y = self.eval(b);
                // The law refuses expressions whose range overflows.
                op.apply(x, y).unwrap_or(i64::MAX)
            }
            Node::Dice(t) => {
                let mut dice: Vec<i64> = (0..t.count)
                    .map(|_| match t.sides {
                        Sides::N(s) => self.faces.die(s),
                        Sides::D66 => d66(self.faces, D66Sort::None),
                    })
                    .collect();
                self.all.extend(&dice);
                let kept: i64 = match t.filter {
                    None => dice.iter().sum(),
                    Some((filter, n)) => {
                        dice.sort_unstable();
                        let (high, k) = filter.as_keep(n, t.count);
                        let k = k as usize;
                        if high {
                            dice.iter().rev().take(k).sum()
                        } else {
                            dice.iter().take(k).sum()
                        }
                    }
                };
                self.natural += kept;
                kept
            }
        }
    }
}

impl Command {
    /// Roll the command once with `faces` and judge it by the plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        match &self.body {
            Body::Add(a) => {
                let mut r = AddRoll {
                    faces,
                    natural: 0,
                    all: Vec::new(),
                };
                let total = r.eval(&a.expr);
                Rolled {
                    value: total,
                    natural: r.natural,
                    success: a.target.map(|(cmp, t)| cmp.holds(total, t)),
                    total: None,
                    faces: r.all,
                }
            }
            Body::D66(sort) => {
                let v = d66(faces, *sort);
                Rolled {
                    value: v,
                    natural: v,
                    success: None,
                    total: None,
                    faces: vec![v],
                }
            }
            Body::Barabara(b) => {
                let mut all = Vec::new();
                for g in &b.groups {
                    for _ in 0..g.count {
                        all.push(faces.die(g.sides));
                    }
                }
                let value = match b.target {
                    Some((cmp, t)) => all.iter().filter(|&&f| cmp.holds(f, t)).count() as i64,
                    None => all.iter().sum(),
                };
                Rolled {
                    value,
                    natural: value,
                    success: None,
                    total: None,
                    faces: all,
                }
            }
            Body::Reroll(r) => {
                // BCDice's queue: each group in order, rerolls at the back.
                let mut queue: std::collections::VecDeque<Group> =
                    r.groups.iter().copied().collect();
                let mut all = Vec::new();
                let mut successes = 0;
                while let Some(g) = queue.pop_front() {
                    let mut again = 0;
                    for _ in 0..g.count {
                        let f = faces.die(g.sides);
                        all.push(f);
                        if r.target.is_some_and(|t| t.holds(f)) {
                            successes += 1;
                        }
                        if r.reroll.holds(f) {
                            again += 1;
                        }
                    }
                    if all.len() >= MAX_ROLLED {
                        break;
                    }
                    if again > 0 {
                        queue.push_back(Group {
                            count: again,
                            sides: g.sides,
                        });
                    }
                }
                Rolled {
                    value: successes,
                    natural: successes,
                    success: None,
                    total: None,
                    faces: all,
                }
            }
            Body::Upper(u) => {
                let mut all = Vec::new();
                let mut sums = Vec::new();
                for g in &u.groups {
                    for _ in 0..g.count {
                        let mut sum = 0;
                        loop {
                            let f = faces.die(g.sides);
                            all.push(f);
                            sum += f;
                            if f < u.threshold || all.len() >= MAX_ROLLED {
                                break;
                            }
                        }
                        sums.push(sum);
                    }
                }
                let (value, total) = match u.target {
                    Some(t) => (
                        sums.iter().filter(|&&s| t.holds(s + u.modifier)).count() as i64,
                        None,
                    ),
                    None => (
                        sums.iter()
                            .map(|s| s + u.modifier)
                            .max()
                            .unwrap_or(u.modifier),
                        Some(sums.iter().sum::<i64>() + u.modifier),
                    ),
                };
                Rolled {
                    value,
                    natural: value,
                    success: None,
                    total,
                    faces: all,
                }
            }
        }
    }
}
