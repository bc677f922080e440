#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

// The facade: what an embedder needs, by name. The crates behind it (`ply-kernel`,
// `ply-lang`, `ply-search`) keep their own internals to themselves.

pub use ply_kernel::{
    Cell, CellName, CellSet, Core, Dir, DirSet, EndReason, Game, Geometry, KindId, MAX_EXPR_DEPTH,
    MAX_HOPS, MAX_MOVES, Move, MoveError, MoveErrorKind, MoveLimit, MoveList, NotationError,
    NotationErrorKind, Outcome, PatternId, Piece, PlaceError, PlaceErrorKind, Player, Playout,
    Position, PositionError, PositionErrorKind, Reason, Rng, RuleId, Rules, Section, Status, Undo,
    move_text, parse_path,
};
pub use ply_lang::{
    Diagnostic, Evaluation, LoadError, Loc, OptionArg, OptionInfo, OptionValue, Options, Pack,
    Severity, Sources, load, load_str, load_str_with, load_with,
};
pub use ply_search::{
    AlphaBeta, AlphaBetaConfig, Choice, Engine, EngineKind, EngineSpec, Evaluator, Limits, Mcts,
    MctsConfig, Score, SearchError, SpecError, Stop, Weights,
};

/// The engines and their parts, whole (`ply::search::alphabeta::...`), for what the names
/// above leave out.
pub mod search {
    pub use ply_search::*;
}

/// The evaluation a pack declares in `[eval]` (material, bonuses by cell, mobility), as an
/// [`Evaluator`] for an [`Engine`]; material by piece count when the pack declares none. It is
/// what `ply play --vs alphabeta` uses.
pub fn evaluation(pack: &Pack) -> std::sync::Arc<dyn Evaluator> {
    match &pack.eval {
        None => std::sync::Arc::new(Weights::material(&pack.rules)),
        Some(e) => std::sync::Arc::new(Weights::from_fn(
            &pack.rules,
            |p| e.material[p.code()] as i32,
            |p, c| (e.value(p, c) - e.material[p.code()]) as i32,
            e.mobility as i32,
        )),
    }
}

/// For front ends other than the rules language: the unchecked description of a game that
/// [`Rules::new`] checks and compiles, and the expressions its rules are written in.
pub mod spec {
    pub use ply_kernel::expr::{BinOp, Deps, Env, EvalError, Expr, Value, Var};
    pub use ply_kernel::spec::*;
}
