//! The loader's properties, shared by the property tests and the fuzz target (which includes
//! this file by path).

use ply_kernel::{Position, Section};
use ply_lang::{Diagnostic, LoadError, Pack, Sources};

/// Every located diagnostic points inside a loaded file.
pub fn assert_located_inside(sources: &Sources, diags: &[Diagnostic]) {
    for d in diags {
        if let Some(loc) = d.loc {
            let file = sources
                .get(loc.file)
                .expect("a diagnostic points at a loaded file");
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

/// Everything a load answered, as text, to compare two loads.
pub fn summary(r: &Result<Pack, LoadError>) -> String {
    match r {
        Ok(p) => format!("ok\n{}\n{}", p.resolved, p.render_warnings(false)),
        Err(e) => format!("err\n{}", e.render(false)),
    }
}

/// What a pack compiles to, as far as the rules say: rule names, move patterns, board, zones,
/// setup, and the moves from the start.
pub fn fingerprint(pack: &Pack) -> String {
    let r = &pack.rules;
    let sections = [
        Section::Enter,
        Section::Capture,
        Section::Place,
        Section::End,
    ];
    let names: Vec<&[String]> = sections.iter().map(|s| r.rule_names(*s)).collect();
    let patterns: Vec<Vec<&str>> = r.kinds().map(|k| r.patterns_of(k).collect()).collect();
    let moves = Position::start(r.clone()).perft(1);
    format!(
        "{names:?} {patterns:?} {:?} {:?} {:?} {moves:?}",
        r.geometry(),
        r.core().zones(),
        r.setup()
    )
}
