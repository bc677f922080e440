//! A game as an embedder plays it: checked moves with reasons for refusals, placement,
//! undo and redo.
//!
//! [`Position`] is the fast core; [`Game`] wraps it for moves that come from outside. A move
//! is accepted only if it is one of the generated legal moves, so the checked and the fast
//! paths cannot disagree; when it is not, [`Position::find_move`] says which rule refused it,
//! by running generation's own checks on it. A refused move or placement leaves the game
//! unchanged. Undo and redo replay the small [`Undo`] records that each move leaves; nothing
//! copies the whole state.

use crate::cell::Cell;
use crate::error::{MoveError, PlaceError, PlaceErrorKind};
use crate::expr::Value;
use crate::limits::MoveLimit;
use crate::moves::{Move, MoveList};
use crate::notation::PositionError;
use crate::piece::{KindId, PIECE_CODES, Piece, Player};
use crate::position::{PlayEnv, Position, Undo};
use crate::rng::Rng;
use crate::rules::Rules;
use crate::status::{Outcome, Status};
use crate::verdict::StaticEnv;
use std::sync::Arc;

/// A game being played: a position with its history.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    history: Vec<(Move, Undo)>,
    redo: Vec<Move>,
    placed: [u16; PIECE_CODES],
}

impl Game {
    /// A game in the standard starting position. The set-up pieces count as placed.
    pub fn new(rules: Arc<Rules>) -> Game {
        let mut placed = [0; PIECE_CODES];
        for (p, _) in rules.setup() {
            placed[p.code()] += 1;
        }
        Game {
            position: Position::start(rules),
            history: Vec::new(),
            redo: Vec::new(),
            placed,
        }
    }

    /// A game on an empty board, the first player to move.
    pub fn empty(rules: Arc<Rules>) -> Game {
        Game {
            position: Position::empty(rules),
            history: Vec::new(),
            redo: Vec::new(),
            placed: [0; PIECE_CODES],
        }
    }

    /// A game from a position string. Every piece on the board counts as placed.
    pub fn from_position_string(rules: Arc<Rules>, text: &str) -> Result<Game, PositionError> {
        let position = Position::from_position_string(rules, text)?;
        let mut placed = [0; PIECE_CODES];
        for (_, p) in position.pieces() {
            placed[p.code()] += 1;
        }
        Ok(Game {
            position,
            history: Vec::new(),
            redo: Vec::new(),
            placed,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        self.position.rules()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        self.position.side_to_move()
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    /// Why the game is over, if it is ([`Position::end_reason`]).
    pub fn end_reason(&self) -> Option<crate::EndReason> {
        self.position.end_reason()
    }

    /// Where the game stands: over, a side to move, or a side to move with no legal move
    /// while no rule ends the game ([`Status::Stuck`]).
    pub fn status(&self) -> Status {
        self.position.status()
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Result<MoveList, MoveLimit> {
        self.position.legal_moves()
    }

    /// The legal moves of the piece on `cell`.
    pub fn moves_from(&self, cell: Cell) -> Result<MoveList, MoveLimit> {
        self.position.moves_from(cell)
    }

    /// The moves `player` could make if it were to move.
    pub fn moves_of(&self, player: Player) -> Result<MoveList, MoveLimit> {
        self.position.moves_of(player)
    }

    /// The last move played (and not taken back), if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|(m, _)| *m)
    }

    /// The moves played so far, oldest first.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|(m, _)| *m)
    }

    /// A legal move chosen uniformly at random by `rng` (`None` when there is none).
    pub fn random_move(&self, rng: &mut Rng) -> Result<Option<Move>, MoveLimit> {
        self.position.random_move(rng)
    }

    /// Puts a piece on an empty cell, if the place rules allow it. Placing clears the undo and
    /// redo history (a placement is set-up, not a move).
    pub fn place(&mut self, piece: Piece, cell: Cell) -> Result<(), PlaceError> {
        let rules = self.position.rules.clone();
        let g = rules.geometry();
        let refuse = |kind| Err(PlaceError::new(kind, &rules));
        if !g.contains(cell) {
            return refuse(PlaceErrorKind::OffBoard(cell));
        }
        if self.position.piece_at(cell).is_some() {
            return refuse(PlaceErrorKind::Occupied(cell));
        }
        if piece.kind().index() >= rules.core().kind_count() {
            return refuse(PlaceErrorKind::NoSuchKind(piece.kind()));
        }
        let count = self.position.count(piece.owner(), Some(piece.kind())) + 1;
        match rules.core().may_stand(piece, cell, count) {
            Err(crate::StandingError::TooMany { .. }) => {
                return refuse(PlaceErrorKind::TooMany(piece));
            }
            Err(crate::StandingError::NeverIn { .. }) => {
                return refuse(PlaceErrorKind::NeverIn(piece, cell));
            }
            Ok(()) => {}
        }
        let env = PlayEnv::new(
            &rules,
            &self.position.state,
            StaticEnv {
                mover: Some(Value::Piece(piece, cell)),
                to: Some(cell),
                player: Some(piece.owner()),
                ..StaticEnv::default()
            },
        )
        .placed(&self.placed);
        for (id, e) in &rules.place {
            if !e.test(rules.core(), &env).unwrap_or(false) {
                return refuse(PlaceErrorKind::Forbidden(*id));
            }
        }
        self.position.state.put(&rules, piece, cell);
        self.position.state.recount(&rules);
        self.position.state.remember(&rules);
        self.placed[piece.code()] += 1;
        self.history.clear();
        self.redo.clear();
        Ok(())
    }

    /// Removes every piece and the history; the first player is to move and nobody has won.
    pub fn clear(&mut self) {
        *self = Game::empty(self.position.rules.clone());
    }

    /// Back to the standard starting position, with no history.
    pub fn reset(&mut self) {
        *self = Game::new(self.position.rules.clone());
    }

    /// Plays the move with this path (origin, then each cell it lands on). A two-cell path is
    /// enough for a hop chain when only one legal chain has those endpoints. Checks that
    /// `player`, if given, is the side to move.
    pub fn play_path(
        &mut self,
        player: Option<Player>,
        path: &[Cell],
    ) -> Result<Status, MoveError> {
        let m = self.find_move(player, path)?;
        Ok(self.play_legal(m))
    }

    /// [`Game::play_path`], with the kind a promoting piece becomes when the player chooses.
    pub fn play_path_choosing(
        &mut self,
        player: Option<Player>,
        path: &[Cell],
        choice: Option<crate::KindId>,
    ) -> Result<Status, MoveError> {
        let m = self.position.find_move_choosing(player, path, choice)?;
        Ok(self.play_legal(m))
    }

    /// [`Game::find_move`], with the kind a promoting piece becomes when the player chooses.
    pub fn find_move_choosing(
        &self,
        player: Option<Player>,
        path: &[Cell],
        choice: Option<crate::KindId>,
    ) -> Result<Move, MoveError> {
        self.position.find_move_choosing(player, path, choice)
    }

    /// Plays a move, which must be legal here; otherwise changes nothing and says why.
    pub fn play(&mut self, m: Move) -> Result<Status, MoveError> {
        let m = self.position.checked(m)?;
        Ok(self.play_legal(m))
    }

    fn play_legal(&mut self, m: Move) -> Status {
        let u = self.position.make_unchecked(m);
        self.history.push((m, u));
        self.redo.clear();
        self.status()
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((m, u)) => {
                self.position.unmake_unchecked(m, u);
                self.redo.push(m);
                true
            }
            None => false,
        }
    }

    /// Plays again the last move taken back; false if there is none.
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some(m) => {
                let u = self.position.make_unchecked(m);
                self.history.push((m, u));
                true
            }
            None => false,
        }
    }

    /// The legal move with this path, or why there is none (see [`Position::find_move`]).
    pub fn find_move(&self, player: Option<Player>, path: &[Cell]) -> Result<Move, MoveError> {
        self.position.find_move(player, path)
    }

    /// The number of pieces of this kind and owner placed since set-up.
    pub fn placed(&self, kind: KindId, owner: Player) -> usize {
        self.placed[Piece::new(kind, owner).code()] as usize
    }
}
