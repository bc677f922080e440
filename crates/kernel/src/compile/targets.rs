//! Move patterns into target lists: where each pattern goes from each cell, filtered by the
//! enter rules that do not read the position.

use super::*;
use crate::cell::Cell;
use crate::expr::{Expr, Value};
use crate::facts::*;
use crate::geometry::{Dir, Geometry};
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::rules::*;
use crate::spec::*;
use crate::tables::*;

impl Compiler<'_> {
    pub(super) fn moves(&mut self, class: &[u8], nclass: usize) -> MoveTables {
        let g = self.core.geometry.clone();
        let mut moves = Vec::new();
        // Candidate targets, per (piece code, cell), before sorting into the flat list.
        let stride = g.len();
        let codes = 1 + PLAYERS * self.spec.kinds.len();
        let mut per: Vec<Vec<Target>> = vec![Vec::new(); codes * stride];
        let mut jumped: Vec<u8> = Vec::new();
        let (static_enter, dynamic_enter): (Vec<&NamedRule>, Vec<&NamedRule>) = self
            .spec
            .enter
            .iter()
            .partition(|r| !r.expr.deps().is_dynamic());
        let enter_index = |r: &NamedRule| {
            self.spec
                .enter
                .iter()
                .position(|x| std::ptr::eq(x, r))
                .unwrap_or(0)
        };
        let static_enter: Vec<(usize, &NamedRule)> = static_enter
            .into_iter()
            .map(|r| (enter_index(r), r))
            .collect();
        let dynamic_enter: Vec<Expr> = dynamic_enter.into_iter().map(|r| r.expr.clone()).collect();

        for (ki, kind) in self.spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                let rule = moves.len();
                if rule > u8::MAX as usize {
                    self.error(Site::Move(ki, mi), "too many move patterns (at most 256)");
                    continue;
                }
                let site = Site::Move(ki, mi);
                let kid = KindId(ki as u8);
                let (cond_static, cond_dynamic) = match &m.condition {
                    Some(c) if c.deps().is_dynamic() => (None, Some(c.clone())),
                    Some(c) => (Some(c), None),
                    None => (None, None),
                };
                let mut dyn_enter = dynamic_enter.clone();
                dyn_enter.extend(cond_dynamic);

                for p in 0..PLAYERS {
                    let player = Player(p as u8);
                    let piece = Piece::new(kid, player);
                    for from in g.cells().iter() {
                        for dir in m.dirs[p].iter() {
                            let Some((to, over, jumped_cells)) =
                                geometry_of(&g, self.core, &m.pattern, from, dir)
                            else {
                                continue;
                            };
                            // Static enter rules and the pattern's own condition.
                            let env = StaticEnv {
                                mover: Some(Value::Piece(piece, from)),
                                from: Some(from),
                                to: Some(to),
                                player: Some(player),
                                ..StaticEnv::default()
                            };
                            let mut ok = true;
                            for (ri, r) in &static_enter {
                                match r.expr.test(self.core, &env) {
                                    Ok(true) => {}
                                    Ok(false) => {
                                        ok = false;
                                        break;
                                    }
                                    Err(e) => {
                                        let core = self.core;
                                        self.eval_error(Site::Enter(*ri), e, || {
                                            case_text(core, piece, from, to)
                                        });
                                        ok = false;
                                        break;
                                    }
                                }
                            }
                            if ok && let Some(c) = cond_static {
                                match c.test(self.core, &env) {
                                    Ok(b) => ok = b,
                                    Err(e) => {
                                        let core = self.core;
                                        self.eval_error(site, e, || {
                                            case_text(core, piece, from, to)
                                        });
                                        ok = false;
                                    }
                                }
                            }
                            if !ok {
                                continue;
                            }
                            let start = jumped.len();
                            jumped.extend(jumped_cells.iter().map(|c| c.0));
                            per[piece.code() * stride + from.index()].push(Target {
                                to: to.0,
                                over: over.map_or(0, |c| c.0),
                                rule: rule as u8,
                                kind: match m.pattern {
                                    Pattern::Step => STEP,
                                    Pattern::Jump { .. } => JUMP,
                                    Pattern::Hop { .. } => HOP,
                                },
                                dir: dir as u8,
                                jumped_len: jumped_cells.len() as u8,
                                jumped_start: start as u16,
                                flags: 0,
                                cap_base: 0,
                                cap_stride: 0,
                            });
                        }
                    }
                }

                // Capture table: the game's capture rules and the hop's own filter.
                let mut capture_exprs: Vec<(Site, &Expr)> = self
                    .spec
                    .capture
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (Site::Capture(i), &r.expr))
                    .collect();
                let mut chain = false;
                let mut complete = false;
                let mut blocked_expr = None;
                match &m.pattern {
                    Pattern::Hop {
                        over,
                        chain: c,
                        complete: full,
                    } => {
                        chain = *c;
                        complete = *c && *full;
                        capture_exprs.extend(over.iter().map(|e| (site, e)));
                    }
                    Pattern::Jump { blocked, .. } => blocked_expr = blocked.as_ref(),
                    Pattern::Step => {}
                }
                let capture =
                    if m.mode == CaptureMode::Quiet && !matches!(m.pattern, Pattern::Hop { .. }) {
                        Check::default()
                    } else {
                        self.capture_check(kid, &capture_exprs, class, nclass)
                    };
                let jump_zone = match &m.pattern {
                    Pattern::Jump { zone, .. } => *zone,
                    _ => 0,
                };
                let blocked = match blocked_expr {
                    Some(e) => self.block_check(kid, site, e, jump_zone, class, nclass),
                    None => Check::default(),
                };
                moves.push(CompiledMove {
                    kind: kid,
                    index: mi,
                    mode: m.mode,
                    chain,
                    complete,
                    capture,
                    blocked,
                    dynamic_enter: dyn_enter,
                });
            }
        }
        if jumped.len() > u16::MAX as usize {
            self.error(Site::Game, "the jump tables are too large");
        }
        let mut targets = Vec::new();
        let mut index = vec![(0u32, 0u16); codes * stride];
        for (i, list) in per.into_iter().enumerate() {
            index[i] = (targets.len() as u32, list.len() as u16);
            targets.extend(list);
        }
        (moves, targets, index, jumped)
    }
}

/// Where a pattern goes from `from` in `dir`: destination, hopped-over cell, jumped cells.
pub(super) fn geometry_of(
    g: &Geometry,
    core: &Core,
    pattern: &Pattern,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    match pattern {
        Pattern::Step => g.neighbour(from, dir).map(|to| (to, None, Vec::new())),
        Pattern::Hop { .. } => {
            let over = g.neighbour(from, dir)?;
            let to = g.neighbour(over, dir)?;
            Some((to, Some(over), Vec::new()))
        }
        Pattern::Jump { zone, .. } => {
            let mut cells = Vec::new();
            let mut c = g.neighbour(from, dir)?;
            while core.in_zone(c, *zone, None) {
                cells.push(c);
                c = g.neighbour(c, dir)?;
            }
            (!cells.is_empty()).then_some((c, None, cells))
        }
    }
}

/// Where a pattern goes, for explaining rejected moves.
pub(crate) fn pattern_geometry(
    rules: &Rules,
    pattern: &Pattern,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    geometry_of(&rules.core.geometry, &rules.core, pattern, from, dir)
}
