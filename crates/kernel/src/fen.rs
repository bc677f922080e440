//! Forsyth-Edwards notation, for games whose rules declare a mapping ([`crate::spec::FenSpec`]):
//! one letter per kind (upper case for the first player), the side to move, the rights to compound moves
//! as compound moves, the cell a piece has just passed, the idle clock and the move number.
//!
//! Games that keep pieces in hand write the hands after the board, in brackets
//! (`...RNBQKBNR[Qnp]`: the first player's pieces in upper case), as crazyhouse FEN does; a
//! ninth rank of letters (`.../RNBQKBNR/Qnp`) is read as well. A kind may be written as a
//! letter and `~` (`Q~`), crazyhouse's mark of a promoted piece.
//!
//! A FEN is read where a position string is ([`Position::from_position_string`] tries FEN
//! first when the rules have a mapping and the text has FEN's shape), so every command and
//! the server take published test positions as they are.

use crate::cell::{Cell, CellSet};
use crate::geometry::between;
use crate::notation::{PositionError, PositionErrorKind};
use crate::piece::{Piece, Player};
use crate::position::Position;
use crate::rules::Rules;
use crate::spec::FenSpec;
use std::fmt::Write;
use std::ops::ControlFlow;
use std::sync::Arc;

fn bad(offset: usize, why: impl Into<String>) -> PositionError {
    PositionError {
        offset,
        kind: PositionErrorKind::Fen(why.into()),
    }
}

/// Whether `text` has the shape of a FEN for these rules: a board of letters, digits and `/`,
/// then one of the side letters.
pub(crate) fn looks_like_fen(fen: &FenSpec, text: &str) -> bool {
    let mut fields = text.split_whitespace();
    let (Some(board), Some(side)) = (fields.next(), fields.next()) else {
        return false;
    };
    board.contains('/')
        && board
            .chars()
            .all(|c| matches!(c, '/' | '~' | '[' | ']') || c.is_ascii_alphanumeric())
        && fen.sides.iter().flatten().any(|s| s == side)
}

/// The piece a FEN letter stands for (followed by `~` when `marked`).
fn piece_of(fen: &FenSpec, c: char, marked: bool) -> Option<Piece> {
    let owner = if c.is_ascii_uppercase() {
        Player::FIRST
    } else {
        Player::SECOND
    };
    let up = c.to_ascii_uppercase();
    let table = if marked { &fen.marked } else { &fen.letters };
    table
        .iter()
        .find(|(l, _)| *l == up)
        .map(|(_, k)| Piece::new(*k, owner))
}

/// Writes the FEN symbol of a piece: its letter, and `~` for a marked kind.
fn write_symbol(fen: &FenSpec, p: Piece, out: &mut String) {
    let case = |l: char| {
        if p.owner() == Player::FIRST {
            l
        } else {
            l.to_ascii_lowercase()
        }
    };
    if let Some((l, _)) = fen.letters.iter().find(|(_, k)| *k == p.kind()) {
        out.push(case(*l));
    } else if let Some((l, _)) = fen.marked.iter().find(|(_, k)| *k == p.kind()) {
        out.push(case(*l));
        out.push('~');
    } else {
        out.push('?');
    }
}

/// Reads the hands (the letters between FEN's brackets, or of its extra rank): every kind
/// that may be held starts with none, and each letter is one more piece of its kind in its
/// owner's hand.
fn read_hands(
    rules: &Rules,
    fen: &FenSpec,
    pos: &mut Position,
    hands: &str,
    base: usize,
) -> Result<(), PositionError> {
    if pos.state.reserve.is_none() {
        return Err(bad(base, "this game keeps no pieces in hand"));
    }
    for code in 0..crate::piece::PIECE_CODES {
        pos.state.set_reserve(code, 0);
    }
    for (i, c) in hands.char_indices() {
        if c == '-' && hands.len() == 1 {
            break;
        }
        let piece = piece_of(fen, c, false)
            .ok_or_else(|| bad(base + i, format!("`{c}` is no piece letter of this game")))?;
        if rules.supply(piece.kind()).is_none() {
            return Err(bad(
                base + i,
                format!(
                    "`{c}`: a {} is never held in hand in this game",
                    rules.kind_name(piece.kind())
                ),
            ));
        }
        let n = pos.state.in_hand(piece.code()).saturating_add(1);
        pos.state.set_reserve(piece.code(), n);
    }
    Ok(())
}

/// Reads FEN's third field: each letter is the right of one player to one compound move,
/// given at most once. The right is kept as the mover and the outermost partner beyond it in
/// the move's direction being unmoved; both must stand on the line of the move, with the cells
/// where the move puts them. A column letter instead (X-FEN and Shredder-FEN, for Chess960:
/// `G`, `HAha`) names the partner by its column, for a partner that is not the outermost.
fn read_rights(
    rules: &Rules,
    fen: &FenSpec,
    pos: &mut Position,
    rights: &str,
    base: usize,
) -> Result<(), PositionError> {
    let g = rules.geometry();
    let mut seen: Vec<char> = Vec::new();
    for (i, c) in rights.char_indices() {
        if seen.contains(&c) {
            return Err(bad(
                base + i,
                format!("compound-move right `{c}` given twice"),
            ));
        }
        seen.push(c);
        let p = if c.is_ascii_uppercase() {
            Player::FIRST
        } else {
            Player::SECOND
        };
        let Some(&(_, ci)) = fen
            .compounds
            .iter()
            .find(|(l, _)| *l == c.to_ascii_uppercase())
        else {
            let column = crate::geometry::column_index(&c.to_ascii_lowercase().to_string())
                .filter(|&col| col < g.cols());
            match column {
                Some(col) => right_by_column(rules, pos, p, col).ok_or_else(|| {
                    bad(
                        base + i,
                        format!(
                            "compound-move right `{c}`: no unmoved partner of a compound move \
                             on column {} beyond its mover",
                            crate::geometry::column_name(col)
                        ),
                    )
                })?,
                None => {
                    return Err(bad(
                        base + i,
                        format!("`{c}` is no compound-move letter of this game"),
                    ));
                }
            }
            continue;
        };
        let comp = rules.compounds[ci];
        let (mover, partner_code) = (comp.mover[p.slot()], comp.partner[p.slot()]);
        let dir = comp.dir[p.slot()];
        let without = |code: u8| {
            bad(
                base + i,
                format!(
                    "compound-move right `{c}` without its {}",
                    rules.kind_name(Piece(code).kind())
                ),
            )
        };
        // Each mover of the kind, with the outermost partner beyond it; a mover on the line
        // of the move first.
        let mut found: Option<(Cell, Cell, bool)> = None;
        for from in pos.state.occupied[p.slot()].iter() {
            if pos.state.board[from.index()] != mover {
                continue;
            }
            let mut partner = None;
            let mut cur = from;
            while let Some(next) = g.neighbour(cur, dir) {
                if pos.state.board[next.index()] == partner_code {
                    partner = Some(next);
                }
                cur = next;
            }
            let Some(partner) = partner else { continue };
            // The line through the mover along the direction, both ways.
            let mut line = CellSet::EMPTY;
            line.insert(from);
            for d in [dir, dir.opposite()] {
                let mut cur = from;
                while let Some(next) = g.neighbour(cur, d) {
                    line.insert(next);
                    cur = next;
                }
            }
            let on_line =
                line.contains(comp.mover_to[p.slot()]) && line.contains(comp.partner_to[p.slot()]);
            if found.is_none_or(|(_, _, ok)| !ok) {
                found = Some((from, partner, on_line));
            }
        }
        match found {
            None if !pos.state.occupied[p.slot()]
                .iter()
                .any(|c| pos.state.board[c.index()] == mover) =>
            {
                return Err(without(mover));
            }
            None => return Err(without(partner_code)),
            Some((from, partner, false)) => {
                return Err(bad(
                    base + i,
                    format!(
                        "compound-move right `{c}`: the {} on {} and the {} on {} are not on the line of the move, which ends on {} and {}",
                        rules.kind_name(Piece(mover).kind()),
                        g.name(from),
                        rules.kind_name(Piece(partner_code).kind()),
                        g.name(partner),
                        g.name(comp.mover_to[p.slot()]),
                        g.name(comp.partner_to[p.slot()]),
                    ),
                ));
            }
            Some((from, partner, true)) => {
                pos.state.set_unmoved(rules, from);
                pos.state.set_unmoved(rules, partner);
            }
        }
    }
    Ok(())
}

/// The right given by a column letter: a compound move of `p` whose mover has a partner on
/// column `col` in the move's direction, both on the line of the move; both are kept unmoved.
/// `None` when there is no such pair.
fn right_by_column(rules: &Rules, pos: &mut Position, p: Player, col: usize) -> Option<()> {
    let g = rules.geometry();
    for comp in &rules.compounds {
        let (mover, partner) = (comp.mover[p.slot()], comp.partner[p.slot()]);
        let dir = comp.dir[p.slot()];
        for from in pos.state.occupied[p.slot()].iter() {
            if pos.state.board[from.index()] != mover {
                continue;
            }
            let mut cur = from;
            while let Some(next) = g.neighbour(cur, dir) {
                cur = next;
                if g.col(next) == col && pos.state.board[next.index()] == partner {
                    pos.state.set_unmoved(rules, from);
                    pos.state.set_unmoved(rules, next);
                    return Some(());
                }
            }
        }
    }
    None
}

/// Reads FEN's fourth field, the cell a piece of `mover` has just passed: some pattern that
/// leaves its passed cells open (`leaves ghost`) must have brought a piece now on the board
/// there, from an empty cell, over this one, by a legal move of the position before (the
/// pattern's own condition included). The cells open to capture are then all the cells that
/// move passed, as after the move itself.
fn read_passed(
    rules: &Rules,
    pos: &mut Position,
    text: &str,
    at: usize,
    mover: Player,
) -> Result<(), PositionError> {
    let g = rules.geometry();
    let cell = g
        .parse_cell(text)
        .ok_or_else(|| bad(at, format!("`{text}` is not a cell of this board")))?;
    let never = || bad(at, format!("no piece can just have passed {text}"));
    if pos.state.board[cell.index()] != 0 {
        return Err(never());
    }
    let leaves: Vec<_> = rules
        .moves
        .iter()
        .filter(|m| m.leaves_ghost)
        .map(|m| m.kind)
        .collect();
    let mut found: Option<(Cell, CellSet)> = None;
    for victim in pos.state.occupied[mover.slot()].iter() {
        let code = pos.state.board[victim.index()];
        if !leaves.contains(&Piece(code).kind()) {
            continue;
        }
        for origin in g.cells().iter() {
            if pos.state.board[origin.index()] != 0 {
                continue;
            }
            let passed = between(g, origin, victim);
            if !passed.contains(&cell) {
                continue;
            }
            // The position before: the piece back on its origin, its side to move.
            let mut before = pos.clone();
            before.state.take(rules, victim);
            before.state.put(rules, Piece(code), origin);
            before.state.set_side(rules, mover);
            before.state.recount(rules);
            let made = before.state.generate(rules, mover, |m| {
                if m.from() == origin
                    && m.to() == victim
                    && !m.is_pass()
                    && !m.is_placement()
                    && rules.moves[m.rule() as usize].leaves_ghost
                {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if !matches!(made, Ok(ControlFlow::Break(()))) {
                continue;
            }
            let mut cells = CellSet::EMPTY;
            for c in passed {
                cells.insert(c);
            }
            if found.is_some_and(|(v, c)| (v, c) != (victim, cells)) {
                return Err(bad(
                    at,
                    format!("more than one piece can just have passed {text}"),
                ));
            }
            found = Some((victim, cells));
        }
    }
    let (victim, cells) = found.ok_or_else(never)?;
    pos.state.set_ghost(rules, cells, victim);
    Ok(())
}

impl Position {
    /// Reads a FEN. The rules must declare a FEN mapping (`[fen]` in a pack).
    pub fn from_fen(rules: Arc<Rules>, text: &str) -> Result<Position, PositionError> {
        let Some(fen) = rules.fen.clone() else {
            return Err(bad(
                0,
                "this game declares no FEN mapping ([fen] in its pack)",
            ));
        };
        let g = rules.geometry().clone();
        let mut pos = Position::empty(rules.clone());
        let offset_of = |field: &str| text.find(field).unwrap_or(0);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(&field) = fields.first() else {
            return Err(bad(0, "empty FEN"));
        };
        // The hands: in brackets after the board, or an extra rank of letters.
        let (board, hands) = match field.find('[') {
            Some(open) => {
                let Some(inner) = field[open + 1..].strip_suffix(']') else {
                    return Err(bad(
                        open,
                        "the hands in brackets must end the board field: `[...]`",
                    ));
                };
                (&field[..open], Some((inner, offset_of(field) + open + 1)))
            }
            None => (field, None),
        };
        let mut ranks: Vec<&str> = board.split('/').collect();
        let mut hands = hands;
        if hands.is_none()
            && ranks.len() == g.rows() + 1
            && pos.state.reserve.is_some()
            && let Some(last) = ranks.pop()
        {
            hands = Some((last, board.len() - last.len()));
        }
        if ranks.len() != g.rows() {
            return Err(bad(
                0,
                format!("{} ranks, but the board has {}", ranks.len(), g.rows()),
            ));
        }
        let mut at = 0;
        for (row, rank) in ranks.iter().enumerate() {
            let mut col: usize = 0;
            let mut chars = rank.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as usize;
                    while let Some(&(_, d)) = chars.peek()
                        && d.is_ascii_digit()
                    {
                        // Checked: a run longer than any rank is refused below, however
                        // many digits it has.
                        n = n
                            .checked_mul(10)
                            .and_then(|n| n.checked_add(d.to_digit(10).unwrap_or(0) as usize))
                            .unwrap_or(usize::MAX);
                        chars.next();
                    }
                    if n == 0 {
                        return Err(bad(at + i, "a run of empty cells must be at least 1"));
                    }
                    col = col.saturating_add(n);
                } else {
                    let marked = chars.peek().is_some_and(|&(_, m)| m == '~');
                    if marked {
                        chars.next();
                    }
                    let Some(piece) = piece_of(&fen, c, marked) else {
                        let symbol = if marked {
                            format!("{c}~")
                        } else {
                            c.to_string()
                        };
                        return Err(bad(
                            at + i,
                            format!("`{symbol}` is no piece letter of this game"),
                        ));
                    };
                    let cell = g.rect_cell(row, col).filter(|c| g.contains(*c));
                    let Some(cell) = cell else {
                        return Err(bad(at + i, "a piece off the board"));
                    };
                    pos.state.put(&rules, piece, cell);
                    let count = pos.state.counts[piece.code()] as usize;
                    rules
                        .core()
                        .may_stand(piece, cell, count)
                        .map_err(|e| PositionError {
                            offset: at + i,
                            kind: PositionErrorKind::Standing(e),
                        })?;
                    col += 1;
                }
                if col > g.cols() {
                    return Err(bad(
                        at + i,
                        format!("rank {} has more than {} cells", g.rows() - row, g.cols()),
                    ));
                }
            }
            if col != g.cols() {
                return Err(bad(
                    at,
                    format!("rank {} has {col} cells, not {}", g.rows() - row, g.cols()),
                ));
            }
            at += rank.len() + 1;
        }
        if let Some((hands, base)) = hands {
            read_hands(&rules, &fen, &mut pos, hands, base)?;
        }
        let side_text = fields
            .get(1)
            .ok_or_else(|| bad(text.len(), "the side to move is missing"))?;
        let side = Player::ALL
            .into_iter()
            .find(|p| fen.sides[p.slot()].iter().any(|s| s == side_text))
            .ok_or_else(|| {
                bad(
                    offset_of(side_text),
                    format!(
                        "`{side_text}` is not a side (expected {} or {})",
                        fen.sides[0].join("/"),
                        fen.sides[1].join("/")
                    ),
                )
            })?;
        pos.state.set_side(&rules, side);
        for p in Player::ALL {
            let r = rules.royal[p.slot()];
            if r != 0
                && !pos.state.occupied[p.slot()]
                    .iter()
                    .any(|c| pos.state.board[c.index()] == r)
            {
                return Err(bad(
                    0,
                    format!(
                        "{} has no {}",
                        rules.player_name(p),
                        rules.kind_name(Piece(r).kind())
                    ),
                ));
            }
        }
        if pos.state.in_check(&rules, side.other()) {
            return Err(bad(
                0,
                format!(
                    "{} is in check with {} to move",
                    rules.player_name(side.other()),
                    rules.player_name(side)
                ),
            ));
        }
        if let Some(rights) = fields.get(2).filter(|f| **f != "-") {
            read_rights(&rules, &fen, &mut pos, rights, offset_of(rights))?;
        }
        if let Some(ep) = fields.get(3).filter(|f| **f != "-") {
            read_passed(&rules, &mut pos, ep, offset_of(ep), side.other())?;
        }
        if let Some(n) = fields.get(4) {
            let idle: u16 = n
                .parse()
                .map_err(|_| bad(offset_of(n), format!("bad halfmove clock `{n}`")))?;
            pos.state.idle = idle;
            pos.state.clock = idle;
        }
        if let Some(n) = fields.get(5) {
            let full: u32 = n
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| bad(offset_of(n), format!("bad move number `{n}`")))?;
            pos.state.ply = (full - 1) * 2 + side.index() as u32;
        }
        if fields.len() > 6 {
            return Err(bad(offset_of(fields[6]), "more than six fields"));
        }
        pos.state.recount(&rules);
        pos.state.remember(&pos.rules);
        pos.state.settle(&rules);
        Ok(pos)
    }

    /// Writes the position as a FEN, if the rules declare a mapping; `None` too in the middle
    /// of a turn of several moves, which a FEN has no field for (the position string says it).
    pub fn to_fen(&self) -> Option<String> {
        let rules = &self.rules;
        let fen = rules.fen.as_ref()?;
        if self.state.turn > 0 {
            return None;
        }
        let g = rules.geometry();
        let mut out = self.board_text(|out, p| write_symbol(fen, p, out));
        if self.state.reserve.is_some() {
            out.push('[');
            for p in Player::ALL {
                for &(letter, kind) in &fen.letters {
                    let piece = Piece::new(kind, p);
                    let l = if p == Player::FIRST {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    for _ in 0..self.state.in_hand(piece.code()) {
                        out.push(l);
                    }
                }
            }
            out.push(']');
        }
        let side = self.side_to_move();
        let _ = write!(out, " {}", fen.sides[side.slot()][0]);
        let mut rights = String::new();
        for p in Player::ALL {
            for &(letter, ci) in &fen.compounds {
                let Some((partner, outermost)) = self.compound_right(ci, p) else {
                    continue;
                };
                // The compound move's letter stands for the outermost partner; an inner one
                // is named by its column (X-FEN), when the column has a one-letter name that
                // is no compound move's letter.
                let column = crate::geometry::column_name(g.col(partner));
                let letter = match column.chars().next().map(|c| c.to_ascii_uppercase()) {
                    Some(col)
                        if !outermost
                            && column.len() == 1
                            && !fen.compounds.iter().any(|&(l, _)| l == col) =>
                    {
                        col
                    }
                    _ => letter,
                };
                rights.push(if p == Player::FIRST {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        let _ = write!(out, " {rights}");
        match self.state.ghost.iter().next() {
            Some(c) => {
                let _ = write!(out, " {}", g.name(c));
            }
            None => out.push_str(" -"),
        }
        let _ = write!(out, " {} {}", self.state.idle, self.state.ply / 2 + 1);
        Some(out)
    }

    /// Whether `player` has the right to compound move `i`: an unmoved mover with an unmoved
    /// partner beyond it in the move's direction. `Some` of that partner's cell, and whether
    /// no other piece of the partner's kind stands beyond it (the outermost, which the move's
    /// own letter names).
    fn compound_right(&self, i: usize, player: Player) -> Option<(Cell, bool)> {
        let rules = &self.rules;
        let g = rules.geometry();
        let c = rules.compounds[i];
        let s = &self.state;
        let partner_code = c.partner[player.slot()];
        s.unmoved.iter().find_map(|from| {
            if s.board[from.index()] != c.mover[player.slot()] {
                return None;
            }
            let mut found = None;
            let mut cur: Cell = from;
            while let Some(next) = g.neighbour(cur, c.dir[player.slot()]) {
                if s.board[next.index()] == partner_code {
                    found = match found {
                        None if s.unmoved.contains(next) => Some((next, true)),
                        Some((cell, _)) => Some((cell, false)),
                        other => other,
                    };
                }
                cur = next;
            }
            found
        })
    }
}
