//! The general path: placements, passes, second parts of turns, effects, supplies in hand,
//! and winners read from the position.
//!
//! Rules with any of these ([`Rules::general`]) generate, make and unmake here; the pieces'
//! own moves still come from the compiled targets of `generate.rs`, placements from
//! `placements.rs`, what effects change from `effects.rs`, and the moves and parts of make of
//! royal pieces, compound moves, choices of promotion and passing captures from their modules
//! in [`crate::construct`]. Rules without them never come here, so the fast paths
//! of the other games carry no test for these features.

use super::undo::HOPPED;
use super::*;
use crate::cell::Cell;
use crate::construct::{Construct, Seconds};
use crate::expr::Value;
use crate::limits::MoveLimit;
use crate::moves::{Dyn, Emit, Guard, Move};
use crate::piece::{Piece, Player};
use crate::position::state::{TURN_CELL_TAG, TURN_KEPT, TURN_TAG, turn_cell_key, turn_key};
use crate::rules::Rules;
use crate::status::Outcome;
use crate::verdict::StaticEnv;
use std::ops::ControlFlow;

/// The cell of a log entry that marks the start of a move's entries (no cell has it); the
/// position before the move was not [`State::stirred`].
pub(crate) const MARK: u16 = u16::MAX;
/// [`MARK`], for a position before the move that was stirred.
pub(crate) const MARK_STIRRED: u16 = u16::MAX - 1;

impl State {
    /// Generation for general rules: the pieces' moves and the compound moves (where capturing
    /// is mandatory, the captures if any is legal), then the placements, then a pass if
    /// nothing else; each pseudo-legal move admitted by [`State::admit`] (see `legal.rs`).
    /// Where the most pieces must be taken, generation runs twice: once to find how many the
    /// best capture takes, once to pass on the moves that take that many.
    #[inline(never)]
    pub(super) fn generate_general<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        if !rules.most_captures {
            return self.generate_general_all(rules, side, f);
        }
        let mut most = Most {
            inner: f,
            counting: true,
            most: 0,
        };
        self.generate_general_all(rules, side, &mut most)?;
        most.counting = false;
        self.generate_general_all(rules, side, &mut most)
    }

    /// [`State::generate_general`], every legal move but for taking the most.
    fn generate_general_all<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        let mut judged = Judged {
            state: self,
            rules,
            inner: f,
            any: false,
            captures_only: rules.must_capture,
            judge: rules.judges_moves(side),
            safety: Some(self.safety(rules, side)),
            side,
        };
        let masks = self.masks(side);
        loop {
            for from in self.occupied[side.index()].iter() {
                self.generate_piece(rules, side, from, masks, &mut Dyn(&mut judged))?;
            }
            if rules.special {
                crate::construct::generate(self, rules, side, &mut judged)?;
            }
            if !judged.captures_only || judged.any {
                break;
            }
            judged.captures_only = false;
        }
        // Still only captures here: some capture is legal, and placements are not.
        if !judged.captures_only {
            self.generate_placements(rules, side, &mut judged)?;
        }
        // A pass at any time, but not instead of a mandatory capture.
        if (!judged.any || (rules.pass_any_time && !judged.captures_only))
            && let Some(r) = rules.pass_rule
        {
            let pass = Move::pass(r);
            if !judged.judge || judged.admits(pass) {
                judged.inner.push(pass)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether a legal move of the side to move takes the piece that passed the cells open to
    /// capture (python-chess's `has_legal_en_passant`).
    pub(crate) fn ghost_takeable(&self, rules: &Rules) -> bool {
        let side = self.side;
        let judge = rules.judges_moves(side);
        // Most passed cells no piece can take: find that out without judging any move (and
        // without working out the royal piece's safety).
        let mut pseudo = Guard::new(|_: Move| ControlFlow::<()>::Break(()));
        let mut unjudged = Judged {
            state: self,
            rules,
            inner: &mut pseudo,
            any: false,
            captures_only: false,
            judge: false,
            safety: None,
            side,
        };
        let any = self
            .generate_ghost_takes(rules, side, &mut unjudged)
            .is_break();
        if !any || !judge {
            return any;
        }
        let mut found = Guard::new(|_: Move| ControlFlow::<()>::Break(()));
        let mut judged = Judged {
            state: self,
            rules,
            inner: &mut found,
            any: false,
            captures_only: false,
            judge,
            safety: Some(self.safety(rules, side)),
            side,
        };
        self.generate_ghost_takes(rules, side, &mut judged)
            .is_break()
    }

    /// Make for general rules.
    #[inline(never)]
    pub(crate) fn make_general(&mut self, rules: &Rules, m: Move) -> Undo {
        let side = self.side;
        let (undo, totals, _) = self.apply_general(rules, m);
        self.decide_general(rules, m, side, totals);
        undo
    }

    /// The changes of make for general rules, without deciding the end: the board, the hand,
    /// the extra state, the side. Returns the undo record, the pieces of each player before
    /// the move, and the first effect that must change a piece and changed none (for a
    /// pass, none). [`State::make_general`] and the reference definition of legality
    /// (`legal.rs`) both make moves with it.
    #[inline(always)]
    pub(crate) fn apply_general(
        &mut self,
        rules: &Rules,
        m: Move,
    ) -> (Undo, (u16, u16), Option<u8>) {
        // The log's entries of this move start with a mark, which keeps the passes before it.
        let passes = self.passes;
        let mark = self.log.0.len();
        self.log
            .0
            .push((if self.stirred { MARK_STIRRED } else { MARK }, passes));
        let totals = (
            self.counts[crate::piece::PIECE_CODES],
            self.counts[crate::piece::PIECE_CODES + 1],
        );
        let side = self.side;
        let undo = if m.is_pass() || m.is_placement() {
            let undo = Undo {
                step: self.undo_record(0),
                hopped: [0; HOPPED],
            };
            if m.is_placement() {
                let code = State::placed_code(rules, m.rule(), side);
                if rules.supply(Piece(code).kind()).is_some() {
                    let left = self.in_hand(code as usize).saturating_sub(1);
                    self.set_reserve(code as usize, left);
                }
                self.put(rules, Piece(code), m.to());
            }
            self.clock = self.clock.saturating_add(1);
            self.hash ^= rules.zobrist_side;
            self.side = side.other();
            if rules.history {
                self.after_move(rules, m.is_placement());
            }
            if rules.special {
                // Cells passed by the last move stay open for one turn only.
                crate::construct::after_make(self, rules, m, 0);
            }
            undo
        } else if let Some(partner) = m.compound_partner() {
            let moved = self.board[m.from().index()];
            let undo = self.make_compound(rules, m, partner);
            crate::construct::after_make(self, rules, m, moved);
            undo
        } else {
            let moved = self.board[m.from().index()];
            let undo = if m.is_far() {
                self.make_far_hops(rules, m)
            } else {
                self.make_as::<Full>(rules, m)
            };
            if rules.special {
                crate::construct::after_make(self, rules, m, moved);
            }
            undo
        };
        self.set_passes(if m.is_pass() {
            passes.saturating_add(1)
        } else {
            0
        });
        if m.second().is_some() {
            Seconds::after_make(self, rules, m, 0);
        }
        let unchanged = if m.is_pass() {
            None
        } else {
            self.apply_effects(rules, m.to())
        };
        // The piece the mover chose to remove goes last, on the board the effects left.
        if let Some(at) = m.removal()
            && self.board[at.index()] != 0
        {
            self.change(rules, at, 0);
            if !self.unmoved.is_empty() {
                self.forget_moved(rules, at);
            }
        }
        if rules.hands {
            let other = [totals.0, totals.1][side.other().slot()];
            if self.counts[crate::piece::PIECE_CODES + side.other().slot()] < other {
                self.captures_to_hand(rules, side, m, &undo, mark);
            }
        }
        self.recount(rules);
        if rules.turn.is_some() {
            self.next_part(rules, m, side, totals);
        }
        (undo, totals, unchanged)
    }

    /// In a game of turns of several moves, after move `m` of `side` (made but for this):
    /// the same player moves again while the turn has moves left and its `again` holds on
    /// the position (`taken`: the enemy pieces the move took); otherwise the turn ends. The
    /// turn's count and moved cells change through the log and the key.
    #[cold]
    fn next_part(&mut self, rules: &Rules, m: Move, side: Player, totals: (u16, u16)) {
        let Some((most, again)) = &rules.turn else {
            return;
        };
        let before = [totals.0, totals.1][side.other().slot()];
        let after = self.counts[crate::piece::PIECE_CODES + side.other().slot()];
        let taken = before.saturating_sub(after);
        let go_on = !m.is_pass()
            && self.turn + 1 < *most
            && again.as_ref().is_none_or(|e| {
                let mut bound = self.made_env(m, side);
                bound.taken = Some(taken);
                let env = super::end::PlayEnv::new(rules, self, bound);
                e.test(&rules.core, &env).unwrap_or(false)
            });
        let (turn, cells) = if go_on {
            let mut cells = self.turn_cells;
            cells.insert(m.to());
            // Only the mover's pieces that still stand there: the cell the move left is empty,
            // and an effect may have taken or turned a piece.
            (
                self.turn + 1,
                cells.intersection(&self.occupied[side.slot()]),
            )
        } else {
            (0, crate::cell::CellSet::EMPTY)
        };
        let mut changed = cells.union(&self.turn_cells);
        changed.remove_all(&cells.intersection(&self.turn_cells));
        for c in changed.iter() {
            self.log.0.push((TURN_CELL_TAG | c.0, 0));
            self.turn_cells.toggle(c);
            self.hash ^= turn_cell_key(c);
        }
        self.log
            .0
            .push((TURN_TAG, self.turn | if go_on { TURN_KEPT } else { 0 }));
        self.hash ^= turn_key(self.turn) ^ turn_key(turn);
        self.turn = turn;
        if go_on {
            self.side = side;
            self.hash ^= rules.zobrist_side;
        }
    }

    /// The end of make for general rules: the outcome of move `m` of `side`, given the pieces
    /// of each player before it, and the position remembered.
    fn decide_general(&mut self, rules: &Rules, m: Move, side: Player, totals: (u16, u16)) {
        if rules.uses_repetitions {
            // The key is final only now (effects, second parts, extra state), and the end
            // rules may read `repetitions`.
            self.remember(rules);
        }
        // Rules of counts are tested after a move that stirred them or after one that follows
        // such a move (see `State::stirred`).
        // In a turn of several moves, the position two plies ago was seen from the other
        // player or from the same: every rule is tested.
        let before = self.stirred || rules.turn.is_some();
        let after = |changed: bool, moved: u64| {
            if before {
                (true, u64::MAX)
            } else {
                (changed, moved)
            }
        };
        self.outcome = if m.is_pass() {
            self.stirred = false;
            self.eager_end(
                rules,
                None,
                Cell(0),
                Cell(0),
                side,
                crate::tables::NONE,
                after(false, 0),
            )
        } else {
            let piece = Piece::from_code(self.board[m.to().index()]);
            let from = if m.is_placement() { m.to() } else { m.from() };
            let arrive = piece.map_or(crate::tables::NONE, |p| {
                rules.arrive_first[p.code()][m.to().index()]
            });
            let changed = totals
                != (
                    self.counts[crate::piece::PIECE_CODES],
                    self.counts[crate::piece::PIECE_CODES + 1],
                )
                || m.choice_code().is_some()
                || m.is_placement()
                || !rules.effects.is_empty()
                || !rules.promote.is_empty();
            // The kinds whose pieces moved: the mover's, and any for a compound move.
            let moved = match piece {
                _ if m.is_compound() => u64::MAX,
                Some(p) if !m.is_placement() => 1 << p.kind().index(),
                _ => 0,
            };
            self.stirred = changed || moved & rules.count_kinds != 0;
            self.eager_end(
                rules,
                piece,
                from,
                m.to(),
                side,
                arrive,
                after(changed, moved),
            )
        };
    }

    /// Unmake for general rules.
    #[inline(never)]
    /// Sends the pieces of the other side that the move `m` of `side` took to `side`'s hand,
    /// as the kinds `to_hand` says: the piece it moved onto or the pieces it hopped (`undo`),
    /// and those the log of the move, from `mark`, shows removed (in passing, by an effect:
    /// an enemy piece in the log is a removed one, as effects that turn pieces are refused
    /// beside captures to the hand). Logged, so that rewinding takes them back.
    #[cold]
    fn captures_to_hand(&mut self, rules: &Rules, side: Player, m: Move, undo: &Undo, mark: usize) {
        let hops = m.hops();
        for i in 0..hops.max(1) {
            let code = if hops == 0 {
                undo.step.captured()
            } else {
                undo.hopped(i)
            };
            self.send_to_hand(rules, side, code);
        }
        let end = self.log.0.len();
        for i in mark + 1..end {
            let (cell, code) = self.log.0[i];
            if cell < crate::position::state::TAGS
                && code != 0
                && Piece(code).owner() == side.other()
            {
                self.send_to_hand(rules, side, code);
            }
        }
    }

    /// Puts a captured piece `code` in `side`'s hand, if its kind goes there; logged.
    fn send_to_hand(&mut self, rules: &Rules, side: Player, code: u8) {
        if code == 0 {
            return;
        }
        let Some(kind) = rules.to_hand(Piece(code).kind()) else {
            return;
        };
        let hand = Piece::new(kind, side).code();
        let n = self.in_hand(hand);
        self.set_reserve(hand, n.saturating_add(1));
        self.log
            .0
            .push((crate::position::state::HAND_TAG | hand as u16, 1));
    }

    pub(crate) fn unmake_general(&mut self, rules: &Rules, m: Move, undo: &Undo) {
        let passes = self.rewind_move(rules);
        if m.is_pass() || m.is_placement() || m.is_compound() || m.is_far() {
            self.side = self.side.other();
            if m.is_placement() {
                let code = self.take(rules, m.to());
                // Back in hand, for a kind with a supply (make took one only then).
                if code != 0
                    && rules.supply(Piece(code).kind()).is_some()
                    && let Some(reserve) = &mut self.reserve
                {
                    reserve[code as usize] += 1;
                }
            }
            self.restore::<Full>(rules, &undo.step, true);
        } else {
            self.unmake_as::<Full>(rules, m, undo);
        }
        // The key was restored with the rest; the fields it covers are set back directly.
        self.passes = passes;
    }

    /// The result of end rule `i` after a move of `mover`: its fixed result, or its winner
    /// read from the position (`nobody` or an error: a draw).
    pub(crate) fn result_of(&self, rules: &Rules, i: usize, mover: Player) -> Outcome {
        let e = &rules.end[i];
        let Some(w) = &e.winner else {
            return e.result[mover.slot()];
        };
        let env = PlayEnv::new(
            rules,
            self,
            StaticEnv {
                player: Some(mover),
                ..StaticEnv::default()
            },
        );
        match w.eval(&rules.core, &env) {
            Ok(Value::Player(p)) => Outcome::Win(p),
            _ => Outcome::Draw,
        }
    }

    /// Perft for general rules.
    pub(super) fn perft_general(&mut self, rules: &Rules, depth: u32) -> Result<u64, MoveLimit> {
        let mut moves = MoveList::new();
        self.moves_into(rules, &mut moves)?;
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        let mut n = 0;
        for part in moves.parts() {
            for &m in part {
                let u = self.make_general(rules, m);
                let sub = self.perft_general(rules, depth - 1);
                self.unmake_general(rules, m, &u);
                n += sub?;
            }
        }
        Ok(n)
    }

    /// Perft for general rules that makes and takes back the moves of the last ply too.
    pub(super) fn perft_general_full(
        &mut self,
        rules: &Rules,
        depth: u32,
    ) -> Result<u64, MoveLimit> {
        let mut moves = MoveList::new();
        self.moves_into(rules, &mut moves)?;
        let mut n = 0;
        for part in moves.parts() {
            for &m in part {
                let u = self.make_general(rules, m);
                let sub = if depth == 1 {
                    Ok(1)
                } else {
                    self.perft_general_full(rules, depth - 1)
                };
                self.unmake_general(rules, m, &u);
                n += sub?;
            }
        }
        Ok(n)
    }
}

/// The sink of generation on the general path: each pseudo-legal move, expanded by the
/// choices of promotion it has, is passed on when [`State::admit`] admits it (or, for the
/// pseudo-legal moves of the reference, always).
pub(crate) struct Judged<'a, 'b, B> {
    state: &'a State,
    rules: &'a Rules,
    pub(super) inner: &'b mut dyn Emit<B>,
    /// Whether a move was passed on.
    any: bool,
    /// Only captures are passed on (capturing is mandatory, and none was found yet).
    captures_only: bool,
    /// Some own condition is to be tested: an effect must change a piece, or the side has a
    /// royal kind.
    judge: bool,
    /// How royal safety is decided; `None` for the pseudo-legal moves, passed on unjudged.
    pub(crate) safety: Option<super::legal::Safety>,
    side: Player,
}

impl<'a, 'b, B> Judged<'a, 'b, B> {
    /// A sink passing on every pseudo-legal move, unjudged.
    pub(super) fn pseudo(
        state: &'a State,
        rules: &'a Rules,
        side: Player,
        inner: &'b mut dyn Emit<B>,
    ) -> Self {
        Judged {
            state,
            rules,
            inner,
            any: false,
            captures_only: false,
            judge: false,
            safety: None,
            side,
        }
    }

    /// Whether `m` is passed on.
    #[inline(always)]
    fn admits(&self, m: Move) -> bool {
        match &self.safety {
            None => true,
            Some(safety) => self.state.admit(self.rules, m, self.side, safety).is_ok(),
        }
    }

    #[inline(always)]
    pub(crate) fn pass_on(&mut self, m: Move) -> ControlFlow<B> {
        if !self.judge || self.admits(m) {
            self.any = true;
            self.inner.push(m)?;
        }
        ControlFlow::Continue(())
    }
}

impl<B> Emit<B> for Judged<'_, '_, B> {
    #[inline]
    fn push(&mut self, m: Move) -> ControlFlow<B> {
        if self.captures_only && !m.is_capture() {
            return ControlFlow::Continue(());
        }
        if self.rules.overlaps
            && self.rules.may_yield[m.rule() as usize]
            && self.state.shadowed(self.rules, self.side, m)
        {
            return ControlFlow::Continue(());
        }
        if self.rules.special {
            let (state, rules) = (self.state, self.rules);
            if let Some(flow) = crate::construct::expand(state, rules, m, &mut |m| self.pass_on(m))
            {
                return flow;
            }
        }
        self.pass_on(m)
    }

    fn limit(&mut self, l: MoveLimit) -> ControlFlow<B> {
        self.inner.limit(l)
    }
}

/// The sink of generation where the most pieces must be taken: counting, it notes how many
/// pieces the best move takes and passes nothing on; then it passes on the moves that take
/// that many.
struct Most<'a, B> {
    inner: &'a mut dyn Emit<B>,
    counting: bool,
    most: usize,
}

impl<B> Emit<B> for Most<'_, B> {
    fn push(&mut self, m: Move) -> ControlFlow<B> {
        let n = m.captured_count();
        if self.counting {
            self.most = self.most.max(n);
            ControlFlow::Continue(())
        } else if n == self.most {
            self.inner.push(m)
        } else {
            ControlFlow::Continue(())
        }
    }

    fn limit(&mut self, l: MoveLimit) -> ControlFlow<B> {
        self.inner.limit(l)
    }
}
