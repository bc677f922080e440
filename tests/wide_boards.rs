//! Boards of more than 64 cells take other paths in the kernel (no step groups, occupancy in
//! several words). Each pack in `tests/packs/wide/` is a shipped pack with hole columns added,
//! so it is the same game: perft counts, legal moves and outcomes must agree move for move.
//! The `_1024` packs are on the largest board, 32x32, with rows added above as well.

mod common;

use ply_kernel::{Game, Position, Rules};
use std::sync::Arc;

fn wide(name: &str, set: &[(&str, &str)]) -> Arc<Rules> {
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let path = common::root().join("tests/packs/wide").join(name);
    match ply_lang::load(path, &set) {
        Ok(p) => p.rules,
        Err(e) => panic!("{name} does not load:\n{}", e.render(false)),
    }
}

/// The shipped pack a wide one extends (`chess_1024.toml` is `chess.toml` on 32x32).
fn shipped(name: &str) -> String {
    match name.split_once("_1024") {
        Some((game, _)) => format!("{game}.toml"),
        None => name.to_string(),
    }
}

/// A pack, its option settings, and a perft depth.
type Case = (&'static str, &'static [(&'static str, &'static str)], u32);

const CASES: &[Case] = &[
    ("cats_rabbits.toml", &[], 6),
    ("cats_rabbits.toml", &[("multi_hop", "true")], 6),
    ("jungle.toml", &[], 4),
    ("breakthrough.toml", &[], 4),
    ("checkers.toml", &[], 6),
    ("checkers_1024.toml", &[], 6),
    ("chess_1024.toml", &[], 3),
];

#[test]
fn wide_boards_are_wide() {
    for (name, set, _) in CASES {
        let rules = wide(name, set);
        assert!(rules.geometry().len() > 64, "{name}");
    }
}

#[test]
fn perft_agrees_with_the_narrow_pack() {
    for (name, set, depth) in CASES {
        let narrow = Position::start(common::pack(&shipped(name), set))
            .perft(*depth)
            .unwrap();
        let mut pos = Position::start(wide(name, set));
        assert_eq!(pos.perft(*depth).unwrap(), narrow, "{name} {set:?}");
        assert_eq!(
            pos.perft_bulk(*depth).unwrap(),
            narrow,
            "{name} {set:?} (bulk)"
        );
    }
}

#[test]
fn random_games_agree_move_for_move() {
    let mut rng = common::Rng(0x5EED_0F0B_0A2D_0000);
    let mut positions = 0;
    for (name, set, _) in CASES {
        let (narrow_rules, wide_rules) = (common::pack(&shipped(name), set), wide(name, set));
        for _ in 0..15 {
            let mut narrow = Game::new(narrow_rules.clone());
            let mut wide = Game::new(wide_rules.clone());
            for _ in 0..300 {
                let moves = common::moves(&narrow);
                assert_eq!(
                    common::moves(&wide),
                    moves,
                    "{name}: {}",
                    narrow.position().to_position_string()
                );
                assert_eq!(wide.outcome(), narrow.outcome(), "{name}");
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.below(moves.len())];
                common::play(&mut narrow, m).unwrap();
                common::play(&mut wide, m).unwrap();
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
}
