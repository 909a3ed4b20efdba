//! Tests of `src/serve`.

mod catalogue;
mod glyphs;
mod help_ja;
mod presets;
mod schema;
