//! Independent reference move generators for chess and xiangqi, for the differential tests of
//! the chess and xiangqi rule packs.
//!
//! They are written from the rules as a person states them, in plain Rust, and use no project
//! crate and no dependency: simple and obviously correct rather than fast (a board is an array
//! of cells, a move is made on a copy, and a move is legal when the mover's king is not
//! attacked on the copy). Their perft numbers are checked against published counts in
//! `tests/chess_reference_perft.rs`.
//!
//! The module compiles and tests on its own:
//! `rustc --edition 2024 -O --test tests/chess_reference/mod.rs -o /tmp/chessref && /tmp/chessref`.
#![allow(dead_code)]

pub mod chess;
pub mod xiangqi;

/// The end of a game: a win for a player (0 moves first: white, red) or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// A tiny xorshift64* generator, so that the random games are seeded and reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any seed, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
