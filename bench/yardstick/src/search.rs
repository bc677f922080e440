//! Perft and random playouts, written once for every engine. They only generate, make and
//! unmake, so the engines differ there and nowhere else; each engine's `perft`, `perft_bulk`
//! and `playout` methods call these.

use crate::Playout;
use std::ops::Deref;

/// What perft and playouts need from an engine.
pub trait Engine: Copy {
    /// A move.
    type Move: Copy;
    /// What `make` returns for `unmake`.
    type Undo;
    /// A fixed-capacity move list.
    type List: Default + Deref<Target = [Self::Move]>;

    /// Appends the legal moves of the side to move (none once the game is over).
    fn generate(&self, out: &mut Self::List);

    /// Plays a move generated for this position.
    fn make(&mut self, m: Self::Move) -> Self::Undo;

    /// Takes back the last move made.
    fn unmake(&mut self, m: Self::Move, u: Self::Undo);

    /// `Some(winner)` once a move has ended the game (`winner` is a player index, or `None`
    /// for a draw); `None` while it runs.
    fn ended(&self) -> Option<Option<u8>>;

    /// The winner when the side to move has no legal move, if the rules name one.
    fn stuck(&self) -> Option<u8>;
}

/// `None` while the game runs; `Some(winner)` when it is over (`winner` is a player index, or
/// `None` for a draw). A side to move without legal moves has lost when [`Engine::stuck`]
/// names a winner, and is merely stuck (`None`) when it does not.
pub fn outcome<E: Engine>(e: &E) -> Option<Option<u8>> {
    if let Some(winner) = e.ended() {
        return Some(winner);
    }
    let mut list = E::List::default();
    e.generate(&mut list);
    if list.is_empty() {
        e.stuck().map(Some)
    } else {
        None
    }
}

/// Number of move sequences of length `depth`; every move is made and unmade down to depth 0
/// (no bulk counting).
pub fn perft<E: Engine>(e: &mut E, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = E::List::default();
    e.generate(&mut list);
    let mut n = 0;
    for &mv in list.iter() {
        let u = e.make(mv);
        n += perft(e, depth - 1);
        e.unmake(mv, u);
    }
    n
}

/// The count of [`perft`], with the moves of the last ply counted, not made.
pub fn perft_bulk<E: Engine>(e: &mut E, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = E::List::default();
    e.generate(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &mv in list.iter() {
        let u = e.make(mv);
        n += perft_bulk(e, depth - 1);
        e.unmake(mv, u);
    }
    n
}

/// Plays uniformly chosen legal moves (`pick(n)` must return an index in `0..n`) until the game
/// is over, the side to move has no move ([`Engine::stuck`] says who wins then) or `max_plies`
/// moves have been played (`capped`). The position is restored afterwards from a copy taken
/// before the first move (no allocation).
#[inline]
pub fn playout<E: Engine>(
    e: &mut E,
    pick: &mut impl FnMut(usize) -> usize,
    max_plies: u32,
) -> Playout {
    let saved = *e;
    let mut plies = 0u32;
    let (winner, capped) = loop {
        if let Some(winner) = e.ended() {
            break (winner, false);
        }
        if plies >= max_plies {
            break (None, true);
        }
        let mut list = E::List::default();
        e.generate(&mut list);
        if list.is_empty() {
            break (e.stuck(), false);
        }
        let mv = list[pick(list.len())];
        e.make(mv);
        plies += 1;
    };
    *e = saved;
    Playout {
        plies,
        winner,
        capped,
    }
}
