//! `ply moves`: the legal moves of the side to move (or of one piece), in notation, in the
//! order the kernel generates them.

use crate::common::PackArgs;
use crate::common::{load_pack, parse_cell, position_at};
use crate::output::{CmdResult, Context, print_json};
use clap::Args;
use ply_kernel::move_text;
use serde_json::{Value, json};

/// `ply moves`.
#[derive(Args, Debug, Clone)]
pub struct MovesArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// A position string instead of the start.
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// Only the moves of the piece on this cell (human notation, e.g. `a7`).
    #[arg(long, value_name = "CELL")]
    pub from: Option<String>,
    /// A JSON list of `{notation, path}`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ply moves`.
pub fn run(args: &MovesArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let position = position_at(rules.clone(), args.position.as_deref())?;
    let g = rules.geometry();
    let list = match &args.from {
        Some(text) => {
            let cell = parse_cell(&rules, text)?;
            let core = rules.core();
            match position.piece_at(cell) {
                None => cx.note(format!("there is no piece on {text}"))?,
                Some(p) if p.owner() != position.side_to_move() => cx.note(format!(
                    "the piece on {text} belongs to {}, and {} is to move",
                    core.player_name(p.owner()),
                    core.player_name(position.side_to_move())
                ))?,
                Some(_) => {}
            }
            position.moves_from(cell)?
        }
        None => position.legal_moves()?,
    };
    if args.json {
        let moves: Vec<Value> = list
            .iter()
            .map(|m| {
                let path: Vec<Value> = m
                    .path(g)
                    .iter()
                    .map(|c| json!([g.row(*c), g.col(*c)]))
                    .collect();
                json!({ "notation": move_text(&rules, &m), "path": path })
            })
            .collect();
        print_json(cx.out, &Value::Array(moves))?;
    } else {
        for m in list.iter() {
            writeln!(cx.out, "{}", move_text(&rules, &m))?;
        }
    }
    Ok(())
}
