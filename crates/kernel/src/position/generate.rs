//! Move generation.

use super::*;
use crate::cell::{Cell, CellSet};
use crate::expr::Value;
use crate::moves::{Callback, Move, Sink};
use crate::piece::{Piece, Player};
use crate::rules::{MAX_HOPS, Rules};
use crate::tables::{
    BLOCKABLE, CAPTURE, CHAIN, CompiledMove, HOP, JUMP, Jumped, QUIET, SLOW, Target, bit,
};
use crate::tables::{Slot, StepGroup};
use std::ops::ControlFlow;

impl State {
    /// Generates the legal moves of `side` (as if it were to move), calling `f` for each.
    pub fn generate<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.generate_into(rules, side, &mut Callback(f))
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
        if rules.must_capture {
            return sink.escape(|mut f| self.generate_must_capture(rules, side, &mut f));
        }
        let masks = self.masks(side);
        if rules.narrow {
            let mut own = self.occupied[side.slot()].low();
            while own != 0 {
                let from = Cell(own.trailing_zeros() as u8);
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
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut any = false;
        let masks = self.masks(side);
        for from in self.occupied[side.index()].iter() {
            let mut captures = |m: Move| {
                if m.is_capture() {
                    any = true;
                    f(m)
                } else {
                    ControlFlow::Continue(())
                }
            };
            self.generate_piece(rules, side, from, masks, &mut Callback(&mut captures))?;
        }
        if !any {
            for from in self.occupied[side.index()].iter() {
                self.generate_piece(rules, side, from, masks, &mut Callback(f))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Generates the legal moves of the piece on `from`, which belongs to `side`.
    pub fn generate_from<B>(
        &self,
        rules: &Rules,
        side: Player,
        from: Cell,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.generate_piece(rules, side, from, self.masks(side), &mut Callback(f))
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
        for t in rules.listed(slot) {
            if t.flags & SLOW != 0 {
                sink.escape(|mut f| self.generate_slow(rules, t, pc, from, side, &mut f))?;
                continue;
            }
            if t.kind == HOP {
                let occ = self.board[t.over as usize];
                if occ != 0
                    && State::owner_of(occ) != side
                    && self.board[t.to as usize] == 0
                    && bit(
                        &rules.cap_bits,
                        (t.cap_base + occ as u32 * t.cap_stride) as usize,
                    )
                {
                    let mv = Move::hop(from, Cell(t.to), t.rule, t.dir);
                    sink.push(mv)?;
                    if t.flags & CHAIN != 0
                        && (rules.promote_stops.is_empty()
                            || !rules.promote_stops[pc as usize * rules.stride + t.to as usize])
                    {
                        sink.escape(|mut f| self.chain_from(rules, t, pc, side, mv, &mut f))?;
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
                && bit(
                    &rules.cap_bits,
                    (t.cap_base + occ as u32 * t.cap_stride) as usize,
                )
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
            let to = quiet.trailing_zeros() as u8;
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
                sink.push(Move::simple(from, Cell(to as u8), g.rule, true))?;
            }
        }
        ControlFlow::Continue(())
    }

    #[inline]
    pub(super) fn jump_blocked_fast(&self, rules: &Rules, t: &Target) -> bool {
        let start = t.jumped_start as usize;
        rules.jumped[start..start + t.jumped_len as usize]
            .iter()
            .any(|j| {
                bit(
                    &rules.block_bits,
                    j.block_base as usize + self.board[j.cell as usize] as usize,
                )
            })
    }

    /// Targets whose predicates read the position, and hops (which may chain).
    #[cold]
    pub(super) fn generate_slow<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let m = &rules.moves[t.rule as usize];
        if t.kind == HOP {
            return self.hop(rules, m, t, pc, from, side, f);
        }
        if t.kind == JUMP && self.jump_blocked(rules, m, t, pc) {
            return ControlFlow::Continue(());
        }
        let occ = self.board[t.to as usize];
        let to = Cell(t.to);
        if occ == 0 {
            if t.flags & QUIET != 0 && self.dynamic_enter_ok(rules, m, pc, from, to) {
                f(Move::simple(from, to, t.rule, false))?;
            }
        } else if State::owner_of(occ) != side
            && t.flags & CAPTURE != 0
            && self.capture_ok(rules, m, t, pc, from, occ, to, to)
            && self.dynamic_enter_ok(rules, m, pc, from, to)
        {
            f(Move::simple(from, to, t.rule, true))?;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    pub(super) fn jump_blocked(&self, rules: &Rules, m: &CompiledMove, t: &Target, pc: u8) -> bool {
        let start = t.jumped_start as usize;
        let cells = &rules.jumped[start..start + t.jumped_len as usize];
        if t.flags & BLOCKABLE != 0 && self.jump_blocked_fast(rules, t) {
            return true;
        }
        if !m.blocked.dynamic.is_empty() {
            for &Jumped { cell: c, .. } in cells {
                let occ = self.board[c as usize];
                let env = PlayEnv {
                    rules,
                    state: self,
                    mover: Some(Value::Piece(Piece(pc), Cell(c))),
                    player: Piece(pc).owner(),
                    cell: Some(Cell(c)),
                    occupant: Some(match Piece::from_code(occ) {
                        Some(o) => Value::Piece(o, Cell(c)),
                        None => Value::NoPiece,
                    }),
                    ..PlayEnv::new(rules, self, Piece(pc).owner())
                };
                if m.blocked
                    .dynamic
                    .iter()
                    .any(|e| e.test(&rules.core, &env).unwrap_or(true))
                {
                    return true;
                }
            }
        }
        false
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn capture_ok(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        t: &Target,
        pc: u8,
        from: Cell,
        occ: u8,
        target_cell: Cell,
        to: Cell,
    ) -> bool {
        bit(
            &rules.cap_bits,
            (t.cap_base + occ as u32 * t.cap_stride) as usize,
        ) && (m.capture.dynamic.is_empty() || {
            let env = PlayEnv {
                mover: Some(Value::Piece(Piece(pc), from)),
                target: Some(Value::Piece(Piece(occ), target_cell)),
                from: Some(from),
                to: Some(to),
                ..PlayEnv::new(rules, self, Piece(pc).owner())
            };
            m.capture
                .dynamic
                .iter()
                .all(|e| e.test(&rules.core, &env).unwrap_or(false))
        })
    }

    #[inline]
    pub(super) fn dynamic_enter_ok(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        from: Cell,
        to: Cell,
    ) -> bool {
        m.dynamic_enter.is_empty() || {
            let env = PlayEnv {
                mover: Some(Value::Piece(Piece(pc), from)),
                from: Some(from),
                to: Some(to),
                ..PlayEnv::new(rules, self, Piece(pc).owner())
            };
            m.dynamic_enter
                .iter()
                .all(|e| e.test(&rules.core, &env).unwrap_or(false))
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn hop<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let occ = self.board[t.over as usize];
        if occ == 0 || State::owner_of(occ) == side || self.board[t.to as usize] != 0 {
            return ControlFlow::Continue(());
        }
        let (over, to) = (Cell(t.over), Cell(t.to));
        if !self.capture_ok(rules, m, t, pc, from, occ, over, to)
            || !self.dynamic_enter_ok(rules, m, pc, from, to)
        {
            return ControlFlow::Continue(());
        }
        let mv = Move::hop(from, to, t.rule, t.dir);
        let stops = !rules.promote_stops.is_empty()
            && rules.promote_stops[pc as usize * rules.stride + to.index()];
        if !m.chain || stops {
            return f(mv);
        }
        if !m.complete {
            f(mv)?;
        }
        let mut vacated = CellSet::EMPTY;
        vacated.insert(from);
        vacated.insert(over);
        let extended = self.chain(rules, m, pc, side, mv, vacated, f)?;
        if m.complete && !extended {
            f(mv)?;
        }
        ControlFlow::Continue(())
    }

    #[cold]
    pub(super) fn chain_from<B>(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        side: Player,
        mv: Move,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let mut vacated = CellSet::EMPTY;
        vacated.insert(mv.from());
        vacated.insert(Cell(t.over));
        self.chain(
            rules,
            &rules.moves[t.rule as usize],
            pc,
            side,
            mv,
            vacated,
            f,
        )?;
        ControlFlow::Continue(())
    }

    /// Extends a hop chain from its last landing cell with the same pattern. `vacated` holds
    /// the cells that count as empty: the origin and every piece already jumped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chain<B>(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        side: Player,
        mv: Move,
        vacated: CellSet,
        f: &mut impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B, bool> {
        if mv.hops() >= MAX_HOPS {
            return ControlFlow::Continue(false);
        }
        let cur = mv.to();
        let at = |c: u8| {
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
            if !self.capture_ok(rules, m, t, pc, cur, occ, over, to)
                || !self.dynamic_enter_ok(rules, m, pc, cur, to)
            {
                continue;
            }
            extended = true;
            let next = mv.extended(to, t.dir);
            let stops = !rules.promote_stops.is_empty()
                && rules.promote_stops[pc as usize * rules.stride + to.index()];
            if !m.complete || stops {
                f(next)?;
            }
            if stops {
                continue;
            }
            let mut v = vacated;
            v.insert(over);
            let deeper = self.chain(rules, m, pc, side, next, v, f)?;
            if m.complete && !deeper {
                f(next)?;
            }
        }
        ControlFlow::Continue(extended)
    }

    pub fn has_move(&self, rules: &Rules, side: Player) -> bool {
        self.generate(rules, side, &mut |_| ControlFlow::Break(()))
            .is_break()
    }
}
