//! The `ply script` protocol: the additions (help, errors for unknown actions, cell names,
//! `why`), and its properties over random input: one answer per line, a refused move changes
//! nothing, a printed position loads back as itself.

mod common;

use ply_cli::script::{ACTIONS, Session, serve};
use ply_kernel::Rules;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

const PACKS: [&str; 4] = [
    "jungle.toml",
    "jungle_simplified.toml",
    "cats_rabbits.toml",
    "checkers.toml",
];

fn rules(name: &str) -> Arc<Rules> {
    static LOADED: OnceLock<Vec<(String, Arc<Rules>)>> = OnceLock::new();
    let loaded = LOADED.get_or_init(|| {
        PACKS
            .iter()
            .map(|n| {
                let pack = ply_lang::load(common::root().join("rulesets").join(n), &[]).unwrap();
                (n.to_string(), pack.rules)
            })
            .collect()
    });
    loaded.iter().find(|(n, _)| n == name).unwrap().1.clone()
}

fn session() -> Session {
    let mut s = Session::new(rules("jungle_simplified.toml"));
    assert_eq!(s.handle(&json!(["init"])), json!(true));
    s
}

#[test]
fn help_describes_every_action() {
    let mut s = session();
    let help = s.handle(&json!(["help"]));
    let actions = help["actions"].as_array().unwrap();
    assert_eq!(actions.len(), ACTIONS.len());
    for name in [
        "init", "clear", "place", "move", "piece", "snapshot", "display", "turn", "winner", "why",
        "load",
    ] {
        let a = actions.iter().find(|a| a["action"] == name).unwrap();
        assert!(!a["answer"].as_str().unwrap().is_empty(), "{name}");
    }
    assert!(help["cells"].as_str().unwrap().contains("\"a7\""));
}

#[test]
fn unknown_actions_are_errors_that_name_them_and_list_the_known_ones() {
    let mut s = session();
    let answer = s.handle(&json!(["jump", "A", "a7"]));
    let message = answer["error"].as_str().unwrap();
    assert!(message.contains("unknown action `jump`"), "{message}");
    for (name, _, _) in ACTIONS {
        assert!(message.contains(name), "{message}");
    }
    assert!(s.handle(&json!({"move": 1}))["error"].is_string());
    assert!(s.handle(&json!([]))["error"].is_string());
}

#[test]
fn cell_names_wherever_rows_and_columns_go() {
    let mut s = session();
    assert_eq!(s.handle(&json!(["piece", "a7"])), json!("AR"));
    assert_eq!(s.handle(&json!(["piece", 2, 0])), json!("AR"));
    assert_eq!(s.handle(&json!(["move", "A", "a7", "a6"])), json!(true));
    assert_eq!(s.handle(&json!(["piece", 3, 0])), json!("AR"));
    // Mixed forms in one path.
    assert_eq!(s.handle(&json!(["move", "B", "g3", 5, 6])), json!(true));
    assert_eq!(s.handle(&json!(["piece", "g4"])), json!("BR"));
    // A name off the board is like an off-board pair.
    assert_eq!(s.handle(&json!(["piece", "z9"])), Value::Null);
    assert_eq!(s.handle(&json!(["piece", 40, 0])), Value::Null);
    assert_eq!(s.handle(&json!(["clear"])), json!(true));
    assert_eq!(s.handle(&json!(["place", "A", "Rat", "a7"])), json!(true));
    assert_eq!(s.handle(&json!(["snapshot"])), json!([[2, 0, "AR"]]));
    assert_eq!(s.handle(&json!(["place", "A", "Cat", "z9"])), json!(false));
}

#[test]
fn why_gives_the_reason_of_the_last_false() {
    let mut s = session();
    assert_eq!(s.handle(&json!(["why"])), Value::Null);
    // Refused by the rules: the kernel's reason, which names the rule.
    assert_eq!(s.handle(&json!(["move", "A", "a7", "a8"])), json!(true));
    assert_eq!(s.handle(&json!(["move", "B", "e3", "e4"])), json!(false));
    let why = s.handle(&json!(["why"]));
    assert!(
        why.as_str().unwrap().contains("only-swimmers-in-water"),
        "{why}"
    );
    // Asking again, or asking for help, keeps the answer; any other action replaces it.
    assert_eq!(s.handle(&json!(["why"])), why);
    assert_eq!(s.handle(&json!(["turn"])), json!("B"));
    assert_eq!(s.handle(&json!(["why"])), Value::Null);
    // Malformed arguments, and the other actions that answer false.
    assert_eq!(s.handle(&json!(["move", "B", 1])), json!(false));
    let why = s.handle(&json!(["why"]));
    assert!(
        why.as_str().unwrap().contains("PLAYER [CELL...] [=LETTER]"),
        "{why}"
    );
    assert_eq!(s.handle(&json!(["move", "C", "a1", "a2"])), json!(false));
    assert!(
        s.handle(&json!(["why"]))
            .as_str()
            .unwrap()
            .contains("`C` is not a player")
    );
    assert_eq!(s.handle(&json!(["place", "A", "Lion", "a8"])), json!(false));
    assert!(
        s.handle(&json!(["why"]))
            .as_str()
            .unwrap()
            .contains("already occupied")
    );
    assert_eq!(s.handle(&json!(["load", "nonsense"])), json!(false));
    assert!(
        s.handle(&json!(["why"]))
            .as_str()
            .unwrap()
            .contains("bad position string")
    );
    assert_eq!(s.handle(&json!(["init"])), json!(true));
    assert_eq!(s.handle(&json!(["undo"])), json!(false));
    assert!(
        s.handle(&json!(["why"]))
            .as_str()
            .unwrap()
            .contains("no move to take back")
    );
}

/// An action with plausible and implausible arguments, cell names among them.
fn action() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(
        ACTIONS
            .iter()
            .map(|(n, _, _)| *n)
            .chain(["nonsense"])
            .collect::<Vec<_>>(),
    );
    let argument = prop_oneof![
        (-2i64..12).prop_map(|i| json!(i)),
        "[a-k][0-9]{1,2}".prop_map(|s| json!(s)),
        prop::sample::select(vec![
            "A", "B", "RABBIT", "CAT", "Lion", "Rat", "Man", "King"
        ])
        .prop_map(|s| json!(s)),
        ".{0,6}".prop_map(|s| json!(s)),
        Just(Value::Null),
        Just(json!(1.5)),
    ];
    (names, prop::collection::vec(argument, 0..6)).prop_map(|(name, args)| {
        let mut items = vec![json!(name)];
        items.extend(args);
        Value::Array(items)
    })
}

/// A session some random legal moves into a game (picked by `picks`).
fn played(pack: &str, picks: &[usize]) -> Session {
    let mut s = Session::new(rules(pack));
    s.handle(&json!(["init"]));
    for &k in picks {
        let moves = s.handle(&json!(["moves"]));
        let moves = moves.as_array().unwrap();
        if moves.is_empty() {
            break;
        }
        let listed = &moves[k % moves.len()];
        let turn = s.handle(&json!(["turn"]));
        assert_eq!(s.handle(&move_action(&turn, listed)), json!(true));
    }
    s
}

/// The `move` action that plays a move as `moves` lists it: the pairs flattened, a choice
/// (`"=Q"`) kept as it is.
fn move_action(player: &Value, listed: &Value) -> Value {
    let mut items = vec![json!("move"), player.clone()];
    for item in listed.as_array().unwrap() {
        match item.as_array() {
            Some(rc) => items.extend(rc.iter().cloned()),
            None => items.push(item.clone()),
        }
    }
    Value::Array(items)
}

/// A session on a shipped pack that [`rules`] does not keep.
fn other_session(pack: &str) -> Session {
    let pack = ply_lang::load(common::root().join("rulesets").join(pack), &[]).unwrap();
    let mut s = Session::new(pack.rules);
    assert_eq!(s.handle(&json!(["init"])), json!(true));
    s
}

/// Plays whole games through the protocol, each move one that `moves` listed, until the game
/// is over or `plies` are played: every one is accepted. Returns what was listed and played
/// (placements, passes, choices).
fn play_listed(s: &mut Session, seed: usize, plies: usize) -> (usize, usize, usize) {
    let (mut placements, mut passes, mut choices) = (0, 0, 0);
    for ply in 0..plies {
        if !s.handle(&json!(["status"]))["to_move"].is_string() {
            break;
        }
        let moves = s.handle(&json!(["moves"]));
        let moves = moves.as_array().unwrap();
        if moves.is_empty() {
            break;
        }
        // Promotions first when there are some, so that games reach them.
        let listed = moves
            .iter()
            .find(|m| m.as_array().unwrap().iter().any(Value::is_string))
            .unwrap_or(&moves[(seed * 7919 + ply * 104_729) % moves.len()]);
        let items = listed.as_array().unwrap();
        match items.len() {
            0 => passes += 1,
            1 => placements += 1,
            _ if items.iter().any(Value::is_string) => choices += 1,
            _ => {}
        }
        let turn = s.handle(&json!(["turn"]));
        let action = move_action(&turn, listed);
        let before = s.handle(&json!(["position"]));
        assert_eq!(
            s.handle(&action),
            json!(true),
            "{action} at {before}: {:?}",
            s.handle(&json!(["why"]))
        );
    }
    (placements, passes, choices)
}

#[test]
fn move_plays_the_placements_the_moves_list() {
    let mut s = other_session("connect_four.toml");
    let (placements, _, _) = play_listed(&mut s, 1, 42);
    assert!(placements >= 7, "{placements}");
    // A placement is one cell; the discs fall to the lowest empty cell of the column.
    let mut s = other_session("connect_four.toml");
    let first = s.handle(&json!(["moves"]))[0].clone();
    assert_eq!(first.as_array().unwrap().len(), 1, "{first}");
    assert_eq!(s.handle(&move_action(&json!("RED"), &first)), json!(true));
    assert_eq!(s.handle(&json!(["move", "YELLOW", "a6"])), json!(false));
    assert!(s.handle(&json!(["why"])).is_string());
}

#[test]
fn move_plays_the_placements_and_passes_the_moves_list() {
    let (mut placements, mut passes) = (0, 0);
    for seed in 0..6 {
        let mut s = other_session("othello.toml");
        let (pl, pa, _) = play_listed(&mut s, seed, 80);
        placements += pl;
        passes += pa;
    }
    assert!(placements > 100, "{placements}");
    assert!(passes > 0, "no game passed");
    // A pass is the move with no cell: refused while a placement is possible.
    let mut s = other_session("othello.toml");
    assert_eq!(s.handle(&json!(["move", "BLACK"])), json!(false));
    let why = s.handle(&json!(["why"]));
    assert!(why.as_str().unwrap().contains("pass"), "{why}");
}

#[test]
fn move_plays_the_promotions_the_moves_list() {
    let mut s = other_session("chess.toml");
    assert_eq!(
        s.handle(&json!(["load", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"])),
        json!(true)
    );
    let moves = s.handle(&json!(["moves"]));
    for letter in ["=Q", "=R", "=B", "=N"] {
        assert!(
            moves
                .as_array()
                .unwrap()
                .contains(&json!([[1, 0], [0, 0], letter])),
            "{moves}"
        );
    }
    // Without the choice: refused, and why says how to give it.
    assert_eq!(
        s.handle(&json!(["move", "White", "a7", "a8"])),
        json!(false)
    );
    let why = s.handle(&json!(["why"]));
    assert!(why.as_str().unwrap().contains("=Q"), "{why}");
    assert_eq!(
        s.handle(&json!(["move", "White", "a7", "a8", "=X"])),
        json!(false)
    );
    assert_eq!(
        s.handle(&json!(["move", "White", "a7", "a8", "=n"])),
        json!(true)
    );
    assert_eq!(s.handle(&json!(["piece", "a8"])), json!("WN"));
    // Whole games through the protocol, past their promotions.
    let mut promoted = 0;
    for seed in 0..4 {
        let mut s = other_session("chess.toml");
        promoted += play_listed(&mut s, seed, 400).2;
    }
    assert!(promoted > 0, "no game promoted");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Every non-blank line, JSON or not, UTF-8 or not, gets exactly one answer line, which is
    /// JSON.
    #[test]
    fn one_answer_per_line(lines in prop::collection::vec(prop_oneof![
        action().prop_map(|a| a.to_string().into_bytes()),
        prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..24),
    ], 0..30)) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let mut output = Vec::new();
        serve(rules("jungle_simplified.toml"), &input[..], &mut output).unwrap();
        let out = String::from_utf8(output).unwrap();
        let answers: Vec<&str> = out.lines().collect();
        let expected = lines
            .iter()
            .filter(|l| !std::str::from_utf8(l).is_ok_and(|t| t.trim().is_empty()))
            .count();
        prop_assert_eq!(answers.len(), expected, "{}", out);
        for a in answers {
            prop_assert!(serde_json::from_str::<Value>(a).is_ok(), "{}", a);
        }
    }

    /// A move or placement answered false leaves the position as it was.
    #[test]
    fn a_refused_move_changes_nothing(pack in prop::sample::select(PACKS.to_vec()),
                                      picks in prop::collection::vec(any::<usize>(), 0..30),
                                      attempts in prop::collection::vec(action(), 1..20)) {
        let mut s = played(pack, &picks);
        for a in attempts {
            let before = s.handle(&json!(["position"]));
            let answer = s.handle(&a);
            if answer == json!(false) && (a[0] == "move" || a[0] == "place") {
                prop_assert!(s.handle(&json!(["why"])).is_string(), "{}", a);
                prop_assert_eq!(s.handle(&json!(["position"])), before, "{}", a);
            }
        }
    }

    /// `["load", X]` of a printed position string gives back the same string.
    #[test]
    fn a_printed_position_loads_back(pack in prop::sample::select(PACKS.to_vec()),
                                     picks in prop::collection::vec(any::<usize>(), 0..60)) {
        let mut s = played(pack, &picks);
        let text = s.handle(&json!(["position"]));
        let mut other = Session::new(rules(pack));
        prop_assert_eq!(other.handle(&json!(["load", text.clone()])), json!(true));
        prop_assert_eq!(other.handle(&json!(["position"])), text.clone());
        prop_assert_eq!(other.handle(&json!(["display"])), s.handle(&json!(["display"])));
    }
}

/// The README documents every action, and its example session answers as printed.
#[test]
fn the_readme_documents_the_protocol() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("## The script protocol")
        .expect("a protocol section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    for (name, _, _) in ACTIONS {
        assert!(
            section.contains(&format!("| `{name}` |"))
                || section.contains(&format!("`{name}` /"))
                || section.contains(&format!("/ `{name}` |")),
            "{name} is not in the README's table"
        );
    }
    // The example: the quoted actions of the printf line, then the answers under it.
    let example = &section[section.find("```console").unwrap()..];
    let example = &example[..example[3..].find("```").unwrap() + 3];
    let command: String = example
        .lines()
        .take_while(|l| !l.contains("cargo run"))
        .chain(example.lines().filter(|l| l.contains("cargo run")))
        .collect::<Vec<_>>()
        .join(" ");
    let actions: Vec<&str> = command.split('\'').skip(3).step_by(2).collect();
    let answers: Vec<&str> = example
        .lines()
        .skip_while(|l| !l.contains("cargo run"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    assert_eq!(actions.len(), answers.len(), "{actions:?} {answers:?}");
    let mut s = Session::new(rules("jungle.toml"));
    for (a, want) in actions.iter().zip(answers) {
        assert_eq!(s.handle_line(a).to_string(), want, "{a}");
    }
}

/// Found by fuzzing: a board cleared (or set up piece by piece) that the end rules would judge
/// over printed without a result, and read back as over. It now says it was set up, reads
/// back as itself, and seed 000's answers (`winner` is null after `clear`) stay.
#[test]
fn a_cleared_board_reads_back_as_itself() {
    let mut s = Session::new(rules("jungle_simplified.toml"));
    assert_eq!(s.handle(&json!(["clear"])), json!(true));
    assert_eq!(s.handle(&json!(["move", "A", 0, 0, 0, 1])), json!(false));
    assert_eq!(s.handle(&json!(["winner"])), Value::Null);
    let text = s.handle(&json!(["position"]));
    assert_eq!(text, json!("7/7/7/7/7/7/7/7/7 A setup"));
    let mut other = Session::new(rules("jungle_simplified.toml"));
    assert_eq!(other.handle(&json!(["load", text.clone()])), json!(true));
    assert_eq!(other.handle(&json!(["position"])), text);
    assert_eq!(other.handle(&json!(["winner"])), Value::Null);
}
