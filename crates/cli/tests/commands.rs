//! Every command, driven in-process through `ply_cli::cli::run_args` with buffers for the
//! streams. Outputs are insta snapshots (no colour; times left out with `--no-timing`).

mod common;

use common::{ok, ply, root, temp_file};
use serde_json::Value;

const JUNGLE: &str = "rulesets/jungle.toml";
const SIMPLIFIED: &str = "rulesets/jungle_simplified.toml";
const CR: &str = "rulesets/cats_rabbits.toml";

// ---------------------------------------------------------------------------------- validate

#[test]
fn validate_the_shipped_packs() {
    let r = ply(&["validate", "rulesets/"], "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The summary says what was played, in words.
    assert!(!r.out.contains("perft"), "{}", r.out);
    assert!(
        r.out
            .contains("played all 12240 sequences of 3 moves from the start"),
        "{}",
        r.out
    );
    insta::assert_snapshot!(r.out);
}

#[test]
fn validate_colours_only_when_asked() {
    let bad = "tests/packs/bad/unknown_names.toml";
    // In-process the streams are buffers, so `auto` means no colour.
    let plain = ply(&["validate", bad], "");
    assert!(!plain.err.contains('\x1b') && !plain.out.contains('\x1b'));
    let never = ply(&["--color", "never", "validate", bad], "");
    assert_eq!(never.err, plain.err);
    let always = ply(&["validate", bad, "--color", "always"], "");
    assert!(always.out.contains("\x1b["), "{}", always.out);
    assert!(always.err.contains("\x1b["), "{}", always.err);
    let r = ply(&["--color", "sometimes", "validate", bad], "");
    assert_eq!(r.code, 2);
}

#[test]
fn validate_each_bad_pack() {
    insta::glob!("../../../tests/packs/bad", "*.toml", |path| {
        let rel = path.strip_prefix(root()).unwrap().to_str().unwrap();
        let r = ply(&["validate", rel], "");
        assert_eq!(r.code, 1, "{rel} validated:\n{}", r.out);
        // The verdict on standard output, the diagnostics on standard error.
        assert!(r.out.starts_with(&format!("FAIL  {rel}")), "{}", r.out);
        assert_eq!(r.out.lines().count(), 1, "{}", r.out);
        // A located error: file:line:col.
        assert!(
            r.err.contains(".toml:") || r.err.contains(".inc:"),
            "{}",
            r.err
        );
        // As a terminal shows them: the diagnostics, then the verdict.
        insta::assert_snapshot!(format!("{}{}", r.err, r.out));
    });
}

#[test]
fn validate_json_of_a_bad_pack() {
    let r = ply(
        &["validate", "--json", "tests/packs/bad/unknown_names.toml"],
        "",
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["ok"], false);
    let errors = v["packs"][0]["errors"].as_array().unwrap();
    assert!(!errors.is_empty());
    for e in errors {
        assert_eq!(e["severity"], "error");
        assert!(e["line"].as_u64().unwrap() >= 1);
        assert!(e["column"].as_u64().unwrap() >= 1);
    }
    insta::assert_snapshot!(r.out);
}

#[test]
fn validate_json_of_good_packs() {
    let r = ply(&["validate", "--json", "rulesets"], "");
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["ok"], true);
    let shipped = std::fs::read_dir(root().join("rulesets"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "toml")
        })
        .count();
    let packs = v["packs"].as_array().unwrap();
    assert_eq!(packs.len(), shipped);
    assert!(
        packs
            .iter()
            .any(|p| p["path"] == "rulesets/jungle.toml" && p["ok"] == true)
    );
}

#[test]
fn validate_a_whole_directory_of_bad_packs_and_missing_paths() {
    let r = ply(&["validate", "tests/packs/bad", "no/such/pack.toml"], "");
    assert_eq!(r.code, 1);
    assert!(r.out.contains("0 ok"), "{}", r.out);
    assert!(r.out.contains("FAIL  no/such/pack.toml"), "{}", r.out);
    let empty = temp_file("empty-dir");
    std::fs::create_dir_all(&empty).unwrap();
    let r = ply(&["validate", empty.to_str().unwrap()], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no `*.toml` pack"), "{}", r.err);
    assert!(!r.out.contains("no `*.toml` pack"), "{}", r.out);
}

#[test]
fn validate_with_an_unknown_option() {
    let r = ply(&["validate", CR, "--set", "multi_hp=true"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("did you mean `multi_hop`?"), "{}", r.err);
}

// -------------------------------------------------------------------------------------- show

#[test]
fn show_each_pack() {
    for (name, pack) in [
        ("jungle", JUNGLE),
        ("jungle_simplified", SIMPLIFIED),
        ("cats_rabbits", CR),
    ] {
        insta::assert_snapshot!(format!("show_{name}"), ok(&["show", pack]));
    }
}

#[test]
fn show_says_why_make_and_unmake_take_the_general_path() {
    let checkers = root().join("rulesets/checkers.toml");
    let out = ok(&["show", checkers.to_str().unwrap()]);
    assert!(
        out.contains(
            "Playing and taking back moves: the general path (slower than the lean one) because \
             of: promotion; end rules, tested after each move"
        ),
        "{out}"
    );
    // The constructs a pack uses are named, as the guide names them.
    let chess = root().join("rulesets/chess.toml");
    let out = ok(&["show", chess.to_str().unwrap()]);
    assert!(
        out.contains(
            "royal pieces; captures of a passing piece; compound moves; choices of promotion\n"
        ),
        "{out}"
    );
    // The lean path says what it is, not just its name.
    let out = ok(&["show", JUNGLE]);
    assert!(
        out.contains("Playing and taking back moves: the lean path (the fastest: "),
        "{out}"
    );
    assert!(!out.contains(": lean\n"), "{out}");
}

#[test]
fn show_with_an_option_and_a_position() {
    let out = ok(&[
        "show",
        CR,
        "--set",
        "multi_hop=true",
        "--position",
        "7/1RR5/7/7/7/4CC2/RR6 CAT",
    ]);
    assert!(out.contains("multi_hop = true (default false)"), "{out}");
    assert!(out.contains("CAT to move"), "{out}");
}

#[test]
fn show_resolved() {
    let out = ok(&["show", SIMPLIFIED, "--resolved"]);
    assert!(out.contains("name = \"Jungle (simplified)\""), "{out}");
    assert!(!out.contains("extends"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn the_resolved_pack_loads_and_plays_the_same() {
    for (pack, set) in [
        (JUNGLE, None),
        (SIMPLIFIED, None),
        (CR, Some("multi_hop=true")),
    ] {
        let mut args = vec!["show", pack, "--resolved"];
        if let Some(s) = set {
            args.extend_from_slice(&["--set", s]);
        }
        let file = temp_file(&format!("resolved-{}", pack.replace('/', "-")));
        std::fs::write(&file, ok(&args)).unwrap();
        let resolved = file.to_str().unwrap();
        let r = ply(&["validate", resolved], "");
        assert_eq!(r.code, 0, "{pack}: {}", r.out);
        for depth in ["3", "4"] {
            let mut a = vec![pack, depth];
            if let Some(s) = set {
                a.extend_from_slice(&["--set", s]);
            }
            assert_eq!(
                perft_nodes(&[resolved, depth]),
                perft_nodes(&a),
                "{pack} {depth}"
            );
        }
    }
}

#[test]
fn show_a_bad_position() {
    let r = ply(
        &["show", JUNGLE, "--position", "AL5XT/7/7/7/7/7/7/7/7 A"],
        "",
    );
    assert_eq!(r.code, 1);
    insta::assert_snapshot!(r.err);
}

// ------------------------------------------------------------------------------------- moves

#[test]
fn moves_from_the_start() {
    for (name, pack) in [
        ("jungle", JUNGLE),
        ("jungle_simplified", SIMPLIFIED),
        ("cats_rabbits", CR),
    ] {
        insta::assert_snapshot!(format!("moves_{name}"), ok(&["moves", pack]));
    }
}

#[test]
fn moves_from_one_cell() {
    assert_eq!(
        ok(&["moves", JUNGLE, "--from", "a7"]),
        "a7-a8\na7-b7\na7-a6\n"
    );
    // A lion beside the river jumps across it, and may not swim.
    let out = ok(&[
        "moves",
        JUNGLE,
        "--position",
        "7/7/7/7/AL6/7/7/7/6BL A",
        "--from",
        "a5",
    ]);
    assert_eq!(out, "a5-a6\na5-a4\na5-d5\n");
    let r = ply(&["moves", JUNGLE, "--from", "e3"], "");
    assert_eq!(r.code, 0);
    assert_eq!(r.out, "");
    assert!(r.err.contains("belongs to B"), "{}", r.err);
}

#[test]
fn moves_as_json_with_a_hop_chain() {
    let r = ply(
        &[
            "moves",
            CR,
            "--set",
            "multi_hop=true",
            "--position",
            "7/7/7/2CC4/2RR4/3RR3/RR6 CAT",
            "--from",
            "c4",
            "--json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    let notations: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert!(notations.contains(&"c4xc2"), "{notations:?}");
    assert!(notations.contains(&"c4xc2xe2"), "{notations:?}");
    let chain = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["notation"] == "c4xc2xe2")
        .unwrap();
    assert_eq!(chain["path"], serde_json::json!([[3, 2], [5, 2], [5, 4]]));
}

#[test]
fn moves_with_bad_input() {
    let r = ply(&["moves", JUNGLE, "--from", "z9"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("`z9` is not a cell"), "{}", r.err);
    let r = ply(&["moves", JUNGLE, "--position", "nonsense"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("bad position string"), "{}", r.err);
}

// ------------------------------------------------------------------------------------- perft

fn perft_nodes(args: &[&str]) -> u64 {
    let mut full = vec!["perft"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--json", "--no-timing"]);
    let v: Value = serde_json::from_str(&ok(&full)).unwrap();
    v["nodes"].as_u64().unwrap()
}

#[test]
fn perft_counts_of_the_shipped_packs() {
    let jungle = [24, 576, 12240, 260099];
    let cats = [7, 42, 456, 2584];
    for (pack, set, counts) in [
        (JUNGLE, None, jungle),
        (SIMPLIFIED, None, jungle),
        (CR, None, cats),
        (CR, Some("multi_hop=true"), cats),
    ] {
        for (d, &want) in counts.iter().enumerate() {
            let depth = (d + 1).to_string();
            let mut args = vec![pack, depth.as_str()];
            if let Some(s) = set {
                args.extend_from_slice(&["--set", s]);
            }
            assert_eq!(perft_nodes(&args), want, "{pack} {set:?} depth {depth}");
            args.push("--bulk");
            assert_eq!(
                perft_nodes(&args),
                want,
                "{pack} {set:?} depth {depth} bulk"
            );
        }
    }
}

#[test]
fn perft_divide() {
    let out = ok(&["perft", CR, "3", "--divide", "--no-timing"]);
    assert!(
        out.ends_with("perft(3) = 456  (make/unmake at every node)\n"),
        "{out}"
    );
    insta::assert_snapshot!(out);
    let out = ok(&["perft", JUNGLE, "2", "--divide", "--json", "--no-timing"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let divide = v["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 24);
    let sum: u64 = divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 576);
}

#[test]
fn perft_with_timing_and_from_a_position() {
    let out = ok(&["perft", JUNGLE, "2"]);
    assert!(out.contains("perft(2) = 576"), "{out}");
    assert!(out.contains("nodes/s"), "{out}");
    assert_eq!(perft_nodes(&[JUNGLE, "0"]), 1);
    // A finished game has no moves.
    assert_eq!(
        perft_nodes(&[
            CR,
            "3",
            "--position",
            "1RR5/7/7/7/4CC2/RR6/7 CAT winner=RABBIT"
        ]),
        0
    );
}

// -------------------------------------------------------------------------------------- play

/// Near the end of a game: a rabbit one step from the top row.
const NEAR_END: &str = "7/1RR5/7/7/7/4CC2/RR6 RABBIT";

/// A scripted game: a notation error, a refused move, moves, undo and redo, the winning move,
/// and a line after the end (ignored).
const SCRIPT: &str =
    "help\nb6-b8\nb6-c7\nc1-c2\na1-a2\ne2-e3\nundo\nundo\nredo\nredo\nmoves\nb6b7\nextra\n";

#[test]
fn play_piped_to_a_win() {
    let r = ply(&["play", CR, "--position", NEAR_END], SCRIPT);
    // Refused lines (2, 3 and 4 of the input) make a piped session fail, after the game.
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err
            .contains("error: RR cannot go b6-c7: no move of Rabbit goes there"),
        "{}",
        r.err
    );
    assert!(
        r.err.contains("error: there is no piece on c1"),
        "{}",
        r.err
    );
    assert!(
        r.err
            .ends_with("error: 3 lines of the input refused (lines 2, 3, 4)\n"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("error"), "{}", r.out);
    assert!(
        // Why: the end rule that decided it.
        r.out
            .trim_end()
            .ends_with("Result: RABBIT wins (rabbit-home)"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("RABBIT> extra"), "{}", r.out);
    // The board once per move, the winning move marked and echoed in canonical notation.
    assert_eq!(r.out.matches("RABBIT plays ").count(), 2, "{}", r.out);
    assert!(r.out.contains("RABBIT plays b6-b7\n"), "{}", r.out);
    assert!(r.out.contains("7  ^^[RR]^^ ^^"), "{}", r.out);
    let (code, text) = common::transcript(&["play", CR, "--position", NEAR_END], SCRIPT);
    assert_eq!(code, 1);
    insta::assert_snapshot!(text);
}

#[test]
fn play_reads_moves_leniently_and_echoes_them_canonically() {
    for typed in [
        "a7 a6",
        "A7-A6",
        "a7xa6",
        "a7:a6",
        "a7a6",
        "a7 - a6",
        "  A7 a6  ",
    ] {
        let r = ply(&["play", JUNGLE], &format!("{typed}\n"));
        assert_eq!(r.code, 0, "{typed}: {}", r.err);
        assert!(r.out.contains("A plays a7-a6\n"), "{typed}: {}", r.out);
        assert!(r.out.contains("B to move"), "{typed}: {}", r.out);
    }
    // A capture is echoed with `x`, however it was typed.
    let r = ply(
        &["play", CR, "--position", "7/7/7/2CC4/2RR4/7/RRRRRR4 CAT"],
        "C4 C2\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("CAT plays c4xc2\n"), "{}", r.out);
}

#[test]
fn play_marks_the_last_move_and_draws_owned_zones_apart_from_pieces() {
    let r = ply(&["play", JUNGLE], "b8-b7\n");
    let boards = r.out.matches("   a  b  c  d  e  f  g\n").count();
    assert_eq!(
        boards, 4,
        "two boards, each with two column lines:\n{}",
        r.out
    );
    assert!(r.out.contains("8  . [. ].  #a .  AC .  8"), "{}", r.out);
    assert!(r.out.contains("7  AR[AD]AP .  AW .  AE 7"), "{}", r.out);
    // An empty trap is `#a`, not `#A`, and the legend says so.
    assert!(!r.out.contains("#A"), "{}", r.out);
    assert!(
        r.out
            .contains("Terrain: ~~ water; #a trap of A, #b trap of B; @a den of A, @b den of B"),
        "{}",
        r.out
    );
    // Side by side: the separator between two marked cells is a bar.
    let r = ply(&["play", JUNGLE], "a7-b7\n");
    assert!(r.out.contains("7 [. |AR]AP .  AW"), "{}", r.out);
}

#[test]
fn play_a_refused_move_names_the_rule() {
    let r = ply(&["play", JUNGLE], "e3-e4\na7-a6\ne3-e4\n");
    assert_eq!(r.code, 1);
    // A's turn: B's leopard is not A's to move; then on B's turn the river forbids it.
    assert!(
        r.err
            .contains("error: the piece on e3 belongs to B, who is not to move"),
        "{}",
        r.err
    );
    assert!(
        r.err.contains(
            "error: BP cannot go e3-e4: rule `only-swimmers-in-water` forbids entering that cell"
        ),
        "{}",
        r.err
    );
    assert!(
        r.out.ends_with("End of input; the game is not finished.\n"),
        "{}",
        r.out
    );
}

#[test]
fn play_against_random_moves_is_reproducible() {
    let args = ["play", CR, "--vs", "random", "--seed", "7"];
    let input = "b1-b2\nundo\nredo\nmoves\nquit\nb1-b2\n";
    let first = ply(&args, input);
    assert_eq!(first.code, 0, "{}", first.err);
    assert!(first.out.contains("CAT plays "), "{}", first.out);
    assert!(
        first.out.ends_with("Quit; the game is not finished.\n"),
        "{}",
        first.out
    );
    assert_eq!(ply(&args, input).out, first.out);
    // One board per turn: the start, the answer to b1-b2, undo, redo.
    assert_eq!(first.out.matches("to move\n").count(), 4, "{}", first.out);
    insta::assert_snapshot!(first.out);
}

#[test]
fn play_as_the_second_player_against_random_moves() {
    let r = ply(
        &["play", JUNGLE, "--vs", "random", "--as", "B", "--seed", "3"],
        "moves\n",
    );
    assert_eq!(r.code, 0);
    assert!(
        r.out.contains("you play B, A plays random moves"),
        "{}",
        r.out
    );
    assert!(r.out.contains("A plays "), "{}", r.out);
    assert!(r.out.contains("B> moves"), "{}", r.out);
}

#[test]
fn play_with_bad_arguments() {
    // A player the pack does not have is a mistake of the command line: 2, as clap's own.
    let r = ply(&["play", JUNGLE, "--as", "C"], "");
    assert_eq!(r.code, 2);
    assert!(r.err.contains("`C` is not a player"), "{}", r.err);
    let r = ply(&["play", JUNGLE, "--vs", "nobody"], "");
    assert_eq!(r.code, 2);
    let r = ply(&["play", JUNGLE, "--position", "7/7 A"], "");
    assert_eq!(r.code, 1);
}

#[test]
fn play_stops_at_a_stuck_position() {
    // In the simplified Jungle a player without a move is stuck, and no rule ends the game.
    let r = ply(
        &[
            "play",
            SIMPLIFIED,
            "--position",
            "ARBL5/BT6/7/7/7/7/7/7/7 A",
        ],
        "a9-b9\n",
    );
    assert_eq!(r.code, 0);
    assert!(
        r.out.ends_with("Result: no legal move for A\n"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("A> "), "{}", r.out);
    // In the standard game the same position is lost for A.
    let r = ply(
        &["play", JUNGLE, "--position", "ARBL5/BT6/7/7/7/7/7/7/7 A"],
        "",
    );
    assert!(r.out.ends_with("Result: B wins (no-moves)\n"), "{}", r.out);
    assert!(
        r.out.contains("Game over: B wins (no-moves)\n"),
        "{}",
        r.out
    );
}

// ------------------------------------------------------------------------------------ replay

#[test]
fn record_then_replay() {
    let file = temp_file("game.txt");
    let path = file.to_str().unwrap();
    let r = ply(
        &[
            "play",
            CR,
            "--set",
            "multi_hop=true",
            "--position",
            NEAR_END,
            "--record",
            path,
        ],
        SCRIPT,
    );
    // The script has refused lines, so the session fails; the record is written all the same.
    assert_eq!(r.code, 1, "{}", r.err);
    let text = std::fs::read_to_string(&file).unwrap();
    // The pack as seen from the record's directory: relative to it where the two share an
    // ancestor below the root (a checkout under the temporary folder), else from the root.
    let pack = root().join(CR).canonicalize().unwrap();
    let written = text
        .lines()
        .find_map(|l| l.strip_prefix("Pack: "))
        .expect("the record names its pack");
    let dir = file.parent().unwrap();
    assert_eq!(
        dir.join(written).canonicalize().unwrap(),
        pack,
        "the record's pack `{written}`, from {}",
        dir.display()
    );
    assert_eq!(
        text,
        format!(
            "# Ply game record\nPack: {written}\nSet: multi_hop=true\n\
             Start: 7/1RR5/7/7/7/4CC2/RR6 RABBIT\nResult: RABBIT wins\n\na1-a2 e2-e3\nb6-b7\n"
        )
    );
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "");
    assert!(
        r.out
            .contains("Position: 1RR5/7/7/7/4CC2/RR6/7 CAT winner=RABBIT"),
        "{}",
        r.out
    );
    insta::assert_snapshot!(r.out.replace(path, "GAME"));
}

#[test]
fn replay_a_record_of_a_whole_game() {
    // Record a game against random moves from the start, then replay it.
    let file = temp_file("random-game.txt");
    let path = file.to_str().unwrap();
    let r = ply(
        &[
            "play", JUNGLE, "--vs", "random", "--seed", "5", "--record", path,
        ],
        "a7-a6\ng7-g6\n",
    );
    assert_eq!(r.code, 0);
    let text = std::fs::read_to_string(&file).unwrap();
    let moves = &text[text.find("\n\n").unwrap()..];
    assert_eq!(moves.matches('-').count(), 4, "{text}");
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("Result: not finished"), "{}", r.out);
    // Replaying with another pack is a warning only (these two agree on the opening).
    let r = ply(&["replay", path, "--pack", SIMPLIFIED], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("warning:"), "{}", r.err);
    assert!(
        r.err
            .contains("rulesets/jungle.toml`; replaying with `rulesets/jungle_simplified.toml`"),
        "{}",
        r.err
    );
}

#[test]
fn replay_a_corrupted_record() {
    let file = temp_file("corrupt.txt");
    let path = file.to_str().unwrap();
    let good = "# a comment\nPack: rulesets/cats_rabbits.toml\nStart: 7/1RR5/7/7/7/4CC2/RR6 RABBIT\n\n\
                a1-a2 e2-e3\n# another\nb6-c7\n";
    std::fs::write(&file, good).unwrap();
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.err,
        format!("error: {path}:7: move b6-c7: RR cannot go b6-c7: no move of Rabbit goes there\n")
    );

    let cases = [
        (
            "Pack: x\nStart: nonsense\n\na1-a2\n",
            ":2: bad position string",
        ),
        ("Pack: x\nbad header\n", ":2: expected a header line"),
        ("b1-b2 zz\n", ":1: `zz` is not a move"),
        (
            "Result: RABBIT wins\n\nb1-b2\n",
            ":1: the record says `RABBIT wins`",
        ),
        ("Set: multi_hop=maybe\n\n", "`maybe` is not a value"),
    ];
    for (text, want) in cases {
        std::fs::write(&file, text).unwrap();
        let r = ply(&["replay", path, "--pack", CR], "");
        assert_eq!(r.code, 1, "{text}");
        assert!(r.err.contains(want), "{text}: {}", r.err);
    }
    let r = ply(&["replay", "no/such/record.txt"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("cannot read the record"), "{}", r.err);
}

#[test]
fn replay_warns_about_unknown_headers_and_conflicting_options() {
    let file = temp_file("headers.txt");
    let path = file.to_str().unwrap();
    std::fs::write(&file, "Event: club night\nSet: multi_hop=false\n\nb1-b2\n").unwrap();
    let r = ply(
        &["replay", path, "--pack", CR, "--set", "multi_hop=true"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains(":1: unknown header `Event`"), "{}", r.err);
    assert!(
        r.err.contains(":2: the record sets multi_hop=false"),
        "{}",
        r.err
    );
    assert!(r.out.contains("1 move replayed"), "{}", r.out);
}

#[test]
fn replay_finds_the_pack_of_the_record() {
    // A record whose `Pack` header is relative to the record's own directory.
    let dir = temp_file("records");
    std::fs::create_dir_all(dir.join("packs")).unwrap();
    std::fs::copy(root().join(CR), dir.join("packs/cr.toml")).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, "Pack: packs/cr.toml\n\nb1-b2 c7-c6\n").unwrap();
    let path = file.to_str().unwrap();
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "");
    assert!(r.out.contains("2 moves replayed"), "{}", r.out);
    // A header that names no file, and no header at all: errors that say what to do.
    std::fs::write(&file, "Pack: nowhere/cr.toml\n\nb1-b2\n").unwrap();
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains(":1: the record's pack `nowhere/cr.toml` is found neither"),
        "{}",
        r.err
    );
    assert!(r.err.contains("--pack"), "{}", r.err);
    std::fs::write(&file, "b1-b2\n").unwrap();
    let r = ply(&["replay", path], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err
            .contains("no `Pack` header; give the pack with --pack"),
        "{}",
        r.err
    );
    // --pack fills in for a missing header.
    let r = ply(&["replay", path, "--pack", CR], "");
    assert_eq!(r.code, 0, "{}", r.err);
}

#[test]
fn replay_step_by_step_and_to_a_move() {
    let file = temp_file("steps.txt");
    let path = file.to_str().unwrap();
    std::fs::write(
        &file,
        "Pack: rulesets/cats_rabbits.toml\nStart: 7/1RR5/7/7/7/4CC2/RR6 RABBIT\n\
         Result: RABBIT wins\n\nA1-A2 e2-E3\nb6b7\n",
    )
    .unwrap();
    let r = ply(&["replay", path, "--step"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    // The start and one board per move, each move numbered, canonical and marked.
    assert_eq!(r.out.matches(" to move\n").count(), 3, "{}", r.out);
    assert!(r.out.contains("1. RABBIT plays a1-a2\n"), "{}", r.out);
    assert!(r.out.contains("2. CAT plays e2-e3\n"), "{}", r.out);
    assert!(r.out.contains("3. RABBIT plays b6-b7\n"), "{}", r.out);
    assert!(r.out.contains("7  ^^[RR]^^"), "{}", r.out);
    insta::assert_snapshot!(r.out.replace(path, "GAME"));
    // --to stops early: the Result header is not checked then.
    let r = ply(&["replay", path, "--to", "2"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("Result: not finished"), "{}", r.out);
    assert!(r.out.contains("2 of 3 moves replayed from"), "{}", r.out);
    assert!(r.out.contains("[CC]"), "{}", r.out);
    let r = ply(&["replay", path, "--to", "4"], "");
    assert_eq!(r.code, 1);
    assert!(r.err.contains("--to 4: the record"), "{}", r.err);
    assert!(r.err.contains("has 3 moves"), "{}", r.err);
}

#[test]
fn the_shipped_record_replays_to_its_result_from_anywhere() {
    let r = ply(&["replay", "examples/jungle_game.txt", "--step"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err, "");
    assert!(r.out.contains("23. A plays d2-d1\n"), "{}", r.out);
    assert!(
        r.out
            .ends_with("Result: A wins (den)\n23 moves replayed from examples/jungle_game.txt\n")
    );
    // The header's `../rulesets/jungle.toml` is found from the record's directory, whatever
    // the current directory: here an absolute record path, as from another directory.
    let record = root().join("examples/jungle_game.txt");
    let r = ply(&["replay", record.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("Result: A wins"), "{}", r.out);
}

#[test]
fn the_readme_shows_what_the_first_command_prints() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let command =
        "cargo run --release --no-default-features -- replay examples/jungle_game.txt --step";
    let after = &readme[readme.find(command).expect("the first command")..];
    let excerpt = &after[after.find("```text\n").unwrap() + 8..];
    let excerpt = &excerpt[..excerpt.find("```").unwrap()];
    let out = ok(&["replay", "examples/jungle_game.txt", "--step"]);
    assert!(
        out.contains(excerpt),
        "the README's excerpt is not in:\n{out}"
    );
}

// ------------------------------------------------------------------------------------- bench

#[test]
fn bench_is_deterministic_for_a_seed() {
    let args = [
        "bench",
        CR,
        "--playouts",
        "30",
        "--seed",
        "42",
        "--perft-depth",
        "3",
        "--no-timing",
    ];
    let first = ok(&args);
    assert_eq!(ok(&args), first);
    assert!(first.contains("perft(3): 456 nodes"), "{first}");
    insta::assert_snapshot!(first);
    let other = ok(&[
        "bench",
        CR,
        "--playouts",
        "30",
        "--seed",
        "43",
        "--perft-depth",
        "3",
        "--no-timing",
    ]);
    assert_ne!(other, first);
    // More rounds repeat the same measurements: the same counts.
    let mut rounds = args.to_vec();
    rounds.extend(["--rounds", "3"]);
    assert_eq!(ok(&rounds), first);
    let r = ply(&["bench", CR, "--rounds", "0"], "");
    assert_eq!(r.code, 2, "{}", r.err);
}

// The hand-written engines are the `native` feature (`cargo test --workspace` turns it on).
#[cfg(feature = "native")]
#[test]
fn bench_json_against_the_native_engine() {
    let args = [
        "bench",
        JUNGLE,
        "--playouts",
        "10",
        "--seed",
        "9",
        "--perft-depth",
        "3",
        "--vs-native",
        "--json",
    ];
    let r = ply(&args, "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["game"], "Jungle");
    assert_eq!(v["playouts"], 10);
    let o = &v["outcomes"];
    let total = o["wins"]["A"].as_u64().unwrap()
        + o["wins"]["B"].as_u64().unwrap()
        + o["draws"].as_u64().unwrap()
        + o["stalled"].as_u64().unwrap()
        + o["capped"].as_u64().unwrap();
    assert_eq!(total, 10);
    assert_eq!(v["perft"]["nodes"], 12240);
    assert_eq!(v["native"]["perft"]["nodes"], 12240);
    for key in [
        "playouts_per_second",
        "plies_per_second",
        "perft_nodes_per_second",
        "make_unmake_per_second",
    ] {
        assert!(v["ratio"][key].as_f64().unwrap() > 0.0, "{key}");
    }
    // Same counts on a second run (the times differ).
    let again: Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(again["outcomes"], v["outcomes"]);
    assert_eq!(again["native"]["outcomes"], v["native"]["outcomes"]);
    assert_eq!(again["make_unmake"]["pairs"], v["make_unmake"]["pairs"]);
}

// The hand-written engines are the `native` feature (`cargo test --workspace` turns it on).
#[cfg(feature = "native")]
#[test]
fn bench_text_against_the_native_engine_and_without_one() {
    for set in ["multi_hop=true", "multi_hop=false"] {
        let out = ok(&[
            "bench",
            CR,
            "--set",
            set,
            "--playouts",
            "10",
            "--perft-depth",
            "3",
            "--vs-native",
        ]);
        assert!(out.contains("Native: "), "{out}");
        assert!(out.contains("ply/native"), "{out}");
        assert!(!out.contains("warning"), "{out}");
    }
    // A pack no hand-written engine plays: a note, and Ply's numbers only.
    let text = std::fs::read_to_string(root().join(CR))
        .unwrap()
        .replace("name = \"Cats and Rabbits\"", "name = \"Something else\"");
    let file = temp_file("renamed.toml");
    std::fs::write(&file, text).unwrap();
    let r = ply(
        &[
            "bench",
            file.to_str().unwrap(),
            "--playouts",
            "5",
            "--perft-depth",
            "2",
            "--vs-native",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err
            .contains("no hand-written engine plays `Something else`"),
        "{}",
        r.err
    );
    assert!(!r.out.contains("Native"), "{}", r.out);
}

// A `ply` built without its features (`--no-default-features`: no server, no hand-written
// engines) is tested by `crates/cli/tests/without_features.sh`, which `.ci/run` runs on that
// build: a test here would need the server's whole stack rebuilt for the dev-dependencies.

// ------------------------------------------------------------------------- usage and script

#[test]
fn usage_errors_exit_with_2() {
    for args in [
        &["perft", JUNGLE][..],
        &["perft", JUNGLE, "deep"],
        &["show", JUNGLE, "--set", "no-equals-sign"],
        &["frobnicate"],
        &[],
    ] {
        let r = ply(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.err);
        assert!(!r.err.is_empty());
    }
    let r = ply(&["--help"], "");
    assert_eq!(r.code, 0);
    for command in [
        "validate", "show", "moves", "play", "perft", "bench", "replay", "script",
    ] {
        assert!(r.out.contains(command), "{command}: {}", r.out);
    }
}

#[test]
fn a_bad_pack_fails_every_command_with_1() {
    for command in ["show", "moves", "perft", "bench", "script", "play"] {
        let mut args = vec![command, "tests/packs/bad/unknown_names.toml"];
        if command == "perft" {
            args.push("1");
        }
        let r = ply(&args, "");
        assert_eq!(r.code, 1, "{command}");
        assert!(r.err.contains("errors found"), "{command}: {}", r.err);
    }
}

#[test]
fn script_in_process() {
    let r = ply(
        &["script", SIMPLIFIED],
        "[\"init\"]\n[\"move\", \"A\", 2, 0, 3, 0]\n[\"piece\", 3, 0]\n\nnot json\n[\"turn\"]\n",
    );
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines[..3], ["true", "true", "\"AR\""]);
    assert!(lines[3].starts_with("{\"error\":"), "{}", lines[3]);
    assert_eq!(lines[4], "\"B\"");
}

#[test]
fn validate_fails_a_pack_whose_game_cannot_start() {
    // No [setup]: the first player has no piece, so no move, and no rule ends the game.
    let path = temp_file("no_setup.toml");
    std::fs::write(
        &path,
        "[game]\nplayers = [\"A\", \"B\"]\n[board]\nrows = 3\ncols = 3\n\
         [pieces.Stone]\nletter = \"S\"\nmoves = [\"step orthogonal\"]\n",
    )
    .unwrap();
    let r = ply(&["validate", path.to_str().unwrap()], "");
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(
        r.err.contains("no legal move in the starting position"),
        "{}",
        r.err
    );
    // With a rule that ends a game without pieces, it is over before it starts.
    let ends = temp_file("over_at_start.toml");
    std::fs::write(
        &ends,
        "[game]\nplayers = [\"A\", \"B\"]\n[board]\nrows = 3\ncols = 3\n\
         [pieces.Stone]\nletter = \"S\"\nmoves = [\"step orthogonal\"]\n\
         [end.last-piece]\nwhen = 'count(pieces(opponent)) == 0'\nwinner = 'player'\n",
    )
    .unwrap();
    let r = ply(&["validate", ends.to_str().unwrap()], "");
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(r.err.contains("over before the first move"), "{}", r.err);
}

/// A 15x15 Cats and Rabbits with multiple hops, the cat in the middle and a rabbit on every
/// cell of the other colour but the burrow's: its hop chains are far too many to list.
fn exploding_pack() -> std::path::PathBuf {
    let mut rabbits = Vec::new();
    for r in 1..15u8 {
        for c in 0..15u8 {
            if (r + c) % 2 == 1 {
                rabbits.push(format!("{}{}", (b'a' + c) as char, 15 - r));
            }
        }
    }
    let path = temp_file("exploding.toml");
    let base = common::root().join(CR);
    std::fs::write(
        &path,
        format!(
            "extends = {base:?}\n[board]\nrows = 15\ncols = 15\n[zones.burrow]\ncells = \"a15:o15\"\n\
             [options.multi_hop]\ndefault = true\n\
             [setup.RABBIT]\nRabbit = \"{}\"\n[setup.CAT]\nCat = \"h8\"\n",
            rabbits.join(" ")
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_position_with_too_many_moves_is_an_error_everywhere_not_a_hang() {
    let pack = exploding_pack();
    let pack = pack.to_str().unwrap();
    let position = {
        let r = ply(&["show", pack], "");
        assert_eq!(r.code, 0, "{}", r.err);
        r.out
            .lines()
            .find_map(|l| l.strip_prefix("Position: "))
            .unwrap()
            .replace(" RABBIT", " CAT")
    };
    let limit = "legal moves, the kernel's limit";
    let chain = "past 21 hops, the kernel's limit";
    let refused = |r: &common::Run| r.code == 1 && (r.err.contains(limit) || r.err.contains(chain));
    let r = ply(&["moves", pack, "--position", &position], "");
    assert!(refused(&r), "{} / {}", r.code, r.err);
    let r = ply(&["perft", pack, "1", "--position", &position], "");
    assert!(refused(&r), "{} / {}", r.code, r.err);
    let r = ply(&["validate", pack], "");
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(r.err.contains("refused"), "{}", r.err);
    let r = ply(&["play", pack, "--position", &position], "h8-h6\n");
    assert!(r.err.contains(limit) || r.err.contains(chain), "{}", r.err);
}

// ------------------------------------------------------------------------ the first hour's edges

#[test]
fn the_help_tagline_names_every_command() {
    use clap::CommandFactory;
    let r = ply(&["help"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    // The tagline may be wrapped to the terminal's width: everything before `Usage:`.
    let tagline = r.out[..r.out.find("Usage:").expect("a usage line")]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        + " ";
    for c in ply_cli::cli::Cli::command().get_subcommands() {
        if c.is_hide_set() {
            continue;
        }
        let name = c.get_name();
        assert!(
            tagline.contains(&format!(" {name},")) || tagline.contains(&format!(" {name} ")),
            "`{name}` is missing from the tagline: {tagline}"
        );
    }
}

#[test]
fn a_pack_named_without_its_folder_is_suggested() {
    let r = ply(&["show", "jungle"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("note: did you mean `rulesets/jungle.toml`?"),
        "{}",
        r.err
    );
    let r = ply(&["show", "rulesets/jungle"], "");
    assert!(
        r.err.contains("did you mean `rulesets/jungle.toml`?"),
        "{}",
        r.err
    );
    // Nothing is suggested when nothing is near.
    let r = ply(&["show", "no_such_pack"], "");
    assert!(!r.err.contains("did you mean"), "{}", r.err);
}

#[test]
fn a_player_the_pack_does_not_have_is_a_command_line_error() {
    let r = ply(&["play", JUNGLE, "--as", "C"], "");
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(
        r.err
            .contains("error: `--as C`: `C` is not a player of Jungle (expected A or B)"),
        "{}",
        r.err
    );
}

#[test]
fn color_always_colours_the_board_by_owner() {
    let plain = ply(&["play", JUNGLE], "a7-a6\nquit\n");
    let always = ply(&["--color", "always", "play", JUNGLE], "a7-a6\nquit\n");
    assert_eq!(always.code, 0, "{}", always.err);
    assert!(!plain.out.contains('\x1b'), "{}", plain.out);
    // The first player's pieces, the second's, the last move's marks, the terrain.
    for painted in [
        "\x1b[1;36mAL\x1b[0m",
        "\x1b[1;35mBL\x1b[0m",
        "\x1b[33m[\x1b[0m",
        "\x1b[2m~~\x1b[0m",
    ] {
        assert!(
            always.out.contains(painted),
            "{painted:?} in {}",
            always.out
        );
    }
    // Without the colours, the same text.
    let stripped = always
        .out
        .split('\x1b')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                &part[part.find('m').map_or(0, |m| m + 1)..]
            }
        })
        .collect::<String>();
    assert_eq!(stripped, plain.out);
    let show = ply(&["show", JUNGLE, "--color", "always"], "");
    assert!(show.out.contains("\x1b[1;36mAT\x1b[0m"), "{}", show.out);
}

#[test]
fn a_record_replays_from_another_directory_and_a_served_record_finds_its_pack() {
    // `play --record` into another directory: the pack's path is written from the record's
    // directory, so the record replays wherever it is replayed from.
    let dir = temp_file("elsewhere");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    let r = ply(
        &["play", JUNGLE, "--record", file.to_str().unwrap()],
        "a7-a6\nquit\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&file).unwrap();
    let pack_line = text.lines().find(|l| l.starts_with("Pack: ")).unwrap();
    let named = dir.join(&pack_line["Pack: ".len()..]);
    assert!(
        named.is_file() && !pack_line.starts_with("Pack: rulesets/"),
        "{pack_line}"
    );
    // Replayed with the current directory elsewhere: the header alone finds the pack.
    let r = ply(&["replay", file.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("1 moves replayed") || r.out.contains("1 move replayed"),
        "{}",
        r.out
    );
    // A record as `ply serve` writes it: `Pack: jungle.toml`, found in rulesets/.
    let served = dir.join("served.txt");
    std::fs::write(&served, "Pack: jungle.toml\n\na7-a6\n").unwrap();
    let r = ply(&["replay", served.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
}

/// Every shipped pack's games, played at random, end by a named end rule of the pack (never
/// a result the position cannot explain), as `ply play` says after `Game over:`: the end
/// rule found again from the final position gives the very result the moves reached, and
/// so does the same position read back from its string without its result.
#[test]
fn every_random_game_of_a_shipped_pack_ends_by_a_named_rule() {
    use ply_kernel::{EndReason, Game, Rng, Section, Status};
    let mut ended = 0;
    let mut reasons = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(root().join("rulesets")).expect("rulesets") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let pack = ply_lang::load(&path, &[]).expect("a shipped pack loads");
        let rules = pack.rules;
        let mut rng = Rng::new(20261205);
        for _ in 0..12 {
            let mut game = Game::new(rules.clone());
            for _ in 0..400 {
                if !matches!(game.status(), Status::ToMove(_)) {
                    break;
                }
                let Ok(Some(m)) = game.random_move(&mut rng) else {
                    break;
                };
                game.play(m).expect("a legal move");
            }
            let Status::Over(outcome) = game.status() else {
                assert_eq!(game.end_reason(), None, "{}", path.display());
                continue;
            };
            ended += 1;
            let reason = game.end_reason();
            let Some(EndReason::Rule(rule)) = reason else {
                panic!(
                    "{}: {:?} ended with no rule to say why ({reason:?}): {}",
                    path.display(),
                    outcome,
                    game.position().to_position_string()
                );
            };
            assert_eq!(rule.section(), Section::End);
            let name = rules.rule_name(rule);
            assert!(!name.is_empty());
            reasons.insert(format!("{}:{name}", rules.core().name()));
            // The string keeps no history of positions: a repetition is not seen in it.
            let text = game.position().to_position_string();
            let bare: Vec<&str> = text
                .split(' ')
                .filter(|f| !f.starts_with("winner=") && *f != "draw")
                .collect();
            let bare = bare.join(" ");
            let read = ply_kernel::Position::from_position_string(rules.clone(), &bare)
                .expect("the position reads back");
            if read.outcome().is_some() {
                assert_eq!(read.outcome(), Some(outcome), "{} {bare}", path.display());
                assert_eq!(read.end_reason(), reason, "{} {bare}", path.display());
            } else {
                assert!(name.contains("repetition"), "{name}: {bare}");
            }
            assert!(
                game.position().render().contains(&format!("({name})")),
                "{}",
                game.position().render()
            );
        }
    }
    eprintln!("{ended} random games ended, by {reasons:?}");
    assert!(ended >= 60, "only {ended} random games ended");
    // Many rules, of many packs, were seen to decide.
    assert!(reasons.len() >= 12, "{reasons:?}");
}

/// `ply show` lists a board's links across holes, each once, so that a designer sees which
/// points a mill board joins.
#[test]
fn show_lists_the_links_of_a_board() {
    let file = temp_file("ring.toml");
    std::fs::write(
        &file,
        "[game]\nname = \"Ring\"\nplayers = [\"Red\", \"Blue\"]\n\n[board]\nrows = 3\ncols = 3\n\
         holes = \"b1 b2 b3\"\nlinks = \"a1-c1 c3-a3\"\n\n[pieces.Man]\nletter = \"M\"\n\
         moves = [\"step orthogonal\"]\n",
    )
    .unwrap();
    let r = ply(&["show", file.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out
            .contains("Board: 3 rows x 3 columns\nLinks across holes: a3-c3 a1-c1\n"),
        "{}",
        r.out
    );
}
