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
