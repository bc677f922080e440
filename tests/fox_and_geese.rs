//! Fox and Geese on the 33-point cross: the start, the holes, fox jumps and chains, geese that
//! never go back or capture, every way the game ends, the threshold of the flock, and a
//! differential test against a move generator written here from the rules alone (plain Rust,
//! no kernel), compared at every position of seeded random games and by perft.

mod common;

use common::{game, moves, play};
use ply_kernel::{Game, Outcome, Player, Position, Reason, Rules, Status};
use std::collections::BTreeSet;
use std::sync::Arc;

const FOX: Player = Player::FIRST;
const GEESE: Player = Player::SECOND;

fn rules() -> Arc<Rules> {
    common::pack("fox_and_geese.toml", &[])
}

#[test]
fn the_board_is_a_cross_of_33_points() {
    let rules = rules();
    let g = rules.geometry();
    assert_eq!((g.rows(), g.cols()), (7, 7));
    assert_eq!(g.cells().iter().count(), 33);
    for hole in ["a1", "b2", "f1", "g2", "a6", "b7", "f7", "g6"] {
        assert_eq!(g.parse_cell(hole), None, "{hole} is not on the board");
    }
    for point in ["c1", "e1", "a3", "g5", "c7", "e7", "d4"] {
        assert!(g.parse_cell(point).is_some(), "{point}");
    }
    // Nothing may be placed on a hole.
    let text = "GG6/7/7/3FF3/7/7/7 FOX";
    assert!(Position::from_position_string(rules.clone(), text).is_err());
}

#[test]
fn the_start_the_fox_moves_first() {
    let rules = rules();
    let mut g = Game::new(rules.clone());
    assert_eq!(g.side_to_move(), FOX);
    assert_eq!(g.position().count(GEESE, None), 13);
    assert_eq!(g.position().count(FOX, None), 1);
    // d3 is a goose, and d2 behind it covers it: the fox can only step.
    assert_eq!(moves(&g), ["d4-c4", "d4-d5", "d4-e4"]);
    assert_eq!(play(&mut g, "d4-d5"), Ok(Status::ToMove(GEESE)));
    // Only the geese of row 3 can move, each one step up.
    assert_eq!(
        moves(&g),
        [
            "a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4"
        ]
    );
}

#[test]
fn geese_step_forward_or_sideways_never_back_and_never_capture() {
    let rules = rules();
    let pieces = [
        ("d4", "GG"),
        ("c3", "GG"),
        ("e5", "GG"),
        ("g5", "GG"),
        ("d5", "FF"),
    ];
    let mut g = game(&rules, &pieces, "GEESE");
    let d4: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    // d5 (forward) holds the fox: only sideways.
    assert_eq!(d4, ["d4-c4", "d4-e4"]);
    // Backward, and diagonally (the board has no diagonal lines), is no move of a goose.
    for bad in ["d4-d3", "d4-c5", "d4-e3", "c3-c2", "e5-e4"] {
        let reason = common::refused(&mut g, bad);
        assert!(matches!(reason, Reason::NoPattern), "{bad}: {reason:?}");
    }
    // A goose cannot take the fox by moving onto it.
    assert!(matches!(
        common::refused(&mut g, "d4-d5"),
        Reason::NotEmpty(_)
    ));
    // The edge of the cross stops a goose: g5 has no point to its right nor above.
    let g5: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("g5"))
        .collect();
    assert_eq!(g5, ["g5-f5"]);
    // A goose at the top of the far arm moves only sideways. (Four geese: with fewer, the fox
    // has already won.)
    let g = game(
        &rules,
        &[
            ("d7", "GG"),
            ("a3", "GG"),
            ("c1", "GG"),
            ("e1", "GG"),
            ("d4", "FF"),
        ],
        "GEESE",
    );
    let d7: Vec<String> = moves(&g)
        .into_iter()
        .filter(|m| m.starts_with("d7"))
        .collect();
    assert_eq!(d7, ["d7-c7", "d7-e7"]);
}

#[test]
fn the_fox_steps_orthogonally_and_jumps_a_goose() {
    let rules = rules();
    let mut g = game(
        &rules,
        &[
            ("d4", "FF"),
            ("d5", "GG"),
            ("c4", "GG"),
            ("b4", "GG"),
            ("a3", "GG"),
            ("g3", "GG"),
        ],
        "FOX",
    );
    // Over d5 to d6; not over c4 (b4 behind it is taken); never diagonally.
    assert_eq!(moves(&g), ["d4-d3", "d4-e4", "d4xd6"]);
    assert!(play(&mut g, "d4-c5").is_err());
    assert_eq!(play(&mut g, "d4xd6"), Ok(Status::ToMove(GEESE)));
    assert_eq!(g.position().count(GEESE, None), 4);
    let d5 = common::cells(&rules, "d5")[0];
    assert!(
        g.position().piece_at(d5).is_none(),
        "the jumped goose is gone"
    );
    // A jump never lands on a hole: from d7, over c7 or e7 would land on b7 or f7, which are
    // not on the board; over d6, d5 is taken.
    let g = game(
        &rules,
        &[
            ("d7", "FF"),
            ("e7", "GG"),
            ("c7", "GG"),
            ("d6", "GG"),
            ("d5", "GG"),
        ],
        "FOX",
    );
    assert_eq!(moves(&g), Vec::<String>::new());
}

#[test]
fn the_fox_chains_jumps_and_may_stop_after_any() {
    let rules = rules();
    // Four geese around d4, with the fox on c3: c3 over c4 to c5, over d5 to e5, over e4 to e3,
    // over d3 back to c3 (its own start counts as empty), or the same loop the other way.
    let pieces = [
        ("c3", "FF"),
        ("c4", "GG"),
        ("d5", "GG"),
        ("e4", "GG"),
        ("d3", "GG"),
        ("a4", "GG"),
        ("a5", "GG"),
        ("g3", "GG"),
        ("g4", "GG"),
    ];
    let g = game(&rules, &pieces, "FOX");
    assert_eq!(
        moves(&g),
        [
            "c3-b3",
            "c3-c2",
            "c3xc5",
            "c3xc5xe5",
            "c3xc5xe5xe3",
            "c3xc5xe5xe3xc3",
            "c3xe3",
            "c3xe3xe5",
            "c3xe3xe5xc5",
            "c3xe3xe5xc5xc3",
        ]
    );
    // The whole loop takes four geese and leaves the fox where it started.
    let mut g = game(&rules, &pieces, "FOX");
    assert_eq!(play(&mut g, "c3xc5xe5xe3xc3"), Ok(Status::ToMove(GEESE)));
    assert_eq!(g.position().count(GEESE, None), 4);
    let c3 = common::cells(&rules, "c3")[0];
    assert_eq!(g.position().piece_at(c3).map(|p| p.owner()), Some(FOX));
    // Stopping after two jumps: two geese gone, the fox on e5.
    let mut g = game(&rules, &pieces, "FOX");
    assert_eq!(play(&mut g, "c3xc5xe5"), Ok(Status::ToMove(GEESE)));
    assert_eq!(g.position().count(GEESE, None), 6);
    // A chain that breaks off is refused, and nothing changes.
    let mut g = game(&rules, &pieces, "FOX");
    let before = g.position().to_position_string();
    assert!(play(&mut g, "c3xc5xc7").is_err());
    assert_eq!(g.position().to_position_string(), before);
    // Undo puts every jumped goose back.
    let mut g = game(&rules, &pieces, "FOX");
    play(&mut g, "c3xe3xe5xc5xc3").unwrap();
    assert!(g.undo());
    assert_eq!(g.position().to_position_string(), before);
}

#[test]
fn the_fox_penned_is_a_win_for_the_geese() {
    let rules = rules();
    // The fox on d7: c7 and e7 have holes behind them, and d6 is covered once d5 is taken.
    let mut g = game(
        &rules,
        &[
            ("d7", "FF"),
            ("c7", "GG"),
            ("e7", "GG"),
            ("d6", "GG"),
            ("c5", "GG"),
        ],
        "GEESE",
    );
    assert_eq!(play(&mut g, "c5-d5"), Ok(Status::Over(Outcome::Win(GEESE))));
    assert_eq!(g.legal_moves().unwrap().len(), 0);
    // In the corner c7 with d7, e7, c6 and c5.
    let mut g = game(
        &rules,
        &[
            ("c7", "FF"),
            ("d7", "GG"),
            ("e7", "GG"),
            ("c6", "GG"),
            ("b5", "GG"),
        ],
        "GEESE",
    );
    assert_eq!(play(&mut g, "b5-c5"), Ok(Status::Over(Outcome::Win(GEESE))));
    // Not yet penned: d5 still open behind d6.
    let mut g = game(
        &rules,
        &[
            ("d7", "FF"),
            ("c7", "GG"),
            ("e7", "GG"),
            ("d6", "GG"),
            ("g5", "GG"),
        ],
        "GEESE",
    );
    assert_eq!(play(&mut g, "g5-f5"), Ok(Status::ToMove(FOX)));
    assert_eq!(moves(&g), ["d7xd5"]);
}

#[test]
fn fewer_than_four_geese_is_a_win_for_the_fox() {
    let rules = rules();
    let four = [
        ("d4", "FF"),
        ("d5", "GG"),
        ("a3", "GG"),
        ("g3", "GG"),
        ("c1", "GG"),
    ];
    let mut g = game(&rules, &four, "FOX");
    assert_eq!(play(&mut g, "d4xd6"), Ok(Status::Over(Outcome::Win(FOX))));
    assert_eq!(g.position().count(GEESE, None), 3);
    // With five geese, taking one leaves four: the game goes on.
    let mut five = four.to_vec();
    five.push(("e1", "GG"));
    let mut g = game(&rules, &five, "FOX");
    assert_eq!(play(&mut g, "d4xd6"), Ok(Status::ToMove(GEESE)));
    // A chain that takes the flock below four wins too, whatever it took before.
    let mut g = game(
        &rules,
        &[
            ("c3", "FF"),
            ("c4", "GG"),
            ("d5", "GG"),
            ("e4", "GG"),
            ("a5", "GG"),
            ("g5", "GG"),
        ],
        "FOX",
    );
    assert_eq!(
        play(&mut g, "c3xc5xe5xe3"),
        Ok(Status::Over(Outcome::Win(FOX)))
    );
}

#[test]
fn geese_with_no_move_lose() {
    let rules = rules();
    // Six geese filling the far arm can go neither up nor sideways.
    let mut g = game(
        &rules,
        &[
            ("c7", "GG"),
            ("d7", "GG"),
            ("e7", "GG"),
            ("c6", "GG"),
            ("d6", "GG"),
            ("e6", "GG"),
            ("d4", "FF"),
        ],
        "FOX",
    );
    assert_eq!(play(&mut g, "d4-d3"), Ok(Status::Over(Outcome::Win(FOX))));
}

/// The claim behind the threshold: on every point of the cross, the fox is penned only when
/// each neighbour holds a goose and each of those is covered (a goose behind it, or the edge);
/// the fewest geese that do it anywhere is four.
#[test]
fn four_geese_are_the_fewest_that_can_pen_the_fox() {
    let rules = rules();
    let g = rules.geometry();
    let mut fewest = usize::MAX;
    for r in 0..7i64 {
        for c in 0..7i64 {
            if g.cell(r, c).is_none() {
                continue;
            }
            let mut pen = Vec::new();
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                if let Some(n) = g.cell(r + dr, c + dc) {
                    pen.push(n);
                    if let Some(b) = g.cell(r + 2 * dr, c + 2 * dc) {
                        pen.push(b);
                    }
                }
            }
            let text = {
                let mut grid = vec![vec![None; 7]; 7];
                grid[r as usize][c as usize] = Some("FF");
                for p in &pen {
                    grid[g.row(*p)][g.col(*p)] = Some("GG");
                }
                common::grid_position_string(&grid, "FOX")
            };
            let pos = Position::from_position_string(rules.clone(), &text).unwrap();
            assert_eq!(pos.legal_moves().unwrap().len(), 0, "{text}");
            assert_eq!(pos.outcome(), Some(Outcome::Win(GEESE)), "{text}");
            // Without any one of them, the fox has a move, or (with three geese left) has
            // already won, as a position reached by play would have.
            for skip in 0..pen.len() {
                let mut grid = vec![vec![None; 7]; 7];
                grid[r as usize][c as usize] = Some("FF");
                for (i, p) in pen.iter().enumerate() {
                    if i != skip {
                        grid[g.row(*p)][g.col(*p)] = Some("GG");
                    }
                }
                let text = common::grid_position_string(&grid, "FOX");
                let pos = Position::from_position_string(rules.clone(), &text).unwrap();
                if pen.len() - 1 < 4 {
                    assert_eq!(pos.outcome(), Some(Outcome::Win(FOX)), "{text}");
                } else {
                    assert!(!pos.legal_moves().unwrap().is_empty(), "{text}");
                }
            }
            fewest = fewest.min(pen.len());
        }
    }
    assert_eq!(fewest, 4);
}

// ---- an independent generator, from the rules as a person states them ----

const EMPTY: u8 = 0;
const F: u8 = 1;
const G: u8 = 2;
const ORTHOGONAL: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
/// A goose goes up (towards row 0 here, row 7 in notation) or sideways.
const GOOSE_DIRS: [(i32, i32); 3] = [(-1, 0), (0, -1), (0, 1)];

/// Whether (row, col), row 0 at the top, is one of the 33 points.
fn on_board(r: i32, c: i32) -> bool {
    (0..7).contains(&r) && (0..7).contains(&c) && ((2..=4).contains(&r) || (2..=4).contains(&c))
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    cells: [[u8; 7]; 7],
    /// 0: the fox to move, 1: the geese.
    side: u8,
}

type Path = Vec<(usize, usize)>;

impl Board {
    fn start() -> Board {
        let mut cells = [[EMPTY; 7]; 7];
        cells[3][3] = F;
        cells[4] = [G; 7];
        for row in &mut cells[5..7] {
            row[2..5].fill(G);
        }
        Board { cells, side: 0 }
    }

    fn at(&self, r: i32, c: i32) -> u8 {
        self.cells[r as usize][c as usize]
    }

    fn geese(&self) -> usize {
        self.cells.iter().flatten().filter(|&&x| x == G).count()
    }

    /// The moves of the side to move, ignoring whether the game is over.
    fn raw_moves(&self) -> Vec<Path> {
        let mut out = Vec::new();
        for r in 0..7i32 {
            for c in 0..7i32 {
                let here = self.at(r, c);
                if self.side == 0 && here == F {
                    for (dr, dc) in ORTHOGONAL {
                        let (nr, nc) = (r + dr, c + dc);
                        if on_board(nr, nc) && self.at(nr, nc) == EMPTY {
                            out.push(vec![(r as usize, c as usize), (nr as usize, nc as usize)]);
                        }
                    }
                    let mut path = vec![(r as usize, c as usize)];
                    self.jumps((r, c), (r, c), &mut path, &mut Vec::new(), &mut out);
                }
                if self.side == 1 && here == G {
                    for (dr, dc) in GOOSE_DIRS {
                        let (nr, nc) = (r + dr, c + dc);
                        if on_board(nr, nc) && self.at(nr, nc) == EMPTY {
                            out.push(vec![(r as usize, c as usize), (nr as usize, nc as usize)]);
                        }
                    }
                }
            }
        }
        out
    }

    /// Every jump chain from `cur`, each prefix a move: over a goose not yet taken, onto a point
    /// that is empty, or that the fox left, or whose goose it took earlier in the chain.
    fn jumps(
        &self,
        start: (i32, i32),
        cur: (i32, i32),
        path: &mut Path,
        taken: &mut Vec<(i32, i32)>,
        out: &mut Vec<Path>,
    ) {
        for (dr, dc) in ORTHOGONAL {
            let over = (cur.0 + dr, cur.1 + dc);
            let land = (cur.0 + 2 * dr, cur.1 + 2 * dc);
            if !on_board(over.0, over.1) || !on_board(land.0, land.1) {
                continue;
            }
            if self.at(over.0, over.1) != G || taken.contains(&over) {
                continue;
            }
            let free = land == start || taken.contains(&land) || self.at(land.0, land.1) == EMPTY;
            if !free {
                continue;
            }
            path.push((land.0 as usize, land.1 as usize));
            taken.push(over);
            out.push(path.clone());
            self.jumps(start, land, path, taken, out);
            taken.pop();
            path.pop();
        }
    }

    /// The winner, if the game is over: the fox when fewer than four geese are left, else the
    /// other side when the side to move has no move.
    fn winner(&self) -> Option<u8> {
        if self.geese() < 4 {
            return Some(0);
        }
        self.raw_moves().is_empty().then_some(1 - self.side)
    }

    fn moves(&self) -> Vec<Path> {
        if self.winner().is_some() {
            return Vec::new();
        }
        self.raw_moves()
    }

    fn play(&mut self, path: &[(usize, usize)]) {
        let (fr, fc) = path[0];
        let piece = self.cells[fr][fc];
        self.cells[fr][fc] = EMPTY;
        for w in path.windows(2) {
            let ((ar, ac), (br, bc)) = (w[0], w[1]);
            if ar.abs_diff(br) == 2 || ac.abs_diff(bc) == 2 {
                self.cells[(ar + br) / 2][(ac + bc) / 2] = EMPTY;
            }
        }
        let (tr, tc) = *path.last().unwrap();
        self.cells[tr][tc] = piece;
        self.side = 1 - self.side;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    fn position_string(&self) -> String {
        let grid: Vec<Vec<Option<&str>>> = self
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&x| match x {
                        F => Some("FF"),
                        G => Some("GG"),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        common::grid_position_string(&grid, if self.side == 0 { "FOX" } else { "GEESE" })
    }
}

use common::Rng;

fn kernel_path(rules: &Rules, m: &ply_kernel::Move) -> Path {
    let g = rules.geometry();
    m.path(rules.geometry())
        .iter()
        .map(|c| (g.row(*c), g.col(*c)))
        .collect()
}

fn kernel_board(pos: &Position) -> Board {
    let g = pos.rules().geometry().clone();
    let fox = pos.rules().core().kind_by_name("Fox").unwrap();
    let mut cells = [[EMPTY; 7]; 7];
    for (cell, piece) in pos.pieces() {
        cells[g.row(cell)][g.col(cell)] = if piece.kind() == fox { F } else { G };
    }
    Board {
        cells,
        side: pos.side_to_move().index() as u8,
    }
}

/// A random position: the fox and `4..=13` geese on random points, either side to move.
fn random_board(rng: &mut Rng) -> Board {
    let points: Vec<(usize, usize)> = (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| on_board(r as i32, c as i32))
        .collect();
    let mut cells = [[EMPTY; 7]; 7];
    let geese = 4 + rng.below(10);
    let mut placed = 0;
    while placed < geese + 1 {
        let (r, c) = points[rng.below(points.len())];
        if cells[r][c] == EMPTY {
            cells[r][c] = if placed == 0 { F } else { G };
            placed += 1;
        }
    }
    Board {
        cells,
        side: rng.below(2) as u8,
    }
}

#[test]
fn differential_against_an_independent_generator_over_random_games() {
    let rules = rules();
    let mut rng = Rng(0xF0C5_A17D_6EE5_E000);
    let mut positions = 0;
    let mut chains = 0;
    let mut longest = 0;
    let mut ends = [0; 3];
    for game in 0..240 {
        // Half the games from the start, half from random positions (for long chains).
        let mut ours = if game % 2 == 0 {
            Board::start()
        } else {
            random_board(&mut rng)
        };
        let mut pos = Position::from_position_string(rules.clone(), &ours.position_string())
            .unwrap_or_else(|e| panic!("{}: {e}", ours.position_string()));
        if game == 0 {
            assert_eq!(
                pos.to_position_string(),
                Position::start(rules.clone()).to_position_string()
            );
        }
        for ply in 0..300 {
            let here = format!("game {game}, ply {ply}: {}", pos.to_position_string());
            assert_eq!(kernel_board(&pos), ours, "{here}");
            let kernel: Vec<Path> = pos
                .legal_moves()
                .unwrap()
                .iter()
                .map(|m| kernel_path(&rules, &m))
                .collect();
            let kernel_set: BTreeSet<Path> = kernel.iter().cloned().collect();
            assert_eq!(kernel_set.len(), kernel.len(), "duplicate moves: {here}");
            let mut mine = ours.moves();
            mine.sort();
            let mine_set: BTreeSet<Path> = mine.iter().cloned().collect();
            assert_eq!(mine_set.len(), mine.len(), "{here}");
            assert_eq!(kernel_set, mine_set, "{here}");
            assert_eq!(
                pos.outcome(),
                ours.winner()
                    .map(|p| Outcome::Win(Player::new(p as usize).unwrap())),
                "{here}"
            );
            positions += 1;
            chains += mine.iter().filter(|p| p.len() > 2).count();
            longest = longest.max(mine.iter().map(Vec::len).max().unwrap_or(0));
            if mine.is_empty() {
                let w = ours.winner().expect("no move means the game is over");
                ends[if w == 1 {
                    0
                } else if ours.geese() < 4 {
                    1
                } else {
                    2
                }] += 1;
                break;
            }
            let pick = &mine[rng.below(mine.len())];
            let m = pos
                .legal_moves()
                .unwrap()
                .iter()
                .find(|m| kernel_path(&rules, m) == *pick)
                .unwrap();
            pos.make_unchecked(m);
            ours.play(pick);
        }
    }
    eprintln!(
        "{positions} positions, {chains} chain moves, longest path {longest} cells, \
         ends (fox penned, flock too small, geese stuck) {ends:?}"
    );
    assert!(positions >= 5000, "{positions} positions");
    assert!(chains >= 500, "{chains} chains");
    assert!(longest >= 4, "longest path {longest}");
    // Random geese seldom pen the fox: that end is tested in the scenarios above.
    assert!(ends[1] > 0 && ends[2] > 0, "{ends:?}");
}

/// The counts of `tests/data/perft.txt`, from the independent generator and the kernel.
#[test]
fn perft_of_the_independent_generator_and_of_the_kernel() {
    let want = [3, 19, 64, 632, 2220, 24864, 79949, 984323, 3272490];
    let mut pos = Position::start(rules());
    let ours = Board::start();
    for (d, &n) in want.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(ours.perft(depth), n, "ours, depth {depth}");
        assert_eq!(pos.perft(depth).unwrap(), n, "kernel, depth {depth}");
    }
}
