//! A game's engine, stored with it, starts when the game is loaded (lazily, by whatever
//! touches it): after a restart, the WebSocket a board opens again is enough for the engine
//! to move; a game its player left is dropped from memory with its engine, and the engine
//! comes back when the player does.

mod common;

use common::*;
use ply_server::Config;
use ply_server::api::{CreateGame, CreatedGame, EngineSeat, GameState};
use ply_server::client::Client;
use std::time::{Duration, Instant};

fn engine_game(player: &str) -> CreateGame {
    CreateGame {
        pack: "breakthrough".into(),
        options: Default::default(),
        engine: Some(EngineSeat {
            player: player.into(),
            seat: None,
        }),
        clock: None,
    }
}

async fn games_in_memory(c: &mut Client) -> u64 {
    let a = c.get("/").await.expect("GET /");
    a.json::<serde_json::Value>().expect("json")["games_in_memory"]
        .as_u64()
        .expect("a count")
}

/// The server stops while its engine thinks; a server started again on the same file plays
/// the engine's move as soon as the game is touched, here by a WebSocket only (what the web
/// board opens again when its connection is lost), which is pushed the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_a_websocket_alone_gets_the_engines_move() {
    let db = temp_dir("ply_engines").join("games.db");
    let config = Config {
        packs: rulesets(),
        db: db.display().to_string(),
        ..Config::default()
    };
    let first = start(config.clone()).await;
    let mut c = Client::new(first.addr);
    // Thinks for 3 s a move: the server is stopped meanwhile.
    let a = c
        .post("/games", &engine_game("mcts:3s"))
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("a game");
    let (_, token) = g.seats.0[0].clone();
    let id = g.state.id.clone();
    let m = g.state.legal_moves[0].clone();
    let a = c
        .post(&format!("/games/{id}/moves"), &mv(&token, 0, &m))
        .await
        .expect("a move");
    assert_eq!(a.status, 200, "{}", a.text());
    drop(c);
    drop(first);
    // The first server's engine ends with its hub: it stores nothing.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let second = start(config).await;
    let start_at = Instant::now();
    let mut w = ws(second.addr, &id).await;
    let s = next_state(&mut w).await;
    assert_eq!(s.version, 1, "the stopped server's engine stored a move");
    let s = next_state(&mut w).await;
    assert_eq!(s.version, 2, "the engine's move is pushed");
    assert_eq!(s.moves.len(), 2);
    println!(
        "the engine moved {:?} after the restart",
        start_at.elapsed()
    );
}

/// A game against an engine that its player left (no request, no watcher) leaves memory like
/// any other after `keep_idle_games`, and its engine with it; the player's next move loads it
/// again, and the engine answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_with_its_engine_leaves_memory_and_the_engine_comes_back() {
    let db = temp_dir("ply_engines").join("games.db");
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        keep_idle_games: Duration::from_millis(300),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let a = c
        .post("/games", &engine_game("alphabeta:depth=1"))
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("a game");
    let (_, token) = g.seats.0[0].clone();
    let id = g.state.id.clone();
    let state = async |c: &mut Client| -> GameState {
        c.get(&format!("/games/{id}"))
            .await
            .expect("GET")
            .json()
            .expect("state")
    };
    let mut s = g.state.clone();
    for round in 0..2 {
        let m = s.legal_moves[0].clone();
        let a = c
            .post(&format!("/games/{id}/moves"), &mv(&token, s.version, &m))
            .await
            .expect("a move");
        assert_eq!(a.status, 200, "round {round}: {}", a.text());
        let want = s.version + 2;
        let t = Instant::now();
        s = loop {
            let now = state(&mut c).await;
            if now.version >= want {
                break now;
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "round {round}: the engine did not answer"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(s.version, want);
        // Left alone: the game and its engine leave memory.
        let t = Instant::now();
        while games_in_memory(&mut c).await > 0 {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "round {round}: a game left with its engine stays in memory"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// An engine on a clock thinks within what its time left affords, not for its spec's time:
/// `mcts:5s` on a clock of 4 s a side answers each move in about a twentieth of its time left,
/// and after several moves it still has most of it (it would have lost on time at 5 s a move).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_on_a_clock_thinks_within_its_time_left() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let req = CreateGame {
        clock: Some(ply_server::api::TimeControl {
            initial_ms: 4_000,
            increment_ms: 0,
        }),
        ..engine_game("mcts:5s")
    };
    let a = c.post("/games", &req).await.expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("a game");
    let (_, token) = g.seats.0[0].clone();
    let id = g.state.id.clone();
    let mut w = ws(server.addr, &id).await;
    let mut st: GameState = next_state(&mut w).await;
    for _ in 0..4 {
        let m = st.legal_moves[0].clone();
        let a = c
            .post(&format!("/games/{id}/moves"), &mv(&token, st.version, &m))
            .await
            .expect("a move");
        assert_eq!(a.status, 200, "{}", a.text());
        let asked = Instant::now();
        let version = st.version + 2;
        while st.version < version {
            st = next_state(&mut w).await;
        }
        assert!(
            asked.elapsed() < Duration::from_millis(1_500),
            "the engine thought {:?}",
            asked.elapsed()
        );
    }
    let clock = st.clock.expect("clocks");
    let engine_left = clock.remaining_ms[1];
    assert!(
        engine_left > 2_500,
        "the engine spent {} ms of 4,000 on four moves",
        4_000 - engine_left
    );
    assert_eq!(st.status, ply_server::api::GameStatus::Playing);
}

#[test]
fn a_move_budget_is_a_share_of_the_time_left_and_never_more_than_half() {
    use ply_server::bots::move_budget;
    assert_eq!(move_budget(60_000, 0), Duration::from_millis(3_000));
    assert_eq!(move_budget(60_000, 2_000), Duration::from_millis(4_500));
    // A large increment with little time left: half the time left, not the increment.
    assert_eq!(move_budget(1_000, 10_000), Duration::from_millis(500));
    assert_eq!(move_budget(0, 0), Duration::from_millis(1));
}
