//! Speed of the game-system laws (`hantei odds dice CMD --game ID`,
//! criterion), f64, default `--tail-eps` (1e-15):
//!
//! * `games/dx_10dx7+4`: Double Cross `10DX7+4` (issue 19: < 10 ms).
//! * `games/sw_k20+5@10`: Sword World 2.5 `K20+5@10` (< 5 ms).
//! * `games/coc7_cc(2)<=50`: Call of Cthulhu 7th `CC(2)<=50` (< 1 ms).
//! * `games/sg_4sg+1>=7`: ShinobiGami `4SG+1>=7`.
//! * `games/emoklore_10dm<=6`: Emoklore `10DM<=6` (the sum of ten dice's
//!   scores).
//! * `games/nw_nw@9,10$2`: Night Wizard 3rd `NW@9,10$2` (a critical chain).
//! * `games/satasupe_10r>=7[5]`: Satasupe `10R>=7[5,2,10]` (ten rolls).

use criterion::{black_box, criterion_group, criterion_main, Criterion};

use hantei::systems::dice::games::{self, Parsed};

fn bench(c: &mut Criterion, name: &str, game: &str, expr: &str) {
    let g = games::find(game).expect("game");
    let Parsed::Game(cmd) = g.parse(expr).expect("command") else {
        panic!("{expr} is a game command")
    };
    c.bench_function(name, |b| {
        b.iter(|| black_box(cmd.law::<f64>(black_box(1e-15)).expect("law")))
    });
}

fn games_bench(c: &mut Criterion) {
    bench(c, "games/dx_10dx7+4", "DoubleCross", "10DX7+4");
    bench(c, "games/sw_k20+5@10", "SwordWorld2.5", "K20+5@10");
    bench(c, "games/coc7_cc(2)<=50", "Cthulhu7th", "CC(2)<=50");
    bench(c, "games/sg_4sg+1>=7", "ShinobiGami", "4SG+1>=7");
    bench(c, "games/emoklore_10dm<=6", "Emoklore", "10DM<=6");
    bench(c, "games/nw_nw@9,10$2", "NightWizard3rd", "NW@9,10$2");
    bench(c, "games/satasupe_10r>=7[5]", "Satasupe", "10R>=7[5,2,10]");
}

criterion_group!(benches, games_bench);
criterion_main!(benches);
