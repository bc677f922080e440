//! Rules: the unchecked [`RulesSpec`] a front end builds, and the checked, compiled [`Rules`]
//! the kernel plays.
//!
//! Compilation is where speed comes from. Every predicate that depends only on the pieces and
//! cells involved in a move (not on the rest of the position) is evaluated at load time for
//! every case and stored in a table:
//!
//! - enter rules are folded into per-piece, per-cell **target lists**: the destinations each
//!   move pattern can reach from each cell, already filtered; on boards of up to 64 cells the
//!   plain ones become bitboard **step groups** (see `steps.rs`);
//! - capture rules (with a hop's `over` filter) become one bit table per move pattern, indexed
//!   by attacker, defender and the *classes* of the cells involved (cells that no expression can
//!   tell apart share a class);
//! - a jump's blocking predicate becomes a table by mover, occupant and cell class;
//! - end rules that look only at the moved piece and its destination become per-piece cell sets;
//!   `count(...) <op> n` conditions become counter comparisons, whose verdict positions keep up
//!   to date as counts change; `no_moves(opponent)` at the end
//!   of the list is resolved lazily, when the next player's move list turns out empty.
//!
//! What cannot be tabulated (it reads the board, counts or moves) is kept as an [`Expr`] and
//! evaluated during play. The spec is kept too, so that a rejected move can be explained by
//! re-evaluating the named rules one by one.

use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::expr::{BinOp, Deps, Env, EvalError, Expr, Value, Var};
use crate::geometry::{Dir, DirSet, Geometry};
use crate::piece::{KindId, MAX_KINDS, PIECE_CODES, PLAYERS, Piece, Player};
use crate::steps::{self, CapLayout, Slot, StepGroup};

/// The longest hop chain a move may have.
pub const MAX_HOPS: usize = 21;

/// How many plies back `repetitions` looks for an earlier occurrence of a position.
pub const REPETITION_WINDOW: usize = 64;

/// A player as the spec describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// Name, as in `A` or `RABBIT`.
    pub name: String,
    /// Symbol that starts the codes of the player's pieces, as in `A` for `AL`.
    pub symbol: String,
}

/// Which cells a zone holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZoneCells {
    /// One set of cells, belonging to nobody.
    Shared(CellSet),
    /// One set of cells per player.
    Owned([CellSet; PLAYERS]),
}

/// A named zone of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneSpec {
    /// Name, as used in expressions.
    pub name: String,
    /// The cells.
    pub cells: ZoneCells,
    /// One character drawn on the zone's empty cells when the board is rendered.
    pub mark: Option<char>,
}

/// Whether a move pattern may capture by moving onto an enemy piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CaptureMode {
    /// Onto an empty cell, or onto an enemy piece that may be captured.
    Any,
    /// Only onto an empty cell.
    Quiet,
    /// Only onto an enemy piece that may be captured.
    Capturing,
}

/// The geometric pattern of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// One cell in one of the directions.
    Step,
    /// Straight across a run of one or more cells of a zone, to the first cell beyond it.
    Jump {
        /// The zone crossed.
        zone: usize,
        /// Evaluated for each jumped cell (`cell`, `occupant`, `mover`): true blocks the jump.
        blocked: Option<Expr>,
    },
    /// Over an adjacent enemy piece onto the empty cell beyond it, capturing the piece.
    Hop {
        /// An extra condition on the piece hopped over (`target`), besides the capture rules.
        over: Option<Expr>,
        /// Whether the same piece may hop again in the same move.
        chain: bool,
        /// With `chain`: whether a chain must go on while another hop is possible (the
        /// player still chooses which chain); otherwise it may stop after any hop.
        complete: bool,
    },
}

/// One way a kind of piece moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    /// How the designer wrote it, for messages (`step orthogonal`).
    pub text: String,
    /// The pattern.
    pub pattern: Pattern,
    /// The absolute directions, for each player (relative directions already resolved).
    pub dirs: [DirSet; PLAYERS],
    /// Whether it captures by displacement.
    pub mode: CaptureMode,
    /// An extra condition for this pattern alone, in the scope of enter rules.
    pub condition: Option<Expr>,
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindSpec {
    /// Name, as in `Lion`.
    pub name: String,
    /// Letter that ends the piece's code, as in `L` for `AL`.
    pub letter: String,
    /// Values of the game's attributes, in the order of [`RulesSpec::attributes`].
    pub attrs: Vec<i64>,
    /// Indices of the tags this kind has, into [`RulesSpec::tags`].
    pub tags: Vec<usize>,
    /// How it moves.
    pub moves: Vec<MoveSpec>,
    /// What it turns into on reaching a zone.
    pub promotion: Option<Promotion>,
}

/// A piece changing kind when it ends a move (or a hop of a chain) in a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The kind it becomes.
    pub to: KindId,
    /// The zone; for an owned zone, the part of the piece's owner.
    pub zone: usize,
    /// Whether reaching the zone ends a hop chain there.
    pub ends_chain: bool,
}

/// A named predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRule {
    /// The name a rejected move reports.
    pub name: String,
    /// The predicate.
    pub expr: Expr,
}

/// What an end rule decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndResult {
    /// This player (an expression over `player` and `opponent`) wins.
    Winner(Expr),
    /// Nobody wins.
    Draw,
}

/// A condition that ends the game, checked after every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndSpec {
    /// Name, for messages.
    pub name: String,
    /// The condition, seen from the player who has just moved.
    pub when: Expr,
    /// The result.
    pub result: EndResult,
}

/// Everything a game is, unchecked. A front end (the rules language) fills it in and
/// [`Rules::new`] checks and compiles it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesSpec {
    /// The game's name.
    pub name: String,
    /// The board.
    pub geometry: Geometry,
    /// The two players, the first to move first.
    pub players: [PlayerSpec; PLAYERS],
    /// Zones.
    pub zones: Vec<ZoneSpec>,
    /// Names of integer attributes every kind has.
    pub attributes: Vec<String>,
    /// Names of tags a kind may have.
    pub tags: Vec<String>,
    /// Kinds of pieces.
    pub kinds: Vec<KindSpec>,
    /// Rules every move's destination must satisfy.
    pub enter: Vec<NamedRule>,
    /// Rules every capture must satisfy.
    pub capture: Vec<NamedRule>,
    /// Rules every placement must satisfy (`mover` is the piece, `to` the cell).
    pub place: Vec<NamedRule>,
    /// End rules, in order: the first that holds decides.
    pub end: Vec<EndSpec>,
    /// The standard starting position.
    pub setup: Vec<(Piece, Cell)>,
    /// Whether a player who can capture must (only capturing moves are then legal).
    pub must_capture: bool,
}

/// Where in the spec a problem lies, so that a front end can point at its source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// An enter rule, by index.
    Enter(usize),
    /// A capture rule, by index.
    Capture(usize),
    /// A place rule, by index.
    Place(usize),
    /// An end rule's condition, by index.
    End(usize),
    /// An end rule's winner, by index.
    Winner(usize),
    /// A move pattern of a kind: (kind, index in its moves).
    Move(usize, usize),
    /// A piece of the setup, by index.
    Setup(usize),
    /// A kind, by index.
    Kind(usize),
    /// A zone, by index.
    Zone(usize),
    /// The players.
    Players,
    /// The game as a whole.
    Game,
}

/// A problem found while checking or compiling a [`RulesSpec`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RulesError {
    /// Where.
    pub site: Site,
    /// What, in words.
    pub message: String,
}

/// The static facts of a game: geometry, players, zones and kinds. Expressions are evaluated
/// against it.
#[derive(Clone, Debug)]
pub struct Core {
    name: String,
    geometry: Geometry,
    players: [PlayerSpec; PLAYERS],
    zones: Vec<ZoneTable>,
    zone_specs: Vec<ZoneSpec>,
    kinds: Vec<KindInfo>,
    attributes: Vec<String>,
    tags: Vec<String>,
    codes: Vec<String>,
}

#[derive(Clone, Debug)]
struct ZoneTable {
    parts: [CellSet; PLAYERS],
    all: CellSet,
}

#[derive(Clone, Debug)]
struct KindInfo {
    name: String,
    letter: String,
    attrs: Vec<i64>,
    tags: u64,
}

impl Core {
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// A player's name.
    pub fn player_name(&self, p: Player) -> &str {
        &self.players[p.index()].name
    }

    /// A player's symbol.
    pub fn player_symbol(&self, p: Player) -> &str {
        &self.players[p.index()].symbol
    }

    /// The player with this name.
    pub fn player_by_name(&self, name: &str) -> Option<Player> {
        (0..PLAYERS as u8)
            .map(Player)
            .find(|p| self.players[p.index()].name == name)
    }

    /// The number of kinds.
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// All kinds.
    pub fn kinds(&self) -> impl Iterator<Item = KindId> + '_ {
        (0..self.kinds.len() as u8).map(KindId)
    }

    /// A kind's name.
    pub fn kind_name(&self, k: KindId) -> &str {
        &self.kinds[k.index()].name
    }

    /// A kind's letter.
    pub fn kind_letter(&self, k: KindId) -> &str {
        &self.kinds[k.index()].letter
    }

    /// The kind with this name.
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| KindId(i as u8))
    }

    /// An attribute of a kind.
    #[inline]
    pub fn attr(&self, k: KindId, attr: usize) -> i64 {
        self.kinds[k.index()].attrs.get(attr).copied().unwrap_or(0)
    }

    /// The attribute names.
    pub fn attributes(&self) -> &[String] {
        &self.attributes
    }

    /// The tag names.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// Whether a kind has a tag.
    #[inline]
    pub fn has_tag(&self, k: KindId, tag: usize) -> bool {
        tag < 64 && self.kinds[k.index()].tags & (1 << tag) != 0
    }

    /// Whether a cell is in a zone (the part of `owner`, or any part).
    #[inline]
    pub fn in_zone(&self, cell: Cell, zone: usize, owner: Option<Player>) -> bool {
        match (self.zones.get(zone), owner) {
            (Some(z), Some(p)) => z.parts[p.index()].contains(cell),
            (Some(z), None) => z.all.contains(cell),
            (None, _) => false,
        }
    }

    /// The zones, as declared.
    pub fn zones(&self) -> &[ZoneSpec] {
        &self.zone_specs
    }

    /// A piece's code: owner symbol and kind letter, as in `AL`.
    pub fn code(&self, piece: Piece) -> &str {
        &self.codes[piece.code()]
    }

    /// The piece with this code.
    pub fn piece_by_code(&self, code: &str) -> Option<Piece> {
        self.all_pieces().find(|p| self.code(*p) == code)
    }

    /// Every piece (kind and owner) of the game.
    pub fn all_pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.kinds()
            .flat_map(|k| (0..PLAYERS as u8).map(move |p| Piece::new(k, Player(p))))
    }

    /// The widest piece code.
    pub fn code_width(&self) -> usize {
        self.codes
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1)
    }
}

/// Kinds of precomputed targets.
pub(crate) const STEP: u8 = 0;
pub(crate) const JUMP: u8 = 1;
pub(crate) const HOP: u8 = 2;

/// One precomputed destination of one move pattern from one cell.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Target {
    pub to: u8,
    /// For a hop: the cell hopped over.
    pub over: u8,
    /// Index into [`Rules::moves`].
    pub rule: u8,
    pub kind: u8,
    pub dir: u8,
    /// For a jump: the jumped cells, `jumped[start..start + len]`.
    pub jumped_len: u8,
    pub jumped_start: u16,
    /// [`QUIET`], [`CAPTURE`], [`SLOW`], [`BLOCKABLE`].
    pub flags: u8,
    /// Bit index into [`Rules::cap_bits`] for "no piece" (add `target code * cap_stride`).
    pub cap_base: u32,
    pub cap_stride: u32,
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

/// A jumped cell with its precomputed index into [`Rules::block_bits`] (add the occupant's
/// code).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Jumped {
    pub cell: u8,
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
    bits: Vec<u64>,
    strides: [usize; 5],
}

impl BitTable {
    #[inline]
    fn index(&self, keys: [usize; 5]) -> usize {
        keys[0] * self.strides[0]
            + keys[1] * self.strides[1]
            + keys[2] * self.strides[2]
            + keys[3] * self.strides[3]
            + keys[4] * self.strides[4]
    }

    fn set(&mut self, keys: [usize; 5]) {
        let i = self.index(keys);
        self.bits[i >> 6] |= 1 << (i & 63);
    }
}

/// A predicate compiled to a table where possible, with the rest kept for evaluation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Check {
    /// None when the static part is not tabulated (too large): then `dynamic` holds it all.
    pub table: Option<BitTable>,
    pub dynamic: Vec<Expr>,
}

/// A compiled move pattern.
#[derive(Clone, Debug)]
pub(crate) struct CompiledMove {
    pub kind: KindId,
    pub index: usize,
    pub mode: CaptureMode,
    pub chain: bool,
    pub complete: bool,
    pub capture: Check,
    pub blocked: Check,
    /// Enter rules that read the position, checked during generation.
    pub dynamic_enter: Vec<Expr>,
}

/// How a compiled end rule is tested.
#[derive(Clone, Debug)]
pub(crate) enum EndCheck {
    /// The moved piece arrived on one of these cells (per piece code).
    Arrive(Vec<CellSet>),
    /// A piece count compared with a constant: (whose count, relative or fixed), kind, op, n.
    Count(Who, Option<KindId>, BinOp, i64),
    /// Resolved when the next player's move list is empty.
    Deferred,
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

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// An end rule tested after every move, laid out flat for the loop in `make`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Eager {
    pub index: u8,
    pub test: EagerTest,
    pub result: [Outcome; PLAYERS],
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
    /// Interpreted.
    Dynamic,
}

#[derive(Clone, Debug)]
pub(crate) struct CompiledEnd {
    pub check: EndCheck,
    /// The result, by the player who has just moved.
    pub result: [Outcome; PLAYERS],
}

/// Checked and compiled rules, ready to play. Build with [`Rules::new`].
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) core: Core,
    pub(crate) spec: RulesSpec,
    /// The targets that are not in step groups, by slot.
    pub(crate) targets: Vec<Target>,
    /// Where the moves of a piece code from a cell are, by piece code, then cell.
    pub(crate) slots: Vec<[Slot; MAX_CELLS]>,
    /// Plain targets as bitboards (boards of at most 64 cells), by slot.
    pub(crate) groups: Vec<StepGroup>,
    /// The capture-table class of each cell.
    pub(crate) cell_class: Box<[u8; MAX_CELLS]>,
    pub(crate) jumped: Vec<Jumped>,
    /// All capture tables, one after the other; bit 0 is always set ("allowed").
    pub(crate) cap_bits: Vec<u64>,
    /// All jump-blocking tables, one after the other.
    pub(crate) block_bits: Vec<u64>,
    pub(crate) moves: Vec<CompiledMove>,
    pub(crate) end: Vec<CompiledEnd>,
    /// Index of the first deferred end rule, if any.
    pub(crate) deferred: Option<usize>,
    /// By `piece code * stride + destination`: the first end rule decided by the arrival of
    /// that piece there, or `NONE`.
    pub(crate) arrive_first: Box<CodeTable<u8>>,
    /// The end rules not decided by arrival (counts, interpreted ones), in order, before the
    /// deferred ones.
    pub(crate) eager: Vec<Eager>,
    /// By piece code, then cell.
    pub(crate) zobrist: Box<CodeTable<u64>>,
    pub(crate) zobrist_side: u64,
    /// The number of cells of the board's rectangle: the stride of per-cell tables.
    pub(crate) stride: usize,
    /// By `piece code * stride + cell`: the code the piece becomes on ending a move there
    /// (itself when it does not promote). Empty when no kind promotes.
    pub(crate) promote: Vec<u8>,
    /// By `piece code * stride + cell`: a promotion there ends a hop chain.
    pub(crate) promote_stops: Vec<bool>,
    pub(crate) must_capture: bool,
    /// Every eager end rule is a piece count: positions keep the first that holds for each
    /// mover up to date, and arrival and counts decide an end with two loads.
    pub(crate) counts_only: bool,
    /// The board has at most 64 cells: its sets of cells fit in one word.
    pub(crate) narrow: bool,
    pub(crate) uses_clock: bool,
    pub(crate) uses_idle: bool,
    /// Some rule reads `repetitions`: positions are remembered as they are played.
    pub(crate) uses_repetitions: bool,
    /// Some rule reads `idle` or `repetitions`: make and unmake keep them.
    pub(crate) history: bool,
    /// No reason in [`Rules::general_make_reasons`]: make and unmake are compiled without
    /// tests for those features (`position::Lean`).
    pub(crate) lean: bool,
}

/// A table by piece byte, then cell: indexed by a `u8` code and a `u8` cell, it needs no
/// bounds check. Rows past the rules' piece codes stay at their fill value.
pub(crate) type CodeTable<T> = [[T; MAX_CELLS]; 256];

fn code_table<T: Copy>(fill: T) -> Box<CodeTable<T>> {
    vec![[fill; MAX_CELLS]; 256]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has 256 rows"))
}

/// "No rule" in the byte tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The largest table, in bits, the compiler builds for one predicate before it falls back to
/// evaluating the predicate during play.
const TABLE_LIMIT: usize = 1 << 24;

impl Rules {
    /// Checks and compiles a spec. Returns every problem found, not only the first.
    pub fn new(spec: RulesSpec) -> Result<Rules, Vec<RulesError>> {
        let mut errors = Vec::new();
        let core = build_core(&spec, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut compiler = Compiler {
            core: &core,
            spec: &spec,
            errors: Vec::new(),
        };
        let class = compiler.classes();
        let nclass = class.iter().copied().max().map_or(1, |m| m as usize + 1);
        let (moves, mut targets, target_index, jumped_cells) = compiler.moves(&class, nclass);
        let (cap_bits, block_bits, jumped, cap_at) = flatten(
            &moves,
            &mut targets,
            &target_index,
            &jumped_cells,
            &class,
            spec.geometry.len(),
        );
        let (end, deferred) = compiler.ends();
        let stride = spec.geometry.len();
        let (targets, slots, groups) =
            steps::group(targets, &target_index, &cap_at, &class, stride);
        let mut cell_class = Box::new([0u8; MAX_CELLS]);
        for (c, k) in cell_class.iter_mut().zip(&class) {
            *c = *k;
        }
        let codes = 1 + PLAYERS * spec.kinds.len();
        let mut arrive_first = code_table(NONE);
        let mut eager = Vec::new();
        for (i, e) in end.iter().enumerate().take(u8::MAX as usize - 1) {
            match &e.check {
                EndCheck::Arrive(sets) => {
                    for (code, set) in sets.iter().enumerate().take(codes) {
                        for cell in set.iter() {
                            let slot = &mut arrive_first[code][cell.index()];
                            if *slot == NONE {
                                *slot = i as u8;
                            }
                        }
                    }
                }
                EndCheck::Deferred => break,
                EndCheck::Count(who, kind, op, n) => {
                    let at = [0u8, 1].map(|p| {
                        let player = who.resolve(Player(p));
                        (match kind {
                            Some(k) => Piece::new(*k, player).code(),
                            None => PIECE_CODES + player.index(),
                        }) as u16
                    });
                    let test = match count_range(*op, *n) {
                        Some((lo, hi)) => EagerTest::Count { at, lo, hi },
                        None => EagerTest::Dynamic,
                    };
                    eager.push(Eager {
                        index: i as u8,
                        test,
                        result: e.result,
                    })
                }
                EndCheck::Dynamic(expr) => eager.push(Eager {
                    index: i as u8,
                    test: match expr {
                        Expr::Bin(op, a, b)
                            if **a == Expr::Var(Var::Clock)
                                && matches!(
                                    op,
                                    BinOp::Eq
                                        | BinOp::Ne
                                        | BinOp::Lt
                                        | BinOp::Le
                                        | BinOp::Gt
                                        | BinOp::Ge
                                ) =>
                        {
                            match b.as_ref() {
                                Expr::Lit(Value::Int(n)) => EagerTest::Clock(*op, *n),
                                _ => EagerTest::Dynamic,
                            }
                        }
                        _ => EagerTest::Dynamic,
                    },
                    result: e.result,
                }),
            }
        }
        compiler.check_setup();
        let errors = compiler.errors;
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let (promote, promote_stops) = promotion_tables(&core, &spec, codes, stride);
        let mut zobrist = code_table(0);
        for row in zobrist.iter_mut().take(codes) {
            for key in &mut row[..stride] {
                *key = splitmix(&mut seed);
            }
        }
        let zobrist_side = splitmix(&mut seed);
        let counts_only = eager
            .iter()
            .all(|e| matches!(e.test, EagerTest::Count { .. }));
        let uses_clock = spec_reads(&spec, Var::Clock);
        let uses_idle = spec_reads(&spec, Var::Idle);
        let uses_repetitions = spec_reads(&spec, Var::Repetitions);
        let narrow = stride <= steps::MASK_CELLS;
        let history = uses_idle || uses_repetitions;
        let mut rules = Rules {
            core,
            targets,
            slots,
            groups,
            cell_class,
            jumped,
            cap_bits,
            block_bits,
            moves,
            end,
            deferred,
            arrive_first,
            eager,
            zobrist,
            zobrist_side,
            stride,
            promote,
            promote_stops,
            must_capture: spec.must_capture,
            counts_only,
            narrow,
            uses_clock,
            uses_idle,
            uses_repetitions,
            history,
            lean: false,
            spec,
        };
        rules.lean = rules.general_make_reasons().is_empty();
        Ok(rules)
    }

    /// The static facts: board, players, zones, kinds.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The spec these rules were compiled from.
    pub fn spec(&self) -> &RulesSpec {
        &self.spec
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.core.geometry
    }

    #[inline]
    pub(crate) fn slot(&self, piece: u8, from: u8) -> &Slot {
        &self.slots[piece as usize][from as usize]
    }

    /// The listed targets of a slot (those not in its step groups).
    #[inline]
    pub(crate) fn listed(&self, slot: &Slot) -> &[Target] {
        &self.targets[slot.start as usize..slot.start as usize + slot.len as usize]
    }

    /// The step groups of a slot after the first (which is [`Slot::first`]).
    #[inline]
    pub(crate) fn more_groups(&self, slot: &Slot) -> &[StepGroup] {
        let start = slot.group_start as usize + 1;
        self.groups
            .get(start..slot.group_start as usize + slot.groups as usize)
            .unwrap_or(&[])
    }

    #[inline]
    pub(crate) fn targets(&self, piece: u8, from: u8) -> &[Target] {
        self.listed(self.slot(piece, from))
    }

    /// How the designer wrote move pattern `pattern` (as numbered by [`crate::Move::pattern`]).
    pub fn pattern_text(&self, pattern: usize) -> &str {
        self.moves.get(pattern).map_or("", |m| {
            self.spec.kinds[m.kind.index()].moves[m.index].text.as_str()
        })
    }

    /// Whether a piece of this kind has, from some cell and for some owner, a destination its
    /// move patterns reach and the enter rules allow.
    pub fn kind_can_move(&self, kind: KindId) -> bool {
        (0..PLAYERS as u8).any(|p| {
            let code = Piece::new(kind, Player(p)).code();
            (0..self.stride).any(|c| {
                let slot = self.slots[code][c];
                slot.len > 0 || slot.groups > 0
            })
        })
    }

    /// The number of move patterns of all kinds, each with its own tables.
    pub fn pattern_count(&self) -> usize {
        self.moves.len()
    }

    /// How many end rules are evaluated by interpreting their expression after each move
    /// (rather than by table lookups), for diagnostics and benchmarks.
    pub fn interpreted_end_rules(&self) -> usize {
        self.eager
            .iter()
            .filter(|e| matches!(e.test, EagerTest::Dynamic))
            .count()
    }

    /// Why make and unmake take their general path rather than the lean one (compiled
    /// without tests for promotion, position history and end rules that read more than piece
    /// counts and arrivals, on boards of at most 64 cells); empty when they take the lean one.
    /// Perft and playouts are fastest on the lean path.
    pub fn general_make_reasons(&self) -> Vec<&'static str> {
        let mut why = Vec::new();
        if !self.narrow {
            why.push("a board of more than 64 cells");
        }
        if !self.promote.is_empty() {
            why.push("promotion");
        }
        if self.history {
            why.push("rules that read the idle clock or repetitions");
        }
        if !self.counts_only {
            why.push("end rules, tested after each move, other than piece counts and arrivals");
        }
        why
    }

    /// How many predicates of move patterns are interpreted during play.
    pub fn interpreted_move_checks(&self) -> usize {
        self.moves
            .iter()
            .map(|m| m.capture.dynamic.len() + m.blocked.dynamic.len() + m.dynamic_enter.len())
            .sum()
    }
}

fn promotion_tables(
    core: &Core,
    spec: &RulesSpec,
    codes: usize,
    stride: usize,
) -> (Vec<u8>, Vec<bool>) {
    if spec.kinds.iter().all(|k| k.promotion.is_none()) {
        return (Vec::new(), Vec::new());
    }
    let mut to = vec![0u8; codes * stride];
    let mut stops = vec![false; codes * stride];
    for (code, slot) in to.iter_mut().enumerate() {
        *slot = (code / stride) as u8;
    }
    for (k, kind) in spec.kinds.iter().enumerate() {
        let Some(p) = &kind.promotion else { continue };
        if p.to.index() >= spec.kinds.len() {
            continue;
        }
        for owner in 0..PLAYERS as u8 {
            let piece = Piece::new(KindId(k as u8), Player(owner));
            let promoted = Piece::new(p.to, Player(owner));
            for cell in core.geometry.cells().iter() {
                if core.in_zone(cell, p.zone, Some(Player(owner))) {
                    to[piece.code() * stride + cell.index()] = promoted.0;
                    stops[piece.code() * stride + cell.index()] = p.ends_chain;
                }
            }
        }
    }
    (to, stops)
}

/// `count <op> n` as a range of counts, where it is one (`!=` is not).
fn count_range(op: BinOp, n: i64) -> Option<(i64, i64)> {
    Some(match op {
        BinOp::Eq => (n, n),
        BinOp::Lt => (i64::MIN, n.checked_sub(1)?),
        BinOp::Le => (i64::MIN, n),
        BinOp::Gt => (n.checked_add(1)?, i64::MAX),
        BinOp::Ge => (n, i64::MAX),
        _ => return None,
    })
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn spec_reads(spec: &RulesSpec, var: Var) -> bool {
    let reads = |e: &Expr| {
        let mut found = false;
        visit(e, &mut |x| found |= *x == Expr::Var(var));
        found
    };
    spec.end.iter().any(|e| reads(&e.when))
        || spec
            .enter
            .iter()
            .chain(&spec.capture)
            .any(|r| reads(&r.expr))
}

/// Calls `f` on every node of `e`.
pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    use Expr::*;
    match e {
        Lit(_) | Var(_) => {}
        Attr(a, _)
        | Owner(a)
        | CellOf(a)
        | KindOf(a)
        | Row(a)
        | Col(a)
        | Is(a, _)
        | Has(a, _)
        | OpponentOf(a)
        | Count(a, _)
        | NoMoves(a)
        | Placed(a)
        | At(a)
        | Occupied(a)
        | Not(a)
        | Neg(a) => visit(a, f),
        In(a, _, b) => {
            visit(a, f);
            if let Some(b) = b {
                visit(b, f);
            }
        }
        Bin(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        If(a, b, c) => {
            visit(a, f);
            visit(b, f);
            visit(c, f);
        }
    }
}

fn build_core(spec: &RulesSpec, errors: &mut Vec<RulesError>) -> Core {
    let mut err = |site, message: String| errors.push(RulesError { site, message });
    if spec.kinds.is_empty() {
        err(Site::Game, "the game defines no kind of piece".into());
    }
    if spec.kinds.len() > MAX_KINDS {
        err(
            Site::Game,
            format!(
                "the game defines {} kinds of piece; at most {MAX_KINDS} are supported",
                spec.kinds.len()
            ),
        );
    }
    if spec.tags.len() > 64 {
        err(Site::Game, "at most 64 tags are supported".into());
    }
    if spec.players[0].name == spec.players[1].name {
        err(Site::Players, "the two players have the same name".into());
    }
    let zones = spec
        .zones
        .iter()
        .map(|z| {
            let parts = match &z.cells {
                ZoneCells::Shared(s) => [*s, *s],
                ZoneCells::Owned(p) => *p,
            };
            ZoneTable {
                all: parts[0].union(&parts[1]),
                parts,
            }
        })
        .collect();
    let kinds: Vec<KindInfo> = spec
        .kinds
        .iter()
        .map(|k| KindInfo {
            name: k.name.clone(),
            letter: k.letter.clone(),
            attrs: k.attrs.clone(),
            tags: k
                .tags
                .iter()
                .filter(|&&t| t < 64)
                .fold(0, |m, t| m | 1 << t),
        })
        .collect();
    let mut codes = vec![String::new(); PIECE_CODES];
    for (ki, k) in kinds.iter().enumerate().take(MAX_KINDS) {
        for p in 0..PLAYERS {
            let piece = Piece::new(KindId(ki as u8), Player(p as u8));
            codes[piece.code()] = format!("{}{}", spec.players[p].symbol, k.letter);
        }
    }
    // Codes must be unique and readable back from a position string without separators.
    let all: Vec<(usize, &String)> = codes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|c| !c.1.is_empty())
        .collect();
    let mut reported = Vec::new();
    for (i, a) in &all {
        let kind = Piece(*i as u8).kind().index();
        if a.starts_with(|c: char| c.is_ascii_digit())
            || a.contains(|c: char| c == '/' || c.is_whitespace())
        {
            err(
                Site::Kind(kind),
                format!("piece code `{a}` may not start with a digit or contain `/` or spaces"),
            );
        }
        for (j, b) in &all {
            let other = Piece(*j as u8).kind().index();
            if i == j
                || !b.starts_with(a.as_str())
                || (a == b && j < i)
                || reported.contains(&(kind, other))
            {
                continue;
            }
            reported.push((kind, other));
            let (ka, kb) = (&spec.kinds[kind].name, &spec.kinds[other].name);
            let message = if a == b && kind != other {
                format!("`{ka}` and `{kb}` both have the code `{a}`: give them different letters")
            } else if a == b {
                format!(
                    "the two players' `{ka}` both have the code `{a}`: give the players different symbols"
                )
            } else {
                format!(
                    "code `{b}` ({kb}) starts with code `{a}` ({ka}), so position strings would be ambiguous"
                )
            };
            err(Site::Kind(other.max(kind)), message);
        }
    }
    Core {
        name: spec.name.clone(),
        geometry: spec.geometry.clone(),
        players: spec.players.clone(),
        zones,
        zone_specs: spec.zones.clone(),
        kinds,
        attributes: spec.attributes.clone(),
        tags: spec.tags.clone(),
        codes,
    }
}

/// Bindings for evaluating at load time.
#[derive(Default)]
struct StaticEnv {
    mover: Option<Value>,
    target: Option<Value>,
    from: Option<Cell>,
    to: Option<Cell>,
    player: Option<Player>,
    cell: Option<Cell>,
    occupant: Option<Value>,
}

impl Env for StaticEnv {
    fn var(&self, var: Var) -> Option<Value> {
        match var {
            Var::Mover => self.mover,
            Var::Target => self.target,
            Var::From => self.from.map(Value::Cell),
            Var::To => self.to.map(Value::Cell),
            Var::Player => self.player.map(Value::Player),
            Var::Opponent => self.player.map(|p| Value::Player(p.other())),
            Var::Cell => self.cell.map(Value::Cell),
            Var::Occupant => self.occupant,
            Var::Clock | Var::Idle | Var::Repetitions => None,
        }
    }
}

struct Compiler<'a> {
    core: &'a Core,
    spec: &'a RulesSpec,
    errors: Vec<RulesError>,
}

type MoveTables = (Vec<CompiledMove>, Vec<Target>, Vec<(u32, u16)>, Vec<u8>);

/// Lays every capture and blocking table end to end, and gives each target the bit index of
/// its own row of them, so that move generation answers "may this capture?" with one load.
fn flatten(
    moves: &[CompiledMove],
    targets: &mut [Target],
    index: &[(u32, u16)],
    jumped_cells: &[u8],
    class: &[u8],
    stride: usize,
) -> (Vec<u64>, Vec<u64>, Vec<Jumped>, Vec<CapLayout>) {
    let mut cap_bits = vec![1u64];
    let mut cap_at = Vec::new();
    let mut block_bits = Vec::new();
    let mut block_at = Vec::new();
    for m in moves {
        cap_at.push(m.capture.table.as_ref().map(|t| {
            let at = cap_bits.len() * 64;
            cap_bits.extend(&t.bits);
            (at, t.strides)
        }));
        block_at.push(m.blocked.table.as_ref().map(|t| {
            let at = block_bits.len() * 64;
            block_bits.extend(&t.bits);
            (at, t.strides)
        }));
    }
    let mut jumped = vec![
        Jumped {
            cell: 0,
            block_base: 0
        };
        jumped_cells.len()
    ];
    for (slot, &(start, len)) in index.iter().enumerate() {
        let piece = slot / stride;
        let from = slot % stride;
        for t in &mut targets[start as usize..start as usize + len as usize] {
            let m = &moves[t.rule as usize];
            let hop = t.kind == HOP;
            let tcell = if hop { t.over } else { t.to } as usize;
            let mut flags = 0;
            if m.mode != CaptureMode::Capturing && !hop {
                flags |= QUIET;
            }
            if m.mode != CaptureMode::Quiet || hop {
                flags |= CAPTURE;
            }
            if !m.dynamic_enter.is_empty()
                || !m.capture.dynamic.is_empty()
                || !m.blocked.dynamic.is_empty()
            {
                flags |= SLOW;
            }
            if m.chain {
                flags |= CHAIN;
            }
            if hop {
                flags |= HOPS;
            }
            if m.complete {
                // Whether a prefix may be played depends on what follows: the general path.
                flags |= SLOW;
            }
            match cap_at[t.rule as usize] {
                Some((at, s)) => {
                    t.cap_base =
                        (at + piece * s[0]
                            + class[from] as usize * s[1]
                            + class[tcell] as usize * s[3]
                            + class[t.to as usize] as usize * s[4]) as u32;
                    t.cap_stride = s[2] as u32;
                }
                None => {
                    // No table: either nothing restricts captures, or it is all interpreted.
                    t.cap_base = 0;
                    t.cap_stride = 0;
                }
            }
            if let Some((at, s)) = block_at[t.rule as usize] {
                flags |= BLOCKABLE;
                let js = t.jumped_start as usize;
                for j in js..js + t.jumped_len as usize {
                    let c = jumped_cells[j] as usize;
                    jumped[j] = Jumped {
                        cell: c as u8,
                        block_base: (at + piece * s[0] + class[c] as usize * s[1]) as u32,
                    };
                }
            } else {
                let js = t.jumped_start as usize;
                for j in js..js + t.jumped_len as usize {
                    jumped[j].cell = jumped_cells[j];
                }
            }
            t.flags = flags;
        }
    }
    (cap_bits, block_bits, jumped, cap_at)
}

impl Compiler<'_> {
    fn error(&mut self, site: Site, message: impl Into<String>) {
        self.errors.push(RulesError {
            site,
            message: message.into(),
        });
    }

    fn eval_error(&mut self, site: Site, e: EvalError, case: impl FnOnce() -> String) {
        self.error(site, format!("{e}, when {}", case()));
    }

    /// Every static expression of the game, to find which features of a cell matter.
    fn all_static_exprs(&self) -> Vec<&Expr> {
        let mut out: Vec<&Expr> = Vec::new();
        out.extend(self.spec.enter.iter().map(|r| &r.expr));
        out.extend(self.spec.capture.iter().map(|r| &r.expr));
        for k in &self.spec.kinds {
            for m in &k.moves {
                out.extend(m.condition.iter());
                match &m.pattern {
                    Pattern::Jump { blocked, .. } => out.extend(blocked.iter()),
                    Pattern::Hop { over, .. } => out.extend(over.iter()),
                    Pattern::Step => {}
                }
            }
        }
        out
    }

    /// Partitions cells into classes that no static capture or blocking expression can tell
    /// apart: same zone memberships, and same row or column where an expression reads them.
    fn classes(&self) -> Vec<u8> {
        let deps = self
            .all_static_exprs()
            .iter()
            .fold(Deps::default(), |d, e| d.or(e.deps()));
        let g = &self.core.geometry;
        let mut signatures: Vec<Vec<u32>> = Vec::new();
        let mut class = vec![0u8; MAX_CELLS];
        for (i, slot) in class.iter_mut().enumerate().take(g.len()) {
            let cell = Cell(i as u8);
            let mut sig = Vec::new();
            if deps.any(Deps::CELL_IDENTITY) {
                sig.push(i as u32);
            }
            if deps.any(Deps::ROW) {
                sig.push(1000 + g.row(cell) as u32);
            }
            if deps.any(Deps::COL) {
                sig.push(2000 + g.col(cell) as u32);
            }
            for (zi, z) in self.core.zones.iter().enumerate() {
                for p in 0..PLAYERS {
                    if z.parts[p].contains(cell) {
                        sig.push(10_000 + (zi * PLAYERS + p) as u32);
                    }
                }
            }
            let id = match signatures.iter().position(|s| *s == sig) {
                Some(id) => id,
                None => {
                    signatures.push(sig);
                    signatures.len() - 1
                }
            };
            *slot = id as u8;
        }
        class
    }

    fn moves(&mut self, class: &[u8], nclass: usize) -> MoveTables {
        let g = self.core.geometry.clone();
        let mut moves = Vec::new();
        // Candidate targets, per (piece code, cell), before sorting into the flat list.
        let stride = g.len();
        let codes = 1 + PLAYERS * self.spec.kinds.len();
        let mut per: Vec<Vec<Target>> = vec![Vec::new(); codes * stride];
        let mut jumped: Vec<u8> = Vec::new();
        let (static_enter, dynamic_enter): (Vec<&NamedRule>, Vec<&NamedRule>) = self
            .spec
            .enter
            .iter()
            .partition(|r| !r.expr.deps().is_dynamic());
        let enter_index = |r: &NamedRule| {
            self.spec
                .enter
                .iter()
                .position(|x| std::ptr::eq(x, r))
                .unwrap_or(0)
        };
        let static_enter: Vec<(usize, &NamedRule)> = static_enter
            .into_iter()
            .map(|r| (enter_index(r), r))
            .collect();
        let dynamic_enter: Vec<Expr> = dynamic_enter.into_iter().map(|r| r.expr.clone()).collect();

        for (ki, kind) in self.spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                let rule = moves.len();
                if rule > u8::MAX as usize {
                    self.error(Site::Move(ki, mi), "too many move patterns (at most 256)");
                    continue;
                }
                let site = Site::Move(ki, mi);
                let kid = KindId(ki as u8);
                let (cond_static, cond_dynamic) = match &m.condition {
                    Some(c) if c.deps().is_dynamic() => (None, Some(c.clone())),
                    Some(c) => (Some(c), None),
                    None => (None, None),
                };
                let mut dyn_enter = dynamic_enter.clone();
                dyn_enter.extend(cond_dynamic);

                for p in 0..PLAYERS {
                    let player = Player(p as u8);
                    let piece = Piece::new(kid, player);
                    for from in g.cells().iter() {
                        for dir in m.dirs[p].iter() {
                            let Some((to, over, jumped_cells)) =
                                geometry_of(&g, self.core, &m.pattern, from, dir)
                            else {
                                continue;
                            };
                            // Static enter rules and the pattern's own condition.
                            let env = StaticEnv {
                                mover: Some(Value::Piece(piece, from)),
                                from: Some(from),
                                to: Some(to),
                                player: Some(player),
                                ..StaticEnv::default()
                            };
                            let mut ok = true;
                            for (ri, r) in &static_enter {
                                match r.expr.test(self.core, &env) {
                                    Ok(true) => {}
                                    Ok(false) => {
                                        ok = false;
                                        break;
                                    }
                                    Err(e) => {
                                        let core = self.core;
                                        self.eval_error(Site::Enter(*ri), e, || {
                                            case_text(core, piece, from, to)
                                        });
                                        ok = false;
                                        break;
                                    }
                                }
                            }
                            if ok && let Some(c) = cond_static {
                                match c.test(self.core, &env) {
                                    Ok(b) => ok = b,
                                    Err(e) => {
                                        let core = self.core;
                                        self.eval_error(site, e, || {
                                            case_text(core, piece, from, to)
                                        });
                                        ok = false;
                                    }
                                }
                            }
                            if !ok {
                                continue;
                            }
                            let start = jumped.len();
                            jumped.extend(jumped_cells.iter().map(|c| c.0));
                            per[piece.code() * stride + from.index()].push(Target {
                                to: to.0,
                                over: over.map_or(0, |c| c.0),
                                rule: rule as u8,
                                kind: match m.pattern {
                                    Pattern::Step => STEP,
                                    Pattern::Jump { .. } => JUMP,
                                    Pattern::Hop { .. } => HOP,
                                },
                                dir: dir as u8,
                                jumped_len: jumped_cells.len() as u8,
                                jumped_start: start as u16,
                                flags: 0,
                                cap_base: 0,
                                cap_stride: 0,
                            });
                        }
                    }
                }

                // Capture table: the game's capture rules and the hop's own filter.
                let mut capture_exprs: Vec<(Site, &Expr)> = self
                    .spec
                    .capture
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (Site::Capture(i), &r.expr))
                    .collect();
                let mut chain = false;
                let mut complete = false;
                let mut blocked_expr = None;
                match &m.pattern {
                    Pattern::Hop {
                        over,
                        chain: c,
                        complete: full,
                    } => {
                        chain = *c;
                        complete = *c && *full;
                        capture_exprs.extend(over.iter().map(|e| (site, e)));
                    }
                    Pattern::Jump { blocked, .. } => blocked_expr = blocked.as_ref(),
                    Pattern::Step => {}
                }
                let capture =
                    if m.mode == CaptureMode::Quiet && !matches!(m.pattern, Pattern::Hop { .. }) {
                        Check::default()
                    } else {
                        self.capture_check(kid, &capture_exprs, class, nclass)
                    };
                let jump_zone = match &m.pattern {
                    Pattern::Jump { zone, .. } => *zone,
                    _ => 0,
                };
                let blocked = match blocked_expr {
                    Some(e) => self.block_check(kid, site, e, jump_zone, class, nclass),
                    None => Check::default(),
                };
                moves.push(CompiledMove {
                    kind: kid,
                    index: mi,
                    mode: m.mode,
                    chain,
                    complete,
                    capture,
                    blocked,
                    dynamic_enter: dyn_enter,
                });
            }
        }
        if jumped.len() > u16::MAX as usize {
            self.error(Site::Game, "the jump tables are too large");
        }
        let mut targets = Vec::new();
        let mut index = vec![(0u32, 0u16); codes * stride];
        for (i, list) in per.into_iter().enumerate() {
            index[i] = (targets.len() as u32, list.len() as u16);
            targets.extend(list);
        }
        (moves, targets, index, jumped)
    }

    /// Tabulates the static capture expressions over (attacker, its cell's class, defender,
    /// defender cell class, destination class).
    fn capture_check(
        &mut self,
        kind: KindId,
        exprs: &[(Site, &Expr)],
        class: &[u8],
        nclass: usize,
    ) -> Check {
        let (stat, dynamic): (Vec<_>, Vec<_>) =
            exprs.iter().partition(|(_, e)| !e.deps().is_dynamic());
        let mut check = Check {
            table: None,
            dynamic: dynamic.iter().map(|(_, e)| (*e).clone()).collect(),
        };
        let deps = stat
            .iter()
            .fold(Deps::default(), |d, (_, e)| d.or(e.deps()));
        // Dimensions: attacker code, from class, defender code, defender cell class, to class.
        let use_from = deps.any(Deps::FROM);
        let use_tcell = deps.any(Deps::TARGET_CELL);
        let use_to = deps.any(Deps::TO);
        let sizes = [
            PIECE_CODES,
            if use_from { nclass } else { 1 },
            PIECE_CODES,
            if use_tcell { nclass } else { 1 },
            if use_to { nclass } else { 1 },
        ];
        let total: usize = sizes.iter().product();
        if total > TABLE_LIMIT {
            check.dynamic.extend(stat.iter().map(|(_, e)| (*e).clone()));
            return check;
        }
        let mut table = table_for(sizes);
        let reps = representatives(class, nclass, self.core.geometry.cells());
        for p in 0..PLAYERS {
            let attacker = Piece::new(kind, Player(p as u8));
            for dk in self.core.kinds().collect::<Vec<_>>() {
                let defender = Piece::new(dk, Player(p as u8).other());
                for cf in 0..sizes[1] {
                    for ct in 0..sizes[3] {
                        for cto in 0..sizes[4] {
                            let (Some(from), Some(tcell), Some(to)) = (
                                reps[if use_from { cf } else { 0 }],
                                reps[if use_tcell { ct } else { 0 }],
                                reps[if use_to { cto } else { 0 }],
                            ) else {
                                continue;
                            };
                            let env = StaticEnv {
                                mover: Some(Value::Piece(attacker, from)),
                                target: Some(Value::Piece(defender, tcell)),
                                from: Some(from),
                                to: Some(to),
                                player: Some(attacker.owner()),
                                ..StaticEnv::default()
                            };
                            let mut ok = true;
                            for (site, e) in &stat {
                                match e.test(self.core, &env) {
                                    Ok(true) => {}
                                    Ok(false) => {
                                        ok = false;
                                        break;
                                    }
                                    Err(err) => {
                                        let core = self.core;
                                        self.eval_error(*site, err, || {
                                            format!(
                                                "{} captures {}",
                                                case_text(core, attacker, from, to),
                                                core.code(defender)
                                            )
                                        });
                                        return check;
                                    }
                                }
                            }
                            if ok {
                                table.set([attacker.code(), cf, defender.code(), ct, cto]);
                            }
                        }
                    }
                }
            }
        }
        check.table = Some(table);
        check
    }

    /// Tabulates a jump's blocking predicate over (mover, jumped cell class, occupant).
    #[allow(clippy::too_many_arguments)]
    fn block_check(
        &mut self,
        kind: KindId,
        site: Site,
        e: &Expr,
        zone: usize,
        class: &[u8],
        nclass: usize,
    ) -> Check {
        if e.deps().is_dynamic() {
            return Check {
                table: None,
                dynamic: vec![e.clone()],
            };
        }
        let sizes = [PIECE_CODES, nclass, PIECE_CODES, 1, 1];
        let mut table = table_for(sizes);
        // Only cells of the crossed zone are ever jumped.
        let crossed = self.core.zones.get(zone).map_or(CellSet::EMPTY, |z| z.all);
        let reps = representatives(class, nclass, &crossed);
        for p in 0..PLAYERS {
            let mover = Piece::new(kind, Player(p as u8));
            for (cl, rep) in reps.iter().enumerate() {
                let Some(cell) = *rep else { continue };
                for occ in 0..(1 + 2 * self.core.kind_count()) {
                    let occupant = match Piece::from_code(occ as u8) {
                        Some(o) => Value::Piece(o, cell),
                        None => Value::NoPiece,
                    };
                    let env = StaticEnv {
                        mover: Some(Value::Piece(mover, cell)),
                        player: Some(mover.owner()),
                        cell: Some(cell),
                        occupant: Some(occupant),
                        ..StaticEnv::default()
                    };
                    match e.test(self.core, &env) {
                        Ok(true) => table.set([mover.code(), cl, occ, 0, 0]),
                        Ok(false) => {}
                        Err(err) => {
                            let core = self.core;
                            self.eval_error(site, err, || {
                                format!(
                                    "{} jumps over {} holding {}",
                                    core.code(mover),
                                    core.geometry.name(cell),
                                    Piece::from_code(occ as u8)
                                        .map_or("nothing".to_string(), |o| core
                                            .code(o)
                                            .to_string())
                                )
                            });
                            return Check::default();
                        }
                    }
                }
            }
        }
        Check {
            table: Some(table),
            dynamic: Vec::new(),
        }
    }

    fn ends(&mut self) -> (Vec<CompiledEnd>, Option<usize>) {
        let mut out = Vec::new();
        let n = self.spec.end.len();
        // A `no_moves(opponent)` rule may be deferred if every rule after it may be too.
        let deferrable =
            |e: &EndSpec| matches!(&e.when, Expr::NoMoves(p) if **p == Expr::Var(Var::Opponent));
        let mut first_deferred = n;
        while first_deferred > 0 && deferrable(&self.spec.end[first_deferred - 1]) {
            first_deferred -= 1;
        }
        for (i, e) in self.spec.end.iter().enumerate() {
            let mut result = [Outcome::Draw; PLAYERS];
            if let EndResult::Winner(w) = &e.result {
                for (p, slot) in result.iter_mut().enumerate() {
                    let env = StaticEnv {
                        player: Some(Player(p as u8)),
                        ..StaticEnv::default()
                    };
                    match w.eval(self.core, &env) {
                        Ok(Value::Player(q)) => *slot = Outcome::Win(q),
                        Ok(other) => {
                            self.error(
                                Site::Winner(i),
                                format!("the winner must be a player, not {other:?}"),
                            );
                        }
                        Err(err) => self.error(Site::Winner(i), err.to_string()),
                    }
                }
            }
            let check = if i >= first_deferred {
                EndCheck::Deferred
            } else {
                self.end_check(i, &e.when)
            };
            out.push(CompiledEnd { check, result });
        }
        (out, (first_deferred < n).then_some(first_deferred))
    }

    fn end_check(&mut self, i: usize, when: &Expr) -> EndCheck {
        let deps = when.deps();
        // After a move, the mover stands on the destination: its cell is `to`.
        if !deps.is_dynamic()
            && deps.within(Deps(
                Deps::MOVER.0
                    | Deps::FROM.0
                    | Deps::TO.0
                    | Deps::PLAYER.0
                    | Deps::ROW.0
                    | Deps::COL.0
                    | Deps::CELL_IDENTITY.0,
            ))
            && !mentions_var(when, Var::From)
        {
            let mut sets = vec![CellSet::EMPTY; PIECE_CODES];
            for piece in self.core.all_pieces().collect::<Vec<_>>() {
                for to in self.core.geometry.cells().iter() {
                    let env = StaticEnv {
                        mover: Some(Value::Piece(piece, to)),
                        to: Some(to),
                        player: Some(piece.owner()),
                        ..StaticEnv::default()
                    };
                    match when.test(self.core, &env) {
                        Ok(true) => sets[piece.code()].insert(to),
                        Ok(false) => {}
                        Err(err) => {
                            let core = self.core;
                            self.eval_error(Site::End(i), err, || {
                                format!(
                                    "{} arrives on {}",
                                    core.code(piece),
                                    core.geometry.name(to)
                                )
                            });
                            return EndCheck::Dynamic(when.clone());
                        }
                    }
                }
            }
            return EndCheck::Arrive(sets);
        }
        if let Expr::Bin(op, a, b) = when
            && matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            )
            && let (Expr::Count(who, kind), Expr::Lit(Value::Int(n))) = (a.as_ref(), b.as_ref())
        {
            let who = match who.as_ref() {
                Expr::Var(Var::Player) => Some(Who::Mover),
                Expr::Var(Var::Opponent) => Some(Who::Opponent),
                Expr::Lit(Value::Player(p)) => Some(Who::Fixed(*p)),
                _ => None,
            };
            if let Some(who) = who {
                return EndCheck::Count(who, *kind, *op, *n);
            }
        }
        EndCheck::Dynamic(when.clone())
    }

    fn check_setup(&mut self) {
        let g = &self.core.geometry;
        let mut seen = CellSet::EMPTY;
        for (i, (piece, cell)) in self.spec.setup.iter().enumerate() {
            if piece.kind().index() >= self.core.kind_count() || piece.owner().index() >= PLAYERS {
                self.error(Site::Setup(i), "unknown piece");
                continue;
            }
            if !g.contains(*cell) {
                self.error(Site::Setup(i), "the cell is not on the board");
                continue;
            }
            if seen.contains(*cell) {
                self.error(
                    Site::Setup(i),
                    format!("two pieces are set up on {}", g.name(*cell)),
                );
            }
            seen.insert(*cell);
            let env = StaticEnv {
                mover: Some(Value::Piece(*piece, *cell)),
                to: Some(*cell),
                player: Some(piece.owner()),
                ..StaticEnv::default()
            };
            for r in &self.spec.place {
                if r.expr.deps().is_dynamic() {
                    continue;
                }
                match r.expr.test(self.core, &env) {
                    Ok(true) => {}
                    Ok(false) => {
                        let text = format!(
                            "{} may not stand on {}: place rule `{}` forbids it",
                            self.core.code(*piece),
                            g.name(*cell),
                            r.name
                        );
                        self.error(Site::Setup(i), text);
                    }
                    Err(e) => self.error(Site::Setup(i), e.to_string()),
                }
            }
        }
    }
}

fn mentions_var(e: &Expr, var: Var) -> bool {
    let mut found = false;
    visit(e, &mut |x| found |= *x == Expr::Var(var));
    found
}

fn case_text(core: &Core, piece: Piece, from: Cell, to: Cell) -> String {
    let g = &core.geometry;
    format!("{} moves {}-{}", core.code(piece), g.name(from), g.name(to))
}

fn table_for(sizes: [usize; 5]) -> BitTable {
    let total: usize = sizes.iter().product();
    let mut strides = [0; 5];
    let mut acc = 1;
    for i in (0..5).rev() {
        strides[i] = if sizes[i] == 1 { 0 } else { acc };
        acc *= sizes[i];
    }
    BitTable {
        bits: vec![0; total.div_ceil(64)],
        strides,
    }
}

fn representatives(class: &[u8], nclass: usize, on_board: &CellSet) -> Vec<Option<Cell>> {
    let mut reps = vec![None; nclass];
    for cell in on_board.iter() {
        let c = class[cell.index()] as usize;
        if reps[c].is_none() {
            reps[c] = Some(cell);
        }
    }
    reps
}

/// Where a pattern goes from `from` in `dir`: destination, hopped-over cell, jumped cells.
fn geometry_of(
    g: &Geometry,
    core: &Core,
    pattern: &Pattern,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    match pattern {
        Pattern::Step => g.neighbour(from, dir).map(|to| (to, None, Vec::new())),
        Pattern::Hop { .. } => {
            let over = g.neighbour(from, dir)?;
            let to = g.neighbour(over, dir)?;
            Some((to, Some(over), Vec::new()))
        }
        Pattern::Jump { zone, .. } => {
            let mut cells = Vec::new();
            let mut c = g.neighbour(from, dir)?;
            while core.in_zone(c, *zone, None) {
                cells.push(c);
                c = g.neighbour(c, dir)?;
            }
            (!cells.is_empty()).then_some((c, None, cells))
        }
    }
}

/// Where a pattern goes, for explaining rejected moves.
pub(crate) fn pattern_geometry(
    rules: &Rules,
    pattern: &Pattern,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    geometry_of(&rules.core.geometry, &rules.core, pattern, from, dir)
}
