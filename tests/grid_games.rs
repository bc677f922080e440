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
    b.passes = pos.passes();
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

/// Every move of every position along seeded random games of the new packs is taken back
/// exactly: the position string, the key and the outcome come back.
#[test]
fn make_and_unmake_restore_the_new_games() {
    for (pack, games) in [
        ("othello.toml", 20),
        ("tablut.toml", 10),
        ("connect_four.toml", 30),
        ("amazons.toml", 1),
        ("gomoku.toml", 2),
    ] {
        let rules = common::pack(pack, &[]);
        let mut rng = Rng::new(21);
        for _ in 0..games {
            let mut pos = Position::start(rules.clone());
            while pos.outcome().is_none() {
                let (text, key) = (pos.to_position_string(), pos.hash());
                let list = pos.legal_moves().expect("within limits");
                for m in list.iter() {
                    let undo = pos.make_unchecked(m);
                    let after = pos.to_position_string();
                    let back = Position::from_position_string(rules.clone(), &after)
                        .unwrap_or_else(|e| panic!("{pack}: {after}: {e}"));
                    assert_eq!(back.to_position_string(), after, "{pack}");
                    assert_eq!(back.hash(), pos.hash(), "{pack}: the key of {after}");
                    pos.unmake_unchecked(m, undo);
                    assert_eq!(pos.to_position_string(), text, "{pack}: after {m:?}");
                    assert_eq!(pos.hash(), key, "{pack}");
                }
                match list.get(rng.below(list.len())) {
                    Some(m) => {
                        pos.play(m).expect("legal");
                    }
                    None => break,
                }
            }
        }
    }
}

/// A pass is a move: written `pass`, counted in the position string while it matters, read
/// back, and refused while the player has a placement.
#[test]
fn othello_passes_are_moves() {
    let rules = common::pack("othello.toml", &[]);
    let mut rng = Rng::new(5);
    let mut seen = 0;
    for _ in 0..200 {
        let mut pos = Position::start(rules.clone());
        while pos.outcome().is_none() {
            let list = pos.legal_moves().expect("within limits");
            let Some(m) = list.get(rng.below(list.len())) else {
                break;
            };
            if !m.is_pass() {
                let path = ply_kernel::parse_path(&rules, "pass").expect("`pass` reads");
                let err = pos
                    .find_move(None, &path)
                    .expect_err("no pass with a placement");
                assert!(err.to_string().contains("only when it has no other move"));
            }
            pos.play(m).expect("legal");
            if m.is_pass() {
                seen += 1;
                assert_eq!(list.len(), 1, "a pass is the only move");
                let text = pos.to_position_string();
                let field = format!("passes={}", pos.passes());
                assert!(pos.passes() >= 1 && text.contains(&field), "{text}");
                let back = Position::from_position_string(rules.clone(), &text).unwrap();
                assert_eq!(back.to_position_string(), text);
                assert_eq!(back.hash(), pos.hash());
            }
        }
    }
    assert!(seen > 0, "no pass in 200 games");
}

const SUPPLY: &str = r#"
[game]
name = "Two each"
players = ["A", "B"]

[board]
rows = 3
cols = 3

[pieces.Stone]
letter = "S"
supply = 2
moves = ["place"]

[pieces.Marker]
letter = "M"
moves = ["place when cell.row == 0"]
"#;

/// A limited supply is counted in the position and its string, refuses a placement once
/// spent, and a string that does not fit the pack is refused with the reason.
#[test]
fn a_supply_in_hand_is_part_of_the_position() {
    let rules = ply_lang::load_str("two_each.toml", SUPPLY, &[])
        .unwrap()
        .rules;
    let mut pos = Position::start(rules.clone());
    assert_eq!(pos.to_position_string(), "3/3/3 A hand=AS:2,BS:2");
    let start_key = pos.hash();
    let cells = |t: &str| ply_kernel::parse_path(&rules, t).unwrap();
    let m = pos.find_move(None, &cells("b2")).unwrap();
    let undo = pos.play(m).unwrap();
    assert_eq!(pos.to_position_string(), "3/1AS1/3 B hand=AS:1,BS:2");
    pos.unmake_unchecked(m, undo);
    assert_eq!(pos.hash(), start_key);
    let spent = Position::from_position_string(rules.clone(), "3/1AS1/3 A hand=AS:0,BS:2").unwrap();
    // The marker (unlimited) may still be placed on the top row; the stone is out of hand.
    let err = spent.find_move(None, &cells("a1")).unwrap_err().to_string();
    assert!(err.contains("no piece is left in hand"), "{err}");
    assert!(spent.find_move(None, &cells("a3")).is_ok());
    for (text, why) in [
        ("3/3/3 A hand=AS:3,BS:2", "at most 2"),
        ("3/3/3 A hand=AX:1", "`AX` is not a piece"),
        ("3/3/3 A hand=AM:1", "not kept in hand"),
        ("3/3/3 A hand=AS", "expected CODE:N"),
        ("3/3/3 A passes=1", "no passing"),
    ] {
        let err = Position::from_position_string(rules.clone(), text).unwrap_err();
        assert!(err.to_string().contains(why), "{text}: {err}");
    }
}
