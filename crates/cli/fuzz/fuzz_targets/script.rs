//! Fuzzes the `ply script` protocol on the simplified Jungle pack. The input is split into
//! lines, each fed to `Session::handle_line`; checked after every line: a `move` or `place`
//! answered `false` left the position as it was and has a reason (`["why"]`), and the position
//! string printed then loads back as itself in a fresh session. The whole input is also served
//! as a stream: every non-blank line (UTF-8 or not) gets exactly one answer line, which is
//! JSON. Any panic is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_cli::script::{Session, serve};
use serde_json::{Value, json};
use std::sync::OnceLock;

/// A fresh session on the shipped pack, loaded once.
fn start() -> Session {
    static START: OnceLock<Session> = OnceLock::new();
    START
        .get_or_init(|| {
            let pack = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../rulesets/jungle_simplified.toml");
            let rules = ply_lang::load(pack, &[]).expect("the shipped pack loads").rules;
            Session::new(rules)
        })
        .clone()
}

fn position(s: &mut Session) -> Value {
    s.handle(&json!(["position"]))
}

fuzz_target!(|data: &[u8]| {
    let mut session = start();
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
        let mut other = start();
        assert_eq!(other.handle(&json!(["load", text.clone()])), json!(true), "{text}");
        assert_eq!(position(&mut other), text);
    }

    let rules = start().game().rules().clone();
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
