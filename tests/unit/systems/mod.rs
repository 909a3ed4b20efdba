//! Tests of `src/systems`.

mod d20;
mod dice;
mod hit_pool;
mod keep_highest;
mod levels;
mod multiplier;
