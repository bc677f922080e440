//! Royal pieces and attacks, compound moves, promotion by choice, captures of a piece that
//! has just passed, and the extra state they need (which pieces have not moved, which cells
//! were just passed): all on the general path.
//!
//! An attack has one meaning: a capture the attacker's compiled targets allow onto the cell
//! (see [`crate::compile::attacks`]), tested on a board, so that the legality of a move, the
//! safety of a compound move's path, `in_check` and `attacked` in expressions all ask the
//! same question.

use super::undo::HOPPED;
use super::*;
use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::constructs::{LISTED, PLAIN, between};
use crate::moves::{Emit, Move};
use crate::piece::Player;
use crate::rules::Rules;
use crate::tables::{BLOCKABLE, HOP, JUMP, SLIDE, Shape, bit};
use state::{GHOST_TAG, UNMOVED_TAG, VICTIM_TAG};
use std::ops::ControlFlow;

/// What the legality of every move of one generation needs: the royal piece's cell, and
/// whether it is attacked now.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RoyalCtx {
    pub royal: Cell,
    pub in_check: bool,
}

impl State {
    /// The cells of `side`'s royal pieces (none when the rules have no royal kind).
    pub(crate) fn royal_cells(&self, rules: &Rules, side: Player) -> impl Iterator<Item = Cell> {
        let r = rules.royal[side.slot()];
        let board = &self.board;
        self.occupied[side.slot()]
            .iter()
            .filter(move |c| r != 0 && board[c.index()] == r)
    }

    /// Whether some royal piece of `side` is attacked (false when it has none).
    pub(crate) fn in_check(&self, rules: &Rules, side: Player) -> bool {
        self.royal_cells(rules, side)
            .any(|k| attacked_on(rules, &self.board, k, side))
    }

    /// What the table tests of royal safety need, when `side` has exactly one royal piece.
    pub(crate) fn royal_ctx(&self, rules: &Rules, side: Player) -> Option<RoyalCtx> {
        let mut cells = self.royal_cells(rules, side);
        let royal = cells.next()?;
        if cells.next().is_some() {
            return None;
        }
        Some(RoyalCtx {
            royal,
            in_check: attacked_on(rules, &self.board, royal, side),
        })
    }

    /// Whether move `m` of `side` (generated, not made) would leave its one royal piece
    /// attacked, decided from the tables and a copy of the board when the move changes no
    /// more than its origin, its destination, a compound partner and a passing victim and
    /// leaves the royal piece royal; `None` for the others, which the reference decides by
    /// making them (`legal.rs`).
    pub(crate) fn exposes_fast(
        &self,
        rules: &Rules,
        m: Move,
        side: Player,
        ctx: &RoyalCtx,
    ) -> Option<bool> {
        if m.hops() != 0 || m.second().is_some() || !rules.effects.is_empty() {
            return None;
        }
        let royal_code = rules.royal[side.slot()];
        let at = side.slot() * rules.stride + ctx.royal.index();
        if m.is_pass() {
            return Some(ctx.in_check);
        }
        if m.is_placement() {
            // A placed piece only blocks, but as a screen, and never captures.
            let placed = State::placed_code(rules, m.rule(), side);
            if placed == royal_code || ctx.in_check || rules.attacks.fill[at].contains(m.to()) {
                return None;
            }
            return Some(false);
        }
        let from = m.from();
        let pc = self.board[from.index()];
        let royal_moves = pc == royal_code;
        let after = if royal_moves || m.choice_code().is_some() || !rules.promote.is_empty() {
            m.choice_code().unwrap_or_else(|| {
                rules
                    .promote
                    .get(pc as usize * rules.stride + m.to().index())
                    .copied()
                    .unwrap_or(pc)
            })
        } else {
            pc
        };
        if (after == royal_code) != royal_moves {
            return None;
        }
        let partner = m.compound_partner();
        if partner.is_some_and(|p| self.board[p.index()] == royal_code) {
            return None;
        }
        let victim = m.ghost_victim();
        if !ctx.in_check
            && !royal_moves
            && partner.is_none()
            && victim.is_none()
            && !rules.attacks.vacate[at].contains(from)
            && !rules.attacks.fill[at].contains(m.to())
        {
            return Some(false);
        }
        let mut b = self.board;
        b[from.index()] = 0;
        if let Some(p) = partner {
            let code = b[p.index()];
            b[p.index()] = 0;
            if let Shape::Compound(i) = rules.moves[m.rule() as usize].shape {
                b[rules.compounds[i as usize].partner_to[side.slot()].index()] = code;
            }
        }
        if let Some(v) = victim {
            b[v.index()] = 0;
        }
        b[m.to().index()] = after;
        let royal = if royal_moves { m.to() } else { ctx.royal };
        Some(attacked_on(rules, &b, royal, side))
    }

    /// The captures of the piece that has just passed the cells open to capture, and the
    /// compound moves, of `side`.
    pub(crate) fn generate_special<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        self.generate_ghost_takes(rules, side, f)?;
        for c in &rules.compounds {
            let mover = c.mover[side.slot()];
            for from in self.occupied[side.slot()]
                .intersection(&self.unmoved)
                .iter()
            {
                if self.board[from.index()] != mover {
                    continue;
                }
                if let Some(partner) = self.compound_partner(rules, c, from, side) {
                    f.push(Move::compound(
                        from,
                        c.mover_to[side.slot()],
                        c.rule,
                        partner,
                        c.by_partner[side.slot()].contains(from),
                    ))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The captures of `side` of the piece that has just passed the cells open to capture.
    pub(crate) fn generate_ghost_takes<B>(
        &self,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        if rules.ghosts.is_empty() || self.ghost.is_empty() {
            return ControlFlow::Continue(());
        }
        let victim = Cell(self.ghost_victim);
        for g in self.ghost.iter() {
            if self.board[g.index()] != 0 {
                continue;
            }
            for e in &rules.ghosts[side.slot() * rules.stride + g.index()] {
                if self.board[e.from as usize] == e.code {
                    let m = &rules.moves[e.rule as usize];
                    let mv = Move::ghost_take(Cell(e.from), g, e.rule, victim);
                    self.emit_then(rules, m, side, mv, f)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The unmoved pieces whose flag may still make a compound move possible: a mover with an
    /// unmoved partner of the move somewhere in its direction, and that partner. (Which of
    /// them the move takes, and whether it may be made now, depends on the board; whether it
    /// ever may, only on the flags: an unmoved piece stands where it started.)
    pub(crate) fn live_unmoved(&self, rules: &Rules) -> CellSet {
        let g = rules.geometry();
        let mut live = CellSet::EMPTY;
        for from in self.unmoved.iter() {
            let code = self.board[from.index()];
            if code == 0 {
                continue;
            }
            let side = State::owner_of(code).slot();
            for c in &rules.compounds {
                if c.mover[side] != code {
                    continue;
                }
                let mut at = from;
                while let Some(next) = g.neighbour(at, c.dir[side]) {
                    at = next;
                    if self.unmoved.contains(at) && self.board[at.index()] == c.partner[side] {
                        live.insert(from);
                        live.insert(at);
                    }
                }
            }
        }
        live
    }

    /// The partner of compound move `c` for the mover on `from`, when the move may be made:
    /// the first piece from the mover in the direction is an unmoved partner, the cells both
    /// pass and land on are empty (but for the two), and a royal mover is not attacked on its
    /// way (its origin and destination included).
    pub(crate) fn compound_partner(
        &self,
        rules: &Rules,
        c: &crate::constructs::Compound,
        from: Cell,
        side: Player,
    ) -> Option<Cell> {
        let g = rules.geometry();
        let mut at = from;
        let partner = loop {
            at = g.neighbour(at, c.dir[side.slot()])?;
            if self.board[at.index()] != 0 {
                break at;
            }
        };
        if self.board[partner.index()] != c.partner[side.slot()] || !self.unmoved.contains(partner)
        {
            return None;
        }
        let (to, pto) = (c.mover_to[side.slot()], c.partner_to[side.slot()]);
        let free = |cell: Cell| {
            let occ = self.board[cell.index()];
            occ == 0 || cell == from || cell == partner
        };
        let path = between(g, from, to);
        if !path.iter().chain([&to, &pto]).all(|&c| free(c))
            || !between(g, partner, pto).iter().all(|&c| free(c))
        {
            return None;
        }
        if self.board[from.index()] == rules.royal[side.slot()] {
            let mut b = self.board;
            b[from.index()] = 0;
            let safe = |c: Cell| !attacked_on(rules, &b, c, side);
            if !(safe(from) && path.iter().all(|&c| safe(c)) && safe(to)) {
                return None;
            }
        }
        Some(partner)
    }

    /// Make for a compound move: both pieces are moved as logged changes, which unmake takes
    /// back in order whatever cells they share.
    pub(crate) fn make_compound(&mut self, rules: &Rules, m: Move, partner: Cell) -> Undo {
        let undo = Undo {
            step: self.undo_record(0),
            hopped: [0; HOPPED],
        };
        let side = self.side;
        if let Shape::Compound(i) = rules.moves[m.rule() as usize].shape {
            let c = rules.compounds[i as usize];
            let mover = self.board[m.from().index()];
            let other = self.board[partner.index()];
            self.change(rules, m.from(), 0);
            self.change(rules, partner, 0);
            self.change(rules, c.mover_to[side.slot()], mover);
            self.change(rules, c.partner_to[side.slot()], other);
            self.forget_moved(rules, partner);
        }
        self.clock = self.clock.saturating_add(1);
        self.hash ^= rules.zobrist_side;
        self.side = side.other();
        if rules.history {
            self.after_move(rules, false);
        }
        undo
    }

    /// After a move of the general path (made on the board): takes the passing piece, makes
    /// the chosen promotion, keeps the unmoved pieces, the passed cells and the idle clock.
    pub(crate) fn after_special(&mut self, rules: &Rules, m: Move, moved: u8) {
        let mut irreversible = rules.resets_idle.get(moved as usize) == Some(&true);
        if let Some(v) = m.ghost_victim() {
            self.change(rules, v, 0);
            self.clock = 0;
            irreversible = true;
        }
        if let Some(code) = m.choice_code() {
            self.change(rules, m.to(), code);
            irreversible = true;
        }
        if !rules.compounds.is_empty()
            && !self.unmoved.is_empty()
            && !m.is_pass()
            && !m.is_placement()
        {
            self.forget_moved(rules, m.from());
            self.forget_moved(rules, m.to());
            // The pieces a hop chain or a passing capture took.
            for c in m.hopped(rules.geometry()) {
                self.forget_moved(rules, c);
            }
            if let Some(v) = m.ghost_victim() {
                self.forget_moved(rules, v);
            }
        }
        if !rules.ghost_keys.is_empty() && (!self.ghost.is_empty() || self.passes_open(rules, m)) {
            for c in self.ghost.iter() {
                self.log.0.push((GHOST_TAG | c.0, 0));
                self.hash ^= rules.ghost_keys[c.index()];
            }
            self.log.0.push((VICTIM_TAG | self.ghost_victim, 0));
            self.ghost = CellSet::EMPTY;
            if self.passes_open(rules, m) {
                for c in between(rules.geometry(), m.from(), m.to()) {
                    self.ghost.insert(c);
                    self.hash ^= rules.ghost_keys[c.index()];
                }
                self.ghost_victim = m.to().0;
            }
        }
        if irreversible && rules.history {
            self.idle = 0;
        }
    }

    /// Whether `m` leaves the cells it passed open to capture.
    fn passes_open(&self, rules: &Rules, m: Move) -> bool {
        !m.is_pass()
            && !m.is_placement()
            && m.hops() == 0
            && rules.moves[m.rule() as usize].leaves_ghost
    }

    /// The piece on `cell` (if any) has now moved, or was taken.
    pub(super) fn forget_moved(&mut self, rules: &Rules, cell: Cell) {
        if self.unmoved.contains(cell) {
            self.unmoved.remove(cell);
            self.hash ^= rules.unmoved_keys[cell.index()];
            self.log.0.push((UNMOVED_TAG | cell.0, 0));
        }
    }

    /// Marks `cell` as holding an unmoved piece (setting up), keeping the key.
    pub(crate) fn set_unmoved(&mut self, rules: &Rules, cell: Cell) {
        if !self.unmoved.contains(cell) {
            self.unmoved.insert(cell);
            self.hash ^= rules.unmoved_keys[cell.index()];
        }
    }

    /// Opens `cells` to capture of the piece on `victim` (setting up), keeping the key.
    pub(crate) fn set_ghost(&mut self, rules: &Rules, cells: CellSet, victim: Cell) {
        for c in self.ghost.iter() {
            self.hash ^= rules.ghost_keys[c.index()];
        }
        self.ghost = cells;
        for c in self.ghost.iter() {
            self.hash ^= rules.ghost_keys[c.index()];
        }
        self.ghost_victim = victim.0;
    }

    /// The unmoved pieces of the standard start: every piece of a kind that keeps it.
    pub(crate) fn start_unmoved(&mut self, rules: &Rules) {
        if rules.tracks_unmoved.is_empty() {
            return;
        }
        for p in Player::ALL {
            for c in self.occupied[p.slot()].iter() {
                if rules.tracks_unmoved[self.board[c.index()] as usize] {
                    self.set_unmoved(rules, c);
                }
            }
        }
    }
}

/// Whether `cell` is attacked, on `board`, by the enemies of `victim`: some enemy piece could
/// capture a royal piece of `victim` there.
pub(crate) fn attacked_on(
    rules: &Rules,
    board: &[u8; MAX_CELLS],
    cell: Cell,
    victim: Player,
) -> bool {
    let a = &rules.attacks;
    let at = victim.slot() * rules.stride + cell.index();
    let Some(&(start, end)) = a.ranges.get(at) else {
        return false;
    };
    // Slides, along each ray out of the cell: the first piece met attacks directly, the
    // second over a screen.
    for &(first, last) in &a.rays[at] {
        let mut screened = false;
        for rc in &a.ray_cells[first as usize..last as usize] {
            let code = board[rc.cell as usize];
            if code == 0 {
                continue;
            }
            let bit = 1u128.checked_shl(code as u32).unwrap_or(0);
            if screened {
                if rc.screen & bit != 0 {
                    return true;
                }
                break;
            }
            if rc.direct & bit != 0 {
                return true;
            }
            screened = true;
        }
    }
    for e in &a.entries[start as usize..end as usize] {
        if board[e.from as usize] != e.code {
            continue;
        }
        if e.how == PLAIN {
            return true;
        }
        debug_assert_eq!(e.how, LISTED);
        let t = &rules.targets[e.target as usize];
        let start = t.jumped_start as usize;
        let passed = &rules.jumped[start..start + t.jumped_len as usize];
        let hit = match t.kind {
            HOP => board[t.to as usize] == 0,
            SLIDE => {
                let pieces = passed
                    .iter()
                    .filter(|j| board[j.cell as usize] != 0)
                    .count();
                let screen = rules.moves[t.rule as usize].screen;
                pieces == usize::from(screen)
            }
            JUMP if t.flags & BLOCKABLE != 0 => !passed.iter().any(|j| {
                bit(
                    &rules.block_bits,
                    j.block_base as usize + board[j.cell as usize] as usize,
                )
            }),
            _ => true,
        };
        if hit {
            return true;
        }
    }
    false
}
