//! Independent reference implementations of the move generation of Connect Four, Gomoku,
//! Othello, Amazons and Tablut, for the differential tests of the rule packs.
//!
//! They are written from the rules alone, in plain Rust, and use no project crate: simple and
//! obviously correct rather than fast. Every game module has the same shape: `start`,
//! `legal_moves` (empty when the game is over), `play` (applies every effect of a legal move
//! and switches the side to move), `outcome` (on the board after a move; `None` while the game
//! goes on) and `perft` (a finished game has no moves; a pass is a move).
//!
//! The module compiles and tests on its own:
//! `rustc --edition 2024 --test tests/reference/mod.rs -o /tmp/reftest && /tmp/reftest`.
#![allow(dead_code)]

pub mod amazons;
pub mod connect_four;
pub mod gomoku;
pub mod othello;
pub mod tablut;

/// A piece on a cell. `owner` 0 is the first player, 1 the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stone {
    pub owner: u8,
    pub kind: u8,
}

/// A position. Row 0 is the bottom row (rank 1), column 0 is column `a`;
/// `cells[row * cols + col]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Option<Stone>>,
    pub to_move: u8,
    /// Passes in a row just made (games with passing).
    pub passes: u8,
}

/// A move. Cells are indices into `Board::cells`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefMove {
    Place(usize),
    Step { from: usize, to: usize },
    StepThenPlace { from: usize, to: usize, at: usize },
    Pass,
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// The four orthogonal directions, as (row step, column step).
pub const ORTHOGONAL: [(isize, isize); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The eight queen directions, as (row step, column step).
pub const QUEEN: [(isize, isize); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// One direction of each of the four lines (horizontal, vertical, both diagonals).
pub const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The other player.
pub fn opponent(player: u8) -> u8 {
    1 - player
}

impl Board {
    /// An empty board, first player to move.
    pub fn empty(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            cells: vec![None; rows * cols],
            to_move: 0,
            passes: 0,
        }
    }

    pub fn row(&self, i: usize) -> usize {
        i / self.cols
    }

    pub fn col(&self, i: usize) -> usize {
        i % self.cols
    }

    pub fn index(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// The cell one step from `i` in direction `(dr, dc)`, if it is on the board.
    pub fn step(&self, i: usize, (dr, dc): (isize, isize)) -> Option<usize> {
        let r = self.row(i).checked_add_signed(dr)?;
        let c = self.col(i).checked_add_signed(dc)?;
        (r < self.rows && c < self.cols).then(|| self.index(r, c))
    }

    /// Whether `i` is on the outer ring of the board.
    pub fn on_edge(&self, i: usize) -> bool {
        let (r, c) = (self.row(i), self.col(i));
        r == 0 || c == 0 || r + 1 == self.rows || c + 1 == self.cols
    }

    /// The index of a named cell ("e5").
    pub fn cell(&self, name: &str) -> usize {
        cell_index(self, name)
    }

    /// Puts a stone on a named cell (for hand-set positions).
    pub fn put(&mut self, name: &str, owner: u8, kind: u8) {
        let i = self.cell(name);
        self.cells[i] = Some(Stone { owner, kind });
    }

    /// The stone on a named cell.
    pub fn at(&self, name: &str) -> Option<Stone> {
        self.cells[self.cell(name)]
    }

    /// The number of stones of `owner`.
    pub fn count(&self, owner: u8) -> usize {
        self.cells
            .iter()
            .filter(|s| s.is_some_and(|s| s.owner == owner))
            .count()
    }

    /// Every maximal run of same-owner stones along a line, as (owner, length), over the
    /// four line directions. A lone stone is a run of length 1 in each direction.
    pub fn runs(&self) -> Vec<(u8, usize)> {
        let mut runs = Vec::new();
        for i in 0..self.cells.len() {
            let Some(s) = self.cells[i] else { continue };
            for (dr, dc) in LINES {
                let before = self.step(i, (-dr, -dc));
                if before.is_some_and(|j| self.cells[j].is_some_and(|t| t.owner == s.owner)) {
                    continue; // not the start of the run
                }
                let same = |k: &usize| self.cells[*k].is_some_and(|t| t.owner == s.owner);
                let mut len = 1;
                let mut j = i;
                while let Some(k) = self.step(j, (dr, dc)).filter(same) {
                    len += 1;
                    j = k;
                }
                runs.push((s.owner, len));
            }
        }
        runs
    }
}

/// The name of a cell: column letter then rank, "a1", "j10".
pub fn cell_name(b: &Board, i: usize) -> String {
    format!("{}{}", char::from(b'a' + b.col(i) as u8), b.row(i) + 1)
}

/// The index of a named cell; panics on a bad name.
pub fn cell_index(b: &Board, name: &str) -> usize {
    let mut chars = name.chars();
    let letter = chars.next().expect("empty cell name");
    let col = (letter as usize)
        .checked_sub('a' as usize)
        .expect("bad column");
    let rank: usize = chars.as_str().parse().expect("bad rank");
    assert!(
        col < b.cols && (1..=b.rows).contains(&rank),
        "{name} is off the board"
    );
    b.index(rank - 1, col)
}

/// A readable move, "e5", "e2-e4", "a4-c4/c8", "pass".
pub fn move_name(b: &Board, m: &RefMove) -> String {
    match *m {
        RefMove::Place(i) => cell_name(b, i),
        RefMove::Step { from, to } => format!("{}-{}", cell_name(b, from), cell_name(b, to)),
        RefMove::StepThenPlace { from, to, at } => format!(
            "{}-{}/{}",
            cell_name(b, from),
            cell_name(b, to),
            cell_name(b, at)
        ),
        RefMove::Pass => "pass".to_string(),
    }
}

/// Perft over any game's `legal_moves` and `play`: the number of move sequences of length
/// `depth` from `b`.
pub fn perft_by<L, P>(b: &Board, depth: u32, legal_moves: &L, play: &P) -> u64
where
    L: Fn(&Board) -> Vec<RefMove>,
    P: Fn(&Board, &RefMove) -> Board,
{
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(b);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft_by(&play(b, m), depth - 1, legal_moves, play))
        .sum()
}

/// A tiny seeded generator (splitmix64) for the tests.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        let b = Board::empty(10, 10);
        assert_eq!(cell_name(&b, 0), "a1");
        assert_eq!(cell_name(&b, 99), "j10");
        assert_eq!(b.cell("d1"), 3);
        assert_eq!(b.cell("a4"), 30);
        for i in 0..100 {
            assert_eq!(b.cell(&cell_name(&b, i)), i);
        }
    }

    #[test]
    fn steps_stay_on_the_board() {
        let b = Board::empty(6, 7);
        assert_eq!(b.step(b.cell("a1"), (-1, 0)), None);
        assert_eq!(b.step(b.cell("a1"), (0, -1)), None);
        assert_eq!(b.step(b.cell("g6"), (1, 1)), None);
        assert_eq!(b.step(b.cell("g1"), (0, 1)), None);
        assert_eq!(b.step(b.cell("a1"), (1, 1)), Some(b.cell("b2")));
        assert_eq!(b.step(b.cell("g1"), (1, -1)), Some(b.cell("f2")));
    }

    #[test]
    fn runs_are_maximal() {
        let mut b = Board::empty(6, 7);
        for name in ["a1", "b1", "c1", "e1"] {
            b.put(name, 0, 0);
        }
        b.put("b2", 1, 0);
        let mut runs = b.runs();
        runs.sort();
        // Each stone starts one run per line direction, except b1 and c1 horizontally:
        // a1-b1-c1 is one run of three.
        let mut expected = vec![(0, 1); 4 * 4 - 3];
        expected.push((0, 3));
        expected.extend([(1, 1); 4]);
        assert_eq!(runs, expected);
    }

    /// The perft data file agrees with the generators (the cheap lines; all of them with
    /// `--ignored`, in release).
    fn check_perft_file(limit: u64) {
        let text = include_str!("../data/perft_reference.txt");
        let mut checked = 0;
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "bad line {line:?}");
            let depth: u32 = fields[1].parse().unwrap();
            let count: u64 = fields[2].parse().unwrap();
            if count > limit {
                continue;
            }
            let computed = match fields[0] {
                "connect_four" => connect_four::perft(&connect_four::start(), depth),
                "othello" => othello::perft(&othello::start(), depth),
                "gomoku" => gomoku::perft(&gomoku::start(), depth),
                "tablut" => tablut::perft(&tablut::start(), depth),
                "amazons" => amazons::perft(&amazons::start(), depth),
                pack => panic!("unknown pack {pack}"),
            };
            assert_eq!(computed, count, "{line}");
            checked += 1;
        }
        assert!(checked >= 5);
    }

    #[test]
    fn perft_file_cheap_lines() {
        check_perft_file(100_000);
    }

    #[test]
    #[ignore = "minutes in debug; run in release with --ignored"]
    fn perft_file_all_lines() {
        check_perft_file(u64::MAX);
    }

    /// Plays random games and checks the invariants every reference keeps: no moves exactly
    /// when there is an outcome, legal moves are distinct and lead to distinct boards, the
    /// side to move alternates, and the game ends within `max_len` moves.
    fn random_games<L, P, O>(
        start: Board,
        games: u64,
        max_len: usize,
        legal: L,
        play: P,
        outcome: O,
    ) where
        L: Fn(&Board) -> Vec<RefMove>,
        P: Fn(&Board, &RefMove) -> Board,
        O: Fn(&Board) -> Option<Outcome>,
    {
        for seed in 0..games {
            let mut rng = SplitMix64(seed);
            let mut b = start.clone();
            let mut plies = 0;
            loop {
                let moves = legal(&b);
                assert_eq!(
                    moves.is_empty(),
                    outcome(&b).is_some(),
                    "seed {seed}: {b:?}"
                );
                if moves.is_empty() {
                    break;
                }
                let mut distinct = std::collections::HashSet::new();
                for m in &moves {
                    let next = play(&b, m);
                    assert_ne!(next, b, "seed {seed}: {m:?} changes nothing");
                    assert_eq!(next.to_move, opponent(b.to_move));
                    assert!(distinct.insert(next), "seed {seed}: two moves, one board");
                }
                b = play(&b, &moves[rng.below(moves.len())]);
                plies += 1;
                assert!(plies <= max_len, "seed {seed}: the game does not end");
            }
        }
    }

    #[test]
    fn random_games_keep_the_invariants() {
        use {amazons as a, connect_four as c, gomoku as g, othello as o, tablut as t};
        random_games(c::start(), 200, 42, c::legal_moves, c::play, c::outcome);
        random_games(o::start(), 50, 130, o::legal_moves, o::play, o::outcome);
        random_games(g::start(), 5, 225, g::legal_moves, g::play, g::outcome);
        random_games(t::start(), 10, 100_000, t::legal_moves, t::play, t::outcome);
        random_games(a::start(), 2, 92, a::legal_moves, a::play, a::outcome);
    }
}
