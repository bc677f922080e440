//! Seed 000: the simplified Jungle pack must answer every action as the seed's reference
//! solution does. The expected answers in `tests/data/` were produced once by that reference;
//! only the facts are stored here.
//!
//! The one difference allowed is whose turn it is once the game is over (the reference leaves
//! the turn with the winner), so `turn` answers after a win are not compared.

mod common;

use ply_cli::script::Session;
use serde_json::Value;

fn run_file(name: &str) -> (usize, usize) {
    let rules = common::pack("jungle_simplified.toml", &[]);
    let text = std::fs::read_to_string(common::root().join("tests/data").join(name)).unwrap();
    let (mut sequences, mut actions) = (0, 0);
    for (line_no, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).unwrap();
        let acts = case["actions"].as_array().unwrap();
        let expected = case["expected"].as_array().unwrap();
        assert_eq!(acts.len(), expected.len());
        let mut session = Session::new(rules.clone());
        for (i, (a, want)) in acts.iter().zip(expected).enumerate() {
            let over = session.game().outcome().is_some();
            let got = session.handle(a);
            if a[0] == "turn" && over {
                continue;
            }
            assert_eq!(
                &got,
                want,
                "{name} line {} action {i} {a}: got {got}, want {want}\nposition {}",
                line_no + 1,
                session.game().position().to_position_string()
            );
            actions += 1;
        }
        sequences += 1;
    }
    (sequences, actions)
}

#[test]
fn every_example_of_the_seed() {
    let (sequences, actions) = run_file("seed000_examples.jsonl");
    assert_eq!(sequences, 4);
    assert!(actions >= 38);
}

#[test]
fn differential_against_the_reference() {
    let (sequences, actions) = run_file("seed000_differential.jsonl");
    assert_eq!(sequences, 400);
    assert!(actions > 30_000, "{actions}");
}
