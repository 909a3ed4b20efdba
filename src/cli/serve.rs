//! `hantei serve`: flags only; the server is [`crate::serve`].

use std::net::IpAddr;

/// `hantei serve` flags.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind: an IP address or a host name that resolves
    /// (`localhost`); loopback by default; 0.0.0.0 or :: exposes the
    /// explorer to the network.
    #[arg(long, default_value = "127.0.0.1", value_parser = bind_addr)]
    pub bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Longest time one report may take, in seconds (0.1..=3600); past it
    /// the answer is a 503 and the work is stopped.
    #[arg(long, default_value_t = 20.0)]
    pub timeout: f64,
}

/// `--bind`: an IP address, or a host name resolved to its first address
/// (IPv4 first: `localhost` is 127.0.0.1 where it has both).
pub fn bind_addr(s: &str) -> std::result::Result<IpAddr, String> {
    let t = s.trim();
    if let Ok(ip) = t
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        return Ok(ip);
    }
    let allowed =
        "allowed: an IP address (127.0.0.1, ::1, 0.0.0.0) or a host name that resolves (localhost)";
    if t.is_empty() || t.contains([':', '/', ' ']) {
        return Err(format!("'{s}' is not an address ({allowed})"));
    }
    use std::net::ToSocketAddrs as _;
    let addrs: Vec<IpAddr> = (t, 0u16)
        .to_socket_addrs()
        .map_err(|e| format!("'{s}' does not resolve ({e}); {allowed}"))?
        .map(|a| a.ip())
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("'{s}' resolves to no address ({allowed})"))
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
