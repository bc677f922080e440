//! Game records: the text format that `ply play --record` writes and `ply replay` reads.
//!
//! A record is UTF-8 text in two parts.
//!
//! 1. **Header**: lines `Key: value`. A key starts with an upper-case ASCII letter and goes on
//!    with letters, digits and `-`, up to the colon; the value is the rest of the line, trimmed.
//!    Known keys:
//!    - `Pack: <path>`: the pack (at most once). `ply play --record` writes the path relative
//!      to the record's directory; `ply replay` looks for it from the current directory, then
//!      from the record's directory, then in `rulesets/` (a record of `ply serve` names the
//!      pack's file only), and `--pack` overrides it;
//!    - `Set: name=value`: an option value, one line per option set (any number);
//!    - `Start: <position string>`: the starting position, only when the game did not start
//!      from the pack's standard setup (at most once);
//!    - `Result: <text>`: how the game ended (`A wins`, `draw`, `no legal move for B`), only
//!      when it did (at most once). A replay checks it.
//!
//!    Other keys are kept and reported as warnings by `ply replay`.
//! 2. **Moves**, after one blank line: moves in the notation of `ply play` (`a7-a6`, `b2xb3`,
//!    `c1xc3xe3`; read as leniently as `ply play` reads them, so `A7A6` or `a7:a6` too, but
//!    without spaces inside a move), separated by any whitespace, any number on a line.
//!
//! A line whose first non-blank character is `#` is a comment, anywhere. A record without any
//! header may start with its moves straight away. Line numbers (from 1) are kept for every
//! header and every move, so that a problem can be reported as `RECORD:LINE: message`.
//!
//! ```text
//! # Ply game record
//! Pack: rulesets/my_game.toml
//! Set: some_option=true
//! Result: A wins
//!
//! a7-a6 e3-e4
//! a6-a5
//! ```

use std::fmt::Write as _;

/// A header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The key, as written.
    pub key: String,
    /// The value, trimmed.
    pub value: String,
    /// The line it is on (from 1).
    pub line: usize,
}

/// A move of a record, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move in notation.
    pub text: String,
    /// The line it is on (from 1).
    pub line: usize,
}

/// A game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Every header line, in order (known keys included).
    pub headers: Vec<Header>,
    /// The moves.
    pub moves: Vec<RecordedMove>,
}

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The header keys a record may hold at most once.
const SINGLE: [&str; 3] = ["Pack", "Start", "Result"];
/// The header keys with a meaning.
pub const KNOWN: [&str; 4] = ["Pack", "Set", "Start", "Result"];

/// Splits `Key: value`, if the line is a header line.
fn header_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let mut chars = key.chars();
    let first = chars.next()?;
    (first.is_ascii_uppercase() && chars.all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then(|| (key, value.trim()))
}

impl Record {
    /// A record of these moves with these headers (`Pack`, each `Set`, `Start` when given,
    /// `Result` when given).
    pub fn new(
        pack: &str,
        set: &[(String, String)],
        start: Option<&str>,
        result: Option<&str>,
        moves: impl IntoIterator<Item = String>,
    ) -> Record {
        let mut headers = vec![Header {
            key: "Pack".into(),
            value: pack.into(),
            line: 0,
        }];
        for (name, value) in set {
            headers.push(Header {
                key: "Set".into(),
                value: format!("{name}={value}"),
                line: 0,
            });
        }
        for (key, value) in [("Start", start), ("Result", result)] {
            if let Some(v) = value {
                headers.push(Header {
                    key: key.into(),
                    value: v.into(),
                    line: 0,
                });
            }
        }
        Record {
            headers,
            moves: moves
                .into_iter()
                .map(|text| RecordedMove { text, line: 0 })
                .collect(),
        }
    }

    /// Reads a record.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut record = Record::default();
        let mut in_header = true;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.starts_with('#') {
                continue;
            }
            if in_header {
                if line.is_empty() {
                    if !record.headers.is_empty() {
                        in_header = false;
                    }
                    continue;
                }
                if let Some((key, value)) = header_line(line) {
                    if SINGLE.contains(&key) && record.header(key).is_some() {
                        return Err(RecordError {
                            line: line_no,
                            message: format!("a second `{key}` header"),
                        });
                    }
                    if key == "Set" && !value.contains('=') {
                        return Err(RecordError {
                            line: line_no,
                            message: format!("`Set: {value}` is not of the form `name=value`"),
                        });
                    }
                    record.headers.push(Header {
                        key: key.to_string(),
                        value: value.to_string(),
                        line: line_no,
                    });
                    continue;
                }
                if !record.headers.is_empty() {
                    return Err(RecordError {
                        line: line_no,
                        message: format!(
                            "expected a header line `Key: value`, or a blank line before the \
                             moves, found `{line}`"
                        ),
                    });
                }
                in_header = false;
            }
            for token in line.split_whitespace() {
                record.moves.push(RecordedMove {
                    text: token.to_string(),
                    line: line_no,
                });
            }
        }
        Ok(record)
    }

    /// The first header with this key.
    pub fn header(&self, key: &str) -> Option<&Header> {
        self.headers.iter().find(|h| h.key == key)
    }

    /// The option values of the `Set` headers, with their lines.
    pub fn set(&self) -> Vec<(String, String, usize)> {
        self.headers
            .iter()
            .filter(|h| h.key == "Set")
            .filter_map(|h| {
                let (n, v) = h.value.split_once('=')?;
                Some((n.trim().to_string(), v.trim().to_string(), h.line))
            })
            .collect()
    }

    /// Writes the record: a comment line, the headers, a blank line, the moves two to a line.
    pub fn to_text(&self) -> String {
        let mut out = String::from("# Ply game record\n");
        for h in &self.headers {
            let _ = writeln!(out, "{}: {}", h.key, h.value);
        }
        out.push('\n');
        for pair in self.moves.chunks(2) {
            let texts: Vec<&str> = pair.iter().map(|m| m.text.as_str()).collect();
            let _ = writeln!(out, "{}", texts.join(" "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let r = Record::new(
            "p.toml",
            &[("x".into(), "true".into())],
            Some("7/7 A"),
            Some("A wins"),
            [
                "a1-a2".to_string(),
                "b2xb3".to_string(),
                "c1-c2".to_string(),
            ],
        );
        let text = r.to_text();
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.header("Pack").unwrap().value, "p.toml");
        assert_eq!(back.header("Start").unwrap().value, "7/7 A");
        assert_eq!(back.set(), vec![("x".into(), "true".into(), 3)]);
        let moves: Vec<&str> = back.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["a1-a2", "b2xb3", "c1-c2"]);
        assert_eq!(back.moves[2].line, 8);
    }

    #[test]
    fn headerless_and_errors() {
        let r = Record::parse("# c\n\na1-a2   a3a4\n# mid\nb1-b2\n").unwrap();
        assert!(r.headers.is_empty());
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[2].line, 5);
        let e = Record::parse("Pack: a\nPack: b\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Record::parse("Pack: a\na1-a2\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Record::parse("Set: nothing\n").unwrap_err();
        assert_eq!(e.line, 1);
    }
}
