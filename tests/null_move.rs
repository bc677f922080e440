//! The kernel's null move (`Position::make_null`), on random games of every shipped pack: the
//! side to move passes on the same board; the key is the key of that position set up from its
//! position string, and so are the moves the other side then has; a move made after it and
//! both taken back restore the exact position.

mod common;

use ply_kernel::Position;
use std::sync::Arc;

fn shipped() -> Vec<(String, Arc<ply_kernel::Rules>)> {
    let mut paths: Vec<_> = std::fs::read_dir(common::root().join("rulesets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let pack = ply_lang::load(p, &[]).unwrap_or_else(|e| panic!("{}", e.render(false)));
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                pack.rules,
            )
        })
        .collect()
}

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(pos.rules(), &m))
        .collect();
    v.sort();
    v
}

#[test]
fn a_null_move_passes_on_the_same_board_and_is_taken_back_exactly() {
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for (name, rules) in shipped() {
        let mut nulls = 0;
        for _game in 0..12 {
            let mut pos = Position::start(rules.clone());
            for _ply in 0..80 {
                // A search passes only out of check (the pass would leave a royal piece to be
                // taken, a position no set-up accepts).
                if pos.can_make_null() && !pos.in_check() {
                    let before = pos.clone();
                    let text = pos.to_position_string();
                    let side = pos.side_to_move();
                    let undo = pos.make_null();
                    assert_eq!(pos.side_to_move(), side.other(), "{name}: {text}");
                    assert_eq!(pos.turn_moves(), 0);
                    let after = pos.to_position_string();
                    let set_up = Position::from_position_string(rules.clone(), &after)
                        .unwrap_or_else(|e| panic!("{name}: {after}: {e}"));
                    assert_eq!(
                        pos.hash(),
                        set_up.hash(),
                        "{name}: the key after a null move from {text}"
                    );
                    let moves = sorted_moves(&pos);
                    if set_up.decided().is_none() {
                        assert_eq!(moves, sorted_moves(&set_up), "{name}: {after}");
                    }
                    // A move of the other side after it, and both taken back.
                    if let Some(m) = pos.legal_moves().unwrap().iter().next() {
                        let u = pos.make_unchecked(m);
                        pos.unmake_unchecked(m, u);
                    }
                    pos.unmake_null(undo);
                    assert!(
                        pos == before,
                        "{name}: not restored after a null move from {text}"
                    );
                    assert_eq!(pos.to_position_string(), text);
                    assert_eq!(pos.hash(), before.hash());
                    nulls += 1;
                }
                let moves = pos.legal_moves().unwrap();
                if moves.is_empty() || pos.decided().is_some() {
                    break;
                }
                let m = moves.get(rng.below(moves.len())).unwrap();
                let _ = pos.make_unchecked(m);
            }
        }
        assert!(nulls > 0, "{name}: no position could pass");
        checked += nulls;
    }
    assert!(checked > 1000, "{checked}");
}

/// `in_check` is the side to move's royal piece attacked, as `attacked_royals` says.
#[test]
fn in_check_is_an_attacked_royal_piece_of_the_side_to_move() {
    let mut rng = common::Rng(7);
    let mut checks = 0;
    for (_, rules) in shipped() {
        for _game in 0..6 {
            let mut pos = Position::start(rules.clone());
            for _ply in 0..100 {
                let side = pos.side_to_move();
                assert_eq!(pos.in_check(), !pos.attacked_royals(side).is_empty());
                checks += pos.in_check() as usize;
                let moves = pos.legal_moves().unwrap();
                if moves.is_empty() || pos.decided().is_some() {
                    break;
                }
                let _ = pos.make_unchecked(moves.get(rng.below(moves.len())).unwrap());
            }
        }
    }
    assert!(checks > 10, "{checks} positions in check");
}
