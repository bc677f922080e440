//! Where the commands read and write, how they fail, and small formatting helpers.
//!
//! Every command writes to the [`Context`]'s `out` (what the user asked for: boards, counts,
//! `--json` documents) and `err` (errors, warnings, notes and progress, as cargo and rustc do),
//! and reads from its `input`; the binary hands it the real standard streams, the tests hand it
//! buffers. So `ply validate rulesets/ > report.txt` keeps the diagnostics on the terminal,
//! and a program reading `--json` never finds a message in it.
//!
//! Problems are written one way: `error: ...`, `warning: ...` or `note: ...` at the start of a
//! line ([`Context::error`], [`Context::warning`], [`Context::note`]), the word coloured when
//! colour is on for the error stream.

use std::fmt::Display;
use std::io::{self, BufRead, Write};

/// The streams and the terminal facts a command runs with.
pub struct Context<'a> {
    /// Standard input (`play` and `script` read it).
    pub input: &'a mut dyn BufRead,
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error.
    pub err: &'a mut dyn Write,
    /// Whether to colour what is written on `out` (see [`ColorChoice`]).
    pub out_color: bool,
    /// Whether to colour what is written on `err` (see [`ColorChoice`]).
    pub err_color: bool,
    /// Whether standard error is a terminal, so that a progress bar may be drawn there.
    pub progress: bool,
    /// Whether standard input is a terminal. When it is not, `play` echoes each line it reads
    /// after the prompt, so that a transcript reads as a session.
    pub interactive: bool,
}

impl<'a> Context<'a> {
    /// A context over these streams: no colour, no progress bar, input not a terminal (as in
    /// tests and pipes).
    pub fn new(
        input: &'a mut dyn BufRead,
        out: &'a mut dyn Write,
        err: &'a mut dyn Write,
    ) -> Context<'a> {
        Context {
            input,
            out,
            err,
            out_color: false,
            err_color: false,
            progress: false,
            interactive: false,
        }
    }
}

impl Context<'_> {
    /// Writes `error: message` on the error stream.
    pub fn error(&mut self, message: impl Display) -> io::Result<()> {
        write_problem(self.err, self.err_color, Problem::Error, &message)
    }

    /// Writes `warning: message` on the error stream.
    pub fn warning(&mut self, message: impl Display) -> io::Result<()> {
        write_problem(self.err, self.err_color, Problem::Warning, &message)
    }

    /// Writes `note: message` on the error stream.
    pub fn note(&mut self, message: impl Display) -> io::Result<()> {
        write_problem(self.err, self.err_color, Problem::Note, &message)
    }
}

/// The kinds of message on the error stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// `error:` (bold red).
    Error,
    /// `warning:` (bold yellow).
    Warning,
    /// `note:` (bold cyan).
    Note,
}

/// Writes `error: message` (or `warning:`, `note:`) and a newline, the headline word coloured
/// when `color` is on.
pub fn write_problem(
    err: &mut dyn Write,
    color: bool,
    kind: Problem,
    message: &dyn Display,
) -> io::Result<()> {
    let (word, code) = match kind {
        Problem::Error => ("error", RED),
        Problem::Warning => ("warning", BOLD_YELLOW),
        Problem::Note => ("note", BOLD_CYAN),
    };
    writeln!(err, "{}: {message}", paint(color, code, word))
}

/// When to colour the output: the global `--color` flag.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour a stream only if it is a terminal and `NO_COLOR` is not set (to anything but the
    /// empty string).
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file, and whatever `NO_COLOR` says.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal, given whether `NO_COLOR` is
    /// set to a non-empty value.
    pub fn resolve(self, is_terminal: bool, no_color: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !no_color,
        }
    }
}

/// Whether the `NO_COLOR` environment variable asks for no colour (set, and not empty).
pub fn no_color_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The input is invalid; the message is printed as `error: ...`. Exit code 1.
    Invalid(String),
    /// The input is invalid and the command has already said why. Exit code 1.
    Reported,
    /// The command line is wrong in a way only the pack shows (a player it does not have);
    /// the message is printed as `error: ...`. Exit code 2, as for clap's own errors.
    Usage(String),
    /// Reading or writing failed. Exit code 1 (0 for a closed pipe on output).
    Io(io::Error),
}

impl From<ply_kernel::MoveLimit> for CliError {
    fn from(e: ply_kernel::MoveLimit) -> CliError {
        CliError::Invalid(e.to_string())
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

impl CliError {
    /// An invalid-input error with this message.
    pub fn invalid(message: impl Display) -> CliError {
        CliError::Invalid(message.to_string())
    }
}

/// What a command returns.
pub type CmdResult = Result<(), CliError>;

/// Exit code: success.
pub const EXIT_OK: u8 = 0;
/// Exit code: the input is invalid.
pub const EXIT_INVALID: u8 = 1;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: u8 = 2;

/// Reports a failure on `err` (as `error: ...`, coloured when `color`) and turns it into an
/// exit code.
pub fn exit_code(result: CmdResult, err: &mut dyn Write, color: bool) -> u8 {
    match result {
        Ok(()) => EXIT_OK,
        Err(CliError::Invalid(m)) => {
            let _ = write_problem(err, color, Problem::Error, &m);
            EXIT_INVALID
        }
        Err(CliError::Reported) => EXIT_INVALID,
        Err(CliError::Usage(m)) => {
            let _ = write_problem(err, color, Problem::Error, &m);
            EXIT_USAGE
        }
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(CliError::Io(e)) => {
            let _ = write_problem(err, color, Problem::Error, &e);
            EXIT_INVALID
        }
    }
}

/// Text in an ANSI colour when `on`.
pub fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Green.
pub const GREEN: &str = "32";
/// Bold red.
pub const RED: &str = "1;31";
/// Yellow.
pub const YELLOW: &str = "33";
/// Bold yellow.
pub const BOLD_YELLOW: &str = "1;33";
/// Bold magenta.
pub const BOLD_MAGENTA: &str = "1;35";
/// Dim.
pub const DIM: &str = "2";
/// Bold cyan.
pub const BOLD_CYAN: &str = "1;36";

/// `1 error`, `2 errors`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A rate such as `12.3 M` or `950` (for nodes/s and the like), three significant digits.
pub fn rate(per_second: f64) -> String {
    let (v, unit) = if per_second >= 1e9 {
        (per_second / 1e9, " G")
    } else if per_second >= 1e6 {
        (per_second / 1e6, " M")
    } else if per_second >= 1e3 {
        (per_second / 1e3, " k")
    } else {
        (per_second, "")
    };
    let digits = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$}{unit}")
}

/// Events per second, or 0 when no time was measured.
pub fn per_second(count: f64, seconds: f64) -> f64 {
    if seconds > 0.0 { count / seconds } else { 0.0 }
}

/// Prints a JSON value, pretty, with a final newline.
pub fn print_json(out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    writeln!(out, "{text}")
}

/// A rendered board (`Position::render`, `render_marked`) in colour when `on`: the first
/// player's pieces bold cyan, the second's bold magenta, the marks of the last move (`[`,
/// `]`) yellow, the zones' marks dim. Only the rows of cells are touched (a line that starts
/// with a row number); `codes` are the two players' piece codes.
pub fn paint_board(text: &str, codes: &[Vec<String>; 2], on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split_inclusive('\n') {
        let is_row = line
            .trim_start()
            .split(' ')
            .next()
            .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
        if !is_row {
            out.push_str(line);
            continue;
        }
        // The row number, then the cells: tokens between spaces and brackets.
        let lead = line.len() - line.trim_start().len();
        let digits = line[lead..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(0);
        out.push_str(&line[..lead + digits]);
        let rest = &line[lead + digits..];
        let mut token = String::new();
        let flush = |token: &mut String, out: &mut String| {
            if token.is_empty() {
                return;
            }
            let code = if codes[0].iter().any(|c| c == token) {
                Some(BOLD_CYAN)
            } else if codes[1].iter().any(|c| c == token) {
                Some(BOLD_MAGENTA)
            } else if token.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                None
            } else {
                Some(DIM)
            };
            match code {
                Some(c) => out.push_str(&paint(true, c, token)),
                None => out.push_str(token),
            }
            token.clear();
        };
        for ch in rest.chars() {
            match ch {
                ' ' | '\n' | '\r' => {
                    flush(&mut token, &mut out);
                    out.push(ch);
                }
                '[' | ']' => {
                    flush(&mut token, &mut out);
                    out.push_str(&paint(true, YELLOW, &ch.to_string()));
                }
                _ => token.push(ch),
            }
        }
        flush(&mut token, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_choice() {
        for no_color in [false, true] {
            for terminal in [false, true] {
                assert!(ColorChoice::Always.resolve(terminal, no_color));
                assert!(!ColorChoice::Never.resolve(terminal, no_color));
            }
        }
        assert!(ColorChoice::Auto.resolve(true, false));
        assert!(!ColorChoice::Auto.resolve(true, true));
        assert!(!ColorChoice::Auto.resolve(false, false));
    }

    #[test]
    fn problems_are_headlined() {
        let mut buf = Vec::new();
        write_problem(&mut buf, false, Problem::Warning, &"w").unwrap();
        write_problem(&mut buf, true, Problem::Error, &"e").unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "warning: w\n\x1b[1;31merror\x1b[0m: e\n"
        );
    }
}
