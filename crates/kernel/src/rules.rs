//! The checked and compiled rules of a game, ready to play: the tables of [`crate::tables`] and
//! the names needed to talk about the game. Built from a [`RulesSpec`] by [`Rules::new`].

use crate::cell::Cell;
use crate::cell::MAX_CELLS;
use crate::expr::Expr;
use crate::facts::Core;
use crate::geometry::{DirSet, Geometry};
use crate::piece::{KindId, PLAYERS, Piece, Player};
use crate::reason::{RuleId, Section};
use crate::spec::RulesSpec;
use crate::tables::*;

/// How many plies back `repetitions` looks for an earlier occurrence of a position at most:
/// it looks back to the last move that reset the idle clock, and the idle clock stops here.
pub const MAX_REPETITION_LOOKBACK: usize = u16::MAX as usize;

/// Checked and compiled rules, ready to play. Build with [`Rules::new`].
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) core: Core,
    /// The names of the rules, by section.
    pub(crate) names: Names,
    /// The place rules, checked when a piece is placed.
    pub(crate) place: Vec<(RuleId, Expr)>,
    /// The standard starting position.
    pub(crate) setup: Vec<(Piece, Cell)>,
    /// The targets that are not in step groups, by slot.
    pub(crate) targets: Vec<Target>,
    /// Where the moves of a piece code from a cell are, by piece code, then cell.
    pub(crate) slots: Vec<[Slot; MAX_CELLS]>,
    /// Plain targets as bitboards (boards of at most 64 cells), by slot.
    pub(crate) groups: Vec<StepGroup>,
    /// The capture-table class of each cell.
    pub(crate) cell_class: Box<[u16; MAX_CELLS]>,
    pub(crate) jumped: Vec<Jumped>,
    /// All capture tables, one after the other; bit 0 is always set ("allowed").
    pub(crate) cap_bits: Vec<u64>,
    /// All jump-blocking tables, one after the other.
    pub(crate) block_bits: Vec<u64>,
    pub(crate) moves: Vec<CompiledMove>,
    pub(crate) end: Vec<CompiledEnd>,
    /// Index of the first deferred end rule, if any.
    pub(crate) deferred: Option<usize>,
    /// By `piece code * stride + destination`: the first end rule decided by the arrival of
    /// that piece there, or `NONE`.
    pub(crate) arrive_first: Box<CodeTable<u8>>,
    /// The end rules not decided by arrival (counts, interpreted ones), in order, without the
    /// deferred ones.
    pub(crate) eager: Vec<Eager>,
    /// By piece code, then cell.
    pub(crate) zobrist: Box<CodeTable<u64>>,
    pub(crate) zobrist_side: u64,
    /// The number of cells of the board's rectangle: the stride of per-cell tables.
    pub(crate) stride: usize,
    /// By `piece code * stride + cell`: the code the piece becomes on ending a move there
    /// (itself when it does not promote). Empty when no kind promotes.
    pub(crate) promote: Vec<u8>,
    /// By `piece code * stride + cell`: a promotion there ends a hop chain.
    pub(crate) promote_stops: Vec<bool>,
    pub(crate) must_capture: bool,
    /// With `must_capture`: only the captures that take the most pieces are legal
    /// ([`crate::Move::captured_count`]).
    pub(crate) most_captures: bool,
    /// Every eager end rule is a piece count: positions keep the first that holds for each
    /// mover up to date, and arrival and counts decide an end with two loads.
    pub(crate) counts_only: bool,
    /// The board has at most 64 cells: its sets of cells fit in one word.
    pub(crate) narrow: bool,
    pub(crate) uses_clock: bool,
    pub(crate) uses_idle: bool,
    /// Some rule reads `repetitions` or `board_repetitions`: positions are remembered as they
    /// are played.
    pub(crate) uses_repetitions: bool,
    /// Some rule reads `board_repetitions`: the boards' keys are remembered too.
    pub(crate) uses_board_repetitions: bool,
    /// Some rule reads `plies`: position strings write the ply.
    pub(crate) uses_plies: bool,
    /// The rules of the position after a move (`[rules.after]`), in order.
    pub(crate) after: Vec<crate::expr::Expr>,
    /// A removal of the mover's choice: when, and which pieces first.
    pub(crate) removal: Option<(crate::expr::Expr, Option<crate::expr::Expr>)>,
    /// Turns of several moves: the most moves a turn has, and when the player moves again.
    pub(crate) turn: Option<(u8, Option<crate::expr::Expr>)>,
    /// With a pass: a player may pass on any turn, not only when it has no other move.
    pub(crate) pass_any_time: bool,
    /// Some rule reads `idle` or `repetitions`: make and unmake keep them.
    pub(crate) history: bool,
    /// No reason in [`Rules::general_make_reasons`]: make and unmake are compiled without
    /// tests for those features (`position::Lean`).
    pub(crate) lean: bool,
    /// Effects after each move, in order.
    pub(crate) effects: Vec<CompiledEffect>,
    pub(crate) effect_names: Vec<String>,
    /// Some effect must change a piece for a move to be legal.
    pub(crate) must_change: bool,
    /// The placement patterns, by index into [`Rules::moves`].
    pub(crate) placements: Vec<u8>,
    /// The pass pattern, when a player with no move passes.
    pub(crate) pass_rule: Option<u8>,
    /// By kind: how many pieces each player has in hand at the start; `None` for unlimited.
    pub(crate) supply: Vec<Option<u16>>,
    /// By kind: the kind a captured piece of it becomes in the captor's hand.
    pub(crate) to_hand: Vec<Option<KindId>>,
    /// Some kind's captured pieces go to the captor's hand.
    pub(crate) hands: bool,
    /// By kind: its promotion as the pack states it (for descriptions; play reads the
    /// promotion tables and [`crate::construct::choice`]).
    pub(crate) promotions: Vec<Option<crate::spec::Promotion>>,
    /// The game has placements, passes, second parts, effects, a limited supply or a winner
    /// read from the position: generation and make take the general path.
    pub(crate) general: bool,
    /// How to step every cell of the board at once, for cell formulas.
    pub(crate) steps: crate::formula::Steps,
    /// By player: the code of its royal piece, or 0 when it has none.
    pub(crate) royal: [u8; PLAYERS],
    /// Where royal pieces can be attacked from.
    pub(crate) attacks: crate::construct::royal::Attacks,
    /// Moves of two pieces at once.
    pub(crate) compounds: Vec<crate::construct::compound::Compound>,
    /// By piece code: where and into what it promotes by choice (empty when no kind does).
    pub(crate) choices: Vec<crate::construct::choice::Choice>,
    /// By capturing player and cell: captures of a piece that has just passed the cell (empty
    /// when no pattern leaves the cells it passes open).
    pub(crate) ghosts: Vec<Vec<crate::construct::ghost::GhostEntry>>,
    /// By piece code: whether its moves reset the idle clock.
    pub(crate) resets_idle: Vec<bool>,
    /// By piece code: whether positions keep whether such a piece has moved.
    pub(crate) tracks_unmoved: Vec<bool>,
    /// How positions are written in FEN.
    pub(crate) fen: Option<crate::spec::FenSpec>,
    /// Royal pieces, compound moves, choices of promotion, captures of a passing piece or
    /// kinds that reset the idle clock: generation and make take the general path, which
    /// handles them.
    pub(crate) special: bool,
    /// Keys of the position's extra state: a cell left open to capture, an unmoved piece's
    /// cell, by cell.
    pub(crate) ghost_keys: Vec<u64>,
    pub(crate) unmoved_keys: Vec<u64>,
    /// By pattern: the earlier patterns of its kind that may make a move along the same cells
    /// (see `compile/overlaps.rs`); a move one of them makes is theirs.
    pub(crate) earlier: Vec<Vec<u8>>,
    /// Some pattern has such earlier patterns, or takes a passing piece while also moving
    /// quietly: generation drops the moves that share a path with a move that comes first.
    pub(crate) overlaps: bool,
    /// By pattern: whether a move it makes may yield to another (it has earlier patterns, or
    /// takes a passing piece while also moving quietly), so that generation asks
    /// `State::shadowed` only for those, with one load.
    pub(crate) may_yield: Vec<bool>,
    /// By placement pattern (index into [`Rules::placements`]): the earlier placement patterns
    /// of the same kind; a cell one of them may fill is theirs.
    pub(crate) earlier_placements: Vec<Vec<u8>>,
    /// More than one kind may be placed: a placement's notation names its kind (`D@c3`).
    pub(crate) placed_kinds: usize,
    /// The kinds (a bit each) whose cells some end rule of counts reads
    /// (`EagerTest::Counts`): a move of such a piece stirs those rules.
    pub(crate) count_kinds: u64,
}

impl Rules {
    /// The name of an effect, by its place among the game's effects (empty for none).
    pub fn effect_name(&self, i: usize) -> &str {
        self.effect_names.get(i).map_or("", String::as_str)
    }

    /// The effects, in order: name, what they do (`custodial`, `surround`, `flip`, `convert`), the
    /// directions looked in, and whether a move must change a piece by it.
    pub fn effects(&self) -> impl Iterator<Item = (&str, &'static str, DirSet, bool)> + '_ {
        self.effects.iter().zip(&self.effect_names).map(|(e, n)| {
            let what = match e.kind {
                EffectKind::Custodial => "custodial",
                EffectKind::Surround => "surround",
                EffectKind::Flip => "flip",
                EffectKind::Convert => "convert",
                EffectKind::Groups => "groups",
            };
            (n.as_str(), what, e.dirs, e.required)
        })
    }

    /// The kind a captured piece of `kind` becomes in the captor's hand (`to_hand`), if it goes
    /// there.
    pub fn to_hand(&self, kind: KindId) -> Option<KindId> {
        self.to_hand.get(kind.index()).copied().flatten()
    }

    /// How many pieces of a kind each player has in hand at the start, to place; `None` for
    /// an unlimited supply (or a kind that is never placed).
    pub fn supply(&self, kind: KindId) -> Option<u16> {
        self.supply_of(kind)
    }

    /// The kind placed by the pattern numbered `pattern` (as [`crate::Move::pattern`] gives
    /// it), when move notation names it (`D@e5`: several kinds may be placed); `None` for a
    /// game with one placed kind, or a pattern that is not a placement.
    pub fn named_placement_kind(&self, pattern: usize) -> Option<KindId> {
        let m = self.moves.get(pattern)?;
        (self.placed_kinds > 1 && matches!(m.shape, Shape::Place)).then_some(m.kind)
    }

    /// How a piece of `kind` promotes, as the pack states it (the kinds, the zone, whether
    /// the player may decline, on leaving the zone, where it is forced), if it does.
    pub fn promotion(&self, kind: KindId) -> Option<&crate::spec::Promotion> {
        self.promotions.get(kind.index()).and_then(Option::as_ref)
    }

    fn supply_of(&self, kind: KindId) -> Option<u16> {
        self.supply.get(kind.index()).copied().flatten()
    }

    /// For a kind that is placed during play (by a placement pattern or as the second part of
    /// a turn): whether the static place rules allow it anywhere. `None` for a kind that is
    /// never placed.
    pub fn kind_placed(&self, kind: KindId) -> Option<bool> {
        let mut placed = None;
        for m in &self.moves {
            let cells = match (m.shape, m.then) {
                (Shape::Place, _) if m.kind == kind => m.place_cells,
                (_, Some((codes, _))) if Piece(codes[0]).kind() == kind => m.place_cells,
                _ => continue,
            };
            let any = cells.iter().any(|c| !c.is_empty());
            placed = Some(placed.unwrap_or(false) || any);
        }
        placed
    }

    /// The royal kind, if the game has one.
    pub fn royal_kind(&self) -> Option<KindId> {
        Piece::from_code(self.royal[0]).map(|p| p.kind())
    }

    /// The compound moves, in order: their pattern's text, the mover's and the partner's
    /// kinds, and by player the cells the two end on.
    pub fn compound_moves(
        &self,
    ) -> impl Iterator<Item = (&str, KindId, KindId, [(Cell, Cell); PLAYERS])> + '_ {
        self.compounds.iter().map(|c| {
            (
                self.pattern_text(c.rule as usize),
                Piece(c.mover[0]).kind(),
                Piece(c.partner[0]).kind(),
                [0, 1].map(|p| (c.mover_to[p], c.partner_to[p])),
            )
        })
    }

    /// Whether the game reads and writes FEN.
    pub fn has_fen(&self) -> bool {
        self.fen.is_some()
    }

    /// Whether a player with no move passes.
    pub fn passes(&self) -> bool {
        self.pass_rule.is_some()
    }

    /// Whether the pseudo-legal moves of `side` are judged before they are legal: a royal
    /// piece to keep safe, an effect that must change a piece, or rules of the position after
    /// the move.
    pub(crate) fn judges_moves(&self, side: Player) -> bool {
        self.must_change || self.royal[side.slot()] != 0 || !self.after.is_empty()
    }

    /// The most moves a turn has, in a game of turns of several moves (`[turn]`); `None`
    /// when every turn is one move. The second value says whether a condition decides if the
    /// player moves again (without one, every turn has that many moves).
    pub fn moves_per_turn(&self) -> Option<(u8, bool)> {
        self.turn.as_ref().map(|(n, again)| (*n, again.is_some()))
    }

    /// Whether a player may pass on any turn (not only when it has no other move).
    pub fn passes_any_time(&self) -> bool {
        self.pass_rule.is_some() && self.pass_any_time
    }

    /// Whether a player who can capture must capture (`must_capture`).
    pub fn captures_are_mandatory(&self) -> bool {
        self.must_capture
    }

    /// Whether, capturing being mandatory, only the captures that take the most pieces are
    /// legal (`must_capture = "most"`).
    pub fn most_captures_only(&self) -> bool {
        self.most_captures
    }

    /// The static facts: board, players, zones, kinds.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.core.geometry
    }

    #[inline]
    pub(crate) fn slot(&self, piece: u8, from: u16) -> &Slot {
        &self.slots[piece as usize][from as usize]
    }

    /// The listed targets of a slot (those not in its step groups).
    #[inline]
    pub(crate) fn listed(&self, slot: &Slot) -> &[Target] {
        &self.targets[slot.start as usize..slot.start as usize + slot.len as usize]
    }

    /// The step groups of a slot after the first (which is [`Slot::first`]).
    #[inline]
    pub(crate) fn more_groups(&self, slot: &Slot) -> &[StepGroup] {
        let start = slot.group_start as usize + 1;
        self.groups
            .get(start..slot.group_start as usize + slot.groups as usize)
            .unwrap_or(&[])
    }

    #[inline]
    pub(crate) fn targets(&self, piece: u8, from: u16) -> &[Target] {
        self.listed(self.slot(piece, from))
    }

    /// How the designer wrote move pattern `pattern` (as numbered by [`crate::Move::pattern`]);
    /// empty for a number no pattern has.
    pub fn pattern_text(&self, pattern: usize) -> &str {
        self.moves.get(pattern).map_or("", |m| m.text.as_str())
    }

    /// The move patterns of a kind, as written, in order.
    pub fn patterns_of(&self, kind: KindId) -> impl Iterator<Item = &str> + '_ {
        self.moves
            .iter()
            .filter(move |m| m.kind == kind)
            .map(|m| m.text.as_str())
    }

    /// The name of a rule.
    pub fn rule_name(&self, rule: RuleId) -> &str {
        self.names.by_section[rule.section().slot()]
            .get(rule.index())
            .map_or("", String::as_str)
    }

    /// The rule of a section with this name.
    pub fn rule_by_name(&self, section: Section, name: &str) -> Option<RuleId> {
        self.names.by_section[section.slot()]
            .iter()
            .position(|n| n == name)
            .map(|i| RuleId::new(section, i))
    }

    /// The names of the rules of a section, in order.
    pub fn rule_names(&self, section: Section) -> &[String] {
        &self.names.by_section[section.slot()]
    }

    /// The standard starting position: each piece and its cell.
    pub fn setup(&self) -> &[(Piece, Cell)] {
        &self.setup
    }

    /// The game's name.
    pub fn name(&self) -> &str {
        self.core.name()
    }

    /// A player's name, as in `A` or `RABBIT`.
    pub fn player_name(&self, player: Player) -> &str {
        self.core.player_name(player)
    }

    /// The player with this name.
    pub fn player_by_name(&self, name: &str) -> Option<Player> {
        self.core.player_by_name(name)
    }

    /// The kinds of piece, in the order the game declares them.
    pub fn kinds(&self) -> impl Iterator<Item = KindId> + '_ {
        self.core.kinds()
    }

    /// A kind's name, as in `Lion`; empty for a kind the game does not have.
    pub fn kind_name(&self, kind: KindId) -> &str {
        self.core.kind_name(kind)
    }

    /// The kind with this name.
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.core.kind_by_name(name)
    }

    /// A piece's code: its owner's symbol and its kind's letter, as in `AL`.
    pub fn code(&self, piece: Piece) -> &str {
        self.core.code(piece)
    }

    /// The piece with this code.
    pub fn piece_by_code(&self, code: &str) -> Option<Piece> {
        self.core.piece_by_code(code)
    }

    /// Whether a piece of this kind has, from some cell and for some owner, a destination its
    /// move patterns reach and the enter rules allow.
    pub fn kind_can_move(&self, kind: KindId) -> bool {
        (0..PLAYERS as u8).any(|p| {
            let code = Piece::new(kind, Player(p)).code();
            (0..self.stride).any(|c| {
                let slot = self.slots[code][c];
                slot.len > 0 || slot.groups > 0
            })
        })
    }

    /// The number of move patterns of all kinds, each with its own tables.
    pub fn pattern_count(&self) -> usize {
        self.moves.len()
    }

    /// How many end rules are evaluated by interpreting their expression after each move
    /// (rather than by table lookups), for diagnostics and benchmarks.
    pub fn interpreted_end_rules(&self) -> usize {
        self.eager
            .iter()
            .filter(|e| matches!(e.test, EagerTest::Dynamic))
            .count()
    }

    /// Why make and unmake take their general path rather than the lean one (compiled
    /// without tests for promotion, position history and end rules that read more than piece
    /// counts and arrivals, on boards of at most 64 cells); empty when they take the lean one.
    /// Perft and playouts are fastest on the lean path.
    pub fn general_make_reasons(&self) -> Vec<&'static str> {
        let mut why = Vec::new();
        if !self.narrow {
            why.push("a board of more than 64 cells");
        }
        if !self.promote.is_empty() {
            why.push("promotion");
        }
        if self.history {
            why.push("rules that read the idle clock or repetitions");
        }
        if !self.counts_only {
            why.push("end rules, tested after each move, other than piece counts and arrivals");
        }
        if self.general {
            why.push(
                "placements, passes, second parts, effects, far hops, the most captures or a winner read from the position",
            );
        }
        if self.overlaps {
            why.push("patterns of one kind that make moves along the same cells");
        }
        why.extend(crate::construct::used_names(self));
        why
    }

    /// How many predicates of move patterns are interpreted during play.
    pub fn interpreted_move_checks(&self) -> usize {
        self.moves
            .iter()
            .map(|m| m.capture.dynamic.len() + m.blocked.dynamic.len() + m.dynamic_enter.len())
            .sum()
    }
}

/// The names of the rules, by section ([`Section::slot`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub by_section: [Vec<String>; 5],
}

impl Names {
    pub(crate) fn of(spec: &RulesSpec) -> Names {
        let names =
            |rules: &[crate::spec::NamedRule]| rules.iter().map(|r| r.name.clone()).collect();
        Names {
            by_section: [
                names(&spec.enter),
                names(&spec.capture),
                names(&spec.place),
                spec.end.iter().map(|e| e.name.clone()).collect(),
                names(&spec.after),
            ],
        }
    }
}
