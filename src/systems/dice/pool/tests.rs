//! The engine against brute force: every construct's exact law equals the
//! enumeration of the plain rule ([`crate::systems::dice::roll`]) over every
//! sequence of faces (small pools; chains enumerated to a depth).
