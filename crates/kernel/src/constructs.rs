//! The tables play reads for the constructs beyond a piece's own move: attacks on royal
//! pieces, compound moves, choices of promotion and captures of a piece that has just passed.
//! The compiler builds them (`compile/attacks.rs`, `compile/ghosts.rs`, `compile/special.rs`);
//! generation, make and the reference definition of legality read them (`position/`).

use crate::cell::{Cell, CellSet};
use crate::geometry::Geometry;
use crate::piece::PLAYERS;

/// An attack found by a step group: the attacker on `from` is enough.
pub(crate) const PLAIN: u8 = 0;
/// An attack by a listed target, whose path is checked on the board.
pub(crate) const LISTED: u8 = 1;

/// One way a cell can be attacked: the attacker `code` on `from`, by `target`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttackEntry {
    pub from: u16,
    pub code: u8,
    pub how: u8,
    /// For [`LISTED`]: the index of the target in [`Rules::targets`].
    pub target: u32,
}

/// The backward attack tables, by victim player and cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attacks {
    /// By `victim * stride + cell`: the range of its entries.
    pub ranges: Vec<(u32, u32)>,
    pub entries: Vec<AttackEntry>,
    /// By `victim * stride + cell`: cells whose emptying can open an attack on the cell (the
    /// paths of slides, the legs of leaps, the landings of hops).
    pub vacate: Vec<CellSet>,
    /// By `victim * stride + cell`: cells whose filling can open an attack (screens).
    pub fill: Vec<CellSet>,
    /// By `victim * stride + cell`: the rays out of the cell along which slides attack it,
    /// a range of [`Attacks::ray_cells`].
    pub rays: Vec<Vec<(u32, u32)>>,
    /// Cells of rays, nearest first: the cell, and the codes that attack from there with
    /// nothing between (`direct`) or over exactly one screen (`screen`), as bit masks.
    pub ray_cells: Vec<RayCell>,
}

/// A cell on a ray out of an attacked cell.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RayCell {
    pub cell: u16,
    pub direct: u128,
    pub screen: u128,
}

/// How a piece with a choice of promotion promotes: where, and into which codes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Choice {
    pub zone: CellSet,
    pub codes: Vec<u8>,
}

/// A compiled compound move: codes and cells by player.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Compound {
    pub mover: [u8; PLAYERS],
    pub partner: [u8; PLAYERS],
    pub dir: [crate::geometry::Dir; PLAYERS],
    pub mover_to: [Cell; PLAYERS],
    pub partner_to: [Cell; PLAYERS],
    /// Its pattern, in [`Rules::moves`].
    pub rule: u8,
    /// By player: the origins from which the mover's own patterns also reach its destination.
    /// From these, the compound move is written and pathed from the mover onto its partner
    /// (`b1-a1`), so that it never shares a notation or a path with the mover's own move.
    pub by_partner: [CellSet; PLAYERS],
}

/// A capture onto a cell an enemy piece has just passed: the capturer `code` on `from`, by
/// pattern `rule`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GhostEntry {
    pub from: u16,
    pub code: u8,
    pub rule: u8,
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
