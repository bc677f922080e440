//! Groups of pieces: the connectivity that `groups`, `connected`, `liberties` and `area`
//! read.
//!
//! A group is a set of pieces of one owner in which any two are joined by a chain of steps in
//! the given directions from piece to piece of that owner. Connection games ask whether a
//! group joins two zones (Hex), a player's pieces form one group (Lines of Action), or how many
//! empty cells touch a group (Go's liberties). One flood fill answers all three; it works on
//! [`CellSet`]s, so it allocates nothing and may run during move generation.

use crate::cell::{Cell, CellSet};
use crate::expr::EvalError;
use crate::geometry::{DirSet, Geometry};
use crate::piece::{Piece, Player};

/// The cells reachable from `seeds` through steps in `dirs` onto cells for which `member`
/// holds (the seeds included, whether or not they are members).
pub(crate) fn flood(
    g: &Geometry,
    seeds: CellSet,
    dirs: DirSet,
    mut member: impl FnMut(Cell) -> Result<bool, EvalError>,
) -> Result<CellSet, EvalError> {
    let mut seen = seeds;
    let mut todo = seeds;
    while let Some(c) = todo.iter().next() {
        todo.remove(c);
        for d in dirs.iter() {
            if let Some(n) = g.neighbour(c, d)
                && !seen.contains(n)
                && member(n)?
            {
                seen.insert(n);
                todo.insert(n);
            }
        }
    }
    Ok(seen)
}

/// How many groups the pieces on `mine` (one player's) form, joined through `dirs`: 0 with
/// no piece, 1 when they are all connected.
pub(crate) fn groups(g: &Geometry, mine: CellSet, dirs: DirSet) -> Result<i64, EvalError> {
    let mut left = mine;
    let mut n = 0;
    while let Some(c) = left.iter().next() {
        let mut seed = CellSet::EMPTY;
        seed.insert(c);
        let group = flood(g, seed, dirs, |x| Ok(left.contains(x)))?;
        left.remove_all(&group);
        n += 1;
    }
    Ok(n)
}

/// Whether one group of the pieces on `mine` (one player's), joined through `dirs`, holds a
/// cell of `a` and a cell of `b`.
pub(crate) fn connected(
    g: &Geometry,
    mine: CellSet,
    (a, b): (CellSet, CellSet),
    dirs: DirSet,
) -> Result<bool, EvalError> {
    let seeds = a.intersection(&mine);
    let ends = b.intersection(&mine);
    if seeds.is_empty() || ends.is_empty() {
        return Ok(false);
    }
    let reached = flood(g, seeds, dirs, |x| Ok(mine.contains(x)))?;
    Ok(!reached.intersection(&ends).is_empty())
}

/// The empty cells next (through `dirs`) to the group of the piece on `c`: 0 on an empty cell.
pub(crate) fn liberties(
    g: &Geometry,
    at: &dyn Fn(Cell) -> Result<Option<Piece>, EvalError>,
    c: Cell,
    dirs: DirSet,
) -> Result<i64, EvalError> {
    let Some(p) = at(c)? else {
        return Ok(0);
    };
    let mut seed = CellSet::EMPTY;
    seed.insert(c);
    let group = flood(g, seed, dirs, |x| {
        Ok(at(x)?.is_some_and(|q| q.owner() == p.owner()))
    })?;
    let mut free = CellSet::EMPTY;
    for x in group.iter() {
        for d in dirs.iter() {
            if let Some(n) = g.neighbour(x, d)
                && at(n)?.is_none()
            {
                free.insert(n);
            }
        }
    }
    Ok(free.len() as i64)
}

/// The area of `mine` against `theirs` (the two players' cells), as area scoring counts it
/// (Tromp-Taylor): the cells of `mine`, and every empty cell from which steps through `dirs`
/// over empty cells reach a piece of `mine` and none of `theirs`.
pub(crate) fn area(
    g: &Geometry,
    mine: CellSet,
    theirs: CellSet,
    dirs: DirSet,
) -> Result<i64, EvalError> {
    let mut empty = *g.cells();
    empty.remove_all(&mine);
    empty.remove_all(&theirs);
    let mut n = mine.len() as i64;
    while let Some(c) = empty.iter().next() {
        let mut seed = CellSet::EMPTY;
        seed.insert(c);
        let region = flood(g, seed, dirs, |x| Ok(empty.contains(x)))?;
        empty.remove_all(&region);
        let (mut reaches_mine, mut reaches_theirs) = (false, false);
        for x in region.iter() {
            for d in dirs.iter() {
                if let Some(y) = g.neighbour(x, d) {
                    reaches_mine |= mine.contains(y);
                    reaches_theirs |= theirs.contains(y);
                }
            }
        }
        if reaches_mine && !reaches_theirs {
            n += region.len() as i64;
        }
    }
    Ok(n)
}

/// How many cells next to `c` through `dirs` hold a piece of `player`.
pub(crate) fn adjacent(
    g: &Geometry,
    at: &dyn Fn(Cell) -> Result<Option<Piece>, EvalError>,
    c: Cell,
    dirs: DirSet,
    player: Player,
) -> Result<i64, EvalError> {
    let mut n = 0;
    for d in dirs.iter() {
        if let Some(x) = g.neighbour(c, d)
            && at(x)?.is_some_and(|p| p.owner() == player)
        {
            n += 1;
        }
    }
    Ok(n)
}

/// How many pieces of `player` (of `kind`, if given) stand on the cells met walking from `c`
/// in each of the directions to the edge of the board, `c` itself not counted.
pub(crate) fn along(
    g: &Geometry,
    at: &dyn Fn(Cell) -> Result<Option<Piece>, EvalError>,
    c: Cell,
    dirs: DirSet,
    player: Player,
    kind: Option<crate::piece::KindId>,
) -> Result<i64, EvalError> {
    let mut n = 0;
    for d in dirs.iter() {
        let mut cur = c;
        while let Some(next) = g.neighbour(cur, d) {
            if at(next)?.is_some_and(|p| p.owner() == player && kind.is_none_or(|k| p.kind() == k))
            {
                n += 1;
            }
            cur = next;
        }
    }
    Ok(n)
}

/// The number of pieces on the whole line (row, column or diagonal) through `a` and `b`, or 0
/// when they are the same cell or share no line.
pub(crate) fn on_line(
    g: &Geometry,
    at: &dyn Fn(Cell) -> Result<Option<Piece>, EvalError>,
    a: Cell,
    b: Cell,
) -> Result<i64, EvalError> {
    let (dr, dc) = (
        g.row(b) as i64 - g.row(a) as i64,
        g.col(b) as i64 - g.col(a) as i64,
    );
    if (dr, dc) == (0, 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
        return Ok(0);
    }
    let step = (dr.signum(), dc.signum());
    let Some(d) = crate::geometry::Dir::ALL
        .into_iter()
        .find(|d| (i64::from(d.delta().0), i64::from(d.delta().1)) == step)
    else {
        return Ok(0);
    };
    let mut n = i64::from(at(a)?.is_some());
    for d in [d, d.opposite()] {
        let mut cur = a;
        while let Some(next) = g.neighbour(cur, d) {
            n += i64::from(at(next)?.is_some());
            cur = next;
        }
    }
    Ok(n)
}

/// The king's distance between two cells: the larger of the row and column differences.
pub(crate) fn distance(g: &Geometry, a: Cell, b: Cell) -> i64 {
    let dr = g.row(a).abs_diff(g.row(b));
    let dc = g.col(a).abs_diff(g.col(b));
    dr.max(dc) as i64
}
