//! The Ply kernel: everything a grid board game needs at run time, and nothing about any
//! particular game.
//!
//! A game arrives as a [`RulesSpec`] (built by a front end such as the `ply-lang` crate from a
//! rule pack). [`Rules::new`] checks it and compiles its predicates into lookup tables.
//! [`Position`] is the fast state: legal moves without allocation, make and unmake, perft and
//! random playouts. [`Game`] wraps a position for moves from outside: it explains a refused
//! move by the name of the rule that refused it, and keeps undo and redo.
//!
//! The kernel does no parsing of rule packs and no file I/O.
#![deny(missing_docs)]

mod cell;
mod compile;
mod error;
pub mod expr;
mod facts;
mod game;
mod geometry;
mod moves;
pub mod notation;
mod piece;
mod position;
mod reason;
mod render;
mod rng;
mod rules;
pub mod spec;
mod status;
mod tables;
#[cfg(test)]
mod tests;
mod verdict;

pub use cell::{Cell, CellSet, MAX_CELLS, MAX_COLS, MAX_ROWS};
pub use error::{MoveError, MoveErrorKind, MoveLimit, PlaceError, PlaceErrorKind};
pub use expr::MAX_EXPR_DEPTH;
pub use facts::Core;
pub use game::Game;
pub use geometry::{CellName, Dir, DirSet, Geometry, GeometryError};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::{NotationError, PositionError, move_text, parse_path};
pub use piece::{KindId, MAX_KINDS, PIECE_CODES, PLAYERS, Piece, Player};
pub use position::{Playout, Position, Undo};
pub use reason::{PatternId, Reason, RuleId, Section};
pub use rng::Rng;
pub use rules::{MAX_HOPS, REPETITION_WINDOW, Rules};
pub use spec::{RulesError, RulesSpec};
pub use status::{Outcome, Status};
