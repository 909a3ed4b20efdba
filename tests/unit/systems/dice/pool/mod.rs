//! Tests of `src/systems/dice/pool/mod.rs` (`hantei::systems::dice::pool`).
//!
//! The engine against brute force: every construct's exact law equals the
//! enumeration of the plain rule ([`hantei::systems::dice::roll`]) over every
//! sequence of faces (small pools; chains enumerated to a depth).

mod chain;
mod key;
mod plan;
mod stat;
mod steps;
