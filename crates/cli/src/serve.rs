//! `ply serve`: games of the packs in a folder for remote players, over HTTP and WebSocket
//! (the `ply-server` crate; this module only reads the flags). It prints the address it
//! listens on, as `listening on http://ADDR`, on standard output, then serves until
//! interrupted.

use crate::output::{CliError, CmdResult, Context};
use clap::Args;
use ply_server::logging::LogFormat;
use ply_server::tracing::Level;
use std::net::SocketAddr;
use std::path::PathBuf;

/// `ply serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The folder of packs to offer (each `NAME.toml` is the pack `NAME`).
    #[arg(long, value_name = "DIR", default_value = "rulesets")]
    pub packs: PathBuf,
    /// Where games are stored: a SQLite file (created if need be), or a `postgres://` URL.
    #[arg(long, value_name = "FILE|URL", default_value = "ply.db")]
    pub db: String,
    /// With PostgreSQL: the schema that holds the tables (created if need be).
    #[arg(long, value_name = "NAME")]
    pub schema: Option<String>,
    /// The address to listen on (port 0: any free port).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The longest request body or WebSocket message, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024)]
    pub max_body: usize,
    /// The most connections held at once; more are closed as they come.
    #[arg(long, value_name = "N", default_value_t = 4096)]
    pub max_connections: usize,
    /// Seconds a connection may take to send a request's head (a new one, or a kept-alive one
    /// between requests) before it is closed; a WebSocket is closed after as long without a
    /// frame from its client (it is pinged at half that time).
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub idle_timeout: u64,
    /// Seconds a request may take, its body included, before it is answered 408 and its
    /// connection closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub request_timeout: u64,
    /// Seconds a game that nobody reaches or watches stays in memory (it is loaded again from
    /// the store when next asked for).
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub keep_games: u64,
    /// A host name (or address) the server answers to, besides the loopback names and the
    /// address it listens on; may be given again. `*`: any (behind a proxy that checks).
    /// Requests naming another `Host` are refused (421), against DNS rebinding.
    #[arg(long = "allowed-host", value_name = "HOST")]
    pub allowed_hosts: Vec<String>,
    /// Removes a game from the store once it has had no move (or any change) for this long:
    /// `30d`, `12h`, `90min`, `45s`. Without it, games are kept for ever.
    #[arg(long, value_name = "DURATION", value_parser = ply_server::parse_duration)]
    pub expire_games: Option<std::time::Duration>,
    /// Games a client (an IP address) may create a minute, in a burst or spread out (429
    /// past it); 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 120)]
    pub games_per_minute: u32,
    /// Games being created at once, all clients together (503 past it).
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub games_at_once: usize,
    /// Pasted packs a client may check or start games of a minute (429 past it); 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub checks_per_minute: u32,
    /// Pasted packs checked at once, all clients together (503 past it).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub checks_at_once: usize,
    /// How the log on standard error is written: text, or json (one object a line).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LogFormatArg::Text)]
    pub log_format: LogFormatArg,
    /// The least severe log lines written: error, warn, info (one line a request) or debug.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = LogLevelArg::Info)]
    pub log_level: LogLevelArg,
}

/// `--log-format`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormatArg {
    /// A line of text an event.
    Text,
    /// A JSON object a line.
    Json,
}

/// `--log-level`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevelArg {
    /// Errors only.
    Error,
    /// Errors and warnings.
    Warn,
    /// And a line a request.
    Info,
    /// Everything.
    Debug,
}

/// Runs `ply serve` until interrupted.
pub fn run(args: &ServeArgs, cx: &mut Context<'_>) -> CmdResult {
    let format = match args.log_format {
        LogFormatArg::Text => LogFormat::Text,
        LogFormatArg::Json => LogFormat::Json,
    };
    let level = match args.log_level {
        LogLevelArg::Error => Level::ERROR,
        LogLevelArg::Warn => Level::WARN,
        LogLevelArg::Info => Level::INFO,
        LogLevelArg::Debug => Level::DEBUG,
    };
    // The log goes to the process's standard error through a thread of its own, never through
    // the context's stream (which the command's thread uses). A second server in one process
    // (tests) keeps the first one's log.
    let _log = ply_server::logging::init(format, level).ok();
    let config = ply_server::Config {
        addr: args.addr,
        packs: args.packs.clone(),
        db: args.db.clone(),
        schema: args.schema.clone(),
        max_body: args.max_body,
        max_connections: args.max_connections,
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout.max(1)),
        keep_idle_games: std::time::Duration::from_secs(args.keep_games),
        summary: Some(crate::show::summary),
        check_time: ply_server::playground::CHECK_TIME,
        request_timeout: std::time::Duration::from_secs(args.request_timeout.max(1)),
        allowed_hosts: args.allowed_hosts.clone(),
        expire_games: args.expire_games,
        pack_worker: worker(),
        limits: ply_server::limits::Limits {
            games: ply_server::limits::Limit {
                per_minute: args.games_per_minute,
                at_once: args.games_at_once,
            },
            playground: ply_server::limits::Limit {
                per_minute: args.checks_per_minute,
                at_once: args.checks_at_once,
            },
        },
    };
    let mut said = Ok(());
    let served = ply_server::serve_blocking(&config, |server| {
        said = writeln!(cx.out, "listening on http://{}", server.addr)
            .and_then(|()| cx.out.flush())
            .and_then(|()| {
                cx.note(format!(
                    "packs from {}, games in the {}",
                    args.packs.display(),
                    server.store
                ))
            })
            .and_then(|()| cx.err.flush());
    });
    said?;
    served.map_err(|e| CliError::Invalid(e.to_string()))
}

/// This program, re-executed as `ply pack-worker` to check each pasted pack in a process of its
/// own; `None` when its path is not known (the checks then run on a thread).
fn worker() -> Option<&'static ply_server::playground::Worker> {
    let program = std::env::current_exe().ok()?;
    Some(Box::leak(Box::new(ply_server::playground::Worker {
        program,
        args: vec!["pack-worker".to_string()],
    })))
}

/// `ply pack-worker`: checks the pasted pack read on standard input (see
/// [`ply_server::playground::worker_main`]).
pub fn pack_worker(cx: &mut Context<'_>) -> CmdResult {
    ply_server::playground::worker_main(&mut *cx.input, cx.out, Some(crate::show::summary))
        .map_err(|e| CliError::Invalid(format!("pack worker: {e}")))?;
    Ok(())
}
