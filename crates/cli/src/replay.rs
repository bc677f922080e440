//! `ply replay`: check a game record (see [`crate::record`]) and replay it, at once or move by
//! move.
//!
//! The pack is the record's own: its `Pack` header, a path resolved against the current
//! directory, then against the record's directory (so a record shipped beside its packs
//! replays from anywhere), then in `rulesets/` of the current directory (a record downloaded
//! from `ply serve` names its pack by file name); `--pack` overrides it (with a warning when the header names another
//! file). The record's `Set` headers are applied (an option also given with `--set` takes the
//! command line's value, with a warning when they differ), and its `Start` position, if any, is
//! the starting position. Every move must be legal; the first that is not is reported as
//! `RECORD:LINE: message`, exit code 1. A `Result` header must agree with the end of the
//! replay. On success the final board, its position string and the result are printed;
//! `--step` prints the board after every move instead, numbered, with the move's cells
//! marked, and `--to N` stops after N moves (the rest of the record is not checked then).

use crate::common::{SetArgs, load_pack, position_error, read_move, result_text, why_text};
use crate::output::{CliError, CmdResult, Context, plural};
use crate::record::{Header, KNOWN, Record};
use clap::Args;
use ply_kernel::{Cell, Game, move_text};
use std::path::{Path, PathBuf};

/// `ply replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The game record.
    pub record: PathBuf,
    /// The pack to replay with, instead of the one the record's `Pack` header names.
    #[arg(long, value_name = "PACK")]
    pub pack: Option<PathBuf>,
    /// Option values (over the record's `Set` headers).
    #[command(flatten)]
    pub options: SetArgs,
    /// Print the board after every move, with the move marked.
    #[arg(long)]
    pub step: bool,
    /// Stop after this many moves.
    #[arg(long, value_name = "N")]
    pub to: Option<usize>,
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
    let pack_path = match (&args.pack, record.header("Pack")) {
        (Some(given), None) => given.clone(),
        (Some(given), Some(h)) => {
            let named = resolve(&h.value, &args.record);
            if !named.as_deref().is_some_and(|p| same_file(p, given)) {
                cx.warning(format!(
                    "{name}:{}: the record was played with pack `{}`; replaying with `{}`",
                    h.line,
                    h.value,
                    given.display()
                ))?;
            }
            given.clone()
        }
        (None, Some(h)) => resolve(&h.value, &args.record)
            .ok_or_else(|| at(h.line, &not_found(h, &args.record)))?,
        (None, None) => {
            return Err(CliError::invalid(format!(
                "{name}: the record has no `Pack` header; give the pack with --pack PACK"
            )));
        }
    };
    let mut set: Vec<(String, String)> = Vec::new();
    for (option, value, line) in record.set() {
        match args.options.set.iter().find(|(n, _)| *n == option) {
            Some((_, given)) if *given != value => cx.warning(format!(
                "{name}:{line}: the record sets {option}={value}; using {option}={given} from \
                 the command line"
            ))?,
            Some(_) => {}
            None => set.push((option, value)),
        }
    }
    set.extend(args.options.set.iter().cloned());
    let pack = load_pack(&pack_path, &set, cx)?;
    let rules = pack.rules.clone();
    let core = rules.core();

    let total = record.moves.len();
    let stop = match args.to {
        Some(n) if n > total => {
            return Err(CliError::invalid(format!(
                "--to {n}: the record {name} has {}",
                plural(total, "move")
            )));
        }
        Some(n) => n,
        None => total,
    };
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
    if args.step {
        writeln!(cx.out, "Start")?;
        write!(
            cx.out,
            "{}",
            crate::common::painted_board(game.position(), &[], cx.out_color)
        )?;
    }
    let mut marked: Vec<Cell> = Vec::new();
    for (i, m) in record.moves.iter().take(stop).enumerate() {
        let (path, choice) = read_move(&rules, &m.text).map_err(|e| at(m.line, &e))?;
        let side = game.side_to_move();
        game.play_path_choosing(None, &path, choice)
            .map_err(|e| at(m.line, &format!("move {}: {e}", m.text)))?;
        if let Some(played) = game.last_move() {
            marked = game.position().path(played).to_vec();
            if args.step {
                writeln!(
                    cx.out,
                    "\n{}. {} plays {}",
                    i + 1,
                    core.player_name(side),
                    move_text(&rules, &played)
                )?;
                write!(
                    cx.out,
                    "{}",
                    crate::common::painted_board(game.position(), &marked, cx.out_color)
                )?;
            }
        }
    }
    let result = result_text(&game);
    if stop == total
        && let Some(h) = record.header("Result")
    {
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
    if !args.step {
        write!(
            cx.out,
            "{}",
            crate::common::painted_board(game.position(), &marked, cx.out_color)
        )?;
    } else {
        writeln!(cx.out)?;
    }
    writeln!(cx.out, "Position: {}", game.position().to_position_string())?;
    match result {
        Some(r) => writeln!(cx.out, "Result: {r}{}", why_text(&game))?,
        None => writeln!(cx.out, "Result: not finished")?,
    }
    if stop == total {
        writeln!(cx.out, "{} replayed from {name}", plural(total, "move"))?;
    } else {
        writeln!(
            cx.out,
            "{stop} of {} replayed from {name} (stopped by --to)",
            plural(total, "move")
        )?;
    }
    Ok(())
}

/// The file a `Pack` header names: the path itself when it exists (absolute, or relative to
/// the current directory), else the path relative to the record's directory when that exists,
/// else the file of that name in `rulesets/` of the current directory.
fn resolve(value: &str, record: &Path) -> Option<PathBuf> {
    let path = PathBuf::from(value);
    if path.is_file() {
        return Some(path);
    }
    let beside = record.parent().map(|d| d.join(&path));
    if let Some(beside) = beside.filter(|b| path.is_relative() && b.is_file()) {
        return Some(beside);
    }
    // A record of `ply serve` names the pack by its file name in the server's folder
    // (`Pack: jungle.toml`): the folder `rulesets/` of the current directory is tried last.
    crate::common::pack_nearby(&path).filter(|p| p.starts_with("rulesets"))
}

/// Why a `Pack` header's file was not found.
fn not_found(h: &Header, record: &Path) -> String {
    let dir = record
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(".".to_string(), |d| d.display().to_string());
    format!(
        "the record's pack `{}` is found neither from the current directory nor from the \
         record's directory ({dir}) nor in rulesets/; give the pack with --pack PACK",
        h.value
    )
}

/// Whether two paths name the same file (by their canonical form when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
