//! Chained rolls (連続ロール): a roll whose result decides the next.
//!
//! | written | what it rolls |
//! |---|---|
//! | `(1D20+5 -> natural==20: 2D8+4; >=15: 1D8+4; 0)` | the first roll, then the follow-up of the first branch whose condition it meets (the last branch without a condition takes the rest; without one, the rest gives 0) |
//! | `(5DX7+4 -> >=15: (result/10+1)D10+8; 0)` | a follow-up that reads the first roll: `result` (`total`, `達成値`) and `natural` are its values |
//! | `(2D6+5>=11 -> success: 1D8; 0)` | a first roll with a target: `success` is whether it met it; a game command's first roll gives `success`, `critical`, `fumble` and its words (`extreme`, `hard` for CoC 7th) |
//! | `(3B6>=4)D6`, `(1D4)D6KH2` | a pool whose size is rolled: that many dice, read as one pool |
//! | `3D(1D20+5 -> …)`, `(1D3)D(…)` | a roll repeated (a round of attacks): the results added, every statistic combined as the dice's are |
//! | `(2B6>=4)`, `(1D20>=15)` | a command's result as a number: successes of `xB`/`xR`/`xU`, 1 or 0 for a compared sum |
//! | `max(0, 2D6-3)`, `min(10, 1D6+1D10)` | clamps (a group kept by its highest or lowest item, `{0,2D6-3}KH1`) |
//!
//! A chain's statistics (what `--tier` reads: `count(6)`, `max`, `natural`)
//! are those of the roll that gives its result: the follow-up taken, the
//! repeated rolls together, the dice of a rolled-size pool; the first roll
//! and a rolled count are read only by the chain itself. Names inside a
//! follow-up are not read from outside, so they are refused there.
//!
//! **The law** is exact and built from the laws of the stages, never by
//! enumerating rolls: the first roll's joint law of what the branches read
//! (the pool engine, or a game's law), then per cell the follow-up's law
//! under the caller's statistics, weighted and added. Follow-ups that read
//! the first roll are substituted and folded to constants, and equal ones
//! are computed once (`(34/10+1)D10` and `(35/10+1)D10` are one law). A
//! rolled count's law is taken first; the pool of each size it can show is
//! then the engine's law of that many dice. **The plain rule**
//! ([`roll`]) rolls the stages one after another, as a table does.

use std::collections::HashMap;
use std::fmt;

use super::ast::{Body, Command, Node};
use super::cond;
use super::games::{self, GameCmd};
use super::pool::{self, add_to, Ctx, Map, Stat};
use super::roll::{Faces, Facts};
use crate::error::{Error, Result};
use crate::pmf::Pmf;
use crate::weight::AddWeight;
use crate::weight::Weight;

/// Most distinct follow-up laws one chain computes (each a law of its own).
pub const MAX_FOLLOW_UPS: usize = 20_000;

/// Most steps of the follow-ups of a chain's branches read by their total
/// (`1D300 -> >=2: (result)D100; 0`, 4.5·10¹⁰, took 8 s on the 2-core
/// reference machine; `1D100 -> …`, 1.7·10⁹, 0.3 s).
pub const MAX_FOLLOW_UP_WORK: u64 = 30_000_000_000;

/// Most big-fraction steps of a rolled count's rolls in exact fractions
/// (`--exact`): the steps of the rolls one at a time times the most rolls
/// (`(1D20)D20`, 1.6 million, takes 0.2 s on the 2-core reference
/// machine; `(1D100)D100`, 5·10⁹, ran for minutes).
pub const MAX_EXACT_REPEAT: u64 = 50_000_000;

/// The flags a first roll with a target, or a game command, offers to its
/// branches' conditions.
pub const FLAGS: &[&str] = &["success", "critical", "fumble"];

/// Whether `text` is written as a chain (`A -> …`).
pub fn is_chain(text: &str) -> bool {
    let t = super::parse::normalize_width(text);
    t.contains("->") || t.contains('→')
}

/// A roll decided by another roll.
#[derive(Clone, Debug, PartialEq)]
pub enum Chained {
    /// `(FIRST -> COND: THEN; …; ELSE)`.
    Branch(Branching),
    /// `(COUNT)D6…` or `COUNT D(EXPR)`.
    Repeat(Repeat),
    /// `(2B6>=4)`: a command's result as a number.
    Command(Command),
    /// A game command's printed value, `(K20+5@10)`.
    Game(GameTerm),
    /// The first roll's statistic, inside a follow-up: `result`, `natural`.
    Fact(Stat),
}

/// A first roll and the follow-ups its tiers lead to.
#[derive(Clone, Debug, PartialEq)]
pub struct Branching {
    /// What is rolled first.
    pub first: Stage,
    /// The branches, in order; the first whose condition holds is taken.
    pub branches: Vec<Branch>,
}

impl Branching {
    /// What the branches read of the first roll: its result, their
    /// conditions' statistics and (`facts`) what their follow-ups use.
    fn reads(&self, facts: bool) -> Vec<Stat> {
        let mut reads = vec![Stat::Total];
        for br in &self.branches {
            for s in br.cond.iter().flat_map(cond::Expr::stats) {
                if !reads.contains(&s) {
                    reads.push(s);
                }
            }
            if facts {
                facts_of(&br.then, &mut reads);
            }
        }
        reads
    }

    /// The branch a first roll with these statistics takes.
    fn taken(&self, get: &dyn Fn(&Stat) -> i64) -> Option<usize> {
        self.branches
            .iter()
            .position(|br| br.cond.as_ref().is_none_or(|c| c.holds(get)))
    }
}

/// The first roll of a chain.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// A common command (`1D20+5`, `2D6+5>=11`, `3B6>=4`).
    Command(Command),
    /// A game command (`CC<=50`, `5DX7+4`).
    Game(GameTerm),
}

/// `COND: THEN` (or the last `THEN` alone, taking the rest).
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    /// When the branch is taken (`None`: always).
    pub cond: Option<cond::Expr>,
    /// The follow-up roll.
    pub then: Node,
}

/// A roll repeated a (possibly rolled) number of times.
#[derive(Clone, Debug, PartialEq)]
pub struct Repeat {
    /// How many (a rolled or constant expression).
    pub count: Node,
    /// What is rolled: a dice term of one die (`pool`), or an expression.
    pub body: Node,
    /// `(COUNT)D6…`: one pool of COUNT dice (keep/drop across them);
    /// otherwise `COUNT D(EXPR)`: COUNT rolls of the expression, added.
    pub pool: bool,
}

/// A game command inside a dice expression.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTerm {
    /// The game's BCDice id.
    pub game: &'static str,
    /// The command as written (upper case, half-width).
    pub text: String,
    /// The command.
    pub cmd: GameCmd,
    /// Its result words' keys.
    pub words: Vec<&'static str>,
    /// Whether its law is cut below `--tail-eps` (a chain of rerolls).
    pub cuts: bool,
}

impl GameTerm {
    /// The command `text` of `game`, with the words its law can give.
    /// A chain of rolls' words are known without its law (which takes
    /// seconds: `K100@3`, 1,226 rounds), so it is read only when asked for.
    pub fn new(game: &'static games::Game, text: &str, cmd: GameCmd) -> Result<GameTerm> {
        let (words, cuts) = match cmd.words() {
            Some((words, cuts)) => (words, cuts),
            None => {
                let law = cmd.law::<f64>(super::DEFAULT_TAIL_EPS)?;
                (law.outcomes, law.tail.is_some())
            }
        };
        Ok(GameTerm {
            game: game.id,
            text: text.to_string(),
            words: words.iter().map(|o| o.key).collect(),
            cuts,
            cmd,
        })
    }
}

impl fmt::Display for Chained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chained::Branch(b) => {
                write!(f, "({} -> ", b.first)?;
                for (i, br) in b.branches.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    if let Some(c) = &br.cond {
                        write!(f, "{c}: ")?;
                    }
                    write!(f, "{}", br.then)?;
                }
                f.write_str(")")
            }
            Chained::Repeat(r) => {
                match &r.count {
                    Node::Num(v) => write!(f, "{v}")?,
                    c @ (Node::Paren(_) | Node::Chain(_)) => write!(f, "{c}")?,
                    c => write!(f, "({c})")?,
                }
                if r.pool {
                    // The term as written for one die, without its count.
                    let one = r.body.to_string();
                    f.write_str(one.strip_prefix('1').unwrap_or(&one))
                } else {
                    match &r.body {
                        b @ (Node::Paren(_) | Node::Chain(_)) => write!(f, "D{b}"),
                        b => write!(f, "D({b})"),
                    }
                }
            }
            Chained::Command(c) => write!(f, "({c})"),
            Chained::Game(g) => write!(f, "({})", g.text),
            Chained::Fact(Stat::Total) => f.write_str("result"),
            Chained::Fact(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Command(c) => write!(f, "{c}"),
            Stage::Game(g) => f.write_str(&g.text),
        }
    }
}

impl Stage {
    /// The named terms and scores its branches' conditions may read, and
    /// its yes/no flags (`success` of a target; a game's flags and words).
    pub fn names(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        match self {
            Stage::Command(c) => {
                let (terms, units) = match &c.body {
                    Body::Add(a) => (
                        pool::term_names(&a.expr)
                            .into_iter()
                            .map(String::from)
                            .collect(),
                        pool::unit_names(&a.expr),
                    ),
                    _ => (Vec::new(), Vec::new()),
                };
                let flags = if has_target(c) {
                    vec!["success".to_string()]
                } else {
                    Vec::new()
                };
                (terms, units, flags)
            }
            Stage::Game(g) => {
                let mut flags: Vec<String> = FLAGS.iter().map(|s| s.to_string()).collect();
                for w in &g.words {
                    if !flags.iter().any(|t| t == w) {
                        flags.push(w.to_string());
                    }
                }
                (Vec::new(), Vec::new(), flags)
            }
        }
    }

    /// The named terms of a 加算ダイス first roll.
    pub fn term_names(&self) -> Vec<String> {
        match self {
            Stage::Command(Command {
                body: Body::Add(a), ..
            }) => pool::term_names(&a.expr)
                .into_iter()
                .map(String::from)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the stage gives statistics beyond its result (a 加算ダイス).
    pub fn has_dice_facts(&self) -> bool {
        matches!(
            self,
            Stage::Command(Command {
                body: Body::Add(_),
                ..
            })
        )
    }
}

fn has_target(c: &Command) -> bool {
    match &c.body {
        Body::Add(a) => a.target.is_some(),
        Body::Barabara(b) => b.target.is_some(),
        Body::Reroll(r) => r.target.is_some(),
        Body::Upper(u) => u.target.is_some(),
        Body::D66(_) => false,
    }
}

/// A flag or word read by name (not a named term of the first roll).
fn flag_name(stage: &Stage, s: &Stat) -> Option<String> {
    let Stat::Named(n) = s else { return None };
    (!stage.term_names().iter().any(|t| **t == **n)).then(|| n.to_string())
}

impl Chained {
    /// Whether any part of it may cut an exploding tail.
    pub fn explodes(&self) -> bool {
        match self {
            Chained::Branch(b) => {
                let first = match &b.first {
                    Stage::Command(c) => super::explodes(c),
                    Stage::Game(g) => g.cuts,
                };
                first || b.branches.iter().any(|br| pool::explodes(&br.then))
            }
            Chained::Repeat(r) => pool::explodes(&r.count) || pool::explodes(&r.body),
            Chained::Command(c) => super::explodes(c),
            Chained::Game(g) => g.cuts,
            Chained::Fact(_) => false,
        }
    }
}

/// The statistics of the first roll a follow-up reads (`result`,
/// `natural`), in order of appearance.
pub fn facts_of(n: &Node, out: &mut Vec<Stat>) {
    visit_own(n, &mut |c| {
        if let Chained::Fact(s) = c {
            if !out.contains(s) {
                out.push(s.clone());
            }
        }
    });
}

/// Visit the chained parts of `n` that belong to the chain `n` is a
/// follow-up of: everything but the branches of a nested chain (whose
/// facts are its own first roll's).
fn visit_own(n: &Node, f: &mut dyn FnMut(&Chained)) {
    match n {
        Node::Num(_) | Node::Pool(_) => {}
        Node::Neg(b) | Node::Paren(b) => visit_own(b, f),
        Node::Bin(_, a, b) => {
            visit_own(a, f);
            visit_own(b, f);
        }
        Node::Group(g) => {
            for it in &g.items {
                visit_own(it, f);
            }
        }
        Node::Chain(c) => {
            f(c);
            match &**c {
                Chained::Branch(b) => {
                    if let Stage::Command(Command {
                        body: Body::Add(a), ..
                    }) = &b.first
                    {
                        visit_own(&a.expr, f);
                    }
                }
                Chained::Repeat(r) => {
                    visit_own(&r.count, f);
                    visit_own(&r.body, f);
                }
                Chained::Command(Command {
                    body: Body::Add(a), ..
                }) => visit_own(&a.expr, f),
                _ => {}
            }
        }
    }
}

/// Whether `n` reads a first roll's statistic of its own chain.
pub fn reads_facts(n: &Node) -> bool {
    let mut found = false;
    visit_own(n, &mut |c| found |= matches!(c, Chained::Fact(_)));
    found
}

/// `n` with its chain's facts replaced by their values and the constant
/// parts folded (so that equal follow-ups are one law).
pub fn substitute(n: &Node, get: &dyn Fn(&Stat) -> i64) -> Node {
    let out = match n {
        Node::Num(_) | Node::Pool(_) => n.clone(),
        Node::Neg(b) => Node::Neg(Box::new(substitute(b, get))),
        Node::Paren(b) => Node::Paren(Box::new(substitute(b, get))),
        Node::Bin(op, a, b) => Node::Bin(
            *op,
            Box::new(substitute(a, get)),
            Box::new(substitute(b, get)),
        ),
        Node::Group(g) => {
            let mut g = (**g).clone();
            for it in g.items.iter_mut() {
                *it = substitute(it, get);
            }
            Node::Group(Box::new(g))
        }
        Node::Chain(c) => match &**c {
            Chained::Fact(s) => Node::Num(get(s)),
            Chained::Branch(b) => {
                let mut b = b.clone();
                if let Stage::Command(Command {
                    body: Body::Add(a), ..
                }) = &mut b.first
                {
                    a.expr = substitute(&a.expr, get);
                }
                Node::Chain(Box::new(Chained::Branch(b)))
            }
            Chained::Repeat(r) => {
                let count = substitute(&r.count, get);
                let body = substitute(&r.body, get);
                Node::Chain(Box::new(Chained::Repeat(Repeat {
                    count,
                    body,
                    pool: r.pool,
                })))
            }
            Chained::Command(cmd) => {
                let mut cmd = cmd.clone();
                if let Body::Add(a) = &mut cmd.body {
                    a.expr = substitute(&a.expr, get);
                }
                Node::Chain(Box::new(Chained::Command(cmd)))
            }
            Chained::Game(_) => n.clone(),
        },
    };
    match out.eval_const() {
        Some(v) if !matches!(out, Node::Num(_)) => Node::Num(v),
        _ => out,
    }
}

/// The dice term `body` (one die) as a pool of `n`.
fn with_count(body: &Node, n: i64) -> Node {
    match body {
        Node::Pool(t) => {
            let mut t = (**t).clone();
            t.count = n;
            Node::Pool(Box::new(t))
        }
        other => other.clone(),
    }
}

// ---- The exact law ----------------------------------------------------

/// The law of a value alone (a rolled count, a command's result).
fn value_law<W: Weight>(n: &Node, eps: f64) -> Result<Pmf<W>> {
    pool::law::<W>(n, &[Stat::Total], eps)?.total_law()
}

/// A command's result as a number: `xB`/`xR`/`xU` their successes (or
/// sums), a compared 加算ダイス 1 or 0, D66 its value.
fn command_values<W: Weight>(c: &Command, eps: f64) -> Result<Vec<(i64, W)>> {
    let law = super::law::law::<W>(c, eps)?;
    let pairs = law.value.iter().filter(|(_, w)| !w.is_zero());
    Ok(match &c.body {
        Body::Add(a) if a.target.is_some() => {
            let (cmp, t) = a.target.expect("checked");
            let (mut yes, mut no) = (W::zero(), W::zero());
            for (x, w) in pairs {
                if cmp.holds(x, t) {
                    yes += w.clone();
                } else {
                    no += w.clone();
                }
            }
            vec![(0, no), (1, yes)]
        }
        _ => pairs.map(|(x, w)| (x, w.clone())).collect(),
    })
}

/// A map holding only totals (every other statistic neutral).
fn totals<W: Weight>(values: impl IntoIterator<Item = (i64, W)>, ctx: &Ctx) -> Map<W> {
    let mut m = Map::default();
    let mut key = ctx.neutral();
    for (v, w) in values {
        if w.is_zero() {
            continue;
        }
        key[0] = if ctx.total { v } else { 0 };
        add_to(&mut m, &key, w);
    }
    m
}

/// The last first roll's cells found in one report ([`stage_cells`]): a
/// chain's report reads them twice, for its law and for how often each
/// branch is taken, and found them twice (17 % of a D&D attack's report).
/// Keyed by content (the stage, what is read, the cut, the weights' type),
/// never by address, so a later roll can never read another's cells; and
/// kept only within one report ([`memo_scope`]), so that a report is never
/// answered from the work of one before it.
struct StageMemo {
    stage: Stage,
    reads: Vec<Stat>,
    eps: f64,
    cells: std::rc::Rc<dyn std::any::Any>,
}

thread_local! {
    /// `None` outside a report ([`memo_scope`]): nothing is kept there.
    static STAGE_MEMO: std::cell::RefCell<Option<Option<StageMemo>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f`, one report, with a memo of first rolls of its own
/// (`StageMemo`), empty at its start and dropped at its end (an outer
/// report's, if any, kept aside meanwhile): within `f` a first roll is
/// found once however often it is read; no other report reads it.
pub fn memo_scope<R>(f: impl FnOnce() -> R) -> R {
    // `Some(None)`: within a report, nothing kept yet.
    let outer = STAGE_MEMO.with(|m| m.borrow_mut().replace(None));
    let r = f();
    STAGE_MEMO.with(|m| *m.borrow_mut() = outer);
    r
}

/// The first roll's cells: the values of `reads` (flags as 1 or 0), the
/// last found kept for the next ask of the same.
fn stage_cells<W: Weight>(s: &Stage, reads: &[Stat], eps: f64) -> Result<StageCells<W>> {
    let hit = STAGE_MEMO.with(|m| {
        m.borrow().as_ref().and_then(Option::as_ref).and_then(|m| {
            (m.eps.to_bits() == eps.to_bits() && m.reads == reads && m.stage == *s)
                .then(|| m.cells.clone().downcast::<Vec<(Vec<i64>, W)>>().ok())
                .flatten()
        })
    });
    if let Some(cells) = hit {
        return Ok(cells);
    }
    let cells = std::rc::Rc::new(stage_cells_of::<W>(s, reads, eps)?);
    STAGE_MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            *memo = Some(StageMemo {
                stage: s.clone(),
                reads: reads.to_vec(),
                eps,
                cells: cells.clone(),
            });
        }
    });
    Ok(cells)
}

/// A first roll's cells, shared with [`STAGE_MEMO`].
type StageCells<W> = std::rc::Rc<Vec<(Vec<i64>, W)>>;

/// Whether this thread keeps a first roll's cells now (within a report
/// only: the tests hold that none outlives its report).
#[doc(hidden)]
pub fn memo_held() -> bool {
    STAGE_MEMO.with(|m| m.borrow().as_ref().is_some_and(Option::is_some))
}

/// [`stage_cells`], found.
fn stage_cells_of<W: Weight>(s: &Stage, reads: &[Stat], eps: f64) -> Result<Vec<(Vec<i64>, W)>> {
    match s {
        Stage::Command(c) => match &c.body {
            // Plain dice read by their result and natural dice: the sum's
            // joint law, without the pool engine's statistics.
            Body::Add(a)
                if !pool::uses_engine(&a.expr)
                    && reads.iter().all(|r| {
                        matches!(r, Stat::Total | Stat::Natural) || flag_name(s, r).is_some()
                    }) =>
            {
                Ok(super::law::joint::<W>(&a.expr)?
                    .into_iter()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|((v, nat), w)| {
                        let vals = reads
                            .iter()
                            .map(|r| match r {
                                Stat::Total => v,
                                Stat::Natural => nat,
                                _ => i64::from(a.target.is_some_and(|(c, t)| c.holds(v, t))),
                            })
                            .collect();
                        (vals, w)
                    })
                    .collect())
            }
            Body::Add(a) => {
                let engine: Vec<Stat> = reads
                    .iter()
                    .filter(|r| flag_name(s, r).is_none())
                    .cloned()
                    .collect();
                let joint = pool::law::<W>(&a.expr, &engine, eps)?;
                let slots: Vec<Option<usize>> = reads.iter().map(|r| joint.index(r)).collect();
                Ok(joint
                    .cells
                    .iter()
                    .map(|(k, w)| {
                        let vals = reads
                            .iter()
                            .zip(&slots)
                            .map(|(r, i)| match (i, flag_name(s, r)) {
                                (Some(i), _) => k[*i],
                                (None, Some(n)) if n == "success" => {
                                    i64::from(a.target.is_some_and(|(c, t)| c.holds(k[0], t)))
                                }
                                _ => 0,
                            })
                            .collect();
                        (vals, w.clone())
                    })
                    .collect())
            }
            _ => {
                let law = super::law::law::<W>(c, eps)?;
                let target = has_target(c);
                Ok(law
                    .value
                    .iter()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(x, w)| {
                        let vals = reads
                            .iter()
                            .map(|r| match r {
                                Stat::Total | Stat::Natural => x,
                                Stat::Named(n) if &**n == "success" => i64::from(target && x >= 1),
                                _ => 0,
                            })
                            .collect();
                        (vals, w.clone())
                    })
                    .collect())
            }
        },
        Stage::Game(g) => {
            let law = g.cmd.law::<W>(eps)?;
            Ok(law
                .cells
                .iter()
                .map(|((v, word), w)| {
                    let o = word.map(|i| law.outcomes[i]);
                    let vals = reads
                        .iter()
                        .map(|r| match r {
                            Stat::Named(n) => i64::from(o.is_some_and(|o| word_holds(&o, n))),
                            _ => *v,
                        })
                        .collect();
                    (vals, w.clone())
                })
                .collect())
        }
    }
}

/// Whether a game's result word is read as `name`: its flags, its key.
fn word_holds(o: &games::Outcome, name: &str) -> bool {
    match name {
        "success" => o.success,
        "critical" => o.critical,
        "fumble" => o.fumble,
        n => o.key == n,
    }
}

/// The law of a chained part under the caller's statistics.
pub fn node_law<W: Weight>(c: &Chained, ctx: &Ctx) -> Result<Map<W>> {
    let eps = ctx.die_eps;
    match c {
        Chained::Fact(s) => Err(Error::Conflict(format!(
            "dice: '{}' reads the first roll of a chain (A -> COND: B), and here there is none",
            Chained::Fact(s.clone())
        ))),
        Chained::Command(cmd) => Ok(totals(command_values::<W>(cmd, eps)?, ctx)),
        Chained::Game(g) => Ok(totals(g.cmd.law::<W>(eps)?.value_map(), ctx)),
        Chained::Repeat(r) => repeat_law(r, ctx),
        Chained::Branch(b) => branch_law(b, ctx),
    }
}

/// The probability that each branch is taken (in order; a last `None`:
/// no branch, when every branch has a condition), each labelled by its
/// condition (`else` for the last without one).
pub fn branch_probs<W: Weight>(b: &Branching, eps: f64) -> Result<Vec<(String, W)>> {
    // What the chain's law reads of its first roll (the branches'
    // conditions among it), so that the cells its law found are read
    // again, not found again.
    let reads = b.reads(true);
    let cells = stage_cells::<W>(&b.first, &reads, eps)?;
    let mut out: Vec<(String, W)> = b
        .branches
        .iter()
        .map(|br| {
            let label = br
                .cond
                .as_ref()
                .map_or("else".to_string(), |c| c.to_string());
            (label, W::zero())
        })
        .collect();
    let mut none = W::zero();
    for (vals, p) in cells.iter() {
        let get = |s: &Stat| reads.iter().position(|r| r == s).map_or(0, |i| vals[i]);
        match b.taken(&get) {
            Some(i) => out[i].1 += p,
            None => none += p,
        }
    }
    if b.branches.last().is_some_and(|br| br.cond.is_some()) {
        out.push(("none".to_string(), none));
    }
    Ok(out)
}

fn branch_law<W: Weight>(b: &Branching, ctx: &Ctx) -> Result<Map<W>> {
    let reads = b.reads(true);
    follow_ups_bound(b, ctx.die_eps, W::EXACT)?;
    let cells = stage_cells::<W>(&b.first, &reads, ctx.die_eps)?;
    // The first roll's mass per follow-up (a branch, or a branch with the
    // first roll's values put in), in order of first appearance; each
    // follow-up's law is then computed and weighted once.
    let mut keys: HashMap<(usize, String), usize, pool::FxBuild> = HashMap::default();
    // A branch whose follow-up does not read the first roll is one
    // follow-up, found by its index (no key written, no string compared).
    let mut plain: Vec<Option<usize>> = vec![None; b.branches.len()];
    let mut groups: Vec<(Option<Node>, usize, W)> = Vec::new();
    let mut none = W::zero();
    let substituted: Vec<bool> = b.branches.iter().map(|br| reads_facts(&br.then)).collect();
    for (vals, p) in cells.iter() {
        let get = |s: &Stat| reads.iter().position(|r| r == s).map_or(0, |i| vals[i]);
        let Some(i) = b.taken(&get) else {
            none += p;
            continue;
        };
        let then = &b.branches[i].then;
        let (key, node) = if substituted[i] {
            let n = substitute(then, &get);
            (Some((i, n.to_string())), Some(n))
        } else {
            (None, None)
        };
        let found = match &key {
            Some(k) => keys.get(k).copied(),
            None => plain[i],
        };
        match found {
            Some(g) => groups[g].2 += p,
            None => {
                if groups.len() >= MAX_FOLLOW_UPS {
                    return Err(Error::Conflict(format!(
                        "dice: the chain's follow-ups read the first roll into more than {MAX_FOLLOW_UPS} different rolls; read fewer of its values (e.g. result/10 rather than result)"
                    )));
                }
                match key {
                    Some(k) => {
                        keys.insert(k, groups.len());
                    }
                    None => plain[i] = Some(groups.len()),
                }
                groups.push((node, i, p.clone()));
            }
        }
    }
    let total_only = ctx.layout.len() == 1 && ctx.total;
    // Counted before any follow-up is computed: plain dice take about (count × sides)²/2 steps a term (the sum built one
    // die at a time), so `1D1000 -> >=2: (result)D100; 0` is refused as
    // `(1D1000)D100` is.
    {
        let work: f64 = groups
            .iter()
            .map(|(node, i, _)| node.as_ref().unwrap_or(&b.branches[*i].then))
            .map(sum_steps)
            .sum();
        if work > MAX_FOLLOW_UP_WORK as f64 {
            return Err(Error::Conflict(format!(
                "dice: the chain's {} follow-ups take about {work:.1e} steps (at most {MAX_FOLLOW_UP_WORK}); read fewer of the first roll's values (e.g. result/10 rather than result) or roll fewer dice",
                groups.len()
            )));
        }
    }
    // A follow-up rolling more than the dice limit (`(result/10)D6` on a
    // result of 10,010) is refused before any follow-up's work, as it
    // would be when its turn came.
    for (node, i, _) in &groups {
        let mut over: Option<Result<()>> = None;
        visit_own(node.as_ref().unwrap_or(&b.branches[*i].then), &mut |c| {
            if let Chained::Repeat(r) = c {
                if let Node::Num(k) = r.count {
                    if over.is_none() && check_count(&r.count, k).is_err() {
                        over = Some(check_count(&r.count, k));
                    }
                }
            }
        });
        over.unwrap_or(Ok(()))?;
    }
    if total_only {
        return totals_of_groups(groups, b, none, ctx);
    }
    let mut out = Map::default();
    for (node, i, p) in groups {
        let node = node.as_ref().unwrap_or(&b.branches[i].then);
        for (k, w) in &pool::node_law::<W>(node, ctx)? {
            add_to(&mut out, k, p.clone() * w);
        }
    }
    if !none.is_zero() {
        // No branch taken: the result is 0 and no die is rolled.
        let mut key = ctx.neutral();
        key[0] = 0;
        add_to(&mut out, &key, none);
    }
    Ok(out)
}

/// [`branch_law`] read by its total alone: each follow-up's law weighted
/// by its mass, listed and merged by value (a stable sort, so each value's
/// weights are summed in the follow-ups' order, as a map met them), then
/// put in a map once: one hash a value, where a map took one for each
/// value of each follow-up (a D&D attack's report, 9.3 → 8.4 µs). The
/// map is grown as it was, not made at its size: the order it is then
/// read in moved the rounds of two such attacks 1.5× (`2D(…)` to 100).
fn totals_of_groups<W: Weight>(
    groups: Vec<(Option<Node>, usize, W)>,
    b: &Branching,
    none: W,
    ctx: &Ctx,
) -> Result<Map<W>> {
    let mut cells: Vec<(i64, W)> = Vec::new();
    for (node, i, p) in groups {
        let node = node.as_ref().unwrap_or(&b.branches[i].then);
        if pool::uses_engine(node) {
            let law = pool::node_law::<W>(node, ctx)?;
            cells.extend(law.iter().map(|(k, w)| (k[0], p.clone() * w)));
        } else {
            // Plain dice read by their total: the sum's law.
            let law = super::law::node::<W>(node)?;
            cells.extend(
                law.iter()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(x, w)| (x, p.clone() * w)),
            );
        }
    }
    if !none.is_zero() {
        // No branch taken: the result is 0 and no die is rolled.
        cells.push((0, none));
    }
    cells.sort_by_key(|c| c.0);
    pool::merge_runs(&mut cells);
    let mut out = Map::default();
    for (x, w) in cells {
        add_to(&mut out, &[x], w);
    }
    Ok(out)
}

/// Most first-roll values × branches a chain's follow-ups are counted
/// over before its first roll's law ([`GameCmd::value_span`]; each a
/// follow-up substituted and written out, about a microsecond).
pub const MAX_BOUND_SCAN: i64 = 2_000_000;

/// Refuse before the first roll's law a chain whose follow-ups may be
/// past the limits, where the first roll is a game's chain of rolls whose
/// law takes seconds (`K100@3`: 1,226 rounds) and whose least and greatest
/// value are counted without it ([`GameCmd::value_span`]). Every value
/// between them is taken as possible, and a branch whose condition reads
/// a result word (`critical`) as possibly taken: the distinct follow-ups
/// and their steps ([`sum_steps`]) so counted bound those of the law
/// (whose values lie between them), so the refusal says "up to", naming
/// the values, the count and the limit. Within the limits here, the law's
/// own follow-ups are counted again once it is known ([`branch_law`]), as
/// are those of every other first roll.
fn follow_ups_bound(b: &Branching, eps: f64, exact: bool) -> Result<()> {
    let Stage::Game(g) = &b.first else {
        return Ok(());
    };
    let Some((lo, hi)) = g.cmd.value_span(eps, exact)? else {
        return Ok(());
    };
    let values = hi.saturating_sub(lo).saturating_add(1);
    if values.saturating_mul(b.branches.len() as i64) > MAX_BOUND_SCAN {
        return Ok(());
    }
    let reads_word = |c: &cond::Expr| c.stats().iter().any(|s| matches!(s, Stat::Named(_)));
    let substituted: Vec<bool> = b.branches.iter().map(|br| reads_facts(&br.then)).collect();
    let mut keys: std::collections::HashSet<(usize, String), pool::FxBuild> = Default::default();
    let mut work = 0.0;
    for v in lo..=hi {
        // A game's first roll gives its value as result and natural.
        let get = |_: &Stat| v;
        for (i, br) in b.branches.iter().enumerate() {
            let surely = match &br.cond {
                None => true,
                Some(c) if reads_word(c) => false,
                Some(c) if c.holds(&get) => true,
                Some(_) => continue,
            };
            let (key, node) = if substituted[i] {
                let n = substitute(&br.then, &get);
                ((i, n.to_string()), Some(n))
            } else {
                ((i, String::new()), None)
            };
            if keys.insert(key) {
                work += sum_steps(node.as_ref().unwrap_or(&br.then));
            }
            if surely {
                break;
            }
        }
    }
    let what = format!(
        "the chain's follow-ups of the first roll {} (which gives {lo} to {hi}, counted before its law)",
        g.text
    );
    if keys.len() > MAX_FOLLOW_UPS {
        return Err(Error::Conflict(format!(
            "dice: {what} are up to {} different rolls (at most {MAX_FOLLOW_UPS}); read fewer of its values (e.g. result/10 rather than result)",
            keys.len()
        )));
    }
    if work > MAX_FOLLOW_UP_WORK as f64 {
        return Err(Error::Conflict(format!(
            "dice: {what} take up to about {work:.1e} steps in {} follow-ups (at most {MAX_FOLLOW_UP_WORK}); read fewer of the first roll's values (e.g. result/10 rather than result) or roll fewer dice",
            keys.len()
        )));
    }
    Ok(())
}

/// The steps of a plain sum's law: (count × sides)²/2 a dice term (a
/// follow-up `(k)D…`, its count put in, is `k` rolls of its body).
fn sum_steps(n: &Node) -> f64 {
    if let Node::Chain(c) = n {
        if let Chained::Repeat(r) = &**c {
            if let Node::Num(k) = r.count {
                let span = k.max(0) as f64 * dice_span(&r.body);
                return span * span / 2.0;
            }
        }
    }
    let mut work = 0.0;
    pool::visit(n, &mut |t| {
        if matches!(t, Node::Pool(p) if p.is_plain()) {
            let span = dice_span(t);
            work += span * span / 2.0;
        }
    });
    work
}

/// The span of the plain dice terms' sum: count × sides, added.
fn dice_span(n: &Node) -> f64 {
    let mut span = 0.0;
    pool::visit(n, &mut |t| {
        if let Node::Pool(d) = t {
            if d.is_plain() {
                span += d.count.max(0) as f64 * d.faces.count().max(1) as f64;
            }
        }
    });
    span
}

fn repeat_law<W: Weight>(r: &Repeat, ctx: &Ctx) -> Result<Map<W>> {
    let counts = value_law::<W>(&r.count, ctx.die_eps)?;
    let max = counts
        .iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(n, _)| n)
        .max()
        .unwrap_or(0);
    check_count(&r.count, max)?;
    let mut out = Map::default();
    let weights: Vec<(i64, W)> = counts
        .iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(n, w)| (n.max(0), w.clone()))
        .collect();
    // A pool with keep/drop reads its dice together: the engine's law of
    // each size. Without one, n dice are n rolls of one die, added, every
    // size in one pass.
    let filtered = match &r.body {
        Node::Pool(t) => t.filter.is_some(),
        _ => false,
    };
    // A pool of one size (a count the first roll decided) is the engine's
    // law of that many dice, planned as any term is.
    if r.pool && (filtered || weights.len() == 1) {
        for (n, p) in weights {
            let law = pool::node_law::<W>(&with_count(&r.body, n), ctx)?;
            for (k, w) in &law {
                add_to(&mut out, k, p.clone() * w);
            }
        }
        return Ok(out);
    }
    // n rolls of the body, built up one roll at a time: the work, counted
    // before it is done, is the sum over k of (values of k rolls) × (the
    // body's values).
    let body = pool::node_law::<W>(&r.body, ctx)?;
    let top = weights.iter().map(|(n, _)| *n).max().unwrap_or(0);
    let (lo, hi) = body
        .keys()
        .map(|k| k[0])
        .fold((i64::MAX, i64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let span = if body.is_empty() {
        0.0
    } else {
        (hi - lo) as f64 + 1.0
    };
    let others = (body.len() as f64 / span.max(1.0)).max(1.0);
    let work: f64 = (1..=top)
        .map(|k| (k as f64 * (span - 1.0) + 1.0) * others * body.len() as f64)
        .sum();
    if work > pool::MAX_WORK as f64 {
        return Err(Error::Conflict(format!(
            "dice: rolling {} up to {top} times takes about {work:.1e} steps (at most {}); roll it fewer times or read fewer statistics",
            r.body,
            pool::MAX_WORK
        )));
    }
    // In exact fractions each step is a big-fraction multiply-add whose
    // digits grow with the rolls: the steps times the rolls.
    let exact_work = work * top as f64;
    if W::EXACT && exact_work > MAX_EXACT_REPEAT as f64 {
        return Err(Error::Conflict(format!(
            "dice: --exact: rolling {} up to {top} times takes about {exact_work:.1e} big-fraction steps (at most {}); drop --exact (floating point answers it) or roll it fewer times",
            r.body, MAX_EXACT_REPEAT
        )));
    }
    // The weight of each number of rolls (negative counts are 0 rolls).
    let mut by_n: std::collections::BTreeMap<i64, W> = Default::default();
    for (n, p) in weights {
        by_n.entry(n).add_weight(p);
    }
    if ctx.layout.len() == 1 && ctx.total && !body.is_empty() {
        // Only the total is read: a dense convolution, one roll at a time.
        return Ok(dense_repeat(&body, &by_n, top, lo));
    }
    let mut acc: Map<W> = Map::default();
    add_to(&mut acc, &ctx.neutral(), W::one());
    for k in 0..=top {
        if k > 0 {
            acc = pool::combine(super::ast::Op::Add, &acc, &body, ctx)?;
        }
        if let Some(p) = by_n.get(&k) {
            for (key, w) in &acc {
                add_to(&mut out, key, p.clone() * w);
            }
        }
    }
    Ok(out)
}

/// [`repeat_law`] when only the total is read: the body's law as a dense
/// array from its least value `lo`, convolved once per roll, the sums of
/// `k` rolls weighted by `by_n[k]`.
fn dense_repeat<W: Weight>(
    body: &Map<W>,
    by_n: &std::collections::BTreeMap<i64, W>,
    top: i64,
    lo: i64,
) -> Map<W> {
    let hi = body.keys().map(|k| k[0]).max().unwrap_or(lo);
    let mut die = vec![W::zero(); (hi - lo + 1) as usize];
    for (k, w) in body {
        die[(k[0] - lo) as usize] += w.clone();
    }
    // `acc[i]`: P(the total of k rolls = k·lo + i).
    let mut acc = vec![W::one()];
    let mut out = Map::default();
    for k in 0..=top {
        if k > 0 {
            let mut next = vec![W::zero(); acc.len() + die.len() - 1];
            for (i, a) in acc.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for (j, d) in die.iter().enumerate() {
                    if !d.is_zero() {
                        next[i + j] += a.clone() * d;
                    }
                }
            }
            acc = next;
        }
        if let Some(p) = by_n.get(&k) {
            for (i, w) in acc.iter().enumerate() {
                if !w.is_zero() {
                    add_to(&mut out, &[k * lo + i as i64], p.clone() * w);
                }
            }
        }
    }
    out
}

/// Refuse a count that can reach past the dice limit.
pub fn check_count(count: &Node, max: i64) -> Result<()> {
    if max > super::parse::MAX_DICE {
        return Err(Error::Conflict(format!(
            "dice: the count {count} can reach {max}: a rolled count is at most {} dice or rolls",
            super::parse::MAX_DICE
        )));
    }
    Ok(())
}

// ---- The plain rule ---------------------------------------------------

/// Roll a chained part by the plain rule, stage after stage: the facts of
/// the roll that gives its result (its total, natural dice and dice).
pub fn roll<F: Faces>(c: &Chained, faces: &mut F) -> Facts {
    match c {
        Chained::Fact(_) => Facts::default(),
        Chained::Command(cmd) => {
            let r = cmd.roll(faces);
            let v = match &cmd.body {
                Body::Add(a) if a.target.is_some() => i64::from(r.success == Some(true)),
                _ => r.value,
            };
            Facts {
                total: v,
                ..Facts::default()
            }
        }
        Chained::Game(g) => Facts {
            total: g.cmd.roll(faces).value.unwrap_or(0),
            ..Facts::default()
        },
        Chained::Repeat(r) => {
            let n = super::roll::roll_facts(&r.count, faces, None).total.max(0);
            if r.pool {
                let mut f = super::roll::roll_facts(&with_count(&r.body, n), faces, None);
                f.named.clear();
                return f;
            }
            let mut all = Facts::default();
            for _ in 0..n {
                let f = super::roll::roll_facts(&r.body, faces, None);
                all.total = all.total.saturating_add(f.total);
                all.natural = all.natural.saturating_add(f.natural);
                all.dice.extend(f.dice);
            }
            all
        }
        Chained::Branch(b) => {
            // The first roll's facts, and the flags that hold on it.
            let (facts, flags): (Facts, Vec<&str>) = match &b.first {
                Stage::Command(cmd) => match &cmd.body {
                    Body::Add(a) => {
                        let f = super::roll::roll_facts(&a.expr, faces, None);
                        let ok = a.target.is_some_and(|(c, t)| c.holds(f.total, t));
                        (f, if ok { vec!["success"] } else { Vec::new() })
                    }
                    _ => {
                        let r = cmd.roll(faces);
                        let ok = has_target(cmd) && r.value >= 1;
                        let f = Facts {
                            total: r.value,
                            natural: r.value,
                            ..Facts::default()
                        };
                        (f, if ok { vec!["success"] } else { Vec::new() })
                    }
                },
                Stage::Game(g) => {
                    let r = g.cmd.roll(faces);
                    let f = Facts {
                        total: r.value.unwrap_or(0),
                        natural: r.value.unwrap_or(0),
                        ..Facts::default()
                    };
                    let flags = match r.outcome {
                        Some(o) => FLAGS
                            .iter()
                            .copied()
                            .chain(std::iter::once(o.key))
                            .filter(|n| word_holds(&o, n))
                            .collect(),
                        None => Vec::new(),
                    };
                    (f, flags)
                }
            };
            let get = |s: &Stat| match flag_name(&b.first, s) {
                Some(n) => i64::from(flags.contains(&n.as_str())),
                None => facts.stat(s),
            };
            let Some(br) = b.taken(&get).map(|i| &b.branches[i]) else {
                return Facts::default();
            };
            let node = substitute(&br.then, &get);
            let mut f = super::roll::roll_facts(&node, faces, None);
            f.named.clear();
            f
        }
    }
}
