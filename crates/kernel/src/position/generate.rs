//! Move generation.
//!
//! The fast path reads only tables: step groups as bitboards, then the listed targets whose
//! checks are all tabulated. A target with a check that reads the position takes the slow
//! path, which is [`State::target_verdict`]: the same function that explains a refused move
//! (`probe.rs`), so that what generation lists and what an explanation says cannot differ.

use super::*;
use crate::cell::Cell;
use crate::limits::MoveLimit;
use crate::moves::{Dyn, Emit, Guard, Move, Sink, Stop};
use crate::piece::Player;
use crate::rules::Rules;
use crate::tables::{BLOCKABLE, CAPTURE, CHAIN, HOP, QUIET, RAY, SCREEN, SLIDE, SLOW, Target, bit};
use crate::tables::{Slot, StepGroup};
use std::ops::ControlFlow;

impl State {
    /// Generates the legal moves of `side` (as if it were to move), calling `f` for each,
    /// until `f` breaks; past the kernel's limits, stops with the limit.
    pub fn generate<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, MoveLimit> {
        Stop::result(self.generate_into(rules, side, &mut Guard::new(f)))
    }

    /// [`State::generate`], into any [`Sink`].
    #[inline(always)]
    pub(super) fn generate_into<S: Sink>(
        &self,
        rules: &Rules,
        side: Player,
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        if self.outcome.is_some() {
            return ControlFlow::Continue(());
        }
        if rules.general {
            return sink.escape(|f| self.generate_general(rules, side, f));
        }
        if rules.must_capture {
            return sink.escape(|f| self.generate_must_capture(rules, side, f));
        }
        let masks = self.masks(side);
        if rules.narrow {
            let mut own = self.occupied[side.slot()].low();
            while own != 0 {
                let from = Cell(own.trailing_zeros() as u16);
                own &= own - 1;
                self.generate_piece(rules, side, from, masks, sink)?;
            }
            return ControlFlow::Continue(());
        }
        for from in self.occupied[side.index()].iter() {
            self.generate_piece(rules, side, from, masks, sink)?;
        }
        ControlFlow::Continue(())
    }

    /// The empty cells and the cells of `side`'s opponent, as masks of the first 64 cells (all
    /// of them on a board narrow enough to have step groups).
    #[inline(always)]
    pub(super) fn masks(&self, side: Player) -> (u64, u64) {
        let own = self.occupied[side.slot()].low();
        let enemy = self.occupied[side.other().slot()].low();
        (!(own | enemy), enemy)
    }

    /// Capture is mandatory: the captures if there are any, else the other moves.
    pub(super) fn generate_must_capture<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        let mut any = false;
        let masks = self.masks(side);
        for from in self.occupied[side.index()].iter() {
            let mut captures = OnlyCaptures {
                inner: &mut *f,
                any: &mut any,
            };
            self.generate_piece(rules, side, from, masks, &mut captures)?;
        }
        if !any {
            for from in self.occupied[side.index()].iter() {
                self.generate_piece(rules, side, from, masks, &mut Dyn(&mut *f))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Generates the moves of the piece on `from`, which belongs to `side`, as if capturing
    /// were never mandatory.
    pub fn generate_from<B>(
        &self,
        rules: &Rules,
        side: Player,
        from: Cell,
        f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, MoveLimit> {
        let mut sink = Guard::new(f);
        Stop::result(self.generate_piece(rules, side, from, self.masks(side), &mut sink))
    }

    /// [`State::generate_from`], given [`State::masks`]: the step groups as bitboards, then
    /// the listed targets one by one.
    #[inline(always)]
    pub(super) fn generate_piece<S: Sink>(
        &self,
        rules: &Rules,
        side: Player,
        from: Cell,
        (empty, enemy): (u64, u64),
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        let pc = self.board[from.index()];
        let slot = rules.slot(pc, from.0);
        self.generate_group(rules, &slot.first, from, (empty, enemy), sink)?;
        if !slot.more {
            return ControlFlow::Continue(());
        }
        if slot.groups > 1 {
            for g in rules.more_groups(slot) {
                self.generate_group(rules, g, from, (empty, enemy), sink)?;
            }
        }
        if slot.len == 0 || (slot.hops_only && slot.hopped & enemy == 0) {
            return ControlFlow::Continue(());
        }
        sink.outline(|sink| self.generate_listed(rules, slot, pc, from, side, sink))
    }

    /// The listed targets of `slot` (the piece `pc` on `from`), one by one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn generate_listed<S: Sink>(
        &self,
        rules: &Rules,
        slot: &Slot,
        pc: u8,
        from: Cell,
        side: Player,
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        let mut targets = rules.listed(slot).iter();
        while let Some(t) = targets.next() {
            if t.flags & SLOW != 0 {
                if t.kind == SLIDE {
                    // A ray is walked from its first target; the others are its cells.
                    if t.flags & RAY != 0 {
                        let rest = targets.as_slice();
                        sink.escape(|f| self.generate_ray(rules, t, rest, pc, from, side, f))?;
                    }
                    continue;
                }
                sink.escape(|f| self.generate_slow(rules, t, pc, from, side, f))?;
                continue;
            }
            if t.kind == HOP {
                let occ = self.board[t.over as usize];
                if occ != 0
                    && State::owner_of(occ) != side
                    && self.board[t.to as usize] == 0
                    && self.cap_allowed(rules, t, occ)
                {
                    let mv = Move::hop(from, Cell(t.to), t.rule, t.dir);
                    if t.flags & CHAIN != 0 {
                        sink.escape(|f| self.emit_hop(rules, t, pc, side, mv, f))?;
                    } else {
                        sink.push(mv)?;
                    }
                }
                continue;
            }
            if t.flags & BLOCKABLE != 0 && self.jump_blocked_fast(rules, t) {
                continue;
            }
            let occ = self.board[t.to as usize];
            if occ == 0 {
                if t.flags & QUIET != 0 {
                    sink.push(Move::simple(from, Cell(t.to), t.rule, false))?;
                }
            } else if State::owner_of(occ) != side
                && t.flags & CAPTURE != 0
                && self.cap_allowed(rules, t, occ)
            {
                sink.push(Move::simple(from, Cell(t.to), t.rule, true))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The moves of one step group from `from`: quiet ones by mask, captures by mask and the
    /// capture table.
    #[inline(always)]
    pub(super) fn generate_group<S: Sink>(
        &self,
        rules: &Rules,
        g: &StepGroup,
        from: Cell,
        (empty, enemy): (u64, u64),
        sink: &mut S,
    ) -> ControlFlow<S::Break> {
        let mut quiet = g.quiet & empty;
        let step = Move::simple(from, from, g.rule, false);
        while quiet != 0 {
            let to = quiet.trailing_zeros() as u16;
            quiet &= quiet - 1;
            sink.push(step.with_to(Cell(to)))?;
        }
        let mut capture = g.capture & enemy;
        while capture != 0 {
            let to = capture.trailing_zeros() as usize;
            capture &= capture - 1;
            let i = g.cap_from
                + rules.cell_class[to] as u32 * g.cap_class
                + self.board[to] as u32 * g.cap_piece;
            if bit(&rules.cap_bits, i as usize) {
                sink.push(Move::simple(from, Cell(to as u16), g.rule, true))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether a promotion of `pc` on `to` ends a hop chain there.
    #[inline(always)]
    pub(super) fn promotion_stops(rules: &Rules, pc: u8, to: u16) -> bool {
        !rules.promote_stops.is_empty()
            && rules.promote_stops[pc as usize * rules.stride + to as usize]
    }

    /// The moves along one ray of a slide, whose targets start `ray`: empty cells up to the
    /// first piece (or, over a screen, past it up to the next), which it may capture.
    #[cold]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn generate_ray<B>(
        &self,
        rules: &Rules,
        first: &Target,
        rest: &[Target],
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        let len = rest
            .iter()
            .take_while(|t| t.kind == SLIDE && t.rule == first.rule && t.dir == first.dir)
            .count();
        let m = &rules.moves[first.rule as usize];
        let plain = m.dynamic_enter.is_empty() && m.capture.dynamic.is_empty();
        let mut screened = false;
        for t in std::iter::once(first).chain(&rest[..len]) {
            let occ = self.board[t.to as usize];
            if occ == 0 {
                if screened || t.flags & QUIET == 0 {
                    continue;
                }
            } else if t.flags & SCREEN != 0 && !screened {
                screened = true;
                continue;
            } else if State::owner_of(occ) == side {
                // A slide over its own pieces passes them.
                if m.over_own {
                    continue;
                }
                break;
            } else if t.flags & CAPTURE == 0 || !self.cap_allowed(rules, t, occ) {
                break;
            }
            let verdict = if plain {
                Ok(Move::simple(from, Cell(t.to), t.rule, occ != 0))
            } else {
                self.target_verdict(rules, t, pc, from, side)
            };
            if let Ok(mv) = verdict {
                self.emit_then(rules, m, side, mv, f)?;
            }
            if occ != 0 {
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// Targets whose checks read the position, and hops that chain or must be completed.
    #[cold]
    pub(super) fn generate_slow<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        // Most hops have nothing to hop: refused here as `target_verdict` would refuse them,
        // without the call.
        if t.kind == HOP {
            let occ = self.board[t.over as usize];
            if occ == 0 || State::owner_of(occ) == side || self.board[t.to as usize] != 0 {
                return ControlFlow::Continue(());
            }
        }
        match self.target_verdict(rules, t, pc, from, side) {
            Err(_) => ControlFlow::Continue(()),
            Ok(mv) if t.kind == HOP => self.emit_hop(rules, t, pc, side, mv, f),
            Ok(mv) => self.emit_then(rules, &rules.moves[t.rule as usize], side, mv, f),
        }
    }

    /// Whether `side` has a legal move. A position whose moves go past the kernel's limits has
    /// moves.
    pub fn has_move(&self, rules: &Rules, side: Player) -> bool {
        // A pass is what a player with no move does: it does not count.
        let flow = self.generate(rules, side, |m| {
            if m.is_pass() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        match flow {
            Ok(flow) => flow.is_break(),
            Err(_) => true,
        }
    }
}

/// A sink that passes on only captures, and notes whether there were any.
struct OnlyCaptures<'a, 'b, B> {
    inner: &'a mut dyn Emit<B>,
    any: &'b mut bool,
}

impl<B> Sink for OnlyCaptures<'_, '_, B> {
    type Break = B;

    #[inline(always)]
    fn push(&mut self, m: Move) -> ControlFlow<B> {
        if m.is_capture() {
            *self.any = true;
            self.inner.push(m)
        } else {
            ControlFlow::Continue(())
        }
    }

    #[inline(always)]
    fn limit(&mut self, l: MoveLimit) -> ControlFlow<B> {
        self.inner.limit(l)
    }

    #[inline(always)]
    fn outline(&mut self, g: impl FnOnce(&mut Self) -> ControlFlow<B>) -> ControlFlow<B> {
        g(self)
    }
}
