//! Opponents and analysis for any Ply game: alpha-beta ([`AlphaBeta`]) and Monte Carlo tree
//! search ([`Mcts`]) over the kernel's [`Position`], an evaluation ([`Weights`], material by
//! piece count unless a front end declares more), and players described by a short text
//! ([`EngineSpec`]: `random`, `mcts:2s`, `mcts:20000`, `alphabeta:depth=6`) that choose moves
//! ([`Engine`]).
//!
//! Nothing here knows a game: the searches see moves, keys, outcomes and an evaluation.
//!
//! # Example
//!
//! ```
//! use ply_search::{Engine, EngineSpec, Weights};
//! use ply_kernel::Position;
//! use std::sync::Arc;
//!
//! let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/breakthrough.toml");
//! let rules = ply_lang::load(pack, &[]).unwrap().rules;
//! let spec: EngineSpec = "alphabeta:depth=3".parse().unwrap();
//! let mut engine = Engine::new(&spec, Arc::new(Weights::material(&rules)));
//! let choice = engine.choose(&Position::start(rules)).unwrap();
//! assert_eq!(choice.depth, Some(3));
//! ```
#![deny(missing_docs)]

pub mod alphabeta;
mod engine;
pub mod eval;
pub mod mcts;
pub mod score;
pub mod tune;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig, Info, TableError};
pub use engine::{
    CapError, Caps, Choice, Engine, EngineKind, EngineSpec, MAX_ENGINE_NODES, MAX_ENGINE_THREADS,
    MAX_TABLE_BITS, MAX_TIME, SpecError, parse_duration,
};
pub use eval::{Evaluator, PIECE_VALUE, Weights};
pub use mcts::{Mcts, MctsConfig, MctsInfo, MoveStats};
pub use score::Score;

use ply_kernel::{MoveLimit, Status};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A flag another thread sets to stop a search early (the search returns what it has).
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag, not set.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Sets the flag.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it is set.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// When a search stops: the first limit reached. Without any, alpha-beta searches until a
/// proven result or its deepest depth, MCTS runs 1000 iterations.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Alpha-beta: the deepest iteration.
    pub depth: Option<u32>,
    /// Time from the start of the search.
    pub time: Option<Duration>,
    /// Alpha-beta: positions visited; MCTS: iterations when `iterations` is not given.
    pub nodes: Option<u64>,
    /// MCTS: iterations over all threads.
    pub iterations: Option<u64>,
    /// A flag that stops the search.
    pub stop: Option<Stop>,
}

impl Limits {
    /// A time limit.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }

    /// A depth limit.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// An iteration limit (MCTS).
    pub fn iterations(n: u64) -> Limits {
        Limits {
            iterations: Some(n),
            ..Limits::default()
        }
    }
}

/// Why a search found no move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The position has no move to search: the game is over, or the side to move is stuck.
    #[error("no move to search: {}", describe(.0))]
    NoMove(Status),
    /// The position has more moves than the kernel generates.
    #[error(transparent)]
    Limit(#[from] MoveLimit),
    /// The search was stopped before it found any move.
    #[error("the search was stopped before it found a move")]
    Stopped,
}

fn describe(s: &Status) -> String {
    match s {
        Status::Over(ply_kernel::Outcome::Draw) => "the game is over (a draw)".into(),
        Status::Over(ply_kernel::Outcome::Win(p)) => {
            format!("the game is over (player {} won)", p.index() + 1)
        }
        Status::Stuck(p) => format!("player {} has no legal move", p.index() + 1),
        Status::ToMove(p) => format!("player {} has no legal move", p.index() + 1),
    }
}
