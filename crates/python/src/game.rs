//! A loaded pack: `plygames.load`, `plygames.load_str` and the `Game` they return.

use crate::actions::{ActionSpace, Decoded};
use crate::errors::{ActionError, PositionError, pack_error};
use crate::observe::Planes;
use crate::state::State;
use ply_kernel::{Position, Rules};
use ply_lang::{OptionArg, OptionValue, Options, Pack};
use ply_search::{Evaluator, Weights};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};
use std::sync::Arc;

/// What every state of a game shares: the pack, its action encoding, its observation planes
/// and the evaluation the engines use.
#[derive(Debug)]
pub struct Inner {
    /// The loaded pack.
    pub pack: Pack,
    /// Its compiled rules.
    pub rules: Arc<Rules>,
    /// The numbering of its moves.
    pub space: ActionSpace,
    /// The planes of its observation tensor.
    pub planes: Planes,
    /// What the engines judge positions by: the pack's `[eval]`, or piece count.
    pub eval: Arc<dyn Evaluator>,
}

impl Inner {
    /// What an action names, or `ActionError` for a number outside the action space (or
    /// naming a cell off the board).
    pub fn decode(&self, action: usize) -> PyResult<Decoded> {
        self.space.decode(&self.rules, action).ok_or_else(|| {
            ActionError::new_err(format!(
                "action {action} is not an action of {}: the actions are 0 to {}, and a cell \
                 an action names must be on the board",
                self.rules.name(),
                self.space.size() - 1
            ))
        })
    }

    fn new(pack: Pack) -> Inner {
        let rules = pack.rules.clone();
        let eval: Arc<dyn Evaluator> = Arc::new(Weights::of_pack(&pack));
        Inner {
            space: ActionSpace::new(&rules),
            planes: Planes::new(&rules),
            rules,
            pack,
            eval,
        }
    }
}

/// Option values from a Python dict: `bool`, `int`, or `str` (read by the option's type).
fn options(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut out = Options::new();
    let Some(dict) = dict else {
        return Ok(out);
    };
    for (k, v) in dict.iter() {
        let name: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("option names must be strings"))?;
        let value = if v.is_instance_of::<PyBool>() {
            OptionArg::Value(OptionValue::Bool(v.extract()?))
        } else if v.is_instance_of::<PyInt>() {
            let i: i64 = v.extract()?;
            OptionArg::Value(OptionValue::Int(i))
        } else if v.is_instance_of::<PyString>() {
            OptionArg::Text(v.extract()?)
        } else {
            return Err(PyTypeError::new_err(format!(
                "option `{name}` must be a bool, an int or a str, not {}",
                v.get_type().name()?
            )));
        };
        out = out.set(name, value);
    }
    Ok(out)
}

/// Loads the pack at `path` (a `str` or `os.PathLike`), with option values (`bool`, `int`,
/// or `str` read by the option's declared type). Raises `PackError` with every problem.
#[pyfunction]
#[pyo3(signature = (path, options=None))]
pub fn load(
    py: Python<'_>,
    path: std::path::PathBuf,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    let opts = self::options(options)?;
    let loaded = py.detach(|| ply_lang::load_with(&path, &opts));
    match loaded {
        Ok(pack) => Ok(Game::from_pack(pack)),
        Err(e) => Err(pack_error(py, &e)),
    }
}

/// Loads a pack from its text; `name` is the file name diagnostics give, and `extends` paths
/// are read from the current directory.
#[pyfunction]
#[pyo3(signature = (text, name="pack.toml", options=None))]
pub fn load_str(
    py: Python<'_>,
    text: &str,
    name: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Game> {
    let opts = self::options(options)?;
    match ply_lang::load_str_with(name, text, &opts) {
        Ok(pack) => Ok(Game::from_pack(pack)),
        Err(e) => Err(pack_error(py, &e)),
    }
}

/// A game from the resolved text of a pack (what `Game.__reduce__` pickles).
#[pyfunction]
pub fn _game_from_resolved(py: Python<'_>, text: &str, name: &str) -> PyResult<Game> {
    load_str(py, text, name, None)
}

/// A loaded pack: its facts, its action encoding and observation shape, and its states.
#[pyclass(frozen, module = "plygames")]
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) inner: Arc<Inner>,
}

impl Game {
    fn from_pack(pack: Pack) -> Game {
        Game {
            inner: Arc::new(Inner::new(pack)),
        }
    }
}

#[pymethods]
impl Game {
    /// The game's name, as the pack gives it.
    #[getter]
    fn name(&self) -> &str {
        self.inner.rules.name()
    }

    /// The two players' names, first to move first.
    #[getter]
    fn players(&self) -> Vec<String> {
        let core = self.inner.rules.core();
        ply_kernel::Player::ALL
            .iter()
            .map(|p| core.player_name(*p).to_string())
            .collect()
    }

    /// Rows of the board.
    #[getter]
    fn rows(&self) -> usize {
        self.inner.rules.geometry().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> usize {
        self.inner.rules.geometry().cols()
    }

    /// The kinds of piece, by name, in the pack's order.
    #[getter]
    fn kinds(&self) -> Vec<String> {
        let r = &self.inner.rules;
        r.kinds().map(|k| r.kind_name(k).to_string()).collect()
    }

    /// The option values in force, by name.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in &self.inner.pack.options {
            match o.value {
                OptionValue::Bool(b) => d.set_item(&o.name, b)?,
                OptionValue::Int(i) => d.set_item(&o.name, i)?,
            }
        }
        Ok(d)
    }

    /// The problems that did not stop the pack from loading.
    #[getter]
    fn warnings(&self) -> Vec<crate::errors::Diagnostic> {
        crate::errors::diagnostics(&self.inner.pack.sources, &self.inner.pack.warnings)
    }

    /// The pack with `extends` and options applied, as TOML.
    #[getter]
    fn resolved(&self) -> &str {
        &self.inner.pack.resolved
    }

    /// Whether the pack reads and writes FEN.
    #[getter]
    fn has_fen(&self) -> bool {
        self.inner.rules.has_fen()
    }

    /// The number of actions: every action is an integer from 0 below it (see
    /// `action_layout`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.space.size()
    }

    /// The factors of the action encoding: `cells` (N), `choices` (C), `seconds` (S),
    /// `removals` (X), `routes` (R), `piece_moves` (N*N*C*S*X*R, or 0), `placements`
    /// (placement patterns, N*S*X actions each) and `pass`.
    #[getter]
    fn action_layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = self.inner.space.layout();
        let d = PyDict::new(py);
        d.set_item("cells", l.cells)?;
        d.set_item("choices", l.choices)?;
        d.set_item("seconds", l.seconds)?;
        d.set_item("removals", l.removals)?;
        d.set_item("routes", l.routes)?;
        d.set_item("piece_moves", l.piece_moves)?;
        d.set_item("placements", l.placements)?;
        d.set_item("pass", l.pass)?;
        Ok(d)
    }

    /// The shape of `State.observation()`: (planes, rows, cols).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.inner.planes.len(), self.rows(), self.cols())
    }

    /// What each plane of the observation holds, in order.
    #[getter]
    fn observation_planes(&self) -> Vec<String> {
        self.inner.planes.names()
    }

    /// An action in words, whatever the position: the cells it names (`a7-a6`, `e7-e8=Q`,
    /// `d1-d7/g7`, `e5`, `pass`), and its route or placement pattern when not the first
    /// (`c1-e3 (route 2)`). Raises `ActionError` for a number outside the action space or
    /// naming a cell off the board.
    fn describe_action(&self, action: usize) -> PyResult<String> {
        let d = self.inner.decode(action)?;
        Ok(self.inner.space.text(&self.inner.rules, &d))
    }

    /// The standard starting position.
    fn start(&self) -> State {
        State::new(
            self.inner.clone(),
            Position::start(self.inner.rules.clone()),
        )
    }

    /// A position from a position string (or FEN, for a pack with a FEN mapping), with no
    /// history. Raises `PositionError`.
    fn state(&self, position: &str) -> PyResult<State> {
        let pos = Position::from_position_string(self.inner.rules.clone(), position)
            .map_err(|e| PositionError::new_err(e.to_string()))?;
        Ok(State::new(self.inner.clone(), pos))
    }

    /// A position from FEN, for a pack with a FEN mapping. Raises `PositionError`.
    #[pyo3(name = "from_fen")]
    fn state_from_fen(&self, fen: &str) -> PyResult<State> {
        if !self.inner.rules.has_fen() {
            return Err(PositionError::new_err(format!(
                "{} has no FEN mapping",
                self.inner.rules.name()
            )));
        }
        let pos = Position::from_fen(self.inner.rules.clone(), fen)
            .map_err(|e| PositionError::new_err(e.to_string()))?;
        Ok(State::new(self.inner.clone(), pos))
    }

    /// Pickles as the resolved text of the pack (`extends` and options applied), loaded
    /// again on unpickling.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let f = py
            .import("plygames._core")?
            .getattr("_game_from_resolved")?;
        let name = self
            .inner
            .pack
            .sources
            .get(0)
            .map_or_else(|| "pack.toml".to_string(), |f| f.name.clone());
        Ok((f, (self.inner.pack.resolved.clone(), name)))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|o| Arc::ptr_eq(&self.inner, &o.get().inner))
    }

    fn __hash__(&self) -> u64 {
        Arc::as_ptr(&self.inner) as u64
    }

    fn __repr__(&self) -> String {
        format!(
            "<plygames.Game {} ({}x{}, {} actions)>",
            self.name(),
            self.rows(),
            self.cols(),
            self.num_actions()
        )
    }
}
