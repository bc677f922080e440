//! Why a move is refused, as typed data: the names of rules and patterns are ids into the
//! compiled [`crate::Rules`], which turn them back into words ([`crate::MoveError`] renders
//! them).
//!
//! A reason is decided by the same compiled checks that generation runs: the compiler records,
//! with every predicate it tabulates, the reason a `false` stands for, and a refused move is
//! explained by running those checks on it (see `position/probe.rs`).

use crate::cell::Cell;

/// The section of the rules a named rule belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// Rules every move's destination must satisfy (`[rules.enter]`).
    Enter,
    /// Rules every capture must satisfy (`[rules.capture]`).
    Capture,
    /// Rules every placement must satisfy (`[rules.place]`).
    Place,
    /// End rules (`[end]`).
    End,
    /// Rules every move must satisfy on the position it leaves (`[rules.after]`).
    After,
}

impl Section {
    /// Where the section's rules are kept in [`crate::Rules`].
    pub(crate) const fn slot(self) -> usize {
        match self {
            Section::Enter => 0,
            Section::Capture => 1,
            Section::Place => 2,
            Section::End => 3,
            Section::After => 4,
        }
    }
}

/// A named rule of a game: its section and its place there. [`crate::Rules::rule_name`] gives
/// its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleId {
    section: Section,
    index: u16,
}

impl RuleId {
    pub(crate) const fn new(section: Section, index: usize) -> RuleId {
        RuleId {
            section,
            index: index as u16,
        }
    }

    /// The section.
    pub const fn section(self) -> Section {
        self.section
    }

    /// The rule's place in its section, in the order the rules are declared.
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

/// A move pattern of a game (one entry of a kind's `moves`), as numbered by
/// [`crate::Move::pattern`]. [`crate::Rules::pattern_text`] gives it as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PatternId(pub(crate) u8);

impl PatternId {
    /// The pattern's number.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The rule or the fact that refuses a move of a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// No move pattern of the piece's kind goes there.
    NoPattern,
    /// A piece of the mover's own side is on the destination.
    OwnPiece,
    /// The destination must be empty for this pattern (a hop's landing, a quiet move).
    NotEmpty(PatternId),
    /// The pattern moves only to capture, and the destination is empty.
    OnlyCaptures(PatternId),
    /// A hop needs an enemy piece on the cell it hops over.
    NothingToHop(PatternId),
    /// A named enter rule does not hold.
    Enter(RuleId),
    /// A named capture rule does not hold.
    Capture(RuleId),
    /// The pattern's own condition (`when ...`, or a hop's `over ...`) does not hold.
    Condition(PatternId),
    /// A jump's `unless` condition holds on a jumped cell.
    Blocked(PatternId, Cell),
    /// The hop chain cannot go on as written from this cell.
    Chain(Cell),
    /// The hop chain stops on this cell, where another hop is possible, and chains of this
    /// pattern must go on while they can.
    Incomplete(Cell),
    /// Capturing is mandatory and another move captures.
    MustCapture,
    /// A player must take as many pieces as it can, and another capture takes this many.
    TakesFewer(u8),
    /// A named place rule does not hold.
    Place(RuleId),
    /// A slide over a screen captures only by passing exactly one piece on the way, and a
    /// quiet slide passes none.
    Screen(PatternId),
    /// The effect (by its place among the game's effects) must change a piece, and this move
    /// changes none.
    NoEffect(u8),
    /// The player has no piece of this kind left to place.
    NoSupply(PatternId),
    /// The second part of the turn cannot go to this cell.
    Second(PatternId, Cell),
    /// After this move the mover may not remove the piece on this cell (or there is none):
    /// a removal of its choice (`remove`) allows others, or none.
    Removal(Cell),
    /// The move would leave the mover's royal piece attacked.
    Exposed,
    /// The compound move (by its pattern) cannot be made here: a piece has moved, a cell
    /// between is occupied, or the royal mover would pass an attacked cell.
    Compound(PatternId),
    /// A named rule of the position after the move (`[rules.after]`) does not hold there.
    After(RuleId),
}

impl Reason {
    /// The named rule behind the refusal, if it is one.
    pub const fn rule(&self) -> Option<RuleId> {
        match self {
            Reason::Enter(r) | Reason::Capture(r) | Reason::Place(r) | Reason::After(r) => Some(*r),
            _ => None,
        }
    }
}
