//! Perft for profiling (`perf record`, `valgrind --tool=callgrind`):
//! `kperft PACK DEPTH [name=value ...]` runs the kernel on a pack (`playouts=N` instead of
//! DEPTH: N seeded random playouts);
//! `kperft native jungle|jungle-simplified|cats|cats-multi DEPTH` runs a hand-written engine.
use ply_yardstick::cats_rabbits::CatsRabbits;
use ply_yardstick::jungle::{Jungle, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let t = std::time::Instant::now();
    let n = if args[0] == "native" {
        let depth = args[2].parse().unwrap();
        match args[1].as_str() {
            "jungle" => Jungle::start(Variant::Standard).perft(depth),
            "jungle-simplified" => Jungle::start(Variant::Simplified).perft(depth),
            "cats" => CatsRabbits::start(false).perft(depth),
            _ => CatsRabbits::start(true).perft(depth),
        }
    } else {
        let set: Vec<(String, String)> = args[2..]
            .iter()
            .filter_map(|s| {
                s.split_once('=')
                    .map(|(a, b)| (a.to_string(), b.to_string()))
            })
            .collect();
        let rules = ply_lang::load(&args[0], &set).unwrap().rules;
        let mut pos = ply_kernel::Position::start(rules);
        match args[1].strip_prefix("playouts=") {
            // `kperft PACK playouts=N`: N seeded random playouts; prints the plies played.
            Some(n) => {
                let mut state = 0x9E37_79B9_7F4A_7C15u64;
                let mut pick = |k: usize| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state % k as u64) as usize
                };
                (0..n.parse::<u32>().unwrap())
                    .map(|_| pos.playout(&mut pick, 1000).plies as u64)
                    .sum()
            }
            None => pos.perft(args[1].parse().unwrap()),
        }
    };
    println!("{n} in {:?}", t.elapsed());
}
