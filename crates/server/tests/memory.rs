//! The server's memory, counted by the allocator (this test binary's own global allocator
//! counts the bytes live and their peak; the server runs in-process): a burst of game
//! creations takes at most a few packs' compilations at once, not one per request in flight
//! (200 creations at once once took the server from 9 to 758 MiB, and glibc kept it); a game
//! held in memory keeps a bounded amount per move; a WebSocket costs a few KiB; the compiled
//! packs are shared by their games and leave memory with the last of them.
//!
//! One test function, so that nothing else allocates in the process meanwhile.

mod common;

use common::*;
use ply_server::Config;
use ply_server::api::GameState;
use ply_server::client::Client;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Duration;

/// Counts the bytes allocated and not yet freed, and the most there were.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

fn grew(by: isize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size() as isize);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size as isize - layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Lets the server's background work settle (pushes written, tasks ended).
async fn settle() {
    tokio::time::sleep(Duration::from_millis(300)).await;
}

const KIB: isize = 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_is_bounded_by_construction() {
    let db = temp_dir("ply_memory").join("games.db");
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        keep_idle_games: Duration::from_millis(400),
        // No limit on creations, as in the load example: the bound is the server's own.
        limits: ply_server::limits::Limits {
            games: ply_server::limits::Limit {
                per_minute: 0,
                at_once: 4096,
            },
            ..Default::default()
        },
        ..Config::default()
    })
    .await;
    let addr = server.addr;
    let mut c = Client::new(addr);

    // One creation alone: its peak, a pack compiled (Jungle's tables are megabytes).
    let first = create(&mut c, "jungle").await;
    settle().await;
    let base = live();
    PEAK.store(base, Ordering::Relaxed);
    let one = create(&mut c, "jungle").await;
    let one_peak = PEAK.load(Ordering::Relaxed) - base;
    assert!(
        one_peak > 1024 * KIB,
        "a creation compiles the pack: {one_peak} B"
    );

    // 40 creations at once: at most COMPILES_AT_ONCE compilations live at a time, and no
    // request keeps a compiled pack of its own while it waits for the store.
    settle().await;
    let base = live();
    PEAK.store(base, Ordering::Relaxed);
    let burst: Vec<_> = (0..40)
        .map(|_| {
            tokio::spawn(async move {
                let mut c = Client::new(addr);
                create(&mut c, "jungle").await
            })
        })
        .collect();
    for t in burst {
        t.await.expect("a creation");
    }
    let burst_peak = PEAK.load(Ordering::Relaxed) - base;
    let bound = (ply_server::games::COMPILES_AT_ONCE as isize + 2) * one_peak;
    println!(
        "one creation: peak {} KiB; 40 at once: peak {} KiB (bound {} KiB)",
        one_peak / KIB,
        burst_peak / KIB,
        bound / KIB
    );
    assert!(
        burst_peak < bound,
        "40 creations at once peaked at {} KiB, past {} KiB: more compiled packs live at once \
         than COMPILES_AT_ONCE",
        burst_peak / KIB,
        bound / KIB
    );
    // The games of one pack share its compiled rules: 42 games, one pack in memory.
    let index: serde_json::Value = c.get("/").await.expect("GET /").json().expect("json");
    assert_eq!(index["packs_in_memory"], 1, "{index}");

    // A WebSocket costs the server a few KiB, not tungstenite's 128 KiB read buffer (the
    // clients here read into 4 KiB too, so that what is counted is the server's).
    settle().await;
    let base = live();
    let mut watchers = Vec::new();
    for _ in 0..50 {
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096);
        let (mut w, _) = tokio_tungstenite::connect_async_with_config(
            format!("ws://{addr}/games/{}/ws", first.state.id),
            Some(config),
            false,
        )
        .await
        .expect("the WebSocket connects");
        next_state(&mut w).await;
        watchers.push(w);
    }
    settle().await;
    let per_socket = (live() - base) / 50;
    println!("a WebSocket and its client: {per_socket} B");
    assert!(
        per_socket < 64 * KIB,
        "a WebSocket and its client take {} KiB",
        per_socket / KIB
    );
    drop(watchers);

    // A game held in memory (watched) keeps a bounded amount a move: its events and the
    // kernel's history, not states, pushes or legal move lists.
    let g = one;
    let mut w = ws(addr, &g.state.id).await;
    next_state(&mut w).await;
    let reader = tokio::spawn(async move {
        // Read every push, as a board does, until the socket closes.
        use futures_util::StreamExt;
        while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(60), w.next()).await {}
    });
    // The other games leave memory first (nobody watches them), so that only this one
    // changes what is live.
    let t = std::time::Instant::now();
    loop {
        let index: serde_json::Value = c.get("/").await.expect("GET /").json().expect("json");
        if index["games_in_memory"] == 1 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "unwatched games stay in memory: {index}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut s: GameState = g.state.clone();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut marks = Vec::new();
    for n in 0..=180u64 {
        if n == 30 || n == 180 {
            settle().await;
            marks.push((n, live()));
        }
        if n == 180 || s.legal_moves.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = s.legal_moves[(rng % s.legal_moves.len() as u64) as usize].clone();
        let a = c
            .post(
                &format!("/games/{}/moves", s.id),
                &mv(&mover_token(&g, &s), s.version, &m),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("state");
    }
    assert_eq!(
        marks.len(),
        2,
        "the game ended before 180 moves: {}",
        s.version
    );
    let per_move = (marks[1].1 - marks[0].1) / (marks[1].0 - marks[0].0) as isize;
    println!("a held game: {per_move} B a move, moves 30 to 180");
    assert!(
        per_move < 2 * KIB,
        "a game held in memory keeps {per_move} B a move"
    );
    reader.abort();

    // Left alone, the games leave memory, and their compiled pack with the last of them.
    let t = std::time::Instant::now();
    loop {
        let index: serde_json::Value = c.get("/").await.expect("GET /").json().expect("json");
        if index["games_in_memory"] == 0 && index["packs_in_memory"] == 0 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "games or packs stay in memory: {index}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And come back from the store.
    let again: GameState = c
        .get(&format!("/games/{}", first.state.id))
        .await
        .expect("GET")
        .json()
        .expect("state");
    assert_eq!(again.version, 0);
}
