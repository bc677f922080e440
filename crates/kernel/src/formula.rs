//! Cell formulas: conditions on a cell that read the position only through the occupancy of
//! cells at fixed steps from it, as set operations over the whole board (see
//! `compile/cellsets.rs`, which compiles them). Play evaluates them for every cell at once.

use crate::cell::CellSet;
use crate::geometry::{Dir, Geometry};

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
    /// The words of a cell set the board uses.
    words: usize,
    /// On a board with links across holes, where a neighbour is not at a fixed index offset:
    /// the board itself, stepped cell by cell.
    linked: Option<Geometry>,
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
            words: g.len().div_ceil(64),
            linked: g.has_links().then(|| g.clone()),
        }
    }

    /// The cells whose neighbour in `d` is in `set`.
    #[inline]
    fn back(&self, set: &CellSet, d: Dir) -> CellSet {
        if let Some(g) = &self.linked {
            let mut out = CellSet::EMPTY;
            for c in self.has[d as usize].iter() {
                if g.neighbour(c, d).is_some_and(|n| set.contains(n)) {
                    out.insert(c);
                }
            }
            return out;
        }
        set.shifted_within(-self.delta[d as usize], &self.has[d as usize], self.words)
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
