//! Royal pieces beside every other construct: a placement, a hop, an effect and a second part
//! that answer a check are legal, and those that do not are refused for leaving the royal
//! piece attacked; several royal pieces of one player are all kept safe. Each case is checked
//! three ways: the generated moves, the reference definition of legality, and the refusal of
//! a move typed by hand.

use ply_kernel::{Game, MoveErrorKind, Position, Reason, Rules};
use std::sync::Arc;

/// A 5x5 pack: a royal king, a rook, and `extra` (kinds, effects) added.
fn pack(extra: &str) -> Arc<Rules> {
    let text = format!(
        r#"
[game]
name = "Royal and more"
players = ["White", "Black"]
symbols = {{ White = "W", Black = "B" }}

[board]
rows = 5
cols = 5

[pieces.King]
letter = "K"
royal = true
moves = ["step all"]

[pieces.Rook]
letter = "R"
moves = ["slide orthogonal"]

{extra}

[end.checkmate]
when = 'no_moves(opponent) and in_check(opponent)'
winner = 'player'

[end.stalemate]
when = 'no_moves(opponent)'
draw = true

[setup.White]
King = "a1"

[setup.Black]
King = "e5"
"#
    );
    match ply_lang::load_str("royal.toml", &text, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    }
}

/// The legal moves in notation, sorted, checked against the reference definition.
fn legal(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let mut generated: Vec<String> = pos
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(rules, &m))
        .collect();
    generated.sort();
    let mut reference: Vec<String> = pos
        .legal_moves_by_reference()
        .unwrap()
        .iter()
        .map(|m| ply_kernel::move_text(rules, m))
        .collect();
    reference.sort();
    assert_eq!(
        generated, reference,
        "generation and the reference disagree"
    );
    generated
}

fn at(rules: &Arc<Rules>, text: &str) -> Game {
    Game::from_position_string(rules.clone(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays `text`; returns the refusal's reason, checking that a refused move changes nothing.
fn try_play(game: &mut Game, text: &str) -> Result<(), Reason> {
    let rules = game.rules().clone();
    let path = ply_kernel::parse_path(&rules, text).unwrap();
    let before = (game.position().to_position_string(), game.position().hash());
    match game.play_path(None, &path) {
        Ok(_) => Ok(()),
        Err(e) => {
            let after = (game.position().to_position_string(), game.position().hash());
            assert_eq!(before, after, "{text}: a refused move changed the position");
            match e.kind() {
                MoveErrorKind::Illegal { reason, .. } => Err(reason),
                MoveErrorKind::CannotPlace { reason, .. } => Err(reason),
                other => panic!("{text}: refused with {other:?}"),
            }
        }
    }
}

#[test]
fn a_placement_in_check_must_answer_it() {
    let rules = pack(
        r#"
[pieces.Wall]
letter = "W"
supply = 3
moves = ["place"]
"#,
    );
    // The black rook on a5 attacks the king on a1 along the file.
    let mut game = at(&rules, "BR3BK/5/5/5/WK4 White hand=WW:3,BW:3");
    assert_eq!(
        legal(game.position()),
        ["a1-b1", "a1-b2", "a2", "a3", "a4"],
        "only the king's escapes and the three blocking placements"
    );
    assert_eq!(try_play(&mut game, "c3"), Err(Reason::Exposed));
    assert_eq!(try_play(&mut game, "a1-a2"), Err(Reason::Exposed));
    assert_eq!(try_play(&mut game, "a3"), Ok(()));
}

#[test]
fn a_hop_that_takes_the_checking_piece_is_legal() {
    let rules = pack(
        r#"
[pieces.Hopper]
letter = "H"
moves = ["hop orthogonal", "step orthogonal quiet"]
"#,
    );
    // The rook on c2 attacks the king on a2; the hopper on c3 takes it, landing on c1.
    let mut game = at(&rules, "4BK/5/2WH2/WK1BR2/5 White");
    let moves = legal(game.position());
    assert!(moves.contains(&"c3xc1".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("c3-")), "{moves:?}");
    assert_eq!(try_play(&mut game, "c3-d3"), Err(Reason::Exposed));
    assert_eq!(try_play(&mut game, "c3xc1"), Ok(()));
    assert_eq!(game.position().piece_at(cell(&rules, "c2")), None);
}

#[test]
fn an_effect_that_takes_the_checking_piece_makes_the_move_legal() {
    let rules = pack(
        r#"
[pieces.Stone]
letter = "S"
moves = ["step orthogonal quiet"]

[effects.sandwich]
custodial = "orthogonal"
"#,
    );
    // The rook on c2 attacks the king on a2. The stone d3-c3 closes it against the stone on
    // c1: the effect takes it. The stone d3-d4 does nothing about the check.
    let mut game = at(&rules, "4BK/5/3WS1/WK1BR2/2WS2 White");
    let moves = legal(game.position());
    assert!(moves.contains(&"d3-c3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d3-d4".to_string()), "{moves:?}");
    assert_eq!(try_play(&mut game, "d3-d4"), Err(Reason::Exposed));
    assert_eq!(try_play(&mut game, "d3-c3"), Ok(()));
    assert_eq!(game.position().piece_at(cell(&rules, "c2")), None);
}

#[test]
fn a_second_part_that_blocks_the_check_makes_the_move_legal() {
    let rules = pack(
        r#"
[pieces.Amazon]
letter = "Q"
moves = ["slide all quiet then place Arrow by slide all"]

[pieces.Arrow]
letter = "X"
moves = []
"#,
    );
    // The rook on a5 attacks the king on a1; an arrow on a2, a3 or a4 blocks it.
    let mut game = at(&rules, "BR3BK/5/2WQ2/5/WK4 White");
    let moves = legal(game.position());
    assert!(moves.contains(&"c3-c2/a2".to_string()), "{moves:?}");
    assert!(moves.contains(&"c3-c4/a4".to_string()), "{moves:?}");
    assert!(!moves.contains(&"c3-c2/c1".to_string()), "{moves:?}");
    assert_eq!(try_play(&mut game, "c3-c2/c1"), Err(Reason::Exposed));
    assert_eq!(try_play(&mut game, "c3-c2/a2"), Ok(()));
}

#[test]
fn every_royal_piece_of_a_player_is_kept_safe() {
    let rules = pack("");
    // Two white kings; the rook on e5's file attacks the one on e1. Moves of the king on a1
    // leave it attacked: only the king on e1 may move, off the file.
    let mut game = at(&rules, "4BR/5/5/5/WK3WK White");
    assert_eq!(legal(game.position()), ["e1-d1", "e1-d2"]);
    assert_eq!(try_play(&mut game, "a1-b1"), Err(Reason::Exposed));
    // The other way round: the king on a1 attacked, the one on e1 not.
    let game = at(&rules, "BR4/5/5/5/WK3WK White");
    assert_eq!(legal(game.position()), ["a1-b1", "a1-b2"]);
}

#[test]
fn two_royal_kinds_are_refused_where_the_second_is_declared() {
    let text = r#"
[game]
name = "Two royals"
players = ["A", "B"]

[board]
rows = 3
cols = 3

[pieces.King]
letter = "K"
royal = true
moves = ["step all"]

[pieces.Prince]
letter = "P"
royal = true
moves = ["step all"]

[end.none]
when = 'no_moves(opponent)'
draw = true

[setup.A]
King = "a1"
Prince = "b1"

[setup.B]
King = "a3"
Prince = "b3"
"#;
    let err = match ply_lang::load_str("two.toml", text, &[]) {
        Ok(_) => panic!("two royal kinds were accepted"),
        Err(e) => e.render(false),
    };
    assert!(err.contains("two.toml:15"), "{err}");
    assert!(
        err.contains("only one kind may be royal; King already is"),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
}

fn cell(rules: &Rules, name: &str) -> ply_kernel::Cell {
    rules.geometry().parse_cell(name).unwrap()
}

#[test]
fn a_hop_chain_ending_on_a_choice_of_promotion_offers_each_choice_and_promotes() {
    let text = r#"
[game]
name = "Chains that promote"
players = ["Light", "Dark"]
forward = { Light = "up", Dark = "down" }

[board]
rows = 7
cols = 7

[zones.far]
Light = "a7:g7"
Dark = "a1:g1"

[pieces.Man]
letter = "M"
moves = ["step forward_diagonal quiet", "hop forward_diagonal chain"]
promote = { to = ["Queen", "Rook"], zone = "far" }

[pieces.Queen]
letter = "Q"
moves = ["step all"]

[pieces.Rook]
letter = "R"
moves = ["step orthogonal"]

[end.none-left]
when = 'count(pieces(opponent)) == 0'
winner = 'player'

[end.stuck]
when = 'no_moves(opponent)'
winner = 'player'
"#;
    let rules = ply_lang::load_str("chains.toml", text, &[])
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .rules;
    // The light man on a1 hops b2, d4 and f6, landing on c3, e5 and g7, the far row.
    let game = at(&rules, "7/5DM1/7/3DM3/7/1DM5/LM6 Light");
    let moves = legal(game.position());
    assert_eq!(
        moves,
        ["a1xc3", "a1xc3xe5", "a1xc3xe5xg7=Q", "a1xc3xe5xg7=R"],
        "one move per chain, and one per choice where a chain reaches the far row"
    );
    let g = rules.geometry();
    for m in game.legal_moves().unwrap().iter() {
        let path: Vec<String> = game
            .position()
            .path(m)
            .iter()
            .map(|c| g.name(*c).to_string())
            .collect();
        assert!(path.len() <= 4, "a corrupted path: {path:?}");
    }
    let mut played = game.clone();
    let path = ply_kernel::parse_path(&rules, "a1xc3xe5xg7").unwrap();
    let rook = rules.kind_by_name("Rook").unwrap();
    played.play_path_choosing(None, &path, Some(rook)).unwrap();
    let on = played
        .position()
        .piece_at(g.parse_cell("g7").unwrap())
        .unwrap();
    assert_eq!(on.kind(), rook, "the chain's choice is made");
    assert_eq!(played.position().count(ply_kernel::Player::SECOND, None), 0);
}

#[test]
fn a_capture_in_passing_with_a_second_part_places_it_and_the_taken_cell_counts_as_empty() {
    let text = r#"
[game]
name = "Passing and placing"
players = ["A", "B"]
forward = { A = "up", B = "down" }

[board]
rows = 5
cols = 5

[pieces.Runner]
letter = "R"
moves = [
    "slide forward upto 2 quiet leaves ghost",
    "step forward_diagonal capturing takes ghost then place Marker by slide south",
]

[pieces.Marker]
letter = "M"
moves = []

[end.stuck]
when = 'no_moves(opponent)'
winner = 'player'
"#;
    let rules = ply_lang::load_str("passing.toml", text, &[])
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .rules;
    // B's runner on c5 slides to c3, passing c4; A's runner on d3 takes it in passing on c4,
    // and places a marker south of c4: on c3, where the runner it took stood, or beyond.
    let mut game = at(&rules, "2BR2/5/3AR1/5/5 B");
    assert_eq!(try_play(&mut game, "c5-c3"), Ok(()));
    let moves = legal(game.position());
    for m in ["d3xc4/c3", "d3xc4/c2", "d3xc4/c1"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    assert!(!moves.contains(&"d3xc4".to_string()), "{moves:?}");
    assert_eq!(try_play(&mut game, "d3xc4/c3"), Ok(()));
    let g = rules.geometry();
    let code = |c: &str| {
        game.position()
            .piece_at(g.parse_cell(c).unwrap())
            .map(|p| rules.code(p).to_string())
    };
    assert_eq!(code("c4").as_deref(), Some("AR"));
    assert_eq!(
        code("c3").as_deref(),
        Some("AM"),
        "the runner taken, the marker placed"
    );
    assert_eq!(game.position().count(ply_kernel::Player::SECOND, None), 0);
}

/// A 5x5 pack of stepping stones with one effect.
fn effect_pack(effect: &str) -> Result<Arc<Rules>, String> {
    let text = format!(
        r#"[game]
name = "Effects"
players = ["A", "B"]

[board]
rows = 5
cols = 5

[pieces.Stone]
letter = "S"
moves = ["step orthogonal quiet"]

{effect}

[end.stuck]
when = 'no_moves(opponent)'
winner = 'player'
"#
    );
    ply_lang::load_str("effects.toml", &text, &[])
        .map(|p| p.rules)
        .map_err(|e| e.render(false))
}

#[test]
fn a_surround_in_some_directions_is_completed_by_the_piece_that_closes_it() {
    let rules = effect_pack("[effects.corner]\nsurround = \"n, e\"").unwrap();
    // B's stone on c3 is enclosed by its north (c4) and east (d3) neighbours. A's stone on c4
    // is there; A's stone stepping d2-d3 completes the enclosure and takes it.
    let mut game = at(&rules, "5/2AS2/2BS2/3AS1/5 A");
    assert_eq!(try_play(&mut game, "d2-d3"), Ok(()));
    assert_eq!(game.position().count(ply_kernel::Player::SECOND, None), 0);
    // A stone arriving outside the enclosure (west of the victim, on b3) takes nothing,
    // though north and east are already held.
    let mut game = at(&rules, "5/2AS2/2BSAS1/1AS3/5 A");
    assert_eq!(try_play(&mut game, "b2-b3"), Ok(()));
    assert_eq!(game.position().count(ply_kernel::Player::SECOND, None), 1);
}

#[test]
fn an_effect_condition_that_reads_where_the_mover_stands_is_refused() {
    for (effect, what) in [
        (
            "custodial = \"orthogonal\"\ntarget = 'mover.cell in edge'",
            "`target`",
        ),
        (
            "custodial = \"orthogonal\"\nhostile = 'mover.row == 0'",
            "`hostile`",
        ),
        (
            "custodial = \"orthogonal\"\nhostile = 'target.col == cell.col'",
            "`hostile`",
        ),
    ] {
        let text = format!("[zones.edge]\ncells = \"a1:e1\"\n\n[effects.trap]\n{effect}");
        let err = effect_pack(&text)
            .err()
            .unwrap_or_else(|| panic!("{effect}: accepted"));
        assert!(
            err.contains(&format!("{what} condition cannot read where")),
            "{err}"
        );
        assert!(err.contains("effects.toml:"), "{err}");
    }
    // Kinds, owners and the cell looked at are known.
    let ok = "custodial = \"orthogonal\"\ntarget = 'target is Stone and mover is Stone'\nhostile = 'cell.row == 0'";
    effect_pack(&format!("[effects.trap]\n{ok}")).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_compound_move_that_ends_where_the_mover_could_step_is_written_onto_its_partner() {
    let rules = {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/chess.toml");
        ply_lang::load(&path, &[])
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .rules
    };
    // Chess960: the king on b1, a rook on a1, the long right. Castling long takes the king to
    // c1, where it could also step: castling is written b1-a1, the step b1-c1.
    let fen = "1k6/8/8/8/8/8/8/RK6 w Q - 0 1";
    let game = Game::from_position_string(rules.clone(), fen).unwrap();
    let moves = legal(game.position());
    assert!(moves.contains(&"b1-c1".to_string()), "{moves:?}");
    assert!(moves.contains(&"b1-a1".to_string()), "{moves:?}");
    let mut paths: Vec<Vec<ply_kernel::Cell>> = game
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| game.position().path(m).to_vec())
        .collect();
    let n = paths.len();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), n, "two moves share a path");
    let cell = |g: &Game, c: &str| {
        let p = g
            .position()
            .piece_at(rules.geometry().parse_cell(c).unwrap());
        p.map(|p| rules.code(p).to_string())
    };
    let mut step = game.clone();
    assert_eq!(try_play(&mut step, "b1-c1"), Ok(()));
    assert_eq!(cell(&step, "c1").as_deref(), Some("WK"));
    assert_eq!(
        cell(&step, "a1").as_deref(),
        Some("WR"),
        "a step leaves the rook"
    );
    let mut castle = game.clone();
    assert_eq!(try_play(&mut castle, "b1-a1"), Ok(()));
    assert_eq!(cell(&castle, "c1").as_deref(), Some("WK"));
    assert_eq!(
        cell(&castle, "d1").as_deref(),
        Some("WR"),
        "castling moves the rook"
    );
    assert_eq!(cell(&castle, "a1"), None);
    // Standard castling keeps its notation: the king cannot step two cells.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let open = Game::from_position_string(rules.clone(), fen).unwrap();
    let moves = legal(open.position());
    assert!(moves.contains(&"e1-g1".to_string()) && moves.contains(&"e1-c1".to_string()));
}

#[test]
fn a_slide_that_takes_a_passing_piece_is_refused_rather_than_never_taking() {
    let text = r#"
[game]
name = "Sliding takes"
players = ["A", "B"]
forward = { A = "up", B = "down" }

[board]
rows = 5
cols = 5

[pieces.Runner]
letter = "R"
moves = ["slide forward upto 2 quiet leaves ghost", "slide forward_diagonal capturing takes ghost"]

[end.stuck]
when = 'no_moves(opponent)'
winner = 'player'
"#;
    let Err(e) = ply_lang::load_str("slide.toml", text, &[]) else {
        panic!("accepted");
    };
    let err = e.render(false);
    assert!(
        err.contains("only a step, a leap or a jump can take a passing piece"),
        "{err}"
    );
    assert!(err.contains("slide.toml:13:"), "{err}");
}

/// An effect that must change a piece, judged before the move is made, sees the piece a
/// second part places back on the cell the mover left (found by the random-pack test).
#[test]
fn a_required_effect_sees_the_piece_placed_where_the_mover_was() {
    let text = r#"
[game]
name = "Placed back"
players = ["White", "Black"]
symbols = { White = "W", Black = "B" }

[board]
rows = 3
cols = 3

[pieces.Bishop]
letter = "B"
moves = ['step sw then place Bishop by slide orthogonal, ne']

[pieces.Crab]
letter = "C"
moves = ['step e+w']

[effects.enclose]
surround = "n, w"
required = true

[end.last-piece]
when = 'count(pieces(opponent)) == 0'
winner = 'player'
"#;
    let rules = ply_lang::load_str("placed_back.toml", text, &[])
        .unwrap_or_else(|e| panic!("{}", e.render(false)))
        .rules;
    // Black's bishop on c2 steps to b1 and places a bishop back on c2: the white crab on c1
    // then has bishops north (c2) and west (b1) of it, and is taken.
    let game = at(&rules, "3/2BB/2WC Black");
    let moves = legal(game.position());
    assert!(moves.contains(&"c2-b1/c2".to_string()), "{moves:?}");
}

/// An end rule of counts (interpreted: `count(...) * 2`) is seen from the player who has just
/// moved. A placement by one player makes it hold for the other, who then moves a piece
/// without changing any count: it must be tested then too (it was skipped, as if a count had
/// to change on the very move).
#[test]
fn a_rule_of_counts_made_true_by_the_opponents_placement_ends_the_game_after_a_quiet_move() {
    let text = r#"
[game]
name = "Counts"
players = ["A", "B"]

[board]
rows = 3
cols = 3

[pieces.Stone]
letter = "S"
moves = ["step all"]

[pieces.Disc]
letter = "D"
moves = ["place"]

[end.a-disc-of-the-opponent]
when = 'count(opponent, Disc) * 2 >= 2'
draw = true

[setup.A]
Stone = "a1"

[setup.B]
Stone = "c3"
"#;
    let rules = match ply_lang::load_str("counts.toml", text, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    };
    let mut game = Game::new(rules.clone());
    for m in ["a1-b1", "b2", "b1-c1"] {
        try_play(&mut game, m).unwrap_or_else(|r| panic!("{m}: {r:?}"));
    }
    assert_eq!(
        game.position().outcome(),
        Some(ply_kernel::Outcome::Draw),
        "B's disc is on the board after A's move"
    );
}
