//! Promotion by the move: a kind whose promotion offers several kinds promotes into the one
//! the move names (`=Q`), so that one pseudo-legal move arriving in the zone stands for one
//! move per choice. The same holds for a promotion the player may decline (`optional`: the
//! move stands for itself too, unpromoted, except where the promotion is `forced`) and for one
//! made on leaving the zone (`on_leaving`: a move starting in the zone promotes as one ending
//! there does). Its checks, its table (by piece code: the cells promoting on arrival and on
//! departure, the forced cells, the codes), the expansion of a move into its choices, and its
//! part of make: the chosen piece put on the destination.

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

    fn check(spec: &RulesSpec, core: &Core, report: &mut dyn FnMut(Site, String)) {
        for (k, kind) in spec.kinds.iter().enumerate() {
            let Some(p) = &kind.promotion else { continue };
            if p.choices.len() > 1 && p.choices.iter().any(|c| c.index() >= spec.kinds.len()) {
                report(Site::Kind(k), "a promotion choice names no kind".into());
            }
            if p.forced.is_some() && !p.optional {
                report(
                    Site::Kind(k),
                    "`forced` only says where an `optional` promotion is not optional: add \
                     `optional = true` or remove `forced`"
                        .into(),
                );
            }
            if p.forced.is_some_and(|z| z >= core.zones.len()) {
                report(
                    Site::Kind(k),
                    "the `forced` zone of a promotion is no zone".into(),
                );
            }
        }
    }

    fn build(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        let code = |k: KindId, p: usize| Piece::new(k, Player(p as u8)).0;
        if !spec
            .kinds
            .iter()
            .any(|k| k.promotion.as_ref().is_some_and(|p| p.by_move()))
        {
            return Ok(());
        }
        rules.choices = vec![Choice::default(); 1 + PLAYERS * spec.kinds.len()];
        for (k, kind) in spec.kinds.iter().enumerate() {
            let Some(p) = kind.promotion.as_ref().filter(|p| p.by_move()) else {
                continue;
            };
            for owner in 0..PLAYERS {
                let c = &mut rules.choices[code(KindId(k as u8), owner) as usize];
                c.codes = p.kinds().into_iter().map(|to| code(to, owner)).collect();
                c.optional = p.optional;
                let side = Some(Player(owner as u8));
                for cell in rules.core.geometry.cells().iter() {
                    if rules.core.in_zone(cell, p.zone, side) {
                        c.zone.insert(cell);
                        if p.on_leaving {
                            c.leaving.insert(cell);
                        }
                    }
                    if p.forced.is_some_and(|z| rules.core.in_zone(cell, z, side)) {
                        c.forced.insert(cell);
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
        if !choice.promotes(m) {
            return None;
        }
        if choice.optional
            && !choice.forced.contains(m.to())
            && let ControlFlow::Break(b) = out(m)
        {
            return Some(ControlFlow::Break(b));
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

/// How a piece whose move says how it promotes promotes: where, and into which codes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Choice {
    /// A move ending here promotes.
    pub zone: CellSet,
    /// A move starting here promotes (empty unless the promotion is made on leaving).
    pub leaving: CellSet,
    /// A move ending here must promote, though the promotion is optional elsewhere.
    pub forced: CellSet,
    /// Whether the player may decline the promotion.
    pub optional: bool,
    /// The codes the piece may become (empty for a piece that does not promote by its move).
    pub codes: Vec<u8>,
}

impl Choice {
    /// Whether the piece promotes, or may, by this move of its own.
    #[inline]
    pub fn promotes(&self, m: Move) -> bool {
        !self.codes.is_empty() && (self.zone.contains(m.to()) || self.leaving.contains(m.from()))
    }
}
