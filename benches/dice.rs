//! Speed of the dice-notation engine (criterion): the whole report (law,
//! mean, sd, success) of the seven commands, in f64 and in exact
//! fractions (`--exact`).
//!
//! * `dice_f64/<expr>` and `dice_exact/<expr>` for `100B6>=5`, `1000D6`,
//!   `10D10KH3`, `20D20KH1+5>=15`, `8D6DL2+1D20*2`, `30R6>=5`,
//!   `4U10[10]>=15`.
//! * `dice_exact_long/<expr>`: long exact laws, the report and its JSON
//!   (every digit): `300R6[6]>=5` (3,600 fractions of up to 5,600 digits)
//!   and `200R20[20]>=15`, whose denominators mix powers of 2 and 5 (issue
//!   27: the 10 s promise; `1000R…` forms take seconds, too long here).
//! * `pool_f64/<mechanic>`: the pool engine on MECHANICS.md's mechanics
//!   (targets: each < 10 ms; L5R 10k5 < 10 ms; a 20-die pool with three
//!   joint statistics < 10 ms).
//! * `chain/<name>`: chained rolls (issue 28), the whole report through
//!   `hantei odds dice` (`request::dice::Params::report`: parse, law,
//!   fields), default `--tail-eps`:
//!   * `dnd attack -> damage` (f64): `1D20+5 -> natural==20: 2D8+4;
//!     natural==1: 0; >=15: 1D8+4; 0` (target < 1 ms);
//!   * `dnd round to 100 HP exact`: two such attacks a round,
//!     `2D(…) --until 100 --exact` (target < 10 ms);
//!   * `40k 40 attacks` (f64): `((40D6{6:2,3..5:1})D6{>=4:1})D6{<=2:1}`
//!     (target < 1 ms);
//!   * `dx 10DX7+4 -> damage` (f64): `10DX7+4 -> >=15:
//!     (達成値/10+1)D10+8; 0` under `--game DoubleCross` (target < 50 ms).

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use hantei::request::dice::Params;
use hantei::systems::dice::{self, Check};
use hantei::Exact;

const EXPRS: &[&str] = &[
    "100B6>=5",
    "1000D6",
    "10D10KH3",
    "20D20KH1+5>=15",
    "8D6DL2+1D20*2",
    "30R6>=5",
    "4U10[10]>=15",
];

fn f64_reports(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice_f64");
    for expr in EXPRS {
        let check = Check::new(expr).expect("valid command");
        g.bench_function(*expr, |b| {
            b.iter(|| black_box(dice::report::<f64>(black_box(&check)).expect("report")))
        });
    }
    g.finish();
}

fn exact_reports(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice_exact");
    g.sample_size(10);
    for expr in EXPRS {
        let check = Check::new(expr).expect("valid command");
        g.bench_function(*expr, |b| {
            b.iter(|| black_box(dice::report::<Exact>(black_box(&check)).expect("report")))
        });
    }
    g.finish();
}

fn long_exact_reports(c: &mut Criterion) {
    let mut g = c.benchmark_group("dice_exact_long");
    g.sample_size(10);
    for expr in ["300R6[6]>=5", "200R20[20]>=15"] {
        let check = Check::new(expr).expect("valid command");
        g.bench_function(expr, |b| {
            b.iter(|| {
                let r = dice::report::<Exact>(black_box(&check)).expect("report");
                black_box(hantei::export::render(&r, hantei::export::Format::Json))
            })
        });
    }
    g.finish();
}

/// (name, expression, tiers, push: (tiers, rules)).
type Mechanic = (
    &'static str,
    &'static str,
    &'static [&'static str],
    Option<(&'static str, &'static [&'static str])>,
);

const MECHANICS: &[Mechanic] = &[
    ("W4 blades 6 dice", "6D6", &["crit:count(6)>=2", "full:max==6", "partial:max>=4", "bad"], None),
    (
        "W5 year zero 8 dice pushed",
        "5D6[base]+3D6[skill]",
        &["success:count(6)>=1", "failure"],
        Some(("failure", &["base:2..5", "skill:<6"])),
    ),
    ("W8 v5 7 dice", "5D10[normal]+2D10[hunger]", &["crit:count(>=6)+2*(count(10)/2)>=4 and count(10,hunger)>=1", "win:count(>=6)+2*(count(10)/2)>=4", "bestial:count(1,hunger)>=1", "fail"], None),
    ("W11 savage worlds d12", "{1D12![trait],1D6![wild]}KH1", &["snake:trait==1 and wild==1", "raise:>=8", "success:>=4", "failure"], None),
    ("W14 daggerheart", "1D12[hope]+1D12[fear]+2", &["crit:doubles", "hope:total>=14 and hope>fear", "fear:total>=14", "fail"], None),
    ("W15 genesys", "2D{0,s,s,2s,a,a,s+a,2a}+1D{0,s,s,2s,2s,a,s+a,s+a,s+a,2a,2a,s+t}+2D{0,-s,-2s,-a,-a,-a,-2a,-s-a}", &["triumph:s>=1 and t>=1", "success:s>=1", "failure"], None),
    ("W16 cortex", "{1D10,1D8,1D8,1D6}KH2", &["botch:count(1)==4", "hit:>=11", "miss"], None),
    ("W21 l5r 10k5", "10D10!!KH5", &["hit:>=40", "miss"], None),
    ("W22 one-roll 10 dice", "10D10", &["wide:width>=4", "tall:width>=2 and height>=8", "other"], None),
    ("20 dice, total sixes ones", "20D6", &["a:count(6)>=4 and count(1)<=2 and total>=75", "b"], None),
];

fn pool_reports(c: &mut Criterion) {
    let mut g = c.benchmark_group("pool_f64");
    for (name, expr, tiers, push) in MECHANICS {
        let mut check = Check::new(expr).expect("valid command");
        check.tiers = tiers
            .iter()
            .map(|t| dice::parse_tier(t).expect("tier"))
            .collect();
        if let Some((when, rules)) = push {
            check.push = Some(dice::Push {
                tiers: vec![when.to_string()],
                rules: rules
                    .iter()
                    .map(|r| dice::parse_push_rule(r).expect("rule"))
                    .collect(),
            });
        }
        g.bench_function(*name, |b| {
            b.iter(|| black_box(dice::report::<f64>(black_box(&check)).expect("report")))
        });
    }
    g.finish();
}

/// One D&D attack: +5 against AC 15, a natural 20 doubles the damage dice,
/// a natural 1 misses.
const DND_ATTACK: &str = "1D20+5 -> natural==20: 2D8+4; natural==1: 0; >=15: 1D8+4; 0";

/// The parameters of `hantei odds dice EXPR [--game GAME] [--until N]`.
fn chain_params(expr: &str, game: Option<&str>, until: Option<i64>) -> Params {
    Params {
        expr: expr.into(),
        game: game.map(Into::into),
        until,
        tail_eps: dice::DEFAULT_TAIL_EPS,
        ..Params::default()
    }
}

fn chain_reports(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain");
    let f64_cases = [
        ("dnd attack -> damage", chain_params(DND_ATTACK, None, None)),
        (
            "40k 40 attacks",
            chain_params("((40D6{6:2,3..5:1})D6{>=4:1})D6{<=2:1}", None, None),
        ),
        (
            "dx 10DX7+4 -> damage",
            chain_params(
                "10DX7+4 -> >=15: (達成値/10+1)D10+8; 0",
                Some("DoubleCross"),
                None,
            ),
        ),
    ];
    for (name, p) in &f64_cases {
        g.bench_function(*name, |b| {
            b.iter(|| black_box(black_box(p).report::<f64>().expect("report")))
        });
    }
    let round = chain_params(&format!("2D({DND_ATTACK})"), None, Some(100));
    g.bench_function("dnd round to 100 HP exact", |b| {
        b.iter(|| black_box(black_box(&round).report::<Exact>().expect("report")))
    });
    g.finish();
}

criterion_group!(
    benches,
    f64_reports,
    exact_reports,
    long_exact_reports,
    pool_reports,
    chain_reports
);
criterion_main!(benches);
