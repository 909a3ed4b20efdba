//! A `hantei serve` process on a free loopback port, for the server and
//! browser tests and the serve bench. Dropping it stops the process.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `hantei serve --port 0`.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub base: String,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Start the server binary and wait for the address it prints.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Start the server with extra flags (`--timeout 2`).
    pub fn start_with(extra: &[&str]) -> Server {
        Server::start_bin(&assert_cmd::cargo::cargo_bin("hantei"), extra)
    }

    /// Start `bin` as the server (a test can run an older build to show a
    /// fix was needed).
    pub fn start_bin(bin: &std::path::Path, extra: &[&str]) -> Server {
        let mut child = Command::new(bin)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start hantei serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address line");
        let url = line
            .trim()
            .strip_prefix("hantei serve: ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let addr = url.trim_start_matches("http://").to_string();
        Server {
            child,
            base: url,
            addr,
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Send `request_line` (e.g. `GET /x HTTP/1.1`) as is — no client
    /// normalises its path — and return the status code and body.
    pub fn raw(&self, method: &str, target: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "{method} {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read response");
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
