//! Every pack in `tests/packs/bad/` is broken on purpose; the rendered diagnostics of each are
//! kept as insta snapshots, so that a change in what is reported, or where, shows in review.

mod common;

#[test]
fn each_bad_pack_reports_located_errors() {
    insta::glob!("packs/bad/*.toml", |path| {
        let rel = path.strip_prefix(common::root()).unwrap();
        let err = match ply_lang::load(rel, &[]) {
            Ok(_) => panic!("{} loaded, but it is broken on purpose", rel.display()),
            Err(e) => e,
        };
        assert!(err.error_count() > 0);
        let located = err.diagnostics.iter().filter(|d| d.loc.is_some()).count();
        assert!(
            located > 0,
            "{}: no diagnostic has a location",
            rel.display()
        );
        insta::assert_snapshot!(err.render(false));
    });
}

#[test]
fn an_unknown_option_is_reported_with_a_suggestion() {
    let set = vec![("multi_hp".to_string(), "true".to_string())];
    let err = ply_lang::load("rulesets/cats_rabbits.toml", &set).unwrap_err();
    let text = err.render(false);
    assert!(text.contains("unknown option `multi_hp`"), "{text}");
    assert!(text.contains("did you mean `multi_hop`?"), "{text}");
    let set = vec![("multi_hop".to_string(), "yes".to_string())];
    let err = ply_lang::load("rulesets/cats_rabbits.toml", &set).unwrap_err();
    assert!(err.render(false).contains("`yes` is not a value"));
}

#[test]
fn shipped_packs_load_without_warnings() {
    for name in ["jungle.toml", "jungle_simplified.toml", "cats_rabbits.toml"] {
        let pack = ply_lang::load(common::root().join("rulesets").join(name), &[]).unwrap();
        assert!(
            pack.warnings.is_empty(),
            "{name}: {}",
            pack.render_warnings(false)
        );
    }
}
