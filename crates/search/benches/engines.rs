//! Divan benchmarks of the engines on every shipped pack, from the start: alpha-beta to a
//! fixed depth (throughput in nodes) and MCTS for a fixed number of iterations (throughput in
//! iterations, each a playout or a proven leaf). `cargo bench -p ply-search`. Strength figures
//! come from `ply match` (see the README).

use divan::counter::ItemsCount;
use ply_kernel::{Position, Rules};
use ply_search::{AlphaBeta, AlphaBetaConfig, Limits, Mcts, MctsConfig, Weights};
use std::sync::Arc;

fn main() {
    divan::main();
}

const PACKS: &[&str] = &[
    "jungle",
    "jungle_simplified",
    "cats_rabbits",
    "breakthrough",
    "checkers",
    "fox_and_geese",
];

fn rules(pack: &str) -> Arc<Rules> {
    load(pack).0
}

/// The pack's rules and its `[eval]` as the engines read it.
fn load(pack: &str) -> (Arc<Rules>, Arc<Weights>) {
    let path = format!("{}/../../rulesets/{pack}.toml", env!("CARGO_MANIFEST_DIR"));
    let pack = ply_lang::load(&path, &[]).expect("a shipped pack");
    let weights = Weights::of_pack(&pack);
    (pack.rules, Arc::new(weights))
}

/// Alpha-beta to depth 6 from the start, with the pack's `[eval]` and a fresh table of 2^16
/// entries each time (the default 2^20 would spend most of a sample zeroing 48 MB).
#[divan::bench(args = PACKS, sample_count = 10)]
fn alphabeta_depth_6(bencher: divan::Bencher, pack: &str) {
    let (rules, eval) = load(pack);
    let pos = Position::start(rules);
    let config = AlphaBetaConfig {
        tt_bits: 16,
        ..AlphaBetaConfig::default()
    };
    let nodes = AlphaBeta::new(eval.clone(), config.clone())
        .search(&pos, &Limits::depth(6), &mut |_| {})
        .expect("a move")
        .nodes;
    bencher
        .counter(ItemsCount::new(nodes as usize))
        .bench_local(|| {
            let mut ab = AlphaBeta::new(eval.clone(), config.clone());
            ab.search(&pos, &Limits::depth(6), &mut |_| {})
                .map(|i| i.nodes)
        });
}

/// MCTS, 2000 iterations from the start, one thread, a fresh tree each time.
#[divan::bench(args = PACKS, sample_count = 10)]
fn mcts_2000_iterations(bencher: divan::Bencher, pack: &str) {
    let rules = rules(pack);
    let pos = Position::start(rules);
    bencher.counter(ItemsCount::new(2000usize)).bench_local(|| {
        let mut mcts = Mcts::new(MctsConfig {
            reuse: false,
            ..MctsConfig::default()
        });
        mcts.search(&pos, &Limits::iterations(2000))
            .map(|i| i.iterations)
    });
}
