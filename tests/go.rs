//! Go (`rulesets/go9.toml`, `go19.toml`): the rules of the position after the move (suicide,
//! positional superko), passing on any turn, area scoring with komi, and the cap on plies, on
//! positions built for each rule. The packs' agreement with OpenSpiel's `go` over random
//! games is in `crates/python/tests/test_references.py`; their perft in `tests/data`.

mod common;

use common::{game, moves, pack, play, refused, rule};
use ply_kernel::{Game, Outcome, Reason, Status};

fn go(set: &[(&str, &str)]) -> std::sync::Arc<ply_kernel::Rules> {
    pack("go9.toml", set)
}

fn stones(black: &str, white: &str) -> Vec<(String, &'static str)> {
    let mut v = Vec::new();
    for c in black.split_whitespace() {
        v.push((c.to_string(), "BS"));
    }
    for c in white.split_whitespace() {
        v.push((c.to_string(), "WS"));
    }
    v
}

fn at(g: &Game, cell: &str) -> Option<ply_kernel::Piece> {
    let c = g.rules().geometry().parse_cell(cell).unwrap();
    g.position().piece_at(c)
}

fn position(black: &str, white: &str, side: &str) -> Game {
    let rules = go(&[]);
    let s = stones(black, white);
    let pieces: Vec<(&str, &str)> = s.iter().map(|(c, p)| (c.as_str(), *p)).collect();
    game(&rules, &pieces, side)
}

#[test]
fn a_stone_without_liberties_may_not_be_placed_unless_it_captures() {
    // Black a2, b1 surround a1: White may not play there.
    let mut g = position("a2 b1", "", "White");
    let why = refused(&mut g, "a1");
    assert_eq!(why, Reason::After(rule(&g, "no-suicide")));
    assert!(!moves(&g).contains(&"a1".to_string()));
    // A group's suicide: White b1 with one liberty at a1 inside Black's wall.
    let mut g = position("a2 b2 c1", "b1", "White");
    assert_eq!(refused(&mut g, "a1"), Reason::After(rule(&g, "no-suicide")));
    // Filling the last liberty of a group of one's own is fine while it captures: White a1
    // takes Black a2 and b1, which had only a1 left.
    let mut g = position("a2 b1", "a3 b2 c1", "White");
    play(&mut g, "a1").unwrap();
    assert_eq!(at(&g, "a2"), None);
    assert_eq!(at(&g, "b1"), None);
}

#[test]
fn a_ko_may_not_be_retaken_at_once_but_may_after_the_board_changed() {
    // The ko shape:         row 3:  .  B  W
    //                       row 2:  B  W  .  W
    //                       row 1:  .  B  W
    // Black c2 takes b2 (its last liberty); White b2 would take c2 back at once, which
    // recreates the board before Black's move.
    let mut g = position("a2 b3 b1", "b2 c3 d2 c1", "Black");
    play(&mut g, "c2").unwrap();
    assert_eq!(at(&g, "b2"), None, "c2 takes b2");
    let why = refused(&mut g, "b2");
    assert_eq!(why, Reason::After(rule(&g, "superko")));
    assert!(!moves(&g).contains(&"b2".to_string()));
    // A threat elsewhere and its answer: the board is new, and the retake is legal again.
    play(&mut g, "h8").unwrap();
    play(&mut g, "h7").unwrap();
    play(&mut g, "b2").unwrap();
    assert_eq!(at(&g, "c2"), None, "b2 takes c2 back");
}

#[test]
fn a_pass_is_legal_on_every_turn_and_two_end_the_game_scored_by_area() {
    let rules = go(&[]);
    let mut g = Game::new(rules);
    let start = moves(&g);
    assert_eq!(start.len(), 82);
    assert!(start.contains(&"pass".to_string()));
    play(&mut g, "e5").unwrap();
    assert_eq!(
        play(&mut g, "pass").unwrap(),
        Status::ToMove(ply_kernel::Player::FIRST)
    );
    // One stone owns the whole board (81) against White's 0 + 7.5.
    assert_eq!(
        play(&mut g, "pass").unwrap(),
        Status::Over(Outcome::Win(ply_kernel::Player::FIRST))
    );
}

#[test]
fn komi_and_the_half_point_decide_close_games() {
    // Black owns columns a..e (45 points), White f..i (36): a margin of 9.
    let black: Vec<String> = (1..=9).map(|r| format!("e{r}")).collect();
    let white: Vec<String> = (1..=9).map(|r| format!("f{r}")).collect();
    let (b, w) = (black.join(" "), white.join(" "));
    let result = |komi: &str, half: &str| {
        let rules = go(&[("komi", komi), ("half_point", half)]);
        let s = stones(&b, &w);
        let pieces: Vec<(&str, &str)> = s.iter().map(|(c, p)| (c.as_str(), *p)).collect();
        let mut g = game(&rules, &pieces, "Black");
        play(&mut g, "pass").unwrap();
        play(&mut g, "pass").unwrap()
    };
    let black_wins = Status::Over(Outcome::Win(ply_kernel::Player::FIRST));
    let white_wins = Status::Over(Outcome::Win(ply_kernel::Player::FIRST.other()));
    assert_eq!(result("8", "true"), black_wins);
    assert_eq!(result("9", "true"), white_wins, "a tie goes to White");
    assert_eq!(result("9", "false"), Status::Over(Outcome::Draw));
    assert_eq!(result("10", "false"), white_wins);
    // An empty region that touches both colours belongs to nobody: a gap in the wall.
    let rules = go(&[("komi", "0"), ("half_point", "false")]);
    let mut g = Game::new(rules);
    play(&mut g, "a1").unwrap();
    play(&mut g, "i9").unwrap();
    play(&mut g, "pass").unwrap();
    assert_eq!(
        play(&mut g, "pass").unwrap(),
        Status::Over(Outcome::Draw),
        "one stone each and 79 shared points: 1 to 1"
    );
}

#[test]
fn the_game_is_scored_after_max_plies_passes_counted() {
    let rules = go(&[("max_plies", "3")]);
    let mut g = Game::new(rules.clone());
    play(&mut g, "e5").unwrap();
    play(&mut g, "pass").unwrap();
    let text = g.position().to_position_string();
    assert!(text.contains("plies=2"), "{text}");
    // The ply count survives a position string.
    let mut again = Game::from_position_string(rules, &text).unwrap();
    assert_eq!(
        play(&mut again, "d5").unwrap(),
        Status::Over(Outcome::Win(ply_kernel::Player::FIRST))
    );
    assert_eq!(
        play(&mut g, "d5").unwrap(),
        Status::Over(Outcome::Win(ply_kernel::Player::FIRST))
    );
}

#[test]
fn the_nineteen_line_board_loads_with_its_own_cap() {
    let rules = pack("go19.toml", &[]);
    assert_eq!(rules.geometry().rows(), 19);
    let g = Game::new(rules);
    assert_eq!(moves(&g).len(), 362);
}
