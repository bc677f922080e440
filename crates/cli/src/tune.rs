//! `ply tune`: fits a pack's `[eval]` to self-play (Texel tuning). Games are played by one
//! player against itself from the start after a few random plies (so that they differ); every
//! quiet position (no capture to make) after the random plies is a sample, labelled with the
//! game's result. The piece values (and with `--mobility` the mobility weight) are fitted by
//! logistic regression ([`ply_search::tune`]); the bonus by cell is kept. The result is
//! written as a variant pack that `extends` the original with the tuned `[eval]`, the
//! statistics of the fit in its comments.

use crate::common::{PackArgs, load_pack};
use crate::engines::{parse_spec, search_error};
use crate::output::{CliError, CmdResult, Context, print_json};
use clap::Args;
use ply_kernel::{Game, Outcome, Player, Rng, Status};
use ply_search::tune::{Fit, Samples, features, fit};
use ply_search::{Engine, EngineSpec, Evaluator, SearchError, Weights};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `ply tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// The player of the self-play games (a small table: each game builds its own).
    #[arg(long, value_parser = parse_spec, default_value = "alphabeta:depth=2,tt=16", value_name = "PLAYER")]
    pub player: EngineSpec,
    /// Games.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    pub opening: u32,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// A game not over after this many plies is a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fit the mobility weight too (a search that counts mobility is much slower).
    #[arg(long)]
    pub mobility: bool,
    /// Where to write the variant pack (default: the pack's name with `-tuned`, beside it).
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// One JSON document instead of the report.
    #[arg(long)]
    pub json: bool,
}

/// The samples of one game.
fn self_play(
    start: &Game,
    spec: &EngineSpec,
    eval: &Arc<Weights>,
    args: &TuneArgs,
    index: u64,
) -> Result<Samples, SearchError> {
    let dims = start.rules().core().kind_count() + usize::from(args.mobility) + 1;
    let mut out = Samples::new(dims);
    let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(index);
    let mut rng = Rng::new(seed);
    let mut game = start.clone();
    for _ in 0..args.opening {
        if game.status() != Status::ToMove(game.side_to_move()) {
            return Ok(out);
        }
        let Some(m) = game.random_move(&mut rng)? else {
            return Ok(out);
        };
        game.play(m).map_err(|_| SearchError::Stopped)?;
    }
    let as_eval: Arc<dyn Evaluator> = eval.clone();
    let mut engines = [
        Engine::new(&spec.clone().or_seed(seed), as_eval.clone()),
        Engine::new(&spec.clone().or_seed(seed + 1), as_eval),
    ];
    let mut rows: Vec<(Vec<f64>, f64)> = Vec::new();
    let mut buf = Vec::new();
    let mut plies = 0;
    let result = loop {
        match game.status() {
            Status::ToMove(side) => {
                if plies >= args.max_plies {
                    break 0.5;
                }
                let quiet = !game.legal_moves()?.iter().any(|m| m.is_capture());
                if quiet {
                    let offset = features(game.position(), eval, args.mobility, &mut buf);
                    rows.push((buf.clone(), offset));
                }
                let who = usize::from(side != Player::FIRST);
                let choice = engines[who].choose(game.position())?;
                game.play(choice.mv).map_err(|_| SearchError::Stopped)?;
                plies += 1;
            }
            Status::Over(Outcome::Win(p)) => break if p == Player::FIRST { 1.0 } else { 0.0 },
            Status::Over(Outcome::Draw) | Status::Stuck(_) => break 0.5,
        }
    };
    for (f, offset) in rows {
        out.push(&f, offset, result);
    }
    Ok(out)
}

/// The samples of `args.games` games, `threads` at once.
fn collect(
    start: &Game,
    eval: &Arc<Weights>,
    args: &TuneArgs,
    threads: usize,
) -> Result<(Samples, [u64; 3]), SearchError> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    let dims = start.rules().core().kind_count() + usize::from(args.mobility) + 1;
    let next = AtomicU64::new(0);
    let all: Mutex<Vec<Option<Result<Samples, SearchError>>>> =
        Mutex::new(vec![None; args.games as usize]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, args.games as usize) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let r = self_play(start, &args.player, eval, args, i);
                    if let Ok(mut all) = all.lock() {
                        all[i as usize] = Some(r);
                    }
                }
            });
        }
    });
    let mut samples = Samples::new(dims);
    // Games won by the first player, by the second, drawn (those with samples).
    let mut results = [0u64; 3];
    for r in all.into_inner().unwrap_or_default() {
        let s = r.unwrap_or(Err(SearchError::Stopped))?;
        if let Some(&y) = s.result.first() {
            results[if y == 1.0 {
                0
            } else if y == 0.0 {
                1
            } else {
                2
            }] += 1;
        }
        samples.append(&s);
    }
    Ok((samples, results))
}

/// The path of `target` as an `extends` in a file in `dir`: its file name when beside it,
/// else its absolute path.
fn extends_path(dir: &Path, target: &Path) -> String {
    let target = target
        .canonicalize()
        .unwrap_or_else(|_| target.to_path_buf());
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match (target.parent(), target.file_name()) {
        (Some(p), Some(name)) if p == dir => name.to_string_lossy().into_owned(),
        _ => target.display().to_string(),
    }
}

/// A TOML basic string.
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// The variant pack's text.
fn variant(
    extends: &str,
    names: &[String],
    values: &[i64],
    mobility: Option<i64>,
    stats: &[String],
) -> String {
    let mut t = String::new();
    for line in stats {
        t.push_str(&format!("# {line}\n"));
    }
    t.push_str(&format!("\nextends = {}\n\n[eval]\n", quoted(extends)));
    let table: Vec<String> = names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{} = {v}", quoted(n)))
        .collect();
    t.push_str(&format!("material = {{ {} }}\n", table.join(", ")));
    if let Some(m) = mobility {
        t.push_str(&format!("mobility = {m}\n"));
    }
    t
}

/// Runs `ply tune`.
pub fn run(args: &TuneArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let core = rules.core();
    let start = Game::new(rules.clone());
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    if args.player.table_bytes() * threads as u128 > crate::engines::MAX_SERIES_TABLE_BYTES {
        return Err(CliError::invalid(format!(
            "{threads} games at once with tables of {} bytes each are past the cap of {} \
             bytes: give fewer threads or a smaller table (tt=BITS)",
            args.player.table_bytes(),
            crate::engines::MAX_SERIES_TABLE_BYTES
        )));
    }
    let eval = Arc::new(ply_search::Weights::of_pack(&pack));
    let (samples, results) =
        collect(&start, &eval, args, threads).map_err(|e| search_error(&rules, &e))?;
    if samples.is_empty() {
        return Err(CliError::invalid(
            "the games gave no position to learn from: play more games (--games) or fewer \
             random plies (--opening)",
        ));
    }
    let names: Vec<String> = core
        .kinds()
        .map(|k| core.kind_name(k).to_string())
        .collect();
    let mut initial: Vec<f64> = core
        .kinds()
        .map(|k| eval.piece_value(ply_kernel::Piece::new(k, Player::FIRST)) as f64)
        .collect();
    if args.mobility {
        initial.push(eval.mobility() as f64);
    }
    // The intercept, free.
    initial.push(0.0);
    let mut free = vec![false; initial.len()];
    free[initial.len() - 1] = true;
    let limit = ply_search::eval::MAX_EVAL as f64;
    let Fit {
        weights,
        scale,
        loss_before,
        loss_after,
        steps,
    } = fit(&samples, &initial, &free, limit);
    let values: Vec<i64> = weights[..names.len()]
        .iter()
        .map(|w| w.round() as i64)
        .collect();
    let mobility = args.mobility.then(|| weights[names.len()].round() as i64);
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = args
            .pack
            .pack
            .file_stem()
            .map_or("pack".into(), |s| s.to_string_lossy().into_owned());
        args.pack.pack.with_file_name(format!("{stem}-tuned.toml"))
    });
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stats = vec![
        format!(
            "{} tuned by `ply tune`: {} self-play games of {} ({} random plies first, seed {}),",
            core.name(),
            args.games,
            args.player,
            args.opening,
            args.seed
        ),
        format!(
            "{} won by the first player, {} by the second, {} drawn; {} quiet positions.",
            results[0],
            results[1],
            results[2],
            samples.len()
        ),
        format!(
            "Mean squared error of the predicted results: {loss_before:.5} before, {loss_after:.5} \
             after ({steps} steps, scale {scale:.1}, first player's edge {:.0}).",
            weights[weights.len() - 1]
        ),
    ];
    let text = variant(
        &extends_path(&dir, &args.pack.pack),
        &names,
        &values,
        mobility,
        &stats,
    );
    std::fs::write(&out, &text)
        .map_err(|e| CliError::invalid(format!("cannot write {}: {e}", out.display())))?;
    // The variant must load: a pack `ply tune` writes is a pack.
    ply_lang::load(&out, &args.pack.options.set).map_err(|e| {
        CliError::invalid(format!(
            "the tuned pack {} does not load: {}",
            out.display(),
            e.render(false)
        ))
    })?;
    if args.json {
        print_json(
            cx.out,
            &json!({
                "game": core.name(),
                "player": args.player.to_string(),
                "games": args.games,
                "first_wins": results[0],
                "second_wins": results[1],
                "draws": results[2],
                "positions": samples.len(),
                "scale": scale,
                "first_player_edge": weights[weights.len() - 1],
                "loss_before": loss_before,
                "loss_after": loss_after,
                "steps": steps,
                "material": names.iter().zip(&initial).zip(&values).map(|((n, a), b)| json!({
                    "kind": n, "before": *a as i64, "after": b,
                })).collect::<Vec<_>>(),
                "mobility": mobility.map(|m| json!({ "before": eval.mobility(), "after": m })),
                "out": out.display().to_string(),
            }),
        )?;
        return Ok(());
    }
    let w = names.iter().map(|s| s.len()).max().unwrap_or(4).max(5);
    let o = &mut *cx.out;
    for line in &stats {
        writeln!(o, "{line}")?;
    }
    writeln!(o)?;
    writeln!(o, "  {:<w$}  {:>7}  {:>7}", "Piece", "before", "after")?;
    for ((n, a), b) in names.iter().zip(&initial).zip(&values) {
        writeln!(o, "  {n:<w$}  {:>7}  {b:>7}", *a as i64)?;
    }
    if let Some(m) = mobility {
        writeln!(o, "  {:<w$}  {:>7}  {m:>7}", "moves", eval.mobility())?;
    }
    writeln!(o)?;
    writeln!(o, "Wrote {}", out.display())?;
    Ok(())
}
