//! `hantei publish`: the analyses as a static odds site ([`crate::publish`]).

use std::path::PathBuf;

use crate::error::Result;

/// Flags of `hantei publish`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
The site is index.html, one NAME.html per analysis (its table, charts, \
checks and an at-least / at-most column, EN/日本語) and each NAME.csv. \
It loads nothing from elsewhere: open index.html from disk or put the \
directory on any static host. DIR is replaced as a whole (built beside it, \
then renamed into place); it must be new, empty, or an earlier publish.")]
pub struct Args {
    /// Analysis files or directories of them (default: analyses/).
    pub paths: Vec<PathBuf>,
    /// Directory of the site (replaced as a whole).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Run `hantei publish`: build every page in memory, then write the site.
pub fn run(args: &Args) -> Result<Vec<u8>> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("analyses")]
    } else {
        args.paths.clone()
    };
    // A directory that may not be replaced is refused before any work.
    crate::publish::check_out_dir(&args.out)?;
    let files = super::run::analysis_files(&paths)?;
    let site = crate::publish::build(&files)?;
    crate::publish::write(&args.out, &site)?;
    let bytes: usize = site.iter().map(|(_, b)| b.len()).sum();
    Ok(format!(
        "published {} {} → {} ({} files, {} KB); open {}\n",
        files.len(),
        if files.len() == 1 {
            "analysis"
        } else {
            "analyses"
        },
        args.out.display(),
        site.len(),
        bytes.div_ceil(1024),
        args.out.join("index.html").display()
    )
    .into_bytes())
}
