//! The `hantei` binary: parse, run, map errors to exit codes.

use std::io::Write;
use std::process::ExitCode;

/// A small report is hundreds of short-lived maps and keys; mimalloc
/// allocates them faster than the system's malloc (Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match hantei::cli::main_with_args(std::env::args_os()) {
        Ok(out) => {
            if !out.stderr.is_empty() {
                let _ = std::io::stderr().write_all(&out.stderr);
            }
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(&out.stdout).and_then(|_| stdout.flush()) {
                Ok(()) => ExitCode::from(out.code),
                // A closed pipe (`hantei … | head`) is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hantei: cannot write output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            // The last guard: no control character typed by the user
            // reaches the terminal (the messages quote with
            // hantei::error::quote; clap's own do not).
            eprintln!("hantei: {}", hantei::error::printable(&e));
            ExitCode::from(2)
        }
    }
}
