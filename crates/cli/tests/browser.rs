//! The web board and the playground in a real browser: `web-tests/run.mjs` drives headless
//! Chromium (playwright-core) against `ply serve` processes it starts from this build's
//! binary. The test fails, never skips, when node, playwright-core or Chromium is missing,
//! and says what to install.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn the_web_pages_work_in_a_real_browser() {
    let tests = root().join("web-tests");
    let node = std::env::var("PLY_NODE").unwrap_or_else(|_| "node".to_string());
    let version = Command::new(&node).arg("--version").output();
    let Ok(version) = version.as_ref().map(|o| o.status.success()) else {
        panic!(
            "the browser tests need Node.js (`{node}` cannot be run): install it (Debian: \
             `apt-get install -y nodejs npm`), then `npm ci` in web-tests/ and \
             `apt-get install -y chromium`"
        );
    };
    assert!(
        version,
        "`{node} --version` failed: install Node.js 18 or later"
    );
    assert!(
        tests.join("node_modules/playwright-core").is_dir(),
        "the browser tests need playwright-core: run `npm ci` in {} (and `apt-get install -y \
         chromium` for the browser)",
        tests.display()
    );
    let started = std::time::Instant::now();
    let out = Command::new(&node)
        .current_dir(&tests)
        .arg("run.mjs")
        .args(["--ply", env!("CARGO_BIN_EXE_ply")])
        .args(["--packs", &root().join("rulesets").display().to_string()])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    assert!(
        out.status.success(),
        "the browser tests failed after {:.1} s:\n{stdout}\n{stderr}",
        started.elapsed().as_secs_f64()
    );
    // Every scenario ran: none was left out by a filter or an early exit.
    assert_eq!(
        stdout.matches("\nok    ").count() + usize::from(stdout.starts_with("ok    ")),
        14,
        "{stdout}"
    );
}
