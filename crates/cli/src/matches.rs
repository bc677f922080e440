//! `ply match`: two players against each other over a series of games, colours alternating;
//! the score, the Elo difference with its 95% interval, draws, game lengths and how often the
//! first player won.

use crate::common::{PackArgs, game_at, load_pack};
use crate::engines::{
    Played, Series, bound_series, evaluation, kind_names, parse_spec, play_series, search_error,
};
use crate::output::{CliError, CmdResult, Context, print_json};
use crate::stats::{elo_interval, elo_text, wilson};
use clap::Args;
use ply_search::EngineSpec;
use serde_json::json;

/// `ply match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The first player (random, mcts[:TIME|:ITERATIONS], alphabeta[:TIME|:depth=N]).
    #[arg(long, value_parser = parse_spec, value_name = "PLAYER")]
    pub a: EngineSpec,
    /// The second player.
    #[arg(long, value_parser = parse_spec, value_name = "PLAYER")]
    pub b: EngineSpec,
    /// Games (A moves first in the even-numbered ones, from 0).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// A game not over after this many plies is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// The seed (each game's players are seeded from it and the game's number).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The pack whose `[eval]` player B uses: a variant of the same game (same pieces and
    /// board), as `ply tune` writes (default: the pack's own).
    #[arg(long, value_name = "PACK")]
    pub b_eval: Option<std::path::PathBuf>,
    /// A position string to start every game from (default: the start).
    #[arg(long, value_name = "STR", visible_alias = "fen")]
    pub position: Option<String>,
    /// One JSON document instead of the report.
    #[arg(long)]
    pub json: bool,
}

/// The tally of a series from the view of player A (spec 0).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Wins of A, of B.
    pub wins: [u64; 2],
    /// Draws (ply cap and stuck positions included).
    pub draws: u64,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// Games won by the player who moved first.
    pub first_wins: u64,
    /// Games each player moved first, and won doing so.
    pub first: [(u64, u64); 2],
    /// Total plies.
    pub plies: u64,
    /// The longest time A and B took over a move, in seconds.
    pub longest: [f64; 2],
}

impl Tally {
    /// Counts a series.
    pub fn of(games: &[Played]) -> Tally {
        let mut t = Tally::default();
        for g in games {
            t.games += 1;
            t.plies += g.result.plies as u64;
            t.first[g.first].0 += 1;
            for (who, d) in g.result.longest.iter().enumerate() {
                let spec = if who == 0 { g.first } else { 1 - g.first };
                t.longest[spec] = t.longest[spec].max(d.as_secs_f64());
            }
            if g.result.capped {
                t.capped += 1;
            }
            match g.result.winner {
                Some(k) => {
                    let who = if k == 0 { g.first } else { 1 - g.first };
                    t.wins[who] += 1;
                    if k == 0 {
                        t.first_wins += 1;
                        t.first[g.first].1 += 1;
                    }
                }
                None => t.draws += 1,
            }
        }
        t
    }

    /// The mean game length.
    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        }
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Runs `ply match`.
pub fn run(args: &MatchArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let start = game_at(rules.clone(), args.position.as_deref())?;
    if start.status() != ply_kernel::Status::ToMove(start.side_to_move()) {
        return Err(CliError::invalid(
            "the starting position has no move to play",
        ));
    }
    let b_eval = match &args.b_eval {
        None => evaluation(&pack),
        Some(path) => {
            let other = load_pack(path, &args.pack.options.set, cx)?;
            let cells = |r: &ply_kernel::Rules| r.geometry().cells().iter().count();
            if kind_names(&other.rules) != kind_names(&rules)
                || cells(&other.rules) != cells(&rules)
            {
                return Err(CliError::invalid(format!(
                    "{} is not a variant of {}: B's evaluation must be for the same pieces on \
                     the same board",
                    path.display(),
                    args.pack.pack.display()
                )));
            }
            evaluation(&other)
        }
    };
    let series = Series {
        start: &start,
        specs: [&args.a, &args.b],
        evals: [evaluation(&pack), b_eval],
        games: args.games as usize,
        threads: args.threads as usize,
        max_plies: args.max_plies,
        seed: args.seed,
        alternate: true,
    };
    bound_series(&series)?;
    let games = play_series(&series, cx.progress).map_err(|e| search_error(&rules, &e))?;
    let t = Tally::of(&games);
    let (elo, lo, hi) = elo_interval(t.wins[0], t.draws, t.wins[1]).unwrap_or((0.0, 0.0, 0.0));
    let score = (t.wins[0] as f64 + t.draws as f64 / 2.0) / t.games as f64;
    let (flo, fhi) = wilson(t.first_wins, t.games);
    if args.json {
        print_json(
            cx.out,
            &json!({
                "game": rules.core().name(),
                "a": args.a.to_string(),
                "b": args.b.to_string(),
                "b_eval": args.b_eval.as_ref().map(|p| p.display().to_string()),
                "games": t.games,
                "a_wins": t.wins[0],
                "b_wins": t.wins[1],
                "draws": t.draws,
                "capped": t.capped,
                "a_score": score,
                "elo": finite(elo),
                "elo_low": finite(lo),
                "elo_high": finite(hi),
                "mean_plies": t.mean_plies(),
                "first_player_win_rate": t.first_wins as f64 / t.games as f64,
                "first_player_win_rate_interval": [flo, fhi],
                "max_plies": args.max_plies,
                "a_longest_move_seconds": t.longest[0],
                "b_longest_move_seconds": t.longest[1],
                "seed": args.seed,
            }),
        )?;
        return Ok(());
    }
    let out = &mut *cx.out;
    writeln!(
        out,
        "{}: A = {}, B = {}{}",
        rules.core().name(),
        args.a,
        args.b,
        args.b_eval
            .as_ref()
            .map(|p| format!(" (evaluation of {})", p.display()))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "{} games, colours alternating, a draw after {} plies, seed {}",
        t.games, args.max_plies, args.seed
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "  A wins {:>5}   B wins {:>5}   draws {:>5} ({} at the ply cap)",
        t.wins[0], t.wins[1], t.draws, t.capped
    )?;
    writeln!(
        out,
        "  score of A    {} ({:.1} of {})",
        pct(score),
        score * t.games as f64,
        t.games
    )?;
    writeln!(
        out,
        "  Elo A - B     {} (95% interval {} to {})",
        elo_text(elo),
        elo_text(lo),
        elo_text(hi)
    )?;
    writeln!(out, "  mean length   {:.1} plies", t.mean_plies())?;
    writeln!(
        out,
        "  first player  wins {} (95% interval {} to {}); A first won {}/{}, B first won {}/{}",
        pct(t.first_wins as f64 / t.games as f64),
        pct(flo),
        pct(fhi),
        t.first[0].1,
        t.first[0].0,
        t.first[1].1,
        t.first[1].0
    )?;
    writeln!(
        out,
        "  longest move  A {:.3} s, B {:.3} s",
        t.longest[0], t.longest[1]
    )?;
    Ok(())
}

/// A number for JSON, `null` when infinite.
fn finite(x: f64) -> serde_json::Value {
    if x.is_finite() {
        json!(x)
    } else {
        serde_json::Value::Null
    }
}
