//! Move generation, make and unmake do not allocate: a counting global allocator watches them
//! over random games of every shipped pack. (Loading a pack, and the API's conveniences such
//! as `Game`'s history, may allocate; the hot path may not.)

mod common;

use ply_kernel::{MoveList, Position};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn generation_make_and_unmake_do_not_allocate() {
    let packs = [
        ("jungle.toml", vec![]),
        ("jungle_simplified.toml", vec![]),
        ("cats_rabbits.toml", vec![]),
        ("cats_rabbits.toml", vec![("multi_hop", "true")]),
        ("breakthrough.toml", vec![]),
        ("checkers.toml", vec![]),
        ("fox_and_geese.toml", vec![]),
    ];
    for (pack, set) in packs {
        let rules = common::pack(pack, &set);
        let mut pos = Position::start(rules);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut list = MoveList::new();
        // Undo records on the stack: at most this many plies per game.
        let mut undo = [None; 300];
        let mut made = Vec::with_capacity(300);
        for _game in 0..20 {
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            let mut plies = 0;
            while plies < 300 {
                list.clear();
                pos.legal_moves_into(&mut list);
                if list.is_empty() {
                    break;
                }
                // Every move is made and taken back, then one is played.
                for m in list.iter() {
                    let u = pos.make(m);
                    pos.unmake(m, u);
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = list.get((state % list.len() as u64) as usize).unwrap();
                undo[plies] = Some(pos.make(m));
                made.push(m);
                plies += 1;
            }
            while let Some(m) = made.pop() {
                plies -= 1;
                pos.unmake(m, undo[plies].take().unwrap());
            }
            let after = ALLOCATIONS.load(Ordering::Relaxed);
            assert_eq!(after, before, "{pack}: {} allocations", after - before);
        }
    }
}
