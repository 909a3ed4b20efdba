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

/// Flags of `hantei man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The command whose page to print (`odds`, `odds dice`: the pages
    /// hantei-odds(1), hantei-odds-dice(1) a page refers to); none: hantei(1).
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The man page `hantei(1)`, or with a command path (`odds dice`) the page
/// `hantei-odds-dice(1)` of that subcommand (every page a page refers to
/// can be made), in roff.
pub fn man(args: &ManArgs) -> crate::Result<Vec<u8>> {
    let mut cmd = Cli::command();
    // Building sets the subcommands' display names (hantei-odds).
    cmd.build();
    for name in &args.command {
        let names: Vec<String> = cmd
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name().to_string())
            .collect();
        cmd = cmd
            .find_subcommand(name)
            .filter(|c| !c.is_hide_set())
            .cloned()
            .ok_or_else(|| {
                crate::Error::param(
                    "COMMAND",
                    name,
                    if names.is_empty() {
                        "this command has no subcommands".to_string()
                    } else {
                        format!("allowed: {}", names.join(", "))
                    },
                )
            })?;
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| crate::Error::Io(format!("cannot render the man page: {e}")))?;
    Ok(out)
}
