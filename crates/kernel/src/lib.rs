//! The Ply kernel: everything a grid board game needs at run time, and nothing about any
//! particular game.
//!
//! # Stages
//!
//! 1. **What a front end hands over** ([`spec`]): a [`RulesSpec`], the unchecked description of
//!    a game (board, zones, kinds and their move patterns, rules as [`expr::Expr`] trees,
//!    setup). The `ply-lang` crate builds one from a rule pack; any other front end may.
//! 2. **The compiler** ([`Rules::new`]), the only code that reads a spec: it checks it, reports
//!    every problem with the [`spec::Site`] it comes from, and evaluates every predicate that
//!    does not read the position, for every case, into lookup tables.
//! 3. **The tables play reads** ([`Rules`]): target lists and bitboard step groups, capture and
//!    blocking bit tables, end rules as arrival sets and counter comparisons, and what cannot
//!    be tabulated kept as expressions to evaluate during play.
//!    Each construct beyond a piece's own pattern (placements, passes, second parts,
//!    effects, royal pieces, captures of a passing piece, compound moves, choices of
//!    promotion) is one module of `construct/` behind one internal interface: its checks, its
//!    tables, its moves and its part of make.
//! 4. **The position** ([`Position`]): the state, generation (allocation-free, by callback
//!    that can stop early, or into a [`MoveList`]), `make_unchecked`/`unmake_unchecked`, the
//!    end checks, and perft and playouts. [`Position::play`] and [`Game`] check moves from
//!    outside; a refused move is explained ([`MoveError`], [`Reason`]) by generation's own
//!    checks run on it, so that what is generated and what is explained cannot disagree.
//!
//! Nothing grows without bound: a position with more than [`MAX_MOVES`] legal moves, or a hop
//! chain past [`MAX_HOPS`] hops, is refused with [`MoveLimit`]; an expression nested deeper
//! than [`MAX_EXPR_DEPTH`] is refused when compiling.
//!
//! The kernel does no parsing of rule packs and no file I/O.
//!
//! # Example
//!
//! A 3x3 board where stones step orthogonally, built by hand:
//!
//! ```
//! use ply_kernel::spec::{KindSpec, MoveSpec, Pattern, PlayerSpec, RulesSpec};
//! use ply_kernel::{DirSet, Game, Geometry, KindId, Piece, Player, Rules, Status};
//! use std::sync::Arc;
//!
//! let g = Geometry::new(3, 3).unwrap();
//! let orthogonal = DirSet(0b0101_0101);
//! let mut stone = KindSpec::new("Stone", "S");
//! stone.moves.push(MoveSpec::new(
//!     "step orthogonal",
//!     Pattern::Step,
//!     [orthogonal, orthogonal],
//! ));
//! let kind = KindId::new(0).unwrap();
//! let players = [PlayerSpec::new("W", "W"), PlayerSpec::new("B", "B")];
//! let mut spec = RulesSpec::new("Stones", g.clone(), players);
//! spec.kinds.push(stone);
//! spec.setup = vec![
//!     (Piece::new(kind, Player::FIRST), g.parse_cell("a1").unwrap()),
//!     (Piece::new(kind, Player::SECOND), g.parse_cell("c3").unwrap()),
//! ];
//! let rules = Arc::new(Rules::new(spec).expect("a valid spec"));
//! let mut game = Game::new(rules.clone());
//! assert_eq!(game.legal_moves().unwrap().len(), 2);
//! let path = [g.parse_cell("a1").unwrap(), g.parse_cell("a2").unwrap()];
//! assert_eq!(game.play_path(None, &path), Ok(Status::ToMove(Player::SECOND)));
//! assert_eq!(game.position().to_position_string(), "2BS/WS2/3 B");
//! ```
#![deny(missing_docs)]

mod cell;
mod compile;
mod construct;
mod error;
pub mod expr;
mod facts;
mod fen;
mod forms;
mod formula;
mod game;
mod geometry;
mod groups;
mod limits;
mod moves;
mod notation;
mod piece;
mod position;
mod reason;
mod render;
mod rng;
mod rules;
mod shapes;
pub mod spec;
mod status;
mod tables;
#[cfg(test)]
mod tests;
mod verdict;

pub use cell::{Cell, CellSet, MAX_CELLS, MAX_COLS, MAX_ROWS};
pub use error::{MoveError, MoveErrorKind, PlaceError, PlaceErrorKind};
pub use expr::MAX_EXPR_DEPTH;
pub use facts::{Core, StandingError};
pub use forms::MoveForms;
pub use game::Game;
pub use geometry::{CellName, Dir, DirSet, Geometry, GeometryError, column_index, column_name};
pub use limits::{
    MAX_END_RULES, MAX_FAR_HOP_LENGTH, MAX_FAR_HOPS, MAX_GROUP_BOARD_CELLS, MAX_HOPS, MAX_MOVES,
    MAX_PASSED_CELLS, MAX_TABLE_BITS, MAX_TURN_MOVES, MoveLimit,
};
pub use moves::{Move, MoveList, MoveParts};
pub use notation::{
    NotationError, NotationErrorKind, PositionError, PositionErrorKind, move_text, parse_move,
    parse_path, split_choice,
};
pub use piece::{KindId, MAX_KINDS, PIECE_CODES, PLAYERS, Piece, Player};
pub use position::{NullUndo, Playout, Position, Undo};
pub use reason::{PatternId, Reason, RuleId, Section};
pub use rng::Rng;
pub use rules::{MAX_REPETITION_LOOKBACK, Rules};
pub use shapes::leap_images_towards;
pub use spec::{RulesError, RulesSpec};
pub use status::{EndReason, Outcome, Status};
