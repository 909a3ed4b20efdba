//! Every BCDice command as one dice program: the counting commands are
//! pool terms read by a statistic, so their laws come from the one planner
//! ([`super::pool::plan`]) like any other roll's.
//!
//! | command | program | read |
//! |---|---|---|
//! | `xDy…` 加算ダイス | the expression itself | its total |
//! | `xBy>=t` バラバラダイス | `xDy{>=t:1}` per group, summed | the total: dice that meet the comparison |
//! | `xBy` (no comparison) | `xDy` per group, summed | the total: the sum of the faces |
//! | `xRy[c]>=t` 個数振り足しダイス | `xDy{>=t:1}!c` per group: each die meeting `c` adds a die | the total: successes, added dice included |
//! | `xRy[c]` (no target) | `xDy{1..y:0}!c`: every die scores 0 | the total, 0 (BCDice counts no success) |
//! | `xUy[n]+m>=t` 上方無限ロール | `xDy{>=t−m:1}!!>=n`: each die compounds on `n` or more | the total: dice whose total + m meets the target |
//! | `xUy[n]+m` (no target) | `xDy!!>=n` per group | the highest die + m, and the total + m |
//! | `D66`, `D66A`, `D66D` | `1D66`, or one die of the 36 sorted values | its total |
//!
//! The sampler ([`super::roll`]) rolls BCDice's procedure itself (a die
//! that meets the reroll condition rolls another), not these programs: the
//! Monte Carlo checks the lowering too.

use super::ast::*;
use super::pool::Stat;
use crate::error::{Error, Result};

/// A command lowered into a dice program.
#[derive(Clone, Debug)]
pub struct Program {
    /// The dice and how they add up.
    pub expr: Node,
    /// The statistic the command's result is: the total, or for `xU`
    /// without a target the highest die ([`Stat::Max`]).
    pub result: Stat,
    /// Whether the total is reported beside the result (`xU` without a
    /// target).
    pub total: bool,
    /// Added to the result and the total (`xU`'s 修正値 without a target).
    pub shift: i64,
}

impl Program {
    fn total_of(expr: Node) -> Program {
        Program {
            expr,
            result: Stat::Total,
            total: false,
            shift: 0,
        }
    }
}

/// The program of a command.
pub fn program(cmd: &Command) -> Result<Program> {
    Ok(match &cmd.body {
        Body::Add(a) => Program::total_of(a.expr.clone()),
        Body::D66(sort) => Program::total_of(Node::Pool(Box::new(PoolTerm::plain(
            1,
            d66_faces(*sort),
            None,
        )))),
        Body::Barabara(b) => Program::total_of(sum(b.groups.iter().map(|g| {
            let scores = match b.target {
                Some((cmp, t)) => vec![scores_one(FaceCond::Cmp(cmp, t))],
                None => Vec::new(),
            };
            term(g, scores, Vec::new())
        }))),
        Body::Reroll(r) => Program::total_of(sum(r.groups.iter().map(|g| {
            let scores = match r.target {
                Some(t) => scores_one(FaceCond::Cmp(t.cmp, t.value)),
                // BCDice counts no success without a target.
                None => ScoreRule {
                    cond: FaceCond::Range(1, g.sides),
                    score: Score::num(0),
                },
            };
            let explode = DieMod::Explode {
                cond: Some(FaceCond::Cmp(r.reroll.cmp, r.reroll.value)),
                compound: false,
            };
            term(g, vec![scores], vec![explode])
        }))),
        Body::Upper(u) => {
            let compound = DieMod::Explode {
                cond: Some(FaceCond::Cmp(Cmp::Ge, u.threshold)),
                compound: true,
            };
            match u.target {
                Some(t) => {
                    // A die's total + m meets `cmp t` iff its total meets
                    // `cmp t − m`.
                    let value = t.value.checked_sub(u.modifier).ok_or_else(|| {
                        Error::Conflict(format!(
                            "dice: the target {} less the modifier {} is out of range",
                            t.value, u.modifier
                        ))
                    })?;
                    let scores = scores_one(FaceCond::Cmp(t.cmp, value));
                    Program::total_of(sum(u
                        .groups
                        .iter()
                        .map(|g| term(g, vec![scores.clone()], vec![compound]))))
                }
                None => Program {
                    expr: sum(u.groups.iter().map(|g| term(g, Vec::new(), vec![compound]))),
                    result: Stat::Max,
                    total: true,
                    shift: u.modifier,
                },
            }
        }
    })
}

/// The 36 values of D66 with its sort, one face each (`D66`: as rolled).
fn d66_faces(sort: D66Sort) -> DieFaces {
    if sort == D66Sort::None {
        return DieFaces::D66;
    }
    let values = (1..=6i64).flat_map(|a| {
        (1..=6i64).map(move |b| {
            let (hi, lo) = (a.max(b), a.min(b));
            match sort {
                D66Sort::Descending => 10 * hi + lo,
                _ => 10 * lo + hi,
            }
        })
    });
    DieFaces::Custom(values.map(Score::num).collect())
}

/// Faces meeting `cond` score 1, the rest 0.
fn scores_one(cond: FaceCond) -> ScoreRule {
    ScoreRule {
        cond,
        score: Score::num(1),
    }
}

/// One group's term.
fn term(g: &Group, scores: Vec<ScoreRule>, mods: Vec<DieMod>) -> Node {
    Node::Pool(Box::new(PoolTerm {
        count: g.count,
        faces: DieFaces::Standard(g.sides),
        scores,
        mods,
        filter: None,
        name: None,
    }))
}

/// The terms added up (0 without any).
fn sum(terms: impl Iterator<Item = Node>) -> Node {
    terms
        .reduce(|a, b| Node::Bin(Op::Add, Box::new(a), Box::new(b)))
        .unwrap_or(Node::Num(0))
}
