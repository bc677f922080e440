//! Perft for profiling (`perf record`, `valgrind --tool=callgrind`):
//! `kperft PACK DEPTH [name=value ...]` runs the kernel on a pack (`playouts=N` instead of
//! DEPTH: N seeded random playouts; `pairs=N`: make + unmake of every legal move of 2,000
//! positions sampled along random games, N times over);
//! `kperft native jungle|jungle-simplified|cats|cats-multi DEPTH|playouts=N|pairs=N` runs a
//! hand-written engine.

#[path = "../shared/sample.rs"]
mod sample;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let t = std::time::Instant::now();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut pick = move |k: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % k as u64) as usize
    };
    let n = if args[0] == "native" {
        let mut engine = ply_yardstick::native::for_game(
            match args[1].as_str() {
                "jungle" => "Jungle",
                "jungle-simplified" => "Jungle (simplified)",
                _ => "Cats and Rabbits",
            },
            &if args[1].starts_with("cats") {
                vec![("multi_hop".to_string(), args[1] == "cats-multi")]
            } else {
                vec![]
            },
        )
        .unwrap();
        if let Some(n) = args[2].strip_prefix("pairs=") {
            engine.sample(&mut pick, u32::MAX, 1000, SAMPLES);
            (0..n.parse::<u32>().unwrap())
                .map(|_| engine.make_unmake_all())
                .sum()
        } else {
            match args[2].strip_prefix("playouts=") {
                Some(n) => (0..n.parse::<u32>().unwrap())
                    .map(|_| engine.playout(&mut pick, 1000).plies as u64)
                    .sum(),
                None => engine.perft(args[2].parse().unwrap()),
            }
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
        if let Some(n) = args[1].strip_prefix("pairs=") {
            let mut samples = sample::sample(&pos, &mut pick, SAMPLES, 1000);
            let mut pairs = 0;
            for _ in 0..n.parse::<u32>().unwrap() {
                for (p, moves) in &mut samples {
                    for &m in moves.iter() {
                        let u = p.make_unchecked(m);
                        p.unmake_unchecked(m, std::hint::black_box(u));
                        pairs += 1;
                    }
                }
            }
            pairs
        } else {
            match args[1].strip_prefix("playouts=") {
                // `kperft PACK playouts=N`: N seeded random playouts; prints the plies played.
                Some(n) => (0..n.parse::<u32>().unwrap())
                    .map(|_| pos.playout(&mut pick, 1000).unwrap().plies as u64)
                    .sum(),
                None => pos.perft(args[1].parse().unwrap()).unwrap(),
            }
        }
    };
    println!("{n} in {:?}", t.elapsed());
}

/// Positions sampled for `pairs=N`.
const SAMPLES: usize = 2000;
