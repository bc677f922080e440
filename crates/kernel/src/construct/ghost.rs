//! Captures of a piece that has just passed: a slide that `leaves ghost` leaves the cells it
//! passed open for one turn, and a pattern that `takes ghost` may capture onto one of them,
//! taking the piece that passed. Its checks, its table (by capturing player and cell, the
//! captures onto it, from the compiled targets), its moves, and its part of make: the victim
//! taken, and the cells open to capture kept in the state and its key.

use super::{Construct, codes_of, groups, listed};
use crate::cell::{Cell, CellSet};
use crate::facts::Core;
use crate::geometry::between;
use crate::moves::{Emit, Move};
use crate::piece::{PLAYERS, Player};
use crate::position::State;
use crate::position::{GHOST_TAG, VICTIM_TAG};
use crate::rules::Rules;
use crate::spec::{CaptureMode, Pattern, RulesError, RulesSpec, Site};
use crate::tables::{CAPTURE, HOP, SLIDE};
use std::ops::ControlFlow;

/// The construct of captures of a passing piece.
pub(crate) struct Ghosts;

impl Construct for Ghosts {
    const NAME: &'static str = "captures of a passing piece";
    #[cfg(test)]
    const SYNTAX: &'static str = "takes ghost";

    fn check(spec: &RulesSpec, _core: &Core, report: &mut dyn FnMut(Site, String)) {
        for (k, kind) in spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                if m.leaves_ghost && !matches!(m.pattern, Pattern::Slide { .. }) {
                    report(
                        Site::Move(k, mi),
                        "only a slide passes cells that can stay open to capture (`leaves ghost`)"
                            .into(),
                    );
                }
                if m.takes_ghost
                    && matches!(
                        m.pattern,
                        Pattern::Slide { .. } | Pattern::Hop { .. } | Pattern::Place
                    )
                {
                    report(
                        Site::Move(k, mi),
                        "only a step, a leap or a jump can take a passing piece (`takes ghost`)"
                            .into(),
                    );
                }
                if m.takes_ghost && m.mode == CaptureMode::Quiet {
                    report(
                        Site::Move(k, mi),
                        "a quiet pattern cannot capture a passing piece (`takes ghost`)".into(),
                    );
                }
            }
        }
    }

    fn build(rules: &mut Rules, _spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        if rules.moves.iter().any(|m| m.takes_ghost) {
            rules.ghosts = ghost_entries(rules);
        }
        Ok(())
    }

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        !rules.ghosts.is_empty() || !rules.ghost_keys.is_empty()
    }

    fn generate<B>(
        state: &State,
        rules: &Rules,
        side: Player,
        out: &mut dyn Emit<B>,
    ) -> ControlFlow<B> {
        state.generate_ghost_takes(rules, side, out)
    }

    fn after_make(state: &mut State, rules: &Rules, m: Move, _moved: u8) -> bool {
        let mut irreversible = false;
        if let Some(v) = m.ghost_victim() {
            state.change(rules, v, 0);
            state.clock = 0;
            irreversible = true;
        }
        if !rules.ghost_keys.is_empty() && (!state.ghost.is_empty() || passes_open(rules, m)) {
            for c in state.ghost.iter() {
                state.log.0.push((GHOST_TAG | c.0, 0));
                state.hash ^= rules.ghost_keys[c.index()];
            }
            state.log.0.push((VICTIM_TAG | state.ghost_victim, 0));
            state.ghost = CellSet::EMPTY;
            if passes_open(rules, m) {
                for c in between(rules.geometry(), m.from(), m.to()) {
                    state.ghost.insert(c);
                    state.hash ^= rules.ghost_keys[c.index()];
                }
                state.ghost_victim = m.to().0;
            }
        }
        irreversible
    }
}

/// A capture onto a cell an enemy piece has just passed: the capturer `code` on `from`, by
/// pattern `rule`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GhostEntry {
    pub from: u16,
    pub code: u8,
    pub rule: u8,
}

impl State {
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
        if !self.ghost_open_to(side) {
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

    /// Whether `side` may take the piece that passed the open cells: it is the other
    /// player's. (In a turn of several moves it may be `side`'s own, which is never taken: a
    /// move onto a cell it passed is then a plain move.)
    pub(crate) fn ghost_open_to(&self, side: Player) -> bool {
        crate::piece::Piece::from_code(self.board[self.ghost_victim as usize])
            .is_some_and(|p| p.owner() != side)
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
}

/// Whether `m` leaves the cells it passed open to capture.
fn passes_open(rules: &Rules, m: Move) -> bool {
    !m.is_pass()
        && !m.is_placement()
        && m.hops() == 0
        && rules.moves[m.rule() as usize].leaves_ghost
}

/// By capturing player and cell: the captures onto that cell, were an enemy piece to have
/// just passed it.
pub(crate) fn ghost_entries(rules: &Rules) -> Vec<Vec<GhostEntry>> {
    let g = rules.geometry();
    let stride = rules.stride;
    let mut per = vec![Vec::new(); PLAYERS * stride];
    for player in Player::ALL {
        for code in codes_of(rules, player) {
            for from in g.cells().iter() {
                for grp in groups(rules, code as usize, from.index()) {
                    if !rules.moves[grp.rule as usize].takes_ghost {
                        continue;
                    }
                    let mut caps = grp.capture;
                    while caps != 0 {
                        let x = caps.trailing_zeros() as usize;
                        caps &= caps - 1;
                        per[player.slot() * stride + x].push(GhostEntry {
                            from: from.0,
                            code,
                            rule: grp.rule,
                        });
                    }
                }
                for (_, t) in listed(rules, code as usize, from.index()) {
                    if rules.moves[t.rule as usize].takes_ghost
                        && t.flags & CAPTURE != 0
                        && t.kind != HOP
                        && t.kind != SLIDE
                        && !t.pass_only
                    {
                        per[player.slot() * stride + t.to as usize].push(GhostEntry {
                            from: from.0,
                            code,
                            rule: t.rule,
                        });
                    }
                }
            }
        }
    }
    per
}
