//! `ply balance` counts every piece taken, however it is taken: by landing on it, hopping
//! over it, or by a move's effects (Othello's flips, Tablut's custodial captures). The counts
//! are checked against a count made independently: each game replayed from its record in
//! notation, comparing the board cell by cell before and after each move.

mod common;

use common::ply;
use ply_cli::engines::{GameResult, play_game};
use ply_kernel::{Game, Rules, parse_move};
use ply_search::{Engine, EngineSpec, Weights};
use serde_json::Value;
use std::sync::Arc;

fn rules(pack: &str) -> Arc<Rules> {
    let path = format!("{}/../../rulesets/{pack}", env!("CARGO_MANIFEST_DIR"));
    ply_lang::load(&path, &[]).expect("a shipped pack").rules
}

fn random_game(rules: &Arc<Rules>, seed: u64, max_plies: u32) -> GameResult {
    let eval = Arc::new(Weights::material(rules));
    let spec = |s: u64| "random".parse::<EngineSpec>().expect("a spec").or_seed(s);
    let mut a = Engine::new(&spec(seed), eval.clone());
    let mut b = Engine::new(&spec(seed + 1), eval);
    play_game(&Game::new(rules.clone()), &mut a, &mut b, max_plies).expect("a game")
}

/// The pieces of each kind taken in a game, by replaying its record: a cell that held a piece
/// of the side not moving and holds something else after the move lost that piece.
fn board_count(rules: &Arc<Rules>, moves: &[String]) -> Vec<u64> {
    let core = rules.core();
    let cells: Vec<_> = rules.geometry().cells().iter().collect();
    let mut taken = vec![0; core.kind_count()];
    let mut game = Game::new(rules.clone());
    for text in moves {
        let waiting = game.side_to_move().other();
        let before: Vec<_> = cells.iter().map(|&c| game.position().piece_at(c)).collect();
        let (path, choice) = parse_move(rules, text).expect("a move in notation");
        game.play_path_choosing(None, &path, choice)
            .expect("the recorded move is legal");
        for (i, &c) in cells.iter().enumerate() {
            if let Some(p) = before[i].filter(|p| p.owner() == waiting)
                && game.position().piece_at(c) != Some(p)
            {
                taken[p.kind().index()] += 1;
            }
        }
    }
    taken
}

#[test]
fn captures_by_effects_and_hops_match_a_board_count() {
    for (pack, seeds) in [
        ("othello.toml", 0..6),
        ("tablut.toml", 0..4),
        ("checkers.toml", 0..4),
        ("chess.toml", 0..3),
    ] {
        let rules = rules(pack);
        let mut all = 0;
        for seed in seeds {
            let g = random_game(&rules, seed * 7, 300);
            let want = board_count(&rules, &g.moves);
            assert_eq!(g.captured, want, "{pack} seed {seed}");
            let made: u64 = g.captures.iter().sum();
            assert_eq!(made, want.iter().sum::<u64>(), "{pack} seed {seed}");
            all += made;
        }
        assert!(all > 0, "{pack}: no piece taken in any game");
    }
}

/// Othello's first move flips exactly one disc, whichever it is.
#[test]
fn the_first_othello_move_flips_one_disc() {
    let rules = rules("othello.toml");
    for seed in 0..4 {
        let g = random_game(&rules, seed, 1);
        assert_eq!(g.plies, 1);
        assert_eq!(g.captured.iter().sum::<u64>(), 1, "seed {seed}");
        assert_eq!(g.captures.iter().sum::<u64>(), 1, "seed {seed}");
    }
}

/// The report counts the flips: discs captured in Othello (none before effects were counted).
#[test]
fn balance_reports_flips_as_captures() {
    let r = ply(
        &[
            "balance",
            "rulesets/othello.toml",
            "--player",
            "random",
            "--games",
            "3",
            "--json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    let disc = &v["kinds"][0];
    assert_eq!(disc["kind"], "Disc");
    // Each move flips at least one disc.
    let moves = disc["moves"].as_u64().unwrap();
    assert!(disc["captured"].as_u64().unwrap() >= moves, "{disc}");
    assert_eq!(disc["captures"], disc["captured"]);
}
