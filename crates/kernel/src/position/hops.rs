//! Hop chains: a hop that may go on from its landing cell, extended by the same pattern
//! until it cannot (or, with `chain complete`, must not stop).

use super::targets::Take;
use super::*;
use crate::cell::{Cell, CellSet};
use crate::limits::MAX_HOPS;
use crate::limits::MoveLimit;
use crate::moves::{Emit, Move};
use crate::piece::Player;
use crate::rules::Rules;
use crate::tables::{CompiledMove, HOP, Target};
use std::ops::ControlFlow;

impl State {
    /// Emits a legal first hop `mv` (target `t`), and the chains that follow it.
    #[cold]
    pub(super) fn emit_hop<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        side: Player,
        mv: Move,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        let m = &rules.moves[t.rule as usize];
        if !m.chain || State::promotion_stops(rules, pc, t.to) {
            return f.push(mv);
        }
        if !m.complete {
            f.push(mv)?;
        }
        let mut vacated = CellSet::EMPTY;
        vacated.insert(mv.from());
        vacated.insert(Cell(t.over));
        let extended = self.chain(rules, m, pc, side, mv, vacated, f)?;
        if m.complete && !extended {
            f.push(mv)?;
        }
        ControlFlow::Continue(())
    }

    /// Extends a hop chain from its last landing cell with the same pattern. `vacated` holds
    /// the cells that count as empty: the origin and every piece already jumped. A chain that
    /// could go on past [`MAX_HOPS`] hops stops generation with [`MoveLimit::ChainTooLong`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chain<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        side: Player,
        mv: Move,
        vacated: CellSet,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B, bool> {
        let cur = mv.to();
        let at = |c: u16| {
            if vacated.contains(Cell(c)) {
                0
            } else {
                self.board[c as usize]
            }
        };
        let mut extended = false;
        for t in rules.targets(pc, cur.0) {
            if t.kind != HOP || t.rule != mv.rule() {
                continue;
            }
            let occ = at(t.over);
            if occ == 0 || State::owner_of(occ) == side || at(t.to) != 0 {
                continue;
            }
            let (over, to) = (Cell(t.over), Cell(t.to));
            let take = Take {
                pc,
                from: cur,
                occ,
                at: over,
                to,
            };
            if self.capture_verdict(rules, t, take).is_err() {
                continue;
            }
            if mv.hops() >= MAX_HOPS {
                f.limit(MoveLimit::ChainTooLong)?;
                return ControlFlow::Continue(true);
            }
            extended = true;
            let next = mv.extended(to, t.dir);
            let stops = State::promotion_stops(rules, pc, t.to);
            if !m.complete || stops {
                f.push(next)?;
            }
            if stops {
                continue;
            }
            let mut v = vacated;
            v.insert(over);
            let deeper = self.chain(rules, m, pc, side, next, v, f)?;
            if m.complete && !deeper {
                f.push(next)?;
            }
        }
        ControlFlow::Continue(extended)
    }
}
