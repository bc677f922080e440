//! `ply script`: a JSON-lines protocol for other programs.
//!
//! One JSON array per input line, one JSON value per output line, flushed after each. The
//! actions are those of seed 000 (`init`, `clear`, `place`, `move`, `piece`, `snapshot`,
//! `display`, `turn`, `winner`) plus `moves`, `undo`, `redo`, `position`, `load` and `status`.
//! Rows and columns are 0-based with row 0 at the top. Bad input never ends the session: an
//! unknown action or malformed arguments answer `false`, a line that is not JSON answers
//! `{"error": ...}`.

use crate::common::{PackArgs, load_pack};
use crate::output::{CmdResult, Context};
use clap::Args;
use ply_kernel::{Cell, Game, Outcome, Piece, Player, Rules, Status};
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
    serve(pack.rules, &mut *cx.input, &mut *cx.out)?;
    Ok(())
}

/// A scripting session over one game.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
}

impl Session {
    /// A session on an empty board with the first player to move, as seed 000's game starts.
    pub fn new(rules: Arc<Rules>) -> Session {
        Session {
            game: Game::empty(rules),
        }
    }

    /// The game being played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one input line.
    pub fn handle_line(&mut self, line: &str) -> Value {
        match serde_json::from_str::<Value>(line) {
            Ok(v) => self.handle(&v),
            Err(e) => json!({ "error": format!("not JSON: {e}") }),
        }
    }

    /// Answers one action.
    pub fn handle(&mut self, action: &Value) -> Value {
        let Some(items) = action.as_array() else {
            return Value::Bool(false);
        };
        let Some(name) = items.first().and_then(Value::as_str) else {
            return Value::Bool(false);
        };
        let args = &items[1..];
        self.dispatch(name, args).unwrap_or(Value::Bool(false))
    }

    fn dispatch(&mut self, name: &str, args: &[Value]) -> Option<Value> {
        let rules = self.game.rules().clone();
        let core = rules.core();
        let g = rules.geometry();
        let cell = |r: &Value, c: &Value| -> Option<Option<Cell>> {
            Some(g.cell(r.as_i64()?, c.as_i64()?))
        };
        let player = |v: &Value| v.as_str().and_then(|s| core.player_by_name(s));
        Some(match (name, args) {
            ("init", []) => {
                self.game.reset();
                Value::Bool(true)
            }
            ("clear", []) => {
                self.game.clear();
                Value::Bool(true)
            }
            ("place", [p, kind, r, c]) => {
                let (Some(p), Some(kind)) =
                    (player(p), kind.as_str().and_then(|k| core.kind_by_name(k)))
                else {
                    return Some(Value::Bool(false));
                };
                let Some(cell) = cell(r, c)? else {
                    return Some(Value::Bool(false));
                };
                Value::Bool(self.game.place(Piece::new(kind, p), cell).is_ok())
            }
            ("move", [p, rest @ ..]) if rest.len() >= 4 && rest.len() % 2 == 0 => {
                let Some(p) = player(p) else {
                    return Some(Value::Bool(false));
                };
                let mut path = Vec::new();
                for rc in rest.chunks(2) {
                    match cell(&rc[0], &rc[1])? {
                        Some(c) => path.push(c),
                        None => return Some(Value::Bool(false)),
                    }
                }
                Value::Bool(self.game.play_path(Some(p), &path).is_ok())
            }
            ("piece", [r, c]) => match cell(r, c)?.and_then(|c| self.game.position().piece_at(c)) {
                Some(piece) => Value::String(core.code(piece).to_string()),
                None => Value::Null,
            },
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
            },
            ("moves", []) => self.moves(None),
            ("moves", [p]) => self.moves(Some(player(p)?)),
            ("undo", []) => Value::Bool(self.game.undo()),
            ("redo", []) => Value::Bool(self.game.redo()),
            ("position", []) => Value::String(self.game.position().to_position_string()),
            ("load", [text]) => match Game::from_position_string(rules.clone(), text.as_str()?) {
                Ok(game) => {
                    self.game = game;
                    Value::Bool(true)
                }
                Err(_) => Value::Bool(false),
            },
            _ => Value::Bool(false),
        })
    }

    fn moves(&self, player: Option<Player>) -> Value {
        let rules = self.game.rules();
        let g = rules.geometry();
        let list = match player {
            Some(p) => self.game.moves_of(p),
            None => self.game.legal_moves(),
        };
        Value::Array(
            list.iter()
                .map(|m| {
                    Value::Array(
                        m.path(rules)
                            .iter()
                            .map(|c| json!([g.row(*c), g.col(*c)]))
                            .collect(),
                    )
                })
                .collect(),
        )
    }
}

/// Serves the protocol: reads lines from `input` until it ends, answering each on `output`.
pub fn serve(rules: Arc<Rules>, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::new(rules);
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = session.handle_line(&line);
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}
