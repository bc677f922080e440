//! Deep expressions are refused with a located error, never with a stack overflow. Every
//! test runs in an ordinary test thread, with its ordinary stack.

use ply_lang::{LoadError, MAX_EXPR_DEPTH, load_str};

const BASE: &str = r#"
[game]
players = ["A", "B"]
attributes = ["rank"]

[board]
rows = 3
cols = 3

[pieces.Stone]
letter = "S"
rank = 1
moves = ["step orthogonal"]

[setup.A]
Stone = "a1"

[setup.B]
Stone = "c3"
"#;

fn load(extra: &str) -> Result<ply_lang::Pack, LoadError> {
    load_str("deep.toml", &format!("{BASE}\n{extra}\n"), &[])
}

/// The pack fails with exactly one "too deep" error, located inside the file.
fn assert_too_deep(extra: &str) {
    let Err(err) = load(extra) else {
        panic!("a too deep expression loads");
    };
    let deep: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("nests too deeply"))
        .collect();
    assert_eq!(deep.len(), 1, "{}", err.render(false));
    assert_eq!(
        deep[0].message,
        format!("this expression nests too deeply; the limit is {MAX_EXPR_DEPTH}")
    );
    let loc = deep[0].loc.expect("the error is located");
    let len = BASE.len() + extra.len() + 2;
    assert!(
        loc.start <= loc.end && loc.end <= len,
        "{loc:?} outside the file"
    );
    assert!(
        loc.start > BASE.len(),
        "{loc:?} points into the base, not the expression"
    );
}

#[test]
fn a_long_sum_is_too_deep() {
    let sum = vec!["mover.rank"; 2000].join(" + ");
    assert_too_deep(&format!("[rules.capture]\nbig = '{sum} > 0'"));
}

#[test]
fn many_parentheses_are_too_deep() {
    let e = format!("{}true{}", "(".repeat(20_000), ")".repeat(20_000));
    assert_too_deep(&format!("[rules.enter]\nparens = '{e}'"));
}

#[test]
fn many_nots_are_too_deep() {
    let e = format!("{}true", "not ".repeat(20_000));
    assert_too_deep(&format!("[rules.enter]\nnots = '{e}'"));
}

#[test]
fn many_minus_signs_and_ifs_are_too_deep() {
    assert_too_deep(&format!(
        "[rules.enter]\nnegs = '{}1 > 0'",
        "- ".repeat(20_000)
    ));
    let ifs = "if true and true then ".repeat(20_000);
    assert_too_deep(&format!(
        "[rules.enter]\nifs = '{ifs} true {}'",
        " else false".repeat(20_000)
    ));
}

#[test]
fn a_chain_of_definitions_is_too_deep() {
    let mut define = String::from("[define]\nd0 = 'mover.rank'\n");
    for i in 1..5000 {
        define.push_str(&format!("d{i} = 'd{} + 1'\n", i - 1));
    }
    assert_too_deep(&format!("{define}\n[rules.capture]\nchain = 'd4999 > 0'"));
}

#[test]
fn arguments_copied_into_deep_places_are_too_deep() {
    // A parameter 61 levels down: one call fits, a call as the argument of another does not,
    // since the argument is copied to where the parameter is.
    let define = format!("[define]\n\"f(x)\" = 'x{}'\n", " + 1".repeat(60));
    assert!(load(&format!("{define}\n[rules.capture]\none = 'f(1) > 0'")).is_ok());
    assert_too_deep(&format!(
        "{define}\n[rules.capture]\nnested = 'f(f(1)) > 0'"
    ));
}

#[test]
fn arguments_copied_many_times_are_too_large() {
    let define = "[define]\n\"d(x)\" = 'x + x'\n";
    let e = format!("{}1{}", "d(".repeat(40), ")".repeat(40));
    let Err(err) = load(&format!("{define}\n[rules.capture]\nhuge = '{e} > 0'")) else {
        panic!("an expression of 2^40 parts loads");
    };
    let text = err.render(false);
    assert!(text.contains("grows too large"), "{text}");
    assert_eq!(err.error_count(), 1, "{text}");
}

#[test]
fn a_deep_condition_in_a_pattern_is_too_deep() {
    let e = format!("{}true{}", "(".repeat(5_000), ")".repeat(5_000));
    let pack = BASE.replace(
        "moves = [\"step orthogonal\"]",
        &format!("moves = [\"step orthogonal when {e}\"]"),
    );
    let Err(err) = load_str("deep.toml", &pack, &[]) else {
        panic!("a too deep pattern loads");
    };
    assert!(
        err.render(false).contains("nests too deeply"),
        "{}",
        err.render(false)
    );
}

#[test]
fn expressions_up_to_the_limit_load() {
    // A sum of 60 terms is 60 deep once `.rank` is counted: within the limit.
    let sum = vec!["mover.rank"; 40].join(" + ");
    let nots = "not ".repeat(40);
    let parens = format!("{}true{}", "(".repeat(90), ")".repeat(90));
    let pack = load(&format!(
        "[rules.capture]\nsum = '{sum} > 0'\nnots = '{nots}true'\nparens = '{parens}'"
    ));
    if let Err(e) = pack {
        panic!("{}", e.render(false));
    }
}

#[test]
fn deeply_nested_toml_is_refused_without_a_crash() {
    for text in [
        format!("a = {}1{}", "[".repeat(20_000), "]".repeat(20_000)),
        format!("a = {}1{}", "{b = ".repeat(20_000), "}".repeat(20_000)),
        format!(
            "{BASE}\n[setup.B]\nStone = {}\"a1\"{}",
            "[".repeat(5_000),
            "]".repeat(5_000)
        ),
    ] {
        let r = load_str("deep.toml", &text, &[]);
        assert!(r.is_err());
    }
}
