//! Tablut, reference rules.
//!
//! - 9 by 9. Attackers (owner 0, kind 0) on a4 a5 a6 b5, i4 i5 i6 h5, d1 e1 f1 e2,
//!   d9 e9 f9 e8; they move first. Defenders (owner 1): the king (kind 1) on the throne e5,
//!   soldiers (kind 0) on e3 e4 e6 e7 c5 d5 f5 g5.
//! - Every piece, the king included, moves like a rook: one or more empty cells along a row
//!   or a column. `Step { from, to }`.
//! - The throne (e5): only the king may stop on it; no piece may pass through it, the king
//!   neither (a slide that reaches the throne ends there for the king and just before it for
//!   anyone else). The king may leave it and come back to stop on it. There are no other
//!   special cells: no camps, corners are ordinary cells.
//! - Custodial capture, after any move, around the landing cell only: in each of the 4
//!   directions, an adjacent enemy piece that is not the king is removed when the cell beyond
//!   it (same direction, on the board) holds a piece of the mover's side (the king counts:
//!   it is armed, and captures when it moves too) or is the empty throne. The throne with the
//!   king on it is hostile to attackers only; that case is the "piece of the mover's side"
//!   rule for a defender mover, and an attacker mover cannot use the occupied throne.
//!   Several captures in one move are possible. A piece that moves between two enemies is
//!   not captured.
//! - King capture, judged only after an attacker's move, and only when the king is adjacent
//!   to the attacker that moved: on the throne, attackers on all four sides; next to the
//!   throne, attackers on the three other sides; elsewhere, attackers on all four sides (a
//!   king on the edge has no fourth side and cannot be captured). Two attackers never capture
//!   the king. A captured king is removed from the board and the attackers win at once.
//! - The defenders win at once when the king stands on an edge cell.
//! - A player with no legal move (to play) loses.
//! - `outcome` judges the board: no king, attackers win; king on an edge, defenders win;
//!   otherwise the side to move loses if it has no move. No repetition rule, no move limit.

use super::{Board, ORTHOGONAL, Outcome, RefMove, Stone, opponent};

pub const SIZE: usize = 9;
pub const ATTACKERS: u8 = 0;
pub const DEFENDERS: u8 = 1;
pub const SOLDIER: u8 = 0;
pub const KING: u8 = 1;

pub fn start() -> Board {
    let mut b = Board::empty(SIZE, SIZE);
    for name in [
        "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5", "d1", "e1", "f1", "e2", "d9", "e9", "f9",
        "e8",
    ] {
        b.put(name, ATTACKERS, SOLDIER);
    }
    b.put("e5", DEFENDERS, KING);
    for name in ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"] {
        b.put(name, DEFENDERS, SOLDIER);
    }
    b
}

/// The throne, the centre cell.
pub fn throne(b: &Board) -> usize {
    b.index(b.rows / 2, b.cols / 2)
}

fn is_king(s: Option<Stone>) -> bool {
    s.is_some_and(|s| s.owner == DEFENDERS && s.kind == KING)
}

fn is_attacker(s: Option<Stone>) -> bool {
    s.is_some_and(|s| s.owner == ATTACKERS)
}

/// The king's cell, if the king is on the board.
pub fn king(b: &Board) -> Option<usize> {
    (0..b.cells.len()).find(|&i| is_king(b.cells[i]))
}

/// The moves of the side to move, ignoring whether the game is over.
fn moves_of_side(b: &Board) -> Vec<RefMove> {
    let throne = throne(b);
    let mut moves = Vec::new();
    for from in 0..b.cells.len() {
        let Some(piece) = b.cells[from] else { continue };
        if piece.owner != b.to_move {
            continue;
        }
        for d in ORTHOGONAL {
            let mut j = from;
            while let Some(k) = b.step(j, d) {
                if b.cells[k].is_some() {
                    break;
                }
                if k == throne {
                    if piece.kind == KING {
                        moves.push(RefMove::Step { from, to: k });
                    }
                    break; // nobody passes through the throne
                }
                moves.push(RefMove::Step { from, to: k });
                j = k;
            }
        }
    }
    moves
}

pub fn legal_moves(b: &Board) -> Vec<RefMove> {
    match king(b) {
        Some(k) if !b.on_edge(k) => moves_of_side(b),
        _ => Vec::new(), // the king is captured or has escaped
    }
}

pub fn play(b: &Board, m: &RefMove) -> Board {
    let RefMove::Step { from, to } = *m else {
        panic!("Tablut has only steps, not {m:?}");
    };
    let mover = b.to_move;
    let piece = b.cells[from].expect("no piece on the origin");
    assert_eq!(piece.owner, mover, "not the mover's piece");
    assert!(b.cells[to].is_none(), "landing cell taken");
    let throne = throne(b);
    let mut next = b.clone();
    next.cells[from] = None;
    next.cells[to] = Some(piece);

    // Custodial captures of soldiers, judged on the board after the step.
    let after_step = next.clone();
    for d in ORTHOGONAL {
        let Some(n) = after_step.step(to, d) else {
            continue;
        };
        let Some(victim) = after_step.cells[n] else {
            continue;
        };
        if victim.owner == mover || victim.kind == KING {
            continue;
        }
        let Some(f) = after_step.step(n, d) else {
            continue;
        };
        let hostile = match after_step.cells[f] {
            Some(s) => s.owner == mover,
            None => f == throne,
        };
        if hostile {
            next.cells[n] = None;
        }
    }

    // The king's capture, after an attacker's move only.
    if mover == ATTACKERS
        && let Some(k) = king(&next)
        && ORTHOGONAL.iter().any(|&d| next.step(to, d) == Some(k))
    {
        let sides: Vec<Option<usize>> = ORTHOGONAL.iter().map(|&d| next.step(k, d)).collect();
        let captured = if sides.contains(&None) {
            false // on the edge
        } else {
            // Every side is an attacker, or the (then empty) throne next to the king.
            sides
                .iter()
                .flatten()
                .all(|&s| is_attacker(next.cells[s]) || s == throne)
        };
        if captured {
            next.cells[k] = None;
        }
    }
    next.to_move = opponent(mover);
    next
}

pub fn outcome(b: &Board) -> Option<Outcome> {
    match king(b) {
        None => Some(Outcome::Win(ATTACKERS)),
        Some(k) if b.on_edge(k) => Some(Outcome::Win(DEFENDERS)),
        Some(_) => moves_of_side(b)
            .is_empty()
            .then_some(Outcome::Win(opponent(b.to_move))),
    }
}

pub fn perft(b: &Board, depth: u32) -> u64 {
    super::perft_by(b, depth, &legal_moves, &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(b: &Board, from: &str, to: &str) -> RefMove {
        RefMove::Step {
            from: b.cell(from),
            to: b.cell(to),
        }
    }

    /// Plays a move after checking it is legal.
    fn play_legal(b: &Board, from: &str, to: &str) -> Board {
        let m = step(b, from, to);
        assert!(legal_moves(b).contains(&m), "{from}-{to} is not legal");
        play(b, &m)
    }

    /// An empty board with the given pieces: `A` attacker, `D` defender soldier, `K` king.
    fn board(pieces: &[(&str, char)], to_move: u8) -> Board {
        let mut b = Board::empty(SIZE, SIZE);
        for &(name, code) in pieces {
            match code {
                'A' => b.put(name, ATTACKERS, SOLDIER),
                'D' => b.put(name, DEFENDERS, SOLDIER),
                'K' => b.put(name, DEFENDERS, KING),
                _ => panic!("bad code {code}"),
            }
        }
        b.to_move = to_move;
        b
    }

    #[test]
    fn start_position() {
        let b = start();
        assert_eq!(b.count(ATTACKERS), 16);
        assert_eq!(b.count(DEFENDERS), 9);
        assert_eq!(king(&b), Some(b.cell("e5")));
        assert_eq!(outcome(&b), None);
        // a4: east b4 c4 d4 (e4 taken), south a3 a2 a1 = 6; north a5 taken.
        let a4 = b.cell("a4");
        let from_a4 = legal_moves(&b)
            .iter()
            .filter(|m| matches!(m, RefMove::Step { from, .. } if *from == a4))
            .count();
        assert_eq!(from_a4, 6);
    }

    #[test]
    fn perft_from_the_start() {
        let b = start();
        let p1 = perft(&b, 1);
        assert_eq!(p1, legal_moves(&b).len() as u64);
        // 4 symmetric groups of attackers: a4 6, a5 0, a6 6, b5 8.
        assert_eq!(p1, 80);
        assert_eq!(perft(&b, 2), 4400);
        assert_eq!(perft(&b, 3), 353200);
    }

    #[test]
    fn capture_against_the_empty_throne() {
        // Attacker moves a7-e7 (over b7 c7 d7): the defender on e6 lies between it and the
        // empty throne.
        let b = board(&[("a7", 'A'), ("e6", 'D'), ("c3", 'K')], ATTACKERS);
        let after = play_legal(&b, "a7", "e7");
        assert_eq!(after.at("e6"), None);
        assert_eq!(after.count(DEFENDERS), 1);
        // And a defender captures an attacker against the empty throne.
        let b = board(
            &[("c8", 'D'), ("d5", 'A'), ("a1", 'A'), ("c3", 'K')],
            DEFENDERS,
        );
        let after = play_legal(&b, "c8", "c5");
        assert_eq!(after.at("d5"), None);
        let b = board(&[("i5", 'D'), ("f5", 'A'), ("c3", 'K')], DEFENDERS);
        let after = play_legal(&b, "i5", "g5");
        assert_eq!(after.at("f5"), None);
        assert_eq!(after.count(ATTACKERS), 0);
    }

    #[test]
    fn the_occupied_throne_is_hostile_to_attackers_only() {
        // Defender a7-e7 captures the attacker e6 against the king on the throne.
        let b = board(
            &[("a7", 'D'), ("e6", 'A'), ("e5", 'K'), ("a1", 'A')],
            DEFENDERS,
        );
        let after = play_legal(&b, "a7", "e7");
        assert_eq!(after.at("e6"), None);
        // An attacker cannot capture a defender against the occupied throne.
        let b = board(&[("a7", 'A'), ("e6", 'D'), ("e5", 'K')], ATTACKERS);
        let after = play_legal(&b, "a7", "e7");
        assert!(after.at("e6").is_some());
    }

    #[test]
    fn ordinary_custodial_captures() {
        // Several at once: the attacker lands on e3 between d3/f3 defenders with attackers
        // beyond, and e4 above with e5 the empty throne.
        let b = board(
            &[
                ("e1", 'A'),
                ("d3", 'D'),
                ("c3", 'A'),
                ("f3", 'D'),
                ("g3", 'A'),
                ("e4", 'D'),
                ("h8", 'K'),
            ],
            ATTACKERS,
        );
        let after = play_legal(&b, "e1", "e3");
        for name in ["d3", "f3", "e4"] {
            assert_eq!(after.at(name), None, "{name}");
        }
        assert_eq!(after.count(DEFENDERS), 1);
        assert_eq!(outcome(&after), None);
        // The king is armed: it captures as the far piece and when it moves.
        let b = board(
            &[("c7", 'K'), ("c6", 'A'), ("a5", 'D'), ("a1", 'A')],
            DEFENDERS,
        );
        let after = play_legal(&b, "a5", "c5");
        assert_eq!(after.at("c6"), None);
        let b = board(
            &[("c8", 'K'), ("c6", 'A'), ("c5", 'D'), ("a1", 'A')],
            DEFENDERS,
        );
        let after = play_legal(&b, "c8", "c7");
        assert_eq!(after.at("c6"), None);
        // Moving between two enemies is safe; a non-hostile far cell captures nothing.
        let b = board(
            &[("c4", 'A'), ("c6", 'A'), ("a5", 'D'), ("g7", 'K')],
            DEFENDERS,
        );
        let after = play_legal(&b, "a5", "c5");
        assert!(after.at("c5").is_some());
        let b = board(&[("a3", 'A'), ("c3", 'D'), ("g7", 'K')], ATTACKERS);
        let after = play_legal(&b, "a3", "b3");
        assert!(after.at("c3").is_some());
    }

    #[test]
    fn the_throne_blocks_and_only_the_king_stops_on_it() {
        let b = board(&[("e3", 'D'), ("c3", 'K'), ("a1", 'A')], DEFENDERS);
        let moves = legal_moves(&b);
        assert!(moves.contains(&step(&b, "e3", "e4")));
        assert!(!moves.contains(&step(&b, "e3", "e5")));
        assert!(!moves.contains(&step(&b, "e3", "e6")));
        let b = board(&[("e3", 'K'), ("a1", 'A')], DEFENDERS);
        let moves = legal_moves(&b);
        assert!(moves.contains(&step(&b, "e3", "e5")));
        assert!(!moves.contains(&step(&b, "e3", "e6")));
        let b = board(&[("a5", 'A'), ("c3", 'K')], ATTACKERS);
        let moves = legal_moves(&b);
        assert!(moves.contains(&step(&b, "a5", "d5")));
        assert!(!moves.contains(&step(&b, "a5", "e5")));
        assert!(!moves.contains(&step(&b, "a5", "f5")));
        // The king leaves the throne and may come back.
        let b = board(&[("e5", 'K'), ("a1", 'A')], DEFENDERS);
        let after = play_legal(&b, "e5", "e7");
        let mut back = after.clone();
        back.to_move = DEFENDERS;
        assert!(legal_moves(&back).contains(&step(&back, "e7", "e5")));
    }

    #[test]
    fn two_attackers_do_not_capture_the_king() {
        let b = board(&[("b3", 'A'), ("d8", 'A'), ("c3", 'K')], ATTACKERS);
        let after = play_legal(&b, "d8", "d3");
        assert_eq!(king(&after), Some(b.cell("c3")));
        assert_eq!(outcome(&after), None);
        // Nor three, away from the throne.
        let b = board(
            &[("b3", 'A'), ("c4", 'A'), ("d8", 'A'), ("c3", 'K')],
            ATTACKERS,
        );
        let after = play_legal(&b, "d8", "d3");
        assert_eq!(king(&after), Some(b.cell("c3")));
    }

    #[test]
    fn four_attackers_capture_the_king_away_from_the_throne() {
        let b = board(
            &[
                ("b3", 'A'),
                ("c4", 'A'),
                ("c2", 'A'),
                ("d8", 'A'),
                ("c3", 'K'),
            ],
            ATTACKERS,
        );
        let after = play_legal(&b, "d8", "d3");
        assert_eq!(king(&after), None);
        assert_eq!(outcome(&after), Some(Outcome::Win(ATTACKERS)));
        assert!(legal_moves(&after).is_empty());
    }

    #[test]
    fn three_attackers_capture_the_king_next_to_the_throne() {
        // King on e4, the throne e5 above it: d4, f4 and then e3.
        let b = board(
            &[("d4", 'A'), ("f4", 'A'), ("a3", 'A'), ("e4", 'K')],
            ATTACKERS,
        );
        let after = play_legal(&b, "a3", "e3");
        assert_eq!(king(&after), None);
        assert_eq!(outcome(&after), Some(Outcome::Win(ATTACKERS)));
        // Two are not enough.
        let b = board(&[("d4", 'A'), ("a3", 'A'), ("e4", 'K')], ATTACKERS);
        let after = play_legal(&b, "a3", "e3");
        assert_eq!(king(&after), Some(b.cell("e4")));
    }

    #[test]
    fn four_attackers_capture_the_king_on_the_throne() {
        let pieces = [
            ("d5", 'A'),
            ("f5", 'A'),
            ("e6", 'A'),
            ("a4", 'A'),
            ("e5", 'K'),
        ];
        let after = play_legal(&board(&pieces, ATTACKERS), "a4", "e4");
        assert_eq!(outcome(&after), Some(Outcome::Win(ATTACKERS)));
        // Three are not enough on the throne.
        let after = play_legal(&board(&pieces[1..], ATTACKERS), "a4", "e4");
        assert_eq!(king(&after), Some(after.cell("e5")));
        assert_eq!(outcome(&after), None);
    }

    #[test]
    fn the_king_is_captured_only_after_an_attacker_move_next_to_it() {
        // The king steps off the throne to e4 among d4 f4 e3: not captured by its own move.
        let b = board(
            &[
                ("d4", 'A'),
                ("f4", 'A'),
                ("e3", 'A'),
                ("a9", 'A'),
                ("e5", 'K'),
            ],
            DEFENDERS,
        );
        let after = play_legal(&b, "e5", "e4");
        assert_eq!(king(&after), Some(b.cell("e4")));
        assert_eq!(outcome(&after), None);
        // An attacker's move elsewhere does not capture it either.
        let later = play_legal(&after, "a9", "b9");
        assert_eq!(king(&later), Some(b.cell("e4")));
        assert_eq!(outcome(&later), None);
        // A hand-set king with attackers on all four sides is not captured by a defender's
        // move, nor by an attacker's move away from it.
        let b = board(
            &[
                ("b3", 'A'),
                ("d3", 'A'),
                ("c4", 'A'),
                ("c2", 'A'),
                ("h9", 'A'),
                ("g7", 'D'),
                ("c3", 'K'),
            ],
            DEFENDERS,
        );
        assert_eq!(outcome(&b), None);
        let after = play_legal(&b, "g7", "g8");
        assert_eq!(king(&after), Some(b.cell("c3")));
        let later = play_legal(&after, "h9", "h8");
        assert_eq!(king(&later), Some(b.cell("c3")));
        assert_eq!(outcome(&later), None);
    }

    #[test]
    fn the_king_on_the_edge_wins_and_cannot_be_captured() {
        let b = board(&[("c3", 'K'), ("a1", 'A')], DEFENDERS);
        let after = play_legal(&b, "c3", "c9");
        assert_eq!(outcome(&after), Some(Outcome::Win(DEFENDERS)));
        assert!(legal_moves(&after).is_empty());
        // A soldier reaching the edge is nothing special.
        let b = board(&[("c3", 'D'), ("g5", 'K'), ("a1", 'A')], DEFENDERS);
        assert_eq!(outcome(&play_legal(&b, "c3", "c9")), None);
    }

    #[test]
    fn no_move_loses() {
        // The attacker in the corner a1 is boxed in by defenders on a2 and b1.
        let b = board(
            &[("a1", 'A'), ("a2", 'D'), ("b1", 'D'), ("e4", 'K')],
            ATTACKERS,
        );
        assert!(legal_moves(&b).is_empty());
        assert_eq!(outcome(&b), Some(Outcome::Win(DEFENDERS)));
        // No attacker left at all.
        let b = board(&[("e4", 'K')], ATTACKERS);
        assert_eq!(outcome(&b), Some(Outcome::Win(DEFENDERS)));
    }
}
