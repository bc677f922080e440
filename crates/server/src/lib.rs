//! `ply serve`: games of any rule pack for two remote players, over HTTP and WebSocket.
//!
//! The server is authoritative: every move is judged here, by the kernel, on the game's stored
//! pack; clients only propose. The README's "Serving games" section documents the API, and
//! its OpenAPI description ([`http::ApiDoc`], served at `GET /openapi.json`) is generated from
//! the documents of [`api`] and the routes' annotations.
//!
//! # Layout
//!
//! - [`api`]: the JSON documents, shared with tests and clients.
//! - [`games`]: the games in memory, one lock per game, each request judged against the
//!   state brought up to date from the store.
//! - [`store`]: the append-only event log behind one trait, SQLite and PostgreSQL.
//! - [`http`]: the routes, the WebSocket sessions, the bounded accept loop.
//! - [`client`]: a small HTTP client for tests, benchmarks and scripts.
//!
//! # Races
//!
//! A request names the version it was made on. Within a process a game's requests are judged
//! one at a time; across processes the store's unique `(game, version)` key stores one event
//! per version. Either way, of two moves made on the same version one is applied and the other
//! answered 409 with the current state.
#![deny(missing_docs)]

pub mod api;
pub mod bots;
pub mod client;
pub mod games;
pub mod guard;
pub mod http;
pub mod limits;
pub mod logging;
pub mod playground;
pub mod store;
pub mod web;

pub use tracing;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// The folder of packs offered.
    pub packs: PathBuf,
    /// A SQLite file, or a `postgres://` URL.
    pub db: String,
    /// With PostgreSQL: the schema to keep the tables in (created if need be).
    pub schema: Option<String>,
    /// The longest request body or WebSocket message, in bytes.
    pub max_body: usize,
    /// The most connections held at once.
    pub max_connections: usize,
    /// How long a connection may take to send a request's head (a new connection, or a
    /// kept-alive one between requests) before it is closed.
    pub idle_timeout: Duration,
    /// How long a game nobody reaches or watches stays in memory (it is loaded again from the
    /// store when next asked for).
    pub keep_idle_games: Duration,
    /// What the playground shows of a pack under its board (`ply show`'s summary, which the
    /// CLI gives); `None`: the board only.
    pub summary: Option<playground::Summary>,
    /// The longest the playground may take to load and try a pasted pack.
    pub check_time: Duration,
    /// The longest a request may take, its body included, before it is answered 408 and its
    /// connection closed (a slow body cannot hold a connection longer).
    pub request_timeout: Duration,
    /// Hosts the server answers to besides the loopback names and the address it listens on
    /// (`*`: any); see [`guard`].
    pub allowed_hosts: Vec<String>,
    /// The limits on creating games and on the playground, per client and at once.
    pub limits: limits::Limits,
    /// How long a game may go without a move (or any change) before it is removed from the
    /// store; `None`: games are kept for ever.
    pub expire_games: Option<Duration>,
    /// The worker process that checks pasted packs (under CPU-time and memory limits, killed
    /// at the deadline); `None`: on a thread of the server.
    pub pack_worker: Option<&'static playground::Worker>,
}

/// Reads a duration as `--expire-games` takes it: `30d`, `12h`, `90min`, `45s`, `500ms`, or
/// several (`1h 30min`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| {
        format!("`{text}` is not a duration ({e}): write it as 30d, 12h, 90min, 45s or 500ms")
    })
}

/// The defaults of `ply serve`'s flags.
impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            packs: PathBuf::from("rulesets"),
            db: "ply.db".to_string(),
            schema: None,
            max_body: 16 * 1024,
            max_connections: 4096,
            idle_timeout: Duration::from_secs(30),
            keep_idle_games: Duration::from_secs(600),
            summary: None,
            check_time: playground::CHECK_TIME,
            request_timeout: Duration::from_secs(30),
            allowed_hosts: Vec::new(),
            limits: limits::Limits::default(),
            expire_games: None,
            pack_worker: None,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The packs folder is not a folder.
    #[error("the packs folder {0} is not a readable folder")]
    Packs(PathBuf),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The store cannot be opened.
    #[error("cannot open the game store {db}: {source}")]
    Store {
        /// The database as given (a URL's password is not shown).
        db: String,
        /// Why.
        source: store::StoreError,
    },
    /// The async runtime or the server failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A server that is listening: its address, and a future that serves until stopped.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// What the store is (for a start-up message).
    pub store: String,
    tcp: tokio::net::TcpListener,
    router: axum::Router,
    connections: std::sync::Arc<tokio::sync::Semaphore>,
    idle_timeout: Duration,
}

fn hide_password(db: &str) -> String {
    match (db.find("://"), db.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &db[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &db[..s + 3], &db[at..]),
                None => db.to_string(),
            }
        }
        _ => db.to_string(),
    }
}

/// Opens the store and binds the address.
pub async fn bind(config: &Config) -> Result<Server, ServeError> {
    if !config.packs.is_dir() {
        return Err(ServeError::Packs(config.packs.clone()));
    }
    let store = store::open(&config.db, config.schema.as_deref())
        .await
        .map_err(|source| ServeError::Store {
            db: hide_password(&config.db),
            source,
        })?;
    let tcp = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = tcp.local_addr()?;
    let hub = games::Hub::new(
        store,
        config.packs.clone(),
        config.keep_idle_games,
        config.expire_games,
    );
    let store = hub.describe_store();
    let connections =
        std::sync::Arc::new(tokio::sync::Semaphore::new(config.max_connections.max(1)));
    Ok(Server {
        addr,
        store,
        tcp,
        router: http::router(
            hub,
            http::Bounds {
                max_body: config.max_body,
                connections: connections.clone(),
                request_timeout: config.request_timeout,
                ws_idle: config.idle_timeout,
                hosts: std::sync::Arc::new(guard::AllowedHosts::new(addr, &config.allowed_hosts)),
                limits: config.limits,
            },
            playground::Settings {
                summary: config.summary,
                time: config.check_time,
                worker: config.pack_worker,
            },
        ),
        connections,
        idle_timeout: config.idle_timeout,
    })
}

impl Server {
    /// Serves until `stop` completes.
    pub async fn run(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let serving =
            http::serve_connections(self.tcp, self.router, self.connections, self.idle_timeout);
        tokio::select! {
            r = serving => r.map_err(ServeError::Io),
            () = stop => Ok(()),
        }
    }
}

/// Serves `config` on a new multi-threaded runtime until interrupted (Ctrl-C or SIGTERM);
/// `ready` is called with the server once it listens (to print its address).
pub fn serve_blocking(config: &Config, ready: impl FnOnce(&Server)) -> Result<(), ServeError> {
    // Loading a pasted pack parses and checks it on a blocking thread: give threads the stack
    // a command's main thread has.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(8 * 1024 * 1024)
        .enable_all()
        .build()?;
    let served = rt.block_on(async {
        let server = bind(config).await?;
        ready(&server);
        server.run(stopped()).await
    });
    // Every acknowledged change is committed: what is still running (a pasted pack's check, an
    // engine's search) is given a moment, not waited for.
    rt.shutdown_timeout(SHUTDOWN_GRACE);
    served
}

/// How long a stopping server waits for the work still running on its blocking threads.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Completes on Ctrl-C or, on Unix, SIGTERM. Every acknowledged change is committed already,
/// so stopping needs no clean-up.
async fn stopped() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => tracing::info!("interrupted: stopping"),
            _ = term.recv() => tracing::info!("SIGTERM: stopping"),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
