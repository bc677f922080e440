//! The null move: the side to move passes, for a search that asks what the opponent could do
//! if it were to move now (null-move pruning). It is not a move of the game, whatever its rules
//! say of passing: no pack's pass rule, no count of passes, no clock, no history entry; cells
//! a piece has just passed are closed, as after any move. Making and taking it back touch a
//! few fields and never allocate.
//!
//! Only a position whose game is not decided, at the start of a turn, may pass so
//! ([`Position::can_make_null`]); a search also leaves out positions in check, where passing
//! would leave a royal piece to be taken.

use super::*;

/// What [`Position::unmake_null`] needs to take a null move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NullUndo {
    hash: u64,
    ghost: CellSet,
    ghost_victim: u16,
    stirred: bool,
}

impl Position {
    /// Whether the side to move may pass by [`Position::make_null`]: the game is not decided
    /// and no turn of several moves is under way.
    pub fn can_make_null(&self) -> bool {
        self.state.outcome.is_none() && self.state.turn == 0
    }

    /// The side to move passes: the other side is to move, on the same board. The cells a
    /// piece has just passed are no longer open to capture; the key changes to match (the key
    /// of the same position set up with the other side to move). Only where
    /// [`Position::can_make_null`] holds; take it back with [`Position::unmake_null`] before
    /// any earlier move.
    pub fn make_null(&mut self) -> NullUndo {
        debug_assert!(self.can_make_null(), "a null move where none can be made");
        let Position { rules, state } = self;
        let undo = NullUndo {
            hash: state.hash,
            ghost: state.ghost,
            ghost_victim: state.ghost_victim,
            stirred: state.stirred,
        };
        if !state.ghost.is_empty() {
            let victim = Cell(state.ghost_victim);
            state.set_ghost(rules, CellSet::EMPTY, victim);
        }
        let other = state.side.other();
        state.set_side(rules, other);
        // The end rules of counts are tested after the next move as after a set-up: the
        // position two plies before it was seen from the other side.
        state.stirred = true;
        undo
    }

    /// Takes back the null move that `undo` came from, which must be the last move made.
    pub fn unmake_null(&mut self, undo: NullUndo) {
        let state = &mut self.state;
        state.side = state.side.other();
        state.ghost = undo.ghost;
        state.ghost_victim = undo.ghost_victim;
        state.stirred = undo.stirred;
        state.hash = undo.hash;
    }

    /// Whether a royal piece of the side to move is attacked (false in games without royal
    /// pieces): an attack as [`Position::attacked_royals`] means it. Does not allocate.
    pub fn in_check(&self) -> bool {
        let side = self.state.side;
        self.rules.royal[side.slot()] != 0 && self.state.in_check(&self.rules, side)
    }
}
