//! Jungle (Dou Shou Qi) on a 9 x 7 board, in two variants.
//!
//! Representation: a mailbox `[u8; 63]` (cell = `row * 7 + col`; code `side << 4 | rank`,
//! 0 = empty), one occupancy bitboard per side and a bitboard of all rats (for river-jump
//! blocking). Steps, river jumps and the capture rules are tables computed at compile time;
//! the capture test is a single table look-up indexed by variant, the attacker's cell state
//! (land / water / on an enemy trap), the defender's cell state and the two ranks.
//!
//! Players: index 0 = `A` (top, moves first), index 1 = `B` (bottom).
//!
//! Game end, checked after each move in this order: the mover entered the opponent's den ->
//! mover wins; the opponent has no pieces left -> mover wins. In [`Variant::Standard`] a
//! player with no legal move on its turn loses; in [`Variant::Simplified`] such a player is
//! merely stuck (no moves, game not over, no winner).

use crate::position::{self, Code};
use crate::search::{self, Engine};
use crate::{Path, Playout};
use arrayvec::ArrayVec;

/// Rows of the board.
pub const ROWS: usize = 9;
/// Columns of the board.
pub const COLS: usize = 7;
const CELLS: usize = ROWS * COLS;

/// Capacity of a [`MoveList`]: every piece has at most one move per direction (a step or a
/// river jump), so 4 x 63 = 252 moves bound any position.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity move list (no heap allocation).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The rule variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard rules: water rule for captures, the Elephant never takes the Rat, the Rat
    /// takes the Elephant only from land, a player without a legal move loses.
    Standard = 0,
    /// The simplified ("seed 000") rules: a defender on the attacker's trap can always be
    /// taken, otherwise the Elephant never takes the Rat, the Rat takes the Elephant (even
    /// from water) unless it stands on an enemy trap, otherwise rank >= rank; no water rule;
    /// no "no legal move loses" rule.
    Simplified = 1,
}

/// Ranks (also the piece-kind numbering): Rat 1 .. Elephant 8.
const RAT: u8 = 1;
const TIGER: u8 = 6;
const LION: u8 = 7;
const ELEPHANT: u8 = 8;

/// Piece letters by rank (index 0 unused).
const LETTERS: [char; 9] = ['?', 'R', 'C', 'D', 'W', 'P', 'T', 'L', 'E'];
/// Player symbols / names by index.
const SYMBOLS: [char; 2] = ['A', 'B'];

const fn bit(sq: usize) -> u64 {
    1u64 << sq
}

const fn sq(r: usize, c: usize) -> usize {
    r * COLS + c
}

const WATER: u64 = {
    let mut m = 0u64;
    let mut r = 3;
    while r <= 5 {
        m |= bit(sq(r, 1)) | bit(sq(r, 2)) | bit(sq(r, 4)) | bit(sq(r, 5));
        r += 1;
    }
    m
};

/// Den of each side: A's den (0,3), B's den (8,3).
const DEN: [usize; 2] = [sq(0, 3), sq(8, 3)];

/// Traps owned by each side.
const TRAPS: [u64; 2] = [
    bit(sq(0, 2)) | bit(sq(0, 4)) | bit(sq(1, 3)),
    bit(sq(8, 2)) | bit(sq(8, 4)) | bit(sq(7, 3)),
];

/// Direction deltas: up, right, down, left.
const DR: [isize; 4] = [-1, 0, 1, 0];
const DC: [isize; 4] = [0, 1, 0, -1];

const NEIGH: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut s = 0;
    while s < CELLS {
        let (r, c) = ((s / COLS) as isize, (s % COLS) as isize);
        let mut d = 0;
        while d < 4 {
            let (nr, nc) = (r + DR[d], c + DC[d]);
            if nr >= 0 && nr < ROWS as isize && nc >= 0 && nc < COLS as isize {
                t[s] |= bit(sq(nr as usize, nc as usize));
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Step targets for non-rats of side `s`: neighbours that are not water and not `s`'s den.
const STEP_LAND: [[u64; CELLS]; 2] = {
    let mut t = [[0u64; CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < CELLS {
            t[side][s] = NEIGH[s] & !WATER & !bit(DEN[side]);
            s += 1;
        }
        side += 1;
    }
    t
};

/// Step targets for rats of side `s`: neighbours that are not `s`'s den.
const STEP_RAT: [[u64; CELLS]; 2] = {
    let mut t = [[0u64; CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < CELLS {
            t[side][s] = NEIGH[s] & !bit(DEN[side]);
            s += 1;
        }
        side += 1;
    }
    t
};

/// A river jump from some cell: the landing cell and the water cells jumped over.
#[derive(Clone, Copy)]
struct Jump {
    land: u8,
    water: u64,
}

/// River jumps from each land cell (at most two per cell on this board). The landing cells
/// are never dens, so no den test is needed for jumps.
const JUMPS: [([Jump; 2], u8); CELLS] = {
    let none = Jump { land: 0, water: 0 };
    let mut t = [([none; 2], 0u8); CELLS];
    let mut s = 0;
    while s < CELLS {
        if WATER & bit(s) == 0 {
            let (r, c) = ((s / COLS) as isize, (s % COLS) as isize);
            let mut d = 0;
            while d < 4 {
                let (mut nr, mut nc) = (r + DR[d], c + DC[d]);
                let mut water = 0u64;
                while nr >= 0
                    && nr < ROWS as isize
                    && nc >= 0
                    && nc < COLS as isize
                    && WATER & bit(sq(nr as usize, nc as usize)) != 0
                {
                    water |= bit(sq(nr as usize, nc as usize));
                    nr += DR[d];
                    nc += DC[d];
                }
                if water != 0 && nr >= 0 && nr < ROWS as isize && nc >= 0 && nc < COLS as isize {
                    let n = t[s].1 as usize;
                    t[s].0[n] = Jump {
                        land: sq(nr as usize, nc as usize) as u8,
                        water,
                    };
                    t[s].1 += 1;
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
};

/// Cell state of a piece of side `s`: 0 = land, 1 = water, 2 = on a trap owned by the
/// opponent of `s` (effective rank 0).
const ST_LAND: usize = 0;
const ST_WATER: usize = 1;
const ST_TRAPPED: usize = 2;
const STATE: [[u8; CELLS]; 2] = {
    let mut t = [[0u8; CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < CELLS {
            t[side][s] = if WATER & bit(s) != 0 {
                ST_WATER as u8
            } else if TRAPS[1 - side] & bit(s) != 0 {
                ST_TRAPPED as u8
            } else {
                ST_LAND as u8
            };
            s += 1;
        }
        side += 1;
    }
    t
};

/// The capture rule, spelled out once; the table below is built from it.
const fn can_capture(variant: usize, ast: usize, dst: usize, ar: u8, dr: u8) -> bool {
    let a_eff = if ast == ST_TRAPPED { 0 } else { ar };
    let d_eff = if dst == ST_TRAPPED { 0 } else { dr };
    if variant == Variant::Standard as usize {
        if (ast == ST_WATER) != (dst == ST_WATER) {
            return false;
        }
        if ar == ELEPHANT && dr == RAT {
            return false;
        }
        (ar == RAT && dr == ELEPHANT && ast != ST_WATER && a_eff > 0) || a_eff >= d_eff
    } else {
        if dst == ST_TRAPPED {
            return true;
        }
        if ar == ELEPHANT && dr == RAT {
            return false;
        }
        if ar == RAT && dr == ELEPHANT {
            return a_eff > 0;
        }
        a_eff >= d_eff
    }
}

/// `CAP[variant][attacker state][defender state][attacker rank]` = bit set of defender ranks
/// that may be captured. The defender's state is taken relative to the defender's side, so
/// "on a trap owned by its opponent" is "on the attacker's trap".
const CAP: [[[[u16; 9]; 3]; 3]; 2] = {
    let mut t = [[[[0u16; 9]; 3]; 3]; 2];
    let mut v = 0;
    while v < 2 {
        let mut a = 0;
        while a < 3 {
            let mut d = 0;
            while d < 3 {
                let mut ar = 1;
                while ar <= 8 {
                    let mut dr = 1;
                    while dr <= 8 {
                        if can_capture(v, a, d, ar, dr) {
                            t[v][a][d][ar as usize] |= 1 << dr;
                        }
                        dr += 1;
                    }
                    ar += 1;
                }
                d += 1;
            }
            a += 1;
        }
        v += 1;
    }
    t
};

/// A compact move: origin and destination cells as indexes `row * 7 + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin cell index (`row * 7 + col`).
    pub from: u8,
    /// Destination cell index (`row * 7 + col`).
    pub to: u8,
}

impl Move {
    /// The move as a path of `(row, col)` cells: `[from, to]`.
    pub fn path(self) -> Path {
        vec![cell_of(self.from), cell_of(self.to)]
    }
}

fn cell_of(i: u8) -> (u8, u8) {
    (i / COLS as u8, i % COLS as u8)
}

/// What [`Jungle::make`] returns and [`Jungle::unmake`] needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    captured: u8,
    result: u8,
}

/// A Jungle position with its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jungle {
    board: [u8; CELLS],
    occ: [u64; 2],
    rats: u64,
    side: u8,
    /// 0 = running, 1 + winner otherwise.
    result: u8,
    variant: Variant,
}

/// The standard start position string.
pub const START: &str = "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A";

impl Jungle {
    /// The start position of `variant` (A to move).
    pub fn start(variant: Variant) -> Self {
        Self::from_position(START, variant).expect("the start position parses")
    }

    /// Reads a position string (see [`crate::position`]). Codes are `A` or `B` followed by
    /// one of `E L T P W D C R`; the side to move is `A` or `B`. Any piece set is accepted.
    ///
    /// The game state is derived as if the side not to move had just moved: its piece in the
    /// opponent's den, or the side to move without pieces, means it has won; failing that the
    /// same two tests are made for the side to move.
    pub fn from_position(text: &str, variant: Variant) -> Result<Self, String> {
        let parsed = position::parse(text, ROWS, COLS)?;
        let side = match parsed.to_move.as_str() {
            "A" => 0u8,
            "B" => 1u8,
            other => return Err(format!("unknown side to move '{other}' (expected A or B)")),
        };
        let mut j = Jungle {
            board: [0; CELLS],
            occ: [0; 2],
            rats: 0,
            side,
            result: 0,
            variant,
        };
        for (i, cell) in parsed.cells.iter().enumerate() {
            let Some([p, l]) = *cell else { continue };
            let owner = SYMBOLS
                .iter()
                .position(|&s| s == p)
                .ok_or_else(|| format!("unknown player symbol '{p}' in code '{p}{l}'"))?;
            let rank = LETTERS
                .iter()
                .skip(1)
                .position(|&x| x == l)
                .ok_or_else(|| format!("unknown piece letter '{l}' in code '{p}{l}'"))?
                as u8
                + 1;
            j.board[i] = (owner as u8) << 4 | rank;
            j.occ[owner] |= bit(i);
            if rank == RAT {
                j.rats |= bit(i);
            }
        }
        let mover = (side ^ 1) as usize;
        let stm = side as usize;
        if j.occ[mover] & bit(DEN[stm]) != 0 || j.occ[stm] == 0 {
            j.result = 1 + mover as u8;
        } else if j.occ[stm] & bit(DEN[mover]) != 0 || j.occ[mover] == 0 {
            j.result = 1 + stm as u8;
        }
        Ok(j)
    }

    /// Writes the position string (side to move `A` or `B`).
    pub fn to_position(&self) -> String {
        let cells: Vec<Option<Code>> = self
            .board
            .iter()
            .map(|&c| (c != 0).then(|| [SYMBOLS[(c >> 4) as usize], LETTERS[(c & 15) as usize]]))
            .collect();
        position::format(&cells, COLS, &SYMBOLS[self.side as usize].to_string())
    }

    /// The rule variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The player to move: 0 = `A`, 1 = `B`.
    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    /// Non-allocating move generation: appends every legal move to `out` (nothing when the
    /// game is over).
    #[inline]
    pub fn generate(&self, out: &mut MoveList) {
        if self.result != 0 {
            return;
        }
        let s = self.side as usize;
        let own = self.occ[s];
        let opp = self.occ[s ^ 1];
        let cap = &CAP[self.variant as usize];
        let st_def = &STATE[s ^ 1];
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let rank = self.board[from] & 15;
            let caps = &cap[STATE[s][from] as usize];
            let mut targets = if rank == RAT {
                STEP_RAT[s][from]
            } else {
                STEP_LAND[s][from]
            } & !own;
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                if opp & bit(to) == 0
                    || caps[st_def[to] as usize][rank as usize] & (1 << (self.board[to] & 15)) != 0
                {
                    out.push(Move {
                        from: from as u8,
                        to: to as u8,
                    });
                }
            }
            if rank == LION || rank == TIGER {
                let (jumps, n) = &JUMPS[from];
                for j in &jumps[..*n as usize] {
                    let to = j.land as usize;
                    if self.rats & j.water != 0 || own & bit(to) != 0 {
                        continue;
                    }
                    if opp & bit(to) == 0
                        || caps[st_def[to] as usize][rank as usize] & (1 << (self.board[to] & 15))
                            != 0
                    {
                        out.push(Move {
                            from: from as u8,
                            to: j.land,
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

    /// Plays `mv` (which must be legal here) and returns what [`Jungle::unmake`] needs.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let s = self.side as usize;
        let o = s ^ 1;
        let piece = self.board[from];
        let captured = self.board[to];
        let undo = Undo {
            captured,
            result: self.result,
        };
        self.board[to] = piece;
        self.board[from] = 0;
        self.occ[s] ^= bit(from) | bit(to);
        if captured != 0 {
            self.occ[o] ^= bit(to);
            if captured & 15 == RAT {
                self.rats ^= bit(to);
            }
        }
        if piece & 15 == RAT {
            self.rats ^= bit(from) | bit(to);
        }
        if to == DEN[o] || self.occ[o] == 0 {
            self.result = 1 + s as u8;
        }
        self.side = o as u8;
        undo
    }

    /// Takes back `mv`, which must be the last move made, with the [`Undo`] it returned.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let o = self.side as usize;
        let s = o ^ 1;
        let piece = self.board[to];
        self.board[from] = piece;
        self.board[to] = undo.captured;
        self.occ[s] ^= bit(from) | bit(to);
        if piece & 15 == RAT {
            self.rats ^= bit(from) | bit(to);
        }
        if undo.captured != 0 {
            self.occ[o] ^= bit(to);
            if undo.captured & 15 == RAT {
                self.rats ^= bit(to);
            }
        }
        self.result = undo.result;
        self.side = s as u8;
    }

    /// `None` while the game runs; `Some(winner)` when it is over (`winner` is a player
    /// index). In the standard variant a side to move without legal moves has lost; in the
    /// simplified variant it is just stuck and this returns `None`.
    pub fn outcome(&self) -> Option<Option<u8>> {
        search::outcome(self)
    }

    /// Number of move sequences of length `depth`; every move is made and unmade down to
    /// depth 0 (no bulk counting).
    pub fn perft(&mut self, depth: u32) -> u64 {
        search::perft(self, depth)
    }

    /// Same count as [`Jungle::perft`], counting the moves at the last ply without making
    /// them.
    pub fn perft_bulk(&mut self, depth: u32) -> u64 {
        search::perft_bulk(self, depth)
    }

    /// Plays uniformly chosen legal moves (`pick(n)` must return an index in `0..n`) until
    /// the game is over, the side to move is stuck (simplified variant: ends with no winner,
    /// not capped) or `max_plies` moves have been played (`capped`). The position is
    /// restored afterwards from a copy taken before the first move (no allocation).
    pub fn playout(&mut self, pick: &mut impl FnMut(usize) -> usize, max_plies: u32) -> Playout {
        search::playout(self, pick, max_plies)
    }
}

impl Engine for Jungle {
    type Move = Move;
    type Undo = Undo;
    type List = MoveList;

    #[inline(always)]
    fn generate(&self, out: &mut MoveList) {
        Jungle::generate(self, out)
    }

    #[inline(always)]
    fn make(&mut self, m: Move) -> Undo {
        Jungle::make(self, m)
    }

    #[inline(always)]
    fn unmake(&mut self, m: Move, u: Undo) {
        Jungle::unmake(self, m, u)
    }

    #[inline(always)]
    fn ended(&self) -> Option<Option<u8>> {
        (self.result != 0).then(|| Some(self.result - 1))
    }

    #[inline(always)]
    fn stuck(&self) -> Option<u8> {
        match self.variant {
            Variant::Standard => Some(self.side ^ 1),
            Variant::Simplified => None,
        }
    }
}
