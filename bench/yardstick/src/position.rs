//! The position string, shared with the main kernel (FEN-like).
//!
//! Format: the rows from row 0 (top) to the last, separated by `/`. Inside a row a piece is
//! written as its two-character code (player symbol followed by piece letter) and a run of
//! empty cells as a decimal number (possibly several digits). Then whitespace and the NAME of
//! the side to move. Any further whitespace-separated fields are ignored.
//!
//! Example (standard Jungle start):
//! `AL5AT/1AD3AC1/AR1AP1AW1AE/7/7/7/BE1BW1BP1BR/1BC3BD1/BT5BL A`
//!
//! This module only handles the syntax; each engine checks the codes and the side name.

/// A two-character piece code: `[player symbol, piece letter]`.
pub type Code = [char; 2];

/// A parsed position string: the grid of piece codes and the side-to-move name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// Cells in row-major order (`row * cols + col`), `None` = empty.
    pub cells: Vec<Option<Code>>,
    /// The name of the side to move (second field).
    pub to_move: String,
}

/// Parses `text` for a board of `rows` x `cols`. Never panics; every syntax error (wrong
/// number of rows, a row too short or too long, a truncated code, a missing side field) is
/// reported as an `Err` with a message.
pub fn parse(text: &str, rows: usize, cols: usize) -> Result<Parsed, String> {
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| "empty position string".to_string())?;
    let to_move = fields
        .next()
        .ok_or_else(|| "missing side-to-move field".to_string())?
        .to_string();
    let row_texts: Vec<&str> = board.split('/').collect();
    if row_texts.len() != rows {
        return Err(format!(
            "expected {rows} rows separated by '/', found {}",
            row_texts.len()
        ));
    }
    let mut cells = Vec::with_capacity(rows * cols);
    for (r, row) in row_texts.iter().enumerate() {
        let mut width = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut run = d as usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    chars.next();
                    run = run.saturating_mul(10).saturating_add(d as usize);
                }
                if run == 0 {
                    return Err(format!("row {r}: empty run of length 0"));
                }
                if run > cols - width.min(cols) {
                    return Err(format!("row {r}: more than {cols} cells"));
                }
                width += run;
                cells.extend(std::iter::repeat_n(None, run));
            } else {
                let letter = chars
                    .next()
                    .ok_or_else(|| format!("row {r}: piece code '{ch}' lacks its piece letter"))?;
                if width >= cols {
                    return Err(format!("row {r}: more than {cols} cells"));
                }
                width += 1;
                cells.push(Some([ch, letter]));
            }
        }
        if width != cols {
            return Err(format!("row {r}: {width} cells, expected {cols}"));
        }
    }
    Ok(Parsed { cells, to_move })
}

/// Writes a position string: `cells` in row-major order (`rows * cols` entries), then a space
/// and `to_move`. Runs of empty cells are written as decimal numbers.
pub fn format(cells: &[Option<Code>], cols: usize, to_move: &str) -> String {
    let mut out = String::with_capacity(cells.len() * 2 + to_move.len() + 16);
    for (r, row) in cells.chunks(cols).enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0usize;
        for cell in row {
            match cell {
                None => run += 1,
                Some([p, l]) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(*p);
                    out.push(*l);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out.push(' ');
    out.push_str(to_move);
    out
}
