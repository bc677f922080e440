//! The chess and xiangqi reference generators (`tests/chess_reference`) against published
//! perft counts, FEN round trips over seeded random games, refused FENs, and a few end
//! positions. The packs are checked against these generators elsewhere; this file checks the
//! generators themselves.

mod chess_reference;

use chess_reference::{Outcome, Rng, chess, xiangqi};
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
        // Bishops all on squares of one colour, on either side or both (c1, a3 and b8 dark;
        // c8 light): no mate can ever happen.
        ("1b2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/B7/8/2B1K3 w - - 0 1", true),
        ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
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

// ==== xiangqi ====

fn xiangqi_perft(fen: &str, counts: &[u64]) {
    let b = xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for (depth, &want) in (1..).zip(counts) {
        assert_eq!(xiangqi::perft(&b, depth), want, "{fen}, depth {depth}");
    }
}

#[test]
fn xiangqi_perft_start() {
    xiangqi_perft(xiangqi::START_FEN, &[44, 1920, 79666]);
}

#[test]
fn xiangqi_perft_start_depth_4() {
    assert_eq!(xiangqi::perft(&xiangqi::start(), 4), 3290240);
}

/// Published in Fairy-Stockfish's `tests/perft.sh` (depth 4 only): a middle game with
/// soldiers across the river on both sides, cannons with screens, blocked horses and
/// elephants.
#[test]
fn xiangqi_perft_middle_game() {
    let fen = "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1";
    let b = xiangqi::from_fen(fen).unwrap();
    assert_eq!(xiangqi::perft(&b, 4), 4485547);
}

/// Also from Fairy-Stockfish's `tests/perft.sh` (depth 4 only): an end game with the
/// generals on one file.
#[test]
fn xiangqi_perft_end_game() {
    let b = xiangqi::from_fen("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1").unwrap();
    assert_eq!(xiangqi::perft(&b, 4), 92741);
}

fn xiangqi_random_games(games: u64, plies: usize, mut visit: impl FnMut(&xiangqi::Board)) {
    for seed in 0..games {
        let mut rng = Rng::new(1000 + seed);
        let mut b = xiangqi::start();
        visit(&b);
        for _ in 0..plies {
            if xiangqi::outcome(&b).is_some() {
                break;
            }
            let moves = xiangqi::legal_moves(&b);
            b = xiangqi::play(&b, &moves[rng.below(moves.len())]);
            visit(&b);
        }
    }
}

#[test]
fn xiangqi_fen_round_trips() {
    let mut positions = 0;
    xiangqi_random_games(40, 200, |b| {
        let fen = b.to_fen();
        let back = xiangqi::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&back, b, "{fen}");
        assert_eq!(back.to_fen(), fen);
        assert!(!xiangqi::in_check(b, 1 - b.to_move), "{fen}");
        assert!(!xiangqi::generals_facing(b), "{fen}");
        positions += 1;
    });
    assert!(positions > 5000, "{positions} positions");
}

/// The xiangqi generator walks each piece's moves; `reaches` states the same rules cell by
/// cell (and serves the check test). The two agree on every piece of random positions.
#[test]
fn xiangqi_walk_agrees_with_cell_rule() {
    xiangqi_random_games(20, 200, |b| {
        for from in 0..xiangqi::CELLS {
            let Some((me, _)) = b.cells[from] else {
                continue;
            };
            let walked: BTreeSet<usize> =
                xiangqi::piece_moves(b, from).iter().map(|m| m.to).collect();
            let ruled: BTreeSet<usize> = (0..xiangqi::CELLS)
                .filter(|&to| {
                    !matches!(b.cells[to], Some((o, _)) if o == me) && xiangqi::reaches(b, from, to)
                })
                .collect();
            assert_eq!(
                walked,
                ruled,
                "{} from {}",
                b.to_fen(),
                xiangqi::cell_name(from)
            );
        }
    });
}

#[test]
fn xiangqi_bad_fens_refused() {
    for fen in [
        "",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w",
        "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/54/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKKABNR w",
        "rnbaaabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNk w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAAABNK w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra",
    ] {
        assert!(xiangqi::from_fen(fen).is_err(), "accepted {fen:?}");
    }
    // Red as `r`, and the letters `h` and `e` for the horse and the elephant.
    let start = xiangqi::start();
    let synonyms = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1";
    assert_eq!(xiangqi::from_fen(synonyms), Ok(start));
    assert_eq!(
        xiangqi::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        Ok(start)
    );
    let black = xiangqi::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    assert_eq!(black.map(|b| b.to_move), Ok(1));
}

#[test]
fn xiangqi_facing_generals_removes_moves() {
    // The red general may not step onto the open d-file facing the black general.
    let b = xiangqi::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    let moves: BTreeSet<String> = xiangqi::legal_moves(&b)
        .iter()
        .map(|m| m.notation())
        .collect();
    let want: BTreeSet<String> = ["e1-e2", "e1-f1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(moves, want);
    // A horse that is the only piece between the generals may not move at all.
    let b = xiangqi::from_fen("4k4/9/9/9/9/9/4N4/9/9/4K4 w").unwrap();
    assert_eq!(
        xiangqi::piece_moves(&b, xiangqi::cell_index("e4").unwrap()).len(),
        8
    );
    let moves: BTreeSet<String> = xiangqi::legal_moves(&b)
        .iter()
        .map(|m| m.notation())
        .collect();
    let want: BTreeSet<String> = ["e1-e2", "e1-d1", "e1-f1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(moves, want);
}

#[test]
fn xiangqi_outcomes() {
    let start = xiangqi::start();
    assert_eq!(xiangqi::outcome(&start), None);
    // Checkmate: two chariots on ranks 9 and 10 against the bare black general.
    let mate = xiangqi::from_fen("3k3R1/7R1/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(xiangqi::in_check(&mate, 1));
    assert_eq!(xiangqi::outcome(&mate), Some(Outcome::Win(0)));
    // Stalemate loses too: the black general on d10 is not in check, but d9 is covered by
    // the chariot and e10 would face the red general.
    let stalemate = xiangqi::from_fen("3k5/7R1/9/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(!xiangqi::in_check(&stalemate, 1));
    assert_eq!(xiangqi::legal_moves(&stalemate).len(), 0);
    assert_eq!(xiangqi::outcome(&stalemate), Some(Outcome::Win(0)));
    // The cannon captures over exactly one screen and not over none or two.
    let b = xiangqi::from_fen("4k4/9/9/9/9/9/C1p1p3r/9/9/3K5 w").unwrap();
    let cannon: BTreeSet<String> = xiangqi::legal_moves(&b)
        .iter()
        .filter(|m| m.from == xiangqi::cell_index("a4").unwrap())
        .map(|m| m.notation())
        .collect();
    assert!(cannon.contains("a4-e4"), "{cannon:?}");
    assert!(
        !cannon.contains("a4-c4") && !cannon.contains("a4-i4"),
        "{cannon:?}"
    );
    assert!(
        cannon.contains("a4-b4") && !cannon.contains("a4-d4"),
        "{cannon:?}"
    );
}
