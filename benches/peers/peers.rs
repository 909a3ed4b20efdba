//! hantei's side of the peer comparison (`benches/peers/`): the same
//! workloads as `icepool_workloads.py`, in `f64`, through hantei's library.
//!
//! `cargo run --release --features peers --example peers -- [--repeat N] [--full-report] [--per-report] WORKLOAD...` prints
//! one JSON object per workload: `{"workload", "seconds" (the best of N
//! runs), "values"}`, the values in the order the Python side prints them.
//! `run.py` runs both and compares.
//!
//! The older workloads call the systems' own functions; the mechanics of
//! MECHANICS.md and the BCDice game commands go through
//! `hantei::request::dice::Params::report`, the path `hantei odds dice`
//! takes (parsing included).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The allocator the `hantei` binary runs on (src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use hantei::contest::compare;
use hantei::systems::d20::{self, Roll as D20Roll};
use hantei::systems::hit_pool::{all_pools, plain_pool, pushed_pool, ExplodeGlitch, GlitchRule};
use hantei::systems::keep_highest::{odds_by_difficulty, Pool, Situation};
use hantei::systems::multiplier;
use hantei::Tier;

fn hit_pool_plain() -> Vec<f64> {
    // Every pool 1..=40 at once, each extended from the one before.
    let mut out = Vec::new();
    for odds in all_pools::<f64>(40, GlitchRule::HalfOrMore) {
        out.extend(&odds.hits);
        out.push(odds.p_glitch);
        out.push(odds.p_critical_glitch);
    }
    out
}

fn hit_pool_push() -> Vec<f64> {
    let mut out = Vec::new();
    for n in 1..=40u32 {
        let law = pushed_pool::<f64>(n, GlitchRule::HalfOrMore, ExplodeGlitch::AllDice, 1e-15);
        let hits = law.hits();
        out.extend((0..=2 * n as usize).map(|k| hits.get(k).copied().unwrap_or(0.0)));
        out.push(law.p_glitch());
        out.push(law.p_critical_glitch());
    }
    out
}

fn keep_highest() -> Vec<f64> {
    let mut out = Vec::new();
    // One ability per die size: d4, d6, d8, d10, d12, d20.
    for ability in [4i64, 6, 8, 10, 12, 20] {
        for n in 1..=10 {
            let pool = Pool::new(ability, n, Situation::Normal).expect("valid pool");
            out.extend(odds_by_difficulty::<f64>(&pool).iter().map(|o| o.p_success));
        }
    }
    out
}

fn d20() -> Vec<f64> {
    let mut out = Vec::new();
    for roll in [D20Roll::Normal, D20Roll::Advantage, D20Roll::Disadvantage] {
        for m in -5..=15 {
            for dc in 5..=30 {
                out.push(d20::p_success::<f64>(m, dc, roll));
            }
        }
    }
    out
}

fn d100_tiers() -> Vec<f64> {
    let options = multiplier::Options::default();
    let mut out = Vec::new();
    for rate in 1..=200 {
        let law = multiplier::law_for_rate::<f64>(multiplier::Rate::Roll(rate), &options);
        out.extend(multiplier::Outcome::ALL.iter().map(|&o| law.p(o)));
    }
    out
}

fn push_1000() -> Vec<f64> {
    let law = pushed_pool::<f64>(1000, GlitchRule::HalfOrMore, ExplodeGlitch::AllDice, 1e-15);
    let hits = law.hits();
    (0..=800)
        .map(|k| hits.get(k).copied().unwrap_or(0.0))
        .collect()
}

fn contest_100() -> Vec<f64> {
    let a = plain_pool::<f64>(100, GlitchRule::HalfOrMore).hits_pmf();
    let c = compare(&a, &a);
    vec![c.win, c.tie, c.loss]
}

/// P(done by round k), k = 1..=50, of `dice EXPR --until N --rounds 50`.
fn rounds(expr: &str, until: i64) -> Vec<f64> {
    let p = hantei::request::dice::Params {
        expr: expr.into(),
        until: Some(until),
        rounds: Some(50),
        tail_eps: hantei::systems::dice::DEFAULT_TAIL_EPS,
        ..Default::default()
    };
    match p.report::<f64>().expect("valid rounds").get("p_done_by") {
        Some(hantei::Field::Probs(v)) => v.clone(),
        other => panic!("p_done_by: {other:?}"),
    }
}

fn rounds_2d6_100() -> Vec<f64> {
    rounds("2D6", 100)
}

fn rounds_pool_20() -> Vec<f64> {
    rounds("20B6>=5", 60)
}

// The mechanics of MECHANICS.md (issue 18) and the BCDice game commands
// (issue 19): each through `hantei odds dice` (`Params::report`, the path
// the CLI and the server take: parsing, the pool engine or the game's law,
// the report), one report per setting.

/// The report of `hantei odds dice EXPR --tier … [--push … --push-dice …]
/// [--game ID]`, in f64.
fn dice_report(
    expr: &str,
    tiers: &[String],
    push: &[&str],
    push_dice: &[&str],
    game: Option<&str>,
) -> hantei::Report<f64> {
    let p = hantei::request::dice::Params {
        expr: expr.into(),
        tier: tiers.to_vec(),
        push: push.iter().map(|s| s.to_string()).collect(),
        push_dice: push_dice.iter().map(|s| s.to_string()).collect(),
        tail_eps: hantei::systems::dice::DEFAULT_TAIL_EPS,
        game: game.map(str::to_string),
        // The workloads with tiers read their outcomes alone, as icepool's
        // do; `--full-report` computes the whole report (the distribution,
        // mean and sd of the result beside them).
        outcomes_only: !tiers.is_empty() && !FULL_REPORT.load(Ordering::Relaxed),
        ..Default::default()
    };
    p.report::<f64>().unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// `--full-report`: the workloads with tiers compute their whole report.
static FULL_REPORT: AtomicBool = AtomicBool::new(false);

/// `--per-report`: a sweep's workload (W4, W11, W14) makes one report per value
/// rather than one sweep.
static PER_REPORT: AtomicBool = AtomicBool::new(false);

/// The probabilities of the outcomes `keys`, in that order (a missing key
/// is a bug of the workload, not a zero).
fn outcomes(report: &hantei::Report<f64>, keys: &[&str]) -> Vec<f64> {
    keys.iter()
        .map(|k| {
            *report
                .outcome(k)
                .unwrap_or_else(|| panic!("no outcome {k}: {:?}", report.outcomes))
        })
        .collect()
}

/// A probability field of a report (`p_critical`, `p_fumble`, …).
fn prob_field(report: &hantei::Report<f64>, name: &str) -> f64 {
    match report.get(name) {
        Some(hantei::Field::Prob(p)) => *p,
        other => panic!("{name}: {other:?}"),
    }
}

/// The report's `distribution`, P(value = x) for x in `lo..=hi`.
fn distribution(report: &hantei::Report<f64>, lo: i64, hi: i64) -> Vec<f64> {
    let Some(hantei::Field::Object(cells)) = report.get("distribution") else {
        panic!("no distribution")
    };
    let mut out = vec![0.0; (hi - lo + 1) as usize];
    for (x, f) in cells {
        let x: i64 = x.parse().expect("integer value");
        let hantei::Field::Prob(p) = f else {
            panic!("distribution {x}: {f:?}")
        };
        assert!((lo..=hi).contains(&x), "value {x} outside {lo}..={hi}");
        out[(x - lo) as usize] = *p;
    }
    out
}

/// Tier strings from a list of literals.
fn tiers(t: &[&str]) -> Vec<String> {
    t.iter().map(|s| s.to_string()).collect()
}

/// The tier names of `tiers` (before the first `:`).
fn names(t: &[String]) -> Vec<&str> {
    t.iter()
        .map(|s| s.split(':').next().unwrap_or(""))
        .collect()
}

/// W4 Blades in the Dark: 1..=6 dice (highest die; two sixes a critical),
/// then zero dice (2D6 keep the lowest, no critical). The pools of 1–6
/// dice as a designer asks for the table: one sweep of the pool's size
/// (`{n}D6 --sweep n=1..6`, the pools built in one pass, a die more each
/// step); `--per-report` makes one report per size instead.
fn w4_blades() -> Vec<f64> {
    let t = tiers(&[
        "critical:count(==6)>=2",
        "full:max==6",
        "partial:max>=4",
        "bad",
    ]);
    let mut out = Vec::new();
    if PER_REPORT.load(Ordering::Relaxed) {
        for n in 1..=6 {
            out.extend(outcomes(
                &dice_report(&format!("{n}D6"), &t, &[], &[], None),
                &names(&t),
            ));
        }
    } else {
        out.extend(sweep_rows("{n}D6", &t, "n=1..6"));
    }
    let zero = tiers(&["full:natural==6", "partial:natural>=4", "bad"]);
    out.push(0.0);
    out.extend(outcomes(
        &dice_report("2D6KL1", &zero, &[], &[], None),
        &names(&zero),
    ));
    out
}

/// W5 Year Zero, pushed on a failure (docs/mechanics.md's command), at
/// `expr`'s pool.
fn year_zero(expr: &str) -> Vec<f64> {
    let t = tiers(&[
        "success:count(==6)>=1 and not (pushed and count(1,base)>=1)",
        "success (hurt):count(==6)>=1",
        "failure (hurt):pushed and count(1,base)>=1:fail",
        "failure",
    ]);
    let r = dice_report(expr, &t, &["failure"], &["2..5", "skill:<6"], None);
    outcomes(&r, &names(&t))
}

fn w5_year_zero() -> Vec<f64> {
    year_zero("3D6[base]+2D6[skill]+1D6[gear]")
}

fn w5_year_zero_8() -> Vec<f64> {
    year_zero("5D6[base]+3D6[skill]")
}

/// W8 V5: 3 normal + 2 hunger d10 against difficulty 3 (docs/mechanics.md).
fn w8_v5() -> Vec<f64> {
    let win = "count(>=6)+2*(count(10)/2)>=3";
    let t = vec![
        format!("messy critical:{win} and count(10)>=2 and count(10,hunger)>=1"),
        format!("critical win:{win} and count(10)>=2"),
        format!("win:{win}"),
        "bestial failure:count(1,hunger)>=1:fail".to_string(),
        "total failure:count(>=6)==0:fail".to_string(),
        "failure".to_string(),
    ];
    let r = dice_report("3D10[normal]+2D10[hunger]", &t, &[], &[], None);
    outcomes(&r, &names(&t))
}

/// W11 Savage Worlds: a d4..d12 trait die and a wild d6, each exploding on
/// its maximum, keep the higher; success 4, raise 8, two raises 12; snake
/// eyes a critical failure.
fn w11_savage() -> Vec<f64> {
    if PER_REPORT.load(Ordering::Relaxed) {
        return [4, 6, 8, 10, 12].into_iter().flat_map(savage).collect();
    }
    // The trait die's sizes as one table: a sweep over the dice, each
    // size's law its own, the tiers read and checked once.
    sweep_rows(SAVAGE, &savage_tiers(), "s=4,6,8,10,12")
}

/// W14 Daggerheart: hope and fear d12 + 2 against difficulty 5..=25, as
/// a designer asks for the table: one sweep of the difficulty
/// (`--sweep dc=5..25`), the dice's law built once and judged at each
/// difficulty. `--per-report` makes one report per difficulty instead.
fn w14_daggerheart() -> Vec<f64> {
    let t = tiers(&[
        "critical:doubles",
        "success with hope:total>={dc} and hope>fear",
        "success with fear:total>={dc}",
        "failure with hope:hope>fear:fail",
        "failure with fear",
    ]);
    if PER_REPORT.load(Ordering::Relaxed) {
        let mut out = Vec::new();
        for dc in 5..=25 {
            let t: Vec<String> = t
                .iter()
                .map(|s| s.replace("{dc}", &dc.to_string()))
                .collect();
            let r = dice_report("1D12[hope]+1D12[fear]+2", &t, &[], &[], None);
            out.extend(outcomes(&r, &names(&t)));
        }
        return out;
    }
    sweep_rows("1D12[hope]+1D12[fear]+2", &t, "dc=5..25")
}

/// The tiers `t` of `expr` swept over `sweep` (`hantei odds dice EXPR
/// --tier … --sweep NAME=…`, one report): each row's tiers in `t`'s
/// order, row by row.
fn sweep_rows(expr: &str, t: &[String], sweep: &str) -> Vec<f64> {
    let p = hantei::request::dice::Params {
        expr: expr.into(),
        tier: t.to_vec(),
        tail_eps: hantei::systems::dice::DEFAULT_TAIL_EPS,
        outcomes_only: !FULL_REPORT.load(Ordering::Relaxed),
        sweep: Some(sweep.into()),
        ..Default::default()
    };
    let r = p
        .report::<f64>()
        .unwrap_or_else(|e| panic!("{expr} --sweep {sweep}: {e}"));
    let name = sweep.split('=').next().unwrap_or("");
    let Some(hantei::Field::Rows(rows)) = r.get(&format!("by_{name}")) else {
        panic!("{expr} --sweep {sweep}: no by_{name} table")
    };
    let mut out = Vec::new();
    for row in rows {
        for name in names(t) {
            match row.iter().find(|(k, _)| k == name) {
                Some((_, hantei::Field::Prob(p))) => out.push(*p),
                other => panic!("{expr} --sweep {sweep}: tier {name}: {other:?}"),
            }
        }
    }
    out
}

/// W16 Cortex Prime: d10, 2d8, d6; 1s (hitches) read as 0 and never kept;
/// the two highest against 11 (docs/mechanics.md).
fn w16_cortex() -> Vec<f64> {
    let t = tiers(&[
        "botch:count(0)==4:fail",
        "beat 11:>=11",
        "hitch:count(0)>=1",
        "miss",
    ]);
    let r = dice_report(
        "{1D{0,2,3,4,5,6,7,8,9,10},1D{0,2,3,4,5,6,7,8},1D{0,2,3,4,5,6,7,8},1D{0,2,3,4,5,6}}KH2",
        &t,
        &[],
        &[],
        None,
    );
    outcomes(&r, &names(&t))
}

/// W21 L5R roll-and-keep: XkY with compounding tens, P(total ≥ TN) bands.
fn l5r(x: u32, y: u32, tns: &[i64]) -> Vec<f64> {
    let mut t: Vec<String> = tns
        .iter()
        .rev()
        .map(|tn| format!("TN {tn}:>={tn}"))
        .collect();
    t.push("below".into());
    let r = dice_report(&format!("{x}D10!!KH{y}"), &t, &[], &[], None);
    outcomes(&r, &names(&t))
}

fn w21_l5r_6k3() -> Vec<f64> {
    l5r(6, 3, &[10, 15, 20, 25, 30, 35, 40, 50])
}

fn w21_l5r_10k5() -> Vec<f64> {
    l5r(10, 5, &[20, 30, 40, 50, 60, 70])
}

/// W22 One-Roll Engine, 10 d10: width and height of the widest set.
fn w22_ore() -> Vec<f64> {
    let t = tiers(&[
        "width 5+:width>=5",
        "width 4:width==4",
        "tall 3:width==3 and height>=8",
        "width 3:width==3",
        "tall pair:width==2 and height>=8",
        "pair:width==2",
        "no set",
    ]);
    outcomes(&dice_report("10D10", &t, &[], &[], None), &names(&t))
}

/// W13 Ironsworn: d6 + 2 against two d10 challenge dice.
fn w13_ironsworn() -> Vec<f64> {
    let t = tiers(&[
        "strong hit with a twist:action+2>c1 and action+2>c2 and c1==c2",
        "strong hit:action+2>c1 and action+2>c2",
        "weak hit:action+2>c1 or action+2>c2",
        "miss with a twist:c1==c2:fail",
        "miss",
    ]);
    let r = dice_report("1D6[action]+1D10[c1]+1D10[c2]", &t, &[], &[], None);
    outcomes(&r, &names(&t))
}

/// W15 Genesys: 2 ability, 1 proficiency against 2 difficulty.
fn w15_genesys() -> Vec<f64> {
    let t = tiers(&[
        "success with triumph:s>=1 and t>=1",
        "success with advantage:s>=1 and a>=1",
        "success:s>=1",
        "failure with advantage:a>=1:fail",
        "failure",
    ]);
    let r = dice_report(
        "2D{0,s,s,2s,a,a,s+a,2a}+1D{0,s,s,2s,2s,a,s+a,s+a,s+a,2a,2a,s+t}+2D{0,-s,-2s,-a,-a,-a,-2a,-s-a}",
        &t,
        &[],
        &[],
        None,
    );
    outcomes(&r, &names(&t))
}

/// 20 d6 with the total, the sixes and the ones read jointly.
fn pool20_joint() -> Vec<f64> {
    let t = tiers(&[
        "a:count(6)>=5 and count(1)<=2 and total>=80",
        "b:count(6)>=count(1)+3",
        "c:total>=75 and count(1)==0",
        "d:count(1)>=count(6)+4",
        "e:total>=70",
        "f",
    ]);
    outcomes(&dice_report("20D6", &t, &[], &[], None), &names(&t))
}

/// DoubleCross `10DX7+4`: P(value = 0..=450), the words, the flags.
fn dx_10dx7() -> Vec<f64> {
    let r = dice_report("10DX7+4", &[], &[], &[], Some("DoubleCross"));
    let mut out = distribution(&r, 0, 450);
    out.extend(outcomes(&r, &["critical", "no_critical", "fumble"]));
    out.push(prob_field(&r, "p_critical"));
    out.push(prob_field(&r, "p_fumble"));
    out
}

/// SwordWorld2.5 `K20+5@10`: P(value = 0..=250) (an automatic failure
/// counts as 0), the words, the flags.
fn sw_k20() -> Vec<f64> {
    let r = dice_report("K20+5@10", &[], &[], &[], Some("SwordWorld2.5"));
    let mut out = distribution(&r, 0, 250);
    out.extend(outcomes(&r, &["critical", "no_critical", "fumble"]));
    out.push(prob_field(&r, "p_critical"));
    out.push(prob_field(&r, "p_fumble"));
    out
}

/// Cthulhu7th `CC(2)<=50`: P(roll = 1..=100), the six levels, the flags.
fn coc7_cc2() -> Vec<f64> {
    let r = dice_report("CC(2)<=50", &[], &[], &[], Some("Cthulhu7th"));
    let mut out = distribution(&r, 1, 100);
    out.extend(outcomes(
        &r,
        &[
            "critical", "extreme", "hard", "regular", "failure", "fumble",
        ],
    ));
    out.push(r.p_success);
    out.push(prob_field(&r, "p_critical"));
    out.push(prob_field(&r, "p_fumble"));
    out
}

/// Scaling series (issue 27): how each mechanic's work grows as its size
/// doubles. `n` d6 read by their total, sixes and ones jointly (the
/// 20 d6 tiers, thresholds scaled with `n`).
fn d6_joint(n: i64) -> Vec<f64> {
    let t = vec![
        format!(
            "a:count(6)>={} and count(1)<={} and total>={}",
            n / 4,
            n / 10,
            4 * n
        ),
        "b:count(6)>=count(1)+3".to_string(),
        format!("c:total>={} and count(1)==0", 15 * n / 4),
        "d:count(1)>=count(6)+4".to_string(),
        format!("e:total>={}", 7 * n / 2),
        "f".to_string(),
    ];
    outcomes(
        &dice_report(&format!("{n}D6"), &t, &[], &[], None),
        &names(&t),
    )
}

/// Year Zero, `n` dice pushed: half base, half skill (the W5 tiers).
fn yze_pushed(n: i64) -> Vec<f64> {
    year_zero(&format!("{}D6[base]+{}D6[skill]", n - n / 2, n / 2))
}

/// Cortex Prime, `n` mixed dice (d10, d8, d8, d6, repeating), 1s as
/// hitches (0, never kept), the two highest against 11 (the W16 tiers).
fn cortex(n: usize) -> Vec<f64> {
    let kinds = [
        "1D{0,2,3,4,5,6,7,8,9,10}",
        "1D{0,2,3,4,5,6,7,8}",
        "1D{0,2,3,4,5,6,7,8}",
        "1D{0,2,3,4,5,6}",
    ];
    let items: Vec<&str> = (0..n).map(|i| kinds[i % 4]).collect();
    let t = vec![
        format!("botch:count(0)=={n}:fail"),
        "beat 11:>=12".to_string(),
        "hitch:count(0)>=1:fail".to_string(),
        "miss".to_string(),
    ];
    let r = dice_report(&format!("{{{}}}KH2", items.join(",")), &t, &[], &[], None);
    outcomes(&r, &names(&t))
}

/// Keep the 3 highest of `n` d20: P(total >= 30, 45, 55).
fn keep3_d20(n: i64) -> Vec<f64> {
    let t = tiers(&["55:>=55", "45:>=45", "30:>=30", "below"]);
    outcomes(
        &dice_report(&format!("{n}D20KH3"), &t, &[], &[], None),
        &names(&t),
    )
}

/// Savage Worlds at one trait die size: a `dS` trait die and a wild d6,
/// each exploding on its maximum, keep the higher (the W11 tiers).
fn savage(s: i64) -> Vec<f64> {
    let t = savage_tiers();
    let expr = SAVAGE.replace("{s}", &s.to_string());
    outcomes(&dice_report(&expr, &t, &[], &[], None), &names(&t))
}

/// Savage Worlds' trait die `{s}` and wild die, the higher kept.
const SAVAGE: &str = "{1D{s}![trait],1D6![wild]}KH1";

/// Savage Worlds' tiers: raises every 4 over 4, both dice 1 a critical
/// failure.
fn savage_tiers() -> Vec<String> {
    tiers(&[
        "critical failure:trait==1 and wild==1:fail",
        "two raises:>=12",
        "raise:>=8",
        "success:>=4",
        "failure",
    ])
}

// Chained rolls (issue 28): one roll's result decides the next, through
// `hantei odds dice` as the CLI takes it.

/// One D&D attack: +5 against AC 15, a natural 20 doubles the damage dice,
/// a natural 1 misses.
const DND_ATTACK: &str = "1D20+5 -> natural==20: 2D8+4; natural==1: 0; >=15: 1D8+4; 0";

/// The damage law of one attack, P(damage = 0..=20).
fn chain_dnd_attack() -> Vec<f64> {
    distribution(&dice_report(DND_ATTACK, &[], &[], &[], None), 0, 20)
}

/// Two attacks a round: P(100 HP dealt within k rounds), k = 1..=50.
fn chain_dnd_round_100() -> Vec<f64> {
    rounds(&format!("2D({DND_ATTACK})"), 100)
}

/// Warhammer 40K, 40 attacks: hit 3+ (a natural 6 two hits), wound 4+,
/// save 3+ (unsaved on 1-2): P(unsaved wounds = 0..=80).
fn chain_40k() -> Vec<f64> {
    let r = dice_report(
        "((40D6{6:2,3..5:1})D6{>=4:1})D6{<=2:1}",
        &[],
        &[],
        &[],
        None,
    );
    distribution(&r, 0, 80)
}

/// Double Cross `nDX7+4`, the achievement (達成値) giving the damage dice:
/// P(damage = 0..=500).
fn chain_dx(n: u32) -> Vec<f64> {
    let expr = format!("{n}DX7+4 -> >=15: (達成値/10+1)D10+8; 0");
    let r = dice_report(&expr, &[], &[], &[], Some("DoubleCross"));
    distribution(&r, 0, 500)
}

/// A workload: its values, in the Python side's order.
type Workload = fn() -> Vec<f64>;

fn main() {
    let workloads: &[(&str, Workload)] = &[
        ("hit_pool_plain", hit_pool_plain),
        ("hit_pool_push", hit_pool_push),
        ("keep_highest", keep_highest),
        ("d20", d20),
        ("d100_tiers", d100_tiers),
        ("push_1000", push_1000),
        ("contest_100", contest_100),
        ("rounds_2d6_100", rounds_2d6_100),
        ("rounds_pool_20", rounds_pool_20),
        ("w4_blades", w4_blades),
        ("w5_year_zero", w5_year_zero),
        ("w5_year_zero_8", w5_year_zero_8),
        ("w8_v5", w8_v5),
        ("w11_savage", w11_savage),
        ("w14_daggerheart", w14_daggerheart),
        ("w16_cortex", w16_cortex),
        ("w21_l5r_6k3", w21_l5r_6k3),
        ("w21_l5r_10k5", w21_l5r_10k5),
        ("w22_ore", w22_ore),
        ("w13_ironsworn", w13_ironsworn),
        ("w15_genesys", w15_genesys),
        ("pool20_joint", pool20_joint),
        ("dx_10dx7", dx_10dx7),
        ("sw_k20", sw_k20),
        ("coc7_cc2", coc7_cc2),
        ("chain_dnd_attack", chain_dnd_attack),
        ("chain_dnd_round_100", chain_dnd_round_100),
        ("chain_40k", chain_40k),
        ("chain_dx_5dx7", || chain_dx(5)),
        ("chain_dx_10dx7", || chain_dx(10)),
        ("scale_d6_10", || d6_joint(10)),
        ("scale_d6_20", || d6_joint(20)),
        ("scale_d6_40", || d6_joint(40)),
        ("scale_d6_80", || d6_joint(80)),
        ("scale_yze_4", || yze_pushed(4)),
        ("scale_yze_8", || yze_pushed(8)),
        ("scale_yze_12", || yze_pushed(12)),
        ("scale_yze_16", || yze_pushed(16)),
        ("scale_cortex_3", || cortex(3)),
        ("scale_cortex_6", || cortex(6)),
        ("scale_cortex_12", || cortex(12)),
        ("scale_keep3_5", || keep3_d20(5)),
        ("scale_keep3_10", || keep3_d20(10)),
        ("scale_keep3_20", || keep3_d20(20)),
        ("scale_keep3_40", || keep3_d20(40)),
        ("scale_l5r_5k3", || l5r(5, 3, &[10, 20, 30])),
        ("scale_l5r_10k5", || l5r(10, 5, &[20, 30, 40, 50, 60, 70])),
        ("scale_l5r_20k10", || l5r(20, 10, &[60, 80, 100, 120])),
        ("scale_savage_d4", || savage(4)),
        ("scale_savage_d6", || savage(6)),
        ("scale_savage_d8", || savage(8)),
        ("scale_savage_d10", || savage(10)),
        ("scale_savage_d12", || savage(12)),
    ];
    let mut repeat = 1u32;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--full-report" {
            FULL_REPORT.store(true, Ordering::Relaxed);
        } else if a == "--per-report" {
            PER_REPORT.store(true, Ordering::Relaxed);
        } else if a == "--repeat" {
            repeat = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
        } else {
            names.push(a);
        }
    }
    for &(name, f) in workloads {
        if !names.is_empty() && !names.iter().any(|n| n == name) {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut values = Vec::new();
        for _ in 0..repeat.max(1) {
            let t = Instant::now();
            values = std::hint::black_box(f());
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{}",
            serde_json::json!({"workload": name, "seconds": best, "values": values})
        );
    }
}
