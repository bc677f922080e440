//! `ply play`: a game in the terminal, read line by line from the input (a terminal or a
//! pipe).
//!
//! Each line is a move in notation (`a7-a6`, `a7a6`, `c1xc3xe3`) or one of the commands
//! `moves`, `undo`, `redo`, `board`, `help`, `quit`. The board is printed after every move; a
//! refused move prints the kernel's reason (which names the rule that forbade it) and changes
//! nothing. With `--vs random` the side not played by the user answers with seeded random
//! legal moves, and `undo`/`redo` go back or forward to the user's own turn. The session ends
//! with the result, at `quit`, or at the end of the input; `--record FILE` then writes the game
//! record (see [`crate::record`]).

use crate::common::PackArgs;
use crate::common::{game_at, load_pack, result_text};
use crate::output::{CliError, CmdResult, Context};
use crate::record::Record;
use crate::rng::Rng;
use clap::{Args, ValueEnum};
use ply_kernel::{Game, Player, Position, move_text, parse_path};
use std::path::PathBuf;

/// The commands, as `help` prints them.
pub const HELP: &str = "\
Commands:
  a7-a6, a7a6, b2xb3, c1xc3xe3   play a move: its path of cells (- or x between cells optional)
  moves                          list the legal moves
  undo                           take back the last move (with --vs random: back to your turn)
  redo                           play again a move taken back
  board                          show the board again
  help                           this text
  quit                           end the session
";

/// How the session ended.
enum End {
    Result(String),
    Quit,
    InputClosed,
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

/// Runs `ply play`.
pub fn run(args: &PlayArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let core = rules.core();
    let mut game = game_at(rules.clone(), args.position.as_deref())?;
    let initial = game.position().to_position_string();
    let standard = Position::start(rules.clone()).to_position_string();
    let human = match &args.as_player {
        None => Player::FIRST,
        Some(name) => core.player_by_name(name).ok_or_else(|| {
            CliError::invalid(format!(
                "`{name}` is not a player of {} (expected {} or {})",
                core.name(),
                core.player_name(Player(0)),
                core.player_name(Player(1))
            ))
        })?,
    };
    let computer = (args.vs == Opponent::Random).then(|| human.other());
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut rng = Rng::new(seed);

    match computer {
        Some(c) => writeln!(
            cx.out,
            "{}: you play {}, {} plays random moves (seed {seed}). Type `help` for the commands.",
            core.name(),
            core.player_name(human),
            core.player_name(c)
        )?,
        None => writeln!(
            cx.out,
            "{}: {} against {}, both played here. Type `help` for the commands.",
            core.name(),
            core.player_name(Player(0)),
            core.player_name(Player(1))
        )?,
    }
    write!(cx.out, "{}", game.position().render())?;

    let mut line = Vec::new();
    let end = loop {
        if let Some(r) = result_text(&game) {
            break End::Result(r);
        }
        let side = game.side_to_move();
        if Some(side) == computer {
            let moves = game.legal_moves();
            let Some(m) = moves.get(rng.pick(moves.len())) else {
                continue;
            };
            writeln!(
                cx.out,
                "{} plays {}",
                core.player_name(side),
                move_text(&rules, &m)
            )?;
            game.play(m).map_err(CliError::invalid)?;
            write!(cx.out, "{}", game.position().render())?;
            continue;
        }
        write!(cx.out, "{}> ", core.player_name(side))?;
        cx.out.flush()?;
        line.clear();
        if cx.input.read_until(b'\n', &mut line)? == 0 {
            writeln!(cx.out)?;
            break End::InputClosed;
        }
        let text = String::from_utf8_lossy(&line);
        let command = text.trim();
        if !cx.interactive {
            writeln!(cx.out, "{command}")?;
        }
        match command {
            "" => {}
            "help" | "?" => write!(cx.out, "{HELP}")?,
            "quit" | "exit" => break End::Quit,
            "board" => write!(cx.out, "{}", game.position().render())?,
            "moves" => {
                let moves: Vec<String> = game
                    .legal_moves()
                    .iter()
                    .map(|m| move_text(&rules, &m))
                    .collect();
                writeln!(cx.out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
            }
            "undo" => {
                if game.undo() {
                    while computer == Some(game.side_to_move()) && game.undo() {}
                    write!(cx.out, "{}", game.position().render())?;
                } else {
                    writeln!(cx.out, "nothing to undo")?;
                }
            }
            "redo" => {
                if game.redo() {
                    while computer == Some(game.side_to_move()) && game.redo() {}
                    write!(cx.out, "{}", game.position().render())?;
                } else {
                    writeln!(cx.out, "nothing to redo")?;
                }
            }
            _ => match parse_path(&rules, command) {
                Err(e) => writeln!(cx.out, "{e} (type `help` for the commands)")?,
                Ok(path) => match game.play_path(None, &path) {
                    Ok(_) => write!(cx.out, "{}", game.position().render())?,
                    Err(e) => writeln!(cx.out, "refused: {e}")?,
                },
            },
        }
    };
    match &end {
        End::Result(r) => writeln!(cx.out, "Result: {r}")?,
        End::Quit => writeln!(cx.out, "Quit; the game is not finished.")?,
        End::InputClosed => writeln!(cx.out, "End of input; the game is not finished.")?,
    }
    if let Some(file) = &args.record {
        let result = match &end {
            End::Result(r) => Some(r.as_str()),
            _ => None,
        };
        let record = record_of(
            &game,
            &args.pack.pack.display().to_string(),
            &args.pack.options.set,
            (initial != standard).then_some(initial.as_str()),
            result,
        );
        std::fs::write(file, record.to_text()).map_err(|e| {
            CliError::invalid(format!("cannot write the record {}: {e}", file.display()))
        })?;
        writeln!(cx.out, "Record written to {}", file.display())?;
    }
    Ok(())
}

/// The record of a game: its moves so far, with these headers.
pub fn record_of(
    game: &Game,
    pack: &str,
    set: &[(String, String)],
    start: Option<&str>,
    result: Option<&str>,
) -> Record {
    let rules = game.rules().clone();
    let moves: Vec<String> = game.history().map(|m| move_text(&rules, &m)).collect();
    Record::new(pack, set, start, result, moves)
}

/// A seed from the clock, for `play` without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}
