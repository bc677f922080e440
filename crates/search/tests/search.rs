//! The searchers against plain minimax, on short forced wins, and for reproducibility.

use ply_kernel::{Game, Move, Outcome, Piece, Player, Position, Rng, Rules, Status, move_text};
use ply_search::alphabeta::minimax;
use ply_search::score::WIN;
use ply_search::{
    AlphaBeta, AlphaBetaConfig, Engine, EngineKind, EngineSpec, Limits, Mcts, MctsConfig, Score,
    SearchError, SpecError, Weights,
};
use std::sync::Arc;

fn rules(pack: &str) -> Arc<Rules> {
    let path = format!("{}/../../rulesets/{pack}", env!("CARGO_MANIFEST_DIR"));
    ply_lang::load(&path, &[])
        .expect("a shipped pack loads")
        .rules
}

const PACKS: [&str; 6] = [
    "jungle.toml",
    "jungle_simplified.toml",
    "cats_rabbits.toml",
    "breakthrough.toml",
    "checkers.toml",
    "fox_and_geese.toml",
];

/// Positions along a seeded random game: the start and after every `step` plies.
fn sample_positions(rules: &Arc<Rules>, seed: u64, count: usize, step: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut pos = Position::start(rules.clone());
    let mut out = vec![pos.clone()];
    while out.len() < count {
        for _ in 0..step {
            let Ok(Some(m)) = pos.random_move(&mut rng) else {
                return out;
            };
            if pos.decided().is_some() {
                return out;
            }
            pos.make_unchecked(m);
        }
        if pos.status() != Status::ToMove(pos.side_to_move()) {
            return out;
        }
        out.push(pos.clone());
    }
    out
}

fn searcher(rules: &Rules, tt_bits: u32, quiescence: bool, exact_depth: bool) -> AlphaBeta {
    AlphaBeta::new(
        Arc::new(Weights::material(rules)),
        AlphaBetaConfig {
            tt_bits,
            quiescence,
            exact_depth,
            reductions: false,
            aspiration: true,
            futility: false,
            null_move: Some(false),
            check_extensions: false,
        },
    )
}

/// Alpha-beta without a table, and with a table cutting only at equal depth, give exactly the
/// minimax value, with and without quiescence, at depths 1 to 3.
#[test]
fn alphabeta_agrees_with_minimax() {
    for pack in PACKS {
        let rules = rules(pack);
        let eval = Weights::material(&rules);
        for (i, pos) in sample_positions(&rules, 11, 4, 7).into_iter().enumerate() {
            for quiescence in [false, true] {
                for depth in 1..=3 {
                    let want = minimax(&mut pos.clone(), &eval, depth, quiescence).unwrap();
                    for (tt_bits, exact) in [(0, false), (16, true)] {
                        let mut ab = searcher(&rules, tt_bits, quiescence, exact);
                        let got = ab.search(&pos, &Limits::depth(depth), &mut |_| {}).unwrap();
                        // A proven result found early stops the deepening: same value.
                        assert_eq!(
                            got.score,
                            Score(want),
                            "{pack} position {i} depth {depth} q {quiescence} tt {tt_bits}: {}",
                            pos.to_position_string()
                        );
                    }
                }
            }
        }
    }
}

/// The principal variation is made of legal moves, and plays out to the score when proven.
#[test]
fn principal_variations_are_legal_lines() {
    for pack in PACKS {
        let rules = rules(pack);
        for pos in sample_positions(&rules, 5, 3, 9) {
            let mut ab = searcher(&rules, 16, true, false);
            let info = ab.search(&pos, &Limits::depth(4), &mut |_| {}).unwrap();
            assert!(!info.pv.is_empty());
            let mut p = pos.clone();
            for m in &info.pv {
                p.play(*m).unwrap_or_else(|e| panic!("{pack}: {e}"));
            }
        }
    }
}

fn jungle_at(text: &str) -> Position {
    Position::from_position_string(rules("jungle.toml"), text).expect("a position")
}

fn best(pos: &Position, depth: u32) -> (Score, String) {
    let mut ab = searcher(pos.rules(), 18, true, false);
    let info = ab.search(pos, &Limits::depth(depth), &mut |_| {}).unwrap();
    (info.score, move_text(pos.rules(), &info.pv[0]))
}

/// A's dog walks into B's den in one, two and three moves, and B's rat in the far corner
/// cannot stop it (it would need three moves to reach A's den).
#[test]
fn jungle_den_in_one_two_three() {
    let cases = [
        ("6BR/7/7/7/7/7/7/3AD3/7 A", 1, "d2-d1"),
        ("6BR/7/7/7/7/7/3AD3/7/7 A", 3, "d3-d2"),
        ("6BR/7/7/7/7/3AD3/7/7/7 A", 5, "d4-d3"),
    ];
    for (text, plies, first) in cases {
        let pos = jungle_at(text);
        let (score, m) = best(&pos, 8);
        assert_eq!(score, Score(WIN - plies), "{text}");
        assert_eq!(score.to_string(), format!("win in {plies}"));
        assert_eq!(m, first, "{text}");
        // MCTS proves it too.
        let mut mcts = Mcts::new(MctsConfig::default());
        let info = mcts.search(&pos, &Limits::iterations(200_000)).unwrap();
        assert_eq!(info.best.proven, Some(true), "{text}");
        assert_eq!(move_text(pos.rules(), &info.best.mv), first, "{text}");
    }
    // And the defender sees its loss: B to move, A's dog one step from the den.
    let pos = jungle_at("6BR/7/7/7/7/7/7/3AD3/7 B");
    let (score, _) = best(&pos, 6);
    assert_eq!(score, Score(-(WIN - 2)));
}

/// English draughts: Black gives a man (c3-d4), White must take it (either way; the men on c1
/// and e1 stop the chain there), and Black's man on d2 takes both white men in one chain: a
/// win in three plies, found only by seeing the forced capture through.
#[test]
fn draughts_forced_capture_shot() {
    let rules = rules("checkers.toml");
    let core = rules.core();
    let g = rules.geometry();
    let man = core.kind_by_name("Man").unwrap();
    let mut game = Game::empty(rules.clone());
    for (owner, cell) in [
        (Player::FIRST, "c3"),
        (Player::FIRST, "d2"),
        (Player::FIRST, "c1"),
        (Player::FIRST, "e1"),
        (Player::SECOND, "e5"),
        (Player::SECOND, "c5"),
    ] {
        game.place(Piece::new(man, owner), g.parse_cell(cell).unwrap())
            .unwrap();
    }
    let pos = game.position().clone();
    let (score, m) = best(&pos, 6);
    assert_eq!(score, Score(WIN - 3), "{}", pos.to_position_string());
    assert_eq!(m, "c3-d4");
    // Plain minimax agrees at depth 3.
    let eval = Weights::material(&rules);
    assert_eq!(minimax(&mut pos.clone(), &eval, 3, false).unwrap(), WIN - 3);
}

fn play_out(rules: &Arc<Rules>, a: &str, b: &str, seed: u64, max: usize) -> Vec<Move> {
    let eval = Arc::new(Weights::material(rules));
    let spec = |s: &str| s.parse::<EngineSpec>().unwrap().or_seed(seed);
    let mut engines = [
        Engine::new(&spec(a), eval.clone()),
        Engine::new(&spec(b), eval),
    ];
    let mut pos = Position::start(rules.clone());
    let mut moves = Vec::new();
    while moves.len() < max && pos.status() == Status::ToMove(pos.side_to_move()) {
        let e = &mut engines[pos.side_to_move().index()];
        let m = e.choose(&pos).unwrap().mv;
        pos.play(m).unwrap();
        moves.push(m);
    }
    moves
}

/// The same seed gives the same game; MCTS with two threads too (its iterations are shared out
/// deterministically); another seed gives another game.
#[test]
fn same_seed_same_game() {
    let rules = rules("breakthrough.toml");
    let a = play_out(&rules, "mcts:300", "alphabeta:depth=2", 7, 40);
    assert_eq!(a, play_out(&rules, "mcts:300", "alphabeta:depth=2", 7, 40));
    let b = play_out(&rules, "mcts:300,threads=2", "random", 3, 30);
    assert_eq!(b, play_out(&rules, "mcts:300,threads=2", "random", 3, 30));
    let c = play_out(&rules, "mcts:300,threads=2", "random", 4, 30);
    assert_ne!(b, c);
}

/// Tree reuse keeps the visits of the position reached when the tree already holds it.
#[test]
fn mcts_reuses_its_tree() {
    let rules = rules("cats_rabbits.toml");
    let mut mcts = Mcts::new(MctsConfig::default());
    let mut pos = Position::start(rules);
    let first = mcts.search(&pos, &Limits::iterations(3000)).unwrap();
    assert_eq!(first.reused, 0);
    pos.play(first.best.mv).unwrap();
    let reply = pos.legal_moves().unwrap().get(0).unwrap();
    pos.play(reply).unwrap();
    let second = mcts.search(&pos, &Limits::iterations(100)).unwrap();
    assert!(second.reused > 0, "{second:?}");
}

#[test]
fn finished_games_are_not_searched() {
    // A game finished by moving into the den.
    let mut p = jungle_at("6BR/7/7/7/7/7/7/3AD3/7 A");
    let m = p
        .find_move(None, &[cell(&p, "d2"), cell(&p, "d1")])
        .unwrap();
    p.play(m).unwrap();
    assert_eq!(p.status(), Status::Over(Outcome::Win(Player::FIRST)));
    let mut ab = searcher(p.rules(), 10, true, false);
    assert!(matches!(
        ab.search(&p, &Limits::depth(3), &mut |_| {}),
        Err(SearchError::NoMove(_))
    ));
    let mut mcts = Mcts::new(MctsConfig::default());
    assert!(matches!(
        mcts.search(&p, &Limits::iterations(10)),
        Err(SearchError::NoMove(_))
    ));
}

fn cell(p: &Position, name: &str) -> ply_kernel::Cell {
    p.rules().geometry().parse_cell(name).unwrap()
}

#[test]
fn specs_read_and_print() {
    for (text, canonical) in [
        ("mcts", "mcts"),
        ("mcts:2s", "mcts:2s"),
        ("mcts:0.1s", "mcts:100ms"),
        ("MCTS:20000,threads=2", "mcts:20000,threads=2"),
        ("alphabeta:depth=6", "alphabeta:depth=6"),
        ("ab:500ms,depth=8", "alphabeta:500ms,depth=8"),
        ("random:seed=3", "random"),
        (
            "ab:depth=4,futility=off,aspiration=no,reductions=false",
            "alphabeta:depth=4,futility=false,aspiration=false,reductions=false",
        ),
        ("ab:futility=true", "alphabeta"),
        (
            "ab:null=false,checks=false",
            "alphabeta:checks=false,null=false",
        ),
        ("ab:null=true,checks=true", "alphabeta:null=true"),
    ] {
        let spec: EngineSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(spec.to_string(), canonical);
        assert_eq!(
            spec.to_string().parse::<EngineSpec>().unwrap().to_string(),
            canonical
        );
    }
    assert_eq!("random:seed=3".parse::<EngineSpec>().unwrap().seed, Some(3));
    assert_eq!("mcts".parse::<EngineSpec>().unwrap().kind, EngineKind::Mcts);
    for bad in [
        "mcts:abc",
        "alphabeta:depth=-1",
        "alphabeta:depth=0",
        "alphabeta:depth=999",
        "mcts:depth=3",
        "alphabeta:100",
        "mcts:0s",
        "mcts:-1s",
        "mcts:NaNs",
        "mcts:1e300s",
        "mcts:c=inf",
        "mcts:threads=0",
        "mcts:",
        "mcts:1s,",
        "mcts:futility=false",
        "alphabeta:aspiration=maybe",
        "mcts:null=true",
        "alphabeta:null=sometimes",
        "random:checks=false",
        "random:1s",
        "minimax",
        "",
    ] {
        let e = bad.parse::<EngineSpec>().expect_err(bad);
        let text = e.to_string();
        assert!(!text.is_empty());
        if let SpecError::Argument { spec, .. } = &e {
            assert_eq!(spec, bad.trim());
        }
    }
}

/// A searcher with every pruning of the default configuration.
fn pruning(rules: &Rules) -> AlphaBeta {
    AlphaBeta::new(
        Arc::new(Weights::material(rules)),
        AlphaBetaConfig {
            tt_bits: 18,
            ..AlphaBetaConfig::default()
        },
    )
}

/// Futility pruning never prunes a move that ends the game: the forced wins of the tests
/// above are found by the default searcher, at the same distance, with futility on.
#[test]
fn futility_keeps_game_ending_moves() {
    for (text, plies, first) in [
        ("6BR/7/7/7/7/7/7/3AD3/7 A", 1, "d2-d1"),
        ("6BR/7/7/7/7/7/3AD3/7/7 A", 3, "d3-d2"),
        ("6BR/7/7/7/7/3AD3/7/7/7 A", 5, "d4-d3"),
    ] {
        let pos = jungle_at(text);
        for depth in [2, 3, 4, 8] {
            if depth < plies {
                continue;
            }
            let mut ab = pruning(pos.rules());
            let info = ab.search(&pos, &Limits::depth(depth), &mut |_| {}).unwrap();
            assert_eq!(
                info.score,
                Score(WIN - plies as i32),
                "{text} depth {depth}"
            );
            assert_eq!(move_text(pos.rules(), &info.pv[0]), first, "{text}");
        }
    }
    // A mate by a quiet move one ply from the leaves (the opponent left without a move, which
    // no move decides by itself): two rooks, Ra7 then Rb8, found at depth 3 and more.
    let chess = rules("chess.toml");
    let pos = Position::from_position_string(chess, "7k/8/8/8/8/8/1R6/R3K3 w - - 0 1").unwrap();
    for depth in [3, 4, 5] {
        let info = pruning(pos.rules())
            .search(&pos, &Limits::depth(depth), &mut |_| {})
            .unwrap();
        assert_eq!(info.score, Score(WIN - 3), "depth {depth}");
    }
    let pos = jungle_at("6BR/7/7/7/7/7/7/3AD3/7 B");
    let info = pruning(pos.rules())
        .search(&pos, &Limits::depth(6), &mut |_| {})
        .unwrap();
    assert_eq!(info.score, Score(-(WIN - 2)));
}

/// Futility prunes: from the same positions, the searcher with it visits fewer positions to
/// the same depth than without it, and it reports the moves it left.
#[test]
fn futility_prunes_and_saves_positions() {
    for pack in ["jungle.toml", "breakthrough.toml", "chess.toml"] {
        let rules = rules(pack);
        let (mut with, mut without) = (0, 0);
        let mut pruned = 0;
        for pos in sample_positions(&rules, 3, 4, 6) {
            let mut on = pruning(&rules);
            with += on
                .search(&pos, &Limits::depth(5), &mut |_| {})
                .unwrap()
                .nodes;
            pruned += on.pruned();
            let mut off = AlphaBeta::new(
                Arc::new(Weights::material(&rules)),
                AlphaBetaConfig {
                    tt_bits: 18,
                    futility: false,
                    ..AlphaBetaConfig::default()
                },
            );
            without += off
                .search(&pos, &Limits::depth(5), &mut |_| {})
                .unwrap()
                .nodes;
            assert_eq!(off.pruned(), 0);
        }
        assert!(pruned > 0, "{pack}: nothing pruned");
        assert!(
            with < without,
            "{pack}: {with} positions with futility, {without} without"
        );
    }
}

/// Aspiration windows change no value: with an evaluation that varies from cell to cell (so
/// that scores move between iterations and windows are missed), the searcher with windows
/// gives the score of the one without, at every depth, and did search again.
#[test]
fn aspiration_windows_change_no_value() {
    let mut researches = 0;
    for pack in ["jungle.toml", "breakthrough.toml", "checkers.toml"] {
        let rules = rules(pack);
        let noisy = Arc::new(Weights::from_fn(
            &rules,
            |_| 100,
            |p, c| ((p.code() * 31 + c.index() * 17) % 97) as i32 - 48,
            0,
        ));
        for pos in sample_positions(&rules, 21, 4, 5) {
            for depth in 1..=4 {
                let mut got = Vec::new();
                for aspiration in [false, true] {
                    let mut ab = AlphaBeta::new(
                        noisy.clone(),
                        AlphaBetaConfig {
                            tt_bits: 0,
                            quiescence: true,
                            exact_depth: false,
                            reductions: false,
                            aspiration,
                            futility: false,
                            null_move: Some(false),
                            check_extensions: false,
                        },
                    );
                    let info = ab.search(&pos, &Limits::depth(depth), &mut |_| {}).unwrap();
                    researches += ab.researches();
                    got.push(info.score);
                }
                assert_eq!(
                    got[0],
                    got[1],
                    "{pack} depth {depth}: {}",
                    pos.to_position_string()
                );
            }
        }
    }
    assert!(researches > 0, "no window was missed");
}

/// MCTS with playouts cut off and judged by the evaluation: with an evaluation that counts a
/// piece as worth a great deal, a free capture is taken at once (uniform random playouts to
/// the end see little difference), and the spec reads and prints `cutoff=N`.
#[test]
fn mcts_cut_off_playouts_follow_the_evaluation() {
    let spec: EngineSpec = "mcts:300,cutoff=2".parse().unwrap();
    assert_eq!(spec.cutoff, Some(2));
    assert_eq!(spec.to_string(), "mcts:300,cutoff=2");
    assert!("alphabeta:cutoff=2".parse::<EngineSpec>().is_err());
    // Breakthrough: White's pawn on d5 can take the black pawn on e6 (nothing recaptures).
    let rules = rules("breakthrough.toml");
    let pos =
        Position::from_position_string(rules.clone(), "8/BP7/4BP3/3WP4/8/8/7WP/8 WHITE").unwrap();
    let take = pos
        .legal_moves()
        .unwrap()
        .iter()
        .find(|m| m.is_capture())
        .expect("a capture");
    let eval = Arc::new(Weights::material(&rules));
    let mut cut = Engine::new(&spec.clone().or_seed(1), eval.clone());
    let c = cut.choose(&pos).unwrap();
    assert_eq!(c.mv, take, "{}", move_text(&rules, &c.mv));
    // The reward is the evaluation's: well above even after winning a pawn.
    assert!(c.value.unwrap().0 > 0.6, "{:?}", c.value);
    // Jungle, B without elephant, lion and tiger: A's moves look good whether the playouts
    // stop with A or B to move.
    let pos = jungle_at("AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/2BW1BP1BR/1BC3BD1/7 A");
    for cutoff in [0, 1, 2, 3] {
        let spec: EngineSpec = format!("mcts:400,cutoff={cutoff}").parse().unwrap();
        let mut e = Engine::new(&spec, Arc::new(Weights::material(pos.rules())));
        let (value, _) = e.choose(&pos).unwrap().value.unwrap();
        assert!(value > 0.7, "cutoff {cutoff}: {value}");
    }
}

/// An evaluation that counts the positions it judged.
#[derive(Debug)]
struct Counting(Weights, std::sync::atomic::AtomicU64);

impl ply_search::Evaluator for Counting {
    fn evaluate(&self, pos: &Position) -> i32 {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.evaluate(pos)
    }
    fn piece_value(&self, piece: Piece) -> i32 {
        self.0.piece_value(piece)
    }
}

/// Cut-off playouts are judged by the evaluation, once each; without a cut-off the
/// evaluation is never asked.
#[test]
fn mcts_cut_off_playouts_ask_the_evaluation() {
    let rules = rules("jungle.toml");
    let pos = Position::start(rules.clone());
    for (cutoff, asked) in [(None, false), (Some(0), true), (Some(6), true)] {
        let eval = Arc::new(Counting(
            Weights::material(&rules),
            std::sync::atomic::AtomicU64::new(0),
        ));
        let mut mcts = Mcts::with_eval(
            MctsConfig {
                cutoff,
                ..MctsConfig::default()
            },
            eval.clone(),
        );
        let info = mcts.search(&pos, &Limits::iterations(500)).unwrap();
        let calls = eval.1.load(std::sync::atomic::Ordering::Relaxed);
        if asked {
            // Every playout but those that ended the game.
            assert!(calls > 0 && calls <= info.playouts, "{cutoff:?}: {calls}");
            assert!(calls * 10 >= info.playouts * 9, "{cutoff:?}: {calls}");
        } else {
            assert_eq!(calls, 0);
        }
    }
}

/// A race to the far row in turns of two steps: from three rows away the runner wins in one
/// turn of two moves. Searches that took the second move for the opponent's would see the
/// first step hand the opponent a win, and step aside.
const TWO_STEPS: &str = r#"
[game]
name = "Two steps"
players = ["A", "B"]
forward = { A = "up", B = "down" }

[board]
rows = 5
cols = 3

[zones.goal]
A = "a5:c5"
B = "a1:c1"

[pieces.Runner]
letter = "R"
moves = ["step orthogonal quiet"]

[turn]
moves = 2

[end.home]
when = 'mover.cell in goal(player)'
winner = 'player'

[setup.A]
Runner = "a3"

[setup.B]
Runner = "c4"
"#;

#[test]
fn searches_know_a_turn_of_two_moves_is_one_players() {
    let rules = ply_lang::load_str("two_steps.toml", TWO_STEPS, &[])
        .expect("loads")
        .rules;
    let pos = Position::start(rules.clone());
    let mut ab = searcher(&rules, 16, true, false);
    let info = ab.search(&pos, &Limits::depth(2), &mut |_| {}).unwrap();
    let line: Vec<String> = info.pv.iter().map(|m| move_text(&rules, m)).collect();
    assert!(info.score.is_proven() && info.score.0 > 0, "{info:?}");
    assert_eq!(line, ["a3-a4", "a4-a5"]);
    let eval = Weights::material(&rules);
    assert_eq!(
        Score(minimax(&mut pos.clone(), &eval, 2, false).unwrap()),
        info.score
    );
    let mut mcts = Mcts::new(MctsConfig::default());
    let found = mcts.search(&pos, &Limits::iterations(400)).unwrap();
    assert_eq!(move_text(&rules, &found.best.mv), "a3-a4", "{found:?}");
}
