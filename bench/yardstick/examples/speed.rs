//! Prints perft and playout timings: `cargo run --release --example speed`.

use ply_yardstick::Playout;
use ply_yardstick::cats_rabbits::CatsRabbits;
use ply_yardstick::jungle::{Jungle, Variant};
use std::time::Instant;

fn report(name: &str, depth: u32, f: impl FnOnce() -> u64) {
    let t = Instant::now();
    let n = f();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name:<34} depth {depth}: {n:>12} leaves in {s:>7.3} s = {:>6.1} M leaves/s",
        n as f64 / s / 1e6
    );
}

/// Runs `games` playouts and prints games/s and plies/s.
fn playouts(
    name: &str,
    games: u32,
    mut run: impl FnMut(&mut dyn FnMut(usize) -> usize) -> Playout,
) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut pick = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (((state >> 32) * n as u64) >> 32) as usize
    };
    let t = Instant::now();
    let (mut plies, mut capped) = (0u64, 0u32);
    for _ in 0..games {
        let p = run(&mut pick);
        plies += p.plies as u64;
        capped += p.capped as u32;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name:<34} {games} playouts ({capped} capped), {:.1} plies avg: {:>9.0} playouts/s, {:>6.1} M plies/s",
        plies as f64 / games as f64,
        games as f64 / s,
        plies as f64 / s / 1e6
    );
}

fn main() {
    for variant in [Variant::Standard, Variant::Simplified] {
        let mut j = Jungle::start(variant);
        for depth in [5, 6] {
            report(&format!("jungle {variant:?} perft"), depth, || {
                j.perft(depth)
            });
            report(&format!("jungle {variant:?} perft_bulk"), depth, || {
                j.perft_bulk(depth)
            });
        }
        playouts(&format!("jungle {variant:?}"), 20_000, |pick| {
            j.playout(&mut |n| pick(n), 10_000)
        });
    }
    for multi_hop in [false, true] {
        let mut p = CatsRabbits::start(multi_hop);
        for depth in [5, 8] {
            report(
                &format!("cats_rabbits multi={multi_hop} perft"),
                depth,
                || p.perft(depth),
            );
            report(
                &format!("cats_rabbits multi={multi_hop} perft_bulk"),
                depth,
                || p.perft_bulk(depth),
            );
        }
        playouts(
            &format!("cats_rabbits multi={multi_hop}"),
            200_000,
            |pick| p.playout(&mut |n| pick(n), 10_000),
        );
    }
}
