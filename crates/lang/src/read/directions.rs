//! Direction words: the compass, and the words relative to each player's forward direction.

use ply_kernel::{Dir, DirSet, PLAYERS};

/// Every word a move pattern accepts as a direction.
pub(super) const DIRECTION_WORDS: &[&str] = &[
    "orthogonal",
    "diagonal",
    "all",
    "forward",
    "backward",
    "left",
    "right",
    "sideways",
    "forward_left",
    "forward_right",
    "backward_left",
    "backward_right",
    "forward_diagonal",
    "backward_diagonal",
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "n",
    "s",
    "e",
    "w",
    "ne",
    "nw",
    "se",
    "sw",
    "up",
    "down",
];

/// The compass direction a word means (`up` is north).
pub(super) fn compass(s: &str) -> Option<Dir> {
    Some(match s {
        "n" | "north" | "up" => Dir::N,
        "ne" | "northeast" => Dir::NE,
        "e" | "east" => Dir::E,
        "se" | "southeast" => Dir::SE,
        "s" | "south" | "down" => Dir::S,
        "sw" | "southwest" => Dir::SW,
        "w" | "west" => Dir::W,
        "nw" | "northwest" => Dir::NW,
        _ => return None,
    })
}

/// The absolute directions a direction word means, for each player.
pub(super) fn directions(
    word: &str,
    forward: &Option<[Dir; PLAYERS]>,
) -> Result<[DirSet; PLAYERS], String> {
    let set = |dirs: &[Dir]| dirs.iter().fold(DirSet::default(), |s, d| s.with(*d));
    let abs = |dirs: &[Dir]| Ok([set(dirs), set(dirs)]);
    match word {
        "orthogonal" => return abs(&[Dir::N, Dir::E, Dir::S, Dir::W]),
        "diagonal" => return abs(&[Dir::NE, Dir::SE, Dir::SW, Dir::NW]),
        "all" => return abs(&Dir::ALL),
        _ => {}
    }
    if let Some(d) = compass(word) {
        return abs(&[d]);
    }
    // Relative directions: eighths of a turn clockwise from forward.
    let turns: &[u8] = match word {
        "forward" => &[0],
        "backward" => &[4],
        "left" => &[6],
        "right" => &[2],
        "sideways" => &[2, 6],
        "forward_left" => &[7],
        "forward_right" => &[1],
        "backward_left" => &[5],
        "backward_right" => &[3],
        "forward_diagonal" => &[1, 7],
        "backward_diagonal" => &[3, 5],
        _ => return Err(format!("`{word}` is not a direction")),
    };
    let Some(fwd) = forward else {
        return Err(format!(
            "`{word}` is relative to each player's forward direction, but [game] declares no `forward`"
        ));
    };
    let mut out = [DirSet::default(); PLAYERS];
    for p in 0..PLAYERS {
        out[p] = set(&turns.iter().map(|t| fwd[p].rotate(*t)).collect::<Vec<_>>());
    }
    Ok(out)
}

/// The compass words (and sets of them) an expression accepts: the direction words that do
/// not depend on a player's forward direction.
pub(crate) fn compass_words() -> impl Iterator<Item = &'static str> {
    DIRECTION_WORDS
        .iter()
        .copied()
        .filter(|w| compass_set(w).is_some())
}

/// The directions a compass word or set of words means, the same for both players; `None`
/// for a relative or unknown word.
pub(crate) fn compass_set(word: &str) -> Option<DirSet> {
    directions(word, &None).ok().map(|d| d[0])
}
