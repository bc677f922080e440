//! One face for every hand-written engine, so that a benchmark can pick the engine by the name
//! a rule pack gives its game and measure it next to Ply's kernel, with no game knowledge of
//! its own.
//!
//! [`for_game`] maps a game name (and the pack's boolean options) to an engine;
//! [`NativeEngine`] offers the measurements: perft from the start, seeded random playouts, and
//! make + unmake of every legal move of positions sampled along random games.

use crate::Playout;
use crate::cats_rabbits::CatsRabbits;
use crate::jungle::{Jungle, Variant};
use crate::search::{self, Engine};
use std::hint::black_box;

/// A hand-written engine, seen from a benchmark. Every measurement starts from the engine's
/// start position and leaves it there.
pub trait NativeEngine {
    /// The engine's own description, such as `Jungle (standard variant)`.
    fn describe(&self) -> String;

    /// Back to the start position (and forget the sampled positions).
    fn reset(&mut self);

    /// Perft from the start, making and unmaking every move down to depth 0.
    fn perft(&mut self, depth: u32) -> u64;

    /// Perft from the start, counting the last ply without making it.
    fn perft_bulk(&mut self, depth: u32) -> u64;

    /// One random playout from the start: `pick(n)` returns an index below `n`. Stops when
    /// the game ends, the side to move has no move, or after `max_plies` plies (`capped`).
    fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize, max_plies: u32) -> Playout;

    /// Plays `games` random games from the start (at most `max_plies` plies each) and keeps
    /// every position met on the way that has a legal move, with its legal moves, until
    /// `limit` positions are kept. Returns the number of positions kept.
    fn sample(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        games: u32,
        max_plies: u32,
        limit: usize,
    ) -> usize;

    /// Makes and unmakes every legal move of every sampled position; returns the number of
    /// make + unmake pairs.
    fn make_unmake_all(&mut self) -> u64;

    /// The size in bytes of one game state.
    fn state_bytes(&self) -> usize;
}

/// The engine for a game, by the name its pack declares (`[game] name`) and the pack's boolean
/// options, or `None` when no hand-written engine plays it.
pub fn for_game(name: &str, options: &[(String, bool)]) -> Option<Box<dyn NativeEngine>> {
    let option = |wanted: &str| options.iter().find(|(n, _)| n == wanted).map(|(_, v)| *v);
    // Options that an engine does not know mean rules it does not play.
    let only = |known: &[&str]| options.iter().all(|(n, _)| known.contains(&n.as_str()));
    match name {
        "Jungle" if only(&[]) => Some(Box::new(Native::new(
            Jungle::start(Variant::Standard),
            "Jungle (standard variant)",
        ))),
        "Jungle (simplified)" if only(&[]) => Some(Box::new(Native::new(
            Jungle::start(Variant::Simplified),
            "Jungle (simplified variant)",
        ))),
        "Cats and Rabbits" if only(&["multi_hop"]) => {
            let multi = option("multi_hop").unwrap_or(false);
            let text = if multi {
                "Cats and Rabbits (multiple hops)"
            } else {
                "Cats and Rabbits (single hops)"
            };
            Some(Box::new(Native::new(CatsRabbits::start(multi), text)))
        }
        _ => None,
    }
}

/// An engine with its start position and the positions sampled for make + unmake.
struct Native<E: Engine> {
    start: E,
    position: E,
    describe: &'static str,
    /// Sampled positions with the range of their moves in `moves`.
    samples: Vec<(E, u32, u32)>,
    moves: Vec<E::Move>,
}

impl<E: Engine> Native<E> {
    fn new(start: E, describe: &'static str) -> Self {
        Native {
            start,
            position: start,
            describe,
            samples: Vec::new(),
            moves: Vec::new(),
        }
    }
}

impl<E: Engine> NativeEngine for Native<E> {
    fn describe(&self) -> String {
        self.describe.to_string()
    }

    fn state_bytes(&self) -> usize {
        std::mem::size_of::<E>()
    }

    fn reset(&mut self) {
        self.position = self.start;
        self.samples.clear();
        self.moves.clear();
    }

    fn perft(&mut self, depth: u32) -> u64 {
        search::perft(&mut self.position, depth)
    }

    fn perft_bulk(&mut self, depth: u32) -> u64 {
        search::perft_bulk(&mut self.position, depth)
    }

    fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize, max_plies: u32) -> Playout {
        search::playout(&mut self.position, &mut |n| pick(n), max_plies)
    }

    fn sample(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        games: u32,
        max_plies: u32,
        limit: usize,
    ) -> usize {
        'games: for _ in 0..games {
            let mut p = self.start;
            for _ in 0..max_plies {
                if self.samples.len() >= limit {
                    break 'games;
                }
                let mut list = E::List::default();
                p.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                let start = self.moves.len() as u32;
                self.moves.extend_from_slice(&list);
                self.samples.push((p, start, list.len() as u32));
                let m = list[pick(list.len()).min(list.len() - 1)];
                p.make(m);
            }
        }
        self.samples.len()
    }

    fn make_unmake_all(&mut self) -> u64 {
        let mut n = 0u64;
        for (p, start, len) in &mut self.samples {
            let moves = &self.moves[*start as usize..(*start + *len) as usize];
            for &m in moves {
                let u = p.make(m);
                p.unmake(m, black_box(u));
                n += 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker() -> impl FnMut(usize) -> usize {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        move |n| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % n as u64) as usize
        }
    }

    #[test]
    fn engines_by_name() {
        assert!(for_game("Jungle", &[]).is_some());
        assert!(for_game("Jungle (simplified)", &[]).is_some());
        assert!(for_game("Chess", &[]).is_none());
        assert!(for_game("Jungle", &[("x".into(), true)]).is_none());
        let mut single = for_game("Cats and Rabbits", &[("multi_hop".into(), false)]).unwrap();
        let multi = for_game("Cats and Rabbits", &[("multi_hop".into(), true)]).unwrap();
        assert_eq!(single.perft(3), 456);
        assert!(multi.describe().contains("multiple"));
        let mut j = for_game("Jungle", &[]).unwrap();
        assert_eq!(j.perft(3), 12240);
        assert_eq!(j.perft_bulk(3), 12240);
    }

    #[test]
    fn sampling_and_make_unmake() {
        let mut j = for_game("Jungle", &[]).unwrap();
        let mut pick = picker();
        let kept = j.sample(&mut pick, 3, 50, 100);
        assert_eq!(kept, 100);
        let pairs = j.make_unmake_all();
        assert!(pairs >= 100);
        // The positions are restored: doing it again counts the same.
        assert_eq!(j.make_unmake_all(), pairs);
        j.reset();
        assert_eq!(j.make_unmake_all(), 0);
        let p = j.playout(&mut pick, 10);
        assert!(p.plies <= 10);
    }
}
