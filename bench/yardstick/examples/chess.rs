//! The chess pack against shakmaty, a hand-written chess move generator, in one run:
//! perft(5) from the start counted the same way by both (every leaf made and taken back, then
//! with bulk counting at the last ply), and random playouts to the end of the game.
//! `cargo run --release -p ply-yardstick --example chess [ROUNDS]`.
//!
//! Runs alternate (ours, shakmaty, ...) and the best time of each is kept, so that a burst of
//! load on a shared machine hurts both sides alike.

use ply_kernel::{Position, Rng};
use shakmaty::{Chess, Position as _};
use std::time::Instant;

fn best(rounds: usize, mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut out = (0, f64::INFINITY);
    for _ in 0..rounds {
        let t = Instant::now();
        let n = f();
        out = (n, out.1.min(t.elapsed().as_secs_f64()));
    }
    out
}

/// Shakmaty perft making and taking back every move, the leaves included (it has no unmake:
/// each child is a copy, as its own perft does).
fn shak_perft(pos: &Chess, depth: u32, bulk: bool) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 && bulk {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        n += if depth == 1 {
            1
        } else {
            shak_perft(&child, depth - 1, bulk)
        };
    }
    n
}

/// Random games to the end (or 500 plies), picking moves with the same generator.
fn shak_playouts(games: usize, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = Chess::default();
        for _ in 0..500 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() || pos.halfmoves() >= 100 {
                break;
            }
            let m = &moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            plies += 1;
        }
    }
    plies
}

fn our_playouts(rules: &std::sync::Arc<ply_kernel::Rules>, games: usize, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = Position::start(rules.clone());
        let mut list = ply_kernel::MoveList::new();
        for _ in 0..500 {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves_into(&mut list).expect("within limits");
            if list.is_empty() {
                break;
            }
            let m = list.get(rng.below(list.len())).expect("in range");
            pos.make_unchecked(m);
            plies += 1;
        }
    }
    plies
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/chess.toml");
    let rules = ply_lang::load(&root, &[]).expect("chess.toml loads").rules;
    let shak = Chess::default();
    let depth = 5;
    for (label, bulk) in [("every leaf made", false), ("bulk at the last ply", true)] {
        let ours = best(rounds, || {
            let mut p = Position::start(rules.clone());
            if bulk {
                p.perft_bulk(depth).expect("within limits")
            } else {
                p.perft(depth).expect("within limits")
            }
        });
        let theirs = best(rounds, || shak_perft(&shak, depth, bulk));
        assert_eq!(ours.0, theirs.0, "both count perft({depth})");
        let (a, b) = (ours.0 as f64 / ours.1, theirs.0 as f64 / theirs.1);
        println!(
            "perft({depth}) {label}: ply {:.2} M nodes/s, shakmaty {:.2} M nodes/s, ratio {:.3}",
            a / 1e6,
            b / 1e6,
            a / b
        );
    }
    let games = 200;
    let ours = best(rounds, || our_playouts(&rules, games, 7));
    let theirs = best(rounds, || shak_playouts(games, 7));
    let (a, b) = (games as f64 / ours.1, games as f64 / theirs.1);
    println!(
        "random playouts: ply {a:.0}/s ({:.2} M plies/s), shakmaty {b:.0}/s ({:.2} M plies/s), ratio {:.3}",
        ours.0 as f64 / ours.1 / 1e6,
        theirs.0 as f64 / theirs.1 / 1e6,
        a / b
    );
}
