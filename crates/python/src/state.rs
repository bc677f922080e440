//! `State`: a position of a game and the moves that led to it from where it was created.

use crate::actions::Decoded;
use crate::errors::{ActionError, NotationError, PlyError, PositionError, illegal, illegal_with};
use crate::game::{Game, Inner};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use ply_kernel::{Move, Outcome, Player, Position, Rng, Status, Undo, move_text, parse_move};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// Where a game stands, and what each player gets from it: 1 for a win, -1 for a loss, 0 for
/// a draw, a game still going on, or a side stuck with no move (no rule ends the game: a
/// game loop stops there).
pub fn returns(status: Status) -> [f64; 2] {
    match status {
        Status::Over(Outcome::Win(p)) if p == Player::FIRST => [1.0, -1.0],
        Status::Over(Outcome::Win(_)) => [-1.0, 1.0],
        _ => [0.0, 0.0],
    }
}

/// The legal moves of a position with their action numbers, in increasing order; none once
/// the game is decided.
pub fn numbered(inner: &Inner, pos: &Position) -> PyResult<Vec<(usize, Move)>> {
    if pos.decided().is_some() {
        return Ok(Vec::new());
    }
    let moves = pos
        .legal_moves()
        .map_err(|e| PlyError::new_err(e.to_string()))?;
    inner
        .space
        .number(&inner.rules, &moves)
        .map_err(|e| ActionError::new_err(e.to_string()))
}

/// A position of a game, with the moves played on it since it was created (for `undo`).
#[pyclass(module = "plygames")]
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) inner: Arc<Inner>,
    pub(crate) pos: Position,
    pub(crate) history: Vec<(Move, Undo)>,
    /// The numbered legal moves of the position, once asked for (a step asks for them twice:
    /// to choose an action, then to play it); forgotten when the position changes.
    legal: Option<Arc<Vec<(usize, Move)>>>,
}

impl State {
    pub(crate) fn new(inner: Arc<Inner>, pos: Position) -> State {
        State {
            inner,
            pos,
            history: Vec::new(),
            legal: None,
        }
    }

    /// The numbered legal moves (see [`numbered`]), computed once per position.
    fn legal(&mut self) -> PyResult<Arc<Vec<(usize, Move)>>> {
        if let Some(l) = &self.legal {
            return Ok(l.clone());
        }
        let l = Arc::new(numbered(&self.inner, &self.pos)?);
        self.legal = Some(l.clone());
        Ok(l)
    }

    /// Plays a move generated for this position.
    pub(crate) fn make(&mut self, m: Move) {
        self.legal = None;
        let undo = self.pos.make_unchecked(m);
        self.history.push((m, undo));
    }

    /// Why `action` is not one of `legal`: out of range, or the kernel's reason for the move
    /// it names.
    pub(crate) fn refuse_action(&self, py: Python<'_>, action: usize) -> PyErr {
        let d = match self.inner.decode(action) {
            Ok(d) => d,
            Err(e) => return e,
        };
        let text = self.inner.space.text(&self.inner.rules, &d);
        let (path, choice) = match d {
            Decoded::Pass => (Vec::new(), None),
            Decoded::Place {
                cell,
                second,
                removal,
                ..
            } => (
                [Some(cell), second, removal]
                    .into_iter()
                    .flatten()
                    .collect(),
                None,
            ),
            Decoded::Piece {
                from,
                to,
                choice,
                second,
                removal,
                ..
            } => (
                [Some(from), Some(to), second, removal]
                    .into_iter()
                    .flatten()
                    .collect(),
                choice,
            ),
        };
        let layout = self.inner.space.layout();
        if let Decoded::Piece { route, .. } = d
            && layout.routes > 1
        {
            // Hop chains with these ends: the legal ones take the first routes.
            let base = action - route;
            let chains = match numbered(&self.inner, &self.pos) {
                Ok(l) => l
                    .iter()
                    .filter(|(a, _)| (base..base + layout.routes).contains(a))
                    .count(),
                Err(e) => return e,
            };
            if chains > 0 {
                return illegal_with(
                    py,
                    &format!("action {action} ({text})"),
                    format!(
                        "action {action} ({text}) is not legal here: {chains} legal hop chain{} \
                         go{} that way, routes 1 to {chains}",
                        if chains == 1 { "" } else { "s" },
                        if chains == 1 { "es" } else { "" },
                    ),
                    None,
                );
            }
        }
        match self.pos.find_move_choosing(None, &path, choice) {
            Err(e) => illegal(py, &format!("action {action} ({text})"), &e),
            Ok(_) => illegal_with(
                py,
                &format!("action {action} ({text})"),
                format!(
                    "action {action} ({text}) is not legal here: the move it names is played by \
                     another action (another route, or another placement pattern)"
                ),
                None,
            ),
        }
    }

    /// Plays an action, or says why it is not legal.
    pub(crate) fn apply(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
        let legal = self.legal()?;
        match legal.binary_search_by_key(&action, |(a, _)| *a) {
            Ok(i) => {
                self.make(legal[i].1);
                Ok(())
            }
            Err(_) => Err(self.refuse_action(py, action)),
        }
    }
}

#[pymethods]
impl State {
    /// The game this is a state of.
    #[getter]
    fn game(&self) -> Game {
        Game {
            inner: self.inner.clone(),
        }
    }

    /// `"playing"`, `"over"`, or `"stuck"` (the side to move has no legal move and no rule
    /// ends the game: nothing can happen any more).
    #[getter]
    fn status(&self) -> &'static str {
        match self.pos.status() {
            Status::ToMove(_) => "playing",
            Status::Over(_) => "over",
            Status::Stuck(_) => "stuck",
        }
    }

    /// Whether nothing more can be played: the game is over, or the side to move is stuck.
    #[getter]
    fn is_terminal(&self) -> bool {
        !matches!(self.pos.status(), Status::ToMove(_))
    }

    /// The name of the player to move, or None once nothing more can be played.
    #[getter]
    fn to_move(&self) -> Option<String> {
        match self.pos.status() {
            Status::ToMove(p) => Some(self.inner.rules.player_name(p).to_string()),
            _ => None,
        }
    }

    /// The index (0 or 1) of the player to move, or None once nothing more can be played.
    #[getter]
    fn player(&self) -> Option<usize> {
        match self.pos.status() {
            Status::ToMove(p) => Some(p.index()),
            _ => None,
        }
    }

    /// The name of the winner, or None (the game goes on, was drawn, or is stuck).
    #[getter]
    fn winner(&self) -> Option<String> {
        match self.pos.status() {
            Status::Over(Outcome::Win(p)) => Some(self.inner.rules.player_name(p).to_string()),
            _ => None,
        }
    }

    /// Whether the game ended in a draw.
    #[getter]
    fn is_draw(&self) -> bool {
        self.pos.status() == Status::Over(Outcome::Draw)
    }

    /// What each player gets, by player index: 1 a win, -1 a loss, 0 otherwise.
    fn returns(&self) -> [f64; 2] {
        returns(self.pos.status())
    }

    /// Moves played since this state was created (undo takes them back).
    #[getter]
    fn ply(&self) -> usize {
        self.history.len()
    }

    /// The Zobrist key of the position (pieces, side to move and what else the rules keep).
    #[getter]
    fn key(&self) -> u64 {
        self.pos.hash()
    }

    /// The moves played since this state was created, in notation.
    fn history(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|(m, _)| move_text(&self.inner.rules, m))
            .collect()
    }

    /// The legal moves of the side to move in notation (`a7-a6`, `c1xc3xe3`, `e7-e8=Q`,
    /// `d1-d7/g7`, `e5` for a placement, `pass`), in the order of `legal_actions()`.
    fn legal_moves(&mut self) -> PyResult<Vec<String>> {
        Ok(self
            .legal()?
            .iter()
            .map(|(_, m)| move_text(&self.inner.rules, m))
            .collect())
    }

    /// The legal actions, in increasing order (empty once nothing can be played).
    fn legal_actions(&mut self) -> PyResult<Vec<usize>> {
        Ok(self.legal()?.iter().map(|(a, _)| *a).collect())
    }

    /// A boolean array of `Game.num_actions`, true at the legal actions.
    fn legal_action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut mask = vec![false; self.inner.space.size()];
        for &(a, _) in self.legal()?.iter() {
            mask[a] = true;
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The move an action plays here, in notation. Raises `IllegalMoveError` (or
    /// `ActionError` for a number outside the action space) when it is not legal here.
    fn action_to_move(&mut self, py: Python<'_>, action: usize) -> PyResult<String> {
        let legal = self.legal()?;
        match legal.binary_search_by_key(&action, |(a, _)| *a) {
            Ok(i) => Ok(move_text(&self.inner.rules, &legal[i].1)),
            Err(_) => Err(self.refuse_action(py, action)),
        }
    }

    /// The action of a legal move given in notation. Raises `NotationError` or
    /// `IllegalMoveError`.
    fn move_to_action(&mut self, py: Python<'_>, text: &str) -> PyResult<usize> {
        let m = self.find(py, text)?;
        let legal = self.legal()?;
        legal
            .iter()
            .find(|(_, x)| *x == m)
            .map(|(a, _)| *a)
            .ok_or_else(|| PlyError::new_err(format!("{text} was found but not numbered")))
    }

    /// Plays a move given in notation (read leniently: `a7-a6`, `A7A6`, `a7 a6`). Raises
    /// `NotationError` for text that is not a move, `IllegalMoveError` (with the refusing
    /// rule's name) for a move the rules refuse; either way nothing changes.
    fn play(&mut self, py: Python<'_>, text: &str) -> PyResult<()> {
        let m = self.find(py, text)?;
        self.make(m);
        Ok(())
    }

    /// Plays an action. Raises `IllegalMoveError` when it is not legal here (with the rule
    /// that refuses the move it names), `ActionError` for a number outside the action space.
    fn apply_action(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
        self.apply(py, action)
    }

    /// Takes back the last move and returns it in notation. Raises `PlyError` when no move
    /// was played since this state was created.
    fn undo(&mut self) -> PyResult<String> {
        let (m, undo) = self
            .history
            .pop()
            .ok_or_else(|| PlyError::new_err("no move to take back"))?;
        self.legal = None;
        self.pos.unmake_unchecked(m, undo);
        Ok(move_text(&self.inner.rules, &m))
    }

    /// An independent copy, history included.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// The position string (see the rules language's "Position strings").
    #[getter]
    fn position(&self) -> String {
        self.pos.to_position_string()
    }

    /// The position in FEN. Raises `PositionError` for a pack without a FEN mapping, and in
    /// the middle of a turn of several moves, which a FEN cannot say (`position` can).
    fn fen(&self) -> PyResult<String> {
        self.pos.to_fen().ok_or_else(|| {
            let name = self.inner.rules.name();
            PositionError::new_err(if self.pos.turn_moves() > 0 {
                format!("{name}: a FEN cannot say that the player moves again; use `position`")
            } else {
                format!("{name} has no FEN mapping")
            })
        })
    }

    /// The code of the piece on a cell (`"a7"`), or None. Raises `NotationError` for a cell
    /// the board does not have.
    fn piece_at(&self, cell: &str) -> PyResult<Option<String>> {
        let rules = &self.inner.rules;
        let c = rules.geometry().parse_cell(cell.trim()).ok_or_else(|| {
            NotationError::new_err(format!("`{cell}` is not a cell of this board"))
        })?;
        Ok(self
            .pos
            .piece_at(c)
            .map(|p| rules.core().code(p).to_string()))
    }

    /// The board, row by row from the top: each cell a piece code or None.
    fn board(&self) -> Vec<Vec<Option<String>>> {
        let rules = &self.inner.rules;
        let g = rules.geometry();
        (0..g.rows())
            .map(|r| {
                (0..g.cols())
                    .map(|c| {
                        g.rect_cell(r, c)
                            .and_then(|cell| self.pos.piece_at(cell))
                            .map(|p| rules.core().code(p).to_string())
                    })
                    .collect()
            })
            .collect()
    }

    /// The observation tensor, float32 of `Game.observation_shape` (see
    /// `Game.observation_planes`).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let planes = &self.inner.planes;
        let mut out = vec![0.0; planes.size()];
        planes.write(&self.pos, &mut out);
        let g = self.inner.rules.geometry();
        PyArray1::from_vec(py, out).reshape([planes.len(), g.rows(), g.cols()])
    }

    /// Counts the move sequences of `depth` moves from here, in Rust with the GIL released.
    fn perft(&mut self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let pos = &mut self.pos;
        py.detach(|| pos.perft(depth))
            .map_err(|e| PlyError::new_err(e.to_string()))
    }

    /// Plays `games` uniformly random games from here, seeded, in Rust with the GIL
    /// released; the state is unchanged. A game stops when it ends, when the side to move
    /// has no move, or after `max_plies`. Returns counts: `games`, `plies`, `wins` (by player
    /// index), `draws`, `capped` (stopped by `max_plies`) and `stuck`.
    #[pyo3(signature = (games, seed=0, max_plies=1000))]
    fn random_playouts<'py>(
        &mut self,
        py: Python<'py>,
        games: u64,
        seed: u64,
        max_plies: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let pos = &mut self.pos;
        let tally = py.detach(|| -> Result<[u64; 6], ply_kernel::MoveLimit> {
            let mut rng = Rng::new(seed);
            let mut t = [0u64; 6];
            for _ in 0..games {
                let p = pos.playout(&mut |n| rng.below(n), max_plies)?;
                t[0] += 1;
                t[1] += u64::from(p.plies);
                match p.outcome {
                    Some(Outcome::Win(w)) => t[2 + w.index()] += 1,
                    Some(Outcome::Draw) => t[4] += 1,
                    None if p.capped => t[5] += 1,
                    None => {}
                }
            }
            Ok(t)
        });
        let t = tally.map_err(|e| PlyError::new_err(e.to_string()))?;
        let d = PyDict::new(py);
        d.set_item("games", t[0])?;
        d.set_item("plies", t[1])?;
        d.set_item("wins", (t[2], t[3]))?;
        d.set_item("draws", t[4])?;
        d.set_item("capped", t[5])?;
        d.set_item("stuck", t[0] - t[2] - t[3] - t[4] - t[5])?;
        Ok(d)
    }

    /// One seeded random game from here, chosen in Rust (each move uniformly among the legal
    /// moves, with the kernel's generator): the moves it played, in notation. The state is
    /// unchanged.
    #[pyo3(signature = (seed=0, max_plies=1000))]
    fn random_game(&self, py: Python<'_>, seed: u64, max_plies: u32) -> PyResult<Vec<String>> {
        let mut pos = self.pos.clone();
        let rules = self.inner.rules.clone();
        py.detach(move || -> Result<Vec<String>, String> {
            let mut rng = Rng::new(seed);
            let mut out = Vec::new();
            while out.len() < max_plies as usize
                && let Status::ToMove(_) = pos.status()
            {
                let Some(m) = pos.random_move(&mut rng).map_err(|e| e.to_string())? else {
                    break;
                };
                out.push(move_text(&rules, &m));
                pos.play(m).map_err(|e| e.to_string())?;
            }
            Ok(out)
        })
        .map_err(PlyError::new_err)
    }

    /// Pickles as its game, the position it was created from and the actions played since.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Game, String, Vec<usize>))> {
        let mut pos = self.pos.clone();
        let mut actions = Vec::with_capacity(self.history.len());
        for &(m, undo) in self.history.iter().rev() {
            pos.unmake_unchecked(m, undo);
            let action = numbered(&self.inner, &pos)?
                .iter()
                .find(|(_, x)| *x == m)
                .map(|(a, _)| *a)
                .ok_or_else(|| PlyError::new_err("a move of the history is not numbered"))?;
            actions.push(action);
        }
        actions.reverse();
        let f = py.import("plygames._core")?.getattr("_state_from")?;
        Ok((f, (self.game(), pos.to_position_string(), actions)))
    }

    /// Equal when of the same game and in the same position: the same key and position
    /// string (the history of moves, and what the kernel keeps only to take them back, do
    /// not count).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<State>().is_ok_and(|o| {
            let o = o.borrow();
            Arc::ptr_eq(&o.inner, &self.inner)
                && o.pos.hash() == self.pos.hash()
                && o.pos.to_position_string() == self.pos.to_position_string()
        })
    }

    fn __str__(&self) -> String {
        self.pos.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "<plygames.State {}: {}>",
            self.inner.rules.name(),
            self.pos.to_position_string()
        )
    }
}

/// A state from a position string and the actions played since (what `State.__reduce__`
/// pickles).
#[pyfunction]
pub fn _state_from(
    py: Python<'_>,
    game: &Game,
    position: &str,
    actions: Vec<usize>,
) -> PyResult<State> {
    let pos = Position::from_position_string(game.inner.rules.clone(), position)
        .map_err(|e| PositionError::new_err(e.to_string()))?;
    let mut state = State::new(game.inner.clone(), pos);
    for a in actions {
        state.apply(py, a)?;
    }
    Ok(state)
}

impl State {
    /// The legal move written `text`, or why there is none.
    fn find(&self, py: Python<'_>, text: &str) -> PyResult<Move> {
        let rules = &self.inner.rules;
        let (path, choice) =
            parse_move(rules, text).map_err(|e| NotationError::new_err(e.to_string()))?;
        self.pos
            .find_move_choosing(None, &path, choice)
            .map_err(|e| illegal(py, text.trim(), &e))
    }
}
