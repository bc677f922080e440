//! "Did you mean" hints come only from the names the place accepts, and prefer the same case.

use ply_lang::{LoadError, load_str};

const BASE: &str = r#"
[game]
players = ["RABBIT", "CAT"]
attributes = ["rank"]

[board]
rows = 3
cols = 3

[zones.water]
cells = "b2"

[zones.deep-water]
cells = "a2"

[pieces.Rabbit]
letter = "R"
tags = ["swimmer"]
moves = ["step orthogonal"]

[pieces.Cat]
letter = "C"
moves = ["step orthogonal", "hop orthogonal over Rabbit"]

[setup.RABBIT]
Rabbit = "a1"

[setup.CAT]
Cat = "c3"
"#;

fn errors(extra: &str) -> LoadError {
    match load_str("hints.toml", &format!("{BASE}\n{extra}\n"), &[]) {
        Ok(_) => panic!("`{extra}` loads"),
        Err(e) => e,
    }
}

/// The help of the error about `name`.
fn help_for(extra: &str, name: &str) -> String {
    let err = errors(extra);
    let d = err
        .diagnostics
        .iter()
        .find(|d| d.message.contains(&format!("`{name}`")))
        .unwrap_or_else(|| panic!("no error about `{name}`:\n{}", err.render(false)));
    d.help.clone().unwrap_or_default()
}

#[test]
fn after_is_a_kind_of_the_same_case() {
    let help = help_for("[rules.capture]\nr = 'not target is Rabit'", "Rabit");
    assert_eq!(help, "did you mean `Rabbit`?");
}

#[test]
fn after_over_a_kind() {
    let pack = format!("{BASE}\n").replace("over Rabbit", "over Rabbt");
    let err = load_str("hints.toml", &pack, &[]).unwrap_err();
    let d = err
        .diagnostics
        .iter()
        .find(|d| d.message == "unknown name `Rabbt`")
        .unwrap_or_else(|| panic!("{}", err.render(false)));
    assert_eq!(d.help.as_deref(), Some("did you mean `Rabbit`?"));
}

#[test]
fn after_has_a_tag_and_the_tags_when_none_is_close() {
    let help = help_for("[rules.enter]\nr = 'mover has swimer'", "swimer");
    assert_eq!(help, "did you mean `swimmer`?");
    // `mover` is a variable, close to `moverr`, but a tag is wanted.
    let help = help_for("[rules.enter]\nr = 'mover has moverr'", "moverr");
    assert_eq!(help, "the tags are `swimmer`");
}

#[test]
fn after_in_a_zone_never_one_that_cannot_be_written() {
    let help = help_for("[rules.enter]\nr = 'not to in watr'", "watr");
    assert_eq!(help, "did you mean `water`?");
    let err = errors("[rules.enter]\nr = 'not to in deep_watr'");
    let text = err.render(false);
    assert!(!text.contains("did you mean `deep-water`"), "{text}");
}

#[test]
fn a_value_is_never_a_zone_or_tag() {
    // `swimmer` is a tag and `water` a zone: neither is a value, so neither is suggested.
    let help = help_for("[rules.enter]\nr = 'swimmerr == 1'", "swimmerr");
    assert!(!help.contains("swimmer`"), "{help}");
    let help = help_for("[rules.enter]\nr = 'waterr == 1'", "waterr");
    assert!(!help.contains("water`"), "{help}");
}

#[test]
fn fields_and_functions() {
    let help = help_for("[rules.capture]\nr = 'mover.rnak > 0'", "rnak");
    assert_eq!(help, "did you mean `rank`?");
    let help = help_for("[rules.capture]\nr = 'cuont(CAT) > 0'", "cuont");
    assert_eq!(help, "did you mean `count`?");
}
