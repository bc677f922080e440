//! The SQLite backend: one file, write-ahead log, `synchronous = FULL`, so that an event is
//! on disk before the append that stored it returns (and so before any answer says so).

use super::{Appended, BoxFuture, Change, Event, EventKind, NewGame, Store, StoreError};
use rusqlite::{Connection, ErrorCode, OptionalExtension, params};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    pack_name TEXT NOT NULL,
    options TEXT NOT NULL,
    pack_text TEXT NOT NULL,
    pack_sha256 TEXT NOT NULL,
    token_hash_first TEXT NOT NULL,
    token_hash_second TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL CHECK (version > 0),
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    idempotency_key TEXT,
    at_ms INTEGER,
    PRIMARY KEY (game_id, version)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_idempotency
    ON events (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS expired (
    id TEXT PRIMARY KEY,
    expired_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS expired_at ON expired (expired_ms);
";

/// How long a call waits for SQLite's write lock (another process may hold it) before it
/// fails and its request is answered 503.
pub const BUSY_WAIT: Duration = Duration::from_secs(5);

/// Games in a SQLite file.
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    path: String,
    /// The changes seen in the file (another process's among them), from the poller.
    changes: broadcast::Sender<Option<Change>>,
    /// Tells the poller to stop (when the store is dropped).
    stop: Arc<AtomicBool>,
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The most events the poller reads at one look; past it, it says that changes may have
/// been missed (every watched game is read again).
const POLL_BATCH: i64 = 1000;

/// Watches the file for events stored by any connection (another process's included) and
/// sends them as changes: every [`super::SQLITE_POLL`] a `PRAGMA data_version` on a
/// connection of its own, which changes only when the file was written; then the events
/// stored since the last look, by rowid. Runs on a thread of its own until `stop`.
fn poll(path: String, tx: broadcast::Sender<Option<Change>>, stop: Arc<AtomicBool>) {
    let opened = Connection::open_with_flags(
        &path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .and_then(|c| {
        c.busy_timeout(super::SQLITE_POLL)?;
        Ok(c)
    });
    let conn = match opened {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!("{path}: pushes of other processes' changes are off: {e}");
            return;
        }
    };
    let version =
        |c: &Connection| c.pragma_query_value(None, "data_version", |r| r.get::<_, i64>(0));
    let mut seen: Option<i64> = None;
    let mut last_row: Option<i64> = None;
    let mut warned = false;
    while !stop.load(Ordering::Relaxed) {
        let looked = (|| -> Result<(), rusqlite::Error> {
            let v = version(&conn)?;
            if seen == Some(v) && last_row.is_some() {
                return Ok(());
            }
            seen = Some(v);
            let Some(after) = last_row else {
                last_row = Some(conn.query_row(
                    "SELECT COALESCE(MAX(rowid), 0) FROM events",
                    [],
                    |r| r.get(0),
                )?);
                return Ok(());
            };
            let mut st = conn.prepare_cached(
                "SELECT rowid, game_id, version FROM events WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
            )?;
            let rows: Vec<(i64, String, i64)> = st
                .query_map(params![after, POLL_BATCH], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<Result<_, _>>()?;
            if rows.len() as i64 == POLL_BATCH {
                let _ = tx.send(None);
            } else {
                let mut newest: std::collections::HashMap<String, u64> = Default::default();
                for (_, game, version) in &rows {
                    let v = u64::try_from(*version).unwrap_or(0);
                    let e = newest.entry(game.clone()).or_insert(v);
                    *e = (*e).max(v);
                }
                for (game, version) in newest {
                    let _ = tx.send(Some(Change { game, version }));
                }
            }
            if let Some((row, _, _)) = rows.last() {
                last_row = Some(*row);
            }
            Ok(())
        })();
        match looked {
            Ok(()) => warned = false,
            Err(e) if !warned => {
                tracing::warn!("{path}: looking for other processes' changes: {e}");
                warned = true;
            }
            Err(_) => {}
        }
        std::thread::sleep(super::SQLITE_POLL);
    }
}

/// Refuses a database this process can read but not write: at start, rather than at the
/// first move.
fn check_writable(conn: &Connection) -> Result<(), StoreError> {
    let refused = |why: String| StoreError::ReadOnly(why);
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        return Err(refused("it is open read-only (the file or its folder is not writable, or the address asks for `mode=ro`)".into()));
    }
    // Setting the header's user version to what it is makes a write transaction.
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    match conn.pragma_update(None, "user_version", v) {
        Err(rusqlite::Error::SqliteFailure(f, m)) if f.code == ErrorCode::ReadOnly => {
            Err(refused(m.unwrap_or_else(|| f.to_string())))
        }
        other => Ok(other?),
    }
}

impl SqliteStore {
    /// Opens (or creates) the database file and its tables.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let p = path.to_string();
        let conn = tokio::task::spawn_blocking(move || -> Result<Connection, StoreError> {
            let conn = Connection::open(&p)?;
            conn.busy_timeout(BUSY_WAIT)?;
            check_writable(&conn)?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.pragma_update(None, "foreign_keys", "ON")?;
            conn.execute_batch(SCHEMA)?;
            // A file made before events kept their time gets the column (its old events count
            // as old).
            let has_time: bool = conn.query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('events') WHERE name = 'at_ms'",
                [],
                |r| r.get(0),
            )?;
            if !has_time {
                conn.execute_batch("ALTER TABLE events ADD COLUMN at_ms INTEGER")?;
            }
            // A file made before engines were stored gets the column (its games have none).
            let has_engine: bool = conn.query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('games') WHERE name = 'engine'",
                [],
                |r| r.get(0),
            )?;
            if !has_engine {
                conn.execute_batch("ALTER TABLE games ADD COLUMN engine TEXT")?;
            }
            // And before clocks were (its games have none).
            let has_clock: bool = conn.query_row(
                "SELECT COUNT(*) > 0 FROM pragma_table_info('games') WHERE name = 'clock'",
                [],
                |r| r.get(0),
            )?;
            if !has_clock {
                conn.execute_batch("ALTER TABLE games ADD COLUMN clock TEXT")?;
            }
            Ok(conn)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))??;
        let changes = broadcast::channel(1024).0;
        let stop = Arc::new(AtomicBool::new(false));
        let memory = path == ":memory:" || path.contains("mode=memory");
        if !memory {
            let (p, tx, halt) = (path.to_string(), changes.clone(), stop.clone());
            std::thread::Builder::new()
                .name("ply-sqlite-poll".into())
                .spawn(move || poll(p, tx, halt))
                .map_err(|e| StoreError::Task(e.to_string()))?;
        }
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            path: path.to_string(),
            changes,
            stop,
        })
    }

    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let conn = self.conn.clone();
        let deadline = Instant::now() + BUSY_WAIT;
        tokio::task::spawn_blocking(move || {
            let mut c = conn
                .lock()
                .map_err(|_| StoreError::Task("the connection's lock is poisoned".into()))?;
            // Calls queued behind one that waited for another process's lock wait no longer
            // than their own share: past their deadline they fail at once.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(StoreError::Unavailable(
                    "the database is busy (another process holds its write lock)".into(),
                ));
            }
            c.busy_timeout(left)?;
            f(&mut c).map_err(busy_is_unavailable)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }
}

fn busy_is_unavailable(e: StoreError) -> StoreError {
    match e {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _))
            if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
        {
            StoreError::Unavailable(format!(
                "the database is busy past {BUSY_WAIT:?} (another process holds its write lock)"
            ))
        }
        e => e,
    }
}

fn version_of(v: i64) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| StoreError::Corrupt(format!("version {v}")))
}

fn version_in(v: u64) -> Result<i64, StoreError> {
    i64::try_from(v).map_err(|_| StoreError::Corrupt(format!("version {v}")))
}

impl Store for SqliteStore {
    fn create<'a>(&'a self, game: &'a NewGame) -> BoxFuture<'a, Result<(), StoreError>> {
        let g = game.clone();
        Box::pin(self.with(move |c| {
            c.execute(
                "INSERT INTO games (id, pack_name, options, pack_text, pack_sha256,
                     token_hash_first, token_hash_second, created_ms, engine, clock)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    g.id,
                    g.pack_name,
                    g.options,
                    g.pack_text,
                    g.pack_sha256,
                    g.token_hashes[0],
                    g.token_hashes[1],
                    g.created_ms,
                    g.engine,
                    g.clock
                ],
            )?;
            Ok(())
        }))
    }

    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<NewGame>, StoreError>> {
        let id = id.to_string();
        Box::pin(self.with(move |c| {
            Ok(c.query_row(
                "SELECT id, pack_name, options, pack_text, pack_sha256, token_hash_first,
                     token_hash_second, created_ms, engine, clock FROM games WHERE id = ?1",
                [&id],
                |r| {
                    Ok(NewGame {
                        id: r.get(0)?,
                        pack_name: r.get(1)?,
                        options: r.get(2)?,
                        pack_text: r.get(3)?,
                        pack_sha256: r.get(4)?,
                        token_hashes: [r.get(5)?, r.get(6)?],
                        created_ms: r.get(7)?,
                        engine: r.get(8)?,
                        clock: r.get(9)?,
                    })
                },
            )
            .optional()?)
        }))
    }

    fn events_since<'a>(
        &'a self,
        id: &'a str,
        after: u64,
    ) -> BoxFuture<'a, Result<Vec<Event>, StoreError>> {
        let id = id.to_string();
        Box::pin(self.with(move |c| {
            let mut st = c.prepare_cached(
                "SELECT version, seat, kind, body, idempotency_key, at_ms FROM events
                 WHERE game_id = ?1 AND version > ?2 ORDER BY version",
            )?;
            let rows = st.query_map(params![id, version_in(after)?], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (version, seat, kind, body, key, at_ms) = row?;
                out.push(Event {
                    version: version_of(version)?,
                    seat: u8::try_from(seat)
                        .map_err(|_| StoreError::Corrupt(format!("seat {seat}")))?,
                    kind: EventKind::from_columns(&kind, &body)?,
                    idempotency_key: key,
                    at_ms: at_ms.unwrap_or(0),
                });
            }
            Ok(out)
        }))
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        event: &'a Event,
    ) -> BoxFuture<'a, Result<Appended, StoreError>> {
        let id = id.to_string();
        let e = event.clone();
        Box::pin(self.with(move |c| {
            let (kind, body) = e.kind.to_columns();
            let done = c.execute(
                "INSERT INTO events (game_id, version, seat, kind, body, idempotency_key, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    id,
                    version_in(e.version)?,
                    e.seat,
                    kind,
                    body,
                    e.idempotency_key,
                    e.at_ms
                ],
            );
            match done {
                Ok(_) => Ok(Appended::Stored),
                Err(rusqlite::Error::SqliteFailure(f, _))
                    if f.code == ErrorCode::ConstraintViolation =>
                {
                    Ok(Appended::Conflict)
                }
                Err(e) => Err(e.into()),
            }
        }))
    }

    fn expire<'a>(&'a self, before_ms: i64) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
        Box::pin(self.with(move |c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let ids: Vec<String> = {
                let mut st = tx.prepare_cached(
                    "SELECT id FROM games g WHERE created_ms < ?1 AND NOT EXISTS
                         (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.at_ms >= ?1)
                     LIMIT ?2",
                )?;
                st.query_map(params![before_ms, super::EXPIRE_BATCH], |r| r.get(0))?
                    .collect::<Result<_, _>>()?
            };
            let now = super::now_ms();
            for id in &ids {
                tx.execute("DELETE FROM events WHERE game_id = ?1", [id])?;
                tx.execute("DELETE FROM games WHERE id = ?1", [id])?;
                tx.execute(
                    "INSERT OR REPLACE INTO expired (id, expired_ms) VALUES (?1, ?2)",
                    params![id, now],
                )?;
            }
            // The records of removals older than the games' own time are forgotten.
            tx.execute(
                "DELETE FROM expired WHERE id IN
                     (SELECT id FROM expired WHERE expired_ms < ?1 LIMIT ?2)",
                params![before_ms, super::EXPIRE_BATCH],
            )?;
            tx.commit()?;
            Ok(ids)
        }))
    }

    fn expired<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        let id = id.to_string();
        Box::pin(self.with(move |c| {
            Ok(
                c.query_row("SELECT expired_ms FROM expired WHERE id = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?,
            )
        }))
    }

    fn changes(&self) -> Option<broadcast::Receiver<Option<Change>>> {
        Some(self.changes.subscribe())
    }

    fn describe(&self) -> String {
        format!("SQLite file {}", self.path)
    }
}
