//! `ply play`: a game in the terminal, read line by line from the input (a terminal or a
//! pipe).
//!
//! Each line is a move or one of the commands `moves`, `undo`, `redo`, `board`, `help`,
//! `quit`. Moves are read leniently ([`crate::common::read_move`]: `a7-a6`, `A7-A6`, `a7 a6`,
//! `a7xa6`, `a7:a6` are one move) and echoed in one canonical notation (`a7-a6`, `x` for a
//! capture), so that a transcript or a record reads the same whoever typed it. The board is
//! printed once per turn, with the cells of the last move in brackets: after each move when
//! both sides are played from the input; against the computer (`--vs random`, `--vs mcts:1s`,
//! `--vs alphabeta:depth=6`, see [`ply_search::EngineSpec`]), after its answer (or after the
//! user's move when it ends the game), with what the engine thought of it. A refused move prints the kernel's reason
//! (which names the rule that forbade it) as an `error:` on standard error and changes nothing;
//! a session read from a pipe that had refused lines exits with 1 once everything else has been
//! played, so that a script notices. `undo` and `redo` against the computer go back or forward to
//! the user's own turn. The session ends with the result, at `quit`, or at the end of the
//! input; `--record FILE` then writes the game record (see [`crate::record`]).

use crate::common::{PackArgs, game_at, load_pack, read_move, result_text, why_text};
use crate::engines::{choice_text, evaluation, parse_spec, search_error};
use crate::output::{CliError, CmdResult, Context, plural};
use crate::record::Record;
use clap::Args;
use ply_kernel::{Cell, Game, Player, Position, move_text};
use ply_search::{Engine, EngineKind, EngineSpec};
use std::path::{Path, PathBuf};

/// Who plays the other side in `ply play`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Opponent {
    /// Both sides are played from the input.
    #[default]
    Human,
    /// The other side is an engine: `random` (seeded random legal moves), `mcts[:...]` or
    /// `alphabeta[:...]` (see [`ply_search::EngineSpec`]).
    Engine(EngineSpec),
}

/// Reads `--vs`: `human`, or a player spec.
pub fn parse_opponent(text: &str) -> Result<Opponent, String> {
    if text.trim().eq_ignore_ascii_case("human") {
        return Ok(Opponent::Human);
    }
    parse_spec(text).map(Opponent::Engine)
}

/// `ply play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// Who plays the other side: human (both sides from the input), random, mcts[:TIME or
    /// :ITERATIONS], alphabeta[:TIME or :depth=N] (as in mcts:2s, mcts:20000,
    /// alphabeta:depth=6).
    #[arg(long, value_parser = parse_opponent, default_value = "human", value_name = "PLAYER")]
    pub vs: Opponent,
    /// The side you play against the computer (default: the first player).
    #[arg(long = "as", value_name = "PLAYER")]
    pub as_player: Option<String>,
    /// A position string to start from.
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// Write the game record to this file at the end of the session.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Seed of the computer player (default: from the clock, and printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// The commands, as `help` prints them.
pub const HELP: &str = "\
Commands:
  a7-a6, a7 a6, A7-A6, a7a6      play a move: its path of cells, with -, x, :, spaces or
  b2xb3, c1xc3xe3                nothing between them, in any case (echoed as a7-a6, b2xb3)
  moves                          list the legal moves
  undo                           take back the last move (against the computer: back to your turn)
  redo                           play again a move taken back
  board                          show the board again
  help                           this text
  quit                           end the session
The board marks the cells of the last move in [brackets].
";

/// How the session ended.
enum End {
    Result(String),
    Quit,
    InputClosed,
}

/// The cells of the last move played, to mark on the board.
fn last_move(game: &Game) -> Vec<Cell> {
    game.history()
        .last()
        .map(|m| game.position().path(m).to_vec())
        .unwrap_or_default()
}

/// The board with the last move marked.
fn board(game: &Game, color: bool) -> String {
    crate::common::painted_board(game.position(), &last_move(game), color)
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
            CliError::Usage(format!(
                "`--as {name}`: `{name}` is not a player of {} (expected {} or {})",
                core.name(),
                core.player_name(Player::FIRST),
                core.player_name(Player::SECOND)
            ))
        })?,
    };
    let computer = (args.vs != Opponent::Human).then(|| human.other());
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut engine = match &args.vs {
        Opponent::Human => None,
        Opponent::Engine(spec) => Some(
            Engine::try_new(&spec.clone().or_seed(seed), evaluation(&pack))
                .map_err(CliError::invalid)?,
        ),
    };

    match (computer, &engine) {
        (Some(c), Some(e)) if e.spec().kind == EngineKind::Random => writeln!(
            cx.out,
            "{}: you play {}, {} plays random moves (seed {seed}: --seed {seed} plays the same \
             ones again). Type `help` for the commands.",
            core.name(),
            core.player_name(human),
            core.player_name(c)
        )?,
        (Some(c), Some(e)) => writeln!(
            cx.out,
            "{}: you play {}, {} is {} (seed {seed}). Type `help` for the commands.",
            core.name(),
            core.player_name(human),
            core.player_name(c),
            e.spec()
        )?,
        _ => writeln!(
            cx.out,
            "{}: {} against {}, both played here. Type `help` for the commands.",
            core.name(),
            core.player_name(Player::FIRST),
            core.player_name(Player::SECOND)
        )?,
    }
    write!(cx.out, "{}", board(&game, cx.out_color))?;

    let mut line = Vec::new();
    let mut line_no = 0usize;
    // The input lines that were refused (numbers from 1).
    let mut refused: Vec<usize> = Vec::new();
    let end = loop {
        if let Some(r) = result_text(&game) {
            break End::Result(r);
        }
        let side = game.side_to_move();
        if Some(side) == computer
            && let Some(engine) = engine.as_mut()
        {
            let choice = engine
                .choose(game.position())
                .map_err(|e| search_error(&rules, &e))?;
            let m = choice.mv;
            let about = choice_text(&choice);
            let about = if about.is_empty() {
                String::new()
            } else {
                format!(" ({about})")
            };
            writeln!(
                cx.out,
                "{} plays {}{about}",
                core.player_name(side),
                move_text(&rules, &m)
            )?;
            game.play(m).map_err(CliError::invalid)?;
            write!(cx.out, "{}", board(&game, cx.out_color))?;
            continue;
        }
        write!(cx.out, "{}> ", core.player_name(side))?;
        cx.out.flush()?;
        line.clear();
        if cx.input.read_until(b'\n', &mut line)? == 0 {
            writeln!(cx.out)?;
            break End::InputClosed;
        }
        line_no += 1;
        let text = String::from_utf8_lossy(&line);
        let command = text.trim();
        if !cx.interactive {
            writeln!(cx.out, "{command}")?;
        }
        match command.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => write!(cx.out, "{HELP}")?,
            "quit" | "exit" => break End::Quit,
            "board" => write!(cx.out, "{}", board(&game, cx.out_color))?,
            "moves" => {
                let moves: Vec<String> = game
                    .legal_moves()?
                    .iter()
                    .map(|m| move_text(&rules, &m))
                    .collect();
                writeln!(cx.out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
            }
            "undo" => {
                if game.undo() {
                    while computer == Some(game.side_to_move()) && game.undo() {}
                    write!(cx.out, "{}", board(&game, cx.out_color))?;
                } else {
                    cx.note("nothing to undo")?;
                }
            }
            "redo" => {
                if game.redo() {
                    while computer == Some(game.side_to_move()) && game.redo() {}
                    write!(cx.out, "{}", board(&game, cx.out_color))?;
                } else {
                    cx.note("nothing to redo")?;
                }
            }
            _ => {
                let played = read_move(&rules, command)
                    .map_err(|e| format!("{e} (type `help` for the commands)"))
                    .and_then(|(path, choice)| {
                        game.play_path_choosing(None, &path, choice)
                            .map_err(|e| e.to_string())
                    });
                cx.out.flush()?;
                match played {
                    Ok(_) => {
                        let text = game
                            .history()
                            .last()
                            .map(|m| move_text(&rules, &m))
                            .unwrap_or_default();
                        writeln!(cx.out, "{} plays {text}", core.player_name(side))?;
                        // Against the random player the board comes with its answer.
                        if computer.is_none() || game.outcome().is_some() {
                            write!(cx.out, "{}", board(&game, cx.out_color))?;
                        }
                    }
                    Err(message) => {
                        refused.push(line_no);
                        cx.error(message)?;
                    }
                }
            }
        }
    };
    match &end {
        End::Result(r) => writeln!(cx.out, "Result: {r}{}", why_text(&game))?,
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
            &pack_seen_from(&args.pack.pack, file),
            &args.pack.options.set,
            (initial != standard).then_some(initial.as_str()),
            result,
        );
        std::fs::write(file, record.to_text()).map_err(|e| {
            CliError::invalid(format!("cannot write the record {}: {e}", file.display()))
        })?;
        writeln!(cx.out, "Record written to {}", file.display())?;
    }
    if !cx.interactive && !refused.is_empty() {
        let lines: Vec<String> = refused.iter().map(usize::to_string).collect();
        return Err(CliError::invalid(format!(
            "{} of the input refused (line{} {})",
            plural(refused.len(), "line"),
            if refused.len() == 1 { "" } else { "s" },
            lines.join(", ")
        )));
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

/// The pack's path as the record at `record` should name it: relative to the record's
/// directory (where `ply replay` looks first after the current directory), so that the record
/// replays from anywhere and moves with its pack; absolute when the two share no ancestor;
/// as given when either cannot be resolved.
pub fn pack_seen_from(pack: &Path, record: &Path) -> String {
    let dir = match record.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (Ok(pack_abs), Ok(dir_abs)) = (pack.canonicalize(), dir.canonicalize()) else {
        return pack.display().to_string();
    };
    let a: Vec<_> = pack_abs.components().collect();
    let b: Vec<_> = dir_abs.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common <= 1 {
        return pack_abs.display().to_string();
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &a[common..] {
        rel.push(c.as_os_str());
    }
    rel.display().to_string()
}

/// A seed from the clock, for `play` without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}
