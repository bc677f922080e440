//! ASCII rendering of a position, with terrain marked.
//!
//! Every cell is drawn as wide as the widest piece code (at least two characters): a piece by
//! its code; an empty cell by the mark of the first zone that holds it (followed by the owner's
//! symbol for an owned zone, repeated for a shared one), or `.`. Columns are labelled with
//! their letters and rows with their numbers from the bottom, as in human notation.

use crate::position::Position;
use crate::spec::ZoneCells;
use crate::status::Outcome;
use std::fmt::Write as _;

impl Position {
    /// The board as text, with coordinates, the side to move (or the result) and a legend of
    /// the terrain marks.
    pub fn render(&self) -> String {
        let rules = &self.rules;
        let core = rules.core();
        let g = rules.geometry();
        let w = core.code_width().max(2);
        let label = g.rows().to_string().len();
        let mut out = String::new();
        let header = |out: &mut String| {
            let _ = write!(out, "{:label$} ", "");
            for c in 0..g.cols() {
                let _ = write!(out, " {:<w$}", (b'a' + c as u8) as char);
            }
            out.push('\n');
        };
        header(&mut out);
        for r in 0..g.rows() {
            let rank = g.rows() - r;
            let _ = write!(out, "{rank:>label$} ");
            for c in 0..g.cols() {
                out.push(' ');
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
            let _ = writeln!(out, " {rank}");
        }
        header(&mut out);
        match self.outcome() {
            Some(Outcome::Win(p)) => {
                let _ = writeln!(out, "Game over: {} wins", core.player_name(p));
            }
            Some(Outcome::Draw) => out.push_str("Game over: draw\n"),
            None => {
                let _ = writeln!(out, "{} to move", core.player_name(self.side_to_move()));
            }
        }
        let legend: Vec<String> = core
            .zones()
            .iter()
            .filter_map(|z| z.mark.map(|m| format!("{m} {}", z.name)))
            .collect();
        if !legend.is_empty() {
            let _ = writeln!(out, "Terrain: {}", legend.join(", "));
        }
        out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }
}

fn terrain(pos: &Position, cell: crate::Cell, w: usize) -> String {
    let core = pos.rules.core();
    for z in core.zones() {
        let Some(mark) = z.mark else { continue };
        match &z.cells {
            ZoneCells::Shared(s) if s.contains(cell) => return mark.to_string().repeat(w),
            ZoneCells::Owned(parts) => {
                for (p, part) in parts.iter().enumerate() {
                    if part.contains(cell) {
                        let sym = core.player_symbol(crate::Player(p as u8));
                        return format!("{:<w$}", format!("{mark}{sym}"));
                    }
                }
            }
            _ => {}
        }
    }
    format!("{:<w$}", ".")
}
