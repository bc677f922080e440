//! How a game stands: who is to move, or how it ended.

use crate::piece::Player;
use crate::reason::RuleId;
use crate::rules::Rules;

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// Why a game ended: what [`crate::Position::end_reason`] and [`crate::Game::end_reason`]
/// give beside the [`Outcome`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// An end rule of the game held (`[end.NAME]`, in [`crate::Section::End`]):
    /// [`Rules::rule_name`] gives its name.
    Rule(RuleId),
    /// The result was given with the position (a position string or record that states it),
    /// and no end rule holds in it.
    Given,
}

impl EndReason {
    /// The reason in a word or two: the end rule's name (`den`, `checkmate`), or `result
    /// given`.
    pub fn name(self, rules: &Rules) -> &str {
        match self {
            EndReason::Rule(rule) => rules.rule_name(rule),
            EndReason::Given => "result given",
        }
    }
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
