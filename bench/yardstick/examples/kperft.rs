//! Runs the kernel's perft on a pack, for profiling: `kperft PACK DEPTH [name=value ...]`.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let set: Vec<(String, String)> = args[2..]
        .iter()
        .filter_map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.to_string(), b.to_string()))
        })
        .collect();
    let rules = ply_lang::load(&args[0], &set).unwrap().rules;
    let mut pos = ply_kernel::Position::start(rules);
    let t = std::time::Instant::now();
    let n = pos.perft(args[1].parse().unwrap());
    println!("{n} in {:?}", t.elapsed());
}
