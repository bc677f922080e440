//! Sources and diagnostics.
//!
//! Every problem found in a pack becomes a [`Diagnostic`] with a location in one of the
//! loaded files (a pack and the packs it extends). Loading goes on after a problem so that
//! one run reports all of them; [`LoadError`] carries the list and renders it in the style of
//! rustc, so that a designer who knows one knows the other: `error: message`, ` --> file:line:col`,
//! the source line, carets under the offending text, and `= help:` hints.

use std::fmt;
use std::sync::Arc;

/// One loaded file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in messages (the path as given).
    pub name: String,
    /// The text.
    pub text: Arc<str>,
}

/// The files of a load, indexed by [`Loc::file`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file, returning its index.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> usize {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        self.files.len() - 1
    }

    /// A file.
    pub fn get(&self, file: usize) -> Option<&SourceFile> {
        self.files.get(file)
    }

    /// Line and column (both from 1, the column in characters) of a byte offset.
    pub fn line_col(&self, file: usize, offset: usize) -> (usize, usize) {
        let Some(f) = self.files.get(file) else {
            return (1, 1);
        };
        let offset = offset.min(f.text.len());
        let before = &f.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

/// A byte range in a loaded file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    /// Index into [`Sources`].
    pub file: usize,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// How bad a diagnostic is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The pack cannot be played.
    Error,
    /// The pack plays, but something looks wrong.
    Warning,
}

/// A located problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
    /// Where, if anywhere.
    pub loc: Option<Loc>,
    /// A short note under the caret.
    pub label: Option<String>,
    /// A hint on how to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: Option<Loc>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            loc,
            label: None,
            help: None,
        }
    }

    /// A warning at `loc`.
    pub fn warning(loc: Option<Loc>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(loc, message)
        }
    }

    /// With a label under the caret.
    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    /// With a hint.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// The hint `did you mean ...?` when a close name exists.
    #[must_use]
    pub fn suggest<'a>(
        self,
        wrong: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Diagnostic {
        match did_you_mean(wrong, candidates) {
            Some(s) => self.help(format!("did you mean `{s}`?")),
            None => self,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The candidate closest to `wrong`, if it is close enough to be a likely typo. Closeness is
/// judged ignoring case; among close candidates, the one closest with case counted wins, so
/// `Rabit` suggests the kind `Rabbit` before the player `RABBIT`.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = wrong.to_lowercase();
    let mut best: Option<((f64, f64), &str)> = None;
    for c in candidates {
        let loose = strsim::jaro_winkler(&lower, &c.to_lowercase());
        if loose <= 0.8 {
            continue;
        }
        let score = (strsim::jaro_winkler(wrong, c), loose);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// What a diagnostic is about, without the case that the kernel appends to an evaluation
/// error (`division by zero, when AE moves a5-a5` is about `division by zero`).
fn cause(message: &str) -> &str {
    message.split_once(", when ").map_or(message, |(c, _)| c)
}

/// Whether a line of a diagnostic's help is the note of [`collapse`].
fn is_more_like_it(line: &str) -> bool {
    line.strip_prefix("and ")
        .and_then(|r| r.strip_suffix(" more like it"))
        .is_some_and(|n| n.parse::<usize>().is_ok())
}

/// The note that says how many diagnostics one stands for.
pub(crate) fn more_like_it(n: usize) -> String {
    format!("and {n} more like it")
}

/// One diagnostic per place and cause: exact copies are dropped, and diagnostics at the same
/// place whose messages differ only in the case named after `, when` become the first of
/// them, with a note "and N more like it". With `any_place`, diagnostics with exactly the
/// same message are one whatever their place (the kernel reports some limits once per part
/// of the pack that goes over them). The order of first appearance is kept.
pub(crate) fn collapse(diags: Vec<Diagnostic>, any_place: bool) -> Vec<Diagnostic> {
    type Key = (Severity, Option<Loc>, String);
    let mut out: Vec<(Diagnostic, usize)> = Vec::new();
    let mut seen: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    for d in diags {
        let key = if any_place {
            (d.severity, None, d.message.clone())
        } else {
            (d.severity, d.loc, cause(&d.message).to_string())
        };
        match seen.get(&key) {
            Some(&i) => {
                if out[i].0 != d {
                    out[i].1 += 1;
                }
            }
            None => {
                seen.insert(key, out.len());
                out.push((d, 0));
            }
        }
    }
    out.into_iter()
        .map(|(mut d, more)| {
            if more > 0 {
                d.help = Some(match d.help.take() {
                    Some(h) => format!("{h}\n{}", more_like_it(more)),
                    None => more_like_it(more),
                });
            }
            d
        })
        .collect()
}

/// ANSI styles of the rendering, as rustc uses them.
const BOLD_RED: &str = "1;31";
const BOLD_YELLOW: &str = "1;33";
const BOLD_BLUE: &str = "1;34";
const BOLD: &str = "1";

fn paint(color: bool, code: &str, text: &str) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Columns a piece of a source line takes when shown: a tab is shown as four spaces.
fn shown_width(text: &str) -> usize {
    text.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

impl Diagnostic {
    /// Renders the diagnostic in the style of rustc: an `error: message` (or `warning:`)
    /// headline, then, when the location is known, ` --> file:line:col`, the source line and
    /// carets under the offending text with the label, then `= help:` and `= note:` lines.
    /// With `color`, ANSI colours as rustc's; without, plain text and no escape codes.
    pub fn render_with(&self, sources: &Sources, color: bool) -> String {
        let (word, accent) = match self.severity {
            Severity::Error => ("error", BOLD_RED),
            Severity::Warning => ("warning", BOLD_YELLOW),
        };
        let mut out = format!(
            "{}{}\n",
            paint(color, accent, word),
            paint(color, BOLD, &format!(": {}", self.message))
        );
        let located = self
            .loc
            .and_then(|loc| sources.get(loc.file).map(|file| (loc, file)));
        let gutter = match located {
            Some((loc, file)) => {
                let text = &*file.text;
                let start = floor_boundary(text, loc.start.min(text.len()));
                let end = floor_boundary(text, loc.end.clamp(start, text.len()));
                let (line, col) = sources.line_col(loc.file, start);
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
                let source_line = text[line_start..line_end].trim_end_matches('\r');
                let number = line.to_string();
                let pad = " ".repeat(number.len());
                let bar = paint(color, BOLD_BLUE, "|");
                out.push_str(&format!(
                    "{pad}{} {}:{line}:{col}\n",
                    paint(color, BOLD_BLUE, "-->"),
                    file.name
                ));
                out.push_str(&format!("{pad} {bar}\n"));
                out.push_str(&format!(
                    "{} {bar} {}\n",
                    paint(color, BOLD_BLUE, &number),
                    source_line.replace('\t', "    ")
                ));
                let before = &text[line_start..start];
                // A span over several lines is marked to the end of its first line.
                let marked = &text[start..end.min(line_end)];
                let carets = "^".repeat(shown_width(marked).max(1));
                let mut mark = format!("{}{carets}", " ".repeat(shown_width(before)));
                if let Some(label) = &self.label {
                    mark.push(' ');
                    mark.push_str(label);
                }
                out.push_str(&format!("{pad} {bar} {}\n", paint(color, accent, &mark)));
                pad
            }
            None => " ".to_string(),
        };
        if let Some(help) = &self.help {
            if located.is_some() {
                out.push_str(&format!("{gutter} {}\n", paint(color, BOLD_BLUE, "|")));
            }
            for line in help.lines() {
                let kind = if is_more_like_it(line) {
                    "note"
                } else {
                    "help"
                };
                out.push_str(&format!(
                    "{gutter} {} {}: {line}\n",
                    paint(color, BOLD_BLUE, "="),
                    paint(color, BOLD, kind)
                ));
            }
        }
        out
    }
}

/// The largest char boundary of `text` at or before `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A pack that could not be loaded: every problem found, with the files they point into.
#[derive(Clone, Debug)]
pub struct LoadError {
    /// The files read.
    pub sources: Sources,
    /// The problems, errors first, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// Renders every diagnostic, rustc style, with or without colour.
    pub fn render(&self, color: bool) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(&d.render_with(&self.sources, color));
            out.push('\n');
        }
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        out.push_str(&format!(
            "{errors} error{} found\n",
            if errors == 1 { "" } else { "s" }
        ));
        out
    }

    /// The number of errors (not warnings).
    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.diagnostics {
            match d.loc {
                Some(loc) => {
                    let (line, col) = self.sources.line_col(loc.file, loc.start);
                    let name = self.sources.get(loc.file).map_or("?", |f| f.name.as_str());
                    writeln!(f, "{name}:{line}:{col}: {}", d.message)?;
                }
                None => writeln!(f, "{}", d.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, message: &str) -> Diagnostic {
        Diagnostic::error(
            Some(Loc {
                file: 0,
                start,
                end: start + 1,
            }),
            message,
        )
    }

    fn sources() -> Sources {
        let mut s = Sources::default();
        s.add("pack.toml", "[rules.enter]\n\tdry = 'not to in rivr'\n");
        s
    }

    fn unknown() -> Diagnostic {
        let text = sources().get(0).unwrap().text.clone();
        let start = text.find("rivr").unwrap();
        Diagnostic::error(
            Some(Loc {
                file: 0,
                start,
                end: start + 4,
            }),
            "unknown name `rivr`",
        )
        .label("not a zone")
        .help("did you mean `river`?\nand 2 more like it")
    }

    #[test]
    fn renders_like_rustc() {
        insta::assert_snapshot!(unknown().render_with(&sources(), false), @r"
        error: unknown name `rivr`
         --> pack.toml:2:19
          |
        2 |     dry = 'not to in rivr'
          |                      ^^^^ not a zone
          |
          = help: did you mean `river`?
          = note: and 2 more like it
        ");
        let plain = Diagnostic::warning(None, "option `x` is never read").help("remove it");
        insta::assert_snapshot!(plain.render_with(&sources(), false), @r"
        warning: option `x` is never read
          = help: remove it
        ");
    }

    #[test]
    fn colour_only_when_asked() {
        let plain = unknown().render_with(&sources(), false);
        assert!(!plain.contains('\x1b'));
        let coloured = unknown().render_with(&sources(), true);
        assert!(coloured.contains("\x1b[1;31merror\x1b[0m"), "{coloured}");
        // The same text once the escapes are taken out.
        let mut stripped = String::new();
        let mut rest = coloured.as_str();
        while let Some(i) = rest.find('\x1b') {
            stripped.push_str(&rest[..i]);
            rest = &rest[i + rest[i..].find('m').unwrap() + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, plain);
    }

    #[test]
    fn one_diagnostic_per_place_and_cause() {
        let diags = vec![
            at(5, "division by zero, when AE moves a5-a5"),
            at(5, "division by zero, when AE moves a5-a6"),
            at(9, "division by zero, when AE moves a5-a5"),
            at(5, "division by zero, when AE moves a5-a7"),
            at(5, "unknown name `x`"),
            at(5, "unknown name `x`"),
        ];
        let out = collapse(diags, false);
        let shown: Vec<(usize, &str, Option<&str>)> = out
            .iter()
            .map(|d| (d.loc.unwrap().start, d.message.as_str(), d.help.as_deref()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    5,
                    "division by zero, when AE moves a5-a5",
                    Some("and 2 more like it")
                ),
                (9, "division by zero, when AE moves a5-a5", None),
                (5, "unknown name `x`", None),
            ]
        );
        let out = collapse(
            vec![at(1, "too many"), at(2, "too many"), at(3, "too many")],
            true,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].help.as_deref(), Some("and 2 more like it"));
    }

    #[test]
    fn the_same_case_comes_first() {
        assert_eq!(did_you_mean("Rabit", ["RABBIT", "Rabbit"]), Some("Rabbit"));
        assert_eq!(did_you_mean("Rabit", ["Rabbit", "RABBIT"]), Some("Rabbit"));
        assert_eq!(did_you_mean("RABIT", ["Rabbit", "RABBIT"]), Some("RABBIT"));
        // Case alone still makes a match.
        assert_eq!(did_you_mean("rabbit", ["Rabbit", "Cat"]), Some("Rabbit"));
        assert_eq!(did_you_mean("zebra", ["Rabbit", "Cat"]), None);
    }
}
