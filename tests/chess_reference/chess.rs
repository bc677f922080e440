//! Chess, reference rules.
//!
//! - 8 by 8, cell index `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56). White (owner 0) moves
//!   first. Kinds are the uppercase letters `K Q R B N P`.
//! - King one step any way; queen, rook, bishop slide over empty cells and may stop on an
//!   enemy piece (capturing it); knight jumps (1, 2).
//! - Pawn: one step forward to an empty cell; two from its start rank when both cells are
//!   empty; captures one step diagonally forward; en passant onto `ep` (the cell a pawn just
//!   skipped with a double step), taking that pawn; reaching the last rank it promotes to
//!   Q, R, B or N (four moves).
//! - Castling is the king's two-step move (e1-g1, e1-c1, e8-g8, e8-c8) and moves the rook
//!   too. It needs the right, the king on its cell and the rook on its corner, the cells
//!   between them empty, and the king not in check, not crossing an attacked cell and not
//!   landing on one.
//! - A move is legal when the mover's king is not attacked afterwards.
//! - `play` keeps the castling rights (lost when the king moves, when a rook moves from its
//!   corner or anything is captured on it), `ep` (set after every double step), the halfmove
//!   clock (reset by a pawn move or a capture) and the fullmove number (after black's move).
//! - `outcome`: no legal move is checkmate (the side to move loses) in check, stalemate (a
//!   draw) otherwise; then halfmove >= 100 is a draw, and so is insufficient material
//!   (kings alone, kings and bishops all on squares of one colour, or kings and a single
//!   knight). Repetition is not judged here.

pub use super::Outcome;

/// What is on a cell: `(owner, kind)`.
pub type Cell = Option<(u8, char)>;

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: [Cell; 64],
    pub to_move: u8,
    /// White king side, white queen side, black king side, black queen side.
    pub castling: [bool; 4],
    /// The cell a pawn skipped with a double step on the last move.
    pub ep: Option<usize>,
    pub halfmove: u32,
    pub fullmove: u32,
}

/// A move: castling is the king's move, en passant the pawn's move to the empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: usize,
    pub to: usize,
    pub promotion: Option<char>,
}

impl Move {
    /// `"e2-e4"`, `"e7-e8=Q"`, castling `"e1-g1"`.
    pub fn notation(&self) -> String {
        let mut s = format!("{}-{}", cell_name(self.from), cell_name(self.to));
        if let Some(p) = self.promotion {
            s.push('=');
            s.push(p.to_ascii_uppercase());
        }
        s
    }
}

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub fn start() -> Board {
    from_fen(START_FEN).expect("the start position")
}

fn file(i: usize) -> i32 {
    (i % 8) as i32
}

fn rank(i: usize) -> i32 {
    (i / 8) as i32
}

/// The cell `(df, dr)` away from `i`, if it is on the board.
fn offset(i: usize, df: i32, dr: i32) -> Option<usize> {
    let (f, r) = (file(i) + df, rank(i) + dr);
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// `"e4"`.
pub fn cell_name(i: usize) -> String {
    assert!(i < 64, "no cell {i}");
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}

/// The index of `"e4"`; `None` for anything else.
pub fn cell_index(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize)
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The rank step of `side`'s pawns.
fn forward(side: u8) -> i32 {
    if side == 0 { 1 } else { -1 }
}

/// A castling wing, as files of the home rank: where the king goes, the rook's corner, the
/// cells that must be empty, the cells the king crosses or lands on (not to be attacked).
struct Wing {
    king_to: usize,
    corner: usize,
    empty: &'static [usize],
    safe: &'static [usize],
}

const WINGS: [Wing; 2] = [
    Wing {
        king_to: 6,
        corner: 7,
        empty: &[5, 6],
        safe: &[5, 6],
    },
    Wing {
        king_to: 2,
        corner: 0,
        empty: &[1, 2, 3],
        safe: &[3, 2],
    },
];

/// The corner cell of each castling right, in the order of `Board::castling`.
const CORNERS: [usize; 4] = [7, 0, 63, 56];

// ---- FEN ----

/// Reads a FEN. The last two fields (halfmove clock, fullmove number) may be left out
/// (0 and 1). Refused: a malformed field, a rank that is not 8 cells, not exactly one king a
/// side, a pawn on the first or last rank, an en passant cell that no double step can have
/// skipped (wrong rank, not empty, no enemy pawn in front of it).
pub fn from_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(format!("a FEN has 4 to 6 fields, not {}", fields.len()));
    }
    let mut cells: [Cell; 64] = [None; 64];
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 8 {
        return Err(format!("{} ranks instead of 8", rows.len()));
    }
    for (n, row) in rows.iter().enumerate() {
        let r = 7 - n;
        let mut f = 0usize;
        let mut last_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) || last_digit {
                    return Err(format!("bad empty run in rank {}: {row:?}", r + 1));
                }
                f += d as usize;
                last_digit = true;
            } else {
                let kind = c.to_ascii_uppercase();
                if !"KQRBNP".contains(kind) {
                    return Err(format!("bad piece letter {c:?}"));
                }
                if f >= 8 {
                    return Err(format!("rank {} is longer than 8 cells", r + 1));
                }
                let owner = if c.is_ascii_uppercase() { 0 } else { 1 };
                cells[r * 8 + f] = Some((owner, kind));
                f += 1;
                last_digit = false;
            }
            if f > 8 {
                return Err(format!("rank {} is longer than 8 cells", r + 1));
            }
        }
        if f != 8 {
            return Err(format!("rank {} has {f} cells, not 8", r + 1));
        }
    }
    for side in 0..2 {
        let kings = cells.iter().filter(|c| **c == Some((side, 'K'))).count();
        if kings != 1 {
            return Err(format!("side {side} has {kings} kings"));
        }
    }
    if (0..8)
        .chain(56..64)
        .any(|i| matches!(cells[i], Some((_, 'P'))))
    {
        return Err("a pawn on the first or last rank".into());
    }
    let to_move = match fields[1] {
        "w" => 0,
        "b" => 1,
        s => return Err(format!("bad side to move {s:?}")),
    };
    let mut castling = [false; 4];
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let k = match c {
                'K' => 0,
                'Q' => 1,
                'k' => 2,
                'q' => 3,
                _ => return Err(format!("bad castling letter {c:?}")),
            };
            if castling[k] {
                return Err(format!("castling letter {c:?} twice"));
            }
            castling[k] = true;
        }
    }
    let ep = if fields[3] == "-" {
        None
    } else {
        let i = cell_index(fields[3]).ok_or(format!("bad en passant cell {:?}", fields[3]))?;
        // White to move: black just stepped from rank 7 to rank 5 over rank 6.
        let (skipped_rank, ahead) = if to_move == 0 { (5, -1) } else { (2, 1) };
        let pawn = offset(i, 0, ahead).expect("inside");
        let origin = offset(i, 0, -ahead).expect("inside");
        if rank(i) != skipped_rank
            || cells[i].is_some()
            || cells[origin].is_some()
            || cells[pawn] != Some((1 - to_move, 'P'))
        {
            return Err(format!("no double step can have skipped {}", fields[3]));
        }
        Some(i)
    };
    let number = |k: usize, default: u32| -> Result<u32, String> {
        match fields.get(k) {
            None => Ok(default),
            Some(s) if s.bytes().all(|b| b.is_ascii_digit()) => {
                s.parse().map_err(|_| format!("bad number {s:?}"))
            }
            Some(s) => Err(format!("bad number {s:?}")),
        }
    };
    let halfmove = number(4, 0)?;
    let fullmove = number(5, 1)?;
    if fullmove == 0 {
        return Err("the fullmove number starts at 1".into());
    }
    Ok(Board {
        cells,
        to_move,
        castling,
        ep,
        halfmove,
        fullmove,
    })
}

impl Board {
    /// The FEN of the position, with the en passant cell whenever `ep` holds one.
    // `&self` although `Board` is `Copy`: the interface the differential tests use.
    #[allow(clippy::wrong_self_convention)]
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.cells[r * 8 + f] {
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
        s.push_str(if self.to_move == 0 { " w " } else { " b " });
        let rights: String = "KQkq"
            .chars()
            .zip(self.castling)
            .filter(|&(_, on)| on)
            .map(|(c, _)| c)
            .collect();
        s.push_str(if rights.is_empty() { "-" } else { &rights });
        s.push(' ');
        match self.ep {
            Some(i) => s.push_str(&cell_name(i)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

// ---- attacks ----

/// Whether a piece of `by` attacks cell `sq` (whatever is on `sq`).
pub fn attacked(b: &Board, sq: usize, by: u8) -> bool {
    // A pawn of `by` attacks from one rank behind `sq` (as seen from `by`), one file aside.
    for df in [-1, 1] {
        if let Some(i) = offset(sq, df, -forward(by))
            && b.cells[i] == Some((by, 'P'))
        {
            return true;
        }
    }
    for (steps, kind) in [(KNIGHT, 'N'), (KING, 'K')] {
        for (df, dr) in steps {
            if let Some(i) = offset(sq, df, dr)
                && b.cells[i] == Some((by, kind))
            {
                return true;
            }
        }
    }
    for (dirs, slider) in [(ORTHO, 'R'), (DIAG, 'B')] {
        for (df, dr) in dirs {
            let mut at = sq;
            while let Some(i) = offset(at, df, dr) {
                if let Some((owner, kind)) = b.cells[i] {
                    if owner == by && (kind == slider || kind == 'Q') {
                        return true;
                    }
                    break;
                }
                at = i;
            }
        }
    }
    false
}

/// The cell of `side`'s king.
fn king_cell(b: &Board, side: u8) -> Option<usize> {
    (0..64).find(|&i| b.cells[i] == Some((side, 'K')))
}

/// Whether `side`'s king is attacked (false when it has no king).
pub fn in_check(b: &Board, side: u8) -> bool {
    king_cell(b, side).is_some_and(|k| attacked(b, k, 1 - side))
}

// ---- moves ----

/// The moves of the side to move by the piece rules alone, castling's conditions included,
/// before the test that the mover's king is not left attacked.
fn pseudo_moves(b: &Board) -> Vec<Move> {
    let me = b.to_move;
    let mut out = Vec::new();
    let mut add = |from: usize, to: usize| {
        out.push(Move {
            from,
            to,
            promotion: None,
        })
    };
    let mut promotions = Vec::new();
    for from in 0..64 {
        let Some((owner, kind)) = b.cells[from] else {
            continue;
        };
        if owner != me {
            continue;
        }
        match kind {
            'P' => {
                let fw = forward(me);
                let start_rank = if me == 0 { 1 } else { 6 };
                let mut targets = Vec::new();
                if let Some(one) = offset(from, 0, fw)
                    && b.cells[one].is_none()
                {
                    targets.push(one);
                    if rank(from) == start_rank
                        && let Some(two) = offset(from, 0, 2 * fw)
                        && b.cells[two].is_none()
                    {
                        targets.push(two);
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = offset(from, df, fw) {
                        let enemy = matches!(b.cells[to], Some((o, _)) if o != me);
                        let en_passant = b.ep == Some(to)
                            && b.cells[to].is_none()
                            && offset(to, 0, -fw)
                                .is_some_and(|p| b.cells[p] == Some((1 - me, 'P')));
                        if enemy || en_passant {
                            targets.push(to);
                        }
                    }
                }
                for to in targets {
                    if rank(to) == 0 || rank(to) == 7 {
                        for p in ['Q', 'R', 'B', 'N'] {
                            promotions.push(Move {
                                from,
                                to,
                                promotion: Some(p),
                            });
                        }
                    } else {
                        add(from, to);
                    }
                }
            }
            'N' | 'K' => {
                let steps = if kind == 'N' { KNIGHT } else { KING };
                for (df, dr) in steps {
                    if let Some(to) = offset(from, df, dr)
                        && !matches!(b.cells[to], Some((o, _)) if o == me)
                    {
                        add(from, to);
                    }
                }
            }
            'R' | 'B' | 'Q' => {
                let dirs: Vec<(i32, i32)> = match kind {
                    'R' => ORTHO.to_vec(),
                    'B' => DIAG.to_vec(),
                    _ => ORTHO.iter().chain(DIAG.iter()).copied().collect(),
                };
                for (df, dr) in dirs {
                    let mut at = from;
                    while let Some(to) = offset(at, df, dr) {
                        match b.cells[to] {
                            None => add(from, to),
                            Some((o, _)) => {
                                if o != me {
                                    add(from, to);
                                }
                                break;
                            }
                        }
                        at = to;
                    }
                }
            }
            _ => {}
        }
    }
    // Castling, king side then queen side (rights 2 * me and 2 * me + 1).
    let home = if me == 0 { 0 } else { 56 };
    let king_from = home + 4;
    for (n, wing) in WINGS.iter().enumerate() {
        if b.castling[2 * me as usize + n]
            && b.cells[king_from] == Some((me, 'K'))
            && b.cells[home + wing.corner] == Some((me, 'R'))
            && wing.empty.iter().all(|&f| b.cells[home + f].is_none())
            && !attacked(b, king_from, 1 - me)
            && wing.safe.iter().all(|&f| !attacked(b, home + f, 1 - me))
        {
            add(king_from, home + wing.king_to);
        }
    }
    out.extend(promotions);
    out
}

/// The legal moves of the side to move (whether or not the game is over by the fifty-move
/// rule or insufficient material: `outcome` judges that).
pub fn legal_moves(b: &Board) -> Vec<Move> {
    let me = b.to_move;
    pseudo_moves(b)
        .into_iter()
        .filter(|m| !in_check(&play(b, m), me))
        .collect()
}

/// The position after `m` (which must be a move of the side to move).
pub fn play(b: &Board, m: &Move) -> Board {
    let mut n = *b;
    let (me, kind) = b.cells[m.from].expect("a move from an empty cell");
    let mut capture = b.cells[m.to].is_some();
    n.cells[m.from] = None;
    if kind == 'P' && file(m.from) != file(m.to) && b.cells[m.to].is_none() {
        // En passant: the taken pawn is beside the origin, on the destination's file.
        n.cells[(rank(m.from) * 8 + file(m.to)) as usize] = None;
        capture = true;
    }
    n.cells[m.to] = Some((me, m.promotion.map_or(kind, |p| p.to_ascii_uppercase())));
    if kind == 'K' && (file(m.to) - file(m.from)).abs() == 2 {
        let home = (rank(m.from) * 8) as usize;
        let (rook_from, rook_to) = if file(m.to) == 6 {
            (home + 7, home + 5)
        } else {
            (home, home + 3)
        };
        n.cells[rook_to] = n.cells[rook_from].take();
    }
    if kind == 'K' {
        n.castling[2 * me as usize] = false;
        n.castling[2 * me as usize + 1] = false;
    }
    for (right, corner) in CORNERS.iter().enumerate() {
        if m.from == *corner || m.to == *corner {
            n.castling[right] = false;
        }
    }
    n.ep = if kind == 'P' && (rank(m.to) - rank(m.from)).abs() == 2 {
        Some((m.from + m.to) / 2)
    } else {
        None
    };
    n.halfmove = if kind == 'P' || capture {
        0
    } else {
        b.halfmove + 1
    };
    if me == 1 {
        n.fullmove += 1;
    }
    n.to_move = 1 - me;
    n
}

/// Whether neither side can ever mate (a dead position, FIDE 5.2.2, as python-chess judges
/// insufficient material for both sides): besides the kings, only bishops, all on squares of
/// one colour (none at all included), or a single knight.
pub fn insufficient_material(b: &Board) -> bool {
    let others: Vec<(usize, char)> = (0..64)
        .filter_map(|i| b.cells[i].map(|(_, k)| (i, k)))
        .filter(|&(_, k)| k != 'K')
        .collect();
    if let [(_, 'N')] = others.as_slice() {
        return true;
    }
    let dark = |i: usize| (rank(i) + file(i)) % 2 == 0;
    others.iter().all(|&(_, k)| k == 'B')
        && (others.iter().all(|&(i, _)| dark(i)) || others.iter().all(|&(i, _)| !dark(i)))
}

/// The end of the game at `b`, if it is over.
pub fn outcome(b: &Board) -> Option<Outcome> {
    if legal_moves(b).is_empty() {
        return Some(if in_check(b, b.to_move) {
            Outcome::Win(1 - b.to_move)
        } else {
            Outcome::Draw
        });
    }
    if b.halfmove >= 100 || insufficient_material(b) {
        return Some(Outcome::Draw);
    }
    None
}

/// The number of move sequences of `depth` moves from `b` (every legal move counts, whatever
/// the fifty-move rule or the material).
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

/// The legal move written `"e2-e4"` / `"e7-e8=Q"`, if there is one.
pub fn find_move(b: &Board, notation: &str) -> Option<Move> {
    legal_moves(b)
        .into_iter()
        .find(|m| m.notation() == notation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_twenty_moves() {
        assert_eq!(legal_moves(&start()).len(), 20);
        assert_eq!(start().to_fen(), START_FEN);
    }

    #[test]
    fn cell_names() {
        assert_eq!(cell_name(0), "a1");
        assert_eq!(cell_name(63), "h8");
        assert_eq!(cell_index("e4"), Some(28));
        assert_eq!(cell_index("i1"), None);
        assert_eq!(cell_index("a9"), None);
    }
}
