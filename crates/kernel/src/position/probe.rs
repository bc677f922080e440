//! Why a path is not a legal move: the checks of generation, run on one candidate.
//!
//! Nothing here evaluates a rule in its own way. The candidates are the targets the compiler
//! built (found by pattern and destination), judged by [`State::target_verdict`], the slow
//! path of generation itself. A destination the compiler left out of the target lists is
//! explained by the compiled list of checks it was left out by, and a cleared bit of a capture
//! table by the compiled list of checks that filled it: both through
//! [`crate::verdict::first_refusal`], the function the compiler called.

use super::targets::{Refusal, Take};
use super::*;
use crate::cell::Cell;
use crate::expr::Value;
use crate::limits::MoveLimit;
use crate::moves::Move;
use crate::piece::{Piece, Player};
use crate::reason::{PatternId, Reason};
use crate::rules::Rules;
use crate::shapes::geometry_of;
use crate::tables::{CAPTURE, CompiledMove, JUMP, QUIET, STEP, Shape, Target};
use crate::verdict::{StaticEnv, first_refusal};
use std::ops::ControlFlow;

impl State {
    /// Why the piece of `side` on `path[0]` cannot follow `path` (at least two cells of the
    /// board) with the promotion `choice`, if any, which generation does not list.
    pub(crate) fn explain(
        &self,
        rules: &Rules,
        side: Player,
        path: &[Cell],
        choice: Option<crate::KindId>,
    ) -> Result<Reason, MoveLimit> {
        let g = rules.geometry();
        let from = path[0];
        let pc = self.board[from.index()];
        // The piece's moves as if capturing were never mandatory.
        let mut free = Vec::new();
        let _ = self.generate_from(rules, side, from, |m| {
            free.push(m);
            ControlFlow::<()>::Continue(())
        })?;
        // And its captures in passing and compound moves.
        if rules.special {
            let mut sink = crate::moves::Guard::new(|m: Move| {
                if m.from() == from {
                    free.push(m);
                }
                ControlFlow::<()>::Continue(())
            });
            let _ = crate::moves::Stop::result(crate::construct::generate(
                self, rules, side, &mut sink,
            ))?;
        }
        // A move that yields to another along the same cells is not a move of its own.
        if rules.overlaps {
            free.retain(|m| !self.shadowed(rules, side, *m));
        }
        let chosen = |m: &Move| m.promotion().is_none_or(|p| Some(p.kind()) == choice);
        let exact = |m: &&Move| chosen(m) && m.path(g).as_slice() == path;
        let follows = |m: &&Move| chosen(m) && path.len() == 2 && m.to() == path[1];
        // The move with exactly this path, else one with its ends.
        if let Some(m) = free
            .iter()
            .find(exact)
            .or_else(|| free.iter().find(follows))
        {
            // A pseudo-legal move (with the kind chosen, where the player chooses): the
            // reference says which of its own conditions fails.
            let m = match (choice, rules.choices.get(pc as usize)) {
                (Some(k), Some(c))
                    if c.promotes(*m) && c.codes.contains(&Piece::new(k, side).0) =>
                {
                    m.with_choice(Piece::new(k, side).0)
                }
                _ => *m,
            };
            if let Err(reason) = self.admit_by_making(rules, m, side) {
                return Ok(reason);
            }
            if rules.most_captures && m.is_capture() {
                let mut most = 0;
                let _ = self.generate(rules, side, |x| {
                    most = most.max(x.captured_count());
                    ControlFlow::<()>::Continue(())
                })?;
                return Ok(Reason::TakesFewer(most.min(u8::MAX as usize) as u8));
            }
            return Ok(Reason::MustCapture);
        }
        if path.len() == 2 && !rules.compounds.is_empty() {
            // A pseudo-legal compound move: the reference says which of its own conditions
            // fails.
            let mut compound = None;
            let _ = self.pseudo_moves(
                rules,
                side,
                &mut crate::moves::Guard::new(|m: Move| {
                    if m.is_compound() && m.from() == from && m.to() == path[1] {
                        compound = Some(m);
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                }),
            );
            if let Some(m) = compound {
                return Ok(self
                    .admit_by_making(rules, m, side)
                    .err()
                    .unwrap_or(Reason::MustCapture));
            }
        }
        if path.len() == 2
            && let Some(c) = rules.compounds.iter().find(|c| {
                c.mover[side.slot()] == pc
                    && (c.mover_to[side.slot()] == path[1]
                        || self.board[path[1].index()] == c.partner[side.slot()])
            })
        {
            return Ok(Reason::Compound(crate::reason::PatternId(c.rule)));
        }
        if path.len() == 3
            && let Some(m) = free
                .iter()
                .find(|m| m.second().is_some() && m.path(g).get(..2) == Some(&path[..2]))
        {
            return Ok(Reason::Second(m.pattern(), path[2]));
        }
        let last = path[path.len() - 1];
        let longer = free.iter().find(|m| {
            let p = m.path(g);
            p.len() > path.len() && p.starts_with(path)
        });
        if let Some(m) = longer
            && rules.moves[m.rule() as usize].complete
        {
            return Ok(Reason::Incomplete(last));
        }
        if path.len() > 2 {
            // The longest prefix some legal chain shares tells where this one breaks.
            let common = free
                .iter()
                .map(|m| {
                    let p = m.path(g);
                    p.iter().zip(path).take_while(|(a, b)| a == b).count()
                })
                .max()
                .unwrap_or(1);
            if common >= 2 {
                return Ok(Reason::Chain(path[common - 1]));
            }
        }
        Ok(self.probe_step(rules, side, pc, from, path[1]))
    }

    /// The reason of the first pattern of the piece `pc` that goes from `from` to `to` (its
    /// first landing cell), in the order the patterns are declared.
    fn probe_step(&self, rules: &Rules, side: Player, pc: u8, from: Cell, to: Cell) -> Reason {
        let kind = Piece(pc).kind();
        let mut first = None;
        for (i, m) in rules.moves.iter().enumerate() {
            if m.kind != kind {
                continue;
            }
            // The destinations this pattern reaches from `from` (a slide: along its rays).
            let reaches = match m.shape {
                Shape::Slide(_) | Shape::Fly => {
                    self.find_target(rules, pc, from, i as u8, to).is_some()
                }
                _ => m.dirs[side.slot()].iter().any(|dir| {
                    geometry_of(rules.geometry(), &rules.core, m.shape, from, dir)
                        .is_some_and(|(dest, _, _)| dest == to)
                }),
            };
            if !reaches {
                continue;
            }
            let verdict = match self.find_target(rules, pc, from, i as u8, to) {
                Some(t) => {
                    let v = self
                        .target_verdict(rules, &t, pc, from, side)
                        .err()
                        .map(|r| self.name(rules, &t, r))
                        // A first part that passes, with nowhere for the second part.
                        .or_else(|| m.then.map(|_| Reason::Second(PatternId(i as u8), to)));
                    // A first step that passes every check would be generated, and then
                    // `explain` finds the move before it gets here.
                    debug_assert!(v.is_some(), "a target that passes is not generated");
                    v
                }
                None => Some(crate::verdict::static_enter_reason(
                    rules,
                    m,
                    Piece(pc),
                    from,
                    to,
                )),
            };
            if first.is_none() {
                first = verdict;
            }
        }
        first.unwrap_or(Reason::NoPattern)
    }

    /// The compiled target of pattern `rule` from `from` to `to` for the piece `pc`: a listed
    /// one, or one of a step group, written out as a listed target would be.
    fn find_target(&self, rules: &Rules, pc: u8, from: Cell, rule: u8, to: Cell) -> Option<Target> {
        let slot = rules.slot(pc, from.0);
        if let Some(t) = rules
            .listed(slot)
            .iter()
            .find(|t| t.rule == rule && t.to == to.0)
        {
            return Some(*t);
        }
        let groups = std::iter::once(&slot.first).chain(rules.more_groups(slot));
        let bit = 1u64 << (to.0 & 63);
        for g in groups.take(slot.groups as usize) {
            if g.rule != rule || (g.quiet | g.capture) & bit == 0 || to.index() >= 64 {
                continue;
            }
            let mut flags = 0;
            if g.quiet & bit != 0 {
                flags |= QUIET;
            }
            if g.capture & bit != 0 {
                flags |= CAPTURE;
            }
            let shape = rules.moves[rule as usize].shape;
            return Some(Target {
                to: to.0,
                over: 0,
                rule,
                kind: if matches!(shape, Shape::Jump(_)) {
                    JUMP
                } else {
                    STEP
                },
                dir: 0,
                jumped_len: 0,
                jumped_start: 0,
                flags,
                cap_base: g.cap_from + rules.cell_class[to.index()] as u32 * g.cap_class,
                cap_stride: g.cap_piece,
                pass_only: false,
            });
        }
        None
    }

    /// The reason of a refusal of target `t`.
    fn name(&self, rules: &Rules, t: &Target, refusal: Refusal) -> Reason {
        match refusal {
            Refusal::Because(r) => r,
            Refusal::Table(take) => {
                self.static_capture_reason(rules, &rules.moves[t.rule as usize], take)
            }
        }
    }

    /// The capture check behind a cleared bit of a capture table: the compiled list the table
    /// was filled from, evaluated for this one case.
    fn static_capture_reason(&self, rules: &Rules, m: &CompiledMove, take: Take) -> Reason {
        let attacker = Piece(take.pc);
        let env = StaticEnv {
            mover: Some(Value::Piece(attacker, take.from)),
            target: Some(Value::Piece(Piece(take.occ), take.at)),
            from: Some(take.from),
            to: Some(take.to),
            player: Some(attacker.owner()),
            ..StaticEnv::default()
        };
        match first_refusal(&rules.core, &m.capture.stat, &env) {
            Ok(Some(r)) | Err((r, _)) => r,
            // The table and the list it was filled from agree (tested); a pattern without
            // capture checks has no cleared bit.
            Ok(None) => {
                debug_assert!(false, "a cleared capture bit with no refusing check");
                Reason::NoPattern
            }
        }
    }
}
