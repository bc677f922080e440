//! What the server's tests share: a server on a free port, temporary files, PostgreSQL's
//! address and a schema of one's own, WebSocket helpers.
#![allow(dead_code)]

use ply_server::api::{CreateGame, CreatedGame, GameState, MoveRequest, MoveText, ServerMessage};
use ply_server::client::Client;
use ply_server::{Config, bind};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh name: the process, a counter and the time.
pub fn unique(prefix: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() % 1_000_000_000_000);
    format!("{prefix}_{}_{n}_{t}", std::process::id())
}

/// A fresh folder under the system's temporary folder.
pub fn temp_dir(prefix: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(unique(prefix));
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// The shipped packs.
pub fn rulesets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets")
}

/// The PostgreSQL the tests use: `PLY_TEST_POSTGRES`, else the project machines' own.
pub fn postgres_url() -> String {
    std::env::var("PLY_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// A schema name of this test's own, so that tests running at once never share tables.
pub fn pg_schema() -> String {
    unique("ply_test").to_ascii_lowercase()
}

/// Drops a test's schema.
pub async fn drop_schema(schema: &str) {
    if let Ok((client, conn)) =
        tokio_postgres::connect(&postgres_url(), tokio_postgres::NoTls).await
    {
        tokio::spawn(conn);
        let _ = client
            .batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .await;
    }
}

/// A running server; dropping it stops it.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

/// Starts a server on a free port with `config`'s store and packs.
pub async fn start(config: Config) -> Running {
    let server = bind(&Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..config
    })
    .await
    .expect("the server starts");
    let addr = server.addr;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run(async move {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
    }
}

/// A server on a new SQLite file, serving the shipped packs.
pub async fn start_sqlite() -> (Running, PathBuf) {
    let db = temp_dir("ply_server").join("games.db");
    let running = start(Config {
        packs: rulesets(),
        db: db.display().to_string(),
        ..Config::default()
    })
    .await;
    (running, db)
}

/// Creates a game; panics unless it is created.
pub async fn create(c: &mut Client, pack: &str) -> CreatedGame {
    let a = c
        .post(
            "/games",
            &CreateGame {
                pack: pack.to_string(),
                options: Default::default(),
                engine: None,
                clock: None,
            },
        )
        .await
        .expect("POST /games");
    assert_eq!(a.status, 201, "{}", a.text());
    a.json().expect("a created game")
}

/// A move request.
pub fn mv(token: &str, version: u64, text: &str) -> MoveRequest {
    MoveRequest {
        token: token.to_string(),
        version,
        mv: MoveText::Notation(text.to_string()),
        idempotency_key: None,
    }
}

/// The token of the side to move.
pub fn mover_token(g: &CreatedGame, state: &GameState) -> String {
    let p = state.to_move.as_ref().expect("someone to move");
    g.seats[p].clone()
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Connects to a game's WebSocket.
pub async fn ws(addr: SocketAddr, id: &str) -> Ws {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/games/{id}/ws"))
        .await
        .expect("the WebSocket connects");
    ws
}

/// The next message of the server, within 10 s.
pub async fn next(ws: &mut Ws) -> ServerMessage {
    use futures_util::StreamExt;
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(t) = m {
            return serde_json::from_str(t.as_str()).expect("a server message");
        }
    }
}

/// Sends a text message.
pub async fn send(ws: &mut Ws, text: String) {
    use futures_util::SinkExt;
    ws.send(Message::Text(text.into())).await.expect("sent");
}

/// The next state pushed (skipping answers), within 10 s.
pub async fn next_state(ws: &mut Ws) -> GameState {
    loop {
        if let ServerMessage::State { state } = next(ws).await {
            return *state;
        }
    }
}

/// What a run of races came to.
#[derive(Debug, Default)]
pub struct Races {
    /// Races run.
    pub races: usize,
    /// Moves applied, by game.
    pub applied: std::collections::BTreeMap<String, u64>,
}

/// Runs `n` races: each time two clients (one on `a`, one on `b`) send two different legal
/// moves of the side to move, on the same version, at once. Exactly one must be applied and
/// the other answered 409 with the state that includes the first. Games of Breakthrough
/// (which always end) are started as needed.
pub async fn race(a: SocketAddr, b: SocketAddr, n: usize) -> Races {
    let mut ca = Client::new(a);
    let mut cb = Client::new(b);
    let mut out = Races::default();
    let mut game: Option<(CreatedGame, GameState)> = None;
    let mut i = 0usize;
    while out.races < n {
        let (g, s) = match game.take() {
            Some((g, s)) if s.legal_moves.len() >= 2 => (g, s),
            _ => {
                let g = create(&mut ca, "breakthrough").await;
                let s = g.state.clone();
                out.applied.insert(s.id.clone(), 0);
                (g, s)
            }
        };
        i += 1;
        let k = s.legal_moves.len();
        let (m1, m2) = (&s.legal_moves[i % k], &s.legal_moves[(i + 1 + i / k) % k]);
        let (m1, m2) = if m1 == m2 {
            (&s.legal_moves[0], &s.legal_moves[1])
        } else {
            (m1, m2)
        };
        let token = mover_token(&g, &s);
        let path = format!("/games/{}/moves", s.id);
        let (q1, q2) = (mv(&token, s.version, m1), mv(&token, s.version, m2));
        let (r1, r2) = tokio::join!(ca.post(&path, &q1), cb.post(&path, &q2));
        let (r1, r2) = (r1.expect("POST"), r2.expect("POST"));
        let mut statuses = [r1.status, r2.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [200, 409],
            "race {}: {} / {}",
            out.races,
            r1.text(),
            r2.text()
        );
        let (won, lost) = if r1.status == 200 { (r1, r2) } else { (r2, r1) };
        let won: GameState = won.json().expect("state");
        let lost: ply_server::api::Conflict = lost.json().expect("a conflict");
        assert_eq!(won.version, s.version + 1);
        assert_eq!(
            lost.state.version, won.version,
            "the 409 shows the winner's move"
        );
        assert_eq!(lost.state.moves, won.moves);
        *out.applied.get_mut(&s.id).expect("game") += 1;
        out.races += 1;
        game = Some((g, won));
    }
    out
}

/// Resigning and drawing by agreement, through `a` and `b` (two servers on one store, or the
/// same server twice): offers, refusals, a move that declines an offer, a draw agreed and a
/// game resigned, each over with its reason, each kept by the store (read through `b`), and
/// the WebSocket taking the same requests. The ids of the game drawn and of the game resigned.
pub async fn resign_and_draw(a: SocketAddr, b: SocketAddr) -> (String, String) {
    use ply_server::api::{
        DrawAction, DrawRequest, EndReason, ErrorBody, GameStatus, ResignRequest,
    };
    let mut ca = Client::new(a);
    let mut cb = Client::new(b);
    let g = create(&mut ca, "cats_rabbits").await;
    let id = g.state.id.clone();
    let (rabbit, cat) = (g.seats["RABBIT"].clone(), g.seats["CAT"].clone());
    assert_eq!(
        (g.state.end_reason, g.state.draw_offer.clone()),
        (None, None)
    );
    let draw = |token: &str, version, draw| DrawRequest {
        token: token.to_string(),
        version,
        draw,
    };
    let post_draw = async |c: &mut Client, r: DrawRequest| {
        let a = c
            .post(&format!("/games/{id}/draw"), &r)
            .await
            .expect("POST");
        (a.status, a)
    };
    let state = |a: ply_server::client::Answer| -> GameState {
        assert_eq!(a.status, 200, "{}", a.text());
        a.json().expect("a state")
    };
    // Nothing to accept or decline yet; an offer stands until answered.
    assert_eq!(
        post_draw(&mut ca, draw(&cat, 0, DrawAction::Accept))
            .await
            .0,
        422
    );
    assert_eq!(
        post_draw(&mut ca, draw(&cat, 0, DrawAction::Decline))
            .await
            .0,
        422
    );
    let s = state(
        post_draw(&mut ca, draw(&rabbit, 0, DrawAction::Offer))
            .await
            .1,
    );
    assert_eq!((s.version, s.draw_offer.as_deref()), (1, Some("RABBIT")));
    assert_eq!(s.status, GameStatus::Playing);
    // Offering twice, or accepting one's own offer, is refused; a stale version is a conflict.
    assert_eq!(
        post_draw(&mut ca, draw(&rabbit, 1, DrawAction::Offer))
            .await
            .0,
        422
    );
    let (st, own) = post_draw(&mut ca, draw(&rabbit, 1, DrawAction::Accept)).await;
    assert_eq!(st, 403, "{}", own.text());
    assert!(
        own.json::<ErrorBody>()
            .expect("an error")
            .error
            .contains("other player")
    );
    assert_eq!(
        post_draw(&mut ca, draw(&cat, 0, DrawAction::Accept))
            .await
            .0,
        409
    );
    // The offerer's own move keeps the offer; the other's move declines it.
    let s = state(
        ca.post(&format!("/games/{id}/moves"), &mv(&rabbit, 1, "b1-b2"))
            .await
            .expect("POST"),
    );
    assert_eq!(s.draw_offer.as_deref(), Some("RABBIT"));
    let s = state(
        ca.post(&format!("/games/{id}/moves"), &mv(&cat, 2, "c7-c6"))
            .await
            .expect("POST"),
    );
    assert_eq!((s.version, s.draw_offer.as_deref()), (3, None));
    // Declined by the other; then offered again and accepted: drawn, by agreement.
    state(post_draw(&mut ca, draw(&cat, 3, DrawAction::Offer)).await.1);
    let s = state(
        post_draw(&mut ca, draw(&rabbit, 4, DrawAction::Decline))
            .await
            .1,
    );
    assert_eq!((s.version, s.draw_offer.as_deref()), (5, None));
    state(post_draw(&mut ca, draw(&cat, 5, DrawAction::Offer)).await.1);
    let s = state(
        post_draw(&mut ca, draw(&rabbit, 6, DrawAction::Accept))
            .await
            .1,
    );
    assert_eq!(s.status, GameStatus::Over);
    assert_eq!((s.winner.as_deref(), s.to_move.as_deref()), (None, None));
    assert_eq!(
        (s.end_reason, s.end_rule.as_deref()),
        (Some(EndReason::Agreement), None)
    );
    assert!(s.legal_moves.is_empty() && s.draw_offer.is_none());
    // Over: no move, no offer, no resignation.
    let a2 = ca
        .post(&format!("/games/{id}/moves"), &mv(&cat, 7, "c6-c5"))
        .await
        .expect("POST");
    assert_eq!(a2.status, 422, "{}", a2.text());
    assert_eq!(
        post_draw(&mut ca, draw(&cat, 7, DrawAction::Offer)).await.0,
        422
    );
    let resign = |token: &str, version| ResignRequest {
        token: token.to_string(),
        version,
        resign: true,
    };
    let r = ca
        .post(&format!("/games/{id}/resign"), &resign(&cat, 7))
        .await
        .expect("POST");
    assert_eq!(r.status, 422, "{}", r.text());
    // Kept: the other server (or the same one asked again) reads it from the store.
    let kept: GameState = cb
        .get(&format!("/games/{id}"))
        .await
        .expect("GET")
        .json()
        .expect("state");
    assert_eq!(
        (kept.version, kept.end_reason),
        (7, Some(EndReason::Agreement))
    );
    let drawn = id;

    // A second game, resigned over the WebSocket of the other server; `resign: false` and a
    // token of no seat are refused.
    let g = create(&mut ca, "cats_rabbits").await;
    let id = g.state.id.clone();
    let r = ca
        .post(
            &format!("/games/{id}/resign"),
            &ResignRequest {
                resign: false,
                ..resign(&g.seats["CAT"], 0)
            },
        )
        .await
        .expect("POST");
    assert_eq!(r.status, 422, "{}", r.text());
    let r = ca
        .post(&format!("/games/{id}/resign"), &resign("00", 0))
        .await
        .expect("POST");
    assert_eq!(r.status, 403, "{}", r.text());
    let mut w = ws(b, &id).await;
    assert_eq!(next_state(&mut w).await.version, 0);
    let text = serde_json::to_string(&resign(&g.seats["CAT"], 0)).expect("json");
    send(&mut w, text).await;
    let mut answered = None;
    let mut pushed = None;
    while answered.is_none() || pushed.is_none() {
        match next(&mut w).await {
            ServerMessage::Answer { status, body } => answered = Some((status, body)),
            ServerMessage::State { state } => pushed = Some(*state),
        }
    }
    let (status, body) = answered.expect("an answer");
    assert_eq!(status, 200, "{body}");
    let s = pushed.expect("a state");
    assert_eq!(s.status, GameStatus::Over);
    assert_eq!(s.winner.as_deref(), Some("RABBIT"));
    assert_eq!(s.end_reason, Some(EndReason::Resignation));
    let kept: GameState = ca
        .get(&format!("/games/{id}"))
        .await
        .expect("GET")
        .json()
        .expect("state");
    assert_eq!(
        (kept.winner.as_deref(), kept.end_reason),
        (Some("RABBIT"), Some(EndReason::Resignation))
    );
    // The record says so, as a comment (a replay of the moves would not reach it).
    let rec = ca.get(&format!("/games/{id}/record")).await.expect("GET");
    assert!(
        rec.text().contains("# CAT resigned: RABBIT wins"),
        "{}",
        rec.text()
    );
    assert!(!rec.text().contains("Result:"), "{}", rec.text());
    let resigned = id;
    // A draw offered over the WebSocket.
    let g = create(&mut ca, "cats_rabbits").await;
    let mut w = ws(b, &g.state.id).await;
    assert_eq!(next_state(&mut w).await.version, 0);
    let text =
        serde_json::to_string(&draw(&g.seats["RABBIT"], 0, DrawAction::Offer)).expect("json");
    send(&mut w, text).await;
    assert_eq!(
        next_state(&mut w).await.draw_offer.as_deref(),
        Some("RABBIT")
    );
    (drawn, resigned)
}

/// Creates a game of Cats and Rabbits with clocks; the answer as it came.
pub async fn create_timed(
    c: &mut Client,
    initial_ms: u64,
    increment_ms: u64,
) -> ply_server::client::Answer {
    c.post(
        "/games",
        &CreateGame {
            pack: "cats_rabbits".into(),
            options: Default::default(),
            engine: None,
            clock: Some(ply_server::api::TimeControl {
                initial_ms,
                increment_ms,
            }),
        },
    )
    .await
    .expect("POST /games")
}

/// Clocks, through `a` and `b` (two servers on one store, or one twice): a game with a time
/// control shows both clocks, the side to move's running; a bad time control is refused; a
/// player whose time runs out (a 1 s clock, nobody moving) loses with the reason `time`,
/// decided by the server without any request, seen through the other server too, and the
/// game then refuses moves. The ids of the game still running (a minute each) and of the
/// game lost on time.
pub async fn clocks(a: SocketAddr, b: SocketAddr) -> (String, String) {
    use ply_server::api::{EndReason, GameStatus};
    let mut ca = Client::new(a);
    let mut cb = Client::new(b);
    for (initial, increment) in [(0, 0), (ply_server::api::MAX_CLOCK_MS + 1, 0)] {
        let r = create_timed(&mut ca, initial, increment).await;
        assert_eq!(r.status, 422, "{}", r.text());
        assert!(r.text().contains("initial_ms"), "{}", r.text());
    }
    // JSON does not tell 1500 from 1500.0; a negative time or a fraction is not a time.
    for (body, status) in [
        (
            r#"{"pack": "cats_rabbits", "clock": {"initial_ms": 1500000.0}}"#,
            201,
        ),
        (
            r#"{"pack": "cats_rabbits", "clock": {"initial_ms": -5}}"#,
            400,
        ),
        (
            r#"{"pack": "cats_rabbits", "clock": {"initial_ms": 1.5}}"#,
            400,
        ),
    ] {
        let r = ca
            .raw("POST", "/games", body.as_bytes().to_vec(), &[])
            .await
            .expect("POST");
        assert_eq!(r.status, status, "{body}: {}", r.text());
    }
    let r = create_timed(&mut ca, 60_000, 1_000).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let g: CreatedGame = r.json().expect("a game");
    let clock = g.state.clock.clone().expect("clocks");
    assert_eq!(
        (clock.control.initial_ms, clock.control.increment_ms),
        (60_000, 1_000)
    );
    assert_eq!(clock.running.as_deref(), Some("RABBIT"));
    assert_eq!(
        clock.remaining_ms[1], 60_000,
        "the clock of the side not to move stands"
    );
    assert!(clock.remaining_ms[0] <= 60_000);
    let a1 = ca
        .post(
            &format!("/games/{}/moves", g.state.id),
            &mv(&g.seats["RABBIT"], 0, "b1-b2"),
        )
        .await
        .expect("POST");
    assert_eq!(a1.status, 200, "{}", a1.text());
    let s: GameState = a1.json().expect("a state");
    let clock = s.clock.expect("clocks");
    assert_eq!(clock.running.as_deref(), Some("CAT"));
    // The increment was added to the clock of the player who moved.
    assert!(
        clock.remaining_ms[0] <= 61_000 && clock.remaining_ms[0] > 1_000,
        "{clock:?}"
    );
    let running = g.state.id.clone();
    // An untimed game has no clocks.
    assert!(create(&mut ca, "cats_rabbits").await.state.clock.is_none());

    // A second each: nobody moves, RABBIT's flag falls.
    let r = create_timed(&mut ca, 1_000, 0).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let g: CreatedGame = r.json().expect("a game");
    let id = g.state.id.clone();
    let mut w = ws(b, &id).await;
    let mut s = next_state(&mut w).await;
    let waited = std::time::Instant::now();
    while s.status == GameStatus::Playing {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(30),
            "the flag never fell: {s:?}"
        );
        s = next_state(&mut w).await;
    }
    assert_eq!(s.winner.as_deref(), Some("CAT"));
    assert_eq!(s.end_reason, Some(EndReason::Time));
    let clock = s.clock.clone().expect("clocks");
    assert_eq!((clock.remaining_ms[0], clock.running), (0, None));
    assert_eq!(clock.remaining_ms[1], 1_000);
    let late = ca
        .post(
            &format!("/games/{id}/moves"),
            &mv(&g.seats["RABBIT"], 1, "b1-b2"),
        )
        .await
        .expect("POST");
    assert_eq!(late.status, 422, "{}", late.text());
    assert!(late.text().contains("the game is over"), "{}", late.text());
    let kept: GameState = ca
        .get(&format!("/games/{id}"))
        .await
        .expect("GET")
        .json()
        .expect("state");
    assert_eq!((kept.version, kept.end_reason), (1, Some(EndReason::Time)));
    let rec = cb.get(&format!("/games/{id}/record")).await.expect("GET");
    assert!(
        rec.text().contains("# RABBIT ran out of time: CAT wins"),
        "{}",
        rec.text()
    );
    (running, id)
}
