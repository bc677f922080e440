//! The game state, move generation, and make/unmake.
//!
//! [`Position`] is a board of piece bytes, one occupancy bitboard per player, piece counts, the
//! side to move, a ply clock, a Zobrist key and the outcome, all updated incrementally. Move
//! generation walks the side's occupancy bitboard (so it costs O(pieces)), and for each piece
//! its kind's step groups from that cell (masks ANDed with the empty and enemy cells, as a
//! hand-written bitboard engine does), then the targets that need more than one look at the
//! board (blockable jumps, hops, patterns read during play). A piece's moves therefore come
//! in destination-cell order within each pattern. Make and unmake touch only the cells the move
//! involves. Neither allocates.
//!
//! Generation is written once over a [`Sink`]: a caller's callback (which may stop early), or,
//! for perft and playouts, a buffer in a [`MoveList`] whose count is passed by value so that it
//! stays in a register (the listed targets and the interpreted path run out of line, taking the
//! buffer by value and returning its count). Perft makes and takes back every move of its last
//! ply; that loop reads the state's scalar fields once for all its moves ([`Before`]) instead
//! of waiting on each unmake's stores. Rules without promotion, position history or eager
//! end rules other than counts ([`Rules::lean`]) get make and unmake compiled without tests
//! for those features ([`Profile`]). A playout of rules without history restores its start
//! position from a copy; with history, it takes every move back.

mod end;
mod general;
mod generate;
mod hops;
mod legal;
mod make;
mod null;
mod overlap;
mod probe;
mod search;
mod state;
mod targets;
mod undo;

use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::error::{MoveError, MoveErrorKind};
use crate::limits::MAX_HOPS;
use crate::limits::MoveLimit;
use crate::moves::{Move, MoveList};
use crate::piece::{KindId, Piece, Player};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::status::{Outcome, Status};
use arrayvec::ArrayVec;
pub(crate) use end::PlayEnv;
pub(crate) use general::Judged;
pub use null::NullUndo;
pub(crate) use state::{GHOST_TAG, State, UNMOVED_TAG, VICTIM_TAG};
use std::ops::ControlFlow;
use std::sync::Arc;
pub(crate) use undo::HOPPED;
pub use undo::Undo;
pub(crate) use undo::{Before, Full, Lean, Profile, StepUndo};

/// A position of a game: the rules, the pieces, the side to move.
///
/// Cloning a position copies the state (about 600 bytes) and shares the rules.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) rules: Arc<Rules>,
    pub(crate) state: State,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules) && self.state == other.state
    }
}

impl Eq for Position {}

impl Position {
    /// The standard starting position of the rules.
    pub fn start(rules: Arc<Rules>) -> Position {
        let mut state = State::empty(&rules);
        for &(piece, cell) in &rules.setup {
            state.put(&rules, piece, cell);
        }
        state.start_unmoved(&rules);
        state.recount(&rules);
        state.remember(&rules);
        state.settle(&rules);
        Position { rules, state }
    }

    /// An empty board, the first player to move.
    pub fn empty(rules: Arc<Rules>) -> Position {
        let state = State::empty(&rules);
        Position { rules, state }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The size in bytes of the game state a position carries besides its shared rules (the
    /// board, occupancy sets, counts, side, clock, key and outcome).
    pub const fn state_bytes() -> usize {
        std::mem::size_of::<State>()
    }

    /// The piece on a cell.
    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        if cell.index() < MAX_CELLS {
            Piece::from_code(self.state.board[cell.index()])
        } else {
            None
        }
    }

    /// The cells holding a piece of `player`.
    pub fn occupied(&self, player: Player) -> &CellSet {
        &self.state.occupied[player.slot()]
    }

    /// Every piece on the board, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        let board = &self.state.board;
        self.state.occupied[0]
            .union(&self.state.occupied[1])
            .iter()
            .map(move |c| (c, Piece(board[c.index()])))
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.state.side
    }

    /// Passes made in a row, the last move included (0 in games without passing).
    pub fn passes(&self) -> u8 {
        self.state.passes
    }

    /// Plies since the last capture.
    pub fn clock(&self) -> u16 {
        self.state.clock
    }

    /// In a game of turns of several moves (`[turn]`), the moves the side to move has already
    /// made in this turn: 0 on a turn's first move, and always 0 in other games.
    pub fn turn_moves(&self) -> u8 {
        self.state.turn
    }

    /// The cells whose pieces were put there by earlier moves of this turn, in a game of
    /// turns of several moves (`moved_this_turn(...)` in a pack); empty on a turn's first move.
    pub fn moved_this_turn(&self) -> CellSet {
        self.state.turn_cells
    }

    /// The player who made the last move: the side not to move, or, in the middle of a turn
    /// of several moves, the side to move.
    pub fn last_mover(&self) -> Player {
        self.state.last_mover()
    }

    /// The Zobrist key of the position (pieces and side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// The number of pieces of a player, or of one kind of a player.
    pub fn count(&self, player: Player, kind: Option<KindId>) -> usize {
        self.state.count(player, kind) as usize
    }

    /// The result, if the game is over. This includes "the player to move has no legal move",
    /// where the rules make that an end.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome(&self.rules)
    }

    /// Why the game is over, if it is: the end rule that decides [`Position::outcome`]
    /// (its name is [`crate::EndReason::name`]).
    pub fn end_reason(&self) -> Option<crate::EndReason> {
        self.state.end_reason(&self.rules)
    }

    /// The result decided by the last move, without looking for legal moves (cheap).
    #[inline]
    pub fn decided(&self) -> Option<Outcome> {
        self.state.outcome
    }

    /// Where the game stands: over, a side to move, or a side to move that has no legal move
    /// while no rule ends the game ([`Status::Stuck`]).
    pub fn status(&self) -> Status {
        let side = self.state.side;
        if let Some(o) = self.state.outcome {
            return Status::Over(o);
        }
        // One look for a move decides both a deferred "no legal move" rule and being stuck. A
        // pass is a legal move here (rules with passing defer no rule).
        let any = self
            .state
            .generate(&self.rules, side, |_| ControlFlow::Break(()))
            .map_or(true, |flow| flow.is_break());
        if any {
            return Status::ToMove(side);
        }
        match self.state.deferred_result(&self.rules) {
            Some(o) => Status::Over(o),
            None => Status::Stuck(side),
        }
    }

    /// Calls `f` with each legal move of the side to move; stops when `f` breaks, or with an
    /// error past the kernel's limits ([`MoveLimit`]).
    #[inline]
    pub fn for_each_move<B>(
        &self,
        f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, MoveLimit> {
        self.state.generate(&self.rules, self.state.side, f)
    }

    /// Calls `f` with each move `player` could make if it were to move.
    pub fn for_each_move_of<B>(
        &self,
        player: Player,
        f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B>, MoveLimit> {
        self.state.generate(&self.rules, player, f)
    }

    /// Puts the legal moves of the side to move in `list` (emptied first); without
    /// allocating when they fit in its inline part.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) -> Result<(), MoveLimit> {
        self.state.moves_into(&self.rules, list)
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Result<MoveList, MoveLimit> {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list)?;
        Ok(list)
    }

    /// The moves `player` could make if it were to move.
    pub fn moves_of(&self, player: Player) -> Result<MoveList, MoveLimit> {
        let mut list = MoveList::new();
        let _ = self.for_each_move_of(player, |m| {
            list.push(m);
            ControlFlow::<()>::Continue(())
        })?;
        Ok(list)
    }

    /// The legal moves of the piece on `cell`, if it belongs to the side to move.
    pub fn moves_from(&self, cell: Cell) -> Result<MoveList, MoveLimit> {
        let mut list = MoveList::new();
        if self.rules.must_capture || self.rules.general {
            // Whether this piece's quiet moves are legal depends on every other piece (or on
            // what effects they have).
            for m in self
                .legal_moves()?
                .iter()
                .filter(|m| !m.is_pass() && m.from() == cell)
            {
                list.push(m);
            }
            return Ok(list);
        }
        if self.state.outcome.is_none()
            && let Some(p) = self.piece_at(cell)
            && p.owner() == self.state.side
        {
            let _ = self
                .state
                .generate_from(&self.rules, p.owner(), cell, |m| {
                    list.push(m);
                    ControlFlow::<()>::Continue(())
                })?;
        }
        Ok(list)
    }

    /// The cells of the pieces a hop chain takes, in order (empty for other moves): for a
    /// `far` chain, whose hops cross empty cells, read from this position, the one the move
    /// is made from.
    pub fn hopped(&self, m: Move) -> ArrayVec<Cell, MAX_HOPS> {
        if m.is_far() {
            self.state.far_victims(&self.rules, m)
        } else {
            m.hopped(self.rules.geometry())
        }
    }

    /// The cells a move visits: origin, each landing cell, destination last.
    pub fn path(&self, m: Move) -> ArrayVec<Cell, { MAX_HOPS + 2 }> {
        m.path(self.rules.geometry())
    }

    /// The legal move with this path (origin, then each landing cell; the two ends are enough
    /// for a hop chain when only one legal chain has them), or why there is none. Checks that
    /// `player`, if given, is the side to move.
    pub fn find_move(&self, player: Option<Player>, path: &[Cell]) -> Result<Move, MoveError> {
        self.find_move_choosing(player, path, None)
    }

    /// [`Position::find_move`], with the kind a promoting piece becomes when the player
    /// chooses (`e7-e8=Q`); a promotion with a choice and no choice given is refused.
    pub fn find_move_choosing(
        &self,
        player: Option<Player>,
        path: &[Cell],
        choice: Option<crate::KindId>,
    ) -> Result<Move, MoveError> {
        let rules = &self.rules;
        let g = rules.geometry();
        let fail = |kind| MoveError::new(kind, path, rules);
        if let Some(o) = self.outcome() {
            return Err(fail(MoveErrorKind::GameOver(o)));
        }
        let side = self.side_to_move();
        if let Some(p) = player
            && p != side
        {
            return Err(fail(MoveErrorKind::NotYourTurn {
                to_move: side,
                player: p,
            }));
        }
        if path.iter().any(|c| !g.contains(*c)) {
            return Err(fail(MoveErrorKind::BadPath));
        }
        let limit = |l| fail(MoveErrorKind::Limit(l));
        if path.is_empty() {
            let legal = self.legal_moves().map_err(limit)?;
            return legal
                .iter()
                .find(|m| m.is_pass())
                .ok_or_else(|| fail(MoveErrorKind::CannotPass));
        }
        if rules.removal.is_some()
            && let Some(found) = self.find_removal(side, path, choice).map_err(limit)?
        {
            return found.map_err(fail);
        }
        if path.len() == 1 && !rules.placements.is_empty() {
            let mut first = None;
            let kind_of = |r: u8| rules.moves[r as usize].kind;
            if rules.placed_kinds > 1 && choice.is_none() {
                // Several kinds may be placed: the text names one, unless only one may go here.
                let mut placeable = rules.placements.iter().filter_map(|&r| {
                    self.state
                        .place_verdict(rules, r, side, path[0])
                        .ok()
                        .map(|_| kind_of(r))
                });
                if let Some(k) = placeable.next()
                    && placeable.any(|other| other != k)
                {
                    return Err(fail(MoveErrorKind::KindNeeded { first: k }));
                }
            }
            for &r in rules
                .placements
                .iter()
                .filter(|&&r| choice.is_none_or(|k| kind_of(r) == k))
            {
                match self.state.place_verdict(rules, r, side, path[0]) {
                    // Where capturing is mandatory, a placement is legal only when no capture is.
                    Ok(m)
                        if rules.must_capture
                            && !self.legal_moves().map_err(limit)?.iter().any(|x| x == m) =>
                    {
                        let piece = Piece(State::placed_code(rules, r, side));
                        first.get_or_insert(MoveErrorKind::CannotPlace {
                            piece,
                            reason: crate::Reason::MustCapture,
                        });
                    }
                    Ok(m) => return Ok(m),
                    Err(reason) => {
                        let piece = Piece(State::placed_code(rules, r, side));
                        first.get_or_insert(MoveErrorKind::CannotPlace { piece, reason });
                    }
                }
            }
            return Err(fail(first.unwrap_or(MoveErrorKind::BadPath)));
        }
        if path.len() < 2 {
            return Err(fail(MoveErrorKind::BadPath));
        }
        let (from, to) = (path[0], path[path.len() - 1]);
        let Some(piece) = self.piece_at(from) else {
            return Err(fail(MoveErrorKind::NoPiece(from)));
        };
        if piece.owner() != side {
            return Err(fail(MoveErrorKind::NotYours {
                cell: from,
                owner: piece.owner(),
            }));
        }
        let mut moves = self.moves_from(from).map_err(limit)?;
        if choice.is_some() || moves.iter().any(|m| m.promotion().is_some()) {
            let to_kind = |m: &Move| m.promotion().map(|p| p.kind());
            // The moves this path names: its exact path, or its ends for a two-cell path (a
            // second part's cell is not a destination).
            let endpoints =
                |m: &Move| m.path(g).as_slice() == path || (path.len() == 2 && m.to() == to);
            // Where the piece promotes by this move, a choice named must be one of the legal
            // moves (not the same move declining an optional promotion); elsewhere a choice
            // is ignored (`e2-e4=Q` is `e2-e4`).
            let promotes = |m: &Move| {
                m.promotion().is_some()
                    || rules
                        .choices
                        .get(piece.code())
                        .is_some_and(|c| c.promotes(*m))
            };
            let strict = choice.is_some() && moves.iter().any(|m| endpoints(&m) && promotes(&m));
            let want = |m: &Move| to_kind(m) == choice || (!strict && to_kind(m).is_none());
            // Without a choice, a promotion the player may decline is declined.
            if choice.is_none()
                && moves.iter().any(|m| endpoints(&m) && to_kind(&m).is_some())
                && !moves.iter().any(|m| endpoints(&m) && to_kind(&m).is_none())
            {
                let first = moves
                    .iter()
                    .filter(|m| endpoints(m))
                    .find_map(|m| to_kind(&m))
                    .unwrap_or(piece.kind());
                return Err(fail(MoveErrorKind::ChoiceNeeded { piece, first }));
            }
            let kept: Vec<Move> = moves.iter().filter(want).collect();
            moves = MoveList::new();
            for m in kept {
                moves.push(m);
            }
        }
        // The exact path first; failing that, a unique move with these endpoints.
        let exact: Vec<Move> = moves
            .iter()
            .filter(|m| m.path(g).as_slice() == path)
            .collect();
        let matching: Vec<Move> = if !exact.is_empty() {
            // Two patterns may make the same move: any of them will do.
            exact.into_iter().take(1).collect()
        } else if path.len() == 2 {
            let ends: Vec<Move> = moves.iter().filter(|m| m.to() == to).collect();
            // A pseudo-legal move with exactly this path: the path names that move, and its
            // refusal is the answer (not a legal move with the same ends and a second part).
            if !ends.is_empty() && self.names_a_pseudo_legal_move(path).map_err(limit)? {
                Vec::new()
            } else {
                ends
            }
        } else {
            Vec::new()
        };
        match matching.as_slice() {
            [m] => Ok(*m),
            [] => {
                let reason = self
                    .state
                    .explain(rules, side, path, choice)
                    .map_err(limit)?;
                Err(fail(MoveErrorKind::Illegal { piece, reason }))
            }
            _ => Err(fail(MoveErrorKind::Ambiguous { piece })),
        }
    }

    /// Where the rules have a removal of the mover's choice: the legal move with exactly this
    /// path (the removed piece's cell last), or the refusal of a path that names a legal move
    /// but leaves out its removal, or removes a piece it may not; `None` for other paths,
    /// which the other checks judge.
    fn find_removal(
        &self,
        side: Player,
        path: &[Cell],
        choice: Option<KindId>,
    ) -> Result<Option<Result<Move, MoveErrorKind>>, MoveLimit> {
        let rules = &self.rules;
        let g = rules.geometry();
        let legal = self.legal_moves()?;
        let kind_of = |m: &Move| {
            m.promotion().map(|p| p.kind()).or_else(|| {
                m.is_placement()
                    .then(|| rules.moves[m.rule() as usize].kind)
            })
        };
        // A promotion is named by its kind; a placement may be.
        let chosen = |m: &Move| match m.promotion() {
            Some(p) => choice == Some(p.kind()),
            None => choice.is_none() || kind_of(m) == choice,
        };
        if let Some(m) = legal
            .iter()
            .find(|m| chosen(m) && m.removal().is_some() && m.path(g).as_slice() == path)
        {
            return Ok(Some(Ok(m)));
        }
        let refusal = |m: &Move, reason: crate::Reason| {
            if m.is_placement() {
                MoveErrorKind::CannotPlace {
                    piece: Piece(State::placed_code(rules, m.rule(), side)),
                    reason,
                }
            } else {
                match self.piece_at(m.from()) {
                    Some(piece) => MoveErrorKind::Illegal { piece, reason },
                    None => MoveErrorKind::BadPath,
                }
            }
        };
        // A pseudo-legal move with a removal and exactly this path: the reference says why
        // it is not legal (or capturing is mandatory).
        let pseudo = self.pseudo_legal_moves()?;
        if let Some(m) = pseudo
            .iter()
            .find(|m| chosen(m) && m.removal().is_some() && m.path(g).as_slice() == path)
        {
            let reason = match self.reference_verdict(*m) {
                Err(r) => r,
                Ok(()) if rules.most_captures && m.is_capture() => {
                    let most = legal.iter().map(|x| x.captured_count()).max().unwrap_or(0);
                    crate::Reason::TakesFewer(most.min(u8::MAX as usize) as u8)
                }
                Ok(()) => crate::Reason::MustCapture,
            };
            return Ok(Some(Err(refusal(m, reason))));
        }
        // A legal move's path without its removal.
        let stem = |m: &Move| {
            let p = m.path(g);
            let n = p.len() - usize::from(m.removal().is_some());
            p[..n].to_vec()
        };
        // Written without its removal, a move names the one removal it may make, as two
        // cells name a move by its ends (a placement by its cell); where it may make several,
        // and nothing else has these ends, the text must say which. (Unless the text is the
        // whole path of another pseudo-legal move: it names that one.)
        let names_pseudo = pseudo.iter().any(|m| m.path(g).as_slice() == path);
        let same_ends: Vec<Move> = legal
            .iter()
            .filter(|m| {
                chosen(m)
                    && if path.len() == 1 {
                        m.is_placement() && m.to() == path[0]
                    } else {
                        path.len() == 2
                            && !m.is_placement()
                            && !m.is_pass()
                            && m.from() == path[0]
                            && m.to() == path[1]
                    }
            })
            .collect();
        let unsaid = |m: &Move| m.removal().is_some() && stem(m) == path;
        if !names_pseudo && !same_ends.is_empty() && same_ends.iter().all(unsaid) {
            if let [m] = same_ends.as_slice() {
                return Ok(Some(Ok(*m)));
            }
            let first = same_ends[0].removal().unwrap_or(path[0]);
            return Ok(Some(Err(MoveErrorKind::RemovalNeeded { first })));
        }
        // A legal move, then an enemy piece it may not remove
        let last = path[path.len() - 1];
        // (Or, after a placement, any cell: a placement's path has no second cell else.)
        let enemy = self.piece_at(last).is_some_and(|p| p.owner() != side)
            || (path.len() == 2 && self.piece_at(path[0]).is_none());
        if let Some(m) = legal
            .iter()
            .find(|m| enemy && chosen(m) && stem(m) == path[..path.len() - 1])
        {
            return Ok(Some(Err(refusal(&m, crate::Reason::Removal(last)))));
        }
        Ok(None)
    }

    /// Whether `path` is exactly the path of a pseudo-legal move of the side to move: then it
    /// names that move, and a refusal is that move's, not "ambiguous" among the legal moves
    /// with the same ends (moves with a second part, say).
    fn names_a_pseudo_legal_move(&self, path: &[Cell]) -> Result<bool, MoveLimit> {
        let g = self.rules.geometry();
        let pseudo = self.pseudo_legal_moves()?;
        Ok(pseudo.iter().any(|m| m.path(g).as_slice() == path))
    }

    /// Plays `m` if it is a legal move here, returning what [`Position::unmake_unchecked`]
    /// needs to take it back; otherwise changes nothing and says why.
    pub fn play(&mut self, m: Move) -> Result<Undo, MoveError> {
        let m = self.checked(m)?;
        Ok(self.make_unchecked(m))
    }

    /// `m` if it is a legal move here; a move made elsewhere is taken as the legal move with its
    /// path, if there is one; otherwise why not.
    pub(crate) fn checked(&self, m: Move) -> Result<Move, MoveError> {
        let path = self.path(m);
        let legal = self
            .legal_moves()
            .map_err(|l| MoveError::new(MoveErrorKind::Limit(l), &path, &self.rules))?;
        if legal.iter().any(|x| x == m) {
            return Ok(m);
        }
        self.find_move(None, &path)
    }

    /// Plays a move **that was generated for this very position**, returning what
    /// [`Position::unmake_unchecked`] needs to take it back. Nothing is checked: any other
    /// move leaves the position inconsistent. This is the fast path of search and playouts;
    /// [`Position::play`] checks.
    #[inline(always)]
    pub fn make_unchecked(&mut self, m: Move) -> Undo {
        let Position { rules, state } = self;
        state.make(rules, m)
    }

    /// Takes back `m`, **which must be the last move made**, given what
    /// [`Position::make_unchecked`] returned for it. Nothing is checked.
    #[inline(always)]
    pub fn unmake_unchecked(&mut self, m: Move, undo: Undo) {
        let Position { rules, state } = self;
        state.unmake(rules, m, undo)
    }

    /// Counts the move sequences of length `depth` (a finished game has no moves). Makes and
    /// takes back every move, down to depth 0, as engines' perft does.
    pub fn perft(&mut self, depth: u32) -> Result<u64, MoveLimit> {
        let Position { rules, state } = self;
        match (depth, rules.lean) {
            (0, _) => Ok(1),
            _ if rules.general => state.perft_general_full(rules, depth),
            (_, true) => state.perft::<Lean, false>(rules, depth),
            (_, false) => state.perft::<Full, false>(rules, depth),
        }
    }

    /// As [`Position::perft`], but counts the moves at the last ply without making them.
    pub fn perft_bulk(&mut self, depth: u32) -> Result<u64, MoveLimit> {
        let Position { rules, state } = self;
        match (depth, rules.lean) {
            (0, _) => Ok(1),
            _ if rules.general => state.perft_general(rules, depth),
            (_, true) => state.perft::<Lean, true>(rules, depth),
            (_, false) => state.perft::<Full, true>(rules, depth),
        }
    }

    /// Plays uniformly random legal moves until the game ends, no move is left, or `max_plies`
    /// are played; `pick(n)` must return an index below `n`. The position is restored after.
    pub fn playout(
        &mut self,
        pick: &mut impl FnMut(usize) -> usize,
        max_plies: u32,
    ) -> Result<Playout, MoveLimit> {
        let Position { rules, state } = self;
        if rules.lean {
            state.playout::<Lean>(rules, pick, max_plies)
        } else {
            state.playout::<Full>(rules, pick, max_plies)
        }
    }

    /// A legal move chosen uniformly at random by `rng` (`None` when there is none).
    pub fn random_move(&self, rng: &mut Rng) -> Result<Option<Move>, MoveLimit> {
        let moves = self.legal_moves()?;
        Ok(moves.get(rng.below(moves.len())))
    }
}

/// The result of [`Position::playout`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Plies played.
    pub plies: u32,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// Whether the ply cap stopped it.
    pub capped: bool,
}
