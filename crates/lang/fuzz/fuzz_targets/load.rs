//! Fuzzes the pack loader with arbitrary text. Whatever the input: no panic, every
//! diagnostic points inside its file, loading twice gives the same answer, and a pack that
//! loads can be written out (`Pack::resolved`) and loaded again to the same rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_lang::load_str;

#[path = "../../tests/common/loader.rs"]
mod loader;
use loader::{assert_located_inside, fingerprint, summary};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let first = load_str("fuzz.toml", &text, &[]);
    match &first {
        Ok(pack) => assert_located_inside(&pack.sources, &pack.warnings),
        Err(e) => {
            assert!(e.error_count() > 0, "a load failed without an error");
            assert_located_inside(&e.sources, &e.diagnostics);
        }
    }
    let second = load_str("fuzz.toml", &text, &[]);
    assert_eq!(summary(&first), summary(&second), "loading is not deterministic");
    if let Ok(pack) = &first {
        let again = match load_str("resolved.toml", &pack.resolved, &[]) {
            Ok(p) => p,
            Err(e) => panic!(
                "the resolved pack does not load:\n{}\n{}",
                pack.resolved,
                e.render(false)
            ),
        };
        assert_eq!(
            fingerprint(pack),
            fingerprint(&again),
            "the resolved pack loads to other rules"
        );
    }
});

