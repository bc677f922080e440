//! Pack-driven kernel against the hand-written engines, in one run: perft nodes/s and
//! playouts/s for each, and the ratio. `cargo run --release -p ply-yardstick --example ratio`.
//!
//! Playouts pick moves with the same generator, but the engines list moves in different orders,
//! so the games differ; their rate is compared as plies per second.
//!
//! Runs alternate (ours, native, ours, native, ...) and the best of each is kept, so that a
//! burst of load on a shared machine hurts both sides alike.

use ply_kernel::Position;
use ply_yardstick::native;
use std::time::Instant;

/// Times `ours` and `native` in alternation, `rounds` times each, and keeps the best time of
/// each side (with the count its closure returned).
fn duel(
    rounds: usize,
    mut ours: impl FnMut() -> u64,
    mut native: impl FnMut() -> u64,
) -> ((u64, f64), (u64, f64)) {
    let mut out = ((0, f64::INFINITY), (0, f64::INFINITY));
    for _ in 0..rounds {
        let t = Instant::now();
        let n = ours();
        out.0 = (n, out.0.1.min(t.elapsed().as_secs_f64()));
        let t = Instant::now();
        let n = native();
        out.1 = (n, out.1.1.min(t.elapsed().as_secs_f64()));
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
        "{name:<32} {what:<12} ours {:>8.2} M/s  native {:>8.2} M/s  ratio {:.2}",
        a / 1e6,
        b / 1e6,
        a / b
    );
}

/// A pack, its option settings, the perft depths (each with how many times it is counted in one
/// timing) and the number of playouts.
type Case = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [(u32, u32)],
    u32,
);

fn main() {
    let rounds = 9;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/");
    let cases: [Case; 4] = [
        ("jungle.toml", &[], &[(5, 1)], 2000),
        ("jungle_simplified.toml", &[], &[(5, 1)], 2000),
        // Cats and Rabbits branches little: perft(5) is 30,158 nodes, so it is counted 300
        // times a timing, and perft(8) (some 24 million nodes) once.
        ("cats_rabbits.toml", &[], &[(5, 300), (8, 1)], 20000),
        (
            "cats_rabbits.toml",
            &[("multi_hop", "true")],
            &[(5, 300), (8, 1)],
            20000,
        ),
    ];
    for (pack, set, depths, games) in cases {
        let set: Vec<(String, String)> = set
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let rules = ply_lang::load(format!("{root}{pack}"), &set).unwrap().rules;
        let flags: Vec<(String, bool)> =
            set.iter().map(|(a, b)| (a.clone(), b == "true")).collect();
        let mut native = native::for_game(rules.core().name(), &flags).expect("a native engine");
        let name = format!(
            "{pack} {}",
            set.iter()
                .map(|(a, b)| format!("{a}={b}"))
                .collect::<String>()
        );
        let mut ours = Position::start(rules);
        for &(depth, times) in depths {
            let (o, n) = duel(
                rounds,
                || (0..times).map(|_| ours.perft(depth).unwrap()).sum(),
                || (0..times).map(|_| native.perft(depth)).sum(),
            );
            let what = match times {
                1 => format!("perft({depth})"),
                _ => format!("perft({depth})x{times}"),
            };
            row(&name, &what, o, n);
        }
        let (o, n) = duel(
            rounds,
            || {
                let mut r = rng(7);
                (0..games)
                    .map(|_| ours.playout(&mut r, 1000).unwrap().plies as u64)
                    .sum()
            },
            || {
                let mut r = rng(7);
                (0..games)
                    .map(|_| native.playout(&mut r, 1000).plies as u64)
                    .sum()
            },
        );
        row(&name, "playout ply", o, n);
    }
}
