//! The library behind the `ply` command: each subcommand is a function here, so that tests can
//! drive them without spawning processes. The binary only parses arguments.
#![deny(missing_docs)]

pub mod script;
