//! One move per path: moves that share their cells with a move that comes first are not
//! moves of their own.
//!
//! Two patterns of a kind may reach the same cell from the same origin (a step and a slide in
//! one direction), and a pattern that takes a passing piece while also moving quietly reaches
//! the passed cell both ways. A path names one move, so such moves are one: the move of the
//! pattern listed first in `moves`, and for one pattern, the move that takes the passing
//! piece. [`State::shadowed`] says whether a pseudo-legal move yields to another; generation
//! and the reference's pseudo-legal moves (`legal.rs`) both drop what it names, so they agree.
//! Rules where no two patterns meet (`Rules::overlaps`, found when compiling, see
//! `compile/overlaps.rs`) never come here.

use super::*;
use crate::moves::{Guard, Move};
use crate::piece::Player;
use crate::rules::Rules;
use std::ops::ControlFlow;

impl State {
    /// Whether pseudo-legal `m` of `side` yields to another pseudo-legal move along the same
    /// cells: a move of an earlier pattern of the same piece, or, for a quiet move onto a
    /// passed cell, the take of the passing piece by the same pattern.
    pub(crate) fn shadowed(&self, rules: &Rules, side: Player, m: Move) -> bool {
        if m.is_placement() || m.is_pass() || m.compound_partner().is_some() {
            return false;
        }
        let (r, from, to) = (m.rule(), m.from(), m.to());
        if rules.moves[r as usize].takes_ghost
            && m.ghost_victim().is_none()
            && !m.is_capture()
            && m.hops() == 0
            && self.ghost.contains(to)
            && self.ghost_open_to(side)
            && rules.ghosts[side.slot() * rules.stride + to.index()]
                .iter()
                .any(|e| e.from == from.0 && e.rule == r && self.board[from.index()] == e.code)
        {
            return true;
        }
        let earlier = &rules.earlier[r as usize];
        if earlier.is_empty() {
            return false;
        }
        let g = rules.geometry();
        let path = m.path(g);
        let mut probe = Guard::new(|x: Move| {
            if x.from() == from && earlier.binary_search(&x.rule()).is_ok() && x.path(g) == path {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if self
            .generate_piece(rules, side, from, self.masks(side), &mut probe)
            .is_break()
        {
            return true;
        }
        self.generate_ghost_takes(rules, side, &mut probe)
            .is_break()
    }
}
