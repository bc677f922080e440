//! Search scores: evaluations in hundredths of a piece, and proven results as distances to the
//! end.

use ply_kernel::{Outcome, Player};
use std::fmt;

/// The score of a game won at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this in absolute value are proven results, not evaluations.
pub const PROVEN: i32 = WIN - 10_000;
/// Larger than any score.
pub const INFINITY: i32 = WIN + 1;

/// A score from the view of the side to move, as searches report it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// Whether the score is a proven result (a win or a loss in a known number of plies).
    pub fn is_proven(self) -> bool {
        self.0.abs() > PROVEN
    }

    /// For a proven result, the plies to the end: positive when the side to move wins.
    pub fn plies_to_end(self) -> Option<i32> {
        if self.0 > PROVEN {
            Some(WIN - self.0)
        } else if self.0 < -PROVEN {
            Some(-(WIN + self.0))
        } else {
            None
        }
    }

    /// The score of a finished game, seen by `side` at distance `ply` from the root.
    pub fn of_outcome(outcome: Outcome, side: Player, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == side => WIN - ply as i32,
            Outcome::Win(_) => -(WIN - ply as i32),
        }
    }
}

impl fmt::Display for Score {
    /// `+1.25` (pieces, side to move's view), `win in 3` or `loss in 4` (plies).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if n >= 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {}", -n),
            None => write!(f, "{:+.2}", self.0 as f64 / 100.0),
        }
    }
}
