//! Move patterns into target lists: where each pattern goes from each cell, filtered by the
//! enter rules that do not read the position.

use super::*;
use crate::cell::Cell;
use crate::expr::Value;
use crate::facts::*;
use crate::geometry::{Dir, Geometry};
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::reason::{PatternId, Reason, RuleId, Section};
use crate::spec::*;
use crate::tables::*;
use crate::verdict::{Checked, StaticEnv, first_refusal};

/// The most move patterns a game may have (a move names its pattern in one byte).
pub(crate) const MAX_PATTERNS: usize = 256;

impl Compiler<'_> {
    pub(super) fn moves(&mut self, class: &[u8], nclass: usize) -> MoveTables {
        let g = self.core.geometry.clone();
        let mut moves = Vec::new();
        // Candidate targets, per (piece code, cell), before sorting into the flat list.
        let stride = g.len();
        let codes = 1 + PLAYERS * self.spec.kinds.len();
        let mut per: Vec<Vec<Target>> = vec![Vec::new(); codes * stride];
        let mut jumped: Vec<u8> = Vec::new();
        let (static_enter, dynamic_enter): (Vec<Checked>, Vec<Checked>) = self
            .spec
            .enter
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    Reason::Enter(RuleId::new(Section::Enter, i)),
                    r.expr.clone(),
                )
            })
            .partition(|(_, e)| !e.deps().is_dynamic());
        let total: usize = self.spec.kinds.iter().map(|k| k.moves.len()).sum();
        if total > MAX_PATTERNS {
            self.error(
                Site::Game,
                format!("the game has {total} move patterns; at most {MAX_PATTERNS} are supported"),
            );
        }

        for (ki, kind) in self.spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                let rule = moves.len();
                if rule >= MAX_PATTERNS {
                    continue;
                }
                let site = Site::Move(ki, mi);
                let pattern = PatternId(rule as u8);
                let kid = KindId(ki as u8);
                let mut enter = static_enter.clone();
                let mut dyn_enter = dynamic_enter.clone();
                if let Some(c) = &m.condition {
                    let check = (Reason::Condition(pattern), c.clone());
                    if c.deps().is_dynamic() {
                        dyn_enter.push(check);
                    } else {
                        enter.push(check);
                    }
                }
                let shape = shape_of(&m.pattern);

                for player in Player::ALL {
                    let piece = Piece::new(kid, player);
                    for from in g.cells().iter() {
                        for dir in m.dirs[player.index()].iter() {
                            let Some((to, over, jumped_cells)) =
                                geometry_of(&g, self.core, shape, from, dir)
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
                            match first_refusal(self.core, &enter, &env) {
                                Ok(None) => {}
                                Ok(Some(_)) => continue,
                                Err((reason, e)) => {
                                    let core = self.core;
                                    self.eval_error(site_of(reason, site), e, || {
                                        case_text(core, piece, from, to)
                                    });
                                    continue;
                                }
                            }
                            let start = jumped.len();
                            jumped.extend(jumped_cells.iter().map(|c| c.0));
                            per[piece.code() * stride + from.index()].push(Target {
                                to: to.0,
                                over: over.map_or(0, |c| c.0),
                                rule: rule as u8,
                                kind: match shape {
                                    Shape::Step => STEP,
                                    Shape::Jump(_) => JUMP,
                                    Shape::Hop => HOP,
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

                // Capture table: the game's capture rules and the hop's own filter, over the
                // cells this pattern's moves really involve.
                let mut capture_exprs: Vec<Checked> = self
                    .spec
                    .capture
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        (
                            Reason::Capture(RuleId::new(Section::Capture, i)),
                            r.expr.clone(),
                        )
                    })
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
                        capture_exprs
                            .extend(over.iter().map(|e| (Reason::Condition(pattern), e.clone())));
                    }
                    Pattern::Jump { blocked, .. } => blocked_expr = blocked.as_ref(),
                    Pattern::Step => {}
                }
                let capture = if m.mode == CaptureMode::Quiet && shape != Shape::Hop {
                    Check::default()
                } else {
                    let cases = capture_cases(&per, rule as u8, class, stride);
                    self.capture_check(kid, capture_exprs, class, nclass, &cases, site)
                };
                let blocked = match (blocked_expr, shape) {
                    (Some(e), Shape::Jump(zone)) => {
                        let check = (Reason::Blocked(pattern, Cell(0)), e.clone());
                        self.block_check(kid, site, check, zone, class, nclass)
                    }
                    _ => Check::default(),
                };
                moves.push(CompiledMove {
                    kind: kid,
                    text: m.text.clone(),
                    shape,
                    dirs: m.dirs,
                    mode: m.mode,
                    chain,
                    complete,
                    enter,
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

/// Where in the spec the check behind a reason is written.
fn site_of(reason: Reason, pattern: Site) -> Site {
    match reason {
        Reason::Enter(r) => Site::Enter(r.index()),
        Reason::Capture(r) => Site::Capture(r.index()),
        _ => pattern,
    }
}

/// The distinct (origin, captured cell, destination) combinations of cell classes among the
/// targets of pattern `rule`, each with the cells of its first target: the only cases a
/// capture table is ever read for.
fn capture_cases(per: &[Vec<Target>], rule: u8, class: &[u8], stride: usize) -> Vec<[Cell; 3]> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (slot, list) in per.iter().enumerate() {
        let from = slot % stride;
        for t in list.iter().filter(|t| t.rule == rule) {
            let tcell = if t.kind == HOP { t.over } else { t.to };
            let key = (class[from], class[tcell as usize], class[t.to as usize]);
            if seen.insert(key) {
                out.push([Cell(from as u8), Cell(tcell), Cell(t.to)]);
            }
        }
    }
    out
}

/// The shape of a pattern.
pub(crate) fn shape_of(pattern: &Pattern) -> Shape {
    match pattern {
        Pattern::Step => Shape::Step,
        Pattern::Jump { zone, .. } => Shape::Jump(*zone),
        Pattern::Hop { .. } => Shape::Hop,
    }
}

/// Where a pattern goes from `from` in `dir`: destination, hopped-over cell, jumped cells.
/// The compiler builds the target lists with it, and an explanation finds with it the
/// destinations the enter rules took out of them.
pub(crate) fn geometry_of(
    g: &Geometry,
    core: &Core,
    shape: Shape,
    from: Cell,
    dir: Dir,
) -> Option<(Cell, Option<Cell>, Vec<Cell>)> {
    match shape {
        Shape::Step => g.neighbour(from, dir).map(|to| (to, None, Vec::new())),
        Shape::Hop => {
            let over = g.neighbour(from, dir)?;
            let to = g.neighbour(over, dir)?;
            Some((to, Some(over), Vec::new()))
        }
        Shape::Jump(zone) => {
            let mut cells = Vec::new();
            let mut c = g.neighbour(from, dir)?;
            while core.in_zone(c, zone, None) {
                cells.push(c);
                c = g.neighbour(c, dir)?;
            }
            (!cells.is_empty()).then_some((c, None, cells))
        }
    }
}
