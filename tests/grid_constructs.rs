//! The builtins of connection games (`adjacent`, `groups`, `connected`, `liberties`,
//! `distance`, `on_line`), the slide `over own`, and the effects `convert` and custodial `run`,
//! against definitions written here from their descriptions in the guide, on random positions:
//! where a placement's condition uses a builtin, the cells the kernel lets a player place on
//! are the cells where this file's own computation of the condition holds; after a placement
//! with an effect, the board is the one this file computes.

mod common;

use common::Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

const N: usize = 6;
/// (row, col) steps, row 0 at the top: n, ne, e, se, s, sw, w, nw.
const DIRS: [(i32, i32); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];
const ORTHOGONAL: &[usize] = &[0, 2, 4, 6];
const ALL: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7];
/// Orthogonal, nw and se: the six neighbours of a rhombus's cell.
const HEX: &[usize] = &[0, 2, 3, 4, 6, 7];

type Board = [[u8; N]; N];

fn load(condition: &str, extra: &str) -> Arc<ply_kernel::Rules> {
    let text = format!(
        r#"
[game]
name = "Probe"
players = ["B", "W"]

[board]
rows = {N}
cols = {N}

[zones.left]
cells = "a1:a{N}"

[zones.right]
cells = "f1:f{N}"

[pieces.S]
letter = "S"
moves = ["place when {condition}"]
{extra}
"#
    );
    match ply_lang::load_str("probe.toml", &text, &[]) {
        Ok(p) => p.rules,
        Err(e) => panic!("{}", e.render(false)),
    }
}

/// A random board: each cell empty, B (1) or W (2).
fn random_board(rng: &mut Rng, fill: usize) -> Board {
    let mut b = [[0u8; N]; N];
    for row in &mut b {
        for c in row.iter_mut() {
            if rng.below(100) < fill {
                *c = 1 + rng.below(2) as u8;
            }
        }
    }
    b
}

fn position(b: &Board, side: u8) -> String {
    let grid: Vec<Vec<Option<&str>>> = b
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    1 => Some("BS"),
                    2 => Some("WS"),
                    _ => None,
                })
                .collect()
        })
        .collect();
    common::grid_position_string(&grid, if side == 1 { "B" } else { "W" })
}

fn name(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, N - r)
}

fn at(r: i32, c: i32) -> Option<(usize, usize)> {
    (r >= 0 && c >= 0 && (r as usize) < N && (c as usize) < N).then_some((r as usize, c as usize))
}

fn next(r: usize, c: usize, d: usize) -> Option<(usize, usize)> {
    at(r as i32 + DIRS[d].0, c as i32 + DIRS[d].1)
}

/// The cells of the group of (r, c) among cells holding `who`, joined through `dirs`.
fn group(b: &Board, (r, c): (usize, usize), who: u8, dirs: &[usize]) -> BTreeSet<(usize, usize)> {
    let mut seen = BTreeSet::from([(r, c)]);
    let mut todo = vec![(r, c)];
    while let Some((r, c)) = todo.pop() {
        for &d in dirs {
            if let Some((r2, c2)) = next(r, c, d)
                && b[r2][c2] == who
                && seen.insert((r2, c2))
            {
                todo.push((r2, c2));
            }
        }
    }
    seen
}

fn groups(b: &Board, who: u8, dirs: &[usize]) -> usize {
    let mut seen = BTreeSet::new();
    let mut n = 0;
    for r in 0..N {
        for c in 0..N {
            if b[r][c] == who && !seen.contains(&(r, c)) {
                seen.extend(group(b, (r, c), who, dirs));
                n += 1;
            }
        }
    }
    n
}

fn adjacent(b: &Board, r: usize, c: usize, who: u8, dirs: &[usize]) -> usize {
    dirs.iter()
        .filter_map(|&d| next(r, c, d))
        .filter(|&(r, c)| b[r][c] == who)
        .count()
}

fn liberties(b: &Board, cell: Option<(usize, usize)>, dirs: &[usize]) -> usize {
    let Some((r, c)) = cell else { return 0 };
    if b[r][c] == 0 {
        return 0;
    }
    let mut free = BTreeSet::new();
    for (r, c) in group(b, (r, c), b[r][c], dirs) {
        for &d in dirs {
            if let Some((r2, c2)) = next(r, c, d)
                && b[r2][c2] == 0
            {
                free.insert((r2, c2));
            }
        }
    }
    free.len()
}

fn connected_left_right(b: &Board, who: u8, dirs: &[usize]) -> bool {
    (0..N).any(|r| b[r][0] == who && group(b, (r, 0), who, dirs).iter().any(|&(_, c)| c == N - 1))
}

/// Pieces on the whole line through two cells.
fn on_line(b: &Board, (r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> usize {
    let (dr, dc) = (r2 as i32 - r1 as i32, c2 as i32 - c1 as i32);
    if (dr, dc) == (0, 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
        return 0;
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    let mut n = usize::from(b[r1][c1] != 0);
    for k in [1, -1] {
        let (mut r, mut c) = (r1 as i32 + k * sr, c1 as i32 + k * sc);
        while let Some((rr, cc)) = at(r, c) {
            n += usize::from(b[rr][cc] != 0);
            r += k * sr;
            c += k * sc;
        }
    }
    n
}

/// The pieces of `who` met walking from (r, c) in each of `dirs` to the edge, (r, c) not counted.
fn along(b: &Board, (r, c): (usize, usize), who: u8, dirs: &[usize]) -> usize {
    let mut n = 0;
    for &d in dirs {
        let mut cur = (r, c);
        while let Some(x) = next(cur.0, cur.1, d) {
            n += usize::from(b[x.0][x.1] == who);
            cur = x;
        }
    }
    n
}

/// The cells where the kernel lets the side to move place, against `expected(board, side, r, c)`.
fn compare(
    condition: &str,
    expected: impl Fn(&Board, u8, usize, usize) -> bool,
    fill: usize,
    seed: u64,
) {
    let rules = load(condition, "");
    let mut rng = Rng(seed);
    let mut placements = 0;
    for _ in 0..300 {
        let b = random_board(&mut rng, fill);
        let side = 1 + rng.below(2) as u8;
        let text = position(&b, side);
        let game = ply_kernel::Game::from_position_string(rules.clone(), &text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let got: BTreeSet<String> = common::moves(&game).into_iter().collect();
        let mut want = BTreeSet::new();
        for r in 0..N {
            for c in 0..N {
                if b[r][c] == 0 && expected(&b, side, r, c) {
                    want.insert(name(r, c));
                }
            }
        }
        placements += want.len();
        assert_eq!(got, want, "`{condition}` at {text}");
    }
    assert!(
        placements > 100,
        "`{condition}`: too few placements to judge"
    );
}

#[test]
fn adjacent_counts_the_players_pieces_next_to_a_cell() {
    compare(
        "adjacent(cell, all, player) >= 2",
        |b, s, r, c| adjacent(b, r, c, s, ALL) >= 2,
        45,
        1,
    );
    compare(
        "adjacent(cell, orthogonal, opponent) == 1",
        |b, s, r, c| adjacent(b, r, c, 3 - s, ORTHOGONAL) == 1,
        45,
        2,
    );
}

#[test]
fn groups_counts_groups_through_the_directions() {
    compare(
        "groups(player, orthogonal) == cell.col + 2",
        |b, s, _, c| groups(b, s, ORTHOGONAL) == c + 2,
        40,
        3,
    );
    compare(
        "groups(opponent, all) == cell.row + 1",
        |b, s, r, _| groups(b, 3 - s, ALL) == r + 1,
        40,
        4,
    );
}

#[test]
fn connected_joins_two_zones_through_six_directions() {
    compare(
        "if connected(player, left, right, orthogonal + nw + se) then cell.col < 3 else cell.col >= 3",
        |b, s, _, c| connected_left_right(b, s, HEX) == (c < 3),
        70,
        5,
    );
}

#[test]
fn liberties_count_the_empty_cells_around_a_group() {
    compare(
        "liberties(neighbour(cell, n), orthogonal) == 1",
        |b, _, r, c| liberties(b, next(r, c, 0), ORTHOGONAL) == 1,
        60,
        6,
    );
    compare(
        "liberties(neighbour(cell, se), all) >= 3",
        |b, _, r, c| liberties(b, next(r, c, 3), ALL) >= 3,
        50,
        7,
    );
}

#[test]
fn along_counts_a_players_pieces_on_the_rays_from_a_cell() {
    compare(
        "along(cell, n + s, player) == 0",
        |b, s, r, c| along(b, (r, c), s, &[0, 4]) == 0,
        30,
        10,
    );
    compare(
        "along(cell, e + ne + sw, opponent, S) == 2",
        |b, s, r, c| along(b, (r, c), 3 - s, &[2, 1, 5]) == 2,
        40,
        11,
    );
}

#[test]
fn distance_and_on_line_measure_lines() {
    compare(
        "on_line(cell, neighbour(cell, ne)) == 2",
        |b, _, r, c| next(r, c, 1).is_some_and(|x| on_line(b, (r, c), x) == 2),
        40,
        8,
    );
    compare(
        "distance(cell, neighbour(neighbour(cell, s), s)) + on_line(cell, neighbour(cell, w)) == 4",
        |b, _, r, c| {
            let two_south = next(r, c, 4).and_then(|x| next(x.0, x.1, 4));
            two_south.is_some() && next(r, c, 6).is_some_and(|x| 2 + on_line(b, (r, c), x) == 4)
        },
        40,
        9,
    );
}

/// The board after the side to move places on (r, c), by this file's reading of the effect.
fn after_effect(b: &Board, side: u8, (r, c): (usize, usize), effect: &str) -> Board {
    let mut out = *b;
    out[r][c] = side;
    for d in 0..8 {
        let Some((r1, c1)) = next(r, c, d) else {
            continue;
        };
        if b[r1][c1] != 3 - side {
            continue;
        }
        if effect == "convert" {
            out[r1][c1] = side;
            continue;
        }
        if effect == "groups" {
            // The enemy group through (r1, c1), orthogonally, on the board with the stone
            // placed, taken when no cell next to it is empty.
            let mut board = *b;
            board[r][c] = side;
            let g = group(&board, (r1, c1), 3 - side, ORTHOGONAL);
            let free = g.iter().any(|&(x, y)| {
                ORTHOGONAL
                    .iter()
                    .filter_map(|&d| next(x, y, d))
                    .any(|(x2, y2)| board[x2][y2] == 0)
            });
            if !free && ORTHOGONAL.contains(&d) {
                for (x, y) in g {
                    out[x][y] = 0;
                }
            }
            continue;
        }
        // Custodial, a run of 2 or 3 enemy pieces closed by one of the mover's.
        let mut run = vec![(r1, c1)];
        let (mut cr, mut cc) = (r1, c1);
        let closed = loop {
            match next(cr, cc, d) {
                Some((r2, c2)) if b[r2][c2] == 3 - side => {
                    run.push((r2, c2));
                    (cr, cc) = (r2, c2);
                }
                Some((r2, c2)) => break b[r2][c2] == side,
                None => break false,
            }
        };
        if closed && (2..=3).contains(&run.len()) {
            for (r2, c2) in run {
                out[r2][c2] = 0;
            }
        }
    }
    out
}

fn effects_agree(effect: &str, table: &str, seed: u64) {
    let rules = load("true", table);
    let mut rng = Rng(seed);
    let mut changed = 0;
    for _ in 0..2000 {
        let b = random_board(&mut rng, 60);
        let side = 1 + rng.below(2) as u8;
        let empty: Vec<(usize, usize)> = (0..N * N)
            .map(|i| (i / N, i % N))
            .filter(|&(r, c)| b[r][c] == 0)
            .collect();
        if empty.is_empty() {
            continue;
        }
        let (r, c) = empty[rng.below(empty.len())];
        let text = position(&b, side);
        let mut game = ply_kernel::Game::from_position_string(rules.clone(), &text).unwrap();
        common::play(&mut game, &name(r, c)).unwrap_or_else(|e| panic!("{text}: {e}"));
        let want = after_effect(&b, side, (r, c), effect);
        let mut expected = want;
        expected[r][c] = side;
        let want_text = position(&expected, 3 - side);
        let got = game.position().to_position_string();
        assert_eq!(
            got.split(' ').next(),
            want_text.split(' ').next(),
            "{effect}: {text} then {}",
            name(r, c)
        );
        changed += usize::from(
            expected != {
                let mut x = b;
                x[r][c] = side;
                x
            },
        );
    }
    assert!(
        changed > 40,
        "{effect}: too few positions where the effect did something"
    );
}

#[test]
fn convert_turns_every_enemy_piece_next_to_the_mover() {
    effects_agree("convert", "[effects.e]\nconvert = \"all\"", 10);
}

#[test]
fn groups_takes_every_enemy_group_left_without_a_free_cell() {
    effects_agree("groups", "[effects.e]\ngroups = \"orthogonal\"", 13);
}

#[test]
fn a_custodial_run_takes_two_or_three_pieces_in_a_line_and_no_other_number() {
    effects_agree(
        "custodial",
        "[effects.e]\ncustodial = \"all\"\nrun = \"2..3\"",
        11,
    );
}

#[test]
fn a_groups_effect_is_refused_past_its_board_limit_naming_it() {
    let pack = |rows: usize, cols: usize| {
        format!(
            "[game]\nplayers = [\"B\", \"W\"]\n[board]\nrows = {rows}\ncols = {cols}\n[pieces.S]\nletter = \"S\"\nmoves = [\"place\"]\n[effects.e]\ngroups = \"orthogonal\"\n"
        )
    };
    assert_eq!(16 * 32, ply_kernel::MAX_GROUP_BOARD_CELLS);
    assert!(ply_lang::load_str("ok.toml", &pack(16, 32), &[]).is_ok());
    assert!(ply_lang::load_str("go.toml", &pack(19, 19), &[]).is_ok());
    let err = ply_lang::load_str("big.toml", &pack(17, 32), &[])
        .unwrap_err()
        .render(false);
    assert!(err.contains("at most 512 cells, not 544"), "{err}");
    assert!(err.contains("big.toml:"), "{err}");
}

#[test]
fn bad_runs_and_a_hostile_convert_are_refused_where_they_are_written() {
    for (table, says) in [
        (
            "[effects.e]\ncustodial = \"all\"\nrun = 0",
            "`run` is a number of pieces",
        ),
        (
            "[effects.e]\ncustodial = \"all\"\nrun = \"3..2\"",
            "`run` is a number of pieces",
        ),
        (
            "[effects.e]\nflip = \"all\"\nrun = 2",
            "`run` is for `custodial` captures",
        ),
        (
            "[effects.e]\nconvert = \"all\"\nhostile = 'cell in left'",
            "`hostile` means nothing to it",
        ),
    ] {
        let text = format!(
            "[game]\nplayers = [\"B\", \"W\"]\n[board]\nrows = 4\ncols = 4\n[pieces.S]\nletter = \"S\"\nmoves = [\"place\"]\n[zones.left]\ncells = \"a1\"\n{table}\n"
        );
        let err = ply_lang::load_str("bad.toml", &text, &[])
            .unwrap_err()
            .render(false);
        assert!(err.contains(says), "{table}:\n{err}");
        assert!(err.contains("bad.toml:"), "located: {err}");
    }
}

/// Lines of Action's move: exactly as far as the line holds pieces, over the mover's own
/// pieces, never over an enemy's; checked against this file's generator on random positions.
#[test]
fn a_slide_over_own_pieces_with_a_distance_condition_is_the_lines_of_action_move() {
    let rules = common::pack("lines_of_action.toml", &[]);
    let mut rng = Rng(12);
    let n = 8;
    for _ in 0..300 {
        let mut b = vec![vec![0u8; n]; n];
        for row in &mut b {
            for c in row.iter_mut() {
                if rng.below(100) < 30 {
                    *c = 1 + rng.below(2) as u8;
                }
            }
        }
        let side = 1 + rng.below(2) as u8;
        let grid: Vec<Vec<Option<&str>>> = b
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        1 => Some("BC"),
                        2 => Some("WC"),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let text = common::grid_position_string(&grid, if side == 1 { "BLACK" } else { "WHITE" });
        let Ok(game) = ply_kernel::Game::from_position_string(rules.clone(), &text) else {
            continue;
        };
        if game.status() != ply_kernel::Status::ToMove(game.position().side_to_move()) {
            continue;
        }
        let cell = |r: usize, c: usize| format!("{}{}", (b'a' + c as u8) as char, n - r);
        let mut want = BTreeSet::new();
        for r in 0..n {
            for c in 0..n {
                if b[r][c] != side {
                    continue;
                }
                for (dr, dc) in DIRS {
                    let count = (-(n as i32)..=n as i32)
                        .filter_map(|k| {
                            let (rr, cc) = (r as i32 + k * dr, c as i32 + k * dc);
                            (rr >= 0 && cc >= 0 && rr < n as i32 && cc < n as i32)
                                .then(|| b[rr as usize][cc as usize])
                        })
                        .filter(|&x| x != 0)
                        .count() as i32;
                    let (tr, tc) = (r as i32 + count * dr, c as i32 + count * dc);
                    if tr < 0 || tc < 0 || tr >= n as i32 || tc >= n as i32 {
                        continue;
                    }
                    let over_enemy = (1..count).any(|k| {
                        b[(r as i32 + k * dr) as usize][(c as i32 + k * dc) as usize] == 3 - side
                    });
                    let dest = b[tr as usize][tc as usize];
                    if over_enemy || dest == side {
                        continue;
                    }
                    let sep = if dest == 0 { "-" } else { "x" };
                    want.insert(format!(
                        "{}{sep}{}",
                        cell(r, c),
                        cell(tr as usize, tc as usize)
                    ));
                }
            }
        }
        let got: BTreeSet<String> = common::moves(&game).into_iter().collect();
        assert_eq!(got, want, "{text}");
    }
}
