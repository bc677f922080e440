//! Capture and jump-blocking predicates into bit tables, laid end to end.

use super::*;
use crate::cell::CellSet;
use crate::expr::{Deps, Value};
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::spec::*;
use crate::tables::*;

/// Lays every capture and blocking table end to end, and gives each target the bit index of
/// its own row of them, so that move generation answers "may this capture?" with one load.
pub(super) fn flatten(
    moves: &[CompiledMove],
    targets: &mut [Target],
    index: &[(u32, u16)],
    jumped_cells: &[u16],
    class: &[u16],
    stride: usize,
) -> (Vec<u64>, Vec<u64>, Vec<Jumped>, Vec<CapLayout>) {
    let mut cap_bits = vec![1u64];
    let mut cap_at = Vec::new();
    let mut block_bits = Vec::new();
    let mut block_at = Vec::new();
    for m in moves {
        cap_at.push(m.capture.table.as_ref().map(|t| {
            let at = cap_bits.len() * 64;
            cap_bits.extend(&t.bits);
            (at, t.strides)
        }));
        block_at.push(m.blocked.table.as_ref().map(|t| {
            let at = block_bits.len() * 64;
            block_bits.extend(&t.bits);
            (at, t.strides)
        }));
    }
    let mut jumped = vec![
        Jumped {
            cell: 0,
            block_base: 0
        };
        jumped_cells.len()
    ];
    for (slot, &(start, len)) in index.iter().enumerate() {
        let piece = slot / stride;
        let from = slot % stride;
        for t in &mut targets[start as usize..start as usize + len as usize] {
            let m = &moves[t.rule as usize];
            let hop = t.kind == HOP;
            let tcell = if hop { t.over } else { t.to } as usize;
            let mut flags = 0;
            if m.mode != CaptureMode::Capturing && !hop {
                flags |= QUIET;
            }
            if m.mode != CaptureMode::Quiet || hop {
                flags |= CAPTURE;
            }
            if !m.dynamic_enter.is_empty()
                || !m.capture.dynamic.is_empty()
                || !m.blocked.dynamic.is_empty()
            {
                flags |= SLOW;
            }
            if m.chain {
                flags |= CHAIN;
            }
            if t.kind == SLIDE {
                // Rays are walked by their own loop, off the fast path of the other shapes.
                flags |= SLOW;
                if t.jumped_len == 0 {
                    flags |= RAY;
                }
                if m.screen {
                    flags |= SCREEN;
                }
            }
            if m.then.is_some() {
                flags |= SLOW;
            }
            if t.pass_only {
                flags &= !(QUIET | CAPTURE);
            }
            if hop {
                flags |= HOPS;
            }
            if m.far {
                // A far hop's passed cells are read where its verdict is (`target_verdict`).
                flags |= SLOW;
            }
            if m.complete {
                // Whether a prefix may be played depends on what follows: the general path.
                flags |= SLOW;
            }
            match cap_at[t.rule as usize] {
                Some((at, s)) => {
                    t.cap_base =
                        (at + piece * s[0]
                            + class[from] as usize * s[1]
                            + class[tcell] as usize * s[3]
                            + class[t.to as usize] as usize * s[4]) as u32;
                    t.cap_stride = s[2] as u32;
                }
                None => {
                    // No table: either nothing restricts captures, or it is all interpreted.
                    t.cap_base = 0;
                    t.cap_stride = 0;
                }
            }
            if let Some((at, s)) = block_at[t.rule as usize] {
                flags |= BLOCKABLE;
                let js = t.jumped_start as usize;
                for j in js..js + t.jumped_len as usize {
                    let c = jumped_cells[j] as usize;
                    jumped[j] = Jumped {
                        cell: c as u16,
                        block_base: (at + piece * s[0] + class[c] as usize * s[1]) as u32,
                    };
                }
            } else {
                let js = t.jumped_start as usize;
                for j in js..js + t.jumped_len as usize {
                    jumped[j].cell = jumped_cells[j];
                }
            }
            t.flags = flags;
        }
    }
    (cap_bits, block_bits, jumped, cap_at)
}

impl Compiler<'_> {
    /// Tabulates the static capture checks over (attacker, its cell's class, defender,
    /// defender cell class, destination class), for the `cases` of cells the pattern's moves
    /// really involve (see `capture_cases`): a cell class combination no move has is never
    /// read, and a problem is reported for a move that can happen.
    pub(super) fn capture_check(
        &mut self,
        kind: KindId,
        checks: Vec<Checked>,
        class: &[u16],
        nclass: usize,
        cases: &[[Cell; 3]],
        site: Site,
    ) -> Check {
        let (stat, dynamic): (Vec<Checked>, Vec<Checked>) = checks
            .into_iter()
            .partition(|(_, e)| !e.deps().is_dynamic());
        let deps = stat
            .iter()
            .fold(Deps::default(), |d, (_, e)| d.or(e.deps()));
        // Dimensions: attacker code, from class, defender code, defender cell class, to class.
        let use_from = deps.any(Deps::FROM);
        let use_tcell = deps.any(Deps::TARGET_CELL);
        let use_to = deps.any(Deps::TO);
        // Only the codes of this pack's pieces are ever looked up.
        let codes = 1 + PLAYERS * self.core.kind_count();
        let sizes = [
            codes,
            if use_from { nclass } else { 1 },
            codes,
            if use_tcell { nclass } else { 1 },
            if use_to { nclass } else { 1 },
        ];
        let total: usize = sizes.iter().product();
        if total > MAX_TABLE_BITS {
            let mut dynamic = dynamic;
            dynamic.extend(stat);
            return Check {
                table: None,
                stat: Vec::new(),
                dynamic,
                untabulated: total,
            };
        }
        let mut table = table_for(sizes);
        let mut done = std::collections::HashSet::new();
        'cases: for &[from, tcell, to] in cases {
            let key = [
                if use_from { class[from.index()] } else { 0 },
                if use_tcell { class[tcell.index()] } else { 0 },
                if use_to { class[to.index()] } else { 0 },
            ];
            if !done.insert(key) {
                continue;
            }
            let [cf, ct, cto] = key.map(usize::from);
            for player in Player::ALL {
                let attacker = Piece::new(kind, player);
                for dk in self.core.kinds().collect::<Vec<_>>() {
                    let defender = Piece::new(dk, player.other());
                    let env = StaticEnv {
                        mover: Some(Value::Piece(attacker, from)),
                        target: Some(Value::Piece(defender, tcell)),
                        from: Some(from),
                        to: Some(to),
                        player: Some(player),
                        ..StaticEnv::default()
                    };
                    match first_refusal(self.core, &stat, &env) {
                        Ok(None) => table.set([attacker.code(), cf, defender.code(), ct, cto]),
                        Ok(Some(_)) => {}
                        Err((reason, err)) => {
                            let core = self.core;
                            let site = match reason {
                                Reason::Capture(r) => Site::Capture(r.index()),
                                _ => site,
                            };
                            self.eval_error(site, err, || {
                                format!(
                                    "{} captures {} on {}",
                                    case_text(core, attacker, from, to),
                                    core.code(defender),
                                    core.geometry.name(tcell)
                                )
                            });
                            continue 'cases;
                        }
                    }
                }
            }
        }
        Check {
            table: Some(table),
            stat,
            dynamic,
            untabulated: 0,
        }
    }

    /// Tabulates a jump's blocking predicate over (mover, jumped cell class, occupant).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn block_check(
        &mut self,
        kind: KindId,
        site: Site,
        check: Checked,
        crossed: CellSet,
        class: &[u16],
        nclass: usize,
    ) -> Check {
        let check = (check.0, on_the_cell(&check.1));
        if check.1.deps().is_dynamic() {
            return Check {
                table: None,
                stat: Vec::new(),
                dynamic: vec![check],
                untabulated: 0,
            };
        }
        let e = &check.1;
        let codes = 1 + PLAYERS * self.core.kind_count();
        let sizes = [codes, nclass, codes, 1, 1];
        let mut table = table_for(sizes);
        // Only the cells crossed (a jump's zone, a leap's legs) are ever tested.
        let reps = representatives(class, nclass, &crossed);
        for p in 0..PLAYERS {
            let mover = Piece::new(kind, Player(p as u8));
            for (cl, rep) in reps.iter().enumerate() {
                let Some(cell) = *rep else { continue };
                for occ in 0..(1 + 2 * self.core.kind_count()) {
                    let occupant = match Piece::from_code(occ as u8) {
                        Some(o) => Value::Piece(o, cell),
                        None => Value::NoPiece,
                    };
                    let env = StaticEnv {
                        mover: Some(Value::Piece(mover, cell)),
                        player: Some(mover.owner()),
                        cell: Some(cell),
                        occupant: Some(occupant),
                        ..StaticEnv::default()
                    };
                    match e.test(self.core, &env) {
                        Ok(true) => table.set([mover.code(), cl, occ, 0, 0]),
                        Ok(false) => {}
                        Err(err) => {
                            let core = self.core;
                            self.eval_error(site, err, || {
                                format!(
                                    "{} jumps over {} holding {}",
                                    core.code(mover),
                                    core.geometry.name(cell),
                                    Piece::from_code(occ as u8)
                                        .map_or("nothing".to_string(), |o| core
                                            .code(o)
                                            .to_string())
                                )
                            });
                            return Check::default();
                        }
                    }
                }
            }
        }
        Check {
            table: Some(table),
            stat: vec![check],
            dynamic: Vec::new(),
            untabulated: 0,
        }
    }
}

/// A blocking predicate with what it reads of the examined cell's contents said through its
/// occupant (`occupied(cell)` is `occupant != nobody`), so that it can be tabulated by
/// occupant rather than read from the position.
fn on_the_cell(e: &Expr) -> Expr {
    use crate::expr::{BinOp, Value, Var};
    let cell = |x: &Expr| matches!(x, Expr::Var(Var::Cell));
    let occupant = || Box::new(Expr::Var(Var::Occupant));
    let none = || Box::new(Expr::Lit(Value::NoPiece));
    match e {
        Expr::Occupied(c) if cell(c) => Expr::Bin(BinOp::Ne, occupant(), none()),
        Expr::Empty(c) if cell(c) => Expr::Bin(BinOp::Eq, occupant(), none()),
        Expr::At(c) if cell(c) => Expr::Var(Var::Occupant),
        Expr::Not(a) => Expr::Not(Box::new(on_the_cell(a))),
        Expr::Bin(op, a, b) => Expr::Bin(*op, Box::new(on_the_cell(a)), Box::new(on_the_cell(b))),
        Expr::If(a, b, c) => Expr::If(
            Box::new(on_the_cell(a)),
            Box::new(on_the_cell(b)),
            Box::new(on_the_cell(c)),
        ),
        other => other.clone(),
    }
}
