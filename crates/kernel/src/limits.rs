//! The kernel's limits: nothing a position does may grow without bound. A position whose moves
//! would pass them is refused with [`MoveLimit`] wherever moves are generated (legal moves,
//! checked play, perft, playouts), rather than explored until memory or time runs out.

/// The longest hop chain a move may have (a move keeps each hop's direction in three bits of
/// one word).
pub const MAX_HOPS: usize = 21;

/// The longest chain of `far` hops a move may have (a move keeps each such hop's direction
/// and length in seven bits of one word).
pub const MAX_FAR_HOPS: usize = 9;

/// The longest `far` hop, in cells from where it starts to where it lands: the diagonal of a
/// 16x16 board. A pack whose `far` hops could go further is refused.
pub const MAX_FAR_HOP_LENGTH: usize = 16;

/// The most legal moves a position may have. Past it, generation stops and reports
/// [`MoveLimit::TooMany`]: a list of moves never takes more than `MAX_MOVES` times 16 bytes,
/// and generating it never takes more than that many steps per move found (hop chains that
/// must be completed explore each prefix once).
pub const MAX_MOVES: usize = 1 << 16;

/// The largest table, in bits, the compiler builds for one condition of a pattern or an
/// effect (over the pieces and cell classes it reads); past it, a capture or blocking
/// condition is evaluated during play instead, which a pack with a royal kind cannot have.
pub const MAX_TABLE_BITS: usize = 1 << 24;

/// The most cells the compiled move tables may list as passed, over all patterns: each slide
/// keeps one ray per cell and direction (its targets read prefixes of it), each jump and leap
/// its passed cells. A pack past it is refused at the pattern that passes it.
pub const MAX_PASSED_CELLS: usize = 1 << 22;

/// The most moves a turn may have (`[turn] moves`): a turn's move count is kept in seven
/// bits of the log, and every move of a turn is a ply of the game.
pub const MAX_TURN_MOVES: usize = 8;

/// The most end rules a game may have (each is numbered by a byte, one value kept for
/// "none").
pub const MAX_END_RULES: usize = u8::MAX as usize - 1;

/// The most cells of a board whose pack has a `groups` effect: what one effect changes in one
/// move is kept in a fixed list of this many entries (a larger one would make every effect's
/// make dearer).
pub const MAX_GROUP_BOARD_CELLS: usize = 512;

/// A position whose legal moves cannot all be generated: there are more than [`MAX_MOVES`] of
/// them, or a hop chain would go on past [`MAX_HOPS`] hops. Nothing grows without bound: a
/// position with such moves is refused, not played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum MoveLimit {
    /// More legal moves than [`MAX_MOVES`].
    #[error("this position has more than {MAX_MOVES} legal moves, the kernel's limit")]
    TooMany,
    /// A hop chain longer than [`MAX_HOPS`] hops ([`MAX_FAR_HOPS`] for `far` hops).
    #[error(
        "a hop chain here can go on past {MAX_HOPS} hops, the kernel's limit ({MAX_FAR_HOPS} for a chain of far hops)"
    )]
    ChainTooLong,
}
