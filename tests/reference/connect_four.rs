//! Connect Four, reference rules.
//!
//! - 7 columns by 6 rows, empty at the start, the first player (owner 0) moves first.
//! - A move drops a stone (kind 0) into a column that is not full: `Place` of the lowest
//!   empty cell of that column. Moves are listed by column, `a` to `g`.
//! - Four or more of the mover's stones in a row (horizontal, vertical or either diagonal)
//!   win at once; a full board without such a row is a draw. `outcome` looks at the whole
//!   board, so it also judges hand-set positions.

use super::{Board, Outcome, RefMove, Stone, opponent};

pub const ROWS: usize = 6;
pub const COLS: usize = 7;

pub fn start() -> Board {
    Board::empty(ROWS, COLS)
}

pub fn legal_moves(b: &Board) -> Vec<RefMove> {
    if outcome(b).is_some() {
        return Vec::new();
    }
    (0..b.cols)
        .filter_map(|c| {
            (0..b.rows)
                .map(|r| b.index(r, c))
                .find(|&i| b.cells[i].is_none())
        })
        .map(RefMove::Place)
        .collect()
}

pub fn play(b: &Board, m: &RefMove) -> Board {
    let RefMove::Place(i) = *m else {
        panic!("Connect Four has only drops, not {m:?}");
    };
    assert!(b.cells[i].is_none(), "cell {i} is taken");
    let mut next = b.clone();
    next.cells[i] = Some(Stone {
        owner: b.to_move,
        kind: 0,
    });
    next.to_move = opponent(b.to_move);
    next
}

pub fn outcome(b: &Board) -> Option<Outcome> {
    let runs = b.runs();
    // The player who just moved first (only they can have made a row in a real game).
    for p in [opponent(b.to_move), b.to_move] {
        if runs.iter().any(|&(owner, len)| owner == p && len >= 4) {
            return Some(Outcome::Win(p));
        }
    }
    b.cells.iter().all(Option::is_some).then_some(Outcome::Draw)
}

pub fn perft(b: &Board, depth: u32) -> u64 {
    super::perft_by(b, depth, &legal_moves, &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drop_in(b: &Board, column: usize) -> Board {
        let m = legal_moves(b)
            .into_iter()
            .find(|m| matches!(m, RefMove::Place(i) if b.col(*i) == column))
            .expect("column is playable");
        play(b, &m)
    }

    #[test]
    fn perft_from_the_start() {
        let expected = [1, 7, 49, 343, 2401, 16807, 117649];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&start(), depth as u32), count, "depth {depth}");
        }
    }

    #[test]
    #[ignore = "slow in debug"]
    fn perft_7() {
        assert_eq!(perft(&start(), 7), 823536);
    }

    #[test]
    fn stones_fall_to_the_lowest_empty_cell() {
        let mut b = start();
        for _ in 0..3 {
            b = drop_in(&b, 3);
        }
        assert_eq!(b.at("d1").unwrap().owner, 0);
        assert_eq!(b.at("d2").unwrap().owner, 1);
        assert_eq!(b.at("d3").unwrap().owner, 0);
        assert_eq!(b.at("d4"), None);
        assert!(legal_moves(&b).contains(&RefMove::Place(b.cell("d4"))));
    }

    #[test]
    fn a_full_column_is_not_playable() {
        let mut b = start();
        for _ in 0..6 {
            b = drop_in(&b, 0);
        }
        assert_eq!(outcome(&b), None);
        let moves = legal_moves(&b);
        assert_eq!(moves.len(), 6);
        assert!(
            moves
                .iter()
                .all(|m| matches!(m, RefMove::Place(i) if b.col(*i) != 0))
        );
    }

    #[test]
    fn diagonal_win() {
        // First player: a1 b2 c3, d4 to come; the second player fills the columns below.
        let columns = [0, 1, 1, 2, 2, 3, 2, 3, 6, 3];
        let mut b = start();
        for c in columns {
            b = drop_in(&b, c);
            assert_eq!(outcome(&b), None);
        }
        assert_eq!(b.at("c3").unwrap().owner, 0);
        assert_eq!(b.to_move, 0);
        let b = drop_in(&b, 3);
        assert_eq!(b.at("d4").unwrap().owner, 0);
        assert_eq!(outcome(&b), Some(Outcome::Win(0)));
        assert!(legal_moves(&b).is_empty());
    }

    #[test]
    fn anti_diagonal_win_for_the_second_player() {
        let mut b = start();
        b.put("g1", 1, 0);
        b.put("f2", 1, 0);
        b.put("e3", 1, 0);
        b.put("d4", 1, 0);
        assert_eq!(outcome(&b), Some(Outcome::Win(1)));
        let d4 = b.cell("d4");
        b.cells[d4] = None;
        assert_eq!(outcome(&b), None);
    }

    #[test]
    fn horizontal_and_vertical_wins() {
        let mut b = start();
        for c in [0, 0, 1, 1, 2, 2] {
            b = drop_in(&b, c);
        }
        assert_eq!(outcome(&drop_in(&b, 3)), Some(Outcome::Win(0)));
        let mut b = start();
        for c in [4, 5, 4, 5, 4, 5] {
            b = drop_in(&b, c);
        }
        assert_eq!(outcome(&drop_in(&b, 4)), Some(Outcome::Win(0)));
        // Three in a row is not enough.
        assert_eq!(outcome(&b), None);
    }

    #[test]
    fn full_board_without_four_is_a_draw() {
        // Owner alternates by row and by pairs of columns: no run longer than two.
        let mut b = start();
        for r in 0..ROWS {
            for c in 0..COLS {
                let i = b.index(r, c);
                b.cells[i] = Some(Stone {
                    owner: ((c / 2 + r) % 2) as u8,
                    kind: 0,
                });
            }
        }
        assert!(b.runs().iter().all(|&(_, len)| len <= 2));
        assert_eq!(outcome(&b), Some(Outcome::Draw));
        assert!(legal_moves(&b).is_empty());
    }
}
