//! `ply perft`: the number of move paths of a given length from a position.
//!
//! By default every move is made and unmade down to depth 0 ([`Position::perft`]); `--bulk`
//! counts the moves of the last ply without making them ([`Position::perft_bulk`]). The work is
//! split by root move, which is what `--divide` prints and what the progress bar (on a
//! terminal, for depths of [`PROGRESS_DEPTH`] and more) advances on.

use crate::common::PackArgs;
use crate::common::{load_pack, position_at};
use crate::output::{CliError, CmdResult, Context, per_second, print_json, rate};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ply_kernel::{MoveLimit, Position, move_text};
use serde_json::{Value, json};
use std::time::Instant;

/// From this depth on, a run on a terminal draws a progress bar.
pub const PROGRESS_DEPTH: u32 = 6;

/// The counts of one perft run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCounts {
    /// Each root move in notation, with the count under it.
    pub divide: Vec<(String, u64)>,
    /// The total.
    pub total: u64,
}

/// Counts, split by root move; `progress` is called after each root move.
pub fn perft_divide(
    position: &mut Position,
    depth: u32,
    bulk: bool,
    mut progress: impl FnMut(),
) -> Result<PerftCounts, MoveLimit> {
    if depth == 0 {
        return Ok(PerftCounts {
            divide: Vec::new(),
            total: 1,
        });
    }
    let rules = position.rules().clone();
    let mut divide = Vec::new();
    let mut total = 0;
    for m in position.legal_moves()?.iter() {
        let u = position.make_unchecked(m);
        let n = if bulk {
            position.perft_bulk(depth - 1)
        } else {
            position.perft(depth - 1)
        };
        position.unmake_unchecked(m, u);
        let n = n?;
        divide.push((move_text(&rules, &m), n));
        total += n;
        progress();
    }
    Ok(PerftCounts { divide, total })
}

/// The deepest `ply perft` counts: the count recurses once a ply, so a deeper one is refused
/// with an error rather than risking the stack (no game is counted that deep in any case).
pub const MAX_PERFT_DEPTH: u32 = 32;

/// `ply perft`.
#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The depth in plies.
    pub depth: u32,
    /// A position string instead of the start.
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// The count under each root move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Count the last ply without making its moves.
    #[arg(long)]
    pub bulk: bool,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Leave out times and rates (for reproducible output).
    #[arg(long, hide = true)]
    pub no_timing: bool,
}

/// Runs `ply perft`.
pub fn run(args: &PerftArgs, cx: &mut Context<'_>) -> CmdResult {
    if args.depth > MAX_PERFT_DEPTH {
        return Err(CliError::invalid(format!(
            "perft depth {} is past the limit of {MAX_PERFT_DEPTH} plies (`MAX_PERFT_DEPTH`)",
            args.depth
        )));
    }
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let mut position = position_at(pack.rules.clone(), args.position.as_deref())?;
    let bar = (cx.progress && args.depth >= PROGRESS_DEPTH).then(|| {
        let bar = ProgressBar::with_draw_target(
            Some(position.legal_moves().map_or(0, |l| l.len()) as u64),
            ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            ProgressStyle::with_template("perft {bar:40} {pos}/{len} root moves, {elapsed}")
        {
            bar.set_style(style);
        }
        bar
    });
    let started = Instant::now();
    let counts = perft_divide(&mut position, args.depth, args.bulk, || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    })?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mode = if args.bulk { "bulk" } else { "make-unmake" };
    let nps = per_second(counts.total as f64, seconds);
    if args.json {
        let mut v = json!({
            "depth": args.depth,
            "mode": mode,
            "nodes": counts.total,
        });
        if args.divide {
            v["divide"] = Value::Array(
                counts
                    .divide
                    .iter()
                    .map(|(m, n)| json!({ "move": m, "nodes": n }))
                    .collect(),
            );
        }
        if !args.no_timing {
            v["seconds"] = json!(seconds);
            v["nodes_per_second"] = json!(nps);
        }
        print_json(cx.out, &v)?;
        return Ok(());
    }
    if args.divide {
        let width = counts
            .divide
            .iter()
            .map(|(m, _)| m.len())
            .max()
            .unwrap_or(0);
        for (m, n) in &counts.divide {
            writeln!(cx.out, "{m:<width$}  {n}")?;
        }
        writeln!(cx.out)?;
    }
    let how = if args.bulk {
        "last ply counted in bulk"
    } else {
        "make/unmake at every node"
    };
    writeln!(cx.out, "perft({}) = {}  ({how})", args.depth, counts.total)?;
    if !args.no_timing {
        writeln!(cx.out, "{seconds:.3} s, {} nodes/s", rate(nps))?;
    }
    Ok(())
}
