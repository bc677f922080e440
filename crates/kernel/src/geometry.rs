//! Board geometry: size, which cells exist, the eight compass directions and the neighbour
//! table, and the human cell notation.
//!
//! Human notation names columns `a`, `b`, ... `z`, then `aa`, `ab`, ... (as spreadsheets do)
//! from the left and rows `1`, `2`, ... from the **bottom**, as on a chess board; the kernel's own coordinates are `(row, col)` with row 0 at
//! the top, as in the problem statements. Both are offered because designers think in the
//! first and programs in the second.

use crate::cell::{Cell, CellSet, MAX_COLS, MAX_ROWS};
use std::fmt;

/// One of the eight compass directions. North is towards row 0 (the top).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Dir {
    /// Towards row 0.
    N = 0,
    /// Up and right.
    NE = 1,
    /// Towards the last column.
    E = 2,
    /// Down and right.
    SE = 3,
    /// Towards the last row.
    S = 4,
    /// Down and left.
    SW = 5,
    /// Towards column 0.
    W = 6,
    /// Up and left.
    NW = 7,
}

impl Dir {
    /// All eight directions, clockwise from north.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The `(row, col)` offset of one step in this direction.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (-1, 0),
            Dir::NE => (-1, 1),
            Dir::E => (0, 1),
            Dir::SE => (1, 1),
            Dir::S => (1, 0),
            Dir::SW => (1, -1),
            Dir::W => (0, -1),
            Dir::NW => (-1, -1),
        }
    }

    /// The direction turned clockwise by `eighths` eighths of a turn.
    pub const fn rotate(self, eighths: u8) -> Dir {
        Dir::ALL[((self as u8 + eighths) & 7) as usize]
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        self.rotate(4)
    }

    /// The direction with this index (`0..8`, clockwise from north).
    pub const fn from_index(i: u8) -> Dir {
        Dir::ALL[(i & 7) as usize]
    }
}

/// A set of directions, as a bit mask over [`Dir`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct DirSet(pub u8);

impl DirSet {
    /// Whether `dir` is in the set.
    pub const fn contains(self, dir: Dir) -> bool {
        self.0 & (1 << dir as u8) != 0
    }

    /// The set with `dir` added.
    #[must_use]
    pub const fn with(self, dir: Dir) -> DirSet {
        DirSet(self.0 | (1 << dir as u8))
    }

    /// The directions of the set, clockwise from north.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

/// The value in a neighbour table meaning "no cell there".
pub const NO_CELL: u16 = u16::MAX;

/// The shape of a board: its size and which of its cells exist.
///
/// Cells outside `on_board` (for boards that are not rectangles) can hold no piece and have no
/// neighbours; they still have an index, so that rows keep their width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    rows: u8,
    cols: u8,
    on_board: CellSet,
    /// `neighbours[cell * 8 + dir]`: the adjacent cell, or [`NO_CELL`].
    neighbours: Vec<u16>,
    /// Some neighbour is not the next cell of the grid: a link across holes
    /// ([`Geometry::linked`]).
    links: bool,
}

/// A board size or shape that cannot be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// Rows or columns out of range.
    #[error(
        "a board must have 1 to {MAX_ROWS} rows and 1 to {MAX_COLS} columns, not {rows}x{cols}"
    )]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A link between two cells that no compass direction joins.
    #[error("{a} and {b} are not on one row, column or diagonal")]
    LinkAskew {
        /// One end.
        a: CellName,
        /// The other.
        b: CellName,
    },
    /// A link whose end is not a cell of the board, or that joins a cell to itself.
    #[error("a link joins two different cells of the board, not {a} and {b}")]
    LinkEnd {
        /// One end.
        a: CellName,
        /// The other.
        b: CellName,
    },
    /// A link that passes over a cell of the board.
    #[error("the link {a}-{b} passes over {over}, a cell of the board: a link crosses holes only")]
    LinkOver {
        /// One end.
        a: CellName,
        /// The other.
        b: CellName,
        /// The cell passed over.
        over: CellName,
    },
}

impl Geometry {
    /// A rectangular board of `rows` x `cols` cells, all of them on the board.
    pub fn new(rows: usize, cols: usize) -> Result<Geometry, GeometryError> {
        if rows == 0 || cols == 0 || rows > MAX_ROWS || cols > MAX_COLS {
            return Err(GeometryError::Size { rows, cols });
        }
        let all = (0..rows * cols).map(|i| Cell(i as u16)).collect();
        Ok(Geometry::with_cells(rows as u8, cols as u8, all))
    }

    /// The same board with only the cells of `on_board` (a subset of the rectangle) playable.
    #[must_use]
    pub fn restricted(&self, on_board: CellSet) -> Geometry {
        Geometry::with_cells(self.rows, self.cols, on_board.intersection(&self.on_board))
    }

    fn with_cells(rows: u8, cols: u8, on_board: CellSet) -> Geometry {
        let n = rows as usize * cols as usize;
        let mut neighbours = vec![NO_CELL; n * 8];
        for cell in on_board.iter() {
            let (r, c) = (cell.0 / cols as u16, cell.0 % cols as u16);
            for dir in Dir::ALL {
                let (dr, dc) = dir.delta();
                let (nr, nc) = (r as i16 + dr as i16, c as i16 + dc as i16);
                if nr < 0 || nc < 0 || nr >= rows as i16 || nc >= cols as i16 {
                    continue;
                }
                let next = Cell(nr as u16 * cols as u16 + nc as u16);
                if on_board.contains(next) {
                    neighbours[cell.index() * 8 + dir as usize] = next.0;
                }
            }
        }
        Geometry {
            rows,
            cols,
            on_board,
            neighbours,
            links: false,
        }
    }

    /// The same board with `links`: each pair `(a, b)` of cells on one row, column or diagonal,
    /// with only holes between them, become neighbours, `b` next to `a` in the direction from
    /// `a` to `b` and `a` next to `b` in the opposite one, as if the holes between them were
    /// not there (the lines of a mill board drawn on a grid). Steps, slides, hops, lines and
    /// groups follow links; leaps and distances measure the grid.
    pub fn linked(&self, links: &[(Cell, Cell)]) -> Result<Geometry, GeometryError> {
        let mut out = self.clone();
        for &(a, b) in links {
            let names = || (self.name(a), self.name(b));
            if a == b || !self.contains(a) || !self.contains(b) {
                let (a, b) = names();
                return Err(GeometryError::LinkEnd { a, b });
            }
            let (dr, dc) = (
                self.row(b) as i64 - self.row(a) as i64,
                self.col(b) as i64 - self.col(a) as i64,
            );
            let askew = !(dr == 0 || dc == 0 || dr.abs() == dc.abs());
            let dir = Dir::ALL.into_iter().find(|d| {
                (i64::from(d.delta().0), i64::from(d.delta().1)) == (dr.signum(), dc.signum())
            });
            let Some(dir) = dir.filter(|_| !askew) else {
                let (a, b) = names();
                return Err(GeometryError::LinkAskew { a, b });
            };
            let steps = dr.abs().max(dc.abs());
            for i in 1..steps {
                let (r, c) = (
                    self.row(a) as i64 + i * dr.signum(),
                    self.col(a) as i64 + i * dc.signum(),
                );
                if let Some(over) = self.cell(r, c) {
                    let (a, b) = names();
                    let over = self.name(over);
                    return Err(GeometryError::LinkOver { a, b, over });
                }
            }
            // Only holes between them: neither has a neighbour towards the other yet.
            out.neighbours[a.index() * 8 + dir as usize] = b.0;
            out.neighbours[b.index() * 8 + dir.opposite() as usize] = a.0;
            out.links |= steps > 1;
        }
        Ok(out)
    }

    /// The links across holes, each once, from its end that comes first in cell order (row by
    /// row from the top).
    pub fn links(&self) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for cell in self.on_board.iter() {
            for dir in [Dir::E, Dir::SE, Dir::S, Dir::SW] {
                if let Some(n) = self.neighbour(cell, dir) {
                    let far = self.row(cell).abs_diff(self.row(n)) > 1
                        || self.col(cell).abs_diff(self.col(n)) > 1;
                    if far {
                        out.push((cell, n));
                    }
                }
            }
        }
        out
    }

    /// Whether some neighbour is joined by a link across holes rather than by the grid.
    #[inline]
    pub fn has_links(&self) -> bool {
        self.links
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of cells of the rectangle, on the board or not.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Whether the board has no cells (never true for a built geometry).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.on_board.is_empty()
    }

    /// The cells that exist.
    #[inline]
    pub fn cells(&self) -> &CellSet {
        &self.on_board
    }

    /// Whether `cell` exists on this board.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.index() < self.len() && self.on_board.contains(cell)
    }

    /// The cell at `(row, col)`, if it is on the board. Takes signed values so that callers can
    /// pass untrusted coordinates.
    pub fn cell(&self, row: i64, col: i64) -> Option<Cell> {
        if row < 0 || col < 0 || row >= self.rows as i64 || col >= self.cols as i64 {
            return None;
        }
        let cell = Cell(row as u16 * self.cols as u16 + col as u16);
        self.on_board.contains(cell).then_some(cell)
    }

    /// The cell at `(row, col)` of the rectangle, whether or not it is on the board.
    pub fn rect_cell(&self, row: usize, col: usize) -> Option<Cell> {
        (row < self.rows() && col < self.cols()).then(|| Cell((row * self.cols() + col) as u16))
    }

    /// Row of `cell` (0 at the top).
    #[inline]
    pub fn row(&self, cell: Cell) -> usize {
        cell.index() / self.cols as usize
    }

    /// Column of `cell` (0 at the left).
    #[inline]
    pub fn col(&self, cell: Cell) -> usize {
        cell.index() % self.cols as usize
    }

    /// The cell next to `cell` in direction `dir`, if there is one.
    #[inline]
    pub fn neighbour(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let n = self.neighbours[cell.index() * 8 + dir as usize];
        (n != NO_CELL).then_some(Cell(n))
    }

    /// The human name of a cell: column letter, then row number counted from the bottom
    /// (`(0,0)` on a 9-row board is `a9`).
    pub fn name(&self, cell: Cell) -> CellName {
        CellName {
            col: self.col(cell) as u8,
            rank: self.rows().saturating_sub(self.row(cell)) as u8,
        }
    }

    /// Parses a human cell name such as `a9`, `p16` or `ab19`. The cell must exist.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let (row, col) = self.parse_rect_cell(text)?;
        self.cell(row as i64, col as i64)
    }

    /// Parses a human cell name into `(row, col)` of the rectangle, whether or not the cell is
    /// on the board (a hole): a column name (`a` .. `z`, `aa` ..) then a row number from the
    /// bottom without leading zeros.
    pub fn parse_rect_cell(&self, text: &str) -> Option<(usize, usize)> {
        let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
        let (name, digits) = text.split_at(letters);
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
            || digits.len() > 3
        {
            return None;
        }
        let col = column_index(name)?;
        let rank: usize = digits.parse().ok()?;
        (col < self.cols() && (1..=self.rows()).contains(&rank)).then(|| (self.rows() - rank, col))
    }

    /// The name of the last column (`h` on an 8-column board, `ad` on a 30-column one).
    pub fn last_column_name(&self) -> String {
        column_name(self.cols() - 1)
    }
}

/// The index of a column name: `a` is 0, `z` 25, `aa` 26, `ab` 27, ...; `None` for anything
/// else (empty, not lowercase letters, or past any board's width).
pub fn column_index(name: &str) -> Option<usize> {
    if name.is_empty() || name.len() > 2 || !name.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let index = name
        .bytes()
        .fold(0usize, |n, b| n * 26 + (b - b'a') as usize + 1)
        - 1;
    (index < MAX_COLS).then_some(index)
}

/// The name of column `index`: `a` .. `z`, then `aa`, `ab`, ...
pub fn column_name(index: usize) -> String {
    let mut name = Vec::new();
    let mut n = index + 1;
    while n > 0 {
        n -= 1;
        name.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// The human name of a cell (`a9`), as returned by [`Geometry::name`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CellName {
    col: u8,
    rank: u8,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_name(self.col as usize), self.rank)
    }
}

/// The cells strictly between `a` and `b` when they are on one line of the board (a row, a
/// column or a diagonal); empty otherwise.
pub(crate) fn between(
    g: &Geometry,
    a: Cell,
    b: Cell,
) -> arrayvec::ArrayVec<Cell, { crate::cell::LINE_CELLS }> {
    let (ra, ca) = (g.row(a) as i64, g.col(a) as i64);
    let (rb, cb) = (g.row(b) as i64, g.col(b) as i64);
    let (dr, dc) = (rb - ra, cb - ca);
    let n = dr.abs().max(dc.abs());
    if n == 0
        || n as usize >= crate::cell::LINE_CELLS
        || (dr != 0 && dc != 0 && dr.abs() != dc.abs())
    {
        return arrayvec::ArrayVec::new();
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    (1..n)
        .filter_map(|i| g.cell(ra + sr * i, ca + sc * i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_and_names() {
        let g = Geometry::new(9, 7).unwrap();
        let a9 = g.cell(0, 0).unwrap();
        assert_eq!(g.name(a9).to_string(), "a9");
        assert_eq!(g.parse_cell("a9"), Some(a9));
        assert_eq!(g.parse_cell("g1"), g.cell(8, 6));
        assert_eq!(g.parse_cell("h1"), None);
        assert_eq!(g.parse_cell("a10"), None);
        assert_eq!(g.parse_cell("a0"), None);
        assert_eq!(g.neighbour(a9, Dir::N), None);
        assert_eq!(g.neighbour(a9, Dir::S), g.cell(1, 0));
        assert_eq!(g.neighbour(a9, Dir::SE), g.cell(1, 1));
        assert_eq!(g.cell(-1, 0), None);
        assert!(Geometry::new(33, 3).is_err());
        assert!(Geometry::new(3, 33).is_err());
        assert_eq!(Dir::N.rotate(2), Dir::E);
        assert_eq!(Dir::W.rotate(4), Dir::E);
    }

    #[test]
    fn columns_past_z_are_named_like_spreadsheets() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(31), "af");
        for i in 0..MAX_COLS {
            assert_eq!(column_index(&column_name(i)), Some(i));
        }
        assert_eq!(column_index("ag"), None);
        assert_eq!(column_index("A"), None);
        assert_eq!(column_index(""), None);
        let g = Geometry::new(32, 32).unwrap();
        let corner = g.cell(0, 31).unwrap();
        assert_eq!(corner.index(), 31);
        assert_eq!(g.name(corner).to_string(), "af32");
        assert_eq!(g.parse_cell("af32"), Some(corner));
        assert_eq!(g.parse_cell("af1"), g.cell(31, 31));
        assert_eq!(g.cell(31, 31).unwrap().index(), 1023);
        assert_eq!(g.parse_cell("ag1"), None);
        assert_eq!(g.parse_cell("a33"), None);
        assert_eq!(g.parse_cell("a0032"), None);
        assert_eq!(g.last_column_name(), "af");
        for cell in g.cells().iter() {
            assert_eq!(g.parse_cell(&g.name(cell).to_string()), Some(cell));
        }
        assert_eq!(g.cells().len(), 1024);
    }

    #[test]
    fn restricted_boards_have_holes() {
        let g = Geometry::new(3, 3).unwrap();
        let mut cells = *g.cells();
        cells.remove(Cell(4));
        let h = g.restricted(cells);
        assert!(!h.contains(Cell(4)));
        assert_eq!(h.cell(1, 1), None);
        assert_eq!(h.neighbour(Cell(1), Dir::S), None);
        assert_eq!(h.neighbour(Cell(1), Dir::E), Some(Cell(2)));
    }

    /// Links join cells across holes, both ways, and refuse what a grid cannot mean.
    #[test]
    fn links_join_cells_across_holes() {
        let g = Geometry::new(3, 3).unwrap();
        let mut cells = *g.cells();
        cells.remove(Cell(1));
        cells.remove(Cell(4));
        let h = g.restricted(cells);
        let (a3, c3, a1, c1, b1) = (Cell(0), Cell(2), Cell(6), Cell(8), Cell(7));
        let l = h.linked(&[(a3, c3), (a1, c3)]).unwrap();
        assert!(l.has_links() && !h.has_links());
        assert_eq!(l.links(), [(a3, c3), (c3, a1)]);
        assert_eq!(l.neighbour(a3, Dir::E), Some(c3));
        assert_eq!(l.neighbour(c3, Dir::W), Some(a3));
        assert_eq!(l.neighbour(c3, Dir::SW), Some(a1));
        assert_eq!(l.neighbour(a1, Dir::NE), Some(c3));
        // A link of two neighbours changes nothing.
        assert_eq!(h.linked(&[(a1, b1)]).unwrap(), h);
        let err = |links: &[(Cell, Cell)]| h.linked(links).unwrap_err().to_string();
        assert_eq!(
            err(&[(a3, b1)]),
            "a3 and b1 are not on one row, column or diagonal"
        );
        assert_eq!(
            err(&[(a3, Cell(4))]),
            "a link joins two different cells of the board, not a3 and b2"
        );
        assert_eq!(
            err(&[(a1, c1)]),
            "the link a1-c1 passes over b1, a cell of the board: a link crosses holes only"
        );
    }
}
