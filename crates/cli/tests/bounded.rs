//! Engines, perft and packs bounded: a spec past a cap, a series whose tables would not fit,
//! a perft too deep, a pack that is a device or that doubles at each definition are refused
//! with an error that names the limit, quickly; never an abort, a stack overflow or memory
//! run out. Each runs the real binary.

mod common;

use common::root;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ply(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_script_engine_past_its_table_cap_answers_and_the_session_goes_on() {
    let lines = [
        r#"["init"]"#,
        r#"["engine","alphabeta:tt=28,depth=1"]"#,
        r#"["why"]"#,
        r#"["engine","mcts:threads=200,iterations=10"]"#,
        r#"["why"]"#,
        r#"["engine","alphabeta:depth=1"]"#,
    ];
    let out = ply(
        &["script", "rulesets/chess.toml"],
        &(lines.join("\n") + "\n"),
    );
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let answers: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), lines.len(), "{answers:?}");
    assert_eq!(answers[1], Value::Bool(false));
    let why = answers[2].as_str().unwrap();
    assert!(
        why.contains("tt=28") && why.contains("past the cap of tt=24"),
        "{why}"
    );
    assert_eq!(answers[3], Value::Bool(false));
    let why = answers[4].as_str().unwrap();
    assert!(why.contains("past the cap of 64 threads"), "{why}");
    // Within the caps, the engine plays.
    assert!(answers[5]["move"].is_array(), "{:?}", answers[5]);
}

#[test]
fn a_match_whose_tables_would_not_fit_is_refused_naming_the_cap() {
    let started = Instant::now();
    let out = ply(
        &[
            "match",
            "rulesets/chess.toml",
            "--a",
            "alphabeta:depth=1",
            "--b",
            "alphabeta:depth=1",
            "--threads",
            "256",
            "--games",
            "1000",
        ],
        "",
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("256 games at once"), "{err}");
    assert!(err.contains("past the cap of 4294967296 bytes"), "{err}");
}

#[test]
fn a_player_past_a_cap_is_refused_by_every_command() {
    for args in [
        &[
            "match",
            "rulesets/chess.toml",
            "--a",
            "alphabeta:tt=28",
            "--b",
            "random",
        ][..],
        &["play", "rulesets/chess.toml", "--vs", "alphabeta:tt=28"][..],
        &[
            "analyse",
            "rulesets/chess.toml",
            "--engine",
            "alphabeta:tt=28",
        ][..],
        &[
            "balance",
            "rulesets/chess.toml",
            "--player",
            "mcts:threads=100",
        ][..],
    ] {
        let out = ply(args, "");
        assert_eq!(code(&out), 2, "{args:?}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains("past the cap of"), "{args:?}: {err}");
    }
}

#[test]
fn a_perft_too_deep_is_an_error_not_a_crash() {
    let out = ply(&["perft", "rulesets/chess.toml", "100000"], "");
    assert_eq!(code(&out), 1, "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("perft depth 100000 is past the limit of 32 plies"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(&["perft", "rulesets/chess.toml", "33"], "");
    assert_eq!(code(&out), 1);
    // At the limit, a count runs (here a game of passes: one move a ply), stack and all.
    let dir = std::env::temp_dir().join(format!("ply-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = dir.join("passes.toml");
    std::fs::write(
        &pack,
        "[game]\nplayers = [\"A\", \"B\"]\npass = true\n[board]\nrows = 3\ncols = 3\n\
         [pieces.Stone]\nletter = \"S\"\nmoves = [\"step n\"]\n\
         [setup.A]\nStone = \"a3\"\n[setup.B]\nStone = \"c3\"\n",
    )
    .unwrap();
    let out = ply(&["perft", pack.to_str().unwrap(), "32"], "");
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("perft(32) = 1 "),
        "{}",
        text(&out.stdout)
    );
}

#[cfg(unix)]
#[test]
fn validate_refuses_a_device_and_a_doubling_pack_quickly() {
    let started = Instant::now();
    let out = ply(&["validate", "/dev/zero"], "");
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stderr).contains("cannot read pack `/dev/zero`: it is not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(&["validate", "tests/packs/bad/doubling.toml"], "");
    assert_eq!(code(&out), 1);
    let err = text(&out.stderr);
    assert!(err.contains("the limit is 100000 parts"), "{err}");
    assert!(err.contains("doubling.toml:49:8"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}
