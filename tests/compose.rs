//! Constructs that compose: random packs that mix every construct of the language (see
//! `compose/random_pack.rs`), and on every position of a random game of each, the invariants
//! of `compose/check.rs`: generation agrees with the reference definition of legality, make
//! and unmake restore the position, no two moves share a notation or a path, a refused move is
//! refused for the reference's reason, and the position string reads back.
//!
//! A failure prints the seed, the pack, the moves and the position. To replay one seed:
//! `PLY_COMPOSE_SEED=1234 cargo test -p ply --test compose replay -- --ignored --nocapture`.
//! The same generator and checks run as a cargo-fuzz target
//! (`crates/cli/fuzz/fuzz_targets/compose.rs`).

#[path = "compose/check.rs"]
mod check;
#[path = "compose/random_pack.rs"]
mod random_pack;

use proptest::prelude::*;
use random_pack::{CONSTRUCTS, Config, Draw, random_pack};
use std::collections::BTreeMap;

/// Plies of each random game.
const PLIES: usize = 24;

/// Generates the pack of `seed` and checks a random game of it.
fn run(seed: u64, cfg: &Config) -> Result<check::Walk, String> {
    let mut d = Draw::seeded(seed);
    let pack = random_pack(&mut d, cfg);
    check::check_pack(&pack.toml, &mut d, PLIES).map_err(|f| format!("seed {seed}: {f}"))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 160,
        // A seed has no structure to shrink.
        max_shrink_iters: 0,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_packs_keep_every_invariant(seed in any::<u64>()) {
        if let Err(e) = run(seed, &Config::standard()) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The generator is worth something only if it makes every construct, in packs that load:
/// over a fixed set of seeds, each construct appears in several packs.
#[test]
fn the_generator_makes_every_construct_in_packs_that_load() {
    let mut counts: BTreeMap<&str, usize> = CONSTRUCTS.iter().map(|c| (*c, 0)).collect();
    let packs = 600;
    for seed in 0..packs {
        let mut d = Draw::seeded(seed);
        let pack = random_pack(&mut d, &Config::standard());
        if let Err(e) = check::load(&pack.toml) {
            panic!(
                "seed {seed}: the generated pack does not load:\n{e}\n{}",
                pack.toml
            );
        }
        for c in pack.has {
            *counts.get_mut(c).unwrap() += 1;
        }
    }
    let rare: Vec<_> = counts.iter().filter(|(_, n)| **n < 3).collect();
    assert!(
        rare.is_empty(),
        "constructs in fewer than 3 of {packs} packs: {rare:?}"
    );
}

/// The configuration of the tools below: the standard one, or with the known defects that
/// `PLY_COMPOSE_KNOWN` names (a comma-separated list of [`random_pack::Known`] fields, or
/// `all`).
fn tool_config() -> Config {
    let mut cfg = Config::standard();
    let known = std::env::var("PLY_COMPOSE_KNOWN").unwrap_or_default();
    let on = |name: &str| known.split(',').any(|k| k == name || k == "all");
    let k = &mut cfg.known;
    k.overlapping_patterns = on("overlapping_patterns");
    k.two_placed_kinds = on("two_placed_kinds");
    k.compound_beside_a_pattern = on("compound_beside_a_pattern");
    k.hop_onto_a_choice = on("hop_onto_a_choice");
    k.takes_ghost_beside_quiet_moves = on("takes_ghost_beside_quiet_moves");
    k.royal_with_a_capture_rule_on_cells = on("royal_with_a_capture_rule_on_cells");
    cfg
}

/// Replays one seed (`PLY_COMPOSE_SEED`), printing the pack and what the game went through.
#[test]
#[ignore = "a tool: PLY_COMPOSE_SEED=N cargo test -p ply --test compose replay -- --ignored --nocapture"]
fn replay() {
    let seed: u64 = std::env::var("PLY_COMPOSE_SEED")
        .expect("PLY_COMPOSE_SEED")
        .parse()
        .expect("a number");
    let mut d = Draw::seeded(seed);
    let pack = random_pack(&mut d, &tool_config());
    println!("{}\n{:?}", pack.toml, pack.has);
    match check::check_pack(&pack.toml, &mut d, PLIES) {
        Ok(w) => println!("{w:?}"),
        Err(f) => panic!("{f}"),
    }
}

/// Runs many seeds and sorts the failures by kind, printing one seed of each: a tool for
/// finding defects (`PLY_COMPOSE_SURVEY=N`, seeds 0..N).
#[test]
#[ignore = "a tool: PLY_COMPOSE_SURVEY=N cargo test -p ply --test compose survey -- --ignored --nocapture"]
fn survey() {
    let n: u64 = std::env::var("PLY_COMPOSE_SURVEY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let mut kinds: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut positions, mut moves, mut refused) = (0, 0, 0);
    let cfg = tool_config();
    std::panic::set_hook(Box::new(|_| {}));
    for seed in 0..n {
        match run(seed, &cfg) {
            Ok(w) => {
                positions += w.positions;
                moves += w.moves;
                refused += w.refused;
                for (r, c) in w.reasons {
                    *reasons.entry(r).or_default() += c;
                }
            }
            Err(e) => {
                let first = e.lines().next().unwrap_or("").to_string();
                // The kind of failure: its words, without cells, moves and numbers.
                let key: String = first
                    .split_once(": ")
                    .map_or(first.as_str(), |x| x.1)
                    .split_whitespace()
                    .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join(" ");
                let entry = kinds.entry(key).or_insert((0, seed));
                entry.0 += 1;
            }
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "{n} seeds: {positions} positions, {moves} legal moves, {refused} refused moves checked"
    );
    println!("refusals: {reasons:?}");
    for (k, (count, seed)) in kinds {
        println!("{count:5} x {k}   (first: seed {seed})");
    }
}
