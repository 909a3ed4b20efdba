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
    /// Longest time one report may take, in seconds (0.1..=3600); past it
    /// the answer is a 503 and the work is stopped.
    #[arg(long, default_value_t = 20.0)]
    pub timeout: f64,
}

/// Serve until Ctrl-C.
pub fn run(args: &Args) -> crate::Result<()> {
    if !(0.1..=3600.0).contains(&args.timeout) {
        return Err(crate::Error::param(
            "--timeout",
            args.timeout,
            "allowed 0.1..=3600 (seconds)",
        ));
    }
    crate::serve::run(&crate::serve::Options {
        timeout: std::time::Duration::from_secs_f64(args.timeout),
        bind: args.bind,
        port: args.port,
        open: args.open,
    })
}
