//! Messages that say what is wrong and how to fix it, at the right place.

use ply_lang::{LoadError, load_str};

const BASE: &str = r#"
[game]
players = ["A", "B"]

[board]
rows = 3
cols = 3

[zones.water]
cells = "b2"

[pieces.Stone]
letter = "S"
moves = ["step orthogonal"]
"#;

const SETUP: &str = "\n[setup.A]\nStone = \"a1\"\n";

fn errors(text: &str) -> LoadError {
    match load_str("messages.toml", text, &[]) {
        Ok(_) => panic!("loads:\n{text}"),
        Err(e) => e,
    }
}

/// The only error of the pack, and the text it points at.
fn only_error(text: &str) -> (String, Option<String>, String) {
    let err = errors(text);
    assert_eq!(err.error_count(), 1, "{}", err.render(false));
    let d = &err.diagnostics[0];
    let loc = d.loc.expect("located");
    let at = text[loc.start..loc.end].to_string();
    (d.message.clone(), d.help.clone(), at)
}

fn rule(expr: &str) -> String {
    format!("{BASE}{SETUP}\n[rules.enter]\nr = '{expr}'\n")
}

#[test]
fn an_unclosed_parenthesis_is_named() {
    let (m, h, at) = only_error(&rule("not (to in water"));
    assert_eq!(m, "syntax error in rule `r`: this `(` is never closed");
    assert_eq!(h.as_deref(), Some("add the `)` that closes it"));
    assert_eq!(at, "(");
}

#[test]
fn a_single_equals_sign_asks_for_two() {
    let (m, _, at) = only_error(&rule("to.row = 1"));
    assert!(
        m.ends_with("`=` is not an operator of expressions: to compare, write `==`"),
        "{m}"
    );
    assert_eq!(at, "=");
    // `==`, `<=`, `>=` and `!=` are fine.
    assert!(
        load_str(
            "ok.toml",
            &rule("to.row == 1 and to.row <= 2 and to.row >= 0 and to.row != 2"),
            &[]
        )
        .is_ok()
    );
}

#[test]
fn comparisons_do_not_chain() {
    let (m, _, at) = only_error(&rule("0 < to.row < 3"));
    assert!(
        m.ends_with("comparisons do not chain: write `0 < to.row and to.row < 3`"),
        "{m}"
    );
    assert_eq!(at, "0 < to.row < 3");
    // With parentheses it is a comparison of a truth value: a type error, not this one.
    let err = errors(&rule("(0 < to.row) < 3"));
    assert!(!err.render(false).contains("do not chain"));
}

#[test]
fn a_jump_without_across_says_so() {
    let text =
        format!("{BASE}{SETUP}").replace("\"step orthogonal\"", "\"jump orthogonal when true\"");
    let (m, _, at) = only_error(&text);
    assert_eq!(
        m,
        "syntax error in move pattern: a jump needs `across ZONE`: the zone it jumps over"
    );
    assert_eq!(at, "jump orthogonal");
}

#[test]
fn unusable_names_are_refused_where_declared() {
    for (text, name, what) in [
        (
            format!("{BASE}{SETUP}")
                .replace("[pieces.Stone]", "[pieces.step]")
                .replace("Stone = ", "step = "),
            "step",
            "a kind of piece",
        ),
        (
            format!("{BASE}{SETUP}").replace("[zones.water]", "[zones.deep-water]"),
            "deep-water",
            "a zone",
        ),
        (
            format!("{BASE}{SETUP}\n[options.when]\ndefault = true\n"),
            "when",
            "an option",
        ),
        (
            format!("{BASE}{SETUP}\n[define]\n\"x-y\" = 'true'\n"),
            "x-y",
            "a definition",
        ),
        (
            format!("{BASE}{SETUP}").replace("letter = \"S\"", "letter = \"S\"\ntags = [\"is\"]"),
            "is",
            "a tag",
        ),
        (
            format!("{BASE}{SETUP}").replace(
                "players = [\"A\", \"B\"]",
                "players = [\"A\", \"B\"]\nattributes = [\"2nd\"]",
            ),
            "2nd",
            "an attribute",
        ),
        (BASE.replace("\"B\"]", "\"B-side\"]"), "B-side", "a player"),
    ] {
        let err = errors(&text);
        let d = err
            .diagnostics
            .iter()
            .find(|d| d.message.contains(&format!("`{name}`")))
            .unwrap_or_else(|| panic!("nothing about `{name}`:\n{}", err.render(false)));
        assert!(
            d.message.ends_with(&format!("so it cannot name {what}")),
            "{}",
            d.message
        );
        let loc = d.loc.unwrap();
        assert!(
            text[loc.start..loc.end].contains(name),
            "{}",
            &text[loc.start..loc.end]
        );
    }
}

#[test]
fn two_players_of_one_name() {
    let text = BASE.replace("[\"A\", \"B\"]", "[\"A\", \"A\"]");
    let (m, _, at) = only_error(&text);
    assert_eq!(m, "both players are named `A`");
    assert_eq!(at, "\"A\"");
}

#[test]
fn extends_inside_a_table_says_where_it_goes() {
    let text = format!("{BASE}{SETUP}").replace("[game]\n", "[game]\nextends = \"base.toml\"\n");
    let (m, h, at) = only_error(&text);
    assert_eq!(m, "unknown key `extends` in [game]");
    assert!(h.unwrap().contains("move it to the top of the file"));
    assert_eq!(at, "extends");
}

#[test]
fn a_pack_without_setup_warns() {
    let pack = load_str("empty.toml", BASE, &[]).unwrap();
    let texts: Vec<&str> = pack.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        texts.contains(&"this pack has no [setup]: the game starts on an empty board"),
        "{texts:?}"
    );
    let with = load_str("set.toml", &format!("{BASE}{SETUP}"), &[]).unwrap();
    assert!(with.warnings.iter().all(|w| !w.message.contains("[setup]")));
}

#[test]
fn what_a_variant_inherits_and_leaves_unused_is_not_reported() {
    let dir = std::env::temp_dir().join(format!("ply-inherited-lints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = format!(
        "{BASE}{SETUP}\n[define]\nstones = 'count(player, Stone)'\n\n\
         [end.alone]\nwhen = 'stones == 0 and count(pieces(opponent) in water) > 0'\nwinner = 'opponent'\n"
    );
    std::fs::write(dir.join("base.toml"), &base).unwrap();
    let variant = "extends = \"base.toml\"\n\n[end]\nalone = false\n\n\
                   [zones.shore]\ncells = \"a3\"\n\n[define]\nmine = 'count(player, Stone)'\n";
    std::fs::write(dir.join("variant.toml"), variant).unwrap();
    let texts = |file: &str| -> Vec<String> {
        let pack = ply_lang::load(dir.join(file), &[]).unwrap();
        pack.warnings.iter().map(|w| w.message.clone()).collect()
    };
    // The base uses its zone and definition; the variant switched off the rule that read them.
    assert!(texts("base.toml").is_empty(), "{:?}", texts("base.toml"));
    let warned = texts("variant.toml");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        warned,
        [
            "zone `shore` is never used",
            "definition `mine` is never used"
        ],
        "only what the variant declares itself is reported"
    );
}
