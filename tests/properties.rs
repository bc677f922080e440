//! Invariants of play, for every shipped pack (and a test pack of hop counts), over random
//! games: playouts never panic; perft counts what the move lists hold; every generated move is
//! accepted by the checked path; undo after any sequence restores the exact position string
//! and hash; a rejected move changes nothing.

mod common;

use ply_kernel::{Cell, Game, MoveErrorKind, Position, Reason, Section};
use proptest::prelude::*;
use std::sync::Arc;

fn all_packs() -> Vec<Arc<ply_kernel::Rules>> {
    let hop_counts = common::root().join("tests/packs/hop_counts.toml");
    let hop_counts = ply_lang::load(&hop_counts, &[("multi_hop".into(), "true".into())])
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .rules;
    vec![
        common::pack("jungle.toml", &[]),
        common::pack("jungle_simplified.toml", &[]),
        common::pack("cats_rabbits.toml", &[]),
        common::pack("cats_rabbits.toml", &[("multi_hop", "true")]),
        hop_counts,
        common::pack("breakthrough.toml", &[]),
        common::pack("checkers.toml", &[]),
        common::pack("fox_and_geese.toml", &[]),
        common::pack("othello.toml", &[]),
        common::pack("tablut.toml", &[]),
        common::pack("connect_four.toml", &[]),
    ]
}

/// A game from the start of `rules`, each choice picking one of the legal moves, until the
/// choices or the moves run out.
fn played(rules: &Arc<ply_kernel::Rules>, choices: &[u16]) -> Game {
    let mut game = Game::new(rules.clone());
    for c in choices {
        let moves = game.legal_moves().unwrap();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves.get(*c as usize % moves.len()).unwrap());
    }
    game
}

/// How many packs [`all_packs`] returns.
const PACKS: usize = 11;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_every_invariant(choices in prop::collection::vec(any::<u16>(), 1..120), pack in 0usize..PACKS) {
        let rules = all_packs().swap_remove(pack);
        let mut game = Game::new(rules.clone());
        let mut strings = vec![game.position().to_position_string()];
        let mut hashes = vec![game.position().hash()];
        let mut positions = vec![game.position().clone()];
        for c in &choices {
            let moves = game.legal_moves().unwrap();
            if moves.is_empty() {
                break;
            }
            // Perft generates into its own buffer: it must count what the callback lists, here
            // and one ply on.
            let mut p = game.position().clone();
            let by_callback: u64 = moves
                .iter()
                .map(|m| {
                    let u = p.make_unchecked(m);
                    let n = p.legal_moves().unwrap().len() as u64;
                    p.unmake_unchecked(m, u);
                    n
                })
                .sum();
            prop_assert_eq!(p.perft(1).unwrap(), moves.len() as u64);
            prop_assert_eq!(p.perft(2).unwrap(), by_callback);
            prop_assert_eq!(p.perft_bulk(2).unwrap(), by_callback);
            // Every generated move is accepted: through its path, as an outsider would give it.
            let m = moves.get(*c as usize % moves.len()).unwrap();
            let path = m.path(rules.geometry());
            prop_assert!(game.find_move(Some(game.side_to_move()), &path).is_ok());
            prop_assert!(game.play(m).is_ok());
            strings.push(game.position().to_position_string());
            hashes.push(game.position().hash());
            positions.push(game.position().clone());
            // The position string reads back to the same position.
            let again = Position::from_position_string(rules.clone(), strings.last().unwrap()).unwrap();
            prop_assert_eq!(&again.to_position_string(), strings.last().unwrap());
            prop_assert_eq!(again.hash(), *hashes.last().unwrap());
        }
        // Undo all the way back, checking each position; then redo all the way forward.
        for i in (0..strings.len() - 1).rev() {
            prop_assert!(game.undo());
            prop_assert_eq!(&game.position().to_position_string(), &strings[i]);
            prop_assert_eq!(game.position().hash(), hashes[i]);
            // Everything else too, derived data included.
            prop_assert!(game.position() == &positions[i], "undo left {}", &strings[i]);
        }
        prop_assert!(!game.undo());
        for s in &strings[1..] {
            prop_assert!(game.redo());
            prop_assert_eq!(&game.position().to_position_string(), s);
        }
    }

    #[test]
    fn a_rejected_move_changes_nothing(
        choices in prop::collection::vec(any::<u16>(), 0..60),
        path in prop::collection::vec((0i64..10, 0i64..10), 2..4),
        pack in 0usize..PACKS,
    ) {
        let rules = all_packs().swap_remove(pack);
        let mut game = played(&rules, &choices);
        let g = rules.geometry();
        let cells: Vec<Cell> = path.iter().filter_map(|(r, c)| g.cell(*r, *c)).collect();
        prop_assume!(cells.len() >= 2);
        let legal = game.legal_moves().unwrap().iter().any(|m| m.path(rules.geometry()).as_slice() == cells.as_slice()
            || (cells.len() == 2 && m.from() == cells[0] && m.to() == cells[1]));
        let before = (game.position().to_position_string(), game.position().hash(), game.history().count());
        let result = game.play_path(None, &cells);
        if !legal {
            prop_assert!(result.is_err());
            prop_assert_eq!((game.position().to_position_string(), game.position().hash(), game.history().count()), before);
        }
    }

    /// One meaning of the rules: a path from a piece of the side to move is refused exactly
    /// when generation does not list it, and the refusal's reason agrees with the board. (The
    /// kernel's explanation also asserts, in test builds, that each reason comes from a check
    /// that really refuses.)
    #[test]
    fn a_path_is_refused_exactly_when_generation_does_not_list_it(
        choices in prop::collection::vec(any::<u16>(), 0..60),
        tries in prop::collection::vec((any::<u16>(), any::<u16>()), 1..40),
        pack in 0usize..PACKS,
    ) {
        let rules = all_packs().swap_remove(pack);
        let g = rules.geometry().clone();
        let game = played(&rules, &choices);
        let side = game.side_to_move();
        let own: Vec<Cell> = game.position().occupied(side).iter().collect();
        prop_assume!(!own.is_empty());
        let all: Vec<Cell> = g.cells().iter().collect();
        let legal = game.legal_moves().unwrap();
        let paths: Vec<Vec<Cell>> = legal.iter().map(|m| m.path(&g).to_vec()).collect();
        let any_capture = legal.iter().any(|m| m.is_capture());
        for (a, b) in tries {
            let path = vec![own[a as usize % own.len()], all[b as usize % all.len()]];
            let ends = paths.iter().filter(|p| p[0] == path[0] && p[p.len() - 1] == path[1]).count();
            let listed = paths.contains(&path) || ends == 1;
            let mut trial = game.clone();
            let result = trial.play_path(None, &path);
            prop_assert_eq!(result.is_ok(), listed, "{:?}: {:?}", path, result);
            let Err(e) = result else { continue };
            prop_assert_eq!(trial.position().to_position_string(), game.position().to_position_string());
            match e.reason() {
                Some(Reason::OwnPiece) => prop_assert!(game.position().piece_at(path[1]).is_some_and(|p| p.owner() == side)),
                Some(Reason::MustCapture) => prop_assert!(any_capture),
                Some(Reason::Enter(r)) => prop_assert_eq!(r.section(), Section::Enter),
                Some(Reason::Capture(r)) => {
                    prop_assert_eq!(r.section(), Section::Capture);
                    prop_assert!(!rules.rule_name(r).is_empty());
                }
                Some(_) => {}
                None => prop_assert!(
                    matches!(e.kind(), MoveErrorKind::GameOver(_))
                        || (ends > 1 && matches!(e.kind(), MoveErrorKind::Ambiguous { .. })),
                    "{:?} refused without a reason: {}", path, e
                ),
            }
        }
    }

    /// Placements have one meaning too: a cell is refused exactly when generation lists no
    /// placement there, and the refusal changes nothing.
    #[test]
    fn a_placement_is_refused_exactly_when_generation_does_not_list_it(
        choices in prop::collection::vec(any::<u16>(), 0..60),
        tries in prop::collection::vec(any::<u16>(), 1..30),
        pack in 0usize..2,
    ) {
        let rules = [common::pack("othello.toml", &[]), common::pack("connect_four.toml", &[])][pack].clone();
        let g = rules.geometry().clone();
        let game = played(&rules, &choices);
        let all: Vec<Cell> = g.cells().iter().collect();
        let legal = game.legal_moves().unwrap();
        for t in tries {
            let cell = all[t as usize % all.len()];
            let listed = legal.iter().any(|m| m.is_placement() && m.to() == cell);
            let mut trial = game.clone();
            let result = trial.play_path(None, &[cell]);
            prop_assert_eq!(result.is_ok(), listed, "{:?}: {:?}", cell, result);
            if let Err(e) = result {
                prop_assert_eq!(trial.position().to_position_string(), game.position().to_position_string());
                if game.outcome().is_none() {
                    prop_assert!(matches!(e.kind(), MoveErrorKind::CannotPlace { .. }), "{}", e);
                }
            }
        }
    }

    #[test]
    fn playouts_end_and_restore_the_position(seed in any::<u64>(), pack in 0usize..PACKS) {
        let rules = all_packs().swap_remove(pack);
        let mut pos = Position::start(rules);
        let before = pos.to_position_string();
        let mut state = seed | 1;
        let mut pick = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let p = pos.playout(&mut pick, 2000).unwrap();
        prop_assert!(p.plies <= 2000);
        prop_assert_eq!(pos.to_position_string(), before);
    }
}
