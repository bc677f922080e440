//! The server's log: `tracing` events written to standard error by a background thread
//! (`tracing-appender`'s non-blocking writer), so that no request ever waits on the log.
//!
//! A worker that logs puts the line in a bounded queue and goes on; a thread of its own writes
//! the queue to standard error. When standard error cannot keep up (a full pipe nobody reads, a
//! stopped terminal), lines are dropped, never the requests: the writer is lossy by design, and
//! the number dropped is written once it can be.
//!
//! Each request is one line at `info` with its method, path, status and latency
//! (`tower-http`'s trace layer, see [`crate::http::router`]); storage failures and damaged
//! stored games are `error`s; what the engines on a seat decide is `info`.

use tracing::Level;
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One line of text an event: time, level, the request's span, the message and fields.
    #[default]
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

/// The lines queued for standard error at most; past that, lines are dropped (and counted).
pub const LOG_QUEUE: usize = 16 * 1024;

/// Keeps the log's writer thread; dropping it writes what is queued and stops the thread.
#[must_use = "the log's queue is written only while the guard lives"]
pub struct LogGuard {
    _guard: WorkerGuard,
}

/// Why the log could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// Another subscriber was installed first (in this process).
    #[error("a log subscriber is set already: {0}")]
    Installed(String),
}

/// Sends this process's `tracing` events at `level` and above (this crate's, and the request
/// lines) to standard error in `format`, through a non-blocking writer. Other crates' events
/// are kept from `warn` up.
pub fn init(format: LogFormat, level: Level) -> Result<LogGuard, LogError> {
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(LOG_QUEUE)
        .thread_name("ply-log")
        .finish(std::io::stderr());
    let targets = Targets::new()
        .with_default(LevelFilter::WARN)
        .with_target("ply_server", level)
        .with_target("tower_http", level);
    let installed = match format {
        LogFormat::Text => tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(writer)
                    .with_ansi(false)
                    .with_target(false),
            )
            .with(targets)
            .try_init(),
        LogFormat::Json => tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_writer(writer)
                    .with_current_span(true)
                    .with_span_list(false),
            )
            .with(targets)
            .try_init(),
    };
    installed.map_err(|e| LogError::Installed(e.to_string()))?;
    Ok(LogGuard { _guard: guard })
}
