//! `ply analyse`: the best move of a position, its score and principal variation, printed as
//! the search deepens.
//!
//! With alpha-beta (the default), one line per completed depth: depth, score (from the view
//! of the side to move: `+1.00` a piece ahead, `win in 5` plies), nodes, nodes per second,
//! time, and the principal variation. With `--engine mcts`, a line every half second: the
//! iterations, the best move's visits and win rate, and the most visited line. Then the best
//! move. `--json` prints one document at the end instead.

use crate::common::{PackArgs, load_pack, position_at};
use crate::engines::{evaluation, line_text, parse_spec, search_error};
use crate::output::{CliError, CmdResult, Context, print_json, rate};
use clap::Args;
use ply_kernel::move_text;
use ply_search::{AlphaBeta, EngineKind, EngineSpec, Limits, Mcts, MctsConfig, parse_duration};
use serde_json::json;
use std::time::{Duration, Instant};

/// `ply analyse`.
#[derive(Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// A position string to analyse (default: the start).
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// How long to search (as 2s, 500ms, 1m).
    #[arg(long, value_parser = parse_duration, value_name = "TIME")]
    pub time: Option<Duration>,
    /// Alpha-beta: the deepest depth (with --time, the first reached stops).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// The engine: alphabeta (default) or mcts, with settings as `--vs` takes them
    /// (mcts:threads=2); --time and --depth override its limits.
    #[arg(long, value_parser = parse_spec, default_value = "alphabeta", value_name = "PLAYER")]
    pub engine: EngineSpec,
    /// One JSON document at the end.
    #[arg(long)]
    pub json: bool,
}

/// Runs `ply analyse`.
pub fn run(args: &AnalyseArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let pos = position_at(rules.clone(), args.position.as_deref())?;
    let mut spec = args.engine.clone();
    if args.time.is_some() {
        spec.time = args.time;
    }
    if args.depth.is_some() {
        spec.depth = args.depth;
    }
    // Without a limit of its own kind, an engine analyses for 2 s (a depth does not stop MCTS,
    // iterations do not stop alpha-beta).
    let limited = match spec.kind {
        EngineKind::Mcts => spec.time.is_some() || spec.iterations.is_some(),
        _ => spec.time.is_some() || spec.depth.is_some() || spec.nodes.is_some(),
    };
    if !limited {
        spec.time = Some(Duration::from_secs(2));
    }
    let core = rules.core();
    let side = core.player_name(pos.side_to_move()).to_string();
    if !args.json {
        writeln!(cx.out, "{}: analysing for {side} with {spec}", core.name())?;
    }
    match spec.kind {
        EngineKind::Random => Err(CliError::invalid(
            "`random` does not analyse: use alphabeta or mcts",
        )),
        EngineKind::AlphaBeta => {
            let mut ab = AlphaBeta::try_new(evaluation(&pack), spec.alphabeta_config())
                .map_err(CliError::invalid)?;
            let mut limits = spec.limits();
            limits.iterations = None;
            let json = args.json;
            let out = &mut *cx.out;
            let mut failed: Option<std::io::Error> = None;
            let info = ab
                .search(&pos, &limits, &mut |i| {
                    if !json && failed.is_none() {
                        let line = format!(
                            "depth {:>2}/{:<2} score {:>11}  nodes {:>9}  {:>12}  {:>6.2} s  pv {}",
                            i.depth,
                            i.seldepth,
                            i.score.to_string(),
                            i.nodes,
                            format!("{}/s", rate(i.nodes_per_second())),
                            i.elapsed.as_secs_f64(),
                            line_text(&pos, &i.pv)
                        );
                        // Each depth as it completes.
                        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                            failed = Some(e);
                        }
                    }
                })
                .map_err(|e| search_error(&rules, &e))?;
            if let Some(e) = failed {
                return Err(e.into());
            }
            let best = info.pv[0];
            if args.json {
                print_json(
                    cx.out,
                    &json!({
                        "engine": spec.to_string(),
                        "to_move": side,
                        "best": move_text(&rules, &best),
                        "score": info.score.0,
                        "score_text": info.score.to_string(),
                        "depth": info.depth,
                        "seldepth": info.seldepth,
                        "nodes": info.nodes,
                        "seconds": info.elapsed.as_secs_f64(),
                        "nodes_per_second": info.nodes_per_second(),
                        "pv": info.pv.iter().map(|m| move_text(&rules, m)).collect::<Vec<_>>(),
                    }),
                )?;
            } else {
                writeln!(
                    cx.out,
                    "best move {} (score {}, depth {}, {} nodes in {:.2} s, {}/s)",
                    move_text(&rules, &best),
                    info.score,
                    info.depth,
                    info.nodes,
                    info.elapsed.as_secs_f64(),
                    rate(info.nodes_per_second())
                )?;
            }
            Ok(())
        }
        EngineKind::Mcts => {
            let mut mcts = Mcts::with_eval(
                MctsConfig {
                    exploration: spec.exploration,
                    playout_plies: spec.playout,
                    threads: spec.threads,
                    seed: spec.seed.unwrap_or(0),
                    reuse: true,
                    cutoff: spec.cutoff,
                    ..MctsConfig::default()
                },
                evaluation(&pack),
            );
            let started = Instant::now();
            let total_time = spec.time;
            let total_iterations = spec.iterations;
            let slice = Duration::from_millis(500);
            let mut iterations = 0u64;
            let info = loop {
                let mut limits = Limits::default();
                if let Some(t) = total_time {
                    limits.time = Some(t.saturating_sub(started.elapsed()).min(slice));
                }
                if let Some(n) = total_iterations {
                    limits.iterations = Some(n - iterations);
                    if total_time.is_none() {
                        limits.time = Some(slice);
                    }
                }
                let mut info = mcts
                    .search(&pos, &limits)
                    .map_err(|e| search_error(&rules, &e))?;
                iterations += info.iterations;
                info.iterations = iterations;
                info.elapsed = started.elapsed();
                let proven = info.best.proven.is_some();
                let done = proven
                    || total_time.is_some_and(|t| started.elapsed() >= t)
                    || total_iterations.is_some_and(|n| iterations >= n);
                if !args.json {
                    let value = match info.best.proven {
                        Some(true) => "proven win".to_string(),
                        Some(false) => "proven loss".to_string(),
                        None => format!("wins {:>5.1}%", info.best.value * 100.0),
                    };
                    writeln!(
                        cx.out,
                        "{:>6.2} s  iterations {:>9}  {:>12}  best {} ({} visits, {value})  pv {}",
                        info.elapsed.as_secs_f64(),
                        info.iterations,
                        format!(
                            "{}/s",
                            rate(iterations as f64 / info.elapsed.as_secs_f64().max(1e-9))
                        ),
                        move_text(&rules, &info.best.mv),
                        info.best.visits,
                        line_text(&pos, &info.pv)
                    )?;
                    cx.out.flush()?;
                }
                if done {
                    break info;
                }
            };
            let best = info.best.mv;
            if args.json {
                print_json(
                    cx.out,
                    &json!({
                        "engine": spec.to_string(),
                        "to_move": side,
                        "best": move_text(&rules, &best),
                        "win_rate": info.best.value,
                        "proven": info.best.proven,
                        "iterations": info.iterations,
                        "seconds": info.elapsed.as_secs_f64(),
                        "pv": info.pv.iter().map(|m| move_text(&rules, m)).collect::<Vec<_>>(),
                        "moves": info.moves.iter().map(|s| json!({
                            "move": move_text(&rules, &s.mv),
                            "visits": s.visits,
                            "win_rate": s.value,
                            "proven": s.proven,
                        })).collect::<Vec<_>>(),
                    }),
                )?;
            } else {
                writeln!(
                    cx.out,
                    "best move {} ({} of {} visits, wins {:.1}%{})",
                    move_text(&rules, &best),
                    info.best.visits,
                    info.moves.iter().map(|s| s.visits).sum::<u64>(),
                    info.best.value * 100.0,
                    match info.best.proven {
                        Some(true) => ", proven win",
                        Some(false) => ", proven loss",
                        None => "",
                    }
                )?;
            }
            Ok(())
        }
    }
}
