//! The commands on the engines: `play --vs`, `analyse`, `match`, `balance`, and the `engine`
//! action of the script protocol. Depth- and iteration-limited players only, so that every
//! output is reproducible and no test depends on the machine's speed.

mod common;

use common::ply;
use serde_json::Value;

const JUNGLE: &str = "rulesets/jungle.toml";
const CR: &str = "rulesets/cats_rabbits.toml";
const BT: &str = "rulesets/breakthrough.toml";

/// The text without the times (`0.02 s`), which vary from run to run.
fn untimed(text: &str) -> String {
    text.split(' ')
        .filter(|w| !(w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.')))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn play_against_each_engine() {
    for vs in ["alphabeta:depth=2", "mcts:200", "random"] {
        let args = ["play", CR, "--vs", vs, "--seed", "4"];
        let first = ply(&args, "b1-b2\nc1-c2\nquit\n");
        assert_eq!(first.code, 0, "{vs}: {}", first.err);
        assert!(first.out.contains("CAT plays "), "{}", first.out);
        if vs != "random" {
            assert!(first.out.contains(&format!("CAT is {vs}")), "{}", first.out);
        }
        let again = ply(&args, "b1-b2\nc1-c2\nquit\n").out;
        assert_eq!(untimed(&again), untimed(&first.out), "{vs}");
    }
    // The engine plays first when the user takes the second side.
    let r = ply(
        &["play", JUNGLE, "--vs", "alphabeta:depth=3", "--as", "B"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("A plays a9-b9 (depth 3, score "),
        "{}",
        r.out
    );
}

#[test]
fn bad_player_specs_are_usage_errors() {
    for (args, message) in [
        (
            vec!["play", JUNGLE, "--vs", "mcts:abc"],
            "`abc` is not a time",
        ),
        (
            vec!["play", JUNGLE, "--vs", "alphabeta:depth=-1"],
            "expected a whole number from 1 to 127",
        ),
        (
            vec!["match", JUNGLE, "--a", "minimax", "--b", "random"],
            "unknown player `minimax`",
        ),
        (
            vec!["analyse", JUNGLE, "--time", "soon"],
            "`soon` is not a time",
        ),
        (
            vec!["balance", JUNGLE, "--player", "mcts:threads=0"],
            "from 1 to 256",
        ),
    ] {
        let r = ply(&args, "");
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.err.contains(message), "{args:?}: {}", r.err);
        assert!(!r.err.contains("panicked"), "{}", r.err);
    }
}

#[test]
fn analyse_prints_each_depth_then_the_best_move() {
    let r = ply(
        &[
            "analyse",
            JUNGLE,
            "--position",
            "6BR/7/7/7/7/3AD3/7/7/7 A",
            "--depth",
            "7",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("depth  1/"), "{}", r.out);
    assert!(
        r.out.contains("best move d4-d3 (score win in 5"),
        "{}",
        r.out
    );
    assert!(r.out.contains("pv d4-d3 "), "{}", r.out);
    let r = ply(&["analyse", BT, "--depth", "3", "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["depth"], 3);
    assert_eq!(v["pv"][0], v["best"]);
    // A depth does not limit MCTS: it analyses for its default time instead of forever.
    let r = ply(&["analyse", CR, "--engine", "mcts", "--depth", "3"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let r = ply(&["analyse", CR, "--engine", "mcts:2000", "--json"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["iterations"], 2000);
}

#[test]
fn analyse_a_finished_or_stuck_position_is_an_error() {
    // B has no piece: A has won.
    let r = ply(
        &[
            "analyse",
            JUNGLE,
            "--position",
            "7/7/7/7/7/7/7/3AD3/7 B",
            "--depth",
            "3",
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(r.err.starts_with("error: nothing to search"), "{}", r.err);
    let r = ply(&["analyse", JUNGLE, "--engine", "random"], "");
    assert_eq!(r.code, 1);
}

#[test]
fn match_reports_score_elo_and_first_player() {
    let args = [
        "match",
        BT,
        "--a",
        "alphabeta:depth=1",
        "--b",
        "random",
        "--games",
        "4",
        "--threads",
        "2",
        "--max-plies",
        "200",
    ];
    let r = ply(&args, "");
    assert_eq!(r.code, 0, "{}", r.err);
    for needle in [
        "A wins",
        "Elo A - B",
        "95% interval",
        "mean length",
        "first player",
    ] {
        assert!(r.out.contains(needle), "{needle}: {}", r.out);
    }
    // The same seed, the same match (but for the times of the longest moves).
    assert_eq!(untimed(&ply(&args, "").out), untimed(&r.out));
    let mut json = args.to_vec();
    json.push("--json");
    let r = ply(&json, "");
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["games"], 4);
    let total = v["a_wins"].as_u64().unwrap()
        + v["b_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap();
    assert_eq!(total, 4);
}

#[test]
fn balance_reports_rates_lengths_and_pieces() {
    let r = ply(
        &[
            "balance",
            CR,
            "--player",
            "mcts:100",
            "--games",
            "6",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    for needle in [
        "RABBIT (first)",
        "Verdict:",
        "Game length: mean",
        "Rabbit",
        "Cat",
        "captured",
    ] {
        assert!(r.out.contains(needle), "{needle}: {}", r.out);
    }
    let r = ply(
        &[
            "balance", CR, "--player", "random", "--games", "5", "--json",
        ],
        "",
    );
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["games"], 5);
    assert_eq!(v["kinds"].as_array().unwrap().len(), 2);
}

#[test]
fn script_asks_an_engine_for_a_move() {
    let input = "[\"init\"]\n[\"engine\", \"alphabeta:depth=2\"]\n[\"engine\", \"mcts:100\"]\n[\"engine\", \"mcts:abc\"]\n[\"why\"]\n";
    let r = ply(&["script", JUNGLE], input);
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<Value> = r
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[1]["depth"], 2);
    assert!(lines[1]["move"].as_array().unwrap().len() == 2);
    assert!(lines[2]["win_rate"].is_number());
    assert_eq!(lines[3], Value::Bool(false));
    assert!(lines[4].as_str().unwrap().contains("not a time"));
}
