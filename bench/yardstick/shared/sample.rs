//! Positions for timing make + unmake on Ply's side, shared by the benchmarks and the
//! `kperft` example (`#[path]`-included: the yardstick library itself does not use the kernel).

use ply_kernel::{Move, Position};

/// `limit` positions met along random games from `start` (at most `max_plies` plies each),
/// each with its legal moves; `pick(n)` returns an index below `n`.
pub fn sample(
    start: &Position,
    pick: &mut impl FnMut(usize) -> usize,
    limit: usize,
    max_plies: u32,
) -> Vec<(Position, Vec<Move>)> {
    let mut samples = Vec::new();
    while samples.len() < limit {
        let mut p = start.clone();
        for _ in 0..max_plies {
            let list = p
                .legal_moves()
                .expect("a shipped pack stays within the limits");
            let Some(m) = list.get(pick(list.len().max(1))) else {
                break;
            };
            samples.push((p.clone(), list.iter().collect()));
            p.make_unchecked(m);
            if samples.len() == limit {
                break;
            }
        }
    }
    samples
}
