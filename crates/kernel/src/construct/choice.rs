//! Promotion by choice: a kind whose promotion offers several kinds promotes into the one the
//! move names (`=Q`), so that one pseudo-legal move arriving in the zone stands for one move
//! per choice. Its checks, its table (by piece code, the zone and the codes), the expansion
//! of a move into its choices, and its part of make: the chosen piece put on the destination.

use super::Construct;
use crate::CellSet;
use crate::facts::Core;
use crate::moves::Move;
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::position::State;
use crate::rules::Rules;
use crate::spec::{RulesError, RulesSpec, Site};
use std::ops::ControlFlow;

/// The construct of promotions by choice.
pub(crate) struct Choices;

impl Construct for Choices {
    const NAME: &'static str = "choices of promotion";
    #[cfg(test)]
    const SYNTAX: &'static str = "=Q (a choice of promotion)";

    fn check(spec: &RulesSpec, _core: &Core, report: &mut dyn FnMut(Site, String)) {
        for (k, kind) in spec.kinds.iter().enumerate() {
            if let Some(p) = &kind.promotion
                && p.choices.len() > 1
                && p.choices.iter().any(|c| c.index() >= spec.kinds.len())
            {
                report(Site::Kind(k), "a promotion choice names no kind".into());
            }
        }
    }

    fn build(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        let code = |k: KindId, p: usize| Piece::new(k, Player(p as u8)).0;
        if !spec
            .kinds
            .iter()
            .any(|k| k.promotion.as_ref().is_some_and(|p| p.choices.len() > 1))
        {
            return Ok(());
        }
        rules.choices = vec![Choice::default(); 1 + PLAYERS * spec.kinds.len()];
        for (k, kind) in spec.kinds.iter().enumerate() {
            let Some(p) = kind.promotion.as_ref().filter(|p| p.choices.len() > 1) else {
                continue;
            };
            for owner in 0..PLAYERS {
                let c = &mut rules.choices[code(KindId(k as u8), owner) as usize];
                c.codes = p.choices.iter().map(|&to| code(to, owner)).collect();
                for cell in rules.core.geometry.cells().iter() {
                    if rules.core.in_zone(cell, p.zone, Some(Player(owner as u8))) {
                        c.zone.insert(cell);
                    }
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        !rules.choices.is_empty()
    }

    #[inline]
    fn expand<B>(
        state: &State,
        rules: &Rules,
        m: Move,
        out: &mut dyn FnMut(Move) -> ControlFlow<B>,
    ) -> Option<ControlFlow<B>> {
        if m.is_placement() || m.is_pass() {
            return None;
        }
        let choice = rules.choices.get(state.board[m.from().index()] as usize)?;
        if !choice.zone.contains(m.to()) || choice.codes.is_empty() {
            return None;
        }
        for &code in &choice.codes {
            if let ControlFlow::Break(b) = out(m.with_choice(code)) {
                return Some(ControlFlow::Break(b));
            }
        }
        Some(ControlFlow::Continue(()))
    }

    fn after_make(state: &mut State, rules: &Rules, m: Move, _moved: u8) -> bool {
        match m.choice_code() {
            Some(code) => {
                state.change(rules, m.to(), code);
                true
            }
            None => false,
        }
    }
}

/// How a piece with a choice of promotion promotes: where, and into which codes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Choice {
    pub zone: CellSet,
    pub codes: Vec<u8>,
}
