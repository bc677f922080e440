//! `ply script`: a JSON-lines protocol for other programs.
//!
//! One JSON array per input line, one JSON value per output line, flushed after each; blank
//! lines are skipped. The first item of an array names the action, the others are its
//! arguments. The README documents every action; `["help"]` answers the same list.
//!
//! The protocol began as the `solution(actions)` interface of the Animal Chess exercise that
//! started Ply (called seed 000 in the tests): its nine actions (`init`, `clear`, `place`,
//! `move`, `piece`, `snapshot`, `display`, `turn`, `winner`) answer exactly what that
//! exercise's reference answered, `false` included for a refused or malformed move, because
//! programs compare those answers (`tests/data/seed000_*.jsonl`). Everything else is an
//! addition that leaves them alone: the other actions, cell names (`"a7"`) wherever a row and a
//! column are accepted, `["why"]` for the reason of the last `false`, and `{"error": ...}` for
//! lines that are not actions at all (not JSON, not an array starting with a name, or an
//! unknown name).
//!
//! Bad input never ends the session and never panics: every non-blank line gets exactly one
//! answer (the property tests and the fuzz target in `crates/cli/fuzz` check it).

use crate::common::{PackArgs, load_pack};
use crate::output::{CmdResult, Context};
use clap::Args;
use ply_kernel::{Cell, Game, KindId, Move, Outcome, Piece, Player, Rules, Status, move_text};
use ply_search::{Caps, Engine, EngineSpec, Evaluator, SpecError, Weights};
use serde_json::{Value, json};
use std::io::{self, BufRead, Write};
use std::sync::Arc;

/// `ply script`.
#[derive(Args, Debug, Clone)]
pub struct ScriptArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
}

/// Runs `ply script`: loads the pack and serves the protocol on the context's streams.
pub fn run(args: &ScriptArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let session = Session::new(pack.rules.clone()).with_eval(crate::engines::evaluation(&pack));
    serve_session(session, &mut *cx.input, &mut *cx.out)?;
    Ok(())
}

/// Every action: its name, its arguments, and what it answers (what `["help"]` answers).
pub const ACTIONS: [(&str, &str, &str); 18] = [
    (
        "init",
        "",
        "true; the standard starting position, first player to move, no history",
    ),
    (
        "clear",
        "",
        "true; an empty board, first player to move, no history",
    ),
    (
        "place",
        "PLAYER KIND CELL",
        "true if the piece was put on the empty cell, false if not (see why)",
    ),
    (
        "move",
        "PLAYER [CELL...] [=LETTER]",
        "true if the move was played, false if not (see why): its path (origin, then each \
         landing; one cell for a placement, none for a pass) and, for a promotion with a \
         choice, the letter of the kind chosen (\"=Q\"), as `moves` lists it",
    ),
    (
        "piece",
        "CELL",
        "the code of the piece there (\"AL\"), or null",
    ),
    (
        "snapshot",
        "",
        "every piece as [row, column, code], row by row from the top",
    ),
    (
        "display",
        "",
        "the board as rows of codes from the top, \"__\" for an empty cell",
    ),
    ("turn", "", "the name of the player to move"),
    ("winner", "", "the name of the winner, or null"),
    (
        "status",
        "",
        "{\"to_move\": PLAYER}, {\"winner\": PLAYER} or {\"draw\": true}",
    ),
    (
        "moves",
        "[PLAYER]",
        "the legal moves (of the side to move, or of PLAYER), each a list of [row, column] (one \
         for a placement, none for a pass), then \"=LETTER\" for a promotion's choice",
    ),
    ("undo", "", "true if a move was taken back, false if none"),
    (
        "redo",
        "",
        "true if a move taken back was played again, false if none",
    ),
    ("position", "", "the position string"),
    (
        "load",
        "POSITION",
        "true if the position string was read (the history is cleared), false if not",
    ),
    (
        "why",
        "",
        "why the last action before it (why and help aside) answered false, as a string; null \
         if it did not",
    ),
    (
        "engine",
        "PLAYER",
        "the move the player (random, mcts:1s, mcts:5000, alphabeta:depth=6, ...; at most 10 s) \
         chooses for the side to move, not played: {\"move\": [[row, column], ...], \"text\": \"a7-a6\"} with \
         what the engine knows (\"score\", \"depth\", \"win_rate\", \"proven\"); false if \
         there is no move or the player is not understood (see why)",
    ),
    ("help", "", "this description"),
];

/// The longest an `engine` action searches, whatever its player says (without a time, a
/// depth or an iteration count, 1 s).
pub const ENGINE_TIME_CAP: std::time::Duration = std::time::Duration::from_secs(10);

/// How cells are written in arguments, as `["help"]` says it.
pub const CELLS: &str = "A CELL is two integers, row and column from 0 with row 0 at the top \
    ([\"piece\", 2, 0]), or a name in human notation, column letter then row number from 1 at \
    the bottom ([\"piece\", \"a7\"]); a name that is not on the board counts as an off-board \
    pair.";

/// A scripting session over one game.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    /// The evaluation the engines use.
    eval: Arc<dyn Evaluator>,
    /// Why the previous action answered `false`; `None` if it did not (or there was none).
    why: Option<String>,
}

/// An action's answer: a value, or `false` with the reason that `["why"]` gives.
type Answer = Result<Value, String>;

impl Session {
    /// A session on an empty board with the first player to move, as seed 000's game starts.
    pub fn new(rules: Arc<Rules>) -> Session {
        Session {
            eval: Arc::new(Weights::material(&rules)),
            game: Game::empty(rules),
            why: None,
        }
    }

    /// This session with another evaluation for the engines.
    pub fn with_eval(mut self, eval: Arc<dyn Evaluator>) -> Session {
        self.eval = eval;
        self
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one input line.
    pub fn handle_line(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => self.handle(&v),
            Err(e) => {
                self.why = None;
                error(format!("not JSON: {e}"))
            }
        }
    }

    /// Answers one action.
    pub fn handle(&mut self, action: &Value) -> Value {
        let Some((name, args)) = action
            .as_array()
            .and_then(|items| Some((items.first()?.as_str()?, &items[1..])))
        else {
            self.why = None;
            return error(
                "an action is a JSON array whose first item is the action's name, such as \
                 [\"turn\"]; [\"help\"] lists them"
                    .to_string(),
            );
        };
        match name {
            "why" if args.is_empty() => self.why.clone().map_or(Value::Null, Value::String),
            "help" if args.is_empty() => help(),
            _ if ACTIONS.iter().any(|(n, _, _)| *n == name) => match self.dispatch(name, args) {
                Ok(v) => {
                    self.why = None;
                    v
                }
                Err(reason) => {
                    self.why = Some(reason);
                    Value::Bool(false)
                }
            },
            _ => {
                self.why = None;
                let known: Vec<&str> = ACTIONS.iter().map(|(n, _, _)| *n).collect();
                error(format!(
                    "unknown action `{name}`; the actions are {}",
                    known.join(", ")
                ))
            }
        }
    }

    fn dispatch(&mut self, name: &str, args: &[Value]) -> Answer {
        let rules = self.game.rules().clone();
        let core = rules.core();
        let g = rules.geometry();
        let usage = || {
            let (_, arguments, _) = ACTIONS
                .iter()
                .find(|(n, _, _)| *n == name)
                .copied()
                .unwrap_or(("", "", ""));
            if arguments.is_empty() {
                format!("`{name}` takes no arguments")
            } else {
                format!("`{name}` takes {arguments} (in {})", Value::from(args))
            }
        };
        let player = |v: &Value| -> Result<Player, String> {
            let text = v.as_str().ok_or_else(usage)?;
            core.player_by_name(text).ok_or_else(|| {
                format!(
                    "`{text}` is not a player (expected {} or {})",
                    core.player_name(Player::FIRST),
                    core.player_name(Player::SECOND)
                )
            })
        };
        Ok(match (name, args) {
            ("init", []) => {
                self.game.reset();
                Value::Bool(true)
            }
            ("clear", []) => {
                self.game.clear();
                Value::Bool(true)
            }
            ("place", [p, kind, at @ ..]) => {
                let p = player(p)?;
                let text = kind.as_str().ok_or_else(usage)?;
                let kind = core
                    .kind_by_name(text)
                    .ok_or_else(|| format!("`{text}` is not a kind of piece of {}", core.name()))?;
                let cell = one_cell(&rules, at).ok_or_else(usage)?;
                let cell = cell?;
                self.game
                    .place(Piece::new(kind, p), cell)
                    .map_err(|e| e.to_string())?;
                Value::Bool(true)
            }
            ("move", [p, at @ ..]) => {
                let p = player(p)?;
                // A promotion's choice comes last, as `moves` lists it: `"=Q"`.
                let (at, choice) = match at.split_last() {
                    Some((Value::String(c), rest)) if c.starts_with('=') => {
                        (rest, Some(choice_of(&rules, c)?))
                    }
                    _ => (at, None),
                };
                let path = cells(&rules, at).ok_or_else(usage)?;
                let path = path.into_iter().collect::<Result<Vec<Cell>, String>>()?;
                // No cell: a pass; one cell: a placement; more: a move along its path.
                self.game
                    .play_path_choosing(Some(p), &path, choice)
                    .map_err(|e| e.to_string())?;
                Value::Bool(true)
            }
            ("piece", at) => {
                let cell = one_cell(&rules, at).ok_or_else(usage)?;
                match cell.ok().and_then(|c| self.game.position().piece_at(c)) {
                    Some(piece) => Value::String(core.code(piece).to_string()),
                    None => Value::Null,
                }
            }
            ("snapshot", []) => Value::Array(
                self.game
                    .position()
                    .pieces()
                    .map(|(c, p)| json!([g.row(c), g.col(c), core.code(p)]))
                    .collect(),
            ),
            ("display", []) => Value::Array(
                (0..g.rows())
                    .map(|r| {
                        Value::Array(
                            (0..g.cols())
                                .map(|c| {
                                    let piece = g
                                        .cell(r as i64, c as i64)
                                        .and_then(|x| self.game.position().piece_at(x));
                                    Value::String(
                                        piece
                                            .map_or("__".to_string(), |p| core.code(p).to_string()),
                                    )
                                })
                                .collect(),
                        )
                    })
                    .collect(),
            ),
            ("turn", []) => Value::String(core.player_name(self.game.side_to_move()).to_string()),
            ("winner", []) => match self.game.outcome() {
                Some(Outcome::Win(p)) => Value::String(core.player_name(p).to_string()),
                _ => Value::Null,
            },
            ("status", []) => match self.game.status() {
                Status::ToMove(p) => json!({ "to_move": core.player_name(p) }),
                Status::Over(Outcome::Win(p)) => json!({ "winner": core.player_name(p) }),
                Status::Over(Outcome::Draw) => json!({ "draw": true }),
                Status::Stuck(p) => json!({ "to_move": core.player_name(p), "stuck": true }),
            },
            ("moves", []) => self.moves(None),
            ("moves", [p]) => self.moves(Some(player(p)?)),
            ("undo", []) => {
                if !self.game.undo() {
                    return Err("there is no move to take back".into());
                }
                Value::Bool(true)
            }
            ("redo", []) => {
                if !self.game.redo() {
                    return Err("there is no move taken back to play again".into());
                }
                Value::Bool(true)
            }
            ("position", []) => Value::String(self.game.position().to_position_string()),
            ("engine", [spec]) => {
                let text = spec.as_str().ok_or_else(usage)?;
                let spec: EngineSpec = text.parse().map_err(|e: SpecError| e.to_string())?;
                let mut spec = spec
                    .bounded(&Caps::default())
                    .map_err(|e| format!("player `{text}`: {e}"))?;
                // A session never hangs: every search is bounded in time.
                let time = spec.limits().time;
                spec.time = Some(time.map_or(ENGINE_TIME_CAP, |t| t.min(ENGINE_TIME_CAP)));
                let mut engine =
                    Engine::try_new(&spec, self.eval.clone()).map_err(|e| e.to_string())?;
                let choice = engine
                    .choose(self.game.position())
                    .map_err(|e| e.to_string())?;
                let m = choice.mv;
                let mut answer = json!({
                    "move": move_json(&rules, &m),
                    "text": move_text(&rules, &m),
                });
                if let Some(s) = choice.score {
                    answer["score"] = json!(s.to_string());
                }
                if let Some(d) = choice.depth {
                    answer["depth"] = json!(d);
                }
                if let Some((v, proven)) = choice.value {
                    answer["win_rate"] = json!(v);
                    answer["proven"] = json!(proven);
                }
                answer
            }
            ("load", [text]) => {
                let text = text.as_str().ok_or_else(usage)?;
                self.game =
                    Game::from_position_string(rules.clone(), text).map_err(|e| e.to_string())?;
                Value::Bool(true)
            }
            _ => return Err(usage()),
        })
    }

    fn moves(&self, player: Option<Player>) -> Value {
        let rules = self.game.rules();
        let list = match player {
            Some(p) => self.game.moves_of(p),
            None => self.game.legal_moves(),
        };
        let list = match list {
            Ok(list) => list,
            Err(e) => return json!({ "error": e.to_string() }),
        };
        Value::Array(list.iter().map(|m| move_json(rules, &m)).collect())
    }
}

/// A move as `moves` lists it and `move` takes it back: its path as `[row, column]` pairs,
/// then `"=LETTER"` when it promotes by choice (a promotion by the rules alone needs none).
fn move_json(rules: &Rules, m: &Move) -> Value {
    let g = rules.geometry();
    let mut items: Vec<Value> = m
        .path(g)
        .iter()
        .map(|c| json!([g.row(*c), g.col(*c)]))
        .collect();
    if let Some(p) = m.promotion() {
        items.push(json!(format!("={}", rules.core().kind_letter(p.kind()))));
    }
    Value::Array(items)
}

/// The kind a `"=LETTER"` argument chooses (its letter in any case).
fn choice_of(rules: &Rules, text: &str) -> Result<KindId, String> {
    let letter = &text[1..];
    rules
        .kinds()
        .find(|k| rules.core().kind_letter(*k).eq_ignore_ascii_case(letter))
        .ok_or_else(|| format!("`{letter}` in \"{text}\" is not the letter of a kind of piece"))
}

/// `{"error": message}`.
fn error(message: String) -> Value {
    json!({ "error": message })
}

/// The answer to `["help"]`.
fn help() -> Value {
    json!({
        "protocol": "one JSON array per line, such as [\"move\", \"A\", \"a7\", \"a6\"]; one \
                     JSON answer per line",
        "cells": CELLS,
        "actions": ACTIONS
            .iter()
            .map(|(name, arguments, answer)| json!({
                "action": name,
                "arguments": arguments,
                "answer": answer,
            }))
            .collect::<Vec<_>>(),
    })
}

/// Reads the cells of an action's arguments: each a string (a cell name) or two integers (row
/// and column). `None` if the arguments are not of that form; a cell not on the board is
/// `Err` with the reason.
fn cells(rules: &Rules, args: &[Value]) -> Option<Vec<Result<Cell, String>>> {
    let g = rules.geometry();
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if let Some(name) = args[i].as_str() {
            out.push(
                g.parse_cell(name)
                    .ok_or_else(|| format!("\"{name}\" is not a cell of this board")),
            );
            i += 1;
        } else {
            let (r, c) = (args[i].as_i64()?, args.get(i + 1)?.as_i64()?);
            out.push(
                g.cell(r, c)
                    .ok_or_else(|| format!("[{r}, {c}] is not a cell of this board")),
            );
            i += 2;
        }
    }
    Some(out)
}

/// The one cell of an action's arguments, as [`cells`] reads it.
fn one_cell(rules: &Rules, args: &[Value]) -> Option<Result<Cell, String>> {
    let mut all = cells(rules, args)?;
    if all.len() == 1 { all.pop() } else { None }
}

/// Serves the protocol: reads lines from `input` until it ends, answering each non-blank line
/// on `output` (a line that is not UTF-8 too, with `{"error": ...}`).
pub fn serve(rules: Arc<Rules>, input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_session(Session::new(rules), input, output)
}

/// [`serve`] with a session made beforehand (with its own evaluation).
pub fn serve_session(
    mut session: Session,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let answer = match std::str::from_utf8(&line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => session.handle_line(text),
            Err(e) => error(format!("the line is not UTF-8: {e}")),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
}
