//! The records that play reads: precomputed targets, step groups, capture and blocking bit
//! tables, compiled end rules. The compiler ([`crate::compile`]) writes them; generation,
//! make/unmake and the end checks read them.

use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::expr::{BinOp, Expr};
use crate::geometry::DirSet;
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::spec::CaptureMode;
use crate::status::Outcome;
use crate::verdict::Checked;

/// Kinds of precomputed targets.
pub(crate) const STEP: u8 = 0;
pub(crate) const JUMP: u8 = 1;
pub(crate) const HOP: u8 = 2;
/// One landing cell of a slide's ray; the targets of one ray follow each other, nearest
/// first, and the cells before a target's are its `jumped` cells.
pub(crate) const SLIDE: u8 = 3;

/// One precomputed destination of one move pattern from one cell.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Target {
    pub to: u16,
    /// For a hop: the cell hopped over.
    pub over: u16,
    /// Index into [`Rules::moves`].
    pub rule: u8,
    pub kind: u8,
    pub dir: u8,
    /// For a jump: the jumped cells, `jumped[start..start + len]`.
    pub jumped_len: u8,
    pub jumped_start: u32,
    /// [`QUIET`], [`CAPTURE`], [`SLOW`], [`BLOCKABLE`].
    pub flags: u8,
    /// Bit index into [`Rules::cap_bits`] for "no piece" (add `target code * cap_stride`).
    pub cap_base: u32,
    pub cap_stride: u32,
    /// A slide may pass this cell but not stop on it (the static enter checks refuse it).
    pub pass_only: bool,
}

/// The target may move onto an empty cell.
pub(crate) const QUIET: u8 = 1;
/// The target may move onto (or hop over) an enemy piece, subject to the capture table.
pub(crate) const CAPTURE: u8 = 2;
/// Some predicate of this target's pattern reads the position: take the interpreted path.
pub(crate) const SLOW: u8 = 4;
/// The jump has a blocking table to consult for each jumped cell.
pub(crate) const BLOCKABLE: u8 = 8;
/// The hop may be chained.
pub(crate) const CHAIN: u8 = 16;
/// The target is a hop.
pub(crate) const HOPS: u8 = 32;
/// The slide captures over a screen.
pub(crate) const SCREEN: u8 = 64;
/// The first target of a slide's ray.
pub(crate) const RAY: u8 = 128;

/// A jumped cell with its precomputed index into [`Rules::block_bits`] (add the occupant's
/// code).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Jumped {
    pub cell: u16,
    pub block_base: u32,
}

#[inline]
pub(crate) fn bit(bits: &[u64], i: usize) -> bool {
    bits[i >> 6] & (1 << (i & 63)) != 0
}

/// A bit table over up to five indices, with zero strides for the indices an expression does
/// not read.
#[derive(Clone, Debug, Default)]
pub(crate) struct BitTable {
    pub(crate) bits: Vec<u64>,
    pub(crate) strides: [usize; 5],
}

impl BitTable {
    #[inline]
    pub(crate) fn index(&self, keys: [usize; 5]) -> usize {
        keys[0] * self.strides[0]
            + keys[1] * self.strides[1]
            + keys[2] * self.strides[2]
            + keys[3] * self.strides[3]
            + keys[4] * self.strides[4]
    }

    pub(crate) fn set(&mut self, keys: [usize; 5]) {
        let i = self.index(keys);
        self.bits[i >> 6] |= 1 << (i & 63);
    }
}

/// A predicate compiled to a table where possible, with the rest kept for evaluation.
///
/// `stat` is the list the table was filled from: the table caches its verdict
/// ([`crate::verdict::first_refusal`] found no refusal), and an explanation evaluates it again
/// for the one case at hand to name the rule behind a cleared bit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Check {
    /// None when the static part is not tabulated (too large): then `dynamic` holds it all.
    pub table: Option<BitTable>,
    pub stat: Vec<Checked>,
    pub dynamic: Vec<Checked>,
    /// The entries the table of the static part would have needed, when that passed the
    /// compiler's limit and the static part was left to play (0 otherwise).
    pub untabulated: usize,
}

/// The geometric shape of a compiled move pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Step,
    /// Across a run of cells of this zone.
    Jump(usize),
    Hop,
    /// Along a ray, at most this many cells.
    Slide(Option<u8>),
    /// To an offset and its images.
    Leap(u8, u8),
    /// A new piece on an empty cell.
    Place,
    /// To any other cell of the board.
    Fly,
    /// No move at all.
    Pass,
    /// A move of two pieces at once, by index into [`crate::rules::Rules::compounds`].
    Compound(u8),
}

/// A compiled move pattern.
#[derive(Clone, Debug)]
pub(crate) struct CompiledMove {
    pub kind: KindId,
    /// How the designer wrote it.
    pub text: String,
    pub shape: Shape,
    /// The absolute directions, by player.
    pub dirs: [DirSet; PLAYERS],
    pub mode: CaptureMode,
    pub chain: bool,
    pub complete: bool,
    /// The enter rules that do not read the position, then the pattern's own condition if it
    /// does not either: the target lists hold only the destinations where all of them hold.
    pub enter: Vec<Checked>,
    pub capture: Check,
    /// A jump's blocking predicate: it holds on a jumped cell to block (the reverse of the
    /// other checks); its reason's cell is a placeholder.
    pub blocked: Check,
    /// Enter rules (and the condition) that read the position, checked during generation;
    /// for a placement, the place rules and the condition that read the position.
    pub dynamic_enter: Vec<Checked>,
    /// A slide that captures over a screen.
    pub screen: bool,
    /// A slide that passes the mover's own pieces.
    pub over_own: bool,
    /// A `far` hop: across empty cells to the piece it takes and onto any empty cell beyond
    /// (its targets list the cells passed, which must be empty); a chain of them lifts the
    /// pieces it takes when the move ends.
    pub far: bool,
    /// For a placement: the cells the static checks allow, by player; for a second part, the
    /// cells where its piece may be placed.
    pub place_cells: [CellSet; PLAYERS],
    /// For a placement: the static checks the cells were filtered by, in order.
    pub place_static: Vec<Checked>,
    /// For a placement: the checks read during play as one formula over the board, by
    /// player, when they have that shape (see [`crate::formula`]).
    pub place_formula: Option<Box<[crate::formula::CellFormula; PLAYERS]>>,
    /// The second part of the turn: the piece placed (by player: its code) and the slide
    /// directions.
    pub then: Option<([u8; PLAYERS], [DirSet; PLAYERS])>,
    /// The cells a quiet slide of this pattern passes stay open to capture for one turn.
    pub leaves_ghost: bool,
    /// This pattern's captures also take a piece that has just passed the destination.
    pub takes_ghost: bool,
}

impl CompiledMove {
    /// The pattern of a pass.
    pub(crate) fn pass() -> CompiledMove {
        CompiledMove {
            kind: crate::piece::KindId(0),
            text: "pass".into(),
            shape: Shape::Pass,
            dirs: [DirSet::default(); PLAYERS],
            mode: CaptureMode::Quiet,
            chain: false,
            complete: false,
            enter: Vec::new(),
            capture: Check::default(),
            blocked: Check::default(),
            dynamic_enter: Vec::new(),
            screen: false,
            over_own: false,
            far: false,
            place_cells: [CellSet::EMPTY; PLAYERS],
            place_static: Vec::new(),
            place_formula: None,
            then: None,
            leaves_ghost: false,
            takes_ghost: false,
        }
    }
}

/// What a compiled effect does.
pub(crate) use crate::spec::EffectKind;

/// A compiled effect: its conditions as tables over (mover code, target code, cell,
/// occupant code), with zero strides for what a condition does not read.
#[derive(Clone, Debug)]
pub(crate) struct CompiledEffect {
    pub kind: EffectKind,
    pub dirs: DirSet,
    /// The directions from the moved piece in which a victim is looked for: `dirs`, but for a
    /// surround their opposites (the mover stands on one of the enclosing cells).
    pub look: DirSet,
    pub required: bool,
    /// For a custodial capture: the fewest and the most pieces of a line taken together.
    pub run: (u8, u8),
    /// `target` holds: index by mover code, target code, target cell.
    pub target: Option<BitTable>,
    /// `hostile` holds: index by mover code, target code, cell, occupant code.
    pub hostile: Option<BitTable>,
}

/// How a compiled end rule is tested.
#[derive(Clone, Debug)]
pub(crate) enum EndCheck {
    /// The moved piece arrived on one of these cells (per piece code).
    Arrive(Vec<CellSet>),
    /// A piece count compared with a constant: (whose count, relative or fixed), kind, op, n.
    Count(Who, Option<KindId>, BinOp, i64),
    /// The line through the destination (`line(to, DIRS) <op> n`).
    Line(DirSet, BinOp, i64),
    /// Resolved when the next player's move list is empty, if the condition (read then, from
    /// the player who moved last) holds.
    Deferred(Option<Expr>),
    /// Evaluated after each move.
    Dynamic(Expr),
}

/// A player named relative to the one who has just moved, or absolutely.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Mover,
    Opponent,
    Fixed(Player),
}

impl Who {
    #[inline]
    pub fn resolve(self, mover: Player) -> Player {
        match self {
            Who::Mover => mover,
            Who::Opponent => mover.other(),
            Who::Fixed(p) => p,
        }
    }
}

/// An end rule tested after every move, laid out flat for the loop in `make`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Eager {
    pub index: u8,
    pub test: EagerTest,
}

/// How an eager end rule is tested.
#[derive(Copy, Clone, Debug)]
pub(crate) enum EagerTest {
    /// A piece count within `lo..=hi`: `at` is the counter's index for each moving player.
    Count {
        at: [u16; PLAYERS],
        lo: i64,
        hi: i64,
    },
    /// The ply clock compared with a constant.
    Clock(BinOp, i64),
    /// The idle clock compared with a constant.
    Idle(BinOp, i64),
    /// The earlier occurrences of the position compared with a constant.
    Repetitions(BinOp, i64),
    /// Interpreted, but reading only piece counts and where the pieces of some kinds stand
    /// (a bit per kind, `count(pieces(p, K) in zone)`): it can only change when a count does
    /// or a piece of one of those kinds moves.
    Counts(u64),
    /// The line through the destination compared with a constant.
    Line(DirSet, BinOp, i64),
    /// Interpreted.
    Dynamic,
}

#[derive(Clone, Debug)]
pub(crate) struct CompiledEnd {
    pub check: EndCheck,
    /// The result, by the player who has just moved (unless `winner` is read from the
    /// position).
    pub result: [Outcome; PLAYERS],
    /// A winner that reads the position, evaluated when the rule fires (`nobody`: a draw).
    pub winner: Option<Expr>,
}

/// A table by piece byte, then cell: indexed by a `u8` code and a cell (below
/// [`MAX_CELLS`]). Rows past the rules' piece codes stay at their fill value.
pub(crate) type CodeTable<T> = [[T; MAX_CELLS]; 256];

pub(crate) fn code_table<T: Copy>(fill: T) -> Box<CodeTable<T>> {
    vec![[fill; MAX_CELLS]; 256]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has 256 rows"))
}

/// "No rule" in the byte tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The most cells a board may have for its plain targets to become masks.
pub(crate) const MASK_CELLS: usize = 64;

/// The plain targets of one move pattern from one cell, for one piece code.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct StepGroup {
    /// Destinations that may be entered when empty.
    pub quiet: u64,
    /// Destinations that may be entered when an enemy piece stands there, subject to the
    /// capture table.
    pub capture: u64,
    /// Bit index into [`crate::rules::Rules::cap_bits`] for this piece, origin class and
    /// destination class 0, with no target piece.
    pub cap_from: u32,
    /// What one more destination class adds to the bit index.
    pub cap_class: u32,
    /// What one more target piece code adds to the bit index.
    pub cap_piece: u32,
    /// Index into [`crate::rules::Rules::moves`].
    pub rule: u8,
}

/// Where the moves of one piece code from one cell are: its step groups and its other targets.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Slot {
    /// A copy of the first step group (empty masks when there is none), so that a piece with
    /// one pattern of plain steps finds its moves with a single load.
    pub first: StepGroup,
    /// When every listed target is a hop read from tables ([`Slot::hops_only`]): the cells
    /// hopped over, one of which must hold an enemy piece for any of them to be legal. A piece
    /// with no enemy next to it skips its hops with one test.
    pub hopped: u64,
    /// Start of the listed targets in [`crate::rules::Rules::targets`].
    pub start: u32,
    /// Start of the step groups in [`crate::rules::Rules::groups`].
    pub group_start: u32,
    /// Number of listed targets.
    pub len: u16,
    /// Number of step groups.
    pub groups: u16,
    /// Whether every listed target is a hop read from tables (on a board of at most 64 cells).
    pub hops_only: bool,
    /// Whether there is more than [`Slot::first`]: other groups, or listed targets.
    pub more: bool,
}

/// Whether a target's legality depends only on the occupant of its destination.
pub(crate) fn is_plain(t: &Target) -> bool {
    t.flags & (SLOW | HOPS | BLOCKABLE) == 0 && t.flags & (QUIET | CAPTURE) != 0
}

/// Whether a target is a hop whose legality is read from tables: it needs an enemy piece on
/// the cell it hops over.
pub(crate) fn is_table_hop(t: &Target) -> bool {
    t.kind == HOP && t.flags & SLOW == 0
}

/// A capture table's place and strides (piece, origin class, target code, hopped-cell class,
/// destination class), as laid out by the rule compiler; `None` for "always allowed".
pub(crate) type CapLayout = Option<(usize, [usize; 5])>;

/// Whether effect `e`'s target condition lets `mover` affect `victim` on `cell`.
#[inline]
pub(crate) fn target_ok(e: &CompiledEffect, mover: u8, victim: u8, cell: Cell) -> bool {
    e.target
        .as_ref()
        .is_none_or(|t| t.get([mover as usize, victim as usize, cell.index(), 0, 0]))
}

/// Whether `cell` (holding `occ`) is hostile to `victim` for `mover` under effect `e`: it holds
/// a piece of the mover's side, or the effect's `hostile` condition holds there.
#[inline]
pub(crate) fn hostile(e: &CompiledEffect, mover: u8, victim: u8, cell: Cell, occ: u8) -> bool {
    (occ != 0 && Piece(occ).owner() == Piece(mover).owner())
        || e.hostile.as_ref().is_some_and(|t| {
            t.get([
                mover as usize,
                victim as usize,
                cell.index(),
                occ as usize,
                0,
            ])
        })
}

impl BitTable {
    /// The bit at these keys.
    #[inline]
    pub(crate) fn get(&self, keys: [usize; 5]) -> bool {
        bit(&self.bits, self.index(keys))
    }
}
