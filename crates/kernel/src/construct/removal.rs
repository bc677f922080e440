//! Removals of the mover's choice (`[effects.NAME] remove = 'COND'`): after a move and the
//! other effects, where the condition holds on the position (a mill closed), the mover removes
//! one enemy piece, one move per piece it may choose (`d2-d3/xg7`). The choices are found on
//! the position after the move itself, made on a scratch copy (`position/legal.rs`), so that
//! the condition and `prefer` read what the move leaves; make takes the chosen piece off last,
//! through the log, after the effects (`position/general.rs`).

use super::Construct;
use crate::moves::Move;
use crate::position::State;
use crate::rules::Rules;
use std::ops::ControlFlow;

/// The construct of removals of the mover's choice.
pub(crate) struct Removals;

impl Construct for Removals {
    const NAME: &'static str = "removals";
    #[cfg(test)]
    const SYNTAX: &'static str = "remove = 'EXPR'  prefer = 'EXPR'";

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        rules.removal.is_some()
    }

    /// A move after which the mover removes a piece stands for one move per piece it may
    /// remove; a move after which it removes none (the condition does not hold, or no enemy
    /// piece is on the board) stands for itself.
    fn expand<B>(
        state: &State,
        rules: &Rules,
        m: Move,
        out: &mut dyn FnMut(Move) -> ControlFlow<B>,
    ) -> Option<ControlFlow<B>> {
        if m.is_pass() || m.removal().is_some() {
            return None;
        }
        let choices = state.removal_choices(rules, m, state.side);
        if choices.is_empty() {
            return None;
        }
        for at in choices.iter() {
            if let ControlFlow::Break(b) = out(m.with_removal(at)) {
                return Some(ControlFlow::Break(b));
            }
        }
        Some(ControlFlow::Continue(()))
    }
}
