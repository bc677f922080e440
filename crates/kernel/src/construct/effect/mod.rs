//! Effects: what a move's effects change (custodial capture, surround, flips), computed once
//! for make and for the check that a required effect changes a piece.

pub(crate) mod tables;

use super::Construct;
use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::{Piece, Player};
use crate::position::State;
use crate::rules::Rules;
use crate::tables::{CompiledEffect, EffectKind};
use crate::tables::{hostile, target_ok};
use arrayvec::ArrayVec;

/// The most pieces one effect may change in one move: a run of cells in each of eight
/// directions (each shorter than the longest line of the largest board), or the groups an
/// effect takes, which the loader keeps to boards of at most this many cells. Larger, and
/// the frame of every effect's make would cost the packs whose effects change a few pieces.
const CHANGES_ROOM: usize = crate::limits::MAX_GROUP_BOARD_CELLS;
const _: () = assert!(CHANGES_ROOM >= 8 * crate::cell::LINE_CELLS);

/// Changes an effect makes: (cell, the code it gets).
type Changes = ArrayVec<(Cell, u8), CHANGES_ROOM>;

/// The construct of effects (`[effects.*]`): pieces a move captures or turns around its
/// destination (custodial capture, surround, flips). Its checks and tables are in [`tables`]
/// (which enemy pieces an effect takes or turns, which cells are hostile); what a move
/// changes is computed once, here, for make and for the test that a required effect changed a
/// piece.
pub(crate) struct Effects;

impl Construct for Effects {
    const NAME: &'static str = "effects";
    #[cfg(test)]
    const SYNTAX: &'static str = "[effects.E]";

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        !rules.effects.is_empty()
    }
}

impl State {
    /// The first effect that must change a piece and that `mv` (a move of `side`, not made)
    /// leaves without a change; `None` when there is none.
    pub(crate) fn unchanged_effect(&self, rules: &Rules, mv: Move, side: Player) -> Option<u8> {
        if !rules.must_change || mv.is_pass() {
            return None;
        }
        let to = mv.to();
        let (mover, from) = if mv.is_placement() {
            (State::placed_code(rules, mv.rule(), side), None)
        } else {
            (self.board[mv.from().index()], Some(mv.from()))
        };
        let second = mv.second().map(|at| {
            let then = rules.moves[mv.rule() as usize].then;
            (at, then.map_or(0, |t| t.0[side.slot()]))
        });
        // The second part may place on the cell the mover left.
        let at = |c: Cell| {
            if c == to {
                mover
            } else if let Some((s, code)) = second
                && s == c
            {
                code
            } else if Some(c) == from {
                0
            } else {
                self.board[c.index()]
            }
        };
        let mut changes = Changes::new();
        for (i, e) in rules.effects.iter().enumerate() {
            if !e.required {
                continue;
            }
            changes.clear();
            self.effect_changes(rules, e, mover, to, &at, &mut changes);
            if changes.is_empty() {
                return Some(i as u8);
            }
        }
        None
    }

    /// What effect `e` changes around `to`, where `mover` has arrived, on the board `at` gives.
    #[inline]
    pub(crate) fn effect_changes<F: Fn(Cell) -> u8>(
        &self,
        rules: &Rules,
        e: &CompiledEffect,
        mover: u8,
        to: Cell,
        at: &F,
        out: &mut Changes,
    ) {
        let g = rules.geometry();
        let side = Piece(mover).owner();
        let enemy = |code: u8| code != 0 && Piece(code).owner() != side;
        // A surround is completed by the mover standing on one of the cells that enclose the
        // victim: `look` has the opposite directions then.
        for d in e.look.iter() {
            let Some(a) = g.neighbour(to, d) else {
                continue;
            };
            let victim = at(a);
            if !enemy(victim) || !target_ok(e, mover, victim, a) {
                continue;
            }
            match e.kind {
                EffectKind::Custodial if e.run == (1, 1) => {
                    if let Some(b) = g.neighbour(a, d)
                        && hostile(e, mover, victim, b, at(b))
                    {
                        push(out, a, 0);
                    }
                }
                EffectKind::Custodial => {
                    // A run of `run.0..=run.1` enemy pieces, closed by a hostile cell.
                    let (least, most) = (usize::from(e.run.0), usize::from(e.run.1));
                    if let Some(run) = closed_run(g, e, (mover, victim), a, d, most, at)
                        && run.len() >= least
                    {
                        for c in run {
                            push(out, c, 0);
                        }
                    }
                }
                EffectKind::Convert => push(out, a, Piece::new(Piece(victim).kind(), side).0),
                EffectKind::Groups => take_group(g, e, a, Piece(victim).owner(), at, out),
                EffectKind::Surround => {
                    let enclosed = e.dirs.iter().all(|d2| {
                        g.neighbour(a, d2)
                            .is_some_and(|n| hostile(e, mover, victim, n, at(n)))
                    });
                    if enclosed && !out.iter().any(|(c, _)| *c == a) {
                        push(out, a, 0);
                    }
                }
                EffectKind::Flip => {
                    if let Some(run) =
                        closed_run(g, e, (mover, victim), a, d, crate::cell::LINE_CELLS, at)
                    {
                        for c in run {
                            let code = at(c);
                            push(out, c, Piece::new(Piece(code).kind(), side).0);
                        }
                    }
                }
            }
        }
    }

    /// Applies the effects after a move that brought the piece on `to`, in order, each on the
    /// board the previous ones left. Returns the first effect that must change a piece and
    /// changed none.
    pub(crate) fn apply_effects(&mut self, rules: &Rules, to: Cell) -> Option<u8> {
        if rules.effects.is_empty() {
            return None;
        }
        let mover = self.board[to.index()];
        let mut unchanged = None;
        if mover == 0 {
            return rules
                .effects
                .iter()
                .position(|e| e.required)
                .map(|i| i as u8);
        }
        let mut changes = Changes::new();
        let mut changed = false;
        for (i, e) in rules.effects.iter().enumerate() {
            changes.clear();
            // The changes are found on the board as it stands, then made.
            let at = |c: Cell| self.board[c.index()];
            self.effect_changes(rules, e, mover, to, &at, &mut changes);
            if e.required && changes.is_empty() {
                unchanged.get_or_insert(i as u8);
            }
            for &(c, code) in &changes {
                self.change(rules, c, code);
                if !self.unmoved.is_empty() {
                    self.forget_moved(rules, c);
                }
                changed = true;
            }
        }
        if changed {
            self.clock = 0;
        }
        unchanged
    }
}

/// The run of enemy pieces (that the effect's `target` allows) starting on `a` and going on
/// in direction `d`, if a hostile cell closes it within `most` pieces: what a flip turns and a
/// custodial capture of a run takes.
#[inline(always)]
fn closed_run<F: Fn(Cell) -> u8>(
    g: &crate::geometry::Geometry,
    e: &CompiledEffect,
    (mover, victim): (u8, u8),
    a: Cell,
    d: crate::geometry::Dir,
    most: usize,
    at: &F,
) -> Option<ArrayVec<Cell, { crate::cell::LINE_CELLS }>> {
    let side = Piece(mover).owner();
    let mut run: ArrayVec<Cell, { crate::cell::LINE_CELLS }> = ArrayVec::new();
    run.push(a);
    let mut cur = a;
    loop {
        let next = g.neighbour(cur, d)?;
        let occ = at(next);
        if occ != 0 && Piece(occ).owner() != side && target_ok(e, mover, occ, next) {
            if run.len() == most || run.try_push(next).is_err() {
                return None;
            }
            cur = next;
            continue;
        }
        return hostile(e, mover, victim, next, occ).then_some(run);
    }
}

/// The enemy group through `a` (pieces of `owner` joined through the effect's directions),
/// taken when no cell next to it is empty; once, however many directions reach it. Out of
/// line: the packs whose effects work on lines do not pay for it.
#[cold]
#[inline(never)]
fn take_group<F: Fn(Cell) -> u8>(
    g: &crate::geometry::Geometry,
    e: &CompiledEffect,
    a: Cell,
    owner: Player,
    at: &F,
    out: &mut Changes,
) {
    if out.iter().any(|(c, _)| *c == a) {
        return;
    }
    let mut seed = crate::cell::CellSet::EMPTY;
    seed.insert(a);
    let mine = |n: Cell| {
        let occ = at(n);
        occ != 0 && Piece(occ).owner() == owner
    };
    // The membership test cannot fail: no piece is missing here.
    let Ok(seen) = crate::groups::flood(g, seed, e.dirs, |n| Ok(mine(n))) else {
        return;
    };
    let free = seen.iter().any(|c| {
        e.dirs
            .iter()
            .any(|d| g.neighbour(c, d).is_some_and(|n| at(n) == 0))
    });
    if free {
        return;
    }
    for c in seen.iter() {
        push(out, c, 0);
    }
}

fn push(out: &mut Changes, cell: Cell, code: u8) {
    // Room for every direction's run (see CHANGES_ROOM).
    out.push((cell, code));
}
