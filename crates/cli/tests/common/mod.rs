//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use ply_cli::cli::run_args;
use ply_cli::output::Context;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Makes the repository root the current directory, so that paths in outputs read as a user
/// would type them (`rulesets/jungle.toml`). Every test sets the same directory, so running
/// them in parallel is harmless.
pub fn at_root() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::env::set_current_dir(root()).expect("cd to the root"));
}

/// What a command did.
#[derive(Debug)]
pub struct Run {
    /// Exit code.
    pub code: u8,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

/// Runs `ply ARGS` in this process with `stdin` as its input.
pub fn ply(args: &[&str], stdin: &str) -> Run {
    at_root();
    let mut input = stdin.as_bytes();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = {
        let mut cx = Context::new(&mut input, &mut out, &mut err);
        run_args(std::iter::once("ply").chain(args.iter().copied()), &mut cx)
    };
    Run {
        code,
        out: String::from_utf8(out).expect("UTF-8 output"),
        err: String::from_utf8(err).expect("UTF-8 errors"),
    }
}

/// Runs `ply ARGS` and expects success.
pub fn ok(args: &[&str]) -> String {
    let r = ply(args, "");
    assert_eq!(r.code, 0, "ply {args:?} failed:\n{}\n{}", r.out, r.err);
    r.out
}

/// A fresh path in the temporary directory.
pub fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A writer into a buffer that several writers share, so that standard output and standard
/// error interleave as they would on a terminal.
#[derive(Clone, Default)]
pub struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `ply ARGS` with `stdin` as its input; returns the exit code and what a terminal would
/// show: standard output and standard error in the order they were written.
pub fn transcript(args: &[&str], stdin: &str) -> (u8, String) {
    at_root();
    let mut input = stdin.as_bytes();
    let both = Shared::default();
    let (mut out, mut err) = (both.clone(), both.clone());
    let code = {
        let mut cx = Context::new(&mut input, &mut out, &mut err);
        run_args(std::iter::once("ply").chain(args.iter().copied()), &mut cx)
    };
    let text = String::from_utf8(both.0.borrow().clone()).expect("UTF-8 output");
    (code, text)
}
