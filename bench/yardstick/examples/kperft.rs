//! Perft for profiling (`perf record`, `valgrind --tool=callgrind`):
//! `kperft PACK DEPTH [name=value ...]` runs the kernel on a pack (`playouts=N` instead of
//! DEPTH: N seeded random playouts);
//! `kperft native jungle|jungle-simplified|cats|cats-multi DEPTH|playouts=N` runs a
//! hand-written engine.

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
        match args[2].strip_prefix("playouts=") {
            Some(n) => (0..n.parse::<u32>().unwrap())
                .map(|_| engine.playout(&mut pick, 1000).plies as u64)
                .sum(),
            None => engine.perft(args[2].parse().unwrap()),
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
            Some(n) => (0..n.parse::<u32>().unwrap())
                .map(|_| pos.playout(&mut pick, 1000).plies as u64)
                .sum(),
            None => pos.perft(args[1].parse().unwrap()),
        }
    };
    println!("{n} in {:?}", t.elapsed());
}
