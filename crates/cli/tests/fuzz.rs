//! Robustness: random input to the protocol, the notation and position readers, the record
//! reader and the play loop. Nothing may panic. (The loader's own properties are the language
//! crate's: `crates/lang/tests/properties.rs`.)

mod common;

use ply_cli::record::Record;
use ply_cli::script::Session;
use ply_kernel::{Position, Rules, parse_path};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

fn rules(name: &str) -> Arc<Rules> {
    static PACKS: OnceLock<Vec<(String, Arc<Rules>)>> = OnceLock::new();
    let packs = PACKS.get_or_init(|| {
        ["jungle.toml", "jungle_simplified.toml", "cats_rabbits.toml"]
            .iter()
            .map(|n| {
                let pack = ply_lang::load(common::root().join("rulesets").join(n), &[]).unwrap();
                (n.to_string(), pack.rules)
            })
            .collect()
    });
    packs.iter().find(|(n, _)| n == name).unwrap().1.clone()
}

/// A JSON value of the kinds actions take as arguments.
fn argument() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-3i64..12).prop_map(|i| json!(i)),
        any::<i64>().prop_map(|i| json!(i)),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "A", "B", "C", "RABBIT", "CAT", "Lion", "Rat", "Cat", ""
        ])
        .prop_map(|s| json!(s)),
        ".{0,8}".prop_map(|s| json!(s)),
        Just(Value::Null),
        any::<bool>().prop_map(|b| json!(b)),
        Just(json!([1, 2])),
        Just(json!({"a": 1})),
    ]
}

/// A JSON array that looks like an action.
fn action() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec![
        "init", "clear", "place", "move", "piece", "snapshot", "display", "turn", "winner",
        "moves", "undo", "redo", "position", "load", "status", "why", "help", "nonsense",
    ]);
    (names, prop::collection::vec(argument(), 0..8)).prop_map(|(name, args)| {
        let mut items = vec![json!(name)];
        items.extend(args);
        Value::Array(items)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn protocol_lines_of_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut s = Session::new(rules("jungle_simplified.toml"));
        let line = String::from_utf8_lossy(&bytes);
        let _ = s.handle_line(&line);
        let _ = s.handle_line("[\"snapshot\"]");
    }

    #[test]
    fn protocol_random_actions(actions in prop::collection::vec(action(), 1..40),
                               pack in prop::sample::select(vec![
                                   "jungle.toml", "jungle_simplified.toml", "cats_rabbits.toml"])) {
        let mut s = Session::new(rules(pack));
        for a in &actions {
            let answer = s.handle_line(&a.to_string());
            // Only an unknown action is an error; a known one answers, false at worst.
            prop_assert_eq!(answer.get("error").is_some(), a[0] == "nonsense", "{} -> {}", a, answer);
        }
    }

    #[test]
    fn notation_of_random_strings(text in ".{0,16}", moves in "[a-j0-9x:\\- ]{0,12}") {
        for pack in ["jungle.toml", "cats_rabbits.toml"] {
            let r = rules(pack);
            let _ = parse_path(&r, &text);
            let _ = parse_path(&r, &moves);
        }
    }

    #[test]
    fn position_strings_of_random_text(text in ".{0,40}",
                                       board in "[0-9A-Z/a-z ]{0,40}",
                                       field in "(clock=[0-9]{1,6}|winner=[AB]|draw|[a-z=]{0,6})") {
        let r = rules("jungle.toml");
        let _ = Position::from_position_string(r.clone(), &text);
        let _ = Position::from_position_string(r.clone(), &board);
        let start = Position::start(r.clone()).to_position_string();
        let _ = Position::from_position_string(r.clone(), &format!("{start} {field}"));
        if let Ok(p) = Position::from_position_string(r, &board) {
            let _ = p.render();
            let _ = p.legal_moves();
        }
    }

    #[test]
    fn records_of_random_text(text in "(.{0,20}\n){0,6}") {
        let _ = Record::parse(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn play_on_random_lines(lines in prop::collection::vec(
        prop_oneof![
            "[a-h][0-9]{1,2}[-x]?[a-h][0-9]{1,2}",
            prop::sample::select(vec!["undo", "redo", "moves", "help", "board", ""])
                .prop_map(String::from),
            ".{0,10}",
        ], 0..30)) {
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let r = common::ply(&["play", "rulesets/jungle.toml", "--vs", "random", "--seed", "3"],
                            &input);
        // Refused lines make the session fail with 1, and only they do.
        prop_assert!(r.code == 0 || r.code == 1, "{}", r.code);
        prop_assert_eq!(r.code == 1, r.err.contains("lines of the input refused")
            || r.err.contains("line of the input refused"), "{}", r.err);
    }
}
