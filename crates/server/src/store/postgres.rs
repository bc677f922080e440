//! The PostgreSQL backend, for several `ply serve` processes on the same games.
//!
//! The version check holds across processes because `(game_id, version)` is the events
//! table's primary key: of two processes appending the same version, the database stores one
//! and refuses the other. Each append, once committed,
//! notifies (`pg_notify`) a channel that every process listens on, so that a move made through
//! one process reaches the WebSocket clients of the others.

use super::{Appended, BoxFuture, Change, Event, EventKind, NewGame, Store, StoreError};
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::broadcast;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Client, NoTls};

/// Connections used for queries (tokio-postgres pipelines the queries of one connection).
const CONNECTIONS: usize = 8;

/// A lock id taken while the tables are created, so that processes starting together do
/// not trip over each other.
const MIGRATION_LOCK: i64 = 0x706c_795f_7365_7276;

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    clients: Vec<Client>,
    next: AtomicUsize,
    channel: String,
    changes: broadcast::Sender<Change>,
    _listener: Client,
    describe: String,
}

fn valid_schema(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 48
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit()
}

async fn connect(
    db: &str,
    schema: Option<&str>,
    changes: Option<broadcast::Sender<Change>>,
) -> Result<Client, StoreError> {
    let (client, mut connection) = tokio_postgres::connect(db, NoTls).await?;
    tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if let Some(tx) = &changes
                        && let Some((game, version)) = n.payload().split_once(' ')
                        && let Ok(version) = version.parse()
                    {
                        let _ = tx.send(Change {
                            game: game.to_string(),
                            version,
                        });
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::error!("the PostgreSQL connection failed: {e}");
                    break;
                }
                None => break,
            }
        }
    });
    if let Some(s) = schema {
        client
            .batch_execute(&format!("SET search_path TO \"{s}\""))
            .await?;
    }
    Ok(client)
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
            ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL;"
    )
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
        let setup = connect(db, None, None).await?;
        setup
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        let made = setup.batch_execute(&schema_sql(schema)).await;
        setup
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await?;
        made?;
        drop(setup);
        let (tx, _) = broadcast::channel(1024);
        let channel = format!("ply_changes_{}", schema.unwrap_or("public"));
        let listener = connect(db, schema, Some(tx.clone())).await?;
        listener.batch_execute(&format!("LISTEN {channel}")).await?;
        let mut clients = Vec::with_capacity(CONNECTIONS);
        for _ in 0..CONNECTIONS {
            clients.push(connect(db, schema, None).await?);
        }
        let config: tokio_postgres::Config = db.parse()?;
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
            clients,
            next: AtomicUsize::new(0),
            channel,
            changes: tx,
            _listener: listener,
            describe,
        })
    }

    fn client(&self) -> &Client {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.clients.len();
        &self.clients[i]
    }
}

fn version_in(v: u64) -> Result<i64, StoreError> {
    i64::try_from(v).map_err(|_| StoreError::Corrupt(format!("version {v}")))
}

impl Store for PostgresStore {
    fn create<'a>(&'a self, g: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.client()
                .execute(
                    "INSERT INTO games (id, pack_name, options, pack_text, pack_sha256,
                         token_hash_first, token_hash_second, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    &[
                        &g.id,
                        &g.pack_name,
                        &g.options,
                        &g.pack_text,
                        &g.pack_sha256,
                        &g.token_hashes[0],
                        &g.token_hashes[1],
                        &g.created_ms,
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
                .query_opt(
                    "SELECT id, pack_name, options, pack_text, pack_sha256, token_hash_first,
                         token_hash_second, created_ms FROM games WHERE id = $1",
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
            }))
        })
    }

    fn events_since<'a>(
        &'a self,
        id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<Event>, StoreError>> {
        Box::pin(async move {
            let rows = self
                .client()
                .query(
                    "SELECT version, seat, kind, body, idempotency_key FROM events
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
            let done = self
                .client()
                .execute(
                    "INSERT INTO events (game_id, version, seat, kind, body, idempotency_key)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[&id, &version, &seat, &kind, &body, &e.idempotency_key],
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
            if let Err(err) = self
                .client()
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

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
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
