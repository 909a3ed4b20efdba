//! `hantei serve`: the odds explorer, a local web app over the typed
//! [`Request`](crate::Request).
//!
//! * [`router`] — the routes: the page (`/`, `/app.js`, `/app.css`, the
//!   embedded Japanese font), the JSON API under `/api/` ([`api`]), the
//!   glyph outlines for saved charts ([`glyphs`]), the
//!   dice presets of the pickers ([`presets`]), and the bundled analyses
//!   ([`catalogue`]). Anything else is a 404.
//! * [`run`] — startup: bind (loopback by default), print the address, serve
//!   until Ctrl-C.
//!
//! Every asset is compiled into the binary (`include_str!`,
//! `include_bytes!`, `include_dir!`): the page works offline and loads
//! nothing from elsewhere.
//!
//! **Limits.** A request body is read up to [`BODY_LIMIT`] bytes; beyond it
//! the answer is a 413 with a one-line JSON error. A report is computed on
//! the blocking pool, at most one per core at a time (the rest wait their
//! turn), and one that takes longer than [`WORK_TIMEOUT`], its wait for a
//! turn included, answers 503. The five systems' floating-point reports are
//! bounded by their parameter limits (a second at most) and run on the
//! blocking pool; exact fractions and dice notation, whose work those
//! limits do not bound (`800D100 --exact` takes seconds), run in a child process
//! (`hantei serve-worker`, [`worker`]) that is killed at the time limit,
//! so a slow request never holds a core after its answer. The work of one report is bounded by the systems' own parameter
//! limits (a pool of 10^6 dice is refused with the CLI's message before
//! any work). A bad request never stops the server.

pub mod api;
pub mod catalogue;
pub mod glyphs;
pub mod help_ja;
pub mod presets;
pub mod schema;
pub mod worker;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tokio::sync::Semaphore;

use crate::error::{Error, Result};

/// Largest request body (a typed request is a few hundred bytes).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Longest time one report may take before the answer is a 503 (the
/// default of `hantei serve --timeout`).
pub const WORK_TIMEOUT: Duration = Duration::from_secs(20);

/// `hantei serve` options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Address to bind (loopback by default).
    pub bind: IpAddr,
    /// Port (0: any free port; the address is printed).
    pub port: u16,
    /// Open the page in the default browser once listening.
    pub open: bool,
    /// Longest time one report may take ([`WORK_TIMEOUT`] by default).
    pub timeout: Duration,
}

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    /// In-process computations under way at once (one per core).
    pub(crate) work: Arc<Semaphore>,
    /// Worker processes under way at once (one per core): a separate lane,
    /// so slow exact or dice work never delays the quick reports.
    pub(crate) workers: Arc<Semaphore>,
    /// The `hantei` executable that runs unbounded work (exact fractions,
    /// dice notation) in a child process, killed at [`WORK_TIMEOUT`]; `None`
    /// computes everything in this process.
    pub(crate) worker: Option<Arc<std::path::PathBuf>>,
    /// Longest time one report may take.
    pub(crate) timeout: Duration,
}

impl AppState {
    /// A state allowing one computation per available core.
    pub fn new() -> AppState {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        AppState {
            work: Arc::new(Semaphore::new(cores)),
            workers: Arc::new(Semaphore::new(cores)),
            worker: None,
            timeout: WORK_TIMEOUT,
        }
    }

    /// Run exact and dice-notation reports in child processes of `exe`
    /// (`hantei serve-worker`), which are killed when they pass the time
    /// limit: a thread cannot be stopped, a process can.
    pub fn with_worker(mut self, exe: std::path::PathBuf) -> AppState {
        self.worker = Some(Arc::new(exe));
        self
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new()
    }
}

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// Every route of the explorer.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }),
        )
        .route("/font/ipaexg.ttf", get(font))
        .route(
            "/api/odds",
            get(api::odds_get)
                .post(api::odds_post)
                .fallback(api::method_not_allowed),
        )
        .route(
            "/api/schema",
            get(api::schema).fallback(api::method_not_allowed),
        )
        .route(
            "/api/analyses",
            get(api::analyses).fallback(api::method_not_allowed),
        )
        .route(
            "/api/presets",
            get(api::presets).fallback(api::method_not_allowed),
        )
        .route(
            "/api/glyphs",
            get(glyphs::handler).fallback(api::method_not_allowed),
        )
        .route("/analyses/{name}", get(analysis_file))
        .route("/output/{name}", get(output_file))
        .fallback(not_found)
        .with_state(state)
}

fn asset(body: &'static str, mime: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

async fn font() -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("font/ttf")),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            ),
        ],
        crate::chart::FONT_TTF,
    )
        .into_response()
}

async fn analysis_file(Path(name): Path<String>) -> Response {
    match catalogue::analysis_file(&name) {
        Some(bytes) => file_response(&name, bytes),
        None => not_found_text(),
    }
}

async fn output_file(Path(name): Path<String>) -> Response {
    match catalogue::output_file(&name) {
        Some(bytes) => file_response(&name, bytes),
        None => not_found_text(),
    }
}

fn file_response(name: &str, bytes: &'static [u8]) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(catalogue::mime(name)),
        )],
        bytes,
    )
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        api::error_response(
            StatusCode::NOT_FOUND,
            &format!(
                "no API route {}: the routes are /api/odds, /api/schema, /api/analyses",
                uri.path()
            ),
        )
    } else {
        not_found_text()
    }
}

fn not_found_text() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        "404 not found\n",
    )
        .into_response()
}

/// Serve the explorer on `listener` until `shutdown` completes.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// `hantei serve`: bind, print `hantei serve: http://ADDR:PORT/` on
/// standard output (the first line, for scripts and tests), and serve until
/// Ctrl-C.
pub fn run(options: &Options) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Conflict(format!("serve: cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let addr = SocketAddr::new(options.bind, options.port);
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            Error::param(
                "--port",
                options.port,
                format!("a free port on {} ({e})", options.bind),
            )
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| Error::Conflict(format!("serve: {e}")))?;
        let url = match local.ip() {
            IpAddr::V6(ip) => format!("http://[{ip}]:{}/", local.port()),
            IpAddr::V4(ip) => format!("http://{ip}:{}/", local.port()),
        };
        {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "hantei serve: {url}");
            if !options.bind.is_loopback() {
                let _ = writeln!(
                    out,
                    "hantei serve: listening on {} (not loopback): anyone who can reach it can use it",
                    options.bind
                );
            }
            let _ = writeln!(out, "hantei serve: Ctrl-C stops");
            let _ = out.flush();
        }
        if options.open {
            open_browser(&url);
        }
        let mut state = AppState::new();
        state.timeout = options.timeout;
        if let Ok(exe) = std::env::current_exe() {
            state = state.with_worker(exe);
        }
        serve_on(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| Error::Conflict(format!("serve: {e}")))
    })
}

/// Open `url` with the desktop's opener; a failure is only a notice.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        // Reaped when it exits (xdg-open hands the page to the browser and
        // ends): no defunct child for the server's life.
        Ok(mut child) => {
            std::thread::spawn(move || {
                let _ = child.wait();
            });
        }
        Err(e) => {
            eprintln!(
                "hantei serve: could not open a browser ({opener}: {e}); open {url} yourself"
            );
        }
    }
}
