//! The packs of the wider grid (Connect Four, Othello, Gomoku, Tablut, Amazons) against
//! independent reference generators written from the rules (`tests/reference`): over seeded
//! random games, at every position, the same legal moves, the same board after each move and
//! the same outcome.

mod common;
mod reference;

use ply_kernel::{Outcome, Position, Rng, Rules};
use reference::{Board, RefMove, Stone};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Our position as a reference board.
fn board_of(pos: &Position) -> Board {
    let g = pos.rules().geometry();
    let mut b = Board::empty(g.rows(), g.cols());
    for (cell, piece) in pos.pieces() {
        let i = reference::cell_index(&b, &g.name(cell).to_string());
        b.cells[i] = Some(Stone {
            owner: piece.owner().index() as u8,
            kind: piece.kind().index() as u8,
        });
    }
    b.to_move = pos.side_to_move().index() as u8;
    b
}

fn our_outcome(o: Option<Outcome>) -> Option<reference::Outcome> {
    o.map(|o| match o {
        Outcome::Win(p) => reference::Outcome::Win(p.index() as u8),
        Outcome::Draw => reference::Outcome::Draw,
    })
}

struct Game {
    legal: fn(&Board) -> Vec<RefMove>,
    play: fn(&Board, &RefMove) -> Board,
    outcome: fn(&Board) -> Option<reference::Outcome>,
}

/// Plays `games` seeded random games of `rules`, comparing with the reference at every
/// position; returns the number of positions compared.
fn compare(rules: Arc<Rules>, game: &Game, games: usize, max_plies: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::start(rules.clone());
        for _ in 0..max_plies {
            let b = board_of(&pos);
            positions += 1;
            let ours: BTreeSet<String> = pos
                .legal_moves()
                .expect("within limits")
                .iter()
                .map(|m| pos.notation(m))
                .collect();
            let theirs_moves = (game.legal)(&b);
            let theirs: BTreeSet<String> = theirs_moves
                .iter()
                .map(|m| reference::move_name(&b, m))
                .collect();
            assert_eq!(ours, theirs, "moves differ in {}", pos.to_position_string());
            let list = pos.legal_moves().expect("within limits");
            let Some(m) = list.get(rng.below(list.len())) else {
                break;
            };
            let name = pos.notation(m);
            let rm = theirs_moves
                .iter()
                .find(|r| reference::move_name(&b, r) == name)
                .expect("the same move");
            let after = (game.play)(&b, rm);
            pos.play(m).expect("a legal move");
            assert_eq!(board_of(&pos).cells, after.cells, "board after {name}");
            assert_eq!(
                our_outcome(pos.outcome()),
                (game.outcome)(&after),
                "outcome after {name} in {}",
                pos.to_position_string()
            );
            if pos.outcome().is_some() {
                break;
            }
        }
    }
    positions
}

#[test]
fn othello_agrees_with_the_reference() {
    let game = Game {
        legal: reference::othello::legal_moves,
        play: reference::othello::play,
        outcome: reference::othello::outcome,
    };
    let n = compare(common::pack("othello.toml", &[]), &game, 120, 100, 11);
    assert!(n > 5000, "{n} positions");
}

#[test]
fn tablut_agrees_with_the_reference() {
    let game = Game {
        legal: reference::tablut::legal_moves,
        play: reference::tablut::play,
        outcome: reference::tablut::outcome,
    };
    let n = compare(common::pack("tablut.toml", &[]), &game, 80, 200, 12);
    assert!(n > 3000, "{n} positions");
}

#[test]
fn connect_four_agrees_with_the_reference() {
    let game = Game {
        legal: reference::connect_four::legal_moves,
        play: reference::connect_four::play,
        outcome: reference::connect_four::outcome,
    };
    let n = compare(common::pack("connect_four.toml", &[]), &game, 300, 42, 13);
    assert!(n > 3000, "{n} positions");
}

#[test]
fn amazons_agrees_with_the_reference() {
    let game = Game {
        legal: reference::amazons::legal_moves,
        play: reference::amazons::play,
        outcome: reference::amazons::outcome,
    };
    let n = compare(common::pack("amazons.toml", &[]), &game, 3, 120, 14);
    assert!(n > 100, "{n} positions");
}

#[test]
fn gomoku_agrees_with_the_reference() {
    let game = Game {
        legal: reference::gomoku::legal_moves,
        play: reference::gomoku::play,
        outcome: reference::gomoku::outcome,
    };
    let n = compare(common::pack("gomoku.toml", &[]), &game, 6, 225, 15);
    assert!(n > 300, "{n} positions");
}

#[test]
fn gomoku_exact_five_agrees_with_the_reference() {
    fn legal(b: &Board) -> Vec<RefMove> {
        reference::gomoku::legal_moves_with(b, reference::gomoku::EXACT)
    }
    fn outcome(b: &Board) -> Option<reference::Outcome> {
        reference::gomoku::outcome_with(b, reference::gomoku::EXACT)
    }
    let game = Game {
        legal,
        play: reference::gomoku::play,
        outcome,
    };
    let n = compare(
        common::pack("gomoku.toml", &[("exact_five", "true")]),
        &game,
        6,
        225,
        16,
    );
    assert!(n > 300, "{n} positions");
}
