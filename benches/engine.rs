//! Speed of the exact engine and of the sampler (criterion).
//!
//! * `hit_pool/all_pools_1_100_f64`: every hit count and both glitch laws
//!   for pools 1..=100 (f64).
//! * `keep_highest/grid_f64`: sizes d4..d20 × 1..=20 dice × normal /
//!   advantage / disadvantage, P(success, critical, fumble) at every
//!   difficulty.
//! * `throughput/*`: simulated d6 per second through the hit-pool sampler
//!   and, in the same run, raw 64-bit draws per second of the generator.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

use hantei::systems::keep_highest::{odds, Check, Pool, Situation};
use hantei::verify::dice::Dice;

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
                        for d in 2..=20 {
                            let check = Check::new(pool, d).expect("valid check");
                            let o = odds::<f64>(&check);
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

criterion_group!(benches, keep_highest_grid, throughput);
criterion_main!(benches);
