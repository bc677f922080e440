//! Perft and random playouts.

use super::*;
use crate::cell::Cell;
use crate::limits::MoveLimit;
use crate::moves::{Move, MoveList};
use crate::rules::Rules;
use std::ops::ControlFlow;

impl State {
    /// The legal moves of the side to move, in an emptied `list`.
    #[inline(always)]
    pub(super) fn moves_into(&self, rules: &Rules, list: &mut MoveList) -> Result<(), MoveLimit> {
        if !self.collect(rules, list) {
            return self.collect_all(rules, list);
        }
        Ok(())
    }

    /// The legal moves of the side to move, in an emptied `list` that may spill to the heap
    /// (up to the limit of [`crate::MAX_MOVES`] moves).
    #[cold]
    pub(super) fn collect_all(&self, rules: &Rules, list: &mut MoveList) -> Result<(), MoveLimit> {
        list.clear();
        let r = self.generate(rules, self.side, |m| {
            list.push(m);
            ControlFlow::<()>::Continue(())
        });
        if r.is_err() {
            list.clear();
        }
        r.map(|_| ())
    }

    /// The legal moves of the side to move, written into the inline part of an emptied
    /// `list`; false if they did not fit.
    #[inline(never)]
    pub(super) fn collect(&self, rules: &Rules, list: &mut MoveList) -> bool {
        list.fill(|b| self.generate_into(rules, self.side, b))
    }

    /// Perft from depth 1 up, for rules of profile `P`; with `BULK`, the last ply is counted,
    /// not played.
    pub(super) fn perft<P: Profile, const BULK: bool>(
        &mut self,
        rules: &Rules,
        depth: u32,
    ) -> Result<u64, MoveLimit> {
        if BULK && depth == 1 {
            let mut count = 0u64;
            let _ = self.generate(rules, self.side, |_| {
                count += 1;
                ControlFlow::<()>::Continue(())
            })?;
            return Ok(count);
        }
        let mut moves = MoveList::new();
        self.moves_into(rules, &mut moves)?;
        if depth == 1 {
            return Ok(self.leaves::<P>(rules, &moves));
        }
        let mut n = 0;
        for part in moves.parts() {
            for &m in part {
                // Not `make_as`: a step's 16-byte record, not the 40-byte `Undo`, is what
                // waits across the recursion (2 per cent of the instructions of a perft).
                if m.hops() != 0 {
                    let u = self.make_hops(rules, m);
                    let sub = self.perft::<P, BULK>(rules, depth - 1);
                    self.unmake_hops(rules, m, &u);
                    n += sub?;
                } else {
                    let u = self.make_step::<P>(rules, m);
                    let sub = self.perft::<P, BULK>(rules, depth - 1);
                    self.unmake_step::<P>(rules, m, u);
                    n += sub?;
                }
            }
        }
        Ok(n)
    }

    /// The last ply of a perft: every move is still made and taken back (only the call for
    /// depth 0, which would return 1, is saved). Kept out of line, so that its loop has the
    /// machine's registers to itself.
    #[inline(never)]
    pub(super) fn leaves<P: Profile>(&mut self, rules: &Rules, moves: &MoveList) -> u64 {
        // Steps first, hop chains after: a loop with no call in it lets the compiler keep
        // the fields that make and unmake put back in registers.
        let mut chains = false;
        let before = self.before();
        for part in moves.parts() {
            for &m in part {
                if m.hops() != 0 {
                    chains = true;
                    continue;
                }
                let u = self.make_step_from::<P>(rules, m, &before);
                self.unmake_step_to::<P>(rules, m, u, Some(&before));
            }
        }
        if chains {
            for m in moves.iter().filter(|m| m.hops() != 0) {
                let u = self.make_as::<P>(rules, m);
                self.unmake_as::<P>(rules, m, &u);
            }
        }
        moves.len() as u64
    }

    /// [`Position::playout`] for rules of profile `P`.
    pub(super) fn playout<P: Profile>(
        &mut self,
        rules: &Rules,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Result<Playout, MoveLimit> {
        // Without history a copy restores the state at once (it allocates only for pieces in
        // hand; the change log is kept, not copied); with history, every move is taken back.
        if rules.history {
            self.playout_as::<P, true>(rules, pick, max_plies)
        } else {
            self.playout_as::<P, false>(rules, pick, max_plies)
        }
    }

    /// [`State::playout`]; `KEEP` says whether the moves are recorded to be taken back, or
    /// the start is restored from a copy.
    pub(super) fn playout_as<P: Profile, const KEEP: bool>(
        &mut self,
        rules: &Rules,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Result<Playout, MoveLimit> {
        let saved = (!KEEP).then(|| self.clone());
        let cap = if KEEP {
            max_plies.min(4096) as usize
        } else {
            0
        };
        let mut made: Vec<(Move, Undo)> = Vec::with_capacity(cap);
        let mut result = Playout {
            plies: 0,
            outcome: None,
            capped: false,
        };
        let mut list = MoveList::new();
        let mut limit = None;
        loop {
            if let Some(o) = self.outcome {
                result.outcome = Some(o);
                break;
            }
            if result.plies >= max_plies {
                result.capped = true;
                break;
            }
            if let Err(l) = self.moves_into(rules, &mut list) {
                limit = Some(l);
                break;
            }
            if list.is_empty() {
                result.outcome = self.outcome(rules);
                break;
            }
            let i = pick(list.len()).min(list.len() - 1);
            let m = list.get(i).unwrap_or_else(unreachable_move);
            // Without records to keep, the move is made with no `Undo` built at all (4 per
            // cent of the instructions of a playout).
            let general = !P::LEAN && rules.general;
            if KEEP {
                let u = if general {
                    self.make_general(rules, m)
                } else {
                    self.make_as::<P>(rules, m)
                };
                made.push((m, u));
            } else if general {
                self.make_general(rules, m);
            } else if m.hops() != 0 {
                self.make_hops(rules, m);
            } else {
                self.make_step::<P>(rules, m);
            }
            result.plies += 1;
        }
        if let Some(saved) = saved {
            // The change log of general rules keeps its room for the next playout.
            let mut log = std::mem::take(&mut self.log);
            *self = saved;
            log.0.truncate(self.log.0.len());
            self.log = log;
        }
        while let Some((m, u)) = made.pop() {
            if !P::LEAN && rules.general {
                self.unmake_general(rules, m, &u);
            } else {
                self.unmake_as::<P>(rules, m, &u);
            }
        }
        match limit {
            Some(l) => Err(l),
            None => Ok(result),
        }
    }
}

#[cold]
fn unreachable_move() -> Move {
    Move::simple(Cell(0), Cell(0), 0, false)
}
