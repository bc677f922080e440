//! The types of the expression language and the scopes an expression is checked in: which
//! variables each place binds and which functions it allows. Its own file because it is the
//! language's vocabulary, read by every section's reader.

use crate::diag::Loc;
use crate::syntax::Span;
use ply_kernel::expr::Var;

/// A type of the expression language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `true` or `false`.
    Bool,
    /// Integers.
    Int,
    /// A player.
    Player,
    /// A piece (possibly none, for `occupant` and `piece_at`).
    Piece,
    /// A cell.
    Cell,
    /// A kind of piece.
    Kind,
}

impl Ty {
    pub(super) fn words(self) -> &'static str {
        match self {
            Ty::Bool => "true or false",
            Ty::Int => "a number",
            Ty::Player => "a player",
            Ty::Piece => "a piece",
            Ty::Cell => "a cell",
            Ty::Kind => "a kind of piece",
        }
    }
}

/// Where an expression's text is, so that spans inside it map to the file.
#[derive(Copy, Clone, Debug)]
pub struct Text {
    /// The whole string value, quotes included.
    pub whole: Loc,
    /// Where the string's characters start in the file, if they map one to one.
    pub base: Option<usize>,
}

impl Text {
    /// The file location of a span inside the text.
    pub fn loc(&self, span: Span) -> Loc {
        match self.base {
            Some(b) => Loc {
                file: self.whole.file,
                start: b + span.start,
                end: b + span.end.max(span.start),
            },
            None => self.whole,
        }
    }
}

/// The variables and functions available where an expression is used.
#[derive(Clone, Debug)]
pub struct Scope {
    /// What the expression is, for messages ("a capture rule").
    pub what: &'static str,
    /// `(name, variable, type)`.
    pub vars: &'static [(&'static str, Var, Ty)],
    /// Whether `no_moves(...)` may be used.
    pub moves: bool,
    /// Whether `placed(...)` may be used.
    pub placed: bool,
}

const PL: (&str, Var, Ty) = ("player", Var::Player, Ty::Player);
const TURN: (&str, Var, Ty) = ("turn_moves", Var::TurnMoves, Ty::Int);
const OPP: (&str, Var, Ty) = ("opponent", Var::Opponent, Ty::Player);

/// Enter rules and a pattern's `when`.
pub const ENTER: Scope = Scope {
    what: "an enter rule",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// Capture rules and a hop's `over`.
pub const CAPTURE: Scope = Scope {
    what: "a capture rule",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// Place rules.
pub const PLACE: Scope = Scope {
    what: "a place rule",
    vars: &[
        ("piece", Var::Mover, Ty::Piece),
        ("cell", Var::To, Ty::Cell),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: true,
};

/// A jump's `unless`.
pub const BLOCK: Scope = Scope {
    what: "a jump's `unless` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        ("occupant", Var::Occupant, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// End conditions.
pub const END: Scope = Scope {
    what: "an end condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        ("clock", Var::Clock, Ty::Int),
        ("idle", Var::Idle, Ty::Int),
        ("repetitions", Var::Repetitions, Ty::Int),
        ("passes", Var::Passes, Ty::Int),
        ("board_repetitions", Var::BoardRepetitions, Ty::Int),
        ("plies", Var::Plies, Ty::Int),
        TURN,
        PL,
        OPP,
    ],
    moves: true,
    placed: false,
};

/// Rules of the position after a move (`[rules.after]`): read on the position the move
/// leaves, effects and captures done.
pub const AFTER: Scope = Scope {
    what: "a rule of the position after the move",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        ("board_repetitions", Var::BoardRepetitions, Ty::Int),
        ("plies", Var::Plies, Ty::Int),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// A removal's condition (`[effects.E] remove`): read on the position the move leaves,
/// effects done.
pub const REMOVE: Scope = Scope {
    what: "a removal's condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// A removal's `prefer`: which enemy pieces (`target`) are removed first, read on the
/// position the move leaves.
pub const PREFER: Scope = Scope {
    what: "a removal's `prefer`",
    vars: &[
        ("target", Var::Target, Ty::Piece),
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// A turn's `again` (`[turn]`): read on the position the move leaves.
pub const AGAIN: Scope = Scope {
    what: "a turn's `again`",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        ("taken", Var::Taken, Ty::Int),
        ("plies", Var::Plies, Ty::Int),
        TURN,
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// A slide's `until`.
pub const UNTIL: Scope = Scope {
    what: "a slide's `until` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An effect's `target`.
pub const EFFECT_TARGET: Scope = Scope {
    what: "an effect's `target` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An effect's `hostile`.
pub const HOSTILE: Scope = Scope {
    what: "an effect's `hostile` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        ("occupant", Var::Occupant, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An end rule's winner.
pub const WINNER: Scope = Scope {
    what: "a winner",
    vars: &[PL, OPP],
    moves: false,
    placed: false,
};

/// Constants (a chain's condition).
pub const CONSTANT: Scope = Scope {
    what: "a constant",
    vars: &[],
    moves: false,
    placed: false,
};

pub(super) const ALL_SCOPES: [&Scope; 11] = [
    &ENTER,
    &CAPTURE,
    &PLACE,
    &BLOCK,
    &END,
    &WINNER,
    &CONSTANT,
    &UNTIL,
    &EFFECT_TARGET,
    &HOSTILE,
    &AGAIN,
];
