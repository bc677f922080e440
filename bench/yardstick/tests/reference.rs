//! Cross-checks the engines against naive implementations written straight from the rule
//! text (arrays of cells, no tables, no bitboards), on positions met in random playouts.

use ply_yardstick::cats_rabbits::{self, CatsRabbits};
use ply_yardstick::jungle::{self, Jungle, Variant};
use ply_yardstick::position;

struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

type Moves = Vec<Vec<(u8, u8)>>;

// ---------------------------------------------------------------- naive Jungle

fn rank_of(letter: char) -> u8 {
    "RCDWPTLE".find(letter).unwrap() as u8 + 1
}

fn water(r: i32, c: i32) -> bool {
    (3..=5).contains(&r) && matches!(c, 1 | 2 | 4 | 5)
}

fn den(side: u8) -> (i32, i32) {
    if side == 0 { (0, 3) } else { (8, 3) }
}

fn trap_owner(r: i32, c: i32) -> Option<u8> {
    match (r, c) {
        (0, 2) | (0, 4) | (1, 3) => Some(0),
        (8, 2) | (8, 4) | (7, 3) => Some(1),
        _ => None,
    }
}

/// (side, rank) per cell.
type Grid = Vec<Vec<Option<(u8, u8)>>>;

fn jungle_grid(text: &str) -> (Grid, u8) {
    let p = position::parse(text, 9, 7).unwrap();
    let grid = (0..9)
        .map(|r| {
            (0..7)
                .map(|c| p.cells[r * 7 + c].map(|[s, l]| ((s == 'B') as u8, rank_of(l))))
                .collect()
        })
        .collect();
    (grid, (p.to_move == "B") as u8)
}

fn naive_can_capture(v: Variant, side: u8, a: (i32, i32), ar: u8, d: (i32, i32), dr: u8) -> bool {
    let a_eff = if trap_owner(a.0, a.1) == Some(1 - side) {
        0
    } else {
        ar
    };
    let d_on_attacker_trap = trap_owner(d.0, d.1) == Some(side);
    let d_eff = if d_on_attacker_trap { 0 } else { dr };
    let (aw, dw) = (water(a.0, a.1), water(d.0, d.1));
    match v {
        Variant::Standard => {
            aw == dw
                && !(ar == 8 && dr == 1)
                && ((ar == 1 && dr == 8 && !aw && a_eff > 0) || a_eff >= d_eff)
        }
        Variant::Simplified => {
            if d_on_attacker_trap {
                true
            } else if ar == 8 && dr == 1 {
                false
            } else if ar == 1 && dr == 8 {
                a_eff > 0
            } else {
                a_eff >= d_eff
            }
        }
    }
}

fn naive_jungle_moves(text: &str, v: Variant) -> Moves {
    let (g, side) = jungle_grid(text);
    let mut out = Vec::new();
    for r in 0..9i32 {
        for c in 0..7i32 {
            let Some((s, rank)) = g[r as usize][c as usize] else {
                continue;
            };
            if s != side {
                continue;
            }
            for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
                let (mut nr, mut nc) = (r + dr, c + dc);
                if !(0..9).contains(&nr) || !(0..7).contains(&nc) {
                    continue;
                }
                if water(nr, nc) && rank != 1 {
                    if !(rank == 6 || rank == 7) || water(r, c) {
                        continue;
                    }
                    let mut blocked = false;
                    while (0..9).contains(&nr) && (0..7).contains(&nc) && water(nr, nc) {
                        if matches!(g[nr as usize][nc as usize], Some((_, 1))) {
                            blocked = true;
                        }
                        nr += dr;
                        nc += dc;
                    }
                    if blocked || !(0..9).contains(&nr) || !(0..7).contains(&nc) {
                        continue;
                    }
                }
                if (nr, nc) == den(side) {
                    continue;
                }
                match g[nr as usize][nc as usize] {
                    Some((s2, _)) if s2 == side => continue,
                    Some((_, r2)) if !naive_can_capture(v, side, (r, c), rank, (nr, nc), r2) => {
                        continue;
                    }
                    _ => {}
                }
                out.push(vec![(r as u8, c as u8), (nr as u8, nc as u8)]);
            }
        }
    }
    out.sort();
    out
}

// ---------------------------------------------------------------- naive Cats and Rabbits

fn naive_cr_moves(text: &str, multi: bool) -> Moves {
    let p = position::parse(text, 7, 7).unwrap();
    let mut g: Vec<Option<char>> = p.cells.iter().map(|c| c.map(|[s, _]| s)).collect();
    let side = if p.to_move == "RABBIT" { 'R' } else { 'C' };
    let rabbits = g.iter().filter(|&&c| c == Some('R')).count();
    if (0..7).any(|c| g[c] == Some('R')) || rabbits < 2 {
        return Vec::new();
    }
    let at = |r: i32, c: i32| (0..7).contains(&r) && (0..7).contains(&c);
    let mut out = Vec::new();
    for r in 0..7i32 {
        for c in 0..7i32 {
            if g[(r * 7 + c) as usize] != Some(side) {
                continue;
            }
            for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
                if at(r + dr, c + dc) && g[((r + dr) * 7 + c + dc) as usize].is_none() {
                    out.push(vec![(r as u8, c as u8), ((r + dr) as u8, (c + dc) as u8)]);
                }
            }
            if side == 'C' {
                g[(r * 7 + c) as usize] = None;
                hops(&mut g, vec![(r as u8, c as u8)], multi, &mut out);
                g[(r * 7 + c) as usize] = Some('C');
            }
        }
    }
    out.sort();
    out
}

fn hops(g: &mut [Option<char>], path: Vec<(u8, u8)>, multi: bool, out: &mut Moves) {
    let (r, c) = *path.last().unwrap();
    let (r, c) = (r as i32, c as i32);
    for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
        let (mr, mc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
        if !(0..7).contains(&lr) || !(0..7).contains(&lc) {
            continue;
        }
        let (mid, land) = ((mr * 7 + mc) as usize, (lr * 7 + lc) as usize);
        if g[mid] == Some('R') && g[land].is_none() {
            let mut p = path.clone();
            p.push((lr as u8, lc as u8));
            out.push(p.clone());
            if multi {
                g[mid] = None;
                hops(g, p, multi, out);
                g[mid] = Some('R');
            }
        }
    }
}

// ---------------------------------------------------------------- the checks

fn sorted(mut v: Moves) -> Moves {
    v.sort();
    v
}

#[test]
fn jungle_matches_naive_rules() {
    let mut rng = Lcg(11);
    let mut positions = 0;
    for v in [Variant::Standard, Variant::Simplified] {
        for _ in 0..60 {
            let mut j = Jungle::start(v);
            for _ in 0..400 {
                let text = j.to_position();
                let over = j.outcome().is_some_and(|w| w.is_some());
                let naive = if over && j.legal_moves().is_empty() {
                    Vec::new()
                } else {
                    naive_jungle_moves(&text, v)
                };
                assert_eq!(sorted(j.legal_moves()), naive, "{v:?} {text}");
                positions += 1;
                let mut list = jungle::MoveList::new();
                j.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                j.make(list[rng.pick(list.len())]);
            }
        }
    }
    assert!(positions > 10_000);
}

#[test]
fn cats_rabbits_matches_naive_rules() {
    let mut rng = Lcg(5);
    for multi in [false, true] {
        for _ in 0..300 {
            let mut p = CatsRabbits::start(multi);
            for _ in 0..300 {
                let text = p.to_position();
                assert_eq!(
                    sorted(p.legal_moves()),
                    naive_cr_moves(&text, multi),
                    "{text}"
                );
                let mut list = cats_rabbits::MoveList::new();
                p.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                p.make(list[rng.pick(list.len())]);
            }
        }
    }
}

#[test]
fn crafted_cats_rabbits_positions_match_naive_rules() {
    // Dense random placements (up to 6 rabbits, 2 cats) exercise long chains.
    let mut rng = Lcg(99);
    for _ in 0..20_000 {
        let mut cells = vec![None; 49];
        let (nr, nc) = (2 + rng.pick(5), 1 + rng.pick(2));
        for code in std::iter::repeat_n(['R', 'R'], nr).chain(std::iter::repeat_n(['C', 'C'], nc)) {
            loop {
                let i = 7 + rng.pick(42);
                if cells[i].is_none() {
                    cells[i] = Some(code);
                    break;
                }
            }
        }
        let text = position::format(&cells, 7, "CAT");
        for multi in [false, true] {
            let p = CatsRabbits::from_position(&text, multi).unwrap();
            assert_eq!(
                sorted(p.legal_moves()),
                naive_cr_moves(&text, multi),
                "{text}"
            );
        }
    }
}
