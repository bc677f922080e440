//! Cats and Rabbits on a 7 x 7 board, with single or multiple hops.
//!
//! Representation: two bitboards (`u64`, cell = `row * 7 + col`), one for the rabbits and
//! one for the cats. Neighbour and hop tables are computed at compile time; multi-hop
//! chains are found by a depth-first search on bitboards that writes every chain prefix into
//! the fixed-capacity move list.
//!
//! Players: index 0 = `RABBIT` (moves first, symbol `R`), index 1 = `CAT` (symbol `C`).
//!
//! Game end, checked after each move: RABBIT wins if a rabbit stands on row 0; CAT wins if
//! fewer than 2 rabbits remain; otherwise, if the next player has no legal move, that player
//! loses. A finished game has no legal moves.

use crate::position::{self, Code};
use crate::search::{self, Engine};
use crate::{Path, Playout};
use arrayvec::ArrayVec;

/// Rows of the board.
pub const ROWS: usize = 7;
/// Columns of the board.
pub const COLS: usize = 7;
const CELLS: usize = ROWS * COLS;

/// Most rabbits a position may hold (the start has 6; rabbits are never added).
pub const MAX_RABBITS: u32 = 6;
/// Most cats a position may hold (the start has 2).
pub const MAX_CATS: u32 = 2;

/// Capacity of a [`MoveList`]. With at most 6 rabbits, the rabbits have at most 24 steps;
/// an exhaustive search over every placement of up to 6 rabbits shows one cat has at most
/// 15 moves (steps plus every prefix of every hop chain), so two cats have at most 30.
pub const MAX_MOVES: usize = 32;

/// A fixed-capacity move list (no heap allocation).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The start position string.
pub const START: &str = "2CC1CC2/7/7/7/7/7/1RRRRRRRRRRRR RABBIT";

const fn bit(sq: usize) -> u64 {
    1u64 << sq
}

const BOARD: u64 = (1u64 << CELLS) - 1;
const ROW0: u64 = (1u64 << COLS) - 1;
const NONE: u8 = u8::MAX;

/// Direction deltas: 0 = up, 1 = right, 2 = down, 3 = left.
const DR: [isize; 4] = [-1, 0, 1, 0];
const DC: [isize; 4] = [0, 1, 0, -1];

const fn on_board(r: isize, c: isize) -> bool {
    r >= 0 && r < ROWS as isize && c >= 0 && c < COLS as isize
}

const NEIGH: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut s = 0;
    while s < CELLS {
        let (r, c) = ((s / COLS) as isize, (s % COLS) as isize);
        let mut d = 0;
        while d < 4 {
            if on_board(r + DR[d], c + DC[d]) {
                t[s] |= bit(((r + DR[d]) as usize) * COLS + (c + DC[d]) as usize);
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// `HOP[cell][dir] = (jumped cell, landing cell)`, or `(NONE, NONE)` off the board.
const HOP: [[(u8, u8); 4]; CELLS] = {
    let mut t = [[(NONE, NONE); 4]; CELLS];
    let mut s = 0;
    while s < CELLS {
        let (r, c) = ((s / COLS) as isize, (s % COLS) as isize);
        let mut d = 0;
        while d < 4 {
            if on_board(r + 2 * DR[d], c + 2 * DC[d]) {
                let mid = ((r + DR[d]) as usize) * COLS + (c + DC[d]) as usize;
                let land = ((r + 2 * DR[d]) as usize) * COLS + (c + 2 * DC[d]) as usize;
                t[s][d] = (mid as u8, land as u8);
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// A compact move. A step has `hops == 0`; a hop chain of `hops` hops has its directions in
/// `dirs` (2 bits per hop, first hop in the low bits: 0 up, 1 right, 2 down, 3 left) and the
/// jumped rabbits in `captured`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Bitboard of the rabbits jumped (and removed); 0 for a step.
    pub captured: u64,
    /// Origin cell index (`row * 7 + col`).
    pub from: u8,
    /// Final cell index (`row * 7 + col`).
    pub to: u8,
    /// Number of hops (0 for a step).
    pub hops: u8,
    /// Hop directions, 2 bits per hop, first hop lowest.
    pub dirs: u16,
}

fn cell_of(i: u8) -> (u8, u8) {
    (i / COLS as u8, i % COLS as u8)
}

impl Move {
    /// The move as a path of `(row, col)` cells: `[from, to]` for a step,
    /// `[from, land1, land2, ...]` for a hop chain.
    pub fn path(self) -> Path {
        let mut path = vec![cell_of(self.from)];
        if self.hops == 0 {
            path.push(cell_of(self.to));
            return path;
        }
        let mut at = self.from as usize;
        for h in 0..self.hops {
            let d = (self.dirs >> (2 * h)) as usize & 3;
            at = HOP[at][d].1 as usize;
            path.push(cell_of(at as u8));
        }
        path
    }
}

/// What [`CatsRabbits::make`] returns and [`CatsRabbits::unmake`] needs (the game state
/// before the move; the captured rabbits are in the move itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    result: u8,
}

/// A Cats and Rabbits position with its hop option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CatsRabbits {
    rabbits: u64,
    cats: u64,
    side: u8,
    /// 0 = running, 1 + winner otherwise.
    result: u8,
    multi_hop: bool,
}

const NAMES: [&str; 2] = ["RABBIT", "CAT"];

impl CatsRabbits {
    /// The start position (RABBIT to move); `multi_hop` selects chains of hops.
    pub fn start(multi_hop: bool) -> Self {
        Self::from_position(START, multi_hop).expect("the start position parses")
    }

    /// Reads a position string (see [`crate::position`]). Codes are `RR` (rabbit) and `CC`
    /// (cat); the side to move is `RABBIT` or `CAT`. At most [`MAX_RABBITS`] rabbits and
    /// [`MAX_CATS`] cats (this bounds the move list). The win tests of the rules (a rabbit
    /// on row 0, fewer than 2 rabbits) are applied to the position as read.
    pub fn from_position(text: &str, multi_hop: bool) -> Result<Self, String> {
        let parsed = position::parse(text, ROWS, COLS)?;
        let side = match parsed.to_move.as_str() {
            "RABBIT" => 0u8,
            "CAT" => 1u8,
            other => {
                return Err(format!(
                    "unknown side to move '{other}' (expected RABBIT or CAT)"
                ));
            }
        };
        let (mut rabbits, mut cats) = (0u64, 0u64);
        for (i, cell) in parsed.cells.iter().enumerate() {
            match *cell {
                None => {}
                Some(['R', 'R']) => rabbits |= bit(i),
                Some(['C', 'C']) => cats |= bit(i),
                Some([p, l]) => return Err(format!("unknown piece code '{p}{l}'")),
            }
        }
        if rabbits.count_ones() > MAX_RABBITS || cats.count_ones() > MAX_CATS {
            return Err(format!(
                "at most {MAX_RABBITS} rabbits and {MAX_CATS} cats are supported"
            ));
        }
        let mut p = CatsRabbits {
            rabbits,
            cats,
            side,
            result: 0,
            multi_hop,
        };
        p.result = p.win_test();
        Ok(p)
    }

    /// Writes the position string.
    pub fn to_position(&self) -> String {
        let cells: Vec<Option<Code>> = (0..CELLS)
            .map(|i| {
                if self.rabbits & bit(i) != 0 {
                    Some(['R', 'R'])
                } else if self.cats & bit(i) != 0 {
                    Some(['C', 'C'])
                } else {
                    None
                }
            })
            .collect();
        position::format(&cells, COLS, NAMES[self.side as usize])
    }

    /// Whether hop chains are allowed.
    pub fn multi_hop(&self) -> bool {
        self.multi_hop
    }

    /// The player to move: 0 = `RABBIT`, 1 = `CAT`.
    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    #[inline]
    fn win_test(&self) -> u8 {
        if self.rabbits & ROW0 != 0 {
            1
        } else if self.rabbits.count_ones() < 2 {
            2
        } else {
            0
        }
    }

    /// Non-allocating move generation: appends every legal move to `out` (nothing when the
    /// game is over). In multi-hop mode every prefix of every chain is its own move.
    #[inline]
    pub fn generate(&self, out: &mut MoveList) {
        if self.result != 0 {
            return;
        }
        let empty = BOARD & !(self.rabbits | self.cats);
        if self.side == 0 {
            let mut rabbits = self.rabbits;
            while rabbits != 0 {
                let from = rabbits.trailing_zeros() as usize;
                rabbits &= rabbits - 1;
                let mut targets = NEIGH[from] & empty;
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    out.push(Move {
                        captured: 0,
                        from: from as u8,
                        to,
                        hops: 0,
                        dirs: 0,
                    });
                }
            }
            return;
        }
        let mut cats = self.cats;
        while cats != 0 {
            let from = cats.trailing_zeros() as usize;
            cats &= cats - 1;
            let mut targets = NEIGH[from] & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(Move {
                    captured: 0,
                    from: from as u8,
                    to,
                    hops: 0,
                    dirs: 0,
                });
            }
            if self.multi_hop {
                chains(
                    out,
                    from as u8,
                    from,
                    empty | bit(from),
                    self.rabbits,
                    0,
                    0,
                    0,
                );
            } else {
                for (d, &(mid, land)) in HOP[from].iter().enumerate() {
                    if land != NONE
                        && self.rabbits & bit(mid as usize) != 0
                        && empty & bit(land as usize) != 0
                    {
                        out.push(Move {
                            captured: bit(mid as usize),
                            from: from as u8,
                            to: land,
                            hops: 1,
                            dirs: d as u16,
                        });
                    }
                }
            }
        }
    }

    /// Every legal move as a path (allocates; for tests).
    pub fn legal_moves(&self) -> Vec<Path> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.iter().map(|m| m.path()).collect()
    }

    /// Plays `mv` (which must be legal here) and returns what [`CatsRabbits::unmake`] needs.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            result: self.result,
        };
        let delta = bit(mv.from as usize) ^ bit(mv.to as usize);
        if self.side == 0 {
            self.rabbits ^= delta;
        } else {
            self.cats ^= delta;
            self.rabbits ^= mv.captured;
        }
        self.result = self.win_test();
        self.side ^= 1;
        undo
    }

    /// Takes back `mv`, which must be the last move made, with the [`Undo`] it returned.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side ^= 1;
        let delta = bit(mv.from as usize) ^ bit(mv.to as usize);
        if self.side == 0 {
            self.rabbits ^= delta;
        } else {
            self.cats ^= delta;
            self.rabbits ^= mv.captured;
        }
        self.result = undo.result;
    }

    /// `None` while the game runs; `Some(winner)` when it is over (`winner` is a player
    /// index; this game always has a winner). A side to move without legal moves has lost.
    pub fn outcome(&self) -> Option<Option<u8>> {
        search::outcome(self)
    }

    /// Number of move sequences of length `depth`; every move is made and unmade down to
    /// depth 0 (no bulk counting).
    pub fn perft(&mut self, depth: u32) -> u64 {
        search::perft(self, depth)
    }

    /// Same count as [`CatsRabbits::perft`], counting the moves at the last ply without making
    /// them.
    pub fn perft_bulk(&mut self, depth: u32) -> u64 {
        search::perft_bulk(self, depth)
    }

    /// Plays uniformly chosen legal moves (`pick(n)` must return an index in `0..n`) until
    /// the game is over or `max_plies` moves have been played (`capped`). A side to move
    /// without legal moves loses. The position is restored afterwards from a copy taken before
    /// the first move (no allocation).
    pub fn playout(&mut self, pick: &mut impl FnMut(usize) -> usize, max_plies: u32) -> Playout {
        search::playout(self, pick, max_plies)
    }
}

/// Depth-first search of hop chains from `at` for the cat that started on `from`. `empty`
/// includes the starting cell and every rabbit jumped so far; `rabbits` excludes them.
#[allow(clippy::too_many_arguments)]
#[inline]
fn chains(
    out: &mut MoveList,
    from: u8,
    at: usize,
    empty: u64,
    rabbits: u64,
    captured: u64,
    hops: u8,
    dirs: u16,
) {
    for (d, &(mid, land)) in HOP[at].iter().enumerate() {
        if land == NONE || rabbits & bit(mid as usize) == 0 || empty & bit(land as usize) == 0 {
            continue;
        }
        let m = bit(mid as usize);
        let mv = Move {
            captured: captured | m,
            from,
            to: land,
            hops: hops + 1,
            dirs: dirs | (d as u16) << (2 * hops),
        };
        out.push(mv);
        chains(
            out,
            from,
            land as usize,
            empty | m,
            rabbits & !m,
            mv.captured,
            mv.hops,
            mv.dirs,
        );
    }
}

impl Engine for CatsRabbits {
    type Move = Move;
    type Undo = Undo;
    type List = MoveList;

    #[inline(always)]
    fn generate(&self, out: &mut MoveList) {
        CatsRabbits::generate(self, out)
    }

    #[inline(always)]
    fn make(&mut self, m: Move) -> Undo {
        CatsRabbits::make(self, m)
    }

    #[inline(always)]
    fn unmake(&mut self, m: Move, u: Undo) {
        CatsRabbits::unmake(self, m, u)
    }

    #[inline(always)]
    fn ended(&self) -> Option<Option<u8>> {
        (self.result != 0).then(|| Some(self.result - 1))
    }

    #[inline(always)]
    fn stuck(&self) -> Option<u8> {
        Some(self.side ^ 1)
    }
}
