//! Classes of cells: cells that no expression of the pack can tell apart share a class, so
//! that the tables of checks are laid out by class rather than by cell.

use super::*;

impl Compiler<'_> {
    /// Partitions cells into classes that no static capture or blocking expression can tell
    /// apart: same zone memberships, and same row or column where an expression reads them.
    pub(super) fn classes(&self) -> Vec<u16> {
        let deps = self
            .all_static_exprs()
            .iter()
            .fold(Deps::default(), |d, e| d.or(e.deps()));
        let g = &self.core.geometry;
        let mut signatures: Vec<Vec<u32>> = Vec::new();
        let mut class = vec![0u16; MAX_CELLS];
        for (i, slot) in class.iter_mut().enumerate().take(g.len()) {
            let cell = Cell(i as u16);
            let mut sig = Vec::new();
            if deps.any(Deps::CELL_IDENTITY) {
                sig.push(i as u32);
            }
            if deps.any(Deps::ROW) {
                sig.push(1000 + g.row(cell) as u32);
            }
            if deps.any(Deps::COL) {
                sig.push(2000 + g.col(cell) as u32);
            }
            for (zi, z) in self.core.zones.iter().enumerate() {
                for p in 0..PLAYERS {
                    if z.parts[p].contains(cell) {
                        sig.push(10_000 + (zi * PLAYERS + p) as u32);
                    }
                }
            }
            let id = match signatures.iter().position(|s| *s == sig) {
                Some(id) => id,
                None => {
                    signatures.push(sig);
                    signatures.len() - 1
                }
            };
            *slot = id as u16;
        }
        class
    }
}

pub(super) fn representatives(
    class: &[u16],
    nclass: usize,
    on_board: &CellSet,
) -> Vec<Option<Cell>> {
    let mut reps = vec![None; nclass];
    for cell in on_board.iter() {
        let c = class[cell.index()] as usize;
        if reps[c].is_none() {
            reps[c] = Some(cell);
        }
    }
    reps
}

pub(crate) fn table_for(sizes: [usize; 5]) -> BitTable {
    let total: usize = sizes.iter().product();
    let mut strides = [0; 5];
    let mut acc = 1;
    for i in (0..5).rev() {
        strides[i] = if sizes[i] == 1 { 0 } else { acc };
        acc *= sizes[i];
    }
    BitTable {
        bits: vec![0; total.div_ceil(64)],
        strides,
    }
}
