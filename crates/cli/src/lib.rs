//! The library behind the `ply` command: each subcommand is a function here, so that tests can
//! drive them without spawning processes. The binary only parses arguments.
//!
//! [`cli::run_args`] parses a command line and runs it on a [`output::Context`] (the streams
//! and terminal facts); [`cli::run_process`] does the same on the process's own streams.
//! Exit codes: 0 success, 1 invalid input (a bad pack, position, move or record), 2 a usage
//! error.
#![deny(missing_docs)]

pub mod bench;
pub mod cli;
pub mod common;
pub mod moves;
pub mod output;
pub mod perft;
pub mod play;
pub mod record;
pub mod replay;
pub mod script;
pub mod show;
pub mod validate;
