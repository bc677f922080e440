//! English draughts: mandatory capture, complete chains, promotion that ends the move, the
//! forty-ply draw, and undo of a promotion.

mod common;

use common::{game, moves, play};
use ply_kernel::{MoveErrorKind, Outcome, Player, Reason, Status};

fn rules() -> std::sync::Arc<ply_kernel::Rules> {
    common::pack("checkers.toml", &[])
}

#[test]
fn a_capture_must_be_taken() {
    let r = rules();
    // Black's man on c3 can jump d4; its other moves and the other man's are not allowed.
    let g = game(
        &r,
        &[("c3", "BM"), ("d4", "WM"), ("g1", "BM"), ("h8", "WM")],
        "Black",
    );
    assert_eq!(moves(&g), vec!["c3xe5"]);
    let mut g = g.clone();
    let err = play(&mut g, "g1-h2").unwrap_err();
    assert!(matches!(err.reason(), Some(Reason::MustCapture)), "{err}");
}

#[test]
fn a_chain_must_be_completed_but_the_player_picks_which() {
    let r = rules();
    // From a1: over b2 to c3, then over d4 to e5 or over b4 to a5.
    let pieces = [
        ("a1", "BM"),
        ("b2", "WM"),
        ("d4", "WM"),
        ("b4", "WM"),
        ("h8", "WM"),
    ];
    let g = game(&r, &pieces, "Black");
    assert_eq!(moves(&g), vec!["a1xc3xa5", "a1xc3xe5"]);
    let mut g2 = g.clone();
    let err = play(&mut g2, "a1xc3").unwrap_err();
    assert!(
        matches!(
            err.kind(),
            MoveErrorKind::Illegal { .. } | MoveErrorKind::Ambiguous { .. }
        ),
        "{err}"
    );
    assert_eq!(
        g2.position().to_position_string(),
        g.position().to_position_string()
    );
}

#[test]
fn a_man_reaching_the_far_row_is_crowned_and_stops() {
    let r = rules();
    // c5 jumps d6 to e7, then f8... the jump to the crown row ends the move there.
    let pieces = [("c5", "BM"), ("d6", "WM"), ("f8", "WM"), ("a1", "BM")];
    let mut g = game(&r, &pieces, "Black");
    assert_eq!(moves(&g), vec!["c5xe7"]);
    let before = g.position().to_position_string();
    // A plain step onto the crown row crowns too.
    let mut g2 = game(&r, &[("a7", "BM"), ("h2", "WM")], "Black");
    assert_eq!(play(&mut g2, "a7-b8"), Ok(Status::ToMove(Player::SECOND)));
    let b8 = common::cells(&r, "b8")[0];
    assert_eq!(r.core().code(g2.position().piece_at(b8).unwrap()), "BK");
    assert!(g2.undo());
    assert_eq!(
        r.core()
            .code(g2.position().piece_at(common::cells(&r, "a7")[0]).unwrap()),
        "BM"
    );
    // A jump onto the crown row ends the move there, crowned, although a king on f8 could
    // jump on over g7.
    let pieces = [("d6", "BM"), ("e7", "WM"), ("g7", "WM"), ("b2", "WM")];
    let mut g3 = game(&r, &pieces, "Black");
    assert_eq!(moves(&g3), vec!["d6xf8"]);
    play(&mut g3, "d6xf8").unwrap();
    assert_eq!(
        r.core()
            .code(g3.position().piece_at(common::cells(&r, "f8")[0]).unwrap()),
        "BK"
    );
    play(&mut g, "c5xe7").unwrap();
    assert_ne!(g.position().to_position_string(), before);
}

#[test]
fn kings_move_both_ways_and_a_blocked_side_loses() {
    let r = rules();
    let g = game(&r, &[("d4", "BK"), ("h8", "WM")], "Black");
    assert_eq!(moves(&g), vec!["d4-c3", "d4-c5", "d4-e3", "d4-e5"]);
    // White's last man is taken: White cannot move and loses.
    let mut g = game(&r, &[("c3", "BM"), ("d4", "WM")], "Black");
    assert_eq!(
        play(&mut g, "c3xe5"),
        Ok(Status::Over(Outcome::Win(Player::FIRST)))
    );
}

#[test]
fn forty_plies_without_a_capture_draw() {
    let r = rules();
    let text = format!(
        "{} clock=39",
        common::fen(&r, &[("a1", "BK"), ("h8", "WK")], "Black")
    );
    let mut g = ply_kernel::Game::from_position_string(r.clone(), &text).unwrap();
    assert_eq!(play(&mut g, "a1-b2"), Ok(Status::Over(Outcome::Draw)));
    assert!(g.position().to_position_string().ends_with("clock=40 draw"));
}

#[test]
fn repetition_and_idle_draw_rules() {
    // A variant: a position seen for the third time is a draw; so are 6 plies without a
    // capture or a crowning (`idle`), counted apart from the capture clock.
    let dir = std::env::temp_dir().join(format!("ply-repetition-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        common::root().join("rulesets/checkers.toml"),
        dir.join("checkers.toml"),
    )
    .unwrap();
    std::fs::write(
        dir.join("rep.toml"),
        "extends = \"checkers.toml\"\n[end.third-time]\nwhen = 'repetitions >= 2'\ndraw = true\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("idle.toml"),
        "extends = \"checkers.toml\"\n[end.idle]\nwhen = 'idle >= 6'\ndraw = true\n",
    )
    .unwrap();
    let load = |name: &str| {
        ply_lang::load(dir.join(name), &[])
            .unwrap_or_else(|e| panic!("{}", e.render(false)))
            .rules
    };

    let r = load("rep.toml");
    let mut g = game(&r, &[("a1", "BK"), ("h8", "WK")], "Black");
    for (i, m) in [
        "a1-b2", "h8-g7", "b2-a1", "g7-h8", "a1-b2", "h8-g7", "b2-a1",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(play(&mut g, m).map(|_| ()), Ok(()), "ply {i}");
        assert_eq!(g.outcome(), None, "ply {i}");
    }
    // The start position comes back a third time.
    assert_eq!(play(&mut g, "g7-h8"), Ok(Status::Over(Outcome::Draw)));
    assert!(g.undo());
    assert_eq!(g.outcome(), None);

    let r = load("idle.toml");
    let mut g = game(&r, &[("a1", "BK"), ("h8", "WK")], "Black");
    for m in ["a1-b2", "h8-g7", "b2-c3", "g7-f6", "c3-d4"] {
        play(&mut g, m).unwrap();
    }
    assert!(
        g.position()
            .to_position_string()
            .ends_with("clock=5 idle=5")
    );
    assert_eq!(play(&mut g, "f6-e7"), Ok(Status::Over(Outcome::Draw)));
    std::fs::remove_dir_all(&dir).ok();
}
