//! Fuzzes the pack loader with arbitrary text. Whatever the input: no panic, every
//! diagnostic points inside its file, loading twice gives the same answer, and a pack that
//! loads can be written out (`Pack::resolved`) and loaded again to the same rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply_lang::{LoadError, Pack, Sources, load_str};

fn assert_located_inside(sources: &Sources, diags: &[ply_lang::Diagnostic]) {
    for d in diags {
        if let Some(loc) = d.loc {
            let file = sources.get(loc.file).expect("a diagnostic points at a loaded file");
            assert!(
                loc.start <= loc.end && loc.end <= file.text.len(),
                "{loc:?} lies outside {} ({} bytes): {}",
                file.name,
                file.text.len(),
                d.message
            );
        }
    }
}

fn summary(r: &Result<Pack, LoadError>) -> String {
    match r {
        Ok(p) => format!("ok\n{}\n{}", p.resolved, p.render_warnings(false)),
        Err(e) => format!("err\n{}", e.render(false)),
    }
}

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

/// What a pack compiles to, as far as the rules say: rule names, move patterns, board, zones,
/// setup, and the moves from the start.
fn fingerprint(pack: &ply_lang::Pack) -> String {
    use ply_kernel::Section;
    let r = &pack.rules;
    let sections = [Section::Enter, Section::Capture, Section::Place, Section::End];
    let names: Vec<&[String]> = sections.iter().map(|s| r.rule_names(*s)).collect();
    let patterns: Vec<Vec<&str>> = r.kinds().map(|k| r.patterns_of(k).collect()).collect();
    let moves = ply_kernel::Position::start(r.clone()).perft(1);
    format!(
        "{names:?} {patterns:?} {:?} {:?} {:?} {moves:?}",
        r.geometry(),
        r.core().zones(),
        r.setup()
    )
}
