//! Unit tests of the kernel on rules built by hand, without the rules language: the compiler,
//! generation and its explanations, the limits, and the end rules of set-up positions.

use crate::cell::Cell;
use crate::error::MoveErrorKind;
use crate::expr::{BinOp, Expr, MAX_EXPR_DEPTH, Value, Var};
use crate::geometry::{DirSet, Geometry};
use crate::limits::MoveLimit;
use crate::piece::{KindId, Piece, Player};
use crate::reason::{PatternId, Reason, Section};
use crate::spec::*;
use crate::status::{EndReason, Outcome, Status};
use crate::{Game, Position, Rules};
use proptest::prelude::*;
use std::ops::ControlFlow;
use std::sync::Arc;

const ORTHOGONAL: DirSet = DirSet(1 | 1 << 2 | 1 << 4 | 1 << 6);
const ALL: DirSet = DirSet(0xff);

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn int(i: i64) -> Expr {
    Expr::Lit(Value::Int(i))
}

fn var(v: Var) -> Expr {
    Expr::Var(v)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, boxed(a), boxed(b))
}

fn rule(name: &str, expr: Expr) -> NamedRule {
    NamedRule {
        name: name.into(),
        expr,
    }
}

fn pattern(text: &str, pattern: Pattern, dirs: DirSet, mode: CaptureMode) -> MoveSpec {
    MoveSpec {
        text: text.into(),
        pattern,
        dirs: [dirs, dirs],
        mode,
        condition: None,
        then: None,
        leaves_ghost: false,
        takes_ghost: false,
    }
}

fn kind(name: &str, letter: &str, rank: i64, moves: Vec<MoveSpec>) -> KindSpec {
    KindSpec {
        name: name.into(),
        letter: letter.into(),
        attrs: vec![rank],
        tags: Vec::new(),
        moves,
        promotion: None,
        supply: None,
        royal: false,
        resets_idle: false,
        to_hand: None,
        at_most: None,
        never_in: None,
    }
}

/// A board with two players `A` and `B`, one attribute `rank`, no kinds yet.
fn spec(rows: usize, cols: usize) -> RulesSpec {
    RulesSpec {
        name: "test".into(),
        geometry: Geometry::new(rows, cols).unwrap(),
        players: [
            PlayerSpec {
                name: "A".into(),
                symbol: "A".into(),
            },
            PlayerSpec {
                name: "B".into(),
                symbol: "B".into(),
            },
        ],
        zones: Vec::new(),
        attributes: vec!["rank".into()],
        tags: Vec::new(),
        kinds: Vec::new(),
        enter: Vec::new(),
        capture: Vec::new(),
        place: Vec::new(),
        end: Vec::new(),
        setup: Vec::new(),
        must_capture: false,
        most_captures: false,
        effects: Vec::new(),
        pass: false,
        pass_any_time: false,
        after: Vec::new(),
        removal: None,
        turn: None,
        compounds: Vec::new(),
        fen: None,
    }
}

fn k(i: usize) -> KindId {
    KindId::new(i).unwrap()
}

fn cell(rules: &Rules, name: &str) -> Cell {
    rules.geometry().parse_cell(name).unwrap()
}

/// A 6x6 game with most of the kernel's features: a zone `pool` (c3:d4) only `Swimmer`s
/// enter; `Stone` steps orthogonally and captures by rank; `Leaper` jumps across the pool
/// unless a swimmer is in it, or steps quietly; `Hopper` hops orthogonally over a lower rank,
/// in chains; `Sniper` only captures (diagonally); a dynamic enter rule forbids a side with
/// fewer than two pieces to move to row 6.
fn features() -> RulesSpec {
    let mut s = spec(6, 6);
    let g = s.geometry.clone();
    let pool: crate::CellSet = ["c3", "d3", "c4", "d4"]
        .iter()
        .map(|n| g.parse_cell(n).unwrap())
        .collect();
    s.zones.push(ZoneSpec {
        name: "pool".into(),
        cells: ZoneCells::Shared(pool),
        mark: Some('~'),
    });
    s.tags.push("swims".into());
    let mut swimmer = kind(
        "Swimmer",
        "S",
        1,
        vec![pattern(
            "step orthogonal",
            Pattern::Step,
            ORTHOGONAL,
            CaptureMode::Any,
        )],
    );
    swimmer.tags = vec![0];
    let stone = kind(
        "Stone",
        "T",
        2,
        vec![pattern(
            "step orthogonal",
            Pattern::Step,
            ORTHOGONAL,
            CaptureMode::Any,
        )],
    );
    let leaper = kind(
        "Leaper",
        "L",
        3,
        vec![
            pattern(
                "jump orthogonal across pool unless occupant has swims",
                Pattern::Jump {
                    zone: 0,
                    blocked: Some(Expr::Has(boxed(var(Var::Occupant)), 0)),
                },
                ORTHOGONAL,
                CaptureMode::Any,
            ),
            pattern(
                "step diagonal quiet",
                Pattern::Step,
                DirSet(0xaa),
                CaptureMode::Quiet,
            ),
        ],
    );
    let hopper = kind(
        "Hopper",
        "H",
        4,
        vec![pattern(
            "hop orthogonal over a lower rank chain",
            Pattern::Hop {
                over: Some(bin(
                    BinOp::Lt,
                    Expr::Attr(boxed(var(Var::Target)), 0),
                    Expr::Attr(boxed(var(Var::Mover)), 0),
                )),
                chain: true,
                complete: false,
                far: false,
            },
            ORTHOGONAL,
            CaptureMode::Any,
        )],
    );
    let sniper = kind(
        "Sniper",
        "N",
        5,
        vec![pattern(
            "step diagonal capturing",
            Pattern::Step,
            DirSet(0xaa),
            CaptureMode::Capturing,
        )],
    );
    s.kinds = vec![swimmer, stone, leaper, hopper, sniper];
    let in_pool = Expr::In(boxed(var(Var::To)), 0, None);
    s.enter.push(rule(
        "only-swimmers-in-the-pool",
        bin(
            BinOp::Or,
            Expr::Not(boxed(in_pool)),
            Expr::Has(boxed(var(Var::Mover)), 0),
        ),
    ));
    s.enter.push(rule(
        "a-lone-piece-keeps-off-row-6",
        bin(
            BinOp::Or,
            bin(BinOp::Ne, Expr::Row(boxed(var(Var::To))), int(0)),
            bin(
                BinOp::Gt,
                Expr::Count(boxed(var(Var::Player)), None),
                int(1),
            ),
        ),
    ));
    s.capture.push(rule(
        "rank-decides",
        bin(
            BinOp::Ge,
            Expr::Attr(boxed(var(Var::Mover)), 0),
            Expr::Attr(boxed(var(Var::Target)), 0),
        ),
    ));
    s
}

fn rules_of(s: RulesSpec) -> Arc<Rules> {
    Arc::new(Rules::new(s).unwrap_or_else(|e| panic!("{e:?}")))
}

fn refusal(game: &mut Game, path: &str) -> Reason {
    let rules = game.rules().clone();
    let cells: Vec<Cell> = path.split('-').map(|n| cell(&rules, n)).collect();
    let before = game.position().to_position_string();
    let err = game.play_path(None, &cells).unwrap_err();
    assert_eq!(game.position().to_position_string(), before, "{path}");
    err.reason().unwrap_or_else(|| panic!("{path}: {err}"))
}

fn path(rules: &Rules, text: &str) -> Vec<Cell> {
    text.split('-').map(|n| cell(rules, n)).collect()
}

/// The position of the reason tests (A to move):
///
/// ```text
///    a  b  c  d  e  f
/// 6  .  .  .  .  .  .
/// 5  BH .  .  .  .  BT
/// 4  AH BT ~  BS AL .
/// 3  .  AT ~  ~  AN .
/// 2  BT AS .  .  .  BT
/// 1  AS .  .  .  .  .
/// ```
const FEATURES: &str = "6/BH4BT/AHBT1BSAL1/1AT2AN1/BTAS3BT/AS5 A";

#[test]
fn each_refusal_names_the_check_of_generation_that_refused_it() {
    let rules = rules_of(features());
    let enter = |n| Reason::Enter(rules.rule_by_name(Section::Enter, n).unwrap());
    let rank = Reason::Capture(
        rules
            .rule_by_name(Section::Capture, "rank-decides")
            .unwrap(),
    );
    let pool = enter("only-swimmers-in-the-pool");
    let mut game = Game::from_position_string(rules.clone(), FEATURES).unwrap();
    let expected = [
        // Left out of the target lists by a static enter rule: a step, a hop, a capture.
        ("b3-c3", pool),
        ("a4-c4", pool),
        ("e3-d4", pool),
        // The jump across the pool is blocked by the swimmer on d4.
        ("e4-b4", Reason::Blocked(PatternId(2), cell(&rules, "d4"))),
        // A quiet pattern onto a piece; a capturing pattern onto nothing.
        ("e4-f5", Reason::NotEmpty(PatternId(3))),
        ("e3-f4", Reason::OnlyCaptures(PatternId(5))),
        // The capture table: a rank 1 may not take a rank 2.
        ("a1-a2", rank),
        // A hop: over an equal rank the capture rule allows it, the hop's own `over` does not.
        ("a4-a6", Reason::Condition(PatternId(4))),
        // Over nothing onto a piece: the landing cell is judged first.
        ("a4-a2", Reason::NotEmpty(PatternId(4))),
        ("b3-b2", Reason::OwnPiece),
        ("a4-c6", Reason::NoPattern),
        ("b3-b1", Reason::NoPattern),
    ];
    for (p, want) in expected {
        assert_eq!(refusal(&mut game, p), want, "{p}");
    }
    for legal in ["b3-b4", "e3-f2", "a1-b1", "e4-d5"] {
        let mut g = game.clone();
        assert!(g.play_path(None, &path(&rules, legal)).is_ok(), "{legal}");
    }
    let mut alone = Game::from_position_string(rules.clone(), "6/6/AH5/6/6/BT5 A").unwrap();
    assert_eq!(
        refusal(&mut alone, "a4-a2"),
        Reason::NothingToHop(PatternId(4))
    );
    // Refusals that are not about the piece's moves.
    let kind = |p: &str, who: Option<Player>| {
        let mut g = game.clone();
        g.play_path(who, &path(&rules, p)).unwrap_err().kind()
    };
    assert!(matches!(kind("c1-c2", None), MoveErrorKind::NoPiece(_)));
    assert!(matches!(
        kind("a2-a3", None),
        MoveErrorKind::NotYours { .. }
    ));
    assert!(matches!(
        kind("b3-b4", Some(Player::SECOND)),
        MoveErrorKind::NotYourTurn { .. }
    ));
}

#[test]
fn a_check_that_reads_the_position_refuses_during_play_and_is_named() {
    let rules = rules_of(features());
    let lone = Reason::Enter(
        rules
            .rule_by_name(Section::Enter, "a-lone-piece-keeps-off-row-6")
            .unwrap(),
    );
    let mut game = Game::from_position_string(rules.clone(), "6/AT5/6/6/6/BT5 A").unwrap();
    assert_eq!(refusal(&mut game, "a5-a6"), lone);
    let mut two = Game::from_position_string(rules.clone(), "6/AT5/6/6/6/AT4BT A").unwrap();
    assert!(two.play_path(None, &path(&rules, "a5-a6")).is_ok());
}

#[test]
fn a_refused_capture_names_the_first_capture_rule_that_does_not_hold() {
    let mut s = features();
    // A second rule that also refuses: the first in declaration order is named.
    s.capture.insert(
        0,
        rule(
            "never-row-2",
            bin(BinOp::Ne, Expr::Row(boxed(var(Var::To))), int(4)),
        ),
    );
    let rules = rules_of(s);
    let first = Reason::Capture(rules.rule_by_name(Section::Capture, "never-row-2").unwrap());
    let second = Reason::Capture(
        rules
            .rule_by_name(Section::Capture, "rank-decides")
            .unwrap(),
    );
    let mut game = Game::from_position_string(rules.clone(), FEATURES).unwrap();
    assert_eq!(refusal(&mut game, "a1-a2"), first);
    let mut game = Game::from_position_string(rules.clone(), "6/6/6/6/AS5/BT5 B").unwrap();
    // B's stone on a1 takes the swimmer on a2 (row 2 is kernel row 4): refused by the first.
    assert_eq!(refusal(&mut game, "a1-a2"), first);
    // Off row 2 the first holds, and the rank decides.
    let mut game = Game::from_position_string(rules.clone(), "6/6/BT5/AS5/6/6 A").unwrap();
    assert_eq!(refusal(&mut game, "a3-a4"), second);
}

/// A hunter that hops runners orthogonally, in chains (that must be completed when `complete`),
/// and runners that step quietly.
fn hunters(rows: usize, cols: usize, complete: bool) -> RulesSpec {
    let mut s = spec(rows, cols);
    s.kinds = vec![
        kind(
            "Hunter",
            "C",
            2,
            vec![pattern(
                "hop orthogonal chain",
                Pattern::Hop {
                    over: None,
                    chain: true,
                    complete,
                    far: false,
                },
                ORTHOGONAL,
                CaptureMode::Any,
            )],
        ),
        kind(
            "Runner",
            "R",
            1,
            vec![pattern(
                "step orthogonal quiet",
                Pattern::Step,
                ORTHOGONAL,
                CaptureMode::Quiet,
            )],
        ),
    ];
    s
}

/// A position with a hunter of A on `hunter` and runners of B on `runners`, A to move.
fn hunter_position(
    rules: &Arc<Rules>,
    hunter: Cell,
    runners: impl Iterator<Item = Cell>,
) -> Position {
    let mut game = Game::empty(rules.clone());
    game.place(Piece::new(k(0), Player::FIRST), hunter).unwrap();
    for r in runners {
        game.place(Piece::new(k(1), Player::SECOND), r).unwrap();
    }
    game.position().clone()
}

#[test]
fn a_position_with_too_many_moves_is_refused_with_a_typed_error_and_bounded_work() {
    // The hunter in the middle of a 15x15 board, a runner on every cell of the other colour:
    // the chains branch at every landing, far past any limit.
    let rules = rules_of(hunters(15, 15, false));
    let g = rules.geometry().clone();
    let centre = g.cell(7, 7).unwrap();
    let runners = g
        .cells()
        .iter()
        .filter(|c| (g.row(*c) + g.col(*c)) % 2 == 1);
    let mut pos = hunter_position(&rules, centre, runners);
    let limit = pos.legal_moves().unwrap_err();
    assert!(matches!(
        limit,
        MoveLimit::TooMany | MoveLimit::ChainTooLong
    ));
    assert_eq!(pos.perft(1), Err(limit));
    assert_eq!(pos.perft_bulk(1), Err(limit));
    assert_eq!(pos.playout(&mut |_| 0, 10), Err(limit));
    assert_eq!(
        pos.for_each_move(|_| ControlFlow::<()>::Continue(())),
        Err(limit)
    );
    // A side with too many moves has moves: it is neither stuck nor lost.
    assert_eq!(pos.status(), Status::ToMove(Player::FIRST));
    let before = pos.to_position_string();
    let mut game = Game::from_position_string(rules.clone(), &before).unwrap();
    let up = g.cell(5, 7).unwrap();
    let err = game.play_path(None, &[centre, up]).unwrap_err();
    assert_eq!(err.kind(), MoveErrorKind::Limit(limit));
    assert_eq!(game.position().to_position_string(), before);
}

#[test]
fn a_chain_past_the_hop_limit_is_refused_not_cut() {
    // A single chain of 23 hops along a serpent on a 16x16 board: east along row 0, down,
    // west along row 2, down, east along row 4.
    for complete in [false, true] {
        let rules = rules_of(hunters(16, 16, complete));
        let g = rules.geometry().clone();
        let mut runners = Vec::new();
        for c in (1..15).step_by(2) {
            runners.push(g.cell(0, c).unwrap());
            runners.push(g.cell(2, c).unwrap());
            runners.push(g.cell(4, c).unwrap());
        }
        runners.push(g.cell(1, 14).unwrap());
        runners.push(g.cell(3, 0).unwrap());
        let pos = hunter_position(&rules, g.cell(0, 0).unwrap(), runners.into_iter());
        assert_eq!(
            pos.legal_moves().map(|l| l.len()),
            Err(MoveLimit::ChainTooLong)
        );
    }
    // Within the limit, the whole chain is generated.
    let rules = rules_of(hunters(16, 16, true));
    let g = rules.geometry().clone();
    let runners = (1..15).step_by(2).map(|c| g.cell(0, c).unwrap());
    let pos = hunter_position(&rules, g.cell(0, 0).unwrap(), runners);
    let moves = pos.legal_moves().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves.get(0).unwrap().hops(), 7);
}

#[test]
fn expressions_nested_too_deeply_are_refused_before_anything_evaluates_them() {
    let nested = |depth: usize| {
        let mut e = Expr::Lit(Value::Bool(true));
        for _ in 1..depth {
            e = Expr::Not(boxed(Expr::Not(boxed(e))));
        }
        e
    };
    let deep = |depth: usize| {
        let mut s = features();
        let mut e = Expr::Lit(Value::Bool(true));
        for _ in 1..depth {
            e = Expr::Not(boxed(e));
        }
        s.enter.push(rule("deep", e));
        Rules::new(s)
    };
    assert!(deep(MAX_EXPR_DEPTH).is_ok());
    let errors = deep(MAX_EXPR_DEPTH + 1).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].site, Site::Enter(2));
    assert!(errors[0].message.contains("nests too deeply"), "{errors:?}");
    assert_eq!(nested(3).depth(), 5);
}

#[test]
fn one_error_per_site_and_cause_with_the_count_of_the_others() {
    // `to.row / (to.row - from.row)` divides by zero on every sideways step.
    let mut s = features();
    let row = |v| Expr::Row(boxed(var(v)));
    s.enter.push(rule(
        "dry",
        bin(
            BinOp::Gt,
            bin(
                BinOp::Div,
                row(Var::To),
                bin(BinOp::Sub, row(Var::To), row(Var::From)),
            ),
            int(-100),
        ),
    ));
    let errors = Rules::new(s).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(e.site, Site::Enter(2));
    assert!(e.message.starts_with("arithmetic error"), "{}", e.message);
    assert!(e.repeats > 10, "{e:?}");
    // The case named is a move that can happen: a sideways step.
    let case = e.message.split("when ").nth(1).unwrap_or("");
    let cells: Vec<&str> = case.split(' ').nth(2).unwrap_or("").split('-').collect();
    assert_eq!(cells.len(), 2, "{case}");
    assert_ne!(cells[0], cells[1], "{case}");
    // Too many move patterns: one error, not one per pattern.
    let mut s = features();
    let steps = (0..300).map(|_| pattern("step all", Pattern::Step, ALL, CaptureMode::Any));
    s.kinds[0].moves.extend(steps);
    let errors = Rules::new(s).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("at most 256"), "{errors:?}");
}

/// The features game, won by taking the opponent's last piece.
fn with_last_piece() -> Arc<Rules> {
    let mut s = features();
    s.end.push(EndSpec {
        name: "last-piece".into(),
        when: bin(
            BinOp::Eq,
            Expr::Count(boxed(var(Var::Opponent)), None),
            int(0),
        ),
        result: EndResult::Winner(var(Var::Player)),
    });
    rules_of(s)
}

#[test]
fn a_loaded_position_ends_as_the_same_position_reached_by_play() {
    let rules = with_last_piece();
    // By play: A's stone takes B's last piece.
    let mut game = Game::from_position_string(rules.clone(), "6/6/6/6/BS5/AT5 A").unwrap();
    let status = game.play_path(None, &path(&rules, "a1-a2")).unwrap();
    assert_eq!(status, Status::Over(Outcome::Win(Player::FIRST)));
    let written = game.position().to_position_string();
    assert!(written.ends_with("winner=A"), "{written}");
    // The same position, read without its result.
    let bare = written.trim_end_matches(" winner=A");
    let read = Position::from_position_string(rules.clone(), bare).unwrap();
    assert_eq!(read.outcome(), Some(Outcome::Win(Player::FIRST)));
    assert_eq!(read.to_position_string(), written);
}

#[test]
fn an_ended_game_says_which_end_rule_decided_it() {
    let mut s = features();
    // The rule of the last piece, then a "no legal move" rule (decided only when the move
    // list is empty; written first, it would decide a game won by taking the last piece too).
    s.end.push(EndSpec {
        name: "last-piece".into(),
        when: bin(
            BinOp::Eq,
            Expr::Count(boxed(var(Var::Opponent)), None),
            int(0),
        ),
        result: EndResult::Winner(var(Var::Player)),
    });
    s.end.push(EndSpec {
        name: "no-moves".into(),
        when: Expr::NoMoves(boxed(var(Var::Opponent))),
        result: EndResult::Winner(var(Var::Player)),
    });
    let rules = rules_of(s);
    let named = |g: &Game| g.end_reason().map(|r| r.name(&rules).to_string());
    // Decided by a move: A's stone takes B's last piece.
    let mut game = Game::from_position_string(rules.clone(), "6/6/6/6/BS5/AT5 A").unwrap();
    assert_eq!(game.end_reason(), None);
    game.play_path(None, &path(&rules, "a1-a2")).unwrap();
    assert_eq!(
        game.end_reason(),
        Some(EndReason::Rule(
            rules.rule_by_name(Section::End, "last-piece").unwrap()
        ))
    );
    assert_eq!(named(&game).as_deref(), Some("last-piece"));
    assert!(
        game.position()
            .render()
            .contains("Game over: A wins (last-piece)")
    );
    // Decided by the side to move having no move (the rule before it).
    let boxed_in = Game::from_position_string(rules.clone(), "6/6/6/6/BT5/ASBT4 A").unwrap();
    assert_eq!(boxed_in.outcome(), Some(Outcome::Win(Player::SECOND)));
    assert_eq!(named(&boxed_in).as_deref(), Some("no-moves"));
    // Undone, the game goes on and has no reason to have ended.
    game.undo();
    assert_eq!(game.end_reason(), None);
}

#[test]
fn a_side_with_no_move_and_no_rule_to_end_the_game_is_stuck() {
    let rules = rules_of(features());
    // A's lone swimmer in the corner, boxed in by B's stones it may not take.
    let game = Game::from_position_string(rules.clone(), "6/6/6/6/BT5/ASBT4 A").unwrap();
    assert!(game.legal_moves().unwrap().is_empty());
    assert_eq!(game.status(), Status::Stuck(Player::FIRST));
    assert_eq!(game.outcome(), None);
}

/// Pieces of any kind and owner on random cells of the features board, either side to move.
fn random_position() -> impl Strategy<Value = (Vec<(usize, usize, usize)>, bool)> {
    (
        prop::collection::vec((0usize..36, 0usize..5, 0usize..2), 1..24),
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A path is refused exactly when generation does not list it; a refusal changes nothing;
    /// every refusal has a reason found by generation's own checks (the explanation's
    /// fallbacks are debug assertions), and no target's verdict disagrees with generation.
    #[test]
    fn a_path_is_refused_exactly_when_generation_does_not_list_it(
        (pieces, second) in random_position(),
        picks in prop::collection::vec((0usize..36, 0usize..36, 0usize..36), 1..40),
    ) {
        let rules = rules_of(features());
        let g = rules.geometry().clone();
        let mut game = Game::empty(rules.clone());
        for (c, kd, owner) in pieces {
            let piece = Piece::new(k(kd), Player::new(owner).unwrap());
            let _ = game.place(piece, Cell::new(c).unwrap());
        }
        let side = if second { "B" } else { "A" };
        let text = game.position().to_position_string().replace(" A", &format!(" {side}"));
        let mut game = Game::from_position_string(rules.clone(), &text).unwrap();
        let legal = game.legal_moves().unwrap();
        let paths: Vec<Vec<Cell>> = legal.iter().map(|m| m.path(&g).to_vec()).collect();
        let mut candidates: Vec<Vec<Cell>> = paths.clone();
        for (a, b, c) in picks {
            let (a, b, c) = (Cell::new(a).unwrap(), Cell::new(b).unwrap(), Cell::new(c).unwrap());
            candidates.push(vec![a, b]);
            candidates.push(vec![a, b, c]);
        }
        for path in candidates {
            let before = game.position().to_position_string();
            let listed = paths.iter().filter(|p| **p == path).count() > 0
                || (path.len() == 2
                    && paths.iter().filter(|p| p[0] == path[0] && p[p.len() - 1] == path[1]).count() == 1);
            let mut trial = game.clone();
            match trial.play_path(None, &path) {
                Ok(_) => prop_assert!(listed, "{path:?} was played but is not listed in {text}"),
                Err(e) => {
                    prop_assert!(!listed, "{path:?} is listed but was refused: {e}");
                    prop_assert_eq!(trial.position().to_position_string(), before.clone());
                    let reason_or_kind = e.reason().is_some()
                        || !matches!(e.kind(), MoveErrorKind::Illegal { .. });
                    prop_assert!(reason_or_kind);
                }
            }
        }
        // Every target's verdict agrees with generation.
        let pos = game.position();
        let side = pos.side_to_move();
        for (from, piece) in pos.pieces().filter(|(_, p)| p.owner() == side) {
            let mut free = Vec::new();
            let _ = pos.state.generate_from(&rules, side, from, |m| {
                free.push(m);
                ControlFlow::<()>::Continue(())
            });
            let slot = rules.slot(piece.code() as u8, from.0);
            for t in rules.listed(slot) {
                if let Ok(m) = pos.state.target_verdict(&rules, t, piece.code() as u8, from, side) {
                    prop_assert!(free.contains(&m), "{m:?} from a target is not generated");
                }
            }
        }
        game.undo();
    }
}

#[test]
fn a_set_up_position_reads_back_as_itself() {
    let rules = with_last_piece();
    // An empty board, as set up: the end rules would say B has won (A has no piece left).
    let game = Game::empty(rules.clone());
    assert_eq!(game.outcome(), None);
    let text = game.position().to_position_string();
    assert_eq!(text, "6/6/6/6/6/6 A setup");
    let back = Position::from_position_string(rules.clone(), &text).unwrap();
    assert_eq!(back.outcome(), None);
    assert_eq!(back.to_position_string(), text);
    // Without the mark, the same board is judged.
    let judged = Position::from_position_string(rules.clone(), "6/6/6/6/6/6 A").unwrap();
    assert_eq!(judged.outcome(), Some(Outcome::Win(Player::SECOND)));
    assert!(Position::from_position_string(rules, "6/6/6/6/6/6 A setup winner=B").is_err());
}

#[test]
fn a_bad_position_string_says_where_and_what_as_data() {
    use crate::notation::PositionErrorKind as K;
    let rules = rules_of(features());
    let kind = |text: &str| Position::from_position_string(rules.clone(), text).unwrap_err();
    let e = kind("6/6/6/6/6/5 A");
    assert_eq!((e.offset, e.kind), (11, K::Shape { rows: 6, cols: 6 }));
    let e = kind("6/AT5/6/6/6/6 C");
    assert!(
        matches!(e.kind, K::NotAPlayer { ref name, .. } if name == "C"),
        "{e}"
    );
    assert_eq!(kind("6/6/6/6/6/0 A").kind, K::BadRun("0".into()));
    // A run after a piece that would wrap past the end of the numbers is too wide, not a
    // panic or a short run.
    assert!(matches!(
        kind("6/AT18446744073709551615/6/6/6/6 A").kind,
        K::WideRow { row: 2, cols: 6 }
    ));
    assert!(matches!(kind("6/XX4/6/6/6/6 A").kind, K::NotACode { .. }));
    assert_eq!(
        kind("6/6/6/6/6/6 A turbo").kind,
        K::UnknownField("turbo".into())
    );
    assert_eq!(kind("6/6/6/6/6/6").kind, K::NoSide);
    let e = kind("5/6/6/6/6/6 A");
    assert_eq!(
        e.kind,
        K::ShortRow {
            row: 1,
            cells: 5,
            cols: 6
        }
    );
    assert_eq!(
        e.to_string(),
        "bad position string at character 2: row 1 has 5 cells, not 6"
    );
}
