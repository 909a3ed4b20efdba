//! Tests of `src/verify/dice.rs` (`hantei::verify::dice`).

use hantei::verify::dice::*;

#[test]
fn digits_per_draw() {
    assert_eq!(Digits::new(6).per_draw, 23);
    assert_eq!(Digits::new(100).per_draw, 9);
    assert_eq!(Bytes::new(6).per_byte, 3);
    assert_eq!(Bytes::new(6).limit, 216);
    assert_eq!(Bytes::new(4).per_byte, 4);
    assert_eq!(Bytes::new(5).limit, 250);
}

#[test]
fn faces_in_range_and_roughly_uniform() {
    let mut d = Dice::for_batch(1, 0);
    for sides in [2u32, 4, 6, 8, 10, 12, 20, 100] {
        let n = 20_000 * sides as usize;
        let mut counts = vec![0usize; sides as usize];
        for _ in 0..n {
            let f = d.roll(sides);
            assert!((1..=sides).contains(&f));
            counts[f as usize - 1] += 1;
        }
        // Each face: 20,000 expected; 6σ ≈ 850.
        for c in counts {
            assert!((c as i64 - 20_000).abs() < 850, "d{sides}: {c}");
        }
    }
}

#[test]
fn bulk_rolls_equal_single_rolls() {
    for sides in [2u32, 3, 4, 5, 6, 8, 20, 100] {
        let mut a = Dice::for_batch(9, 1);
        let mut b = Dice::for_batch(9, 1);
        let mut bulk = Vec::new();
        for n in [1usize, 2, 7, 30, 3, 100] {
            a.roll_into(n, sides, &mut bulk);
        }
        let single: Vec<u32> = (0..bulk.len()).map(|_| b.roll(sides)).collect();
        assert_eq!(bulk, single, "d{sides}");
    }
}

#[test]
fn batches_are_reproducible_and_distinct() {
    let a: Vec<u32> = Dice::for_batch(7, 3).roll_n(50, 6);
    let b: Vec<u32> = Dice::for_batch(7, 3).roll_n(50, 6);
    let c: Vec<u32> = Dice::for_batch(7, 4).roll_n(50, 6);
    assert_eq!(a, b);
    assert_ne!(a, c);
}
