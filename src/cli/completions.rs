//! `hantei completions SHELL` and `hantei man`: shell completions
//! (clap_complete) and a man page (clap_mangen), written to standard
//! output from the same clap definition as the commands themselves.

use clap::CommandFactory;

use super::Cli;

/// Flags of `hantei completions`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The completion script for `shell`.
pub fn completions(args: &Args) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "hantei", &mut out);
    out
}

/// The man page `hantei(1)` (roff).
pub fn man() -> crate::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| crate::Error::Io(format!("cannot render the man page: {e}")))?;
    Ok(out)
}
