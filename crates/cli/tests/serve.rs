//! `ply serve` as real processes: killed with SIGKILL in the middle of a stream of moves and
//! restarted (nothing acknowledged lost, nothing applied twice, the games go on), and two
//! processes on one PostgreSQL database with racing clients connected to different processes.

#[path = "../../server/tests/common/mod.rs"]
mod server_common;

use ply_server::api::{GameState, GameStatus};
use ply_server::client::Client;
use server_common::{create, mover_token, mv, pg_schema, postgres_url, race, temp_dir};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

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

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Starts `ply serve` on a free port with these extra flags; waits for its address.
fn serve(flags: &[&str]) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .current_dir(root())
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
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

/// A move acknowledged by the server: the version it made and the move.
type Acked = Vec<(u64, String)>;

/// Plays `game` (by its seats), each request with an idempotency key
/// of its own, until `stop` or an error; returns the acknowledged moves and the request in
/// flight when it stopped, if any.
async fn stream(
    addr: SocketAddr,
    g: ply_server::api::CreatedGame,
    mut s: GameState,
    stop: tokio::sync::watch::Receiver<bool>,
    made: Arc<AtomicUsize>,
) -> (Acked, Option<(u64, String, String, String)>) {
    let mut c = Client::new(addr);
    let mut acked = Vec::new();
    loop {
        if *stop.borrow() || s.status != GameStatus::Playing {
            return (acked, None);
        }
        // Varied moves, so that a game of Jungle goes on for long.
        let m = s.legal_moves[(s.version as usize * 7) % s.legal_moves.len()].clone();
        let key = format!("{}-{}", s.id, s.version);
        let token = mover_token(&g, &s);
        let mut req = mv(&token, s.version, &m);
        req.idempotency_key = Some(key.clone());
        match c.post(&format!("/games/{}/moves", s.id), &req).await {
            Ok(a) if a.status == 200 => {
                s = a.json().expect("state");
                acked.push((s.version, m));
                made.fetch_add(1, Ordering::Relaxed);
            }
            Ok(a) => panic!("move refused: {} {}", a.status, a.text()),
            Err(_) => return (acked, Some((s.version, m, key, token))),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_stream_loses_nothing_acknowledged_and_applies_nothing_twice() {
    let dir = temp_dir("ply_crash");
    let db = dir.join("games.db").display().to_string();
    let mut server = serve(&["--db", &db]);
    // Every game so far, with the moves acknowledged (or retried to success) in order.
    let mut all: Vec<(ply_server::api::CreatedGame, Vec<String>)> = Vec::new();
    for round in 0..3 {
        // Four new games a round (a game may end), streamed until the kill.
        let mut c = Client::new(server.addr);
        let first = all.len();
        for _ in 0..4 {
            all.push((create(&mut c, "jungle").await, Vec::new()));
        }
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let made = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = all[first..]
            .iter()
            .map(|(g, _)| {
                tokio::spawn(stream(
                    server.addr,
                    g.clone(),
                    g.state.clone(),
                    stop_rx.clone(),
                    made.clone(),
                ))
            })
            .collect();
        // Mid-stream: the moves are flowing when the process is killed (at least 40 made,
        // however slow the machine, then a little more).
        let waiting = std::time::Instant::now();
        while made.load(Ordering::Relaxed) < 40 && waiting.elapsed() < Duration::from_secs(20) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        tokio::time::sleep(Duration::from_millis(50 + 50 * round)).await;
        drop(server);
        let _ = stop_tx.send(true);
        let mut in_flight = Vec::new();
        let mut acked_now = 0;
        for (i, t) in tasks.into_iter().enumerate() {
            let (acked, pending) = t.await.expect("the stream");
            acked_now += acked.len();
            let history = &mut all[first + i].1;
            for (v, m) in acked {
                assert_eq!(v as usize, history.len() + 1, "acknowledged out of order");
                history.push(m);
            }
            in_flight.push(pending);
        }
        assert!(
            acked_now > 0,
            "round {round}: no move was made before the kill"
        );
        server = serve(&["--db", &db]);
        let mut c = Client::new(server.addr);
        let pending = in_flight.iter().flatten().count();
        let mut stored_unacknowledged = 0;
        for (i, (g, history)) in all.iter_mut().enumerate() {
            let a = c.get(&format!("/games/{}", g.state.id)).await.expect("GET");
            let now: GameState = a.json().expect("state");
            // Every acknowledged move is there, in order; at most the one in flight more.
            assert!(
                now.moves.starts_with(history),
                "game {i}: stored {:?}, acknowledged {history:?}",
                now.moves
            );
            assert!(now.moves.len() <= history.len() + 1);
            assert_eq!(now.version as usize, now.moves.len());
            stored_unacknowledged += now.moves.len() - history.len();
            // The request in flight, retried with its key: applied once, whether or not it
            // was stored before the kill.
            if let Some(Some((version, m, key, token))) = i
                .checked_sub(first)
                .and_then(|j| in_flight.get_mut(j))
                .map(Option::take)
            {
                let mut req = mv(&token, version, &m);
                req.idempotency_key = Some(key);
                let a = c
                    .post(&format!("/games/{}/moves", g.state.id), &req)
                    .await
                    .expect("POST");
                assert_eq!(a.status, 200, "game {i}: the retry: {}", a.text());
                history.push(m);
            }
            let a = c.get(&format!("/games/{}", g.state.id)).await.expect("GET");
            let now: GameState = a.json().expect("state");
            assert_eq!(&now.moves, history, "game {i}");
        }
        eprintln!(
            "round {round}: {acked_now} moves acknowledged before the kill, {pending} in flight, \
             {stored_unacknowledged} of those stored unacknowledged; all retried once"
        );
    }
    // The games go on.
    let mut c = Client::new(server.addr);
    for (g, history) in &all {
        let a = c.get(&format!("/games/{}", g.state.id)).await.expect("GET");
        let s: GameState = a.json().expect("state");
        if s.status == GameStatus::Playing {
            let token = mover_token(g, &s);
            let a = c
                .post(
                    &format!("/games/{}/moves", s.id),
                    &mv(&token, s.version, &s.legal_moves[0]),
                )
                .await
                .expect("POST");
            assert_eq!(a.status, 200, "{}", a.text());
            assert_eq!(
                a.json::<GameState>().expect("state").moves.len(),
                history.len() + 1
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_postgres_keep_one_move_per_version() {
    let schema = pg_schema();
    let url = postgres_url();
    let one = serve(&["--db", &url, "--schema", &schema]);
    let two = serve(&["--db", &url, "--schema", &schema]);
    let races = race(one.addr, two.addr, 300).await;
    assert_eq!(races.races, 300);
    // Each process sees every game as the other left it.
    let mut c1 = Client::new(one.addr);
    let mut c2 = Client::new(two.addr);
    for (game, applied) in &races.applied {
        let s1: GameState = c1
            .get(&format!("/games/{game}"))
            .await
            .expect("GET")
            .json()
            .expect("state");
        let s2: GameState = c2
            .get(&format!("/games/{game}"))
            .await
            .expect("GET")
            .json()
            .expect("state");
        assert_eq!(s1, s2);
        assert_eq!(s1.version, *applied);
    }
    drop((one, two));
    server_common::drop_schema(&schema).await;
}
