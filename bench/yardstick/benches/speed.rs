//! Divan benchmarks: the pack-driven kernel and the hand-written engine for the same rules side
//! by side, in one run, for the four setups the project ships (Jungle, simplified Jungle, Cats
//! and Rabbits with single and with multiple hops). `cargo bench -p ply-yardstick`.
//!
//! Each group measures both sides the same way: perft from the start (make and unmake at every
//! node; throughput in nodes), seeded random playouts (capped at [`MAX_PLIES`] plies; throughput
//! in plies), and make + unmake of every legal move of positions sampled along random games
//! (throughput in pairs). Divan's allocation profiler is the global allocator: it adds `alloc`
//! rows under any benchmark that allocates, and there are none. For ratios printed directly, see
//! `cargo run --release -p ply-yardstick --example ratio` and `ply bench --vs-native`.

use divan::counter::ItemsCount;
use ply_kernel::Position;
use ply_yardstick::native::{self, NativeEngine};

#[path = "../shared/sample.rs"]
mod sample;

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

/// The setups, by the name given to divan.
const SETUPS: &[&str] = &[
    "jungle",
    "jungle_simplified",
    "cats_rabbits",
    "cats_rabbits_multi",
];

/// The ply cap of a playout.
const MAX_PLIES: u32 = 1000;

/// Playouts per benchmark iteration.
const PLAYOUTS: u32 = 20;

/// Positions sampled for make + unmake.
const SAMPLES: usize = 2000;

/// A setup's pack file, boolean options and perft depth (Cats and Rabbits branches little:
/// its perft(5) is only 30,158 nodes, too few to time).
fn setup(name: &str) -> (&'static str, &'static [(&'static str, bool)], u32) {
    match name {
        "jungle" => ("jungle.toml", &[], 5),
        "jungle_simplified" => ("jungle_simplified.toml", &[], 5),
        "cats_rabbits" => ("cats_rabbits.toml", &[("multi_hop", false)], 7),
        "cats_rabbits_multi" => ("cats_rabbits.toml", &[("multi_hop", true)], 7),
        _ => panic!("unknown setup {name}"),
    }
}

/// The start position of a shipped pack, with option settings.
fn start(file: &str, options: &[(&str, bool)]) -> Position {
    let path = format!("{}/../../rulesets/{file}", env!("CARGO_MANIFEST_DIR"));
    let set: Vec<(String, String)> = options
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    Position::start(ply_lang::load(path, &set).expect("pack loads").rules)
}

/// The setup's start position, from its pack.
fn pack(name: &str) -> Position {
    let (file, options, _) = setup(name);
    start(file, options)
}

/// The setup's hand-written engine, found by the game name its pack declares.
fn engine(name: &str) -> Box<dyn NativeEngine> {
    let (_, options, _) = setup(name);
    let options: Vec<(String, bool)> = options.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let game = pack(name).rules().core().name().to_string();
    native::for_game(&game, &options).expect("a native engine for every setup")
}

/// The same seeded picker on both sides.
fn rng() -> impl FnMut(usize) -> usize {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (((state >> 32) * n as u64) >> 32) as usize
    }
}

mod perft {
    use super::*;

    #[divan::bench(args = SETUPS, sample_count = 20)]
    fn pack(b: divan::Bencher, name: &str) {
        let depth = setup(name).2;
        let mut pos = super::pack(name);
        let nodes = pos.perft(depth).unwrap();
        b.counter(ItemsCount::new(nodes))
            .bench_local(|| pos.perft(depth).unwrap());
    }

    #[divan::bench(args = SETUPS, sample_count = 20)]
    fn native(b: divan::Bencher, name: &str) {
        let depth = setup(name).2;
        let mut engine = engine(name);
        let nodes = engine.perft(depth);
        b.counter(ItemsCount::new(nodes))
            .bench_local(|| engine.perft(depth));
    }
}

/// Perft(4) of the packs that show the language's reach, which have no hand-written engine.
#[divan::bench(args = ["breakthrough.toml", "checkers.toml", "fox_and_geese.toml"], sample_count = 20)]
fn other_packs_perft(b: divan::Bencher, file: &str) {
    let mut pos = start(file, &[]);
    let nodes = pos.perft(4).unwrap();
    b.counter(ItemsCount::new(nodes))
        .bench_local(|| pos.perft(4).unwrap());
}

mod playouts {
    use super::*;

    /// Plies of [`PLAYOUTS`] playouts from a fresh picker, by `play`.
    fn plies(mut play: impl FnMut(&mut dyn FnMut(usize) -> usize) -> u32) -> u64 {
        let mut pick = rng();
        (0..PLAYOUTS).map(|_| play(&mut pick) as u64).sum()
    }

    #[divan::bench(args = SETUPS)]
    fn pack(b: divan::Bencher, name: &str) {
        let mut pos = super::pack(name);
        let count = plies(|pick| pos.playout(&mut |n| pick(n), MAX_PLIES).unwrap().plies);
        b.counter(ItemsCount::new(count))
            .bench_local(|| plies(|pick| pos.playout(&mut |n| pick(n), MAX_PLIES).unwrap().plies));
    }

    #[divan::bench(args = SETUPS)]
    fn native(b: divan::Bencher, name: &str) {
        let mut engine = engine(name);
        let count = plies(|pick| engine.playout(pick, MAX_PLIES).plies);
        b.counter(ItemsCount::new(count))
            .bench_local(|| plies(|pick| engine.playout(pick, MAX_PLIES).plies));
    }
}

mod make_unmake {
    use super::*;
    use std::hint::black_box;

    #[divan::bench(args = SETUPS)]
    fn pack(b: divan::Bencher, name: &str) {
        let mut samples = sample::sample(&super::pack(name), &mut rng(), SAMPLES, MAX_PLIES);
        let pairs: u64 = samples.iter().map(|(_, moves)| moves.len() as u64).sum();
        b.counter(ItemsCount::new(pairs)).bench_local(|| {
            for (p, moves) in &mut samples {
                for &m in moves.iter() {
                    let u = p.make_unchecked(m);
                    p.unmake_unchecked(m, black_box(u));
                }
            }
        });
    }

    #[divan::bench(args = SETUPS)]
    fn native(b: divan::Bencher, name: &str) {
        let mut engine = engine(name);
        let mut pick = rng();
        engine.sample(&mut pick, u32::MAX, MAX_PLIES, SAMPLES);
        let pairs = engine.make_unmake_all();
        b.counter(ItemsCount::new(pairs))
            .bench_local(|| engine.make_unmake_all());
    }
}
