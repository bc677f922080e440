//! Breakthru against a generator written here from the rules in the pack's header
//! (`rulesets/breakthru.toml`): a turn is one capture, one move of the flagship, or two quiet
//! moves of two different ships; perft (each move of a turn a ply), and random games in which,
//! at every position, the legal moves, the board, the side to move and the outcome agree.

mod common;

use common::Rng;
use ply_kernel::{Game, Outcome, Status};
use std::collections::BTreeSet;

const N: usize = 11;
const EMPTY: u8 = 0;
const GOLD_SHIP: u8 = 1;
const FLAGSHIP: u8 = 2;
const SILVER_SHIP: u8 = 3;

/// The reference: the board (row 0 at the top), the side to move (0 GOLD, 1 SILVER), the
/// moves made in this turn and the cell of the ship the turn's first move put down.
#[derive(Clone)]
struct Breakthru {
    b: [[u8; N]; N],
    side: usize,
    part: u8,
    moved: Option<(usize, usize)>,
    /// None while the game goes on; Some(0) a GOLD win, Some(1) a SILVER win.
    result: Option<usize>,
}

fn name(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, N - r)
}

fn parse(s: &str) -> (usize, usize) {
    let c = (s.as_bytes()[0] - b'a') as usize;
    let row: usize = s[1..].parse().unwrap();
    (N - row, c)
}

fn cells(spec: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for part in spec.split(' ') {
        let (a, b) = part.split_once(':').unwrap_or((part, part));
        let ((r0, c0), (r1, c1)) = (parse(a), parse(b));
        for r in r0.min(r1)..=r0.max(r1) {
            for c in c0.min(c1)..=c0.max(c1) {
                out.push((r, c));
            }
        }
    }
    out
}

fn owner(x: u8) -> Option<usize> {
    match x {
        GOLD_SHIP | FLAGSHIP => Some(0),
        SILVER_SHIP => Some(1),
        _ => None,
    }
}

impl Breakthru {
    fn new() -> Breakthru {
        let mut b = [[EMPTY; N]; N];
        for (r, c) in cells("e4:g4 e8:g8 d5:d7 h5:h7") {
            b[r][c] = GOLD_SHIP;
        }
        for (r, c) in cells("b4:b8 j4:j8 d2:h2 d10:h10") {
            b[r][c] = SILVER_SHIP;
        }
        let (r, c) = parse("f6");
        b[r][c] = FLAGSHIP;
        Breakthru {
            b,
            side: 0,
            part: 0,
            moved: None,
            result: None,
        }
    }

    fn moves(&self) -> Vec<String> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut v = Vec::new();
        for r in 0..N {
            for c in 0..N {
                let x = self.b[r][c];
                if owner(x) != Some(self.side) {
                    continue;
                }
                // The second move of a turn: another ship, not the flagship, never a capture.
                if self.part == 1 && (x == FLAGSHIP || self.moved == Some((r, c))) {
                    continue;
                }
                for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                    while (0..N as i32).contains(&rr)
                        && (0..N as i32).contains(&cc)
                        && self.b[rr as usize][cc as usize] == EMPTY
                    {
                        v.push(format!("{}-{}", name(r, c), name(rr as usize, cc as usize)));
                        rr += dr;
                        cc += dc;
                    }
                }
                if self.part == 0 {
                    for (dr, dc) in [(-1i32, -1i32), (-1, 1), (1, -1), (1, 1)] {
                        let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                        if (0..N as i32).contains(&rr)
                            && (0..N as i32).contains(&cc)
                            && owner(self.b[rr as usize][cc as usize]) == Some(1 - self.side)
                        {
                            v.push(format!("{}x{}", name(r, c), name(rr as usize, cc as usize)));
                        }
                    }
                }
            }
        }
        if v.is_empty() {
            v.push("pass".into());
        }
        v
    }

    fn play(&mut self, m: &str) {
        if m == "pass" {
            self.side = 1 - self.side;
            self.part = 0;
            self.moved = None;
            return;
        }
        let (a, b) = m.split_at(m.find(['-', 'x']).unwrap());
        let (from, to) = (parse(a), parse(&b[1..]));
        let piece = self.b[from.0][from.1];
        let took = self.b[to.0][to.1] != EMPTY;
        self.b[to.0][to.1] = piece;
        self.b[from.0][from.1] = EMPTY;
        let edge = |(r, c): (usize, usize)| r == 0 || c == 0 || r == N - 1 || c == N - 1;
        if piece == FLAGSHIP && edge(to) {
            self.result = Some(0);
        } else if !self.b.iter().flatten().any(|&x| x == FLAGSHIP) {
            self.result = Some(1);
        }
        if self.part == 0 && !took && piece != FLAGSHIP {
            self.part = 1;
            self.moved = Some(to);
        } else {
            self.side = 1 - self.side;
            self.part = 0;
            self.moved = None;
        }
    }

    fn board_string(&self) -> String {
        let mut rows = Vec::new();
        for row in &self.b {
            let mut s = String::new();
            let mut run = 0;
            for &x in row {
                if x == EMPTY {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s += ["", "GS", "GF", "SS"][x as usize];
            }
            if run > 0 {
                s += &run.to_string();
            }
            rows.push(s);
        }
        rows.join("/")
    }
}

fn perft(r: &Breakthru, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
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

fn status_of(g: &Game) -> Option<usize> {
    match g.status() {
        Status::Over(Outcome::Win(p)) => Some(p.index()),
        Status::Over(Outcome::Draw) => panic!("Breakthru has no draw"),
        _ => None,
    }
}

#[test]
fn breakthru_perft_agrees_with_the_reference() {
    // PLY_BREAKTHRU_DEPTH=4 checks the depth-4 line of tests/data/perft.txt too.
    let deepest = std::env::var("PLY_BREAKTHRU_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(3);
    let rules = common::pack("breakthru.toml", &[]);
    for d in 1..=deepest {
        let got = ply_kernel::Position::start(rules.clone()).perft(d).unwrap();
        assert_eq!(got, perft(&Breakthru::new(), d), "depth {d}");
    }
}

#[test]
fn breakthru_random_games_agree_with_the_reference() {
    let rules = common::pack("breakthru.toml", &[]);
    let mut rng = Rng(0xb7ea);
    let (mut positions, mut seconds, mut decided) = (0, 0, [0; 2]);
    for g in 0..60 {
        let mut game = Game::new(rules.clone());
        let mut r = Breakthru::new();
        for _ in 0..600 {
            let at = game.position().to_position_string();
            assert_eq!(status_of(&game), r.result, "game {g}: outcome at {at}");
            if let Some(w) = r.result {
                decided[w] += 1;
                break;
            }
            let want: BTreeSet<String> = r.moves().into_iter().collect();
            let got: BTreeSet<String> = common::moves(&game).into_iter().collect();
            assert_eq!(got, want, "game {g} at {at}");
            assert_eq!(
                game.position().side_to_move().index(),
                r.side,
                "game {g}: side at {at}"
            );
            assert_eq!(game.position().turn_moves(), r.part, "game {g} at {at}");
            positions += 1;
            seconds += usize::from(r.part == 1);
            let moves: Vec<&String> = want.iter().collect();
            let m = moves[rng.below(moves.len())].clone();
            common::play(&mut game, &m).unwrap();
            r.play(&m);
            let text = game.position().to_position_string();
            assert_eq!(
                text.split(' ').next().unwrap(),
                r.board_string(),
                "game {g} after {m}"
            );
            // The position string carries the turn: read back, it is the same position.
            let back = ply_kernel::Position::from_position_string(rules.clone(), &text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_position_string(), text);
            assert_eq!(back.hash(), game.position().hash(), "{text}");
        }
    }
    eprintln!("{positions} positions, {seconds} second moves, decided {decided:?}");
    assert!(
        positions > 10_000 && seconds > 2_000 && decided[0] > 5 && decided[1] > 5,
        "{positions} positions, {seconds} second moves, decided {decided:?}"
    );
}

/// The board says when the player moves again, and which move of the turn it is; the second
/// move of a turn may not be the first move's ship, the flagship or a capture, each refused
/// with its rule and the position left as it was.
#[test]
fn a_turn_of_two_moves_is_drawn_and_refused_as_the_rules_say() {
    let rules = common::pack("breakthru.toml", &[]);
    let mut game = Game::new(rules.clone());
    common::play(&mut game, "e4-e3").unwrap();
    insta::assert_snapshot!(game.position().render());
    let before = game.position().to_position_string();
    for (m, why) in [
        ("e3-f3", "second-move-by-another-ship"),
        ("f6-f5", "second-move-by-another-ship"),
    ] {
        let err = common::play(&mut game, m).unwrap_err();
        assert!(err.to_string().contains(why), "{m}: {err}");
        assert_eq!(game.position().to_position_string(), before);
    }
    common::play(&mut game, "g4-g3").unwrap();
    assert_eq!(game.position().side_to_move().index(), 1);
    // SILVER: d2 takes e3 diagonally, a whole turn; the other capture waits for its turn.
    common::play(&mut game, "d2xe3").unwrap();
    assert_eq!(game.position().side_to_move().index(), 0);
    common::play(&mut game, "d5-c5").unwrap();
    let before = game.position().to_position_string();
    let err = common::play(&mut game, "f4xe3").unwrap_err();
    assert!(err.to_string().contains("capture-is-a-whole-turn"), "{err}");
    assert_eq!(game.position().to_position_string(), before);
}
