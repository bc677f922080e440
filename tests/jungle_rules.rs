//! Jungle rules, scenario by scenario, in both Jungle packs: the scenarios seeds 000 and 002
//! ask for, and each capture rule with its exception. Positions are set up directly, since
//! perft from the start reaches no river jump or trap for eight plies.

mod common;

use common::{game, play};
use ply_kernel::{Game, MoveErrorKind, Outcome, Piece, Player, Reason, Status};

const BOTH: [&str; 2] = ["jungle.toml", "jungle_simplified.toml"];

#[test]
fn standard_setup_renders_with_terrain() {
    let rules = common::pack("jungle.toml", &[]);
    let g = Game::new(rules);
    insta::assert_snapshot!(g.position().render());
}

#[test]
fn placing_all_sixteen_pieces_gives_the_standard_setup() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        let mut g = Game::empty(rules.clone());
        let core = rules.core();
        for (piece, cell) in rules.setup() {
            let p = Piece::new(
                core.kind_by_name(core.kind_name(piece.kind())).unwrap(),
                piece.owner(),
            );
            g.place(p, *cell).unwrap();
        }
        assert_eq!(
            g.position().to_position_string(),
            Game::new(rules.clone()).position().to_position_string()
        );
        assert_eq!(
            g.position().to_position_string(),
            "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A"
        );
    }
}

#[test]
fn lion_jumps_the_river_and_captures() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        // Seed 000's example: the lion on a6 jumps across b6:c6 onto the dog on d6, B's last piece.
        let mut g = game(&rules, &[("a6", "AL"), ("d6", "BD")], "A");
        assert!(g.legal_moves().unwrap().iter().any(|m| m.is_capture()));
        assert_eq!(
            play(&mut g, "a6xd6"),
            Ok(Status::Over(Outcome::Win(Player::FIRST))),
            "{pack}"
        );
        assert_eq!(
            g.position()
                .piece_at(common::cells(&rules, "d6")[0])
                .map(|p| rules.core().code(p)),
            Some("AL")
        );
        // Vertical jumps cross three water cells to the first land cell.
        let mut g = game(&rules, &[("b7", "AT"), ("g9", "BD"), ("a1", "BL")], "A");
        assert!(
            common::moves(&g).contains(&"b7-b3".to_string()),
            "{pack}: {:?}",
            common::moves(&g)
        );
        assert_eq!(play(&mut g, "b7-b3"), Ok(Status::ToMove(Player::SECOND)));
    }
}

#[test]
fn a_rat_in_the_water_blocks_the_jump_then_moves_away() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        // A multi-move sequence: A's rat swims into the river, B's lion cannot jump past it,
        // the rat swims on, and the jump opens.
        let mut g = game(
            &rules,
            &[("a7", "AR"), ("g7", "AE"), ("d4", "BL"), ("g1", "BT")],
            "A",
        );
        play(&mut g, "a7-a6").unwrap();
        play(&mut g, "g1-g2").unwrap();
        play(&mut g, "a6-b6").unwrap(); // into the water
        play(&mut g, "g2-g1").unwrap();
        play(&mut g, "b6-b5").unwrap();
        // The lion on d4 would jump west across c4:b4 to a4 — b5 does not block that row.
        assert!(common::moves(&g).contains(&"d4-a4".to_string()));
        play(&mut g, "g1-g2").unwrap();
        play(&mut g, "b5-b4").unwrap(); // now in the lion's row
        let before = g.position().to_position_string();
        let reason = common::refused(&mut g, "d4-a4");
        assert!(
            matches!(reason, Reason::Blocked(_, cell) if cell == common::cells(&rules, "b4")[0]),
            "{pack}: {reason:?}"
        );
        assert_eq!(
            g.position().to_position_string(),
            before,
            "a refused move changes nothing"
        );
        play(&mut g, "g2-g1").unwrap();
        play(&mut g, "b4-b5").unwrap();
        assert_eq!(play(&mut g, "d4-a4"), Ok(Status::ToMove(Player::FIRST)));
        // A rat of the lion's own side blocks too.
        let mut g = game(&rules, &[("c5", "BR"), ("d5", "BL"), ("a9", "AD")], "B");
        assert!(matches!(
            common::refused(&mut g, "d5-a5"),
            Reason::Blocked(..)
        ));
    }
}

#[test]
fn only_the_rat_enters_water_and_nobody_its_own_den() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        let mut g = game(&rules, &[("e3", "BP"), ("d2", "BD"), ("a9", "AR")], "B");
        assert_eq!(
            common::refused(&mut g, "e3-e4"),
            Reason::Enter(common::rule(&g, "only-swimmers-in-water"))
        );
        assert_eq!(
            common::refused(&mut g, "d2-d1"),
            Reason::Enter(common::rule(&g, "not-own-den"))
        );
        let mut g = game(&rules, &[("a9", "AR"), ("g1", "BD")], "A");
        play(&mut g, "a9-b9").unwrap();
    }
}

#[test]
fn entering_the_enemy_den_wins() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        let mut g = game(&rules, &[("d2", "AW"), ("a9", "BR"), ("g9", "BE")], "A");
        assert_eq!(
            play(&mut g, "d2-d1"),
            Ok(Status::Over(Outcome::Win(Player::FIRST)))
        );
        // Nothing moves afterwards.
        assert!(matches!(
            play(&mut g, "a9-a8").map_err(|e| e.kind()),
            Err(MoveErrorKind::GameOver(_))
        ));
        assert!(g.legal_moves().unwrap().is_empty());
    }
}

#[test]
fn rank_decides_and_equal_ranks_capture() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        let mut g = game(
            &rules,
            &[("a5", "AC"), ("a4", "BD"), ("g9", "AE"), ("g1", "BE")],
            "A",
        );
        assert_eq!(
            common::refused(&mut g, "a5xa4"),
            Reason::Capture(common::rule(&g, "rank-decides"))
        );
        let mut g = game(&rules, &[("a5", "AD"), ("a4", "BD"), ("g1", "BE")], "A");
        assert!(play(&mut g, "a5xa4").is_ok(), "{pack}: equal ranks capture");
        let mut g = game(&rules, &[("a5", "AD"), ("a4", "BC"), ("g1", "BE")], "A");
        assert!(play(&mut g, "a5xa4").is_ok());
    }
}

#[test]
fn a_piece_in_an_enemy_trap_has_rank_zero() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        // B's elephant stands in A's trap c9: A's cat takes it.
        let mut g = game(&rules, &[("b9", "AC"), ("c9", "BE"), ("g1", "BL")], "A");
        assert!(play(&mut g, "b9xc9").is_ok(), "{pack}");
        // A's lion stands in B's trap d2 and cannot take B's dog (rank 0 < 3) ...
        let mut g = game(
            &rules,
            &[("d2", "AL"), ("c2", "BD"), ("g9", "AE"), ("a1", "BT")],
            "A",
        );
        assert_eq!(
            common::refused(&mut g, "d2xc2"),
            Reason::Capture(common::rule(&g, "rank-decides"))
        );
        // ... while in its own trap a piece keeps its rank: B's rat cannot take A's cat there.
        let mut g = game(&rules, &[("d8", "AC"), ("c8", "BR"), ("a1", "BT")], "B");
        assert_eq!(
            common::refused(&mut g, "c8xd8"),
            Reason::Capture(common::rule(&g, "rank-decides"))
        );
    }
}

#[test]
fn the_rat_takes_the_elephant_from_land_only_in_standard_jungle() {
    let standard = common::pack("jungle.toml", &[]);
    let simplified = common::pack("jungle_simplified.toml", &[]);
    // From land: both packs.
    for rules in [&standard, &simplified] {
        let mut g = game(rules, &[("a4", "AR"), ("a3", "BE"), ("g1", "BL")], "A");
        assert!(play(&mut g, "a4xa3").is_ok());
    }
    // From the water onto land: only the simplified pack allows it.
    let pieces = [("b4", "AR"), ("b3", "BE"), ("g1", "BL")];
    let mut g = game(&standard, &pieces, "A");
    assert_eq!(
        common::refused(&mut g, "b4xb3"),
        Reason::Capture(common::rule(&g, "same-element"))
    );
    let mut g = game(&simplified, &pieces, "A");
    assert!(play(&mut g, "b4xb3").is_ok());
    // A rat standing in an enemy trap does not take the elephant, in either pack.
    for rules in [&standard, &simplified] {
        let mut g = game(rules, &[("c1", "AR"), ("b1", "BE"), ("g9", "BL")], "A");
        assert_eq!(
            common::refused(&mut g, "c1xb1"),
            Reason::Capture(common::rule(&g, "rank-decides"))
        );
    }
}

#[test]
fn the_elephant_never_takes_the_rat_except_in_a_simplified_trap() {
    let standard = common::pack("jungle.toml", &[]);
    let simplified = common::pack("jungle_simplified.toml", &[]);
    for rules in [&standard, &simplified] {
        let mut g = game(rules, &[("a5", "AE"), ("a4", "BR"), ("g1", "BL")], "A");
        assert_eq!(
            common::refused(&mut g, "a5xa4"),
            Reason::Capture(common::rule(&g, "elephant-spares-rat"))
        );
    }
    // B's rat stands in A's trap d8; A's elephant on d7 attacks it.
    let pieces = [("d7", "AE"), ("d8", "BR"), ("g1", "BL")];
    let mut g = game(&standard, &pieces, "A");
    assert_eq!(
        common::refused(&mut g, "d7xd8"),
        Reason::Capture(common::rule(&g, "elephant-spares-rat"))
    );
    let mut g = game(&simplified, &pieces, "A");
    assert!(play(&mut g, "d7xd8").is_ok());
}

#[test]
fn water_rules_for_rats() {
    let standard = common::pack("jungle.toml", &[]);
    let simplified = common::pack("jungle_simplified.toml", &[]);
    // Two rats in the water capture each other, in both packs.
    for rules in [&standard, &simplified] {
        let mut g = game(rules, &[("b5", "AR"), ("b4", "BR"), ("g1", "BL")], "A");
        assert!(play(&mut g, "b5xb4").is_ok());
    }
    // A rat on land cannot capture a rat in the water (standard); the simplified pack allows it.
    let pieces = [("a4", "AR"), ("b4", "BR"), ("g1", "BL")];
    let mut g = game(&standard, &pieces, "A");
    assert_eq!(
        common::refused(&mut g, "a4xb4"),
        Reason::Capture(common::rule(&g, "same-element"))
    );
    let mut g = game(&simplified, &pieces, "A");
    assert!(play(&mut g, "a4xb4").is_ok());
    // A rat in the water cannot capture a rat on land (standard only).
    let pieces = [("b4", "AR"), ("a4", "BR"), ("g1", "BL")];
    let mut g = game(&standard, &pieces, "A");
    assert_eq!(
        common::refused(&mut g, "b4xa4"),
        Reason::Capture(common::rule(&g, "same-element"))
    );
    let mut g = game(&simplified, &pieces, "A");
    assert!(play(&mut g, "b4xa4").is_ok());
}

#[test]
fn taking_the_last_piece_wins_and_a_stuck_player_loses_only_in_standard() {
    for pack in BOTH {
        let rules = common::pack(pack, &[]);
        let mut g = game(&rules, &[("a5", "AT"), ("a4", "BW")], "A");
        assert_eq!(
            play(&mut g, "a5xa4"),
            Ok(Status::Over(Outcome::Win(Player::FIRST)))
        );
    }
    // B's rat in the corner a1 is walled in: its neighbours a2 and b1 hold A pieces it
    // cannot take.
    let pieces = [("a2", "AL"), ("b1", "AT"), ("g9", "AD"), ("a1", "BR")];
    let standard = common::pack("jungle.toml", &[]);
    let g = game(&standard, &pieces, "B");
    assert!(g.legal_moves().unwrap().is_empty());
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::FIRST)));
    let simplified = common::pack("jungle_simplified.toml", &[]);
    let g = game(&simplified, &pieces, "B");
    assert!(g.legal_moves().unwrap().is_empty());
    assert_eq!(g.outcome(), None, "the simplified game is stuck, not over");
}

#[test]
fn moves_of_one_piece_and_of_a_player() {
    let rules = common::pack("jungle.toml", &[]);
    let g = Game::new(rules.clone());
    let lion = common::cells(&rules, "a9")[0];
    let mut from: Vec<String> = g
        .moves_from(lion)
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(&rules, &m))
        .collect();
    from.sort();
    assert_eq!(from, vec!["a9-a8", "a9-b9"]);
    // B's moves, as if B were to move, although A is.
    assert_eq!(g.moves_of(Player::SECOND).unwrap().len(), 24);
    assert!(
        g.moves_from(common::cells(&rules, "a1")[0])
            .unwrap()
            .is_empty(),
        "not B's turn"
    );
}

#[test]
fn a_variant_is_a_new_file_with_no_rebuild() {
    // Jungle where the Leopard also jumps the rivers, and running out of moves is a draw:
    // a few lines that extend the shipped pack.
    let dir = std::env::temp_dir().join(format!("ply-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = common::root().join("rulesets/jungle.toml");
    std::fs::copy(&base, dir.join("jungle.toml")).unwrap();
    std::fs::write(
        dir.join("leopard.toml"),
        r#"extends = "jungle.toml"
[game]
name = "Jungle, leaping leopards"
[pieces.Leopard]
moves = ["step orthogonal", "jump orthogonal across water unless occupant is Rat"]
[end.no-moves]
replace = true
when = 'no_moves(opponent)'
draw = true
"#,
    )
    .unwrap();
    let pack = ply_lang::load(dir.join("leopard.toml"), &[])
        .unwrap_or_else(|e| panic!("{}", e.render(false)));
    let rules = pack.rules;
    let mut g = game(&rules, &[("e3", "BP"), ("a9", "AR")], "B");
    assert!(
        common::moves(&g).contains(&"e3-e7".to_string()),
        "{:?}",
        common::moves(&g)
    );
    assert!(play(&mut g, "e3-e7").is_ok());
    // The replaced end rule: a stuck side now draws.
    let pieces = [("a2", "AL"), ("b1", "AT"), ("g9", "AD"), ("a1", "BR")];
    let g = game(&rules, &pieces, "B");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    std::fs::remove_dir_all(&dir).ok();
}
