//! Cells and sets of cells.
//!
//! A board has at most [`MAX_ROWS`] x [`MAX_COLS`] cells, so a cell fits in a byte and a set of
//! cells in four machine words. Every table the kernel builds is indexed by [`Cell`], and every
//! zone, occupancy map and precomputed destination set is a [`CellSet`].

use std::fmt;

/// The largest number of rows a board may have.
pub const MAX_ROWS: usize = 16;
/// The largest number of columns a board may have.
pub const MAX_COLS: usize = 16;
/// The largest number of cells a board may have.
pub const MAX_CELLS: usize = MAX_ROWS * MAX_COLS;

/// A cell of the board: its index `row * cols + col`, row 0 at the top.
///
/// A `Cell` does not know the board's width; [`crate::Geometry`] turns rows and columns into
/// cells and back.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The cell with this index (`row * cols + col` of its board), if a board can have it.
    /// Whether a given board has it is [`crate::Geometry::contains`].
    pub const fn new(index: usize) -> Option<Cell> {
        if index < MAX_CELLS {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell's index, for table lookups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of cells, as a 256-bit bitboard.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; 4]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; 4]);

    /// Whether `cell` is in the set.
    #[inline]
    pub const fn contains(&self, cell: Cell) -> bool {
        let i = cell.0 as usize;
        self.0[i >> 6] & (1u64 << (i & 63)) != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Toggles `cell`.
    #[inline]
    pub fn toggle(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] ^= 1u64 << (i & 63);
    }

    /// Toggles two different cells; `narrow` says both are among the first 64 (one word).
    #[inline]
    pub(crate) fn toggle2(&mut self, a: Cell, b: Cell, narrow: bool) {
        if narrow {
            self.0[0] ^= (1u64 << (a.0 & 63)) | (1u64 << (b.0 & 63));
        } else {
            self.toggle(a);
            self.toggle(b);
        }
    }

    /// Toggles `cell`; `narrow` says it is among the first 64.
    #[inline]
    pub(crate) fn toggle_in(&mut self, cell: Cell, narrow: bool) {
        if narrow {
            self.0[0] ^= 1u64 << (cell.0 & 63);
        } else {
            self.toggle(cell);
        }
    }

    /// Replaces the first 64 cells by `word`.
    #[inline]
    pub(crate) fn set_low(&mut self, word: u64) {
        self.0[0] = word;
    }

    /// The first 64 cells, as one word.
    #[inline]
    pub(crate) const fn low(&self) -> u64 {
        self.0[0]
    }

    /// The set with every cell index moved by `by` (cells moved past either end are lost).
    #[inline]
    #[must_use]
    pub(crate) fn shifted(&self, by: i32) -> CellSet {
        let w = self.0;
        let mut out = [0u64; 4];
        if by >= 0 {
            let (words, bits) = ((by / 64) as usize, (by % 64) as u32);
            for i in (words..4).rev() {
                let lo = w[i - words] << bits;
                let carry = if bits != 0 && i > words {
                    w[i - words - 1] >> (64 - bits)
                } else {
                    0
                };
                out[i] = lo | carry;
            }
        } else {
            let by = -by;
            let (words, bits) = ((by / 64) as usize, (by % 64) as u32);
            for i in 0..4usize.saturating_sub(words) {
                let hi = w[i + words] >> bits;
                let carry = if bits != 0 && i + words + 1 < 4 {
                    w[i + words + 1] << (64 - bits)
                } else {
                    0
                };
                out[i] = hi | carry;
            }
        }
        CellSet(out)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The number of cells in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Removes every cell of `other`.
    #[inline]
    pub fn remove_all(&mut self, other: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
    }

    /// The union of two sets.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }

    /// The intersection of two sets.
    #[inline]
    #[must_use]
    pub fn intersection(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        out
    }

    /// The cells of the set, in increasing order.
    #[inline]
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.0,
            word: 0,
        }
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

/// Iterator over the cells of a [`CellSet`].
#[derive(Clone, Debug)]
pub struct CellSetIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Cell((self.word * 64) as u8 + w.trailing_zeros() as u8));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = CellSet::EMPTY;
        for c in [0u8, 5, 63, 64, 200, 255] {
            s.insert(Cell(c));
        }
        assert_eq!(s.len(), 6);
        assert!(s.contains(Cell(200)) && !s.contains(Cell(201)));
        assert_eq!(
            s.iter().map(|c| c.0).collect::<Vec<_>>(),
            vec![0, 5, 63, 64, 200, 255]
        );
        s.remove(Cell(64));
        s.toggle(Cell(1));
        assert_eq!(s.len(), 6);
        assert!(!s.contains(Cell(64)) && s.contains(Cell(1)));
        let t: CellSet = [Cell(1), Cell(2)].into_iter().collect();
        assert_eq!(s.intersection(&t).len(), 1);
        assert_eq!(s.union(&t).len(), 7);
    }
}
