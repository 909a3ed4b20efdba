//! Tests of `src/systems/dice`.

mod cond;
mod games;
mod hints;
mod law;
mod lower;
mod per_roll;
mod pool;
mod until;
