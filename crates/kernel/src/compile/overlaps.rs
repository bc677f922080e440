//! Patterns of one kind that may make moves along the same cells.
//!
//! Two moves must never share a path: a path names one move. When two patterns of a kind can
//! reach one destination from one origin (a step and a slide in one direction, a leap and a
//! jump), the moves they make there along the same cells are **one move**, made by the
//! pattern listed first that makes it ([`crate::position`]'s `shadowed`). This pass finds, for
//! each pattern, the earlier patterns of its kind whose targets meet its own from some cell,
//! so that play tests only those; rules where no two patterns meet pay nothing.

use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::rules::Rules;
use crate::spec::CaptureMode;
use crate::tables::Shape;

/// For each pattern, the earlier patterns of the same kind that reach a cell it reaches from
/// the same origin (empty for most); and whether any pattern has such a partner or takes a
/// passing piece while also moving quietly (the quiet move onto the passed cell and the take
/// share their path).
pub(crate) fn earlier_overlapping(rules: &Rules) -> (Vec<Vec<u8>>, bool) {
    let n = rules.moves.len();
    let mut earlier: Vec<Vec<u8>> = vec![Vec::new(); n];
    let kinds = rules.core.kinds.len();
    let cells: Vec<u16> = rules.core.geometry.cells().iter().map(|c| c.0).collect();
    // The patterns reaching each destination from one origin, as a bit set of pattern
    // numbers (a pack has at most 256 patterns).
    let mut reach = vec![[0u64; 4]; rules.stride];
    for k in 0..kinds {
        let moving = rules
            .moves
            .iter()
            .filter(|m| {
                m.kind == KindId(k as u8)
                    && !matches!(m.shape, Shape::Place | Shape::Pass | Shape::Compound(_))
            })
            .count();
        if moving < 2 {
            continue;
        }
        for p in 0..PLAYERS {
            let code = Piece::new(KindId(k as u8), Player(p as u8)).0;
            for &from in &cells {
                let mut touched: Vec<usize> = Vec::new();
                let mut mark = |to: usize, rule: u8| {
                    if let Some(r) = reach.get_mut(to) {
                        if *r == [0; 4] {
                            touched.push(to);
                        }
                        r[rule as usize / 64] |= 1 << (rule % 64);
                    }
                };
                let slot = rules.slot(code, from);
                for g in std::iter::once(&slot.first).chain(rules.more_groups(slot)) {
                    let mut bits = g.quiet | g.capture;
                    while bits != 0 {
                        mark(bits.trailing_zeros() as usize, g.rule);
                        bits &= bits - 1;
                    }
                }
                for t in rules.listed(slot) {
                    mark(t.to as usize, t.rule);
                }
                for to in touched {
                    let r = std::mem::take(&mut reach[to]);
                    if r.iter().map(|w| w.count_ones()).sum::<u32>() < 2 {
                        continue;
                    }
                    let rules_here: Vec<u8> = (0..256u16)
                        .filter(|&i| r[i as usize / 64] & (1 << (i % 64)) != 0)
                        .map(|i| i as u8)
                        .collect();
                    for (j, &later) in rules_here.iter().enumerate() {
                        for &first in &rules_here[..j] {
                            if !earlier[later as usize].contains(&first) {
                                earlier[later as usize].push(first);
                            }
                        }
                    }
                }
            }
        }
    }
    for e in &mut earlier {
        e.sort_unstable();
    }
    let ghost_beside_quiet = rules
        .moves
        .iter()
        .any(|m| m.takes_ghost && m.mode != CaptureMode::Capturing);
    let any = ghost_beside_quiet || earlier.iter().any(|e| !e.is_empty());
    (earlier, any)
}

/// For each placement pattern (in [`Rules::placements`] order), the earlier placement
/// patterns that place the same kind; and how many kinds are placed.
pub(crate) fn earlier_placements(rules: &Rules) -> (Vec<Vec<u8>>, usize) {
    let kind = |r: u8| rules.moves[r as usize].kind;
    let earlier = rules
        .placements
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            rules.placements[..i]
                .iter()
                .copied()
                .filter(|&q| kind(q) == kind(r))
                .collect()
        })
        .collect();
    let mut kinds: Vec<KindId> = rules.placements.iter().map(|&r| kind(r)).collect();
    kinds.sort_unstable();
    kinds.dedup();
    (earlier, kinds.len())
}
