//! `ply validate`: load packs, report every problem, play a little with those that load.
//!
//! A pack that loads is played a little before it is declared good: every sequence of
//! [`SMOKE_DEPTH`] moves from the start (a perft), [`SMOKE_PLAYOUTS`] seeded random games, the
//! board drawn and the start's position string read back. A crash in any of this (or in the
//! loader) is caught and reported as an error of the pack, so that "validates, then crashes"
//! cannot happen.
//!
//! As with rustc, the diagnostics go to standard error; standard output gets one verdict line
//! per pack (and a total), or with `--json` one JSON document with everything.

use crate::common::SetArgs;
use crate::common::panic_message;
use crate::output::{CliError, CmdResult, Context, GREEN, RED, paint, plural, print_json};
use clap::Args;
use ply_kernel::{Outcome, Position, Rng, Rules, Status};
use ply_lang::{Diagnostic, Severity, Sources};
use serde_json::{Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deep the check plays every sequence of moves from the start (a perft), at most.
pub const SMOKE_DEPTH: u32 = 3;
/// The check goes one move deeper only while its estimate of the sequences there (this
/// depth's count times the number of first moves) stays within this.
pub const SMOKE_NODES: u64 = 200_000;
/// The number of random games the check plays.
pub const SMOKE_PLAYOUTS: u32 = 20;
/// The most moves of each random game of the check.
pub const SMOKE_MAX_PLIES: u32 = 1000;
/// The seed of the check's random games.
pub const SMOKE_SEED: u64 = 0x5EED;

/// What was found about one pack.
struct Report {
    path: String,
    ok: bool,
    errors: Vec<Value>,
    warnings: Vec<Value>,
    /// The rendered diagnostics.
    text: String,
    /// What follows the path on the summary line.
    summary: String,
}

/// `ply validate`.
#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Packs, or directories (each means every `*.toml` directly in it).
    #[arg(required = true, value_name = "PACK_OR_DIR")]
    pub paths: Vec<PathBuf>,
    /// Option values, for every pack.
    #[command(flatten)]
    pub options: SetArgs,
    /// One JSON document with every pack's diagnostics.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ply validate`.
pub fn run(args: &ValidateArgs, cx: &mut Context<'_>) -> CmdResult {
    let mut reports = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            match packs_in(path) {
                Ok(files) if files.is_empty() => reports.push(failure(
                    path,
                    format!("no `*.toml` pack in directory {}", path.display()),
                    cx.err_color,
                )),
                Ok(files) => {
                    for f in files {
                        reports.push(check(&f, &args.options.set, cx.err_color));
                    }
                }
                Err(e) => reports.push(failure(
                    path,
                    format!("cannot read directory {}: {e}", path.display()),
                    cx.err_color,
                )),
            }
        } else {
            reports.push(check(path, &args.options.set, cx.err_color));
        }
    }
    let failed = reports.iter().filter(|r| !r.ok).count();
    let color = cx.out_color;
    if args.json {
        let packs: Vec<Value> = reports
            .iter()
            .map(|r| {
                json!({
                    "path": r.path,
                    "ok": r.ok,
                    "errors": r.errors,
                    "warnings": r.warnings,
                })
            })
            .collect();
        print_json(cx.out, &json!({ "ok": failed == 0, "packs": packs }))?;
    } else {
        for r in &reports {
            write!(cx.err, "{}", r.text)?;
            cx.err.flush()?;
            let tag = if r.ok {
                paint(color, GREEN, "ok  ")
            } else {
                paint(color, RED, "FAIL")
            };
            writeln!(cx.out, "{tag}  {}  ({})", r.path, r.summary)?;
        }
        if reports.len() > 1 {
            writeln!(
                cx.out,
                "{} checked: {} ok, {} failed",
                plural(reports.len(), "pack"),
                reports.len() - failed,
                failed
            )?;
        }
    }
    if failed > 0 {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}

/// The `*.toml` files directly in a directory, sorted by name.
fn packs_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// A report for a path that is not a pack at all.
fn failure(path: &Path, message: String, color: bool) -> Report {
    let d = Diagnostic::error(None, message);
    Report {
        path: path.display().to_string(),
        ok: false,
        errors: vec![diagnostic_json(&d, &Sources::default())],
        warnings: Vec::new(),
        text: d.render_with(&Sources::default(), color),
        summary: "1 error".to_string(),
    }
}

/// Loads and smoke-runs one pack.
fn check(path: &Path, set: &[(String, String)], color: bool) -> Report {
    let shown = path.display().to_string();
    let loaded = catch_unwind(AssertUnwindSafe(|| ply_lang::load(path, set)));
    let pack = match loaded {
        Err(panic) => {
            return failure(
                path,
                format!("the loader crashed: {}", panic_message(&*panic)),
                color,
            );
        }
        Ok(Err(e)) => {
            let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) = e
                .diagnostics
                .iter()
                .partition(|d| d.severity == Severity::Error);
            let mut summary = plural(errors.len(), "error");
            if !warnings.is_empty() {
                summary.push_str(&format!(", {}", plural(warnings.len(), "warning")));
            }
            return Report {
                path: shown,
                ok: false,
                errors: errors
                    .iter()
                    .map(|d| diagnostic_json(d, &e.sources))
                    .collect(),
                warnings: warnings
                    .iter()
                    .map(|d| diagnostic_json(d, &e.sources))
                    .collect(),
                text: e.render(color),
                summary,
            };
        }
        Ok(Ok(pack)) => pack,
    };
    let warnings: Vec<Value> = pack
        .warnings
        .iter()
        .map(|d| diagnostic_json(d, &pack.sources))
        .collect();
    let mut text = String::new();
    for w in &pack.warnings {
        text.push_str(&w.render_with(&pack.sources, color));
        text.push('\n');
    }
    let name = pack.rules.core().name().to_string();
    let kinds = pack.rules.core().kind_count();
    match smoke(pack.rules.clone()) {
        Ok((depth, count)) => {
            let mut summary = format!(
                "{name}, {} of piece; played all {count} sequences of {depth} {} from \
                 the start and {SMOKE_PLAYOUTS} random games",
                plural(kinds, "kind"),
                if depth == 1 { "move" } else { "moves" }
            );
            if !warnings.is_empty() {
                summary.push_str(&format!(", {}", plural(warnings.len(), "warning")));
            }
            Report {
                path: shown,
                ok: true,
                errors: Vec::new(),
                warnings,
                text,
                summary,
            }
        }
        Err(message) => {
            let d = Diagnostic::error(None, format!("the pack loads, but {message}"));
            text.push_str(&d.render_with(&pack.sources, color));
            text.push('\n');
            Report {
                path: shown,
                ok: false,
                errors: vec![diagnostic_json(&d, &pack.sources)],
                warnings,
                text,
                summary: format!("{name}: 1 error when playing it"),
            }
        }
    }
}

/// Plays the pack a little: returns the depth and the count of its perft (up to
/// [`SMOKE_DEPTH`] moves, as deep as [`SMOKE_NODES`] allows), or what went wrong.
fn smoke(rules: Arc<Rules>) -> Result<(u32, u64), String> {
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut start = Position::start(rules.clone());
        let _ = start.render();
        let text = start.to_position_string();
        match Position::from_position_string(rules.clone(), &text) {
            Ok(back) if back.to_position_string() == text => {}
            Ok(back) => {
                return Err(format!(
                    "the start's position string `{text}` reads back as `{}`",
                    back.to_position_string()
                ));
            }
            Err(e) => {
                return Err(format!(
                    "the start's position string `{text}` does not read back: {e}"
                ));
            }
        }
        // A game that cannot start is no game (a pack without pieces, say).
        match start.status() {
            Status::ToMove(_) => {}
            Status::Over(o) => {
                let result = match o {
                    Outcome::Win(p) => format!("{} wins", rules.player_name(p)),
                    Outcome::Draw => "a draw".to_string(),
                };
                return Err(format!(
                    "the game is over before the first move ({result}): check [setup] and [end]"
                ));
            }
            Status::Stuck(p) => {
                return Err(format!(
                    "{} has no legal move in the starting position: check [setup]",
                    rules.player_name(p)
                ));
            }
        }
        let limit =
            |e: ply_kernel::MoveLimit| format!("a position reached in play is refused: {e}");
        let first = start.perft(1).map_err(limit)?;
        let (mut depth, mut count) = (1, first);
        while depth < SMOKE_DEPTH && count.saturating_mul(first) <= SMOKE_NODES {
            depth += 1;
            count = start.perft(depth).map_err(limit)?;
        }
        let mut rng = Rng::new(SMOKE_SEED);
        for _ in 0..SMOKE_PLAYOUTS {
            start
                .playout(&mut |n| rng.below(n), SMOKE_MAX_PLIES)
                .map_err(limit)?;
        }
        Ok((depth, count))
    }));
    match run {
        Ok(r) => r,
        Err(panic) => Err(format!(
            "playing it crashed the kernel: {}",
            panic_message(&*panic)
        )),
    }
}

/// A diagnostic as JSON: `{severity, message, file, line, column, end_line, end_column,
/// snippet, label, help}` (lines and columns from 1; the location fields are null when the
/// diagnostic has no location).
pub fn diagnostic_json(d: &Diagnostic, sources: &Sources) -> Value {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut v = json!({
        "severity": severity,
        "message": d.message,
        "file": null,
        "line": null,
        "column": null,
        "end_line": null,
        "end_column": null,
        "snippet": null,
        "label": d.label,
        "help": d.help,
    });
    if let Some(loc) = d.loc
        && let Some(file) = sources.get(loc.file)
    {
        let (line, column) = sources.line_col(loc.file, loc.start);
        let (end_line, end_column) = sources.line_col(loc.file, loc.end.max(loc.start));
        v["file"] = json!(file.name);
        v["line"] = json!(line);
        v["column"] = json!(column);
        v["end_line"] = json!(end_line);
        v["end_column"] = json!(end_column);
        v["snippet"] = json!(file.text.get(loc.start..loc.end).unwrap_or(""));
    }
    v
}
