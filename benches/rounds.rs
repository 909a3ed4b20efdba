//! Speed of tests over several rolls (criterion, `hantei odds dice EXPR
//! --until N`): the whole report, in f64 and in exact fractions.
//!
//! * `rounds/2D6 to 100 HP` (issue 20: exact under 10 ms), automatic cap;
//! * `rounds/20B6>=5 to 60 in 50` (issue 20: under 50 ms), `--rounds 50`;
//! * `rounds/race 2D6 vs 1D12 to 100`, automatic cap.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use hantei::request::dice::Params;
use hantei::Exact;

fn params(expr: &str, until: i64, rounds: Option<i64>, vs: Option<&str>) -> Params {
    Params {
        expr: expr.into(),
        until: Some(until),
        rounds,
        vs: vs.map(Into::into),
        tail_eps: hantei::systems::dice::DEFAULT_TAIL_EPS,
        ..Params::default()
    }
}

fn rounds(c: &mut Criterion) {
    let cases = [
        ("2D6 to 100 HP", params("2D6", 100, None, None)),
        ("20B6>=5 to 60 in 50", params("20B6>=5", 60, Some(50), None)),
        (
            "race 2D6 vs 1D12 to 100",
            params("2D6", 100, None, Some("1D12")),
        ),
    ];
    let mut g = c.benchmark_group("rounds_f64");
    for (name, p) in &cases {
        g.bench_function(*name, |b| {
            b.iter(|| black_box(p.report::<f64>().expect("report")))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("rounds_exact");
    g.sample_size(10);
    for (name, p) in &cases {
        g.bench_function(*name, |b| {
            b.iter(|| black_box(p.report::<Exact>().expect("report")))
        });
    }
    g.finish();
}

criterion_group!(benches, rounds);
criterion_main!(benches);
