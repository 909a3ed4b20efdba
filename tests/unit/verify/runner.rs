//! Tests of `src/verify/runner.rs` (`hantei::verify::runner`).

use hantei::verify::dice::Dice;

use hantei::verify::runner::*;

struct TwoD6;
impl Sampler for TwoD6 {
    fn cells(&self) -> usize {
        13
    }
    fn trial(&self, dice: &mut Dice) -> usize {
        (dice.roll(6) + dice.roll(6)) as usize
    }
}

#[test]
fn identical_on_any_thread_count() {
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&TwoD6, 5 * BATCH + 123, 42))
    };
    let one = run(1);
    assert_eq!(one.iter().sum::<u64>(), 5 * BATCH + 123);
    assert_eq!(one, run(2));
    assert_eq!(one, run(16));
    assert_ne!(
        one,
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| simulate(&TwoD6, 5 * BATCH + 123, 43))
    );
}
