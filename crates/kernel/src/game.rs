//! A game as an embedder plays it: checked moves with reasons for refusals, placement,
//! undo and redo.
//!
//! [`Position`] is the fast, unchecked core; [`Game`] wraps it for moves that come from
//! outside. A move is accepted only if it is one of the generated legal moves, so the checked
//! and the fast paths cannot disagree; when it is not, the named rules are evaluated one by one
//! to say which of them forbade it. A refused move or placement leaves the game unchanged.
//! Undo and redo replay the small [`Undo`] records that each move leaves; nothing copies the
//! whole state.

use crate::cell::Cell;
use crate::compile::targets::pattern_geometry;
use crate::expr::Value;
use crate::moves::{Move, MoveList};
use crate::notation::{PositionError, move_text};
use crate::piece::{KindId, PIECE_CODES, Piece, Player};
use crate::position::{PlayEnv, Position, Undo};
use crate::rules::Rules;
use crate::spec::{CaptureMode, Pattern};
use crate::status::{Outcome, Status};
use std::sync::Arc;

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Nothing may move once the game is over.
    #[error("the game is over")]
    GameOver,
    /// A player other than the side to move tried to move.
    #[error("it is {to_move}'s turn, not {player}'s")]
    NotYourTurn {
        /// The side to move.
        to_move: String,
        /// Who tried.
        player: String,
    },
    /// The origin has no piece.
    #[error("there is no piece on {0}")]
    Empty(String),
    /// The piece belongs to the other side.
    #[error("the piece on {cell} belongs to {owner}, who is not to move")]
    NotYours {
        /// The cell.
        cell: String,
        /// Its owner.
        owner: String,
    },
    /// The move breaks a rule.
    #[error("{piece} cannot go {path}: {reason}")]
    Illegal {
        /// The piece's code.
        piece: String,
        /// The move as written.
        path: String,
        /// Why.
        reason: Reason,
    },
    /// Two legal moves have these endpoints; give the whole path.
    #[error("{0} is ambiguous: give the whole path of the hop chain")]
    Ambiguous(String),
}

/// The rule that refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    /// No pattern of the piece's kind goes there.
    #[error("no move of {kind} goes there")]
    NoPattern {
        /// The kind's name.
        kind: String,
    },
    /// A piece of the mover's own side is on the destination.
    #[error("a piece of its own side is there")]
    OwnPiece,
    /// The destination must be empty for this pattern (a hop's landing, a quiet step).
    #[error("`{pattern}` needs an empty destination")]
    NotEmpty {
        /// The pattern as written.
        pattern: String,
    },
    /// The pattern moves only to capture.
    #[error("`{pattern}` moves only to capture")]
    OnlyCaptures {
        /// The pattern as written.
        pattern: String,
    },
    /// A hop needs an enemy piece to hop over.
    #[error("`{pattern}` needs an enemy piece to hop over")]
    NothingToHop {
        /// The pattern as written.
        pattern: String,
    },
    /// A named enter rule said no.
    #[error("rule `{0}` forbids entering that cell")]
    Enter(String),
    /// A named capture rule said no.
    #[error("capture rule `{0}` forbids the capture")]
    Capture(String),
    /// The pattern's own condition said no.
    #[error("the condition of `{0}` does not hold")]
    Condition(String),
    /// A jump's blocking predicate held on a jumped cell.
    #[error("the jump is blocked on {cell} (`{pattern}`)")]
    Blocked {
        /// The pattern as written.
        pattern: String,
        /// The blocking cell.
        cell: String,
    },
    /// A hop chain cannot go on as written.
    #[error("the hop chain cannot go on from {0}")]
    Chain(String),
    /// The hop chain stops where another hop is possible and chains must be completed.
    #[error("the chain must go on: another hop is possible from {0}")]
    Incomplete(String),
    /// Capturing is mandatory and another move captures.
    #[error("a capture is possible, and capturing is mandatory")]
    MustCapture,
    /// The move is refused by a rule that depends on the position.
    #[error("it is not among the legal moves here")]
    NotLegal,
}

/// Why a placement was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The cell does not exist.
    #[error("the cell is not on the board")]
    OffBoard,
    /// The cell is taken.
    #[error("{0} is already occupied")]
    Occupied(String),
    /// A place rule said no.
    #[error("place rule `{0}` forbids it")]
    Forbidden(String),
}

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
        for (p, _) in &rules.spec().setup {
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

    /// Where the game stands.
    pub fn status(&self) -> Status {
        match self.outcome() {
            Some(o) => Status::Over(o),
            None => Status::ToMove(self.side_to_move()),
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves()
    }

    /// The legal moves of the piece on `cell`.
    pub fn moves_from(&self, cell: Cell) -> MoveList {
        self.position.moves_from(cell)
    }

    /// The moves `player` could make if it were to move.
    pub fn moves_of(&self, player: Player) -> MoveList {
        self.position.moves_of(player)
    }

    /// The moves played so far, oldest first.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|(m, _)| *m)
    }

    /// Puts a piece on an empty cell, if the place rules allow it. Placing clears the undo and
    /// redo history (a placement is set-up, not a move).
    pub fn place(&mut self, piece: Piece, cell: Cell) -> Result<(), PlaceError> {
        let rules = self.position.rules.clone();
        let g = rules.geometry();
        if !g.contains(cell) {
            return Err(PlaceError::OffBoard);
        }
        if self.position.piece_at(cell).is_some() {
            return Err(PlaceError::Occupied(g.name(cell).to_string()));
        }
        let env = PlayEnv {
            mover: Some(Value::Piece(piece, cell)),
            to: Some(cell),
            placed: Some(&self.placed),
            ..PlayEnv::new(&rules, &self.position.state, piece.owner())
        };
        for r in &rules.spec().place {
            if !r.expr.test(rules.core(), &env).unwrap_or(false) {
                return Err(PlaceError::Forbidden(r.name.clone()));
            }
        }
        self.position.state.put(&rules, piece, cell);
        self.position.state.recount(&rules);
        self.position.state.remember();
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
        Ok(self.play_unchecked_legal(m))
    }

    /// Plays a move, which must be legal here.
    pub fn play(&mut self, m: Move) -> Result<Status, MoveError> {
        if !self.legal_moves().iter().any(|x| x == m) {
            let path = m.path(self.rules());
            return Err(self
                .find_move(None, &path)
                .err()
                .unwrap_or(MoveError::Illegal {
                    piece: String::new(),
                    path: move_text(self.rules(), &m),
                    reason: Reason::NotLegal,
                }));
        }
        Ok(self.play_unchecked_legal(m))
    }

    fn play_unchecked_legal(&mut self, m: Move) -> Status {
        let u = self.position.make(m);
        self.history.push((m, u));
        self.redo.clear();
        self.status()
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((m, u)) => {
                self.position.unmake(m, u);
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
                let u = self.position.make(m);
                self.history.push((m, u));
                true
            }
            None => false,
        }
    }

    /// The legal move with this path, or why there is none.
    pub fn find_move(&self, player: Option<Player>, path: &[Cell]) -> Result<Move, MoveError> {
        let rules = self.rules().clone();
        let core = rules.core();
        let g = rules.geometry();
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let side = self.side_to_move();
        if let Some(p) = player
            && p != side
        {
            return Err(MoveError::NotYourTurn {
                to_move: core.player_name(side).into(),
                player: core.player_name(p).into(),
            });
        }
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
            return Err(MoveError::Empty(String::new()));
        };
        let piece = self
            .position
            .piece_at(from)
            .filter(|_| g.contains(from))
            .ok_or_else(|| MoveError::Empty(g.name(from).to_string()))?;
        if piece.owner() != side {
            return Err(MoveError::NotYours {
                cell: g.name(from).to_string(),
                owner: core.player_name(piece.owner()).into(),
            });
        }
        let moves = self.position.moves_from(from);
        let text = path
            .iter()
            .map(|c| g.name(*c).to_string())
            .collect::<Vec<_>>()
            .join("-");
        // The exact path first; failing that, a unique move with these endpoints.
        let exact: Vec<Move> = moves
            .iter()
            .filter(|m| m.path(&rules).as_slice() == path)
            .collect();
        let matching: Vec<Move> = if exact.is_empty() && path.len() == 2 {
            moves.iter().filter(|m| m.to() == to).collect()
        } else {
            exact
        };
        match matching.as_slice() {
            [m] => Ok(*m),
            [] => Err(MoveError::Illegal {
                piece: core.code(piece).to_string(),
                path: text,
                reason: self.explain(piece, path, &moves),
            }),
            _ => Err(MoveError::Ambiguous(text)),
        }
    }

    /// Why no legal move of `piece` follows `path`.
    fn explain(&self, piece: Piece, path: &[Cell], legal: &MoveList) -> Reason {
        let rules = self.rules();
        let g = rules.geometry();
        let longer = legal.iter().any(|m| {
            let p = m.path(rules);
            p.len() > path.len() && p.starts_with(path)
        });
        if longer
            && rules.spec().kinds[piece.kind().index()]
                .moves
                .iter()
                .any(|m| matches!(m.pattern, Pattern::Hop { complete: true, .. }))
        {
            return Reason::Incomplete(g.name(path[path.len() - 1]).to_string());
        }
        if path.len() > 2 {
            // The longest legal prefix of the chain tells where it breaks.
            let mut best = 1;
            for m in legal.iter() {
                let p = m.path(rules);
                let common = p.iter().zip(path).take_while(|(a, b)| a == b).count();
                best = best.max(common);
            }
            if best >= 2 {
                return Reason::Chain(g.name(path[best - 1]).to_string());
            }
        }
        if rules.must_capture
            && self.legal_moves().iter().any(|m| m.is_capture())
            && self
                .position
                .piece_at(path[1])
                .is_none_or(|p| p.owner() == piece.owner())
        {
            let hop = rules.spec().kinds[piece.kind().index()]
                .moves
                .iter()
                .any(|m| {
                    matches!(m.pattern, Pattern::Hop { .. })
                        && m.dirs[piece.owner().index()].iter().any(|d| {
                            pattern_geometry(rules, &m.pattern, path[0], d)
                                .is_some_and(|(to, _, _)| to == path[1])
                        })
                });
            if !hop {
                return Reason::MustCapture;
            }
        }
        let (from, to) = (path[0], path[1]);
        let kind = piece.kind();
        let spec = &rules.spec().kinds[kind.index()];
        let mut first = None;
        for m in &spec.moves {
            for dir in m.dirs[piece.owner().index()].iter() {
                let Some((dest, over, jumped)) = pattern_geometry(rules, &m.pattern, from, dir)
                else {
                    continue;
                };
                if dest != to {
                    continue;
                }
                let reason = self.check_pattern(piece, m, from, to, over, &jumped);
                if first.is_none() {
                    first = Some(reason);
                }
            }
        }
        first.unwrap_or_else(|| Reason::NoPattern {
            kind: rules.core().kind_name(kind).to_string(),
        })
    }

    fn check_pattern(
        &self,
        piece: Piece,
        m: &crate::spec::MoveSpec,
        from: Cell,
        to: Cell,
        over: Option<Cell>,
        jumped: &[Cell],
    ) -> Reason {
        let rules = self.rules();
        let core = rules.core();
        let g = rules.geometry();
        let state = &self.position.state;
        let player = piece.owner();
        let occupant = self.position.piece_at(to);
        if occupant.is_some_and(|o| o.owner() == player) {
            return Reason::OwnPiece;
        }
        let enter = PlayEnv {
            mover: Some(Value::Piece(piece, from)),
            from: Some(from),
            to: Some(to),
            ..PlayEnv::new(rules, state, player)
        };
        for r in &rules.spec().enter {
            if !r.expr.test(core, &enter).unwrap_or(false) {
                return Reason::Enter(r.name.clone());
            }
        }
        if let Some(c) = &m.condition
            && !c.test(core, &enter).unwrap_or(false)
        {
            return Reason::Condition(m.text.clone());
        }
        let (target, target_cell) = match &m.pattern {
            Pattern::Hop { .. } => {
                if occupant.is_some() {
                    return Reason::NotEmpty {
                        pattern: m.text.clone(),
                    };
                }
                let over = over.unwrap_or(from);
                match self.position.piece_at(over) {
                    Some(t) if t.owner() != player => (t, over),
                    _ => {
                        return Reason::NothingToHop {
                            pattern: m.text.clone(),
                        };
                    }
                }
            }
            Pattern::Jump { .. } | Pattern::Step => {
                if let Pattern::Jump {
                    blocked: Some(b), ..
                } = &m.pattern
                {
                    for &c in jumped {
                        let occ = match self.position.piece_at(c) {
                            Some(o) => Value::Piece(o, c),
                            None => Value::NoPiece,
                        };
                        let env = PlayEnv {
                            mover: Some(Value::Piece(piece, c)),
                            cell: Some(c),
                            occupant: Some(occ),
                            ..PlayEnv::new(rules, state, player)
                        };
                        if b.test(core, &env).unwrap_or(true) {
                            return Reason::Blocked {
                                pattern: m.text.clone(),
                                cell: g.name(c).to_string(),
                            };
                        }
                    }
                }
                match occupant {
                    None if m.mode == CaptureMode::Capturing => {
                        return Reason::OnlyCaptures {
                            pattern: m.text.clone(),
                        };
                    }
                    None => return Reason::NotLegal,
                    Some(_) if m.mode == CaptureMode::Quiet => {
                        return Reason::NotEmpty {
                            pattern: m.text.clone(),
                        };
                    }
                    Some(t) => (t, to),
                }
            }
        };
        let env = PlayEnv {
            mover: Some(Value::Piece(piece, from)),
            target: Some(Value::Piece(target, target_cell)),
            from: Some(from),
            to: Some(to),
            ..PlayEnv::new(rules, state, player)
        };
        for r in &rules.spec().capture {
            if !r.expr.test(core, &env).unwrap_or(false) {
                return Reason::Capture(r.name.clone());
            }
        }
        if let Pattern::Hop { over: Some(o), .. } = &m.pattern
            && !o.test(core, &env).unwrap_or(false)
        {
            return Reason::Condition(m.text.clone());
        }
        Reason::NotLegal
    }

    /// The number of pieces of this kind and owner placed since set-up.
    pub fn placed(&self, kind: KindId, owner: Player) -> usize {
        self.placed[Piece::new(kind, owner).code()] as usize
    }
}
