//! Speed of the dice-notation engine (criterion): the whole report (law,
//! mean, sd, success) of the seven commands, in f64 and in exact
//! fractions (`--exact`).
//!
//! * `dice_f64/<expr>` and `dice_exact/<expr>` for `100B6>=5`, `1000D6`,
//!   `10D10KH3`, `20D20KH1+5>=15`, `8D6DL2+1D20*2`, `30R6>=5`,
//!   `4U10[10]>=15`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};

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

criterion_group!(benches, f64_reports, exact_reports);
criterion_main!(benches);
