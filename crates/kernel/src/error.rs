//! The errors of play: a refused move ([`MoveError`]) and a refused placement ([`PlaceError`]).
//!
//! Errors are typed data (the path, the player, the piece, the [`Reason`] with its rule id);
//! they carry the rules they were found under, so that `Display` can name every one of them in
//! the game's own words without the caller passing anything.

use crate::cell::Cell;
use crate::limits::MoveLimit;
use crate::piece::{KindId, Piece, Player};
use crate::reason::{Reason, RuleId};
use crate::rules::Rules;
use crate::status::Outcome;
use std::fmt;
use std::sync::Arc;

/// What is wrong with a move (see [`MoveError`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveErrorKind {
    /// Nothing may move once the game is over.
    GameOver(Outcome),
    /// A player other than the side to move tried to move.
    NotYourTurn {
        /// The side to move.
        to_move: Player,
        /// Who tried.
        player: Player,
    },
    /// The path has fewer than two cells, or a cell that is not on the board.
    BadPath,
    /// The origin holds no piece.
    NoPiece(Cell),
    /// The piece on the origin belongs to the side not to move.
    NotYours {
        /// The origin.
        cell: Cell,
        /// The piece's owner.
        owner: Player,
    },
    /// The piece cannot go that way: the reason names the rule.
    Illegal {
        /// The piece.
        piece: Piece,
        /// Why.
        reason: Reason,
    },
    /// Two legal hop chains have these endpoints: the whole path is needed.
    Ambiguous {
        /// The piece.
        piece: Piece,
    },
    /// The piece promotes here and the player must say into what (`e7-e8=Q`).
    ChoiceNeeded {
        /// The piece.
        piece: Piece,
        /// The first kind it may become.
        first: KindId,
    },
    /// The move ends with a removal of the mover's choice, and the text names none
    /// (`d2-d3/xg7`).
    RemovalNeeded {
        /// A cell the mover may remove the piece of.
        first: Cell,
    },
    /// Several kinds may be placed on this cell and the player must say which (`D@c3`).
    KindNeeded {
        /// The first kind that may be placed there.
        first: KindId,
    },
    /// The position's moves go past the kernel's limits.
    Limit(MoveLimit),
    /// A pass, where the rules have no passing, or the player has a move.
    CannotPass,
    /// A placement on this cell refused: the piece that would be placed, and why.
    CannotPlace {
        /// The piece.
        piece: Piece,
        /// Why.
        reason: Reason,
    },
}

/// A refused move: what is wrong, the path as given, and the rules it was judged by. Refusing
/// a move changes nothing.
#[derive(Clone)]
pub struct MoveError {
    kind: MoveErrorKind,
    path: Vec<Cell>,
    rules: Arc<Rules>,
}

impl MoveError {
    pub(crate) fn new(kind: MoveErrorKind, path: &[Cell], rules: &Arc<Rules>) -> MoveError {
        MoveError {
            kind,
            path: path.to_vec(),
            rules: rules.clone(),
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> MoveErrorKind {
        self.kind
    }

    /// The path of cells, as given.
    pub fn path(&self) -> &[Cell] {
        &self.path
    }

    /// The reason, when the piece could not go that way or could not be placed there.
    pub fn reason(&self) -> Option<Reason> {
        match self.kind {
            MoveErrorKind::Illegal { reason, .. } | MoveErrorKind::CannotPlace { reason, .. } => {
                Some(reason)
            }
            _ => None,
        }
    }

    /// The name of the rule that refused the move, when a named rule did.
    pub fn rule_name(&self) -> Option<&str> {
        self.reason()
            .and_then(|r| r.rule())
            .map(|id| self.rules.rule_name(id))
    }

    /// The path in notation, with `-` between cells.
    fn path_text(&self) -> String {
        let g = self.rules.geometry();
        let names = |cells: &[Cell]| {
            cells
                .iter()
                .map(|c| g.name(*c).to_string())
                .collect::<Vec<_>>()
                .join("-")
        };
        // A refused removal is written as the move was: its cell after `/x`.
        match (&self.kind, self.path.split_last()) {
            (
                MoveErrorKind::Illegal {
                    reason: Reason::Removal(_),
                    ..
                }
                | MoveErrorKind::CannotPlace {
                    reason: Reason::Removal(_),
                    ..
                },
                Some((last, rest)),
            ) => format!("{}/x{}", names(rest), g.name(*last)),
            _ => names(&self.path),
        }
    }
}

impl PartialEq for MoveError {
    fn eq(&self, other: &MoveError) -> bool {
        self.kind == other.kind && self.path == other.path
    }
}

impl Eq for MoveError {}

impl fmt::Debug for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveError")
            .field("kind", &self.kind)
            .field("path", &self.path)
            .field("message", &self.to_string())
            .finish()
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = &self.rules;
        let g = rules.geometry();
        match self.kind {
            MoveErrorKind::GameOver(Outcome::Win(p)) => {
                write!(f, "the game is over: {} has won", rules.player_name(p))
            }
            MoveErrorKind::GameOver(Outcome::Draw) => write!(f, "the game is over: a draw"),
            MoveErrorKind::NotYourTurn { to_move, player } => write!(
                f,
                "it is {}'s turn, not {}'s",
                rules.player_name(to_move),
                rules.player_name(player)
            ),
            MoveErrorKind::BadPath => write!(
                f,
                "`{}` is not a path: a move needs at least two cells of the board",
                self.path_text()
            ),
            MoveErrorKind::CannotPass => {
                if rules.passes() {
                    write!(f, "a player may pass only when it has no other move")
                } else {
                    write!(f, "this game has no passing")
                }
            }
            MoveErrorKind::CannotPlace { piece, reason } => write!(
                f,
                "{} cannot be placed on {}: {}",
                rules.code(piece),
                self.path_text(),
                reason.describe(rules)
            ),
            MoveErrorKind::NoPiece(cell) => write!(f, "there is no piece on {}", g.name(cell)),
            MoveErrorKind::NotYours { cell, owner } => write!(
                f,
                "the piece on {} belongs to {}, who is not to move",
                g.name(cell),
                rules.player_name(owner)
            ),
            MoveErrorKind::Illegal { piece, reason } => {
                let why = match reason {
                    Reason::NoPattern => {
                        format!("no move of {} goes there", rules.kind_name(piece.kind()))
                    }
                    _ => reason.describe(rules),
                };
                write!(
                    f,
                    "{} cannot go {}: {why}",
                    rules.code(piece),
                    self.path_text()
                )
            }
            MoveErrorKind::ChoiceNeeded { first, .. } => write!(
                f,
                "{} promotes: say into what, with `=` and a kind's letter, as in `{}={}`",
                self.path_text(),
                self.path_text(),
                rules.core().kind_letter(first)
            ),
            MoveErrorKind::KindNeeded { first } => write!(
                f,
                "several kinds may be placed on {}: say which, with a kind's letter and `@`, as in `{}@{}`",
                self.path_text(),
                rules.core().kind_letter(first),
                self.path_text()
            ),
            MoveErrorKind::RemovalNeeded { first } => write!(
                f,
                "{} lets the mover remove an enemy piece: say which, after `/x`, as in `{}/x{}`",
                self.path_text(),
                self.path_text(),
                rules.geometry().name(first)
            ),
            MoveErrorKind::Ambiguous { .. } => write!(
                f,
                "{} is ambiguous: give the whole path of the hop chain",
                self.path_text()
            ),
            MoveErrorKind::Limit(l) => write!(f, "{l}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Reason {
    /// The reason in words, naming rules and patterns as the game writes them.
    pub fn describe(&self, rules: &Rules) -> String {
        let g = rules.geometry();
        let pattern = |p: crate::PatternId| rules.pattern_text(p.index()).to_string();
        match *self {
            Reason::NoPattern => "no move of its kind goes there".to_string(),
            Reason::OwnPiece => "a piece of its own side is there".to_string(),
            Reason::NotEmpty(p) => format!("`{}` needs an empty destination", pattern(p)),
            Reason::OnlyCaptures(p) => format!("`{}` moves only to capture", pattern(p)),
            Reason::NothingToHop(p) => {
                format!("`{}` needs an enemy piece to hop over", pattern(p))
            }
            Reason::Enter(r) => format!("rule `{}` forbids entering that cell", rules.rule_name(r)),
            Reason::Capture(r) => {
                format!("capture rule `{}` forbids the capture", rules.rule_name(r))
            }
            Reason::Condition(p) => format!("the condition of `{}` does not hold", pattern(p)),
            Reason::Blocked(p, cell) => {
                format!("the jump is blocked on {} (`{}`)", g.name(cell), pattern(p))
            }
            Reason::Chain(cell) => format!("the hop chain cannot go on from {}", g.name(cell)),
            Reason::Incomplete(cell) => format!(
                "the chain must go on: another hop is possible from {}",
                g.name(cell)
            ),
            Reason::MustCapture => "a capture is possible, and capturing is mandatory".to_string(),
            Reason::TakesFewer(n) => format!(
                "another capture takes {n} pieces, and a player must take as many as it can"
            ),
            Reason::Place(r) => {
                format!("place rule `{}` forbids placing there", rules.rule_name(r))
            }
            Reason::Screen(p) => format!(
                "`{}` captures by passing exactly one piece on the way, and moves quietly past none",
                pattern(p)
            ),
            Reason::NoEffect(e) => format!(
                "effect `{}` must change at least one piece, and this move changes none",
                rules.effect_name(e as usize)
            ),
            Reason::NoSupply(p) => format!("no piece is left in hand for `{}`", pattern(p)),
            Reason::Exposed => "it would leave the mover's royal piece attacked".to_string(),
            Reason::After(r) => format!(
                "rule `{}` does not hold on the position the move would leave",
                rules.rule_name(r)
            ),
            Reason::Compound(p) => format!(
                "`{}` needs both pieces unmoved, the cells between them and their destinations empty, and the royal mover not attacked where it starts, passes or lands",
                pattern(p)
            ),
            Reason::Removal(cell) => format!(
                "after this move the mover may not remove a piece on {}",
                g.name(cell)
            ),
            Reason::Second(p, cell) => format!(
                "the second part of `{}` cannot reach {}",
                pattern(p),
                g.name(cell)
            ),
        }
    }
}

/// What is wrong with a placement (see [`PlaceError`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlaceErrorKind {
    /// The cell is not on the board.
    OffBoard(Cell),
    /// The cell holds a piece.
    Occupied(Cell),
    /// A place rule does not hold.
    Forbidden(RuleId),
    /// The game has no such kind of piece.
    NoSuchKind(KindId),
    /// The player already has as many pieces of the kind as it allows (`at_most`).
    TooMany(Piece),
    /// The cell is in the zone where the kind may never stand (`never_in`).
    NeverIn(Piece, Cell),
}

/// A refused placement. Refusing a placement changes nothing.
#[derive(Clone)]
pub struct PlaceError {
    kind: PlaceErrorKind,
    rules: Arc<Rules>,
}

impl PlaceError {
    pub(crate) fn new(kind: PlaceErrorKind, rules: &Arc<Rules>) -> PlaceError {
        PlaceError {
            kind,
            rules: rules.clone(),
        }
    }

    /// What is wrong.
    pub fn kind(&self) -> PlaceErrorKind {
        self.kind
    }

    /// The name of the place rule that refused the placement, if one did.
    pub fn rule_name(&self) -> Option<&str> {
        match self.kind {
            PlaceErrorKind::Forbidden(r) => Some(self.rules.rule_name(r)),
            _ => None,
        }
    }
}

impl PartialEq for PlaceError {
    fn eq(&self, other: &PlaceError) -> bool {
        self.kind == other.kind
    }
}

impl Eq for PlaceError {}

impl fmt::Debug for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlaceError")
            .field("kind", &self.kind)
            .field("message", &self.to_string())
            .finish()
    }
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.rules.geometry();
        match self.kind {
            PlaceErrorKind::OffBoard(_) => write!(f, "the cell is not on the board"),
            PlaceErrorKind::Occupied(c) => write!(f, "{} is already occupied", g.name(c)),
            PlaceErrorKind::Forbidden(r) => {
                write!(f, "place rule `{}` forbids it", self.rules.rule_name(r))
            }
            PlaceErrorKind::NoSuchKind(k) => {
                write!(f, "the game has no kind of piece number {}", k.index())
            }
            PlaceErrorKind::TooMany(p) | PlaceErrorKind::NeverIn(p, _) => {
                let (cell, count) = match self.kind {
                    PlaceErrorKind::NeverIn(_, c) => (c, 0),
                    _ => (Cell(0), usize::MAX),
                };
                match self.rules.core().may_stand(p, cell, count) {
                    Err(e) => write!(f, "{e}"),
                    Ok(()) => write!(f, "{} may not stand there", self.rules.code(p)),
                }
            }
        }
    }
}

impl std::error::Error for PlaceError {}
