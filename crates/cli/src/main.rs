//! The `ply` binary: parses the command line and hands it to the library.

use clap::Parser;
use ply_cli::cli::{Cli, run_process};
use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(run_process(Cli::parse()))
}
