//! `Batch`: many games of one pack stepped in one call, for throughput. A game that ends
//! (over, stuck, or at the ply cap) starts again from the batch's start position.

use crate::errors::{ActionError, PlyError};
use crate::game::{Game, Inner};
use crate::state::{State, numbered, returns};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use ply_kernel::{Move, Outcome, Position, Rng, Status};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// One game of a batch.
#[derive(Clone, Debug)]
struct Slot {
    pos: Position,
    plies: u32,
}

/// How one step left a game.
#[derive(Clone, Copy, Debug, Default)]
struct Stepped {
    rewards: [f64; 2],
    /// The game ended: over, or a side stuck.
    terminated: bool,
    /// The game reached the ply cap.
    truncated: bool,
}

/// Many games of one pack, stepped together.
#[pyclass(module = "plygames")]
#[derive(Debug)]
pub struct Batch {
    inner: Arc<Inner>,
    start: Position,
    slots: Vec<Slot>,
    max_plies: u32,
}

impl Batch {
    /// Plays `m` in game `i`, and starts it again if that ended it.
    fn advance(&mut self, i: usize, m: Move) -> Stepped {
        let slot = &mut self.slots[i];
        slot.pos.make_unchecked(m);
        slot.plies += 1;
        let status = slot.pos.status();
        let terminated = !matches!(status, Status::ToMove(_));
        let truncated = !terminated && slot.plies >= self.max_plies;
        if terminated || truncated {
            slot.pos = self.start.clone();
            slot.plies = 0;
        }
        Stepped {
            rewards: returns(status),
            terminated,
            truncated,
        }
    }
}

impl Batch {
    /// `Batch.play_random`'s loop: whether a game ended is read from the last move's
    /// verdict, and a position with no move (a side stuck, or an end decided by having no
    /// move) is found when the next step finds no move to play, so that each step generates
    /// moves once.
    fn random_steps(&mut self, steps: u64, seed: u64) -> Result<[u64; 6], ply_kernel::MoveLimit> {
        let mut rng = Rng::new(seed);
        // moves, finished, wins of each player, draws, capped.
        let mut t = [0u64; 6];
        let finish = |t: &mut [u64; 6], outcome: Option<Outcome>, capped: bool| {
            t[1] += 1;
            match (outcome, capped) {
                (Some(Outcome::Win(w)), _) => t[2 + w.index()] += 1,
                (Some(Outcome::Draw), _) => t[4] += 1,
                (None, true) => t[5] += 1,
                (None, false) => {}
            }
        };
        for _ in 0..steps {
            for slot in &mut self.slots {
                let m = match slot.pos.random_move(&mut rng)? {
                    Some(m) => m,
                    None => {
                        let outcome = match slot.pos.status() {
                            Status::Over(o) => Some(o),
                            _ => None,
                        };
                        finish(&mut t, outcome, false);
                        slot.pos = self.start.clone();
                        slot.plies = 0;
                        // `new` checked that the start position has a move.
                        let Some(m) = slot.pos.random_move(&mut rng)? else {
                            continue;
                        };
                        m
                    }
                };
                slot.pos.make_unchecked(m);
                slot.plies += 1;
                t[0] += 1;
                let decided = slot.pos.decided();
                let capped = decided.is_none() && slot.plies >= self.max_plies;
                if decided.is_some() || capped {
                    finish(&mut t, decided, capped);
                    slot.pos = self.start.clone();
                    slot.plies = 0;
                }
            }
        }
        Ok(t)
    }
}

#[pymethods]
impl Batch {
    /// `size` games of `game`, each from `start` (a State of that game; default the standard
    /// start), each stopped as a draw after `max_plies` plies.
    #[new]
    #[pyo3(signature = (game, size, start=None, max_plies=1000))]
    fn new(game: &Game, size: usize, start: Option<&State>, max_plies: u32) -> PyResult<Batch> {
        let inner = game.inner.clone();
        let start = match start {
            Some(s) if !Arc::ptr_eq(&s.inner, &inner) => {
                return Err(PlyError::new_err("the start state is of another game"));
            }
            Some(s) => s.pos.clone(),
            None => Position::start(inner.rules.clone()),
        };
        if !matches!(start.status(), Status::ToMove(_)) {
            return Err(PlyError::new_err("the start position has no move to play"));
        }
        if max_plies == 0 {
            return Err(PlyError::new_err("max_plies must be at least 1"));
        }
        let slots = vec![
            Slot {
                pos: start.clone(),
                plies: 0
            };
            size
        ];
        Ok(Batch {
            inner,
            start,
            slots,
            max_plies,
        })
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Game `i`'s current position, as an independent State.
    fn state(&self, i: usize) -> PyResult<State> {
        let slot = self.slots.get(i).ok_or_else(|| {
            PlyError::new_err(format!("no game {i} in a batch of {}", self.slots.len()))
        })?;
        Ok(State::new(self.inner.clone(), slot.pos.clone()))
    }

    /// The observations of every game: float32 of shape (size, planes, rows, cols).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray4<f32>>> {
        let planes = &self.inner.planes;
        let one = planes.size();
        let mut out = vec![0.0; one * self.slots.len()];
        py.detach(|| {
            for (slot, chunk) in self.slots.iter().zip(out.chunks_mut(one.max(1))) {
                planes.write(&slot.pos, chunk);
            }
        });
        let g = self.inner.rules.geometry();
        PyArray1::from_vec(py, out).reshape([self.slots.len(), planes.len(), g.rows(), g.cols()])
    }

    /// The legal-action masks of every game: bool of shape (size, num_actions).
    fn legal_action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let n = self.inner.space.size();
        let mut out = vec![false; n * self.slots.len()];
        for (slot, row) in self.slots.iter().zip(out.chunks_mut(n)) {
            for (a, _) in numbered(&self.inner, &slot.pos)? {
                row[a] = true;
            }
        }
        PyArray1::from_vec(py, out).reshape([self.slots.len(), n])
    }

    /// Plays one action in every game (`actions[i]` in game `i`). Returns the rewards,
    /// float64 of shape (size, 2) by player index (1 win, -1 loss, 0 otherwise, given when a
    /// game ends); `terminated`, bool of shape (size,), the games that ended (over, or a
    /// side stuck); and `truncated`, the games that reached `max_plies`. Those games start
    /// again. Raises `IllegalMoveError` or `ActionError` for an action not legal in its
    /// game (the exception's `game` is the game's index), before any game is stepped.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f64>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let actions = actions.as_slice()?;
        if actions.len() != self.slots.len() {
            return Err(ActionError::new_err(format!(
                "{} actions for a batch of {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        let mut moves = Vec::with_capacity(actions.len());
        for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let legal = numbered(&self.inner, &slot.pos)?;
            let found = usize::try_from(a)
                .ok()
                .and_then(|a| legal.binary_search_by_key(&a, |(x, _)| *x).ok());
            match found {
                Some(k) => moves.push(legal[k].1),
                None => {
                    let state = State::new(self.inner.clone(), slot.pos.clone());
                    let a = usize::try_from(a).map_err(|_| {
                        ActionError::new_err(format!("game {i}: action {a} is negative"))
                    })?;
                    let err = state.refuse_action(py, a);
                    err.value(py).setattr("game", i)?;
                    return Err(err);
                }
            }
        }
        let stepped: Vec<Stepped> = py.detach(|| {
            moves
                .iter()
                .enumerate()
                .map(|(i, &m)| self.advance(i, m))
                .collect()
        });
        let rewards: Vec<f64> = stepped.iter().flat_map(|s| s.rewards).collect();
        let terminated: Vec<bool> = stepped.iter().map(|s| s.terminated).collect();
        let truncated: Vec<bool> = stepped.iter().map(|s| s.truncated).collect();
        Ok((
            PyArray1::from_vec(py, rewards).reshape([self.slots.len(), 2])?,
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
        ))
    }

    /// Plays `steps` uniformly random moves in every game, seeded, in Rust with the GIL
    /// released; games that end start again. Returns counts over all games: `moves`,
    /// `finished`, `wins` (by player index), `draws`, `capped` and `stuck`.
    #[pyo3(signature = (steps, seed=0))]
    fn play_random<'py>(
        &mut self,
        py: Python<'py>,
        steps: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let tally = py.detach(|| self.random_steps(steps, seed));
        let t = tally.map_err(|e| PlyError::new_err(e.to_string()))?;
        let d = PyDict::new(py);
        d.set_item("moves", t[0])?;
        d.set_item("finished", t[1])?;
        d.set_item("wins", (t[2], t[3]))?;
        d.set_item("draws", t[4])?;
        d.set_item("capped", t[5])?;
        d.set_item("stuck", t[1] - t[2] - t[3] - t[4] - t[5])?;
        Ok(d)
    }
}
