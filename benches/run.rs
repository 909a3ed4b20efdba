//! Speed of `hantei run` sweeps (issue 8): the per-point overhead of an
//! analysis over the law itself (criterion).
//!
//! For each bench grid in `benches/analyses/` (the d20 grid of 1,638 cells
//! and the keep-highest grid of 60 pools × every difficulty, 1,140 cells):
//!
//! * `run/<grid>/sweep`: the whole sweep as `hantei run` computes it —
//!   requests built from the file's axes, every report, the metrics read
//!   from typed fields, in parallel on rayon;
//! * `run/<grid>/law_only`: the same reports from requests built in advance,
//!   one thread — the law itself;
//! * `run/<grid>/law_only_parallel`: the same on rayon.
//!
//! The per-point overhead is (sweep − law_only_parallel) / points. The
//! whole-process time (`hantei run benches/analyses/<grid>.toml`) is
//! reported in the closing note of issue 8.

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rayon::prelude::*;

use hantei::analysis;
use hantei::Request;

fn grid_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("benches/analyses/{name}.toml"))
}

fn requests(a: &analysis::Analysis) -> Vec<Request> {
    let grid = analysis::sweep(a).expect("bench grid sweeps");
    grid.points
        .iter()
        .map(|p| analysis::request(&p.system, &grid.params(p)).expect("valid point"))
        .collect()
}

fn bench_grid(c: &mut Criterion, name: &str) {
    let a = analysis::load(&grid_path(name)).expect("bench analysis loads");
    let reqs = requests(&a);
    let mut g = c.benchmark_group(format!("run/{name}"));
    g.bench_function("sweep", |b| {
        b.iter(|| black_box(analysis::sweep(&a).unwrap()))
    });
    g.bench_function("law_only", |b| {
        b.iter(|| {
            let mut acc = 0.0;
            for r in &reqs {
                acc += hantei::odds::<f64>(r).unwrap().p_success;
            }
            black_box(acc)
        })
    });
    g.bench_function("law_only_parallel", |b| {
        b.iter(|| {
            let v: Vec<f64> = reqs
                .par_iter()
                .map(|r| hantei::odds::<f64>(r).unwrap().p_success)
                .collect();
            black_box(v)
        })
    });
    g.finish();
}

fn grids(c: &mut Criterion) {
    bench_grid(c, "d20-grid");
    bench_grid(c, "keep-highest-grid");
}

criterion_group!(benches, grids);
criterion_main!(benches);
