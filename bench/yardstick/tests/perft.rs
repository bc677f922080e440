//! Perft counts from the start positions, for every engine and variant.

use ply_yardstick::cats_rabbits::CatsRabbits;
use ply_yardstick::jungle::{Jungle, Variant};

const JUNGLE_STANDARD: [u64; 5] = [24, 576, 12240, 260099, 5111620];
const CATS_RABBITS: [u64; 5] = [7, 42, 456, 2584, 30158];

#[test]
fn jungle_standard_perft() {
    let mut j = Jungle::start(Variant::Standard);
    let before = j;
    for (d, &n) in JUNGLE_STANDARD.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(j.perft(depth), n, "perft({depth})");
        assert_eq!(j.perft_bulk(depth), n, "perft_bulk({depth})");
    }
    assert_eq!(j, before, "perft restores the position");
}

#[test]
fn jungle_simplified_perft() {
    // No capture is possible within five plies of the start, so the variants agree.
    let mut j = Jungle::start(Variant::Simplified);
    for (d, &n) in JUNGLE_STANDARD.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(j.perft(depth), n, "perft({depth})");
        assert_eq!(j.perft_bulk(depth), n, "perft_bulk({depth})");
    }
}

#[cfg(not(debug_assertions))]
#[test]
fn jungle_standard_perft_6_bulk() {
    assert_eq!(Jungle::start(Variant::Standard).perft_bulk(6), 100_453_636);
}

#[test]
fn cats_rabbits_perft() {
    for multi_hop in [false, true] {
        let mut p = CatsRabbits::start(multi_hop);
        let before = p;
        for (d, &n) in CATS_RABBITS.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(p.perft(depth), n, "multi_hop={multi_hop} perft({depth})");
            assert_eq!(
                p.perft_bulk(depth),
                n,
                "multi_hop={multi_hop} perft_bulk({depth})"
            );
        }
        assert_eq!(p, before, "perft restores the position");
    }
}
