//! The game state, move generation, and make/unmake.
//!
//! [`Position`] is a board of piece bytes, one occupancy bitboard per player, piece counts, the
//! side to move, a ply clock, a Zobrist key and the outcome, all updated incrementally. Move
//! generation walks the side's occupancy bitboard (so it costs O(pieces)), and for each piece
//! its kind's step groups from that cell (masks ANDed with the empty and enemy cells, as a
//! hand-written bitboard engine does), then the targets that need more than one look at the
//! board (blockable jumps, hops, patterns read during play). A piece's moves therefore come
//! in destination-cell order within each pattern. Make and unmake touch only the cells the move
//! involves. Neither allocates.
//!
//! Generation is written once over a [`Sink`]: a caller's callback (which may stop early), or,
//! for perft and playouts, a buffer in a [`MoveList`] whose count is passed by value so that it
//! stays in a register (the listed targets and the interpreted path run out of line, taking the
//! buffer by value and returning its count). Perft makes and takes back every move of its last
//! ply; that loop reads the state's scalar fields once for all its moves ([`Before`]) instead
//! of waiting on each unmake's stores. Rules without promotion, position history or eager
//! end rules other than counts ([`Rules::lean`]) get make and unmake compiled without tests
//! for those features ([`Profile`]). A playout of rules without history restores its start
//! position from a copy; with history, it takes every move back.

use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::expr::{Env, EvalError, Value, Var};
use crate::moves::{Callback, Move, MoveList, Sink};
use crate::piece::{KindId, PIECE_CODES, PLAYERS, Piece, Player};
use crate::rules::{
    BLOCKABLE, CAPTURE, CHAIN, CompiledMove, EagerTest, EndCheck, HOP, JUMP, Jumped, MAX_HOPS,
    NONE, Outcome, QUIET, REPETITION_WINDOW, Rules, SLOW, Target, bit,
};
use crate::steps::{Slot, StepGroup};
use std::ops::ControlFlow;
use std::sync::Arc;

/// What [`Position::make`] returns so that [`Position::unmake`] can restore the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    step: StepUndo,
    /// For a hop chain, the pieces hopped after the first (which is `step.captured()`).
    hopped: [u8; HOPPED],
}

/// Room for the pieces a chain hops after its first: `MAX_HOPS - 1`, rounded up to whole
/// words so that the record has no padding, and a copy of it reads back only bytes that were
/// written as whole words.
const HOPPED: usize = (MAX_HOPS - 1).next_multiple_of(8);

impl Undo {
    /// The piece the `i`-th hop of a chain took.
    #[inline]
    fn hopped(&self, i: usize) -> u8 {
        match i {
            0 => self.step.captured(),
            _ => self.hopped[i - 1],
        }
    }

    #[inline]
    fn set_hopped(&mut self, i: usize, piece: u8) {
        match i {
            0 => self.step.set_captured(piece),
            _ => self.hopped[i - 1] = piece,
        }
    }
}

/// What unmake needs after a step or a jump: the key, and in one word the clocks, the moving
/// and the captured piece and the count verdicts. Sixteen bytes, so that a make and unmake
/// pair in a loop keeps it in registers; and two whole words, so that a record kept in memory
/// (across a search's recursion, or behind `black_box`) is written and read back word for
/// word, which the processor forwards from store to load, rather than byte for byte into
/// words, which it cannot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepUndo {
    hash: u64,
    /// Clock (bits 0..16), idle clock (16..32), piece (32..40), captured piece (40..48), count
    /// verdicts by player (48..56, 56..64).
    word: u64,
}

const _: () = assert!(PLAYERS == 2, "StepUndo packs one count verdict per player");

impl StepUndo {
    #[inline(always)]
    fn new(hash: u64, clock: u16, idle: u16, piece: u8, captured: u8, ends: [u8; 2]) -> StepUndo {
        StepUndo {
            hash,
            word: clock as u64
                | (idle as u64) << 16
                | (piece as u64) << 32
                | (captured as u64) << 40
                | (ends[0] as u64) << 48
                | (ends[1] as u64) << 56,
        }
    }

    #[inline(always)]
    fn clock(&self) -> u16 {
        self.word as u16
    }

    #[inline(always)]
    fn idle(&self) -> u16 {
        (self.word >> 16) as u16
    }

    #[inline(always)]
    fn piece(&self) -> u8 {
        (self.word >> 32) as u8
    }

    #[inline(always)]
    fn captured(&self) -> u8 {
        (self.word >> 40) as u8
    }

    #[inline(always)]
    fn count_end(&self) -> [u8; 2] {
        [(self.word >> 48) as u8, (self.word >> 56) as u8]
    }

    #[inline(always)]
    fn set_captured(&mut self, captured: u8) {
        self.word = (self.word & !(0xff << 40)) | (captured as u64) << 40;
    }
}

/// The fields a step reads before it moves anything. A leaf loop of a perft reads them once
/// for all the moves it makes and takes back, so that no move waits for the previous one to
/// have written them back; and with them, unmake under [`Lean`] rules stores the occupancy
/// words as they were, instead of toggling the bits back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Before {
    hash: u64,
    /// The first 64 cells of the side to move, then of its opponent.
    own: u64,
    enemy: u64,
    clock: u16,
    idle: u16,
    count_end: [u8; PLAYERS],
    side: Player,
}

/// The rule features that make and unmake test on every move, fixed for a whole perft or
/// playout. [`Lean`] is for rules without promotion or history, whose eager end rules are all
/// counts, on a board of at most 64 cells ([`Rules::lean`]): its make and unmake carry no
/// test for the features it lacks. [`Full`] tests each feature when it meets it.
pub(crate) trait Profile {
    /// Whether the rules are lean.
    const LEAN: bool;
}

/// See [`Profile`].
pub(crate) struct Lean;

/// See [`Profile`].
pub(crate) struct Full;

impl Profile for Lean {
    const LEAN: bool = true;
}

impl Profile for Full {
    const LEAN: bool = false;
}

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

/// A position of a game: the rules, the pieces, the side to move.
///
/// Cloning a position copies the state (about 600 bytes) and shares the rules.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) state: State,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules) && self.state == other.state
    }
}

impl Eq for Position {}

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

    fn with_count_end(mut self, rules: &Rules) -> State {
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
    fn recount_as<P: Profile>(&mut self, rules: &Rules) {
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

    fn with_side_hash(mut self, rules: &Rules) -> State {
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
    fn owner_of(code: u8) -> Player {
        Piece(code).owner()
    }

    /// Generates the legal moves of `side` (as if it were to move), calling `f` for each.
    pub fn generate<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.generate_into(rules, side, &mut Callback(f))
    }

    /// [`State::generate`], into any [`Sink`].
    #[inline(always)]
    fn generate_into<S: Sink>(
        &self,
        rules: &Rules,
        side: Player,
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        if self.outcome.is_some() {
            return ControlFlow::Continue(());
        }
        if rules.must_capture {
            return sink.escape(|mut f| self.generate_must_capture(rules, side, &mut f));
        }
        let masks = self.masks(side);
        if rules.narrow {
            let mut own = self.occupied[side.slot()].low();
            while own != 0 {
                let from = Cell(own.trailing_zeros() as u8);
                own &= own - 1;
                self.generate_piece(rules, side, from, masks, sink)?;
            }
            return ControlFlow::Continue(());
        }
        for from in self.occupied[side.index()].iter() {
            self.generate_piece(rules, side, from, masks, sink)?;
        }
        ControlFlow::Continue(())
    }

    /// The empty cells and the cells of `side`'s opponent, as masks of the first 64 cells (all
    /// of them on a board narrow enough to have step groups).
    #[inline(always)]
    fn masks(&self, side: Player) -> (u64, u64) {
        let own = self.occupied[side.slot()].low();
        let enemy = self.occupied[side.other().slot()].low();
        (!(own | enemy), enemy)
    }

    /// Capture is mandatory: the captures if there are any, else the other moves.
    fn generate_must_capture<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut any = false;
        let masks = self.masks(side);
        for from in self.occupied[side.index()].iter() {
            let mut captures = |m: Move| {
                if m.is_capture() {
                    any = true;
                    f(m)
                } else {
                    ControlFlow::Continue(())
                }
            };
            self.generate_piece(rules, side, from, masks, &mut Callback(&mut captures))?;
        }
        if !any {
            for from in self.occupied[side.index()].iter() {
                self.generate_piece(rules, side, from, masks, &mut Callback(f))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Generates the legal moves of the piece on `from`, which belongs to `side`.
    pub fn generate_from<B>(
        &self,
        rules: &Rules,
        side: Player,
        from: Cell,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.generate_piece(rules, side, from, self.masks(side), &mut Callback(f))
    }

    /// [`State::generate_from`], given [`State::masks`]: the step groups as bitboards, then
    /// the listed targets one by one.
    #[inline(always)]
    fn generate_piece<S: Sink>(
        &self,
        rules: &Rules,
        side: Player,
        from: Cell,
        (empty, enemy): (u64, u64),
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        let pc = self.board[from.index()];
        let slot = rules.slot(pc, from.0);
        self.generate_group(rules, &slot.first, from, (empty, enemy), sink)?;
        if !slot.more {
            return ControlFlow::Continue(());
        }
        if slot.groups > 1 {
            for g in rules.more_groups(slot) {
                self.generate_group(rules, g, from, (empty, enemy), sink)?;
            }
        }
        if slot.len == 0 || (slot.hops_only && slot.hopped & enemy == 0) {
            return ControlFlow::Continue(());
        }
        sink.outline(|sink| self.generate_listed(rules, slot, pc, from, side, sink))
    }

    /// The listed targets of `slot` (the piece `pc` on `from`), one by one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn generate_listed<S: Sink>(
        &self,
        rules: &Rules,
        slot: &Slot,
        pc: u8,
        from: Cell,
        side: Player,
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        for t in rules.listed(slot) {
            if t.flags & SLOW != 0 {
                sink.escape(|mut f| self.generate_slow(rules, t, pc, from, side, &mut f))?;
                continue;
            }
            if t.kind == HOP {
                let occ = self.board[t.over as usize];
                if occ != 0
                    && State::owner_of(occ) != side
                    && self.board[t.to as usize] == 0
                    && bit(
                        &rules.cap_bits,
                        (t.cap_base + occ as u32 * t.cap_stride) as usize,
                    )
                {
                    let mv = Move::hop(from, Cell(t.to), t.rule, t.dir);
                    sink.push(mv)?;
                    if t.flags & CHAIN != 0
                        && (rules.promote_stops.is_empty()
                            || !rules.promote_stops[pc as usize * rules.stride + t.to as usize])
                    {
                        sink.escape(|mut f| self.chain_from(rules, t, pc, side, mv, &mut f))?;
                    }
                }
                continue;
            }
            if t.flags & BLOCKABLE != 0 && self.jump_blocked_fast(rules, t) {
                continue;
            }
            let occ = self.board[t.to as usize];
            if occ == 0 {
                if t.flags & QUIET != 0 {
                    sink.push(Move::simple(from, Cell(t.to), t.rule, false))?;
                }
            } else if State::owner_of(occ) != side
                && t.flags & CAPTURE != 0
                && bit(
                    &rules.cap_bits,
                    (t.cap_base + occ as u32 * t.cap_stride) as usize,
                )
            {
                sink.push(Move::simple(from, Cell(t.to), t.rule, true))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The moves of one step group from `from`: quiet ones by mask, captures by mask and the
    /// capture table.
    #[inline(always)]
    fn generate_group<S: Sink>(
        &self,
        rules: &Rules,
        g: &StepGroup,
        from: Cell,
        (empty, enemy): (u64, u64),
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        let mut quiet = g.quiet & empty;
        let step = Move::simple(from, from, g.rule, false);
        while quiet != 0 {
            let to = quiet.trailing_zeros() as u8;
            quiet &= quiet - 1;
            sink.push(step.with_to(Cell(to)))?;
        }
        let mut capture = g.capture & enemy;
        while capture != 0 {
            let to = capture.trailing_zeros() as usize;
            capture &= capture - 1;
            let i = g.cap_from
                + rules.cell_class[to] as u32 * g.cap_class
                + self.board[to] as u32 * g.cap_piece;
            if bit(&rules.cap_bits, i as usize) {
                sink.push(Move::simple(from, Cell(to as u8), g.rule, true))?;
            }
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn jump_blocked_fast(&self, rules: &Rules, t: &Target) -> bool {
        let start = t.jumped_start as usize;
        rules.jumped[start..start + t.jumped_len as usize]
            .iter()
            .any(|j| {
                bit(
                    &rules.block_bits,
                    j.block_base as usize + self.board[j.cell as usize] as usize,
                )
            })
    }

    /// Targets whose predicates read the position, and hops (which may chain).
    #[cold]
    fn generate_slow<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let m = &rules.moves[t.rule as usize];
        if t.kind == HOP {
            return self.hop(rules, m, t, pc, from, side, f);
        }
        if t.kind == JUMP && self.jump_blocked(rules, m, t, pc) {
            return ControlFlow::Continue(());
        }
        let occ = self.board[t.to as usize];
        let to = Cell(t.to);
        if occ == 0 {
            if t.flags & QUIET != 0 && self.dynamic_enter_ok(rules, m, pc, from, to) {
                f(Move::simple(from, to, t.rule, false))?;
            }
        } else if State::owner_of(occ) != side
            && t.flags & CAPTURE != 0
            && self.capture_ok(rules, m, t, pc, from, occ, to, to)
            && self.dynamic_enter_ok(rules, m, pc, from, to)
        {
            f(Move::simple(from, to, t.rule, true))?;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn jump_blocked(&self, rules: &Rules, m: &CompiledMove, t: &Target, pc: u8) -> bool {
        let start = t.jumped_start as usize;
        let cells = &rules.jumped[start..start + t.jumped_len as usize];
        if t.flags & BLOCKABLE != 0 && self.jump_blocked_fast(rules, t) {
            return true;
        }
        if !m.blocked.dynamic.is_empty() {
            for &Jumped { cell: c, .. } in cells {
                let occ = self.board[c as usize];
                let env = PlayEnv {
                    rules,
                    state: self,
                    mover: Some(Value::Piece(Piece(pc), Cell(c))),
                    player: Piece(pc).owner(),
                    cell: Some(Cell(c)),
                    occupant: Some(match Piece::from_code(occ) {
                        Some(o) => Value::Piece(o, Cell(c)),
                        None => Value::NoPiece,
                    }),
                    ..PlayEnv::new(rules, self, Piece(pc).owner())
                };
                if m.blocked
                    .dynamic
                    .iter()
                    .any(|e| e.test(&rules.core, &env).unwrap_or(true))
                {
                    return true;
                }
            }
        }
        false
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn capture_ok(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        t: &Target,
        pc: u8,
        from: Cell,
        occ: u8,
        target_cell: Cell,
        to: Cell,
    ) -> bool {
        bit(
            &rules.cap_bits,
            (t.cap_base + occ as u32 * t.cap_stride) as usize,
        ) && (m.capture.dynamic.is_empty() || {
            let env = PlayEnv {
                mover: Some(Value::Piece(Piece(pc), from)),
                target: Some(Value::Piece(Piece(occ), target_cell)),
                from: Some(from),
                to: Some(to),
                ..PlayEnv::new(rules, self, Piece(pc).owner())
            };
            m.capture
                .dynamic
                .iter()
                .all(|e| e.test(&rules.core, &env).unwrap_or(false))
        })
    }

    #[inline]
    fn dynamic_enter_ok(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        from: Cell,
        to: Cell,
    ) -> bool {
        m.dynamic_enter.is_empty() || {
            let env = PlayEnv {
                mover: Some(Value::Piece(Piece(pc), from)),
                from: Some(from),
                to: Some(to),
                ..PlayEnv::new(rules, self, Piece(pc).owner())
            };
            m.dynamic_enter
                .iter()
                .all(|e| e.test(&rules.core, &env).unwrap_or(false))
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn hop<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let occ = self.board[t.over as usize];
        if occ == 0 || State::owner_of(occ) == side || self.board[t.to as usize] != 0 {
            return ControlFlow::Continue(());
        }
        let (over, to) = (Cell(t.over), Cell(t.to));
        if !self.capture_ok(rules, m, t, pc, from, occ, over, to)
            || !self.dynamic_enter_ok(rules, m, pc, from, to)
        {
            return ControlFlow::Continue(());
        }
        let mv = Move::hop(from, to, t.rule, t.dir);
        let stops = !rules.promote_stops.is_empty()
            && rules.promote_stops[pc as usize * rules.stride + to.index()];
        if !m.chain || stops {
            return f(mv);
        }
        if !m.complete {
            f(mv)?;
        }
        let mut vacated = CellSet::EMPTY;
        vacated.insert(from);
        vacated.insert(over);
        let extended = self.chain(rules, m, pc, side, mv, vacated, f)?;
        if m.complete && !extended {
            f(mv)?;
        }
        ControlFlow::Continue(())
    }

    #[cold]
    fn chain_from<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        side: Player,
        mv: Move,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut vacated = CellSet::EMPTY;
        vacated.insert(mv.from());
        vacated.insert(Cell(t.over));
        self.chain(
            rules,
            &rules.moves[t.rule as usize],
            pc,
            side,
            mv,
            vacated,
            f,
        )?;
        ControlFlow::Continue(())
    }

    /// Extends a hop chain from its last landing cell with the same pattern. `vacated` holds
    /// the cells that count as empty: the origin and every piece already jumped.
    #[allow(clippy::too_many_arguments)]
    fn chain<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        side: Player,
        mv: Move,
        vacated: CellSet,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        if mv.hops() >= MAX_HOPS {
            return ControlFlow::Continue(false);
        }
        let cur = mv.to();
        let at = |c: u8| {
            if vacated.contains(Cell(c)) {
                0
            } else {
                self.board[c as usize]
            }
        };
        let mut extended = false;
        for t in rules.targets(pc, cur.0) {
            if t.kind != HOP || t.rule != mv.rule() {
                continue;
            }
            let occ = at(t.over);
            if occ == 0 || State::owner_of(occ) == side || at(t.to) != 0 {
                continue;
            }
            let (over, to) = (Cell(t.over), Cell(t.to));
            if !self.capture_ok(rules, m, t, pc, cur, occ, over, to)
                || !self.dynamic_enter_ok(rules, m, pc, cur, to)
            {
                continue;
            }
            extended = true;
            let next = mv.extended(to, t.dir);
            let stops = !rules.promote_stops.is_empty()
                && rules.promote_stops[pc as usize * rules.stride + to.index()];
            if !m.complete || stops {
                f(next)?;
            }
            if stops {
                continue;
            }
            let mut v = vacated;
            v.insert(over);
            let deeper = self.chain(rules, m, pc, side, next, v, f)?;
            if m.complete && !deeper {
                f(next)?;
            }
        }
        ControlFlow::Continue(extended)
    }

    /// Plays a move generated for the side to move.
    #[inline(always)]
    pub fn make(&mut self, rules: &Rules, m: Move) -> Undo {
        if rules.lean {
            self.make_as::<Lean>(rules, m)
        } else {
            self.make_as::<Full>(rules, m)
        }
    }

    /// [`State::make`], knowing the rules' [`Profile`].
    #[inline(always)]
    fn make_as<P: Profile>(&mut self, rules: &Rules, m: Move) -> Undo {
        if m.hops() != 0 {
            return self.make_hops(rules, m);
        }
        Undo {
            step: self.make_step::<P>(rules, m),
            hopped: [0; HOPPED],
        }
    }

    /// [`State::make`] for a step or a jump: only the captured piece's counts change.
    #[inline(always)]
    pub(crate) fn make_step<P: Profile>(&mut self, rules: &Rules, m: Move) -> StepUndo {
        let before = self.before();
        self.make_step_from::<P>(rules, m, &before)
    }

    /// What [`State::make_step_from`] reads.
    #[inline(always)]
    pub(crate) fn before(&self) -> Before {
        Before {
            hash: self.hash,
            own: self.occupied[self.side.slot()].low(),
            enemy: self.occupied[self.side.other().slot()].low(),
            clock: self.clock,
            idle: self.idle,
            count_end: self.count_end,
            side: self.side,
        }
    }

    /// [`State::make_step`], given what [`State::before`] returns for this state.
    #[inline(always)]
    pub(crate) fn make_step_from<P: Profile>(
        &mut self,
        rules: &Rules,
        m: Move,
        b: &Before,
    ) -> StepUndo {
        debug_assert!(self.outcome.is_none(), "a move of a finished game");
        let narrow = P::LEAN || rules.narrow;
        let side = b.side;
        let (from, to) = (m.from().index(), m.to().index());
        let piece = self.board[from];
        let captured = self.board[to];
        // Lean rules never touch the idle clock: not reading it keeps its two bytes from being
        // read together with the clock's, which the previous move wrote alone.
        let idle = if P::LEAN { 0 } else { b.idle };
        let undo = StepUndo::new(b.hash, b.clock, idle, piece, captured, b.count_end);
        let placed = if P::LEAN || rules.promote.is_empty() {
            piece
        } else {
            self.promote(rules, piece, to)
        };
        self.board[from] = 0;
        self.board[to] = placed;
        let moved = (1u64 << (m.from().0 & 63)) | (1u64 << (m.to().0 & 63));
        if P::LEAN {
            self.occupied[side.slot()].set_low(b.own ^ moved);
        } else {
            self.occupied[side.slot()].toggle2(m.from(), m.to(), narrow);
        }
        self.hash = b.hash
            ^ rules.zobrist[piece as usize][from]
            ^ rules.zobrist[placed as usize][to]
            ^ rules.zobrist_side;
        if captured != 0 {
            let other = side.other().slot();
            if P::LEAN {
                self.occupied[other].set_low(b.enemy ^ (1u64 << (m.to().0 & 63)));
            } else {
                self.occupied[other].toggle_in(m.to(), narrow);
            }
            self.counts[captured as usize] -= 1;
            self.counts[PIECE_CODES + other] -= 1;
            self.hash ^= rules.zobrist[captured as usize][to];
            self.clock = 0;
            self.recount_as::<P>(rules);
        } else {
            self.clock = b.clock.saturating_add(1);
        }
        self.side = side.other();
        if !P::LEAN && rules.history {
            self.after_move(captured != 0 || placed != piece);
        }
        if P::LEAN || placed != 0 {
            self.outcome = self.evaluate_end::<P>(rules, Piece(placed), m.from(), m.to(), side);
        }
        undo
    }

    /// What unmake needs besides the captured pieces, as the position stands before a move of
    /// `piece`.
    #[inline(always)]
    fn undo_record(&self, piece: u8) -> StepUndo {
        StepUndo::new(self.hash, self.clock, self.idle, piece, 0, self.count_end)
    }

    /// The fields of an undo record that unmake restores as they were, for both kinds of move.
    /// A move is only generated, and so only made, while the game runs: the outcome goes back
    /// to none; the count verdicts come back when `count_end` says they may have changed.
    #[inline(always)]
    fn restore<P: Profile>(&mut self, rules: &Rules, undo: &StepUndo, count_end: bool) {
        self.hash = undo.hash;
        self.clock = undo.clock();
        if !P::LEAN && rules.history {
            self.idle = undo.idle();
            self.ply = self.ply.wrapping_sub(1);
        }
        self.outcome = None;
        if count_end {
            self.count_end = undo.count_end();
        }
    }

    /// Keeps the idle clock and the recent positions, for rules that read them.
    #[cold]
    fn after_move(&mut self, irreversible: bool) {
        self.idle = if irreversible {
            0
        } else {
            self.idle.saturating_add(1)
        };
        self.ply = self.ply.wrapping_add(1);
        self.remember();
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

    /// The code `piece` has once it ends a move on `to` (promotion), with the counts updated.
    #[cold]
    fn promote(&mut self, rules: &Rules, piece: u8, to: usize) -> u8 {
        let placed = rules.promote[piece as usize * rules.stride + to];
        if placed != piece {
            self.counts[piece as usize] -= 1;
            self.counts[placed as usize] += 1;
            self.recount(rules);
        }
        placed
    }

    /// [`State::make`] for a hop chain: each hopped piece is taken off in turn.
    #[inline(never)]
    pub(crate) fn make_hops(&mut self, rules: &Rules, m: Move) -> Undo {
        let side = self.side;
        // Recorded before anything moves: unmake restores the key and the derived fields
        // from it.
        let mut undo = Undo {
            step: self.undo_record(self.board[m.from().index()]),
            hopped: [0; HOPPED],
        };
        let piece = self.take(rules, m.from());
        let g = rules.geometry();
        let mut cur = m.from();
        for i in 0..m.hops() {
            let d = m.hop_dir(i);
            // The move was generated on this board, so both cells exist.
            let over = g.neighbour(cur, d).unwrap_or(cur);
            let taken = self.take(rules, over);
            undo.set_hopped(i, taken);
            cur = g.neighbour(over, d).unwrap_or(over);
        }
        let placed = if piece != 0 && !rules.promote.is_empty() {
            rules.promote[piece as usize * rules.stride + m.to().index()]
        } else {
            piece
        };
        if placed != 0 {
            self.put(rules, Piece(placed), m.to());
        }
        self.recount(rules);
        self.clock = 0;
        self.hash ^= rules.zobrist_side;
        self.side = side.other();
        if rules.history {
            self.after_move(true);
        }
        if placed != 0 {
            self.outcome = self.evaluate_end::<Full>(rules, Piece(placed), m.from(), m.to(), side);
        }
        undo
    }

    /// Takes back `m`, which was the last move made, given what `make` returned.
    #[inline(always)]
    pub fn unmake(&mut self, rules: &Rules, m: Move, undo: Undo) {
        if rules.lean {
            self.unmake_as::<Lean>(rules, m, &undo)
        } else {
            self.unmake_as::<Full>(rules, m, &undo)
        }
    }

    /// [`State::unmake`], knowing the rules' [`Profile`].
    #[inline(always)]
    fn unmake_as<P: Profile>(&mut self, rules: &Rules, m: Move, undo: &Undo) {
        if m.hops() != 0 {
            return self.unmake_hops(rules, m, undo);
        }
        self.unmake_step::<P>(rules, m, undo.step)
    }

    /// [`State::unmake`] for a step or a jump.
    #[inline(always)]
    pub(crate) fn unmake_step<P: Profile>(&mut self, rules: &Rules, m: Move, undo: StepUndo) {
        self.unmake_step_to::<P>(rules, m, undo, None)
    }

    /// [`State::unmake_step`]; with `before` (what [`State::before`] returned before the move),
    /// under [`Lean`] rules the occupancy words are put back as they were.
    #[inline(always)]
    pub(crate) fn unmake_step_to<P: Profile>(
        &mut self,
        rules: &Rules,
        m: Move,
        undo: StepUndo,
        before: Option<&Before>,
    ) {
        let narrow = P::LEAN || rules.narrow;
        let side = before.map_or(self.side.other(), |b| b.side);
        self.side = side;
        let (from, to) = (m.from().index(), m.to().index());
        let piece = undo.piece();
        if !P::LEAN {
            let placed = self.board[to];
            if placed != piece {
                self.counts[placed as usize] -= 1;
                self.counts[piece as usize] += 1;
            }
        }
        let captured = undo.captured();
        self.board[from] = piece;
        self.board[to] = captured;
        let other = side.other().slot();
        match before {
            Some(b) if P::LEAN => {
                self.occupied[side.slot()].set_low(b.own);
                if captured != 0 {
                    self.occupied[other].set_low(b.enemy);
                }
            }
            _ => {
                self.occupied[side.slot()].toggle2(m.from(), m.to(), narrow);
                if captured != 0 {
                    self.occupied[other].toggle_in(m.to(), narrow);
                }
            }
        }
        if captured != 0 {
            self.counts[captured as usize] += 1;
            self.counts[PIECE_CODES + other] += 1;
        }
        // Only a capture changes the count verdicts of lean rules.
        self.restore::<P>(rules, &undo, !P::LEAN || captured != 0 || before.is_none());
    }

    #[inline(never)]
    pub(crate) fn unmake_hops(&mut self, rules: &Rules, m: Move, undo: &Undo) {
        self.side = self.side.other();
        self.take(rules, m.to());
        if undo.step.piece() != 0 {
            self.put(rules, Piece(undo.step.piece()), m.from());
        }
        let g = rules.geometry();
        let mut cur = m.from();
        for i in 0..m.hops() {
            let d = m.hop_dir(i);
            let over = g.neighbour(cur, d).unwrap_or(cur);
            let hopped = undo.hopped(i);
            if hopped != 0 {
                self.put(rules, Piece(hopped), over);
            }
            cur = g.neighbour(over, d).unwrap_or(over);
        }
        self.restore::<Full>(rules, &undo.step, true);
    }

    /// The end rules after `piece` of `mover` went from `from` to `to`: the first that holds
    /// decides. Arrival rules are one table lookup; the others are tested in order up to it.
    #[inline(always)]
    fn evaluate_end<P: Profile>(
        &self,
        rules: &Rules,
        piece: Piece,
        from: Cell,
        to: Cell,
        mover: Player,
    ) -> Option<Outcome> {
        let arrive = rules.arrive_first[piece.code()][to.index()];
        if P::LEAN || rules.counts_only {
            let first = arrive.min(self.count_end[mover.slot()]);
            return (first != NONE).then(|| rules.end[first as usize].result[mover.slot()]);
        }
        for e in &rules.eager {
            if e.index > arrive {
                break;
            }
            let fired = match e.test {
                EagerTest::Count { at, lo, hi } => {
                    let c = self.counts[at[mover.slot()] as usize] as i64;
                    c >= lo && c <= hi
                }
                EagerTest::Clock(op, n) => compare(op, self.clock as i64, n),
                EagerTest::Dynamic => match &rules.end[e.index as usize].check {
                    EndCheck::Dynamic(expr) => {
                        self.dynamic_end(rules, expr, piece, from, to, mover)
                    }
                    EndCheck::Count(who, kind, op, n) => {
                        compare(*op, self.count(who.resolve(mover), *kind), *n)
                    }
                    _ => false,
                },
            };
            if fired {
                return Some(e.result[mover.slot()]);
            }
        }
        (arrive != NONE).then(|| rules.end[arrive as usize].result[mover.slot()])
    }

    #[cold]
    fn dynamic_end(
        &self,
        rules: &Rules,
        expr: &crate::expr::Expr,
        piece: Piece,
        from: Cell,
        to: Cell,
        mover: Player,
    ) -> bool {
        let env = PlayEnv {
            mover: Some(Value::Piece(piece, to)),
            from: Some(from),
            to: Some(to),
            ..PlayEnv::new(rules, self, mover)
        };
        expr.test(&rules.core, &env).unwrap_or(false)
    }

    #[inline]
    pub fn count(&self, player: Player, kind: Option<KindId>) -> i64 {
        match kind {
            Some(k) => self.counts[Piece::new(k, player).code()] as i64,
            None => self.counts[PIECE_CODES + player.index()] as i64,
        }
    }

    pub fn has_move(&self, rules: &Rules, side: Player) -> bool {
        self.generate(rules, side, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    /// The outcome, resolving deferred "no legal move" rules.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.outcome.is_some() {
            return self.outcome;
        }
        let i = rules.deferred?;
        (!self.has_move(rules, self.side)).then(|| rules.end[i].result[self.side.other().index()])
    }
}

#[inline]
fn compare(op: crate::expr::BinOp, a: i64, b: i64) -> bool {
    use crate::expr::BinOp::*;
    match op {
        Eq => a == b,
        Ne => a != b,
        Lt => a < b,
        Le => a <= b,
        Gt => a > b,
        Ge => a >= b,
        _ => false,
    }
}

/// The environment for expressions evaluated during play.
pub(crate) struct PlayEnv<'a> {
    pub rules: &'a Rules,
    pub state: &'a State,
    pub mover: Option<Value>,
    pub target: Option<Value>,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub player: Player,
    pub cell: Option<Cell>,
    pub occupant: Option<Value>,
    pub placed: Option<&'a [u16; PIECE_CODES]>,
}

impl<'a> PlayEnv<'a> {
    pub fn new(rules: &'a Rules, state: &'a State, player: Player) -> PlayEnv<'a> {
        PlayEnv {
            rules,
            state,
            mover: None,
            target: None,
            from: None,
            to: None,
            player,
            cell: None,
            occupant: None,
            placed: None,
        }
    }
}

impl Env for PlayEnv<'_> {
    fn var(&self, var: Var) -> Option<Value> {
        match var {
            Var::Mover => self.mover,
            Var::Target => self.target,
            Var::From => self.from.map(Value::Cell),
            Var::To => self.to.map(Value::Cell),
            Var::Player => Some(Value::Player(self.player)),
            Var::Opponent => Some(Value::Player(self.player.other())),
            Var::Cell => self.cell.map(Value::Cell),
            Var::Occupant => self.occupant,
            Var::Clock => Some(Value::Int(self.state.clock as i64)),
            Var::Idle => Some(Value::Int(self.state.idle as i64)),
            Var::Repetitions => Some(Value::Int(self.state.repetitions())),
        }
    }

    fn piece_at(&self, cell: Cell) -> Result<Option<Piece>, EvalError> {
        Ok(Piece::from_code(self.state.board[cell.index()]))
    }

    fn count(&self, player: Player, kind: Option<KindId>) -> Result<i64, EvalError> {
        Ok(self.state.count(player, kind))
    }

    fn no_moves(&self, player: Player) -> Result<bool, EvalError> {
        Ok(!self.state.has_move(self.rules, player))
    }

    fn placed(&self, piece: Piece) -> Result<i64, EvalError> {
        self.placed
            .map(|p| p[piece.code()] as i64)
            .ok_or(EvalError::NoPosition)
    }
}

impl Position {
    /// The standard starting position of the rules.
    pub fn start(rules: Arc<Rules>) -> Position {
        let mut state = State::empty(&rules);
        for &(piece, cell) in &rules.spec.setup {
            state.put(&rules, piece, cell);
        }
        state.recount(&rules);
        state.remember();
        Position { rules, state }
    }

    /// An empty board, the first player to move.
    pub fn empty(rules: Arc<Rules>) -> Position {
        let state = State::empty(&rules);
        Position { rules, state }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The size in bytes of the game state a position carries besides its shared rules (the
    /// board, occupancy sets, counts, side, clock, key and outcome).
    pub const fn state_bytes() -> usize {
        std::mem::size_of::<State>()
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        if cell.index() < MAX_CELLS {
            Piece::from_code(self.state.board[cell.index()])
        } else {
            None
        }
    }

    /// The cells holding a piece of `player`.
    pub fn occupied(&self, player: Player) -> &CellSet {
        &self.state.occupied[player.index()]
    }

    /// Every piece on the board, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        let board = &self.state.board;
        self.state.occupied[0]
            .union(&self.state.occupied[1])
            .iter()
            .map(move |c| (c, Piece(board[c.index()])))
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.state.side
    }

    /// Plies since the last capture.
    pub fn clock(&self) -> u16 {
        self.state.clock
    }

    /// The Zobrist key of the position (pieces and side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// The number of pieces of a player, or of one kind of a player.
    pub fn count(&self, player: Player, kind: Option<KindId>) -> usize {
        self.state.count(player, kind) as usize
    }

    /// The result, if the game is over. This includes "the player to move has no legal move",
    /// where the rules make that an end.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome(&self.rules)
    }

    /// The result decided by the last move, without looking for legal moves (cheap).
    #[inline]
    pub fn decided(&self) -> Option<Outcome> {
        self.state.outcome
    }

    /// Calls `f` with each legal move of the side to move; stops when `f` breaks.
    #[inline]
    pub fn for_each_move<B>(&self, mut f: impl FnMut(Move) -> ControlFlow<B>) -> ControlFlow<B> {
        self.state.generate(&self.rules, self.state.side, &mut f)
    }

    /// Calls `f` with each move `player` could make if it were to move.
    pub fn for_each_move_of<B>(
        &self,
        player: Player,
        mut f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.state.generate(&self.rules, player, &mut f)
    }

    /// Appends the legal moves of the side to move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        let _ = self.for_each_move(|m| {
            list.push(m);
            ControlFlow::<()>::Continue(())
        });
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// The moves `player` could make if it were to move (as seed 004's `get_valid_moves`).
    pub fn moves_of(&self, player: Player) -> MoveList {
        let mut list = MoveList::new();
        let _ = self.for_each_move_of(player, |m| {
            list.push(m);
            ControlFlow::<()>::Continue(())
        });
        list
    }

    /// The legal moves of the piece on `cell`, if it belongs to the side to move.
    pub fn moves_from(&self, cell: Cell) -> MoveList {
        let mut list = MoveList::new();
        if self.rules.must_capture {
            // Whether this piece's quiet moves are legal depends on every other piece.
            for m in self.legal_moves().iter().filter(|m| m.from() == cell) {
                list.push(m);
            }
            return list;
        }
        if self.state.outcome.is_none()
            && let Some(p) = self.piece_at(cell)
            && p.owner() == self.state.side
        {
            let _ = self
                .state
                .generate_from(&self.rules, p.owner(), cell, &mut |m| {
                    list.push(m);
                    ControlFlow::<()>::Continue(())
                });
        }
        list
    }

    /// Plays a move that was generated for this position, returning what [`Position::unmake`]
    /// needs to take it back. Playing any other move leaves the position inconsistent; use
    /// [`crate::Game::play`] for moves from outside.
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let Position { rules, state } = self;
        state.make(rules, m)
    }

    /// Takes back the last move made.
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let Position { rules, state } = self;
        state.unmake(rules, m, undo)
    }

    /// Counts the move sequences of length `depth` (a finished game has no moves). Makes and
    /// takes back every move, down to depth 0, as engines' perft does.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let Position { rules, state } = self;
        match (depth, rules.lean) {
            (0, _) => 1,
            (_, true) => state.perft::<Lean, false>(rules, depth),
            (_, false) => state.perft::<Full, false>(rules, depth),
        }
    }

    /// As [`Position::perft`], but counts the moves at the last ply without making them.
    pub fn perft_bulk(&mut self, depth: u32) -> u64 {
        let Position { rules, state } = self;
        match (depth, rules.lean) {
            (0, _) => 1,
            (_, true) => state.perft::<Lean, true>(rules, depth),
            (_, false) => state.perft::<Full, true>(rules, depth),
        }
    }

    /// Plays uniformly random legal moves until the game ends, no move is left, or `max_plies`
    /// are played; `pick(n)` must return an index below `n`. The position is restored after.
    pub fn playout(&mut self, pick: &mut impl FnMut(usize) -> usize, max_plies: u32) -> Playout {
        let Position { rules, state } = self;
        if rules.lean {
            state.playout::<Lean>(rules, pick, max_plies)
        } else {
            state.playout::<Full>(rules, pick, max_plies)
        }
    }
}

impl State {
    /// The legal moves of the side to move, appended to `list`.
    #[inline(always)]
    fn moves_into(&self, rules: &Rules, list: &mut MoveList) {
        if !self.collect(rules, list) {
            list.clear();
            let _ = self.generate(rules, self.side, &mut |m| {
                list.push(m);
                ControlFlow::<()>::Continue(())
            });
        }
    }

    /// The legal moves of the side to move, written into the inline part of an emptied
    /// `list`; false if they did not fit.
    #[inline(never)]
    fn collect(&self, rules: &Rules, list: &mut MoveList) -> bool {
        list.fill(|b| self.generate_into(rules, self.side, b))
    }

    /// Perft from depth 1 up, for rules of profile `P`; with `BULK`, the last ply is counted,
    /// not played.
    fn perft<P: Profile, const BULK: bool>(&mut self, rules: &Rules, depth: u32) -> u64 {
        if BULK && depth == 1 {
            let mut count = 0u64;
            let _ = self.generate(rules, self.side, &mut |_| {
                count += 1;
                ControlFlow::<()>::Continue(())
            });
            return count;
        }
        let mut moves = MoveList::new();
        self.moves_into(rules, &mut moves);
        if depth == 1 {
            return self.leaves::<P>(rules, &moves);
        }
        let mut n = 0;
        for part in moves.parts() {
            for &m in part {
                // Not `make_as`: a step's 16-byte record, not the 40-byte `Undo`, is what
                // waits across the recursion (2 per cent of the instructions of a perft).
                if m.hops() != 0 {
                    let u = self.make_hops(rules, m);
                    n += self.perft::<P, BULK>(rules, depth - 1);
                    self.unmake_hops(rules, m, &u);
                } else {
                    let u = self.make_step::<P>(rules, m);
                    n += self.perft::<P, BULK>(rules, depth - 1);
                    self.unmake_step::<P>(rules, m, u);
                }
            }
        }
        n
    }

    /// The last ply of a perft: every move is still made and taken back (only the call for
    /// depth 0, which would return 1, is saved). Kept out of line, so that its loop has the
    /// machine's registers to itself.
    #[inline(never)]
    fn leaves<P: Profile>(&mut self, rules: &Rules, moves: &MoveList) -> u64 {
        // Steps first, hop chains after: a loop with no call in it lets the compiler keep
        // the fields that make and unmake put back in registers.
        let mut chains = false;
        let before = self.before();
        for part in moves.parts() {
            for &m in part {
                if m.hops() != 0 {
                    chains = true;
                    continue;
                }
                let u = self.make_step_from::<P>(rules, m, &before);
                self.unmake_step_to::<P>(rules, m, u, Some(&before));
            }
        }
        if chains {
            for m in moves.iter().filter(|m| m.hops() != 0) {
                let u = self.make_as::<P>(rules, m);
                self.unmake_as::<P>(rules, m, &u);
            }
        }
        moves.len() as u64
    }

    /// [`Position::playout`] for rules of profile `P`.
    fn playout<P: Profile>(
        &mut self,
        rules: &Rules,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        // Without history the state holds no heap data, so a copy restores it at once (and
        // without allocating); with history, every move is taken back.
        if rules.history {
            self.playout_as::<P, true>(rules, pick, max_plies)
        } else {
            self.playout_as::<P, false>(rules, pick, max_plies)
        }
    }

    /// [`State::playout`]; `KEEP` says whether the moves are recorded to be taken back, or
    /// the start is restored from a copy.
    fn playout_as<P: Profile, const KEEP: bool>(
        &mut self,
        rules: &Rules,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Playout {
        let saved = (!KEEP).then(|| self.clone());
        let cap = if KEEP {
            max_plies.min(4096) as usize
        } else {
            0
        };
        let mut made: Vec<(Move, Undo)> = Vec::with_capacity(cap);
        let mut result = Playout {
            plies: 0,
            outcome: None,
            capped: false,
        };
        let mut list = MoveList::new();
        loop {
            if let Some(o) = self.outcome {
                result.outcome = Some(o);
                break;
            }
            if result.plies >= max_plies {
                result.capped = true;
                break;
            }
            self.moves_into(rules, &mut list);
            if list.is_empty() {
                result.outcome = self.outcome(rules);
                break;
            }
            let i = pick(list.len()).min(list.len() - 1);
            let m = list.get(i).unwrap_or_else(unreachable_move);
            // Without records to keep, the move is made with no `Undo` built at all (4 per
            // cent of the instructions of a playout).
            if KEEP {
                made.push((m, self.make_as::<P>(rules, m)));
            } else if m.hops() != 0 {
                self.make_hops(rules, m);
            } else {
                self.make_step::<P>(rules, m);
            }
            result.plies += 1;
        }
        if let Some(saved) = saved {
            *self = saved;
        }
        while let Some((m, u)) = made.pop() {
            self.unmake_as::<P>(rules, m, &u);
        }
        result
    }
}

#[cold]
fn unreachable_move() -> Move {
    Move::simple(Cell(0), Cell(0), 0, false)
}

/// The result of [`Position::playout`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Plies played.
    pub plies: u32,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// Whether the ply cap stopped it.
    pub capped: bool,
}
