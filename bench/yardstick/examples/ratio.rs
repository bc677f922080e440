//! Pack-driven kernel against the hand-written engines, in one run: perft nodes/s and
//! playouts/s for each, and the ratio. `cargo run --release -p ply-yardstick --example ratio`.
//!
//! Playouts pick moves with the same generator, but the engines list moves in different orders,
//! so the games differ; their rate is compared as plies per second.
//!
//! Runs alternate (ours, native, ours, native, ...) and the best of each is kept, so that a
//! burst of load on a shared machine hurts both sides alike.

use ply_kernel::Position;
use ply_yardstick::cats_rabbits::CatsRabbits;
use ply_yardstick::jungle::{Jungle, Variant};
use std::time::Instant;

fn best(rounds: usize, mut f: impl FnMut() -> u64) -> (u64, f64) {
    let mut out = (0, f64::INFINITY);
    for _ in 0..rounds {
        let t = Instant::now();
        let n = f();
        out = (n, out.1.min(t.elapsed().as_secs_f64()));
    }
    out
}

fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (((state >> 32) * n as u64) >> 32) as usize
    }
}

fn row(name: &str, what: &str, ours: (u64, f64), native: (u64, f64)) {
    if what.starts_with("perft") {
        assert_eq!(ours.0, native.0, "{name} {what}: counts differ");
    }
    let (a, b) = (ours.0 as f64 / ours.1, native.0 as f64 / native.1);
    println!(
        "{name:<26} {what:<12} ours {:>8.2} M/s  native {:>8.2} M/s  ratio {:.2}",
        a / 1e6,
        b / 1e6,
        a / b
    );
}

fn main() {
    let rounds = 5;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/");
    for (pack, variant) in [
        ("jungle.toml", Variant::Standard),
        ("jungle_simplified.toml", Variant::Simplified),
    ] {
        let rules = ply_lang::load(format!("{root}{pack}"), &[]).unwrap().rules;
        let mut ours = Position::start(rules.clone());
        let mut native = Jungle::start(variant);
        let o = best(rounds, || ours.perft(5));
        let n = best(rounds, || native.perft(5));
        row(pack, "perft(5)", o, n);
        let games = 2000;
        let o = best(rounds, || {
            let mut r = rng(7);
            (0..games)
                .map(|_| ours.playout(&mut r, 1000).plies as u64)
                .sum()
        });
        let n = best(rounds, || {
            let mut r = rng(7);
            (0..games)
                .map(|_| native.playout(&mut r, 1000).plies as u64)
                .sum()
        });
        row(pack, "playout ply", o, n);
    }
    for multi in [false, true] {
        let set = if multi {
            vec![("multi_hop".to_string(), "true".to_string())]
        } else {
            vec![]
        };
        let rules = ply_lang::load(format!("{root}cats_rabbits.toml"), &set)
            .unwrap()
            .rules;
        let name = if multi {
            "cats_rabbits multi_hop"
        } else {
            "cats_rabbits"
        };
        let mut ours = Position::start(rules.clone());
        let mut native = CatsRabbits::start(multi);
        let o = best(rounds, || ours.perft(7));
        let n = best(rounds, || native.perft(7));
        row(name, "perft(7)", o, n);
        let games = 20000;
        let o = best(rounds, || {
            let mut r = rng(7);
            (0..games)
                .map(|_| ours.playout(&mut r, 1000).plies as u64)
                .sum()
        });
        let n = best(rounds, || {
            let mut r = rng(7);
            (0..games)
                .map(|_| native.playout(&mut r, 1000).plies as u64)
                .sum()
        });
        row(name, "playout ply", o, n);
    }
}
