//! `hantei serve`: the JSON API answers exactly what `hantei odds --format
//! json` prints, for every system, by GET and by POST; limits answer 4xx
//! with the CLI's one-line message; unknown routes and path tricks get
//! 404; and the server stays up and exact under 2,000 requests from 50
//! concurrent clients with bad ones mixed in.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::common::hantei;
use crate::common::server::Server;

/// One check as CLI flags: `(flag without --, value)`; a `None` value is a
/// switch; the first entry may be the positional dice expression (`""`).
struct Case {
    system: &'static str,
    args: &'static [(&'static str, Option<&'static str>)],
}

const CASES: &[Case] = &[
    Case {
        system: "d20",
        args: &[("modifier", Some("5")), ("dc", Some("15"))],
    },
    Case {
        system: "d20",
        args: &[
            ("modifier", Some("3")),
            ("dc", Some("14")),
            ("advantage", None),
            ("fate", Some("2")),
        ],
    },
    Case {
        system: "d20",
        args: &[
            ("modifier", Some("4")),
            ("vs-modifier", Some("2")),
            ("tie-rule", Some("attacker")),
        ],
    },
    Case {
        system: "multiplier",
        args: &[
            ("kind", Some("skill")),
            ("ability", Some("12")),
            ("multiplier", Some("5")),
            ("skill-level", Some("3")),
            ("required-level", Some("1")),
        ],
    },
    Case {
        system: "multiplier",
        args: &[
            ("ability", Some("12")),
            ("supporter", Some("8")),
            ("supporter", Some("6")),
            ("vs-ability", Some("10")),
        ],
    },
    Case {
        system: "keep-highest",
        args: &[
            ("ability", Some("6")),
            ("dice", Some("3")),
            ("difficulty", Some("5")),
        ],
    },
    Case {
        system: "keep-highest",
        args: &[
            ("ability", Some("8")),
            ("advantage", None),
            ("advantage", None),
            ("vs-ability", Some("6")),
        ],
    },
    Case {
        system: "levels",
        args: &[
            ("skill", Some("50,30,15")),
            ("level", Some("2")),
            ("difficulty", Some("2")),
        ],
    },
    Case {
        system: "levels",
        args: &[
            ("skill", Some("50,30,15,10")),
            ("vs-skill", Some("70,40,30")),
        ],
    },
    Case {
        system: "hit-pool",
        args: &[
            ("pool", Some("12")),
            ("threshold", Some("3")),
            ("glitch-rule", Some("more-than-half")),
        ],
    },
    Case {
        system: "hit-pool",
        args: &[
            ("pool", Some("8")),
            ("edge", Some("4")),
            ("edge-use", Some("push")),
        ],
    },
    Case {
        system: "hit-pool",
        args: &[
            ("pool", Some("6")),
            ("threshold", Some("2")),
            ("helper", Some("4")),
            ("helper", Some("3")),
            ("team-cap", Some("5")),
        ],
    },
    Case {
        system: "hit-pool",
        args: &[
            ("pool", Some("6")),
            ("threshold", Some("5")),
            ("extended", None),
            ("shrink", None),
        ],
    },
    Case {
        system: "dice",
        args: &[
            ("", Some("2D6+1")),
            ("tier", Some("strong hit:>=10")),
            ("tier", Some("weak hit:>=7")),
            ("tier", Some("miss")),
        ],
    },
    Case {
        system: "dice",
        args: &[("", Some("3D6KH2+1>=9")), ("vs", Some("2D6+2"))],
    },
    Case {
        system: "dice",
        args: &[("", Some("10R6[6]>=5"))],
    },
    Case {
        system: "dice",
        args: &[
            ("", Some("1D10")),
            ("tier", Some("critical:==10")),
            ("tier", Some("fumble:==1")),
            ("tier", Some("hit")),
            ("until", Some("20")),
            ("rounds", Some("6")),
            ("until-fail-tier", Some("fumble")),
            ("until-bonus", Some("critical=+3")),
        ],
    },
    Case {
        system: "dice",
        args: &[
            ("", Some("2D6")),
            ("vs", Some("1D12")),
            ("until", Some("30")),
            ("vs-until", Some("25")),
            ("tie-rule", Some("reroll")),
        ],
    },
];

fn cli_args(case: &Case) -> Vec<String> {
    let mut v = vec!["odds".to_string(), case.system.to_string()];
    for (flag, value) in case.args {
        match (flag.is_empty(), value) {
            (true, Some(x)) => v.push(x.to_string()),
            (false, Some(x)) => {
                v.push(format!("--{flag}"));
                v.push(x.to_string());
            }
            (_, None) => v.push(format!("--{flag}")),
        }
    }
    v
}

/// Percent-encode a query component (everything but unreserved bytes).
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn query(case: &Case) -> String {
    let mut q = format!("system={}", enc(case.system));
    for (flag, value) in case.args {
        let field = if flag.is_empty() {
            "expr".to_string()
        } else {
            flag.replace('-', "_")
        };
        q.push_str(&format!("&{field}={}", enc(value.unwrap_or("true"))));
    }
    q
}

/// The typed request as JSON: repeated flags become lists, switches
/// `true` (a repeated switch, a count).
fn body(case: &Case) -> Value {
    let mut m = Map::new();
    m.insert("system".into(), Value::from(case.system));
    for (flag, value) in case.args {
        let field = if flag.is_empty() {
            "expr".to_string()
        } else {
            flag.replace('-', "_")
        };
        let v = match value {
            Some(x) => Value::from(*x),
            None => Value::Bool(true),
        };
        match m.get_mut(&field) {
            Some(Value::Bool(true)) => {
                m.insert(field, Value::from(2));
            }
            Some(Value::Number(n)) => {
                let k = n.as_i64().unwrap() + 1;
                m.insert(field, Value::from(k));
            }
            Some(Value::Array(a)) => a.push(v),
            Some(old) => {
                let first = old.take();
                *old = Value::Array(vec![first, v]);
            }
            None => {
                m.insert(field, v);
            }
        }
    }
    Value::Object(m)
}

fn cli(args: &[String]) -> (bool, String, String) {
    let out = hantei().args(args).output().expect("run hantei");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn get(agent: &ureq::Agent, url: &str) -> (u16, String) {
    match agent.get(url).call() {
        Ok(r) => (r.status(), r.into_string().expect("body")),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().expect("body")),
        Err(e) => panic!("GET {url}: {e}"),
    }
}

fn post(agent: &ureq::Agent, url: &str, body: &[u8]) -> (u16, String) {
    match agent
        .post(url)
        .set("Content-Type", "application/json")
        .send_bytes(body)
    {
        Ok(r) => (r.status(), r.into_string().expect("body")),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().expect("body")),
        Err(e) => panic!("POST {url}: {e}"),
    }
}

fn error_of(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    v["error"].as_str().expect("error field").to_string()
}

#[test]
fn api_answers_exactly_the_cli_json_for_every_system() {
    let server = Server::start();
    let agent = ureq::agent();
    let mut systems = std::collections::BTreeSet::new();
    for case in CASES {
        systems.insert(case.system);
        let mut args = cli_args(case);
        args.extend(["--format".into(), "json".into()]);
        let (ok, want, err) = cli(&args);
        assert!(ok, "{args:?}: {err}");
        let (code, got) = get(&agent, &format!("{}/api/odds?{}", server.base, query(case)));
        assert_eq!(code, 200, "{}: {got}", query(case));
        assert_eq!(got, want, "GET {}", query(case));
        let b = serde_json::to_vec(&body(case)).unwrap();
        let (code, got) = post(&agent, &format!("{}/api/odds", server.base), &b);
        assert_eq!(code, 200, "{}: {got}", String::from_utf8_lossy(&b));
        assert_eq!(got, want, "POST {}", String::from_utf8_lossy(&b));
        // --exact and the other formats, by the same query parameters.
        for (extra, q) in [
            (vec!["--exact"], "&exact=true"),
            (vec!["--format", "md"], "&format=md"),
            (vec!["--format", "csv"], "&format=csv"),
        ] {
            let mut args = cli_args(case);
            args.extend(extra.iter().map(|s| s.to_string()));
            if extra == ["--exact"] {
                args.extend(["--format".into(), "json".into()]);
            }
            let (ok, want, err) = cli(&args);
            assert!(ok, "{args:?}: {err}");
            let (code, got) = get(
                &agent,
                &format!("{}/api/odds?{}{q}", server.base, query(case)),
            );
            assert_eq!((code, got), (200, want), "{args:?}");
        }
    }
    assert_eq!(systems.len(), 6, "every system is covered");
    // The worked value (RULES.md §2): 1d20+5 against DC 15 succeeds on 10..=20.
    let (_, got) = get(
        &agent,
        &format!("{}/api/odds?system=d20&modifier=5&dc=15", server.base),
    );
    let v: Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["p_success"], Value::from(0.55));
    let (_, got) = get(
        &agent,
        &format!(
            "{}/api/odds?system=d20&modifier=5&dc=15&exact=true",
            server.base
        ),
    );
    let v: Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["p_success"], Value::from("11/20"));
}

#[test]
fn bad_requests_get_the_cli_message_and_the_server_keeps_serving() {
    let mut server = Server::start();
    let agent = ureq::agent();
    // The CLI's one-line message, without its "hantei: " prefix.
    let (ok, _, err) = cli(&[
        "odds".into(),
        "hit-pool".into(),
        "--pool".into(),
        "1000000".into(),
    ]);
    assert!(!ok);
    let cli_msg = err.trim().strip_prefix("hantei: ").unwrap().to_string();
    assert_eq!(
        cli_msg,
        "invalid value '1000000' for --pool: allowed -100..=300"
    );
    let (code, b) = get(
        &agent,
        &format!("{}/api/odds?system=hit-pool&pool=1000000", server.base),
    );
    assert_eq!((code, error_of(&b)), (400, cli_msg.clone()));
    let (code, b) = post(
        &agent,
        &format!("{}/api/odds", server.base),
        br#"{"system":"hit-pool","pool":1000000}"#,
    );
    assert_eq!((code, error_of(&b)), (400, cli_msg));

    // A 10^6-die dice expression: the parser's message, as the CLI prints
    // it: its first line in `error` (one line), the expression and the
    // caret under the fault in `caret` (issue 30 item 6).
    let (ok, _, err) = cli(&["odds".into(), "dice".into(), "1000000D6".into()]);
    assert!(!ok);
    let cli_msg = err.strip_prefix("hantei: ").unwrap().trim_end().to_string();
    let (first, rest) = cli_msg.split_once('\n').expect("a caret under the message");
    let (code, b) = get(
        &agent,
        &format!("{}/api/odds?system=dice&expr=1000000D6", server.base),
    );
    assert_eq!((code, error_of(&b)), (400, first.to_string()));
    assert!(!error_of(&b).contains('\n'));
    let v: Value = serde_json::from_str(&b).unwrap();
    assert_eq!(
        v["caret"],
        serde_json::json!(["1000000D6", "^"]),
        "the CLI's lines {rest:?}, unindented"
    );
    assert_eq!(rest, "  1000000D6\n  ^");
    assert!(
        cli_msg.starts_with("bad dice expression '1000000D6'"),
        "{cli_msg}"
    );

    // Unknown system, missing system, a bad field: each names what is allowed.
    let (code, b) = get(&agent, &format!("{}/api/odds?system=gurps", server.base));
    assert_eq!(code, 400);
    assert!(
        error_of(&b).contains("gurps") && error_of(&b).contains("allowed: multiplier, d20"),
        "{b}"
    );
    let (code, b) = get(&agent, &format!("{}/api/odds", server.base));
    assert_eq!(code, 400, "{b}");
    let (code, b) = get(
        &agent,
        &format!("{}/api/odds?system=d20&dc=15&modifer=5", server.base),
    );
    assert_eq!(code, 400);
    assert!(error_of(&b).contains("modifer"), "{b}");
    let (code, b) = get(
        &agent,
        &format!("{}/api/odds?system=d20&dc=15&format=xml", server.base),
    );
    assert_eq!(
        (code, error_of(&b)),
        (
            400,
            "invalid value 'xml' for format: allowed json, csv, md, table".to_string()
        )
    );
    let (code, b) = post(&agent, &format!("{}/api/odds", server.base), b"{not json");
    assert_eq!(code, 400);
    assert!(
        error_of(&b).starts_with("the request body is not JSON"),
        "{b}"
    );
    let (code, b) = post(&agent, &format!("{}/api/odds", server.base), b"[1,2]");
    assert_eq!(code, 400, "{b}");

    // A 10 MB body: 413 with one line, never a hang.
    let big = vec![b' '; 10 * 1024 * 1024];
    let (code, b) = post(&agent, &format!("{}/api/odds", server.base), &big);
    assert_eq!(code, 413);
    assert_eq!(
        error_of(&b),
        "invalid value '10485760 bytes' for the request body: allowed at most 65536 bytes"
    );
    assert!(!error_of(&b).contains('\n'));

    assert!(server.alive());
    let (code, _) = get(
        &agent,
        &format!("{}/api/odds?system=d20&modifier=5&dc=15", server.base),
    );
    assert_eq!(code, 200);
}

#[test]
fn unknown_routes_and_path_tricks_get_404() {
    let mut server = Server::start();
    for target in [
        "/nope",
        "/api/nope",
        "/api/odds/extra",
        "/output/../Cargo.toml",
        "/output/..%2FCargo.toml",
        "/output/%2e%2e%2fCargo.toml",
        "/output/%2e%2e/Cargo.toml",
        "/output/..%5cCargo.toml",
        "/output/.gitignore",
        "/output/",
        "/analyses/..%2f..%2f..%2fetc%2fpasswd",
        "/analyses/%2e%2e",
        "//etc/passwd",
        "/output/d20-success.md%00",
        "/font/../Cargo.toml",
        "/app.js/../../Cargo.toml",
    ] {
        let (code, body) = server.raw("GET", target);
        assert_eq!(code, 404, "{target}: {body}");
        assert!(!body.contains("[package]"), "{target} leaked a file");
    }
    // An API 404 is JSON naming the routes.
    let (_, body) = server.raw("GET", "/api/nope");
    assert!(error_of(&body).contains("/api/odds"), "{body}");
    // The real files are served byte for byte.
    let (code, body) = server.raw("GET", "/output/d20-success.md");
    assert_eq!(code, 200);
    let disk = std::fs::read_to_string(crate::common::repo("output/d20-success.md")).unwrap();
    assert_eq!(body, disk);
    let (code, body) = server.raw("GET", "/analyses/d20-success.toml");
    assert_eq!(code, 200);
    assert_eq!(
        body,
        std::fs::read_to_string(crate::common::repo("analyses/d20-success.toml")).unwrap()
    );
    assert!(server.alive());
}

#[test]
fn schema_and_catalogue_list_every_system_and_analysis() {
    let server = Server::start();
    let agent = ureq::agent();
    let (code, b) = get(&agent, &format!("{}/api/schema", server.base));
    assert_eq!(code, 200);
    let v: Value = serde_json::from_str(&b).unwrap();
    let ids: Vec<&str> = v["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "multiplier",
            "d20",
            "keep-highest",
            "levels",
            "hit-pool",
            "dice"
        ]
    );
    // The help is `--help`'s: every flag of `hantei odds hit-pool --help`
    // is in the schema, with the same first help line.
    let (_, help, _) = cli(&["odds".into(), "hit-pool".into(), "--help".into()]);
    let hp = v["systems"][4]["params"].as_array().unwrap();
    for p in hp {
        let flag = p["flag"].as_str().unwrap();
        let first = p["help_en"].as_str().unwrap().lines().next().unwrap();
        assert!(help.contains(flag), "{flag} not in --help");
        assert!(
            help.contains(
                first
                    .split_whitespace()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .as_str()
            ),
            "{flag}: {first}"
        );
    }
    let (code, b) = get(&agent, &format!("{}/api/analyses", server.base));
    assert_eq!(code, 200);
    let v: Value = serde_json::from_str(&b).unwrap();
    let on_disk = std::fs::read_dir(crate::common::repo("analyses"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "toml")
        })
        .count();
    assert_eq!(v["analyses"].as_array().unwrap().len(), on_disk);
    let listed: usize = v["analyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["outputs"].as_array().unwrap().len())
        .sum();
    // Not the list of what `hantei run` wrote (`.hantei-outputs`).
    let outputs = std::fs::read_dir(crate::common::repo("output"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(listed, outputs, "every output file belongs to an analysis");
}

#[test]
fn two_thousand_requests_from_fifty_clients_stay_exact() {
    let mut server = Server::start();
    // The exact answers, from the CLI.
    let good: Vec<(String, Vec<u8>, String)> = CASES
        .iter()
        .map(|case| {
            let mut args = cli_args(case);
            args.extend(["--format".into(), "json".into()]);
            let (ok, out, err) = cli(&args);
            assert!(ok, "{err}");
            (query(case), serde_json::to_vec(&body(case)).unwrap(), out)
        })
        .collect();
    let good = Arc::new(good);
    let base = Arc::new(server.base.clone());
    let addr = Arc::new(server.addr.clone());
    let counts = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    const CLIENTS: usize = 50;
    const PER_CLIENT: usize = 40;
    let threads: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (good, base, addr, counts) = (good.clone(), base.clone(), addr.clone(), counts.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(std::time::Duration::from_secs(60))
                    .build();
                for i in 0..PER_CLIENT {
                    let n = c * PER_CLIENT + i;
                    match n % 8 {
                        // Bad: a 10^6-die pool, an unknown system, a bad body,
                        // an unknown route, a path trick.
                        3 => {
                            let (code, b) = get(&agent, &format!("{base}/api/odds?system=hit-pool&pool=1000000"));
                            assert_eq!((code, error_of(&b).as_str()), (400, "invalid value '1000000' for --pool: allowed -100..=300"));
                            counts[1].fetch_add(1, Ordering::Relaxed);
                        }
                        5 => {
                            let (code, _) = match n % 3 {
                                0 => get(&agent, &format!("{base}/api/odds?system=nope")),
                                1 => post(&agent, &format!("{base}/api/odds"), b"{\"system\": \"d20\", \"dc\": "),
                                _ => get(&agent, &format!("{base}/no/such/route")),
                            };
                            assert!((400..500).contains(&code), "{code}");
                            counts[1].fetch_add(1, Ordering::Relaxed);
                        }
                        7 if n % 5 == 0 => {
                            let mut s = std::net::TcpStream::connect(addr.as_str()).unwrap();
                            use std::io::{Read, Write};
                            write!(s, "GET /output/..%2f..%2fCargo.toml HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
                            let mut text = String::new();
                            s.read_to_string(&mut text).unwrap();
                            assert!(text.starts_with("HTTP/1.1 404"), "{text}");
                            counts[1].fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {
                            let (q, body, want) = &good[n % good.len()];
                            let (code, got) = if n % 2 == 0 {
                                get(&agent, &format!("{base}/api/odds?{q}"))
                            } else {
                                // The same request as a POST body.
                                post(&agent, &format!("{base}/api/odds"), body)
                            };
                            assert_eq!(code, 200, "{q}: {got}");
                            assert_eq!(&got, want, "{q}");
                            counts[0].fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a client failed");
    }
    let (good_n, bad_n) = (
        counts[0].load(Ordering::Relaxed),
        counts[1].load(Ordering::Relaxed),
    );
    assert_eq!(good_n + bad_n, CLIENTS * PER_CLIENT);
    assert!(
        CLIENTS * PER_CLIENT >= 2000 && bad_n >= 400,
        "{good_n} good, {bad_n} bad"
    );
    assert!(server.alive());
    let agent = ureq::agent();
    let (code, got) = get(&agent, &format!("{}/api/odds?{}", server.base, good[0].0));
    assert_eq!((code, &got), (200, &good[0].2));
}

#[test]
fn serve_flags_refuse_a_busy_port_and_a_bad_address() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = hantei().args(["serve", "--port", &port]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!(
            "hantei: invalid value '{port}' for --port: a free port on 127.0.0.1"
        )),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = hantei()
        .args(["serve", "--bind", "localhost:80"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("localhost:80") && err.contains("--bind"),
        "{err}"
    );
}

#[test]
fn work_past_the_time_limit_is_stopped_and_others_are_served_meanwhile() {
    // 800D100 exactly is within the notation's work limits but takes
    // seconds (big-integer sums of 79,000 values, about 5 s on 2 cores;
    // 1000D140, tens of seconds, is refused at once as past the exact work
    // limit): with --timeout 3 it answers 503
    // in about that time, its worker process is killed, and quick requests
    // are answered meanwhile and after.
    let mut server = Server::start_with(&["--timeout", "3"]);
    let base = server.base.clone();
    let slow: Vec<_> = (0..3)
        .map(|_| {
            let base = base.clone();
            std::thread::spawn(move || {
                let t = std::time::Instant::now();
                let (code, body) = get(
                    &ureq::agent(),
                    &format!("{base}/api/odds?system=dice&expr=800D100&exact=true"),
                );
                (code, body, t.elapsed())
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let agent = ureq::agent();
    let t = std::time::Instant::now();
    let (code, got) = get(
        &agent,
        &format!("{base}/api/odds?system=d20&modifier=5&dc=15"),
    );
    assert_eq!(code, 200, "{got}");
    // Not a speed measurement: it did not wait for the slow ones to stop.
    assert!(
        t.elapsed() < std::time::Duration::from_secs(2),
        "a quick report waited {:?} behind slow ones",
        t.elapsed()
    );
    for t in slow {
        let (code, body, took) = t.join().unwrap();
        assert_eq!(code, 503, "{body}");
        assert!(
            error_of(&body).starts_with("this report took longer than 3 s"),
            "{body}"
        );
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    }
    // The cores are free again: an exact report (in a worker) and a float one.
    let (code, got) = get(
        &agent,
        &format!("{base}/api/odds?system=d20&modifier=5&dc=15&exact=true"),
    );
    assert_eq!(code, 200, "{got}");
    let (code, got) = get(
        &agent,
        &format!(
            "{base}/api/odds?system=dice&expr=2D6%2B1&tier=hit%3A%3E%3D7&tier=miss&exact=true"
        ),
    );
    assert_eq!(code, 200, "{got}");
    let v: Value = serde_json::from_str(&got).unwrap();
    assert_eq!(v["p_success"], Value::from("13/18"), "P(2D6 >= 6) = 26/36");
    assert!(server.alive());
    let out = hantei().args(["serve", "--timeout", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "hantei: invalid value '0' for --timeout: allowed 0.1..=3600 (seconds)\n"
    );
}

/// Issue 21 item 11: `serve --open` runs the desktop's opener and reaps it
/// when it exits, leaving no defunct child for the server's life. A stub
/// `xdg-open` on the PATH records its argument and exits at once.
#[cfg(target_os = "linux")]
#[test]
fn the_browser_opener_is_reaped() {
    use std::io::BufRead as _;
    let scratch = crate::common::Scratch::new("open");
    let mark = scratch.join("opened");
    let stub = scratch.join("xdg-open");
    std::fs::write(
        &stub,
        format!("#!/bin/sh\necho \"$1\" > '{}'\n", mark.display()),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        scratch.0.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hantei"))
        .args(["serve", "--port", "0", "--open"])
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let pid = child.id();
    // The children of every thread of the server, and their states.
    let children = || -> Vec<(u32, char)> {
        let mut out = Vec::new();
        for t in std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .flatten()
        {
            let list = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            for c in list
                .split_whitespace()
                .filter_map(|c| c.parse::<u32>().ok())
            {
                let stat = std::fs::read_to_string(format!("/proc/{c}/stat")).unwrap_or_default();
                // `pid (comm) S …`: the state follows the last ')'.
                let state = stat
                    .rsplit_once(')')
                    .and_then(|(_, r)| r.trim_start().chars().next())
                    .unwrap_or('?');
                out.push((c, state));
            }
        }
        out
    };
    let start = std::time::Instant::now();
    let mut reaped = false;
    while start.elapsed() < std::time::Duration::from_secs(10) {
        if mark.exists() && children().iter().all(|(_, s)| *s != 'Z') {
            // Seen twice a little apart: the opener has exited and is gone.
            std::thread::sleep(std::time::Duration::from_millis(300));
            if children().iter().all(|(_, s)| *s != 'Z') {
                reaped = true;
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let left = children();
    let _ = child.kill();
    let _ = child.wait();
    assert!(mark.exists(), "the opener never ran");
    let url = std::fs::read_to_string(&mark).unwrap();
    assert!(first.contains(url.trim()), "{first} vs {url}");
    assert!(reaped, "defunct children of the server: {left:?}");
}

#[test]
fn bind_accepts_a_host_name() {
    // Issue 21 item 6: `--bind localhost` resolves (to 127.0.0.1 first).
    let server = Server::start_with(&["--bind", "localhost"]);
    assert!(
        server.base.starts_with("http://127.0.0.1:") || server.base.starts_with("http://[::1]:"),
        "{}",
        server.base
    );
}

/// Every preset of the explorer's pickers (`/api/presets`): its query
/// pairs through `/api/odds` answer the same bytes as its command line run
/// by the CLI (split as a shell splits it), and the mechanics are exactly
/// the W1–W24 sections of docs/mechanics.md.
#[test]
fn every_preset_answers_what_its_command_line_prints() {
    let server = Server::start();
    let agent = ureq::agent();
    let (code, body) = get(&agent, &format!("{}/api/presets", server.base));
    assert_eq!(code, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let presets = v["presets"].as_array().expect("presets");
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/mechanics.md"),
    )
    .unwrap();
    let sections = page.matches("\n## W").count();
    let mechanics = presets.iter().filter(|p| p["group"] == "mechanics").count();
    assert_eq!(mechanics, sections);
    assert_eq!(sections, 24);
    for p in presets {
        let command = p["command"].as_str().unwrap();
        let words = hantei::serve::presets::split_words(command).expect("closed quotes");
        assert_eq!(&words[..3], ["hantei", "odds", "dice"], "{command}");
        let mut args: Vec<String> = words[1..].to_vec();
        args.extend(["--format".into(), "json".into()]);
        let (ok, want, err) = cli(&args);
        assert!(ok, "{command}: {err}");
        let mut q = "system=dice".to_string();
        for pair in p["pairs"].as_array().unwrap() {
            q.push_str(&format!(
                "&{}={}",
                enc(pair[0].as_str().unwrap()),
                enc(pair[1].as_str().unwrap())
            ));
        }
        let (code, got) = get(&agent, &format!("{}/api/odds?{q}", server.base));
        assert_eq!(code, 200, "{}: {got}", p["id"]);
        assert_eq!(got, want, "{}: {command}", p["id"]);
    }
}

/// Every worker busy for seconds: more slow exact sums (800D100, 4 s
/// here) than there are cores, queued behind each other until the server's
/// `--timeout` (5 s: the checks made meanwhile take under 2 s, and a
/// refusal that waited for a worker would take 4.5 s; at 8 s each test
/// waited 3 s longer for the sums to end). Each thread gives the status (and an error's body: a
/// finished sum is megabytes of fractions, more than a body read into a
/// string may hold, so its body is left unread).
fn busy_workers(base: &str) -> Vec<std::thread::JoinHandle<(u16, String)>> {
    let slow = (0..4)
        .map(|_| {
            let url = format!("{base}/api/odds?system=dice&expr=800D100&exact=true");
            std::thread::spawn(move || match ureq::agent().get(&url).call() {
                Ok(r) => (r.status(), String::new()),
                Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap_or_default()),
                Err(e) => panic!("GET {url}: {e}"),
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    slow
}

/// With the workers busy, `query` is a 400 whose error is the first line
/// of what the CLI prints for `args` (holding `wanted`), answered at once.
fn refused_at_once(agent: &ureq::Agent, base: &str, query: &str, args: &[&str], wanted: &str) {
    let t = std::time::Instant::now();
    let (code, body) = get(agent, &format!("{base}/api/odds?system=dice&{query}"));
    let took = t.elapsed();
    let (ok, _, err) = cli(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>());
    assert!(!ok);
    let cli_first = err
        .strip_prefix("hantei: ")
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!((code, error_of(&body)), (400, cli_first.clone()), "{query}");
    assert!(cli_first.contains(wanted), "{cli_first}");
    // Not a speed measurement: the slow sums hold every worker for
    // seconds, and this answer did not wait for them.
    assert!(
        took < std::time::Duration::from_secs(2),
        "{query} waited {took:?} behind the workers"
    );
}

/// The busy workers' sums end, answered or timed out.
fn join_busy(slow: Vec<std::thread::JoinHandle<(u16, String)>>) {
    for t in slow {
        let (code, body) = t.join().unwrap();
        assert!(code == 200 || code == 503, "{code} {body}");
    }
}

/// Issue 30 item 6: a dice request is parsed, and its exact work
/// estimated, before it waits for a worker. With every worker busy on slow
/// exact sums, a malformed command, one refused by the estimate, a game
/// command the game refuses and a bad tier are each a 400 with the CLI's
/// message at once (before the fix they waited behind the slow ones, and
/// answered 503 past the time limit); a good request still waits its turn.
/// `DELETE /api/odds` answers 405 with a JSON body and `Allow`.
#[test]
fn bad_dice_requests_are_refused_before_they_wait_for_a_worker() {
    let mut server = Server::start_with(&["--timeout", "5"]);
    let base = server.base.clone();
    let slow = busy_workers(&base);
    let agent = ureq::agent();
    for (query, args, wanted) in [
        (
            "expr=2D6%2Bx",
            vec!["odds", "dice", "2D6+x"],
            "bad dice expression '2D6+x'",
        ),
        (
            "expr=1000D140&exact=true",
            vec!["odds", "dice", "1000D140", "--exact"],
            "with --exact takes",
        ),
        (
            "expr=4DA3&game=Emoklore",
            vec!["odds", "dice", "4DA3", "--game", "Emoklore"],
            "the skill level s is 1, 2, 3 or B",
        ),
        (
            "expr=2D6&tier=a%3Azz%3E1&tier=b",
            vec!["odds", "dice", "2D6", "--tier", "a:zz>1", "--tier", "b"],
            "'zz' is no statistic",
        ),
    ] {
        refused_at_once(&agent, &base, query, &args, wanted);
    }
    join_busy(slow);
    // Another method: 405, with a JSON body and the methods allowed.
    let (code, body) = server.raw("DELETE", "/api/odds");
    assert_eq!(code, 405, "{body}");
    assert_eq!(
        error_of(&body),
        "invalid method DELETE for /api/odds: allowed GET, POST"
    );
    let (code, body) = server.raw("PUT", "/api/schema");
    assert_eq!(
        (code, error_of(&body).as_str()),
        (405, "invalid method PUT for /api/schema: allowed GET")
    );
    assert!(server.alive());
}

/// Issue 30 item 6 (floats): a floating-point dice request refused for its
/// size — a sum too wide (1000D3000 spans 2,999,001 values, at most
/// 2,000,000), a sum of too many multiply-adds (1000D1000), a keep/drop of
/// too many steps (200D1000KH100) — is a 400 with the CLI's message before
/// it waits for a worker, as an exact one is, while every worker is busy
/// on slow exact sums. The server asks `dice::law::check_work::<f64>`
/// (through `request::dice::Params::preflight`), which estimates the
/// floating-point sums and keep/drop before any work.
#[test]
fn float_requests_refused_for_size_do_not_wait_for_a_worker() {
    let server = Server::start_with(&["--timeout", "5"]);
    let base = server.base.clone();
    let slow = busy_workers(&base);
    let agent = ureq::agent();
    for (expr, wanted) in [
        ("1000D3000", "spans 2999001 values (at most 2000000)"),
        ("1000D1000", "multiply-adds (at most 5000000000)"),
        ("200D1000KH100", "too much work"),
    ] {
        refused_at_once(
            &agent,
            &base,
            &format!("expr={expr}"),
            &["odds", "dice", expr],
            wanted,
        );
    }
    join_busy(slow);
}
