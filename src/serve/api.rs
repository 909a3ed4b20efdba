//! The JSON API: handlers over [`Request`] and [`crate::odds`].
//!
//! * `GET /api/odds?system=d20&modifier=5&dc=15` — the fields as query
//!   parameters (a repeated key, `tier=a&tier=b`, is a list), read by the
//!   schema ([`super::schema`]) as the CLI reads its flags.
//! * `POST /api/odds` — the typed request as JSON:
//!   `{"system": "d20", "modifier": 5, "dc": 15}` ([`Request::from_json`]).
//!
//! Both take `exact=true` (the CLI's `--exact`) and `format=json|csv|md|table`
//! (default `json`) as query parameters, and answer exactly the bytes of
//! `hantei odds <system> … --format <format>`. A bad request answers 4xx
//! with `{"error": "<the CLI's one-line message>"}`; a bad dice expression
//! adds `"caret": ["2D6+x", "    ^"]`, the expression and the caret under
//! the fault, which `error` (one line) leaves out. A dice request is parsed,
//! and its work estimated ([`crate::request::dice::Params::preflight`]: the
//! dice engine's estimate, today of exact work only), before it waits for a
//! worker: a bad or refused one is a 400 at once, whatever the workers are
//! doing. Another
//! method than GET or POST answers 405 with the same JSON body.

use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt as _;
use serde_json::{json, Map, Value};

use super::{schema, AppState, BODY_LIMIT};
use crate::export::Format;
use crate::request::Request;

/// The largest body read (and thrown away) to answer a too-large one with
/// a 413 rather than a reset connection.
const DRAIN_LIMIT: usize = 32 * 1024 * 1024;

/// A JSON error: `{"error": message}` with `status`. A message of several
/// lines (a bad dice expression: the message, then the expression and a
/// caret under the fault) keeps its first line in `error` and the others,
/// without their indent, in `caret`.
pub fn error_response(status: StatusCode, message: &str) -> Response {
    let mut lines = message.lines();
    let first = lines.next().unwrap_or("");
    let rest: Vec<&str> = lines
        .map(|l| l.strip_prefix("  ").unwrap_or(l))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let body = if rest.is_empty() {
        json!({ "error": first })
    } else {
        json!({ "error": first, "caret": rest })
    };
    (status, axum::Json(body)).into_response()
}

/// Any other method on an API route: 405 with a JSON body and `Allow`.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let allow = if uri.path() == "/api/odds" {
        "GET, POST"
    } else {
        "GET"
    };
    let mut resp = error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!(
            "invalid method {method} for {}: allowed {allow}",
            uri.path()
        ),
    );
    resp.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    resp
}

/// What is refused without computing (a dice request's parse, flags and
/// estimated work, in the weight it is computed in), checked before the
/// request waits for a worker.
fn preflight(request: &Request, exact: bool) -> Result<(), String> {
    if let Request::Dice(p) = request {
        p.preflight(exact).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// How the report is rendered: the CLI's `--exact` and `--format`.
struct Rendering {
    exact: bool,
    format: Format,
}

fn rendering(pairs: &[(String, String)]) -> Result<Rendering, String> {
    let mut r = Rendering {
        exact: false,
        format: Format::Json,
    };
    for (k, v) in pairs {
        match k.as_str() {
            "exact" => {
                r.exact = match v.as_str() {
                    "true" | "1" | "" => true,
                    "false" | "0" => false,
                    other => {
                        return Err(format!(
                            "invalid value '{other}' for exact: allowed true, false"
                        ))
                    }
                }
            }
            "format" => {
                r.format = match v.as_str() {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    "md" => Format::Md,
                    "table" => Format::Table,
                    other => {
                        return Err(format!(
                            "invalid value '{other}' for format: allowed json, csv, md, table"
                        ))
                    }
                }
            }
            _ => {}
        }
    }
    Ok(r)
}

/// The request fields of a query string, typed by the system's schema
/// (numbers as numbers, switches as booleans, repeated keys as lists).
pub fn fields_from_query(system: &str, pairs: &[(String, String)]) -> Map<String, Value> {
    let sys = schema::system_schema(system);
    let mut fields = Map::new();
    for (k, v) in pairs {
        let key = k.replace('-', "_");
        if matches!(key.as_str(), "system" | "exact" | "format") {
            continue;
        }
        let param = sys.and_then(|s| s.params.iter().find(|p| p.field == key));
        let kind = param.map(|p| p.kind);
        if kind == Some("count") {
            // A repeatable switch (`--advantage --advantage`): `true` is
            // once, a number is that many; repeated keys add up.
            let n = match v.trim() {
                "true" | "" => Some(1),
                "false" => Some(0),
                t => t.parse::<i64>().ok(),
            };
            let value = match (n, fields.get(&key).and_then(Value::as_i64)) {
                (Some(n), Some(before)) => Value::from(before + n),
                (Some(n), None) => Value::from(n),
                (None, _) => Value::String(v.clone()),
            };
            fields.insert(key, value);
            continue;
        }
        let value = match kind {
            Some("int") => v
                .trim()
                .parse::<i64>()
                .map_or_else(|_| Value::String(v.clone()), Value::from),
            Some("switch") => match v.as_str() {
                "true" | "1" | "" => Value::Bool(true),
                "false" | "0" => Value::Bool(false),
                _ => Value::String(v.clone()),
            },
            _ => Value::String(v.clone()),
        };
        let repeatable = param.is_some_and(|p| p.repeatable);
        match fields.get_mut(&key) {
            Some(Value::Array(items)) => items.push(value),
            Some(old) => {
                let first = old.take();
                *old = Value::Array(vec![first, value]);
            }
            None if repeatable => {
                fields.insert(key, Value::Array(vec![value]));
            }
            None => {
                fields.insert(key, value);
            }
        }
    }
    fields
}

/// `GET /api/odds?system=…&field=value…`.
pub async fn odds_get(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(pairs)) = query else {
        return error_response(
            StatusCode::BAD_REQUEST,
            "the query string is not a valid form encoding (expected system=d20&modifier=5&dc=15)",
        );
    };
    let rendering = match rendering(&pairs) {
        Ok(r) => r,
        Err(e) => return error_response(StatusCode::BAD_REQUEST, &e),
    };
    let system = pairs
        .iter()
        .find(|(k, _)| k == "system")
        .map(|(_, v)| v.clone());
    let raw = match system {
        Some(system) => {
            let mut fields = fields_from_query(&system, &pairs);
            fields.insert("system".into(), Value::String(system));
            Value::Object(fields)
        }
        None => json!({}),
    };
    match Request::from_json(&raw) {
        Ok(req) => match preflight(&req, rendering.exact) {
            Ok(()) => compute(&state, req, raw, rendering).await,
            Err(message) => error_response(StatusCode::BAD_REQUEST, &message),
        },
        Err(e) => error_response(StatusCode::BAD_REQUEST, &e.to_string()),
    }
}

/// `POST /api/odds` with a JSON request body.
pub async fn odds_post(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let pairs = query.map(|q| q.0).unwrap_or_default();
    let rendering = match rendering(&pairs) {
        Ok(r) => r,
        Err(e) => return error_response(StatusCode::BAD_REQUEST, &e),
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    let bytes = match read_body(body, declared).await {
        Ok(b) => b,
        Err(resp) => return resp,
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                &format!(
                    "the request body is not JSON ({e}); expected {{\"system\": \"d20\", \"modifier\": 5, \"dc\": 15}}"
                ),
            )
        }
    };
    match Request::from_json(&value) {
        Ok(req) => match preflight(&req, rendering.exact) {
            Ok(()) => compute(&state, req, value, rendering).await,
            Err(message) => error_response(StatusCode::BAD_REQUEST, &message),
        },
        Err(e) => error_response(StatusCode::BAD_REQUEST, &e.to_string()),
    }
}

/// Read at most [`BODY_LIMIT`] bytes; a larger body is drained (up to
/// [`DRAIN_LIMIT`]) so the client reads the 413 instead of a reset.
async fn read_body(mut body: Body, declared: Option<usize>) -> Result<Vec<u8>, Response> {
    let too_large = |n: usize| {
        error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("invalid value '{n} bytes' for the request body: allowed at most {BODY_LIMIT} bytes"),
        )
    };
    let mut bytes = Vec::new();
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return Err(error_response(
                StatusCode::BAD_REQUEST,
                "the request body could not be read",
            ));
        };
        if let Ok(data) = frame.into_data() {
            total += data.len();
            if total <= BODY_LIMIT {
                bytes.extend_from_slice(&data);
            } else if total > DRAIN_LIMIT {
                return Err(too_large(declared.unwrap_or(total).max(total)));
            }
        }
    }
    if total > BODY_LIMIT {
        return Err(too_large(total));
    }
    Ok(bytes)
}

/// Compute the report, one per core at a time, within the time limit (the
/// wait for a turn included, so a queue of heavy requests answers 503
/// instead of piling up), rendered as the CLI would. `request` is already
/// validated; `raw` is the JSON it was read from, for a worker.
///
/// The five systems' floating-point reports run on the blocking pool;
/// exact fractions and dice notation run in a worker process that is killed
/// at the limit (see [`super`]).
async fn compute(state: &AppState, request: Request, raw: Value, r: Rendering) -> Response {
    let limit = state.timeout;
    let worker = state
        .worker
        .clone()
        .filter(|_| r.exact || matches!(request, Request::Dice(_)));
    let work = if worker.is_some() {
        state.workers.clone()
    } else {
        state.work.clone()
    };
    let job = async move {
        let _permit = work.acquire_owned().await.ok()?;
        Some(match worker {
            Some(exe) => in_worker(&exe, &raw, r.exact, r.format).await,
            None => tokio::task::spawn_blocking(move || {
                request
                    .render(r.exact, r.format)
                    .map_err(|e| (StatusCode::BAD_REQUEST, e.to_string()))
            })
            .await
            .unwrap_or_else(|_| {
                Err((
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error computing this report (a bug: please report the request)"
                        .to_string(),
                ))
            }),
        })
    };
    match tokio::time::timeout(limit, job).await {
        Ok(Some(Ok(bytes))) => {
            let mime = match r.format {
                Format::Json => "application/json",
                Format::Csv => "text/csv; charset=utf-8",
                Format::Md => "text/markdown; charset=utf-8",
                Format::Table => "text/plain; charset=utf-8",
            };
            (
                [(header::CONTENT_TYPE, HeaderValue::from_static(mime))],
                bytes,
            )
                .into_response()
        }
        Ok(Some(Err((status, message)))) => error_response(status, &message),
        Ok(None) => error_response(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"),
        Err(_) => error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "this report took longer than {} s (with the wait for a free core) and was stopped; drop exact or use fewer dice",
                limit.as_secs_f64()
            ),
        ),
    }
}

/// One report in `hantei serve-worker`; the child is killed if this future
/// is dropped (the time limit).
async fn in_worker(
    exe: &std::path::Path,
    raw: &Value,
    exact: bool,
    format: Format,
) -> Result<Vec<u8>, (StatusCode, String)> {
    use tokio::io::AsyncWriteExt as _;
    let internal = |e: std::io::Error| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot run the report worker ({e})"),
        )
    };
    let mut child = tokio::process::Command::new(exe)
        .arg("serve-worker")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(internal)?;
    let input = serde_json::to_vec(&super::worker::job(raw, exact, format)).unwrap_or_default();
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(&input).await.map_err(internal)?;
    }
    let out = child.wait_with_output().await.map_err(internal)?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        let text = String::from_utf8_lossy(&out.stderr);
        let message = text.strip_prefix("hantei: ").unwrap_or(&text).trim_end();
        let status = if out.status.code() == Some(2) {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::INTERNAL_SERVER_ERROR
        };
        Err((status, message.to_string()))
    }
}

/// `GET /api/schema`: every system's parameters.
pub async fn schema() -> Response {
    axum::Json(json!({ "systems": schema::systems() })).into_response()
}

/// `GET /api/analyses`: the bundled analyses and their outputs.
pub async fn analyses() -> Response {
    axum::Json(json!({ "analyses": super::catalogue::analyses() })).into_response()
}

/// `GET /api/presets`: the dice presets (mechanics W1–W24, each game's main
/// checks) the explorer's pickers load.
pub async fn presets() -> Response {
    axum::Json(json!({ "presets": super::presets::presets() })).into_response()
}
