#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

// The facade: what an embedder needs, by name. The crates behind it (`ply-kernel`,
// `ply-lang`) keep their own internals to themselves.

pub use ply_kernel::{
    Cell, CellName, CellSet, Core, Dir, DirSet, Game, Geometry, KindId, MAX_EXPR_DEPTH, MAX_HOPS,
    MAX_MOVES, Move, MoveError, MoveErrorKind, MoveLimit, MoveList, NotationError,
    NotationErrorKind, Outcome, PatternId, Piece, PlaceError, PlaceErrorKind, Player, Playout,
    Position, PositionError, PositionErrorKind, Reason, Rng, RuleId, Rules, Section, Status, Undo,
    move_text, parse_path,
};
pub use ply_lang::{
    Diagnostic, LoadError, Loc, OptionArg, OptionInfo, OptionValue, Options, Pack, Severity,
    Sources, load, load_str, load_str_with, load_with,
};

/// For front ends other than the rules language: the unchecked description of a game that
/// [`Rules::new`] checks and compiles, and the expressions its rules are written in.
pub mod spec {
    pub use ply_kernel::expr::{BinOp, Deps, Env, EvalError, Expr, Value, Var};
    pub use ply_kernel::spec::*;
}
