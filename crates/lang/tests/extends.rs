//! `extends`: switching off inherited rules.

use ply_kernel::Section;
use ply_lang::load_str;

const JUNGLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/jungle.toml");

fn variant(body: &str) -> String {
    format!("extends = \"{JUNGLE}\"\n{body}\n")
}

#[test]
fn a_misspelt_switch_off_is_an_error_with_a_hint() {
    let text = variant("[rules.capture]\nsame-elements = false\n\n[end]\nno-move = false");
    let err = load_str("variant.toml", &text, &[]).unwrap_err();
    let msgs: Vec<(&str, Option<&str>)> = err
        .diagnostics
        .iter()
        .map(|d| (d.message.as_str(), d.help.as_deref()))
        .collect();
    assert_eq!(
        msgs,
        [
            (
                "there is no inherited rule `same-elements` in [rules.capture] to switch off",
                Some("did you mean `same-element`?")
            ),
            (
                "there is no inherited rule `no-move` in [end] to switch off",
                Some("did you mean `no-moves`?")
            ),
        ]
    );
    // Each points at its key.
    for (d, key) in err.diagnostics.iter().zip(["same-elements", "no-move"]) {
        let loc = d.loc.unwrap();
        assert_eq!(
            &err.sources.get(loc.file).unwrap().text[loc.start..loc.end],
            key
        );
    }
}

#[test]
fn a_switch_off_removes_the_inherited_rule() {
    let text = variant("[rules.capture]\nsame-element = false\n\n[end]\nno-moves = false");
    let pack = load_str("variant.toml", &text, &[]).unwrap();
    let capture = pack.rules.rule_names(Section::Capture);
    let end = pack.rules.rule_names(Section::End);
    assert!(capture.iter().all(|r| r != "same-element"));
    assert!(end.iter().all(|r| r != "no-moves"));
    assert!(!pack.resolved.contains("same-element"), "{}", pack.resolved);
    // The other inherited rules stay.
    assert!(capture.iter().any(|r| r == "rank-decides"));
    assert!(end.iter().any(|r| r == "den"));
}

#[test]
fn false_in_a_pack_without_extends_is_an_error() {
    let text = r#"
[game]
players = ["A", "B"]
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]
[rules.enter]
dry = false
[setup.A]
Stone = "a1"
"#;
    let err = load_str("plain.toml", text, &[]).unwrap_err();
    assert_eq!(err.error_count(), 1, "{}", err.render(false));
    assert_eq!(
        err.diagnostics[0].message,
        "there is no rule `dry` in [rules.enter] to switch off"
    );
}
