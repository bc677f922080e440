//! Placements: the cells each placement pattern may fill, generated from the tables and the
//! compiled place formula, and the one verdict on placing that generation and explanations
//! share.

use super::Construct;
use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::{Piece, Player};
use crate::position::{Judged, PlayEnv, State};
use crate::reason::{PatternId, Reason};
use crate::rules::Rules;
use crate::verdict::{first_refusal, refusal};
use std::ops::ControlFlow;

/// The construct of placements (`place`): a piece put on an empty cell from the mover's hand.
/// Its targets are compiled with the pieces' patterns (the cells each pattern may fill,
/// `place_cells`, and a place formula); its moves come after the pieces' own, where
/// capturing is not mandatory or no capture is legal; its make puts the piece down and takes
/// it from a limited supply (`position/general.rs`).
pub(crate) struct Placements;

impl Construct for Placements {
    const NAME: &'static str = "placements";
    #[cfg(test)]
    const SYNTAX: &'static str = "S@d3 (placements)";

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        !rules.placements.is_empty()
    }
}

impl State {
    /// The placements of `side`, into `judged`: the cells the tables and the compiled place
    /// formula allow, each judged by [`State::place_pseudo`].
    pub(crate) fn generate_placements<B>(
        &self,
        rules: &Rules,
        side: Player,
        judged: &mut Judged<'_, '_, B>,
    ) -> ControlFlow<B> {
        let occupied = self.occupied[0].union(&self.occupied[1]);
        // Where an effect must change a piece, only cells next to an enemy piece can.
        let near = (rules.must_change && judged.safety.is_some()).then(|| {
            let enemy = &self.occupied[side.other().slot()];
            rules
                .effects
                .iter()
                .filter(|e| e.required)
                .fold(*rules.geometry().cells(), |acc, e| {
                    acc.intersection(&rules.steps.next_to(enemy, e.look))
                })
        });
        for (i, &r) in rules.placements.iter().enumerate() {
            let m = &rules.moves[r as usize];
            let mut cells = m.place_cells[side.slot()];
            cells.remove_all(&occupied);
            // A cell an earlier pattern of the same kind may fill is that pattern's move.
            for &q in &rules.earlier_placements[i] {
                let open = cells;
                for cell in open.iter() {
                    if self.place_pseudo(rules, q, side, cell, false).is_ok() {
                        cells.remove(cell);
                    }
                }
            }
            if let Some(near) = &near {
                cells = cells.intersection(near);
            }
            let known = m.place_formula.as_ref().map(|f| {
                let holds = f[side.slot()].eval(&rules.steps, &occupied);
                cells = cells.intersection(&holds);
                holds
            });
            for cell in cells.iter() {
                let verdict = self.place_pseudo(rules, r, side, cell, known.is_some());
                debug_assert!(
                    known.is_none() || verdict == self.place_pseudo(rules, r, side, cell, false),
                    "a place formula disagrees with its expression"
                );
                if let Ok(mv) = verdict {
                    crate::moves::Emit::push(judged, mv)?;
                }
            }
            // The cells the formula left out are refused by the expression too.
            debug_assert!(known.is_none_or(|holds| {
                let mut out = m.place_cells[side.slot()];
                out.remove_all(&occupied);
                out.remove_all(&holds);
                out.iter()
                    .all(|c| self.place_pseudo(rules, r, side, c, false).is_err())
            }));
        }
        ControlFlow::Continue(())
    }

    /// The code of the piece placement pattern `r` puts down for `side`.
    #[inline]
    pub(crate) fn placed_code(rules: &Rules, r: u8, side: Player) -> u8 {
        Piece::new(rules.moves[r as usize].kind, side).0
    }

    /// The verdict on placing by pattern `r` for `side` on `cell`: the move, or the first check
    /// that refuses it (supply, empty cell, place rules and the pattern's condition, then the
    /// reference admission: effects that must change something, royal safety).
    pub(crate) fn place_verdict(
        &self,
        rules: &Rules,
        r: u8,
        side: Player,
        cell: Cell,
    ) -> Result<Move, Reason> {
        let mv = self.place_pseudo(rules, r, side, cell, false)?;
        self.admit_by_making(rules, mv, side)?;
        Ok(mv)
    }

    /// Whether placing by pattern `r` for `side` on `cell` is pseudo-legal: the move, or the
    /// first of its own checks that refuses it (supply, empty cell, place rules and the
    /// pattern's condition). With `formula_holds`, the checks read during play are known to
    /// hold (their compiled formula said so for this cell).
    #[inline]
    pub(crate) fn place_pseudo(
        &self,
        rules: &Rules,
        r: u8,
        side: Player,
        cell: Cell,
        formula_holds: bool,
    ) -> Result<Move, Reason> {
        let m = &rules.moves[r as usize];
        let pattern = PatternId(r);
        let code = State::placed_code(rules, r, side);
        if rules.supply(m.kind).is_some() && self.in_hand(code as usize) == 0 {
            return Err(Reason::NoSupply(pattern));
        }
        if self.board[cell.index()] != 0 {
            return Err(Reason::NotEmpty(pattern));
        }
        if !m.place_cells[side.slot()].contains(cell) {
            let env = crate::verdict::place_env(Piece(code), cell);
            return Err(match first_refusal(&rules.core, &m.place_static, &env) {
                Ok(Some(r)) | Err((r, _)) => r,
                Ok(None) => Reason::NoPattern,
            });
        }
        if !m.dynamic_enter.is_empty() && !formula_holds {
            let env = PlayEnv::new(rules, self, crate::verdict::place_env(Piece(code), cell));
            if let Some(r) = refusal(&rules.core, &m.dynamic_enter, &env) {
                return Err(r);
            }
        }
        Ok(Move::place(cell, r))
    }
}
