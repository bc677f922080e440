//! The compiled form of rule expressions, and its evaluator.
//!
//! The rules language parses and type-checks expressions and lowers them to [`Expr`], in which
//! every name is resolved to an index. The kernel evaluates an `Expr` in two ways:
//!
//! - at load time, over every combination of its inputs, to fill lookup tables (see
//!   [`crate::Rules::new`]); the [`Deps`] of an expression say which inputs those are;
//! - during play, for the few expressions that read the position itself (piece counts, whether
//!   a player can move), through an [`Env`] backed by the game state.
//!
//! Evaluation never panics: a value of the wrong type or a missing piece is an [`EvalError`].
//! Because tables are filled by evaluating every case, such errors surface when a pack is
//! loaded, not in the middle of a game.

use crate::cell::Cell;
use crate::facts::Core;
use crate::geometry::{Dir, DirSet};
use crate::groups;
use crate::piece::{KindId, Piece, Player};

/// The deepest an expression may nest (operators, calls and fields inside each other).
/// Evaluation recurses over the tree: [`crate::Rules::new`] refuses deeper expressions.
pub const MAX_EXPR_DEPTH: usize = 100;

/// A variable an expression may read. Which ones are bound depends on where the expression is
/// used (see the rules language guide).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Var {
    /// The piece that moves (or is placed), standing on its origin cell before the move and on
    /// its destination after it.
    Mover,
    /// The piece being captured.
    Target,
    /// The cell a move starts from.
    From,
    /// The cell a move ends on (or a piece is placed on).
    To,
    /// The player acting: who moves, or who has just moved.
    Player,
    /// The other player.
    Opponent,
    /// A cell being examined (each jumped cell of a jump).
    Cell,
    /// The piece on [`Var::Cell`], possibly none.
    Occupant,
    /// Plies played since the last capture.
    Clock,
    /// Plies played since the last capture or promotion.
    Idle,
    /// How many times the current position occurred before (the same pieces, side to move and
    /// possible moves, FIDE 9.2.3), since the last move that reset the idle clock (at most
    /// [`crate::MAX_REPETITION_LOOKBACK`] plies back).
    Repetitions,
    /// How many passes in a row have just been made, the last move included (0 after any
    /// other move).
    Passes,
    /// How many earlier positions of the game had the same board as the current one (the
    /// same pieces on the same cells, whoever was to move, whatever was in hand), since the
    /// position was set up: positional superko.
    BoardRepetitions,
    /// Plies made since the position was set up (a pass is a ply).
    Plies,
    /// How many moves the player to move (or who has just moved) has already made in this
    /// turn, in a game of turns of several moves (`[turn]`): 0 on a turn's first move.
    TurnMoves,
    /// How many enemy pieces the move just made took, by any means (a turn's `again`).
    Taken,
}

/// A value an expression computes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Value {
    /// A truth value.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A player.
    Player(Player),
    /// A piece standing on a cell.
    Piece(Piece, Cell),
    /// The absence of a piece (an empty cell's occupant).
    NoPiece,
    /// A cell.
    Cell(Cell),
    /// A piece kind.
    Kind(KindId),
    /// No cell: the neighbour of a cell off the board or on a hole.
    NoCell,
    /// No player: a winner that is nobody (a draw).
    Nobody,
}

/// A binary operator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    /// `and` (short-circuit).
    And,
    /// `or` (short-circuit).
    Or,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (integer division; by zero is an error)
    Div,
    /// `%`
    Rem,
}

/// A compiled expression.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Expr {
    /// A constant.
    Lit(Value),
    /// A variable.
    Var(Var),
    /// An integer attribute of a piece.
    Attr(Box<Expr>, usize),
    /// The owner of a piece.
    Owner(Box<Expr>),
    /// The cell a piece stands on.
    CellOf(Box<Expr>),
    /// The kind of a piece.
    KindOf(Box<Expr>),
    /// The row of a cell (0 at the top).
    Row(Box<Expr>),
    /// The column of a cell (0 at the left).
    Col(Box<Expr>),
    /// Whether a piece is of a kind (false for no piece).
    Is(Box<Expr>, KindId),
    /// Whether a piece's kind has a tag (false for no piece).
    Has(Box<Expr>, usize),
    /// Whether a cell is in a zone; for an owned zone, in the part of the given player (or in
    /// any part when no player is given).
    In(Box<Expr>, usize, Option<Box<Expr>>),
    /// The other player.
    OpponentOf(Box<Expr>),
    /// The number of pieces of a player, optionally of one kind.
    Count(Box<Expr>, Option<KindId>),
    /// Whether a player, were it to move now, would have no legal move.
    NoMoves(Box<Expr>),
    /// Whether a player's royal piece is attacked (false for a player without one).
    InCheck(Box<Expr>),
    /// Whether a cell is attacked by a player: a piece of that player could capture a royal
    /// piece standing there.
    Attacked(Box<Expr>, Box<Expr>),
    /// How many pieces of this piece's kind and owner have been placed since the board was
    /// set up (captured ones included).
    Placed(Box<Expr>),
    /// The piece on a cell, possibly none.
    At(Box<Expr>),
    /// Whether a cell holds a piece (false for no cell).
    Occupied(Box<Expr>),
    /// The cell next to a cell in a direction, or no cell off the board.
    Neighbour(Box<Expr>, Dir),
    /// Whether a value is a cell of the board (not no cell).
    OnBoard(Box<Expr>),
    /// Whether a cell of the board holds no piece (false for no cell).
    Empty(Box<Expr>),
    /// The longest line through a cell of pieces of the owner of the piece on it, along the
    /// axes of the directions (a direction and its opposite); 0 for an empty cell.
    Line(Box<Expr>, DirSet),
    /// The number of pieces of a player (optionally of one kind) on a zone's cells (for an
    /// owned zone, the part of the given player, or all parts).
    CountIn(Box<Expr>, Option<KindId>, usize, Option<Box<Expr>>),
    /// How many pieces of a kind a player has in hand.
    Hand(Box<Expr>, KindId),
    /// Whether the piece on a cell was moved there earlier in this turn (`[turn]`).
    MovedThisTurn(Box<Expr>),
    /// How many groups a player's pieces form, joined through steps in the directions.
    Groups(Box<Expr>, DirSet),
    /// Whether one group of a player's pieces (joined through the directions) holds a cell of
    /// each of two zones (each, for an owned zone, the part of the given player, or all parts).
    /// (Boxed whole, so that this rare node does not make every node larger.)
    Connected(Box<(Expr, ZoneRef, ZoneRef)>, DirSet),
    /// The empty cells next to the group (through the directions) of the piece on a cell; 0 on
    /// an empty cell.
    Liberties(Box<Expr>, DirSet),
    /// A player's area (Tromp-Taylor): its pieces, and the empty cells whose empty region
    /// (joined through the directions) borders its pieces and none of the other player's.
    Area(Box<Expr>, DirSet),
    /// How many cells next to a cell (through the directions) hold a piece of a player.
    Adjacent(Box<Expr>, DirSet, Box<Expr>),
    /// How many pieces of a player (of one kind, if given) stand on the cells reached from a
    /// cell by walking in each of the directions to the edge of the board, the cell itself not
    /// counted. (The cell and the player boxed together, so that this rare node does not make
    /// every node larger.)
    Along(Box<(Expr, Expr)>, DirSet, Option<KindId>),
    /// The king's distance between two cells.
    Distance(Box<Expr>, Box<Expr>),
    /// The number of pieces on the whole line through two cells (0 if they share none).
    OnLine(Box<Expr>, Box<Expr>),
    /// Logical negation.
    Not(Box<Expr>),
    /// Integer negation.
    Neg(Box<Expr>),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// A zone named in an expression: its index and, for an owned zone, the player whose part is
/// meant (all parts when none).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ZoneRef(pub usize, pub Option<Box<Expr>>);

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// An attribute, owner or cell of "no piece" was asked for.
    #[error("there is no piece here (guard the expression with `occupied(...)`)")]
    NoPiece,
    /// A value had the wrong type (the checker should have caught it).
    #[error("expected {expected}, found {found:?}")]
    Type {
        /// What the operation needed.
        expected: &'static str,
        /// What it got.
        found: Value,
    },
    /// Integer division or remainder by zero, or an overflow.
    #[error("arithmetic error: division by zero or overflow")]
    Arithmetic,
    /// The variable is not bound where this expression is used.
    #[error("`{0:?}` is not available here")]
    Unbound(Var),
    /// The expression reads the position where only static facts are known.
    #[error("the position is not available here")]
    NoPosition,
}

/// What an evaluation can ask of the world beyond the static rules.
pub trait Env {
    /// The value of a variable, if bound.
    fn var(&self, var: Var) -> Option<Value>;
    /// The piece on a cell.
    fn piece_at(&self, _cell: Cell) -> Result<Option<Piece>, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// The number of pieces of a player (of one kind, if given).
    fn count(&self, _player: Player, _kind: Option<KindId>) -> Result<i64, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// Whether the player would have no legal move if it were to move.
    fn no_moves(&self, _player: Player) -> Result<bool, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// Whether the player's royal piece is attacked.
    fn in_check(&self, _player: Player) -> Result<bool, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// Whether a piece of `by` could capture a royal piece on `cell`.
    fn attacked(&self, _cell: Cell, _by: Player) -> Result<bool, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// How many pieces like this one have been placed since set-up.
    fn placed(&self, _piece: Piece) -> Result<i64, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// The cells holding a piece of the player (found through [`Env::piece_at`] unless the
    /// environment keeps them).
    fn cells_of(&self, core: &Core, player: Player) -> Result<crate::cell::CellSet, EvalError> {
        let mut out = crate::cell::CellSet::EMPTY;
        for c in core.geometry().cells().iter() {
            if self.piece_at(c)?.is_some_and(|p| p.owner() == player) {
                out.insert(c);
            }
        }
        Ok(out)
    }
    /// How many pieces of a kind the player has in hand.
    fn hand(&self, _player: Player, _kind: KindId) -> Result<i64, EvalError> {
        Err(EvalError::NoPosition)
    }
    /// Whether the piece on the cell was moved there earlier in this turn.
    fn moved_this_turn(&self, _cell: Cell) -> Result<bool, EvalError> {
        Err(EvalError::NoPosition)
    }
}

/// The inputs an expression reads, as a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Deps(pub u32);

impl Deps {
    /// Reads the moving piece (kind, owner or attributes).
    pub const MOVER: Deps = Deps(1);
    /// Reads the captured piece.
    pub const TARGET: Deps = Deps(1 << 1);
    /// Reads the origin cell (or the mover's cell).
    pub const FROM: Deps = Deps(1 << 2);
    /// Reads the destination cell.
    pub const TO: Deps = Deps(1 << 3);
    /// Reads the acting player.
    pub const PLAYER: Deps = Deps(1 << 4);
    /// Reads the examined cell.
    pub const CELL: Deps = Deps(1 << 5);
    /// Reads the examined cell's occupant.
    pub const OCCUPANT: Deps = Deps(1 << 6);
    /// Reads the position (board contents, counts, placements, clock).
    pub const POSITION: Deps = Deps(1 << 7);
    /// Asks whether a player can move (needs move generation).
    pub const MOVES: Deps = Deps(1 << 8);
    /// Reads the target's cell.
    pub const TARGET_CELL: Deps = Deps(1 << 9);
    /// Reads a row number.
    pub const ROW: Deps = Deps(1 << 10);
    /// Reads a column number.
    pub const COL: Deps = Deps(1 << 11);
    /// Compares cells for identity or does arithmetic on them.
    pub const CELL_IDENTITY: Deps = Deps(1 << 12);

    /// The union.
    #[must_use]
    pub const fn or(self, other: Deps) -> Deps {
        Deps(self.0 | other.0)
    }

    /// Whether any of `other` is in `self`.
    pub const fn any(self, other: Deps) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the expression depends on nothing but the given inputs.
    pub const fn within(self, allowed: Deps) -> bool {
        self.0 & !allowed.0 == 0
    }

    /// Whether the expression reads the position or asks about moves.
    pub const fn is_dynamic(self) -> bool {
        self.any(Deps(Deps::POSITION.0 | Deps::MOVES.0))
    }
}

impl Expr {
    /// Boxes `self`, for building trees.
    pub fn boxed(self) -> Box<Expr> {
        Box::new(self)
    }

    /// The depth of the tree: 1 for a leaf. Computed without recursion, so that any tree a
    /// front end builds can be measured.
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((e, d)) = stack.pop() {
            deepest = deepest.max(d);
            e.for_each_child(&mut |c| stack.push((c, d + 1)));
        }
        deepest
    }

    /// Calls `f` on each direct child.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        use Expr::*;
        match self {
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
            | InCheck(a)
            | Placed(a)
            | At(a)
            | Occupied(a)
            | Neighbour(a, _)
            | OnBoard(a)
            | Empty(a)
            | Line(a, _)
            | Groups(a, _)
            | Hand(a, _)
            | MovedThisTurn(a)
            | Liberties(a, _)
            | Area(a, _)
            | Not(a)
            | Neg(a) => f(a),
            Connected(c, _) => {
                let (a, ZoneRef(_, b), ZoneRef(_, c)) = c.as_ref();
                f(a);
                for x in [b, c].into_iter().flatten() {
                    f(x);
                }
            }
            In(a, _, b) | CountIn(a, _, _, b) => {
                f(a);
                if let Some(b) = b {
                    f(b);
                }
            }
            Bin(_, a, b) | Attacked(a, b) | Adjacent(a, _, b) | Distance(a, b) | OnLine(a, b) => {
                f(a);
                f(b);
            }
            Along(cp, _, _) => {
                f(&cp.0);
                f(&cp.1);
            }
            If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
        }
    }

    /// The inputs this expression reads.
    pub fn deps(&self) -> Deps {
        use Expr::*;
        match self {
            Lit(_) => Deps::default(),
            Var(v) => match v {
                self::Var::Mover => Deps::MOVER,
                self::Var::Target => Deps::TARGET,
                self::Var::From => Deps::FROM,
                self::Var::To => Deps::TO,
                self::Var::Player | self::Var::Opponent => Deps::PLAYER,
                self::Var::Cell => Deps::CELL,
                self::Var::Occupant => Deps::OCCUPANT,
                self::Var::Clock
                | self::Var::Idle
                | self::Var::Repetitions
                | self::Var::Passes
                | self::Var::BoardRepetitions
                | self::Var::Plies
                | self::Var::TurnMoves
                | self::Var::Taken => Deps::POSITION,
            },
            CellOf(e) => {
                let d = e.deps();
                // The cell of the mover is the origin; of the target, the target's cell.
                let mut out = Deps(d.0 & !(Deps::MOVER.0 | Deps::TARGET.0));
                if d.any(Deps::MOVER) {
                    out = out.or(Deps::FROM);
                }
                if d.any(Deps::TARGET) {
                    out = out.or(Deps::TARGET_CELL);
                }
                if d.any(Deps::OCCUPANT) {
                    out = out.or(Deps::CELL);
                }
                out
            }
            Attr(e, _)
            | Owner(e)
            | KindOf(e)
            | Is(e, _)
            | Has(e, _)
            | OpponentOf(e)
            | Not(e)
            | Neg(e) => e.deps(),
            Row(e) => e.deps().or(Deps::ROW),
            Col(e) => e.deps().or(Deps::COL),
            In(c, _, p) => c
                .deps()
                .or(p.as_ref().map_or(Deps::default(), |p| p.deps())),
            Count(p, _) | Placed(p) => p.deps().or(Deps::POSITION),
            CountIn(p, _, _, o) => p
                .deps()
                .or(o.as_ref().map_or(Deps::default(), |o| o.deps()))
                .or(Deps::POSITION),
            At(c) | Occupied(c) | Empty(c) | Line(c, _) => c.deps().or(Deps::POSITION),
            // The neighbour of a cell is another cell: anything may tell it apart.
            Neighbour(c, _) => c.deps().or(Deps::CELL_IDENTITY),
            OnBoard(c) => c.deps().or(Deps::CELL_IDENTITY),
            NoMoves(p) => p.deps().or(Deps::MOVES),
            InCheck(p) => p.deps().or(Deps::POSITION),
            Attacked(c, p) => c.deps().or(p.deps()).or(Deps::POSITION),
            Groups(p, _) | Liberties(p, _) | Area(p, _) | Hand(p, _) | MovedThisTurn(p) => {
                p.deps().or(Deps::POSITION)
            }
            Connected(c, _) => [&c.1.1, &c.2.1]
                .into_iter()
                .flatten()
                .fold(c.0.deps(), |d, x| d.or(x.deps()))
                .or(Deps::POSITION),
            Adjacent(c, _, p) | OnLine(c, p) => c.deps().or(p.deps()).or(Deps::POSITION),
            Along(cp, _, _) => cp.0.deps().or(cp.1.deps()).or(Deps::POSITION),
            // A distance is arithmetic on cells.
            Distance(a, b) => a.deps().or(b.deps()).or(Deps::CELL_IDENTITY),
            Bin(op, a, b) => {
                let d = a.deps().or(b.deps());
                let cellish = matches!(
                    (a.as_ref(), b.as_ref()),
                    (
                        CellOf(_) | Var(self::Var::From | self::Var::To | self::Var::Cell),
                        _
                    ) | (
                        _,
                        CellOf(_) | Var(self::Var::From | self::Var::To | self::Var::Cell)
                    )
                );
                if cellish && !matches!(op, BinOp::And | BinOp::Or) {
                    d.or(Deps::CELL_IDENTITY)
                } else {
                    d
                }
            }
            If(c, a, b) => c.deps().or(a.deps()).or(b.deps()),
        }
    }

    /// Evaluates the expression.
    pub fn eval(&self, core: &Core, env: &dyn Env) -> Result<Value, EvalError> {
        use Expr::*;
        Ok(match self {
            Lit(v) => *v,
            Var(v) => env.var(*v).ok_or(EvalError::Unbound(*v))?,
            Attr(e, a) => {
                let (p, _) = piece(e.eval(core, env)?)?;
                Value::Int(core.attr(p.kind(), *a))
            }
            Owner(e) => Value::Player(piece(e.eval(core, env)?)?.0.owner()),
            CellOf(e) => Value::Cell(piece(e.eval(core, env)?)?.1),
            KindOf(e) => Value::Kind(piece(e.eval(core, env)?)?.0.kind()),
            Row(e) => Value::Int(core.geometry().row(cell(e.eval(core, env)?)?) as i64),
            Col(e) => Value::Int(core.geometry().col(cell(e.eval(core, env)?)?) as i64),
            Is(e, k) => Value::Bool(match e.eval(core, env)? {
                Value::Piece(p, _) => p.kind() == *k,
                Value::NoPiece => false,
                other => return Err(type_error("a piece", other)),
            }),
            Has(e, t) => Value::Bool(match e.eval(core, env)? {
                Value::Piece(p, _) => core.has_tag(p.kind(), *t),
                Value::NoPiece => false,
                other => return Err(type_error("a piece", other)),
            }),
            In(c, z, owner) => {
                let c = cell(c.eval(core, env)?)?;
                let owner = match owner {
                    Some(p) => Some(player(p.eval(core, env)?)?),
                    None => None,
                };
                Value::Bool(core.in_zone(c, *z, owner))
            }
            OpponentOf(p) => Value::Player(player(p.eval(core, env)?)?.other()),
            Count(p, k) => Value::Int(env.count(player(p.eval(core, env)?)?, *k)?),
            NoMoves(p) => Value::Bool(env.no_moves(player(p.eval(core, env)?)?)?),
            InCheck(p) => Value::Bool(env.in_check(player(p.eval(core, env)?)?)?),
            Attacked(c, p) => {
                let by = player(p.eval(core, env)?)?;
                match c.eval(core, env)? {
                    Value::Cell(c) => Value::Bool(env.attacked(c, by)?),
                    _ => Value::Bool(false),
                }
            }
            Placed(p) => Value::Int(env.placed(piece(p.eval(core, env)?)?.0)?),
            At(c) => {
                let c = match c.eval(core, env)? {
                    Value::NoCell => return Ok(Value::NoPiece),
                    v => cell(v)?,
                };
                match env.piece_at(c)? {
                    Some(p) => Value::Piece(p, c),
                    None => Value::NoPiece,
                }
            }
            Occupied(c) => Value::Bool(match c.eval(core, env)? {
                Value::NoCell => false,
                v => env.piece_at(cell(v)?)?.is_some(),
            }),
            Empty(c) => Value::Bool(match c.eval(core, env)? {
                Value::NoCell => false,
                v => env.piece_at(cell(v)?)?.is_none(),
            }),
            Neighbour(c, d) => match c.eval(core, env)? {
                Value::NoCell => Value::NoCell,
                v => core
                    .geometry()
                    .neighbour(cell(v)?, *d)
                    .map_or(Value::NoCell, Value::Cell),
            },
            OnBoard(c) => Value::Bool(!matches!(c.eval(core, env)?, Value::NoCell)),
            Line(c, dirs) => {
                let c = cell(c.eval(core, env)?)?;
                Value::Int(line(core.geometry(), &|x| env.piece_at(x), c, *dirs)?)
            }
            CountIn(p, k, z, part) => {
                let p = player(p.eval(core, env)?)?;
                let part = match part {
                    Some(o) => Some(player(o.eval(core, env)?)?),
                    None => None,
                };
                let mut n = 0;
                for c in core.zone_cells(*z, part).iter() {
                    if let Some(q) = env.piece_at(c)?
                        && q.owner() == p
                        && k.is_none_or(|k| q.kind() == k)
                    {
                        n += 1;
                    }
                }
                Value::Int(n)
            }
            Hand(p, k) => Value::Int(env.hand(player(p.eval(core, env)?)?, *k)?),
            MovedThisTurn(c) => Value::Bool(match c.eval(core, env)? {
                Value::NoCell => false,
                v => env.moved_this_turn(cell(v)?)?,
            }),
            Groups(p, dirs) => {
                let p = player(p.eval(core, env)?)?;
                Value::Int(groups::groups(
                    core.geometry(),
                    env.cells_of(core, p)?,
                    *dirs,
                )?)
            }
            Connected(c, dirs) => {
                let (p, a, b) = c.as_ref();
                let p = player(p.eval(core, env)?)?;
                let zones = (zone(core, env, a)?, zone(core, env, b)?);
                Value::Bool(groups::connected(
                    core.geometry(),
                    env.cells_of(core, p)?,
                    zones,
                    *dirs,
                )?)
            }
            Area(p, dirs) => {
                let p = player(p.eval(core, env)?)?;
                Value::Int(groups::area(
                    core.geometry(),
                    env.cells_of(core, p)?,
                    env.cells_of(core, p.other())?,
                    *dirs,
                )?)
            }
            Liberties(c, dirs) => {
                let c = cell(c.eval(core, env)?)?;
                Value::Int(groups::liberties(
                    core.geometry(),
                    &|x| env.piece_at(x),
                    c,
                    *dirs,
                )?)
            }
            Adjacent(c, dirs, p) => {
                let c = cell(c.eval(core, env)?)?;
                let p = player(p.eval(core, env)?)?;
                Value::Int(groups::adjacent(
                    core.geometry(),
                    &|x| env.piece_at(x),
                    c,
                    *dirs,
                    p,
                )?)
            }
            Along(cp, dirs, kind) => {
                let c = cell(cp.0.eval(core, env)?)?;
                let p = player(cp.1.eval(core, env)?)?;
                Value::Int(groups::along(
                    core.geometry(),
                    &|x| env.piece_at(x),
                    c,
                    *dirs,
                    p,
                    *kind,
                )?)
            }
            Distance(a, b) => {
                let (a, b) = (cell(a.eval(core, env)?)?, cell(b.eval(core, env)?)?);
                Value::Int(groups::distance(core.geometry(), a, b))
            }
            OnLine(a, b) => {
                let (a, b) = (cell(a.eval(core, env)?)?, cell(b.eval(core, env)?)?);
                Value::Int(groups::on_line(
                    core.geometry(),
                    &|x| env.piece_at(x),
                    a,
                    b,
                )?)
            }
            Not(e) => Value::Bool(!boolean(e.eval(core, env)?)?),
            Neg(e) => Value::Int(
                int(e.eval(core, env)?)?
                    .checked_neg()
                    .ok_or(EvalError::Arithmetic)?,
            ),
            Bin(BinOp::And, a, b) => {
                Value::Bool(boolean(a.eval(core, env)?)? && boolean(b.eval(core, env)?)?)
            }
            Bin(BinOp::Or, a, b) => {
                Value::Bool(boolean(a.eval(core, env)?)? || boolean(b.eval(core, env)?)?)
            }
            Bin(op, a, b) => binary(*op, a.eval(core, env)?, b.eval(core, env)?)?,
            If(c, a, b) => {
                if boolean(c.eval(core, env)?)? {
                    a.eval(core, env)?
                } else {
                    b.eval(core, env)?
                }
            }
        })
    }

    /// Evaluates an expression that must give a truth value.
    pub fn test(&self, core: &Core, env: &dyn Env) -> Result<bool, EvalError> {
        boolean(self.eval(core, env)?)
    }
}

/// The longest line of pieces of one owner through `c`, along the axes of `dirs`, on the
/// board `at` reads: what `line(...)` means, and what the compiled end check computes.
#[inline]
pub(crate) fn line<F: Fn(Cell) -> Result<Option<Piece>, EvalError>>(
    g: &crate::geometry::Geometry,
    at: &F,
    c: Cell,
    dirs: DirSet,
) -> Result<i64, EvalError> {
    let Some(p) = at(c)? else {
        return Ok(0);
    };
    line_by(g, c, dirs, |next| {
        Ok(at(next)?.is_some_and(|q| q.owner() == p.owner()))
    })
}

/// The longest line through `c` along one of `dirs`' axes of cells for which `same` holds
/// (`c` counted, not tested): the one meaning of `line`, for expressions and for the end
/// rules compiled to a line test.
#[inline(always)]
pub(crate) fn line_by<E>(
    g: &crate::geometry::Geometry,
    c: Cell,
    dirs: DirSet,
    mut same: impl FnMut(Cell) -> Result<bool, E>,
) -> Result<i64, E> {
    let mut run = |d: Dir| -> Result<i64, E> {
        let mut n = 0;
        let mut cur = c;
        while let Some(next) = g.neighbour(cur, d) {
            if !same(next)? {
                break;
            }
            n += 1;
            cur = next;
        }
        Ok(n)
    };
    let mut best = 1;
    // One direction of each axis is enough.
    let axes = DirSet(dirs.0 & 0x0f | (dirs.0 >> 4));
    for d in axes.iter() {
        best = best.max(1 + run(d)? + run(d.opposite())?);
    }
    Ok(best)
}

/// The cells of a zone named in an expression.
fn zone(core: &Core, env: &dyn Env, z: &ZoneRef) -> Result<crate::cell::CellSet, EvalError> {
    let owner = match &z.1 {
        Some(p) => Some(player(p.eval(core, env)?)?),
        None => None,
    };
    Ok(core.zone_cells(z.0, owner))
}

fn type_error(expected: &'static str, found: Value) -> EvalError {
    EvalError::Type { expected, found }
}

fn piece(v: Value) -> Result<(Piece, Cell), EvalError> {
    match v {
        Value::Piece(p, c) => Ok((p, c)),
        Value::NoPiece => Err(EvalError::NoPiece),
        other => Err(type_error("a piece", other)),
    }
}

fn cell(v: Value) -> Result<Cell, EvalError> {
    match v {
        Value::Cell(c) => Ok(c),
        Value::Piece(_, c) => Ok(c),
        other => Err(type_error("a cell", other)),
    }
}

fn player(v: Value) -> Result<Player, EvalError> {
    match v {
        Value::Player(p) => Ok(p),
        Value::Piece(p, _) => Ok(p.owner()),
        other => Err(type_error("a player", other)),
    }
}

fn boolean(v: Value) -> Result<bool, EvalError> {
    match v {
        Value::Bool(b) => Ok(b),
        other => Err(type_error("true or false", other)),
    }
}

fn int(v: Value) -> Result<i64, EvalError> {
    match v {
        Value::Int(i) => Ok(i),
        other => Err(type_error("a number", other)),
    }
}

fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, EvalError> {
    use BinOp::*;
    Ok(match op {
        Eq => Value::Bool(a == b),
        Ne => Value::Bool(a != b),
        Lt | Le | Gt | Ge => {
            let (x, y) = (int(a)?, int(b)?);
            Value::Bool(match op {
                Lt => x < y,
                Le => x <= y,
                Gt => x > y,
                _ => x >= y,
            })
        }
        Add | Sub | Mul | Div | Rem => {
            let (x, y) = (int(a)?, int(b)?);
            let r = match op {
                Add => x.checked_add(y),
                Sub => x.checked_sub(y),
                Mul => x.checked_mul(y),
                Div => x.checked_div(y),
                _ => x.checked_rem(y),
            };
            Value::Int(r.ok_or(EvalError::Arithmetic)?)
        }
        And | Or => Value::Bool(if op == And {
            boolean(a)? && boolean(b)?
        } else {
            boolean(a)? || boolean(b)?
        }),
    })
}

/// Calls `f` on every node of `e`.
pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    e.for_each_child(&mut |c| visit(c, f));
}
