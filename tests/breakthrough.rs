//! Breakthrough: the start, a capture, a refused straight capture, both ways to win, and a
//! differential test against a move generator written here from the rules alone (plain Rust,
//! no kernel), compared at every position of seeded random games and by perft.

mod common;

use common::{game, moves, play};
use ply_kernel::{Game, MoveErrorKind, Outcome, Player, Position, Reason, Rules, Status};
use std::collections::BTreeSet;
use std::sync::Arc;

const WHITE: Player = Player::FIRST;
const BLACK: Player = Player::SECOND;

fn rules() -> Arc<Rules> {
    common::pack("breakthrough.toml", &[])
}

#[test]
fn the_start_has_22_moves_and_white_moves_first() {
    let rules = rules();
    let g = Game::new(rules.clone());
    assert_eq!(g.side_to_move(), WHITE);
    let all = moves(&g);
    assert_eq!(all.len(), 22);
    // a2 goes straight or to b3; d2 to c3, d3 or e3; h2 to g3 or h3.
    for m in [
        "a2-a3", "a2-b3", "d2-c3", "d2-d3", "d2-e3", "h2-g3", "h2-h3",
    ] {
        assert!(all.contains(&m.to_string()), "{m} in {all:?}");
    }
    // Only the front row moves, one row up.
    assert!(
        all.iter().all(|m| &m[1..2] == "2" && &m[4..5] == "3"),
        "{all:?}"
    );
    let mut black: Vec<String> = g
        .moves_of(BLACK)
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(&rules, &m))
        .collect();
    black.sort();
    assert_eq!(black.len(), 22);
    assert!(
        black.iter().all(|m| &m[1..2] == "7" && &m[4..5] == "6"),
        "{black:?}"
    );
}

#[test]
fn a_diagonal_capture_removes_the_piece() {
    let rules = rules();
    let mut g = game(
        &rules,
        &[("d4", "WP"), ("e5", "BP"), ("a7", "BP"), ("h1", "WP")],
        "WHITE",
    );
    assert_eq!(moves(&g), ["d4-c5", "d4-d5", "d4xe5", "h1-g2", "h1-h2"]);
    assert_eq!(play(&mut g, "d4xe5"), Ok(Status::ToMove(BLACK)));
    let e5 = common::cells(&rules, "e5")[0];
    assert_eq!(
        g.position().piece_at(e5).map(|p| p.owner()),
        Some(WHITE),
        "the capturing piece stands on e5"
    );
    assert_eq!(g.position().count(BLACK, None), 1);
    // Black captures back, downwards.
    let mut g = game(
        &rules,
        &[("d4", "WP"), ("e5", "BP"), ("a7", "BP"), ("h1", "WP")],
        "BLACK",
    );
    assert!(moves(&g).contains(&"e5xd4".to_string()));
    assert_eq!(play(&mut g, "e5xd4"), Ok(Status::ToMove(WHITE)));
    assert_eq!(g.position().count(WHITE, None), 1);
}

#[test]
fn a_straight_capture_is_refused_and_changes_nothing() {
    let rules = rules();
    let mut g = game(
        &rules,
        &[("d4", "WP"), ("d5", "BP"), ("a7", "BP"), ("h1", "WP")],
        "WHITE",
    );
    assert!(matches!(
        common::refused(&mut g, "d4-d5"),
        Reason::NotEmpty(_)
    ));
    // The blocked piece may still go diagonally; never sideways or back.
    let d4: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(d4, ["d4-c5", "d4-e5"]);
    for bad in ["d4-c4", "d4-e4", "d4-d3", "d4-c3", "d4-d6"] {
        let reason = common::refused(&mut g, bad);
        assert!(matches!(reason, Reason::NoPattern), "{bad}: {reason:?}");
    }
    assert_eq!(g.side_to_move(), WHITE);
}

#[test]
fn reaching_the_far_row_wins() {
    let rules = rules();
    for path in ["g7-g8", "g7-f8", "g7xh8"] {
        let mut g = game(
            &rules,
            &[("g7", "WP"), ("h8", "BP"), ("a5", "BP"), ("a1", "WP")],
            "WHITE",
        );
        assert_eq!(
            play(&mut g, path),
            Ok(Status::Over(Outcome::Win(WHITE))),
            "{path}"
        );
        assert_eq!(g.legal_moves().unwrap().len(), 0);
        assert!(matches!(
            play(&mut g, "a5-a4").map_err(|e| e.kind()),
            Err(MoveErrorKind::GameOver(_))
        ));
    }
    // Black runs the other way, to row 1.
    let mut g = game(&rules, &[("b2", "BP"), ("h8", "BP"), ("e4", "WP")], "BLACK");
    assert_eq!(play(&mut g, "b2-b1"), Ok(Status::Over(Outcome::Win(BLACK))));
    // Row 7 is not enough.
    let mut g = game(&rules, &[("c6", "WP"), ("h8", "BP")], "WHITE");
    assert_eq!(play(&mut g, "c6-c7"), Ok(Status::ToMove(BLACK)));
}

#[test]
fn capturing_every_enemy_piece_wins() {
    let rules = rules();
    let mut g = game(&rules, &[("d4", "WP"), ("e5", "BP"), ("a1", "WP")], "WHITE");
    assert_eq!(play(&mut g, "d4xe5"), Ok(Status::Over(Outcome::Win(WHITE))));
    assert_eq!(g.position().count(BLACK, None), 0);
    // With a second black piece left, the game goes on.
    let mut g = game(
        &rules,
        &[("d4", "WP"), ("e5", "BP"), ("h7", "BP"), ("a1", "WP")],
        "WHITE",
    );
    assert_eq!(play(&mut g, "d4xe5"), Ok(Status::ToMove(BLACK)));
}

// ---- an independent generator, from the rules as a person states them ----

/// A board indexed `[row][col]`, row 0 at the top (row 8 in notation); `Some(0)` is a white
/// piece, `Some(1)` a black one.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    cells: [[Option<u8>; 8]; 8],
    side: u8,
}

impl Board {
    fn start() -> Board {
        let mut cells = [[None; 8]; 8];
        for (r, row) in cells.iter_mut().enumerate() {
            match r {
                0 | 1 => *row = [Some(1); 8],
                6 | 7 => *row = [Some(0); 8],
                _ => {}
            }
        }
        Board { cells, side: 0 }
    }

    /// White runs towards row 0, black towards row 7.
    fn forward(player: u8) -> i32 {
        if player == 0 { -1 } else { 1 }
    }

    fn far_row(player: u8) -> usize {
        if player == 0 { 0 } else { 7 }
    }

    fn count(&self, player: u8) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&x| x == Some(player))
            .count()
    }

    /// The winner, if the game is over: a piece on its far row, or a side with no pieces.
    fn winner(&self) -> Option<u8> {
        (0..2u8)
            .find(|&p| self.cells[Board::far_row(p)].contains(&Some(p)) || self.count(1 - p) == 0)
    }

    /// Every legal move of the side to move, as (from, to).
    fn moves(&self) -> Vec<Vec<(usize, usize)>> {
        let mut out = Vec::new();
        if self.winner().is_some() {
            return out;
        }
        let me = self.side;
        for r in 0..8 {
            for c in 0..8 {
                if self.cells[r][c] != Some(me) {
                    continue;
                }
                let nr = r as i32 + Board::forward(me);
                if !(0..8).contains(&nr) {
                    continue;
                }
                let nr = nr as usize;
                // Straight ahead: only onto an empty cell.
                if self.cells[nr][c].is_none() {
                    out.push(vec![(r, c), (nr, c)]);
                }
                // Diagonally ahead: onto an empty cell or an enemy piece.
                for dc in [-1i32, 1] {
                    let nc = c as i32 + dc;
                    if !(0..8).contains(&nc) {
                        continue;
                    }
                    let nc = nc as usize;
                    if self.cells[nr][nc] != Some(me) {
                        out.push(vec![(r, c), (nr, nc)]);
                    }
                }
            }
        }
        out
    }

    fn play(&mut self, path: &[(usize, usize)]) {
        let ((fr, fc), (tr, tc)) = (path[0], path[1]);
        self.cells[tr][tc] = self.cells[fr][fc].take();
        self.side = 1 - self.side;
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for m in self.moves() {
            let saved = self.clone();
            self.play(&m);
            n += self.perft(depth - 1);
            *self = saved;
        }
        n
    }
}

use common::Rng;

/// The kernel's legal moves as paths of (row, col).
fn kernel_paths(pos: &Position) -> Vec<Vec<(usize, usize)>> {
    let rules = pos.rules().clone();
    let g = rules.geometry();
    pos.legal_moves()
        .unwrap()
        .iter()
        .map(|m| {
            m.path(rules.geometry())
                .iter()
                .map(|c| (g.row(*c), g.col(*c)))
                .collect()
        })
        .collect()
}

/// The kernel's board in the generator's terms.
fn kernel_board(pos: &Position) -> Board {
    let g = pos.rules().geometry().clone();
    let mut cells = [[None; 8]; 8];
    for (cell, piece) in pos.pieces() {
        cells[g.row(cell)][g.col(cell)] = Some(piece.owner().index() as u8);
    }
    Board {
        cells,
        side: pos.side_to_move().index() as u8,
    }
}

#[test]
fn differential_against_an_independent_generator_over_random_games() {
    let rules = rules();
    let mut rng = Rng(0x0B7E_A474_0051_7E5D);
    let mut positions = 0;
    let mut captures = 0;
    let mut wins = [0; 2];
    for game in 0..150 {
        let mut pos = Position::start(rules.clone());
        let mut ours = Board::start();
        let mut ply = 0;
        loop {
            let here = format!("game {game}, ply {ply}: {}", pos.to_position_string());
            assert_eq!(kernel_board(&pos), ours, "{here}");
            let kernel = kernel_paths(&pos);
            let kernel_set: BTreeSet<_> = kernel.iter().cloned().collect();
            assert_eq!(kernel_set.len(), kernel.len(), "duplicate moves: {here}");
            let mut mine = ours.moves();
            mine.sort();
            let mine_set: BTreeSet<_> = mine.iter().cloned().collect();
            assert_eq!(kernel_set, mine_set, "{here}");
            assert_eq!(
                pos.outcome(),
                ours.winner()
                    .map(|p| Outcome::Win(Player::new(p as usize).unwrap())),
                "{here}"
            );
            positions += 1;
            if mine.is_empty() {
                if let Some(w) = ours.winner() {
                    wins[w as usize] += 1;
                }
                // Breakthrough has no stalemate: no moves means the game is over.
                assert!(ours.winner().is_some(), "{here}");
                break;
            }
            let pick = &mine[rng.below(mine.len())];
            let m = pos
                .legal_moves()
                .unwrap()
                .iter()
                .find(|m| {
                    let g = rules.geometry();
                    let p: Vec<(usize, usize)> = m
                        .path(rules.geometry())
                        .iter()
                        .map(|c| (g.row(*c), g.col(*c)))
                        .collect();
                    p == *pick
                })
                .unwrap();
            captures += usize::from(m.is_capture());
            pos.make_unchecked(m);
            ours.play(pick);
            ply += 1;
        }
    }
    eprintln!("{positions} positions, {captures} captures, wins {wins:?}");
    assert!(positions >= 5000, "{positions} positions");
    assert!(captures > 500, "{captures} captures");
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
}

#[test]
fn perft_of_the_independent_generator_and_of_the_kernel() {
    let want = [22, 484, 11132, 256036, 6182818];
    let rules = rules();
    let mut pos = Position::start(rules);
    let mut ours = Board::start();
    for (d, &n) in want.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(ours.perft(depth), n, "ours, depth {depth}");
        assert_eq!(pos.perft(depth).unwrap(), n, "kernel, depth {depth}");
    }
}
