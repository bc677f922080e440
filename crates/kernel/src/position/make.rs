//! Make and unmake.

use super::undo::HOPPED;
use super::*;
use crate::moves::Move;
use crate::piece::{PIECE_CODES, Piece};
use crate::rules::Rules;

impl State {
    /// Plays a move generated for the side to move.
    #[inline(always)]
    pub fn make(&mut self, rules: &Rules, m: Move) -> Undo {
        // Lean rules are never general: they test one flag.
        if rules.lean {
            self.make_as::<Lean>(rules, m)
        } else if rules.general {
            self.make_general(rules, m)
        } else {
            self.make_as::<Full>(rules, m)
        }
    }

    /// [`State::make`], knowing the rules' [`Profile`].
    #[inline(always)]
    pub(super) fn make_as<P: Profile>(&mut self, rules: &Rules, m: Move) -> Undo {
        if m.hops() != 0 {
            return self.make_hops(rules, m);
        }
        Undo {
            step: self.make_step::<P>(rules, m),
            hopped: [0; HOPPED],
        }
    }

    /// [`State::make`] for a step or a jump: only the captured piece's counts change.
    #[inline(always)]
    pub(crate) fn make_step<P: Profile>(&mut self, rules: &Rules, m: Move) -> StepUndo {
        let before = self.before();
        self.make_step_from::<P>(rules, m, &before)
    }

    /// What [`State::make_step_from`] reads.
    #[inline(always)]
    pub(crate) fn before(&self) -> Before {
        Before {
            hash: self.hash,
            own: self.occupied[self.side.slot()].low(),
            enemy: self.occupied[self.side.other().slot()].low(),
            clock: self.clock,
            idle: self.idle,
            count_end: self.count_end,
            side: self.side,
        }
    }

    /// [`State::make_step`], given what [`State::before`] returns for this state.
    #[inline(always)]
    pub(crate) fn make_step_from<P: Profile>(
        &mut self,
        rules: &Rules,
        m: Move,
        b: &Before,
    ) -> StepUndo {
        debug_assert!(self.outcome.is_none(), "a move of a finished game");
        let narrow = P::LEAN || rules.narrow;
        let side = b.side;
        let (from, to) = (m.from().index(), m.to().index());
        let piece = self.board[from];
        let captured = self.board[to];
        // Lean rules never touch the idle clock: not reading it keeps its two bytes from being
        // read together with the clock's, which the previous move wrote alone.
        let idle = if P::LEAN { 0 } else { b.idle };
        let undo = StepUndo::new(b.hash, b.clock, idle, piece, captured, b.count_end);
        let placed = if P::LEAN || rules.promote.is_empty() {
            piece
        } else {
            self.promote(rules, piece, to)
        };
        self.board[from] = 0;
        self.board[to] = placed;
        let moved = (1u64 << (m.from().0 & 63)) | (1u64 << (m.to().0 & 63));
        if P::LEAN {
            self.occupied[side.slot()].set_low(b.own ^ moved);
        } else {
            self.occupied[side.slot()].toggle2(m.from(), m.to(), narrow);
        }
        self.hash = b.hash
            ^ rules.zobrist[piece as usize][from]
            ^ rules.zobrist[placed as usize][to]
            ^ rules.zobrist_side;
        if captured != 0 {
            let other = side.other().slot();
            if P::LEAN {
                self.occupied[other].set_low(b.enemy ^ (1u64 << (m.to().0 & 63)));
            } else {
                self.occupied[other].toggle_in(m.to(), narrow);
            }
            self.counts[captured as usize] -= 1;
            self.counts[PIECE_CODES + other] -= 1;
            self.hash ^= rules.zobrist[captured as usize][to];
            self.clock = 0;
            self.recount_as::<P>(rules);
        } else {
            self.clock = b.clock.saturating_add(1);
        }
        self.side = side.other();
        if !P::LEAN && rules.history {
            self.after_move(rules, captured != 0 || placed != piece);
        }
        // General rules decide the end once the whole move is made (`make_general`).
        if P::LEAN || (placed != 0 && !rules.general) {
            self.outcome = self.evaluate_end::<P>(rules, Piece(placed), m.from(), m.to(), side);
        }
        undo
    }

    /// What unmake needs besides the captured pieces, as the position stands before a move of
    /// `piece`.
    #[inline(always)]
    pub(crate) fn undo_record(&self, piece: u8) -> StepUndo {
        StepUndo::new(self.hash, self.clock, self.idle, piece, 0, self.count_end)
    }

    /// The fields of an undo record that unmake restores as they were, for both kinds of move.
    /// A move is only generated, and so only made, while the game runs: the outcome goes back
    /// to none; the count verdicts come back when `count_end` says they may have changed.
    #[inline(always)]
    pub(super) fn restore<P: Profile>(&mut self, rules: &Rules, undo: &StepUndo, count_end: bool) {
        self.hash = undo.hash;
        self.clock = undo.clock();
        if !P::LEAN && rules.history {
            self.idle = undo.idle();
            self.ply = self.ply.wrapping_sub(1);
        }
        self.outcome = None;
        if count_end {
            self.count_end = undo.count_end();
        }
    }

    /// Keeps the idle clock and the positions played, for rules that read them. General rules
    /// remember the position once the whole move is made (`decide_general`).
    #[cold]
    pub(crate) fn after_move(&mut self, rules: &Rules, irreversible: bool) {
        self.idle = if irreversible {
            0
        } else {
            self.idle.saturating_add(1)
        };
        self.ply = self.ply.wrapping_add(1);
        if !rules.general {
            self.remember(rules);
        }
    }

    /// The code `piece` has once it ends a move on `to` (promotion), with the counts updated.
    #[cold]
    pub(super) fn promote(&mut self, rules: &Rules, piece: u8, to: usize) -> u8 {
        let placed = rules.promote[piece as usize * rules.stride + to];
        if placed != piece {
            self.counts[piece as usize] -= 1;
            self.counts[placed as usize] += 1;
            self.recount(rules);
        }
        placed
    }

    /// [`State::make`] for a hop chain: each hopped piece is taken off in turn.
    #[inline(never)]
    pub(crate) fn make_hops(&mut self, rules: &Rules, m: Move) -> Undo {
        let side = self.side;
        // Recorded before anything moves: unmake restores the key and the derived fields
        // from it.
        let mut undo = Undo {
            step: self.undo_record(self.board[m.from().index()]),
            hopped: [0; HOPPED],
        };
        let piece = self.take(rules, m.from());
        let g = rules.geometry();
        let mut cur = m.from();
        for i in 0..m.hops() {
            let d = m.hop_dir(i);
            // The move was generated on this board, so both cells exist.
            let over = g.neighbour(cur, d).unwrap_or(cur);
            let taken = self.take(rules, over);
            undo.set_hopped(i, taken);
            cur = g.neighbour(over, d).unwrap_or(over);
        }
        let placed = if piece != 0 && !rules.promote.is_empty() {
            rules.promote[piece as usize * rules.stride + m.to().index()]
        } else {
            piece
        };
        if placed != 0 {
            self.put(rules, Piece(placed), m.to());
        }
        self.recount(rules);
        self.clock = 0;
        self.hash ^= rules.zobrist_side;
        self.side = side.other();
        if rules.history {
            self.after_move(rules, true);
        }
        if placed != 0 && !rules.general {
            self.outcome = self.evaluate_end::<Full>(rules, Piece(placed), m.from(), m.to(), side);
        }
        undo
    }

    /// Takes back `m`, which was the last move made, given what `make` returned.
    #[inline(always)]
    pub fn unmake(&mut self, rules: &Rules, m: Move, undo: Undo) {
        if rules.lean {
            self.unmake_as::<Lean>(rules, m, &undo)
        } else if rules.general {
            self.unmake_general(rules, m, &undo)
        } else {
            self.unmake_as::<Full>(rules, m, &undo)
        }
    }

    /// [`State::unmake`], knowing the rules' [`Profile`].
    #[inline(always)]
    pub(super) fn unmake_as<P: Profile>(&mut self, rules: &Rules, m: Move, undo: &Undo) {
        if m.hops() != 0 {
            return self.unmake_hops(rules, m, undo);
        }
        self.unmake_step::<P>(rules, m, undo.step)
    }

    /// [`State::unmake`] for a step or a jump.
    #[inline(always)]
    pub(crate) fn unmake_step<P: Profile>(&mut self, rules: &Rules, m: Move, undo: StepUndo) {
        self.unmake_step_to::<P>(rules, m, undo, None)
    }

    /// [`State::unmake_step`]; with `before` (what [`State::before`] returned before the move),
    /// under [`Lean`] rules the occupancy words are put back as they were.
    #[inline(always)]
    pub(crate) fn unmake_step_to<P: Profile>(
        &mut self,
        rules: &Rules,
        m: Move,
        undo: StepUndo,
        before: Option<&Before>,
    ) {
        let narrow = P::LEAN || rules.narrow;
        let side = before.map_or(self.side.other(), |b| b.side);
        self.side = side;
        let (from, to) = (m.from().index(), m.to().index());
        let piece = undo.piece();
        if !P::LEAN {
            let placed = self.board[to];
            if placed != piece {
                self.counts[placed as usize] -= 1;
                self.counts[piece as usize] += 1;
            }
        }
        let captured = undo.captured();
        self.board[from] = piece;
        self.board[to] = captured;
        let other = side.other().slot();
        match before {
            Some(b) if P::LEAN => {
                self.occupied[side.slot()].set_low(b.own);
                if captured != 0 {
                    self.occupied[other].set_low(b.enemy);
                }
            }
            _ => {
                self.occupied[side.slot()].toggle2(m.from(), m.to(), narrow);
                if captured != 0 {
                    self.occupied[other].toggle_in(m.to(), narrow);
                }
            }
        }
        if captured != 0 {
            self.counts[captured as usize] += 1;
            self.counts[PIECE_CODES + other] += 1;
        }
        // Only a capture changes the count verdicts of lean rules.
        self.restore::<P>(rules, &undo, !P::LEAN || captured != 0 || before.is_none());
    }

    #[inline(never)]
    pub(crate) fn unmake_hops(&mut self, rules: &Rules, m: Move, undo: &Undo) {
        self.side = self.side.other();
        self.take(rules, m.to());
        if undo.step.piece() != 0 {
            self.put(rules, Piece(undo.step.piece()), m.from());
        }
        let g = rules.geometry();
        let mut cur = m.from();
        for i in 0..m.hops() {
            let d = m.hop_dir(i);
            let over = g.neighbour(cur, d).unwrap_or(cur);
            let hopped = undo.hopped(i);
            if hopped != 0 {
                self.put(rules, Piece(hopped), over);
            }
            cur = g.neighbour(over, d).unwrap_or(over);
        }
        self.restore::<Full>(rules, &undo.step, true);
    }
}
