//! Cats and Rabbits (seed 004): the starting moves, the hop, every end condition, a refused
//! move, and hop chains with `multi_hop` on and off.

mod common;

use common::{game, moves, play};
use ply_kernel::{Game, MoveErrorKind, Outcome, Player, Reason, Status};

const RABBIT: Player = Player::FIRST;
const CAT: Player = Player::SECOND;

fn packs() -> [(bool, std::sync::Arc<ply_kernel::Rules>); 2] {
    [
        (false, common::pack("cats_rabbits.toml", &[])),
        (
            true,
            common::pack("cats_rabbits.toml", &[("multi_hop", "true")]),
        ),
    ]
}

fn texts(rules: &ply_kernel::Rules, list: ply_kernel::MoveList) -> Vec<String> {
    let mut v: Vec<String> = list
        .iter()
        .map(|m| ply_kernel::move_text(rules, &m))
        .collect();
    v.sort();
    v
}

#[test]
fn valid_moves_at_the_start_for_both_players() {
    for (_, rules) in packs() {
        let g = Game::new(rules.clone());
        assert_eq!(g.side_to_move(), RABBIT);
        // Each rabbit on row 1 may step up; the two end rabbits... only b1 may step left.
        assert_eq!(
            texts(&rules, g.moves_of(RABBIT).unwrap()),
            vec![
                "b1-a1", "b1-b2", "c1-c2", "d1-d2", "e1-e2", "f1-f2", "g1-g2"
            ]
        );
        assert_eq!(
            texts(&rules, g.moves_of(CAT).unwrap()),
            vec!["c7-b7", "c7-c6", "c7-d7", "e7-d7", "e7-e6", "e7-f7"]
        );
    }
}

#[test]
fn a_cat_hops_a_rabbit_and_removes_it() {
    for (_, rules) in packs() {
        let mut g = game(
            &rules,
            &[
                ("d5", "CC"),
                ("d4", "RR"),
                ("a1", "RR"),
                ("g1", "RR"),
                ("a7", "CC"),
            ],
            "CAT",
        );
        assert!(moves(&g).contains(&"d5xd3".to_string()));
        assert_eq!(play(&mut g, "d5xd3"), Ok(Status::ToMove(RABBIT)));
        assert_eq!(g.position().count(RABBIT, None), 2);
        assert!(
            g.position()
                .piece_at(common::cells(&rules, "d4")[0])
                .is_none()
        );
        // Rabbits never capture: a rabbit next to a cat cannot move onto it.
        let mut g = game(
            &rules,
            &[("d3", "RR"), ("d4", "CC"), ("a1", "RR"), ("g7", "CC")],
            "RABBIT",
        );
        let err = play(&mut g, "d3-d4").unwrap_err();
        assert!(matches!(err.reason(), Some(Reason::NotEmpty(_))), "{err}");
    }
}

#[test]
fn every_end_condition() {
    for (_, rules) in packs() {
        // A rabbit reaches the far row.
        let mut g = game(
            &rules,
            &[("b6", "RR"), ("a1", "RR"), ("g1", "CC"), ("e4", "CC")],
            "RABBIT",
        );
        assert_eq!(
            play(&mut g, "b6-b7"),
            Ok(Status::Over(Outcome::Win(RABBIT)))
        );
        // Fewer than two rabbits remain.
        let mut g = game(
            &rules,
            &[("d5", "CC"), ("d4", "RR"), ("a1", "RR"), ("g7", "CC")],
            "CAT",
        );
        assert_eq!(play(&mut g, "d5xd3"), Ok(Status::Over(Outcome::Win(CAT))));
        // The cats cannot move after the rabbits' move: the only cat, in the corner a1, is
        // boxed in by rabbits it cannot hop (the cells beyond them are taken).
        let mut g = game(
            &rules,
            &[
                ("a1", "CC"),
                ("a2", "RR"),
                ("a3", "RR"),
                ("c1", "RR"),
                ("b2", "RR"),
            ],
            "RABBIT",
        );
        assert_eq!(
            play(&mut g, "b2-b1"),
            Ok(Status::Over(Outcome::Win(RABBIT)))
        );
        // The rabbits cannot move after the cats' move.
        let mut g = game(
            &rules,
            &[
                ("a1", "RR"),
                ("b1", "RR"),
                ("a2", "CC"),
                ("b3", "CC"),
                ("c2", "CC"),
                ("d1", "CC"),
            ],
            "CAT",
        );
        // The rabbits on a1 and b1 still have b2 after the cat closes c1 ...
        assert_eq!(
            play(&mut g, "d1-c1"),
            Ok(Status::ToMove(RABBIT)),
            "b2 is still free"
        );
        // ... but not when a cat already stands on b2.
        let mut g = game(
            &rules,
            &[
                ("a1", "RR"),
                ("b1", "RR"),
                ("a2", "CC"),
                ("b2", "CC"),
                ("d1", "CC"),
            ],
            "CAT",
        );
        assert_eq!(play(&mut g, "d1-c1"), Ok(Status::Over(Outcome::Win(CAT))));
    }
}

#[test]
fn a_refused_move_leaves_everything_unchanged() {
    for (_, rules) in packs() {
        let mut g = Game::new(rules.clone());
        let before = (g.position().to_position_string(), g.position().hash());
        for bad in ["b1-b3", "c7-c6", "a1-a2", "b1-c1"] {
            assert!(play(&mut g, bad).is_err(), "{bad}");
            assert_eq!(
                (g.position().to_position_string(), g.position().hash()),
                before,
                "{bad}"
            );
        }
        let err = play(&mut g, "c7-c6").unwrap_err();
        assert!(
            matches!(err.kind(), MoveErrorKind::NotYours { .. }),
            "{err}"
        );
    }
}

#[test]
fn hop_chains_with_the_option_on_and_off() {
    // Four rabbits around a square: the cat on c3 can hop c3-c5-e5-e3-c3, back to its start.
    let pieces = [
        ("c3", "CC"),
        ("c4", "RR"),
        ("d5", "RR"),
        ("e4", "RR"),
        ("d3", "RR"),
        ("a1", "RR"),
        ("g1", "RR"),
        ("g7", "CC"),
    ];
    for (multi, rules) in packs() {
        let g = game(&rules, &pieces, "CAT");
        let all = moves(&g);
        let loops: Vec<&String> = all
            .iter()
            .filter(|m| m.starts_with("c3") && m.ends_with("c3"))
            .collect();
        if multi {
            assert_eq!(loops.len(), 2, "{all:?}");
            assert!(all.contains(&"c3xc5xe5xe3xc3".to_string()));
            assert!(all.contains(&"c3xe3xe5xc5xc3".to_string()));
            // Every prefix of a chain is a move of its own.
            assert!(all.contains(&"c3xc5".to_string()) && all.contains(&"c3xc5xe5".to_string()));
            let mut g = g.clone();
            let before = g.position().to_position_string();
            assert_eq!(play(&mut g, "c3xc5xe5xe3xc3"), Ok(Status::ToMove(RABBIT)));
            assert_eq!(
                g.position().count(RABBIT, None),
                2,
                "each jumped rabbit is gone"
            );
            assert!(g.undo());
            assert_eq!(g.position().to_position_string(), before);
        } else {
            assert!(loops.is_empty(), "{all:?}");
            assert!(all.iter().all(|m| m.matches('x').count() <= 1), "{all:?}");
            let mut g = g.clone();
            let err = play(&mut g, "c3xc5xe5").unwrap_err();
            assert!(matches!(err.reason(), Some(Reason::Chain(_))), "{err}");
        }
    }
}

#[test]
fn a_chain_may_not_jump_the_same_rabbit_twice() {
    let rules = common::pack("cats_rabbits.toml", &[("multi_hop", "true")]);
    // c3 over c4 to c5, then back over c4 again would need the rabbit still there.
    let g = game(
        &rules,
        &[
            ("c3", "CC"),
            ("c4", "RR"),
            ("a1", "RR"),
            ("g1", "RR"),
            ("g7", "CC"),
        ],
        "CAT",
    );
    assert!(!moves(&g).iter().any(|m| m.starts_with("c3xc5xc3")));
}
