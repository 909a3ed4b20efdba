//! Rebuild when the bundled analyses or their outputs change: `hantei
//! serve` embeds `analyses/` and `output/` (src/serve/catalogue.rs).
fn main() {
    println!("cargo:rerun-if-changed=analyses");
    println!("cargo:rerun-if-changed=output");
    println!("cargo:rerun-if-changed=build.rs");
}
