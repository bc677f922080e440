//! Properties of the loader, for any input: it never panics, every diagnostic points inside
//! its file, loading twice gives the same answer, and a pack written back out
//! (`Pack::resolved`) loads again to the same rules.

#[path = "common/loader.rs"]
mod loader;
use loader::{assert_located_inside, fingerprint, summary};
use ply_kernel::Position;
use ply_lang::{Pack, load, load_str};
use proptest::prelude::*;
use std::path::PathBuf;

fn rulesets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulesets")
}

const SHIPPED: [&str; 6] = [
    "jungle.toml",
    "jungle_simplified.toml",
    "cats_rabbits.toml",
    "breakthrough.toml",
    "checkers.toml",
    "fox_and_geese.toml",
];

fn shipped_text(name: &str) -> String {
    std::fs::read_to_string(rulesets().join(name)).unwrap()
}

/// Loads `text` twice and checks the properties that hold for any input.
fn check_any(text: &str) {
    let first = load_str("any.toml", text, &[]);
    match &first {
        Ok(pack) => assert_located_inside(&pack.sources, &pack.warnings),
        Err(e) => {
            assert!(e.error_count() > 0, "a failed load without an error");
            assert_located_inside(&e.sources, &e.diagnostics);
        }
    }
    let second = load_str("any.toml", text, &[]);
    assert_eq!(
        summary(&first),
        summary(&second),
        "loading is not deterministic"
    );
    if let Ok(pack) = first {
        // What loads also plays: perft and a playout end, with moves or a typed limit.
        let mut start = Position::start(pack.rules);
        let _ = start.perft(2);
        let mut n = 0usize;
        let _ = start.playout(
            &mut |k| {
                n = n.wrapping_add(7);
                n % k.max(1)
            },
            200,
        );
    }
}

/// A text with a few random edits (deletions, insertions, replacements).
fn mutated(text: String) -> impl Strategy<Value = String> {
    let len = text.len();
    let pieces = prop_oneof![
        ".{0,6}",
        Just("(".to_string()),
        Just(")".to_string()),
        Just("'".to_string()),
        Just("=".to_string()),
        Just(" not ".to_string()),
        Just(" false".to_string()),
        Just("extends = \"x.toml\"\n".to_string()),
    ];
    prop::collection::vec((0..len, 0usize..8, pieces), 1..6).prop_map(move |edits| {
        let mut t = text.clone();
        for (at, cut, insert) in edits {
            let mut at = at.min(t.len());
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + cut).min(t.len());
            while !t.is_char_boundary(end) {
                end -= 1;
            }
            t.replace_range(at..end, &insert);
        }
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        check_any(&text);
    }

    #[test]
    fn pack_like_text_never_panics(text in "(\\[[a-z.]{1,12}\\]\n|[a-z_]{1,8} = ('[a-z ().<=>+0-9]{0,20}'|\"[a-z0-9 :]{0,10}\"|[0-9]{1,2}|true|false)\n){0,12}") {
        check_any(&text);
    }

    #[test]
    fn mutated_shipped_packs_never_panic(
        text in prop::sample::select(SHIPPED.to_vec()).prop_flat_map(|n| mutated(shipped_text(n)))
    ) {
        check_any(&text);
    }
}

#[test]
fn resolved_packs_load_again_to_the_same_rules() {
    let settings: [(&str, Vec<(String, String)>); 7] = [
        ("jungle.toml", vec![]),
        ("jungle_simplified.toml", vec![]),
        ("cats_rabbits.toml", vec![]),
        (
            "cats_rabbits.toml",
            vec![("multi_hop".into(), "true".into())],
        ),
        ("breakthrough.toml", vec![]),
        ("checkers.toml", vec![]),
        ("fox_and_geese.toml", vec![]),
    ];
    for (name, set) in settings {
        let pack = load(rulesets().join(name), &set).unwrap();
        let again = match load_str("resolved.toml", &pack.resolved, &[]) {
            Ok(p) => p,
            Err(e) => panic!(
                "{name}: the resolved pack does not load:\n{}",
                e.render(false)
            ),
        };
        // The same game: the same names, patterns, board, zones and setup, and the same perft.
        assert_eq!(fingerprint(&pack), fingerprint(&again), "{name} {set:?}");
        let perft = |p: &Pack| Position::start(p.rules.clone()).perft(3).unwrap();
        assert_eq!(perft(&pack), perft(&again), "{name} {set:?}");
        assert!(perft(&pack) > 0, "{name}");
    }
}
