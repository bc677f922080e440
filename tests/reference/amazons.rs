//! Amazons, reference rules.
//!
//! - 10 by 10. The first player's amazons (owner 0, kind 0) on a4 d1 g1 j4, the second
//!   player's on a7 d10 g10 j7; the first player moves first.
//! - A move: one of the mover's amazons slides like a chess queen (one or more cells in one
//!   of the 8 directions, over empty cells only), then shoots an arrow from its landing cell,
//!   again like a queen over empty cells, on the board as it is after the slide: the vacated
//!   origin is empty, so the arrow may land on it or fly through it.
//!   `StepThenPlace { from, to, at }`.
//! - An arrow is a stone of kind 1 owned by the mover; owners do not matter for arrows, which
//!   only block. Nothing is ever captured or removed.
//! - A player with no move (to play) loses: `outcome` is then a win for the other player.

use super::{Board, Outcome, QUEEN, RefMove, Stone, opponent};

pub const SIZE: usize = 10;
pub const AMAZON: u8 = 0;
pub const ARROW: u8 = 1;

pub fn start() -> Board {
    let mut b = Board::empty(SIZE, SIZE);
    for name in ["a4", "d1", "g1", "j4"] {
        b.put(name, 0, AMAZON);
    }
    for name in ["a7", "d10", "g10", "j7"] {
        b.put(name, 1, AMAZON);
    }
    b
}

/// The cells a queen on `from` reaches over empty cells.
pub fn queen_slides(b: &Board, from: usize) -> Vec<usize> {
    let mut cells = Vec::new();
    for d in QUEEN {
        let mut j = from;
        while let Some(k) = b.step(j, d) {
            if b.cells[k].is_some() {
                break;
            }
            cells.push(k);
            j = k;
        }
    }
    cells
}

pub fn legal_moves(b: &Board) -> Vec<RefMove> {
    let mut moves = Vec::new();
    for from in 0..b.cells.len() {
        let Some(amazon) = b.cells[from] else {
            continue;
        };
        if amazon.owner != b.to_move || amazon.kind != AMAZON {
            continue;
        }
        for to in queen_slides(b, from) {
            // The board after the slide, before the arrow.
            let mut moved = b.clone();
            moved.cells[from] = None;
            moved.cells[to] = Some(amazon);
            for at in queen_slides(&moved, to) {
                moves.push(RefMove::StepThenPlace { from, to, at });
            }
        }
    }
    moves
}

pub fn play(b: &Board, m: &RefMove) -> Board {
    let RefMove::StepThenPlace { from, to, at } = *m else {
        panic!("Amazons has only slide-and-shoot moves, not {m:?}");
    };
    let amazon = b.cells[from].expect("no amazon on the origin");
    assert!(
        amazon.owner == b.to_move && amazon.kind == AMAZON,
        "not the mover's amazon"
    );
    let mut next = b.clone();
    next.cells[from] = None;
    assert!(next.cells[to].is_none(), "landing cell taken");
    next.cells[to] = Some(amazon);
    assert!(next.cells[at].is_none(), "arrow cell taken");
    next.cells[at] = Some(Stone {
        owner: b.to_move,
        kind: ARROW,
    });
    next.to_move = opponent(b.to_move);
    next
}

pub fn outcome(b: &Board) -> Option<Outcome> {
    legal_moves(b)
        .is_empty()
        .then_some(Outcome::Win(opponent(b.to_move)))
}

pub fn perft(b: &Board, depth: u32) -> u64 {
    super::perft_by(b, depth, &legal_moves, &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_1_from_the_start() {
        assert_eq!(perft(&start(), 1), 2176);
        assert_eq!(outcome(&start()), None);
    }

    #[test]
    fn the_arrow_may_land_on_or_fly_through_the_origin() {
        let mut b = Board::empty(SIZE, SIZE);
        b.put("b1", 0, AMAZON);
        b.put("j10", 1, AMAZON);
        let (a1, b1, c1) = (b.cell("a1"), b.cell("b1"), b.cell("c1"));
        let moves = legal_moves(&b);
        let through = RefMove::StepThenPlace {
            from: b1,
            to: c1,
            at: a1,
        };
        let onto = RefMove::StepThenPlace {
            from: b1,
            to: c1,
            at: b1,
        };
        assert!(moves.contains(&through));
        assert!(moves.contains(&onto));
        // Not onto its own landing cell.
        assert!(!moves.contains(&RefMove::StepThenPlace {
            from: b1,
            to: c1,
            at: c1
        }));
        let after = play(&b, &through);
        assert_eq!(
            after.at("a1"),
            Some(Stone {
                owner: 0,
                kind: ARROW
            })
        );
        assert_eq!(after.at("b1"), None);
        assert_eq!(
            after.at("c1"),
            Some(Stone {
                owner: 0,
                kind: AMAZON
            })
        );
        assert_eq!(after.to_move, 1);
    }

    #[test]
    fn counts_on_a_small_position() {
        // A lone amazon in the corner a1 with arrows on a2 and b2: it can only slide east.
        let mut b = Board::empty(SIZE, SIZE);
        b.put("a1", 0, AMAZON);
        b.put("a2", 1, ARROW);
        b.put("b2", 1, ARROW);
        b.put("j10", 1, AMAZON);
        // It lands on x1, x = b..j (column 1..9). From there the arrow flies west over x
        // cells (a1 is empty now) and east over 9 - x: 9 in all; north 9 cells, except 0 from
        // b1 (b2) and 8 from j1 (j10); north-west x cells from d1 on (a2, b2 block b1 and c1);
        // north-east 9 - x. Sum: 81 + 71 + 42 + 36.
        assert_eq!(queen_slides(&b, b.cell("a1")).len(), 9);
        assert_eq!(legal_moves(&b).len(), 230);
        // b1: west a1 (1), east c1..j1 (8), north b2 blocked (0), NE c2..i8 (8), NW a2 blocked.
        let b1 = b.cell("b1");
        let from_b1 = legal_moves(&b)
            .iter()
            .filter(|m| matches!(m, RefMove::StepThenPlace { to, .. } if *to == b1))
            .count();
        assert_eq!(from_b1, 1 + 8 + 8);
    }

    #[test]
    fn a_player_without_a_move_loses() {
        let mut b = Board::empty(SIZE, SIZE);
        b.put("a1", 0, AMAZON);
        b.put("a2", 1, ARROW);
        b.put("b2", 0, ARROW);
        b.put("b1", 1, AMAZON);
        assert!(legal_moves(&b).is_empty());
        assert_eq!(outcome(&b), Some(Outcome::Win(1)));
        b.to_move = 1;
        assert!(!legal_moves(&b).is_empty());
        assert_eq!(outcome(&b), None);
    }

    #[test]
    fn opponents_amazons_and_arrows_block() {
        let mut b = start();
        // The first player's a4 amazon: north to a5 a6 only (a7 is the enemy).
        let a4 = b.cell("a4");
        let north: Vec<usize> = queen_slides(&b, a4)
            .into_iter()
            .filter(|&i| b.col(i) == 0 && b.row(i) > 3)
            .collect();
        assert_eq!(north, [b.cell("a5"), b.cell("a6")]);
        b.put("b4", 1, ARROW);
        assert!(!queen_slides(&b, a4).contains(&b.cell("c4")));
    }
}
