//! `repetitions` compares positions as FIDE 9.2.3 does: the same pieces on the same cells, the
//! same side to move and the same possible moves. A cell open to capture (the en passant cell)
//! counts only when a legal move takes the piece that passed it; an unmoved flag (a castling
//! right) counts only while it can still make a compound move possible; and the look-back
//! reaches the last irreversible move however far it is.

mod common;

use ply_kernel::{Game, Outcome, Status};
use std::sync::Arc;

fn chess() -> Arc<ply_kernel::Rules> {
    common::pack("chess.toml", &[])
}

fn game(fen: &str) -> Game {
    Game::from_position_string(chess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays `moves` (space-separated, in notation); every one must be accepted.
fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        common::play(game, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn drawn(game: &Game) -> bool {
    game.status() == Status::Over(Outcome::Draw)
}

/// Knights out and back, both sides: the position before comes back after four plies.
const KNIGHTS: &str = "g1-f3 g8-f6 f3-g1 f6-g8";
/// The same, Black first.
const KNIGHTS_BLACK_FIRST: &str = "g8-f6 g1-f3 f6-g8 f3-g1";

#[test]
fn an_en_passant_cell_no_pawn_can_take_is_no_difference() {
    let mut g = Game::new(chess());
    // e2-e4 leaves e3 open, but no black pawn stands beside e4: the position after it is the
    // one the knights come back to.
    play(&mut g, "e2-e4");
    play(&mut g, KNIGHTS_BLACK_FIRST);
    assert!(!drawn(&g), "a second occurrence is no draw");
    play(&mut g, KNIGHTS_BLACK_FIRST);
    assert!(
        drawn(&g),
        "the third occurrence of the position after e2-e4 is a draw"
    );
}

#[test]
fn an_en_passant_capture_the_king_forbids_is_no_difference() {
    // c7-c5 leaves c6 open beside the white pawn on b5, but b5xc6 would leave the white king
    // on a5 attacked along the fifth rank: no legal move takes, so nothing differs.
    let mut g = game("4k1n1/2p5/8/KP5r/8/8/8/6N1 b - - 0 1");
    play(&mut g, "c7-c5");
    play(&mut g, KNIGHTS);
    assert!(!drawn(&g));
    play(&mut g, KNIGHTS);
    assert!(drawn(&g), "the pinned capture makes no difference");
}

#[test]
fn a_possible_en_passant_capture_is_a_difference() {
    // A black pawn on d4 may take e2-e4 in passing: the position after e2-e4 (that capture
    // possible) is not the one the knights come back to.
    let mut g = game("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
    play(&mut g, "e2-e4");
    play(&mut g, KNIGHTS_BLACK_FIRST);
    play(&mut g, KNIGHTS_BLACK_FIRST);
    assert!(
        !drawn(&g),
        "the position with an en passant capture occurred once only"
    );
    // The position after the first knight move, a third time.
    play(&mut g, "g8-f6");
    assert!(drawn(&g));
}

#[test]
fn rook_flags_count_no_more_once_the_king_has_moved() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // The kings go and come back: no castling right is left, though the rooks never moved.
    play(&mut g, "e1-f1 e8-f8 f1-e1 f8-e8");
    // The queen's rooks go and come back: the same position (second occurrence).
    play(&mut g, "a1-b1 a8-b8 b1-a1 b8-a8");
    assert!(!drawn(&g));
    // The king's rooks: the third occurrence.
    play(&mut g, "h1-g1 h8-g8 g1-h1 g8-h8");
    assert!(drawn(&g), "rooks that can never castle make no difference");
}

#[test]
fn a_king_flag_counts_no_more_once_the_rooks_have_moved() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Every rook goes and comes back: no castling right is left, though the kings never moved.
    play(&mut g, "a1-b1 a8-b8 b1-a1 b8-a8 h1-g1 h8-g8 g1-h1 g8-h8");
    // The kings go and come back: the same position (second occurrence).
    play(&mut g, "e1-f1 e8-f8 f1-e1 f8-e8");
    // The queen's rooks again: the third occurrence, on the last move only.
    play(&mut g, "a1-b1 a8-b8 b1-a1");
    assert!(!drawn(&g));
    play(&mut g, "b8-a8");
    assert!(drawn(&g), "kings that can never castle make no difference");
}

#[test]
fn castling_rights_that_remain_are_a_difference() {
    // The start has every castling right; after the kings go and come back it has none: not
    // the same position.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "e1-f1 e8-f8 f1-e1 f8-e8");
    play(&mut g, "e1-f1 e8-f8 f1-e1 f8-e8");
    assert!(!drawn(&g), "the start had castling rights");
    // Both kings on f, a third time.
    play(&mut g, "e1-f1 e8-f8");
    assert!(drawn(&g));
}

#[test]
fn one_right_left_is_a_difference() {
    // The queen's rooks go and come back (twice): each side keeps the king's-side right, which
    // the kings' going and coming back then takes away: not the same position.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "a1-b1 a8-b8 b1-a1 b8-a8");
    play(&mut g, "a1-b1 a8-b8 b1-a1 b8-a8");
    play(&mut g, "e1-f1 e8-f8 f1-e1 f8-e8");
    assert!(!drawn(&g), "the king's-side rights made a difference");
}

/// Two pieces on a board of their own, stepping without capturing, and a draw on the third
/// occurrence: nothing else ends the game or resets the idle clock.
const WALK: &str = r#"
[game]
name = "Walk"
players = ["A", "B"]

[board]
rows = 12
cols = 12

[pieces.S]
letter = "S"
moves = ["step orthogonal quiet"]

[end.repetition]
when = 'repetitions >= 2'
draw = true

[setup.A]
S = "a1"

[setup.B]
S = "l12"
"#;

#[test]
fn a_repetition_is_seen_however_far_back_it_began() {
    let rules = match ply_lang::load_str("walk.toml", WALK, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    };
    // A walks around the square a1-k1-k11-a11 (40 steps); B steps to k12 and back meanwhile:
    // the start comes back every 80 plies.
    let mut round = Vec::new();
    let mut at = (0usize, 0usize);
    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
        for _ in 0..10 {
            let next = ((at.0 as isize + dr) as usize, (at.1 as isize + dc) as usize);
            let name = |(r, c): (usize, usize)| format!("{}{}", (b'a' + c as u8) as char, r + 1);
            round.push(format!("{}-{}", name(at), name(next)));
            at = next;
        }
    }
    let mut game = Game::new(rules.clone());
    let start = game.position().hash();
    for lap in 1..=2 {
        for (i, a) in round.iter().enumerate() {
            assert!(!drawn(&game), "lap {lap}, ply {}", 2 * i);
            common::play(&mut game, a).unwrap();
            let b = if i % 2 == 0 { "l12-k12" } else { "k12-l12" };
            common::play(&mut game, b).unwrap();
        }
        assert_eq!(game.position().hash(), start, "lap {lap} ends at the start");
        assert!(game.position().clock() >= 80 * lap);
    }
    assert!(
        drawn(&game),
        "the third occurrence, 80 and 160 plies after the first"
    );
}
