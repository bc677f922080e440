//! Move generation, make and unmake do not allocate: a counting global allocator watches them
//! over random games of every shipped pack. (Loading a pack, and the API's conveniences such
//! as `Game`'s history, may allocate; the hot path may not.) Perft and random playouts of the
//! shipped games, which keep no history of positions, do not allocate either.
//!
//! Each thread counts its own allocations: the test harness allocates on other threads while a
//! test runs (recording another test's result, printing its name), and a global count would
//! see those. (It did: CI once failed on six allocations that were not ours.)

mod common;

use ply_kernel::{MoveList, Position};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread so far. A `const` thread local with no destructor:
    /// reading it from inside the allocator does not allocate.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// How many allocations this thread has made.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: a thread being torn down may still allocate after its locals are gone.
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A pack and its option settings.
type Pack = (&'static str, &'static [(&'static str, &'static str)]);

/// The games the project ships, in both hop modes.
const SHIPPED: &[Pack] = &[
    ("jungle.toml", &[]),
    ("jungle_simplified.toml", &[]),
    ("cats_rabbits.toml", &[]),
    ("cats_rabbits.toml", &[("multi_hop", "true")]),
];

/// The packs that show the language's reach.
const OTHERS: &[Pack] = &[
    ("breakthrough.toml", &[]),
    ("checkers.toml", &[]),
    ("fox_and_geese.toml", &[]),
    ("othello.toml", &[]),
    ("tablut.toml", &[]),
    ("connect_four.toml", &[]),
    ("chess.toml", &[]),
    ("xiangqi.toml", &[]),
];

#[test]
fn generation_make_and_unmake_do_not_allocate() {
    for &(pack, set) in SHIPPED.iter().chain(OTHERS) {
        let rules = common::pack(pack, set);
        let mut pos = Position::start(rules);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut list = MoveList::new();
        // Undo records on the stack: at most this many plies per game.
        let mut undo = [None; 300];
        let mut made = Vec::with_capacity(300);
        for _game in 0..20 {
            let before = allocations();
            let mut plies = 0;
            while plies < 300 {
                list.clear();
                pos.legal_moves_into(&mut list).unwrap();
                if list.is_empty() {
                    break;
                }
                // Every move is made and taken back, then one is played.
                for m in list.iter() {
                    let u = pos.make_unchecked(m);
                    pos.unmake_unchecked(m, u);
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = list.get((state % list.len() as u64) as usize).unwrap();
                undo[plies] = Some(pos.make_unchecked(m));
                made.push(m);
                plies += 1;
            }
            while let Some(m) = made.pop() {
                plies -= 1;
                pos.unmake_unchecked(m, undo[plies].take().unwrap());
            }
            let after = allocations();
            assert_eq!(after, before, "{pack}: {} allocations", after - before);
        }
    }
}

#[test]
fn perft_and_playouts_of_the_shipped_games_do_not_allocate() {
    for &(pack, set) in SHIPPED {
        let rules = common::pack(pack, set);
        let mut pos = Position::start(rules);
        let start = pos.clone();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut pick = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let before = allocations();
        let nodes = pos.perft(4).unwrap() + pos.perft_bulk(4).unwrap();
        let plies: u32 = (0..50)
            .map(|_| pos.playout(&mut pick, 1000).unwrap().plies)
            .sum();
        let after = allocations();
        assert_eq!(after, before, "{pack}: {} allocations", after - before);
        assert!(nodes > 0 && plies > 0);
        // The position is restored after each playout.
        assert_eq!(pos, start, "{pack}");
    }
}
