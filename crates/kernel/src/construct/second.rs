//! Second parts of a turn (`then place KIND by slide DIRS`): after its piece lands, the
//! mover places a piece along slides from the landing cell (the arrow of Amazons). One
//! pseudo-legal landing stands for one move per cell the second part may fill; its make puts
//! the piece down through the log after the move, before effects.

use super::Construct;
use crate::moves::{Emit, Move};
use crate::piece::Player;
use crate::position::State;
use crate::rules::Rules;
use crate::tables::CompiledMove;
use std::ops::ControlFlow;

/// The construct of second parts.
pub(crate) struct Seconds;

impl Construct for Seconds {
    const NAME: &'static str = "second parts";
    #[cfg(test)]
    const SYNTAX: &'static str = "then place KIND by slide DIRS";

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        rules.moves.iter().any(|m| m.then.is_some())
    }

    fn after_make(state: &mut State, rules: &Rules, m: Move, _moved: u8) -> bool {
        if let Some(at) = m.second()
            && let Some((codes, _)) = rules.moves[m.rule() as usize].then
        {
            state.change(rules, at, codes[state.side.other().slot()]);
            // A passed cell the second part fills is no longer open (rewinding the move's
            // log reopens the cells before it).
            if state.ghost.contains(at) {
                state.ghost.remove(at);
                state.hash ^= rules.ghost_keys[at.index()];
            }
        }
        false
    }
}

impl State {
    /// Emits `mv`, or, for a pattern with a second part, `mv` followed by each placement the
    /// second part allows: along slides from the landing cell over empty cells, the cell left
    /// and the cell of a piece taken in passing counting as empty.
    pub(crate) fn emit_then<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        side: Player,
        mv: Move,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        let Some((_, dirs)) = m.then else {
            return f.push(mv);
        };
        let g = rules.geometry();
        let cells = &m.place_cells[side.slot()];
        for d in dirs[side.slot()].iter() {
            let mut cur = mv.to();
            while let Some(next) = g.neighbour(cur, d) {
                if self.board[next.index()] != 0
                    && next != mv.from()
                    && Some(next) != mv.ghost_victim()
                {
                    break;
                }
                if cells.contains(next) {
                    f.push(mv.then_at(next))?;
                }
                cur = next;
            }
        }
        ControlFlow::Continue(())
    }
}
