//! The pack-driven kernel against the hand-written engines of `bench/yardstick`: in seeded
//! random games, every position must have the same legal moves (as paths of cells) and the
//! same outcome in both. The position is handed over as the kernel's position string, so the
//! string is checked too.

mod common;

use ply_kernel::{Outcome, Position};
use ply_yardstick::{Path, cats_rabbits::CatsRabbits, jungle};

use common::Rng;

fn our_moves(pos: &Position) -> Vec<Path> {
    let g = pos.rules().geometry();
    let mut out: Vec<Path> = pos
        .legal_moves()
        .unwrap()
        .iter()
        .map(|m| {
            m.path(pos.rules().geometry())
                .iter()
                .map(|c| (g.row(*c) as u8, g.col(*c) as u8))
                .collect()
        })
        .collect();
    out.sort();
    out
}

fn compare(
    pack: &str,
    set: &[(&str, &str)],
    games: usize,
    native: impl Fn(&str) -> (Vec<Path>, Option<Option<u8>>),
) -> usize {
    let rules = common::pack(pack, set);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for game in 0..games {
        let mut pos = Position::start(rules.clone());
        for ply in 0..400 {
            let text = pos.to_position_string();
            let (mut theirs, their_outcome) = native(&text);
            theirs.sort();
            let ours = our_moves(&pos);
            assert_eq!(ours, theirs, "{pack} game {game} ply {ply}: {text}");
            let our_outcome = pos.outcome().map(|o| match o {
                Outcome::Win(p) => Some(p.index() as u8),
                Outcome::Draw => None,
            });
            assert_eq!(
                our_outcome, their_outcome,
                "{pack} game {game} ply {ply}: {text}"
            );
            positions += 1;
            let moves = pos.legal_moves().unwrap();
            if moves.is_empty() {
                break;
            }
            let m = moves.get(rng.below(moves.len())).unwrap();
            let _ = pos.make_unchecked(m);
        }
    }
    positions
}

#[test]
fn jungle_agrees_with_the_hand_written_engine() {
    for (pack, variant) in [
        ("jungle.toml", jungle::Variant::Standard),
        ("jungle_simplified.toml", jungle::Variant::Simplified),
    ] {
        let n = compare(pack, &[], 60, |text| {
            let j = jungle::Jungle::from_position(text, variant).unwrap();
            (j.legal_moves(), j.outcome())
        });
        assert!(n > 5_000, "{pack}: only {n} positions");
    }
}

#[test]
fn cats_and_rabbits_agree_with_the_hand_written_engine() {
    for multi in [false, true] {
        let set: &[(&str, &str)] = if multi { &[("multi_hop", "true")] } else { &[] };
        let n = compare("cats_rabbits.toml", set, 400, |text| {
            let c = CatsRabbits::from_position(text, multi).unwrap();
            (c.legal_moves(), c.outcome())
        });
        assert!(n > 5_000, "multi_hop={multi}: only {n} positions");
    }
}

#[test]
fn cats_and_rabbits_agree_on_random_dense_positions() {
    // Random games rarely set up hop chains; random crowded boards do.
    for multi in [false, true] {
        let set: &[(&str, &str)] = if multi { &[("multi_hop", "true")] } else { &[] };
        let rules = common::pack("cats_rabbits.toml", set);
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut chains = 0;
        for _ in 0..20_000 {
            let names: Vec<String> = (0..49)
                .map(|i| format!("{}{}", (b'a' + (i % 7) as u8) as char, 1 + i / 7))
                .collect();
            let mut free: Vec<usize> = (0..49).collect();
            let rabbits = 2 + rng.below(5);
            let cats = 1 + rng.below(2);
            let mut pieces = Vec::new();
            for k in 0..rabbits + cats {
                let i = free.swap_remove(rng.below(free.len()));
                // Rabbits off the burrow row, so that the game is not already over.
                if k < rabbits && i >= 42 {
                    continue;
                }
                pieces.push((names[i].as_str(), if k < rabbits { "RR" } else { "CC" }));
            }
            if pieces.iter().filter(|p| p.1 == "RR").count() < 2 {
                continue; // already decided: the engines read the result off the board
            }
            let side = if rng.below(2) == 0 { "RABBIT" } else { "CAT" };
            let text = common::fen(&rules, &pieces, side);
            let pos = Position::from_position_string(rules.clone(), &text).unwrap();
            let mut theirs = CatsRabbits::from_position(&text, multi)
                .unwrap()
                .legal_moves();
            theirs.sort();
            let ours = our_moves(&pos);
            chains += ours.iter().filter(|p| p.len() > 2).count();
            assert_eq!(ours, theirs, "multi_hop={multi}: {text}");
        }
        if multi {
            assert!(chains > 100, "only {chains} chains seen");
        }
    }
}

#[test]
fn cats_and_rabbits_playouts_follow_the_hand_written_engine_move_for_move() {
    // Both list a side's moves piece by piece in cell order, steps then hops, so the same
    // random choices play the same games: this checks the buffer that perft and playouts
    // generate into, and the copy that playouts restore from, game after game.
    for multi in [false, true] {
        let set: &[(&str, &str)] = if multi { &[("multi_hop", "true")] } else { &[] };
        let mut ours = Position::start(common::pack("cats_rabbits.toml", set));
        let start = ours.clone();
        let mut theirs = CatsRabbits::start(multi);
        let (mut a, mut b) = (Rng(11), Rng(11));
        for game in 0..300 {
            let o = ours.playout(&mut |n| a.below(n), 1000).unwrap();
            let t = theirs.playout(&mut |n| b.below(n), 1000);
            let winner = match o.outcome {
                Some(Outcome::Win(p)) => Some(p.index() as u8),
                _ => None,
            };
            assert_eq!(
                (o.plies, winner, o.capped),
                (t.plies, t.winner, t.capped),
                "multi_hop={multi} game {game}"
            );
            assert_eq!(ours, start, "multi_hop={multi} game {game}: not restored");
        }
    }
}
