//! `hantei serve` under load: 2,000 requests (a mix of the five systems
//! and dice, GET and POST) from 50 concurrent clients on loopback, with
//! bad requests mixed in; prints the latency percentiles p50/p90/p99 of the
//! good requests, then criterion's estimate of one request on an idle
//! server. Run: `cargo bench --bench serve`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};

#[path = "../tests/common/server.rs"]
mod server;

const GOOD: &[&str] = &[
    "system=d20&modifier=5&dc=15",
    "system=d20&modifier=3&dc=14&advantage=true&fate=2",
    "system=multiplier&kind=skill&ability=12&multiplier=5&skill_level=3&required_level=1",
    "system=keep-highest&ability=6&dice=3&difficulty=5",
    "system=levels&skill=50,30,15,10&vs_skill=70,40,30",
    "system=hit-pool&pool=12&threshold=3&glitch_rule=more-than-half",
    "system=hit-pool&pool=8&edge=4&edge_use=push",
    "system=dice&expr=2D6%2B1&tier=strong%20hit%3A%3E%3D10&tier=weak%20hit%3A%3E%3D7&tier=miss",
];

fn call(agent: &ureq::Agent, url: &str) -> u16 {
    match agent.get(url).call() {
        Ok(r) => {
            let s = r.status();
            let _ = r.into_string();
            s
        }
        Err(ureq::Error::Status(code, r)) => {
            let _ = r.into_string();
            code
        }
        Err(e) => panic!("{url}: {e}"),
    }
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i]
}

/// 2,000 requests from 50 clients; the latencies of the good ones.
fn load(base: &str) -> (Vec<Duration>, Duration) {
    const CLIENTS: usize = 50;
    const PER_CLIENT: usize = 40;
    let lat = Arc::new(Mutex::new(Vec::with_capacity(CLIENTS * PER_CLIENT)));
    let start = Instant::now();
    let threads: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (lat, base) = (lat.clone(), base.to_string());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(60))
                    .build();
                let mut mine = Vec::with_capacity(PER_CLIENT);
                for i in 0..PER_CLIENT {
                    let n = c * PER_CLIENT + i;
                    if n % 8 == 3 {
                        let code = call(
                            &agent,
                            &format!("{base}/api/odds?system=hit-pool&pool=1000000"),
                        );
                        assert_eq!(code, 400);
                        continue;
                    }
                    let url = format!("{base}/api/odds?{}", GOOD[n % GOOD.len()]);
                    let t = Instant::now();
                    assert_eq!(call(&agent, &url), 200, "{url}");
                    mine.push(t.elapsed());
                }
                lat.lock().unwrap().extend(mine);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("client");
    }
    let wall = start.elapsed();
    let mut v = Arc::try_unwrap(lat).unwrap().into_inner().unwrap();
    v.sort();
    (v, wall)
}

fn bench(c: &mut Criterion) {
    let server = server::Server::start();
    let (lat, wall) = load(&server.base);
    println!(
        "serve load: {} good requests (+ bad ones) from 50 clients in {:.2} s; latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        wall.as_secs_f64(),
        percentile(&lat, 0.50).as_secs_f64() * 1e3,
        percentile(&lat, 0.90).as_secs_f64() * 1e3,
        percentile(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
    );
    let agent = ureq::agent();
    let url = format!("{}/api/odds?system=d20&modifier=5&dc=15", server.base);
    c.bench_function("serve GET /api/odds d20 (one client)", |b| {
        b.iter(|| assert_eq!(call(&agent, &url), 200))
    });
    let url = format!(
        "{}/api/odds?system=hit-pool&pool=8&edge=4&edge_use=push",
        server.base
    );
    c.bench_function("serve GET /api/odds hit-pool edge push (one client)", |b| {
        b.iter(|| assert_eq!(call(&agent, &url), 200))
    });
    // Dice notation and exact fractions run in a worker process: the cost
    // of that isolation.
    let url = format!("{}/api/odds?system=dice&expr=1D20%2B5%3E%3D15", server.base);
    c.bench_function(
        "serve GET /api/odds dice 1D20+5>=15 (worker process)",
        |b| b.iter(|| assert_eq!(call(&agent, &url), 200)),
    );
    let url = format!(
        "{}/api/odds?system=d20&modifier=5&dc=15&exact=true",
        server.base
    );
    c.bench_function("serve GET /api/odds d20 exact (worker process)", |b| {
        b.iter(|| assert_eq!(call(&agent, &url), 200))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(3));
    targets = bench
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
