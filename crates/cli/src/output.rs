//! Where the commands read and write, how they fail, and small formatting helpers.
//!
//! Every command writes to the [`Context`]'s `out` (what the user asked for) and `err`
//! (problems, notes and progress), and reads from its `input`; the binary hands it the real
//! standard streams, the tests hand it buffers.

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
    /// Whether to colour the output (a terminal, and `NO_COLOR` not set).
    pub color: bool,
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
            color: false,
            progress: false,
            interactive: false,
        }
    }
}

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The input is invalid; the message is printed as `error: ...`. Exit code 1.
    Invalid(String),
    /// The input is invalid and the command has already said why. Exit code 1.
    Reported,
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

/// Reports a failure on `err` and turns it into an exit code.
pub fn exit_code(result: CmdResult, err: &mut dyn Write) -> u8 {
    match result {
        Ok(()) => EXIT_OK,
        Err(CliError::Invalid(m)) => {
            let _ = writeln!(err, "error: {m}");
            EXIT_INVALID
        }
        Err(CliError::Reported) => EXIT_INVALID,
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(CliError::Io(e)) => {
            let _ = writeln!(err, "error: {e}");
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

/// Whether colour is wanted for a stream that is (or is not) a terminal: never when the
/// `NO_COLOR` environment variable is set to anything but the empty string.
pub fn color_wanted(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
