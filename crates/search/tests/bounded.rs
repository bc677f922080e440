//! Specs held to caps, and tables allocated fallibly: a spec past a cap is refused with the cap
//! named, and a table that cannot be allocated is an error, never an abort.

use ply_search::{
    AlphaBeta, AlphaBetaConfig, CapError, Caps, EngineKind, EngineSpec, MAX_TABLE_BITS, Weights,
};
use std::sync::Arc;
use std::time::Duration;

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap()
}

#[test]
fn each_cap_is_named_when_passed() {
    let caps = Caps::default();
    let e = spec("alphabeta:tt=28,depth=1").bounded(&caps).unwrap_err();
    assert!(matches!(
        e,
        CapError::Table {
            asked: 28,
            cap: MAX_TABLE_BITS,
            ..
        }
    ));
    assert!(e.to_string().contains("past the cap of tt=24"), "{e}");
    let small = Caps {
        tt_bits: 10,
        threads: 2,
        nodes: 1000,
        time: Duration::from_secs(1),
    };
    let e = spec("mcts:threads=3").bounded(&small).unwrap_err();
    assert_eq!(e, CapError::Threads { asked: 3, cap: 2 });
    let e = spec("alphabeta:tt=0,nodes=1001")
        .bounded(&small)
        .unwrap_err();
    assert!(e.to_string().contains("past the cap of 1000"), "{e}");
    let e = spec("mcts:1001").bounded(&small).unwrap_err();
    assert!(
        matches!(
            e,
            CapError::Nodes {
                what: "iterations",
                ..
            }
        ),
        "{e}"
    );
    let e = spec("mcts:2s").bounded(&small).unwrap_err();
    assert!(matches!(e, CapError::Time { .. }), "{e}");
    // At the caps, the spec is kept as it is.
    let at = spec("alphabeta:tt=10,nodes=1000,1s");
    assert_eq!(at.bounded(&small), Ok(at.clone()));
    // A table cap does not concern MCTS, nor threads alpha-beta.
    assert!(EngineSpec::new(EngineKind::Mcts).bounded(&small).is_ok());
}

#[test]
fn a_table_too_large_to_allocate_is_an_error() {
    let pack = ply_lang::load("../../rulesets/chess.toml", &[]).unwrap();
    let eval = Arc::new(Weights::material(&pack.rules));
    // 2^48 entries pass any address space (so the reservation fails whatever the
    // overcommit policy); 60 and 100 are refused before asking.
    for bits in [48, 60, 100] {
        let Err(e) = AlphaBeta::try_new(
            eval.clone(),
            AlphaBetaConfig {
                tt_bits: bits,
                ..AlphaBetaConfig::default()
            },
        ) else {
            panic!("a table of 2^{bits} entries was allocated");
        };
        assert_eq!(e.bits, bits);
        assert!(e.to_string().contains("cannot allocate"), "{e}");
    }
    assert!(
        AlphaBeta::try_new(
            eval,
            AlphaBetaConfig {
                tt_bits: 8,
                ..AlphaBetaConfig::default()
            }
        )
        .is_ok()
    );
}
