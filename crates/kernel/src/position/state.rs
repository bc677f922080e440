//! The game state and its primitive changes: putting and taking pieces, counts, the side to
//! move, the history of keys.

use super::*;
use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::piece::{KindId, PIECE_CODES, PLAYERS, Piece, Player};
use crate::rules::Rules;
use crate::status::Outcome;
use crate::tables::{EagerTest, NONE};

/// The pieces on the board and everything else a game's future depends on.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub board: [u8; MAX_CELLS],
    pub occupied: [CellSet; PLAYERS],
    /// Pieces on the board: by piece code, then (at `PIECE_CODES + player`) by player.
    pub counts: [u16; PIECE_CODES + PLAYERS],
    pub side: Player,
    pub clock: u16,
    /// Plies since the last capture or promotion.
    pub idle: u16,
    /// The number of the ply: plies made since the set-up, after those a FEN's move number
    /// counts (indexes `seen`, from its base).
    pub ply: u32,
    /// The repetition keys of the positions since the position was set up, kept only when the
    /// rules read `repetitions`.
    pub seen: Option<Seen>,
    pub hash: u64,
    pub outcome: Option<Outcome>,
    /// By moving player: the first end rule decided by piece counts as they stand, or `NONE`.
    /// Kept only when every eagerly tested end rule is a count (see [`Rules::counts_only`]),
    /// so that a move that changes no count needs no count test.
    pub count_end: [u8; PLAYERS],
    /// Passes made in a row, the last move included.
    pub passes: u8,
    /// By piece code: how many such pieces their owner still has in hand (for kinds with a
    /// limited supply); kept only for rules with one.
    pub reserve: Option<Box<[u16; PIECE_CODES]>>,
    /// What effects and second parts changed, as (cell, code before), most recent last, each
    /// move's entries after a mark: unmake pops them. Empty for rules that are not general.
    pub log: Log,
    /// The cells of pieces that have not moved, for kinds that keep it.
    pub unmoved: CellSet,
    /// The cells the last move passed, where its piece may be taken this turn.
    pub ghost: CellSet,
    /// The cell of the piece that passed them.
    pub ghost_victim: u16,
    /// Whether the last move changed a piece count or moved a piece of a kind whose cells an
    /// end rule of counts reads (`EagerTest::Counts`); true for a position set up. After a
    /// move, such a rule is tested only if this move or the last one did: otherwise it is
    /// as it was two plies ago, seen from the same player, when it did not hold.
    pub stirred: bool,
    /// In a game of turns of several moves (`[turn]`): the moves the side to move has made
    /// in this turn (0 on a turn's first move).
    pub turn: u8,
    /// The cells where this turn's earlier moves put their pieces.
    pub turn_cells: CellSet,
}

/// Equal states have equal futures: every field, but of the history of keys only the plies
/// [`State::repetitions`] can read (a slot past them holds a key from a move taken back).
impl PartialEq for State {
    fn eq(&self, o: &State) -> bool {
        let State {
            board,
            occupied,
            counts,
            side,
            clock,
            idle,
            ply,
            seen,
            hash,
            outcome,
            count_end,
            passes,
            reserve,
            log,
            unmoved,
            ghost,
            ghost_victim,
            // What to test after a move, not part of the position.
            stirred: _,
            turn,
            turn_cells,
        } = self;
        let seen_eq = match (seen, &o.seen) {
            (Some(a), Some(b)) => a.readable(*ply, *idle) == b.readable(*ply, *idle),
            (a, b) => a.is_none() && b.is_none(),
        };
        board == &o.board
            && occupied == &o.occupied
            && counts == &o.counts
            && side == &o.side
            && clock == &o.clock
            && idle == &o.idle
            && ply == &o.ply
            && seen_eq
            && hash == &o.hash
            && outcome == &o.outcome
            && count_end == &o.count_end
            && passes == &o.passes
            && reserve == &o.reserve
            && log == &o.log
            && unmoved == &o.unmoved
            && ghost == &o.ghost
            && ghost_victim == &o.ghost_victim
            && turn == &o.turn
            && turn_cells == &o.turn_cells
    }
}

impl Eq for State {}

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
            seen: rules.uses_repetitions.then(Seen::new),
            hash: 0,
            outcome: None,
            count_end: [NONE; PLAYERS],
            passes: 0,
            reserve: rules
                .supply
                .iter()
                .any(Option::is_some)
                .then(|| Box::new([0; PIECE_CODES])),
            log: Log(Vec::with_capacity(if rules.general { LOG_ROOM } else { 0 })),
            unmoved: CellSet::EMPTY,
            ghost: CellSet::EMPTY,
            ghost_victim: 0,
            stirred: true,
            turn: 0,
            turn_cells: CellSet::EMPTY,
        }
        .with_reserve(rules)
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

    /// The full supply of every kind with a limited one, in each player's hand.
    pub(super) fn with_reserve(mut self, rules: &Rules) -> State {
        for (k, n) in rules.supply.iter().enumerate() {
            if let Some(n) = n {
                for p in Player::ALL {
                    let code = Piece::new(KindId(k as u8), p).code();
                    self.set_reserve(code, *n);
                }
            }
        }
        self
    }

    /// Sets how many pieces of `code` its owner has in hand, keeping the key up to date.
    pub fn set_reserve(&mut self, code: usize, n: u16) {
        let Some(reserve) = &mut self.reserve else {
            return;
        };
        self.hash ^= reserve_key(code, reserve[code]) ^ reserve_key(code, n);
        reserve[code] = n;
    }

    /// How many pieces of `code` their owner has in hand (0 for rules without a supply).
    #[inline]
    pub fn in_hand(&self, code: usize) -> u16 {
        self.reserve.as_ref().map_or(0, |r| r[code])
    }

    /// Sets the number of passes in a row, keeping the key up to date.
    #[inline]
    /// Sets the turn's move count and moved cells, with their keys.
    pub(crate) fn set_turn(&mut self, n: u8, cells: CellSet) {
        self.hash ^= turn_key(self.turn) ^ turn_key(n);
        for c in self.turn_cells.iter().chain(cells.iter()) {
            self.hash ^= turn_cell_key(c);
        }
        self.turn = n;
        self.turn_cells = cells;
    }

    pub fn set_passes(&mut self, n: u8) {
        self.hash ^= pass_key(self.passes) ^ pass_key(n);
        self.passes = n;
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
    pub(crate) fn owner_of(code: u8) -> Player {
        Piece(code).owner()
    }

    /// Records the current position as the latest one (after a set-up, a placement or a
    /// move), by its repetition key.
    ///
    /// The repetition key compares positions: [`State::hash`] without the parts of
    /// the extra state that change no possible move (FIDE 9.2.3: the same pieces on the same
    /// cells, the same side to move, the same possible moves). Cells open to capture count
    /// only when a legal move of the side to move takes the piece that passed them; an unmoved
    /// flag counts only while it may still make a compound move possible: the mover's while
    /// an unmoved partner stands in the move's direction from it, the partner's while such a
    /// mover stands behind it.
    pub fn remember(&mut self, rules: &Rules) {
        let Some(seen) = &self.seen else {
            return;
        };
        // The dead unmoved flags depend on the unmoved set alone (a flagged cell keeps its
        // piece: a move or a capture there clears the flag), which changes on few moves: they
        // are kept for the last set seen.
        // (Rules without compound moves keep no unmoved flag.)
        let dead = if rules.compounds.is_empty() || self.unmoved.is_empty() {
            0
        } else if seen.dead_for == self.unmoved {
            seen.dead_xor
        } else {
            self.dead_unmoved_xor(rules)
        };
        let key = self.ghost_free_key(rules) ^ dead;
        let board = if rules.uses_board_repetitions {
            self.board_key(rules)
        } else {
            0
        };
        let (ply, unmoved) = (self.ply, self.unmoved);
        if let Some(seen) = &mut self.seen {
            seen.dead_for = unmoved;
            seen.dead_xor = dead;
            seen.record(ply, key, board);
        }
    }

    /// The key of the board alone: the pieces on their cells, whoever is to move, whatever is
    /// in hand (what `board_repetitions` compares).
    pub fn board_key(&self, rules: &Rules) -> u64 {
        let mut key = 0;
        for side in &self.occupied {
            for c in side.iter() {
                key ^= rules.zobrist[self.board[c.index()] as usize][c.index()];
            }
        }
        key
    }

    /// How many earlier positions of the game had the board of this one, among those
    /// remembered up to and including ply `upto` of `history` (this position's own history, or
    /// the one of the position a move is being judged from).
    pub fn board_repetitions(&self, rules: &Rules, history: &State, upto: u32) -> i64 {
        let Some(seen) = &history.seen else { return 0 };
        let Some(i) = upto.checked_sub(seen.base) else {
            return 0;
        };
        let end = (i as usize + 1).min(seen.boards.len());
        let now = self.board_key(rules);
        seen.boards[..end].iter().filter(|&&k| k == now).count() as i64
    }

    /// [`State::hash`] without the cells open to capture when no legal move takes their piece.
    fn ghost_free_key(&self, rules: &Rules) -> u64 {
        let mut key = self.hash;
        if !rules.ghost_keys.is_empty() && !self.ghost.is_empty() && !self.ghost_takeable(rules) {
            for c in self.ghost.iter() {
                key ^= rules.ghost_keys[c.index()];
            }
        }
        key
    }

    /// The keys of the unmoved flags that can no longer make a compound move possible.
    fn dead_unmoved_xor(&self, rules: &Rules) -> u64 {
        let mut dead = self.unmoved;
        dead.remove_all(&self.live_unmoved(rules));
        dead.iter()
            .fold(0, |key, c| key ^ rules.unmoved_keys[c.index()])
    }

    /// Earlier occurrences of the current position, since the last capture, promotion or move
    /// that resets the idle clock (at most [`crate::MAX_REPETITION_LOOKBACK`] plies back, where
    /// the idle clock stops), among the positions played since the set-up.
    pub fn repetitions(&self) -> i64 {
        let Some(seen) = &self.seen else { return 0 };
        let Some(keys) = seen.readable(self.ply, self.idle) else {
            return 0;
        };
        let Some((&now, before)) = keys.split_last() else {
            return 0;
        };
        // `before` ends with the position one ply back: the same side is to move at an even
        // distance.
        before
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == now)
            .count() as i64
    }

    /// Sets the piece on `cell` to `code` (0: none), recording the code before in the log.
    #[inline]
    pub fn change(&mut self, rules: &Rules, cell: Cell, code: u8) {
        let before = self.take(rules, cell);
        self.log.0.push((cell.0, before));
        if code != 0 {
            self.put(rules, Piece(code), cell);
        }
    }

    /// Takes back the changes logged for the last move, up to and including its mark, and
    /// returns what the mark kept (the passes in a row before the move).
    pub fn rewind_move(&mut self, rules: &Rules) -> u8 {
        while let Some((cell, code)) = self.log.0.pop() {
            if cell == super::general::MARK || cell == super::general::MARK_STIRRED {
                self.stirred = cell == super::general::MARK_STIRRED;
                return code;
            }
            if cell >= TAGS {
                let at = Cell(cell & TAG_CELL);
                match cell & !TAG_CELL {
                    UNMOVED_TAG => self.unmoved.insert(at),
                    // Pieces a capture sent to a hand: back out of it (the key is restored
                    // with the rest of the move).
                    HAND_TAG => {
                        if let Some(r) = self.reserve.as_mut().and_then(|r| r.get_mut(at.index())) {
                            *r = r.saturating_sub(u16::from(code));
                        }
                    }
                    GHOST_TAG => self.ghost.insert(at),
                    // A turn's state before the move; a move after which the player moved
                    // again kept the side, which unmake expects changed (the key is restored
                    // with the rest of the move).
                    TURN_TAG => {
                        self.turn = code & !TURN_KEPT;
                        if code & TURN_KEPT != 0 {
                            self.side = self.side.other();
                        }
                    }
                    TURN_CELL_TAG => self.turn_cells.toggle(at),
                    _ => {
                        self.ghost = CellSet::EMPTY;
                        self.ghost_victim = at.0;
                    }
                }
                continue;
            }
            let cell = Cell(cell);
            self.take(rules, cell);
            if code != 0 {
                self.put(rules, Piece(code), cell);
            }
        }
        0
    }

    #[inline]
    pub fn count(&self, player: Player, kind: Option<KindId>) -> i64 {
        match kind {
            Some(k) => self.counts[Piece::new(k, player).code()] as i64,
            None => self.counts[PIECE_CODES + player.index()] as i64,
        }
    }
}

/// The key of `n` pieces of `code` in hand (0 for none, so that a game without reserves keeps
/// its keys).
fn reserve_key(code: usize, n: u16) -> u64 {
    if n == 0 {
        return 0;
    }
    mix(0x5EED_0000_0000 ^ ((code as u64) << 16) ^ n as u64)
}

/// The key of `n` moves made in the current turn (0 for none, so that a game without turns
/// keeps its keys).
pub(crate) fn turn_key(n: u8) -> u64 {
    if n == 0 {
        0
    } else {
        mix(0x7A47_0000 ^ n as u64)
    }
}

/// The key of a cell where an earlier move of the current turn put its piece.
pub(crate) fn turn_cell_key(c: Cell) -> u64 {
    mix(0x7CE1_0000_0000 ^ c.0 as u64)
}

/// The key of `n` passes in a row.
fn pass_key(n: u8) -> u64 {
    if n == 0 {
        0
    } else {
        mix(0xBA55_0000 ^ n as u64)
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Room for the keys of this many positions is reserved with every history of keys, so that
/// games and searches up to that length never grow it.
const SEEN_ROOM: usize = 1024;

/// The repetition keys of the positions played since a set-up, by ply.
#[derive(Debug)]
pub(crate) struct Seen {
    /// The ply of the first key (the set-up).
    base: u32,
    /// By `ply - base`; keys past the current ply are of moves taken back.
    keys: Vec<u64>,
    /// The boards' keys ([`State::board_key`]), by ply as `keys` (zeros for rules that do not
    /// read `board_repetitions`).
    boards: Vec<u64>,
    /// The unmoved set last remembered, and the keys of its dead flags.
    dead_for: CellSet,
    dead_xor: u64,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            base: 0,
            keys: Vec::with_capacity(SEEN_ROOM),
            boards: Vec::with_capacity(SEEN_ROOM),
            dead_for: CellSet::EMPTY,
            dead_xor: 0,
        }
    }

    /// Records `key` as the key of ply `ply` (the first at or before the base starts anew).
    fn record(&mut self, ply: u32, key: u64, board: u64) {
        if self.keys.is_empty() || ply <= self.base {
            self.base = ply;
            self.keys.clear();
            self.boards.clear();
        }
        let i = (ply - self.base) as usize;
        // Plies are remembered one after the other; a gap (none is known) is filled with the
        // new key, which counts no repetition that was not one.
        self.keys.resize(i, key);
        self.keys.push(key);
        self.boards.resize(i, board);
        self.boards.push(board);
    }

    /// The keys `repetitions` reads at ply `ply` with the idle clock at `idle`: the last
    /// `idle` plies' and the current one, or `None` when the current one is not recorded.
    fn readable(&self, ply: u32, idle: u16) -> Option<&[u64]> {
        let i = ply.checked_sub(self.base)? as usize;
        if i >= self.keys.len() {
            return None;
        }
        Some(&self.keys[i - i.min(idle as usize)..=i])
    }
}

/// A copy keeps the room reserved, so that it does not grow either.
impl Clone for Seen {
    fn clone(&self) -> Seen {
        let mut keys = Vec::with_capacity(self.keys.len().max(SEEN_ROOM));
        keys.extend_from_slice(&self.keys);
        let mut boards = Vec::with_capacity(self.boards.len().max(SEEN_ROOM));
        boards.extend_from_slice(&self.boards);
        Seen {
            base: self.base,
            keys,
            boards,
            dead_for: self.dead_for,
            dead_xor: self.dead_xor,
        }
    }
}

/// Log entries at or above this are not cells: they restore the extra state of a position.
pub(crate) const TAGS: u16 = 0x400;
/// The cell of a tagged log entry, in its low ten bits.
pub(crate) const TAG_CELL: u16 = 0x3ff;
/// A log entry: the cell in the low bits held an unmoved piece.
pub(crate) const UNMOVED_TAG: u16 = 0x400;
/// A log entry: the cell in the low bits was open to capture.
pub(crate) const GHOST_TAG: u16 = 0x800;
/// A log entry: the cells open to capture were those of the entries before it (none if none),
/// passed by the piece on the cell in the low bits.
pub(crate) const VICTIM_TAG: u16 = 0xc00;
/// A log entry of pieces sent to a hand: the piece code in the low bits, how many in the
/// entry's code.
pub(crate) const HAND_TAG: u16 = 0x1000;
/// A log entry whose code is the turn's move count before the move, with [`TURN_KEPT`] when
/// the move kept the side to move.
pub(crate) const TURN_TAG: u16 = 0x1400;
/// In a [`TURN_TAG`] entry's code: the player moved again.
pub(crate) const TURN_KEPT: u8 = 0x80;
/// A log entry for a cell that joined or left the turn's moved cells.
pub(crate) const TURN_CELL_TAG: u16 = 0x1800;
const _: () = assert!(crate::cell::MAX_CELLS as u16 - 1 == TAG_CELL);

/// Room reserved in the change log of general rules: a mark and a few changes for each of
/// a game's moves (a thousand plies of a game with captures by effect, a whole game of
/// flipping), so that make never grows it.
const LOG_ROOM: usize = 4096;

/// The changes log of a state: a means of undoing, not part of the position, so two states
/// are equal whatever their logs hold.
#[derive(Clone, Debug, Default)]
pub(crate) struct Log(pub Vec<(u16, u8)>);

impl PartialEq for Log {
    fn eq(&self, _: &Log) -> bool {
        true
    }
}

impl Eq for Log {}
