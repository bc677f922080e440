//! `[board]` and cells: the board's size and holes, and the cell lists that zones, holes and
//! setups are written with.
use super::reader::Reader;
use crate::diag::{Diagnostic, Loc};
use crate::syntax;
use crate::tree::{Node, Table, Value};
use ply_kernel::{Cell, CellSet, Geometry};

impl Reader<'_> {
    pub(super) fn geometry(&mut self, board: &Table, top: &Table) -> Option<Geometry> {
        let loc = top.entries.get("board").map(|e| e.key_loc);
        let (Some(r), Some(c)) = (board.get("rows"), board.get("cols")) else {
            self.diags.push(
                Diagnostic::error(loc, "the board needs `rows` and `cols`")
                    .help("write `[board]` with `rows = 8` and `cols = 8`"),
            );
            return None;
        };
        let (rows, cols) = (self.int(r, "`rows`"), self.int(c, "`cols`"));
        for (v, n, max) in [
            (rows, r, ply_kernel::MAX_ROWS),
            (cols, c, ply_kernel::MAX_COLS),
        ] {
            if let Some(v) = v
                && (v < 1 || v > max as i64)
            {
                self.err(
                    n.loc,
                    format!("a board has 1 to {max} rows and columns, not {v}"),
                );
                return None;
            }
        }
        let g = match Geometry::new(rows?.max(0) as usize, cols?.max(0) as usize) {
            Ok(g) => g,
            Err(e) => {
                self.err(r.loc, e.to_string());
                return None;
            }
        };
        let g = match board.get("holes") {
            Some(h) => {
                let holes: CellSet = self.cells(h, &g).into_iter().map(|(c, _)| c).collect();
                let mut on = *g.cells();
                for c in holes.iter() {
                    on.remove(c);
                }
                g.restricted(on)
            }
            None => g,
        };
        match board.get("links") {
            Some(l) => self.links(l, g),
            None => Some(g),
        }
    }

    /// Reads `links = "a1-d1-g1 b2-d2"`: chains of cells, each two consecutive ones joined
    /// across the holes between them. A bad link is reported where it is written; the board
    /// is then kept without it.
    fn links(&mut self, node: &Node, g: Geometry) -> Option<Geometry> {
        let Value::Str(s) = &node.value else {
            self.err(
                node.loc,
                format!(
                    "`links` is a string of chains such as \"a1-d1-g1 b2-d2\", not {}",
                    node.value.type_name()
                ),
            );
            return Some(g);
        };
        let text = self.text_of(node);
        let mut out = g.clone();
        let mut offset = 0;
        for chain in s.split(|c: char| c.is_whitespace() || c == ',') {
            let start = offset;
            offset += chain.len() + 1;
            if chain.is_empty() {
                continue;
            }
            let loc = text.loc(syntax::Span {
                start,
                end: start + chain.len(),
            });
            let names: Vec<&str> = chain.split('-').collect();
            let cells: Vec<Option<Cell>> = names.iter().map(|n| g.parse_cell(n)).collect();
            if names.len() < 2 || cells.iter().any(Option::is_none) {
                let bad = names
                    .iter()
                    .zip(&cells)
                    .find(|(_, c)| c.is_none())
                    .map(|(n, _)| *n);
                let message = match bad {
                    Some(n) if names.len() >= 2 => {
                        format!(
                            "`{n}` is not a cell of this {}x{} board",
                            g.rows(),
                            g.cols()
                        )
                    }
                    _ => format!("`{chain}` is not a chain of cells"),
                };
                self.diags.push(
                    Diagnostic::error(Some(loc), message)
                        .label("not a chain of cells")
                        .help("a link is two or more cells joined by `-` (`a1-d1-g1`), each the next along a row, column or diagonal, with holes between them"),
                );
                continue;
            }
            let pairs: Vec<(Cell, Cell)> = cells
                .windows(2)
                .filter_map(|w| Some((w[0]?, w[1]?)))
                .collect();
            match out.linked(&pairs) {
                Ok(linked) => out = linked,
                Err(e) => self.diags.push(
                    Diagnostic::error(Some(loc), e.to_string())
                        .label("not a link")
                        .help("a link joins two cells of a row, column or diagonal across holes: list the cells between them in `holes`"),
                ),
            }
        }
        Some(out)
    }

    /// Reads cells: a string of names and ranges (`"a1 b4:c6"`) or an array of `[row, col]`.
    pub(super) fn cells(&mut self, node: &Node, g: &Geometry) -> Vec<(Cell, Loc)> {
        let mut out = Vec::new();
        match &node.value {
            Value::Str(s) => {
                let text = self.text_of(node);
                let mut offset = 0;
                for token in s.split(|c: char| c.is_whitespace() || c == ',') {
                    let start = offset;
                    offset += token.len() + 1;
                    if token.is_empty() {
                        continue;
                    }
                    let loc = text.loc(syntax::Span {
                        start,
                        end: start + token.len(),
                    });
                    let mut ends = token.splitn(2, ':');
                    let a = ends.next().unwrap_or("");
                    let b = ends.next();
                    // A range's corners may be cells that are not on the board (holes).
                    let corner = |name: &str| g.parse_rect_cell(name);
                    match (g.parse_cell(a), b.map(|b| (corner(a), corner(b)))) {
                        (Some(c), None) => out.push((c, loc)),
                        (_, Some((Some((r1, k1)), Some((r2, k2))))) => {
                            for r in r1.min(r2)..=r1.max(r2) {
                                for k in k1.min(k2)..=k1.max(k2) {
                                    if let Some(c) = g.cell(r as i64, k as i64) {
                                        out.push((c, loc));
                                    }
                                }
                            }
                        }
                        _ => self.diags.push(
                            Diagnostic::error(Some(loc), format!("`{token}` is not a cell of this {}x{} board", g.rows(), g.cols()))
                                .label("not a cell")
                                .help(format!(
                                    "cells are written column letter then row number from the bottom: a1 .. {}{}; a range is `b4:c6`",
                                    g.last_column_name(),
                                    g.rows()
                                )),
                        ),
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    match &item.value {
                        Value::Array(rc) if rc.len() == 2 => match (&rc[0].value, &rc[1].value) {
                            (Value::Int(r), Value::Int(c)) => match g.cell(*r, *c) {
                                Some(cell) => out.push((cell, item.loc)),
                                None => self.err(
                                    item.loc,
                                    format!(
                                        "[{r}, {c}] is not on the {}x{} board",
                                        g.rows(),
                                        g.cols()
                                    ),
                                ),
                            },
                            _ => self.err(item.loc, "a cell is [row, col] with two integers"),
                        },
                        Value::Str(_) => out.extend(self.cells(item, g)),
                        _ => self.err(item.loc, "a cell is a name such as \"a1\" or [row, col]"),
                    }
                }
            }
            other => self.err(
                node.loc,
                format!(
                    "cells must be a string such as \"a1 b4:c6\" or an array, not {}",
                    other.type_name()
                ),
            ),
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Sources;
    use crate::tree;

    /// Reads `cells = VALUE` on a 5x4 board with a hole at a1: the cells, and the messages.
    fn cells(value: &str) -> (Vec<String>, Vec<String>) {
        let mut sources = Sources::default();
        let text = format!("cells = {value}\n");
        let file = sources.add("cells.toml", text.clone());
        let mut diags = Vec::new();
        let t = tree::parse(file, &text, &mut diags).unwrap();
        let mut r = Reader::new(&sources);
        let g = Geometry::new(5, 4).unwrap();
        let mut on = *g.cells();
        on.remove(g.parse_cell("a1").unwrap());
        let g = g.restricted(on);
        let found = r.cells(t.get("cells").unwrap(), &g);
        (
            found.iter().map(|(c, _)| g.name(*c).to_string()).collect(),
            r.diags.iter().map(|d| d.message.clone()).collect(),
        )
    }

    #[test]
    fn names_ranges_and_pairs() {
        assert_eq!(cells("\"b2 c3\"").0, ["b2", "c3"]);
        // A range leaves out holes, and may have one as a corner.
        assert_eq!(cells("\"a1:b2\"").0, ["a2", "b2", "b1"]);
        assert_eq!(cells("[[0, 0], \"d1\"]").0, ["a5", "d1"]);
        let (found, errors) = cells("\"a1 e9\"");
        assert!(found.is_empty());
        assert_eq!(
            errors,
            [
                "`a1` is not a cell of this 5x4 board",
                "`e9` is not a cell of this 5x4 board"
            ]
        );
    }
}
