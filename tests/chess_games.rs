//! The chess and xiangqi packs against the independent reference generators of
//! `tests/chess_reference`: over seeded random games, at every position, the same legal moves
//! (in notation), the same position after each move (as FEN) and the same outcome; and the
//! published perft counts, from the data file `tests/data/chess_perft.txt`.

mod chess_reference;
mod common;

use chess_reference::{Outcome as RefOutcome, chess, xiangqi};
use ply_kernel::{Outcome, Player, Position, Rng, Rules};
use std::collections::BTreeSet;
use std::sync::Arc;

fn rules(pack: &str) -> Arc<Rules> {
    common::pack(&format!("{pack}.toml"), &[])
}

/// Our moves in the reference's notation (`e2-e4`, `e7-e8=Q`, no `x`).
fn ours(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves()
        .expect("within limits")
        .iter()
        .map(|m| pos.notation(m).replace('x', "-"))
        .collect()
}

fn our_outcome(o: Option<Outcome>) -> Option<RefOutcome> {
    o.map(|o| match o {
        Outcome::Win(p) => RefOutcome::Win(p.index() as u8),
        Outcome::Draw => RefOutcome::Draw,
    })
}

/// The first fields of a FEN: board, side, castling, en passant (the reference writes the
/// en passant cell after every double step, as we do).
fn fen_head(fen: &str, fields: usize) -> String {
    fen.split_whitespace()
        .take(fields)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where our divide and the reference's first differ, below `pos`: the FEN and the moves
/// of the two sides there.
fn first_difference(pos: &mut Position, depth: u32) -> Option<String> {
    let f = pos.to_fen().unwrap();
    let b = chess::from_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"));
    let a = ours(pos);
    let theirs: BTreeSet<String> = chess::legal_moves(&b)
        .iter()
        .map(|m| m.notation())
        .collect();
    if a != theirs {
        return Some(format!(
            "{}: ours only {:?}, reference only {:?}",
            pos.to_fen().unwrap(),
            a.difference(&theirs).collect::<Vec<_>>(),
            theirs.difference(&a).collect::<Vec<_>>()
        ));
    }
    if depth <= 1 {
        return None;
    }
    for m in pos.legal_moves().unwrap().iter() {
        let text = pos.notation(m).replace('x', "-");
        let rm = chess::find_move(&b, &text).unwrap();
        let nb = chess::play(&b, &rm);
        let u = pos.make_unchecked(m);
        let ours_n = pos.perft(depth - 1).unwrap();
        let theirs_n = chess::perft(&nb, depth - 1);
        if ours_n != theirs_n {
            let found = first_difference(pos, depth - 1);
            pos.unmake_unchecked(m, u);
            return found.or(Some(format!("after {text}: counts differ")));
        }
        pos.unmake_unchecked(m, u);
    }
    None
}

#[test]
fn chess_perft_from_published_positions() {
    let r = rules("chess");
    let data = std::fs::read_to_string(common::root().join("tests/data/chess_perft.txt")).unwrap();
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (fen, counts) = line.split_once(';').unwrap();
        let counts: Vec<u64> = counts
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        for (d, &want) in counts.iter().enumerate() {
            let mut pos = Position::from_fen(r.clone(), fen.trim()).unwrap();
            let got = pos.perft(d as u32 + 1).unwrap();
            if got != want {
                let why = first_difference(&mut pos, d as u32 + 1);
                panic!("{fen}: perft({}) = {got}, want {want}; {why:?}", d + 1);
            }
            checked += 1;
        }
    }
    assert!(checked >= 15);
}

#[test]
fn xiangqi_perft_from_published_positions() {
    let r = rules("xiangqi");
    let data =
        std::fs::read_to_string(common::root().join("tests/data/xiangqi_perft.txt")).unwrap();
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (fen, counts) = line.split_once(';').unwrap();
        for (d, want) in counts.split_whitespace().enumerate() {
            let Ok(want) = want.parse::<u64>() else {
                continue;
            };
            let mut pos = Position::from_fen(r.clone(), fen.trim()).unwrap();
            assert_eq!(
                pos.perft(d as u32 + 1).unwrap(),
                want,
                "{fen} depth {}",
                d + 1
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn capablanca_by_extends_counts_the_published_perft() {
    let r = rules("capablanca");
    let data =
        std::fs::read_to_string(common::root().join("tests/data/capablanca_perft.txt")).unwrap();
    let line = data.lines().find(|l| !l.starts_with('#')).unwrap();
    let (fen, counts) = line.split_once(';').unwrap();
    let start = Position::start(r.clone());
    assert_eq!(
        start.to_fen().unwrap(),
        fen.trim(),
        "the start, written in FEN"
    );
    for (d, want) in counts.split_whitespace().enumerate() {
        let mut pos = Position::from_fen(r.clone(), fen.trim()).unwrap();
        assert_eq!(
            pos.perft(d as u32 + 1).unwrap(),
            want.parse::<u64>().unwrap()
        );
    }
}

/// Chess960's rights in FEN: `K`/`Q` name the outermost rook, a column letter (X-FEN,
/// Shredder-FEN) names another; both are read and written back.
#[test]
fn chess960_rights_by_column_are_read_and_written() {
    let r = rules("chess");
    let castles = |pos: &Position| {
        pos.legal_moves()
            .expect("within limits")
            .iter()
            .any(|m| m.is_compound())
    };
    // The king on f1, rooks on g1 and h1: the right is the inner rook's, named by its column.
    let inner = "4k3/8/8/8/8/8/8/5KRR w G - 0 1";
    let pos = Position::from_position_string(r.clone(), inner).unwrap();
    assert!(castles(&pos), "castling with the g1 rook");
    assert_eq!(pos.to_fen().as_deref(), Some(inner));
    // `K` is the outermost rook's, h1: the first rook beyond the king has moved, no castling.
    let outer = "4k3/8/8/8/8/8/8/5KRR w K - 0 1";
    let pos = Position::from_position_string(r.clone(), outer).unwrap();
    assert!(!castles(&pos));
    assert_eq!(pos.to_fen().as_deref(), Some(outer));
    // Shredder-FEN's letters for the standard start are the outermost rooks: written KQkq.
    let shredder = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let pos = Position::from_position_string(r.clone(), shredder).unwrap();
    assert_eq!(
        pos.to_fen().as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    assert_eq!(pos, Position::start(r));
}

/// A royal piece is attacked by a piece that could capture it, pinned or not: the one meaning
/// legality gives an attack, which front ends show as check.
#[test]
fn a_pinned_piece_still_gives_check() {
    let r = rules("chess");
    // The black rook on e4 is pinned to its king on a4 by the rook on h4, and checks e1.
    let pos = Position::from_position_string(r.clone(), "8/8/8/8/k3r2R/8/8/4K3 w - - 0 1").unwrap();
    let g = r.geometry();
    let names = |cells: Vec<ply_kernel::Cell>| -> Vec<String> {
        cells.into_iter().map(|c| g.name(c).to_string()).collect()
    };
    assert_eq!(names(pos.attacked_royals(Player::FIRST)), ["e1"]);
    assert!(pos.attacked_royals(Player::SECOND).is_empty());
    // Without a royal kind, nothing is ever in check.
    let b = rules("breakthrough");
    assert!(Position::start(b).attacked_royals(Player::FIRST).is_empty());
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    let r = rules("chess");
    for (fen, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "not a side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
            "White has no King",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1",
            "without its Rook",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "no piece can just have passed e3",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
            "`Z` is no piece letter",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        (
            "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
            "Black is in check with White to move",
        ),
        // A run of 2^64 + 8 empty cells does not wrap to a full rank.
        (
            "rnbqkbnr/pppppppp/18446744073709551624/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 6 has more than 8 cells",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQkq - 0 1",
            "compound-move right `K` given twice",
        ),
        // A column letter (X-FEN) with no rook of a castling there.
        (
            "4k3/8/8/8/8/8/8/5KRR w C - 0 1",
            "compound-move right `C`: no unmoved partner of a compound move on column c",
        ),
        // The king off the line of castling (its rook beside it, on its rank).
        (
            "4k3/8/8/8/8/8/4K2R/8 w K - 0 1",
            "are not on the line of the move",
        ),
        // A rook elsewhere than on the king's line.
        (
            "4k3/8/8/8/8/8/7R/4K3 w K - 0 1",
            "compound-move right `K` without its Rook",
        ),
        // The cell a pawn would have come from is taken.
        (
            "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1",
            "no piece can just have passed e6",
        ),
        // No double step passes e5 (a pawn on e4 stepped from e6, not its start).
        (
            "4k3/8/8/8/4p3/8/8/4K3 w - e5 0 1",
            "no piece can just have passed e5",
        ),
        // What the pack says of every position: one king a side, no pawn on the first or
        // last rank.
        (
            "r6k/8/8/8/8/8/8/K6K w - - 0 1",
            "White has more than 1 King (at most 1 per player)",
        ),
        (
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "WP on a8: a Pawn may never stand in zone `ends`",
        ),
        (
            "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
            "BP on a1: a Pawn may never stand in zone `ends`",
        ),
        // A white pawn cannot have passed e6 with White to move.
        (
            "4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1",
            "no piece can just have passed e6",
        ),
    ] {
        let err = match Position::from_fen(r.clone(), fen) {
            Ok(_) => panic!("{fen} was read"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(why), "{fen}: {err}");
    }
}

#[test]
fn crazyhouse_fens_carry_hands_and_promoted_marks() {
    let r = rules("crazyhouse");
    // Hands in brackets and as a ninth rank read alike; both are written in brackets, with the
    // first player's pieces first.
    let fen = "r3k3/7Q~/8/8/8/8/8/4K3[QPPn] w q - 0 30";
    let pos = Position::from_fen(r.clone(), fen).unwrap();
    assert_eq!(pos.to_fen().unwrap(), fen);
    let ninth = Position::from_fen(r.clone(), "r3k3/7Q~/8/8/8/8/8/4K3/nPQP w q - 0 30").unwrap();
    assert_eq!(ninth.to_fen().unwrap(), fen);
    // The promoted queen taken goes to Black's hand as a pawn; an empty hand is written `[]`.
    let mut pos = Position::from_fen(r.clone(), "4k3/r6Q~/8/8/8/8/8/4K3[] b - - 0 30").unwrap();
    let take = pos
        .legal_moves()
        .unwrap()
        .iter()
        .find(|&m| pos.notation(m) == "a7xh7")
        .expect("the rook takes the promoted queen");
    pos.make_unchecked(take);
    assert_eq!(pos.to_fen().unwrap(), "4k3/7r/8/8/8/8/8/4K3[p] w - - 0 31");
    for (fen, why) in [
        (
            "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",
            "a King is never held in hand",
        ),
        ("4k3/8/8/8/8/8/8/4K3[Z] w - - 0 1", "`Z` is no piece letter"),
        (
            "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1",
            "must end the board field",
        ),
        (
            "4k3/8/8/8/8/8/8/4K~3[] w - - 0 1",
            "`K~` is no piece letter",
        ),
    ] {
        let err = match Position::from_fen(r.clone(), fen) {
            Ok(_) => panic!("{fen} was read"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(why), "{fen}: {err}");
    }
    // Chess keeps no hands and marks no piece.
    let chess = rules("chess");
    for (fen, why) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1",
            "this game keeps no pieces in hand",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR w KQkq - 0 1",
            "`Q~` is no piece letter",
        ),
    ] {
        let err = match Position::from_fen(chess.clone(), fen) {
            Ok(_) => panic!("{fen} was read"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(why), "{fen}: {err}");
    }
}

/// The en passant field after a black double step names the pawn that made it, not a
/// neighbour (found by random games against python-chess): both positions agree with the
/// reference generator, and the capture is listed.
#[test]
fn fen_en_passant_takes_the_pawn_that_passed() {
    let r = rules("chess");
    for (fen, depth, want) in [
        (
            "rnbqkbnr/1pppp1pp/p7/5pP1/8/8/PPPPPP1P/RNBQKBNR w KQkq f6 0 3",
            3,
            9150,
        ),
        ("4k3/7p/8/6pP/7K/8/8/8 w - g6 0 1", 3, 0),
        // White's double step, Black to move.
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", 3, 0),
    ] {
        let mut pos = Position::from_fen(r.clone(), fen).unwrap();
        let b = chess::from_fen(fen).unwrap();
        let theirs = chess::perft(&b, depth);
        let got = pos.perft(depth).unwrap();
        assert_eq!(
            got,
            theirs,
            "{fen}: {:?}",
            first_difference(&mut pos, depth)
        );
        if want != 0 {
            assert_eq!(got, want, "{fen}");
        }
    }
    let pos = Position::from_fen(r.clone(), "4k3/7p/8/6pP/7K/8/8/8 w - g6 0 1").unwrap();
    assert!(ours(&pos).contains("h5-g6"), "{:?}", ours(&pos));
    assert_eq!(
        pos.to_fen().unwrap(),
        "4k3/7p/8/6pP/7K/8/8/8 w - g6 0 1",
        "read back as written"
    );
    assert!(
        pos.to_position_string().contains("ghost=g6:g5"),
        "{}",
        pos.to_position_string()
    );
}

/// A mate on the move that reaches the idle limit is a mate (FIDE 9.6.2 gives it precedence),
/// as the reference judges; any other move there is a draw.
#[test]
fn a_mate_on_the_hundredth_idle_ply_is_a_mate() {
    let r = rules("chess");
    let fen = "7k/8/6K1/8/8/8/8/R7 w - - 99 80";
    let play = |text: &str| {
        let mut pos = Position::from_fen(r.clone(), fen).unwrap();
        let m = pos
            .legal_moves()
            .unwrap()
            .iter()
            .find(|m| pos.notation(*m) == text)
            .unwrap();
        pos.make_unchecked(m);
        let b = chess::play(
            &chess::from_fen(fen).unwrap(),
            &chess::find_move(&chess::from_fen(fen).unwrap(), text).unwrap(),
        );
        assert_eq!(our_outcome(pos.outcome()), chess::outcome(&b), "{text}");
        (pos.outcome(), pos.decided())
    };
    assert_eq!(
        play("a1-a8"),
        (
            Some(Outcome::Win(ply_kernel::Player::FIRST)),
            Some(Outcome::Win(ply_kernel::Player::FIRST))
        )
    );
    assert_eq!(play("a1-a7").0, Some(Outcome::Draw));
    // Read as a position, the mate is judged the same way.
    let pos = Position::from_fen(r.clone(), "R6k/8/6K1/8/8/8/8/8 b - - 100 80").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(ply_kernel::Player::FIRST)));
}

/// Dead positions (FIDE 5.2.2) as the pack and the reference judge them: kings alone, with
/// one knight, or with bishops all on cells of one colour; not with bishops of both colours or
/// a knight beside a bishop.
#[test]
fn dead_positions_agree_with_the_reference() {
    let r = rules("chess");
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/2b1K3 w - - 0 1", true),
        ("1b2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("1b2k3/8/8/8/8/8/8/2B1K3 b - - 0 1", true),
        ("4k3/8/8/8/8/B7/8/2B1K3 w - - 0 1", true),
        ("4k3/1b6/b7/8/8/8/8/2B1K3 w - - 0 1", false),
        ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4k1n1/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false),
    ] {
        let pos = Position::from_fen(r.clone(), fen).unwrap();
        let b = chess::from_fen(fen).unwrap();
        assert_eq!(chess::outcome(&b) == Some(RefOutcome::Draw), dead, "{fen}");
        assert_eq!(pos.outcome() == Some(Outcome::Draw), dead, "{fen}");
    }
    // Reached by a move: taking the last rook leaves two bishops on dark cells.
    let mut pos = Position::from_fen(r.clone(), "1b2k3/8/8/8/8/8/1B6/r3K3 w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
    let m = pos
        .find_move(None, &[cell(&r, "b2"), cell(&r, "a1")])
        .unwrap();
    pos.make_unchecked(m);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

/// The pack's `at_most` and `never_in` hold for position strings and pieces put on a board
/// by hand too, not only for FEN.
#[test]
fn position_strings_and_placed_pieces_keep_one_king_and_no_pawn_on_the_ends() {
    let r = rules("chess");
    let text = common::fen(&r, &[("a1", "WK"), ("h1", "WK"), ("e8", "BK")], "White");
    let err = Position::from_position_string(r.clone(), &text).unwrap_err();
    assert!(
        err.to_string().contains("White has more than 1 King"),
        "{err}"
    );
    let text = common::fen(&r, &[("e1", "WK"), ("e8", "BK"), ("c8", "WP")], "White");
    let err = Position::from_position_string(r.clone(), &text).unwrap_err();
    assert!(
        err.to_string().contains("may never stand in zone `ends`"),
        "{err}"
    );
    let mut game = ply_kernel::Game::empty(r.clone());
    let king = ply_kernel::Piece::new(r.kind_by_name("King").unwrap(), ply_kernel::Player::FIRST);
    let pawn = ply_kernel::Piece::new(r.kind_by_name("Pawn").unwrap(), ply_kernel::Player::SECOND);
    game.place(king, cell(&r, "e1")).unwrap();
    let err = game.place(king, cell(&r, "d1")).unwrap_err();
    assert!(err.to_string().contains("more than 1 King"), "{err}");
    let err = game.place(pawn, cell(&r, "d1")).unwrap_err();
    assert!(err.to_string().contains("never stand"), "{err}");
    game.place(pawn, cell(&r, "d2")).unwrap();
}

fn cell(r: &Rules, name: &str) -> ply_kernel::Cell {
    r.geometry().parse_cell(name).unwrap()
}

#[test]
fn chess_random_games_agree_with_the_reference() {
    let r = rules("chess");
    let mut rng = Rng::new(7);
    let mut positions = 0;
    for game in 0..60 {
        let mut pos = Position::start(r.clone());
        let mut b = chess::start();
        for ply in 0..300 {
            let fen = pos.to_fen().unwrap();
            assert_eq!(
                fen_head(&fen, 4),
                fen_head(&b.to_fen(), 4),
                "game {game} ply {ply}"
            );
            assert_eq!(
                chess::from_fen(&fen).map(|x| x.to_fen()),
                Ok(b.to_fen()),
                "our FEN reads back in the reference"
            );
            let ref_out = chess::outcome(&b);
            let our_out = our_outcome(pos.outcome());
            // The reference knows no repetition: a draw by repetition is ours alone.
            if our_out == Some(RefOutcome::Draw) && ref_out.is_none() {
                break;
            }
            assert_eq!(our_out, ref_out, "outcome at {fen}");
            if our_out.is_some() {
                break;
            }
            positions += 1;
            let a = ours(&pos);
            let theirs: BTreeSet<String> = chess::legal_moves(&b)
                .iter()
                .map(|m| m.notation())
                .collect();
            assert_eq!(a, theirs, "moves at {fen}");
            let list = pos.legal_moves().unwrap();
            let m = list.get(rng.below(list.len())).unwrap();
            let text = pos.notation(m).replace('x', "-");
            b = chess::play(&b, &chess::find_move(&b, &text).unwrap());
            let before = pos.clone();
            let u = pos.make_unchecked(m);
            let mut back = pos.clone();
            back.unmake_unchecked(m, u);
            assert_eq!(
                back.to_position_string(),
                before.to_position_string(),
                "unmake restores {text} at {fen}"
            );
            assert_eq!(back.hash(), before.hash());
        }
    }
    assert!(positions > 5000, "{positions} positions compared");
}

#[test]
fn xiangqi_random_games_agree_with_the_reference() {
    let r = rules("xiangqi");
    let mut rng = Rng::new(11);
    let mut positions = 0;
    for game in 0..40 {
        let mut pos = Position::start(r.clone());
        let mut b = xiangqi::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        for ply in 0..250 {
            let fen = pos.to_fen().unwrap();
            assert_eq!(
                fen_head(&fen, 2),
                fen_head(&b.to_fen(), 2),
                "game {game} ply {ply}"
            );
            let our_out = our_outcome(pos.outcome());
            let ref_out = xiangqi::outcome(&b);
            if our_out.is_some() && ref_out.is_none() {
                // Our draw rules (repetition, the idle clock) are not the reference's business.
                break;
            }
            assert_eq!(our_out, ref_out, "outcome at {fen}");
            if our_out.is_some() {
                break;
            }
            positions += 1;
            let a = ours(&pos);
            let theirs: BTreeSet<String> = xiangqi::legal_moves(&b)
                .iter()
                .map(|m| m.notation())
                .collect();
            assert_eq!(a, theirs, "moves at {fen}");
            let list = pos.legal_moves().unwrap();
            let m = list.get(rng.below(list.len())).unwrap();
            let text = pos.notation(m).replace('x', "-");
            let rm = xiangqi::legal_moves(&b)
                .into_iter()
                .find(|x| x.notation() == text)
                .unwrap();
            b = xiangqi::play(&b, &rm);
            pos.make_unchecked(m);
        }
    }
    assert!(positions > 3000, "{positions} positions compared");
}
