//! `ply tune`: the variant it writes loads, extends the pack, carries the fitted values, and
//! the fit predicts the self-play results better than the values it started from.

mod common;

use common::{ply, temp_file};
use ply_kernel::{Piece, Player};
use serde_json::Value;

#[test]
fn tune_writes_a_variant_that_loads_and_fits_better() {
    let out = temp_file("jungle-tuned.toml");
    let out_text = out.display().to_string();
    let args = [
        "tune",
        "rulesets/jungle.toml",
        "--player",
        "alphabeta:depth=1",
        "--games",
        "60",
        "--threads",
        "2",
        "--out",
        &out_text,
        "--json",
    ];
    let r = ply(&args, "");
    assert_eq!(r.code, 0, "{}", r.err);
    let v: Value = serde_json::from_str(&r.out).unwrap();
    let (before, after) = (
        v["loss_before"].as_f64().unwrap(),
        v["loss_after"].as_f64().unwrap(),
    );
    assert!(after < before, "{before} -> {after}");
    assert!(v["positions"].as_u64().unwrap() > 100, "{v}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("extends = "), "{text}");
    assert!(text.contains("[eval]"), "{text}");
    // The variant loads, is the same game, and its pieces are worth what the fit says.
    let pack = ply_lang::load(&out, &[]).expect("the tuned pack loads");
    assert_eq!(pack.rules.core().name(), "Jungle");
    let eval = pack.eval.expect("an [eval]");
    let core = pack.rules.core();
    let mut changed = false;
    for m in v["material"].as_array().unwrap() {
        let kind = core.kind_by_name(m["kind"].as_str().unwrap()).unwrap();
        let piece = Piece::new(kind, Player::FIRST);
        assert_eq!(
            eval.material[piece.code()],
            m["after"].as_i64().unwrap(),
            "{m}"
        );
        changed |= m["after"] != m["before"];
    }
    assert!(changed, "no value changed: {v}");
    // The bonus by cell is inherited: a piece is worth more on some cells than others.
    let rat = Piece::new(core.kind_by_name("Rat").unwrap(), Player::FIRST);
    let g = pack.rules.geometry();
    let values: Vec<i64> = g.cells().iter().map(|c| eval.value(rat, c)).collect();
    assert!(values.iter().min() < values.iter().max());
    // The same seed gives the same variant (depth-limited players).
    assert_eq!(ply(&args, "").out, r.out);
}

/// `match --b-eval`: B judges positions by another pack's `[eval]`. A breakthrough variant
/// that values pawns below nothing loses them and the games; a pack of another game is
/// refused.
#[test]
fn match_gives_b_another_evaluation() {
    let bad = temp_file("breakthrough-giveaway.toml");
    let base = common::root().join("rulesets/breakthrough.toml");
    std::fs::write(
        &bad,
        format!(
            "extends = {:?}\n\n[eval]\nmaterial = {{ Pawn = -300 }}\n",
            base.display().to_string()
        ),
    )
    .unwrap();
    let bad_text = bad.display().to_string();
    let run = |b_eval: Option<&str>| -> Value {
        let mut args = vec![
            "match",
            "rulesets/breakthrough.toml",
            "--a",
            "alphabeta:depth=2",
            "--b",
            "alphabeta:depth=2",
            "--games",
            "6",
            "--json",
        ];
        if let Some(p) = b_eval {
            args.extend(["--b-eval", p]);
        }
        let r = ply(&args, "");
        assert_eq!(r.code, 0, "{}", r.err);
        serde_json::from_str(&r.out).unwrap()
    };
    let same = run(None);
    let other = run(Some(&bad_text));
    assert_eq!(other["b_eval"], bad_text.as_str());
    assert_eq!(other["a_wins"], 6, "{other}");
    assert_ne!(same["a_wins"], 6, "{same}");
    let r = ply(
        &[
            "match",
            "rulesets/breakthrough.toml",
            "--a",
            "random",
            "--b",
            "random",
            "--b-eval",
            "rulesets/chess.toml",
        ],
        "",
    );
    assert_eq!(r.code, 1);
    assert!(r.err.contains("is not a variant of"), "{}", r.err);
}
