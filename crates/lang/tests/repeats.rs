//! One diagnostic per place and cause.

use ply_lang::load_str;

#[test]
fn a_mistake_in_a_definition_used_often_is_reported_once() {
    let text = r#"
[game]
players = ["A", "B"]
[board]
rows = 3
cols = 3
[pieces.Stone]
letter = "S"
moves = ["step orthogonal when ok", "step diagonal when ok"]
[define]
ok = 'to in nowhere'
[rules.enter]
a = 'ok'
b = 'ok and ok'
[setup.A]
Stone = "a1"
"#;
    let err = load_str("repeats.toml", text, &[]).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1, "{}", err.render(false));
    assert_eq!(err.diagnostics[0].message, "unknown name `nowhere`");
}

#[test]
fn an_evaluation_error_in_every_case_is_reported_once() {
    let jungle = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/jungle.toml");
    let text = format!(
        "extends = \"{jungle}\"\n[rules.enter]\ndry = 'to.row / (to.row - from.row) > -100'\n"
    );
    let err = load_str("repeats.toml", &text, &[]).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1, "{}", err.render(false));
    let d = &err.diagnostics[0];
    assert!(d.message.contains(", when "), "{}", d.message);
    let help = d.help.as_deref().unwrap_or("");
    let n: usize = help
        .strip_prefix("and ")
        .and_then(|h| h.strip_suffix(" more like it"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of the others: {help}"));
    assert!(n > 100, "{n}");
}
