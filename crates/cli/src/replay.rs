//! `ply replay`: check a game record (see [`crate::record`]) and replay it.
//!
//! The record's `Set` headers are applied (an option also given with `--set` takes the
//! command line's value, with a warning when they differ), and its `Start` position, if any,
//! is the starting position. A `Pack` header that names another file than the PACK argument is
//! only a warning. Every move must be legal; the first that is not is reported as
//! `RECORD:LINE: message`, exit code 1. A `Result` header must agree with the end of the
//! replay. On success the final board, its position string and the result are printed.

use crate::common::PackArgs;
use crate::common::{load_pack, position_error, result_text};
use crate::output::{CliError, CmdResult, Context, plural};
use crate::record::{KNOWN, Record};
use clap::Args;
use ply_kernel::{Game, parse_path};
use std::path::Path;
use std::path::PathBuf;

/// `ply replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The game record.
    pub record: PathBuf,
}

/// Runs `ply replay`.
pub fn run(args: &ReplayArgs, cx: &mut Context<'_>) -> CmdResult {
    let name = args.record.display().to_string();
    let at = |line: usize, message: &dyn std::fmt::Display| {
        CliError::Invalid(format!("{name}:{line}: {message}"))
    };
    let text = std::fs::read(&args.record)
        .map_err(|e| CliError::invalid(format!("cannot read the record {name}: {e}")))?;
    let text = String::from_utf8(text)
        .map_err(|_| CliError::invalid(format!("{name}: the record is not UTF-8 text")))?;
    let record = Record::parse(&text).map_err(|e| at(e.line, &e.message))?;

    for h in &record.headers {
        if !KNOWN.contains(&h.key.as_str()) {
            cx.warning(format!(
                "{name}:{}: unknown header `{}` (ignored)",
                h.line, h.key
            ))?;
        }
    }
    if let Some(h) = record.header("Pack")
        && !same_file(Path::new(&h.value), &args.pack.pack)
    {
        cx.warning(format!(
            "{name}:{}: the record was played with pack `{}`; replaying with `{}`",
            h.line,
            h.value,
            args.pack.pack.display()
        ))?;
    }
    let mut set: Vec<(String, String)> = Vec::new();
    for (option, value, line) in record.set() {
        match args.pack.options.set.iter().find(|(n, _)| *n == option) {
            Some((_, given)) if *given != value => cx.warning(format!(
                "{name}:{line}: the record sets {option}={value}; using {option}={given} from \
                 the command line"
            ))?,
            Some(_) => {}
            None => set.push((option, value)),
        }
    }
    set.extend(args.pack.options.set.iter().cloned());
    let pack = load_pack(&args.pack.pack, &set, cx)?;
    let rules = pack.rules.clone();

    let mut game = match record.header("Start") {
        None => Game::new(rules.clone()),
        Some(h) => Game::from_position_string(rules.clone(), &h.value).map_err(|e| {
            let shown = position_error(&h.value, &e);
            match shown {
                CliError::Invalid(m) => at(h.line, &m),
                other => other,
            }
        })?,
    };
    for m in &record.moves {
        let path = parse_path(&rules, &m.text).map_err(|e| at(m.line, &e))?;
        game.play_path(None, &path)
            .map_err(|e| at(m.line, &format!("move {}: {e}", m.text)))?;
    }
    let result = result_text(&game);
    if let Some(h) = record.header("Result") {
        let got = result.as_deref().unwrap_or("not finished");
        if h.value != got {
            return Err(at(
                h.line,
                &format!(
                    "the record says `{}`, but the replayed game ends `{got}`",
                    h.value
                ),
            ));
        }
    }
    write!(cx.out, "{}", game.position().render())?;
    writeln!(cx.out, "Position: {}", game.position().to_position_string())?;
    match result {
        Some(r) => writeln!(cx.out, "Result: {r}")?,
        None => writeln!(cx.out, "Result: not finished")?,
    }
    writeln!(
        cx.out,
        "{} replayed from {name}",
        plural(record.moves.len(), "move")
    )?;
    Ok(())
}

/// Whether two paths name the same file (by their canonical form when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
