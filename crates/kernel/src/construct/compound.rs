//! Compound moves: two pieces of one player moved at once (castling), the mover and the first
//! piece in a direction, both unmoved, onto fixed cells. Its checks, its table, which pieces
//! have not moved (kept in the state and its key), its moves, and its make, whose changes go
//! through the log like every other construct's.

use super::royal::attacked_on;
use super::{Construct, reaching};
use crate::cell::{Cell, CellSet};
use crate::facts::Core;
use crate::geometry::between;
use crate::moves::{Emit, Move};
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::position::{HOPPED, UNMOVED_TAG};
use crate::position::{State, Undo};
use crate::rules::Rules;
use crate::spec::{RulesError, RulesSpec, Site};
use crate::tables::Shape;
use std::ops::ControlFlow;

/// The construct of compound moves.
pub(crate) struct Compounds;

impl Construct for Compounds {
    const NAME: &'static str = "compound moves";
    #[cfg(test)]
    const SYNTAX: &'static str = "[compound.";

    fn check(spec: &RulesSpec, core: &Core, report: &mut dyn FnMut(Site, String)) {
        let g = &core.geometry;
        for (i, c) in spec.compounds.iter().enumerate() {
            if c.mover == c.partner {
                report(
                    Site::Compound(i),
                    "the mover and its partner must be of different kinds".into(),
                );
            }
            for cell in c.mover_to.iter().chain(&c.partner_to) {
                if !g.contains(*cell) {
                    report(
                        Site::Compound(i),
                        "a destination is not on the board".into(),
                    );
                }
            }
            for p in 0..PLAYERS {
                if c.mover_to[p] == c.partner_to[p] {
                    report(
                        Site::Compound(i),
                        "the mover and its partner cannot end on the same cell".into(),
                    );
                }
            }
        }
    }

    fn build(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        let code = |k: KindId, p: usize| Piece::new(k, Player(p as u8)).0;
        // The compound moves' patterns come last in `moves`, in the spec's order.
        let first = rules.moves.len() - spec.compounds.len();
        rules.compounds = spec
            .compounds
            .iter()
            .enumerate()
            .map(|(i, c)| Compound {
                mover: [0, 1].map(|p| code(c.mover, p)),
                partner: [0, 1].map(|p| code(c.partner, p)),
                dir: c.dir,
                mover_to: c.mover_to,
                partner_to: c.partner_to,
                rule: (first + i) as u8,
                by_partner: [CellSet::EMPTY; PLAYERS],
            })
            .collect();
        let by_partner: Vec<[CellSet; PLAYERS]> = rules
            .compounds
            .iter()
            .map(|c| [0, 1].map(|p| reaching(rules, c.mover[p], c.mover_to[p])))
            .collect();
        for (c, b) in rules.compounds.iter_mut().zip(by_partner) {
            c.by_partner = b;
        }
        rules.tracks_unmoved = vec![false; 1 + PLAYERS * spec.kinds.len()];
        for c in &spec.compounds {
            for p in 0..PLAYERS {
                rules.tracks_unmoved[code(c.mover, p) as usize] = true;
                rules.tracks_unmoved[code(c.partner, p) as usize] = true;
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        !rules.compounds.is_empty()
    }

    fn generate<B>(
        state: &State,
        rules: &Rules,
        side: Player,
        f: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        for c in &rules.compounds {
            let mover = c.mover[side.slot()];
            for from in state.occupied[side.slot()]
                .intersection(&state.unmoved)
                .iter()
            {
                if state.board[from.index()] != mover {
                    continue;
                }
                if let Some(partner) = state.compound_partner(rules, c, from, side) {
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

    fn after_make(state: &mut State, rules: &Rules, m: Move, _moved: u8) -> bool {
        if !state.unmoved.is_empty() && !m.is_pass() && !m.is_placement() {
            state.forget_moved(rules, m.from());
            state.forget_moved(rules, m.to());
            // The pieces a hop chain or a passing capture took.
            for c in m.hopped(rules.geometry()) {
                state.forget_moved(rules, c);
            }
            if let Some(v) = m.ghost_victim() {
                state.forget_moved(rules, v);
            }
        }
        false
    }
}

/// A compiled compound move: codes and cells by player.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Compound {
    pub mover: [u8; PLAYERS],
    pub partner: [u8; PLAYERS],
    pub dir: [crate::geometry::Dir; PLAYERS],
    pub mover_to: [Cell; PLAYERS],
    pub partner_to: [Cell; PLAYERS],
    /// Its pattern, in [`Rules::moves`].
    pub rule: u8,
    /// By player: the origins from which the mover's own patterns also reach its destination.
    /// From these, the compound move is written and pathed from the mover onto its partner
    /// (`b1-a1`), so that it never shares a notation or a path with the mover's own move.
    pub by_partner: [CellSet; PLAYERS],
}

impl State {
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
        c: &Compound,
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

    /// The piece on `cell` (if any) has now moved, or was taken.
    pub(crate) fn forget_moved(&mut self, rules: &Rules, cell: Cell) {
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
