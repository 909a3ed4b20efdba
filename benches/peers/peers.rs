//! hantei's side of the peer comparison (`benches/peers/`): the same
//! workloads as `icepool_workloads.py`, in `f64`, through hantei's library.
//!
//! `cargo run --release --example peers -- [--repeat N] WORKLOAD...` prints
//! one JSON object per workload: `{"workload", "seconds" (the best of N
//! runs), "values"}`, the values in the order the Python side prints them.
//! `run.py` runs both and compares.

use std::time::Instant;

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

/// A workload: its values, in the Python side's order.
type Workload = fn() -> Vec<f64>;

fn main() {
    let workloads: [(&str, Workload); 9] = [
        ("hit_pool_plain", hit_pool_plain),
        ("hit_pool_push", hit_pool_push),
        ("keep_highest", keep_highest),
        ("d20", d20),
        ("d100_tiers", d100_tiers),
        ("push_1000", push_1000),
        ("contest_100", contest_100),
        ("rounds_2d6_100", rounds_2d6_100),
        ("rounds_pool_20", rounds_pool_20),
    ];
    let mut repeat = 1u32;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--repeat" {
            repeat = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
        } else {
            names.push(a);
        }
    }
    for (name, f) in workloads {
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
