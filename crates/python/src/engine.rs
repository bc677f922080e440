//! `Engine`: the engines of `ply-search` (`random`, `alphabeta`, `mcts`, with their specs)
//! asked for a move or an analysis, with the GIL released while they search.

use crate::errors::EngineError;
use crate::game::{Game, Inner};
use crate::state::{State, numbered};
use ply_kernel::{Move, Position, move_text};
use ply_search::{EngineSpec, SearchError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// A move an engine chose, and what it thought of it.
#[pyclass(frozen, get_all, module = "plygames")]
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move, in notation.
    #[pyo3(name = "move")]
    pub mv: String,
    /// Its action number.
    pub action: usize,
    /// Alpha-beta's score from the mover's view (`+0.25` in pieces, `win in 5` plies).
    pub score: Option<String>,
    /// MCTS's mean reward of the move for the mover, from 0 to 1.
    pub win_rate: Option<f64>,
    /// MCTS: True for a proven win, False for a proven loss.
    pub proven: Option<bool>,
    /// Alpha-beta's completed depth.
    pub depth: Option<u32>,
    /// Positions (alpha-beta) or iterations (MCTS) searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// The expected line, starting with the move, in notation.
    pub pv: Vec<String>,
}

#[pymethods]
impl Choice {
    fn __repr__(&self) -> String {
        let mut parts = vec![
            format!("move={:?}", self.mv),
            format!("action={}", self.action),
        ];
        if let Some(s) = &self.score {
            parts.push(format!("score={s:?}"));
        }
        if let Some(w) = self.win_rate {
            parts.push(format!("win_rate={w:.3}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        format!("Choice({})", parts.join(", "))
    }
}

/// An engine for one game, keeping what it learnt between moves (alpha-beta's table, the
/// MCTS tree).
#[pyclass(module = "plygames")]
#[derive(Debug)]
pub struct Engine {
    inner: Arc<Inner>,
    engine: ply_search::Engine,
}

/// A line of moves in notation, each played on the position before it.
fn line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in moves {
        out.push(move_text(p.rules(), &m));
        if p.play(m).is_err() {
            break;
        }
    }
    out
}

fn search_error(inner: &Inner, e: &SearchError) -> PyErr {
    let rules = &inner.rules;
    let text = match e {
        SearchError::NoMove(ply_kernel::Status::Over(ply_kernel::Outcome::Win(p))) => {
            format!(
                "nothing to search: the game is over, {} won",
                rules.player_name(*p)
            )
        }
        SearchError::NoMove(ply_kernel::Status::Over(ply_kernel::Outcome::Draw)) => {
            "nothing to search: the game is over, drawn".to_string()
        }
        SearchError::NoMove(ply_kernel::Status::Stuck(p) | ply_kernel::Status::ToMove(p)) => {
            format!(
                "nothing to search: {} has no legal move",
                rules.player_name(*p)
            )
        }
        other => other.to_string(),
    };
    EngineError::new_err(text)
}

impl Engine {
    fn choice(&self, state: &State, c: &ply_search::Choice) -> PyResult<Choice> {
        let action = numbered(&self.inner, &state.pos)?
            .iter()
            .find(|(_, m)| *m == c.mv)
            .map(|(a, _)| *a)
            .ok_or_else(|| {
                EngineError::new_err("the engine chose a move that is not legal here")
            })?;
        Ok(Choice {
            mv: move_text(&self.inner.rules, &c.mv),
            action,
            score: c.score.map(|s| s.to_string()),
            win_rate: c.value.map(|v| v.0),
            proven: c.value.and_then(|v| v.1),
            depth: c.depth,
            nodes: c.nodes,
            seconds: c.elapsed.as_secs_f64(),
            pv: line(&state.pos, &c.pv),
        })
    }

    fn check_game(&self, state: &State) -> PyResult<()> {
        if Arc::ptr_eq(&self.inner, &state.inner) {
            Ok(())
        } else {
            Err(EngineError::new_err(
                "this state is of another game than the engine's (load the pack once and \
                 make both from that Game)",
            ))
        }
    }
}

#[pymethods]
impl Engine {
    /// An engine for `game` described by `spec`, as `ply play --vs` takes it: `random`,
    /// `mcts:1s`, `mcts:20000`, `mcts:0.5s,threads=2,c=0.7,seed=5`, `alphabeta:depth=6`,
    /// `alphabeta:1s,tt=22`. Raises `EngineError` for a spec that does not read.
    #[new]
    fn new(game: &Game, spec: &str) -> PyResult<Engine> {
        let spec: EngineSpec = spec
            .parse()
            .map_err(|e: ply_search::SpecError| EngineError::new_err(e.to_string()))?;
        let inner = game.inner.clone();
        let engine = ply_search::Engine::new(&spec, inner.eval.clone());
        Ok(Engine { inner, engine })
    }

    /// The spec, written out in full.
    #[getter]
    fn spec(&self) -> String {
        self.engine.spec().to_string()
    }

    /// Forgets what was learnt, for a new game.
    fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Chooses a move for the side to move (not played), searching with the GIL released.
    /// Raises `EngineError` when there is no move to search.
    fn choose(&mut self, py: Python<'_>, state: &State) -> PyResult<Choice> {
        self.check_game(state)?;
        let pos = state.pos.clone();
        let engine = &mut self.engine;
        let c = py
            .detach(|| engine.choose(&pos))
            .map_err(|e| search_error(&self.inner, &e))?;
        self.choice(state, &c)
    }

    /// As `choose`, with alpha-beta's report of each completed depth: returns the choice and
    /// a list of dicts (`depth`, `seldepth`, `score`, `nodes`, `seconds`, `pv`); empty for
    /// the other engines.
    fn analyse<'py>(
        &mut self,
        py: Python<'py>,
        state: &State,
    ) -> PyResult<(Choice, Vec<Bound<'py, PyDict>>)> {
        self.check_game(state)?;
        let pos = state.pos.clone();
        let engine = &mut self.engine;
        let mut infos = Vec::new();
        let c = py
            .detach(|| engine.choose_with(&pos, None, &mut |i| infos.push(i.clone())))
            .map_err(|e| search_error(&self.inner, &e))?;
        let mut lines = Vec::new();
        for i in &infos {
            let d = PyDict::new(py);
            d.set_item("depth", i.depth)?;
            d.set_item("seldepth", i.seldepth)?;
            d.set_item("score", i.score.to_string())?;
            d.set_item("nodes", i.nodes)?;
            d.set_item("seconds", i.elapsed.as_secs_f64())?;
            d.set_item("pv", line(&pos, &i.pv))?;
            lines.push(d);
        }
        Ok((self.choice(state, &c)?, lines))
    }

    fn __repr__(&self) -> String {
        format!(
            "<plygames.Engine {} for {}>",
            self.engine.spec(),
            self.inner.rules.name()
        )
    }
}
