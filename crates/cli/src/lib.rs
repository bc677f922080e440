//! The library behind the `ply` command: each subcommand is a module here (its clap arguments
//! beside its `run`), so that tests drive them without spawning processes. The binary only
//! parses arguments; the kernel and the language crate own the logic.
//!
//! # Layout
//!
//! - [`cli`]: the top-level parser (with the global `--color`) and the dispatch; no command
//!   module imports it back.
//! - one module per command: [`validate`], [`show`], [`moves`], [`play`], [`analyse`],
//!   [`matches`] (`ply match`), [`balance`], [`perft`], [`bench`](mod@bench), [`replay`],
//!   [`script`], which also holds the JSON-lines protocol's [`script::Session`], and
//!   [`serve`], which starts the `ply-server` crate.
//! - [`engines`]: what the commands on the engines share (player specs, the game runner);
//!   [`stats`]: Elo, intervals and text plots.
//! - [`common`]: the shared flags (the pack, `--set`), loading, the lenient move reader.
//! - [`output`]: the streams, colour, errors and exit codes. [`record`]: game records.
//!
//! # Conventions
//!
//! As cargo and rustc: what the user asked for goes to standard output (all `--json` output
//! too); diagnostics, errors, warnings and notes go to standard error, as `error: ...`,
//! `warning: ...`, `note: ...`. Colour follows `--color auto|always|never` (`auto`: only on a
//! terminal, never with `NO_COLOR` set). Exit codes: 0 success, 1 invalid input (a bad pack,
//! position, move or record, or a piped `play` session with refused lines), 2 a usage error.
//!
//! # Example
//!
//! [`cli::run_args`] runs a command line on a [`output::Context`] of streams:
//!
//! ```
//! use ply_cli::{cli::run_args, output::Context};
//!
//! let (mut input, mut out, mut err) = (&b""[..], Vec::new(), Vec::new());
//! let mut cx = Context::new(&mut input, &mut out, &mut err);
//! let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/cats_rabbits.toml");
//! let code = run_args(["ply", "perft", pack, "3"], &mut cx);
//! assert_eq!(code, 0);
//! assert!(String::from_utf8(out).unwrap().starts_with("perft(3) = 456"));
//! ```
#![deny(missing_docs)]

pub mod analyse;
pub mod balance;
pub mod bench;
pub mod cli;
pub mod common;
pub mod engines;
pub mod matches;
pub mod moves;
pub mod output;
pub mod perft;
pub mod play;
pub mod record;
pub mod replay;
pub mod script;
#[cfg(feature = "serve")]
pub mod serve;
/// `ply serve` in a build without the server: it says how to get it.
#[cfg(not(feature = "serve"))]
#[path = "serve_missing.rs"]
pub mod serve;
pub mod show;
pub mod stats;
pub mod tune;
pub mod validate;
