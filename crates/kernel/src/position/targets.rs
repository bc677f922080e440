//! The verdict on one target of a pattern: whether the piece may enter or capture there, read
//! from the tables where they decide it and from the checks that read the position where
//! not. Generation's slow path and the explanation of a refused move (`probe.rs`) both ask
//! [`State::target_verdict`], so what is listed and what is explained cannot differ.

use super::*;
use crate::cell::Cell;
use crate::expr::Value;
use crate::moves::Move;
use crate::piece::{Piece, Player};
use crate::reason::{PatternId, Reason};
use crate::rules::Rules;
use crate::tables::{BLOCKABLE, CAPTURE, CompiledMove, HOP, JUMP, QUIET, SLIDE, Target, bit};
use crate::verdict::{StaticEnv, refusal};

impl State {
    /// Whether the tabulated capture checks of target `t` allow taking the piece `occ`.
    #[inline(always)]
    pub(super) fn cap_allowed(&self, rules: &Rules, t: &Target, occ: u8) -> bool {
        bit(
            &rules.cap_bits,
            (t.cap_base + occ as u32 * t.cap_stride) as usize,
        )
    }

    #[inline]
    pub(super) fn jump_blocked_fast(&self, rules: &Rules, t: &Target) -> bool {
        let start = t.jumped_start as usize;
        rules.jumped[start..start + t.jumped_len as usize]
            .iter()
            .any(|j| {
                bit(
                    &rules.block_bits,
                    j.block_base as usize + self.board[j.cell as usize] as usize,
                )
            })
    }

    /// The first jumped cell of target `t` on which the jump's blocking predicate holds.
    pub(super) fn blocked_cell(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        t: &Target,
        pc: u8,
    ) -> Option<Cell> {
        let start = t.jumped_start as usize;
        for j in &rules.jumped[start..start + t.jumped_len as usize] {
            let occ = self.board[j.cell as usize];
            if t.flags & BLOCKABLE != 0
                && bit(&rules.block_bits, j.block_base as usize + occ as usize)
            {
                return Some(Cell(j.cell));
            }
            if !m.blocked.dynamic.is_empty() {
                let env = PlayEnv::new(
                    rules,
                    self,
                    StaticEnv {
                        mover: Some(Value::Piece(Piece(pc), Cell(j.cell))),
                        cell: Some(Cell(j.cell)),
                        occupant: Some(match Piece::from_code(occ) {
                            Some(o) => Value::Piece(o, Cell(j.cell)),
                            None => Value::NoPiece,
                        }),
                        player: Some(Piece(pc).owner()),
                        ..StaticEnv::default()
                    },
                );
                // The blocking predicate blocks when it holds (or cannot be evaluated).
                if m.blocked
                    .dynamic
                    .iter()
                    .any(|(_, e)| e.test(&rules.core, &env).unwrap_or(true))
                {
                    return Some(Cell(j.cell));
                }
            }
        }
        None
    }

    /// The first capture check read during play that refuses `take`.
    pub(super) fn dynamic_capture_refusal(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        take: Take,
    ) -> Option<Reason> {
        if m.capture.dynamic.is_empty() {
            return None;
        }
        let env = PlayEnv::new(
            rules,
            self,
            StaticEnv {
                mover: Some(Value::Piece(Piece(take.pc), take.from)),
                target: Some(Value::Piece(Piece(take.occ), take.at)),
                from: Some(take.from),
                to: Some(take.to),
                player: Some(Piece(take.pc).owner()),
                ..StaticEnv::default()
            },
        );
        refusal(&rules.core, &m.capture.dynamic, &env)
    }

    /// The first check that refuses `take` by target `t`: the capture table
    /// ([`Refusal::Table`], named only when asked, by [`State::name`]), the capture checks read
    /// during play, the enter checks read during play.
    pub(super) fn capture_verdict(
        &self,
        rules: &Rules,
        t: &Target,
        take: Take,
    ) -> Result<(), Refusal> {
        let m = &rules.moves[t.rule as usize];
        if !self.cap_allowed(rules, t, take.occ) {
            return Err(Refusal::Table(take));
        }
        if let Some(r) = self.dynamic_capture_refusal(rules, m, take) {
            return Err(Refusal::Because(r));
        }
        match self.dynamic_enter_refusal(rules, m, take.pc, take.from, take.to) {
            Some(r) => Err(Refusal::Because(r)),
            None => Ok(()),
        }
    }

    /// The first enter check read during play that refuses `pc` going from `from` to `to`.
    pub(super) fn dynamic_enter_refusal(
        &self,
        rules: &Rules,
        m: &CompiledMove,
        pc: u8,
        from: Cell,
        to: Cell,
    ) -> Option<Reason> {
        if m.dynamic_enter.is_empty() {
            return None;
        }
        let env = PlayEnv::new(
            rules,
            self,
            StaticEnv {
                mover: Some(Value::Piece(Piece(pc), from)),
                from: Some(from),
                to: Some(to),
                player: Some(Piece(pc).owner()),
                ..StaticEnv::default()
            },
        );
        refusal(&rules.core, &m.dynamic_enter, &env)
    }

    /// The verdict on one target of the piece `pc` (of `side`) on `from`: the move it makes
    /// here, or the first check that refuses it. Generation takes this path for targets with
    /// checks that read the position; an explanation takes it for every target.
    #[inline]
    pub(crate) fn target_verdict(
        &self,
        rules: &Rules,
        t: &Target,
        pc: u8,
        from: Cell,
        side: Player,
    ) -> Result<Move, Refusal> {
        let m = &rules.moves[t.rule as usize];
        let pattern = PatternId(t.rule);
        let to = Cell(t.to);
        let dest = self.board[t.to as usize];
        if dest != 0 && State::owner_of(dest) == side {
            return Err(Reason::OwnPiece.into());
        }
        let (occ, at) = if t.kind == HOP {
            if dest != 0 {
                return Err(Reason::NotEmpty(pattern).into());
            }
            let occ = self.board[t.over as usize];
            if occ == 0 || State::owner_of(occ) == side {
                return Err(Reason::NothingToHop(pattern).into());
            }
            // A far hop crosses empty cells only, before and after the piece it takes.
            let start = t.jumped_start as usize;
            if let Some(j) = rules.jumped[start..start + t.jumped_len as usize]
                .iter()
                .find(|j| self.board[j.cell as usize] != 0)
            {
                return Err(Reason::Blocked(pattern, Cell(j.cell)).into());
            }
            (occ, Cell(t.over))
        } else {
            if t.kind == JUMP
                && let Some(cell) = self.blocked_cell(rules, m, t, pc)
            {
                return Err(Reason::Blocked(pattern, cell).into());
            }
            if t.kind == SLIDE {
                let start = t.jumped_start as usize;
                let passed = &rules.jumped[start..start + t.jumped_len as usize];
                let board = &self.board;
                let mut pieces = passed.iter().filter(|j| {
                    let occ = board[j.cell as usize];
                    occ != 0 && !(m.over_own && State::owner_of(occ) == side)
                });
                let first = pieces.next();
                if m.screen {
                    let screens = first.iter().count() + pieces.count();
                    if (dest == 0 && screens != 0) || (dest != 0 && screens != 1) {
                        return Err(Reason::Screen(pattern).into());
                    }
                } else if let Some(j) = first {
                    return Err(Reason::Blocked(pattern, Cell(j.cell)).into());
                }
                if t.pass_only {
                    let piece = Piece(pc);
                    return Err(
                        crate::verdict::static_enter_reason(rules, m, piece, from, to).into(),
                    );
                }
            }
            if dest == 0 {
                if t.flags & QUIET == 0 {
                    return Err(Reason::OnlyCaptures(pattern).into());
                }
                if let Some(r) = self.dynamic_enter_refusal(rules, m, pc, from, to) {
                    return Err(r.into());
                }
                return Ok(Move::simple(from, to, t.rule, false));
            }
            if t.flags & CAPTURE == 0 {
                return Err(Reason::NotEmpty(pattern).into());
            }
            (dest, to)
        };
        self.capture_verdict(
            rules,
            t,
            Take {
                pc,
                from,
                occ,
                at,
                to,
            },
        )?;
        Ok(match t.kind {
            HOP if m.far => Move::far_hop(from, to, t.rule, t.dir, t.jumped_len + 2),
            HOP => Move::hop(from, to, t.rule, t.dir),
            _ => Move::simple(from, to, t.rule, true),
        })
    }
}

/// A capture being judged: the piece `pc` on `from` takes the piece `occ` on `at`, landing on
/// `to` (the same cell but for a hop).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Take {
    pub pc: u8,
    pub from: Cell,
    pub occ: u8,
    pub at: Cell,
    pub to: Cell,
}

/// Why a target is refused: a reason, or a cleared bit of its capture table, which generation
/// needs no name for and an explanation names by the list the table was filled from
/// ([`State::name`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Refusal {
    Because(Reason),
    Table(Take),
}

impl From<Reason> for Refusal {
    fn from(r: Reason) -> Refusal {
        Refusal::Because(r)
    }
}
