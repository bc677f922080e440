//! `ply serve` in a `ply` built without the cargo feature `serve` (`--no-default-features`,
//! which builds in under half the time for a replay or a game in the terminal): the command
//! is still listed, and says how to build the server in.

use crate::output::{CliError, CmdResult, Context};
use clap::Args;

/// What `ply serve` says when the binary was built without the server.
pub const SERVE_MISSING: &str = "this ply was built without the server (the cargo feature \
    `serve`, on by default; the build left it out with --no-default-features): build it with \
    the default features: cargo run --release -- serve";

/// `ply serve` without the server: whatever flags are given.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The flags `ply serve` takes (see `ply serve --help` in a build with the server).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub flags: Vec<String>,
}

/// Says that the server is not built in.
pub fn run(_args: &ServeArgs, _cx: &mut Context<'_>) -> CmdResult {
    Err(CliError::invalid(SERVE_MISSING))
}

/// The pasted-pack worker is the server's too.
pub fn pack_worker(_cx: &mut Context<'_>) -> CmdResult {
    Err(CliError::invalid(SERVE_MISSING))
}
