//! Xiangqi, reference rules.
//!
//! - 9 files (a..i) by 10 ranks (1..10), cell index `rank * 9 + file` with rank 0 for rank 1
//!   (a1 = 0, i10 = 89). Red (owner 0) is at the bottom and moves first; black (owner 1) at
//!   the top. The river lies between ranks 5 and 6. The palaces are files d-f of ranks 1-3
//!   (red) and 8-10 (black).
//! - Kinds: `K` general, `A` advisor, `B` elephant, `N` horse, `R` chariot, `C` cannon,
//!   `P` soldier. A move may end on an empty cell or an enemy piece (capturing it).
//! - General: one step orthogonally, inside its palace. Advisor: one step diagonally, inside
//!   its palace. Elephant: two steps diagonally, never across the river, not when the cell
//!   between (the eye) is occupied. Horse: one step orthogonally then one diagonally outward,
//!   not when the orthogonal neighbour (the leg) is occupied. Chariot: slides orthogonally
//!   over empty cells. Cannon: slides like a chariot onto empty cells, and captures only by
//!   jumping exactly one piece (the screen) of either side along the line. Soldier: one step
//!   forward; after crossing the river also one step sideways; never backward.
//! - A move is illegal when it leaves the mover's general attacked by an enemy piece or the
//!   two generals on one file with nothing between them. There is no general capture along
//!   the open file: such a position never arises.
//! - `outcome`: a side to move with no legal move loses (checkmate and stalemate alike).
//!   Perpetual check and chase rules are not judged here.

pub use super::Outcome;

pub const FILES: usize = 9;
pub const RANKS: usize = 10;
pub const CELLS: usize = FILES * RANKS;

/// What is on a cell: `(owner, kind)`.
pub type Cell = Option<(u8, char)>;

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: [Cell; CELLS],
    pub to_move: u8,
}

/// A move from a cell to a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: usize,
    pub to: usize,
}

impl Move {
    /// `"h3-e3"`.
    pub fn notation(&self) -> String {
        format!("{}-{}", cell_name(self.from), cell_name(self.to))
    }
}

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

pub fn start() -> Board {
    from_fen(START_FEN).expect("the start position")
}

fn file(i: usize) -> i32 {
    (i % FILES) as i32
}

fn rank(i: usize) -> i32 {
    (i / FILES) as i32
}

/// The cell `(df, dr)` away from `i`, if it is on the board.
fn offset(i: usize, df: i32, dr: i32) -> Option<usize> {
    let (f, r) = (file(i) + df, rank(i) + dr);
    if (0..FILES as i32).contains(&f) && (0..RANKS as i32).contains(&r) {
        Some((r * FILES as i32 + f) as usize)
    } else {
        None
    }
}

/// `"e1"`, `"a10"`.
pub fn cell_name(i: usize) -> String {
    assert!(i < CELLS, "no cell {i}");
    format!("{}{}", (b'a' + (i % FILES) as u8) as char, i / FILES + 1)
}

/// The index of `"e1"` / `"a10"`; `None` for anything else.
pub fn cell_index(name: &str) -> Option<usize> {
    let mut chars = name.chars();
    let f = chars.next()?;
    let digits = chars.as_str();
    if !('a'..='i').contains(&f)
        || digits.is_empty()
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let r: usize = digits.parse().ok()?;
    if !(1..=RANKS).contains(&r) {
        return None;
    }
    Some((r - 1) * FILES + (f as u8 - b'a') as usize)
}

/// Whether `i` is in `side`'s palace.
fn in_palace(side: u8, i: usize) -> bool {
    let ranks = if side == 0 { 0..=2 } else { 7..=9 };
    (3..=5).contains(&file(i)) && ranks.contains(&rank(i))
}

/// Whether `i` is on `side`'s half of the board (its side of the river).
fn own_half(side: u8, i: usize) -> bool {
    if side == 0 {
        rank(i) <= 4
    } else {
        rank(i) >= 5
    }
}

/// The rank step of `side`'s soldiers.
fn forward(side: u8) -> i32 {
    if side == 0 { 1 } else { -1 }
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

// ---- FEN ----

/// Reads a xiangqi FEN: the board from rank 10 down to rank 1, then the side to move
/// (`w` or `r` for red, `b` for black); the fields after that (`- - 0 1`) are optional and
/// not read. Letters: `k a b n r c p`, with `h` for the horse and `e` for the elephant;
/// uppercase is red. Refused: a malformed field, a rank that is not 9 cells, not exactly one
/// general a side, or a general outside its palace.
pub fn from_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(2..=6).contains(&fields.len()) {
        return Err(format!("a FEN has 2 to 6 fields, not {}", fields.len()));
    }
    let mut cells: [Cell; CELLS] = [None; CELLS];
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != RANKS {
        return Err(format!("{} ranks instead of {RANKS}", rows.len()));
    }
    for (n, row) in rows.iter().enumerate() {
        let r = RANKS - 1 - n;
        let mut f = 0usize;
        let mut last_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=9).contains(&d) || last_digit {
                    return Err(format!("bad empty run in rank {}: {row:?}", r + 1));
                }
                f += d as usize;
                last_digit = true;
            } else {
                let kind = match c.to_ascii_uppercase() {
                    'H' => 'N',
                    'E' => 'B',
                    k @ ('K' | 'A' | 'B' | 'N' | 'R' | 'C' | 'P') => k,
                    _ => return Err(format!("bad piece letter {c:?}")),
                };
                if f >= FILES {
                    return Err(format!("rank {} is longer than 9 cells", r + 1));
                }
                let owner = if c.is_ascii_uppercase() { 0 } else { 1 };
                cells[r * FILES + f] = Some((owner, kind));
                f += 1;
                last_digit = false;
            }
            if f > FILES {
                return Err(format!("rank {} is longer than 9 cells", r + 1));
            }
        }
        if f != FILES {
            return Err(format!("rank {} has {f} cells, not 9", r + 1));
        }
    }
    for side in 0..2 {
        let generals: Vec<usize> = (0..CELLS)
            .filter(|&i| cells[i] == Some((side, 'K')))
            .collect();
        if generals.len() != 1 {
            return Err(format!("side {side} has {} generals", generals.len()));
        }
        if !in_palace(side, generals[0]) {
            return Err(format!("side {side}'s general is outside its palace"));
        }
    }
    let to_move = match fields[1] {
        "w" | "r" => 0,
        "b" => 1,
        s => return Err(format!("bad side to move {s:?}")),
    };
    Ok(Board { cells, to_move })
}

impl Board {
    /// The FEN of the position (`w` for red), ending `- - 0 1`.
    // `&self` although `Board` is `Copy`: the interface the differential tests use.
    #[allow(clippy::wrong_self_convention)]
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for r in (0..RANKS).rev() {
            let mut empty = 0;
            for f in 0..FILES {
                match self.cells[r * FILES + f] {
                    None => empty += 1,
                    Some((owner, kind)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(if owner == 0 {
                            kind
                        } else {
                            kind.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.to_move == 0 { " w" } else { " b" });
        s.push_str(" - - 0 1");
        s
    }
}

// ---- moves ----

/// The pieces strictly between `a` and `b`, which are on one file or one rank.
fn between_count(b: &Board, from: usize, to: usize) -> usize {
    let (df, dr) = (
        (file(to) - file(from)).signum(),
        (rank(to) - rank(from)).signum(),
    );
    let mut n = 0;
    let mut at = offset(from, df, dr).expect("on the board");
    while at != to {
        if b.cells[at].is_some() {
            n += 1;
        }
        at = offset(at, df, dr).expect("on the board");
    }
    n
}

/// Whether the piece on `from` may go to `to` by its own rule (whatever is on `to`, except
/// that the cannon's rule depends on it: no screen onto an empty cell, exactly one screen
/// onto an occupied one). This is the rule stated cell by cell; `pseudo_moves` states it by
/// walking, and a test checks that the two agree.
pub fn reaches(b: &Board, from: usize, to: usize) -> bool {
    let Some((side, kind)) = b.cells[from] else {
        return false;
    };
    if from == to {
        return false;
    }
    let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
    let same_line = df == 0 || dr == 0;
    match kind {
        'K' => df.abs() + dr.abs() == 1 && in_palace(side, to),
        'A' => df.abs() == 1 && dr.abs() == 1 && in_palace(side, to),
        'B' => {
            df.abs() == 2
                && dr.abs() == 2
                && own_half(side, to)
                && b.cells[offset(from, df / 2, dr / 2).expect("inside")].is_none()
        }
        'N' => {
            ((df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1))
                && b.cells[offset(from, df / 2, dr / 2).expect("inside")].is_none()
        }
        'R' => same_line && between_count(b, from, to) == 0,
        'C' => same_line && between_count(b, from, to) == if b.cells[to].is_some() { 1 } else { 0 },
        'P' => {
            (df == 0 && dr == forward(side)) || (dr == 0 && df.abs() == 1 && !own_half(side, from))
        }
        _ => false,
    }
}

/// The moves of the piece on `from` by its rule, before the test of the mover's general.
pub fn piece_moves(b: &Board, from: usize) -> Vec<Move> {
    let mut out = Vec::new();
    let Some((me, kind)) = b.cells[from] else {
        return out;
    };
    let free = |to: usize| !matches!(b.cells[to], Some((o, _)) if o == me);
    let mut add = |to: usize| out.push(Move { from, to });
    match kind {
        'K' => {
            for (df, dr) in ORTHO {
                if let Some(to) = offset(from, df, dr)
                    && in_palace(me, to)
                    && free(to)
                {
                    add(to);
                }
            }
        }
        'A' => {
            for (df, dr) in DIAG {
                if let Some(to) = offset(from, df, dr)
                    && in_palace(me, to)
                    && free(to)
                {
                    add(to);
                }
            }
        }
        'B' => {
            for (df, dr) in DIAG {
                if let Some(eye) = offset(from, df, dr)
                    && let Some(to) = offset(from, 2 * df, 2 * dr)
                    && b.cells[eye].is_none()
                    && own_half(me, to)
                    && free(to)
                {
                    add(to);
                }
            }
        }
        'N' => {
            // The leg first: one orthogonal step, then the two outward diagonals.
            for (lf, lr) in ORTHO {
                let Some(leg) = offset(from, lf, lr) else {
                    continue;
                };
                if b.cells[leg].is_some() {
                    continue;
                }
                let sides = if lf == 0 {
                    [(1, 0), (-1, 0)]
                } else {
                    [(0, 1), (0, -1)]
                };
                for (sf, sr) in sides {
                    if let Some(to) = offset(leg, lf + sf, lr + sr)
                        && free(to)
                    {
                        add(to);
                    }
                }
            }
        }
        'R' => {
            for (df, dr) in ORTHO {
                let mut at = from;
                while let Some(to) = offset(at, df, dr) {
                    if b.cells[to].is_some() {
                        if free(to) {
                            add(to);
                        }
                        break;
                    }
                    add(to);
                    at = to;
                }
            }
        }
        'C' => {
            for (df, dr) in ORTHO {
                let mut at = from;
                let mut screened = false;
                while let Some(to) = offset(at, df, dr) {
                    if !screened {
                        if b.cells[to].is_some() {
                            screened = true;
                        } else {
                            add(to);
                        }
                    } else if b.cells[to].is_some() {
                        if free(to) {
                            add(to);
                        }
                        break;
                    }
                    at = to;
                }
            }
        }
        'P' => {
            let mut steps = vec![(0, forward(me))];
            if !own_half(me, from) {
                steps.extend([(1, 0), (-1, 0)]);
            }
            for (df, dr) in steps {
                if let Some(to) = offset(from, df, dr)
                    && free(to)
                {
                    add(to);
                }
            }
        }
        _ => {}
    }
    out
}

/// The cell of `side`'s general.
fn general_cell(b: &Board, side: u8) -> Option<usize> {
    (0..CELLS).find(|&i| b.cells[i] == Some((side, 'K')))
}

/// Whether the two generals stand on one file with nothing between them.
pub fn generals_facing(b: &Board) -> bool {
    match (general_cell(b, 0), general_cell(b, 1)) {
        (Some(r), Some(k)) => file(r) == file(k) && between_count(b, r, k) == 0,
        _ => false,
    }
}

/// Whether `side`'s general is attacked by an enemy piece, or faces the other general
/// (false when it has no general).
pub fn in_check(b: &Board, side: u8) -> bool {
    let Some(g) = general_cell(b, side) else {
        return false;
    };
    generals_facing(b)
        || (0..CELLS).any(|i| matches!(b.cells[i], Some((o, _)) if o != side) && reaches(b, i, g))
}

/// The legal moves of the side to move.
pub fn legal_moves(b: &Board) -> Vec<Move> {
    let me = b.to_move;
    (0..CELLS)
        .filter(|&i| matches!(b.cells[i], Some((o, _)) if o == me))
        .flat_map(|i| piece_moves(b, i))
        .filter(|m| !in_check(&play(b, m), me))
        .collect()
}

/// The position after `m` (which must be a move of the side to move).
pub fn play(b: &Board, m: &Move) -> Board {
    let mut n = *b;
    n.cells[m.to] = n.cells[m.from].take();
    n.to_move = 1 - b.to_move;
    n
}

/// The end of the game at `b`: the side to move loses when it has no legal move.
pub fn outcome(b: &Board) -> Option<Outcome> {
    if legal_moves(b).is_empty() {
        Some(Outcome::Win(1 - b.to_move))
    } else {
        None
    }
}

/// The number of move sequences of `depth` moves from `b`.
pub fn perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(b);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&play(b, m), depth - 1)).sum()
}

/// The legal move written `"h3-e3"`, if there is one.
pub fn find_move(b: &Board, notation: &str) -> Option<Move> {
    legal_moves(b)
        .into_iter()
        .find(|m| m.notation() == notation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_forty_four_moves() {
        assert_eq!(legal_moves(&start()).len(), 44);
        assert_eq!(start().to_fen(), START_FEN);
    }

    #[test]
    fn cell_names() {
        assert_eq!(cell_name(0), "a1");
        assert_eq!(cell_name(89), "i10");
        assert_eq!(cell_index("a10"), Some(81));
        assert_eq!(cell_index("e1"), Some(4));
        assert_eq!(cell_index("a11"), None);
        assert_eq!(cell_index("a0"), None);
        assert_eq!(cell_index("a01"), None);
        assert_eq!(cell_index("j1"), None);
    }
}
