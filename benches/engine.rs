//! Speed of the exact engine and of the sampler (criterion).
//!
//! * `hit_pool/all_pools_1_100_f64`: every hit count and both glitch laws
//!   for pools 1..=100 (f64).
//! * `hit_pool/plain_100000_f64`: one plain pool of 100,000 dice (hits and
//!   glitch laws, O(n)).
//! * `hit_pool/push_{1000,5000}_f64`: one pool of 1,000 / 5,000 dice whose
//!   sixes all explode (Edge push), cut at `tail_eps` = 1e-15.
//! * `hit_pool/exact_pool20_edge4`: pool 20 + Edge 4 pushed, exact
//!   fractions (the `odds --exact` law).
//! * `keep_highest/grid_f64`: sizes d4..d20 × 1..=20 dice × normal /
//!   advantage / disadvantage, P(success, critical, fumble) at every
//!   difficulty.
//! * `throughput/*`: simulated d6 per second through the hit-pool sampler
//!   (a plain pool of 12, and 12 + Edge 4 pushed) and, in the same run,
//!   d6 per second of `Dice::roll_slice` on rolls of 12 and of `Dice::roll`
//!   one at a time, and raw 64-bit draws per second of the generator.
//! * `d20/fate10_advantage_exact_dc{20,40}`: the whole `hantei odds d20
//!   --fate 10 --advantage --dc N --exact` report (the optimal plan solved
//!   exactly, and every policy's law beside it).
//! * `samplers/*`: trials per second of the first point of every system's
//!   default `verify` grid (the sampler as `hantei verify` runs it).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use hantei::systems::hit_pool::{
    all_pools, plain_pool, pushed_pool, roll_law, EdgeUse, ExplodeGlitch, GlitchRule, Roll,
};
use hantei::systems::keep_highest::{odds_by_difficulty, Pool, Situation};
use hantei::verify::default_grid;
use hantei::verify::dice::Dice;
use hantei::verify::hit_pool::RollSampler;
use hantei::verify::Sampler;
use hantei::Exact;

fn hit_pool_all_pools(c: &mut Criterion) {
    c.bench_function("hit_pool/all_pools_1_100_f64", |b| {
        b.iter(|| {
            let sr4 = all_pools::<f64>(black_box(100), GlitchRule::HalfOrMore);
            let sr5 = all_pools::<f64>(black_box(100), GlitchRule::MoreThanHalf);
            black_box((sr4, sr5))
        })
    });
}

fn hit_pool_big(c: &mut Criterion) {
    let mut g = c.benchmark_group("hit_pool");
    g.sample_size(10);
    g.bench_function("plain_100000_f64", |b| {
        b.iter(|| {
            black_box(plain_pool::<f64>(
                black_box(100_000),
                GlitchRule::HalfOrMore,
            ))
        })
    });
    for n in [1_000u32, 5_000] {
        g.bench_function(format!("push_{n}_f64"), |b| {
            b.iter(|| {
                black_box(pushed_pool::<f64>(
                    black_box(n),
                    GlitchRule::HalfOrMore,
                    ExplodeGlitch::AllDice,
                    1e-15,
                ))
            })
        });
    }
    let roll = Roll::new(20)
        .and_then(|r| r.with_edge(4, EdgeUse::Push))
        .expect("valid roll");
    g.bench_function("exact_pool20_edge4", |b| {
        b.iter(|| black_box(roll_law::<Exact>(black_box(&roll))))
    });
    g.finish();
}

fn keep_highest_grid(c: &mut Criterion) {
    // One ability per die size: d4, d6, d8, d10, d12, d20.
    let abilities = [4i64, 6, 8, 10, 12, 20];
    let situations = [
        Situation::Normal,
        Situation::Advantage,
        Situation::Disadvantage,
    ];
    c.bench_function("keep_highest/grid_f64", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for &v in &abilities {
                for n in 1..=20 {
                    for &s in &situations {
                        let pool = Pool::new(v, n, s).expect("valid pool");
                        for o in odds_by_difficulty::<f64>(&pool) {
                            acc += o.p_success + o.p_critical + o.p_fumble;
                        }
                    }
                }
            }
            black_box(acc)
        })
    });
}

fn throughput(c: &mut Criterion) {
    const N: u64 = 1 << 16;
    let mut g = c.benchmark_group("throughput");
    g.throughput(Throughput::Elements(N));
    g.bench_function("raw_u64_draws", |b| {
        let mut dice = Dice::for_batch(1, 0);
        b.iter(|| {
            let mut x = 0u64;
            for _ in 0..N {
                x ^= dice.raw();
            }
            black_box(x)
        })
    });
    // The hit-pool sampler: a pool of 12 rolled and judged by classify;
    // throughput counted in dice.
    const TRIALS: u64 = N / 12;
    let sampler = RollSampler::new(Roll::new(12).expect("valid pool"), 13);
    g.throughput(Throughput::Elements(TRIALS * 12));
    g.bench_function("hit_pool_sampler_dice", |b| {
        let mut dice = Dice::for_batch(1, 0);
        b.iter(|| {
            let mut x = 0usize;
            for _ in 0..TRIALS {
                x += sampler.trial(&mut dice);
            }
            black_box(x)
        })
    });
    let pushed = RollSampler::new(
        Roll::new(12)
            .and_then(|r| r.with_edge(4, EdgeUse::Push))
            .expect("valid roll"),
        13,
    );
    // 16 dice and 16 · 0.2 explosions on average: 19.2 dice a trial.
    const PUSHED_TRIALS: u64 = N / 16;
    g.throughput(Throughput::Elements(PUSHED_TRIALS * 96 / 5));
    g.bench_function("hit_pool_push_sampler_dice", |b| {
        let mut dice = Dice::for_batch(1, 0);
        b.iter(|| {
            let mut x = 0usize;
            for _ in 0..PUSHED_TRIALS {
                x += pushed.trial(&mut dice);
            }
            black_box(x)
        })
    });
    g.throughput(Throughput::Elements(TRIALS * 12));
    g.bench_function("d6_roll_slice_12", |b| {
        let mut dice = Dice::for_batch(1, 0);
        let mut buf = [0u32; 12];
        b.iter(|| {
            let mut x = 0u32;
            for _ in 0..TRIALS {
                dice.roll_slice(6, &mut buf);
                x += buf[0];
            }
            black_box(x)
        })
    });
    g.throughput(Throughput::Elements(N));
    g.bench_function("d6_rolls", |b| {
        let mut dice = Dice::for_batch(1, 0);
        b.iter(|| {
            let mut x = 0u32;
            for _ in 0..N {
                x += dice.roll(6);
            }
            black_box(x)
        })
    });
    g.finish();
}

fn d20_fate_exact(c: &mut Criterion) {
    use hantei::systems::d20::{check_report, Check, FatePlan, Policy, Roll, Side};
    let mut g = c.benchmark_group("d20");
    for dc in [20, 40] {
        g.bench_function(format!("fate10_advantage_exact_dc{dc}"), |b| {
            b.iter(|| {
                let side = Side::with_modifier(0, Roll::Advantage).unwrap();
                let check = Check::new(side, black_box(dc), 20).unwrap();
                let plan = FatePlan::new(check, 10, Policy::Optimal).unwrap();
                black_box(check_report::<Exact>(&plan).unwrap())
            })
        });
    }
    g.finish();
}

fn samplers(c: &mut Criterion) {
    const TRIALS: u64 = 1 << 12;
    let mut g = c.benchmark_group("samplers");
    g.throughput(Throughput::Elements(TRIALS));
    let grid = default_grid();
    let mut seen = Vec::new();
    for p in &grid {
        if seen.contains(&p.system) {
            continue;
        }
        seen.push(p.system);
        g.bench_function(p.system, |b| {
            let mut dice = Dice::for_batch(1, 0);
            b.iter(|| {
                let mut x = 0usize;
                for _ in 0..TRIALS {
                    x += p.sampler.trial(&mut dice);
                }
                black_box(x)
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    hit_pool_all_pools,
    hit_pool_big,
    keep_highest_grid,
    throughput,
    d20_fate_exact,
    samplers
);
criterion_main!(benches);
