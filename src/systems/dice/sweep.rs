//! A sweep of the tiers (判定の掃引): one roll judged at every value of a
//! placeholder, `--sweep dc=5..25` with `--tier "success:total>={dc}"`.
//!
//! A rulebook's odds table is one roll read at many difficulties
//! (目標値, 難易度). Each value could be its own report, each building the
//! same law of the same dice again. Here the dice's law is built once,
//! carrying what the tiers read at any of the values (their statistics,
//! each saturated past the greatest threshold any value puts on it:
//! [`super::pool::bounds`] of every value's conditions together), and each
//! value's tiers are then judged over its cells, column by column
//! ([`super::Judge`]), as the report of that value alone would judge them.
//! In floating point, where the planner takes the parts' product, the
//! dice are walked once and every tuple is shown with its weight to each
//! value's judge ([`pool::product::read_observed`]); elsewhere, and in
//! exact fractions, one joint law is read, its weights (exactly) brought
//! over one common denominator once for every value. The judgings (tuples
//! × values) are limited ([`MAX_JUDGINGS`], [`MAX_EXACT_JUDGINGS`]).
//!
//! A placeholder in the dice (`{n}D6`, `1D{s}!`: [`report_dice`]) is
//! written into the roll's text at each value: each value rolls its own
//! dice, judged as its `--outcomes-only` report judges them, and the report
//! is the table alone. One die's pools of several sizes are built in one
//! pass, a die more each step; the values together are held to one roll's
//! limits ([`MAX_DICE_WORK`], [`MAX_DICE_SECONDS`]).
//!
//! The report is the roll's own (its distribution, mean and sd; none with
//! `--outcomes-only`) with one table more, `by_<NAME>`: a row per value,
//! the value, each tier's probability (in the order the tiers are
//! written) and `p_success`. In exact fractions every row equals the
//! report of that value alone; in floating point the sums run in another
//! order, so they may differ in the last digits.

use super::pool::{self, product::Rows};
use super::{Check, Command, TierSpec, ID, JA};
use crate::error::{Error, Result};
use crate::report::{Field, Report};
use crate::weight::Weight;

/// Most values of one sweep.
pub const MAX_POINTS: usize = 1000;

/// Most judgings of one sweep: the tuples of the dice's law (or the
/// combinations of its parts) × the values. A judging (a tuple read by one
/// value's tiers and added to its tier) takes 30–40 ns on a 2-core
/// machine (`1D100[a]+1D100[b]+1D20[c]` read at 1,000 values: 2·10⁸
/// judgings, 7.2 s), so this is about two seconds; past it a sweep is
/// refused, the product before any tuple is made.
pub const MAX_JUDGINGS: u64 = 50_000_000;

/// [`MAX_JUDGINGS`] in exact fractions: each judging keeps its tier (two
/// bytes), and each tier's numerators are then added over one common
/// denominator (`1D100[a]+1D100[b]+1D20[c]` read at 100 values exactly:
/// 2·10⁷ judgings, 1.1 s and 132 MB in all).
pub const MAX_EXACT_JUDGINGS: u64 = 20_000_000;

/// The most judgings of one sweep in weight `W`.
fn max_judgings<W: Weight>() -> u64 {
    if W::EXACT {
        MAX_EXACT_JUDGINGS
    } else {
        MAX_JUDGINGS
    }
}

/// Most cells judged at once (the columns of a block of the law's cells).
const BLOCK: usize = 1024;

/// Whether `name` can name a placeholder: letters, digits and `_`, not
/// starting with a digit.
pub fn is_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A placeholder and the values it takes, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The placeholder's name (`dc` for `{dc}`).
    pub name: String,
    /// Its values, in the order given.
    pub values: Vec<i64>,
}

/// The form of `--sweep`, for its errors.
const FORM: &str = "write NAME=LO..HI (dc=5..25), NAME=A,B,C (dc=10,15,20) or both (dc=5..10,15,20); every {NAME} in the tiers takes each value in turn";

impl std::str::FromStr for Sweep {
    type Err = Error;

    fn from_str(text: &str) -> Result<Sweep> {
        let norm = super::parse::normalize_width(text.trim());
        let bad = |why: &str| Error::param("--sweep", text, format!("{why}; {FORM}"));
        let Some((name, list)) = norm.split_once('=') else {
            return Err(bad("no '=' between the placeholder's name and its values"));
        };
        let name = name.trim();
        if !is_name(name) {
            return Err(bad(&format!(
                "'{name}' is no placeholder name (letters, digits and _, not starting with a digit)"
            )));
        }
        let number = |s: &str| {
            s.trim()
                .parse::<i64>()
                .ok()
                .filter(|v| v.unsigned_abs() <= super::parse::MAX_CONST.unsigned_abs())
        };
        let mut values: Vec<i64> = Vec::new();
        for item in list.split(',') {
            let item = item.trim();
            let (lo, hi) = match item.split_once("..") {
                Some((a, b)) => (number(a), number(b)),
                None => (number(item), number(item)),
            };
            let (Some(lo), Some(hi)) = (lo, hi) else {
                return Err(bad(&format!(
                    "'{item}' is no whole number or range LO..HI (at most {} either side of 0)",
                    super::parse::MAX_CONST
                )));
            };
            if hi < lo {
                return Err(bad(&format!(
                    "the range {lo}..{hi} is empty: write the smaller value first"
                )));
            }
            let count = (i128::from(hi) - i128::from(lo) + 1) as u128;
            if values.len() as u128 + count > MAX_POINTS as u128 {
                return Err(bad(&format!("more than {MAX_POINTS} values")));
            }
            values.extend(lo..=hi);
        }
        Ok(Sweep {
            name: name.to_string(),
            values,
        })
    }
}

impl std::fmt::Display for Sweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}=", self.name)?;
        // Runs of consecutive values written as ranges.
        let mut first = true;
        let mut i = 0;
        while i < self.values.len() {
            let mut j = i;
            while j + 1 < self.values.len() && self.values[j + 1] == self.values[j] + 1 {
                j += 1;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if j > i {
                write!(f, "{}..{}", self.values[i], self.values[j])?;
            } else {
                write!(f, "{}", self.values[i])?;
            }
            i = j + 1;
        }
        Ok(())
    }
}

/// The tiers `tiers` with every `{name}` read as `value`.
fn bound(tiers: &[TierSpec], name: &str, value: i64) -> Vec<TierSpec> {
    tiers
        .iter()
        .map(|t| TierSpec {
            name: t.name.clone(),
            cond: t.cond.as_ref().map(|c| c.bind(name, value)),
            mark: t.mark,
        })
        .collect()
}

/// The tiers `tiers` at every value of `sweep`, one value after another
/// (read together, they say what a law must carry for all of them).
fn bound_all(tiers: &[TierSpec], sweep: &Sweep) -> Vec<TierSpec> {
    sweep
        .values
        .iter()
        .flat_map(|&v| bound(tiers, &sweep.name, v))
        .collect()
}

/// Refuse what a sweep cannot read: a placeholder no tier holds, a
/// check whose dice change with the tiers (a push, a contest, rounds are
/// refused by the caller), and a tier whose name is a column already.
fn check_sweep(check: &Check, sweep: &Sweep, in_dice: bool) -> Result<()> {
    if check.tiers.is_empty() || !check.outcomes_by.is_empty() {
        return Err(Error::Conflict(
            "--sweep judges the tiers at each value: give them with --tier NAME:COND, with the placeholder in a condition (--tier \"success:total>={dc}\") or in the dice ({n}D6)".into(),
        ));
    }
    let mut vars = Vec::new();
    for c in check.tiers.iter().filter_map(|t| t.cond.as_ref()) {
        c.vars(&mut vars);
    }
    if !in_dice && !vars.iter().any(|v| **v == *sweep.name) {
        return Err(Error::param(
            "--sweep",
            sweep,
            format!(
                "no tier holds {{{}}}, nor do the dice: write it where the value goes (--tier \"success:total>={{{}}}\", or {{{}}}D6 for the number of dice)",
                sweep.name, sweep.name, sweep.name
            ),
        ));
    }
    if check.push.is_some() {
        return Err(Error::Conflict(
            "--sweep with --push: the tiers decide the push, so each value rolls other dice; run one report per value".into(),
        ));
    }
    if check.vs.is_some() {
        return Err(Error::Conflict(
            "--sweep with --vs: a contest has no tiers to sweep; sweep the tiers of one roll"
                .into(),
        ));
    }
    for t in &check.tiers {
        if t.name == sweep.name || t.name == "p_success" {
            return Err(Error::param(
                "--tier",
                &t.name,
                format!(
                    "a tier of a sweep cannot be named {} (a column of its table already)",
                    t.name
                ),
            ));
        }
    }
    Ok(())
}

/// Each value's judge and its tiers' sums: fed rows of tuples and their
/// weights (a walk's, or a law's cells), each row judged by every value's
/// tiers and its weight added to the tier it falls in.
struct Sums<'p, W> {
    judges: Vec<super::Judge<'p>>,
    /// The tiers of each value.
    count: usize,
    /// In floating point, each value's tiers' sums so far.
    sums: Vec<Vec<W>>,
    tiers: Vec<usize>,
    /// In exact fractions, each value's tier of every cell met, in order
    /// (summed at the end over one common denominator: [`Sums::finish`]).
    met: Option<Vec<Vec<u16>>>,
}

impl<'p, W: Weight> Sums<'p, W> {
    fn new(programs: &'p [super::TierProgram], count: usize) -> Self {
        Sums {
            judges: programs.iter().map(super::TierProgram::judge).collect(),
            count,
            sums: if W::EXACT {
                Vec::new()
            } else {
                vec![vec![W::zero(); count]; programs.len()]
            },
            tiers: Vec::new(),
            met: W::EXACT.then(|| vec![Vec::new(); programs.len()]),
        }
    }

    /// Judge the `n` rows `rows` at every value; in floating point add
    /// their `weights` to the tiers they fall in (exactly, the weights are
    /// read at the end: [`Sums::finish`]; none need be given here).
    fn see(&mut self, rows: &Rows<'_>, n: usize, weights: &[W]) {
        self.tiers.clear();
        self.tiers.resize(n, 0);
        for (p, judge) in self.judges.iter_mut().enumerate() {
            pool::product::Judging::tiers_of_rows(judge, rows, &mut self.tiers);
            match &mut self.met {
                // Tier indices are below `super::MAX_TIERS` + 1.
                Some(met) => met[p].extend(self.tiers.iter().map(|&t| t as u16)),
                None => {
                    for (&t, w) in self.tiers.iter().zip(weights) {
                        self.sums[p][t] += w;
                    }
                }
            }
        }
    }

    /// Each value's tiers' probabilities. In exact fractions the cells
    /// `cells` met (every one, in order) are brought over one common
    /// denominator once for all the values, and each tier's numerators
    /// summed as integers, reduced once: adding long fractions one by one
    /// took a gcd each (`10D10!` at 1,000 values, exactly: 6.8 s).
    fn finish<'w>(self, cells: impl IntoIterator<Item = &'w W>) -> Vec<Vec<W>>
    where
        W: 'w,
    {
        let Some(met) = self.met else {
            return self.sums;
        };
        let count = self.count;
        let cells: Vec<&W> = cells.into_iter().collect();
        let common = crate::weight::over_common_denominator(cells.iter().copied());
        met.into_iter()
            .map(|tiers| match &common {
                Some((nums, den)) => {
                    let mut sums = vec![num_bigint::BigInt::default(); count];
                    for (&t, n) in tiers.iter().zip(nums) {
                        sums[usize::from(t)] += n;
                    }
                    sums.into_iter()
                        .map(|n| W::from_fraction(n, den.clone()))
                        .collect()
                }
                None => {
                    let mut sums = vec![W::zero(); count];
                    for (&t, w) in tiers.iter().zip(&cells) {
                        sums[usize::from(t)] += *w;
                    }
                    sums
                }
            })
            .collect()
    }

    /// The cells `cells` (tuples of `n` slots), as rows in blocks (their
    /// weights copied only where they are added as they come).
    fn see_cells<K: std::borrow::Borrow<[i64]>>(&mut self, n: usize, cells: &[(K, W)]) {
        let base = vec![0; n];
        let mut cols: Vec<(usize, Vec<i64>)> = (0..n).map(|i| (i, Vec::new())).collect();
        let mut weights: Vec<W> = Vec::new();
        for block in cells.chunks(BLOCK) {
            for (i, col) in &mut cols {
                col.clear();
                col.extend(block.iter().map(|(k, _)| k.borrow()[*i]));
            }
            if !W::EXACT {
                weights.clear();
                weights.extend(block.iter().map(|(_, w)| w.clone()));
            }
            let rows = Rows {
                base: &base,
                cols: &cols,
            };
            self.see(&rows, block.len(), &weights);
        }
    }
}

/// The columns of a sweep's table: each tier's name (the same at every
/// value) and whether it is a success.
fn columns(check: &Check) -> Vec<(String, bool)> {
    (0..check.tier_count())
        .map(|i| {
            let name = check.tier_name(i);
            (name.to_string(), check.is_success_tier(name))
        })
        .collect()
}

/// One row of a sweep's table: the value, each tier's probability `p` (in
/// the order of `columns`, each with whether it is a success), and
/// `p_success`.
fn table_row<W: Weight>(
    name: &str,
    value: i64,
    columns: &[(String, bool)],
    p: Vec<W>,
) -> Vec<(String, Field<W>)> {
    let mut row: Vec<(String, Field<W>)> = Vec::with_capacity(columns.len() + 3);
    row.push((name.to_string(), Field::Int(value)));
    let mut success = W::zero();
    for ((name, succeeds), p) in columns.iter().zip(p) {
        if *succeeds {
            success += &p;
        }
        row.push((name.clone(), Field::Prob(p)));
    }
    row.push(("p_success".into(), Field::Prob(success)));
    row
}

/// Refuse judging `cells` tuples at every value of `sweep` past
/// [`MAX_JUDGINGS`] ([`MAX_EXACT_JUDGINGS`] exactly).
fn check_judgings<W: Weight>(cells: usize, sweep: &Sweep) -> Result<()> {
    let judgings = (cells as u64).saturating_mul(sweep.values.len() as u64);
    let limit = max_judgings::<W>();
    if judgings > limit {
        return Err(Error::Conflict(format!(
            "dice: a sweep judges each of the roll's {cells} tuples at each of its {} values, {judgings} judgings, past the limit of {limit}{}; sweep fewer values, or read fewer statistics",
            sweep.values.len(),
            if W::EXACT { " in exact fractions" } else { "" }
        )));
    }
    Ok(())
}

/// Validate `check` for a sweep over `sweep` before any work (what
/// [`report`] refuses, it refuses here: the server's preflight asks it).
/// The tiers are checked once, placeholder and all, as each value's
/// report checks its own (a value changes a number, nothing the checks
/// read); a named score is marked in them, so in every value's tiers.
pub fn validate(check: &mut Check, sweep: &Sweep) -> Result<()> {
    check_sweep(check, sweep, false)?;
    check.validate_as(Some(&sweep.name))
}

/// The report of `check` (its tiers holding `{NAME}`) swept over
/// `sweep`'s values (module doc).
pub fn report<W: Weight>(mut check: Check, sweep: &Sweep) -> Result<Report<W>> {
    validate(&mut check, sweep)?;
    // The table's columns: the tiers' names and marks are the same at
    // every value.
    let count = check.tier_count();
    let columns = columns(&check);
    let templates = std::mem::take(&mut check.tiers);
    // Every value's tiers read together: what the one law carries, each
    // statistic saturated past the greatest threshold any value puts on it.
    check.tiers = bound_all(&templates, sweep);
    let tier_stats = check.tier_stats();
    let layout = pool::layout(&tier_stats);
    // Exploding chains stop past the greatest target where the tiers are
    // reported alone, as `--outcomes-only` stops them; beside the roll's
    // own law they are that law's, cut where it is cut.
    let bounds = match check.expr() {
        Some(e) if check.outcomes_only => check.bounds_with_cap(e, &tier_stats),
        _ => check.bounds(),
    };
    // Each value's tiers compiled once.
    let mut all = std::mem::take(&mut check.tiers).into_iter();
    let programs: Vec<super::TierProgram> = sweep
        .values
        .iter()
        .map(|_| {
            check.tiers = all.by_ref().take(templates.len()).collect();
            check.tier_program(&layout)
        })
        .collect();
    check.tiers = templates;
    let mut sums: Sums<'_, W> = Sums::new(&programs, count);
    let (probs, tail, explodes) = match check.expr() {
        Some(expr) if W::EXACT => {
            // One joint law, its cells judged at every value and their
            // weights summed over one common denominator.
            super::law::check_work::<W>(&check.command)?;
            let joint = pool::law_bounded::<W>(expr, &tier_stats, &bounds, check.tail_eps)?;
            check_judgings::<W>(joint.cells.len(), sweep)?;
            sums.see_cells(layout.len(), &joint.cells);
            let probs = sums.finish(joint.cells.iter().map(|(_, w)| w));
            (probs, joint.tail, joint.explodes)
        }
        Some(expr) => {
            super::law::check_work::<W>(&check.command)?;
            // One walk of the dice, every value's judges reading each
            // tuple, where the parts' product is chosen; else the joint
            // law, its cells read the same way.
            let mut none = |_: &[i64]| 0usize;
            let mut observe = |rows: &Rows<'_>, w: &[W]| sums.see(rows, w.len(), w);
            let read = pool::product::read_observed::<W, _>(
                expr,
                &tier_stats,
                &bounds,
                check.tail_eps,
                1,
                &mut none,
                &mut observe,
                max_judgings::<W>() / sweep.values.len().max(1) as u64,
            )?;
            let (tail, explodes) = match read {
                pool::product::Read::Judged(j) => (j.tail, j.explodes),
                pool::product::Read::Law(joint) => {
                    if joint.layout != layout {
                        return Err(Error::Conflict(
                            "dice: a sweep's law came in another layout than its tiers were read in (a bug of hantei: please report the command)".into(),
                        ));
                    }
                    check_judgings::<W>(joint.cells.len(), sweep)?;
                    sums.see_cells(layout.len(), &joint.cells);
                    (joint.tail, joint.explodes)
                }
            };
            (sums.finish([]), tail, explodes)
        }
        None => {
            // xB, xR, xU: tiers read their result alone.
            let law = super::law::law::<W>(&check.command, check.tail_eps)?;
            let cells: Vec<([i64; 1], W)> = law
                .value
                .iter()
                .filter(|(_, p)| !p.is_zero())
                .map(|(x, p)| ([x], p.clone()))
                .collect();
            if layout != [pool::Stat::Total] {
                return Err(Error::Conflict(
                    "dice: the tiers of xB, xR, xU and D66 read their result alone".into(),
                ));
            }
            check_judgings::<W>(cells.len(), sweep)?;
            sums.see_cells(1, &cells);
            let probs = sums.finish(cells.iter().map(|(_, w)| w));
            (probs, law.tail, law.explodes)
        }
    };
    let rows: Vec<Vec<(String, Field<W>)>> = sweep
        .values
        .iter()
        .zip(probs)
        .map(|(&v, p)| table_row(&sweep.name, v, &columns, p))
        .collect();
    // The report of the roll itself (its distribution, mean, sd), its
    // parameters those of the command as typed.
    let report = if check.outcomes_only {
        // As `--outcomes-only` reports one value's tiers.
        let r = check.write_params(Report::bare(ID, JA, W::zero()).without_success(), true);
        if explodes {
            check.with_cut(r.param("tail_eps", check.tail_eps), &tail)
        } else {
            r
        }
    } else {
        let tiers: Vec<String> = check.tiers.iter().map(ToString::to_string).collect();
        let success_tiers = check.success_tiers.take();
        check.tiers = Vec::new();
        let mut r = super::report_of::<W>(check)?;
        // The tiers as typed, placeholders and all.
        r.params
            .push(("tier".into(), serde_json::Value::from(tiers)));
        if let Some(s) = success_tiers {
            r.params
                .push(("success_tiers".into(), serde_json::Value::from(s)));
        }
        r
    };
    Ok(report
        .param("sweep", sweep.to_string())
        .field(&format!("by_{}", sweep.name), Field::Rows(rows)))
}

/// Most state steps of a sweep over the dice, every value's law together
/// (as many as one roll's law may take: [`pool::MAX_WORK`], about a
/// second). Each value's law is planned and held to its own limits first;
/// past it, a sweep is refused before its next value, the steps of the
/// value just built projected over the values left.
pub const MAX_DICE_WORK: u64 = pool::MAX_WORK;

/// Most seconds a sweep over the dice may take, the time of the value
/// just built projected over the values left (the laws whose work counts
/// no state steps: a plain sum's convolutions, `{n}D100` to 1,000 dice).
pub const MAX_DICE_SECONDS: f64 = 10.0;

/// Whether `{NAME}` stands in `text`: a sweep over the dice (`{n}D6`,
/// `1D{s}!`), each value written into the text of the roll.
pub fn in_text(text: &str, name: &str) -> bool {
    text.contains(&format!("{{{name}}}"))
}

/// `text` with every `{NAME}` written as `value`.
pub fn substitute(text: &str, name: &str, value: i64) -> String {
    text.replace(&format!("{{{name}}}"), &value.to_string())
}

/// Validate a sweep over the dice before any work: `check` holds the
/// tiers as typed (placeholders and all), `commands` each value's roll
/// (its text with the value written in). Each value's tiers are checked
/// against that value's roll, as its own report checks them.
pub fn validate_dice(check: &Check, commands: &[Command], sweep: &Sweep) -> Result<()> {
    check_sweep(check, sweep, true)?;
    let mut each = check.clone();
    each.outcomes_only = true;
    for (&v, c) in sweep.values.iter().zip(commands) {
        at_value(&mut each, c, &check.tiers, &sweep.name, v)?;
    }
    Ok(())
}

/// `check` made the check of one value of a sweep over the dice: its roll
/// `command`, the tiers `templates` with `{name}` read as `value`, checked
/// as that value's own report checks them.
fn at_value(
    check: &mut Check,
    command: &Command,
    templates: &[TierSpec],
    name: &str,
    value: i64,
) -> Result<()> {
    check.command = command.clone();
    check.tiers = bound(templates, name, value);
    check.validate()
}

/// The pools' laws by size, and each value's size.
type BySize<W> = (Vec<pool::JointLaw<W>>, Vec<usize>);

/// The laws of every value's roll from one pass, where the rolls are one
/// die's pools of several sizes (`{n}D6`) read by statistics that combine
/// without order, with nothing kept, dropped or exploding: the pools of
/// 0, 1, …, the greatest size, one die more each step
/// ([`pool::facts_by_size`]). `None` where the rolls are not such pools.
fn laws_by_size<W: Weight>(
    commands: &[Command],
    stats: &[pool::Stat],
    tail_eps: f64,
) -> Option<BySize<W>> {
    let pool_of = |c: &Command| match &c.body {
        super::Body::Add(a) if a.target.is_none() => match &a.expr {
            super::Node::Pool(t) => Some((**t).clone()),
            _ => None,
        },
        _ => None,
    };
    let first = commands.first().and_then(pool_of)?;
    let mut sizes = Vec::with_capacity(commands.len());
    for c in commands {
        let t = pool_of(c)?;
        let alike = super::ast::PoolTerm {
            count: first.count,
            ..t.clone()
        };
        if alike != first || t.count < 0 {
            return None;
        }
        sizes.push(t.count as usize);
    }
    let layout = pool::layout(stats);
    if first.filter.is_some() || first.explosion().is_some() || !pool::fold::order_free(&layout) {
        return None;
    }
    let most = sizes.iter().copied().max().unwrap_or(0) as i64;
    // Past the one pass's limits (its largest pool read by every
    // statistic at once), each value builds its own law, as its report
    // would (a plain sum of 1,000 d100 by its total is quick alone).
    pool::facts_by_size::<W>(&first, stats, most, tail_eps)
        .ok()
        .map(|laws| (laws, sizes))
}

/// The report of a sweep over the dice (`{n}D6 --sweep n=1..6`): each
/// value's roll (`commands`, its text `typed` with the value written in)
/// judged by the tiers of `check` (placeholders bound to the value where
/// they hold one), as that value's `--outcomes-only` report judges it. The
/// rolls differ, so the report is the table alone, with each value's cut
/// mass (`tail_mass`) where dice explode. One die's pools of several sizes
/// are built in one pass, one die more each step; other rolls each build
/// their own law, the tiers read and checked once.
pub fn report_dice<W: Weight>(
    mut check: Check,
    typed: &str,
    commands: Vec<Command>,
    sweep: &Sweep,
) -> Result<Report<W>> {
    // Each value's tiers are checked against its roll as it is judged.
    check_sweep(&check, sweep, true)?;
    let columns = columns(&check);
    let templates = std::mem::take(&mut check.tiers);
    let outcomes_only = check.outcomes_only;
    check.outcomes_only = true;
    // What every value's tiers read, for the pools built in one pass.
    check.tiers = bound_all(&templates, sweep);
    let all_stats = check.tier_stats();
    let by_size = laws_by_size::<W>(&commands, &all_stats, check.tail_eps);
    let mut rows_p: Vec<(Vec<W>, W, bool)> = Vec::with_capacity(commands.len());
    // The state steps spent so far (each value's law is held to its own
    // limits; the values together to [`MAX_DICE_WORK`]).
    let mut spent: u64 = 0;
    let start = std::time::Instant::now();
    super::chained::memo_scope(|| -> Result<()> {
        for (i, (&v, c)) in sweep.values.iter().zip(&commands).enumerate() {
            at_value(&mut check, c, &templates, &sweep.name, v)?;
            rows_p.push(match &by_size {
                Some((laws, sizes)) => {
                    let law = &laws[sizes[i]];
                    (check.tier_probs(law), law.tail.clone(), law.explodes)
                }
                None => {
                    let tier_stats = check.tier_stats();
                    let passes = check.passes_of(&tier_stats);
                    let began = start.elapsed().as_secs_f64();
                    let (row, steps) = pool::plan::measure(|| {
                        check.tier_probs_only::<W>(&tier_stats, passes)
                    });
                    // A value its own limits refuse is refused as they say.
                    let row = row?;
                    // The rest at this value's work, before any of it: in
                    // state steps, and in time for the laws that count
                    // none (a plain sum's convolutions).
                    spent = spent.saturating_add(steps);
                    let left = (commands.len() - i - 1) as u64;
                    let projected = spent.saturating_add(steps.saturating_mul(left));
                    let now = start.elapsed().as_secs_f64();
                    let seconds = now + (now - began) * left as f64;
                    if left > 0 && seconds > MAX_DICE_SECONDS {
                        return Err(Error::Conflict(format!(
                            "dice: a sweep over the dice builds each value's law: its first {} values took {now:.1} s and the other {left} would take about {:.0} s more at {v}'s (at most {MAX_DICE_SECONDS} s in all); sweep fewer values or smaller rolls",
                            i + 1,
                            seconds - now
                        )));
                    }
                    if projected > MAX_DICE_WORK {
                        return Err(Error::Conflict(format!(
                            "dice: a sweep over the dice builds each value's law: its first {} values took {spent} state steps and the other {left} would take about {} more at {v}'s (at most {MAX_DICE_WORK} in all, about a few seconds); sweep fewer values or smaller rolls",
                            i + 1,
                            projected - spent
                        )));
                    }
                    row
                }
            });
        }
        Ok(())
    })?;
    let explodes = rows_p.iter().any(|r| r.2);
    let rows: Vec<Vec<(String, Field<W>)>> = sweep
        .values
        .iter()
        .zip(rows_p)
        .map(|(&v, (p, tail, _))| {
            let mut row = table_row(&sweep.name, v, &columns, p);
            if explodes {
                row.push(("tail_mass".into(), Field::Prob(tail)));
            }
            row
        })
        .collect();
    check.tiers = templates;
    check.outcomes_only = outcomes_only;
    let mut report = check.write_params(Report::bare(ID, JA, W::zero()).without_success(), true);
    // The roll as typed, its placeholder and all.
    for (name, value) in &mut report.params {
        if name == "expr" {
            *value = serde_json::Value::from(typed);
        }
    }
    if explodes {
        report = report.param("tail_eps", check.tail_eps).note(format!(
            "exploding dice are cut where less than {:e} of the probability is left: each value's cut mass is its row's tail_mass; every other probability is that of the cut law",
            check.tail_eps
        ));
    }
    Ok(report
        .param("sweep", sweep.to_string())
        .field(&format!("by_{}", sweep.name), Field::Rows(rows)))
}
