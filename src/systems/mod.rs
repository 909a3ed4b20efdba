//! The five resolution systems, one module each, and `dice`: any check
//! typed in BCDice notation.
//!
//! Every module holds its parameters (validated constructors), its ordered
//! outcome tiers, its options with documented defaults, `classify` (the
//! plain rule applied to one set of rolled faces) and its exact law. To add
//! a sixth system, add a module here, its request (`Params`: CLI flags and
//! JSON/TOML fields) in `src/request/`, and a line in [`IDS`].

pub mod d20;
pub mod dice;
pub mod hit_pool;
pub mod keep_highest;
pub mod levels;
pub mod multiplier;

/// System ids as used by the CLI, analysis files and output names.
pub const IDS: &[&str] = &[
    "multiplier",
    "d20",
    "keep-highest",
    "levels",
    "hit-pool",
    "dice",
];
