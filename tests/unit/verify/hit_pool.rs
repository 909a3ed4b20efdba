//! Tests of `src/verify/hit_pool.rs` (`hantei::verify::hit_pool`).

use hantei::verify::hit_pool::*;

#[test]
fn grid_cells_are_consistent_and_sum_to_one() {
    crate::unit::verify::testing::assert_consistent(&grid());
}

#[test]
fn every_point_agrees_at_200k() {
    crate::unit::verify::testing::assert_fits(&grid(), 200_000, 11);
}
