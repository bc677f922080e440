//! The compiler: the only code that reads a [`RulesSpec`]. It checks the spec and evaluates
//! every predicate that does not depend on the position for every case, into the tables of
//! [`crate::tables`].
//!
//! Compilation is where speed comes from. Every predicate that depends only on the pieces and
//! cells involved in a move (not on the rest of the position) is evaluated at load time for
//! every case and stored in a table:
//!
//! - enter rules are folded into per-piece, per-cell **target lists**: the destinations each
//!   move pattern can reach from each cell, already filtered; on boards of up to 64 cells the
//!   plain ones become bitboard **step groups** (see [`steps`]);
//! - capture rules (with a hop's `over` filter) become one bit table per move pattern, indexed
//!   by attacker, defender and the *classes* of the cells involved (cells that no expression can
//!   tell apart share a class);
//! - a jump's blocking predicate becomes a table by mover, occupant and cell class;
//! - end rules that look only at the moved piece and its destination become per-piece cell sets;
//!   `count(...) <op> n` conditions become counter comparisons, whose verdict positions keep up
//!   to date as counts change; `no_moves(opponent)` at the end
//!   of the list is resolved lazily, when the next player's move list turns out empty.
//!
//! What cannot be tabulated (it reads the board, counts or moves) is kept as an [`Expr`] and
//! evaluated during play.

pub(crate) mod cellsets;
mod checks;
mod classes;
mod construct_tables;
mod ends;
mod game;
use classes::representatives;
pub(crate) use classes::table_for;
use construct_tables::{promotion_tables, special_tables};
use ends::{count_range, mentions_var, reads_only_counts};
use game::build_core;
mod overlaps;
pub(crate) mod steps;
pub(crate) mod targets;

use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::expr::{BinOp, Deps, EvalError, Expr, MAX_EXPR_DEPTH, Value, Var, visit};
use crate::facts::*;
use crate::limits::MAX_END_RULES;
use crate::piece::{KindId, MAX_KINDS, PIECE_CODES, PLAYERS, Piece, Player};
use crate::reason::{Reason, RuleId, Section};
use crate::rules::*;
use crate::spec::*;
use crate::tables::*;
use crate::verdict::{Checked, StaticEnv, first_refusal};
use checks::flatten;
use std::collections::HashMap;

use crate::limits::MAX_TABLE_BITS;

impl Rules {
    /// Checks and compiles a spec. Returns every problem found, not only the first.
    pub fn new(spec: RulesSpec) -> Result<Rules, Vec<RulesError>> {
        compile(spec)
    }
}

/// [`Rules::new`].
fn compile(spec: RulesSpec) -> Result<Rules, Vec<RulesError>> {
    let mut errors = Vec::new();
    let core = build_core(&spec, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut compiler = Compiler {
        core: &core,
        spec: &spec,
        errors: Vec::new(),
        causes: HashMap::new(),
    };
    if !compiler.check_depths() {
        return Err(compiler.finish());
    }
    let class = compiler.classes();
    let nclass = class.iter().copied().max().map_or(1, |m| m as usize + 1);
    let (mut moves, mut targets, target_index, jumped_cells) = compiler.moves(&class, nclass);
    let pass_rule = spec.pass.then(|| {
        moves.push(CompiledMove::pass());
        (moves.len() - 1) as u8
    });
    for (i, c) in spec.compounds.iter().enumerate() {
        moves.push(CompiledMove {
            kind: c.mover,
            text: format!("compound {}", c.name),
            shape: Shape::Compound(i as u8),
            ..CompiledMove::pass()
        });
    }
    {
        let (spec, core) = (compiler.spec, compiler.core);
        crate::construct::check(spec, core, &mut |site, message| {
            compiler.error(site, message)
        });
    }
    if moves.len() > targets::MAX_PATTERNS {
        compiler.limit(
            Site::Game,
            format!(
                "the game has {} move patterns with its pass; at most {} are supported",
                moves.len(),
                targets::MAX_PATTERNS
            ),
            ("MAX_PATTERNS", targets::MAX_PATTERNS, moves.len()),
        );
    }
    let effects = compiler.effects();
    let (cap_bits, block_bits, jumped, cap_at) = flatten(
        &moves,
        &mut targets,
        &target_index,
        &jumped_cells,
        &class,
        spec.geometry.len(),
    );
    let (end, deferred) = compiler.ends();
    if spec.end.len() > MAX_END_RULES {
        compiler.limit(
            Site::End(MAX_END_RULES),
            format!(
                "the game has {} end rules; at most {MAX_END_RULES} are supported",
                spec.end.len()
            ),
            ("MAX_END_RULES", MAX_END_RULES, spec.end.len()),
        );
    }
    let stride = spec.geometry.len();
    let (targets, slots, groups) = steps::group(targets, &target_index, &cap_at, &class, stride);
    let mut cell_class = Box::new([0u16; MAX_CELLS]);
    for (c, k) in cell_class.iter_mut().zip(&class) {
        *c = *k;
    }
    let codes = 1 + PLAYERS * spec.kinds.len();
    let mut arrive_first = code_table(NONE);
    let mut eager = Vec::new();
    for (i, e) in end.iter().enumerate().take(MAX_END_RULES) {
        match &e.check {
            EndCheck::Arrive(sets) => {
                for (code, set) in sets.iter().enumerate().take(codes) {
                    for cell in set.iter() {
                        let slot = &mut arrive_first[code][cell.index()];
                        if *slot == NONE {
                            *slot = i as u8;
                        }
                    }
                }
            }
            // Decided when the move list is empty (or before a later rule that fires).
            EndCheck::Deferred(_) => {}
            EndCheck::Line(dirs, op, n) => eager.push(Eager {
                index: i as u8,
                test: EagerTest::Line(*dirs, *op, *n),
            }),
            EndCheck::Count(who, kind, op, n) => {
                let at = [0u8, 1].map(|p| {
                    let player = who.resolve(Player(p));
                    (match kind {
                        Some(k) => Piece::new(*k, player).code(),
                        None => PIECE_CODES + player.index(),
                    }) as u16
                });
                let test = match count_range(*op, *n) {
                    Some((lo, hi)) => EagerTest::Count { at, lo, hi },
                    None => EagerTest::Dynamic,
                };
                eager.push(Eager {
                    index: i as u8,
                    test,
                })
            }
            EndCheck::Dynamic(expr) => eager.push(Eager {
                index: i as u8,
                test: match expr {
                    Expr::Bin(op, a, b)
                        if matches!(**a, Expr::Var(Var::Clock | Var::Idle | Var::Repetitions))
                            && matches!(
                                op,
                                BinOp::Eq
                                    | BinOp::Ne
                                    | BinOp::Lt
                                    | BinOp::Le
                                    | BinOp::Gt
                                    | BinOp::Ge
                            ) =>
                    {
                        match b.as_ref() {
                            Expr::Lit(Value::Int(n)) => match **a {
                                Expr::Var(Var::Idle) => EagerTest::Idle(*op, *n),
                                Expr::Var(Var::Repetitions) => EagerTest::Repetitions(*op, *n),
                                _ => EagerTest::Clock(*op, *n),
                            },
                            _ => EagerTest::Dynamic,
                        }
                    }
                    e if let Some(kinds) = reads_only_counts(e) => EagerTest::Counts(kinds),
                    _ => EagerTest::Dynamic,
                },
            }),
        }
    }
    compiler.check_setup();
    if !spec.pass {
        for (i, e) in spec.end.iter().enumerate() {
            if mentions_var(&e.when, Var::Passes) {
                compiler.error(
                    Site::End(i),
                    "this rule reads `passes`, but nobody ever passes: add `pass = true` to [game]",
                );
            }
        }
    }
    let place = compiler.place();
    let errors = compiler.finish();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let (promote, promote_stops) = promotion_tables(&core, &spec, codes, stride);
    let mut zobrist = code_table(0);
    for row in zobrist.iter_mut().take(codes) {
        for key in &mut row[..stride] {
            *key = splitmix(&mut seed);
        }
    }
    let zobrist_side = splitmix(&mut seed);
    let dynamic_winner = end.iter().any(|e| e.winner.is_some());
    let counts_only = !dynamic_winner
        && eager
            .iter()
            .all(|e| matches!(e.test, EagerTest::Count { .. }));
    let placements: Vec<u8> = moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.shape == Shape::Place)
        .map(|(i, _)| i as u8)
        .collect();
    let supply: Vec<Option<u16>> = spec.kinds.iter().map(|k| k.supply).collect();
    let to_hand: Vec<Option<KindId>> = spec.kinds.iter().map(|k| k.to_hand).collect();
    let mut hand_errors = Vec::new();
    for (i, k) in spec.kinds.iter().enumerate() {
        let Some(h) = k.to_hand else { continue };
        match spec.kinds.get(h.index()) {
            Some(hk) if hk.supply.is_some() => {}
            Some(hk) => hand_errors.push(RulesError::new(
                Site::Kind(i),
                format!(
                    "captured pieces of `{}` go to the hand as `{}`, which has no hand: give [pieces.{}] a `supply` (0 to start with none)",
                    k.name, hk.name, hk.name
                ),
                Problem::Invalid,
            )),
            None => hand_errors.push(RulesError::new(
                Site::Kind(i),
                "`to_hand` names no kind",
                Problem::Invalid,
            )),
        }
    }
    if to_hand.iter().any(Option::is_some)
        && let Some(e) = spec
            .effects
            .iter()
            .position(|e| matches!(e.kind, EffectKind::Flip | EffectKind::Convert))
    {
        hand_errors.push(RulesError::new(
            Site::Effect(e),
            "an effect that turns pieces cannot be used with captures to the hand (`to_hand`): a piece that changes sides is not a captured one",
            Problem::Invalid,
        ));
    }
    let cells = spec.geometry.cells().len();
    if let Some(e) = spec
        .effects
        .iter()
        .position(|e| e.kind == EffectKind::Groups)
        && cells > crate::limits::MAX_GROUP_BOARD_CELLS
    {
        hand_errors.push(RulesError::new(
            Site::Effect(e),
            format!(
                "a `groups` effect works on boards of at most {} cells, not {cells}",
                crate::limits::MAX_GROUP_BOARD_CELLS
            ),
            Problem::Limit {
                limit: "MAX_GROUP_BOARD_CELLS",
                max: crate::limits::MAX_GROUP_BOARD_CELLS,
                found: cells,
            },
        ));
    }
    if let Some(t) = &spec.turn
        && !(2..=crate::limits::MAX_TURN_MOVES).contains(&(t.moves as usize))
    {
        hand_errors.push(RulesError::new(
            Site::Game,
            format!(
                "a turn has from 2 to {} moves, not {}",
                crate::limits::MAX_TURN_MOVES,
                t.moves
            ),
            Problem::Limit {
                limit: "MAX_TURN_MOVES",
                max: crate::limits::MAX_TURN_MOVES,
                found: t.moves as usize,
            },
        ));
    }
    if !hand_errors.is_empty() {
        return Err(hand_errors);
    }
    let general = !placements.is_empty()
        || to_hand.iter().any(Option::is_some)
        || pass_rule.is_some()
        || !effects.is_empty()
        || dynamic_winner
        || supply.iter().any(Option::is_some)
        || moves.iter().any(|m| m.then.is_some())
        || !spec.after.is_empty()
        || spec.removal.is_some()
        || spec.turn.is_some()
        || moves.iter().any(|m| m.far)
        || (spec.must_capture && spec.most_captures);
    let uses_clock = spec_reads(&spec, Var::Clock);
    let uses_idle = spec_reads(&spec, Var::Idle);
    let uses_board_repetitions = spec_reads(&spec, Var::BoardRepetitions);
    let uses_plies = spec_reads(&spec, Var::Plies);
    let uses_repetitions = spec_reads(&spec, Var::Repetitions) || uses_board_repetitions;
    let uses_passes = spec_reads(&spec, Var::Passes);
    if uses_passes && !spec.pass {
        // Reported with the end rules' sites by the front end; here, one message.
        return Err(vec![RulesError::new(
            Site::Game,
            "an end rule reads `passes`, but the game has no passing (`pass = true` in [game])",
            Problem::Invalid,
        )]);
    }
    let narrow = stride <= MASK_CELLS;
    // A FEN writes the idle clock and the move number: a pack with one keeps them even when
    // no rule reads them, so that the FEN it writes is true.
    let history = uses_idle || uses_repetitions || uses_plies || spec.fen.is_some();
    let mut rules = Rules {
        core,
        targets,
        slots,
        groups,
        cell_class,
        jumped,
        cap_bits,
        block_bits,
        moves,
        end,
        deferred,
        arrive_first,
        eager,
        zobrist,
        zobrist_side,
        stride,
        promote,
        promote_stops,
        must_capture: spec.must_capture,
        most_captures: spec.must_capture && spec.most_captures,
        counts_only,
        narrow,
        uses_clock,
        uses_idle,
        uses_repetitions,
        uses_board_repetitions,
        uses_plies,
        after: spec.after.iter().map(|r| r.expr.clone()).collect(),
        removal: spec
            .removal
            .as_ref()
            .map(|r| (r.when.clone(), r.prefer.clone())),
        turn: spec.turn.as_ref().map(|t| (t.moves, t.again.clone())),
        pass_any_time: spec.pass && spec.pass_any_time,
        history,
        lean: false,
        names: Names::of(&spec),
        place,
        setup: spec.setup.clone(),
        must_change: effects.iter().any(|e| e.required),
        effects,
        effect_names: spec.effects.iter().map(|e| e.name.clone()).collect(),
        placements,
        pass_rule,
        supply,
        hands: to_hand.iter().any(Option::is_some),
        to_hand,
        promotions: spec.kinds.iter().map(|k| k.promotion.clone()).collect(),
        general,
        steps: cellsets::Steps::of(&spec.geometry),
        royal: [0; PLAYERS],
        attacks: crate::construct::royal::Attacks::default(),
        compounds: Vec::new(),
        choices: Vec::new(),
        ghosts: Vec::new(),
        resets_idle: Vec::new(),
        tracks_unmoved: Vec::new(),
        fen: None,
        special: false,
        ghost_keys: Vec::new(),
        unmoved_keys: Vec::new(),
        earlier: Vec::new(),
        overlaps: false,
        may_yield: Vec::new(),
        earlier_placements: Vec::new(),
        placed_kinds: 0,
        count_kinds: 0,
    };
    rules.count_kinds = rules.eager.iter().fold(0, |acc, e| match e.test {
        EagerTest::Counts(kinds) => acc | kinds,
        _ => acc,
    });
    special_tables(&mut rules, &spec)?;
    (rules.earlier, rules.overlaps) = overlaps::earlier_overlapping(&rules);
    rules.general |= rules.overlaps;
    rules.may_yield = (0..rules.moves.len())
        .map(|r| {
            let m = &rules.moves[r];
            !rules.earlier[r].is_empty()
                || (m.takes_ghost && m.mode != crate::spec::CaptureMode::Capturing)
        })
        .collect();
    (rules.earlier_placements, rules.placed_kinds) = overlaps::earlier_placements(&rules);
    rules.lean = rules.general_make_reasons().is_empty();
    Ok(rules)
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn spec_reads(spec: &RulesSpec, var: Var) -> bool {
    let reads = |e: &Expr| {
        let mut found = false;
        visit(e, &mut |x| found |= *x == Expr::Var(var));
        found
    };
    spec.end.iter().any(|e| reads(&e.when))
        || spec
            .turn
            .as_ref()
            .and_then(|t| t.again.as_ref())
            .is_some_and(reads)
        || spec
            .enter
            .iter()
            .chain(&spec.capture)
            .chain(&spec.after)
            .any(|r| reads(&r.expr))
}

/// The compiler's state: the spec, its facts and the errors found so far.
pub(crate) struct Compiler<'a> {
    pub(crate) core: &'a Core,
    pub(crate) spec: &'a RulesSpec,
    errors: Vec<RulesError>,
    /// For each (site, cause) reported: where its error is in `errors`, and how many more
    /// cases had the same cause.
    causes: HashMap<(Site, String), (usize, usize)>,
}

type MoveTables = (Vec<CompiledMove>, Vec<Target>, Vec<(u32, u16)>, Vec<u16>);

impl Compiler<'_> {
    pub(crate) fn error(&mut self, site: Site, message: impl Into<String>) {
        let message = message.into();
        self.report(site, message.clone(), message, Problem::Invalid);
    }

    /// A declared limit passed: `(name, max, found)`.
    fn limit(
        &mut self,
        site: Site,
        message: impl Into<String>,
        (limit, max, found): (&'static str, usize, usize),
    ) {
        let message = message.into();
        let problem = Problem::Limit { limit, max, found };
        self.report(site, message.clone(), message, problem);
    }

    /// Reports an error once per site and cause: later cases of the same cause are counted,
    /// and the first one's message says how many more there were.
    fn report(&mut self, site: Site, cause: String, message: String, problem: Problem) {
        match self.causes.get_mut(&(site, cause.clone())) {
            Some((_, more)) => *more += 1,
            None => {
                self.causes.insert((site, cause), (self.errors.len(), 0));
                self.errors.push(RulesError::new(site, message, problem));
            }
        }
    }

    /// An expression that cannot be evaluated in one case of those the compiler tabulates: the
    /// case (a move that can happen) is named; the other cases with the same error are counted.
    pub(crate) fn eval_error(&mut self, site: Site, e: EvalError, case: impl FnOnce() -> String) {
        let message = format!("{e}, when {}", case());
        self.report(site, e.to_string(), message, Problem::Evaluation);
    }

    /// The place rules, in order.
    fn place(&self) -> Vec<(RuleId, Expr)> {
        self.spec
            .place
            .iter()
            .enumerate()
            .map(|(i, r)| (RuleId::new(Section::Place, i), r.expr.clone()))
            .collect()
    }

    /// Reports every expression nested deeper than [`MAX_EXPR_DEPTH`]; true when there is
    /// none. Evaluation recurses, so deeper expressions are refused before anything evaluates.
    fn check_depths(&mut self) -> bool {
        let spec = self.spec;
        let mut sites: Vec<(Site, &Expr)> = Vec::new();
        for (i, r) in spec.enter.iter().enumerate() {
            sites.push((Site::Enter(i), &r.expr));
        }
        for (i, r) in spec.capture.iter().enumerate() {
            sites.push((Site::Capture(i), &r.expr));
        }
        for (i, r) in spec.place.iter().enumerate() {
            sites.push((Site::Place(i), &r.expr));
        }
        for (i, e) in spec.end.iter().enumerate() {
            sites.push((Site::End(i), &e.when));
            if let EndResult::Winner(w) = &e.result {
                sites.push((Site::Winner(i), w));
            }
        }
        for (k, kind) in spec.kinds.iter().enumerate() {
            for (m, mv) in kind.moves.iter().enumerate() {
                let site = Site::Move(k, m);
                sites.extend(mv.condition.iter().map(|e| (site, e)));
                match &mv.pattern {
                    Pattern::Jump { blocked, .. } | Pattern::Leap { blocked, .. } => {
                        sites.extend(blocked.iter().map(|e| (site, e)))
                    }
                    Pattern::Hop { over, .. } => sites.extend(over.iter().map(|e| (site, e))),
                    Pattern::Slide { stop, .. } => sites.extend(stop.iter().map(|e| (site, e))),
                    Pattern::Step | Pattern::Place | Pattern::Fly => {}
                }
            }
        }
        for (i, e) in spec.effects.iter().enumerate() {
            sites.extend(
                e.target
                    .iter()
                    .chain(e.hostile.iter())
                    .map(|x| (Site::Effect(i), x)),
            );
        }
        let mut ok = true;
        for (site, e) in sites {
            let depth = e.depth();
            if depth > MAX_EXPR_DEPTH {
                ok = false;
                self.limit(
                    site,
                    format!(
                        "this expression nests too deeply ({depth} levels); the limit is {MAX_EXPR_DEPTH}"
                    ),
                    ("MAX_EXPR_DEPTH", MAX_EXPR_DEPTH, depth),
                );
            }
        }
        ok
    }

    /// The errors, each with the number of further cases of its cause.
    fn finish(mut self) -> Vec<RulesError> {
        for &(at, more) in self.causes.values() {
            self.errors[at].repeats = more;
        }
        self.errors
    }

    /// Every static expression of the game, to find which features of a cell matter.
    fn all_static_exprs(&self) -> Vec<&Expr> {
        let mut out: Vec<&Expr> = Vec::new();
        out.extend(self.spec.enter.iter().map(|r| &r.expr));
        out.extend(self.spec.capture.iter().map(|r| &r.expr));
        for k in &self.spec.kinds {
            for m in &k.moves {
                out.extend(m.condition.iter());
                match &m.pattern {
                    Pattern::Jump { blocked, .. } | Pattern::Leap { blocked, .. } => {
                        out.extend(blocked.iter())
                    }
                    Pattern::Hop { over, .. } => out.extend(over.iter()),
                    Pattern::Slide { stop, .. } => out.extend(stop.iter()),
                    Pattern::Step | Pattern::Place | Pattern::Fly => {}
                }
            }
        }
        out
    }

    fn check_setup(&mut self) {
        let g = &self.core.geometry;
        let mut seen = CellSet::EMPTY;
        // Each piece counted as it comes, for the kinds' `at_most`.
        let mut counts = vec![0usize; crate::piece::PIECE_CODES];
        for (i, (piece, cell)) in self.spec.setup.iter().enumerate() {
            if piece.kind().index() >= self.core.kind_count() || piece.owner().index() >= PLAYERS {
                self.error(Site::Setup(i), "unknown piece");
                continue;
            }
            if !g.contains(*cell) {
                self.error(Site::Setup(i), "the cell is not on the board");
                continue;
            }
            if seen.contains(*cell) {
                self.error(
                    Site::Setup(i),
                    format!("two pieces are set up on {}", g.name(*cell)),
                );
            }
            seen.insert(*cell);
            counts[piece.code()] += 1;
            if let Err(e) = self.core.may_stand(*piece, *cell, counts[piece.code()]) {
                self.error(Site::Setup(i), e.to_string());
            }
            let env = StaticEnv {
                mover: Some(Value::Piece(*piece, *cell)),
                to: Some(*cell),
                player: Some(piece.owner()),
                ..StaticEnv::default()
            };
            for r in &self.spec.place {
                if r.expr.deps().is_dynamic() {
                    continue;
                }
                match r.expr.test(self.core, &env) {
                    Ok(true) => {}
                    Ok(false) => {
                        let text = format!(
                            "{} may not stand on {}: place rule `{}` forbids it",
                            self.core.code(*piece),
                            g.name(*cell),
                            r.name
                        );
                        self.error(Site::Setup(i), text);
                    }
                    Err(e) => self.error(Site::Setup(i), e.to_string()),
                }
            }
        }
    }
}

fn case_text(core: &Core, piece: Piece, from: Cell, to: Cell) -> String {
    let g = &core.geometry;
    format!("{} moves {}-{}", core.code(piece), g.name(from), g.name(to))
}
