//! The one meaning of a list of checks: in order, the first that does not hold refuses, and
//! its [`Reason`] says why.
//!
//! The compiler fills its tables by calling these functions for every case; generation calls
//! them for the checks it evaluates during play; a refused move is explained by calling them
//! on the move. A table bit is therefore a cached verdict of the same function, and an
//! explanation can never disagree with generation.

use crate::cell::Cell;
use crate::expr::{Env, EvalError, Expr, Value, Var};
use crate::facts::Core;
use crate::piece::{Piece, Player};
use crate::reason::Reason;

/// A check: the expression must hold, or the move is refused for the reason.
pub(crate) type Checked = (Reason, Expr);

/// The reason of the first check that does not hold, or `None` when all hold. An evaluation
/// error is returned with the reason of the check that failed to evaluate.
pub(crate) fn first_refusal(
    core: &Core,
    checks: &[Checked],
    env: &dyn Env,
) -> Result<Option<Reason>, (Reason, EvalError)> {
    for (reason, e) in checks {
        match e.test(core, env) {
            Ok(true) => {}
            Ok(false) => return Ok(Some(*reason)),
            Err(err) => return Err((*reason, err)),
        }
    }
    Ok(None)
}

/// [`first_refusal`] during play, where an expression that cannot be evaluated refuses.
pub(crate) fn refusal(core: &Core, checks: &[Checked], env: &dyn Env) -> Option<Reason> {
    match first_refusal(core, checks, env) {
        Ok(r) => r,
        Err((r, _)) => Some(r),
    }
}

/// Bindings of the variables that do not read the position: what the compiler evaluates each
/// case with, and what an explanation re-creates for one move.
#[derive(Default, Clone, Copy)]
pub(crate) struct StaticEnv {
    pub mover: Option<Value>,
    pub target: Option<Value>,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub player: Option<Player>,
    pub cell: Option<Cell>,
    pub occupant: Option<Value>,
    /// The enemy pieces the move just made took (a turn's `again`).
    pub taken: Option<u16>,
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
            Var::Clock
            | Var::Idle
            | Var::Repetitions
            | Var::Passes
            | Var::BoardRepetitions
            | Var::Plies
            | Var::TurnMoves => None,
            Var::Taken => self.taken.map(|n| Value::Int(i64::from(n))),
        }
    }
}

/// The bindings of a place rule: `piece` placed on `cell` by its owner.
pub(crate) fn place_env(piece: Piece, cell: Cell) -> StaticEnv {
    StaticEnv {
        mover: Some(Value::Piece(piece, cell)),
        to: Some(cell),
        player: Some(piece.owner()),
        ..StaticEnv::default()
    }
}

/// The enter check that took the destination `to` of `m` out of the target lists of `piece`
/// on `from`: the compiled list the compiler filtered them with, evaluated for this one case.
pub(crate) fn static_enter_reason(
    rules: &crate::rules::Rules,
    m: &crate::tables::CompiledMove,
    piece: Piece,
    from: Cell,
    to: Cell,
) -> Reason {
    let env = StaticEnv {
        mover: Some(Value::Piece(piece, from)),
        from: Some(from),
        to: Some(to),
        player: Some(piece.owner()),
        ..StaticEnv::default()
    };
    match first_refusal(&rules.core, &m.enter, &env) {
        Ok(Some(r)) | Err((r, _)) => r,
        // Only a destination some check refused is missing from the lists (tested).
        Ok(None) => {
            debug_assert!(false, "a destination left out of the lists by no check");
            Reason::NoPattern
        }
    }
}
