//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads a shipped pack, panicking with the rendered diagnostics if it fails.
pub fn pack(name: &str, set: &[(&str, &str)]) -> Arc<ply_kernel::Rules> {
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    match ply_lang::load(root().join("rulesets").join(name), &set) {
        Ok(p) => p.rules,
        Err(e) => panic!("{name} does not load:\n{}", e.render(false)),
    }
}
