//! Static evaluation: how good a position looks to the side to move, without searching.
//!
//! [`Weights`] is the one evaluation the crate ships: a value for every piece on every cell
//! (its material plus a bonus by cell), and optionally a weight on mobility. Without anything
//! declared it is material by piece count ([`Weights::material`]); a front end fills it in from
//! what a pack declares ([`Weights::from_fn`]). A searcher takes any [`Evaluator`].

use ply_kernel::{Cell, MAX_CELLS, PIECE_CODES, Piece, Player, Position, Rules};
use std::ops::ControlFlow;

/// The value of one ordinary piece: scores are in hundredths of a piece.
pub const PIECE_VALUE: i32 = 100;

/// The largest evaluation an [`Evaluator`] may return in absolute value; larger ones are
/// clamped by the searchers, so that an evaluation never reads as a proven result.
pub const MAX_EVAL: i32 = 100_000;

/// A static evaluation.
pub trait Evaluator: Send + Sync + std::fmt::Debug {
    /// The position's value to the side to move, in hundredths of a piece ([`PIECE_VALUE`]);
    /// positive is good for the side to move. Called only on positions whose game is not over.
    fn evaluate(&self, pos: &Position) -> i32;

    /// The value of a piece wherever it stands, to order captures (most valuable victim
    /// first).
    fn piece_value(&self, piece: Piece) -> i32;

    /// Whether a search may assume that moving is never worse than passing in this game (no
    /// zugzwang to speak of), and so prune by null moves
    /// ([`crate::AlphaBetaConfig::null_move`]). A pack says so by `[eval] null_move = true`;
    /// false unless declared.
    fn null_move(&self) -> bool {
        false
    }
}

/// Values by piece and cell, and a mobility weight.
#[derive(Clone, Debug)]
pub struct Weights {
    /// `table[code * MAX_CELLS + cell]`: what a piece with this code on this cell is worth to
    /// its owner.
    table: Vec<i32>,
    /// The material part of each piece code, for capture ordering.
    material: Vec<i32>,
    /// Hundredths of a piece per legal move more than the opponent has (0: not counted).
    mobility: i32,
    /// Whether searches may prune by null moves ([`Evaluator::null_move`]).
    null_move: bool,
}

impl Weights {
    /// Material by piece count: every piece worth [`PIECE_VALUE`], wherever it stands.
    pub fn material(rules: &Rules) -> Weights {
        Weights::from_fn(rules, |_| PIECE_VALUE, |_, _| 0, 0)
    }

    /// Values from functions: `material(piece)` plus `bonus(piece, cell)` for each piece on
    /// each cell, and `mobility` hundredths per legal move (mobility costs a move generation
    /// for each side at every evaluation: a search gets much slower).
    pub fn from_fn(
        rules: &Rules,
        material: impl Fn(Piece) -> i32,
        bonus: impl Fn(Piece, Cell) -> i32,
        mobility: i32,
    ) -> Weights {
        let mut table = vec![0; PIECE_CODES * MAX_CELLS];
        let mut values = vec![0; PIECE_CODES];
        let core = rules.core();
        for piece in core.all_pieces() {
            let m = material(piece).clamp(-MAX_EVAL, MAX_EVAL);
            values[piece.code()] = m;
            for cell in rules.geometry().cells().iter() {
                table[piece.code() * MAX_CELLS + cell.index()] =
                    (m + bonus(piece, cell)).clamp(-MAX_EVAL, MAX_EVAL);
            }
        }
        Weights {
            table,
            material: values,
            mobility: mobility.clamp(-MAX_EVAL, MAX_EVAL),
            null_move: false,
        }
    }

    /// The weights a pack declares in `[eval]` (material, bonus, mobility, `null_move`), or
    /// material by piece count without it: what every front end's engines play with.
    pub fn of_pack(pack: &ply_lang::Pack) -> Weights {
        match &pack.eval {
            None => Weights::material(&pack.rules),
            Some(e) => Weights::from_fn(
                &pack.rules,
                |p| e.material[p.code()] as i32,
                |p, c| (e.value(p, c) - e.material[p.code()]) as i32,
                e.mobility as i32,
            )
            .with_null_move(e.null_move),
        }
    }

    /// These weights, saying whether searches may prune by null moves
    /// ([`Evaluator::null_move`]).
    pub fn with_null_move(mut self, on: bool) -> Weights {
        self.null_move = on;
        self
    }

    /// The mobility weight.
    pub fn mobility(&self) -> i32 {
        self.mobility
    }

    /// What `piece` on `cell` is worth to its owner.
    pub fn value(&self, piece: Piece, cell: Cell) -> i32 {
        self.table[piece.code() * MAX_CELLS + cell.index()]
    }

    fn moves_of(pos: &Position, player: Player) -> i32 {
        let mut n = 0;
        let _ = pos.for_each_move_of(player, |_| {
            n += 1;
            ControlFlow::<()>::Continue(())
        });
        n
    }
}

impl Evaluator for Weights {
    fn evaluate(&self, pos: &Position) -> i32 {
        let side = pos.side_to_move();
        let mut score: i64 = 0;
        for (cell, piece) in pos.pieces() {
            let v = self.table[piece.code() * MAX_CELLS + cell.index()] as i64;
            score += if piece.owner() == side { v } else { -v };
        }
        if self.mobility != 0 {
            let mine = Weights::moves_of(pos, side);
            let theirs = Weights::moves_of(pos, side.other());
            score += self.mobility as i64 * (mine - theirs) as i64;
        }
        score.clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }

    fn piece_value(&self, piece: Piece) -> i32 {
        self.material[piece.code()]
    }

    fn null_move(&self) -> bool {
        self.null_move
    }
}
