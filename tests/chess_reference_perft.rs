//! The chess reference generator (`tests/chess_reference`) against published
//! perft counts, FEN round trips over seeded random games, refused FENs, and a few end
//! positions. The packs are checked against these generators elsewhere; this file checks the
//! generators themselves.

mod chess_reference;

use chess_reference::{Outcome, Rng, chess};
use std::collections::BTreeSet;

// ==== chess (perft counts from the Chess Programming Wiki's "Perft Results" page) ====

fn chess_perft(fen: &str, counts: &[u64]) {
    let b = chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for (depth, &want) in (1..).zip(counts) {
        assert_eq!(chess::perft(&b, depth), want, "{fen}, depth {depth}");
    }
}

#[test]
fn chess_perft_start() {
    chess_perft(chess::START_FEN, &[20, 400, 8902, 197281]);
}

#[test]
fn chess_perft_start_depth_5() {
    let b = chess::start();
    assert_eq!(chess::perft(&b, 5), 4865609);
}

/// "Kiwipete": castling both ways, en passant, promotions, pins.
#[test]
fn chess_perft_kiwipete() {
    chess_perft(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2039, 97862, 4085603],
    );
}

/// Position 3: en passant that would expose the king along a rank.
#[test]
fn chess_perft_position_3() {
    chess_perft(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2812, 43238, 674624],
    );
}

/// Position 4 and its colour-flipped mirror: promotions with capture, castling rights lost to
/// captures on the corner.
#[test]
fn chess_perft_position_4() {
    let counts = [6, 264, 9467, 422333];
    chess_perft(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &counts,
    );
    chess_perft(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &counts,
    );
}

#[test]
fn chess_perft_position_5() {
    chess_perft(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1486, 62379, 2103487],
    );
}

#[test]
fn chess_perft_position_6() {
    chess_perft(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2079, 89890],
    );
}

/// Plays random legal chess games (at most `plies` moves each, stopping at the end of the
/// game) and calls `visit` on every position reached, the start included.
fn chess_random_games(games: u64, plies: usize, mut visit: impl FnMut(&chess::Board)) {
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut b = chess::start();
        visit(&b);
        for _ in 0..plies {
            if chess::outcome(&b).is_some() {
                break;
            }
            let moves = chess::legal_moves(&b);
            b = chess::play(&b, &moves[rng.below(moves.len())]);
            visit(&b);
        }
    }
}

#[test]
fn chess_fen_round_trips() {
    let mut positions = 0;
    let mut with_ep = 0;
    let mut ends = BTreeSet::new();
    chess_random_games(60, 300, |b| {
        let fen = b.to_fen();
        let back = chess::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&back, b, "{fen}");
        assert_eq!(back.to_fen(), fen);
        // The side that just moved is never left in check.
        assert!(!chess::in_check(b, 1 - b.to_move), "{fen}");
        positions += 1;
        with_ep += usize::from(b.ep.is_some());
        if let Some(o) = chess::outcome(b) {
            ends.insert(format!("{o:?}"));
        }
    });
    assert!(positions > 5000, "{positions} positions");
    assert!(with_ep > 50, "{with_ep} positions with an en passant cell");
    assert!(!ends.is_empty());
}

#[test]
fn chess_bad_fens_refused() {
    for fen in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",
    ] {
        assert!(chess::from_fen(fen).is_err(), "accepted {fen:?}");
    }
    // The same position with the fields right is accepted, with or without the clocks.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(
        chess::from_fen(after_e4).unwrap().ep,
        chess::cell_index("e3")
    );
    assert!(chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").is_ok());
}

fn chess_line(moves: &[&str]) -> chess::Board {
    let mut b = chess::start();
    for m in moves {
        let mv =
            chess::find_move(&b, m).unwrap_or_else(|| panic!("{m} is not legal at {}", b.to_fen()));
        b = chess::play(&b, &mv);
    }
    b
}

#[test]
fn chess_fools_mate() {
    let b = chess_line(&["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
    assert_eq!(
        b.to_fen(),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert!(chess::in_check(&b, 0));
    assert!(chess::legal_moves(&b).is_empty());
    assert_eq!(chess::outcome(&b), Some(Outcome::Win(1)));
    // One move earlier the game goes on.
    let before = chess_line(&["f2-f3", "e7-e5", "g2-g4"]);
    assert_eq!(chess::outcome(&before), None);
}

#[test]
fn chess_stalemate_and_draws() {
    let stalemate = chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(!chess::in_check(&stalemate, 1));
    assert!(chess::legal_moves(&stalemate).is_empty());
    assert_eq!(chess::outcome(&stalemate), Some(Outcome::Draw));
    // The queen one cell over, guarded by the king, gives mate instead.
    let mate = chess::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(chess::outcome(&mate), Some(Outcome::Win(0)));
    // Fifty moves without a pawn move or capture.
    let fifty = "4k3/8/8/8/8/8/4P3/4K2R w K - 100 80";
    assert_eq!(
        chess::outcome(&chess::from_fen(fifty).unwrap()),
        Some(Outcome::Draw)
    );
    let fortynine = "4k3/8/8/8/8/8/4P3/4K2R w K - 99 80";
    assert_eq!(chess::outcome(&chess::from_fen(fortynine).unwrap()), None);
    // Insufficient material: kings alone, a king and a minor piece against a king.
    for (fen, draw) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/2b1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
    ] {
        let got = chess::outcome(&chess::from_fen(fen).unwrap());
        assert_eq!(got == Some(Outcome::Draw), draw, "{fen}");
    }
}

#[test]
fn chess_special_moves_are_played_out() {
    // Castling moves the rook and drops both rights of the side.
    let b = chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10").unwrap();
    let moves: BTreeSet<String> = chess::legal_moves(&b)
        .iter()
        .map(|m| m.notation())
        .collect();
    assert!(moves.contains("e1-g1") && moves.contains("e1-c1"));
    let after = chess::play(&b, &chess::find_move(&b, "e1-c1").unwrap());
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 4 10");
    // Capturing a rook on its corner takes that right away (and moving one's own).
    let b = chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    let after = chess::play(&b, &chess::find_move(&b, "a8-a1").unwrap());
    assert_eq!(after.to_fen(), "4k2r/8/8/8/8/8/8/r3K2R w Kk - 0 2");
    // No castling through an attacked cell (f1 is covered by the bishop on c4).
    let b = chess::from_fen("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1").unwrap();
    assert!(chess::find_move(&b, "e1-g1").is_none());
    // En passant, and a promotion with capture.
    let b = chess_line(&["e2-e4", "a7-a6", "e4-e5", "d7-d5"]);
    assert_eq!(b.ep, chess::cell_index("d6"));
    let after = chess::play(&b, &chess::find_move(&b, "e5-d6").unwrap());
    assert_eq!(
        after.to_fen(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
    let b = chess::from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let promotions: Vec<String> = chess::legal_moves(&b)
        .iter()
        .filter(|m| m.promotion.is_some())
        .map(|m| m.notation())
        .collect();
    assert_eq!(promotions.len(), 8, "{promotions:?}");
    assert!(promotions.contains(&"a7-b8=N".to_string()));
}
