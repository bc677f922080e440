//! Null-move pruning (where the pack's `[eval] null_move` allows it) and check extensions (in
//! games with royal pieces).

use ply_kernel::Position;
use ply_search::score::WIN;
use ply_search::{AlphaBeta, AlphaBetaConfig, Evaluator, Limits, Score, Weights};
use std::sync::Arc;

fn pack(name: &str) -> ply_lang::Pack {
    let path = format!("{}/../../rulesets/{name}", env!("CARGO_MANIFEST_DIR"));
    ply_lang::load(&path, &[]).expect("a shipped pack loads")
}

fn searcher(
    eval: Arc<dyn Evaluator>,
    null_move: Option<bool>,
    check_extensions: bool,
) -> AlphaBeta {
    AlphaBeta::new(
        eval,
        AlphaBetaConfig {
            tt_bits: 18,
            null_move,
            check_extensions,
            ..AlphaBetaConfig::default()
        },
    )
}

/// Positions along a seeded random game, every 6 plies, while the game goes on.
fn positions(pack: &ply_lang::Pack) -> Vec<Position> {
    let mut rng = ply_kernel::Rng::new(17);
    let mut pos = Position::start(pack.rules.clone());
    let mut out = vec![pos.clone()];
    for ply in 1..=24 {
        let Ok(Some(m)) = pos.random_move(&mut rng) else {
            break;
        };
        let _ = pos.make_unchecked(m);
        if pos.status() != ply_kernel::Status::ToMove(pos.side_to_move()) {
            break;
        }
        if ply % 6 == 0 {
            out.push(pos.clone());
        }
    }
    out
}

/// (null-move cuts, positions) of depth-`depth` searches of `positions`.
fn search_all(
    eval: &Arc<dyn Evaluator>,
    null: Option<bool>,
    positions: &[Position],
    depth: u32,
) -> (u64, u64) {
    let (mut cuts, mut nodes) = (0, 0);
    for pos in positions {
        let mut ab = searcher(eval.clone(), null, true);
        nodes += ab
            .search(pos, &Limits::depth(depth), &mut |_| {})
            .unwrap()
            .nodes;
        cuts += ab.null_cuts();
    }
    (cuts, nodes)
}

/// Chess declares `null_move = true`: its searches cut by null moves and visit fewer
/// positions to the same depth; turned off, none. Breakthrough does not declare it: none,
/// unless the engine asks for them.
#[test]
fn null_moves_cut_where_the_pack_allows_them() {
    let chess = pack("chess.toml");
    let eval: Arc<dyn Evaluator> = Arc::new(Weights::of_pack(&chess));
    assert!(eval.null_move());
    let at = positions(&chess);
    let (cuts, with) = search_all(&eval, None, &at, 6);
    let (none, without) = search_all(&eval, Some(false), &at, 6);
    assert!(cuts > 0, "no null-move cut in chess");
    assert_eq!(none, 0);
    assert!(
        with < without,
        "{with} positions with null moves, {without} without"
    );

    let breakthrough = pack("breakthrough.toml");
    let eval: Arc<dyn Evaluator> = Arc::new(Weights::of_pack(&breakthrough));
    assert!(!eval.null_move());
    let at = positions(&breakthrough);
    assert_eq!(search_all(&eval, None, &at, 5).0, 0);
    assert!(search_all(&eval, Some(true), &at, 5).0 > 0);
}

/// Passing never hides a forced mate: with null moves the mates of two rooks are found, by
/// the winner and by the loser, at every depth as without them.
#[test]
fn null_moves_keep_forced_mates() {
    let chess = pack("chess.toml");
    let eval: Arc<dyn Evaluator> = Arc::new(Weights::of_pack(&chess));
    for (fen, score) in [
        // Ra7 then Rb8 (or Rb7, Ra8): mate in two.
        ("7k/8/8/8/8/8/1R6/R3K3 w - - 0 1", Score(WIN - 3)),
        // Black, to move after Rb7+, is mated next move.
        ("4k3/1R6/R7/8/8/8/8/7K b - - 0 1", Score(-(WIN - 2))),
        ("8/4k3/R7/8/8/8/8/1R5K w - - 0 1", Score(WIN - 3)),
    ] {
        let pos = Position::from_position_string(chess.rules.clone(), fen).unwrap();
        for depth in 3..=7 {
            for null in [Some(true), Some(false)] {
                let info = searcher(eval.clone(), null, true)
                    .search(&pos, &Limits::depth(depth), &mut |_| {})
                    .unwrap();
                assert_eq!(info.score, score, "{fen} depth {depth} null {null:?}");
            }
        }
    }
}

/// A line of checks is followed past the leaves: two quiet rook checks (Rb7+, then Ra8#)
/// mate at depth 2 with check extensions; without them the second check is past the leaves,
/// where quiescence looks only at captures.
#[test]
fn check_extensions_follow_a_line_of_checks() {
    let chess = pack("chess.toml");
    let eval: Arc<dyn Evaluator> = Arc::new(Weights::of_pack(&chess));
    let pos =
        Position::from_position_string(chess.rules.clone(), "8/4k3/R7/8/8/8/8/1R5K w - - 0 1")
            .unwrap();
    let at_depth_2 = |check_extensions: bool| {
        AlphaBeta::new(
            eval.clone(),
            AlphaBetaConfig {
                check_extensions,
                futility: false,
                ..AlphaBetaConfig::default()
            },
        )
        .search(&pos, &Limits::depth(2), &mut |_| {})
        .unwrap()
    };
    assert_eq!(at_depth_2(true).score, Score(WIN - 3));
    let without = at_depth_2(false);
    assert!(without.score.0 < WIN / 2, "{:?}", without.score);
}
