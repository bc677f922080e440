//! The game state and its primitive changes: putting and taking pieces, counts, the side to
//! move, the history of keys.

use super::*;
use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::piece::{KindId, PIECE_CODES, PLAYERS, Piece, Player};
use crate::rules::{REPETITION_WINDOW, Rules};
use crate::status::Outcome;
use crate::tables::{EagerTest, NONE};

/// The pieces on the board and everything else a game's future depends on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct State {
    pub board: [u8; MAX_CELLS],
    pub occupied: [CellSet; PLAYERS],
    /// Pieces on the board: by piece code, then (at `PIECE_CODES + player`) by player.
    pub counts: [u16; PIECE_CODES + PLAYERS],
    pub side: Player,
    pub clock: u16,
    /// Plies since the last capture or promotion.
    pub idle: u16,
    /// Plies made since the position was set up (indexes `seen`).
    pub ply: u32,
    /// The keys of the last positions, by `ply % REPETITION_WINDOW`, kept only when the rules
    /// read `repetitions` (allocated once, with the position).
    pub seen: Option<Box<[u64; REPETITION_WINDOW]>>,
    pub hash: u64,
    pub outcome: Option<Outcome>,
    /// By moving player: the first end rule decided by piece counts as they stand, or `NONE`.
    /// Kept only when every eagerly tested end rule is a count (see [`Rules::counts_only`]),
    /// so that a move that changes no count needs no count test.
    pub count_end: [u8; PLAYERS],
}

impl State {
    pub fn empty(rules: &Rules) -> State {
        State {
            board: [0; MAX_CELLS],
            occupied: [CellSet::EMPTY; PLAYERS],
            counts: [0; PIECE_CODES + PLAYERS],
            side: Player::FIRST,
            clock: 0,
            idle: 0,
            ply: 0,
            seen: rules
                .uses_repetitions
                .then(|| Box::new([0; REPETITION_WINDOW])),
            hash: 0,
            outcome: None,
            count_end: [NONE; PLAYERS],
        }
        .with_side_hash(rules)
        .with_count_end(rules)
    }

    pub(super) fn with_count_end(mut self, rules: &Rules) -> State {
        self.recount(rules);
        self
    }

    /// Brings [`State::count_end`] up to date with the counts. [`State::put`] and
    /// [`State::take`] leave it stale, so that a move or a set-up changing several pieces
    /// recounts once: whoever calls them outside make and unmake calls this after.
    #[inline]
    pub fn recount(&mut self, rules: &Rules) {
        self.recount_as::<Full>(rules)
    }

    /// [`State::recount`], knowing the rules' [`Profile`].
    #[inline]
    pub(super) fn recount_as<P: Profile>(&mut self, rules: &Rules) {
        if !P::LEAN && !rules.counts_only {
            return;
        }
        for p in 0..PLAYERS {
            self.count_end[p] = rules
                .eager
                .iter()
                .find(|e| match e.test {
                    EagerTest::Count { at, lo, hi } => {
                        (lo..=hi).contains(&(self.counts[at[p] as usize] as i64))
                    }
                    _ => false,
                })
                .map_or(NONE, |e| e.index);
        }
    }

    pub(super) fn with_side_hash(mut self, rules: &Rules) -> State {
        if self.side != Player::FIRST {
            self.hash ^= rules.zobrist_side;
        }
        self
    }

    #[inline]
    pub fn put(&mut self, rules: &Rules, piece: Piece, cell: Cell) {
        self.board[cell.index()] = piece.0;
        self.occupied[piece.owner().index()].insert(cell);
        self.counts[piece.code()] += 1;
        self.counts[PIECE_CODES + piece.owner().index()] += 1;
        self.hash ^= rules.zobrist[piece.code()][cell.index()];
    }

    #[inline]
    pub fn take(&mut self, rules: &Rules, cell: Cell) -> u8 {
        let code = self.board[cell.index()];
        if code != 0 {
            let piece = Piece(code);
            self.board[cell.index()] = 0;
            self.occupied[piece.owner().index()].remove(cell);
            self.counts[piece.code()] -= 1;
            self.counts[PIECE_CODES + piece.owner().index()] -= 1;
            self.hash ^= rules.zobrist[piece.code()][cell.index()];
        }
        code
    }

    pub fn set_side(&mut self, rules: &Rules, side: Player) {
        if side != self.side {
            self.hash ^= rules.zobrist_side;
            self.side = side;
        }
    }

    #[inline]
    pub(super) fn owner_of(code: u8) -> Player {
        Piece(code).owner()
    }

    /// Records the current position as the latest one (after a set-up or a placement).
    pub fn remember(&mut self) {
        if let Some(seen) = &mut self.seen {
            seen[self.ply as usize % REPETITION_WINDOW] = self.hash;
        }
    }

    /// Earlier occurrences of the current position, since the last capture or promotion.
    pub fn repetitions(&self) -> i64 {
        let Some(seen) = &self.seen else { return 0 };
        let back = (self.idle as usize)
            .min(self.ply as usize)
            .min(REPETITION_WINDOW - 1);
        (2..=back)
            .step_by(2)
            .filter(|k| seen[(self.ply as usize).wrapping_sub(*k) % REPETITION_WINDOW] == self.hash)
            .count() as i64
    }

    #[inline]
    pub fn count(&self, player: Player, kind: Option<KindId>) -> i64 {
        match kind {
            Some(k) => self.counts[Piece::new(k, player).code()] as i64,
            None => self.counts[PIECE_CODES + player.index()] as i64,
        }
    }
}
