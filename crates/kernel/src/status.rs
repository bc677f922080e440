//! How a game stands: who is to move, or how it ended.

use crate::piece::Player;

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// Where a game stands after a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on; this player is to move.
    ToMove(Player),
    /// The game is over.
    Over(Outcome),
    /// This player is to move and has no legal move, and no rule ends the game: nothing can
    /// happen any more (a game loop must stop here).
    Stuck(Player),
}
