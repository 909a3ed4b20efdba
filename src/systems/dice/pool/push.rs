//! A whole-check push (プッシュ): when the first roll lands in given tiers,
//! the dice meeting a face condition are rerolled once and the check is
//! judged again on the final faces (Year Zero's push, Dragonbane's push,
//! a rote). Conditions read the final faces and `pushed`.
//!
//! Exactly: each term's law is a law of *pairs* (first roll, pushed roll).
//! Where the term has no keep/drop and its statistics combine without
//! order, each die is a pair of its own — a face that stays, on both
//! rolls, or a face meeting `c` and then a fresh one — and the term's
//! pairs are that pair law combined `n` times. Otherwise, for `k` dice
//! meeting `c` (binomial), the fold runs three kinds at once: the `n − k`
//! dice that stay (law given ¬c) feed both rolls, the `k` dice meeting `c`
//! (law given c) feed the first roll, `k` fresh dice feed the pushed roll.
//! Terms combine pairwise; the first roll's tier then picks which of the
//! pair the check ends with. The check that is not pushed is the plain
//! roll ([`super::node_law`]), or, where the final tuple carries only what
//! the decision reads and no chain is cut, the pairs' first rolls
//! themselves; the pairs carry of the first roll only what the push
//! decision reads, so they stay few.

use super::die::{die_law, DieLaw};
use super::fold::{fold, Kind};
use super::{add_to, check_names, check_stats, dice_count, layout, Ctx, JointLaw, Key, Map, Stat};
use crate::error::{Error, Result};
use crate::systems::dice::ast::*;
use crate::weight::Weight;

/// Which dice a push rerolls: in the named term (or every term without a
/// rule of its own), those whose face meets the condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushRule {
    /// The term (`None`: every term without its own rule).
    pub term: Option<String>,
    /// Faces rerolled.
    pub cond: FaceCond,
}

impl std::fmt::Display for PushRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.term {
            Some(t) => write!(f, "{t}:{}", self.cond),
            None => write!(f, "{}", self.cond),
        }
    }
}

/// The rule for a term with `name`.
pub fn rule_for<'a>(rules: &'a [PushRule], name: Option<&str>) -> Option<&'a PushRule> {
    rules
        .iter()
        .find(|r| r.term.is_some() && r.term.as_deref() == name)
        .or_else(|| rules.iter().find(|r| r.term.is_none()))
}

/// What a pushed check's law carries.
#[derive(Clone, Copy, Debug)]
pub struct Carry<'a> {
    /// What the push decision reads of the first roll.
    pub reads: &'a [Stat],
    /// What the final tuple carries (`None`: every statistic).
    pub carried: Option<&'a [Stat]>,
    /// Statistics saturated ([`super::bounds`]).
    pub bounds: &'a [super::Bound],
}

/// The joint law of a pushed check: `decide` says, from the first roll's
/// decoded tuple (with `pushed` 0), whether the check is pushed; it reads
/// only the statistics `reads` of the first roll (the others are set to
/// their neutral value as soon as each term's pairs are known, so that
/// first rolls differing only in what the decision ignores merge). The
/// check's final tuple carries the statistics `carried` (`None`: all of
/// `stats`; the rest read neutral), so a caller that wants the tiers and
/// the total's law can take them in two small passes instead of one joint.
pub fn law<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    rules: &[PushRule],
    decide: &dyn Fn(&[i64]) -> bool,
    what: Carry<'_>,
    tail_eps: f64,
) -> Result<JointLaw<W>> {
    let mut laws = law_each(expr, stats, rules, decide, what, &[what.carried], tail_eps)?;
    Ok(laws.remove(0))
}

/// [`law`] for several final tuples at once (`carries`, each as
/// [`Carry::carried`]; `what.carried` is not read): one law per entry,
/// the roll that is not pushed (the plain roll) and the push decisions on
/// it computed once for all of them (a report's tiers and its total's
/// law are two small passes over one plain roll).
pub fn law_each<W: Weight>(
    expr: &Node,
    stats: &[Stat],
    rules: &[PushRule],
    decide: &dyn Fn(&[i64]) -> bool,
    what: Carry<'_>,
    carries: &[Option<&[Stat]>],
    tail_eps: f64,
) -> Result<Vec<JointLaw<W>>> {
    let Carry { reads, bounds, .. } = what;
    check_names(expr)?;
    check_stats(expr, stats)?;
    let names = super::term_names(expr);
    for r in rules {
        if let Some(t) = &r.term {
            if !names.contains(&t.as_str()) {
                return Err(Error::param(
                    "--push-dice",
                    r,
                    format!(
                        "name a term of the roll ({})",
                        if names.is_empty() {
                            "it has no named terms".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            }
        }
    }
    // The total only where the decision or a final tuple reads it (or a
    // statistic needs it: a named term's value, a group's kept items):
    // else the plain roll's states differ only in a total no one reads
    // (Year Zero's `3D6[base]+2D6[skill]` read by counts: 510 pairs of
    // states with it, a few without).
    let total = super::facts_carry_total(expr, reads)
        || carries
            .iter()
            .any(|c| super::facts_carry_total(expr, c.unwrap_or(stats)));
    let ctx = Ctx::new(
        layout(stats),
        tail_eps / dice_count(expr).max(1) as f64,
        total,
    )
    .bounded(bounds);
    // The pairs' context (both rolls' slots), made once for every term
    // and sum.
    let wide = ctx.doubled();
    let len = ctx.layout.len();
    let pushed_at = ctx.layout.iter().position(|s| *s == Stat::Pushed);
    // The first roll decoded into one buffer for the decision (no
    // allocation per state).
    let mut buf: Vec<i64> = Vec::with_capacity(len);
    let mut decided = |k: &[i64]| -> bool {
        buf.clear();
        buf.extend(k.iter().zip(&ctx.layout).map(|(x, s)| s.finish(*x)));
        decide(&buf)
    };
    let explodes = super::explodes(expr);
    // The pairs each pass keeps; every pass's plans checked before any runs.
    let keeps: Vec<(Vec<bool>, Vec<bool>)> = carries
        .iter()
        .map(|carried| {
            let last: Vec<bool> = ctx
                .layout
                .iter()
                .map(|s| carried.is_none_or(|c| reads_stat(c, s)))
                .collect();
            let keep: Vec<bool> = ctx
                .layout
                .iter()
                .map(|s| reads_stat(reads, s))
                .chain(last.iter().copied())
                .collect();
            (last, keep)
        })
        .collect();
    // Where a pass's final tuple carries only what the decision reads and
    // every die's law is whole (no chain cut), a first roll that is not
    // pushed is read from the pairs themselves: its pairs' weights sum
    // to its own (the pushed roll's law sums to one), so no plain roll is
    // needed (Year Zero read by its tiers alone: a third of the work).
    let whole = !chains_cut(expr);
    let from_pairs =
        |last: &[bool], keep: &[bool]| whole && last.iter().zip(keep).all(|(&l, &k)| !l || k);
    // Else, not pushed: the check ends with the first roll, the plain roll
    // (in key order, each state with its decision).
    let plain = match keeps.iter().all(|(last, keep)| from_pairs(last, keep)) {
        true => Map::default(),
        false => super::node_law::<W>(expr, &ctx)?,
    };
    let plain: Vec<(&[i64], &W, bool)> = super::sorted(&plain)
        .into_iter()
        .map(|(k, w)| (k, w, decided(k)))
        .collect();
    let plans: Vec<Plans<'_, '_, W>> = keeps
        .iter()
        .map(|(_, keep)| term_plans::<W>(expr, &ctx, rules, keep))
        .collect::<Result<_>>()?;
    let mut laws = Vec::with_capacity(carries.len());
    let mut key: Vec<i64> = Vec::with_capacity(len);
    // `k` with the slots `last` does not carry set neutral, into `key`.
    let project = |k: &[i64], last: &[bool], key: &mut Vec<i64>| {
        key.clear();
        key.extend(k.iter().zip(&ctx.layout).zip(last).map(
            |((x, s), &c)| {
                if c {
                    *x
                } else {
                    s.neutral()
                }
            },
        ));
    };
    for ((last, keep), plans) in keeps.iter().zip(plans) {
        let own = from_pairs(last, keep);
        // Written as met, then sorted (stably) and merged: each tuple's
        // weights summed in the order a map would have taken them, with
        // no hash per cell.
        let mut out: Vec<(Key, W)> = Vec::with_capacity(plain.len());
        if !own {
            for &(k, w, pushed) in &plain {
                if !pushed {
                    project(k, last, &mut key);
                    out.push((Key::from(&key[..]), w.clone()));
                }
            }
        }
        // Pushed: the pairs (first roll, pushed roll), the first roll cut
        // to what the decision reads, the pushed roll to what is carried.
        let pairs = pair_law::<W>(expr, (&ctx, &wide), &plans, keep)?;
        for (k, w) in &pairs {
            if decided(&k[..len]) {
                key.clear();
                key.extend_from_slice(&k[len..]);
                if let Some(p) = pushed_at {
                    key[p] = 1;
                }
                out.push((Key::from(&key[..]), w.clone()));
            } else if own {
                project(&k[..len], last, &mut key);
                out.push((Key::from(&key[..]), w.clone()));
            }
        }
        super::sort_cells(&mut out);
        super::merge_runs(&mut out);
        laws.push(super::finish(&ctx, out, explodes));
    }
    Ok(laws)
}

/// Whether a die of `expr` may roll a chain cut at the tail (an
/// explosion, a reroll until the face changes): its law sums to less
/// than one.
fn chains_cut(expr: &Node) -> bool {
    let mut cut = super::explodes(expr);
    super::visit(expr, &mut |n| {
        if let Node::Pool(t) = n {
            cut |= t.reroll().is_some_and(|(_, once)| !once);
        }
    });
    cut
}

/// Whether a list of statistics read needs slot `s` carried: the
/// statistic itself, or the width where the height is read (the widest
/// set's face is found with its width; without it the height stayed
/// neutral, the first roll read as no set, and a check whose tiers read
/// the height was both pushed and not).
fn reads_stat(list: &[Stat], s: &Stat) -> bool {
    list.contains(s) || (*s == Stat::Width && list.contains(&Stat::Height))
}

/// The pairs (first roll, pushed roll) of node `n`, as distinct cells in
/// their tuples' order: the order the next combination reads them in, so
/// no map comes between the parts of a sum.
fn pair_law<W: Weight>(
    n: &Node,
    (ctx, wide): (&Ctx, &Ctx),
    plans: &Plans<'_, '_, W>,
    first: &[bool],
) -> Result<Vec<(Key, W)>> {
    let len = ctx.layout.len();
    Ok(match n {
        Node::Num(_) => super::in_order(prune(double(super::node_law::<W>(n, ctx)?), ctx, first)),
        Node::Pool(t) => super::in_order(prune(term_pairs(t, (ctx, wide), plans)?, ctx, first)),
        Node::Group(_) => {
            return Err(Error::Conflict(
                "dice: a push rerolls dice of pool terms; a group ({…}) cannot be pushed".into(),
            ))
        }
        Node::Chain(_) => {
            return Err(Error::Conflict(
                "dice: a push rerolls dice of pool terms; a chained roll (A -> B, (N)D6, 3D(…)) cannot be pushed".into(),
            ))
        }
        Node::Neg(b) => negated(pair_law::<W>(b, (ctx, wide), plans, first)?, len)?,
        Node::Paren(b) => pair_law(b, (ctx, wide), plans, first)?,
        Node::Bin(op, a, b) => {
            let la = pair_law::<W>(a, (ctx, wide), plans, first)?;
            let lb = pair_law::<W>(b, (ctx, wide), plans, first)?;
            // A difference is the sum with the right side's totals
            // negated (every other slot combines alike either way).
            let (op, lb) = match op {
                Op::Sub => (Op::Add, negated(lb, len)?),
                op => (*op, lb),
            };
            let (sa, sb) = (super::cell_refs(&la), super::cell_refs(&lb));
            if op == Op::Add {
                // A sum's pairs are the combination of the doubled tuples
                // (both halves' totals added, every other slot by its
                // rule; a slot not carried is neutral on both sides and
                // stays so), on packed tuples where they fit: the same
                // pairs in the same order as below.
                return super::combine::combine_sorted(op, &sa, &sb, wide);
            }
            // A product or quotient, tuple by tuple: planned and refused
            // past its limit before any pair meets (a difference of two
            // pushed exploding terms went this way for 50 s).
            let plan = super::plan::combine_plan(sa.len(), sb.len(), false);
            plan.check(super::dice_count(n))?;
            super::plan::traced(
                || format!("{n} pushed"),
                super::dice_count(n),
                &plan,
                || pairs_by_tuples(op, &sa, &sb, wide, first),
            )?
        }
    })
}

/// Pairs whose totals (of both rolls) are negated, in their tuples'
/// order again.
fn negated<W>(mut cells: Vec<(Key, W)>, len: usize) -> Result<Vec<(Key, W)>> {
    for (k, _) in cells.iter_mut() {
        for i in [0, len] {
            k[i] = k[i]
                .checked_neg()
                .ok_or_else(super::combine::out_of_range)?;
        }
    }
    super::sort_cells(&mut cells);
    Ok(cells)
}

/// Every pair of two parts' pairs joined by `op` (not a sum) over the
/// doubled tuples of `wide`, tuple by tuple; slots `first` does not keep
/// stay neutral.
fn pairs_by_tuples<W: Weight>(
    op: Op,
    sa: &[(&[i64], &W)],
    sb: &[(&[i64], &W)],
    wide: &Ctx,
    first: &[bool],
) -> Result<Vec<(Key, W)>> {
    let len = wide.layout.len() / 2;
    super::plan::count(sa.len() as u64 * sb.len() as u64);
    let mut out: Map<W> = Map::default();
    let mut key = vec![0i64; 2 * len];
    for &(ka, wa) in sa {
        for &(kb, wb) in sb {
            for (i, s) in wide.layout.iter().enumerate() {
                key[i] = if !first[i] {
                    // Not carried: stays neutral.
                    s.neutral()
                } else if i % len == 0 {
                    op.apply(ka[i], kb[i])
                        .ok_or_else(super::combine::out_of_range)?
                } else {
                    wide.combined(i, ka[i], kb[i])
                };
            }
            add_to(&mut out, &key, wa.clone() * wb);
        }
    }
    Ok(super::in_order(out))
}

/// The statistics not carried (`keep` over both halves of a pair: the
/// first roll's, then the pushed roll's) set to their neutral value, so
/// that states differing only there merge.
fn prune<W: Weight>(m: Map<W>, ctx: &Ctx, keep: &[bool]) -> Map<W> {
    if keep.iter().all(|&f| f) {
        return m;
    }
    let len = ctx.layout.len();
    // Already neutral where not carried (a term pushed die by die drops
    // those slots per die): nothing merges, so no second map.
    let neutral: Vec<i64> = (0..keep.len())
        .map(|i| ctx.layout[i % len].neutral())
        .collect();
    if m.keys().all(|k| {
        keep.iter()
            .zip(k.iter().zip(&neutral))
            .all(|(&c, (x, n))| c || x == n)
    }) {
        return m;
    }
    let mut out: Map<W> = Map::default();
    for (mut k, w) in m {
        for (i, &c) in keep.iter().enumerate() {
            if !c {
                k[i] = neutral[i];
            }
        }
        match out.get_mut(&k) {
            Some(x) => *x += w,
            None => {
                out.insert(k, w);
            }
        }
    }
    out
}

/// A law where the push changes nothing: each tuple twice.
fn double<W: Weight>(m: Map<W>) -> Map<W> {
    m.into_iter()
        .map(|(k, w)| {
            let mut d = k.to_vec();
            d.extend_from_slice(&k);
            (d.into(), w)
        })
        .collect()
}

/// The slots a pushed term's pairs keep (a named term's value is its
/// total: carried wherever the name is), its rule, one die's law and the
/// planner's plan, checked against its limit; `None` for a term no rule
/// pushes.
fn term_plan<'r, W: Weight>(
    t: &PoolTerm,
    ctx: &Ctx,
    rules: &'r [PushRule],
    keep: &[bool],
) -> Result<TermPlan<'r, W>> {
    let len = ctx.layout.len();
    let mut keep = keep.to_vec();
    for half in 0..2 {
        if ctx
            .layout
            .iter()
            .enumerate()
            .any(|(i, s)| matches!(s, Stat::Named(_)) && keep[half * len + i])
        {
            keep[half * len] = true;
        }
    }
    let Some(rule) = rule_for(rules, t.name.as_deref()) else {
        return Ok(None);
    };
    if matches!(t.explosion(), Some((_, false))) {
        return Err(Error::Conflict(
            "dice: a push rerolls single dice; dice that explode with ! cannot be pushed (use !!)"
                .into(),
        ));
    }
    let full = die_law::<W>(t, ctx)?;
    let rerolled = full
        .outcomes
        .iter()
        .filter(|(o, _)| rule.cond.holds(o.order))
        .count() as u64;
    let plan = super::plan::push(t, &full, ctx, rerolled, &keep);
    plan.check(t.count)?;
    let work = plan.estimate.saturating_mul(t.count.max(1) as u64);
    if W::EXACT && work > super::plan::MAX_EXACT_PUSH_WORK {
        return Err(Error::Conflict(format!(
            "dice: pushing {t} takes about {} state steps by the {} on fractions as long as its {} dice ({work} steps × dice, at most {} with --exact); drop --exact for floating point, push fewer faces or roll fewer dice",
            plan.estimate,
            plan.algorithm.name(),
            t.count,
            super::plan::MAX_EXACT_PUSH_WORK
        )));
    }
    Ok(Some((keep, rule, full, plan)))
}

/// A pushed term's plan ([`term_plan`]), `None` for a term no rule
/// pushes.
type TermPlan<'r, W> = Option<(Vec<bool>, &'r PushRule, DieLaw<W>, super::plan::Plan)>;

/// Every term's plan for one pass, by the term (its address in the
/// roll's tree): made once, before any pass runs, and read by the pass.
type Plans<'t, 'r, W> = Vec<(&'t PoolTerm, TermPlan<'r, W>)>;

/// Every pushed term's plan for the pairs keeping `keep`, checked before
/// any pass runs: a check's passes (its tiers, then its total) plan
/// apart, and a later pass past its limit was refused only after the
/// first had run (`20D10` read by width and pushed: 4.8 s). The pass then
/// runs these plans, where it made each again.
fn term_plans<'t, 'r, W: Weight>(
    n: &'t Node,
    ctx: &Ctx,
    rules: &'r [PushRule],
    keep: &[bool],
) -> Result<Plans<'t, 'r, W>> {
    let mut terms: Vec<&'t PoolTerm> = Vec::new();
    super::visit(n, &mut |node| {
        if let Node::Pool(t) = node {
            terms.push(t);
        }
    });
    terms
        .into_iter()
        .map(|t| Ok((t, term_plan::<W>(t, ctx, rules, keep)?)))
        .collect()
}

fn term_pairs<W: Weight>(
    t: &PoolTerm,
    (ctx, wide): (&Ctx, &Ctx),
    plans: &Plans<'_, '_, W>,
) -> Result<Map<W>> {
    let plan = plans
        .iter()
        .find(|(u, _)| std::ptr::eq(*u, t))
        .map(|(_, p)| p)
        .ok_or_else(|| Error::Conflict("dice: a pushed term was not planned".into()))?;
    let Some((keep, rule, full, plan)) = plan else {
        return Ok(double(super::fold::term_law::<W>(t, ctx)?));
    };
    let keep = &keep[..];
    let n = t.count;
    let run = || {
        if plan.algorithm == super::plan::Algorithm::PushDieByDie {
            die_by_die_pairs(n, ctx, wide, full, rule, keep)
        } else {
            binomial_pairs(t, ctx, full, rule, keep)
        }
    };
    let mut out = super::plan::traced(|| format!("{t} pushed"), n, plan, run)?;

    if let Some(name) = &t.name {
        // The named slot of both halves set from its half's total, in
        // place (each key was three vectors).
        let len = ctx.layout.len();
        let slot = ctx
            .layout
            .iter()
            .position(|s| matches!(s, Stat::Named(n) if &**n == name));
        let halves: Map<W> = out;
        let mut named = Map::default();
        for (mut k, w) in halves {
            if let Some(i) = slot {
                k[i] = ctx.named(i, k[0]);
                k[len + i] = ctx.named(i, k[len]);
            }
            add_to(&mut named, &k, w);
        }
        out = named;
    }
    Ok(out)
}

/// A pushed term's pairs die by die (statistics that combine without
/// order, no keep/drop): each die is a pair of its own (a face that
/// stays, on both rolls; or a face that is rerolled, then a fresh face),
/// the pool's pairs that pair law combined `n` times. The statistics not
/// carried read neutral, so dice differing only there are one
/// contribution.
fn die_by_die_pairs<W: Weight>(
    n: i64,
    ctx: &Ctx,
    wide: &Ctx,
    full: &DieLaw<W>,
    rule: &PushRule,
    keep: &[bool],
) -> Result<Map<W>> {
    let len = ctx.layout.len();
    let neutral = ctx.neutral();
    // Outcome `o`'s half `h` (0: the first roll, 1: the pushed roll),
    // the slots not carried neutral.
    let half = |o: &super::die::Outcome, h: usize| -> Key {
        o.contrib
            .iter()
            .enumerate()
            .map(|(i, v)| if keep[h * len + i] { *v } else { neutral[i] })
            .collect()
    };
    // Weights of equal halves summed (most faces read alike once the
    // slots not carried are dropped: Year Zero's d6 is a six, a one or
    // neither), so each distinct pair is met once.
    let merge =
        |list: &mut Vec<(Key, W)>, k: Key, p: &W| match list.iter_mut().find(|(x, _)| *x == k) {
            Some((_, w)) => *w += p.clone(),
            None => list.push((k, p.clone())),
        };
    let mut fresh: Vec<(Key, W)> = Vec::with_capacity(full.outcomes.len());
    let mut rerolled: Vec<(Key, W)> = Vec::with_capacity(full.outcomes.len());
    let mut die: Map<W> = Map::default();
    let mut k: Vec<i64> = Vec::with_capacity(2 * len);
    for (o, p) in &full.outcomes {
        merge(&mut fresh, half(o, 1), p);
        if rule.cond.holds(o.order) {
            merge(&mut rerolled, half(o, 0), p);
        } else {
            // A face that stays, on both rolls.
            k.clear();
            k.extend_from_slice(&half(o, 0));
            k.extend_from_slice(&half(o, 1));
            add_to(&mut die, &k, p.clone());
        }
    }
    // Every rerolled face meets every fresh one: refused before they meet
    // where those pairs alone pass the states a law may hold (`1D1000!!`
    // pushed on every face: 36 million pairs, 2.7 GB before an abort).
    let pairs = (rerolled.len() as u64).saturating_mul(fresh.len() as u64);
    if pairs.saturating_add(die.len() as u64) > super::MAX_STATES as u64 {
        return Err(super::states_refused(
            Some(pairs),
            Some("the pairs of one die's rerolled and pushed faces"),
        ));
    }
    for (a, pa) in &rerolled {
        for (b, pb) in &fresh {
            k.clear();
            k.extend_from_slice(a);
            k.extend_from_slice(b);
            add_to(&mut die, &k, pa.clone() * pb);
        }
    }
    super::fold::independent(&die, wide, n)
}

/// A pushed term's pairs by the number `k` of dice that meet the rule
/// (binomial): for each `k`, the fold of three kinds — the `n − k` dice
/// that stay feed both rolls, the `k` that meet the rule feed the first,
/// `k` fresh dice the pushed roll (keep/drop, matching sets).
fn binomial_pairs<W: Weight>(
    t: &PoolTerm,
    ctx: &Ctx,
    full: &DieLaw<W>,
    rule: &PushRule,
    keep: &[bool],
) -> Result<Map<W>> {
    let split = |meets: bool| -> (DieLaw<W>, W) {
        let outcomes: Vec<_> = full
            .outcomes
            .iter()
            .filter(|(o, _)| rule.cond.holds(o.order) == meets)
            .cloned()
            .collect();
        let mass = outcomes.iter().fold(W::zero(), |a, (_, w)| a + w);
        let normal = if mass.is_zero() {
            outcomes
        } else {
            outcomes.into_iter().map(|(o, w)| (o, w / &mass)).collect()
        };
        (
            DieLaw {
                outcomes: normal,
                mass: W::one(),
            },
            mass,
        )
    };
    let (stay, p_stay) = split(false);
    let (cand, p_cand) = split(true);
    let wide = ctx.clone();
    let mut out: Map<W> = Map::default();
    let n = t.count;
    let mut binom = W::one();
    for k in 0..=n {
        if k > 0 {
            binom = binom * W::ratio(n - k + 1, k);
        }
        let pk = binom.clone() * p_cand.powi(k as u32) * p_stay.powi((n - k) as u32);
        if pk.is_zero() {
            continue;
        }
        let kinds = vec![
            Kind {
                law: stay.clone(),
                n: n - k,
                feeds: 0b11,
            },
            Kind {
                law: cand.clone(),
                n: k,
                feeds: 0b01,
            },
            Kind {
                law: full.clone(),
                n: k,
                feeds: 0b10,
            },
        ];
        let kinds: Vec<Kind<W>> = kinds.into_iter().filter(|k| k.n > 0).collect();
        let m = fold(&kinds, &wide, t.kept_filter(), 2, Some(keep))?;
        for (key, w) in super::sorted(&m) {
            add_to(&mut out, key, w.clone() * &pk);
        }
    }
    Ok(out)
}
