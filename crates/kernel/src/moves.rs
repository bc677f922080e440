//! Moves and move lists.
//!
//! A [`Move`] is 16 bytes and `Copy`: two words. The first, [`Move::meta`], holds origin,
//! destination, the pattern that made it, the number of hops, what kind of move it is and the
//! code of a chosen promotion; the second holds either the direction of each hop (three bits
//! each), from which the path and the captured cells are recomputed, or, for a move that is
//! not a hop chain, the cell of its second part and the cell of its passing victim or compound
//! partner. Every move the compiler can emit is packed by [`Move::pack`] from a [`MoveParts`];
//! the combinations no pattern can produce (a hop chain with a second part, a compound move
//! with a passing victim) are refused when a pack is compiled. A [`MoveList`] holds moves
//! without allocating in all ordinary cases.

use crate::cell::Cell;
use crate::geometry::Dir;
use crate::geometry::Geometry;
use crate::limits::{MAX_FAR_HOP_LENGTH, MAX_FAR_HOPS, MAX_HOPS, MAX_MOVES, MoveLimit};
use arrayvec::ArrayVec;
use std::marker::PhantomData;
use std::ops::ControlFlow;

/// A move of the player to move: a step, a slide, a leap or a jump, a hop chain, a placement,
/// a compound move or a pass, with its second part and its chosen promotion if it has them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Origin, destination, pattern, hops, flags, choice: see the constants below.
    meta: u64,
    /// For a hop chain, the direction of each hop (three bits each); otherwise the second
    /// part's cell (bits 0..16) and the victim's or partner's cell (bits 16..32).
    extra: u64,
}

/// Bits of a cell in [`Move::meta`]: enough for every cell of the largest board.
pub(crate) const CELL_BITS: u32 = 10;
const CELL_MASK: u64 = (1 << CELL_BITS) - 1;
const _: () = assert!(crate::cell::MAX_CELLS <= 1 << CELL_BITS);
const TO_SHIFT: u32 = CELL_BITS;
const RULE_SHIFT: u32 = 2 * CELL_BITS;
const HOPS_SHIFT: u32 = RULE_SHIFT + 8;
const HOPS_MASK: u64 = 0x1f;
const _: () = assert!(MAX_HOPS as u64 <= HOPS_MASK && 3 * MAX_HOPS <= 64);
const FLAGS_SHIFT: u32 = HOPS_SHIFT + 5;
/// Captures by displacement.
const CAPTURE: u64 = 1 << FLAGS_SHIFT;
/// A placement: no piece moves from an origin.
const PLACE: u64 = CAPTURE << 1;
/// A pass.
const PASS: u64 = CAPTURE << 2;
/// The turn has a second part, placed on the cell in bits 0..16 of `extra`.
const SECOND: u64 = CAPTURE << 3;
/// It takes the piece that has just passed the destination, on the cell in bits 16..32 of
/// `extra`.
const GHOST: u64 = CAPTURE << 4;
/// A compound move, whose partner stands on the cell in bits 16..32 of `extra`.
const COMPOUND: u64 = CAPTURE << 5;
/// The moved piece promotes to the code in bits `CHOICE_SHIFT..CHOICE_SHIFT + 8`.
const CHOICE: u64 = CAPTURE << 6;
const CHOICE_SHIFT: u32 = FLAGS_SHIFT + 7;
/// A compound move written and pathed from the mover onto its partner (its own destination
/// is one the mover's own patterns reach from its origin).
const BY_PARTNER: u64 = 1 << (CHOICE_SHIFT + 8);
/// A hop chain of a `far` pattern: each hop keeps its direction and its length (see
/// [`FAR_BITS`]).
const FAR: u64 = 1 << (CHOICE_SHIFT + 9);
/// The mover removes the enemy piece on the cell in bits `REMOVAL_SHIFT..REMOVAL_SHIFT +
/// CELL_BITS` (a `remove` effect: the player's choice).
const REMOVE: u64 = 1 << (CHOICE_SHIFT + 10);
const REMOVAL_SHIFT: u32 = CHOICE_SHIFT + 11;
const _: () = assert!(REMOVAL_SHIFT + CELL_BITS <= 64);
/// Bits of one hop of a `far` chain in [`Move::extra`]: the direction (three bits), then the
/// number of cells from the hop's start to its landing, less one (four bits).
const FAR_BITS: u32 = 7;
const _: () = assert!(FAR_BITS as usize * MAX_FAR_HOPS <= 64 && MAX_FAR_HOP_LENGTH <= 16);

/// What a move carries, unpacked: the one description [`Move::pack`] packs and
/// [`Move::parts`] gives back.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct MoveParts {
    /// The cell the piece leaves (a placement's cell, for a placement; unused by a pass).
    pub from: Cell,
    /// The cell the piece ends on.
    pub to: Cell,
    /// The pattern that made the move, as numbered by [`crate::Rules::pattern_text`].
    pub rule: u8,
    /// It captures by displacement.
    pub capture: bool,
    /// It places a new piece on `to`.
    pub placement: bool,
    /// It is a pass.
    pub pass: bool,
    /// The direction index of each hop, in order (`0..8`, clockwise from north).
    pub hops: ArrayVec<u8, MAX_HOPS>,
    /// For a hop chain of a `far` pattern, the length of each hop: the cells from where it
    /// starts to where it lands (`2..=MAX_FAR_HOP_LENGTH`); empty for other moves.
    pub hop_lengths: ArrayVec<u8, MAX_FAR_HOPS>,
    /// The cell of the second part of the turn.
    pub second: Option<Cell>,
    /// The cell of the piece taken because it has just passed `to`.
    pub ghost_victim: Option<Cell>,
    /// The cell a compound move's partner starts on.
    pub partner: Option<Cell>,
    /// The code of the piece the moved piece becomes by the player's choice.
    pub choice: Option<u8>,
    /// For a compound move: it is written and pathed from the mover onto its partner.
    pub by_partner: bool,
    /// The cell of the enemy piece the mover removes, by its choice (a `remove` effect).
    pub removal: Option<Cell>,
}

impl Move {
    /// Packs `p`, or `None` for a combination no pattern produces (see the module's
    /// documentation). A move built this way is checked like any other when played
    /// ([`crate::Position::play`]).
    pub fn pack(p: &MoveParts) -> Option<Move> {
        let exclusive = [p.placement, p.pass, !p.hops.is_empty(), p.partner.is_some()];
        if exclusive.iter().filter(|&&b| b).count() > 1
            || (!p.hops.is_empty() && (p.second.is_some() || p.ghost_victim.is_some()))
            || (p.ghost_victim.is_some() && p.partner.is_some())
            || ((p.placement || p.pass) && (p.ghost_victim.is_some() || p.choice.is_some()))
            || (p.pass && p.second.is_some())
            || (p.by_partner && p.partner.is_none())
            || (!p.hop_lengths.is_empty() && p.hop_lengths.len() != p.hops.len())
            || p.hop_lengths
                .iter()
                .any(|&l| !(2..=MAX_FAR_HOP_LENGTH as u8).contains(&l))
        {
            return None;
        }
        let mut m = Move {
            meta: Move::word(p.from, p.to, p.rule, 0),
            extra: 0,
        };
        if p.capture {
            m.meta |= CAPTURE;
        }
        if p.placement {
            m.meta |= PLACE;
        }
        if p.pass {
            m.meta |= PASS;
        }
        if p.hop_lengths.is_empty() {
            for &d in &p.hops {
                let n = m.hops() as u32;
                m.extra |= (d as u64 & 7) << (3 * n);
                m.meta += 1 << HOPS_SHIFT;
            }
        } else {
            m.meta |= FAR;
            for (&d, &l) in p.hops.iter().zip(&p.hop_lengths) {
                m = m.extended_far(m.to(), d, l);
            }
            m = m.with_to(p.to);
        }
        if let Some(at) = p.second {
            m = m.then_at(at);
        }
        if let Some(v) = p.ghost_victim {
            m.meta |= GHOST;
            m.extra |= (v.0 as u64) << 16;
        }
        if let Some(q) = p.partner {
            m.meta |= COMPOUND;
            m.extra |= (q.0 as u64) << 16;
        }
        if let Some(code) = p.choice {
            m = m.with_choice(code);
        }
        if p.by_partner {
            m.meta |= BY_PARTNER;
        }
        if let Some(c) = p.removal {
            if p.pass {
                return None;
            }
            m = m.with_removal(c);
        }
        Some(m)
    }

    /// What this move carries, unpacked.
    pub fn parts(&self) -> MoveParts {
        MoveParts {
            from: self.from(),
            to: self.to(),
            rule: self.rule(),
            capture: self.meta & CAPTURE != 0,
            placement: self.is_placement(),
            pass: self.is_pass(),
            hops: (0..self.hops()).map(|i| self.hop_dir(i) as u8).collect(),
            hop_lengths: if self.is_far() {
                (0..self.hops()).map(|i| self.hop_length(i)).collect()
            } else {
                ArrayVec::new()
            },
            second: self.second(),
            ghost_victim: self.ghost_victim(),
            partner: self.compound_partner(),
            choice: self.choice_code(),
            by_partner: self.meta & BY_PARTNER != 0,
            removal: self.removal(),
        }
    }

    #[inline(always)]
    const fn word(from: Cell, to: Cell, rule: u8, flags: u64) -> u64 {
        from.0 as u64 | (to.0 as u64) << TO_SHIFT | (rule as u64) << RULE_SHIFT | flags
    }

    #[inline]
    pub(crate) fn simple(from: Cell, to: Cell, rule: u8, capture: bool) -> Move {
        Move {
            meta: Move::word(from, to, rule, if capture { CAPTURE } else { 0 }),
            extra: 0,
        }
    }

    #[inline]
    pub(crate) fn hop(from: Cell, to: Cell, rule: u8, dir: u8) -> Move {
        Move {
            meta: Move::word(from, to, rule, 1 << HOPS_SHIFT),
            extra: dir as u64,
        }
    }

    /// A new piece placed on `to` by placement pattern `rule`.
    #[inline]
    pub(crate) fn place(to: Cell, rule: u8) -> Move {
        Move {
            meta: Move::word(to, to, rule, PLACE),
            extra: 0,
        }
    }

    /// A pass (pattern `rule`).
    #[inline]
    pub(crate) fn pass(rule: u8) -> Move {
        Move {
            meta: Move::word(Cell(0), Cell(0), rule, PASS),
            extra: 0,
        }
    }

    /// This move followed by placing a piece on `at`, its second part.
    #[inline]
    pub(crate) fn then_at(self, at: Cell) -> Move {
        debug_assert_eq!(self.hops(), 0, "a hop chain has no second part");
        Move {
            meta: self.meta | SECOND,
            extra: (self.extra & !0xffff) | at.0 as u64,
        }
    }

    /// A capture of the piece on `victim`, which has just passed `to`.
    #[inline]
    pub(crate) fn ghost_take(from: Cell, to: Cell, rule: u8, victim: Cell) -> Move {
        Move {
            meta: Move::word(from, to, rule, CAPTURE | GHOST),
            extra: (victim.0 as u64) << 16,
        }
    }

    /// A compound move (pattern `rule`): the mover from `from` to `to`, its partner from
    /// `partner`; with `by_partner`, written and pathed from the mover onto its partner.
    #[inline]
    pub(crate) fn compound(
        from: Cell,
        to: Cell,
        rule: u8,
        partner: Cell,
        by_partner: bool,
    ) -> Move {
        let flags = if by_partner {
            COMPOUND | BY_PARTNER
        } else {
            COMPOUND
        };
        Move {
            meta: Move::word(from, to, rule, flags),
            extra: (partner.0 as u64) << 16,
        }
    }

    /// This move, with the moved piece promoting to `code`.
    #[inline]
    pub(crate) fn with_choice(self, code: u8) -> Move {
        Move {
            meta: (self.meta & !(0xff << CHOICE_SHIFT)) | CHOICE | (code as u64) << CHOICE_SHIFT,
            ..self
        }
    }

    /// This move, removing the enemy piece on `at` as its last part.
    #[inline]
    pub(crate) fn with_removal(self, at: Cell) -> Move {
        Move {
            meta: (self.meta & !(CELL_MASK << REMOVAL_SHIFT))
                | REMOVE
                | (at.0 as u64) << REMOVAL_SHIFT,
            ..self
        }
    }

    /// The cell of the enemy piece the mover removes by its choice, after the move and its
    /// effects (a `remove` effect).
    #[inline]
    pub fn removal(&self) -> Option<Cell> {
        (self.meta & REMOVE != 0).then_some(Cell((self.meta >> REMOVAL_SHIFT & CELL_MASK) as u16))
    }

    /// Whether the move changes no cell but its origin, its destination and the cell of its
    /// second part, and its piece arrives unchosen: no hops, no piece taken in passing, no
    /// partner, no choice of promotion.
    #[inline(always)]
    pub(crate) fn changes_only_its_cells(&self) -> bool {
        self.meta & (HOPS_MASK << HOPS_SHIFT | GHOST | COMPOUND | CHOICE | REMOVE) == 0
    }

    /// The cell of the piece this move takes because it has just passed the destination.
    #[inline]
    pub(crate) fn ghost_victim(&self) -> Option<Cell> {
        (self.meta & GHOST != 0).then_some(Cell((self.extra >> 16) as u16))
    }

    /// For a compound move, the cell its partner starts on.
    #[inline]
    pub(crate) fn compound_partner(&self) -> Option<Cell> {
        (self.meta & COMPOUND != 0).then_some(Cell((self.extra >> 16) as u16))
    }

    /// The code the moved piece promotes to by this move's choice.
    #[inline]
    pub(crate) fn choice_code(&self) -> Option<u8> {
        (self.meta & CHOICE != 0).then_some((self.meta >> CHOICE_SHIFT) as u8)
    }

    /// The piece the moved piece becomes, when the player chose it among several.
    #[inline]
    pub fn promotion(&self) -> Option<crate::Piece> {
        self.choice_code().and_then(crate::Piece::from_code)
    }

    /// Whether this moves two pieces at once (a compound move).
    #[inline]
    pub fn is_compound(&self) -> bool {
        self.meta & COMPOUND != 0
    }

    /// Whether this is a pass.
    #[inline]
    pub fn is_pass(&self) -> bool {
        self.meta & PASS != 0
    }

    /// Whether this move puts a new piece on the board on [`Move::to`] (no piece moves).
    #[inline]
    pub fn is_placement(&self) -> bool {
        self.meta & PLACE != 0
    }

    /// The cell of the second part of the turn, if it has one.
    #[inline]
    pub fn second(&self) -> Option<Cell> {
        (self.meta & SECOND != 0).then_some(Cell(self.extra as u16))
    }

    /// This move with its destination replaced by `to`.
    #[inline(always)]
    pub(crate) fn with_to(self, to: Cell) -> Move {
        Move {
            meta: (self.meta & !(CELL_MASK << TO_SHIFT)) | (to.0 as u64) << TO_SHIFT,
            ..self
        }
    }

    /// This hop chain extended by one more hop in `dir`, landing on `to`.
    #[inline]
    pub(crate) fn extended(self, to: Cell, dir: u8) -> Move {
        let n = self.hops();
        Move {
            meta: self.with_to(to).meta + (1 << HOPS_SHIFT),
            extra: self.extra | (dir as u64) << (3 * n),
        }
    }

    /// The first hop of a chain of a `far` pattern, in `dir`, `len` cells long, landing on
    /// `to`.
    #[inline]
    pub(crate) fn far_hop(from: Cell, to: Cell, rule: u8, dir: u8, len: u8) -> Move {
        Move {
            meta: Move::word(from, from, rule, FAR),
            extra: 0,
        }
        .extended_far(to, dir, len)
    }

    /// This chain of a `far` pattern extended by one more hop in `dir`, `len` cells long,
    /// landing on `to`.
    #[inline]
    pub(crate) fn extended_far(self, to: Cell, dir: u8, len: u8) -> Move {
        let n = self.hops() as u32;
        let bits = (dir as u64 & 7) | ((len as u64).saturating_sub(1) & 15) << 3;
        Move {
            meta: self.with_to(to).meta + (1 << HOPS_SHIFT),
            extra: self.extra | bits << (FAR_BITS * n),
        }
    }

    /// Whether this is a hop chain of a `far` pattern: hops that cross empty cells before and
    /// after the piece they take, which only the board says ([`crate::Position::hopped`]).
    #[inline(always)]
    pub fn is_far(&self) -> bool {
        self.meta & FAR != 0
    }

    /// The number of cells the `i`-th hop goes, from where it starts to where it lands: 2
    /// for a plain hop.
    #[inline]
    pub(crate) fn hop_length(&self, i: usize) -> u8 {
        if self.is_far() {
            ((self.extra >> (FAR_BITS as usize * i + 3)) & 15) as u8 + 1
        } else {
            2
        }
    }

    /// The cell the piece leaves.
    #[inline]
    pub fn from(&self) -> Cell {
        Cell((self.meta & CELL_MASK) as u16)
    }

    /// The cell the piece ends on.
    #[inline]
    pub fn to(&self) -> Cell {
        Cell(((self.meta >> TO_SHIFT) & CELL_MASK) as u16)
    }

    #[inline(always)]
    pub(crate) fn rule(&self) -> u8 {
        (self.meta >> RULE_SHIFT) as u8
    }

    /// The number of hops (0 for a step or a jump).
    #[inline]
    pub fn hops(&self) -> usize {
        ((self.meta >> HOPS_SHIFT) & HOPS_MASK) as usize
    }

    /// How many pieces the move itself takes: one a hop, one by moving onto a piece, one in
    /// passing (an effect's captures are not counted). What `must_capture = "most"` compares.
    #[inline]
    pub fn captured_count(&self) -> usize {
        match self.hops() {
            0 => usize::from(self.meta & CAPTURE != 0) + usize::from(self.meta & GHOST != 0),
            n => n,
        }
    }

    /// Whether the move captures: by moving onto an enemy piece, or by hopping over one.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.meta & (CAPTURE | HOPS_MASK << HOPS_SHIFT) != 0
    }

    /// The move pattern that produced this move.
    #[inline]
    pub fn pattern(&self) -> crate::PatternId {
        crate::PatternId(self.rule())
    }

    #[inline]
    pub(crate) fn hop_dir(&self, i: usize) -> Dir {
        let shift = if self.is_far() { FAR_BITS as usize } else { 3 };
        Dir::from_index(((self.extra >> (shift * i)) & 7) as u8)
    }

    /// The cells the piece visits on this board: origin, each landing cell, destination last;
    /// then the cell of the second part of the turn, if any, and the cell of the piece it
    /// removes by the player's choice, if any. A placement's path is its cell,
    /// a pass's is empty. A compound move whose mover could reach its destination by its own
    /// patterns goes from the mover onto its partner (`b1-a1`), so that no two moves share a
    /// path. ([`crate::Position::path`] gives it without naming the board.)
    pub fn path(&self, g: &Geometry) -> ArrayVec<Cell, { MAX_HOPS + 2 }> {
        let mut out = self.path_of_parts(g);
        if let Some(at) = self.removal() {
            out.push(at);
        }
        out
    }

    /// [`Move::path`] but for the removal.
    fn path_of_parts(&self, g: &Geometry) -> ArrayVec<Cell, { MAX_HOPS + 2 }> {
        let mut out = ArrayVec::new();
        if self.is_pass() {
            return out;
        }
        if self.meta & BY_PARTNER != 0
            && let Some(partner) = self.compound_partner()
        {
            out.push(self.from());
            out.push(partner);
            return out;
        }
        if self.is_placement() {
            out.push(self.to());
            if let Some(at) = self.second() {
                out.push(at);
            }
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
            let mut land = Some(cur);
            for _ in 0..self.hop_length(i) {
                land = land.and_then(|c| g.neighbour(c, d));
            }
            let Some(land) = land else {
                break;
            };
            out.push(land);
            cur = land;
        }
        out
    }

    /// The cells of the pieces a hop chain jumps over on this board, in order (empty for
    /// other moves, and for a `far` chain, whose hops cross empty cells: the position says
    /// which cells it takes, [`crate::Position::hopped`]).
    pub fn hopped(&self, g: &Geometry) -> ArrayVec<Cell, MAX_HOPS> {
        let mut out = ArrayVec::new();
        if self.is_far() {
            return out;
        }
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

#[cfg(test)]
mod layout {
    use super::*;

    fn cell(i: u16) -> Cell {
        Cell(i)
    }

    /// Every combination of what a move carries: the ones a pattern can produce pack and
    /// unpack to themselves, the others are refused.
    #[test]
    fn every_combination_round_trips_or_is_refused() {
        let far = cell((crate::cell::MAX_CELLS - 1) as u16);
        let mut packed = 0;
        for bits in 0u32..1 << 10 {
            let on = |i: u32| bits & (1 << i) != 0;
            let mut p = MoveParts {
                from: if on(0) { far } else { cell(1) },
                to: far,
                rule: if on(0) { u8::MAX } else { 3 },
                capture: on(1),
                placement: on(2),
                pass: on(3),
                ..MoveParts::default()
            };
            if on(4) {
                p.hops = (0..MAX_HOPS as u8).map(|i| (i * 3) % 8).collect();
            }
            if on(5) {
                p.second = Some(cell(2));
            }
            if on(6) {
                p.ghost_victim = Some(far);
            }
            if on(7) {
                p.partner = Some(far);
            }
            if on(8) {
                p.choice = Some(u8::MAX);
            }
            if on(9) {
                p.removal = Some(far);
            }
            p.by_partner = on(7) && on(0);
            let producible = [p.placement, p.pass, !p.hops.is_empty(), p.partner.is_some()]
                .iter()
                .filter(|&&b| b)
                .count()
                <= 1
                && !(!p.hops.is_empty() && (p.second.is_some() || p.ghost_victim.is_some()))
                && !(p.ghost_victim.is_some() && p.partner.is_some())
                && !((p.placement || p.pass) && (p.ghost_victim.is_some() || p.choice.is_some()))
                && !(p.pass && p.second.is_some())
                && !(p.pass && p.removal.is_some());
            match Move::pack(&p) {
                Some(m) => {
                    assert!(producible, "{p:?} should be refused");
                    assert_eq!(m.parts(), p, "{p:?} does not round-trip");
                    packed += 1;
                }
                None => assert!(!producible, "{p:?} should pack"),
            }
        }
        assert!(packed >= 120, "only {packed} combinations pack");
    }

    /// The constructors generation uses agree with [`Move::pack`].
    #[test]
    fn the_constructors_pack_as_pack_does() {
        let (a, b, v) = (cell(5), cell(200), cell(77));
        let parts = |f: &dyn Fn(&mut MoveParts)| {
            let mut p = MoveParts {
                from: a,
                to: b,
                rule: 9,
                ..MoveParts::default()
            };
            f(&mut p);
            Move::pack(&p).unwrap()
        };
        assert_eq!(Move::simple(a, b, 9, true), parts(&|p| p.capture = true));
        assert_eq!(
            Move::hop(a, b, 9, 5).extended(v, 2),
            parts(&|p| {
                p.to = v;
                p.hops = [5, 2].into_iter().collect();
            })
        );
        assert_eq!(
            Move::place(b, 9),
            parts(&|p| {
                p.from = b;
                p.placement = true;
            })
        );
        assert_eq!(
            Move::ghost_take(a, b, 9, v).then_at(a).with_choice(17),
            parts(&|p| {
                p.capture = true;
                p.ghost_victim = Some(v);
                p.second = Some(a);
                p.choice = Some(17);
            })
        );
        assert_eq!(
            Move::compound(a, b, 9, v, false),
            parts(&|p| p.partner = Some(v))
        );
        assert_eq!(
            Move::compound(a, b, 9, v, true),
            parts(&|p| {
                p.partner = Some(v);
                p.by_partner = true;
            })
        );
        assert_eq!(
            Move::hop(a, b, 9, 7).with_choice(3).hops(),
            1,
            "a choice leaves the hops alone"
        );
    }
}
