//! Storage: games and their append-only event logs, behind one trait ([`Store`]) with two
//! backends, [`SqliteStore`] (the default: one file, nothing to set up) and [`PostgresStore`]
//! (several `ply serve` processes on the same games).
//!
//! A game's log is a list of [`Event`]s numbered by version, 1, 2, 3... The version is a
//! unique key of the log (with the game's id): appending the event of a version that is
//! already taken fails with [`Appended::Conflict`], whatever process tried, so two moves made
//! on the same version can never both be stored. Nothing is ever updated or deleted: an
//! agreed undo is an event too.

mod postgres;
mod sqlite;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tokio::sync::broadcast;

/// A boxed future, so that the trait can be used as `dyn Store`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A storage failure (the database's own error, or stored data that cannot be read back).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no.
    #[error("postgres: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// A blocking database task died.
    #[error("a database task failed: {0}")]
    Task(String),
    /// Stored data that is not what this server writes.
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
    /// The database address is not one this server knows how to open.
    #[error("{0}")]
    Address(String),
    /// The database cannot be reached now (no connection within the time allowed), or was
    /// busy past the time allowed.
    #[error("the database is not available: {0}")]
    Unavailable(String),
    /// The database can be read but not written.
    #[error("the database cannot be written: {0}")]
    ReadOnly(String),
}

/// A game as created: everything about it but its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game's id.
    pub id: String,
    /// The pack's name when the game was created.
    pub pack_name: String,
    /// The options given, as a JSON object.
    pub options: String,
    /// The pack's resolved text (`extends` and options applied): the game is played by it.
    pub pack_text: String,
    /// SHA-256 of `pack_text`, hex.
    pub pack_sha256: String,
    /// SHA-256 of each seat's token, hex, first player first. Tokens themselves are never
    /// stored.
    pub token_hashes: [String; 2],
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The engine that plays one of its seats, if any: an [`crate::api::EngineSeat`] as JSON,
    /// its seat named. Stored with the game, so that a server started again on the same
    /// database plays it on.
    pub engine: Option<String>,
    /// The time control, if the game has clocks: a [`crate::api::TimeControl`] as JSON. The
    /// time each player has left is not stored: it follows from the time control and the
    /// times of the events.
    pub clock: Option<String>,
}

/// One change of a game, at one version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The version the game has once this event is applied (the first event is version 1).
    pub version: u64,
    /// The seat that made it (0 for the first player, 1 for the second).
    pub seat: u8,
    /// What happened.
    pub kind: EventKind,
    /// The idempotency key the request carried, if any (unique within a game).
    pub idempotency_key: Option<String>,
    /// When it was stored, in milliseconds since the Unix epoch (0 for an event stored before
    /// the time was kept).
    pub at_ms: i64,
}

/// What an event does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A move, its path in notation (`c1xc3xe3`).
    Move(String),
    /// The seat asks to take back the last move.
    UndoAsk,
    /// The seat agrees: the last move is taken back.
    UndoAccept,
    /// The seat refuses the other's request, or withdraws its own.
    UndoDecline,
    /// The seat resigns: the other wins.
    Resign,
    /// The seat offers a draw.
    DrawOffer,
    /// The seat accepts the other's offer: a draw.
    DrawAccept,
    /// The seat declines the other's offer, or withdraws its own.
    DrawDecline,
    /// The seat's time ran out (its flag fell): the other wins.
    Time,
}

impl EventKind {
    /// The stored `(kind, body)` pair.
    pub fn to_columns(&self) -> (&'static str, &str) {
        match self {
            EventKind::Move(text) => ("move", text),
            EventKind::UndoAsk => ("undo_ask", ""),
            EventKind::UndoAccept => ("undo_accept", ""),
            EventKind::UndoDecline => ("undo_decline", ""),
            EventKind::Resign => ("resign", ""),
            EventKind::DrawOffer => ("draw_offer", ""),
            EventKind::DrawAccept => ("draw_accept", ""),
            EventKind::DrawDecline => ("draw_decline", ""),
            EventKind::Time => ("time", ""),
        }
    }

    /// Reads a stored `(kind, body)` pair back.
    pub fn from_columns(kind: &str, body: &str) -> Result<EventKind, StoreError> {
        Ok(match kind {
            "move" => EventKind::Move(body.to_string()),
            "undo_ask" => EventKind::UndoAsk,
            "undo_accept" => EventKind::UndoAccept,
            "undo_decline" => EventKind::UndoDecline,
            "resign" => EventKind::Resign,
            "draw_offer" => EventKind::DrawOffer,
            "draw_accept" => EventKind::DrawAccept,
            "draw_decline" => EventKind::DrawDecline,
            "time" => EventKind::Time,
            other => return Err(StoreError::Corrupt(format!("unknown event kind `{other}`"))),
        })
    }
}

/// What appending an event came to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Appended {
    /// Stored (committed) at its version.
    Stored,
    /// Not stored: its version, or its idempotency key, is taken in this game.
    Conflict,
}

/// A change made by some process: the game's id and its new version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game.
    pub game: String,
    /// Its version after the change.
    pub version: u64,
}

/// Where games are kept. Every method answers only once the database has committed.
pub trait Store: Send + Sync + 'static {
    /// Stores a new game.
    fn create<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>>;
    /// A game by id, if there is one.
    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<NewGame>, StoreError>>;
    /// The game's events of versions greater than `after`, in order.
    fn events_since<'a>(
        &'a self,
        id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<Event>, StoreError>>;
    /// Appends an event at its version: stored only if no event of the game has that version
    /// or that idempotency key.
    fn append<'a>(
        &'a self,
        id: &'a str,
        event: &'a Event,
    ) -> BoxFuture<'a, Result<Appended, StoreError>>;
    /// Removes the games (their events, then the game) created before `before_ms` and with no
    /// event stored since (times in milliseconds since the Unix epoch), at most
    /// [`EXPIRE_BATCH`] a call; answers the ids removed. Each removal is recorded (for
    /// [`Store::expired`]), and the records of removals made before `before_ms` are forgotten
    /// (at most [`EXPIRE_BATCH`] a call): a removed game is told apart from one that never
    /// was for as long as games are kept, so the records stay as bounded as the games.
    fn expire<'a>(&'a self, before_ms: i64) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;
    /// When the game of that id was removed by [`Store::expire`], if it was (in milliseconds
    /// since the Unix epoch).
    fn expired<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>>;
    /// Changes made by other processes sharing the database, as they happen (PostgreSQL's
    /// LISTEN/NOTIFY; SQLite's file polled every [`SQLITE_POLL`]); `None` when the backend
    /// cannot tell. A `None` in the channel
    /// says that changes may have been missed (the backend listens again after a lost
    /// connection): every watched game is to be read again.
    fn changes(&self) -> Option<broadcast::Receiver<Option<Change>>>;
    /// A short description for the start-up message (never a password).
    fn describe(&self) -> String;
}

/// How often a SQLite store looks for changes made by another process on the same file (a
/// `PRAGMA data_version` on a connection of its own; the events are read only when it
/// changed): a watcher connected to one process sees another's move within about this time.
pub const SQLITE_POLL: Duration = Duration::from_millis(200);

/// The most games one call of [`Store::expire`] removes (the next call removes more).
pub const EXPIRE_BATCH: i64 = 500;

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The longest any call of the store may take before the request is answered 503: the
/// database is away, or busy (another process holds SQLite's write lock).
pub const STORE_TIMEOUT: Duration = Duration::from_secs(8);

/// A store whose every call answers within a time limit: past it, the call fails with
/// [`StoreError::Unavailable`] (and the request is answered 503 with `Retry-After`), so that
/// no request waits on a database for ever. A call cut short may still complete in the
/// database (an append then is stored, and a retry with the same idempotency key finds it).
pub struct Bounded {
    inner: Box<dyn Store>,
    limit: Duration,
}

impl Bounded {
    /// `inner`, each call bounded by `limit`.
    pub fn new(inner: Box<dyn Store>, limit: Duration) -> Bounded {
        Bounded { inner, limit }
    }

    async fn within<T>(
        &self,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        tokio::time::timeout(self.limit, call)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Unavailable(format!(
                    "no answer within {:?}",
                    self.limit
                )))
            })
    }
}

impl Store for Bounded {
    fn create<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.within(self.inner.create(game)))
    }

    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<NewGame>, StoreError>> {
        Box::pin(self.within(self.inner.game(id)))
    }

    fn events_since<'a>(
        &'a self,
        id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<Event>, StoreError>> {
        Box::pin(self.within(self.inner.events_since(id, after)))
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        event: &'a Event,
    ) -> BoxFuture<'a, Result<Appended, StoreError>> {
        Box::pin(self.within(self.inner.append(id, event)))
    }

    fn expire<'a>(&'a self, before_ms: i64) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(self.within(self.inner.expire(before_ms)))
    }

    fn expired<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        Box::pin(self.within(self.inner.expired(id)))
    }

    fn changes(&self) -> Option<broadcast::Receiver<Option<Change>>> {
        self.inner.changes()
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

/// Opens the store that `db` names: `postgres://...` or `postgresql://...` for PostgreSQL
/// (`schema` then names the schema to keep the tables in, created if need be), anything else
/// a SQLite file (created if need be).
pub async fn open(db: &str, schema: Option<&str>) -> Result<Box<dyn Store>, StoreError> {
    let store: Box<dyn Store> = if db.starts_with("postgres://") || db.starts_with("postgresql://")
    {
        Box::new(PostgresStore::open(db, schema).await?)
    } else if schema.is_some() {
        return Err(StoreError::Address(
            "a schema is for PostgreSQL; a SQLite database has none".into(),
        ));
    } else {
        Box::new(SqliteStore::open(db).await?)
    };
    Ok(Box::new(Bounded::new(store, STORE_TIMEOUT)))
}
