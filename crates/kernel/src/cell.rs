//! Cells and sets of cells.
//!
//! A board has at most [`MAX_ROWS`] x [`MAX_COLS`] cells (1,024: Go's and Gomoku's 19x19 fit),
//! so a cell fits in ten bits and a set of cells in sixteen machine words. Most boards use the
//! first words only: iteration visits only the words that hold a cell. Every table the kernel builds is indexed by [`Cell`], and every
//! zone, occupancy map and precomputed destination set is a [`CellSet`].

use std::fmt;

/// The largest number of rows a board may have.
pub const MAX_ROWS: usize = 32;
/// The largest number of columns a board may have.
pub const MAX_COLS: usize = 32;
/// The most cells on one line of a board (a row, a column or a diagonal).
pub(crate) const LINE_CELLS: usize = if MAX_ROWS > MAX_COLS {
    MAX_ROWS
} else {
    MAX_COLS
};
/// The largest number of cells a board may have.
pub const MAX_CELLS: usize = MAX_ROWS * MAX_COLS;

/// A cell of the board: its index `row * cols + col`, row 0 at the top.
///
/// A `Cell` does not know the board's width; [`crate::Geometry`] turns rows and columns into
/// cells and back.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Cell(pub(crate) u16);

impl Cell {
    /// The cell with this index (`row * cols + col` of its board), if a board can have it.
    /// Whether a given board has it is [`crate::Geometry::contains`].
    pub const fn new(index: usize) -> Option<Cell> {
        if index < MAX_CELLS {
            Some(Cell(index as u16))
        } else {
            None
        }
    }

    /// The cell's index, for table lookups. Always below [`MAX_CELLS`] (the mask says so to
    /// the compiler, so that tables of `MAX_CELLS` entries need no bounds check).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize & (MAX_CELLS - 1)
    }
}

/// Machine words in a [`CellSet`].
const WORDS: usize = MAX_CELLS / 64;

/// A set of cells, as a 1,024-bit bitboard.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct CellSet([u64; WORDS]);

impl Default for CellSet {
    fn default() -> CellSet {
        CellSet::EMPTY
    }
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

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

    /// The set with every cell index moved by `by` (cells moved past either end are lost):
    /// the reference for [`CellSet::shifted_within`].
    #[cfg(test)]
    #[must_use]
    pub(crate) fn shifted(&self, by: i32) -> CellSet {
        let w = self.0;
        let mut out = [0u64; WORDS];
        if by >= 0 {
            let (words, bits) = ((by / 64) as usize, (by % 64) as u32);
            for i in (words..WORDS).rev() {
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
            for i in 0..WORDS.saturating_sub(words) {
                let hi = w[i + words] >> bits;
                let carry = if bits != 0 && i + words + 1 < WORDS {
                    w[i + words + 1] << (64 - bits)
                } else {
                    0
                };
                out[i] = hi | carry;
            }
        }
        CellSet(out)
    }

    /// The set shifted by `by` as [`CellSet::shifted`], then intersected with `mask`, for a set
    /// and a mask within the first `words` words (a board of at most `64 * words` cells): the
    /// words past them are not touched.
    #[inline]
    #[must_use]
    pub(crate) fn shifted_within(&self, by: i32, mask: &CellSet, words: usize) -> CellSet {
        let w = &self.0;
        let words = words.min(WORDS);
        let mut out = [0u64; WORDS];
        let (q, r) = ((by.unsigned_abs() / 64) as usize, by.unsigned_abs() % 64);
        if by >= 0 {
            for i in q..words {
                let carry = if r != 0 && i > q {
                    w[i - q - 1] >> (64 - r)
                } else {
                    0
                };
                out[i] = ((w[i - q] << r) | carry) & mask.0[i];
            }
        } else {
            for i in 0..words.min(WORDS.saturating_sub(q)) {
                let carry = if r != 0 && i + q + 1 < WORDS {
                    w[i + q + 1] << (64 - r)
                } else {
                    0
                };
                out[i] = ((w[i + q] >> r) | carry) & mask.0[i];
            }
        }
        CellSet(out)
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        // An OR of the words, not an array comparison (which becomes a call to memcmp).
        self.0.iter().fold(0, |acc, w| acc | w) == 0
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
        let live = self
            .0
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, w)| m | (u32::from(*w != 0) << i));
        CellSetIter {
            words: self.0,
            live,
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
    words: [u64; WORDS],
    /// The words still holding cells, a bit each.
    live: u32,
}

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.live == 0 {
            return None;
        }
        let word = self.live.trailing_zeros() as usize;
        let w = self.words[word];
        let rest = w & (w - 1);
        self.words[word] = rest;
        if rest == 0 {
            self.live &= self.live - 1;
        }
        Some(Cell((word * 64) as u16 + w.trailing_zeros() as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut s = CellSet::EMPTY;
        for c in [0u16, 5, 63, 64, 200, 255, 1023] {
            s.insert(Cell(c));
        }
        assert_eq!(s.len(), 7);
        assert!(s.contains(Cell(200)) && !s.contains(Cell(201)));
        assert_eq!(
            s.iter().map(|c| c.0).collect::<Vec<_>>(),
            vec![0, 5, 63, 64, 200, 255, 1023]
        );
        s.remove(Cell(64));
        s.toggle(Cell(1));
        assert_eq!(s.len(), 7);
        assert!(!s.contains(Cell(64)) && s.contains(Cell(1)));
        let t: CellSet = [Cell(1), Cell(2)].into_iter().collect();
        assert_eq!(s.intersection(&t).len(), 1);
        assert_eq!(s.union(&t).len(), 8);
    }

    #[test]
    fn shifting_within_the_words_in_use_is_shifting_then_masking() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for cells in [1usize, 63, 64, 65, 90, 256, 361, 1000, MAX_CELLS] {
            let words = cells.div_ceil(64);
            let mut within = |_: ()| -> CellSet {
                (0..cells)
                    .filter(|_| next() % 3 == 0)
                    .map(|i| Cell(i as u16))
                    .collect()
            };
            for by in [-200, -65, -64, -33, -9, -1, 0, 1, 7, 8, 31, 64, 65, 129] {
                let (set, mask) = (within(()), within(()));
                assert_eq!(
                    set.shifted_within(by, &mask, words),
                    set.shifted(by).intersection(&mask),
                    "{cells} cells, by {by}"
                );
            }
        }
    }
}
