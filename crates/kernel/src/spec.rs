//! What a front end hands over: the unchecked description of a game, [`RulesSpec`], and the
//! problems the compiler finds in it, located by [`Site`].
//!
//! Nothing here is read during play: [`crate::Rules::new`] compiles a spec into tables and keeps
//! only the names it needs to talk about the game.
//!
//! Every type here is `#[non_exhaustive]`, so that a new construct (a field or a variant) is
//! not a breaking change for embedders: build a spec with the `new` constructors, which fill
//! what they do not take with the plain default (no condition, no promotion, nothing in
//! hand, ...), then set the public fields you need.

use crate::cell::Cell;
use crate::expr::Expr;
pub use crate::facts::{PlayerSpec, ZoneCells, ZoneSpec};
use crate::geometry::{DirSet, Geometry};
use crate::piece::{KindId, PLAYERS, Piece};

/// Whether a move pattern may capture by moving onto an enemy piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
#[non_exhaustive]
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
        /// A long hop: across any number of empty cells to the enemy piece, and onto any
        /// empty cell beyond it. The pieces a chain of them takes are lifted when the move
        /// ends: they cannot be hopped twice, and they block the chain's way.
        far: bool,
    },
    /// Any number of cells in one direction over empty cells, landing on an empty cell or on
    /// the first piece met (a capture).
    Slide {
        /// At most this many cells.
        max: Option<u8>,
        /// Captures only by passing exactly one piece (of either side) on the way, the
        /// screen; quiet moves are plain slides.
        screen: bool,
        /// The slide passes the mover's own pieces (but never stops on one); an enemy piece
        /// still stops it.
        over_own: bool,
        /// Evaluated for each cell the slide reaches (`cell`, `mover`): where it holds, the
        /// slide may stop but not pass. It may not read the position.
        stop: Option<Expr>,
    },
    /// To the cells at a fixed offset `(a, b)` (in rows and columns) and its symmetric
    /// images.
    Leap {
        /// The offset, in cells.
        offset: (u8, u8),
        /// Evaluated on the leg cell (`cell`, `occupant`, `mover`): true blocks the leap. The
        /// leg is the first cell on the way: one step along the longer side of the offset,
        /// diagonally when both sides are equal.
        blocked: Option<Expr>,
    },
    /// A new piece of the kind on an empty cell (the piece comes from the player's supply).
    Place,
    /// To any other cell of the board, over anything (the flying men of a mill game).
    Fly,
}

/// The second part of a turn: after the move, the same player places a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ThenPlace {
    /// The kind placed (owned by the player).
    pub kind: KindId,
    /// From the landing cell, the placed piece goes where a slide in these directions
    /// reaches, over empty cells (the cell the mover left counts as empty).
    pub dirs: [DirSet; PLAYERS],
}

/// One way a kind of piece moves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MoveSpec {
    /// How the designer wrote it, for messages (`step orthogonal`).
    pub text: String,
    /// The pattern.
    pub pattern: Pattern,
    /// The absolute directions, for each player (relative directions already resolved).
    pub dirs: [DirSet; PLAYERS],
    /// Whether it captures by displacement.
    pub mode: CaptureMode,
    /// An extra condition for this pattern alone, in the scope of enter rules (for a
    /// placement: of place rules).
    pub condition: Option<Expr>,
    /// A second part of the turn.
    pub then: Option<ThenPlace>,
    /// Whether the cells a slide passes over stay open to capture for one turn (the piece is
    /// taken by a move onto them by a pattern with [`MoveSpec::takes_ghost`]).
    pub leaves_ghost: bool,
    /// Whether this pattern also captures by moving onto a cell an enemy piece has just
    /// passed over (see [`MoveSpec::leaves_ghost`]), taking that piece.
    pub takes_ghost: bool,
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// How many pieces of this kind each player has in hand at the start, to place; `None`
    /// for an unlimited supply.
    pub supply: Option<u16>,
    /// Whether the kind is royal: a move that leaves one's royal piece attacked (capturable by
    /// an enemy move, whoever is to move) is illegal.
    pub royal: bool,
    /// Whether a move of this kind is irreversible: it resets the idle clock, as a capture does.
    pub resets_idle: bool,
    /// A captured piece of this kind goes to the captor's hand, as a piece of this kind (which
    /// must have a supply); `None`: it leaves the game.
    pub to_hand: Option<KindId>,
    /// At most this many pieces of the kind per player on the board, in every position read
    /// or set up (`None`: any number).
    pub at_most: Option<u16>,
    /// A zone (by index) where no piece of the kind may ever stand, in every position read or
    /// set up (for an owned zone, its owner's part).
    pub never_in: Option<usize>,
}

/// What an effect does to the pieces around a moved or placed piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EffectKind {
    /// An enemy piece between the piece and a hostile cell (a piece of the mover's side, or a
    /// cell where `hostile` holds) is removed.
    Custodial,
    /// An enemy piece next to the piece whose every neighbour in the directions is hostile is
    /// removed.
    Surround,
    /// Every run of enemy pieces between the piece and a hostile cell changes owner.
    Flip,
    /// Every enemy piece next to the piece changes owner.
    Convert,
    /// Every enemy group (pieces of one owner joined through the directions) next to the piece
    /// that has no empty cell next to it is removed.
    Groups,
}

/// An effect applied after every move (after its second part, if any), around the cell the
/// piece arrived on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EffectSpec {
    /// Name, for messages.
    pub name: String,
    /// What it does.
    pub kind: EffectKind,
    /// The directions looked in (absolute).
    pub dirs: DirSet,
    /// Which enemy pieces it affects (`mover`, `target`, `player`); all when `None`.
    pub target: Option<Expr>,
    /// Which cells count as hostile besides those holding a piece of the mover's side
    /// (`cell`, `occupant`, `target`, `mover`, `player`); none when `None`.
    pub hostile: Option<Expr>,
    /// Whether a move is legal only if this effect changes at least one piece.
    pub required: bool,
    /// For a custodial capture: the fewest and the most enemy pieces in a line that are
    /// closed in and taken together (1 and 1 by default).
    pub run: (u8, u8),
}

/// A piece changing kind when it ends a move (or a hop of a chain) in a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Promotion {
    /// The kind it becomes.
    pub to: KindId,
    /// When the player chooses among several kinds: all of them, `to` first (one move each);
    /// empty otherwise.
    pub choices: Vec<KindId>,
    /// The zone; for an owned zone, the part of the piece's owner.
    pub zone: usize,
    /// Whether reaching the zone ends a hop chain there.
    pub ends_chain: bool,
    /// Whether the player may decline: the move is there both with and without the
    /// promotion (the one without it written plainly, the other with `=` and the kind).
    pub optional: bool,
    /// Whether a move that starts in the zone promotes too, wherever it ends (a move that
    /// leaves the zone).
    pub on_leaving: bool,
    /// A zone (for an owned zone, the owner's part) where an optional promotion is not
    /// optional: a move ending there always promotes.
    pub forced: Option<usize>,
}

/// A move of two pieces at once, both unmoved: the mover goes to its cell and the partner,
/// the first piece met from the mover in the direction, goes to its own.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompoundSpec {
    /// Name, for messages and FEN.
    pub name: String,
    /// The kind that moves (named in notation: its origin and destination).
    pub mover: KindId,
    /// The kind of the partner.
    pub partner: KindId,
    /// By player: the absolute direction from the mover to its partner.
    pub dir: [crate::geometry::Dir; PLAYERS],
    /// By player: where the mover ends.
    pub mover_to: [Cell; PLAYERS],
    /// By player: where the partner ends.
    pub partner_to: [Cell; PLAYERS],
}

/// How a game's positions are written in Forsyth-Edwards notation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct FenSpec {
    /// The letter of each kind (upper case: the first player's piece; lower case: the
    /// second's).
    pub letters: Vec<(char, KindId)>,
    /// The kinds written as a letter followed by `~` (`Q~`: a promoted piece, as crazyhouse
    /// FEN marks one that goes back to the hand as what it was).
    pub marked: Vec<(char, KindId)>,
    /// The letters of the side to move, by player (`w`, `b`); more than one letter is read.
    pub sides: [Vec<String>; PLAYERS],
    /// The letters of the rights to compound moves (FEN's third field): (upper-case letter,
    /// compound move index).
    pub compounds: Vec<(char, usize)>,
}

/// A named predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NamedRule {
    /// The name a rejected move reports.
    pub name: String,
    /// The predicate.
    pub expr: Expr,
}

/// A removal of an enemy piece of the mover's choice (`[effects.NAME] remove = 'COND'`): after
/// a move and the other effects, where `when` holds on the position (`mover`, `from`, `to`,
/// `player`), the mover removes one enemy piece, one move for each piece it may choose; with
/// `prefer`, only the pieces where it holds (`target`, `player`) while there are any.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RemovalSpec {
    /// The effect's name, for messages.
    pub name: String,
    /// When the mover removes a piece.
    pub when: Expr,
    /// Which enemy pieces it removes first.
    pub prefer: Option<Expr>,
}

impl RemovalSpec {
    /// A removal when `when` holds, of any enemy piece.
    pub fn new(name: String, when: Expr) -> RemovalSpec {
        RemovalSpec {
            name,
            when,
            prefer: None,
        }
    }
}

/// Turns of several moves (`[turn]`): after a move, the same player moves again while the
/// turn has moves left and `again` holds on the position the move left (`mover`, `from`,
/// `to`, `player`, and `taken`, the enemy pieces the move took). A pass ends the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnSpec {
    /// The most moves a turn has, from 2.
    pub moves: u8,
    /// When the player moves again; always, without it.
    pub again: Option<Expr>,
}

impl TurnSpec {
    /// Turns of up to `moves` moves, the player moving again while `again` holds.
    pub fn new(moves: u8, again: Option<Expr>) -> TurnSpec {
        TurnSpec { moves, again }
    }
}

/// What an end rule decides.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndResult {
    /// This player (an expression over `player` and `opponent`) wins.
    Winner(Expr),
    /// Nobody wins.
    Draw,
}

/// A condition that ends the game, checked after every move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EndSpec {
    /// Name, for messages.
    pub name: String,
    /// The condition, seen from the player who has just moved.
    pub when: Expr,
    /// The result.
    pub result: EndResult,
}

/// Everything a game is, unchecked. A front end (the rules language) fills it in and
/// [`crate::Rules::new`] checks and compiles it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// With `must_capture`: only the captures that take the most pieces are legal.
    pub most_captures: bool,
    /// Effects after each move, in order.
    pub effects: Vec<EffectSpec>,
    /// Whether a player with no legal move passes (a pass is then its only move).
    pub pass: bool,
    /// With `pass`: whether a player may pass on any turn, not only when it has no other
    /// move (Go).
    pub pass_any_time: bool,
    /// Rules every move must satisfy on the position it leaves (`[rules.after]`): `to`,
    /// `from` and `mover` name the move, `player` the mover; `board_repetitions` reads the
    /// game's history. A pass is not judged by them.
    pub after: Vec<NamedRule>,
    /// A removal of an enemy piece of the mover's choice, after the move and its effects
    /// (a mill closed), if the game has one.
    pub removal: Option<RemovalSpec>,
    /// Turns of several moves, if the game has them.
    pub turn: Option<TurnSpec>,
    /// Moves of two pieces at once.
    pub compounds: Vec<CompoundSpec>,
    /// How positions are written in FEN, if they can be.
    pub fen: Option<FenSpec>,
}

/// Where in the spec a problem lies, so that a front end can point at its source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Site {
    /// An enter rule, by index.
    Enter(usize),
    /// A capture rule, by index.
    Capture(usize),
    /// A place rule, by index.
    Place(usize),
    /// A rule of the position after the move, by index.
    After(usize),
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
    /// An effect, by index.
    Effect(usize),
    /// A zone, by index.
    Zone(usize),
    /// A compound move, by index.
    Compound(usize),
    /// The FEN mapping.
    Fen,
    /// The players.
    Players,
    /// The game as a whole.
    Game,
}

/// A problem found while checking or compiling a [`RulesSpec`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct RulesError {
    /// Where.
    pub site: Site,
    /// What, in words. For an expression that cannot be evaluated, one case is named.
    pub message: String,
    /// How many more cases had the same problem at the same site (reported once).
    pub repeats: usize,
    /// What kind of problem it is, as data a program can act on.
    pub problem: Problem,
}

/// What kind of problem a [`RulesError`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A declared limit is passed. `limit` names it as the guide's table of limits and the
    /// code do (`MAX_END_RULES`, `MAX_PATTERNS`, ...); `max` is its value and `found` what the
    /// spec asks for.
    Limit {
        /// The limit's name.
        limit: &'static str,
        /// The most allowed.
        max: usize,
        /// What the spec has.
        found: usize,
    },
    /// An expression that cannot be evaluated in a case the compiler tabulates.
    Evaluation,
    /// Anything else: the message says what.
    Invalid,
}

impl RulesError {
    /// A problem at `site`, said in `message`.
    pub fn new(site: Site, message: impl Into<String>, problem: Problem) -> RulesError {
        RulesError {
            site,
            message: message.into(),
            repeats: 0,
            problem,
        }
    }
}

impl ThenPlace {
    /// A second part placing a piece of `kind`, reached from the landing cell along `dirs`.
    pub fn new(kind: KindId, dirs: [DirSet; PLAYERS]) -> ThenPlace {
        ThenPlace { kind, dirs }
    }
}

impl MoveSpec {
    /// A pattern in the given directions that captures where it may ([`CaptureMode::Any`]),
    /// with no condition, no second part and no ghost.
    pub fn new(text: impl Into<String>, pattern: Pattern, dirs: [DirSet; PLAYERS]) -> MoveSpec {
        MoveSpec {
            text: text.into(),
            pattern,
            dirs,
            mode: CaptureMode::Any,
            condition: None,
            then: None,
            leaves_ghost: false,
            takes_ghost: false,
        }
    }
}

impl KindSpec {
    /// A kind with no attributes, tags or moves, no promotion, an unlimited supply, not
    /// royal, no limit on its pieces.
    pub fn new(name: impl Into<String>, letter: impl Into<String>) -> KindSpec {
        KindSpec {
            name: name.into(),
            letter: letter.into(),
            attrs: Vec::new(),
            tags: Vec::new(),
            moves: Vec::new(),
            promotion: None,
            supply: None,
            royal: false,
            resets_idle: false,
            to_hand: None,
            at_most: None,
            never_in: None,
        }
    }
}

impl EffectSpec {
    /// An effect on every enemy piece, with no hostile cells but the mover's pieces, not
    /// required.
    pub fn new(name: impl Into<String>, kind: EffectKind, dirs: DirSet) -> EffectSpec {
        EffectSpec {
            name: name.into(),
            kind,
            dirs,
            target: None,
            hostile: None,
            required: false,
            run: (1, 1),
        }
    }
}

impl Promotion {
    /// Becoming `to` in `zone`, with no choice, not ending a hop chain.
    pub fn new(to: KindId, zone: usize) -> Promotion {
        Promotion {
            to,
            choices: Vec::new(),
            zone,
            ends_chain: false,
            optional: false,
            on_leaving: false,
            forced: None,
        }
    }

    /// Whether the move itself says whether and into what the piece promotes (a choice of
    /// kinds, an optional promotion, or one on leaving the zone), rather than the table of
    /// arrivals.
    pub fn by_move(&self) -> bool {
        self.choices.len() > 1 || self.optional || self.on_leaving
    }

    /// The kinds the piece may become: the choices, or `to` alone.
    pub fn kinds(&self) -> Vec<KindId> {
        if self.choices.is_empty() {
            vec![self.to]
        } else {
            self.choices.clone()
        }
    }
}

impl CompoundSpec {
    /// A compound move of `mover` with the first `partner` met in `dir`, ending on `mover_to`
    /// and `partner_to` (all by player).
    pub fn new(
        name: impl Into<String>,
        (mover, partner): (KindId, KindId),
        dir: [crate::geometry::Dir; PLAYERS],
        mover_to: [Cell; PLAYERS],
        partner_to: [Cell; PLAYERS],
    ) -> CompoundSpec {
        CompoundSpec {
            name: name.into(),
            mover,
            partner,
            dir,
            mover_to,
            partner_to,
        }
    }
}

impl NamedRule {
    /// A predicate with the name a refused move reports.
    pub fn new(name: impl Into<String>, expr: Expr) -> NamedRule {
        NamedRule {
            name: name.into(),
            expr,
        }
    }
}

impl EndSpec {
    /// An end rule.
    pub fn new(name: impl Into<String>, when: Expr, result: EndResult) -> EndSpec {
        EndSpec {
            name: name.into(),
            when,
            result,
        }
    }
}

impl RulesSpec {
    /// A game on `geometry` between `players` with nothing else: no zones, kinds, rules,
    /// setup, effects or compound moves, no mandatory capture, no passing, no FEN.
    pub fn new(
        name: impl Into<String>,
        geometry: Geometry,
        players: [PlayerSpec; PLAYERS],
    ) -> RulesSpec {
        RulesSpec {
            name: name.into(),
            geometry,
            players,
            zones: Vec::new(),
            attributes: Vec::new(),
            tags: Vec::new(),
            kinds: Vec::new(),
            enter: Vec::new(),
            capture: Vec::new(),
            place: Vec::new(),
            end: Vec::new(),
            setup: Vec::new(),
            must_capture: false,
            most_captures: false,
            effects: Vec::new(),
            pass: false,
            pass_any_time: false,
            after: Vec::new(),
            removal: None,
            turn: None,
            compounds: Vec::new(),
            fen: None,
        }
    }
}
