//! Boards with links (`[board] links`), against a mill board written out here as its 24 points
//! and 32 lines, not as a grid: on random positions, the steps the kernel generates are the
//! steps along this file's lines, the cells where a placement condition reading neighbours holds
//! (`neighbour`, `adjacent`: set operations over the board when the loader compiles them) are
//! those this file computes, and a move ends the game by `line(to, orthogonal) >= 3` exactly when
//! it closes one of this file's sixteen mills. Flights go to every empty point.

mod common;

use common::Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The points of Nine Men's Morris on a 7x7 grid.
const POINTS: [&str; 24] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// The board's lines: three squares and four spokes.
const EDGES: [(&str, &str); 32] = [
    ("a1", "d1"),
    ("d1", "g1"),
    ("g1", "g4"),
    ("g4", "g7"),
    ("g7", "d7"),
    ("d7", "a7"),
    ("a7", "a4"),
    ("a4", "a1"),
    ("b2", "d2"),
    ("d2", "f2"),
    ("f2", "f4"),
    ("f4", "f6"),
    ("f6", "d6"),
    ("d6", "b6"),
    ("b6", "b4"),
    ("b4", "b2"),
    ("c3", "d3"),
    ("d3", "e3"),
    ("e3", "e4"),
    ("e4", "e5"),
    ("e5", "d5"),
    ("d5", "c5"),
    ("c5", "c4"),
    ("c4", "c3"),
    ("d1", "d2"),
    ("d2", "d3"),
    ("d5", "d6"),
    ("d6", "d7"),
    ("a4", "b4"),
    ("b4", "c4"),
    ("e4", "f4"),
    ("f4", "g4"),
];

/// The sixteen mills.
const MILLS: [[&str; 3]; 16] = [
    ["a1", "d1", "g1"],
    ["g1", "g4", "g7"],
    ["g7", "d7", "a7"],
    ["a7", "a4", "a1"],
    ["b2", "d2", "f2"],
    ["f2", "f4", "f6"],
    ["f6", "d6", "b6"],
    ["b6", "b4", "b2"],
    ["c3", "d3", "e3"],
    ["e3", "e4", "e5"],
    ["e5", "d5", "c5"],
    ["c5", "c4", "c3"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
];

/// (column, row from the bottom), both from 0.
fn xy(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
}

/// The point on a line from `p` heading `(dx, dy)` (y up), if any.
fn next(p: &str, (dx, dy): (i32, i32)) -> Option<&'static str> {
    let (x, y) = xy(p);
    EDGES.iter().find_map(|&(a, b)| {
        let other = if a == p {
            b
        } else if b == p {
            a
        } else {
            return None;
        };
        let (ox, oy) = xy(other);
        ((ox - x).signum() == dx && (oy - y).signum() == dy).then_some(other)
    })
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn rules(moves: &str) -> Arc<ply_kernel::Rules> {
    let holes: Vec<String> = (0..7)
        .flat_map(|x| (0..7).map(move |y| format!("{}{}", (b'a' + x) as char, y + 1)))
        .filter(|n| !POINTS.contains(&n.as_str()))
        .collect();
    let text = format!(
        r#"
[game]
name = "Mill board"
players = ["B", "W"]

[board]
rows = 7
cols = 7
holes = "{}"
links = "a1-d1-g1-g4-g7-d7-a7-a4-a1 b2-d2-f2-f4-f6-d6-b6-b4-b2"

[pieces.Man]
letter = "M"
moves = [{moves}]

[end.mill]
when = 'line(to, orthogonal) >= 3'
winner = 'player'
"#,
        holes.join(" ")
    );
    match ply_lang::load_str("mill.toml", &text, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    }
}

type Board = std::collections::BTreeMap<&'static str, char>;

/// A random position with no mill closed, `B` to move.
fn random_board(rng: &mut Rng) -> Board {
    loop {
        let mut b = Board::new();
        let fill = 20 + rng.below(50);
        for p in POINTS {
            if rng.below(100) < fill {
                b.insert(p, if rng.below(2) == 0 { 'B' } else { 'W' });
            }
        }
        let closed = MILLS.iter().any(|m| {
            m.iter().all(|p| b.get(p) == Some(&'B')) || m.iter().all(|p| b.get(p) == Some(&'W'))
        });
        if !closed {
            return b;
        }
    }
}

fn game(rules: &Arc<ply_kernel::Rules>, b: &Board) -> ply_kernel::Game {
    let grid: Vec<Vec<Option<&str>>> = (0..7)
        .rev()
        .map(|y| {
            (0..7)
                .map(|x| {
                    let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
                    b.get(name.as_str())
                        .map(|&c| if c == 'B' { "BM" } else { "WM" })
                })
                .collect()
        })
        .collect();
    let text = common::grid_position_string(&grid, "B");
    ply_kernel::Game::from_position_string(rules.clone(), &text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn closes_mill(b: &Board, to: &str, who: char) -> bool {
    MILLS
        .iter()
        .any(|m| m.contains(&to) && m.iter().all(|p| b.get(p) == Some(&who)))
}

#[test]
fn steps_follow_the_lines_and_mills_close_across_links() {
    let rules = rules(r#""step orthogonal quiet""#);
    let mut rng = Rng(0x5eed_1234);
    let (mut positions, mut mills) = (0, 0);
    for _ in 0..300 {
        let b = random_board(&mut rng);
        let g = game(&rules, &b);
        let mut want = BTreeSet::new();
        for (&p, &c) in &b {
            if c != 'B' {
                continue;
            }
            for d in ORTHOGONAL {
                if let Some(q) = next(p, d)
                    && !b.contains_key(q)
                {
                    want.insert(format!("{p}-{q}"));
                }
            }
        }
        let got: BTreeSet<String> = common::moves(&g).into_iter().collect();
        assert_eq!(got, want, "{}", g.position().to_position_string());
        positions += 1;
        for m in &want {
            let (from, to) = m.split_once('-').unwrap();
            let mut after = b.clone();
            after.remove(from);
            let to: &'static str = POINTS.iter().find(|p| **p == to).unwrap();
            after.insert(to, 'B');
            let mut g2 = g.clone();
            let status = common::play(&mut g2, m).unwrap();
            let won = g2.position().outcome()
                == Some(ply_kernel::Outcome::Win(ply_kernel::Player::FIRST));
            assert_eq!(
                won,
                closes_mill(&after, to, 'B'),
                "{m} from {}: {status:?}",
                g.position().to_position_string()
            );
            mills += usize::from(won);
        }
    }
    assert!(positions == 300 && mills > 50, "{mills} mills closed");
}

#[test]
fn placement_conditions_read_neighbours_across_links() {
    let conditions = [
        (
            "empty(neighbour(cell, e)) and occupied(neighbour(cell, n))",
            &(|b: &Board, p: &str| {
                next(p, (1, 0)).is_some_and(|q| !b.contains_key(q))
                    && next(p, (0, 1)).is_some_and(|q| b.contains_key(q))
            }) as &dyn Fn(&Board, &str) -> bool,
        ),
        (
            "adjacent(cell, orthogonal, player) >= 2",
            &|b: &Board, p: &str| {
                ORTHOGONAL
                    .iter()
                    .filter(|d| next(p, **d).is_some_and(|q| b.get(q) == Some(&'B')))
                    .count()
                    >= 2
            },
        ),
        (
            "not on_board(neighbour(cell, w)) or empty(neighbour(cell, s))",
            &|b: &Board, p: &str| match (next(p, (-1, 0)), next(p, (0, -1))) {
                (None, _) => true,
                (_, Some(q)) => !b.contains_key(q),
                _ => false,
            },
        ),
    ];
    let mut rng = Rng(0xfeed_5678);
    for (condition, holds) in conditions {
        let rules = rules(&format!("\"place when {condition}\""));
        let mut seen = BTreeSet::new();
        for _ in 0..200 {
            let b = random_board(&mut rng);
            let g = game(&rules, &b);
            let want: BTreeSet<String> = POINTS
                .iter()
                .filter(|p| !b.contains_key(**p) && holds(&b, p))
                .map(|p| p.to_string())
                .collect();
            let got: BTreeSet<String> = common::moves(&g).into_iter().collect();
            assert_eq!(
                got,
                want,
                "{condition}: {}",
                g.position().to_position_string()
            );
            seen.insert(want.len());
        }
        assert!(
            seen.len() > 3,
            "{condition}: too few different answers: {seen:?}"
        );
    }
}

#[test]
fn flights_go_to_every_empty_point() {
    let rules = rules(r#""fly quiet""#);
    let mut rng = Rng(0xabcd_ef01);
    for _ in 0..100 {
        let b = random_board(&mut rng);
        let g = game(&rules, &b);
        let mut want = BTreeSet::new();
        for (&p, &c) in &b {
            if c == 'B' {
                for q in POINTS.iter().filter(|q| !b.contains_key(**q)) {
                    want.insert(format!("{p}-{q}"));
                }
            }
        }
        let got: BTreeSet<String> = common::moves(&g).into_iter().collect();
        assert_eq!(got, want, "{}", g.position().to_position_string());
    }
}
