//! Fuzzes the composition of constructs: the input's bytes drive the generator of random packs
//! of `tests/compose/random_pack.rs` (board, kinds, patterns, effects, rules, set-up), then the
//! moves of a random game, and every position of it is checked by `tests/compose/check.rs`
//! (generation against the reference definition of legality, make and unmake, notation and
//! paths, explanations of refused moves, position strings). A broken invariant or a panic is a
//! finding; the pack, the moves and the position are printed with it.
#![no_main]

#[path = "../../../../tests/compose/check.rs"]
mod check;
#[path = "../../../../tests/compose/random_pack.rs"]
mod random_pack;

use libfuzzer_sys::fuzz_target;
use random_pack::{Config, Draw, random_pack};
use std::cell::RefCell;

thread_local! {
    /// The pack being checked, printed if the kernel panics (libFuzzer aborts on a panic, so
    /// the check cannot catch it and print it itself).
    static PACK: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Plies of each game.
const PLIES: usize = 40;

fuzz_target!(|input: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PACK.with(|p| eprintln!("--- pack:\n{}--- end of pack", p.borrow()));
            abort(info);
        }));
    });
    let mut d = Draw::from_bytes(input);
    let pack = random_pack(&mut d, &Config::standard());
    PACK.with(|p| p.borrow_mut().clone_from(&pack.toml));
    if let Err(f) = check::check_pack(&pack.toml, &mut d, PLIES) {
        panic!("{f}");
    }
});
