//! English draughts: a differential test of the kernel playing `checkers.toml` against a move
//! generator written here from the rules alone (plain Rust on an 8x8 array, no kernel code),
//! compared at every position of seeded random games and of random dense positions: the set
//! of legal moves (as paths of cells), the board after every move (crowning included), the
//! side to move, the capture clock and the outcome.

mod common;

use ply_kernel::{Move, Outcome, Player, Position, Rules};
use std::collections::BTreeSet;
use std::sync::Arc;

fn rules() -> Arc<Rules> {
    common::pack("checkers.toml", &[])
}

// ---- an independent generator, from the rules as a person states them ----

/// A move as the cells its piece visits, `(row, col)`: origin, each landing, destination.
type Path = Vec<(u8, u8)>;

const BLACK: u8 = 0;
const WHITE: u8 = 1;

/// A piece: its side (`BLACK` or `WHITE`) and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stone {
    side: u8,
    king: bool,
}

impl Stone {
    fn code(self) -> &'static str {
        match (self.side, self.king) {
            (BLACK, false) => "BM",
            (BLACK, true) => "BK",
            (_, false) => "WM",
            (_, true) => "WK",
        }
    }

    fn from_code(code: &str) -> Stone {
        match code {
            "BM" => Stone {
                side: BLACK,
                king: false,
            },
            "BK" => Stone {
                side: BLACK,
                king: true,
            },
            "WM" => Stone {
                side: WHITE,
                king: false,
            },
            "WK" => Stone {
                side: WHITE,
                king: true,
            },
            _ => panic!("unknown piece code {code}"),
        }
    }

    /// The diagonal directions `(drow, dcol)` the piece may step or jump in: forward only for
    /// a man, all four for a king.
    fn dirs(self) -> Vec<(i8, i8)> {
        let f = forward(self.side);
        if self.king {
            vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]
        } else {
            vec![(f, -1), (f, 1)]
        }
    }
}

/// Row 0 is the top (rank 8). Black starts at the bottom and moves up; White moves down.
fn forward(side: u8) -> i8 {
    if side == BLACK { -1 } else { 1 }
}

/// The far row, where a man of `side` is crowned.
fn crown_row(side: u8) -> u8 {
    if side == BLACK { 0 } else { 7 }
}

/// The playing cells are the dark ones; a1 (row 7, col 0) is dark.
fn dark(r: u8, c: u8) -> bool {
    (r + c) % 2 == 1
}

/// `(r, c)` moved by `k` steps of `d`, if still on the 8x8 board.
fn offset((r, c): (u8, u8), (dr, dc): (i8, i8), k: i8) -> Option<(u8, u8)> {
    let nr = r as i8 + dr * k;
    let nc = c as i8 + dc * k;
    ((0..8).contains(&nr) && (0..8).contains(&nc)).then_some((nr as u8, nc as u8))
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    cells: [[Option<Stone>; 8]; 8],
    side: u8,
    /// Plies since the last capture.
    clock: u32,
}

impl Board {
    fn start() -> Board {
        let mut cells = [[None; 8]; 8];
        for r in 0..8u8 {
            for c in 0..8u8 {
                if !dark(r, c) {
                    continue;
                }
                let side = match r {
                    0..=2 => WHITE,
                    5..=7 => BLACK,
                    _ => continue,
                };
                cells[r as usize][c as usize] = Some(Stone { side, king: false });
            }
        }
        Board {
            cells,
            side: BLACK,
            clock: 0,
        }
    }

    fn at(&self, (r, c): (u8, u8)) -> Option<Stone> {
        self.cells[r as usize][c as usize]
    }

    fn set(&mut self, (r, c): (u8, u8), s: Option<Stone>) {
        self.cells[r as usize][c as usize] = s;
    }

    fn has_king(&self) -> bool {
        self.cells.iter().flatten().flatten().any(|s| s.king)
    }

    /// Every legal move of the side to move. If any piece can capture, only captures are
    /// legal; a capture is a complete chain of jumps.
    fn moves(&self) -> Vec<Path> {
        let mut captures = Vec::new();
        let mut steps = Vec::new();
        for r in 0..8u8 {
            for c in 0..8u8 {
                let Some(stone) = self.at((r, c)) else {
                    continue;
                };
                if stone.side != self.side {
                    continue;
                }
                // The chains of this piece, on a scratch board without it: its origin counts
                // as empty for a later landing.
                let mut scratch = self.clone();
                scratch.set((r, c), None);
                let mut path = vec![(r, c)];
                scratch.chains(stone, &mut path, &mut captures);
                for d in stone.dirs() {
                    if let Some(to) = offset((r, c), d, 1)
                        && self.at(to).is_none()
                    {
                        steps.push(vec![(r, c), to]);
                    }
                }
            }
        }
        if captures.is_empty() { steps } else { captures }
    }

    /// Extends the jump chain `path` of `stone` (which is lifted off this scratch board) in
    /// every possible way, pushing each maximal chain onto `out`. Returns whether it could
    /// jump at all.
    ///
    /// Convention (the kernel's): a jumped piece is taken off the board at once, so it can
    /// never be jumped twice and its cell counts as empty for a later landing in the same
    /// chain. The over-the-board rule would keep it there until the move ends, unjumpable. In
    /// English draughts the two agree: every landing keeps the parity of the origin's row and
    /// column while every jumped piece has the other parity, so no chain can land on a cell
    /// it emptied (`compare` asserts this), and an emptied cell holds nothing to jump again.
    fn chains(&mut self, stone: Stone, path: &mut Path, out: &mut Vec<Path>) -> bool {
        let cur = *path.last().unwrap();
        let mut jumped = false;
        for d in stone.dirs() {
            let (Some(over), Some(to)) = (offset(cur, d, 1), offset(cur, d, 2)) else {
                continue;
            };
            let Some(victim) = self.at(over) else {
                continue;
            };
            if victim.side == stone.side || self.at(to).is_some() {
                continue;
            }
            jumped = true;
            path.push(to);
            self.set(over, None);
            // A man landing on the far row is crowned, and its move ends there: it does not go
            // on jumping as a king (as a man it has no forward jump left anyway).
            let crowned = !stone.king && to.0 == crown_row(stone.side);
            if crowned || !self.chains(stone, path, out) {
                out.push(path.clone());
            }
            self.set(over, Some(victim));
            path.pop();
        }
        jumped
    }

    /// Plays a move given as its path: jumped pieces are removed, a man ending on the far row
    /// is crowned, the clock counts plies since the last capture.
    fn play(&mut self, path: &[(u8, u8)]) {
        let from = path[0];
        let mut stone = self.at(from).expect("a piece on the origin");
        self.set(from, None);
        let mut captured = false;
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a.0.abs_diff(b.0) == 2 {
                let mid = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
                assert!(self.at(mid).is_some(), "nothing jumped on {mid:?}");
                self.set(mid, None);
                captured = true;
            }
        }
        let to = *path.last().unwrap();
        if to.0 == crown_row(stone.side) {
            stone.king = true;
        }
        self.set(to, Some(stone));
        self.clock = if captured { 0 } else { self.clock + 1 };
        self.side = 1 - self.side;
    }

    /// The outcome: drawn after 40 plies without a capture; otherwise a side that cannot move
    /// on its turn has lost.
    fn outcome(&self) -> Option<Outcome> {
        if self.clock >= 40 {
            Some(Outcome::Draw)
        } else if self.moves().is_empty() {
            Some(Outcome::Win(Player::new(1 - self.side as usize).unwrap()))
        } else {
            None
        }
    }

    /// The position string of this board.
    fn position_string(&self) -> String {
        let grid: Vec<Vec<Option<&str>>> = self
            .cells
            .iter()
            .map(|row| row.iter().map(|c| c.map(|stone| stone.code())).collect())
            .collect();
        let side = if self.side == BLACK { "Black" } else { "White" };
        format!(
            "{} clock={}",
            common::grid_position_string(&grid, side),
            self.clock
        )
    }
}

use common::Rng;

// ---- the kernel, seen in the generator's terms ----

fn path_of(rules: &Rules, m: &Move) -> Path {
    let g = rules.geometry();
    m.path(rules.geometry())
        .iter()
        .map(|c| (g.row(*c) as u8, g.col(*c) as u8))
        .collect()
}

/// The kernel's legal moves, paired with their paths, in generation order.
fn kernel_moves(pos: &Position) -> Vec<(Move, Path)> {
    let rules = pos.rules().clone();
    pos.legal_moves()
        .unwrap()
        .iter()
        .map(|m| (m, path_of(&rules, &m)))
        .collect()
}

/// The kernel's board, side to move and clock, read piece by piece.
fn kernel_board(pos: &Position) -> Board {
    let rules = pos.rules().clone();
    let g = rules.geometry();
    let mut cells = [[None; 8]; 8];
    for (cell, piece) in pos.pieces() {
        let (r, c) = (g.row(cell), g.col(cell));
        assert!(dark(r as u8, c as u8), "a piece on a light cell: {r}, {c}");
        assert_eq!(pos.piece_at(cell), Some(piece));
        cells[r][c] = Some(Stone::from_code(rules.core().code(piece)));
    }
    Board {
        cells,
        side: pos.side_to_move().index() as u8,
        clock: u32::from(pos.clock()),
    }
}

/// What the comparisons covered.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    with_king: usize,
    capture_positions: usize,
    moves: usize,
    multi_jumps: usize,
    longest_chain: usize,
    /// Positions with two different chains between the same two cells.
    same_ends: usize,
    /// Chains of a king that come back to the cell they started from.
    back_to_origin: usize,
    /// Multi-jumps played.
    played_multi_jumps: usize,
    crownings: usize,
    crowning_jumps: usize,
    draws: usize,
    wins: [usize; 2],
}

/// Compares the kernel's position with ours: board, side, clock, outcome and the sets of
/// legal moves (with no duplicate in the kernel's list). Returns the kernel's moves, sorted
/// by path.
fn compare(pos: &Position, ours: &Board, here: &str, tally: &mut Tally) -> Vec<(Move, Path)> {
    assert_eq!(kernel_board(pos), *ours, "board differs: {here}");
    assert_eq!(pos.outcome(), ours.outcome(), "outcome differs: {here}");
    let mut kernel = kernel_moves(pos);
    kernel.sort_by(|a, b| a.1.cmp(&b.1));
    let kernel_paths: Vec<Path> = kernel.iter().map(|(_, p)| p.clone()).collect();
    let kernel_set: BTreeSet<&Path> = kernel_paths.iter().collect();
    assert_eq!(
        kernel_set.len(),
        kernel_paths.len(),
        "duplicate kernel moves: {here}\n{kernel_paths:?}"
    );
    let mut mine = if ours.outcome().is_some() {
        Vec::new()
    } else {
        ours.moves()
    };
    mine.sort();
    let mine_set: BTreeSet<&Path> = mine.iter().collect();
    assert_eq!(
        mine_set.len(),
        mine.len(),
        "duplicate moves of ours: {here}"
    );
    assert_eq!(
        kernel_paths, mine,
        "moves differ: {here}\nkernel: {kernel_paths:?}\nours:   {mine:?}"
    );

    tally.positions += 1;
    tally.moves += mine.len();
    tally.with_king += usize::from(ours.has_king());
    let jumps = |p: &Path| {
        if p[0].0.abs_diff(p[1].0) == 2 {
            p.len() - 1
        } else {
            0
        }
    };
    tally.capture_positions += usize::from(mine.iter().any(|p| jumps(p) > 0));
    for p in &mine {
        let n = jumps(p);
        tally.multi_jumps += usize::from(n >= 2);
        tally.longest_chain = tally.longest_chain.max(n);
        let mids: Vec<(u8, u8)> = p
            .windows(2)
            .map(|w| ((w[0].0 + w[1].0) / 2, (w[0].1 + w[1].1) / 2))
            .collect();
        // Landings keep the parity of row and column of the origin, jumped pieces have the
        // other parity: a chain never lands where it took a piece off.
        assert!(
            n < 2 || (1..p.len()).all(|i| !mids[..i].contains(&p[i])),
            "{p:?} lands on a cell it jumped: {here}"
        );
        tally.back_to_origin += usize::from(n >= 2 && p.last() == p.first());
    }
    let ends: BTreeSet<((u8, u8), (u8, u8))> =
        mine.iter().map(|p| (p[0], *p.last().unwrap())).collect();
    tally.same_ends += usize::from(ends.len() < mine.len());
    match ours.outcome() {
        Some(Outcome::Draw) => tally.draws += 1,
        Some(Outcome::Win(p)) => tally.wins[p.index()] += 1,
        None => {}
    }
    kernel
}

/// Plays the same move on both sides and checks that the boards agree after it.
fn play_both(
    pos: &mut Position,
    ours: &mut Board,
    m: Move,
    path: &Path,
    here: &str,
    t: &mut Tally,
) {
    let crowns = !ours.at(path[0]).unwrap().king && path.last().unwrap().0 == crown_row(ours.side);
    t.crownings += usize::from(crowns);
    t.crowning_jumps += usize::from(crowns && path[0].0.abs_diff(path[1].0) == 2);
    t.played_multi_jumps += usize::from(path.len() > 2);
    pos.make_unchecked(m);
    ours.play(path);
    assert_eq!(
        kernel_board(pos),
        *ours,
        "board differs after {path:?}: {here}\nkernel: {}\nours:   {}",
        pos.to_position_string(),
        ours.position_string()
    );
}

#[test]
fn the_generator_agrees_with_the_hand_written_tests() {
    // A few positions of tests/checkers.rs, in the generator's terms, as a check on the check.
    let rules = rules();
    let start = Board::start();
    assert_eq!(start.moves().len(), 7);
    assert_eq!(
        Position::start(rules.clone()).to_position_string(),
        start.position_string()
    );
    // a1 over b2 to c3, then over d4 to e5 or over b4 to a5.
    let text = common::fen(
        &rules,
        &[
            ("a1", "BM"),
            ("b2", "WM"),
            ("d4", "WM"),
            ("b4", "WM"),
            ("h8", "WM"),
        ],
        "Black",
    );
    let pos = Position::from_position_string(rules.clone(), &text).unwrap();
    let ours = kernel_board(&pos);
    let mut m = ours.moves();
    m.sort();
    assert_eq!(
        m,
        vec![vec![(7, 0), (5, 2), (3, 0)], vec![(7, 0), (5, 2), (3, 4)]]
    );
    // d6 jumps e7 to f8 and is crowned there, although a king could go on over g7.
    let text = common::fen(
        &rules,
        &[("d6", "BM"), ("e7", "WM"), ("g7", "WM"), ("b2", "WM")],
        "Black",
    );
    let pos = Position::from_position_string(rules.clone(), &text).unwrap();
    let mut ours = kernel_board(&pos);
    assert_eq!(ours.moves(), vec![vec![(2, 3), (0, 5)]]);
    ours.play(&[(2, 3), (0, 5)]);
    assert_eq!(ours.at((0, 5)).map(Stone::code), Some("BK"));
}

#[test]
fn random_games_agree_with_an_independent_generator() {
    let rules = rules();
    let mut rng = Rng(0xC4EC_4E55_D1FF_0001);
    let mut t = Tally::default();
    let mut plies_total = 0;
    for game in 0..300 {
        let mut pos = Position::start(rules.clone());
        let mut ours = Board::start();
        let mut ply = 0;
        loop {
            let here = format!("game {game}, ply {ply}: {}", pos.to_position_string());
            let kernel = compare(&pos, &ours, &here, &mut t);
            if kernel.is_empty() {
                assert!(ours.outcome().is_some(), "no move but not over: {here}");
                break;
            }
            let (m, path) = kernel[rng.below(kernel.len())].clone();
            play_both(&mut pos, &mut ours, m, &path, &here, &mut t);
            ply += 1;
        }
        plies_total += ply;
    }
    eprintln!("random games: {plies_total} plies, {t:?}");
    assert!(t.positions >= 5000, "{t:?}");
    assert!(t.with_king >= 200, "{t:?}");
    assert!(t.multi_jumps >= 500 && t.played_multi_jumps >= 300, "{t:?}");
    assert!(t.crownings >= 50 && t.crowning_jumps >= 5, "{t:?}");
    assert!(t.draws > 0 && t.wins[0] > 0 && t.wins[1] > 0, "{t:?}");
}

#[test]
fn random_dense_positions_agree_with_an_independent_generator() {
    let rules = rules();
    let mut rng = Rng(0xDE45_E000_0BAD_CAFE);
    let mut t = Tally::default();
    // Games ended by a move from these positions: Black's wins, White's, draws.
    let mut ends_after = [0; 3];
    for n in 0..5000 {
        // Each dark cell is filled with a chance between 25% and 80%; a quarter of the pieces
        // are kings; no man stands on its own crowning row.
        let fill = 25 + rng.below(56);
        let mut ours = Board {
            cells: [[None; 8]; 8],
            side: rng.below(2) as u8,
            clock: rng.below(40) as u32,
        };
        for r in 0..8u8 {
            for c in 0..8u8 {
                if !dark(r, c) || rng.below(100) >= fill {
                    continue;
                }
                let side = rng.below(2) as u8;
                let king = rng.below(4) == 0 || r == crown_row(side);
                ours.set((r, c), Some(Stone { side, king }));
            }
        }
        let text = ours.position_string();
        let pos = Position::from_position_string(rules.clone(), &text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let here = format!("dense position {n}: {text}");
        let kernel = compare(&pos, &ours, &here, &mut t);
        // Every move, on both sides, from this position.
        for (m, path) in kernel {
            let mut pos = pos.clone();
            let mut ours = ours.clone();
            play_both(&mut pos, &mut ours, m, &path, &here, &mut t);
            assert_eq!(pos.outcome(), ours.outcome(), "after {path:?}: {here}");
            match ours.outcome() {
                Some(Outcome::Draw) => ends_after[2] += 1,
                Some(Outcome::Win(p)) => ends_after[p.index()] += 1,
                None => {}
            }
        }
    }
    eprintln!("dense positions: {t:?}, ended by a move (Black, White, draw): {ends_after:?}");
    assert!(t.positions >= 5000, "{t:?}");
    assert!(t.with_king >= 4000, "{t:?}");
    assert!(t.multi_jumps >= 1000, "{t:?}");
    assert!(t.same_ends >= 5 && t.back_to_origin >= 5, "{t:?}");
    assert!(t.crowning_jumps >= 300, "{t:?}");
    assert!(ends_after.iter().all(|&n| n > 0), "{ends_after:?}");
}
