//! Races on a SQLite store: two clients, two moves, one version, a thousand times.

mod common;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_races_apply_one_move_each() {
    let (server, db) = start_sqlite().await;
    let races = race(server.addr, server.addr, 1000).await;
    assert_eq!(races.races, 1000);
    // The log holds exactly the applied moves: versions 1..=n, one event each.
    let conn = rusqlite::Connection::open(&db).expect("the database");
    for (game, applied) in &races.applied {
        let versions: Vec<i64> = conn
            .prepare("SELECT version FROM events WHERE game_id = ?1 ORDER BY version")
            .expect("query")
            .query_map([game], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("versions");
        let expected: Vec<i64> = (1..=*applied as i64).collect();
        assert_eq!(versions, expected, "game {game}");
    }
}
