//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads a shipped pack, panicking with the rendered diagnostics if it fails.
pub fn pack(name: &str, set: &[(&str, &str)]) -> Arc<ply_kernel::Rules> {
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    match ply_lang::load(root().join("rulesets").join(name), &set) {
        Ok(p) => p.rules,
        Err(e) => panic!("{name} does not load:\n{}", e.render(false)),
    }
}

/// A position string for `rules` with the given pieces (`("a6", "AL")`) and side to move.
pub fn fen(rules: &ply_kernel::Rules, pieces: &[(&str, &str)], side: &str) -> String {
    let g = rules.geometry();
    let mut grid: Vec<Vec<Option<&str>>> = vec![vec![None; g.cols()]; g.rows()];
    for (cell, code) in pieces {
        let c = g
            .parse_cell(cell)
            .unwrap_or_else(|| panic!("bad cell {cell}"));
        grid[g.row(c)][g.col(c)] = Some(*code);
    }
    grid_position_string(&grid, side)
}

/// A position string from a grid of piece codes, row 0 at the top (holes count as empty).
pub fn grid_position_string(grid: &[Vec<Option<&str>>], side: &str) -> String {
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for cell in row {
                match cell {
                    Some(code) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s += code;
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            s
        })
        .collect();
    format!("{} {side}", rows.join("/"))
}

/// A game from pieces and side to move.
pub fn game(
    rules: &Arc<ply_kernel::Rules>,
    pieces: &[(&str, &str)],
    side: &str,
) -> ply_kernel::Game {
    let text = fen(rules, pieces, side);
    ply_kernel::Game::from_position_string(rules.clone(), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Cells from names.
pub fn cells(rules: &ply_kernel::Rules, names: &str) -> Vec<ply_kernel::Cell> {
    let g = rules.geometry();
    names
        .split(['-', 'x'])
        .map(|n| g.parse_cell(n).unwrap_or_else(|| panic!("bad cell {n}")))
        .collect()
}

/// Plays a move written in notation; returns the refusal, if any.
pub fn play(
    game: &mut ply_kernel::Game,
    path: &str,
) -> Result<ply_kernel::Status, ply_kernel::MoveError> {
    let (p, choice) = ply_kernel::parse_move(game.rules(), path)
        .unwrap_or_else(|e| panic!("`{path}` does not read: {e}"));
    game.play_path_choosing(None, &p, choice)
}

/// The legal moves, in notation, sorted.
pub fn moves(game: &ply_kernel::Game) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(game.rules(), &m))
        .collect();
    v.sort();
    v
}

/// xorshift64*: a small seeded generator, so that random games are the same every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays a move that must be refused as illegal: checks that the position (string and key)
/// did not change, and returns the reason given.
pub fn refused(game: &mut ply_kernel::Game, path: &str) -> ply_kernel::Reason {
    let before = (game.position().to_position_string(), game.position().hash());
    let result = play(game, path);
    let after = (game.position().to_position_string(), game.position().hash());
    assert_eq!(after, before, "{path}: a refused move changed the position");
    match result.as_ref().map_err(|e| e.reason()) {
        Err(Some(reason)) => reason,
        _ => panic!("{path}: expected an illegal move, got {result:?}"),
    }
}

/// The enter, capture, place or after-the-move rule of the game's rules with this name.
pub fn rule(game: &ply_kernel::Game, name: &str) -> ply_kernel::RuleId {
    let rules = game.rules();
    [
        ply_kernel::Section::Enter,
        ply_kernel::Section::Capture,
        ply_kernel::Section::Place,
        ply_kernel::Section::After,
    ]
    .into_iter()
    .find_map(|s| rules.rule_by_name(s, name))
    .unwrap_or_else(|| panic!("no rule `{name}`"))
}
