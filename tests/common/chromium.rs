//! Headless Chromium through chromedriver (WebDriver, `fantoccini`), for
//! the tests that open pages in a real browser: find the binaries, start
//! chromedriver on a free port, open a session.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::json;

/// The first of `names` on the PATH.
pub fn which(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in names {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium and chromedriver, or `None` after a notice (a failure instead
/// when `HANTEI_REQUIRE_BROWSER=1`).
pub fn binaries(test: &str) -> Option<(PathBuf, PathBuf)> {
    let required = std::env::var("HANTEI_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let chromium = which(&["chromium", "chromium-browser", "google-chrome"]);
    let driver = which(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            assert!(
                !required,
                "HANTEI_REQUIRE_BROWSER=1 but chromium or chromedriver is not on the PATH (apt-get install -y chromium chromium-driver)"
            );
            eprintln!("{test} skipped: no chromium/chromedriver on the PATH (apt-get install -y chromium chromium-driver; HANTEI_REQUIRE_BROWSER=1 makes this a failure)");
            None
        }
    }
}

/// chromedriver on a free loopback port; killed on drop.
pub struct Driver {
    child: Child,
    /// Its WebDriver URL.
    pub url: String,
}

impl Driver {
    /// Start `bin` and wait until it listens.
    pub fn start(bin: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            // It listens within milliseconds: a short poll (50 ms cost
            // every browser test 40 ms of waiting).
            std::thread::sleep(Duration::from_millis(5));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless session of `chromium` with its own profile directory and
/// window `(w, h)`.
pub async fn session(
    driver: &Driver,
    chromium: &Path,
    profile: &Path,
    (w, h): (u32, u32),
) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars",
                format!("--user-data-dir={}", profile.display()),
                format!("--window-size={w},{h}"),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session")
}

/// `target/screenshots/`, created.
pub fn screenshots_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    dir
}
