//! `hantei serve`: flags only; the server is [`crate::serve`].

use std::net::IpAddr;

/// `hantei serve` flags.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind: loopback by default; 0.0.0.0 or :: exposes the
    /// explorer to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// Serve until Ctrl-C.
pub fn run(args: &Args) -> crate::Result<()> {
    crate::serve::run(&crate::serve::Options {
        bind: args.bind,
        port: args.port,
        open: args.open,
    })
}
