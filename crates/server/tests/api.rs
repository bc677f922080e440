//! The API over real sockets, on a SQLite store: bad input, the order of the checks,
//! idempotent retries, undo by agreement, WebSocket pushes and moves, the stored pack.

mod common;

use common::*;
use ply_server::api::{
    Conflict, CreatedGame, EndReason, EngineSeat, ErrorBody, GameState, GameStatus, MoveText,
    PackList, ServerMessage, UndoAction, UndoRequest,
};
use ply_server::client::Client;
use ply_server::{Config, api::CreateGame};
use std::time::Duration;

async fn version(c: &mut Client, id: &str) -> u64 {
    let a = c.get(&format!("/games/{id}")).await.expect("GET");
    assert_eq!(a.status, 200, "{}", a.text());
    a.json::<GameState>().expect("a state").version
}

fn error_of(a: &ply_server::client::Answer) -> String {
    a.json::<ErrorBody>()
        .unwrap_or_else(|e| panic!("an error body: {e}"))
        .error
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_clearly_and_changes_nothing() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "cats_rabbits").await;
    let id = g.state.id.clone();
    let rabbit = g.seats["RABBIT"].clone();
    let cat = g.seats["CAT"].clone();
    let moves = format!("/games/{id}/moves");

    let cases: Vec<(&str, String, Vec<u8>, u16, &str)> = vec![
        ("malformed JSON", moves.clone(), b"{\"token\": ".to_vec(), 400, "not the expected JSON"),
        ("not an object", moves.clone(), b"[1, 2]".to_vec(), 400, "not the expected JSON"),
        (
            "an unknown field",
            moves.clone(),
            format!(r#"{{"token": "{rabbit}", "version": 0, "move": "b1-b2", "versoin": 1}}"#)
                .into_bytes(),
            400,
            "unknown field",
        ),
        (
            "a missing version",
            moves.clone(),
            format!(r#"{{"token": "{rabbit}", "move": "b1-b2"}}"#).into_bytes(),
            400,
            "missing field `version`",
        ),
        (
            "an unknown game",
            "/games/0123456789abcdef/moves".into(),
            format!(r#"{{"token": "{rabbit}", "version": 0, "move": "b1-b2"}}"#).into_bytes(),
            404,
            "no game",
        ),
        (
            "a wrong token",
            moves.clone(),
            br#"{"token": "00000000000000000000000000000000", "version": 0, "move": "b1-b2"}"#
                .to_vec(),
            403,
            "no seat",
        ),
        (
            "the other seat's token",
            moves.clone(),
            format!(r#"{{"token": "{cat}", "version": 0, "move": "c7-c6"}}"#).into_bytes(),
            403,
            "RABBIT's turn",
        ),
        (
            "an oversized body",
            moves.clone(),
            format!(
                r#"{{"token": "{rabbit}", "version": 0, "move": "{}"}}"#,
                "a".repeat(64 * 1024)
            )
            .into_bytes(),
            413,
            "too long",
        ),
        (
            "an illegal move",
            moves.clone(),
            format!(r#"{{"token": "{rabbit}", "version": 0, "move": "b1-b3"}}"#).into_bytes(),
            422,
            "cannot go",
        ),
        (
            "not a move",
            moves.clone(),
            format!(r#"{{"token": "{rabbit}", "version": 0, "move": "z9-b3"}}"#).into_bytes(),
            422,
            "not a move",
        ),
        (
            "a path of one cell",
            moves.clone(),
            format!(r#"{{"token": "{rabbit}", "version": 0, "move": ["b1"]}}"#).into_bytes(),
            422,
            "at least two cells",
        ),
        (
            "an idempotency key too long",
            moves.clone(),
            format!(
                r#"{{"token": "{rabbit}", "version": 0, "move": "b1-b2", "idempotency_key": "{}"}}"#,
                "k".repeat(200)
            )
            .into_bytes(),
            400,
            "idempotency key",
        ),
        (
            "a pack name with ../",
            "/games".into(),
            br#"{"pack": "../rulesets/cats_rabbits"}"#.to_vec(),
            400,
            "not a pack name",
        ),
        (
            "a pack path",
            "/games".into(),
            br#"{"pack": "/etc/passwd"}"#.to_vec(),
            400,
            "not a pack name",
        ),
        (
            "an unknown pack",
            "/games".into(),
            br#"{"pack": "tic_tac_toe"}"#.to_vec(),
            404,
            "no pack named `tic_tac_toe`",
        ),
        (
            "an unknown option",
            "/games".into(),
            br#"{"pack": "cats_rabbits", "options": {"fly": true}}"#.to_vec(),
            422,
            "fly",
        ),
        (
            "an option of the wrong type",
            "/games".into(),
            br#"{"pack": "cats_rabbits", "options": {"multi_hop": "yes"}}"#.to_vec(),
            400,
            "not the expected JSON",
        ),
        (
            "an undo of nothing",
            format!("/games/{id}/undo"),
            format!(r#"{{"token": "{rabbit}", "version": 0, "undo": "ask"}}"#).into_bytes(),
            422,
            "no move to take back",
        ),
        (
            "an unknown undo action",
            format!("/games/{id}/undo"),
            format!(r#"{{"token": "{rabbit}", "version": 0, "undo": "maybe"}}"#).into_bytes(),
            400,
            "unknown variant",
        ),
    ];
    for (what, path, body, status, says) in cases {
        let a = c.raw("POST", &path, body, &[]).await.expect(what);
        assert_eq!(a.status, status, "{what}: {}", a.text());
        let e = error_of(&a);
        assert!(e.contains(says), "{what}: {e}");
        assert!(
            !a.text().contains(&rabbit) && !a.text().contains(&cat),
            "{what}"
        );
        assert_eq!(version(&mut c, &id).await, 0, "{what} changed the game");
    }
    // A refused move names the rule that refused it, when a named rule did.
    let g2 = create(&mut c, "jungle").await;
    let a = c
        .post(
            &format!("/games/{}/moves", g2.state.id),
            &mv(&g2.seats["A"], 0, "e7-e6"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 422, "{}", a.text());
    let e: ErrorBody = a.json().expect("an error");
    assert!(e.rule.is_some(), "{e:?}");
    for (method, path, status) in [
        ("GET", "/nothing".to_string(), 404),
        ("DELETE", format!("/games/{id}"), 405),
        ("GET", "/games/..%2F..%2Fetc%2Fpasswd".to_string(), 404),
        ("GET", format!("/games/{id}/ws"), 400),
    ] {
        let a = c
            .raw(method, &path, Vec::new(), &[])
            .await
            .expect("request");
        assert_eq!(a.status, status, "{method} {path}: {}", a.text());
        error_of(&a);
    }
    // The server goes on serving, and the game is where it was.
    let a = c
        .post(&moves, &mv(&rabbit, 0, "b1-b2"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json::<GameState>().expect("state").version, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_come_in_order_token_version_turn_legality() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "cats_rabbits").await;
    let moves = format!("/games/{}/moves", g.state.id);
    let (rabbit, cat) = (&g.seats["RABBIT"], &g.seats["CAT"]);
    let a = c.post(&moves, &mv(rabbit, 0, "b1-b2")).await.expect("POST");
    assert_eq!(a.status, 200);
    // A wrong token on a stale version: the token first.
    let a = c
        .post(&moves, &mv("nobody", 0, "c1-c2"))
        .await
        .expect("POST");
    assert_eq!(a.status, 403, "{}", a.text());
    // Out of turn on a stale version: the version first, answered with the current state.
    let a = c.post(&moves, &mv(rabbit, 0, "c1-c2")).await.expect("POST");
    assert_eq!(a.status, 409, "{}", a.text());
    let conflict: Conflict = a.json().expect("a conflict");
    assert_eq!(conflict.state.version, 1);
    assert_eq!(conflict.state.to_move.as_deref(), Some("CAT"));
    // Out of turn and illegal on the current version: the turn first.
    let a = c.post(&moves, &mv(rabbit, 1, "c1-c5")).await.expect("POST");
    assert_eq!(a.status, 403, "{}", a.text());
    // The seat to move, illegal: 422.
    let a = c.post(&moves, &mv(cat, 1, "c7-c1")).await.expect("POST");
    assert_eq!(a.status, 422, "{}", a.text());
    // A version from the future is stale too.
    let a = c.post(&moves, &mv(cat, 7, "c7-c6")).await.expect("POST");
    assert_eq!(a.status, 409, "{}", a.text());
    // A path of cells is a move as well as notation.
    let mut req = mv(cat, 1, "");
    req.mv = MoveText::Path(vec!["C7".into(), "c6".into()]);
    let a = c.post(&moves, &req).await.expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let s: GameState = a.json().expect("state");
    assert_eq!(s.moves, ["b1-b2", "c7-c6"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_refuses_moves() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "breakthrough").await;
    let id = g.state.id.clone();
    let mut s = g.state.clone();
    // Every Breakthrough move goes forward, so the game ends: at most 2 * 16 * 7 moves.
    for _ in 0..300 {
        if s.status != GameStatus::Playing {
            break;
        }
        let token = mover_token(&g, &s);
        let a = c
            .post(
                &format!("/games/{id}/moves"),
                &mv(&token, s.version, &s.legal_moves[0]),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("state");
    }
    assert_eq!(s.status, GameStatus::Over);
    assert!(s.winner.is_some() && s.to_move.is_none() && s.legal_moves.is_empty());
    for token in g.seats.values() {
        let a = c
            .post(
                &format!("/games/{id}/moves"),
                &mv(token, s.version, "a2-a3"),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 422, "{}", a.text());
        assert!(error_of(&a).contains("the game is over"), "{}", a.text());
        let a = c
            .post(
                &format!("/games/{id}/undo"),
                &UndoRequest {
                    token: token.clone(),
                    version: s.version,
                    undo: UndoAction::Ask,
                },
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 422, "{}", a.text());
    }
    assert_eq!(version(&mut c, &id).await, s.version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_request_with_its_idempotency_key_is_applied_once() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "cats_rabbits").await;
    let moves = format!("/games/{}/moves", g.state.id);
    let mut req = mv(&g.seats["RABBIT"], 0, "b1-b2");
    req.idempotency_key = Some("move-1".into());
    let first = c.post(&moves, &req).await.expect("POST");
    assert_eq!(first.status, 200, "{}", first.text());
    let cat = mv(&g.seats["CAT"], 1, "c7-c6");
    assert_eq!(c.post(&moves, &cat).await.expect("POST").status, 200);
    // The retry comes after another move: answered as the first time, applied once.
    let again = c.post(&moves, &req).await.expect("POST");
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(
        again.json::<GameState>().expect("state"),
        first.json::<GameState>().expect("state")
    );
    let s = c.get(&format!("/games/{}", g.state.id)).await.expect("GET");
    let s: GameState = s.json().expect("state");
    assert_eq!((s.version, s.moves.len()), (2, 2));
    // The same key for another move is refused.
    let mut other = mv(&g.seats["RABBIT"], 2, "c1-c2");
    other.idempotency_key = Some("move-1".into());
    let a = c.post(&moves, &other).await.expect("POST");
    assert_eq!(a.status, 422, "{}", a.text());
    // The key may come as a header instead.
    let body = serde_json::to_vec(&mv(&g.seats["RABBIT"], 2, "c1-c2")).expect("json");
    for _ in 0..2 {
        let a = c
            .raw(
                "POST",
                &moves,
                body.clone(),
                &[("Idempotency-Key", "move-3")],
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        assert_eq!(a.json::<GameState>().expect("state").version, 3);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_takes_agreement() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "cats_rabbits").await;
    let id = g.state.id.clone();
    let (rabbit, cat) = (g.seats["RABBIT"].clone(), g.seats["CAT"].clone());
    let undo = |token: &str, version, undo| UndoRequest {
        token: token.to_string(),
        version,
        undo,
    };
    let path = format!("/games/{id}/undo");
    let post = async |c: &mut Client, body: UndoRequest| {
        let a = c.post(&path, &body).await.expect("POST");
        (a.status, a)
    };
    let a = c
        .post(&format!("/games/{id}/moves"), &mv(&rabbit, 0, "b1-b2"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200);
    let (st, a) = post(&mut c, undo(&rabbit, 1, UndoAction::Ask)).await;
    assert_eq!(st, 200, "{}", a.text());
    let s: GameState = a.json().expect("state");
    assert_eq!(s.version, 2);
    let offer = s.undo_request.expect("an offer");
    assert_eq!(
        (offer.by.as_str(), offer.takes_back.as_str()),
        ("RABBIT", "b1-b2")
    );
    // Asking twice, or accepting one's own request, is refused; the other accepts.
    assert_eq!(post(&mut c, undo(&cat, 2, UndoAction::Ask)).await.0, 422);
    assert_eq!(
        post(&mut c, undo(&rabbit, 2, UndoAction::Accept)).await.0,
        403
    );
    assert_eq!(post(&mut c, undo(&cat, 1, UndoAction::Accept)).await.0, 409);
    let (st, a) = post(&mut c, undo(&cat, 2, UndoAction::Accept)).await;
    assert_eq!(st, 200, "{}", a.text());
    let s: GameState = a.json().expect("state");
    assert_eq!(s.version, 3);
    assert!(s.moves.is_empty() && s.undo_request.is_none());
    assert_eq!(s.to_move.as_deref(), Some("RABBIT"));
    assert_eq!(s.position, g.state.position);
    // A declined request changes nothing on the board; a move lets a request lapse.
    let a = c
        .post(&format!("/games/{id}/moves"), &mv(&rabbit, 3, "c1-c2"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200);
    assert_eq!(post(&mut c, undo(&cat, 4, UndoAction::Ask)).await.0, 200);
    let (st, a) = post(&mut c, undo(&rabbit, 5, UndoAction::Decline)).await;
    assert_eq!(st, 200);
    let s: GameState = a.json().expect("state");
    assert_eq!((s.version, s.moves.len()), (6, 1));
    assert_eq!(post(&mut c, undo(&rabbit, 6, UndoAction::Ask)).await.0, 200);
    let a = c
        .post(&format!("/games/{id}/moves"), &mv(&cat, 7, "c7-c6"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let s: GameState = a.json().expect("state");
    assert!(s.undo_request.is_none());
    assert_eq!(post(&mut c, undo(&cat, 8, UndoAction::Accept)).await.0, 422);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_and_draw_offers_are_stored_and_survive_a_restart() {
    let (server, db) = start_sqlite().await;
    let (drawn, resigned) = resign_and_draw(server.addr, server.addr).await;
    drop(server);
    // A server started again on the same file reads the games as they ended.
    let again = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(again.addr);
    let get = async |c: &mut Client, id: &str| -> GameState {
        c.get(&format!("/games/{id}"))
            .await
            .expect("GET")
            .json()
            .expect("a state")
    };
    let d = get(&mut c, &drawn).await;
    assert_eq!((d.status, d.winner.clone()), (GameStatus::Over, None));
    assert_eq!(d.end_reason, Some(EndReason::Agreement));
    let r = get(&mut c, &resigned).await;
    assert_eq!(r.winner.as_deref(), Some("RABBIT"));
    assert_eq!(r.end_reason, Some(EndReason::Resignation));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_flags_fall_and_both_survive_a_restart() {
    let (server, db) = start_sqlite().await;
    let (running, flagged) = clocks(server.addr, server.addr).await;
    drop(server);
    let again = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(again.addr);
    let get = async |c: &mut Client, id: &str| -> GameState {
        c.get(&format!("/games/{id}"))
            .await
            .expect("GET")
            .json()
            .expect("a state")
    };
    // The game lost on time is still lost on time; the running one still runs, CAT's clock.
    let f = get(&mut c, &flagged).await;
    assert_eq!(
        (f.winner.as_deref(), f.end_reason),
        (Some("CAT"), Some(EndReason::Time))
    );
    let r = get(&mut c, &running).await;
    let clock = r.clock.expect("clocks");
    assert_eq!(clock.running.as_deref(), Some("CAT"));
    assert!(
        clock.remaining_ms[1] <= 60_000 && clock.remaining_ms[1] > 0,
        "{clock:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_won_by_a_rule_names_the_rule() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "breakthrough").await;
    let id = g.state.id.clone();
    // Each side plays its first legal move until the game ends (Breakthrough always does).
    let mut s = g.state.clone();
    while s.status == GameStatus::Playing {
        assert_eq!((s.end_reason, s.end_rule.clone()), (None, None));
        let token = mover_token(&g, &s);
        let a = c
            .post(
                &format!("/games/{id}/moves"),
                &mv(&token, s.version, &s.legal_moves[0]),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("a state");
    }
    assert_eq!(s.status, GameStatus::Over);
    assert_eq!(s.end_reason, Some(EndReason::Rule));
    let rule = s.end_rule.clone().expect("the rule's name");
    let pack = std::fs::read_to_string(rulesets().join("breakthrough.toml")).expect("pack");
    assert!(
        pack.contains(&format!("[end.{rule}]")),
        "{rule} is no end rule of the pack"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_push_every_change_and_take_moves() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "cats_rabbits").await;
    let id = g.state.id.clone();
    let mut a = ws(server.addr, &id).await;
    let mut b = ws(server.addr, &id).await;
    assert_eq!(next_state(&mut a).await, g.state);
    assert_eq!(next_state(&mut b).await, g.state);
    // A move sent on one socket: answered there, pushed to both.
    send(
        &mut a,
        serde_json::to_string(&mv(&g.seats["RABBIT"], 0, "b1-b2")).expect("json"),
    )
    .await;
    let mut answered = false;
    let mut pushed = false;
    while !(answered && pushed) {
        match next(&mut a).await {
            ServerMessage::Answer { status, body } => {
                assert_eq!(status, 200, "{body}");
                answered = true;
            }
            ServerMessage::State { state } => {
                assert_eq!(state.version, 1);
                pushed = true;
            }
        }
    }
    assert_eq!(next_state(&mut b).await.moves, ["b1-b2"]);
    // A move made over HTTP is pushed too.
    let r = c
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["CAT"], 1, "c7-c6"),
        )
        .await
        .expect("POST");
    assert_eq!(r.status, 200);
    assert_eq!(next_state(&mut a).await.version, 2);
    assert_eq!(next_state(&mut b).await.version, 2);
    // Stale, unreadable and forbidden messages are answered as over HTTP; the socket stays.
    for (text, status) in [
        (
            serde_json::to_string(&mv(&g.seats["RABBIT"], 1, "c1-c2")).expect("json"),
            409,
        ),
        ("not json".to_string(), 400),
        (
            r#"{"token": "x", "version": 2, "move": "c1-c2"}"#.to_string(),
            403,
        ),
        (
            serde_json::to_string(&UndoRequest {
                token: g.seats["CAT"].clone(),
                version: 2,
                undo: UndoAction::Ask,
            })
            .expect("json"),
            200,
        ),
    ] {
        send(&mut b, text.clone()).await;
        loop {
            if let ServerMessage::Answer { status: got, body } = next(&mut b).await {
                assert_eq!(got, status, "{text}: {body}");
                assert!(!body.to_string().contains(&g.seats["RABBIT"]));
                break;
            }
        }
    }
    assert!(next_state(&mut a).await.undo_request.is_some());
    // An unknown game's socket is refused before the upgrade.
    assert!(
        tokio_tungstenite::connect_async(format!("ws://{}/games/nope/ws", server.addr))
            .await
            .is_err()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_keeps_the_pack_it_started_with() {
    let packs = temp_dir("ply_packs");
    let db = packs.join("games.db");
    let original = std::fs::read_to_string(rulesets().join("cats_rabbits.toml")).expect("pack");
    std::fs::write(packs.join("cats_rabbits.toml"), &original).expect("write");
    let config = Config {
        packs: packs.clone(),
        db: db.display().to_string(),
        ..Config::default()
    };
    let g: CreatedGame;
    {
        let server = start(config.clone()).await;
        let mut c = Client::new(server.addr);
        let a = c
            .post(
                "/games",
                &CreateGame {
                    pack: "cats_rabbits".into(),
                    options: [(
                        "multi_hop".to_string(),
                        ply_server::api::OptionJson::Bool(true),
                    )]
                    .into(),
                    engine: None,
                    clock: None,
                },
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 201, "{}", a.text());
        g = a.json().expect("created");
        // The file changes under the running game: rabbits now start on row 2.
        std::fs::write(
            packs.join("cats_rabbits.toml"),
            original.replace("[setup.RABBIT]", "[setup.RABBIT]\n# changed"),
        )
        .expect("write");
        std::fs::write(packs.join("cats_rabbits.toml"), "not a pack [").expect("write");
        let a = c
            .post(
                &format!("/games/{}/moves", g.state.id),
                &mv(&g.seats["RABBIT"], 0, "b1-b2"),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}", a.text());
        // New games need a pack that loads.
        let a = c
            .post(
                "/games",
                &CreateGame {
                    pack: "cats_rabbits".into(),
                    options: Default::default(),
                    engine: None,
                    clock: None,
                },
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 422, "{}", a.text());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A new server process on the same file still plays it by the stored text.
    let server = start(config).await;
    let mut c = Client::new(server.addr);
    let a = c
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&g.seats["CAT"], 1, "c7-c6"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let s: GameState = a.json().expect("state");
    assert_eq!(s.pack.sha256, g.state.pack.sha256);
    assert_eq!(s.pack.options, g.state.pack.options);
    assert_eq!(s.moves, ["b1-b2", "c7-c6"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn packs_are_listed_with_their_options() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let a = c.get("/packs").await.expect("GET");
    assert_eq!(a.status, 200);
    let list: PackList = a.json().expect("packs");
    let names: Vec<&str> = list.packs.iter().map(|p| p.name.as_str()).collect();
    for shipped in [
        "breakthrough",
        "cats_rabbits",
        "checkers",
        "fox_and_geese",
        "jungle",
    ] {
        assert!(names.contains(&shipped), "{names:?}");
    }
    let cr = list
        .packs
        .iter()
        .find(|p| p.name == "cats_rabbits")
        .expect("cats_rabbits");
    assert_eq!(cr.options[0].name, "multi_hop");
    assert_eq!(cr.players, ["RABBIT", "CAT"]);
    // Every pack listed can be played: a game of each, its first legal move in notation,
    // the next as a path of cells (a placement is one cell, a pass none).
    for p in &list.packs {
        let g = create(&mut c, &p.name).await;
        let first = g.state.legal_moves[0].clone();
        let token = mover_token(&g, &g.state);
        let a = c
            .post(
                &format!("/games/{}/moves", g.state.id),
                &mv(&token, 0, &first),
            )
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{}: {}", p.name, a.text());
        let s: GameState = a.json().expect("state");
        if s.status != GameStatus::Playing {
            continue;
        }
        let second = &s.legal_moves[0];
        let path: Vec<String> = if second == "pass" {
            Vec::new()
        } else {
            second.split(['-', 'x', '/']).map(str::to_string).collect()
        };
        let mut req = mv(&mover_token(&g, &s), 1, "");
        req.mv = MoveText::Path(path);
        let a = c
            .post(&format!("/games/{}/moves", g.state.id), &req)
            .await
            .expect("POST");
        assert_eq!(a.status, 200, "{} {second}: {}", p.name, a.text());
        let s: GameState = a.json().expect("state");
        assert_eq!(s.moves, [first, second.clone()], "{}", p.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_connections_is_shed_and_the_server_goes_on() {
    let (server, _db) = {
        let db = temp_dir("ply_server").join("games.db");
        let running = start(Config {
            packs: rulesets(),
            db: db.display().to_string(),
            max_connections: 32,
            idle_timeout: Duration::from_millis(500),
            ..Config::default()
        })
        .await;
        (running, db)
    };
    // Connections that send nothing: past 32 they are closed at once, and the idle ones are
    // closed after the idle timeout.
    let mut flood = Vec::new();
    for _ in 0..200 {
        if let Ok(s) = tokio::net::TcpStream::connect(server.addr).await {
            flood.push(s);
        }
    }
    let mut c = Client::new(server.addr);
    let started = std::time::Instant::now();
    let served = loop {
        match c.get("/packs").await {
            Ok(a) if a.status == 200 => break true,
            _ if started.elapsed() > Duration::from_secs(10) => break false,
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    assert!(served, "the server served nothing while flooded");
    drop(flood);
    let g = create(&mut c, "cats_rabbits").await;
    assert_eq!(g.state.version, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_from_the_store() {
    let db = temp_dir("ply_server").join("games.db");
    let server = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        keep_idle_games: Duration::from_millis(100),
        ..Config::default()
    })
    .await;
    let mut c = Client::new(server.addr);
    let in_memory = async |c: &mut Client| {
        let a = c.get("/").await.expect("GET /");
        a.json::<serde_json::Value>().expect("json")["games_in_memory"]
            .as_u64()
            .expect("a count")
    };
    let watched = create(&mut c, "cats_rabbits").await;
    let mut w = ws(server.addr, &watched.state.id).await;
    next_state(&mut w).await;
    let g = create(&mut c, "cats_rabbits").await;
    let moves = format!("/games/{}/moves", g.state.id);
    let a = c
        .post(&moves, &mv(&g.seats["RABBIT"], 0, "b1-b2"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200);
    assert_eq!(in_memory(&mut c).await, 2);
    tokio::time::sleep(Duration::from_millis(600)).await;
    // The watched game stays; the other is dropped, then played on from the store.
    assert_eq!(in_memory(&mut c).await, 1);
    let a = c
        .post(&moves, &mv(&g.seats["CAT"], 1, "c7-c6"))
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(
        a.json::<GameState>().expect("state").moves,
        ["b1-b2", "c7-c6"]
    );
    assert_eq!(in_memory(&mut c).await, 2);
    // And a push still reaches the watcher.
    let a = c
        .post(
            &format!("/games/{}/moves", watched.state.id),
            &mv(&watched.seats["RABBIT"], 0, "b1-b2"),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200);
    assert_eq!(next_state(&mut w).await.version, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_lists_the_first_legal_moves_and_the_rest_come_in_pages() {
    use ply_server::api::{LegalPage, MAX_INLINE_LEGAL, MAX_LEGAL_PAGE};
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    // Amazons: thousands of moves (a queen's slide, then an arrow's).
    let g = create(&mut c, "amazons").await;
    let s = &g.state;
    assert!(s.legal_count > MAX_LEGAL_PAGE, "{}", s.legal_count);
    assert_eq!(s.legal_moves.len(), MAX_INLINE_LEGAL);
    assert_eq!(s.legal_paths.len(), MAX_INLINE_LEGAL);
    let answer = c.get(&format!("/games/{}", s.id)).await.expect("GET");
    assert!(answer.body.len() < 64 * 1024, "{} bytes", answer.body.len());
    let mut all: Vec<String> = Vec::new();
    let mut paths = Vec::new();
    while all.len() < s.legal_count {
        let page: LegalPage = c
            .get(&format!("/games/{}/legal?offset={}", s.id, all.len()))
            .await
            .expect("GET")
            .json()
            .expect("a page");
        assert_eq!(
            (page.version, page.count, page.offset),
            (0, s.legal_count, all.len())
        );
        assert!(!page.moves.is_empty() && page.moves.len() <= MAX_LEGAL_PAGE);
        assert_eq!(page.moves.len(), page.paths.len());
        all.extend(page.moves);
        paths.extend(page.paths);
    }
    assert_eq!(all.len(), s.legal_count);
    assert_eq!(all[..MAX_INLINE_LEGAL], s.legal_moves[..]);
    assert_eq!(paths[..MAX_INLINE_LEGAL], s.legal_paths[..]);
    let distinct: std::collections::BTreeSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "no move twice");
    // Past the end: an empty page; bad queries: 400 in JSON.
    let past: LegalPage = c
        .get(&format!("/games/{}/legal?offset={}", s.id, s.legal_count))
        .await
        .expect("GET")
        .json()
        .expect("a page");
    assert!(past.moves.is_empty());
    for q in ["limit=0", "limit=1001", "offset=-1", "offset=x", "page=2"] {
        let a = c
            .get(&format!("/games/{}/legal?{q}", s.id))
            .await
            .expect("GET");
        assert_eq!(a.status, 400, "{q}: {}", a.text());
        assert!(!error_of(&a).is_empty());
    }
    // The last move, listed only in a page, is played as any other.
    let last = all.last().expect("a move").clone();
    let a = c
        .post(
            &format!("/games/{}/moves", s.id),
            &mv(&mover_token(&g, s), 0, &last),
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 200, "{}", a.text());
    let after: GameState = a.json().expect("state");
    assert_eq!(after.moves, [last]);
    assert_eq!(
        after.legal_moves.len(),
        after.legal_count.min(MAX_INLINE_LEGAL)
    );
}

/// The seats come in the pack's order of players, not in alphabetical order: a chess game's
/// answer lists White's token first (it used to be Black's, so a page that seated its creator
/// at the first seat said "You play Black" while White was to move); an engine asked for with
/// no seat plays the second player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_follow_the_packs_order_of_players() {
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let a = c
        .post(
            "/games",
            &CreateGame {
                pack: "chess".into(),
                options: Default::default(),
                engine: None,
                clock: None,
            },
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("a game");
    assert_eq!(g.state.players, ["White", "Black"]);
    let order: Vec<&str> = g.seats.players().collect();
    assert_eq!(order, ["White", "Black"], "{}", a.text());
    // In the JSON text itself, as a page reads the object's keys.
    let text = a.text();
    let seats = &text[text.find("\"seats\"").expect("seats")..];
    let (white, black) = (
        seats.find("\"White\"").expect("White"),
        seats.find("\"Black\"").expect("Black"),
    );
    assert!(white < black, "{seats}");
    assert_eq!(g.state.to_move.as_deref(), Some("White"));
    let a = c
        .post(
            "/games",
            &CreateGame {
                pack: "chess".into(),
                options: Default::default(),
                engine: Some(EngineSeat {
                    player: "random".into(),
                    seat: None,
                }),
                clock: None,
            },
        )
        .await
        .expect("POST");
    assert_eq!(a.status, 201, "{}", a.text());
    let g: CreatedGame = a.json().expect("a game");
    let order: Vec<&str> = g.seats.players().collect();
    assert_eq!(order, ["White"], "the engine plays the second player");
}

/// 500 watchers on one game: each is pushed every version, in order, while a normal client
/// plays it; each move is answered within a stated time (generous for a loaded two-core
/// machine, which also runs the 500 clients).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_watchers_are_each_pushed_every_move_and_play_goes_on() {
    use futures_util::StreamExt;
    const WATCHERS: usize = 500;
    const MOVES: u64 = 10;
    let (server, _db) = start_sqlite().await;
    let mut c = Client::new(server.addr);
    let g = create(&mut c, "breakthrough").await;
    let id = g.state.id.clone();
    let mut watchers = Vec::new();
    for _ in 0..WATCHERS {
        let mut w = ws(server.addr, &id).await;
        assert_eq!(next_state(&mut w).await.version, 0);
        watchers.push(w);
    }
    // Each watcher reads on its own task, counting the versions it is pushed.
    let readers: Vec<_> = watchers
        .into_iter()
        .map(|mut w| {
            tokio::spawn(async move {
                let mut seen = Vec::new();
                while let Ok(Some(Ok(m))) =
                    tokio::time::timeout(Duration::from_secs(30), w.next()).await
                {
                    if let tokio_tungstenite::tungstenite::Message::Text(t) = m
                        && let Ok(ServerMessage::State { state }) =
                            serde_json::from_str::<ServerMessage>(t.as_str())
                    {
                        seen.push(state.version);
                        if state.version == MOVES {
                            break;
                        }
                    }
                }
                seen
            })
        })
        .collect();
    let mut s = g.state.clone();
    let mut slowest = Duration::ZERO;
    for _ in 0..MOVES {
        let m = s.legal_moves[s.version as usize % s.legal_moves.len()].clone();
        let t = std::time::Instant::now();
        let a = c
            .post(
                &format!("/games/{id}/moves"),
                &mv(&mover_token(&g, &s), s.version, &m),
            )
            .await
            .expect("POST");
        slowest = slowest.max(t.elapsed());
        assert_eq!(a.status, 200, "{}", a.text());
        s = a.json().expect("state");
    }
    assert!(
        slowest < Duration::from_secs(2),
        "a move took {slowest:?} with {WATCHERS} watchers"
    );
    let want: Vec<u64> = (1..=MOVES).collect();
    for r in readers {
        assert_eq!(r.await.expect("a reader"), want, "a watcher missed a push");
    }
    println!("{WATCHERS} watchers: slowest move {slowest:?}, every push to every watcher");
}
