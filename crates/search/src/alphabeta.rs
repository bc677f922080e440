//! Alpha-beta: negamax with iterative deepening, principal variation search, a transposition
//! table keyed by the kernel's Zobrist key, move ordering (the table's move, captures most
//! valuable victim first, two killer moves per ply, the history heuristic), quiescence over
//! captures, null-move pruning where the game allows it, check extensions in games with royal
//! pieces, and time control.
//!
//! Scores are from the view of the side to move ([`Score`]). The search is exact at a fixed
//! depth: the value it returns is the depth-limited minimax value of the position (with
//! quiescence at the leaves if enabled), whatever the table and the ordering do, as long as
//! the game's end rules depend only on the pieces and the side to move (a rule reading the
//! clock or repetitions makes any table approximate).
//!
//! Nothing allocates during a search once the searcher's buffers have grown to the depth
//! reached: moves are generated into one [`MoveList`] and copied into a buffer per ply.

use crate::eval::{Evaluator, MAX_EVAL};
use crate::score::{INFINITY, PROVEN, Score, WIN};
use crate::{Limits, SearchError, Stop};
use ply_kernel::{Move, MoveList, Player, Position, Status};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest ply a search looks at (quiescence included).
pub const MAX_PLY: usize = 128;

/// How the alpha-beta searcher is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// The transposition table has `2^tt_bits` entries of 48 bytes (0: no table).
    pub tt_bits: u32,
    /// Whether leaves are extended by a search of captures.
    pub quiescence: bool,
    /// Whether the table cuts only with entries of exactly the depth searched (for checking
    /// against plain minimax; normally an entry of at least that depth cuts).
    pub exact_depth: bool,
    /// Late move reductions: quiet moves ordered late are searched one ply shallower first
    /// (two when very late), and again at full depth if they turn out better than the best so
    /// far. Much deeper in the same time; the value is then no longer exactly minimax's.
    pub reductions: bool,
    /// Aspiration windows: from depth 2, each iteration first searches a window around the
    /// last iteration's score, widening it (and searching again) when the score falls
    /// outside. The value is the same as with a full window.
    pub aspiration: bool,
    /// Futility pruning near the leaves: in a node that is not on the principal variation, a
    /// move after the first whose resulting position, judged statically, is no better than
    /// what the side already has (at one ply from the leaves; at two, by a margin of the most
    /// valuable piece) is not searched, unless the game is over after it (the opponent left
    /// without a move included). The static judgement sees every change the move makes
    /// (captures by effects, flips, promotions included); the value is then no longer exactly
    /// minimax's.
    pub futility: bool,
    /// Null-move pruning: in a node that is not on the principal variation, at least three
    /// plies from the leaves, not in check, whose static value already reaches the window's
    /// top, the side to move first passes ([`Position::make_null`]) and the opponent's reply
    /// is searched two or three plies shallower; if even then the side keeps the top, the node
    /// is cut. Six plies or more from the leaves, a cut is verified by a search of the node
    /// itself, as shallow, without null moves. It assumes that moving is never worse than
    /// passing, which games of zugzwang break: `None` (the default) prunes so where the
    /// evaluation says the game allows it ([`Evaluator::null_move`]: a pack's
    /// `[eval] null_move = true`); `Some(on)` overrides. The value is then no longer exactly
    /// minimax's.
    pub null_move: Option<bool>,
    /// Check extensions: in a game with royal pieces, a node whose side to move is in check
    /// is searched one ply deeper (at most as many plies as the iteration's depth along a
    /// line), so that a line of checks is not cut off at the leaves, where quiescence would
    /// stand pat in check.
    pub check_extensions: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            tt_bits: 20,
            quiescence: true,
            exact_depth: false,
            reductions: true,
            aspiration: true,
            futility: true,
            null_move: None,
            check_extensions: true,
        }
    }
}

/// What a search reports after each completed iteration, and at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth completed.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score of the best move, from the view of the side to move.
    pub score: Score,
    /// Positions visited.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

impl Info {
    /// Positions visited per second.
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: i16,
    bound: Bound,
}

/// A score stored in the table counts a proven result from the entry's own position.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const HISTORY_MAX: i32 = 1 << 20;
/// The first aspiration window's half-width, in hundredths of a piece.
const ASPIRATION: i32 = 30;
/// From this many plies from the leaves, a null-move cut is verified.
const VERIFY_NULL: i32 = 6;

/// An alpha-beta searcher. It keeps its table, killers and history between searches (call
/// [`AlphaBeta::clear`] for a new game).
#[derive(Debug)]
pub struct AlphaBeta {
    eval: Arc<dyn Evaluator>,
    config: AlphaBetaConfig,
    tt: Vec<Option<Entry>>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// Moves and their ordering scores, by ply.
    buffers: Vec<Vec<(i32, Move)>>,
    list: MoveList,
    pv: Vec<Vec<Move>>,
    nodes: u64,
    seldepth: usize,
    started: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stop: Option<Stop>,
    aborted: bool,
    can_abort: bool,
    error: Option<SearchError>,
    /// The futility margin two plies from the leaves: the most valuable piece.
    margin: i32,
    /// Moves pruned by futility in the current search.
    pruned: u64,
    /// Root searches repeated with a wider aspiration window in the current search.
    researches: u64,
    /// Whether the current search prunes by null moves ([`AlphaBetaConfig::null_move`]).
    null_ok: bool,
    /// Whether the current search extends checks (a game with royal pieces).
    extend_checks: bool,
    /// The current iteration's depth: the most a line is extended by.
    root_depth: i32,
    /// Whether a null-move cut is being verified (no null move below).
    verifying: bool,
    /// By ply: whether the move made there was a null move (no two in a row).
    null_made: Vec<bool>,
    /// Nodes cut by a null move in the current search.
    null_cuts: u64,
}

/// An alpha-beta table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot allocate the alpha-beta table of 2^{bits} entries ({bytes} bytes): ask for a smaller one with tt=BITS"
)]
pub struct TableError {
    /// The table's size asked for, as a power of two.
    pub bits: u32,
    /// Its size in bytes.
    pub bytes: u128,
}

/// The bytes of a table of `2^bits` entries.
pub fn table_bytes(bits: u32) -> u128 {
    if bits == 0 {
        0
    } else {
        (std::mem::size_of::<Option<Entry>>() as u128) << bits.min(100)
    }
}

impl AlphaBeta {
    /// A searcher with this evaluation.
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated; [`AlphaBeta::try_new`] says so instead.
    pub fn new(eval: Arc<dyn Evaluator>, config: AlphaBetaConfig) -> AlphaBeta {
        match AlphaBeta::try_new(eval, config) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }

    /// A searcher with this evaluation, its table allocated fallibly: an error, never an
    /// abort, when the memory is not there.
    pub fn try_new(
        eval: Arc<dyn Evaluator>,
        config: AlphaBetaConfig,
    ) -> Result<AlphaBeta, TableError> {
        let tt = if config.tt_bits == 0 {
            Vec::new()
        } else {
            let fail = || TableError {
                bits: config.tt_bits,
                bytes: table_bytes(config.tt_bits),
            };
            let len = 1usize
                .checked_shl(config.tt_bits)
                .filter(|_| config.tt_bits < usize::BITS - 8)
                .ok_or_else(fail)?;
            let mut tt = Vec::new();
            tt.try_reserve_exact(len).map_err(|_| fail())?;
            tt.resize(len, None);
            tt
        };
        Ok(AlphaBeta {
            eval,
            config,
            tt,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 256 * 256],
            buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            list: MoveList::new(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            deadline: None,
            node_limit: None,
            stop: None,
            aborted: false,
            can_abort: false,
            error: None,
            margin: 0,
            pruned: 0,
            researches: 0,
            null_ok: false,
            extend_checks: false,
            root_depth: 0,
            verifying: false,
            null_made: vec![false; MAX_PLY + 2],
            null_cuts: 0,
        })
    }

    /// The moves futility pruning left unsearched in the last search.
    pub fn pruned(&self) -> u64 {
        self.pruned
    }

    /// The nodes a null move cut in the last search ([`AlphaBetaConfig::null_move`]).
    pub fn null_cuts(&self) -> u64 {
        self.null_cuts
    }

    /// The root searches repeated with a wider window in the last search, the score having
    /// fallen outside the aspiration window.
    pub fn researches(&self) -> u64 {
        self.researches
    }

    /// Forgets everything learnt: the table, the killers, the history.
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = None);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches `pos` within `limits`, calling `on_info` after each completed depth; returns
    /// the last completed iteration. However short the time, the first root move is searched
    /// to depth 1, so that there is a move; when the time runs out in the first iteration, the
    /// best of the root moves searched so far is returned (as depth 1).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Info, SearchError> {
        let mut pos = pos.clone();
        self.started = Instant::now();
        self.deadline = limits.time.map(|t| self.started + t);
        self.node_limit = limits.nodes;
        self.stop = limits.stop.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.can_abort = false;
        self.error = None;
        self.pruned = 0;
        self.researches = 0;
        self.null_cuts = 0;
        self.verifying = false;
        self.null_ok = self
            .config
            .null_move
            .unwrap_or_else(|| self.eval.null_move());
        self.extend_checks = self.config.check_extensions && pos.rules().royal_kind().is_some();
        self.margin = pos
            .rules()
            .core()
            .all_pieces()
            .map(|p| self.eval.piece_value(p))
            .max()
            .unwrap_or(0)
            .clamp(0, MAX_EVAL);
        // Age the history so that old games weigh less.
        self.history.iter_mut().for_each(|h| *h /= 8);

        let mut root: Vec<Move> = Vec::new();
        if pos.decided().is_none() {
            pos.legal_moves_into(&mut self.list)?;
            root.extend(self.list.iter());
        }
        if root.is_empty() {
            return Err(SearchError::NoMove(pos.status()));
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut best: Option<Info> = None;
        let mut last: Option<i32> = None;
        for depth in 1..=max_depth {
            self.root_depth = depth as i32;
            let (score, pv) = self.aspirate(&mut pos, &mut root, depth as i32, last);
            if let Some(e) = self.error.take() {
                return Err(e);
            }
            if self.aborted {
                // Out of time in the first iteration: the best of the root moves searched.
                if best.is_none() && !pv.is_empty() {
                    best = Some(Info {
                        depth,
                        seldepth: self.seldepth as u32,
                        score: Score(score),
                        nodes: self.nodes,
                        elapsed: self.started.elapsed(),
                        pv,
                    });
                }
                break;
            }
            let info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score(score),
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv,
            };
            on_info(&info);
            let done = Score(score)
                .plies_to_end()
                .is_some_and(|n| n.unsigned_abs() <= depth);
            last = Some(score);
            best = Some(info);
            self.can_abort = true;
            if done || self.should_not_deepen() {
                break;
            }
        }
        let mut info = best.ok_or(SearchError::Stopped)?;
        info.nodes = self.nodes;
        info.elapsed = self.started.elapsed();
        Ok(info)
    }

    /// Whether another iteration would probably not finish in the time left (each takes
    /// several times as long as the one before).
    fn should_not_deepen(&self) -> bool {
        if let Some(d) = self.deadline {
            let now = Instant::now();
            let spent = now - self.started;
            let total = d.saturating_duration_since(self.started);
            return now >= d || spent * 2 > total;
        }
        false
    }

    /// One iteration at the root: with aspiration windows, first a window around the last
    /// iteration's score, widened on the side the score fell out of until it falls inside.
    fn aspirate(
        &mut self,
        pos: &mut Position,
        root: &mut [Move],
        depth: i32,
        last: Option<i32>,
    ) -> (i32, Vec<Move>) {
        let Some(centre) = last.filter(|s| self.config.aspiration && s.abs() < PROVEN / 2) else {
            return self.root(pos, root, depth, -INFINITY, INFINITY);
        };
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (centre - delta, centre + delta);
        loop {
            let (score, pv) = self.root(pos, root, depth, alpha, beta);
            if self.aborted || self.error.is_some() {
                return (score, pv);
            }
            if score <= alpha && alpha > -INFINITY {
                self.researches += 1;
                delta = delta.saturating_mul(4);
                alpha = if delta > PROVEN / 4 {
                    -INFINITY
                } else {
                    centre - delta
                };
            } else if score >= beta && beta < INFINITY {
                self.researches += 1;
                delta = delta.saturating_mul(4);
                beta = if delta > PROVEN / 4 {
                    INFINITY
                } else {
                    centre + delta
                };
            } else {
                return (score, pv);
            }
        }
    }

    /// One iteration at the root within the window `(alpha, beta)`: the best score (fail-soft:
    /// at most `alpha` when every move fails low, at least `beta` on a cut) and its line.
    fn root(
        &mut self,
        pos: &mut Position,
        root: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Vec<Move>) {
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_i = 0;
        let mut pv = Vec::new();
        let mover = pos.side_to_move();
        for (i, &m) in root.iter().enumerate() {
            let undo = pos.make_unchecked(m);
            let score = if i == 0 {
                self.child(pos, mover, depth - 1, alpha, beta, 1)
            } else {
                let s = self.child(pos, mover, depth - 1, alpha, alpha + 1, 1);
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, mover, depth - 1, alpha, beta, 1)
                } else {
                    s
                }
            };
            pos.unmake_unchecked(m, undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_i = i;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&self.pv[1]);
            }
            alpha = alpha.max(score);
            // With one root move searched there is a move to play: the clock may stop the
            // search from now on.
            self.can_abort = true;
            if alpha >= beta {
                break;
            }
        }
        // The best move first for the next iteration; the others keep their order.
        root[..=best_i].rotate_right(1);
        if !self.aborted && best > alpha0 && best < beta {
            self.store(pos.hash(), depth, 0, best, Bound::Exact, Some(root[0]));
        }
        (best, pv)
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & 63 != 0 || !self.can_abort {
            return;
        }
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let too_many = self.node_limit.is_some_and(|n| self.nodes >= n);
        let stopped = self.stop.as_ref().is_some_and(|s| s.is_set());
        if late || too_many || stopped {
            self.aborted = true;
        }
    }

    fn terminal_score(&mut self, pos: &Position, ply: usize) -> i32 {
        match pos.status() {
            Status::Over(o) => Score::of_outcome(o, pos.side_to_move(), ply),
            Status::Stuck(_) | Status::ToMove(_) => 0,
        }
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        if self.tt.is_empty() {
            return None;
        }
        let e = self.tt[key as usize & (self.tt.len() - 1)]?;
        (e.key == key).then_some(e)
    }

    fn store(
        &mut self,
        key: u64,
        depth: i32,
        ply: usize,
        score: i32,
        bound: Bound,
        mv: Option<Move>,
    ) {
        if self.tt.is_empty() {
            return;
        }
        let slot = key as usize & (self.tt.len() - 1);
        let mv = mv.or_else(|| self.tt[slot].filter(|e| e.key == key).and_then(|e| e.mv));
        self.tt[slot] = Some(Entry {
            key,
            mv,
            score: to_tt(score, ply),
            depth: depth as i16,
            bound,
        });
    }

    /// Generates the moves of `pos` into the buffer of `ply`, with their ordering scores.
    /// Returns false (and records the error) past the kernel's limits.
    fn generate(
        &mut self,
        pos: &Position,
        ply: usize,
        tt_move: Option<Move>,
        captures_only: bool,
    ) -> bool {
        if let Err(e) = pos.legal_moves_into(&mut self.list) {
            self.error = Some(e.into());
            self.aborted = true;
            return false;
        }
        let buf = &mut self.buffers[ply];
        buf.clear();
        let killers = self.killers[ply];
        for m in self.list.iter() {
            let capture = m.is_capture();
            if captures_only && !capture {
                continue;
            }
            let score = if Some(m) == tt_move {
                TT_MOVE
            } else if capture {
                let mut victims = 0;
                if let Some(p) = pos
                    .piece_at(m.to())
                    .filter(|p| p.owner() != pos.side_to_move())
                {
                    victims += self.eval.piece_value(p);
                }
                if m.hops() > 0 {
                    for c in pos.hopped(m) {
                        if let Some(p) = pos.piece_at(c) {
                            victims += self.eval.piece_value(p);
                        }
                    }
                }
                let attacker = pos
                    .piece_at(m.from())
                    .map_or(0, |p| self.eval.piece_value(p));
                // Most valuable victim first, then least valuable attacker.
                CAPTURE + (victims.clamp(0, 1 << 15) << 8) + 255 - (attacker / 8).clamp(0, 255)
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else {
                self.history[m.from().index() * 256 + m.to().index()]
            };
            buf.push((score, m));
        }
        true
    }

    /// The best remaining move of the buffer of `ply` from index `i`, swapped into place.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        let buf = &mut self.buffers[ply];
        let mut best = i;
        for j in i + 1..buf.len() {
            if buf[j].0 > buf[best].0 {
                best = j;
            }
        }
        buf.swap(i, best);
        buf[i].1
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = pos.decided() {
            return Score::of_outcome(o, pos.side_to_move(), ply);
        }
        let in_check = self.extend_checks && pos.in_check();
        if in_check && (ply as i32) < 2 * self.root_depth && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        // A proven result nearer than this cannot be bettered.
        let alpha0 = alpha;
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.probe(key) {
            tt_move = e.mv;
            let deep_enough = if self.config.exact_depth {
                e.depth as i32 == depth
            } else {
                e.depth as i32 >= depth
            };
            if deep_enough {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        if let Some(s) = self.null_cut(pos, depth, alpha, beta, ply, in_check) {
            return s;
        }
        if !self.generate(pos, ply, tt_move, false) {
            return 0;
        }
        let n = self.buffers[ply].len();
        if n == 0 {
            return self.terminal_score(pos, ply);
        }
        let mut best = -INFINITY;
        let mut best_move = None;
        let futile = self.config.futility
            && depth <= 2
            && beta - alpha == 1
            && alpha.abs() < PROVEN / 2
            && beta.abs() < PROVEN / 2;
        let mover = pos.side_to_move();
        for i in 0..n {
            let m = self.pick(ply, i);
            let order = self.buffers[ply][i].0;
            let undo = pos.make_unchecked(m);
            if futile && i > 0 && pos.status() == Status::ToMove(pos.side_to_move()) {
                // The position after the move, judged statically: the opponent can at least
                // keep it (stand pat) one ply from the leaves. A move after which the game is
                // over (the opponent left without a move included) is searched.
                let after = sign(pos, mover) * self.evaluate(pos)
                    + if depth == 1 { 0 } else { self.margin };
                if after <= alpha {
                    pos.unmake_unchecked(m, undo);
                    self.pruned += 1;
                    best = best.max(after);
                    continue;
                }
            }
            let score = if i == 0 {
                self.child(pos, mover, depth - 1, alpha, beta, ply + 1)
            } else {
                let quiet_and_late =
                    self.config.reductions && depth >= 3 && i >= 3 && order < KILLER;
                let r = if !quiet_and_late {
                    0
                } else if i >= 10 && depth >= 5 {
                    2
                } else {
                    1
                };
                let mut s = self.child(pos, mover, depth - 1 - r, alpha, alpha + 1, ply + 1);
                if r > 0 && s > alpha && !self.aborted {
                    s = self.child(pos, mover, depth - 1, alpha, alpha + 1, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, mover, depth - 1, alpha, beta, ply + 1)
                } else {
                    s
                }
            };
            pos.unmake_unchecked(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !m.is_capture() {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let h = &mut self.history[m.from().index() * 256 + m.to().index()];
                            *h = (*h + depth * depth).min(HISTORY_MAX);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, depth, ply, best, bound, best_move);
        best
    }

    /// Null-move pruning ([`AlphaBetaConfig::null_move`]): the node's score if passing shows
    /// that it fails high, else `None` (and nothing changed). `in_check`: whether the side to
    /// move is in check (`false` when checks are not looked at: then passing may leave a royal
    /// piece attacked, which the opponent's moves do not take, and the pass only misjudges).
    fn null_cut(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> Option<i32> {
        if !self.null_ok
            || self.verifying
            || in_check
            || depth < 3
            || beta - alpha != 1
            || beta.abs() >= PROVEN / 2
            || (ply > 0 && self.null_made[ply - 1])
            || !pos.can_make_null()
            || (!self.extend_checks && pos.in_check())
            || self.evaluate(pos) < beta
        {
            return None;
        }
        let r = 2 + depth / 6;
        let undo = pos.make_null();
        self.null_made[ply] = true;
        let s = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1);
        self.null_made[ply] = false;
        pos.unmake_null(undo);
        if self.aborted {
            return Some(0);
        }
        if s < beta {
            return None;
        }
        // A proven win seen after passing is not one: the window's top is.
        let s = if s >= PROVEN / 2 { beta } else { s };
        if depth >= VERIFY_NULL {
            self.verifying = true;
            let v = self.negamax(pos, depth - r, beta - 1, beta, ply);
            self.verifying = false;
            if self.aborted {
                return Some(0);
            }
            if v < beta {
                return None;
            }
        }
        self.null_cuts += 1;
        Some(s)
    }

    /// The score, for `mover`, of the position a move of `mover` left, searched within
    /// `(alpha, beta)` (`mover`'s window): the opponent's score negated, or, in the middle of a
    /// turn of several moves, where `mover` moves again, its own.
    fn child(
        &mut self,
        pos: &mut Position,
        mover: Player,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if pos.side_to_move() == mover {
            self.negamax(pos, depth, alpha, beta, ply)
        } else {
            -self.negamax(pos, depth, -beta, -alpha, ply)
        }
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if !self.config.quiescence || ply >= MAX_PLY {
            // The leaf still needs to know whether the game is over.
            if pos.status() != Status::ToMove(pos.side_to_move()) {
                return self.terminal_score(pos, ply);
            }
            return self.evaluate(pos);
        }
        if !self.generate(pos, ply, None, false) {
            return 0;
        }
        let all = self.buffers[ply].len();
        if all == 0 {
            return self.terminal_score(pos, ply);
        }
        self.buffers[ply].retain(|(_, m)| m.is_capture());
        let n = self.buffers[ply].len();
        // When every move captures (captures are mandatory), standing pat is not an option.
        let forced = n == all;
        let mut best = -INFINITY;
        if !forced {
            let stand = self.evaluate(pos);
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mover = pos.side_to_move();
        for i in 0..n {
            let m = self.pick(ply, i);
            let undo = pos.make_unchecked(m);
            let score = match pos.decided() {
                Some(o) => sign(pos, mover) * Score::of_outcome(o, pos.side_to_move(), ply + 1),
                None if pos.side_to_move() == mover => self.quiesce(pos, alpha, beta, ply + 1),
                None => -self.quiesce(pos, -beta, -alpha, ply + 1),
            };
            pos.unmake_unchecked(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// 1 when `mover` is to move again (in the middle of a turn of several moves), -1 when the
/// other player is: what turns a score of the side to move into `mover`'s.
fn sign(pos: &Position, mover: Player) -> i32 {
    if pos.side_to_move() == mover { 1 } else { -1 }
}

/// Plain minimax to a fixed depth, without pruning, table or ordering: the reference the
/// tests hold alpha-beta to. With `quiescence`, leaves are searched as alpha-beta's are.
pub fn minimax(
    pos: &mut Position,
    eval: &dyn Evaluator,
    depth: u32,
    quiescence: bool,
) -> Result<i32, SearchError> {
    fn go(
        pos: &mut Position,
        eval: &dyn Evaluator,
        depth: u32,
        ply: usize,
        q: bool,
    ) -> Result<i32, SearchError> {
        if let Some(o) = pos.decided() {
            return Ok(Score::of_outcome(o, pos.side_to_move(), ply));
        }
        let moves = pos.legal_moves()?;
        if moves.is_empty() {
            return Ok(match pos.status() {
                Status::Over(o) => Score::of_outcome(o, pos.side_to_move(), ply),
                _ => 0,
            });
        }
        if depth == 0 {
            if !q {
                return Ok(eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL));
            }
            let captures: Vec<Move> = moves.iter().filter(|m| m.is_capture()).collect();
            let mut best = -INFINITY;
            if captures.len() < moves.len() {
                best = eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL);
            }
            let mover = pos.side_to_move();
            for m in captures {
                let undo = pos.make_unchecked(m);
                let s = sign(pos, mover) * go(pos, eval, 0, ply + 1, q)?;
                pos.unmake_unchecked(m, undo);
                best = best.max(s);
            }
            return Ok(best);
        }
        let mut best = -INFINITY;
        let mover = pos.side_to_move();
        for m in moves.iter() {
            let undo = pos.make_unchecked(m);
            let s = sign(pos, mover) * go(pos, eval, depth - 1, ply + 1, q)?;
            pos.unmake_unchecked(m, undo);
            best = best.max(s);
        }
        Ok(best)
    }
    let _ = WIN;
    go(pos, eval, depth, 0, quiescence)
}
