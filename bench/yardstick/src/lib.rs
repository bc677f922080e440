//! Yardsticks: hand-written, speed-first engines for three rule sets of Ply.
//!
//! Ply's kernel plays games whose rules are data: it reads a rules pack and interprets it.
//! That generality has a price, and this crate exists to measure it. Each engine here
//! hard-codes one rule set the way a strong engine author would write it: bitboards
//! (`u64`, one bit per cell) and a mailbox, precomputed neighbour / jump / capture tables
//! built at compile time, no heap allocation in move generation or in make/unmake, and
//! make/unmake (never copy-make) at every node of a perft; a random playout restores its
//! start from one copy (as the kernel's does for rules without position history). The
//! kernel's numbers (perft counts, playout results) must agree with these, and its speed is
//! reported relative to them.
//!
//! Engines:
//! * [`jungle::Jungle`]: Jungle (Dou Shou Qi) in two variants, [`jungle::Variant::Standard`]
//!   and [`jungle::Variant::Simplified`];
//! * [`cats_rabbits::CatsRabbits`]: Cats and Rabbits with single or multiple hops.
//!
//! Shared conventions: cells are `(row, col)`, 0-based, row 0 at the top; a move is reported
//! as a [`Path`] of cells (`[from, to]` for a step, `[from, land1, land2, ...]` for a hop
//! chain); positions are read and written in the FEN-like format of [`position`].
//!
//! Every engine offers the same surface (inherent methods, identical names):
//! `start`, `from_position`, `to_position`, `side_to_move`, `legal_moves` (allocating, for
//! tests), `generate` (non-allocating, into an `arrayvec::ArrayVec`), `make` / `unmake`,
//! `outcome`, `perft`, `perft_bulk` and `playout`. The last three are written once, in
//! [`search`], over the [`search::Engine`] trait (generate, make, unmake), which both engines
//! implement.

#![deny(missing_docs)]

pub mod cats_rabbits;
pub mod jungle;
pub mod native;
pub mod position;
pub mod search;

/// A cell, `(row, col)`, 0-based, row 0 at the top.
pub type Cell = (u8, u8);

/// A move as a path of cells: `[from, to]` for a simple move, `[from, land1, land2, ...]`
/// for a hop chain.
pub type Path = Vec<Cell>;

/// The result of a random playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Playout {
    /// Number of plies (moves) played.
    pub plies: u32,
    /// The winner's player index (0 = the first player), or `None` when the game did not
    /// end with a winner (capped, or stuck without a winner).
    pub winner: Option<u8>,
    /// `true` when the playout stopped because it reached `max_plies` with the game still
    /// running.
    pub capped: bool,
}
