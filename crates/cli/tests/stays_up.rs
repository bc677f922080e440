//! The fault suite: `ply` as real processes, held to staying up. A server whose log is written
//! to a pipe that nobody reads, while many requests at once log errors, keeps serving;
//! `ply match` and `ply balance` on a terminal (a pseudo-terminal, through `script`) finish
//! with their progress bars drawn; SIGTERM stops a server promptly.
//!
//! Every wait is bounded generously (tens of seconds, on a loaded two-core machine): a test
//! fails on a server that hangs, never on one that is merely slow.

#[path = "../../server/tests/common/mod.rs"]
mod server_common;

use ply_server::client::Client;
use server_common::{create, mover_token, mv, temp_dir};
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A `ply serve` process; killed (SIGKILL) when dropped.
struct Serve {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `ply serve` on a free port with these flags, its standard error piped (and left
/// unread unless the test reads it); waits for its address.
fn serve(flags: &[&str]) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .current_dir(root())
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("ply serve prints its address");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("not an address: {line:?}"))
        .parse()
        .expect("an address");
    Serve { child, addr }
}

/// Waits for a process to end, `limit` at most; kills it and panics if it does not.
fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What must be done within `limit`.
async fn within<T>(limit: Duration, answer: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(limit, answer)
        .await
        .unwrap_or_else(|_| panic!("no answer within {limit:?}: the server hangs"))
}

const PATIENCE: Duration = Duration::from_secs(60);

/// Puts a game whose stored pack does not match its hash in the SQLite file: every request
/// for it is refused with 500 and logs an error.
fn damaged_game(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("the database opens");
    conn.busy_timeout(Duration::from_secs(30)).expect("busy");
    let id = "0123456789abcdef".to_string();
    conn.execute(
        "INSERT INTO games (id, pack_name, options, pack_text, pack_sha256, token_hash_first,
             token_hash_second, created_ms) VALUES (?1, 'x', '{}', 'not a pack', ?2, 'a', 'b', 0)",
        rusqlite::params![id, "0".repeat(64)],
    )
    .expect("insert");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_logged_from_many_requests_at_once_never_stop_the_server() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let mut server = serve(&["--db", &db]);
    let addr = server.addr;
    let damaged = damaged_game(Path::new(&db));
    // 400 requests at once, each logging an error and a request line: more than a pipe holds
    // (64 KiB), and nobody reads the pipe until the end.
    let mut tasks = Vec::new();
    for _ in 0..400 {
        let path = format!("/games/{damaged}");
        tasks.push(tokio::spawn(async move {
            let mut c = Client::new(addr);
            within(PATIENCE, async { c.get(&path).await.expect("answered") }).await
        }));
    }
    for t in tasks {
        let a = t.await.expect("task");
        assert_eq!(a.status, 500, "{}", a.text());
        assert!(a.text().contains("damaged"), "{}", a.text());
    }
    // Still serving: the description, a new game and a move.
    let mut c = Client::new(addr);
    let a = within(PATIENCE, async { c.get("/").await.expect("GET /") }).await;
    assert_eq!(a.status, 200);
    let g = within(PATIENCE, create(&mut c, "jungle")).await;
    let token = mover_token(&g, &g.state);
    let path = format!("/games/{}/moves", g.state.id);
    let a = within(PATIENCE, c.post(&path, &mv(&token, 0, "a7-a6")))
        .await
        .expect("a move");
    assert_eq!(a.status, 200, "{}", a.text());
    // The log says what happened: read what the pipe holds once the server is gone.
    let mut stderr = server.child.stderr.take().expect("stderr");
    let _ = server.child.kill();
    let _ = server.child.wait();
    let mut log = String::new();
    stderr.read_to_string(&mut log).expect("the log");
    assert!(
        log.contains("the stored pack's hash differs"),
        "the errors are logged: {}",
        &log[..log.len().min(2000)]
    );
    assert!(
        log.contains("status=500"),
        "each request is a line with its status: {}",
        &log[..log.len().min(2000)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_id_that_is_not_letters_and_digits_is_no_game_and_never_reaches_the_store() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let server = serve(&["--db", &db]);
    let mut c = Client::new(server.addr);
    for path in [
        "/games/%00",
        "/games/a%00b",
        "/games/%C3%A0",
        "/games/a.b/layout",
    ] {
        let a = within(PATIENCE, async { c.get(path).await.expect("answered") }).await;
        assert_eq!(a.status, 404, "{path}: {}", a.text());
        let body: serde_json::Value = a.json().expect("a JSON body");
        assert!(
            body["error"].as_str().unwrap().contains("no game"),
            "{path}: {body}"
        );
    }
}

/// Runs `ply ARGS` with a pseudo-terminal as its standard streams (util-linux's `script`), as
/// a person at a terminal would; answers what the terminal showed.
fn on_a_terminal(args: &str) -> String {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_ply"));
    let mut child = Command::new("script")
        .current_dir(root())
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs: install util-linux (bsdutils)");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let status = wait_within(&mut child, Duration::from_secs(300), &format!("ply {args}"));
    let text = reader.join().expect("reader");
    assert!(status.success(), "ply {args}: {status}\n{text}");
    text
}

#[test]
fn match_and_balance_finish_on_a_terminal_with_their_progress_bars() {
    let text = on_a_terminal(
        "match rulesets/breakthrough.toml --a random --b random --games 6 --threads 2",
    );
    assert!(text.contains("Elo A - B"), "{text}");
    assert!(text.contains("6/6"), "the progress bar is drawn: {text}");
    let text = on_a_terminal("balance rulesets/cats_rabbits.toml --player random --games 6");
    assert!(text.contains("Verdict"), "{text}");
    assert!(text.contains("6/6"), "the progress bar is drawn: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_busy_server_promptly() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let mut server = serve(&["--db", &db]);
    let addr = server.addr;
    let mut c = Client::new(addr);
    let g = create(&mut c, "jungle").await;
    let token = mover_token(&g, &g.state);
    let a = c
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&token, 0, "a7-a6"),
        )
        .await
        .expect("move");
    assert_eq!(a.status, 200, "{}", a.text());
    // Watchers and requests in flight do not hold the server up.
    let mut watchers = Vec::new();
    for _ in 0..20 {
        watchers.push(server_common::ws(addr, &g.state.id).await);
    }
    let pid = server.child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = wait_within(&mut server.child, Duration::from_secs(30), "ply serve");
    assert!(status.success(), "SIGTERM is a normal stop: {status}");
    let mut log = String::new();
    server
        .child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("log");
    assert!(log.contains("SIGTERM: stopping"), "{log}");
    drop(watchers);
}

/// A PostgreSQL cluster of the test's own (`initdb` and `pg_ctl` of the machine's
/// PostgreSQL, in a temporary folder, on a free port), so that it can be stopped and started
/// again under load. Run as the `postgres` user when the test runs as root (PostgreSQL
/// refuses root). Stopped (immediately) when dropped.
struct Cluster {
    bin: std::path::PathBuf,
    data: std::path::PathBuf,
    port: u16,
    as_root: bool,
}

impl Cluster {
    fn run(&self, program: &str, args: &[&str]) {
        let tool = self.bin.join(program);
        let mut cmd = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&tool);
            c
        } else {
            Command::new(&tool)
        };
        let out = cmd
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{} runs: {e}", tool.display()));
        assert!(
            out.status.success(),
            "{program} {args:?}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn new() -> Cluster {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .expect("PostgreSQL's programs in /usr/lib/postgresql (apt-get install postgresql)")
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|b| b.join("pg_ctl").exists())
            .max()
            .expect("a PostgreSQL version with pg_ctl");
        let dir = temp_dir("ply_pg_cluster");
        let as_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        if as_root {
            let ok = Command::new("chown")
                .args(["-R", "postgres"])
                .arg(&dir)
                .status()
                .expect("chown");
            assert!(ok.success());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let c = Cluster {
            bin,
            data: dir.join("data"),
            port,
            as_root,
        };
        let data = c.data.display().to_string();
        c.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        c.start();
        c
    }

    fn start(&self) {
        let data = self.data.display().to_string();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port, data
        );
        let log = format!("{data}/../server.log");
        self.run(
            "pg_ctl",
            &[
                "-D", &data, "-o", &options, "-l", &log, "-w", "-t", "60", "start",
            ],
        );
    }

    fn stop(&self, mode: &str) {
        let data = self.data.display().to_string();
        self.run(
            "pg_ctl",
            &["-D", &data, "-m", mode, "-w", "-t", "60", "stop"],
        );
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data.display().to_string();
        let tool = self.bin.join("pg_ctl");
        let mut cmd = if self.as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&tool);
            c
        } else {
            Command::new(&tool)
        };
        let _ = cmd
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// What one client playing one game through an outage saw.
#[derive(Debug, Default)]
struct Played {
    /// The moves acknowledged (200), in order: the game's log must be exactly these.
    acknowledged: Vec<String>,
    /// Requests answered 503 (each with `Retry-After`).
    refused: usize,
    /// The longest any request took to be answered.
    slowest: Duration,
    /// When the last 503 was answered, and when the first move after it was acknowledged.
    last_refused: Option<Instant>,
    first_after: Option<Instant>,
}

/// Plays `moves` moves of game `g` through `addr`, each with an idempotency key, retrying a
/// 503 (after its `Retry-After`) or a lost answer with the same key and version until it is
/// acknowledged.
async fn play_through(
    addr: SocketAddr,
    g: ply_server::api::CreatedGame,
    moves: usize,
    pause: Duration,
) -> Played {
    let mut c = Client::new(addr);
    let mut played = Played::default();
    let mut state = g.state.clone();
    let mut n = 0;
    while played.acknowledged.len() < moves && state.status == ply_server::api::GameStatus::Playing
    {
        let pick = state.legal_moves[n % state.legal_moves.len()].clone();
        let token = mover_token(&g, &state);
        let mut req = mv(&token, state.version, &pick);
        req.idempotency_key = Some(format!("k{}", state.version));
        let path = format!("/games/{}/moves", g.state.id);
        loop {
            let asked = Instant::now();
            let answer = within(PATIENCE, c.post(&path, &req)).await;
            played.slowest = played.slowest.max(asked.elapsed());
            match answer {
                Ok(a) if a.status == 200 => {
                    if played.last_refused.is_some() && played.first_after.is_none() {
                        played.first_after = Some(Instant::now());
                    }
                    state = a.json().expect("a state");
                    played.acknowledged.push(pick.clone());
                    break;
                }
                Ok(a) if a.status == 503 => {
                    assert_eq!(a.retry_after.as_deref(), Some("1"), "{}", a.text());
                    played.refused += 1;
                    played.last_refused = Some(Instant::now());
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Ok(a) => panic!("move {pick}: {} {}", a.status, a.text()),
                // A connection lost mid-request: the same request again.
                Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        }
        n += 1;
        tokio::time::sleep(pause).await;
    }
    played
}

/// The moves stored for a game, in version order (versions checked to be 1, 2, 3...).
async fn stored_moves(url: &str, id: &str) -> Vec<String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL is back");
    tokio::spawn(conn);
    let rows = client
        .query(
            "SELECT version, kind, body FROM events WHERE game_id = $1 ORDER BY version",
            &[&id],
        )
        .await
        .expect("query");
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            assert_eq!(
                r.get::<_, i64>(0),
                i as i64 + 1,
                "game {id}: versions in a row"
            );
            assert_eq!(r.get::<_, &str>(1), "move");
            r.get::<_, String>(2)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_restart_under_load_is_survived_with_nothing_acknowledged_lost() {
    let cluster = Cluster::new();
    let url = cluster.url();
    let one = serve(&["--db", &url, "--log-level", "warn"]);
    let two = serve(&["--db", &url, "--log-level", "warn"]);
    let mut c = Client::new(one.addr);
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(create(&mut c, "jungle").await);
    }
    // A watcher on the other process, for pushes across processes after the restart.
    let watched = games[0].clone();
    let mut watcher = server_common::ws(two.addr, &watched.state.id).await;
    assert_eq!(server_common::next_state(&mut watcher).await.version, 0);
    // Seven clients play their games through the outage (the first game is kept for later).
    let players: Vec<_> = games[1..]
        .iter()
        .map(|g| {
            tokio::spawn(play_through(
                one.addr,
                g.clone(),
                40,
                Duration::from_millis(100),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let stopped = Instant::now();
    cluster.stop("fast");
    // While it is away: 503 with Retry-After, quickly (within the store's bound), and the
    // server itself answers.
    let asked = Instant::now();
    let a = within(PATIENCE, c.get(&format!("/games/{}", games[0].state.id)))
        .await
        .expect("answered");
    let refused_in = asked.elapsed();
    assert_eq!(a.status, 503, "{}", a.text());
    assert_eq!(a.retry_after.as_deref(), Some("1"));
    assert!(refused_in < Duration::from_secs(15), "{refused_in:?}");
    let a = within(PATIENCE, c.get("/")).await.expect("GET /");
    assert_eq!(a.status, 200);
    tokio::time::sleep(Duration::from_secs(3)).await;
    cluster.start();
    let restarted = Instant::now();
    let mut total = Played::default();
    let mut recovered = Duration::ZERO;
    for (p, g) in players.into_iter().zip(&games[1..]) {
        let p = p.await.expect("a player");
        assert!(!p.acknowledged.is_empty(), "{p:?}");
        if let Some(first) = p.first_after {
            recovered = recovered.max(first.saturating_duration_since(restarted));
        }
        // Nothing acknowledged is lost, nothing is stored twice: the game's log is exactly
        // its acknowledged moves.
        let stored = stored_moves(&url, &g.state.id).await;
        assert_eq!(stored, p.acknowledged, "game {}", g.state.id);
        total.refused += p.refused;
        total.slowest = total.slowest.max(p.slowest);
        total.acknowledged.extend(p.acknowledged);
    }
    // The other process listens again: a move through the first reaches its watcher.
    let token = mover_token(&watched, &watched.state);
    let first_move = watched.state.legal_moves[0].clone();
    let a = within(
        PATIENCE,
        c.post(
            &format!("/games/{}/moves", watched.state.id),
            &mv(&token, 0, &first_move),
        ),
    )
    .await
    .expect("a move");
    assert_eq!(a.status, 200, "{}", a.text());
    let pushed = within(PATIENCE, async {
        loop {
            let s = server_common::next_state(&mut watcher).await;
            if s.version >= 1 {
                return s;
            }
        }
    })
    .await;
    assert_eq!(pushed.moves, vec![first_move]);
    println!(
        "postgres restart: down {:.1} s; {} moves acknowledged and stored, {} requests \
         refused 503, slowest answer {:.2} s, first move acknowledged {:.2} s after the restart",
        restarted.duration_since(stopped).as_secs_f64(),
        total.acknowledged.len(),
        total.refused,
        total.slowest.as_secs_f64(),
        recovered.as_secs_f64()
    );
    assert!(total.refused > 0, "the outage was seen by the clients");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_held_by_another_process_is_503_then_the_same_move_goes_through() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db_text = db.display().to_string();
    let server = serve(&["--db", &db_text]);
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "jungle").await;
    let token = mover_token(&g, &g.state);
    let mut req = mv(&token, 0, "a7-a6");
    req.idempotency_key = Some("first".into());
    let path = format!("/games/{}/moves", g.state.id);
    // Another process takes the write lock and keeps it past the server's bounded wait.
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(&db).expect("opens");
        conn.execute_batch("BEGIN EXCLUSIVE")
            .expect("the write lock");
        locked_tx.send(()).expect("told");
        let _ = release_rx.recv();
        conn.execute_batch("COMMIT").expect("released");
    });
    locked_rx.recv().expect("locked");
    let asked = Instant::now();
    let a = within(PATIENCE, c.post(&path, &req))
        .await
        .expect("answered");
    let waited = asked.elapsed();
    assert_eq!(a.status, 503, "{}", a.text());
    assert_eq!(a.retry_after.as_deref(), Some("1"));
    assert!(
        waited < Duration::from_secs(30),
        "a bounded wait, not a hang: {waited:?}"
    );
    // Reads go on meanwhile (write-ahead log).
    let a = within(PATIENCE, c.get(&format!("/games/{}", g.state.id)))
        .await
        .expect("answered");
    assert_eq!(a.status, 200, "{}", a.text());
    release_tx.send(()).expect("release");
    holder.join().expect("holder");
    let a = within(PATIENCE, c.post(&path, &req))
        .await
        .expect("answered");
    assert_eq!(a.status, 200, "{}", a.text());
    let s: ply_server::api::GameState = a.json().expect("a state");
    assert_eq!(s.moves, vec!["a7-a6".to_string()]);
    println!(
        "sqlite write lock held by another process: the move answered 503 in {:.2} s, then 200",
        waited.as_secs_f64()
    );
}

#[test]
fn a_database_that_cannot_be_written_is_refused_at_start() {
    let dir = temp_dir("ply_stays_up");
    let db = dir.join("games.db");
    // Made once, writable.
    drop(rusqlite::Connection::open(&db).expect("made"));
    // Then offered read-only: SQLite's own read-only mode (permissions do not stop root).
    let ro = format!("file:{}?mode=ro", db.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .current_dir(root())
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &ro])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply serve starts");
    let status = wait_within(&mut child, Duration::from_secs(60), "ply serve");
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(1), "{out}{err}");
    assert!(!out.contains("listening"), "{out}");
    assert!(err.contains("cannot be written"), "{err}");
}

/// A WebSocket client that only reads: the handshake by hand, then nothing is ever written.
/// Answers the stream and what it read past the handshake.
async fn silent_ws(addr: SocketAddr, id: &str) -> (tokio::net::TcpStream, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let hello = format!(
        "GET /games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(hello.as_bytes()).await.expect("handshake");
    let mut read = Vec::new();
    let end = loop {
        if let Some(i) = read.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let mut buf = [0u8; 4096];
        let n = within(PATIENCE, s.read(&mut buf)).await.expect("read");
        assert!(n > 0, "closed during the handshake");
        read.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&read[..end]).to_string();
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    (s, read[end..].to_vec())
}

/// Reads a WebSocket's frames (a server's: never masked) until the connection ends; answers
/// each frame's opcode and payload.
async fn frames_until_closed(
    mut s: tokio::net::TcpStream,
    mut read: Vec<u8>,
) -> Vec<(u8, Vec<u8>)> {
    use tokio::io::AsyncReadExt;
    s.read_to_end(&mut read).await.expect("read to the end");
    let mut frames = Vec::new();
    let mut at = 0;
    while at + 2 <= read.len() {
        let op = read[at] & 0x0f;
        let (len, head) = match read[at + 1] & 0x7f {
            126 => (u16::from_be_bytes([read[at + 2], read[at + 3]]) as usize, 4),
            127 => (
                u64::from_be_bytes(read[at + 2..at + 10].try_into().expect("8 bytes")) as usize,
                10,
            ),
            n => (n as usize, 2),
        };
        let start = at + head;
        frames.push((op, read[start..start + len].to_vec()));
        at = start + len;
    }
    frames
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_count_in_the_connection_cap_and_a_silent_one_is_closed() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    // The game is made by an earlier run on the same file, so that no connection but the
    // test's WebSockets is held when they are counted (a connection the test made and dropped
    // is let go by the server at a time of its own: waiting for it was the race).
    let id = {
        let before = serve(&["--db", &db]);
        let mut c = Client::new(before.addr);
        create(&mut c, "jungle").await.state.id
    };
    let server = serve(&["--db", &db, "--max-connections", "4", "--idle-timeout", "2"]);
    let addr = server.addr;
    // One live client that reads (and so answers pings), three silent ones. A silent one
    // writes nothing at all, not even the pong a WebSocket library writes as it reads a ping:
    // such a pong met the closed socket, and its reset made the close frame unreadable (the
    // race this test had: no close code seen on any of the three).
    let mut live = server_common::ws(addr, &id).await;
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(silent_ws(addr, &id).await);
    }
    // The cap is reached: a fifth connection is refused.
    let url = format!("ws://{addr}/games/{id}/ws");
    let refused = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(&url))
        .await
        .expect("answered");
    assert!(refused.is_err(), "a WebSocket past the cap of 4 is refused");
    // The live one is pinged and stays open past twice the idle time.
    let start = Instant::now();
    let mut pings = 0;
    while start.elapsed() < Duration::from_secs(5) {
        match tokio::time::timeout(Duration::from_secs(1), live.next()).await {
            Err(_) => {}
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(Message::Close(c)))) => panic!("a live client is closed: {c:?}"),
            Ok(Some(Ok(_))) => {}
            Ok(other) => panic!("the live socket ends: {other:?}"),
        }
    }
    assert!(pings >= 2, "pinged {pings} times in 5 s");
    // Every silent one was closed by the server with a close frame of code 1001 (going away),
    // then the connection ended.
    for (stream, read) in silent {
        let frames = within(PATIENCE, frames_until_closed(stream, read)).await;
        let codes: Vec<u16> = frames
            .iter()
            .filter(|(op, _)| *op == 8)
            .map(|(_, p)| u16::from_be_bytes([p[0], p[1]]))
            .collect();
        assert_eq!(codes, [1001], "closed as going away: {frames:?}");
        assert!(frames.iter().any(|(op, _)| *op == 9), "pinged before");
    }
    // Their places are free again.
    let mut c = Client::new(addr);
    let a = within(PATIENCE, c.get("/")).await.expect("GET /");
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_is_cut_at_the_request_timeout_and_normal_clients_get_in() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let server = serve(&[
        "--db",
        &db,
        "--max-connections",
        "4",
        "--request-timeout",
        "2",
    ]);
    let addr = server.addr;
    // Four connections take every place, each sending a head and then a body byte by byte,
    // a byte a second (a head is on time; the body never ends).
    let mut slow = Vec::new();
    for _ in 0..4 {
        slow.push(tokio::spawn(async move {
            let mut s = tokio::net::TcpStream::connect(addr)
                .await
                .expect("connects");
            s.write_all(
                b"POST /games HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
                  content-length: 100\r\n\r\n{",
            )
            .await
            .expect("head");
            let started = Instant::now();
            let mut answer = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                tokio::select! {
                    n = s.read(&mut buf) => match n {
                        Ok(0) | Err(_) => break,
                        Ok(n) => answer.extend_from_slice(&buf[..n]),
                    },
                    _ = tokio::time::sleep(Duration::from_secs(1)) => {
                        if s.write_all(b" ").await.is_err() { break; }
                    }
                }
                assert!(started.elapsed() < PATIENCE, "the slow body is never cut");
            }
            (
                started.elapsed(),
                String::from_utf8_lossy(&answer).into_owned(),
            )
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = Instant::now();
    let mut c = Client::new(addr);
    let a = within(PATIENCE, async {
        loop {
            match c.get("/").await {
                Ok(a) => break a,
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    })
    .await;
    assert_eq!(a.status, 200);
    let served_in = asked.elapsed();
    for t in slow {
        let (took, answer) = t.await.expect("a slow client");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("longer than 2 s"), "{answer}");
        assert!(took < Duration::from_secs(20), "{took:?}");
    }
    println!(
        "slow bodies holding every connection: a normal client served after {:.2} s",
        served_in.as_secs_f64()
    );
}

/// A pack extending Gomoku whose end rule inlines a definition that doubles `levels` times.
fn doubling_pack(levels: usize) -> String {
    let mut text = "extends = \"gomoku.toml\"\n[define]\nd0 = 'line(to, all)'\n".to_string();
    for i in 1..=levels {
        text.push_str(&format!("d{i} = 'd{} + d{}'\n", i - 1, i - 1));
    }
    text.push_str(&format!(
        "[end.never]\ndoc = \"never\"\nwhen = 'd{levels} < 0'\nwinner = 'player'\n"
    ));
    text
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (name) state ppid ...`: the name may hold spaces, so read after the last `)`.
        let after = stat.rsplit_once(')').map_or("", |(_, a)| a);
        let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid)
            && let Ok(n) = entry.file_name().to_string_lossy().parse()
        {
            out.push(n);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_and_an_exploding_pasted_pack_are_refused_and_play_goes_on() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let server = serve(&["--db", &db]);
    let addr = server.addr;
    let mut c = Client::new(addr);
    let g = create(&mut c, "jungle").await;
    // A slow pack (2^18 copies, minutes of work), an exploding one (2^40), each checked
    // twice at once, in worker processes killed at the 3 s deadline.
    let mut checks = Vec::new();
    for levels in [18, 40, 18, 40] {
        checks.push(tokio::spawn(async move {
            let mut c = Client::new(addr);
            let started = Instant::now();
            let a = c
                .post(
                    "/playground/check",
                    &ply_server::api::PastedPack {
                        text: doubling_pack(levels),
                        options: Default::default(),
                        engine: None,
                        clock: None,
                    },
                )
                .await
                .expect("POST");
            (levels, a, started.elapsed())
        }));
    }
    // Meanwhile a normal client plays, each answer within 500 ms.
    let mut s = g.state.clone();
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(4) {
        let m = s.legal_moves[s.version as usize % s.legal_moves.len()].clone();
        let t = Instant::now();
        let a = within(
            PATIENCE,
            c.post(
                &format!("/games/{}/moves", s.id),
                &mv(&mover_token(&g, &s), s.version, &m),
            ),
        )
        .await
        .expect("POST");
        slowest = slowest.max(t.elapsed());
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("state");
        let t = Instant::now();
        assert_eq!(c.get("/").await.expect("GET /").status, 200);
        slowest = slowest.max(t.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        slowest < Duration::from_millis(500),
        "a normal request took {slowest:?}"
    );
    for check in checks {
        let (levels, a, took) = check.await.expect("task");
        let why = a.text();
        // Refused by the worker's limits (killed at its deadline or past its memory), or
        // before that by the language's compile budget (a located diagnostic).
        let killed = a.status == 422
            && (why.contains("took longer than 3.0 s") || why.contains("MiB of memory"));
        let budget = a.status == 200
            && why.contains("\"ok\":false")
            && why.contains("grows too large when its definitions are expanded");
        assert!(killed || budget, "{levels}: {} {why}", a.status);
        // The deadline, and at most the wait for one of the 2 checks at once before it.
        assert!(
            took < Duration::from_secs(8),
            "{levels}: answered after {took:?}"
        );
    }
    // No worker is left running: each was killed at its deadline.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(children(server.child.id()), Vec::<u32>::new());
    // A normal pasted pack is still checked.
    let ok = c
        .post(
            "/playground/check",
            &ply_server::api::PastedPack {
                text: doubling_pack(2),
                options: Default::default(),
                engine: None,
                clock: None,
            },
        )
        .await
        .expect("POST");
    assert_eq!(ok.status, 200, "{}", ok.text());
    let report: ply_server::api::PackCheck = ok.json().expect("a report");
    assert!(report.ok, "{:?}", report.diagnostics);
}

/// An engine's seat is stored with its game: a server killed while its engine thinks, started
/// again on the same database, plays the engine's move once the game is loaded, and goes on.
async fn an_engine_plays_on_after_a_restart(db: &[&str]) {
    use ply_server::api::{CreateGame, CreatedGame, EngineSeat, GameState};
    let first = serve(db);
    let mut c = Client::new(first.addr);
    let created = c
        .post(
            "/games",
            &CreateGame {
                pack: "breakthrough".into(),
                options: Default::default(),
                // Thinks for 4 s a move: long enough to kill the server meanwhile.
                engine: Some(EngineSeat {
                    player: "mcts:4s".into(),
                    seat: None,
                }),
                clock: None,
            },
        )
        .await
        .expect("POST /games");
    assert_eq!(created.status, 201, "{}", created.text());
    let g: CreatedGame = created.json().expect("a game");
    assert_eq!(g.seats.len(), 1, "the engine's seat has no token");
    let (me, token) = g.seats.0[0].clone();
    assert_eq!(me, g.state.players[0]);
    let path = format!("/games/{}", g.state.id);
    let m = g.state.legal_moves[0].clone();
    let a = c
        .post(&format!("{path}/moves"), &mv(&token, 0, &m))
        .await
        .expect("a move");
    assert_eq!(a.status, 200, "{}", a.text());
    // Killed while the engine thinks.
    drop(c);
    drop(first);
    let second = serve(db);
    let mut c = Client::new(second.addr);
    let s: GameState = c.get(&path).await.expect("GET").json().expect("state");
    assert_eq!(s.version, 1, "the engine had not moved before the kill");
    // Loading the game started its engine: it moves within its time.
    let start = Instant::now();
    let moved = loop {
        let s: GameState = c.get(&path).await.expect("GET").json().expect("state");
        if s.version >= 2 {
            break s;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the engine's seat waits after a restart"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(moved.version, 2);
    assert_eq!(moved.to_move.as_deref(), Some(me.as_str()));
    println!("the engine moved {:?} after the restart", start.elapsed());
    // And goes on.
    let m = moved.legal_moves[0].clone();
    let a = c
        .post(&format!("{path}/moves"), &mv(&token, 2, &m))
        .await
        .expect("a move");
    assert_eq!(a.status, 200, "{}", a.text());
    let start = Instant::now();
    loop {
        let s: GameState = c.get(&path).await.expect("GET").json().expect("state");
        if s.version >= 4 {
            break;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the engine stops after a restart"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_an_engine_plays_on_after_a_restart() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    an_engine_plays_on_after_a_restart(&["--db", &db]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_an_engine_plays_on_after_a_restart() {
    let schema = server_common::pg_schema();
    let url = server_common::postgres_url();
    an_engine_plays_on_after_a_restart(&["--db", &url, "--schema", &schema]).await;
    server_common::drop_schema(&schema).await;
}

/// The most a move through one process on a SQLite file may take to be pushed to a watcher
/// of another process on the same file: the store looks for other processes' changes every
/// 200 ms (`SQLITE_POLL`); the rest is margin for a loaded two-core machine.
const CROSS_PROCESS_PUSH: Duration = Duration::from_secs(2);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_move_through_one_process_is_pushed_to_a_watcher_of_another() {
    let db = temp_dir("ply_stays_up").join("games.db");
    let db = db.display().to_string();
    let a = serve(&["--db", &db]);
    let b = serve(&["--db", &db]);
    let mut c = Client::new(a.addr);
    let g = create(&mut c, "breakthrough").await;
    let mut watcher = server_common::ws(b.addr, &g.state.id).await;
    let first = server_common::next_state(&mut watcher).await;
    assert_eq!(first.version, 0);
    let mut s = g.state.clone();
    let mut slowest = Duration::ZERO;
    for _ in 0..10 {
        let m = s.legal_moves[0].clone();
        let start = Instant::now();
        let a = c
            .post(
                &format!("/games/{}/moves", s.id),
                &mv(&mover_token(&g, &s), s.version, &m),
            )
            .await
            .expect("a move");
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("state");
        let pushed = tokio::time::timeout(PATIENCE, server_common::next_state(&mut watcher))
            .await
            .expect("pushed through the other process");
        let took = start.elapsed();
        assert_eq!(pushed.version, s.version, "every move is pushed, in order");
        assert_eq!(pushed.moves, s.moves);
        slowest = slowest.max(took);
    }
    println!("slowest push across processes: {slowest:?}");
    assert!(
        slowest < CROSS_PROCESS_PUSH,
        "a push across processes took {slowest:?}"
    );
}
