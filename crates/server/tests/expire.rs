//! `--expire-games`: a game with no move for the time given is removed from the store (its
//! events, then the game) and from every server's memory, and is answered 410 Gone from then
//! on (saying when it expired), while an id that never was a game stays 404; a game played
//! meanwhile stays. The record of a removal is itself forgotten after the same time (the id is
//! then 404), so that it is as bounded as the games. On SQLite and on PostgreSQL (two servers
//! on one database).

mod common;

use common::*;
use ply_server::Config;
use ply_server::api::{CreatedGame, ErrorBody, GameState};
use ply_server::client::Client;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const EXPIRE: Duration = Duration::from_millis(1500);

/// Plays `kept` through `a` while `left` is left alone after one move (its state read through
/// `b` too, which keeps it in `b`'s memory), until `left` is gone (410) through `a`, within
/// 4 × EXPIRE; then `left` is gone through both servers and `kept` is not.
async fn the_left_game_expires(a: SocketAddr, b: SocketAddr) -> (String, String) {
    let mut ca = Client::new(a);
    let mut cb = Client::new(b);
    let left: CreatedGame = create(&mut ca, "breakthrough").await;
    // Jungle's games are long: it is played on for the whole test.
    let kept: CreatedGame = create(&mut ca, "jungle").await;
    let m = left.state.legal_moves[0].clone();
    let first = ca
        .post(
            &format!("/games/{}/moves", left.state.id),
            &mv(&mover_token(&left, &left.state), 0, &m),
        )
        .await
        .expect("POST");
    assert_eq!(first.status, 200, "{}", first.text());
    let seen = cb
        .get(&format!("/games/{}", left.state.id))
        .await
        .expect("GET");
    assert_eq!(seen.status, 200, "{}", seen.text());
    let mut s = kept.state.clone();
    let start = Instant::now();
    loop {
        tokio::time::sleep(EXPIRE / 10).await;
        let status = ca
            .get(&format!("/games/{}", left.state.id))
            .await
            .expect("GET")
            .status;
        if status == 410 {
            break;
        }
        assert_eq!(status, 200, "the left game is there until it is removed");
        assert!(
            start.elapsed() < EXPIRE * 4,
            "the left game was not removed within 4 x {EXPIRE:?}"
        );
        s = play_on(&mut ca, &kept, s).await;
    }
    assert!(
        start.elapsed() >= EXPIRE,
        "removed after {:?}, before its time",
        start.elapsed()
    );
    let before = std::time::SystemTime::now();
    for c in [&mut ca, &mut cb] {
        let gone = c
            .get(&format!("/games/{}", left.state.id))
            .await
            .expect("GET");
        assert_eq!(gone.status, 410, "{}", gone.text());
        let body = gone.json::<ErrorBody>().expect("an error");
        assert!(body.error.contains("expired"), "{}", body.error);
        assert!(body.error.contains("with no move"), "{}", body.error);
        // When: an RFC 3339 time, in the past and within this test's run.
        let at = body.expired_at.expect("when it expired");
        let at = humantime::parse_rfc3339(&at).expect("RFC 3339");
        assert!(at <= before, "{at:?} is after {before:?}");
        assert!(
            before.duration_since(at).expect("past") < EXPIRE * 6,
            "expired long ago: {at:?}"
        );
        assert!(
            body.error
                .contains(&humantime::format_rfc3339_seconds(at).to_string())
        );
        for route in ["layout", "legal", "record"] {
            let a = c
                .get(&format!("/games/{}/{route}", left.state.id))
                .await
                .expect("GET");
            assert_eq!(a.status, 410, "{route}: {}", a.text());
        }
        // An id that never was a game is still unknown.
        let unknown = c.get("/games/00000000deadbeef").await.expect("GET");
        assert_eq!(unknown.status, 404, "{}", unknown.text());
        assert!(
            unknown
                .json::<ErrorBody>()
                .expect("an error")
                .expired_at
                .is_none()
        );
        let m = c
            .post(
                &format!("/games/{}/moves", left.state.id),
                &mv(
                    &left
                        .seats
                        .0
                        .first()
                        .map(|(_, t)| t.clone())
                        .unwrap_or_default(),
                    1,
                    "a1-a2",
                ),
            )
            .await
            .expect("POST");
        assert_eq!(m.status, 410, "{}", m.text());
        let here: GameState = c
            .get(&format!("/games/{}", kept.state.id))
            .await
            .expect("GET")
            .json()
            .expect("the played game");
        assert_eq!(here.version, s.version);
    }
    // The record of the removal is kept as long as the games are: then the id is unknown
    // (404) like any other, and the record is gone from the store.
    let removed = Instant::now();
    for c in [&mut ca, &mut cb] {
        loop {
            let a = c
                .get(&format!("/games/{}", left.state.id))
                .await
                .expect("GET");
            if a.status == 404 {
                assert!(
                    a.json::<ErrorBody>()
                        .expect("an error")
                        .expired_at
                        .is_none()
                );
                break;
            }
            assert_eq!(a.status, 410, "{}", a.text());
            assert!(
                removed.elapsed() < EXPIRE * 4,
                "the record of a removal is kept past 4 x {EXPIRE:?}"
            );
            tokio::time::sleep(EXPIRE / 10).await;
            s = play_on(c, &kept, s).await;
        }
    }
    assert!(
        removed.elapsed() >= EXPIRE / 2,
        "the record of a removal was forgotten after {:?}",
        removed.elapsed()
    );
    (left.state.id, kept.state.id)
}

/// One more move of `kept` (so that it never expires), unless it is over.
async fn play_on(c: &mut Client, kept: &CreatedGame, s: GameState) -> GameState {
    if s.status != ply_server::api::GameStatus::Playing {
        return s;
    }
    let m = s.legal_moves[s.version as usize % s.legal_moves.len()].clone();
    let a = c
        .post(
            &format!("/games/{}/moves", s.id),
            &mv(&mover_token(kept, &s), s.version, &m),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    a.json().expect("state")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_a_game_left_alone_is_removed() {
    let db = temp_dir("ply_expire").join("games.db");
    let config = Config {
        packs: rulesets(),
        db: db.display().to_string(),
        expire_games: Some(EXPIRE),
        ..Config::default()
    };
    let one = start(config.clone()).await;
    let two = start(config).await;
    let (left, kept) = the_left_game_expires(one.addr, two.addr).await;
    let conn = rusqlite::Connection::open(&db).expect("the file");
    for (id, games, events) in [(&left, 0, 0), (&kept, 1, 1)] {
        let n: i64 = conn
            .query_row("SELECT COUNT(*) FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .expect("count");
        assert_eq!(n, games, "game {id}");
        let e: i64 = conn
            .query_row(
                "SELECT COUNT(*) > 0 FROM events WHERE game_id = ?1",
                [id],
                |r| r.get(0),
            )
            .expect("count");
        assert_eq!(e, events, "events of {id}");
    }
    let records: i64 = conn
        .query_row("SELECT COUNT(*) FROM expired WHERE id = ?1", [&left], |r| {
            r.get(0)
        })
        .expect("count");
    assert_eq!(records, 0, "the record of the removal is forgotten");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_game_left_alone_is_removed_for_every_server() {
    let schema = pg_schema();
    let config = Config {
        packs: rulesets(),
        db: postgres_url(),
        schema: Some(schema.clone()),
        expire_games: Some(EXPIRE),
        ..Config::default()
    };
    let one = start(config.clone()).await;
    let two = start(config).await;
    let (left, kept) = the_left_game_expires(one.addr, two.addr).await;
    let (client, conn) = tokio_postgres::connect(&postgres_url(), tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(conn);
    for (id, games) in [(&left, 0i64), (&kept, 1)] {
        let row = client
            .query_one(
                &format!(
                    "SELECT (SELECT COUNT(*) FROM \"{schema}\".games WHERE id = $1),
                            (SELECT COUNT(*) FROM \"{schema}\".events WHERE game_id = $1)"
                ),
                &[id],
            )
            .await
            .expect("count");
        assert_eq!(row.get::<_, i64>(0), games, "game {id}");
        assert_eq!(row.get::<_, i64>(1) > 0, games > 0, "events of {id}");
    }
    let records: i64 = client
        .query_one(
            &format!("SELECT COUNT(*) FROM \"{schema}\".expired WHERE id = $1"),
            &[&left],
        )
        .await
        .expect("count")
        .get(0);
    assert_eq!(records, 0, "the record of the removal is forgotten");
    drop_schema(&schema).await;
}

#[test]
fn durations_read_as_the_flag_takes_them() {
    assert_eq!(
        ply_server::parse_duration("30d"),
        Ok(Duration::from_secs(30 * 86400))
    );
    assert_eq!(
        ply_server::parse_duration("90min"),
        Ok(Duration::from_secs(5400))
    );
    assert_eq!(
        ply_server::parse_duration("500ms"),
        Ok(Duration::from_millis(500))
    );
    let e = ply_server::parse_duration("soon").expect_err("not a duration");
    assert!(e.contains("30d"), "{e}");
}
