//! Gomoku, reference rules.
//!
//! - 15 by 15, empty at the start; the first player ("black", owner 0) moves first.
//! - A move places a stone (kind 0) on any empty cell: `Place`, listed by cell index.
//! - Freestyle (`Rules { exact_five: false }`, the default): five or more of the mover's
//!   stones in a row (horizontal, vertical, either diagonal) win at once.
//!   Exact (`exact_five: true`): only a run of exactly five wins; a run of six or more
//!   (an overline) does not, and the game goes on.
//! - A full board without a win is a draw.
//! - `outcome` looks at every maximal run on the board, so it also judges hand-set positions
//!   (the player who just moved is looked at first).

use super::{Board, Outcome, RefMove, Stone, opponent};

pub const SIZE: usize = 15;

/// The rule options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub exact_five: bool,
}

pub const FREESTYLE: Rules = Rules { exact_five: false };
pub const EXACT: Rules = Rules { exact_five: true };

pub fn start() -> Board {
    Board::empty(SIZE, SIZE)
}

/// Legal moves under freestyle rules.
pub fn legal_moves(b: &Board) -> Vec<RefMove> {
    legal_moves_with(b, FREESTYLE)
}

pub fn legal_moves_with(b: &Board, rules: Rules) -> Vec<RefMove> {
    if outcome_with(b, rules).is_some() {
        return Vec::new();
    }
    (0..b.cells.len())
        .filter(|&i| b.cells[i].is_none())
        .map(RefMove::Place)
        .collect()
}

pub fn play(b: &Board, m: &RefMove) -> Board {
    let RefMove::Place(i) = *m else {
        panic!("Gomoku has only placements, not {m:?}");
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

/// The outcome under freestyle rules.
pub fn outcome(b: &Board) -> Option<Outcome> {
    outcome_with(b, FREESTYLE)
}

pub fn outcome_with(b: &Board, rules: Rules) -> Option<Outcome> {
    let wins = |len: usize| {
        if rules.exact_five { len == 5 } else { len >= 5 }
    };
    let runs = b.runs();
    for p in [opponent(b.to_move), b.to_move] {
        if runs.iter().any(|&(owner, len)| owner == p && wins(len)) {
            return Some(Outcome::Win(p));
        }
    }
    b.cells.iter().all(Option::is_some).then_some(Outcome::Draw)
}

/// Perft under freestyle rules.
pub fn perft(b: &Board, depth: u32) -> u64 {
    perft_with(b, depth, FREESTYLE)
}

pub fn perft_with(b: &Board, depth: u32, rules: Rules) -> u64 {
    super::perft_by(b, depth, &|b: &Board| legal_moves_with(b, rules), &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start() {
        assert_eq!(perft(&start(), 1), 225);
        assert_eq!(perft(&start(), 2), 225 * 224);
        assert_eq!(perft_with(&start(), 2, EXACT), 225 * 224);
    }

    /// Black on a8 b8 c8 d8 and `more`, white elsewhere, black to move.
    fn black_row(more: &[&str]) -> Board {
        let mut b = start();
        for name in ["a8", "b8", "c8", "d8"].iter().chain(more) {
            b.put(name, 0, 0);
        }
        for name in ["a1", "c1", "e1", "g1", "i1", "k1"] {
            b.put(name, 1, 0);
        }
        b
    }

    #[test]
    fn five_wins_in_both_rules() {
        let b = black_row(&[]);
        assert_eq!(outcome(&b), None);
        let after = play(&b, &RefMove::Place(b.cell("e8")));
        assert_eq!(outcome(&after), Some(Outcome::Win(0)));
        assert_eq!(outcome_with(&after, EXACT), Some(Outcome::Win(0)));
        assert!(legal_moves(&after).is_empty());
        assert!(legal_moves_with(&after, EXACT).is_empty());
    }

    #[test]
    fn overline_wins_freestyle_only() {
        // a8 b8 c8 d8 . f8: e8 makes six.
        let b = black_row(&["f8"]);
        assert_eq!(outcome(&b), None);
        let after = play(&b, &RefMove::Place(b.cell("e8")));
        assert_eq!(outcome(&after), Some(Outcome::Win(0)));
        assert!(legal_moves(&after).is_empty());
        assert_eq!(outcome_with(&after, EXACT), None);
        assert_eq!(legal_moves_with(&after, EXACT).len(), 225 - 12);
        // Seven is an overline too.
        let b = black_row(&["f8", "g8"]);
        let after = play(&b, &RefMove::Place(b.cell("e8")));
        assert_eq!(outcome_with(&after, EXACT), None);
        assert_eq!(outcome(&after), Some(Outcome::Win(0)));
    }

    #[test]
    fn exact_five_next_to_an_overline_elsewhere() {
        // Black has an overline on rank 8 and then makes an exact five on the diagonal.
        let mut b = black_row(&["e8", "f8"]);
        for name in ["b2", "c3", "d4", "e5"] {
            b.put(name, 0, 0);
        }
        b.put("m1", 1, 0);
        b.put("o1", 1, 0);
        assert_eq!(outcome_with(&b, EXACT), None);
        let after = play(&b, &RefMove::Place(b.cell("f6")));
        assert_eq!(outcome_with(&after, EXACT), Some(Outcome::Win(0)));
    }

    #[test]
    fn diagonal_five_for_white() {
        let mut b = start();
        for name in ["o1", "n2", "m3", "l4", "k5"] {
            b.put(name, 1, 0);
        }
        for name in ["a1", "a3", "a5", "a7", "a9"] {
            b.put(name, 0, 0);
        }
        assert_eq!(outcome(&b), Some(Outcome::Win(1)));
        assert_eq!(outcome_with(&b, EXACT), Some(Outcome::Win(1)));
    }

    #[test]
    fn full_board_draws() {
        // Rows alternate in pairs of columns, shifted each row: no run longer than two.
        let mut b = start();
        for r in 0..SIZE {
            for c in 0..SIZE {
                let i = b.index(r, c);
                b.cells[i] = Some(Stone {
                    owner: ((c / 2 + r) % 2) as u8,
                    kind: 0,
                });
            }
        }
        assert_eq!(outcome(&b), Some(Outcome::Draw));
        assert_eq!(outcome_with(&b, EXACT), Some(Outcome::Draw));
        assert!(legal_moves(&b).is_empty());
    }
}
