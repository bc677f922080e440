//! Text forms: the position string, and moves in human notation.
//!
//! A position string lists the rows from the top, separated by `/`; in a row, a piece is its
//! code (`AL`) and a run of empty cells a number; then, after a space, the name of the side to
//! move; then optional fields: `clock=N` (plies since the last capture, written when the rules
//! read it), `idle=N` (plies since the last capture or promotion, likewise), `winner=NAME` or
//! `draw` once the game is over. A position read without a result is judged by the end rules
//! as if the side not to move had just moved into it (as the same position reached by play
//! would have been); `setup` marks a position that was set up piece by piece and is not to be
//! judged so (it is written when the end rules would end it). The positions played before are
//! not part of the string, so `repetitions` counts from the position read. For example the
//! start of Jungle is
//! `AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A`.
//!
//! A move is written as its path of cells in human notation, joined by `-` for a plain move
//! and `x` for a capture: `a7-a6`, `a3xa4`, `c1xc3xe3` for a hop chain.

use crate::cell::Cell;
use crate::moves::Move;
use crate::piece::Player;
use crate::position::{Position, State};
use crate::rules::Rules;
use crate::status::Outcome;
use std::fmt::Write as _;
use std::sync::Arc;

/// What is wrong in a position string (see [`PositionError`]). Rows are counted from 1 at the
/// top, as the string writes them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionErrorKind {
    /// A piece its pack says may not be there (`at_most`, `never_in`).
    #[error("{0}")]
    Standing(crate::StandingError),
    /// A row has too few cells before the next `/`.
    #[error("row {row} has {cells} cells, not {cols}")]
    ShortRow {
        /// The row.
        row: usize,
        /// Its cells.
        cells: usize,
        /// The board's columns.
        cols: usize,
    },
    /// A row has more cells than the board has columns.
    #[error("row {row} is wider than {cols} cells")]
    WideRow {
        /// The row.
        row: usize,
        /// The board's columns.
        cols: usize,
    },
    /// More rows than the board has.
    #[error("more than {rows} rows")]
    TooManyRows {
        /// The board's rows.
        rows: usize,
    },
    /// Too few rows, or a last row too short.
    #[error("the board must have {rows} rows of {cols} cells")]
    Shape {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
    /// A run of empty cells that is not a number, or is 0.
    #[error("a run of empty cells must be a number from 1, not `{0}`")]
    BadRun(String),
    /// Text that is no piece code of the game.
    #[error("`{text}` is not a piece code of {game}")]
    NotACode {
        /// The text (its first characters).
        text: String,
        /// The game's name.
        game: String,
    },
    /// A piece on a hole of the board.
    #[error("{0} stands on a cell that is not on the board")]
    OnAHole(String),
    /// Nothing after the board.
    #[error("the side to move is missing")]
    NoSide,
    /// A name that is no player of the game.
    #[error("`{name}` is not a player (expected {expected})")]
    NotAPlayer {
        /// The name.
        name: String,
        /// The players' names, joined with `or`.
        expected: String,
    },
    /// A clock field that is not a number.
    #[error("bad {field} `{text}`")]
    BadClock {
        /// `clock` or `idle clock`.
        field: &'static str,
        /// The text.
        text: String,
    },
    /// A field that is none of the known ones.
    #[error(
        "unknown field `{0}` (expected clock=N, idle=N, plies=N, hand=CODE:N,..., passes=N, winner=NAME, draw or setup)"
    )]
    UnknownField(String),
    /// A `hand=` or `passes=` field that does not fit the game.
    #[error("bad `{field}` field `{text}`: {why}")]
    BadHand {
        /// `hand` or `passes`.
        field: &'static str,
        /// The text of the entry at fault.
        text: String,
        /// Why, in words.
        why: String,
    },
    /// A FEN that does not fit the game.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// An `unmoved=`, `ghost=` or `turn=` field that does not fit the game.
    #[error("bad `{field}` field `{text}`")]
    BadExtra {
        /// `unmoved`, `ghost` or `turn`.
        field: &'static str,
        /// The text.
        text: String,
    },
    /// `setup` with a result.
    #[error("`setup` (not judged by the end rules) and a result cannot go together")]
    SetupWithResult,
}

/// A position string that cannot be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position string at character {}: {kind}", .offset + 1)]
pub struct PositionError {
    /// Byte offset of the problem in the string.
    pub offset: usize,
    /// What is wrong.
    pub kind: PositionErrorKind,
}

fn err(offset: usize, kind: PositionErrorKind) -> PositionError {
    PositionError { offset, kind }
}

fn bad_clock(field: &'static str, text: &str) -> PositionErrorKind {
    PositionErrorKind::BadClock {
        field,
        text: text.to_string(),
    }
}

impl Position {
    /// A move in notation: `a7-a6`, `a3xa4`, `c1xc3xe3`.
    pub fn notation(&self, m: Move) -> String {
        move_text(&self.rules, &m)
    }

    /// The board, row by row from the top, rows between `/`, runs of empty cells as numbers
    /// and each piece as `piece` writes it: the first field of position strings and FEN.
    pub(crate) fn board_text(&self, mut piece: impl FnMut(&mut String, crate::Piece)) -> String {
        let g = self.rules.geometry();
        let mut out = String::new();
        for r in 0..g.rows() {
            if r > 0 {
                out.push('/');
            }
            let mut run = 0;
            for c in 0..g.cols() {
                let on = g.rect_cell(r, c).and_then(|cell| self.piece_at(cell));
                match on {
                    Some(p) => {
                        if run > 0 {
                            let _ = write!(out, "{run}");
                            run = 0;
                        }
                        piece(&mut out, p);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                let _ = write!(out, "{run}");
            }
        }
        out
    }

    /// Writes the position string.
    pub fn to_position_string(&self) -> String {
        let rules = &self.rules;
        let g = rules.geometry();
        let core = rules.core();
        let mut out = self.board_text(|out, p| out.push_str(core.code(p)));
        out.push(' ');
        out.push_str(core.player_name(self.side_to_move()));
        if rules.uses_clock {
            let _ = write!(out, " clock={}", self.clock());
        }
        if rules.uses_idle {
            let _ = write!(out, " idle={}", self.state.idle);
        }
        if rules.uses_plies && self.state.ply > 0 {
            let _ = write!(out, " plies={}", self.state.ply);
        }
        let hand: Vec<String> = core
            .all_pieces()
            .filter(|p| rules.supply(p.kind()).is_some())
            .map(|p| format!("{}:{}", core.code(p), self.state.in_hand(p.code())))
            .collect();
        if !hand.is_empty() {
            let _ = write!(out, " hand={}", hand.join(","));
        }
        if self.state.passes > 0 {
            let _ = write!(out, " passes={}", self.state.passes);
        }
        // A set of cells, written as names joined by commas.
        let names = |set: &crate::cell::CellSet| -> String {
            let v: Vec<String> = set.iter().map(|c| g.name(c).to_string()).collect();
            v.join(",")
        };
        if self.state.turn > 0 {
            let cells = names(&self.state.turn_cells);
            let _ = write!(out, " turn={}:{cells}", self.state.turn);
        }
        if !self.state.unmoved.is_empty() {
            let _ = write!(out, " unmoved={}", names(&self.state.unmoved));
        }
        if !self.state.ghost.is_empty() {
            let _ = write!(
                out,
                " ghost={}:{}",
                names(&self.state.ghost),
                g.name(Cell(self.state.ghost_victim))
            );
        }
        match self.decided() {
            Some(Outcome::Win(p)) => {
                let _ = write!(out, " winner={}", core.player_name(p));
            }
            Some(Outcome::Draw) => out.push_str(" draw"),
            // A set-up position that the end rules would judge over (pieces placed one by
            // one, say): written so, that it reads back as it is.
            None if self.state.judge(rules).is_some() => out.push_str(" setup"),
            None => {}
        }
        out
    }

    /// Reads a position string.
    pub fn from_position_string(rules: Arc<Rules>, text: &str) -> Result<Position, PositionError> {
        if let Some(fen) = &rules.fen
            && crate::fen::looks_like_fen(fen, text)
        {
            return Position::from_fen(rules, text);
        }
        let mut state = State::empty(&rules);
        let core = rules.core();
        let g = rules.geometry();
        let mut codes: Vec<(&str, crate::piece::Piece)> =
            core.all_pieces().map(|p| (core.code(p), p)).collect();
        codes.sort_by_key(|(c, _)| std::cmp::Reverse(c.len()));

        let board_end = text.find(' ').unwrap_or(text.len());
        let board = &text[..board_end];
        let mut row = 0usize;
        let mut col = 0usize;
        let mut i = 0usize;
        let bytes = board.as_bytes();
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'/' {
                if col != g.cols() {
                    return Err(err(
                        i,
                        PositionErrorKind::ShortRow {
                            row: row + 1,
                            cells: col,
                            cols: g.cols(),
                        },
                    ));
                }
                row += 1;
                col = 0;
                if row >= g.rows() {
                    return Err(err(i, PositionErrorKind::TooManyRows { rows: g.rows() }));
                }
                i += 1;
            } else if b.is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let run = &board[start..i];
                let n: usize = match run.parse() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(err(start, PositionErrorKind::BadRun(run.to_string()))),
                };
                col = col.saturating_add(n);
                if col > g.cols() {
                    return Err(err(
                        start,
                        PositionErrorKind::WideRow {
                            row: row + 1,
                            cols: g.cols(),
                        },
                    ));
                }
            } else {
                let rest = &board[i..];
                let Some((code, piece)) = codes.iter().find(|(c, _)| rest.starts_with(c)) else {
                    let shown: String = rest.chars().take(3).collect();
                    return Err(err(
                        i,
                        PositionErrorKind::NotACode {
                            text: shown,
                            game: core.name().to_string(),
                        },
                    ));
                };
                if col >= g.cols() {
                    return Err(err(
                        i,
                        PositionErrorKind::WideRow {
                            row: row + 1,
                            cols: g.cols(),
                        },
                    ));
                }
                let cell = g.rect_cell(row, col).unwrap_or(Cell(0));
                if !g.contains(cell) {
                    return Err(err(i, PositionErrorKind::OnAHole(code.to_string())));
                }
                state.put(&rules, *piece, cell);
                let count = state.counts[piece.code()] as usize;
                core.may_stand(*piece, cell, count)
                    .map_err(|e| err(i, PositionErrorKind::Standing(e)))?;
                col += 1;
                i += code.len();
            }
        }
        state.recount(&rules);
        if row + 1 != g.rows() || col != g.cols() {
            return Err(err(
                board_end,
                PositionErrorKind::Shape {
                    rows: g.rows(),
                    cols: g.cols(),
                },
            ));
        }
        let mut fields = text[board_end..].split(' ').filter(|f| !f.is_empty());
        let side_name = fields
            .next()
            .ok_or_else(|| err(text.len(), PositionErrorKind::NoSide))?;
        let not_a_player = |name: &str, at: usize| {
            let names: Vec<&str> = Player::ALL.iter().map(|p| core.player_name(*p)).collect();
            err(
                at,
                PositionErrorKind::NotAPlayer {
                    name: name.to_string(),
                    expected: names.join(" or "),
                },
            )
        };
        let side = core
            .player_by_name(side_name)
            .ok_or_else(|| not_a_player(side_name, board_end + 1))?;
        state.set_side(&rules, side);
        let mut setup = false;
        for f in fields {
            // The field's own offset (a search for its text would be quadratic, and would
            // point at an earlier equal field).
            let at = f.as_ptr() as usize - text.as_ptr() as usize;
            if let Some(n) = f.strip_prefix("idle=") {
                state.idle = n.parse().map_err(|_| err(at, bad_clock("idle clock", n)))?;
            } else if let Some(n) = f.strip_prefix("clock=") {
                state.clock = n.parse().map_err(|_| err(at, bad_clock("clock", n)))?;
            } else if let Some(n) = f.strip_prefix("plies=") {
                state.ply = n.parse().map_err(|_| err(at, bad_clock("ply count", n)))?;
            } else if let Some(name) = f.strip_prefix("winner=") {
                let p = core
                    .player_by_name(name)
                    .ok_or_else(|| not_a_player(name, at))?;
                state.outcome = Some(Outcome::Win(p));
            } else if let Some(list) = f.strip_prefix("hand=") {
                read_hand(&rules, &mut state, list).map_err(|k| err(at, k))?;
            } else if let Some(n) = f.strip_prefix("passes=") {
                let bad = |why: &str| PositionErrorKind::BadHand {
                    field: "passes",
                    text: n.to_string(),
                    why: why.to_string(),
                };
                if !rules.passes() {
                    return Err(err(at, bad("this game has no passing")));
                }
                let k: u8 = n.parse().map_err(|_| err(at, bad("not a number")))?;
                state.set_passes(k);
            } else if let Some(list) = f.strip_prefix("unmoved=") {
                let bad = || {
                    err(
                        at,
                        PositionErrorKind::BadExtra {
                            field: "unmoved",
                            text: list.to_string(),
                        },
                    )
                };
                for name in list.split(',').filter(|n| !n.is_empty()) {
                    let c = g.parse_cell(name).ok_or_else(bad)?;
                    let tracked = rules
                        .tracks_unmoved
                        .get(state.board[c.index()] as usize)
                        .copied()
                        .unwrap_or(false);
                    if !tracked {
                        return Err(bad());
                    }
                    state.set_unmoved(&rules, c);
                }
            } else if let Some(spec) = f.strip_prefix("ghost=") {
                let bad = || {
                    err(
                        at,
                        PositionErrorKind::BadExtra {
                            field: "ghost",
                            text: spec.to_string(),
                        },
                    )
                };
                if rules.ghost_keys.is_empty() {
                    return Err(bad());
                }
                let (cells, victim) = spec.split_once(':').ok_or_else(bad)?;
                let victim = g.parse_cell(victim).ok_or_else(bad)?;
                let mut set = crate::cell::CellSet::EMPTY;
                for name in cells.split(',') {
                    let c = g.parse_cell(name).ok_or_else(bad)?;
                    if state.board[c.index()] != 0 {
                        return Err(bad());
                    }
                    set.insert(c);
                }
                if state.board[victim.index()] == 0 {
                    return Err(bad());
                }
                state.set_ghost(&rules, set, victim);
            } else if let Some(spec) = f.strip_prefix("turn=") {
                let bad = || {
                    err(
                        at,
                        PositionErrorKind::BadExtra {
                            field: "turn",
                            text: spec.to_string(),
                        },
                    )
                };
                let most = rules.turn.as_ref().map_or(0, |t| t.0);
                let (n, cells) = spec.split_once(':').unwrap_or((spec, ""));
                let n: u8 = n.parse().map_err(|_| bad())?;
                if n == 0 || n >= most {
                    return Err(bad());
                }
                let mut set = crate::cell::CellSet::EMPTY;
                for name in cells.split(',').filter(|n| !n.is_empty()) {
                    let c = g.parse_cell(name).ok_or_else(bad)?;
                    let own = crate::piece::Piece::from_code(state.board[c.index()])
                        .is_some_and(|p| p.owner() == state.side);
                    if !own {
                        return Err(bad());
                    }
                    set.insert(c);
                }
                state.set_turn(n, set);
            } else if f == "setup" {
                setup = true;
            } else if f == "draw" {
                state.outcome = Some(Outcome::Draw);
            } else {
                return Err(err(at, PositionErrorKind::UnknownField(f.to_string())));
            }
        }
        if setup && state.outcome.is_some() {
            return Err(err(
                text.find("setup").unwrap_or(0),
                PositionErrorKind::SetupWithResult,
            ));
        }
        state.remember(&rules);
        // A position written without a result ends as the same position reached by a move,
        // unless it says it was set up.
        if !setup {
            state.settle(&rules);
        }
        Ok(Position { rules, state })
    }
}

/// Reads `CODE:N,CODE:N`: how many pieces of each code their owner has in hand.
fn read_hand(rules: &Rules, state: &mut State, list: &str) -> Result<(), PositionErrorKind> {
    let core = rules.core();
    for entry in list.split(',').filter(|e| !e.is_empty()) {
        let bad = |why: String| PositionErrorKind::BadHand {
            field: "hand",
            text: entry.to_string(),
            why,
        };
        let (code, n) = entry
            .split_once(':')
            .ok_or_else(|| bad("expected CODE:N, as in `WA:3`".into()))?;
        let piece = core
            .piece_by_code(code)
            .ok_or_else(|| bad(format!("`{code}` is not a piece of {}", core.name())))?;
        let Some(supply) = rules.supply(piece.kind()) else {
            return Err(bad(format!(
                "{} are not kept in hand in this game (their supply is unlimited or they are never placed)",
                rules.kind_name(piece.kind())
            )));
        };
        let n: u16 = n
            .parse()
            .map_err(|_| bad(format!("`{n}` is not a number")))?;
        // Captures may fill a hand past its supply.
        let fed = rules.to_hand.contains(&Some(piece.kind()));
        if n > supply && !fed {
            return Err(bad(format!(
                "a player has at most {supply} {} in hand",
                rules.kind_name(piece.kind())
            )));
        }
        state.set_reserve(piece.code(), n);
    }
    Ok(())
}

/// A move in human notation: `a7-a6`, `a3xa4`, `c1xc3xe3`, `d1-d7/g7`, `e5`, `pass`; a
/// placement in a game where several kinds may be placed names its kind: `D@e5`; a piece
/// removed by the mover's choice comes last, after `/x`: `d2-d3/xg7`, `e5/xg7`.
pub fn move_text(rules: &Rules, m: &Move) -> String {
    let g = rules.geometry();
    if m.is_pass() {
        return "pass".to_string();
    }
    // The piece removed by the mover's choice, last but for a promotion (`d2-d3/xg7`).
    let removal = m
        .removal()
        .map(|at| format!("/x{}", g.name(at)))
        .unwrap_or_default();
    if m.is_placement() && rules.placed_kinds > 1 {
        // Several kinds may be placed: the kind's letter says which (`D@c3`).
        let kind = rules.moves[m.rule() as usize].kind;
        return format!(
            "{}@{}{removal}",
            rules.core().kind_letter(kind),
            g.name(m.to())
        );
    }
    let sep = if m.is_capture() { "x" } else { "-" };
    let mut path = m.path(rules.geometry());
    if m.removal().is_some() {
        path.pop();
    }
    let second = m.second().and_then(|_| path.pop());
    let mut text = path
        .iter()
        .map(|c| g.name(*c).to_string())
        .collect::<Vec<_>>()
        .join(sep);
    if let Some(at) = second {
        text.push('/');
        text.push_str(&g.name(at).to_string());
    }
    text.push_str(&removal);
    if let Some(p) = m.promotion() {
        text.push('=');
        text.push_str(rules.core().kind_letter(p.kind()));
    }
    text
}

/// Reads a move in notation with its promotion choice, if any: [`parse_path`] after
/// [`split_choice`].
pub fn parse_move(
    rules: &Rules,
    text: &str,
) -> Result<(Vec<Cell>, Option<crate::KindId>), NotationError> {
    let (path, choice) = split_choice(rules, text)?;
    Ok((parse_path(rules, path)?, choice))
}

/// Splits a choice of kind off a move in notation: a promotion's, `e7-e8=Q` is `e7-e8` and
/// the kind whose letter is `Q` (any case); a placement's, `D@e5` (or `e5=D`) is `e5` and the
/// kind whose letter is `D`. Text without `=` or `@` has no choice.
pub fn split_choice<'t>(
    rules: &Rules,
    text: &'t str,
) -> Result<(&'t str, Option<crate::KindId>), NotationError> {
    let t = text.trim();
    let (path, letter) = match (t.split_once('='), t.split_once('@')) {
        (Some((path, letter)), _) => (path, letter),
        (None, Some((letter, path))) => (path, letter),
        (None, None) => return Ok((text, None)),
    };
    let kind = rules.kinds().find(|k| {
        rules
            .core()
            .kind_letter(*k)
            .eq_ignore_ascii_case(letter.trim())
    });
    match kind {
        Some(k) => Ok((path, Some(k))),
        None => Err(NotationError {
            text: text.to_string(),
            kind: NotationErrorKind::NotAKind(letter.trim().to_string()),
        }),
    }
}

/// What is wrong with a move in notation (see [`NotationError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationErrorKind {
    /// Something other than a cell where a cell was expected; the text from there.
    #[error("expected a cell such as `a1` at `{0}`")]
    ExpectedCell(String),
    /// A cell name this board does not have.
    #[error("`{0}` is not a cell of this board")]
    NotACell(String),
    /// A promotion choice (`=Q`) that names no kind.
    #[error("`{0}` is not the letter of a kind of piece")]
    NotAKind(String),
    /// Fewer than two cells.
    #[error("a move needs at least two cells")]
    TooFewCells,
}

/// Text that is not a move in notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a move: {kind}")]
pub struct NotationError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub kind: NotationErrorKind,
}

/// Reads a move's path from notation (`a7-a6`, `a7a6`, `c1xc3xe3`, `d1-d7/g7` with a second
/// part, `e5` for a placement in a game with placements, `pass` for a pass, which is the
/// empty path); the cells must exist.
pub fn parse_path(rules: &Rules, text: &str) -> Result<Vec<Cell>, NotationError> {
    let g = rules.geometry();
    let bad = |kind| NotationError {
        text: text.to_string(),
        kind,
    };
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Vec::new());
    }
    let mut cells = Vec::new();
    let mut i = 0;
    let b = t.as_bytes();
    while i < b.len() {
        // Between cells: `-`, `:`, `/`, or `x` when no row number follows it (`x5` is a cell
        // of column x on a wide board).
        let separator = match b[i] {
            b'-' | b':' | b'/' => true,
            b'x' => !b.get(i + 1).is_some_and(u8::is_ascii_digit),
            _ => false,
        };
        if separator && !cells.is_empty() {
            i += 1;
            continue;
        }
        let start = i;
        if !b[i].is_ascii_lowercase() {
            return Err(bad(NotationErrorKind::ExpectedCell(t[i..].to_string())));
        }
        // A column name is one or two letters; an `x` after a cell's digits is a separator.
        i += 1;
        if i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let name = &t[start..i];
        let cell = g
            .parse_cell(name)
            .ok_or_else(|| bad(NotationErrorKind::NotACell(name.to_string())))?;
        cells.push(cell);
    }
    let placement = cells.len() == 1 && !rules.placements.is_empty();
    if cells.len() < 2 && !placement {
        return Err(bad(NotationErrorKind::TooFewCells));
    }
    Ok(cells)
}
