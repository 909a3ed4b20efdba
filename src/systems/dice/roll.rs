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
            Node::Pool(t) if t.is_plain() => {
                let mut dice: Vec<i64> = (0..t.count)
                    .map(|_| match t.faces {
                        DieFaces::D66 => d66(self.faces, D66Sort::None),
                        _ => self.faces.die(t.faces.count()),
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
            // Rolled by `roll_facts` (Command::roll sends them there).
            Node::Pool(_) | Node::Group(_) | Node::Chain(_) => 0,
        }
    }
}

impl Command {
    /// Roll the command once with `faces` and judge it by the plain rule.
    pub fn roll<F: Faces>(&self, faces: &mut F) -> Rolled {
        match &self.body {
            Body::Add(a) if super::pool::uses_engine(&a.expr) => {
                let f = roll_facts(&a.expr, faces, None);
                Rolled {
                    value: f.total,
                    natural: f.natural,
                    success: a.target.map(|(cmp, t)| cmp.holds(f.total, t)),
                    total: None,
                    faces: f.dice.iter().map(|d| d.face).collect(),
                }
            }
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

// ---- The pool engine's plain rule: every die rolled, every fact read ----

use super::pool::die::explode_cond;
use super::pool::push::{rule_for, PushRule};
use super::pool::Stat;

/// One die as it lies on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DieRec {
    /// Its face (a compounding die: the sum of its rolls).
    pub face: i64,
    /// What it scores.
    pub score: Score,
    /// The named term it belongs to.
    pub term: Option<String>,
}

/// Every fact of one roll, read from its dice (what [`Stat`]s are, by the
/// plain rule; the pool engine's laws are checked against these).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// The result.
    pub total: i64,
    /// The kept faces summed before arithmetic.
    pub natural: i64,
    /// Every die rolled (explosions included), in the order rolled.
    pub dice: Vec<DieRec>,
    /// Named terms' values.
    pub named: Vec<(String, i64)>,
    /// Whether the check was pushed.
    pub pushed: bool,
}

impl Facts {
    /// The value of a statistic.
    pub fn stat(&self, s: &Stat) -> i64 {
        s.of_roll(self)
    }
}

/// One die of a pool term as rolled: its parts (one, or an `!` chain).
type Rolled1 = Vec<(i64, Score)>;

/// The dice of every term, in the order rolled.
#[derive(Clone, Debug, Default)]
struct Table {
    terms: Vec<Vec<Rolled1>>,
    /// Chained parts, rolled stage by stage as they came.
    chained: Vec<Facts>,
}

/// Where evaluation is in a [`Table`].
#[derive(Default)]
struct Cursor {
    term: usize,
    chained: usize,
}

/// One roll of a side of `t`'s die; `initial`: the die's first roll (an
/// `ri` reroll takes only that one).
fn roll_side<F: Faces>(t: &PoolTerm, sides: &[Score], faces: &mut F, initial: bool) -> Score {
    let mut s = draw(t, sides, faces);
    let reroll = t.reroll().filter(|_| initial || !t.rerolls_first_only());
    if let Some((cond, once)) = reroll {
        let mut k = 0;
        while cond.holds(s.value) && k < MAX_ROLLED {
            s = draw(t, sides, faces);
            k += 1;
            if once {
                break;
            }
        }
    }
    s
}

/// One side of `t`'s die as the dice fall: D66 rolls its two d6 (tens
/// and ones as rolled); any other die one die of its sides.
fn draw<F: Faces>(t: &PoolTerm, sides: &[Score], faces: &mut F) -> Score {
    match t.faces {
        DieFaces::D66 => Score::num(d66(faces, D66Sort::None)),
        _ => sides[(faces.die(sides.len() as i64) - 1) as usize].clone(),
    }
}

fn add_units(acc: &mut Score, s: &Score) {
    acc.value += s.value;
    for (u, k) in &s.units {
        match acc.units.iter_mut().find(|(n, _)| n == u) {
            Some((_, v)) => *v += k,
            None => acc.units.push((u.clone(), *k)),
        }
    }
    acc.units.retain(|(_, v)| *v != 0);
    acc.units.sort();
}

/// Roll one die of `t` by its procedure (reroll, then explode).
fn roll_pool_die<F: Faces>(t: &PoolTerm, faces: &mut F) -> Rolled1 {
    let sides = t.faces.sides();
    match explode_cond(t) {
        None => {
            let s = roll_side(t, &sides, faces, true);
            vec![(s.value, super::pool::die::score_of(t, &s))]
        }
        Some((cond, true)) => {
            let mut sum = Score::default();
            for k in 0..MAX_ROLLED {
                let s = roll_side(t, &sides, faces, k == 0);
                add_units(&mut sum, &s);
                if !cond.holds(s.value) {
                    break;
                }
            }
            let face = sum.value;
            let score = if t.scores.is_empty() {
                sum
            } else {
                super::pool::die::score_of(t, &Score::num(face))
            };
            vec![(face, score)]
        }
        Some((cond, false)) => {
            let mut out = Vec::new();
            for k in 0..MAX_ROLLED {
                let s = roll_side(t, &sides, faces, k == 0);
                let again = cond.holds(s.value);
                out.push((s.value, super::pool::die::score_of(t, &s)));
                if !again {
                    break;
                }
            }
            out
        }
    }
}

fn roll_term_dice<F: Faces>(t: &PoolTerm, faces: &mut F) -> Vec<Rolled1> {
    (0..t.count).map(|_| roll_pool_die(t, faces)).collect()
}

/// Roll every term's dice, left to right (BCDice's order).
fn roll_table<F: Faces>(n: &Node, faces: &mut F, table: &mut Table) {
    match n {
        Node::Num(_) => {}
        Node::Pool(t) => table.terms.push(roll_term_dice(t, faces)),
        Node::Neg(b) | Node::Paren(b) => roll_table(b, faces, table),
        Node::Bin(_, a, b) => {
            roll_table(a, faces, table);
            roll_table(b, faces, table);
        }
        Node::Group(g) => {
            for it in &g.items {
                roll_table(it, faces, table);
            }
        }
        Node::Chain(c) => table.chained.push(super::chained::roll(c, faces)),
    }
}

/// Evaluate the expression on rolled dice: (value, natural).
fn eval_table(n: &Node, table: &Table, next: &mut Cursor, facts: &mut Facts) -> (i64, i64) {
    match n {
        Node::Num(v) => (*v, 0),
        Node::Neg(b) => {
            let (v, nat) = eval_table(b, table, next, facts);
            (v.saturating_neg(), nat)
        }
        Node::Paren(b) => eval_table(b, table, next, facts),
        Node::Bin(op, a, b) => {
            let (x, nx) = eval_table(a, table, next, facts);
            let (y, ny) = eval_table(b, table, next, facts);
            (op.apply(x, y).unwrap_or(i64::MAX), nx + ny)
        }
        Node::Pool(t) => {
            let dice = &table.terms[next.term];
            next.term += 1;
            let (filter, name) = (t.filter, t.name.clone());
            for d in dice {
                for (face, score) in d {
                    facts.dice.push(DieRec {
                        face: *face,
                        score: score.clone(),
                        term: name.clone(),
                    });
                }
            }
            let (value, natural) = match filter {
                None => dice
                    .iter()
                    .flatten()
                    .fold((0i64, 0i64), |(v, f), (face, s)| {
                        (v.saturating_add(s.value), f.saturating_add(*face))
                    }),
                Some((filter, k)) => {
                    // One part per die (keep/drop is refused on `!` chains).
                    let mut ones: Vec<(i64, i64)> =
                        dice.iter().map(|d| (d[0].0, d[0].1.value)).collect();
                    ones.sort_unstable();
                    let (high, keep) = filter.as_keep(k, ones.len() as i64);
                    let keep = keep as usize;
                    let kept: Vec<(i64, i64)> = if high {
                        ones.iter().rev().take(keep).copied().collect()
                    } else {
                        ones.iter().take(keep).copied().collect()
                    };
                    kept.iter()
                        .fold((0, 0), |(v, f), (face, s)| (v + s, f + face))
                }
            };
            if let Some(name) = name {
                facts.named.push((name, value));
            }
            (value, natural)
        }
        Node::Group(g) => {
            let mut items: Vec<i64> = g
                .items
                .iter()
                .map(|it| eval_table(it, table, next, facts).0)
                .collect();
            items.sort_unstable();
            let value: i64 = match g.filter {
                None => items.iter().sum(),
                Some((filter, k)) => {
                    let (high, keep) = filter.as_keep(k, items.len() as i64);
                    let keep = keep as usize;
                    if high {
                        items.iter().rev().take(keep).sum()
                    } else {
                        items.iter().take(keep).sum()
                    }
                }
            };
            if let Some(name) = &g.name {
                facts.named.push((name.clone(), value));
            }
            // A group's natural is its kept items' total.
            (value, value)
        }
        Node::Chain(_) => {
            let f = &table.chained[next.chained];
            next.chained += 1;
            facts.dice.extend(f.dice.iter().cloned());
            (f.total, f.natural)
        }
    }
}

fn facts_of(expr: &Node, table: &Table) -> Facts {
    let mut facts = Facts::default();
    let mut next = Cursor::default();
    let (v, nat) = eval_table(expr, table, &mut next, &mut facts);
    facts.total = v;
    facts.natural = nat;
    facts
}

/// Every term, in rolling order.
fn term_nodes<'a>(n: &'a Node, out: &mut Vec<&'a PoolTerm>) {
    match n {
        Node::Pool(t) => out.push(t),
        Node::Neg(b) | Node::Paren(b) => term_nodes(b, out),
        Node::Bin(_, a, b) => {
            term_nodes(a, out);
            term_nodes(b, out);
        }
        Node::Group(g) => {
            for it in &g.items {
                term_nodes(it, out);
            }
        }
        Node::Num(_) | Node::Chain(_) => {}
    }
}

/// A push for the plain rule: its rules, and whether a first roll pushes.
pub type PushWith<'a> = (&'a [PushRule], &'a dyn Fn(&Facts) -> bool);

/// Roll an expression by the plain rule and read every fact. With a push,
/// `push_when` judges the first roll; when it holds, the dice meeting the
/// push rules are rerolled once (each by its whole die procedure) and the
/// facts are read again, with `pushed` set.
pub fn roll_facts<F: Faces>(expr: &Node, faces: &mut F, push: Option<PushWith<'_>>) -> Facts {
    let mut table = Table::default();
    roll_table(expr, faces, &mut table);
    let first = facts_of(expr, &table);
    let Some((rules, when)) = push else {
        return first;
    };
    if !when(&first) {
        return first;
    }
    let mut terms = Vec::new();
    term_nodes(expr, &mut terms);
    for (i, t) in terms.iter().enumerate() {
        let Some(rule) = rule_for(rules, t.name.as_deref()) else {
            continue;
        };
        for d in table.terms[i].iter_mut() {
            if rule.cond.holds(d[0].0) {
                *d = roll_pool_die(t, faces);
            }
        }
    }
    let mut pushed = facts_of(expr, &table);
    pushed.pushed = true;
    pushed
}
