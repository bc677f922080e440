//! The real `ply` binary: exit codes, piped standard input, no colour off a terminal, and
//! `ply script` with every seed 000 example.

mod common;

use common::root;
use ply_cli::script::Session;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary from the repository root with `stdin` piped in.
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
    o.status.code().expect("exited, not killed")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn exit_codes() {
    assert_eq!(code(&ply(&["validate", "rulesets/"], "")), 0);
    assert_eq!(code(&ply(&["validate", "tests/packs/bad/"], "")), 1);
    assert_eq!(
        code(&ply(&["validate", "rulesets/", "tests/packs/bad/"], "")),
        1
    );
    assert_eq!(code(&ply(&["frobnicate"], "")), 2);
    assert_eq!(code(&ply(&["perft", "rulesets/jungle.toml"], "")), 2);
    assert_eq!(code(&ply(&["perft", "rulesets/jungle.toml", "2"], "")), 0);
    let bad = ply(
        &["perft", "rulesets/jungle.toml", "2", "--position", "x A"],
        "",
    );
    assert_eq!(code(&bad), 1);
    assert!(text(&bad.stderr).contains("bad position string"));
    assert_eq!(code(&ply(&["--version"], "")), 0);
}

#[test]
fn no_colour_when_piped_or_with_no_color() {
    for no_color in [false, true] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
        cmd.args(["validate", "tests/packs/bad/unknown_names.toml"])
            .current_dir(root());
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let o = cmd.output().unwrap();
        assert_eq!(code(&o), 1);
        let err = text(&o.stderr);
        assert!(err.contains("unknown_names.toml:21:53"), "{err}");
        assert!(!err.contains('\x1b'), "{err}");
        assert!(!text(&o.stdout).contains('\x1b'));
    }
    // `--color always` colours into a pipe, whatever NO_COLOR says.
    let o = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "--color",
            "always",
            "validate",
            "tests/packs/bad/unknown_names.toml",
        ])
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .unwrap();
    assert!(text(&o.stderr).contains('\x1b'), "{}", text(&o.stderr));
}

#[test]
fn diagnostics_on_stderr_answers_on_stdout() {
    let o = ply(&["validate", "tests/packs/bad/unknown_names.toml"], "");
    assert_eq!(code(&o), 1);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(
        out.starts_with("FAIL  tests/packs/bad/unknown_names.toml  (")
            && out.ends_with("errors)\n"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(err.contains("unknown_names.toml:21:53"), "{err}");
    // `--json` is all on standard output, nothing on standard error.
    let o = ply(
        &["validate", "--json", "tests/packs/bad/unknown_names.toml"],
        "",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(text(&o.stderr), "");
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(v["ok"], false);
    // Errors of any command read `error: ...` on standard error.
    let o = ply(&["moves", "rulesets/jungle.toml", "--from", "z9"], "");
    assert_eq!(code(&o), 1);
    assert_eq!(text(&o.stdout), "");
    assert!(text(&o.stderr).starts_with("error: `z9` is not a cell"));
}

#[test]
fn play_piped_to_a_win() {
    let o = ply(
        &[
            "play",
            "rulesets/cats_rabbits.toml",
            "--position",
            "7/1RR5/7/7/7/4CC2/RR6 RABBIT",
        ],
        "b6-c7\na1-a2\ne2-e3\nundo\nredo\nb6-b7\n",
    );
    // The refused first line makes the piped session exit with 1, after the whole game.
    assert_eq!(code(&o), 1, "{}", text(&o.stderr));
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(err.starts_with("error: RR cannot go b6-c7"), "{err}");
    assert!(
        out.ends_with("Result: RABBIT wins (rabbit-home)\n"),
        "{out}"
    );
    // Without the refused line, success.
    let o = ply(
        &[
            "play",
            "rulesets/cats_rabbits.toml",
            "--position",
            "7/1RR5/7/7/7/4CC2/RR6 RABBIT",
        ],
        "a1-a2\ne2-e3\nb6-b7\n",
    );
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
}

#[test]
fn play_until_the_input_ends() {
    let o = ply(
        &[
            "play",
            "rulesets/jungle.toml",
            "--vs",
            "random",
            "--seed",
            "1",
        ],
        "a7-a6\n",
    );
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    assert!(out.contains("B plays "), "{out}");
    assert!(
        out.ends_with("End of input; the game is not finished.\n"),
        "{out}"
    );
}

#[test]
fn script_answers_every_seed_example() {
    let rules = ply_lang::load(root().join("rulesets/jungle_simplified.toml"), &[])
        .unwrap()
        .rules;
    let data = std::fs::read_to_string(root().join("tests/data/seed000_examples.jsonl")).unwrap();
    let mut compared = 0;
    for (n, line) in data.lines().enumerate() {
        let case: Value = serde_json::from_str(line).unwrap();
        let actions = case["actions"].as_array().unwrap();
        let expected = case["expected"].as_array().unwrap();
        let input: String = actions.iter().map(|a| format!("{a}\n")).collect();
        let o = ply(&["script", "rulesets/jungle_simplified.toml"], &input);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        let answers: Vec<Value> = text(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), actions.len(), "example {}", n + 1);
        // Whose turn it is once the game is over is the one allowed difference; an in-process
        // session tells when that is.
        let mut session = Session::new(rules.clone());
        for ((a, want), got) in actions.iter().zip(expected).zip(&answers) {
            let over = session.game().outcome().is_some();
            session.handle(a);
            if a[0] == "turn" && over {
                continue;
            }
            assert_eq!(got, want, "example {} action {a}", n + 1);
            compared += 1;
        }
    }
    assert!(compared >= 38, "{compared}");
}

#[test]
fn script_survives_garbage() {
    let o = ply(
        &["script", "rulesets/jungle_simplified.toml"],
        "{\n[1,2]\n[\"move\"]\n\u{1F600}\n[\"place\",\"A\",\"Lion\",99999999999999999999,0]\n[\"turn\"]\n",
    );
    assert_eq!(code(&o), 0);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[0].starts_with("{\"error\""));
    // Not an action (no name first): an error; a known action with bad arguments: false.
    assert!(lines[1].starts_with("{\"error\""), "{}", lines[1]);
    assert_eq!(lines[2], "false");
    assert_eq!(lines[4], "false");
    assert_eq!(lines[5], "\"A\"");
}

#[test]
fn script_answers_a_line_that_is_not_utf8() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["script", "rulesets/jungle_simplified.toml"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"[\"init\"]\n\xff\xfe\n[\"turn\"]\n")
        .unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].contains("not UTF-8"), "{out}");
    assert_eq!(lines[2], "\"A\"");
}
