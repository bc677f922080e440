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
use crate::geometry::{Dir, Geometry};
use crate::piece::{PLAYERS, Piece};
use crate::verdict::StaticEnv;

/// A condition on a cell, as set operations over the board's occupancy.
#[derive(Clone, Debug)]
pub(crate) enum CellFormula {
    /// The cells where a condition that does not read the position holds.
    Fixed(CellSet),
    /// The cell reached from the cell by these steps exists and is empty.
    Empty(Vec<Dir>),
    /// The cell reached from the cell by these steps exists and holds a piece.
    Occupied(Vec<Dir>),
    Not(Box<CellFormula>),
    And(Box<CellFormula>, Box<CellFormula>),
    Or(Box<CellFormula>, Box<CellFormula>),
}

/// How to step every cell of a board at once: for each direction, the cells that have a
/// neighbour there, and how far the neighbour's index is.
#[derive(Clone, Debug)]
pub(crate) struct Steps {
    has: [CellSet; 8],
    delta: [i32; 8],
    board: CellSet,
}

impl Steps {
    pub(crate) fn of(g: &Geometry) -> Steps {
        let mut has = [CellSet::EMPTY; 8];
        let mut delta = [0i32; 8];
        for d in Dir::ALL {
            let (dr, dc) = d.delta();
            delta[d as usize] = dr as i32 * g.cols() as i32 + dc as i32;
            for c in g.cells().iter() {
                if g.neighbour(c, d).is_some() {
                    has[d as usize].insert(c);
                }
            }
        }
        Steps {
            has,
            delta,
            board: *g.cells(),
        }
    }

    /// The cells whose neighbour in `d` is in `set`.
    #[inline]
    fn back(&self, set: &CellSet, d: Dir) -> CellSet {
        set.shifted(-self.delta[d as usize])
            .intersection(&self.has[d as usize])
    }

    /// The cells whose neighbour in one of `dirs` is in `set`.
    pub(crate) fn next_to(&self, set: &CellSet, dirs: crate::geometry::DirSet) -> CellSet {
        dirs.iter()
            .fold(CellSet::EMPTY, |acc, d| acc.union(&self.back(set, d)))
    }
}

impl CellFormula {
    /// The cells where the formula holds, given the occupied cells.
    pub(crate) fn eval(&self, steps: &Steps, occupied: &CellSet) -> CellSet {
        match self {
            CellFormula::Fixed(s) => *s,
            CellFormula::Empty(path) | CellFormula::Occupied(path) => {
                let mut set = if matches!(self, CellFormula::Empty(_)) {
                    let mut e = steps.board;
                    e.remove_all(occupied);
                    e
                } else {
                    *occupied
                };
                for d in path.iter().rev() {
                    set = steps.back(&set, *d);
                }
                set
            }
            CellFormula::Not(x) => {
                let mut s = steps.board;
                s.remove_all(&x.eval(steps, occupied));
                s
            }
            CellFormula::And(a, b) => a
                .eval(steps, occupied)
                .intersection(&b.eval(steps, occupied)),
            CellFormula::Or(a, b) => a.eval(steps, occupied).union(&b.eval(steps, occupied)),
        }
    }
}

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
            let env = crate::compile::targets::place_env(piece, c);
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
