//! Hop chains: a hop that may go on from its landing cell, extended by the same pattern
//! until it cannot (or, with `chain complete`, must not stop).

use super::targets::Take;
use super::undo::{HOPPED, Undo};
use super::*;
use crate::cell::{Cell, CellSet};
use crate::limits::MoveLimit;
use crate::limits::{MAX_FAR_HOPS, MAX_HOPS};
use crate::moves::{Emit, Move};
use crate::piece::Player;
use crate::rules::Rules;
use crate::tables::{CompiledMove, HOP, Target};
use arrayvec::ArrayVec;
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
        let mut taken = CellSet::EMPTY;
        taken.insert(Cell(t.over));
        if !m.far {
            vacated.insert(Cell(t.over));
        }
        let extended = self.chain(rules, m, pc, side, mv, (vacated, taken), f)?;
        if m.complete && !extended {
            f.push(mv)?;
        }
        ControlFlow::Continue(())
    }

    /// Extends a hop chain from its last landing cell with the same pattern. `vacated` holds
    /// the cells that count as empty: the origin and, but for a `far` chain, every piece
    /// already jumped; `taken`, the pieces already jumped, which are not jumped twice (a far
    /// chain lifts them when the move ends: until then they block its way). A chain that
    /// could go on past [`MAX_HOPS`] hops ([`MAX_FAR_HOPS`] far ones) stops generation with
    /// [`MoveLimit::ChainTooLong`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chain<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        side: Player,
        mv: Move,
        (vacated, taken): (CellSet, CellSet),
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
            if occ == 0
                || State::owner_of(occ) == side
                || at(t.to) != 0
                || taken.contains(Cell(t.over))
            {
                continue;
            }
            let start = t.jumped_start as usize;
            if rules.jumped[start..start + t.jumped_len as usize]
                .iter()
                .any(|j| at(j.cell) != 0)
            {
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
            if mv.hops() >= if m.far { MAX_FAR_HOPS } else { MAX_HOPS } {
                f.limit(MoveLimit::ChainTooLong)?;
                return ControlFlow::Continue(true);
            }
            extended = true;
            let next = if m.far {
                mv.extended_far(to, t.dir, t.jumped_len + 2)
            } else {
                mv.extended(to, t.dir)
            };
            let stops = State::promotion_stops(rules, pc, t.to);
            if !m.complete || stops {
                f.push(next)?;
            }
            if stops {
                continue;
            }
            let mut v = vacated;
            if !m.far {
                v.insert(over);
            }
            let mut now_taken = taken;
            now_taken.insert(over);
            let deeper = self.chain(rules, m, pc, side, next, (v, now_taken), f)?;
            if m.complete && !deeper {
                f.push(next)?;
            }
        }
        ControlFlow::Continue(extended)
    }
}

impl State {
    /// The cells of the pieces the `far` chain `m` takes, on the board before it is made: on
    /// each hop, the one piece between where it starts and where it lands (the cell the
    /// chain started from counts as empty).
    pub(crate) fn far_victims(&self, rules: &Rules, m: Move) -> ArrayVec<Cell, MAX_HOPS> {
        let g = rules.geometry();
        let mut out = ArrayVec::new();
        let mut cur = m.from();
        for i in 0..m.hops() {
            let d = m.hop_dir(i);
            let mut c = cur;
            let mut victim = None;
            for _ in 0..m.hop_length(i) {
                let Some(n) = g.neighbour(c, d) else {
                    return out;
                };
                c = n;
                if victim.is_none() && c != m.from() && self.board[c.index()] != 0 {
                    victim = Some(c);
                }
            }
            if let Some(v) = victim {
                out.push(v);
            }
            cur = c;
        }
        out
    }

    /// Make for a `far` chain, on the general path: the pieces it takes are lifted when the
    /// move ends, each change logged, so that unmake rewinds the log.
    pub(crate) fn make_far_hops(&mut self, rules: &Rules, m: Move) -> Undo {
        let side = self.side;
        let moved = self.board[m.from().index()];
        let mut undo = Undo {
            step: self.undo_record(moved),
            hopped: [0; HOPPED],
        };
        let victims = self.far_victims(rules, m);
        self.change(rules, m.from(), 0);
        for (i, &v) in victims.iter().enumerate() {
            undo.set_hopped(i, self.board[v.index()]);
            self.change(rules, v, 0);
            self.forget_moved(rules, v);
        }
        let placed = if moved != 0 && !rules.promote.is_empty() {
            rules.promote[moved as usize * rules.stride + m.to().index()]
        } else {
            moved
        };
        self.change(rules, m.to(), placed);
        self.clock = 0;
        self.hash ^= rules.zobrist_side;
        self.side = side.other();
        if rules.history {
            self.after_move(rules, true);
        }
        undo
    }
}
