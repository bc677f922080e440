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
