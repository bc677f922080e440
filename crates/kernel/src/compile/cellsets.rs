//! Conditions on a cell that read the position only through the occupancy of cells at fixed
//! steps from it (`empty(neighbour(cell, s))`: gravity, a piece resting on what is below),
//! compiled to set operations: the cells where the condition holds are computed for the whole
//! board at once with shifted bitboards, instead of evaluating the expression cell by cell.
//!
//! A formula is a cached form of the expression it was compiled from, as a table is: the
//! expression stays in the checks that explain a refusal, and a test compares the two on
//! random positions.

use crate::cell::CellSet;
use crate::expr::{BinOp, Expr, Var};
use crate::facts::Core;
use crate::geometry::Dir;
use crate::piece::{PLAYERS, Piece};
use crate::verdict::StaticEnv;

pub(crate) use crate::formula::{CellFormula, Steps};

/// Compiles a place condition (`piece` placed on `cell`, which is `to`) for each player's
/// piece of a kind, if it has the shape of a formula; `None` otherwise.
pub(crate) fn compile(
    core: &Core,
    e: &Expr,
    pieces: [Piece; PLAYERS],
) -> Option<[CellFormula; PLAYERS]> {
    let one = |p: Piece| formula(core, e, p);
    Some([one(pieces[0])?, one(pieces[1])?])
}

fn formula(core: &Core, e: &Expr, piece: Piece) -> Option<CellFormula> {
    if !e.deps().is_dynamic() {
        let mut set = CellSet::EMPTY;
        for c in core.geometry().cells().iter() {
            let env = crate::verdict::place_env(piece, c);
            if e.test(core, &env as &StaticEnv).ok()? {
                set.insert(c);
            }
        }
        return Some(CellFormula::Fixed(set));
    }
    Some(match e {
        Expr::Empty(c) => CellFormula::Empty(path(c)?),
        Expr::Occupied(c) => CellFormula::Occupied(path(c)?),
        Expr::Not(x) => CellFormula::Not(Box::new(formula(core, x, piece)?)),
        Expr::Bin(BinOp::And, a, b) => CellFormula::And(
            Box::new(formula(core, a, piece)?),
            Box::new(formula(core, b, piece)?),
        ),
        Expr::Bin(BinOp::Or, a, b) => CellFormula::Or(
            Box::new(formula(core, a, piece)?),
            Box::new(formula(core, b, piece)?),
        ),
        _ => return None,
    })
}

/// The steps from the placed cell that `e` names: `cell`, `neighbour(cell, d)`, ...
fn path(e: &Expr) -> Option<Vec<Dir>> {
    match e {
        Expr::Var(Var::To) => Some(Vec::new()),
        Expr::Neighbour(inner, d) => {
            let mut p = path(inner)?;
            p.push(*d);
            Some(p)
        }
        _ => None,
    }
}
