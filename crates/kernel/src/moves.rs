//! Moves and move lists.
//!
//! A [`Move`] is 16 bytes and `Copy`: origin, destination, the pattern that made it, and for a
//! hop chain the direction of each hop (three bits each), from which the path and the captured
//! cells are recomputed. A [`MoveList`] holds moves without allocating in all ordinary cases.

use crate::cell::Cell;
use crate::geometry::Dir;
use crate::geometry::Geometry;
use crate::limits::{MAX_HOPS, MAX_MOVES, MoveLimit};
use arrayvec::ArrayVec;
use std::marker::PhantomData;
use std::ops::ControlFlow;

/// A move of one piece: a step, a jump, or a hop chain.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) dirs: u64,
    /// Origin (bits 0..8), destination (8..16), pattern (16..24), and in bits 24..32: bit 7
    /// captures by displacement, bits 0..5 the number of hops. One word, so that generation
    /// writes a move with two stores.
    code: u32,
}

const CAPTURE: u8 = 0x80;
/// No piece moves from an origin: a placement, or a pass.
const SPECIAL: u8 = 0x40;
/// The turn has a second part, placed on the cell in the low byte of `dirs`.
const SECOND: u8 = 0x20;
/// The number of hops, in the low bits of the meta byte.
const HOPS: u8 = 0x1f;
/// `dirs` of a pass.
const PASS: u64 = 1 << 63;
/// In `dirs` of a step: it takes the piece that has just passed the destination, on the cell
/// in the low byte.
const GHOST_TAKE: u64 = 1 << 62;
/// In `dirs` of a step: a compound move, whose partner stands on the cell in the low byte.
const COMPOUND: u64 = 1 << 61;
/// In `dirs` of a step: the piece promotes to the code in bits 16..24.
const CHOICE: u64 = 1 << 60;

impl Move {
    #[inline(always)]
    const fn pack(from: Cell, to: Cell, rule: u8, meta: u8) -> u32 {
        from.0 as u32 | (to.0 as u32) << 8 | (rule as u32) << 16 | (meta as u32) << 24
    }

    #[inline]
    pub(crate) fn simple(from: Cell, to: Cell, rule: u8, capture: bool) -> Move {
        Move {
            dirs: 0,
            code: Move::pack(from, to, rule, if capture { CAPTURE } else { 0 }),
        }
    }

    #[inline]
    pub(crate) fn hop(from: Cell, to: Cell, rule: u8, dir: u8) -> Move {
        Move {
            dirs: dir as u64,
            code: Move::pack(from, to, rule, 1),
        }
    }

    /// A new piece placed on `to` by placement pattern `rule`.
    #[inline]
    pub(crate) fn place(to: Cell, rule: u8) -> Move {
        Move {
            dirs: 0,
            code: Move::pack(to, to, rule, SPECIAL),
        }
    }

    /// A pass (pattern `rule`).
    #[inline]
    pub(crate) fn pass(rule: u8) -> Move {
        Move {
            dirs: PASS,
            code: Move::pack(Cell(0), Cell(0), rule, SPECIAL),
        }
    }

    /// This move followed by placing a piece on `at`, its second part.
    #[inline]
    pub(crate) fn then_at(self, at: Cell) -> Move {
        Move {
            dirs: at.0 as u64,
            code: self.code | (SECOND as u32) << 24,
        }
    }

    /// A capture of the piece on `victim`, which has just passed `to`.
    #[inline]
    pub(crate) fn ghost_take(from: Cell, to: Cell, rule: u8, victim: Cell) -> Move {
        Move {
            dirs: GHOST_TAKE | victim.0 as u64,
            code: Move::pack(from, to, rule, CAPTURE),
        }
    }

    /// A compound move (pattern `rule`): the mover from `from` to `to`, its partner from
    /// `partner`.
    #[inline]
    pub(crate) fn compound(from: Cell, to: Cell, rule: u8, partner: Cell) -> Move {
        Move {
            dirs: COMPOUND | partner.0 as u64,
            code: Move::pack(from, to, rule, 0),
        }
    }

    /// This move, with the moved piece promoting to `code`.
    #[inline]
    pub(crate) fn with_choice(self, code: u8) -> Move {
        Move {
            dirs: self.dirs | CHOICE | (code as u64) << 16,
            ..self
        }
    }

    /// The cell of the piece this move takes because it has just passed the destination.
    #[inline]
    pub(crate) fn ghost_victim(&self) -> Option<Cell> {
        (self.hops() == 0 && self.dirs & GHOST_TAKE != 0 && self.dirs != PASS)
            .then_some(Cell(self.dirs as u8))
    }

    /// For a compound move, the cell its partner starts on.
    #[inline]
    pub(crate) fn compound_partner(&self) -> Option<Cell> {
        (self.hops() == 0 && self.dirs & COMPOUND != 0 && self.dirs != PASS)
            .then_some(Cell(self.dirs as u8))
    }

    /// The code the moved piece promotes to by this move's choice.
    #[inline]
    pub(crate) fn choice_code(&self) -> Option<u8> {
        (self.hops() == 0 && self.dirs & CHOICE != 0 && self.dirs != PASS)
            .then_some((self.dirs >> 16) as u8)
    }

    /// The piece the moved piece becomes, when the player chose it among several.
    #[inline]
    pub fn promotion(&self) -> Option<crate::Piece> {
        self.choice_code().and_then(crate::Piece::from_code)
    }

    /// Whether this moves two pieces at once (a compound move).
    #[inline]
    pub fn is_compound(&self) -> bool {
        self.compound_partner().is_some()
    }

    /// Whether this is a pass.
    #[inline]
    pub fn is_pass(&self) -> bool {
        self.meta() & SPECIAL != 0 && self.dirs == PASS
    }

    /// Whether this move puts a new piece on the board on [`Move::to`] (no piece moves).
    #[inline]
    pub fn is_placement(&self) -> bool {
        self.meta() & SPECIAL != 0 && self.dirs != PASS
    }

    /// The cell of the second part of the turn, if it has one.
    #[inline]
    pub fn second(&self) -> Option<Cell> {
        (self.meta() & SECOND != 0).then_some(Cell(self.dirs as u8))
    }

    /// This move with its destination replaced by `to`.
    #[inline(always)]
    pub(crate) fn with_to(self, to: Cell) -> Move {
        Move {
            code: (self.code & !0xff00) | (to.0 as u32) << 8,
            ..self
        }
    }

    #[inline(always)]
    fn meta(&self) -> u8 {
        (self.code >> 24) as u8
    }

    /// This hop chain extended by one more hop in `dir`, landing on `to`.
    #[inline]
    pub(crate) fn extended(self, to: Cell, dir: u8) -> Move {
        let n = self.hops();
        Move {
            dirs: self.dirs | (dir as u64) << (3 * n),
            code: Move::pack(self.from(), to, self.rule(), self.meta() + 1),
        }
    }

    /// The cell the piece leaves.
    #[inline]
    pub fn from(&self) -> Cell {
        Cell(self.code as u8)
    }

    /// The cell the piece ends on.
    #[inline]
    pub fn to(&self) -> Cell {
        Cell((self.code >> 8) as u8)
    }

    #[inline(always)]
    pub(crate) fn rule(&self) -> u8 {
        (self.code >> 16) as u8
    }

    /// The number of hops (0 for a step or a jump).
    #[inline]
    pub fn hops(&self) -> usize {
        (self.meta() & HOPS) as usize
    }

    /// Whether the move captures: by moving onto an enemy piece, or by hopping over one.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.meta() & CAPTURE != 0 || self.hops() > 0
    }

    /// The move pattern that produced this move.
    #[inline]
    pub fn pattern(&self) -> crate::PatternId {
        crate::PatternId(self.rule())
    }

    #[inline]
    pub(crate) fn hop_dir(&self, i: usize) -> Dir {
        Dir::from_index(((self.dirs >> (3 * i)) & 7) as u8)
    }

    /// The cells the piece visits on this board: origin, each landing cell, destination last;
    /// then the cell of the second part of the turn, if any. A placement's path is its cell,
    /// a pass's is empty. ([`crate::Position::path`] gives it without naming the board.)
    pub fn path(&self, g: &Geometry) -> ArrayVec<Cell, { MAX_HOPS + 2 }> {
        let mut out = ArrayVec::new();
        if self.is_pass() {
            return out;
        }
        if self.is_placement() {
            out.push(self.to());
            return out;
        }
        out.push(self.from());
        if self.hops() == 0 {
            out.push(self.to());
            if let Some(at) = self.second() {
                out.push(at);
            }
            return out;
        }
        let mut cur = self.from();
        for i in 0..self.hops() {
            let d = self.hop_dir(i);
            let Some(land) = g.neighbour(cur, d).and_then(|o| g.neighbour(o, d)) else {
                break;
            };
            out.push(land);
            cur = land;
        }
        out
    }

    /// The cells of the pieces a hop chain jumps over on this board, in order (empty for
    /// other moves).
    pub fn hopped(&self, g: &Geometry) -> ArrayVec<Cell, MAX_HOPS> {
        let mut out = ArrayVec::new();
        let mut cur = self.from();
        for i in 0..self.hops() {
            let d = self.hop_dir(i);
            let Some(over) = g.neighbour(cur, d) else {
                break;
            };
            out.push(over);
            let Some(land) = g.neighbour(over, d) else {
                break;
            };
            cur = land;
        }
        out
    }
}

/// How many moves a [`MoveList`] holds before it spills to the heap. Small enough that a list
/// fits in a stack frame below one page (no stack probing on every call).
pub const INLINE_MOVES: usize = 200;

/// A list of moves that lives on the stack. It spills to the heap only past
/// `INLINE_MOVES` (200) moves, which none of the shipped games reaches.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, INLINE_MOVES>,
    spill: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Adds a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if let Err(e) = self.inline.try_push(m) {
            self.spill.push(e.element());
        }
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.inline.len() + self.spill.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inline.is_empty()
    }

    /// Removes all moves.
    pub fn clear(&mut self) {
        self.inline.clear();
        self.spill.clear();
    }

    /// The `i`-th move.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Move> {
        if i < self.inline.len() {
            Some(self.inline[i])
        } else {
            self.spill.get(i - self.inline.len()).copied()
        }
    }

    /// The moves, in generation order, as the part kept inline and the part spilled.
    #[inline]
    pub(crate) fn parts(&self) -> [&[Move]; 2] {
        [&self.inline, &self.spill]
    }

    /// The moves, in generation order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.inline.iter().chain(self.spill.iter()).copied()
    }
}

/// Where generation code that runs out of line puts its moves: a sink seen through a trait
/// object (see [`Sink::escape`]).
pub(crate) trait Emit<B> {
    /// Takes one move.
    fn push(&mut self, m: Move) -> ControlFlow<B>;
    /// Generation cannot go on without passing a limit.
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<B>;
}

/// Where move generation puts the moves it finds.
///
/// Generation is written once, over this trait, for several kinds of sink: a caller's
/// callback, guarded by the move limit ([`Guard`]); [`Buffer`], which writes into a
/// [`MoveList`] with the count held by value (a count held by value stays in a register for
/// the whole generation, where a list reached through a callback is read and written back
/// through memory on every move); and filters of those.
pub(crate) trait Sink {
    /// Why generation stopped early.
    type Break;

    /// Takes one move.
    fn push(&mut self, m: Move) -> ControlFlow<Self::Break>;

    /// Generation cannot go on without passing a limit (see [`MoveLimit`]): a sink must stop.
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<Self::Break>;

    /// Runs `g` on this sink, out of line where that keeps the caller lean: the code that
    /// walks listed targets is large and rarely needed, and a buffer's caller keeps more of
    /// its loop in registers without it.
    fn outline(
        &mut self,
        g: impl FnOnce(&mut Self) -> ControlFlow<Self::Break>,
    ) -> ControlFlow<Self::Break>;

    /// Runs generation code that takes its moves through a trait object: the code kept out of
    /// line (targets read during play, hop chains, mandatory capture).
    #[inline(always)]
    fn escape(
        &mut self,
        g: impl FnOnce(&mut dyn Emit<Self::Break>) -> ControlFlow<Self::Break>,
    ) -> ControlFlow<Self::Break>
    where
        Self: Sized,
    {
        self.outline(|sink| g(sink))
    }
}

impl<S: Sink> Emit<S::Break> for S {
    #[inline(always)]
    fn push(&mut self, m: Move) -> ControlFlow<S::Break> {
        Sink::push(self, m)
    }

    #[inline(always)]
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<S::Break> {
        Sink::limit(self, l)
    }
}

/// A trait object as a [`Sink`].
pub(crate) struct Dyn<'a, B>(pub &'a mut dyn Emit<B>);

impl<B> Sink for Dyn<'_, B> {
    type Break = B;

    #[inline(always)]
    fn push(&mut self, m: Move) -> ControlFlow<B> {
        self.0.push(m)
    }

    #[inline(always)]
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<B> {
        self.0.limit(l)
    }

    #[inline(always)]
    fn outline(&mut self, g: impl FnOnce(&mut Self) -> ControlFlow<B>) -> ControlFlow<B> {
        g(self)
    }
}

/// Why a [`Guard`] stopped generation: its callback broke, or a limit was reached.
pub(crate) enum Stop<B> {
    User(B),
    Limit(MoveLimit),
}

/// A caller's callback as a [`Sink`], stopping generation past [`MAX_MOVES`] moves.
pub(crate) struct Guard<F> {
    pub f: F,
    pub count: usize,
}

impl<F> Guard<F> {
    pub(crate) fn new(f: F) -> Guard<F> {
        Guard { f, count: 0 }
    }
}

impl<B, F: FnMut(Move) -> ControlFlow<B>> Sink for Guard<F> {
    type Break = Stop<B>;

    #[inline(always)]
    fn push(&mut self, m: Move) -> ControlFlow<Stop<B>> {
        self.count += 1;
        if self.count > MAX_MOVES {
            return ControlFlow::Break(Stop::Limit(MoveLimit::TooMany));
        }
        match (self.f)(m) {
            ControlFlow::Continue(()) => ControlFlow::Continue(()),
            ControlFlow::Break(b) => ControlFlow::Break(Stop::User(b)),
        }
    }

    #[inline(always)]
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<Stop<B>> {
        ControlFlow::Break(Stop::Limit(l))
    }

    #[inline(always)]
    fn outline(
        &mut self,
        g: impl FnOnce(&mut Self) -> ControlFlow<Stop<B>>,
    ) -> ControlFlow<Stop<B>> {
        g(self)
    }
}

impl<B> Stop<B> {
    /// The break of a guarded generation as the caller sees it.
    pub(crate) fn result(flow: ControlFlow<Stop<B>>) -> Result<ControlFlow<B>, MoveLimit> {
        match flow {
            ControlFlow::Continue(()) => Ok(ControlFlow::Continue(())),
            ControlFlow::Break(Stop::User(b)) => Ok(ControlFlow::Break(b)),
            ControlFlow::Break(Stop::Limit(l)) => Err(l),
        }
    }
}

/// A [`Sink`] writing into the inline part of a [`MoveList`] (see [`MoveList::fill`]). It
/// breaks when that part is full.
///
/// It holds a pointer to the list's storage rather than the list, so that it can be copied
/// into out-of-line code and its count returned by value: a buffer whose address is never
/// taken keeps its count in a register. Only [`MoveList::fill`] makes one, from a list it
/// borrows exclusively for `'a`, and the copies are used one after the other.
#[derive(Copy, Clone)]
pub(crate) struct Buffer<'a> {
    moves: *mut Move,
    len: usize,
    list: PhantomData<&'a mut ArrayVec<Move, INLINE_MOVES>>,
}

impl Sink for Buffer<'_> {
    type Break = ();

    #[inline(always)]
    fn push(&mut self, m: Move) -> ControlFlow<()> {
        if self.len >= INLINE_MOVES {
            return ControlFlow::Break(());
        }
        // SAFETY: `moves` points at the storage of a list borrowed exclusively for `'a`, and
        // `len` is below its capacity, so the slot is inside the array; the slot is past the
        // list's recorded length, so nothing there is read or dropped (and `Move` is `Copy`).
        // `MoveList::fill` records the length once generation is done.
        unsafe { self.moves.add(self.len).write(m) };
        self.len += 1;
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn limit(&mut self, _: MoveLimit) -> ControlFlow<()> {
        // The caller falls back to a guarded list, which reports the limit.
        ControlFlow::Break(())
    }

    #[inline(always)]
    fn outline(&mut self, g: impl FnOnce(&mut Self) -> ControlFlow<()>) -> ControlFlow<()> {
        self.len = outlined(*self, g)?;
        ControlFlow::Continue(())
    }
}

/// [`Buffer::outline`], out of line, with the buffer passed and its count returned by value.
#[inline(never)]
fn outlined<'a>(
    mut b: Buffer<'a>,
    g: impl FnOnce(&mut Buffer<'a>) -> ControlFlow<()>,
) -> ControlFlow<(), usize> {
    g(&mut b)?;
    ControlFlow::Continue(b.len)
}

impl MoveList {
    /// Empties the list and fills it by `generate`, which writes through a [`Buffer`]. False
    /// when the moves did not fit in the inline part; the list is then empty.
    #[inline(always)]
    pub(crate) fn fill(
        &mut self,
        generate: impl FnOnce(&mut Buffer<'_>) -> ControlFlow<()>,
    ) -> bool {
        self.clear();
        let mut b = Buffer {
            moves: self.inline.as_mut_ptr(),
            len: 0,
            list: PhantomData,
        };
        let fits = generate(&mut b).is_continue();
        let len = if fits { b.len } else { 0 };
        // SAFETY: the list was empty and `Buffer::push` wrote each of the first `len` slots.
        unsafe { self.inline.set_len(len) };
        fits
    }
}
