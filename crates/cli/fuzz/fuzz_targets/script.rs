//! Fuzzes the `ply script` protocol on shipped packs (the first byte of the input picks one of
//! [`PACKS`]). The rest of the input is split into lines, each fed to `Session::handle_line`; checked after every line: a `move` or `place`
//! answered `false` left the position as it was and has a reason (`["why"]`), and the position
//! string printed then loads back as itself in a fresh session. The whole input is also served
//! as a stream: every non-blank line (UTF-8 or not) gets exactly one answer line, which is
//! JSON. Any panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_cli::script::{Session, serve};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The shipped packs fuzzed, with their options: the seed's Jungle, then packs with hop chains,
/// mandatory captures, promotion and clocks in their position strings.
const PACKS: [(&str, &[(&str, &str)]); 4] = [
    ("jungle_simplified.toml", &[]),
    ("jungle.toml", &[]),
    ("cats_rabbits.toml", &[("multi_hop", "true")]),
    ("checkers.toml", &[]),
];

/// A fresh session on shipped pack number `which` (of [`PACKS`]), each loaded once.
fn start(which: usize) -> Session {
    static START: OnceLock<Vec<Session>> = OnceLock::new();
    START.get_or_init(|| {
        PACKS
            .iter()
            .map(|(name, set)| {
                let path = format!("{}/../../../rulesets/{name}", env!("CARGO_MANIFEST_DIR"));
                let set: Vec<(String, String)> =
                    set.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
                let rules = ply_lang::load(path, &set).expect("the shipped pack loads").rules;
                Session::new(rules)
            })
            .collect()
    })[which % PACKS.len()]
        .clone()
}

fn position(s: &mut Session) -> Value {
    s.handle(&json!(["position"]))
}

fuzz_target!(|input: &[u8]| {
    // The first byte chooses the pack; the rest is the lines. (An input from before the packs
    // were chosen this way plays its first line on the pack its first byte picks.)
    let Some((&which, data)) = input.split_first() else {
        return;
    };
    let which = which as usize;
    let mut session = start(which);
    for raw in data.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(raw) else {
            continue;
        };
        let before = session.game().position().to_position_string();
        let answer = session.handle_line(line);
        let action: Option<Value> = serde_json::from_str(line).ok();
        let name = action.as_ref().and_then(|a| a.get(0)).and_then(Value::as_str);
        if answer == json!(false) && matches!(name, Some("move" | "place")) {
            let why = session.handle(&json!(["why"]));
            assert!(why.is_string(), "{line}: no reason ({why})");
            assert_eq!(
                session.game().position().to_position_string(),
                before,
                "{line} was refused but changed the position"
            );
        }
        let text = position(&mut session);
        let mut other = start(which);
        assert_eq!(other.handle(&json!(["load", text.clone()])), json!(true), "{text}");
        assert_eq!(position(&mut other), text);
    }

    let rules = start(which).game().rules().clone();
    let mut out = Vec::new();
    serve(rules, data, &mut out).expect("writing to a buffer");
    let out = String::from_utf8(out).expect("answers are UTF-8");
    let lines = data
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(i, l)| {
            // A final piece without a newline is a line too, unless it is empty.
            let last = *i == data.split(|b| *b == b'\n').count() - 1;
            !(last && l.is_empty()) && !std::str::from_utf8(l).is_ok_and(|t| t.trim().is_empty())
        })
        .count();
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), lines, "{out}");
    for a in answers {
        assert!(serde_json::from_str::<Value>(a).is_ok(), "{a}");
    }
});
