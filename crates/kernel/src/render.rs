//! ASCII rendering of a position, with terrain marked.
//!
//! Every cell is drawn as wide as the widest piece code (at least two characters): a piece by
//! its code; an empty cell by the mark of the first zone that holds it, or `.`. A shared zone
//! repeats its mark (`~~`); an owned zone writes its mark then the owner's symbol in lower
//! case (`#a` for a trap of player `A`), so that an empty cell never reads like a piece code,
//! which is a symbol in upper case then a letter (`AL`). The legend under the board spells out
//! every terrain drawing. Columns are labelled with their letters and rows with their numbers
//! from the bottom, as in human notation.
//!
//! [`Position::render_marked`] also brackets given cells (`[AR]`), for instance the cells of
//! the last move: brackets take the place of the spaces between cells, so that the columns stay
//! aligned and the marking reads the same in a terminal, a pipe or a test snapshot.

use crate::Cell;
use crate::geometry::column_name;
use crate::position::Position;
use crate::spec::ZoneCells;
use crate::status::Outcome;
use std::fmt::Write as _;

impl Position {
    /// The board as text, with coordinates, the side to move (or the result) and a legend of
    /// the terrain marks.
    pub fn render(&self) -> String {
        self.render_marked(&[])
    }

    /// The board as [`Position::render`] draws it, with each of `marked` drawn between
    /// brackets: `[AR]`, and `[AR|. ]` for two marked cells side by side. Cells off the board
    /// are ignored. With no cell marked, this is exactly [`Position::render`].
    pub fn render_marked(&self, marked: &[Cell]) -> String {
        let rules = &self.rules;
        let core = rules.core();
        let g = rules.geometry();
        let w = core.code_width().max(2);
        let label = g.rows().to_string().len();
        let is_marked = |r: usize, c: usize| {
            g.rect_cell(r, c)
                .is_some_and(|cell| g.contains(cell) && marked.contains(&cell))
        };
        let mut out = String::new();
        let header = |out: &mut String| {
            let _ = write!(out, "{:label$} ", "");
            for c in 0..g.cols() {
                let _ = write!(out, " {:<w$}", column_name(c));
            }
            out.push('\n');
        };
        header(&mut out);
        for r in 0..g.rows() {
            let rank = g.rows() - r;
            let _ = write!(out, "{rank:>label$} ");
            for c in 0..g.cols() {
                // The separator before this cell: a bracket or a bar where a marked cell
                // begins or ends.
                let left = c > 0 && is_marked(r, c - 1);
                out.push(match (left, is_marked(r, c)) {
                    (false, false) => ' ',
                    (false, true) => '[',
                    (true, false) => ']',
                    (true, true) => '|',
                });
                let Some(cell) = g.rect_cell(r, c) else {
                    continue;
                };
                let text = if !g.contains(cell) {
                    " ".repeat(w)
                } else if let Some(p) = self.piece_at(cell) {
                    format!("{:<w$}", core.code(p))
                } else {
                    terrain(self, cell, w)
                };
                out.push_str(&text);
            }
            let end = if g.cols() > 0 && is_marked(r, g.cols() - 1) {
                ']'
            } else {
                ' '
            };
            let _ = writeln!(out, "{end}{rank}");
        }
        header(&mut out);
        let why = self
            .end_reason()
            .map_or(String::new(), |r| format!(" ({})", r.name(self.rules())));
        match self.outcome() {
            Some(Outcome::Win(p)) => {
                let _ = writeln!(out, "Game over: {} wins{why}", core.player_name(p));
            }
            Some(Outcome::Draw) => {
                let _ = writeln!(out, "Game over: draw{why}");
            }
            None if self.turn_moves() > 0 => {
                let _ = writeln!(
                    out,
                    "{} to move again (move {} of the turn)",
                    core.player_name(self.side_to_move()),
                    self.turn_moves() + 1
                );
            }
            None => {
                let _ = writeln!(out, "{} to move", core.player_name(self.side_to_move()));
            }
        }
        let legend: Vec<String> = core
            .zones()
            .iter()
            .filter_map(|z| {
                let mark = z.mark?;
                Some(match &z.cells {
                    ZoneCells::Shared(_) => format!("{} {}", mark.to_string().repeat(w), z.name),
                    ZoneCells::Owned(parts) => (0..parts.len())
                        .map(|p| {
                            let player = crate::Player(p as u8);
                            format!(
                                "{} {} of {}",
                                owned_mark(self, mark, player),
                                z.name,
                                core.player_name(player)
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(", "),
                })
            })
            .collect();
        if !legend.is_empty() {
            let _ = writeln!(out, "Terrain: {}", legend.join("; "));
        }
        out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }
}

/// How an empty cell of `player`'s part of an owned zone is drawn: the mark, then the owner's
/// symbol in lower case.
fn owned_mark(pos: &Position, mark: char, player: crate::Player) -> String {
    let sym = pos.rules.core().player_symbol(player).to_lowercase();
    format!("{mark}{sym}")
}

fn terrain(pos: &Position, cell: Cell, w: usize) -> String {
    let core = pos.rules.core();
    for z in core.zones() {
        let Some(mark) = z.mark else { continue };
        match &z.cells {
            ZoneCells::Shared(s) if s.contains(cell) => return mark.to_string().repeat(w),
            ZoneCells::Owned(parts) => {
                for (p, part) in parts.iter().enumerate() {
                    if part.contains(cell) {
                        let drawn = owned_mark(pos, mark, crate::Player(p as u8));
                        return format!("{drawn:<w$}");
                    }
                }
            }
            _ => {}
        }
    }
    format!("{:<w$}", ".")
}
