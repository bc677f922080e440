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
const PLIES: usize = 40;

/// Generates the pack of `seed` and checks a random game of it.
fn run(seed: u64, cfg: &Config) -> Result<check::Walk, String> {
    let mut d = Draw::seeded(seed);
    let pack = random_pack(&mut d, cfg);
    check::check_pack(&pack.toml, &mut d, PLIES).map_err(|f| format!("seed {seed}: {f}"))
}

proptest! {
    #![proptest_config(ProptestConfig {
        // About a minute on two cores (each case: a pack and a game of up to 40 plies).
        cases: 20_000,
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

/// The configuration of the tools below: the standard one.
fn tool_config() -> Config {
    Config::standard()
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
    let mut constructs: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..n {
        for c in random_pack(&mut Draw::seeded(seed), &cfg).has {
            *constructs.entry(c).or_default() += 1;
        }
    }
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
    println!("packs with each construct: {constructs:?}");
    for (k, (count, seed)) in kinds {
        println!("{count:5} x {k}   (first: seed {seed})");
    }
}

// ---------------------------------------------------------------------------------------------
// Defects found by the generator, each reduced to a small pack. The fixed ones are tests that
// failed before their fix; the open ones are `#[ignore]`d (the generator leaves their
// combinations out, see `random_pack::Known`) until the kernel mends them.

/// Loads a pack's text, panicking with its diagnostics.
fn pack(text: &str) -> std::sync::Arc<ply_kernel::Rules> {
    check::load(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves of `position` in notation, checked against the reference definition, and
/// every invariant of `check_position` on it.
fn checked(rules: &std::sync::Arc<ply_kernel::Rules>, position: &str) -> Vec<String> {
    checked_with(rules, position, check::Capturing::Free)
}

/// [`checked`], for rules that make capturing mandatory or not.
fn checked_with(
    rules: &std::sync::Arc<ply_kernel::Rules>,
    position: &str,
    must_capture: check::Capturing,
) -> Vec<String> {
    let pos = ply_kernel::Position::from_position_string(rules.clone(), position)
        .unwrap_or_else(|e| panic!("{position}: {e}"));
    let mut walk = check::Walk::default();
    for seed in 0..4 {
        if let Err(e) =
            check::check_position(&pos, must_capture, &mut Draw::seeded(seed), &mut walk)
        {
            panic!("{position}: {e}");
        }
    }
    let mut moves: Vec<String> = pos
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(rules, &m))
        .collect();
    moves.sort();
    moves
}

const TWO_SIDES: &str = r#"
[game]
name = "Defect"
players = ["White", "Black"]
symbols = { White = "W", Black = "B" }
forward = { White = "up", Black = "down" }
"#;

#[test]
fn placements_stay_legal_where_capturing_is_mandatory_and_nothing_captures() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
must_capture = true
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step n"]
[pieces.Disc]
letter = "D"
supply = 1
moves = ["place when cell.row == 0"]
[setup.White]
Stone = "a1"
[setup.Black]
Stone = "c3"
"#
    ));
    // No capture: the step and the placements on the top row (but c3) are all legal.
    assert_eq!(
        checked_with(
            &rules,
            "2BS/3/WS2 White hand=WD:1,BD:1",
            check::Capturing::Mandatory
        ),
        ["a1-a2", "a3", "b3"]
    );
    // A capture: only it.
    assert_eq!(
        checked_with(
            &rules,
            "2BS/BS2/WS2 White hand=WD:1,BD:1",
            check::Capturing::Mandatory
        ),
        ["a1xa2"]
    );
}

#[test]
fn a_piece_taken_by_a_hop_is_no_longer_unmoved() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 5
[pieces.King]
letter = "K"
moves = ["step w"]
[pieces.Rook]
letter = "R"
moves = ["hop w"]
[compound.castle]
mover = "King"
partner = "Rook"
direction = "east"
mover_to = {{ White = "c1", Black = "c3" }}
partner_to = {{ White = "b1", Black = "b3" }}
[setup.White]
King = "a1"
Rook = "d1"
[setup.Black]
King = "a3"
Rook = "e1"
"#
    ));
    let start = "BK4/5/WK2WRBR Black unmoved=a3,a1,d1,e1";
    assert_eq!(checked(&rules, start), ["e1xc1"]);
    let mut game = ply_kernel::Game::from_position_string(rules.clone(), start).unwrap();
    game.play_path(None, &cells(&rules, "e1-c1")).unwrap();
    // d1 is empty now: the position string says nothing of it, and reads back.
    let after = game.position().to_position_string();
    assert_eq!(after, "BK4/5/WK1BR2 White unmoved=a3,a1");
    let _ = checked(&rules, &after);
}

#[test]
fn a_passed_cell_is_open_for_one_turn_even_when_the_answer_is_a_placement() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 4
cols = 3
[pieces.Pawn]
letter = "P"
moves = ["slide forward upto 2 quiet leaves ghost", "step forward_diagonal capturing takes ghost"]
[pieces.Wall]
letter = "W"
moves = ["place when cell.row == 0"]
[setup.White]
Pawn = "b1"
[setup.Black]
Pawn = "c4"
"#
    ));
    let mut game = ply_kernel::Game::new(rules.clone());
    game.play_path(None, &cells(&rules, "b1-b3")).unwrap();
    // Black places instead of taking on b2: b2 is closed again for White's turn... and
    // after White's answer the position still reads back.
    game.play_path(None, &cells(&rules, "a4")).unwrap();
    let after = game.position().to_position_string();
    assert!(!after.contains("ghost"), "{after}");
    let _ = checked(&rules, &after);
}

#[test]
fn a_piece_arriving_on_a_blocking_cell_can_open_an_attack_on_the_royal_piece() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 3
[zones.pond]
cells = "b2"
[pieces.King]
letter = "K"
royal = true
moves = ["step orthogonal quiet"]
[pieces.Frog]
letter = "F"
tags = ["swimmer"]
moves = ["step n"]
[pieces.Heron]
letter = "H"
moves = ["jump diagonal across pond unless occupant has swimmer", "step n"]
[setup.White]
King = "a1"
Heron = "b1"
[setup.Black]
King = "a3"
Frog = "b2"
Heron = "c3"
"#
    ));
    // The black frog on b2 blocks the black heron's jump c3-a1. The white heron takes the
    // frog: no swimmer is on b2 any more, and the white king would be attacked.
    let moves = checked(&rules, "BK1BH/1BF1/WKWH1 White");
    assert!(!moves.contains(&"b1xb2".to_string()), "{moves:?}");
}

/// Cells from names.
fn cells(rules: &ply_kernel::Rules, names: &str) -> Vec<ply_kernel::Cell> {
    names
        .split(['-', 'x'])
        .map(|n| rules.geometry().parse_cell(n).unwrap())
        .collect()
}

#[test]
fn two_patterns_that_reach_one_cell_make_one_move() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthogonal", "slide n upto 2"]
[setup.White]
Stone = "a1"
[setup.Black]
Stone = "c3"
"#
    ));
    // One move per path: a1-a2 is the step's (listed first), once; perft counted it twice.
    assert_eq!(
        checked(&rules, "2BS/3/WS2 White"),
        ["a1-a2", "a1-a3", "a1-b1"]
    );
}

#[test]
fn placements_of_two_kinds_have_two_notations() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 3
[pieces.Disc]
letter = "D"
moves = ["place when cell.row == 1 and cell.col == 1"]
[pieces.Ring]
letter = "R"
moves = ["place when cell.row == 1 and cell.col == 1"]
"#
    ));
    // Each placement names its kind; "b2" alone was both, and typing it placed a disc.
    assert_eq!(checked(&rules, "3/3/3 White"), ["D@b2", "R@b2"]);
    let pos = ply_kernel::Position::from_position_string(rules.clone(), "3/3/3 White").unwrap();
    let b2 = cells(&rules, "b2");
    let ring = rules.kind_by_name("Ring");
    let m = pos.find_move_choosing(None, &b2, ring).unwrap();
    assert_eq!(pos.placed_piece(m).map(|p| p.kind()), ring);
    let why = pos.find_move(None, &b2).unwrap_err().to_string();
    assert!(why.contains("D@b2"), "{why}");
}

#[test]
fn a_passing_capture_and_a_quiet_move_have_two_paths() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 4
cols = 3
[pieces.Pawn]
letter = "P"
moves = ["slide forward upto 2 quiet leaves ghost"]
[pieces.Crab]
letter = "C"
moves = ["step w takes ghost"]
[setup.White]
Pawn = "b1"
[setup.Black]
Crab = "c2"
"#
    ));
    let mut game = ply_kernel::Game::new(rules.clone());
    game.play_path(None, &cells(&rules, "b1-b3")).unwrap();
    // Black onto the passed cell b2 takes the pawn on b3: one move (c2-b2 and c2xb2 shared
    // the path).
    let moves = checked(&rules, &game.position().to_position_string());
    assert!(moves.contains(&"c2xb2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"c2-b2".to_string()), "{moves:?}");
}

#[test]
fn a_royal_pack_with_a_capture_rule_on_both_cells_loads() {
    let _ = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 6
cols = 6
[zones.z]
cells = "a5 b5 c5 a4 c4 d4 e4 a3"
[pieces.King]
letter = "K"
royal = true
moves = ["step all"]
[pieces.Bishop]
letter = "B"
moves = ["step s capturing", "place when empty(neighbour(cell, n))"]
[rules.capture]
dry-feet = 'not mover.cell in z or target.cell in z'
[setup.White]
King = "b2"
[setup.Black]
King = "f4"
"#
    ));
}

#[test]
fn a_move_with_a_second_part_needs_no_choice_of_promotion() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 3
[zones.far]
White = "a3 b3 c3"
Black = "a1 b1 c1"
[pieces.Crab]
letter = "C"
moves = ["step e quiet then place Wall by slide n", "step ne quiet"]
promote = {{ to = ["Wall", "King"], zone = "far" }}
[pieces.Wall]
letter = "W"
moves = []
[pieces.King]
letter = "K"
moves = []
[setup.White]
Crab = "a2"
[setup.Black]
Wall = "c1"
"#
    ));
    // a2-b2/b3 does not promote; a2-b3 does, by choice: typing the first asks nothing.
    assert_eq!(
        checked(&rules, "3/WC2/2BW White"),
        ["a2-b2/b3", "a2-b3=K", "a2-b3=W"]
    );
}

#[test]
fn a_refused_choice_of_promotion_is_explained_by_its_own_check() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 5
[zones.far]
White = "a3 b3 c3 d3 e3"
Black = "a1 b1 c1 d1 e1"
[pieces.King]
letter = "K"
royal = true
moves = ["step all"]
[pieces.Rook]
letter = "R"
moves = ["slide orthogonal"]
[pieces.Pawn]
letter = "P"
moves = ["step n quiet"]
promote = {{ to = ["Rook", "King"], zone = "far" }}
[setup.White]
King = "b1"
Pawn = "c2"
[setup.Black]
King = "e1"
Rook = "a3"
"#
    ));
    // c2-c3=K puts a second king where the rook on a3 attacks it: refused for that, and
    // typed, it says so (not that a capture is mandatory).
    let moves = checked(&rules, "BR4/2WP2/1WK2BK White");
    assert!(moves.contains(&"c2-c3=R".to_string()), "{moves:?}");
    assert!(!moves.contains(&"c2-c3=K".to_string()), "{moves:?}");
    let pos =
        ply_kernel::Position::from_position_string(rules.clone(), "BR4/2WP2/1WK2BK White").unwrap();
    let e = pos
        .find_move_choosing(None, &cells(&rules, "c2-c3"), rules.kind_by_name("King"))
        .unwrap_err();
    assert_eq!(e.reason(), Some(ply_kernel::Reason::Exposed), "{e}");
}

#[test]
fn a_refused_compound_move_is_explained_by_its_own_check() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 5
[pieces.King]
letter = "K"
royal = true
moves = ["step all"]
[pieces.Rook]
letter = "R"
moves = ["slide orthogonal"]
[pieces.Drake]
letter = "D"
moves = ["step n"]
[compound.castle]
mover = "Drake"
partner = "Rook"
direction = "east"
mover_to = {{ White = "d1", Black = "d3" }}
partner_to = {{ White = "c1", Black = "c3" }}
[setup.White]
King = "a2"
Drake = "b1"
Rook = "e1"
[setup.Black]
King = "e3"
Rook = "a3"
"#
    ));
    // The white king on a2 is in check from a3: castling leaves it so, and is refused for
    // that, not as a compound move that cannot be made.
    let start = "BR3BK/WK4/1WD2WR White unmoved=a3,b1,e1";
    let _ = checked(&rules, start);
    let pos = ply_kernel::Position::from_position_string(rules.clone(), start).unwrap();
    let e = pos.find_move(None, &cells(&rules, "b1-d1")).unwrap_err();
    assert_eq!(e.reason(), Some(ply_kernel::Reason::Exposed), "{e}");
}

#[test]
fn a_passed_cell_filled_by_a_second_part_is_closed() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 4
cols = 3
[pieces.Pawn]
letter = "P"
moves = ["slide forward upto 2 quiet leaves ghost then place Wall by slide s"]
[pieces.Wall]
letter = "W"
moves = []
[setup.White]
Pawn = "b1"
[setup.Black]
Wall = "a4"
"#
    ));
    let mut game = ply_kernel::Game::new(rules.clone());
    game.play_path(None, &cells(&rules, "b1-b3-b2")).unwrap();
    let after = game.position().to_position_string();
    assert!(!after.contains("ghost"), "{after}");
    let _ = checked(&rules, &after);
}

#[test]
fn making_and_unmaking_a_move_leaves_an_equal_position_where_repetitions_count() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]
[end.repetition]
when = 'repetitions >= 2'
draw = true
[setup.White]
Stone = "a1"
[setup.Black]
Stone = "c3"
"#
    ));
    let _ = checked(&rules, "2BS/3/WS2 White");
}

#[test]
fn unmaking_a_placement_of_a_kind_without_a_supply_leaves_the_hands_alone() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
[board]
rows = 2
cols = 2
[pieces.Disc]
letter = "D"
supply = 1
moves = ["place when cell.row == 0"]
[pieces.Ring]
letter = "R"
moves = ["place when cell.row == 1"]
"#
    ));
    let pos = ply_kernel::Position::from_position_string(rules.clone(), "2/2 White hand=WD:1,BD:1")
        .unwrap();
    for m in pos.legal_moves().unwrap().iter() {
        let mut p = pos.clone();
        let u = p.make_unchecked(m);
        p.unmake_unchecked(m, u);
        assert!(p == pos, "{}", ply_kernel::move_text(&rules, &m));
    }
}

#[test]
fn a_far_hop_answers_a_check_and_the_most_captures_rule_picks_among_the_answers() {
    let rules = pack(&format!(
        r#"{TWO_SIDES}
must_capture = "most"
[board]
rows = 6
cols = 6
[pieces.Ace]
letter = "A"
royal = true
moves = ["step all"]
[pieces.Flyer]
letter = "F"
moves = ["slide diagonal quiet", "hop diagonal far chain complete"]
[pieces.Bishop]
letter = "B"
moves = ["slide diagonal"]
[setup.White]
Ace = "a1"
Flyer = "f6"
[setup.Black]
Ace = "f1"
Bishop = "d4"
"#
    ));
    // The bishop on d4 checks the ace on a1. The flyer takes it from afar, landing on c3 or
    // b2 (not past the ace); nothing else is legal, captures being mandatory.
    assert_eq!(
        checked_with(&rules, "5WF/6/3BB2/6/6/WA4BA White", check::Capturing::Most),
        ["f6xb2", "f6xc3"]
    );
    // A second bishop on b4 can be taken after d4 from c3 only (landing on a5): the chain that
    // takes two is the only move, and it also ends the check.
    assert_eq!(
        checked_with(
            &rules,
            "5WF/6/1BB1BB2/6/6/WA4BA White",
            check::Capturing::Most
        ),
        ["f6xc3xa5"]
    );
    // The chain that stops at b2 takes one piece: refused, saying why.
    let pos =
        ply_kernel::Position::from_position_string(rules.clone(), "5WF/6/1BB1BB2/6/6/WA4BA White")
            .unwrap();
    let fewer = pos
        .find_move_choosing(None, &cells(&rules, "f6-b2"), None)
        .unwrap_err();
    assert!(
        fewer.to_string().contains("another capture takes 2 pieces"),
        "{fewer}"
    );
}
