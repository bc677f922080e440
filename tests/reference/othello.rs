//! Othello, reference rules.
//!
//! - 8 by 8. Start: d5 and e4 are the first player's (black, owner 0), d4 and e5 the second
//!   player's (white, owner 1); black moves first. Discs are kind 0.
//! - A placement on an empty cell must flip at least one enemy disc. In each of the 8
//!   directions, a run of one or more enemy discs starting next to the placed disc and
//!   followed by a disc of the mover is flipped; every such run in every direction flips.
//! - A player with no placement passes: `Pass` is then the only move.
//! - Two passes in a row end the game (the rule as stated for the pack). When neither player
//!   can place (a full board, a wipe-out), both pass and the game ends after the second. The
//!   published perft counts with a pass as a move (4, 12, 56, 244, 1396, 8200, 55092, 390216,
//!   3005288, 24571284) follow this rule: the count at depth 10 includes the passes after the
//!   wipe-outs of nine moves, which a rule ending the game at once would not count.
//! - Winner: most discs; equal counts draw.

use super::{Board, Outcome, QUEEN, RefMove, Stone, opponent};

pub const SIZE: usize = 8;

pub fn start() -> Board {
    let mut b = Board::empty(SIZE, SIZE);
    b.put("d5", 0, 0);
    b.put("e4", 0, 0);
    b.put("d4", 1, 0);
    b.put("e5", 1, 0);
    b
}

/// The discs a disc of `player` placed on `i` would flip (empty if `i` is taken or nothing
/// flips).
pub fn flips(b: &Board, i: usize, player: u8) -> Vec<usize> {
    let mut flipped = Vec::new();
    if b.cells[i].is_some() {
        return flipped;
    }
    for d in QUEEN {
        let mut run = Vec::new();
        let mut j = i;
        loop {
            match b.step(j, d) {
                Some(k) if b.cells[k].is_some_and(|s| s.owner != player) => {
                    run.push(k);
                    j = k;
                }
                Some(k) if b.cells[k].is_some_and(|s| s.owner == player) => {
                    flipped.extend(run);
                    break;
                }
                _ => break, // empty cell or off the board: nothing flips this way
            }
        }
    }
    flipped
}

/// The cells where `player` may place a disc.
pub fn placements(b: &Board, player: u8) -> Vec<usize> {
    (0..b.cells.len())
        .filter(|&i| !flips(b, i, player).is_empty())
        .collect()
}

pub fn legal_moves(b: &Board) -> Vec<RefMove> {
    if b.passes >= 2 {
        return Vec::new(); // two passes in a row: the game is over
    }
    let mine = placements(b, b.to_move);
    if !mine.is_empty() {
        return mine.into_iter().map(RefMove::Place).collect();
    }
    vec![RefMove::Pass]
}

pub fn play(b: &Board, m: &RefMove) -> Board {
    let mut next = b.clone();
    next.to_move = opponent(b.to_move);
    match *m {
        RefMove::Pass => next.passes = b.passes + 1,
        RefMove::Place(i) => {
            next.passes = 0;
            let flipped = flips(b, i, b.to_move);
            assert!(!flipped.is_empty(), "placement on {i} flips nothing");
            let disc = Some(Stone {
                owner: b.to_move,
                kind: 0,
            });
            next.cells[i] = disc;
            for j in flipped {
                next.cells[j] = disc;
            }
        }
        _ => panic!("Othello has only placements and passes, not {m:?}"),
    }
    next
}

pub fn outcome(b: &Board) -> Option<Outcome> {
    if b.passes < 2 {
        return None;
    }
    let (black, white) = (b.count(0), b.count(1));
    Some(match black.cmp(&white) {
        std::cmp::Ordering::Greater => Outcome::Win(0),
        std::cmp::Ordering::Less => Outcome::Win(1),
        std::cmp::Ordering::Equal => Outcome::Draw,
    })
}

pub fn perft(b: &Board, depth: u32) -> u64 {
    super::perft_by(b, depth, &legal_moves, &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: &Board, moves: &[RefMove]) -> Vec<String> {
        moves
            .iter()
            .map(|m| super::super::move_name(b, m))
            .collect()
    }

    #[test]
    fn perft_from_the_start() {
        let expected = [1, 4, 12, 56, 244, 1396, 8200];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&start(), depth as u32), count, "depth {depth}");
        }
    }

    #[test]
    #[ignore = "slow in debug"]
    fn perft_7_and_8() {
        assert_eq!(perft(&start(), 7), 55092);
        assert_eq!(perft(&start(), 8), 390216);
    }

    #[test]
    fn opening_moves() {
        let b = start();
        assert_eq!(names(&b, &legal_moves(&b)), ["d3", "c4", "f5", "e6"]);
        let after = play(&b, &RefMove::Place(b.cell("d3")));
        assert_eq!(after.at("d4").unwrap().owner, 0);
        assert_eq!((after.count(0), after.count(1)), (4, 1));
        assert_eq!(after.to_move, 1);
    }

    #[test]
    fn flips_in_several_directions_at_once() {
        // Black places on d4: west (c4 b4, closed by a4), north (d5, closed by d6),
        // north-east (e5 f6, closed by g7) flip; south-east (e3, then empty f2) does not,
        // south (d3, the white d2, then empty d1) does not.
        let mut b = Board::empty(SIZE, SIZE);
        for name in ["c4", "b4", "d5", "e5", "f6", "e3", "d3", "d2"] {
            b.put(name, 1, 0);
        }
        for name in ["a4", "d6", "g7"] {
            b.put(name, 0, 0);
        }
        let mut flipped: Vec<String> = flips(&b, b.cell("d4"), 0)
            .iter()
            .map(|&i| super::super::cell_name(&b, i))
            .collect();
        flipped.sort();
        assert_eq!(flipped, ["b4", "c4", "d5", "e5", "f6"]);
        let after = play(&b, &RefMove::Place(b.cell("d4")));
        for name in ["d4", "b4", "c4", "d5", "e5", "f6", "a4", "d6", "g7"] {
            assert_eq!(after.at(name).unwrap().owner, 0, "{name}");
        }
        for name in ["e3", "d3", "d2"] {
            assert_eq!(after.at(name).unwrap().owner, 1, "{name}");
        }
    }

    #[test]
    fn a_run_must_be_closed_by_the_mover() {
        let mut b = Board::empty(SIZE, SIZE);
        b.put("b1", 1, 0);
        b.put("c1", 1, 0);
        // a1 for black: the run b1 c1 ends on an empty d1.
        assert!(flips(&b, b.cell("a1"), 0).is_empty());
        b.put("d1", 0, 0);
        assert_eq!(flips(&b, b.cell("a1"), 0).len(), 2);
        // Not on a taken cell.
        assert!(flips(&b, b.cell("b1"), 0).is_empty());
    }

    #[test]
    fn forced_pass_then_game_over() {
        // Black (to move) has b1 next to the white corner a1: black cannot place, white can (c1).
        let mut b = Board::empty(SIZE, SIZE);
        b.put("a1", 1, 0);
        b.put("b1", 0, 0);
        assert!(placements(&b, 0).is_empty());
        assert_eq!(outcome(&b), None);
        assert_eq!(legal_moves(&b), [RefMove::Pass]);
        let passed = play(&b, &RefMove::Pass);
        assert_eq!(passed.cells, b.cells);
        assert_eq!(passed.to_move, 1);
        assert_eq!(legal_moves(&passed), [RefMove::Place(b.cell("c1"))]);
        let done = play(&passed, &RefMove::Place(b.cell("c1")));
        assert_eq!(done.count(1), 3);
        // Black cannot place, nor can White: two passes, then the game is over.
        assert_eq!(legal_moves(&done), [RefMove::Pass]);
        let once = play(&done, &RefMove::Pass);
        assert_eq!(outcome(&once), None);
        let twice = play(&once, &RefMove::Pass);
        assert!(legal_moves(&twice).is_empty());
        assert_eq!(outcome(&twice), Some(Outcome::Win(1)));
        assert_eq!(perft(&b, 1), 1);
        assert_eq!(perft(&b, 2), 1);
        assert_eq!(perft(&b, 4), 1);
        assert_eq!(perft(&b, 5), 0);
    }

    #[test]
    fn no_placement_for_either_is_over_after_two_passes_and_counts_discs() {
        let mut b = Board::empty(SIZE, SIZE);
        b.put("a1", 0, 0);
        b.put("h8", 1, 0);
        assert_eq!(legal_moves(&b), [RefMove::Pass]);
        assert_eq!(outcome(&b), None);
        b.passes = 2;
        assert!(legal_moves(&b).is_empty());
        assert_eq!(outcome(&b), Some(Outcome::Draw));
        b.put("h7", 1, 0);
        assert_eq!(outcome(&b), Some(Outcome::Win(1)));
    }
}
