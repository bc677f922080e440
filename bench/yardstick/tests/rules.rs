//! Rule details, position strings and playouts.

use ply_yardstick::cats_rabbits::{self, CatsRabbits};
use ply_yardstick::jungle::{self, Jungle, Variant};
use ply_yardstick::position;

/// A small deterministic generator for `pick`.
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

/// Builds a Jungle position string from pieces `(row, col, code)`.
fn jungle_pos(pieces: &[(usize, usize, &str)], to_move: &str) -> String {
    let mut cells = vec![None; jungle::ROWS * jungle::COLS];
    for &(r, c, code) in pieces {
        let mut ch = code.chars();
        cells[r * jungle::COLS + c] = Some([ch.next().unwrap(), ch.next().unwrap()]);
    }
    position::format(&cells, jungle::COLS, to_move)
}

fn jungle(pieces: &[(usize, usize, &str)], to_move: &str, variant: Variant) -> Jungle {
    Jungle::from_position(&jungle_pos(pieces, to_move), variant).unwrap()
}

fn has(moves: &[Vec<(u8, u8)>], path: &[(u8, u8)]) -> bool {
    moves.iter().any(|m| m == path)
}

fn sorted(mut v: Vec<Vec<(u8, u8)>>) -> Vec<Vec<(u8, u8)>> {
    v.sort();
    v
}

// ---------------------------------------------------------------- position strings

#[test]
fn start_positions_round_trip() {
    for v in [Variant::Standard, Variant::Simplified] {
        let j = Jungle::start(v);
        assert_eq!(j.to_position(), jungle::START);
        assert_eq!(Jungle::from_position(&j.to_position(), v).unwrap(), j);
    }
    for multi in [false, true] {
        let p = CatsRabbits::start(multi);
        assert_eq!(p.to_position(), cats_rabbits::START);
        assert_eq!(
            CatsRabbits::from_position(&p.to_position(), multi).unwrap(),
            p
        );
    }
}

#[test]
fn extra_fields_are_ignored() {
    let j = Jungle::from_position(&format!("{} 17 whatever", jungle::START), Variant::Standard);
    assert_eq!(j.unwrap(), Jungle::start(Variant::Standard));
    let p = CatsRabbits::from_position(&format!("{} x y", cats_rabbits::START), false);
    assert_eq!(p.unwrap(), CatsRabbits::start(false));
}

#[test]
fn bad_positions_are_errors() {
    let bad = [
        "",
        "7/7/7 A",
        "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL",
        "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL C",
        "AL6AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A",
        "AL4AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A",
        "AX5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A",
        "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5B A",
        "AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL/7 A",
        "AL5AT/1AD3AC1/AR1AP1AW1AE/0/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A",
        "AL99999999999999999999999999/7/7/7/7/7/7/7/7 A",
    ];
    for text in bad {
        assert!(
            Jungle::from_position(text, Variant::Standard).is_err(),
            "{text:?}"
        );
    }
    for text in [
        "2CC1CC2/7/7/7/7/7/1RRRRRRRRRRRR",
        "2CC1CC2/7/7/7/7/7/1RRRRRRRRRRRR DOG",
        "2CC1CX2/7/7/7/7/7/1RRRRRRRRRRRR CAT",
        "2CC1CC2/7/7/7/7/RR6/1RRRRRRRRRRRR CAT",
        "2CC1CC2/7/7/7/7/7/1RRRRRRRRRRRRRR CAT",
    ] {
        assert!(CatsRabbits::from_position(text, true).is_err(), "{text:?}");
    }
}

#[test]
fn multi_digit_runs_parse() {
    let parsed = position::parse("12/3AB8 X", 2, 12).unwrap();
    assert_eq!(parsed.cells.iter().filter(|c| c.is_some()).count(), 1);
    assert_eq!(parsed.cells[15], Some(['A', 'B']));
    assert_eq!(position::format(&parsed.cells, 12, "X"), "12/3AB8 X");
}

#[test]
fn playout_positions_round_trip() {
    let mut rng = Lcg(7);
    for v in [Variant::Standard, Variant::Simplified] {
        for _ in 0..20 {
            let mut j = Jungle::start(v);
            for _ in 0..300 {
                let text = j.to_position();
                assert_eq!(Jungle::from_position(&text, v).unwrap(), j, "{text}");
                let mut list = jungle::MoveList::new();
                j.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                j.make(list[rng.pick(list.len())]);
            }
        }
    }
    for multi in [false, true] {
        for _ in 0..50 {
            let mut p = CatsRabbits::start(multi);
            for _ in 0..300 {
                let text = p.to_position();
                assert_eq!(
                    CatsRabbits::from_position(&text, multi).unwrap(),
                    p,
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

// ---------------------------------------------------------------- Jungle rules

#[test]
fn river_jump_blocked_and_unblocked() {
    for v in [Variant::Standard, Variant::Simplified] {
        // Lion at (3,0) jumps along row 3 over (3,1),(3,2) to (3,3).
        let free = jungle(&[(3, 0, "AL"), (8, 6, "BR")], "A", v);
        assert_eq!(
            sorted(free.legal_moves()),
            vec![
                vec![(3, 0), (2, 0)],
                vec![(3, 0), (3, 3)],
                vec![(3, 0), (4, 0)]
            ]
        );
        // An enemy rat in the jumped water blocks.
        let blocked = jungle(&[(3, 0, "AL"), (3, 2, "BR")], "A", v);
        assert!(!has(&blocked.legal_moves(), &[(3, 0), (3, 3)]));
        assert_eq!(blocked.legal_moves().len(), 2);
        // So does the lion's own rat.
        let own = jungle(&[(3, 0, "AL"), (3, 1, "AR"), (8, 6, "BE")], "A", v);
        assert!(!has(&own.legal_moves(), &[(3, 0), (3, 3)]));
        // Tiger jumps down column 1 over three water cells; a rat on (5,1) blocks it.
        let t = jungle(&[(2, 1, "AT"), (8, 6, "BR")], "A", v);
        assert!(has(&t.legal_moves(), &[(2, 1), (6, 1)]));
        let t = jungle(&[(2, 1, "AT"), (5, 1, "BR")], "A", v);
        assert!(!has(&t.legal_moves(), &[(2, 1), (6, 1)]));
        // A jump may capture on the landing cell, and may not land on an own piece.
        let t = jungle(&[(2, 1, "AT"), (6, 1, "BW")], "A", v);
        assert!(has(&t.legal_moves(), &[(2, 1), (6, 1)]));
        let t = jungle(&[(2, 1, "AT"), (6, 1, "AW"), (8, 6, "BR")], "A", v);
        assert!(!has(&t.legal_moves(), &[(2, 1), (6, 1)]));
        // A jump onto a stronger piece is not a capture.
        let t = jungle(&[(2, 1, "AT"), (6, 1, "BE")], "A", v);
        assert!(!has(&t.legal_moves(), &[(2, 1), (6, 1)]));
        // Only Lion and Tiger jump.
        let e = jungle(&[(2, 1, "AE"), (8, 6, "BR")], "A", v);
        assert!(!has(&e.legal_moves(), &[(2, 1), (6, 1)]));
    }
}

/// Whether A's piece on `a` (code `ac`) can capture B's piece on `b` (code `bc`).
fn a_takes(a: (usize, usize), ac: &str, b: (usize, usize), bc: &str, v: Variant) -> bool {
    // An extra B piece far away keeps B alive either way.
    let j = jungle(&[(a.0, a.1, ac), (b.0, b.1, bc), (8, 0, "BW")], "A", v);
    has(
        &j.legal_moves(),
        &[(a.0 as u8, a.1 as u8), (b.0 as u8, b.1 as u8)],
    )
}

#[test]
fn capture_rules() {
    use Variant::{Simplified as Si, Standard as St};
    for v in [St, Si] {
        // Rank order and equal ranks.
        assert!(a_takes((2, 0), "AT", (3, 0), "BP", v));
        assert!(a_takes((2, 0), "AT", (3, 0), "BT", v));
        assert!(!a_takes((2, 0), "AP", (3, 0), "BT", v));
        // Rat takes Elephant on land.
        assert!(a_takes((2, 0), "AR", (3, 0), "BE", v));
        // Elephant never takes Rat off a trap.
        assert!(!a_takes((2, 0), "AE", (3, 0), "BR", v));
        // Two rats in water.
        assert!(a_takes((3, 1), "AR", (4, 1), "BR", v));
        // Defender on the attacker's trap has rank 0: a Cat takes an Elephant there.
        assert!(a_takes((1, 2), "AC", (1, 3), "BE", v));
        assert!(!a_takes((1, 2), "AC", (2, 2), "BE", v));
        // Attacker on an enemy trap has rank 0: an A Dog on B's trap (7,3) cannot take a
        // B Rat; a Rat on an enemy trap cannot take the Elephant.
        assert!(!a_takes((7, 3), "AD", (7, 2), "BR", v));
        assert!(a_takes((6, 3), "AD", (6, 2), "BR", v));
        assert!(!a_takes((7, 3), "AR", (7, 4), "BE", v));
    }
    // Water rule (standard only): a rat in water does not take on land, and vice versa.
    assert!(!a_takes((3, 1), "AR", (3, 0), "BE", St));
    assert!(a_takes((3, 1), "AR", (3, 0), "BE", Si));
    assert!(!a_takes((3, 1), "AR", (3, 0), "BR", St));
    assert!(a_takes((3, 1), "AR", (3, 0), "BR", Si));
    assert!(!a_takes((3, 0), "AR", (3, 1), "BR", St));
    assert!(a_takes((3, 0), "AR", (3, 1), "BR", Si));
    // Elephant takes Rat on the Elephant's own trap: simplified only.
    assert!(!a_takes((1, 2), "AE", (1, 3), "BR", St));
    assert!(a_takes((1, 2), "AE", (1, 3), "BR", Si));
    // The trap a defender stands on must be the attacker's: B's Elephant on B's own trap
    // keeps its rank.
    assert!(!a_takes((8, 1), "AC", (8, 2), "BE", Si));
}

#[test]
fn dens_and_game_end() {
    for v in [Variant::Standard, Variant::Simplified] {
        // No piece enters its own den.
        let j = jungle(&[(0, 2, "AW"), (8, 6, "BR")], "A", v);
        assert!(!has(&j.legal_moves(), &[(0, 2), (0, 3)]));
        // Entering the opponent's den wins.
        let mut j = jungle(&[(7, 3, "AR"), (0, 0, "BR")], "A", v);
        let mut list = jungle::MoveList::new();
        j.generate(&mut list);
        let mv = *list.iter().find(|m| m.path() == [(7, 3), (8, 3)]).unwrap();
        let before = j;
        let u = j.make(mv);
        assert_eq!(j.outcome(), Some(Some(0)));
        assert!(j.legal_moves().is_empty());
        j.unmake(mv, u);
        assert_eq!(j, before);
        // Taking the last enemy piece wins.
        let mut j = jungle(&[(2, 0, "AL"), (3, 0, "BR")], "A", v);
        assert_eq!(j.outcome(), None);
        let mut list = jungle::MoveList::new();
        j.generate(&mut list);
        let mv = *list.iter().find(|m| m.path() == [(2, 0), (3, 0)]).unwrap();
        j.make(mv);
        assert_eq!(j.outcome(), Some(Some(0)));
        assert_eq!(j.side_to_move(), 1);
        // The same position read from its string is over too.
        let j2 = jungle(&[(3, 0, "AL")], "B", v);
        assert_eq!(j2, j);
    }
    // A stuck player: A's only piece is a Rat boxed in by B's Elephants it cannot take
    // (trapped on B's trap (8,2): rank 0) and the edge.
    let pieces = [(8, 2, "AR"), (8, 1, "BE"), (7, 2, "BE"), (8, 3, "BE")];
    // (8,3) is B's den; B pieces there are allowed in a position string.
    let st = jungle(&pieces, "A", Variant::Standard);
    assert!(st.legal_moves().is_empty());
    assert_eq!(st.outcome(), Some(Some(1)));
    let si = jungle(&pieces, "A", Variant::Simplified);
    assert!(si.legal_moves().is_empty());
    assert_eq!(si.outcome(), None);
    let mut si2 = si;
    let po = si2.playout(&mut |_| unreachable!(), 10);
    assert_eq!(
        (po.plies, po.winner, po.capped),
        (0, None, false),
        "stuck: no winner"
    );
    let mut st2 = st;
    let po = st2.playout(&mut |_| unreachable!(), 10);
    assert_eq!((po.plies, po.winner, po.capped), (0, Some(1), false));
}

// ---------------------------------------------------------------- Cats and Rabbits rules

#[test]
fn multi_hop_chain_returns_to_start() {
    // Cat on (2,2), rabbits around the square (2,3),(3,4),(4,3),(3,2).
    let text = "7/7/2CCRR3/2RR1RR2/3RR3/7/7 CAT";
    let single = CatsRabbits::from_position(text, false).unwrap();
    let multi = CatsRabbits::from_position(text, true).unwrap();
    let cw = [(2, 2), (2, 4), (4, 4), (4, 2), (2, 2)];
    let ccw = [(2, 2), (4, 2), (4, 4), (2, 4), (2, 2)];
    let m = multi.legal_moves();
    assert!(has(&m, &cw) && has(&m, &ccw));
    assert_eq!(
        sorted(m),
        sorted(vec![
            vec![(2, 2), (1, 2)],
            vec![(2, 2), (2, 1)],
            cw[..2].to_vec(),
            cw[..3].to_vec(),
            cw[..4].to_vec(),
            cw.to_vec(),
            ccw[..2].to_vec(),
            ccw[..3].to_vec(),
            ccw[..4].to_vec(),
            ccw.to_vec(),
        ])
    );
    let s = single.legal_moves();
    assert!(!has(&s, &cw) && !has(&s, &ccw));
    assert_eq!(
        sorted(s),
        sorted(vec![
            vec![(2, 2), (1, 2)],
            vec![(2, 2), (2, 1)],
            vec![(2, 2), (2, 4)],
            vec![(2, 2), (4, 2)],
        ])
    );
    // Playing the full loop removes every rabbit: the cat is back home and has won.
    let mut p = multi;
    let mut list = cats_rabbits::MoveList::new();
    p.generate(&mut list);
    let mv = *list.iter().find(|m| m.path() == cw).unwrap();
    let u = p.make(mv);
    assert_eq!(p.to_position(), "7/7/2CC4/7/7/7/7 RABBIT");
    assert_eq!(p.outcome(), Some(Some(1)));
    p.unmake(mv, u);
    assert_eq!(p, multi);
}

#[test]
fn cats_rabbits_game_end() {
    // A rabbit reaching row 0 wins.
    let mut p = CatsRabbits::from_position("7/RR6/7/7/7/7/CC4RR1 RABBIT", false).unwrap();
    let mut list = cats_rabbits::MoveList::new();
    p.generate(&mut list);
    let mv = *list.iter().find(|m| m.path() == [(1, 0), (0, 0)]).unwrap();
    p.make(mv);
    assert_eq!(p.outcome(), Some(Some(0)));
    assert!(p.legal_moves().is_empty());
    // Cats that cannot move lose: a cat in the corner boxed in by rabbits it cannot jump.
    let p = CatsRabbits::from_position("CCRRRR4/RR6/RR6/7/7/7/7 CAT", true).unwrap();
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Some(0)));
    // (Rabbits can never be stuck: two or more rabbits always border at least three free
    // or cat cells, and there are only two cats.)
    // Fewer than two rabbits: CAT wins.
    let mut p = CatsRabbits::from_position("7/7/7/7/2RR4/2CC4/6RR CAT", false).unwrap();
    assert_eq!(p.outcome(), None);
    let mut list = cats_rabbits::MoveList::new();
    p.generate(&mut list);
    let mv = *list.iter().find(|m| m.path() == [(5, 2), (3, 2)]).unwrap();
    p.make(mv);
    assert_eq!(p.to_position(), "7/7/7/2CC4/7/7/6RR RABBIT");
    assert_eq!(p.outcome(), Some(Some(1)));
    // Rabbits never jump or capture; cats hop only onto empty cells.
    let p = CatsRabbits::from_position("7/7/7/2RR4/2CC4/2RR4/2RR4 RABBIT", false).unwrap();
    assert!(p.legal_moves().iter().all(|m| m.len() == 2));
    let p = CatsRabbits::from_position("7/7/7/2RR4/2CC4/2RR4/2RR4 CAT", false).unwrap();
    assert!(has(&p.legal_moves(), &[(4, 2), (2, 2)]));
    assert!(!has(&p.legal_moves(), &[(4, 2), (6, 2)]));
}

// ---------------------------------------------------------------- playouts

#[test]
fn playouts_are_deterministic_and_restore() {
    for v in [Variant::Standard, Variant::Simplified] {
        let mut j = Jungle::start(v);
        let before = j;
        for seed in 0..20 {
            let mut r1 = Lcg(seed);
            let mut r2 = Lcg(seed);
            let x = j.playout(&mut |n| r1.pick(n), 2000);
            let y = j.playout(&mut |n| r2.pick(n), 2000);
            assert_eq!(x, y);
            assert_eq!(j, before);
            assert!(x.capped || x.winner.is_some() || v == Variant::Simplified);
        }
        let capped = j.playout(&mut |_| 0, 3);
        assert_eq!(
            (capped.plies, capped.winner, capped.capped),
            (3, None, true)
        );
    }
    for multi in [false, true] {
        let mut p = CatsRabbits::start(multi);
        let before = p;
        for seed in 0..50 {
            let mut r1 = Lcg(seed);
            let mut r2 = Lcg(seed);
            let x = p.playout(&mut |n| r1.pick(n), 1000);
            let y = p.playout(&mut |n| r2.pick(n), 1000);
            assert_eq!(x, y);
            assert_eq!(p, before);
            assert!(x.capped || x.winner.is_some());
        }
    }
}
