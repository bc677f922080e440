//! `ply balance`: the designer's report on a variant. One player spec plays itself over a
//! series of games; the report gives the first player's win rate with its 95% interval, draws
//! and games that hit the ply cap, the game lengths (with a histogram), and how often each kind
//! of piece moved, captured and was captured.

use crate::common::{PackArgs, game_at, load_pack};
use crate::engines::{
    Series, bound_series, evaluation, kind_names, parse_spec, play_series, search_error,
};
use crate::matches::Tally;
use crate::output::{CliError, CmdResult, Context, print_json};
use crate::stats::{bar, histogram, wilson};
use clap::Args;
use ply_search::EngineSpec;
use serde_json::json;

/// `ply balance`.
#[derive(Args, Debug, Clone)]
pub struct BalanceArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The player that plays both sides (random, mcts[:TIME|:ITERATIONS],
    /// alphabeta[:TIME|:depth=N]).
    #[arg(long, value_parser = parse_spec, default_value = "mcts:500", value_name = "PLAYER")]
    pub player: EngineSpec,
    /// Games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// A game not over after this many plies is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A position string to start every game from (default: the start).
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// One JSON document instead of the report.
    #[arg(long)]
    pub json: bool,
}

fn pct(x: f64) -> String {
    format!("{:5.1}%", x * 100.0)
}

/// Runs `ply balance`.
pub fn run(args: &BalanceArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let core = rules.core();
    let start = game_at(rules.clone(), args.position.as_deref())?;
    if start.status() != ply_kernel::Status::ToMove(start.side_to_move()) {
        return Err(CliError::invalid(
            "the starting position has no move to play",
        ));
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let series = Series {
        start: &start,
        specs: [&args.player, &args.player],
        evals: [evaluation(&pack), evaluation(&pack)],
        games: args.games as usize,
        threads,
        max_plies: args.max_plies,
        seed: args.seed,
        alternate: false,
    };
    bound_series(&series)?;
    let games = play_series(&series, cx.progress).map_err(|e| search_error(&rules, &e))?;
    let t = Tally::of(&games);
    let n = t.games;
    let first = start.side_to_move();
    let second = first.other();
    let decisive = t.wins[0] + t.wins[1];
    let (lo, hi) = wilson(t.wins[0], n);
    let (dlo, dhi) = wilson(t.wins[0], decisive);
    let stuck = games.iter().filter(|g| g.result.stuck).count() as u64;
    let mut lengths: Vec<u32> = games.iter().map(|g| g.result.plies).collect();
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(0);
    let names = kind_names(&rules);
    let sum = |f: fn(&crate::engines::GameResult) -> &Vec<u64>| -> Vec<u64> {
        let mut v = vec![0; names.len()];
        for g in &games {
            for (i, x) in f(&g.result).iter().enumerate() {
                v[i] += x;
            }
        }
        v
    };
    let moved = sum(|r| &r.moved);
    let captures = sum(|r| &r.captures);
    let captured = sum(|r| &r.captured);
    let total_moves: u64 = moved.iter().sum::<u64>().max(1);
    if args.json {
        print_json(
            cx.out,
            &json!({
                "game": core.name(),
                "player": args.player.to_string(),
                "games": n,
                "first_player": core.player_name(first),
                "first_wins": t.wins[0],
                "second_wins": t.wins[1],
                "draws": t.draws,
                "capped": t.capped,
                "stuck": stuck,
                "first_player_win_rate": t.wins[0] as f64 / n as f64,
                "first_player_win_rate_interval": [lo, hi],
                "first_player_share_of_decisive": if decisive > 0 { json!(t.wins[0] as f64 / decisive as f64) } else { json!(null) },
                "first_player_share_of_decisive_interval": [dlo, dhi],
                "mean_plies": t.mean_plies(),
                "median_plies": median,
                "min_plies": lengths.first(),
                "max_plies_played": lengths.last(),
                "max_plies": args.max_plies,
                "kinds": names.iter().enumerate().map(|(i, k)| json!({
                    "kind": k,
                    "moves": moved[i],
                    "move_share": moved[i] as f64 / total_moves as f64,
                    "captures": captures[i],
                    "captured": captured[i],
                })).collect::<Vec<_>>(),
                "seed": args.seed,
            }),
        )?;
        return Ok(());
    }
    let out = &mut *cx.out;
    writeln!(
        out,
        "Balance of {}: {} games of {} against itself, a draw after {} plies, seed {}",
        core.name(),
        n,
        args.player,
        args.max_plies,
        args.seed
    )?;
    writeln!(out)?;
    let rate = |k: u64| k as f64 / n as f64;
    let label_width = 9 + core
        .player_name(first)
        .len()
        .max(core.player_name(second).len());
    let label = |s: String| format!("{s:<label_width$}");
    writeln!(
        out,
        "  {} wins {}  {:<22} {}",
        label(format!("{} (first)", core.player_name(first))),
        pct(rate(t.wins[0])),
        format!("[{} to {}]", pct(lo).trim(), pct(hi).trim()),
        bar(rate(t.wins[0]), 30)
    )?;
    writeln!(
        out,
        "  {} wins {}  {:<22} {}",
        label(format!("{} (second)", core.player_name(second))),
        pct(rate(t.wins[1])),
        "",
        bar(rate(t.wins[1]), 30)
    )?;
    writeln!(
        out,
        "  {}      {}  {:<22} {}",
        label("draws".to_string()),
        pct(rate(t.draws)),
        format!("({} at the ply cap)", pct(rate(t.capped)).trim()),
        bar(rate(t.draws), 30)
    )?;
    writeln!(out)?;
    let verdict = if decisive == 0 {
        "no game was decided: the players cannot finish a game of this variant".to_string()
    } else if dlo > 0.5 {
        format!(
            "the first player is favoured: {} of the decided games (95% interval {} to {})",
            pct(dlo.mul_add(0.0, t.wins[0] as f64 / decisive as f64)).trim(),
            pct(dlo).trim(),
            pct(dhi).trim()
        )
    } else if dhi < 0.5 {
        format!(
            "the second player is favoured: the first won {} of the decided games (95% interval \
             {} to {})",
            pct(t.wins[0] as f64 / decisive as f64).trim(),
            pct(dlo).trim(),
            pct(dhi).trim()
        )
    } else {
        format!(
            "no side is favoured beyond chance: the first won {} of the decided games (95% \
             interval {} to {})",
            pct(t.wins[0] as f64 / decisive as f64).trim(),
            pct(dlo).trim(),
            pct(dhi).trim()
        )
    };
    writeln!(out, "  Verdict: {verdict}.")?;
    if t.capped * 5 > n {
        writeln!(
            out,
            "  Note: {} of the games hit the ply cap: games may not end (try --max-plies, or an \
             end rule for long games).",
            pct(rate(t.capped)).trim()
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "  Game length: mean {:.1} plies, median {}, shortest {}, longest {}",
        t.mean_plies(),
        median,
        lengths.first().unwrap_or(&0),
        lengths.last().unwrap_or(&0)
    )?;
    for line in histogram(&lengths, args.max_plies, 8, 30) {
        writeln!(out, "  {line}")?;
    }
    writeln!(out)?;
    let w = names.iter().map(|s| s.len()).max().unwrap_or(4).max(5);
    writeln!(
        out,
        "  {:<w$}  {:>8} {:>6}  {:>8}  {:>8}",
        "Piece", "moves", "share", "captures", "captured"
    )?;
    for (i, name) in names.iter().enumerate() {
        let share = moved[i] as f64 / total_moves as f64;
        writeln!(
            out,
            "  {name:<w$}  {:>8} {:>6}  {:>8}  {:>8}  {}{}",
            moved[i],
            pct(share),
            captures[i],
            captured[i],
            bar(share, 20),
            if moved[i] == 0 { " never moved" } else { "" }
        )?;
    }
    Ok(())
}
