//! Divan benchmarks: the pack-driven kernel and the hand-written engines side by side, in one
//! run. `cargo bench -p ply-yardstick`. For ratios printed directly, see
//! `cargo run --release -p ply-yardstick --example ratio` and `ply bench --vs-native`.

use ply_kernel::Position;
use ply_yardstick::cats_rabbits::CatsRabbits;
use ply_yardstick::jungle::{Jungle, Variant};

fn main() {
    divan::main();
}

fn pack(name: &str, set: &[(&str, &str)]) -> Position {
    let path = format!("{}/../../rulesets/{name}", env!("CARGO_MANIFEST_DIR"));
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    Position::start(ply_lang::load(path, &set).expect("pack loads").rules)
}

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

    #[divan::bench]
    fn jungle_pack(b: divan::Bencher) {
        let mut pos = pack("jungle.toml", &[]);
        b.bench_local(|| pos.perft(4));
    }

    #[divan::bench]
    fn jungle_native(b: divan::Bencher) {
        let mut pos = Jungle::start(Variant::Standard);
        b.bench_local(|| pos.perft(4));
    }

    #[divan::bench]
    fn cats_rabbits_pack(b: divan::Bencher) {
        let mut pos = pack("cats_rabbits.toml", &[("multi_hop", "true")]);
        b.bench_local(|| pos.perft(6));
    }

    #[divan::bench]
    fn cats_rabbits_native(b: divan::Bencher) {
        let mut pos = CatsRabbits::start(true);
        b.bench_local(|| pos.perft(6));
    }

    #[divan::bench(args = ["breakthrough.toml", "checkers.toml", "fox_and_geese.toml"])]
    fn other_packs(b: divan::Bencher, name: &str) {
        let mut pos = pack(name, &[]);
        b.bench_local(|| pos.perft(4));
    }
}

mod playouts {
    use super::*;

    #[divan::bench]
    fn jungle_pack(b: divan::Bencher) {
        let mut pos = pack("jungle.toml", &[]);
        let mut pick = rng();
        b.bench_local(|| pos.playout(&mut pick, 1000).plies);
    }

    #[divan::bench]
    fn jungle_native(b: divan::Bencher) {
        let mut pos = Jungle::start(Variant::Standard);
        let mut pick = rng();
        b.bench_local(|| pos.playout(&mut pick, 1000).plies);
    }

    #[divan::bench]
    fn cats_rabbits_pack(b: divan::Bencher) {
        let mut pos = pack("cats_rabbits.toml", &[]);
        let mut pick = rng();
        b.bench_local(|| pos.playout(&mut pick, 1000).plies);
    }

    #[divan::bench]
    fn cats_rabbits_native(b: divan::Bencher) {
        let mut pos = CatsRabbits::start(false);
        let mut pick = rng();
        b.bench_local(|| pos.playout(&mut pick, 1000).plies);
    }
}
