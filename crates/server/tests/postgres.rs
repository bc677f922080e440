//! The PostgreSQL store, for real (`PLY_TEST_POSTGRES`, else 127.0.0.1:5432, database
//! `test`), each test in a schema of its own: two servers on the same games, racing clients
//! connected to different servers, and moves pushed to the other server's WebSockets.

mod common;

use common::*;
use ply_server::Config;
use ply_server::client::Client;

fn pg_config(schema: &str) -> Config {
    Config {
        packs: rulesets(),
        db: postgres_url(),
        schema: Some(schema.to_string()),
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn races_across_two_servers_apply_one_move_each() {
    let schema = pg_schema();
    let one = start(pg_config(&schema)).await;
    let two = start(pg_config(&schema)).await;
    let races = race(one.addr, two.addr, 1000).await;
    assert_eq!(races.races, 1000);
    let (client, conn) = tokio_postgres::connect(&postgres_url(), tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(conn);
    for (game, applied) in &races.applied {
        let rows = client
            .query(
                &format!(
                    "SELECT version FROM \"{schema}\".events WHERE game_id = $1 ORDER BY version"
                ),
                &[game],
            )
            .await
            .expect("query");
        let versions: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        let expected: Vec<i64> = (1..=*applied as i64).collect();
        assert_eq!(versions, expected, "game {game}");
    }
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_one_server_reaches_the_others_websockets() {
    let schema = pg_schema();
    let one = start(pg_config(&schema)).await;
    let two = start(pg_config(&schema)).await;
    let mut c1 = Client::new(one.addr);
    let mut c2 = Client::new(two.addr);
    let g = create(&mut c1, "cats_rabbits").await;
    let id = g.state.id.clone();
    let mut watcher = ws(two.addr, &id).await;
    assert_eq!(next_state(&mut watcher).await.version, 0);
    let a = c1
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["RABBIT"], 0, "b1-b2"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let pushed = next_state(&mut watcher).await;
    assert_eq!(
        (pushed.version, pushed.moves.clone()),
        (1, vec!["b1-b2".to_string()])
    );
    // The other server judges the next move on the state the first one stored.
    let a = c2
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["RABBIT"], 1, "c1-c2"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 403, "{}", a.text());
    let a = c2
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["CAT"], 0, "c7-c6"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 409, "{}", a.text());
    let a = c2
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["CAT"], 1, "c7-c6"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(next_state(&mut watcher).await.version, 2);
    // And the first server sees it.
    let a = c1.get(&format!("/games/{id}")).await.expect("GET");
    let s: ply_server::api::GameState = a.json().expect("state");
    assert_eq!(s.moves, ["b1-b2", "c7-c6"]);
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_and_draw_offers_are_stored_for_every_server() {
    let schema = pg_schema();
    let one = start(pg_config(&schema)).await;
    let two = start(pg_config(&schema)).await;
    let (drawn, resigned) = resign_and_draw(one.addr, two.addr).await;
    // The events as stored.
    let (client, conn) = tokio_postgres::connect(&postgres_url(), tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(conn);
    let kinds = async |game: &str| -> Vec<String> {
        client
            .query(
                &format!(
                    "SELECT kind FROM \"{schema}\".events WHERE game_id = $1 ORDER BY version"
                ),
                &[&game],
            )
            .await
            .expect("query")
            .iter()
            .map(|r| r.get(0))
            .collect()
    };
    assert_eq!(
        kinds(&drawn).await,
        [
            "draw_offer",
            "move",
            "move",
            "draw_offer",
            "draw_decline",
            "draw_offer",
            "draw_accept"
        ]
    );
    assert_eq!(kinds(&resigned).await, ["resign"]);
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_once_for_two_servers() {
    let schema = pg_schema();
    let one = start(pg_config(&schema)).await;
    let two = start(pg_config(&schema)).await;
    let (_, flagged) = clocks(one.addr, two.addr).await;
    let (client, conn) = tokio_postgres::connect(&postgres_url(), tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(conn);
    // Both servers watched the clock; the flag's fall is stored once.
    let rows = client
        .query(
            &format!("SELECT kind FROM \"{schema}\".events WHERE game_id = $1 ORDER BY version"),
            &[&flagged],
        )
        .await
        .expect("query");
    let kinds: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(kinds, ["time"]);
    let clock: Option<String> = client
        .query_one(
            &format!("SELECT clock FROM \"{schema}\".games WHERE id = $1"),
            &[&flagged],
        )
        .await
        .expect("query")
        .get(0);
    assert!(clock.expect("a stored time control").contains("1000"));
    drop_schema(&schema).await;
}
