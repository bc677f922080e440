//! The top-level command line: the parser, the list of subcommands, and the dispatch from a
//! parsed command line to the command's function.
//!
//! Each subcommand's arguments live beside its code (`crate::play::PlayArgs` next to
//! `crate::play::run`), so that adding an option touches one module; this module only names
//! the subcommands. Nothing else in the crate imports it.

use crate::analyse::AnalyseArgs;
use crate::balance::BalanceArgs;
use crate::bench::BenchArgs;
use crate::matches::MatchArgs;
use crate::moves::MovesArgs;
use crate::output::{CmdResult, ColorChoice, Context, EXIT_USAGE, exit_code, no_color_env};
use crate::perft::PerftArgs;
use crate::play::PlayArgs;
use crate::replay::ReplayArgs;
use crate::script::ScriptArgs;
use crate::serve::ServeArgs;
use crate::show::ShowArgs;
use crate::tune::TuneArgs;
use crate::validate::ValidateArgs;
use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// `ply`: grid board games whose rules are data.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, long_about = None)]
pub struct Cli {
    /// Colour: auto (a stream that is a terminal, unless NO_COLOR is set), always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value_t = ColorChoice::Auto,
        value_name = "WHEN",
        hide_possible_values = true
    )]
    pub color: ColorChoice,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check packs and report every problem; play a little with those that load.
    Validate(ValidateArgs),
    /// Show the board, the pieces and the rules of a pack.
    Show(ShowArgs),
    /// List the legal moves, in notation.
    Moves(MovesArgs),
    /// Play in the terminal, against a person or an engine (works with piped input too).
    Play(PlayArgs),
    /// The best move of a position, its score and line, as the search deepens.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Two players against each other: score, Elo difference, draws, game lengths.
    Match(MatchArgs),
    /// A player against itself: is the variant balanced, do games end, which pieces matter.
    Balance(BalanceArgs),
    /// Fit a pack's piece values to self-play results (Texel tuning); writes a variant pack.
    Tune(TuneArgs),
    /// Count move paths to a depth (perft), with time and nodes/s.
    Perft(PerftArgs),
    /// Seeded random games and speed measurements.
    Bench(BenchArgs),
    /// Check and replay a game record, at once or a board per move.
    Replay(ReplayArgs),
    /// A JSON-lines protocol on standard input and output, for other programs.
    Script(ScriptArgs),
    /// Serve games to remote players over HTTP and WebSocket.
    Serve(ServeArgs),
    /// `ply serve`'s worker: checks one pasted pack read on standard input, under CPU-time and
    /// memory limits (not for people).
    #[command(hide = true, name = "pack-worker")]
    PackWorker,
}

/// Runs a parsed command line; returns the exit code. The context's colour settings are
/// those of `--color auto`; `--color always` and `--color never` override them.
pub fn run(cli: Cli, cx: &mut Context<'_>) -> u8 {
    if cli.color != ColorChoice::Auto {
        cx.out_color = cli.color.resolve(false, false);
        cx.err_color = cx.out_color;
    }
    let result: CmdResult = match &cli.command {
        Command::Validate(a) => crate::validate::run(a, cx),
        Command::Show(a) => crate::show::run(a, cx),
        Command::Moves(a) => crate::moves::run(a, cx),
        Command::Play(a) => crate::play::run(a, cx),
        Command::Analyse(a) => crate::analyse::run(a, cx),
        Command::Match(a) => crate::matches::run(a, cx),
        Command::Balance(a) => crate::balance::run(a, cx),
        Command::Tune(a) => crate::tune::run(a, cx),
        Command::Perft(a) => crate::perft::run(a, cx),
        Command::Bench(a) => crate::bench::run(a, cx),
        Command::Replay(a) => crate::replay::run(a, cx),
        Command::Script(a) => crate::script::run(a, cx),
        Command::Serve(a) => crate::serve::run(a, cx),
        Command::PackWorker => crate::serve::pack_worker(cx),
    };
    let code = exit_code(result, cx.err, cx.err_color);
    let _ = cx.out.flush();
    code
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

/// Runs the command line on the process's own streams: with `--color auto`, colour only on a
/// terminal without `NO_COLOR` (each stream by itself); a progress bar only when standard error
/// is a terminal.
///
/// Standard output and standard error are handed over unlocked (each write takes the stream's
/// lock for that write alone): a command's other threads (a progress bar's, a server's
/// workers and its log writer) write to them too, and a lock held for the whole command would
/// block them for ever. Standard input is read by the command's own thread only.
pub fn run_process(cli: Cli) -> u8 {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let no_color = no_color_env();
    let out_color = cli.color.resolve(stdout.is_terminal(), no_color);
    let err_color = cli.color.resolve(stderr.is_terminal(), no_color);
    let progress = stderr.is_terminal();
    let interactive = stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = stdout;
    let mut err = stderr;
    let mut cx = Context {
        input: &mut input,
        out: &mut out,
        err: &mut err,
        out_color,
        err_color,
        progress,
        interactive,
    };
    run(cli, &mut cx)
}
