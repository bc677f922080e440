//! Turns of several moves beside a royal piece, castling, checks and FEN: a variant of chess
//! in turns of two moves (`tests/packs/double_move_chess.toml`).

mod common;

use ply_kernel::{Game, Status};

fn game() -> Game {
    let rules = match ply_lang::load(
        common::root().join("tests/packs/double_move_chess.toml"),
        &[],
    ) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    };
    Game::new(rules)
}

fn side(g: &Game) -> usize {
    g.position().side_to_move().index()
}

#[test]
fn a_check_ends_the_turn_and_fen_waits_for_the_turn_to_end() {
    let mut g = game();
    // White's first turn is one move; Black's are two.
    common::play(&mut g, "e2-e4").unwrap();
    assert_eq!(side(&g), 1);
    common::play(&mut g, "e7-e5").unwrap();
    assert_eq!((side(&g), g.position().turn_moves()), (1, 1));
    // In the middle of a turn a FEN cannot say it; the position string does.
    assert_eq!(g.position().to_fen(), None);
    let text = g.position().to_position_string();
    assert!(text.contains(" turn=1:e5"), "{text}");
    common::play(&mut g, "f8-c5").unwrap();
    assert_eq!(side(&g), 0);
    assert!(g.position().to_fen().is_some());
    // White: Qh5, then Qxf7 gives check, which ends the turn even as a first move.
    common::play(&mut g, "d1-h5").unwrap();
    assert_eq!(side(&g), 0);
    common::play(&mut g, "h5xf7").unwrap();
    assert_eq!(side(&g), 1, "the check ended White's turn");
    // Black must answer the check with its first move: the king takes the queen.
    let moves = common::moves(&g);
    assert_eq!(moves, ["e8xf7"], "{}", g.position().to_position_string());
    common::play(&mut g, "e8xf7").unwrap();
    assert_eq!(side(&g), 1);
    assert!(matches!(g.status(), Status::ToMove(_)));
}

#[test]
fn perft_counts_each_move_of_a_turn() {
    let g = game();
    // Depth 1: White's 20 first moves; depth 2: Black's 20 replies each; depth 3: Black's
    // second moves, on the boards its first move left.
    let mut pos = g.position().clone();
    assert_eq!(pos.perft(1).unwrap(), 20);
    assert_eq!(pos.perft(2).unwrap(), 400);
    let mut third = 0;
    for m in pos.legal_moves().unwrap().iter() {
        let u = pos.make_unchecked(m);
        for r in pos.legal_moves().unwrap().iter() {
            let v = pos.make_unchecked(r);
            assert_eq!(pos.side_to_move().index(), 1, "Black moves twice");
            third += pos.legal_moves().unwrap().len() as u64;
            pos.unmake_unchecked(r, v);
        }
        pos.unmake_unchecked(m, u);
    }
    assert_eq!(pos.perft(3).unwrap(), third);
}

/// Cells a slide passed stay open to capture of the piece that passed them, by the other
/// player: in a turn of two moves, the mover's own second move onto one is a plain move.
#[test]
fn a_player_never_takes_its_own_piece_in_passing() {
    let pack = r#"
[game]
name = "Passing"
players = ["A", "B"]

[board]
rows = 4
cols = 3

[pieces.Runner]
letter = "R"
moves = ["slide n upto 2 quiet leaves ghost", "step w takes ghost"]

[turn]
moves = 2

[end.top]
when = 'count(opponent) == 0'
winner = 'player'

[setup.A]
Runner = "a1 b2"

[setup.B]
Runner = "c4"
"#;
    let rules = ply_lang::load_str("passing.toml", pack, &[])
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .rules;
    let mut g = Game::new(rules);
    common::play(&mut g, "a1-a3").unwrap();
    assert_eq!(g.position().side_to_move().index(), 0);
    let moves = common::moves(&g);
    assert!(moves.iter().all(|m| !m.contains('x')), "{moves:?}");
    common::play(&mut g, "b2-a2").unwrap();
    let text = g.position().to_position_string();
    assert!(text.starts_with("2BR/AR2/AR2/3 B"), "{text}");
}
