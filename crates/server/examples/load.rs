//! Load on loopback: many games at once, each played by two WebSocket clients (one per seat),
//! moves sent over the sockets; bounded in games and in time. Prints moves a second, the
//! p50/p90/p99/max latency of a move (sent to answered), and checks that nothing was lost:
//! every client saw every version of its game pushed, and each stored game holds exactly the
//! moves acknowledged.
//!
//! ```sh
//! ply serve --db /tmp/load.db --addr 127.0.0.1:8080 &
//! cargo run --release -p ply-server --example load -- --addr 127.0.0.1:8080 --games 100 --seconds 10
//! # or a `ply serve` process of its own, whose memory (RSS) it samples every 100 ms:
//! cargo run --release -p ply-server --example load -- --serve target/release/ply --games 200
//! cargo run --release -p ply-server --example load -- --serve target/release/ply --games 200 \
//!     --db postgres://postgres@127.0.0.1:5432/test --schema ply_load
//! ```
//!
//! Without `--addr` or `--serve` it starts a server of its own in-process, on a new SQLite file
//! (or `--db URL`), serving the shipped packs. Loopback only: `--addr` must be a loopback
//! address.

use futures_util::{SinkExt, StreamExt};
use ply_server::api::{
    CreateGame, CreatedGame, GameState, GameStatus, MoveRequest, MoveText, ServerMessage,
};
use ply_server::client::Client;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Args {
    addr: Option<SocketAddr>,
    serve: Option<String>,
    db: Option<String>,
    schema: Option<String>,
    games: usize,
    seconds: u64,
    pack: String,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        addr: None,
        serve: None,
        db: None,
        schema: None,
        games: 100,
        seconds: 10,
        pack: "jungle".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--addr" => a.addr = Some(value()?.parse().map_err(|e| format!("--addr: {e}"))?),
            "--db" => a.db = Some(value()?),
            "--serve" => a.serve = Some(value()?),
            "--schema" => a.schema = Some(value()?),
            "--games" => a.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => a.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--pack" => a.pack = value()?,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    if a.games == 0 || a.games > 2000 || a.seconds == 0 || a.seconds > 300 {
        return Err("--games is 1 to 2000, --seconds 1 to 300".into());
    }
    if a.addr.is_some_and(|addr| !addr.ip().is_loopback()) {
        return Err("--addr is a loopback address: this tool loads only this machine".into());
    }
    Ok(a)
}

#[derive(Default)]
struct Outcome {
    latencies: Vec<Duration>,
    /// (game id, moves acknowledged)
    games: Vec<(String, u64)>,
    finished: usize,
    errors: Vec<String>,
}

async fn next_message(ws: &mut Ws, deadline: Instant) -> Result<ServerMessage, String> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(10);
        let m = tokio::time::timeout(left, ws.next())
            .await
            .map_err(|_| "no message for too long".to_string())?
            .ok_or("socket closed")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).map_err(|e| e.to_string());
        }
    }
}

/// Waits on `ws` for the state of `version` (a state pushed), answering nothing.
async fn saw_version(ws: &mut Ws, version: u64, deadline: Instant) -> Result<(), String> {
    loop {
        if let ServerMessage::State { state } = next_message(ws, deadline).await?
            && state.version >= version
        {
            return if state.version == version {
                Ok(())
            } else {
                Err(format!("version {version} was never pushed"))
            };
        }
    }
}

/// Plays games of `pack` until the deadline, one after another, both seats over WebSockets.
async fn pair(addr: SocketAddr, pack: String, seed: u64, deadline: Instant) -> Outcome {
    let mut out = Outcome::default();
    let mut rng = seed | 1;
    let mut c = Client::new(addr);
    while Instant::now() < deadline {
        let g: CreatedGame = match c
            .post(
                "/games",
                &CreateGame {
                    pack: pack.clone(),
                    options: Default::default(),
                    engine: None,
                    clock: None,
                },
            )
            .await
            .map_err(|e| e.to_string())
            .and_then(|a| a.json().map_err(|e| e.to_string()))
        {
            Ok(g) => g,
            Err(e) => {
                out.errors.push(e);
                return out;
            }
        };
        let id = g.state.id.clone();
        let url = format!("ws://{addr}/games/{id}/ws");
        let mut sockets = Vec::new();
        for _ in &g.state.players {
            match tokio_tungstenite::connect_async(&url).await {
                Ok((mut ws, _)) => {
                    if let Err(e) = saw_version(&mut ws, 0, deadline).await {
                        out.errors.push(e);
                        return out;
                    }
                    sockets.push(ws);
                }
                Err(e) => {
                    out.errors.push(e.to_string());
                    return out;
                }
            }
        }
        let mut s: GameState = g.state.clone();
        let mut acked = 0u64;
        while Instant::now() < deadline && s.status == GameStatus::Playing {
            let Some(p) = s.to_move.clone() else { break };
            let seat = s.players.iter().position(|x| *x == p).unwrap_or(0);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = s.legal_moves[(rng % s.legal_moves.len() as u64) as usize].clone();
            let req = MoveRequest {
                token: g.seats[&p].clone(),
                version: s.version,
                mv: MoveText::Notation(m),
                idempotency_key: None,
            };
            let text = serde_json::to_string(&req).unwrap_or_default();
            let t0 = Instant::now();
            if let Err(e) = sockets[seat].send(Message::Text(text.into())).await {
                out.errors.push(e.to_string());
                break;
            }
            let answer = loop {
                match next_message(&mut sockets[seat], deadline).await {
                    Ok(ServerMessage::Answer { status, body }) => break Ok((status, body)),
                    Ok(ServerMessage::State { .. }) => continue,
                    Err(e) => break Err(e),
                }
            };
            let (status, body) = match answer {
                Ok(a) => a,
                Err(e) => {
                    out.errors.push(e);
                    break;
                }
            };
            out.latencies.push(t0.elapsed());
            if status != 200 {
                out.errors.push(format!("move answered {status}: {body}"));
                break;
            }
            s = match serde_json::from_value(body) {
                Ok(s) => s,
                Err(e) => {
                    out.errors.push(e.to_string());
                    break;
                }
            };
            acked += 1;
            // Both clients are pushed the new state (the mover's may have come before the
            // answer; it was skipped above, so look for it on the other socket only).
            let other = 1 - seat;
            if let Err(e) = saw_version(&mut sockets[other], s.version, deadline).await {
                out.errors.push(format!("game {id}: {e}"));
                break;
            }
        }
        if s.status != GameStatus::Playing {
            out.finished += 1;
        }
        out.games.push((id, acked));
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(1)
        });
    std::process::exit(rt.block_on(run(a)));
}

/// A `ply serve` process of the tool's own; killed when dropped.
struct Served {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `ply serve` on a free loopback port, with no limit that a load from one address
/// would meet (games a minute and at once, connections).
fn serve(ply: &str, db: &str, schema: Option<&str>) -> Result<Served, String> {
    use std::io::BufRead;
    let mut cmd = std::process::Command::new(ply);
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args([
            "--packs",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets"),
        ])
        .args(["--games-per-minute", "0", "--games-at-once", "4096"])
        .args(["--max-connections", "16384", "--log-level", "warn"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit());
    if let Some(s) = schema {
        cmd.args(["--schema", s]);
    }
    let mut child = cmd.spawn().map_err(|e| format!("{ply}: {e}"))?;
    let out = child.stdout.take().ok_or("no standard output")?;
    let mut line = String::new();
    std::io::BufReader::new(out)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .ok_or_else(|| format!("ply serve said {line:?}"))?
        .parse()
        .map_err(|e| format!("{line:?}: {e}"))?;
    Ok(Served { child, addr })
}

/// A process's resident memory now, in bytes (Linux's `/proc/PID/status`).
fn rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

async fn run(a: Args) -> i32 {
    let mut _stop = None;
    let mut served = None;
    let addr = match (a.addr, &a.serve) {
        (Some(addr), _) => addr,
        (None, Some(ply)) => {
            let db = a.db.clone().unwrap_or_else(|| {
                std::env::temp_dir()
                    .join(format!("ply_load_{}.db", std::process::id()))
                    .display()
                    .to_string()
            });
            match serve(ply, &db, a.schema.as_deref()) {
                Ok(s) => {
                    let addr = s.addr;
                    served = Some(s);
                    addr
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return 1;
                }
            }
        }
        (None, None) => {
            let db = a.db.clone().unwrap_or_else(|| {
                std::env::temp_dir()
                    .join(format!("ply_load_{}.db", std::process::id()))
                    .display()
                    .to_string()
            });
            let config = ply_server::Config {
                addr: SocketAddr::from(([127, 0, 0, 1], 0)),
                packs: concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets").into(),
                db,
                ..ply_server::Config::default()
            };
            let server = match ply_server::bind(&config).await {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return 1;
                }
            };
            eprintln!(
                "note: an in-process server on {}, games in the {}",
                server.addr, server.store
            );
            let addr = server.addr;
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            tokio::spawn(server.run(async move {
                let _ = rx.await;
            }));
            _stop = Some(tx);
            addr
        }
    };
    // The server's memory, sampled every 100 ms while the load runs.
    let pid = served.as_ref().map(|s| s.child.id());
    let idle_rss = pid.and_then(rss);
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    if let Some(pid) = pid {
        let peak = peak.clone();
        tokio::spawn(async move {
            while let Some(r) = rss(pid) {
                peak.fetch_max(r, std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    }
    let started = Instant::now();
    let deadline = started + Duration::from_secs(a.seconds);
    let tasks: Vec<_> = (0..a.games)
        .map(|i| {
            tokio::spawn(pair(
                addr,
                a.pack.clone(),
                0x9e37_79b9_7f4a_7c15 ^ (i as u64 * 7919),
                deadline,
            ))
        })
        .collect();
    let mut all = Outcome::default();
    for t in tasks {
        match t.await {
            Ok(o) => {
                all.latencies.extend(o.latencies);
                all.games.extend(o.games);
                all.finished += o.finished;
                all.errors.extend(o.errors);
            }
            Err(e) => all.errors.push(e.to_string()),
        }
    }
    let elapsed = started.elapsed();
    // Nothing lost: each stored game holds exactly the moves acknowledged.
    let mut c = Client::new(addr);
    let mut lost = 0;
    for (id, acked) in &all.games {
        match c
            .get(&format!("/games/{id}"))
            .await
            .map(|r| r.json::<GameState>())
        {
            Ok(Ok(s)) if s.version == *acked && s.moves.len() as u64 == *acked => {}
            Ok(Ok(s)) => {
                lost += 1;
                all.errors.push(format!(
                    "game {id}: stored version {}, {acked} acknowledged",
                    s.version
                ));
            }
            other => {
                lost += 1;
                all.errors.push(format!("game {id}: {:?}", other.err()));
            }
        }
    }
    let mut l = all.latencies.clone();
    l.sort();
    let moves = l.len();
    println!(
        "{} concurrent games of {} ({} WebSocket clients), {:.1} s: {} moves, {:.0} moves/s; \
         games played {} ({} finished)",
        a.games,
        a.pack,
        a.games * 2,
        elapsed.as_secs_f64(),
        moves,
        moves as f64 / elapsed.as_secs_f64(),
        all.games.len(),
        all.finished
    );
    println!(
        "move latency (sent to answered): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&l, 0.5).as_secs_f64() * 1e3,
        percentile(&l, 0.9).as_secs_f64() * 1e3,
        percentile(&l, 0.99).as_secs_f64() * 1e3,
        l.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    println!(
        "lost: {lost} games whose store differs from what was acknowledged; {} errors",
        all.errors.len()
    );
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let store = match (&a.db, &a.serve, &a.addr) {
        (_, _, Some(_)) => "(given server)".to_string(),
        (Some(db), _, _) if db.starts_with("postgres") => "PostgreSQL".to_string(),
        _ => "SQLite".to_string(),
    };
    let memory = match (idle_rss, pid) {
        (Some(idle), Some(pid)) => {
            let peak = peak.load(std::sync::atomic::Ordering::Relaxed);
            let end = rss(pid).unwrap_or(0);
            println!(
                "server RSS: {:.0} MiB idle, {:.0} MiB peak, {:.0} MiB after",
                mib(idle),
                mib(peak),
                mib(end)
            );
            format!("{:.0} → {:.0} MiB", mib(idle), mib(peak))
        }
        _ => "(not measured: no --serve)".to_string(),
    };
    println!(
        "| {store} | {} | {:.0} | {:.1} ms | {:.1} ms | {memory} |",
        a.games,
        moves as f64 / elapsed.as_secs_f64(),
        percentile(&l, 0.5).as_secs_f64() * 1e3,
        percentile(&l, 0.99).as_secs_f64() * 1e3,
    );
    for e in all.errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    i32::from(!all.errors.is_empty())
}
