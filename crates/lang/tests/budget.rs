//! The compile budget: definitions that double at each level are refused in milliseconds with
//! a located error naming the budget, never by running out of memory; so is an evaluation too
//! costly to tabulate.

use ply_lang::{MAX_EVAL_STEPS, MAX_EXPR_NODES, MAX_PACK_NODES, load_str};
use std::time::{Duration, Instant};

const BASE: &str = r#"[game]
players = ["A", "B"]

[board]
rows = 8
cols = 8

[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]

[setup.A]
Stone = "a1"
"#;

/// `levels` definitions, each using the one before twice.
fn doubling(levels: usize) -> String {
    let mut s = String::from("\n[define]\nd0 = \"1\"\n");
    for i in 1..=levels {
        s.push_str(&format!("d{i} = \"d{} + d{}\"\n", i - 1, i - 1));
    }
    s
}

fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = at - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[test]
fn doubling_definitions_are_refused_in_milliseconds_at_the_rule() {
    let text = format!("{BASE}{}\n[rules.enter]\nbig = \"d30 > 0\"\n", doubling(30));
    let start = Instant::now();
    let err = load_str("doubling.toml", &text, &[]).unwrap_err();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "took {took:?}");
    let large: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("grows too large"))
        .collect();
    assert_eq!(large.len(), 1, "{}", err.render(false));
    assert!(
        large[0].message.contains(&MAX_EXPR_NODES.to_string()),
        "{}",
        large[0].message
    );
    let loc = large[0].loc.expect("located");
    assert_eq!(&text[loc.start..loc.end], "d30 > 0");
    assert_eq!(line_col(&text, loc.start).0, text.lines().count());
    let help = large[0].help.as_deref().unwrap_or_default();
    assert!(help.contains("d30 -> d29"), "{help}");
}

#[test]
fn a_small_doubling_still_loads() {
    // 2^10 parts: well within the budget, so the budget does not refuse honest packs.
    let text = format!("{BASE}{}\n[rules.enter]\nbig = \"d10 > 0\"\n", doubling(10));
    load_str("ten.toml", &text, &[]).unwrap();
}

#[test]
fn many_rules_sharing_a_large_definition_cross_the_pack_budget() {
    // Each rule is within the per-expression limit, all of them together are not.
    // d14 is 2^15 - 1 parts, and about twice as many steps to check (each use of a
    // definition is a step too).
    let each = (1 << 16) - 1;
    assert!(each < MAX_EXPR_NODES);
    let rules = MAX_PACK_NODES / each + 2;
    let mut text = format!("{BASE}{}\n[rules.enter]\n", doubling(14));
    for i in 0..rules {
        text.push_str(&format!("r{i} = \"d14 > {i}\"\n"));
    }
    let start = Instant::now();
    let err = load_str("many.toml", &text, &[]).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5));
    let spent: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("compile budget"))
        .collect();
    assert_eq!(spent.len(), 1, "{}", err.render(false));
    assert!(spent[0].message.contains(&MAX_PACK_NODES.to_string()));
    let loc = spent[0].loc.expect("located");
    assert!(text[loc.start..loc.end].starts_with("d14 > "));
}

#[test]
fn a_costly_evaluation_is_refused_before_it_is_tabulated() {
    // 2^15 - 1 parts for each of 8 pieces on 256 cells: past the evaluation budget.
    let mut base = BASE.replace("rows = 8\ncols = 8", "rows = 16\ncols = 16");
    for letter in ["T", "U", "V"] {
        base.push_str(&format!(
            "\n[pieces.{letter}]\nletter = \"{letter}\"\nmoves = [\"step orthogonal\"]\n"
        ));
    }
    let text = format!("{base}{}\n[eval]\nbonus = \"d14\"\n", doubling(14));
    let Err(err) = load_str("eval.toml", &text, &[]) else {
        panic!("a costly evaluation loads");
    };
    let d = err
        .diagnostics
        .iter()
        .find(|d| d.message.contains("evaluation budget"))
        .unwrap_or_else(|| panic!("{}", err.render(false)));
    assert!(
        d.message.contains(&MAX_EVAL_STEPS.to_string()),
        "{}",
        d.message
    );
    let loc = d.loc.expect("located");
    assert_eq!(&text[loc.start..loc.end], "\"d14\"");
}
