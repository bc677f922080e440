//! Move patterns into target lists: where each pattern goes from each cell, filtered by the
//! enter rules that do not read the position.

use super::*;
use crate::cell::Cell;
use crate::cell::CellSet;
use crate::expr::Expr;
use crate::expr::Value;
use crate::geometry::{Dir, Geometry};
use crate::limits::MAX_PASSED_CELLS;
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::reason::{PatternId, Reason, RuleId, Section};
use crate::shapes::*;
use crate::spec::*;
use crate::tables::*;
use crate::verdict::{Checked, StaticEnv, first_refusal, place_env};

/// The most move patterns a game may have (a move names its pattern in one byte).
pub(crate) const MAX_PATTERNS: usize = 256;

impl Compiler<'_> {
    pub(super) fn moves(&mut self, class: &[u16], nclass: usize) -> MoveTables {
        let g = self.core.geometry.clone();
        let mut moves = Vec::new();
        // Candidate targets, per (piece code, cell), before sorting into the flat list.
        let stride = g.len();
        let codes = 1 + PLAYERS * self.spec.kinds.len();
        let mut per: Vec<Vec<Target>> = vec![Vec::new(); codes * stride];
        let mut jumped: Vec<u16> = Vec::new();
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
            self.limit(
                Site::Game,
                format!("the game has {total} move patterns; at most {MAX_PATTERNS} are supported"),
                ("MAX_PATTERNS", MAX_PATTERNS, total),
            );
        }

        let mut too_large = false;
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
                if shape == Shape::Place {
                    moves.push(self.placement(kid, rule, m, site));
                    continue;
                }
                let stop = match &m.pattern {
                    Pattern::Slide { stop, .. } => stop.clone(),
                    _ => None,
                };
                let far = matches!(m.pattern, Pattern::Hop { far: true, .. });
                let mut too_far = false;

                for player in Player::ALL {
                    let piece = Piece::new(kid, player);
                    for from in g.cells().iter() {
                        for dir in m.dirs[player.index()].iter() {
                            let found = match shape {
                                Shape::Slide(max) => {
                                    self.ray(&g, piece, from, dir, max, stop.as_ref(), site)
                                }
                                Shape::Hop if far => {
                                    let (found, reach) = far_hops(&g, from, dir);
                                    if reach > crate::limits::MAX_FAR_HOP_LENGTH && !too_far {
                                        too_far = true;
                                        self.limit(
                                            site,
                                            format!(
                                                "a `far` hop here could go {reach} cells, past the kernel's limit of {}",
                                                crate::limits::MAX_FAR_HOP_LENGTH
                                            ),
                                            (
                                                "MAX_FAR_HOP_LENGTH",
                                                crate::limits::MAX_FAR_HOP_LENGTH,
                                                reach,
                                            ),
                                        );
                                    }
                                    found
                                }
                                Shape::Fly => g
                                    .cells()
                                    .iter()
                                    .filter(|&c| c != from)
                                    .map(|c| (c, None, Vec::new()))
                                    .collect(),
                                _ => geometry_of(&g, self.core, shape, from, dir)
                                    .into_iter()
                                    .collect(),
                            };
                            // A slide's targets pass the first cells of one ray: the ray is
                            // kept once, each target reading a prefix of it.
                            let ray_start = jumped.len();
                            let ray = matches!(shape, Shape::Slide(_));
                            if ray && let Some((_, _, passed)) = found.last() {
                                jumped.extend(passed.iter().map(|c| c.0));
                            }
                            for (to, over, jumped_cells) in found {
                                // Static enter rules and the pattern's own condition.
                                let env = StaticEnv {
                                    mover: Some(Value::Piece(piece, from)),
                                    from: Some(from),
                                    to: Some(to),
                                    player: Some(player),
                                    ..StaticEnv::default()
                                };
                                let mut pass_only = false;
                                match first_refusal(self.core, &enter, &env) {
                                    Ok(None) => {}
                                    // A slide goes on past a cell it may not stop on.
                                    Ok(Some(_)) if matches!(shape, Shape::Slide(_)) => {
                                        pass_only = true
                                    }
                                    Ok(Some(_)) => continue,
                                    Err((reason, e)) => {
                                        let core = self.core;
                                        self.eval_error(site_of(reason, site), e, || {
                                            case_text(core, piece, from, to)
                                        });
                                        continue;
                                    }
                                }
                                let start = if ray {
                                    ray_start
                                } else {
                                    let start = jumped.len();
                                    jumped.extend(jumped_cells.iter().map(|c| c.0));
                                    start
                                };
                                per[piece.code() * stride + from.index()].push(Target {
                                    to: to.0,
                                    over: over.map_or(0, |c| c.0),
                                    rule: rule as u8,
                                    kind: match shape {
                                        Shape::Jump(_) => JUMP,
                                        Shape::Hop => HOP,
                                        Shape::Slide(_) => SLIDE,
                                        // A leap with a leg to test is a jump over that cell.
                                        Shape::Leap(..) if !jumped_cells.is_empty() => JUMP,
                                        _ => STEP,
                                    },
                                    dir: dir as u8,
                                    jumped_len: jumped_cells.len() as u8,
                                    jumped_start: start as u32,
                                    flags: 0,
                                    cap_base: 0,
                                    cap_stride: 0,
                                    pass_only,
                                });
                            }
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
                        ..
                    } => {
                        chain = *c;
                        complete = *c && *full;
                        capture_exprs
                            .extend(over.iter().map(|e| (Reason::Condition(pattern), e.clone())));
                    }
                    Pattern::Jump { blocked, .. } | Pattern::Leap { blocked, .. } => {
                        blocked_expr = blocked.as_ref()
                    }
                    Pattern::Step | Pattern::Slide { .. } | Pattern::Place | Pattern::Fly => {}
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
                        let crossed = self.core.zone_cells(zone, None);
                        self.block_check(kid, site, check, crossed, class, nclass)
                    }
                    (Some(e), Shape::Leap(..)) => {
                        let check = (Reason::Blocked(pattern, Cell(0)), e.clone());
                        let crossed = *g.cells();
                        self.block_check(kid, site, check, crossed, class, nclass)
                    }
                    _ => Check::default(),
                };
                let then = m
                    .then
                    .as_ref()
                    .map(|t| ([0u8, 1].map(|p| Piece::new(t.kind, Player(p)).0), t.dirs));
                let place_cells = match &m.then {
                    Some(t) => self.then_cells(t.kind, site),
                    None => [CellSet::EMPTY; PLAYERS],
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
                    screen: matches!(m.pattern, Pattern::Slide { screen: true, .. }),
                    over_own: matches!(m.pattern, Pattern::Slide { over_own: true, .. }),
                    far,
                    place_cells,
                    place_static: Vec::new(),
                    place_formula: None,
                    then,
                    leaves_ghost: m.leaves_ghost,
                    takes_ghost: m.takes_ghost,
                });
                if jumped.len() > MAX_PASSED_CELLS && !too_large {
                    too_large = true;
                    self.limit(
                        site,
                        format!(
                            "with this pattern the moves of the game pass {} cells in all (slides \
                             keep one ray per cell and direction; jumps and leaps their passed \
                             cells), past the kernel's limit of {MAX_PASSED_CELLS}",
                            jumped.len()
                        ),
                        ("MAX_PASSED_CELLS", MAX_PASSED_CELLS, jumped.len()),
                    );
                }
            }
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
fn capture_cases(per: &[Vec<Target>], rule: u8, class: &[u16], stride: usize) -> Vec<[Cell; 3]> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (slot, list) in per.iter().enumerate() {
        let from = slot % stride;
        for t in list.iter().filter(|t| t.rule == rule) {
            let tcell = if t.kind == HOP { t.over } else { t.to };
            let key = (class[from], class[tcell as usize], class[t.to as usize]);
            if seen.insert(key) {
                out.push([Cell(from as u16), Cell(tcell), Cell(t.to)]);
            }
        }
    }
    out
}

impl Compiler<'_> {
    /// The landing cells of a slide of `piece` from `from` in `dir`, nearest first, each with
    /// the cells passed before it: up to `max` cells, up to the edge, and up to and including
    /// the first cell where `stop` holds.
    #[allow(clippy::too_many_arguments)]
    fn ray(
        &mut self,
        g: &Geometry,
        piece: Piece,
        from: Cell,
        dir: Dir,
        max: Option<u8>,
        stop: Option<&Expr>,
        site: Site,
    ) -> Vec<(Cell, Option<Cell>, Vec<Cell>)> {
        let mut out = Vec::new();
        let mut passed = Vec::new();
        let mut cur = from;
        while let Some(next) = g.neighbour(cur, dir) {
            if max.is_some_and(|m| out.len() >= m as usize) {
                break;
            }
            out.push((next, None, passed.clone()));
            passed.push(next);
            cur = next;
            if let Some(e) = stop {
                let env = StaticEnv {
                    mover: Some(Value::Piece(piece, from)),
                    cell: Some(next),
                    player: Some(piece.owner()),
                    ..StaticEnv::default()
                };
                match e.test(self.core, &env) {
                    Ok(false) => {}
                    Ok(true) => break,
                    Err(err) => {
                        let core = self.core;
                        self.eval_error(site, err, || {
                            format!("{} slides to {}", core.code(piece), g.name(next))
                        });
                        break;
                    }
                }
            }
        }
        out
    }

    /// A placement pattern: the cells its static checks allow, by player, and the checks
    /// left for play.
    fn placement(&mut self, kind: KindId, rule: usize, m: &MoveSpec, site: Site) -> CompiledMove {
        let pattern = PatternId(rule as u8);
        let mut checks: Vec<Checked> = self
            .spec
            .place
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    Reason::Place(RuleId::new(Section::Place, i)),
                    r.expr.clone(),
                )
            })
            .collect();
        if let Some(c) = &m.condition {
            checks.push((Reason::Condition(pattern), c.clone()));
        }
        let (stat, dynamic): (Vec<Checked>, Vec<Checked>) = checks
            .into_iter()
            .partition(|(_, e)| !e.deps().is_dynamic());
        let cells = self.placeable(kind, &stat, site);
        let place_formula = dynamic
            .iter()
            .map(|(_, e)| e.clone())
            .reduce(|a, b| Expr::Bin(crate::expr::BinOp::And, a.boxed(), b.boxed()))
            .and_then(|all| {
                let pieces = [
                    Piece::new(kind, Player::FIRST),
                    Piece::new(kind, Player::SECOND),
                ];
                super::cellsets::compile(self.core, &all, pieces).map(Box::new)
            });
        CompiledMove {
            kind,
            text: m.text.clone(),
            shape: Shape::Place,
            dynamic_enter: dynamic,
            place_cells: cells,
            place_static: stat,
            place_formula,
            ..CompiledMove::pass()
        }
    }

    /// The cells where the static place rules let a piece of `kind` be placed, by player
    /// (the second part of a turn).
    fn then_cells(&mut self, kind: KindId, site: Site) -> [CellSet; PLAYERS] {
        let stat: Vec<Checked> = self
            .spec
            .place
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.expr.deps().is_dynamic())
            .map(|(i, r)| {
                (
                    Reason::Place(RuleId::new(Section::Place, i)),
                    r.expr.clone(),
                )
            })
            .collect();
        self.placeable(kind, &stat, site)
    }

    /// The cells where every check of `stat` lets a piece of `kind` be placed, by player; a
    /// check that cannot be evaluated is reported at its rule (or at `site`).
    fn placeable(&mut self, kind: KindId, stat: &[Checked], site: Site) -> [CellSet; PLAYERS] {
        let mut cells = [CellSet::EMPTY; PLAYERS];
        for player in Player::ALL {
            let piece = Piece::new(kind, player);
            for cell in self.core.geometry.cells().iter() {
                match first_refusal(self.core, stat, &place_env(piece, cell)) {
                    Ok(None) => cells[player.index()].insert(cell),
                    Ok(Some(_)) => {}
                    Err((reason, e)) => {
                        let core = self.core;
                        let at = match reason {
                            Reason::Place(r) => Site::Place(r.index()),
                            _ => site,
                        };
                        self.eval_error(at, e, || {
                            format!(
                                "{} is placed on {}",
                                core.code(piece),
                                core.geometry.name(cell)
                            )
                        });
                    }
                }
            }
        }
        cells
    }
}

/// One far hop's target: the landing cell, the cell of the piece hopped, the cells passed.
type FarHop = (Cell, Option<Cell>, Vec<Cell>);

/// The targets of a `far` hop from `from` in `dir`: for each cell of the ray that the hopped
/// piece may stand on, each empty cell beyond it to land on, with the cells passed on the way
/// (which must be empty), up to [`crate::limits::MAX_FAR_HOP_LENGTH`] cells from `from`; and
/// how many cells the ray has.
fn far_hops(g: &Geometry, from: Cell, dir: Dir) -> (Vec<FarHop>, usize) {
    let mut ray = Vec::new();
    let mut c = from;
    while let Some(n) = g.neighbour(c, dir) {
        ray.push(n);
        c = n;
    }
    let reach = ray.len();
    ray.truncate(crate::limits::MAX_FAR_HOP_LENGTH);
    let mut out = Vec::new();
    for over in 0..ray.len() {
        for land in over + 1..ray.len() {
            let passed = ray[..land]
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != over)
                .map(|(_, &c)| c)
                .collect();
            out.push((ray[land], Some(ray[over]), passed));
        }
    }
    (out, reach)
}
