//! Boards up to 32x32 (1,024 cells): Gomoku on 19x19 by `extends`, sliding pieces on the
//! largest boards, and cell names past `z` (`aa`, ..., `af`) read and written everywhere a
//! cell is: move notation, position strings, packs.

mod common;

use ply_kernel::{Game, MAX_COLS, MAX_ROWS, Position, Rules, column_name, parse_path};
use std::sync::Arc;

/// Loads a pack given as text.
fn rules(text: &str) -> Arc<Rules> {
    match ply_lang::load_str("large.toml", text, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    }
}

fn load(text: &str) -> Position {
    Position::start(rules(text))
}

/// Plays a move written in notation (read by the kernel's own reader).
fn play(game: &mut Game, text: &str) -> Result<(), String> {
    let path = parse_path(game.rules(), text).map_err(|e| e.to_string())?;
    game.play_path(None, &path)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Gomoku on 19x19, said as a variant of the shipped 15x15 pack (`tests/packs/wide`).
fn gomoku_19() -> Arc<Rules> {
    let path = common::root().join("tests/packs/wide/gomoku_19.toml");
    match ply_lang::load(path, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    }
}

#[test]
fn gomoku_on_19x19_by_extends_has_the_perft_of_placing_anywhere() {
    let mut pos = Position::start(gomoku_19());
    // Any empty cell, then any other: 361 and 361 x 360.
    assert_eq!(pos.perft(1).unwrap(), 361);
    assert_eq!(pos.perft(2).unwrap(), 129_960);
    assert_eq!(pos.perft_bulk(2).unwrap(), 129_960);
}

#[test]
fn five_in_a_row_at_the_far_corner_of_a_19x19_board_wins() {
    let mut game = Game::new(gomoku_19());
    // BLACK along the top row from o19 to s19; WHITE along the bottom row.
    for (black, white) in [("o19", "a1"), ("p19", "b1"), ("q19", "c1"), ("r19", "d1")] {
        play(&mut game, black).unwrap();
        play(&mut game, white).unwrap();
    }
    assert!(game.outcome().is_none());
    play(&mut game, "s19").unwrap();
    let outcome = format!("{:?}", game.outcome());
    assert!(outcome.contains("Win"), "{outcome}");
    // t19 is not a cell of a 19-column board.
    assert!(play(&mut game, "t19").is_err());
}

fn rooks(rows: usize, cols: usize) -> String {
    format!(
        "[game]\nname = \"Rooks\"\nplayers = [\"A\", \"B\"]\n\n[board]\nrows = {rows}\ncols = {cols}\n\n\
         [pieces.Rook]\nletter = \"R\"\nmoves = [\"slide orthogonal\"]\n\n\
         [end.stuck]\nwhen = 'no_moves(opponent)'\nwinner = 'player'\n\n\
         [setup.A]\nRook = \"a1\"\n\n[setup.B]\nRook = \"b2\"\n"
    )
}

#[test]
fn one_sliding_kind_loads_and_plays_on_16x16_19x19_and_32x32() {
    for (rows, cols) in [(16, 16), (19, 19), (32, 32), (MAX_ROWS, 7), (7, MAX_COLS)] {
        let mut pos = load(&rooks(rows, cols));
        // From a1: up its column to the top, along its row to the last column.
        assert_eq!(
            pos.perft(1).unwrap(),
            (rows - 1 + cols - 1) as u64,
            "{rows}x{cols}"
        );
        // Every move is written so that it reads back as itself.
        for m in pos.legal_moves().unwrap().iter() {
            let text = pos.notation(m);
            let back = parse_path(pos.rules(), &text).unwrap();
            assert_eq!(
                back.as_slice(),
                pos.path(m).as_slice(),
                "{text} on {rows}x{cols}"
            );
        }
    }
}

#[test]
fn cells_past_z_are_named_and_read_back_everywhere() {
    let mut game = Game::new(rules(&rooks(MAX_ROWS, MAX_COLS)));
    // A1 to the last column: `a1-af1`; column x is a column, not a capture sign.
    play(&mut game, "a1-x1").unwrap();
    play(&mut game, "b2-b32").unwrap();
    play(&mut game, "x1-x5").unwrap();
    play(&mut game, "b32-af32").unwrap();
    play(&mut game, "x5xaf5").unwrap();
    let text = game.position().to_position_string();
    let again = Position::from_position_string(game.rules().clone(), &text).unwrap();
    assert_eq!(again.to_position_string(), text);
    assert_eq!(again.hash(), game.position().hash());
    let last = column_name(MAX_COLS - 1);
    assert_eq!(last, "af");
    let moves = common::moves(&game);
    assert!(moves.contains(&format!("{last}32-{last}6")), "{moves:?}");
    assert!(moves.contains(&"af32-a32".to_string()), "{moves:?}");
    // A column past the board is refused, not wrapped.
    assert!(play(&mut game, "af5-ag5").is_err());
}

#[test]
fn a_run_of_flips_across_a_32_cell_row_flips_every_disc() {
    // One row of 32 cells: A's disc on a1, B's discs on b1..ae1; A placing on af1 encloses
    // all thirty of them.
    let pack = "[game]\nname = \"Row\"\nplayers = [\"A\", \"B\"]\n\n[board]\nrows = 1\ncols = 32\n\n\
                [pieces.Disc]\nletter = \"D\"\nmoves = [\"place\"]\n\n\
                [effects.flip]\nflip = \"all\"\nrequired = true\n\n\
                [end.full]\nwhen = 'no_moves(opponent)'\ndraw = true\n";
    let rules = rules(pack);
    let text = format!("AD{} A", "BD".repeat(30) + "1");
    let mut game = Game::from_position_string(rules, &text).unwrap();
    play(&mut game, "af1").unwrap();
    let after = game.position().to_position_string();
    assert!(after.starts_with(&"AD".repeat(32)), "{after}");
}

/// A condition that tells every cell of a 19x19 board apart (361 classes of cells, more than
/// a byte holds): a capture onto any cell but the one at row 1, column 1 is allowed. Classes
/// kept in a byte wrapped past 256, so that cells 256 classes apart shared a verdict.
#[test]
fn a_capture_rule_that_tells_361_cells_apart_judges_each_cell_by_its_own() {
    let n = 19;
    let rules = rules(&format!(
        "[game]\nname = \"Cells\"\nplayers = [\"A\", \"B\"]\n\n[board]\nrows = {n}\ncols = {n}\n\n\
         [pieces.Stone]\nletter = \"S\"\nmoves = [\"step orthogonal\"]\n\n\
         [rules.capture]\nnot-one = 'not (target.cell.row == 1 and target.cell.col == 1)'\n\n\
         [setup.A]\nStone = \"b1\"\n\n[setup.B]\nStone = \"a1\"\n"
    ));
    let g = rules.geometry().clone();
    let mut refused = Vec::new();
    for target in g.cells().iter() {
        // The attacker beside the target, on its left or (in the first column) its right.
        let name = g.name(target).to_string();
        let (col, row) = (g.col(target), g.row(target));
        let beside = if col == 0 { col + 1 } else { col - 1 };
        let mut rows_text = Vec::new();
        for r in 0..n {
            let mut line = String::new();
            let mut empty = 0;
            for c in 0..n {
                let piece = match (r == row, c) {
                    (true, c) if c == col => Some("BS"),
                    (true, c) if c == beside => Some("AS"),
                    _ => None,
                };
                match piece {
                    Some(p) => {
                        if empty > 0 {
                            line += &empty.to_string();
                            empty = 0;
                        }
                        line += p;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                line += &empty.to_string();
            }
            rows_text.push(line);
        }
        let text = format!("{} A", rows_text.join("/"));
        let pos = Position::from_position_string(rules.clone(), &text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let captures = pos
            .legal_moves()
            .unwrap()
            .iter()
            .filter(|m| m.is_capture())
            .count();
        assert!(captures <= 1, "capturing on {name}");
        if captures == 0 {
            refused.push(name);
        }
    }
    assert_eq!(refused.len(), 1, "captures refused on {refused:?}");
}
