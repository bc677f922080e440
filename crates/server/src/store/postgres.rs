//! The PostgreSQL backend, for several `ply serve` processes on the same games.
//!
//! The version check holds across processes because `(game_id, version)` is the events
//! table's primary key: of two processes appending the same version, the database stores one
//! and refuses the other. Each append, once committed,
//! notifies (`pg_notify`) a channel that every process listens on, so that a move made through
//! one process reaches the WebSocket clients of the others.
//!
//! Queries take a connection from a `deadpool-postgres` pool, which makes connections anew
//! when the database comes back after a restart; while it is away, taking a connection fails
//! within [`CONNECT_TIMEOUT`] and the request is answered 503. The listener is a task of its
//! own that connects again (every [`RELISTEN_PAUSE`]) and listens again; once it does, it tells
//! the hub that changes may have been missed, so that every watched game is read again.

use super::{Appended, BoxFuture, Change, Event, EventKind, NewGame, Store, StoreError};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, NoTls};

/// The most connections used for queries at once (tokio-postgres pipelines the queries of
/// one connection).
const CONNECTIONS: usize = 8;

/// How long taking a connection from the pool may take: waiting for a free one, or making a
/// new one (the database may be away).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The pause between two attempts of the listener to connect again.
pub const RELISTEN_PAUSE: Duration = Duration::from_millis(500);

/// A lock id taken while the tables are created, so that processes starting together do
/// not trip over each other.
const MIGRATION_LOCK: i64 = 0x706c_795f_7365_7276;

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
    channel: String,
    changes: broadcast::Sender<Option<Change>>,
    listener: tokio::task::AbortHandle,
    describe: String,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

fn valid_schema(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 48
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit()
}

fn schema_sql(schema: Option<&str>) -> String {
    let create = schema
        .map(|s| format!("CREATE SCHEMA IF NOT EXISTS \"{s}\"; SET search_path TO \"{s}\";"))
        .unwrap_or_default();
    format!(
        "{create}
        CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            pack_name TEXT NOT NULL,
            options TEXT NOT NULL,
            pack_text TEXT NOT NULL,
            pack_sha256 TEXT NOT NULL,
            token_hash_first TEXT NOT NULL,
            token_hash_second TEXT NOT NULL,
            created_ms BIGINT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS events (
            game_id TEXT NOT NULL REFERENCES games(id),
            version BIGINT NOT NULL CHECK (version > 0),
            seat SMALLINT NOT NULL CHECK (seat IN (0, 1)),
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            idempotency_key TEXT,
            PRIMARY KEY (game_id, version)
        );
        CREATE UNIQUE INDEX IF NOT EXISTS events_idempotency
            ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
        ALTER TABLE events ADD COLUMN IF NOT EXISTS at_ms BIGINT;
        ALTER TABLE games ADD COLUMN IF NOT EXISTS engine TEXT;
        ALTER TABLE games ADD COLUMN IF NOT EXISTS clock TEXT;
        CREATE TABLE IF NOT EXISTS expired (
            id TEXT PRIMARY KEY,
            expired_ms BIGINT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS expired_at ON expired (expired_ms);"
    )
}

/// Listens on `channel` for as long as the store lives, connecting again whenever the
/// connection is lost; sends `None` once listening again (changes may have been missed).
async fn listen(
    config: tokio_postgres::Config,
    channel: String,
    tx: broadcast::Sender<Option<Change>>,
) {
    let mut first = true;
    loop {
        let connected = tokio::time::timeout(CONNECT_TIMEOUT, config.connect(NoTls)).await;
        let (client, mut connection) = match connected {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => {
                tracing::warn!("PostgreSQL listener: cannot connect: {e}");
                tokio::time::sleep(RELISTEN_PAUSE).await;
                continue;
            }
            Err(_) => {
                tracing::warn!("PostgreSQL listener: no connection within {CONNECT_TIMEOUT:?}");
                tokio::time::sleep(RELISTEN_PAUSE).await;
                continue;
            }
        };
        // The connection is driven here, and the LISTEN sent through the client meanwhile.
        let listen_sql = format!("LISTEN {channel}");
        let subscribe = client.batch_execute(&listen_sql);
        tokio::pin!(subscribe);
        let mut subscribed = false;
        loop {
            tokio::select! {
                done = &mut subscribe, if !subscribed => {
                    match done {
                        Ok(()) => {
                            subscribed = true;
                            if !first {
                                tracing::info!("PostgreSQL listener: listening again");
                                let _ = tx.send(None);
                            }
                            first = false;
                        }
                        Err(e) => {
                            tracing::warn!("PostgreSQL listener: LISTEN failed: {e}");
                            break;
                        }
                    }
                }
                message = std::future::poll_fn(|cx| connection.poll_message(cx)) => {
                    match message {
                        Some(Ok(AsyncMessage::Notification(n))) => {
                            if let Some((game, version)) = n.payload().split_once(' ')
                                && let Ok(version) = version.parse()
                            {
                                let _ = tx.send(Some(Change {
                                    game: game.to_string(),
                                    version,
                                }));
                            }
                        }
                        Some(Ok(_)) => {}
                        Some(Err(e)) => {
                            tracing::error!("PostgreSQL listener: the connection failed: {e}");
                            break;
                        }
                        None => {
                            tracing::error!("PostgreSQL listener: the connection closed");
                            break;
                        }
                    }
                }
            }
        }
        tokio::time::sleep(RELISTEN_PAUSE).await;
    }
}

impl PostgresStore {
    /// Connects, creates the schema (if named) and the tables if need be, and starts
    /// listening for other processes' changes.
    pub async fn open(db: &str, schema: Option<&str>) -> Result<PostgresStore, StoreError> {
        if let Some(s) = schema
            && !valid_schema(s)
        {
            return Err(StoreError::Address(format!(
                "`{s}` is not a schema name this server uses: lower-case letters, digits and \
                 `_`, not starting with a digit, at most 48"
            )));
        }
        let mut config: tokio_postgres::Config = db.parse()?;
        config.connect_timeout(CONNECT_TIMEOUT);
        {
            let (setup, connection) = config.connect(NoTls).await?;
            let driven = tokio::spawn(connection);
            setup
                .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            let made = setup.batch_execute(&schema_sql(schema)).await;
            setup
                .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
                .await?;
            made?;
            drop(setup);
            let _ = driven.await;
        }
        if let Some(s) = schema {
            config.options(format!("-c search_path={s}"));
        }
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(CONNECTIONS)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECT_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Unavailable(e.to_string()))?;
        // One connection now, so that a database that cannot be reached is refused at start.
        drop(
            pool.get()
                .await
                .map_err(|e| StoreError::Unavailable(e.to_string()))?,
        );
        let (tx, _) = broadcast::channel(1024);
        let channel = format!("ply_changes_{}", schema.unwrap_or("public"));
        let listener =
            tokio::spawn(listen(config.clone(), channel.clone(), tx.clone())).abort_handle();
        let host = config
            .get_hosts()
            .first()
            .map(|h| match h {
                tokio_postgres::config::Host::Tcp(h) => h.clone(),
                tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .unwrap_or_default();
        let describe = format!(
            "PostgreSQL database {} on {host}, schema {}",
            config.get_dbname().unwrap_or("(default)"),
            schema.unwrap_or("public")
        );
        Ok(PostgresStore {
            pool,
            channel,
            changes: tx,
            listener,
            describe,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Client, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))
    }
}

fn version_in(v: u64) -> Result<i64, StoreError> {
    i64::try_from(v).map_err(|_| StoreError::Corrupt(format!("version {v}")))
}

impl Store for PostgresStore {
    fn create<'a>(&'a self, g: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute(
                    "INSERT INTO games (id, pack_name, options, pack_text, pack_sha256,
                         token_hash_first, token_hash_second, created_ms, engine, clock)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                    &[
                        &g.id,
                        &g.pack_name,
                        &g.options,
                        &g.pack_text,
                        &g.pack_sha256,
                        &g.token_hashes[0],
                        &g.token_hashes[1],
                        &g.created_ms,
                        &g.engine,
                        &g.clock,
                    ],
                )
                .await?;
            Ok(())
        })
    }

    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<NewGame>, StoreError>> {
        Box::pin(async move {
            let row = self
                .client()
                .await?
                .query_opt(
                    "SELECT id, pack_name, options, pack_text, pack_sha256, token_hash_first,
                         token_hash_second, created_ms, engine, clock FROM games WHERE id = $1",
                    &[&id],
                )
                .await?;
            Ok(row.map(|r| NewGame {
                id: r.get(0),
                pack_name: r.get(1),
                options: r.get(2),
                pack_text: r.get(3),
                pack_sha256: r.get(4),
                token_hashes: [r.get(5), r.get(6)],
                created_ms: r.get(7),
                engine: r.get(8),
                clock: r.get(9),
            }))
        })
    }

    fn events_since<'a>(
        &'a self,
        id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<Event>, StoreError>> {
        Box::pin(async move {
            let client = self.client().await?;
            let rows = client
                .query(
                    "SELECT version, seat, kind, body, idempotency_key, at_ms FROM events
                     WHERE game_id = $1 AND version > $2 ORDER BY version",
                    &[&id, &version_in(after)?],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    let version: i64 = r.get(0);
                    let seat: i16 = r.get(1);
                    let kind: &str = r.get(2);
                    let body: &str = r.get(3);
                    Ok(Event {
                        version: u64::try_from(version)
                            .map_err(|_| StoreError::Corrupt(format!("version {version}")))?,
                        seat: u8::try_from(seat)
                            .map_err(|_| StoreError::Corrupt(format!("seat {seat}")))?,
                        kind: EventKind::from_columns(kind, body)?,
                        idempotency_key: r.get(4),
                        at_ms: r.get::<_, Option<i64>>(5).unwrap_or(0),
                    })
                })
                .collect()
        })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        e: &'a Event,
    ) -> BoxFuture<'a, Result<Appended, StoreError>> {
        Box::pin(async move {
            let (kind, body) = e.kind.to_columns();
            let seat = i16::from(e.seat);
            let version = version_in(e.version)?;
            let client = self.client().await?;
            let done = client
                .execute(
                    "INSERT INTO events (game_id, version, seat, kind, body, idempotency_key, at_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    &[
                        &id,
                        &version,
                        &seat,
                        &kind,
                        &body,
                        &e.idempotency_key,
                        &e.at_ms,
                    ],
                )
                .await;
            match done {
                Ok(_) => {}
                Err(err) if err.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                    return Ok(Appended::Conflict);
                }
                Err(err) => return Err(err.into()),
            }
            // Told after the commit, in a transaction of its own: a transaction that notifies
            // holds a database-wide lock while it commits, which would make every move's
            // commit (and its flush to disk) wait for the others'. A notification lost to a
            // crash between the two only delays other processes' pushes until the next
            // change or request; the move itself is stored and acknowledged.
            if let Err(err) = client
                .execute(
                    "SELECT pg_notify($1, $2)",
                    &[&self.channel, &format!("{id} {}", e.version)],
                )
                .await
            {
                tracing::warn!("PostgreSQL notification failed: {err}");
            }
            Ok(Appended::Stored)
        })
    }

    fn expire<'a>(&'a self, before_ms: i64) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(async move {
            // One statement: the games chosen (locked, skipping those another process is
            // removing), their events, then the games.
            let client = self.client().await?;
            let rows = client
                .query(
                    "WITH gone AS (
                         SELECT id FROM games g WHERE created_ms < $1 AND NOT EXISTS
                             (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.at_ms >= $1)
                         LIMIT $2 FOR UPDATE SKIP LOCKED),
                     dropped AS (DELETE FROM events WHERE game_id IN (SELECT id FROM gone)),
                     removed AS (DELETE FROM games WHERE id IN (SELECT id FROM gone) RETURNING id),
                     kept AS (INSERT INTO expired (id, expired_ms) SELECT id, $3 FROM removed
                         ON CONFLICT (id) DO UPDATE SET expired_ms = EXCLUDED.expired_ms)
                     SELECT id FROM removed",
                    &[&before_ms, &super::EXPIRE_BATCH, &super::now_ms()],
                )
                .await?;
            // The records of removals older than the games' own time are forgotten.
            client
                .execute(
                    "DELETE FROM expired WHERE id IN
                         (SELECT id FROM expired WHERE expired_ms < $1 LIMIT $2)",
                    &[&before_ms, &super::EXPIRE_BATCH],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn expired<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        Box::pin(async move {
            let row = self
                .client()
                .await?
                .query_opt("SELECT expired_ms FROM expired WHERE id = $1", &[&id])
                .await?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn changes(&self) -> Option<broadcast::Receiver<Option<Change>>> {
        Some(self.changes.subscribe())
    }

    fn describe(&self) -> String {
        self.describe.clone()
    }
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe)
    }
}
