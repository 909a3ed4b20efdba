//! Tests of `src/request`.

mod de;
mod multiplier;
