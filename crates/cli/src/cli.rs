//! The command line: clap types for every subcommand, and the dispatch from a parsed command
//! line to the command's function.

use crate::common::parse_set;
use crate::output::{CmdResult, Context, EXIT_USAGE, exit_code};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;

/// `ply`: grid board games whose rules are data.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check packs and report every problem; smoke-run those that load.
    Validate(ValidateArgs),
    /// Show the board, the pieces and the rules of a pack.
    Show(ShowArgs),
    /// List the legal moves, in notation.
    Moves(MovesArgs),
    /// Play in the terminal (works with piped input too).
    Play(PlayArgs),
    /// Count move paths to a depth (perft), with time and nodes/s.
    Perft(PerftArgs),
    /// Seeded random playouts and speed measurements.
    Bench(BenchArgs),
    /// Check and replay a game record.
    Replay(ReplayArgs),
    /// A JSON-lines protocol on standard input and output, for other programs.
    Script(ScriptArgs),
}

/// Option values for a pack.
#[derive(Args, Debug, Clone, Default)]
pub struct SetArgs {
    /// Set an option of the pack (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub set: Vec<(String, String)>,
}

/// A pack and its option values.
#[derive(Args, Debug, Clone)]
pub struct PackArgs {
    /// The rule pack (a TOML file).
    pub pack: PathBuf,
    /// Option values.
    #[command(flatten)]
    pub options: SetArgs,
}

/// `ply validate`.
#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Packs, or directories (each means every `*.toml` directly in it).
    #[arg(required = true, value_name = "PACK_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Option values, for every pack.
    #[command(flatten)]
    pub options: SetArgs,
    /// One JSON document with every pack's diagnostics.
    #[arg(long)]
    pub json: bool,
}

/// `ply show`.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// A position string to show instead of the start.
    #[arg(long, value_name = "STR")]
    pub position: Option<String>,
    /// Print the pack as TOML with `extends` and options applied.
    #[arg(long)]
    pub resolved: bool,
}

/// `ply moves`.
#[derive(Args, Debug, Clone)]
pub struct MovesArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// A position string instead of the start.
    #[arg(long, value_name = "STR")]
    pub position: Option<String>,
    /// Only the moves of the piece on this cell (human notation, e.g. `a7`).
    #[arg(long, value_name = "CELL")]
    pub from: Option<String>,
    /// A JSON list of `{notation, path}`.
    #[arg(long)]
    pub json: bool,
}

/// Who plays the other side in `ply play`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Opponent {
    /// Both sides are played from the input.
    #[default]
    Human,
    /// The other side plays seeded random legal moves.
    Random,
}

/// `ply play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// Who plays the other side.
    #[arg(long, value_enum, default_value_t = Opponent::Human)]
    pub vs: Opponent,
    /// The side you play against `--vs random` (default: the first player).
    #[arg(long = "as", value_name = "PLAYER")]
    pub as_player: Option<String>,
    /// A position string to start from.
    #[arg(long, value_name = "STR")]
    pub position: Option<String>,
    /// Write the game record to this file at the end of the session.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Seed of the random player (default: from the clock, and printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `ply perft`.
#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The depth in plies.
    pub depth: u32,
    /// A position string instead of the start.
    #[arg(long, value_name = "STR")]
    pub position: Option<String>,
    /// The count under each root move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Count the last ply without making its moves.
    #[arg(long)]
    pub bulk: bool,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Leave out times and rates (for reproducible output).
    #[arg(long, hide = true)]
    pub no_timing: bool,
}

/// `ply bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// Number of random playouts.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub playouts: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// A playout stops (capped) after this many plies.
    #[arg(long, default_value_t = 1000, value_name = "P")]
    pub max_plies: u32,
    /// Depth of the perft measurement.
    #[arg(long, default_value_t = 5, value_name = "D")]
    pub perft_depth: u32,
    /// Measure the hand-written engine for this game too, and the ratios.
    #[arg(long)]
    pub vs_native: bool,
    /// Repeat every measurement this many times (with --vs-native, Ply and the native engine
    /// take turns) and keep the best time of each.
    #[arg(long, default_value_t = 1, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Leave out times and rates (for reproducible output).
    #[arg(long, hide = true)]
    pub no_timing: bool,
}

/// `ply replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The game record.
    pub record: PathBuf,
}

/// `ply script`.
#[derive(Args, Debug, Clone)]
pub struct ScriptArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
}

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli, cx: &mut Context<'_>) -> u8 {
    let result: CmdResult = match &cli.command {
        Command::Validate(a) => crate::validate::run(a, cx),
        Command::Show(a) => crate::show::run(a, cx),
        Command::Moves(a) => crate::moves::run(a, cx),
        Command::Play(a) => crate::play::run(a, cx),
        Command::Perft(a) => crate::perft::run(a, cx),
        Command::Bench(a) => crate::bench::run(a, cx),
        Command::Replay(a) => crate::replay::run(a, cx),
        Command::Script(a) => script(a, cx),
    };
    let code = exit_code(result, cx.err);
    let _ = cx.out.flush();
    code
}

/// `ply script`: the JSON-lines protocol of [`crate::script`] on the context's streams.
fn script(args: &ScriptArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = crate::common::load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    crate::script::run(pack.rules, &mut *cx.input, &mut *cx.out)?;
    Ok(())
}

/// Parses `args` (the first is the program name) and runs the command; a usage error is
/// printed on the error stream with exit code 2, `--help` and `--version` on the output.
pub fn run_args<I, T>(args: I, cx: &mut Context<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match Cli::try_parse_from(args) {
        Ok(cli) => run(cli, cx),
        Err(e) => {
            let code = e.exit_code();
            let text = e.render().to_string();
            if code == 0 {
                let _ = write!(cx.out, "{text}");
                0
            } else {
                let _ = write!(cx.err, "{text}");
                if code == 2 { EXIT_USAGE } else { code as u8 }
            }
        }
    }
}

/// Runs the command line on the process's own streams: colour only on a terminal without
/// `NO_COLOR`, a progress bar only when standard error is a terminal.
pub fn run_process(cli: Cli) -> u8 {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let color = crate::output::color_wanted(stdout.is_terminal());
    let progress = stderr.is_terminal();
    let interactive = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let mut cx = Context {
        input: &mut input,
        out: &mut out,
        err: &mut err,
        color,
        progress,
        interactive,
    };
    run(cli, &mut cx)
}
