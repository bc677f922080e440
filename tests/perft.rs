//! Perft counts from `tests/data/perft.txt`, for every shipped pack; to depth 5 from the
//! start, the hand-written engine of `bench/yardstick` for the game must count the same.

mod common;

use ply_kernel::Position;

#[test]
fn perft_counts_match_the_data_file() {
    let text = std::fs::read_to_string(common::root().join("tests/data/perft.txt")).unwrap();
    let (mut checked, mut natives) = (0, 0);
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (pack, rest) = line.split_once(char::is_whitespace).unwrap();
        let rest = rest.trim_start();
        let (options, rest) = rest.split_once(char::is_whitespace).unwrap();
        let rest = rest.trim_start();
        let (position, rest) = if let Some(quoted) = rest.strip_prefix('"') {
            let (p, r) = quoted.split_once('"').unwrap();
            (Some(p), r.trim_start())
        } else {
            let (p, r) = rest.split_once(char::is_whitespace).unwrap();
            assert_eq!(p, "start");
            (None, r.trim_start())
        };
        let mut nums = rest.split_whitespace().map(|n| n.parse::<u64>().unwrap());
        let (depth, want) = (nums.next().unwrap() as u32, nums.next().unwrap());
        let set: Vec<(&str, &str)> = if options == "-" {
            Vec::new()
        } else {
            options
                .split(',')
                .map(|o| o.split_once('=').unwrap())
                .collect()
        };
        let rules = common::pack(pack, &set);
        let flags: Vec<(String, bool)> = set
            .iter()
            .map(|(a, b)| (a.to_string(), *b == "true"))
            .collect();
        if let (None, true, Some(mut native)) = (
            position,
            depth <= 5,
            ply_yardstick::native::for_game(rules.core().name(), &flags),
        ) {
            assert_eq!(native.perft(depth), want, "native: {line}");
            natives += 1;
        }
        let mut pos = match position {
            Some(p) => Position::from_position_string(rules, p).unwrap(),
            None => Position::start(rules),
        };
        let before = pos.to_position_string();
        assert_eq!(pos.perft(depth).unwrap(), want, "{line}");
        assert_eq!(
            pos.to_position_string(),
            before,
            "perft must restore the position: {line}"
        );
        if depth <= 5 {
            assert_eq!(pos.perft_bulk(depth).unwrap(), want, "bulk: {line}");
        }
        checked += 1;
    }
    assert!(checked >= 24);
    // Jungle, simplified Jungle, and Cats and Rabbits in both hop modes, depths 1 to 5.
    assert_eq!(natives, 20);
}
