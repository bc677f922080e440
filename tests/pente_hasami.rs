//! Pente and Hasami Shogi against generators written here from the rules in the packs'
//! headers (`rulesets/pente.toml`, `rulesets/hasami_shogi.toml`): perft, and random games in
//! which, at every position, the legal moves, the board after each move and the outcome agree.

mod common;

use common::Rng;
use ply_kernel::{Game, Outcome, Status};
use std::collections::{BTreeSet, HashMap};

/// A reference game: the board (row 0 at the top; 0 empty, 1 the first player, 2 the second).
trait Reference: Clone {
    fn board(&self) -> &Vec<Vec<u8>>;
    /// The legal moves in Ply's notation.
    fn moves(&self) -> Vec<String>;
    fn play(&mut self, m: &str);
    /// None while the game goes on; Some(0) a draw, Some(p) a win of player p.
    fn outcome(&self) -> Option<u8>;
    /// The piece letter of a position string.
    fn letter(&self) -> char;
}

fn name(n: usize, r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, n - r)
}

fn parse(n: usize, s: &str) -> (usize, usize) {
    let c = (s.as_bytes()[0] - b'a') as usize;
    let row: usize = s[1..].parse().unwrap();
    (n - row, c)
}

const ALL8: [(i32, i32); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];
const ORTHO: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

fn inside(n: usize, r: i32, c: i32) -> bool {
    r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n
}

#[derive(Clone)]
struct Pente {
    b: Vec<Vec<u8>>,
    side: u8,
    taken: [u32; 3],
    result: Option<u8>,
}

impl Pente {
    fn new() -> Pente {
        Pente {
            b: vec![vec![0; 19]; 19],
            side: 1,
            taken: [0; 3],
            result: None,
        }
    }
}

impl Reference for Pente {
    fn board(&self) -> &Vec<Vec<u8>> {
        &self.b
    }
    fn letter(&self) -> char {
        'S'
    }
    fn moves(&self) -> Vec<String> {
        let mut v = Vec::new();
        for r in 0..19 {
            for c in 0..19 {
                if self.b[r][c] == 0 {
                    v.push(name(19, r, c));
                }
            }
        }
        v
    }
    fn play(&mut self, m: &str) {
        let (r, c) = parse(19, m);
        let (me, them) = (self.side, 3 - self.side);
        self.b[r][c] = me;
        for (dr, dc) in ALL8 {
            let at = |k: i32| (r as i32 + k * dr, c as i32 + k * dc);
            let ok = (1..=3).all(|k| inside(19, at(k).0, at(k).1));
            if !ok {
                continue;
            }
            let cell = |k: i32| self.b[at(k).0 as usize][at(k).1 as usize];
            if cell(1) == them && cell(2) == them && cell(3) == me {
                for k in 1..=2 {
                    let (rr, cc) = at(k);
                    self.b[rr as usize][cc as usize] = 0;
                }
                self.taken[me as usize] += 2;
            }
        }
        let line = |dr: i32, dc: i32| {
            let mut n = 1;
            for s in [1, -1] {
                let (mut rr, mut cc) = (r as i32 + s * dr, c as i32 + s * dc);
                while inside(19, rr, cc) && self.b[rr as usize][cc as usize] == me {
                    n += 1;
                    rr += s * dr;
                    cc += s * dc;
                }
            }
            n
        };
        let five = [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| line(dr, dc) >= 5);
        if five || self.taken[me as usize] >= 10 {
            self.result = Some(me);
        } else if self.b.iter().all(|row| row.iter().all(|&x| x != 0)) {
            self.result = Some(0);
        }
        self.side = them;
    }
    fn outcome(&self) -> Option<u8> {
        self.result
    }
}

#[derive(Clone)]
struct Hasami {
    b: Vec<Vec<u8>>,
    side: u8,
    clock: u32,
    /// Positions (board, side to move) since the last capture, the current one last.
    seen: Vec<(Vec<Vec<u8>>, u8)>,
    result: Option<u8>,
    /// Enemy pieces to take to win.
    goal: usize,
}

impl Hasami {
    fn new(goal: usize) -> Hasami {
        let mut b = vec![vec![0; 9]; 9];
        b[8] = vec![1; 9];
        b[0] = vec![2; 9];
        Hasami {
            seen: vec![(b.clone(), 1)],
            b,
            side: 1,
            clock: 0,
            result: None,
            goal,
        }
    }

    fn moves_of(&self, side: u8) -> Vec<String> {
        let mut v = Vec::new();
        for r in 0..9 {
            for c in 0..9 {
                if self.b[r][c] != side {
                    continue;
                }
                for (dr, dc) in ORTHO {
                    let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                    while inside(9, rr, cc) && self.b[rr as usize][cc as usize] == 0 {
                        v.push(format!(
                            "{}-{}",
                            name(9, r, c),
                            name(9, rr as usize, cc as usize)
                        ));
                        rr += dr;
                        cc += dc;
                    }
                }
            }
        }
        v
    }
}

impl Reference for Hasami {
    fn board(&self) -> &Vec<Vec<u8>> {
        &self.b
    }
    fn letter(&self) -> char {
        'F'
    }
    fn moves(&self) -> Vec<String> {
        self.moves_of(self.side)
    }
    fn play(&mut self, m: &str) {
        let (from, to) = m.split_once('-').unwrap();
        let (fr, fc) = parse(9, from);
        let (r, c) = parse(9, to);
        let (me, them) = (self.side, 3 - self.side);
        self.b[fr][fc] = 0;
        self.b[r][c] = me;
        let mut took = false;
        for (dr, dc) in ORTHO {
            let mut run = Vec::new();
            let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
            while inside(9, rr, cc) && self.b[rr as usize][cc as usize] == them {
                run.push((rr as usize, cc as usize));
                rr += dr;
                cc += dc;
            }
            if !run.is_empty() && inside(9, rr, cc) && self.b[rr as usize][cc as usize] == me {
                for (x, y) in run {
                    self.b[x][y] = 0;
                }
                took = true;
            }
        }
        self.side = them;
        if took {
            self.clock = 0;
            self.seen.clear();
        } else {
            self.clock += 1;
        }
        self.seen.push((self.b.clone(), self.side));
        let left = self.b.iter().flatten().filter(|&&x| x == them).count();
        let now = self.seen.last().unwrap();
        let repeats = self.seen[..self.seen.len() - 1]
            .iter()
            .filter(|p| *p == now)
            .count();
        // The goal reached, or an opponent who cannot move: the mover wins.
        self.result = if left <= 9 - self.goal || self.moves_of(them).is_empty() {
            Some(me)
        } else if repeats >= 2 || self.clock >= 100 {
            Some(0)
        } else {
            None
        };
    }
    fn outcome(&self) -> Option<u8> {
        self.result
    }
}

/// The board part of a position string for the reference's board.
fn board_string<R: Reference>(r: &R) -> String {
    let first = ply_players(r)[0];
    let second = ply_players(r)[1];
    let mut rows = Vec::new();
    for row in r.board() {
        let mut s = String::new();
        let mut run = 0;
        for &x in row {
            if x == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                s += &run.to_string();
                run = 0;
            }
            s.push(if x == 1 { first } else { second });
            s.push(r.letter());
        }
        if run > 0 {
            s += &run.to_string();
        }
        rows.push(s);
    }
    rows.join("/")
}

fn ply_players<R: Reference>(r: &R) -> [char; 2] {
    if r.letter() == 'S' {
        ['W', 'B']
    } else {
        ['B', 'W']
    }
}

fn status_of(g: &Game) -> Option<u8> {
    match g.status() {
        Status::Over(Outcome::Draw) => Some(0),
        Status::Over(Outcome::Win(p)) => Some(p.index() as u8 + 1),
        _ => None,
    }
}

fn perft<R: Reference>(r: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if r.outcome().is_some() {
        return 0;
    }
    let moves = r.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = r.clone();
            next.play(m);
            perft(&next, depth - 1)
        })
        .sum()
}

/// Random games from the start: the moves, each board and the outcome agree.
fn differential<R: Reference>(
    pack: &str,
    set: &[(&str, &str)],
    start: R,
    games: usize,
    max_plies: usize,
) -> (usize, usize) {
    let rules = common::pack(pack, set);
    let mut rng = Rng(0x5eed ^ games as u64);
    let (mut positions, mut decided) = (0, 0);
    for g in 0..games {
        let mut game = Game::new(rules.clone());
        let mut r = start.clone();
        for _ in 0..max_plies {
            assert_eq!(
                status_of(&game),
                r.outcome(),
                "{pack} game {g}: outcome at {}",
                game.position().to_position_string()
            );
            if r.outcome().is_some() {
                decided += usize::from(r.outcome() != Some(0));
                break;
            }
            let want: BTreeSet<String> = r.moves().into_iter().collect();
            let got: BTreeSet<String> = common::moves(&game).into_iter().collect();
            assert_eq!(
                got,
                want,
                "{pack} game {g} at {}",
                game.position().to_position_string()
            );
            positions += 1;
            let moves: Vec<&String> = want.iter().collect();
            let m = moves[rng.below(moves.len())].clone();
            common::play(&mut game, &m).unwrap();
            r.play(&m);
            let text = game.position().to_position_string();
            assert_eq!(
                text.split(' ').next().unwrap(),
                board_string(&r),
                "{pack} game {g} after {m}"
            );
        }
    }
    (positions, decided)
}

fn counts(pack: &str, depth: u32) -> u64 {
    let rules = common::pack(pack, &[]);
    ply_kernel::Position::start(rules).perft(depth).unwrap()
}

#[test]
fn pente_perft_agrees_with_the_reference() {
    for d in 1..=2 {
        assert_eq!(
            counts("pente.toml", d),
            perft(&Pente::new(), d),
            "depth {d}"
        );
    }
}

#[test]
fn hasami_shogi_perft_agrees_with_the_reference() {
    for d in 1..=3 {
        assert_eq!(
            counts("hasami_shogi.toml", d),
            perft(&Hasami::new(8), d),
            "depth {d}"
        );
    }
}

#[test]
fn pente_random_games_agree_with_the_reference() {
    let (positions, decided) = differential("pente.toml", &[], Pente::new(), 60, 400);
    assert!(
        positions > 5_000 && decided > 20,
        "{positions} positions, {decided} decided"
    );
}

#[test]
fn pente_captures_reach_the_hand_and_five_pairs_win() {
    // Pairs captured in random games: the captives in hand are twice the captures.
    let rules = common::pack("pente.toml", &[]);
    let mut rng = Rng(77);
    let mut by_captures = 0;
    for _ in 0..200 {
        let mut game = Game::new(rules.clone());
        let mut r = Pente::new();
        while r.outcome().is_none() {
            let moves = r.moves();
            let m = moves[rng.below(moves.len())].clone();
            common::play(&mut game, &m).unwrap();
            r.play(&m);
            let text = game.position().to_position_string();
            let hand: HashMap<&str, u32> = text
                .split(' ')
                .find_map(|f| f.strip_prefix("hand="))
                .unwrap()
                .split(',')
                .map(|x| {
                    let (k, n) = x.split_once(':').unwrap();
                    (k, n.parse().unwrap())
                })
                .collect();
            assert_eq!(hand["WC"], r.taken[1], "{text}");
            assert_eq!(hand["BC"], r.taken[2], "{text}");
        }
        by_captures += usize::from(r.taken[1] >= 10 || r.taken[2] >= 10);
    }
    assert!(by_captures > 0, "no game was won by captures");
}

#[test]
fn hasami_shogi_random_games_agree_with_the_reference() {
    // Random players rarely take eight pieces: the games are drawn by the clock or by
    // repetition, and those draws are compared; a smaller goal decides games.
    let (positions, _) = differential("hasami_shogi.toml", &[], Hasami::new(8), 30, 2000);
    assert!(positions > 3_000, "{positions} positions");
    let (positions, decided) = differential(
        "hasami_shogi.toml",
        &[("goal", "2")],
        Hasami::new(2),
        60,
        2000,
    );
    assert!(
        positions > 1_000 && decided > 20,
        "{positions} positions, {decided} decided"
    );
}
