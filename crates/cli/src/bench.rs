//! `ply bench`: seeded random playouts and speed measurements, optionally next to the
//! hand-written engine for the same game.
//!
//! Measured, in this order: `--playouts` random playouts from the start
//! ([`Position::playout`], moves picked by [`Rng::below`](ply_kernel::Rng::below)); perft to `--perft-depth` from the
//! start (make/unmake at every node); make + unmake of every legal move of positions sampled
//! along random games ([`SAMPLE_GAMES`] games, at most [`SAMPLE_POSITIONS`] positions). The
//! counts depend only on the pack and the seed; the times do not. With `--vs-native` the same
//! is measured on the engine that `ply_yardstick::native::for_game` gives for the pack's game
//! name, and the ratio ours / native of each rate is reported. The hand-written engines are
//! the cargo feature `native`, off by default: a newcomer's first `cargo run` should not build
//! benchmark-only code; without it `--vs-native` is an error that says how to get them. With `--rounds R` everything is
//! measured R times, Ply and the native engine taking turns, and the best time of each is
//! kept, so that a burst of load on a shared machine does not decide a ratio. This module
//! knows no game: it passes the name through.

use crate::common::PackArgs;
use crate::common::load_pack;
use crate::output::{CliError, CmdResult, Context, per_second, print_json, rate};
use clap::Args;
use ply_kernel::{Move, MoveLimit, Outcome, Player, Position, Rng, Rules};
use ply_lang::OptionValue;
use serde_json::{Value, json};
use std::hint::black_box;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Games walked to sample positions for make + unmake (fewer when `--playouts` is smaller).
pub const SAMPLE_GAMES: u32 = 200;
/// Most positions sampled for make + unmake.
pub const SAMPLE_POSITIONS: usize = 20_000;
/// Mixed into the seed for the sampling games, so that they differ from the playouts.
const SAMPLE_SEED: u64 = 0x00C0_FFEE;

/// Everything measured on one engine.
#[derive(Clone, Debug, Default)]
pub struct Measures {
    /// Playouts run.
    pub playouts: u32,
    /// Plies over all playouts.
    pub plies: u64,
    /// Playouts won by each player.
    pub wins: [u32; 2],
    /// Playouts drawn.
    pub draws: u32,
    /// Playouts where the side to move had no move and no rule decided.
    pub stalled: u32,
    /// Playouts stopped by the ply cap.
    pub capped: u32,
    /// Time of the playouts.
    pub playout_seconds: f64,
    /// Perft depth.
    pub perft_depth: u32,
    /// Perft count.
    pub perft_nodes: u64,
    /// Time of the perft.
    pub perft_seconds: f64,
    /// Positions sampled for make + unmake.
    pub positions: usize,
    /// Make + unmake pairs.
    pub pairs: u64,
    /// Time of the make + unmake pairs.
    pub pair_seconds: f64,
    /// Bytes of one game state.
    pub state_bytes: usize,
}

impl Measures {
    fn mean_plies(&self) -> f64 {
        if self.playouts == 0 {
            0.0
        } else {
            self.plies as f64 / self.playouts as f64
        }
    }

    /// Keeps the shorter of each time from another round of the same measurements.
    fn keep_best(&mut self, other: &Measures) {
        self.playout_seconds = self.playout_seconds.min(other.playout_seconds);
        self.perft_seconds = self.perft_seconds.min(other.perft_seconds);
        self.pair_seconds = self.pair_seconds.min(other.pair_seconds);
    }

    fn rates(&self) -> [f64; 4] {
        [
            per_second(self.playouts as f64, self.playout_seconds),
            per_second(self.plies as f64, self.playout_seconds),
            per_second(self.perft_nodes as f64, self.perft_seconds),
            per_second(self.pairs as f64, self.pair_seconds),
        ]
    }
}

/// The names of the four rates, in the order of `Measures::rates`.
const RATES: [&str; 4] = [
    "playouts_per_second",
    "plies_per_second",
    "perft_nodes_per_second",
    "make_unmake_per_second",
];

/// Measures Ply's kernel on `rules`.
/// Fails when a position of the pack has more moves than the kernel generates.
pub fn measure_ours(rules: Arc<Rules>, args: &BenchArgs) -> Result<Measures, MoveLimit> {
    let mut m = Measures {
        perft_depth: args.depth(),
        ..Measures::default()
    };
    let mut position = Position::start(rules);
    let mut rng = Rng::new(args.seed);
    let mut pick_fn = |n: usize| rng.below(n);
    let pick: &mut dyn FnMut(usize) -> usize = &mut pick_fn;
    let started = Instant::now();
    for _ in 0..args.playouts {
        let p = position.playout(&mut |n| pick(n), args.max_plies)?;
        m.playouts += 1;
        m.plies += p.plies as u64;
        match p.outcome {
            Some(Outcome::Win(w)) => m.wins[w.index().min(1)] += 1,
            Some(Outcome::Draw) => m.draws += 1,
            None if p.capped => m.capped += 1,
            None => m.stalled += 1,
        }
    }
    m.playout_seconds = started.elapsed().as_secs_f64();

    let started = Instant::now();
    m.perft_nodes = position.perft(args.depth())?;
    m.perft_seconds = started.elapsed().as_secs_f64();

    // Sample positions along random games, then time make + unmake of all their moves.
    let mut rng = Rng::new(args.seed ^ SAMPLE_SEED);
    let mut samples: Vec<(Position, usize, usize)> = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    'games: for _ in 0..args.playouts.min(SAMPLE_GAMES) {
        let mut p = position.clone();
        for _ in 0..args.max_plies {
            if samples.len() >= SAMPLE_POSITIONS {
                break 'games;
            }
            let list = p.legal_moves()?;
            if list.is_empty() {
                break;
            }
            samples.push((p.clone(), moves.len(), list.len()));
            moves.extend(list.iter());
            let Some(chosen) = list.get(rng.below(list.len())) else {
                break;
            };
            p.make_unchecked(chosen);
        }
    }
    m.positions = samples.len();
    let started = Instant::now();
    for (p, start, len) in &mut samples {
        for &mv in &moves[*start..*start + *len] {
            let u = p.make_unchecked(mv);
            p.unmake_unchecked(mv, black_box(u));
            m.pairs += 1;
        }
    }
    m.pair_seconds = started.elapsed().as_secs_f64();
    m.state_bytes = ply_kernel::Position::state_bytes();
    Ok(m)
}

/// What `--vs-native` says when the binary was built without the hand-written engines.
pub const NATIVE_MISSING: &str = "--vs-native compares with the hand-written engines of \
    bench/yardstick, and this ply was built without them (they are the cargo feature `native`, \
    off by default so that the ply command builds fast); build with them: cargo run --release \
    --features native -- bench PACK --vs-native";

/// A hand-written engine to compare with: the `native` feature's, or none without it.
#[cfg(feature = "native")]
type Engine = Box<dyn ply_yardstick::native::NativeEngine>;
/// Without the `native` feature there is no hand-written engine: no value of this type exists.
#[cfg(not(feature = "native"))]
enum Engine {}

/// The hand-written engine for a game and its options, if there is one; an error without the
/// `native` feature.
#[cfg(feature = "native")]
fn find_engine(game: &str, options: &[(String, bool)]) -> Result<Option<Engine>, CliError> {
    Ok(ply_yardstick::native::for_game(game, options))
}

/// The hand-written engine for a game and its options, if there is one; an error without the
/// `native` feature.
#[cfg(not(feature = "native"))]
fn find_engine(_game: &str, _options: &[(String, bool)]) -> Result<Option<Engine>, CliError> {
    Err(CliError::invalid(NATIVE_MISSING))
}

/// Measures the engine as [`measure_ours`] measures Ply.
#[cfg(feature = "native")]
fn measure_engine(engine: &mut Engine, args: &BenchArgs) -> Measures {
    measure_native(engine.as_mut(), args)
}

/// Measures the engine as [`measure_ours`] measures Ply.
#[cfg(not(feature = "native"))]
fn measure_engine(engine: &mut Engine, _args: &BenchArgs) -> Measures {
    match *engine {}
}

/// What the engine is, in words.
#[cfg(feature = "native")]
fn describe(engine: &Engine) -> String {
    engine.describe()
}

/// What the engine is, in words.
#[cfg(not(feature = "native"))]
fn describe(engine: &Engine) -> String {
    match *engine {}
}

/// Measures a hand-written engine the same way.
#[cfg(feature = "native")]
pub fn measure_native(
    engine: &mut dyn ply_yardstick::native::NativeEngine,
    args: &BenchArgs,
) -> Measures {
    let mut m = Measures {
        perft_depth: args.depth(),
        ..Measures::default()
    };
    engine.reset();
    let mut rng = Rng::new(args.seed);
    let started = Instant::now();
    for _ in 0..args.playouts {
        let p = engine.playout(&mut |n| rng.below(n), args.max_plies);
        m.playouts += 1;
        m.plies += p.plies as u64;
        match p.winner {
            Some(w) => m.wins[(w as usize).min(1)] += 1,
            None if p.capped => m.capped += 1,
            None => m.stalled += 1,
        }
    }
    m.playout_seconds = started.elapsed().as_secs_f64();

    let started = Instant::now();
    m.perft_nodes = engine.perft(args.depth());
    m.perft_seconds = started.elapsed().as_secs_f64();

    let mut rng = Rng::new(args.seed ^ SAMPLE_SEED);
    m.positions = engine.sample(
        &mut |n| rng.below(n),
        args.playouts.min(SAMPLE_GAMES),
        args.max_plies,
        SAMPLE_POSITIONS,
    );
    let started = Instant::now();
    m.pairs = engine.make_unmake_all();
    m.pair_seconds = started.elapsed().as_secs_f64();
    m.state_bytes = engine.state_bytes();
    engine.reset();
    m
}

/// `ply bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The pack.
    #[command(flatten)]
    pub pack: PackArgs,
    /// Number of random playouts.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub playouts: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// A playout stops (capped) after this many plies.
    #[arg(long, default_value_t = 1000, value_name = "P")]
    pub max_plies: u32,
    /// Depth of the perft measurement [default: 5, or less where perft would pass about
    /// 50 million nodes].
    #[arg(long, value_name = "D")]
    pub perft_depth: Option<u32>,
    /// Measure the hand-written engine for this game too, and the ratios.
    #[arg(long)]
    pub vs_native: bool,
    /// Repeat every measurement this many times (with --vs-native, Ply and the native engine
    /// take turns) and keep the best time of each.
    #[arg(long, default_value_t = 1, value_name = "R", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
    /// Leave out times and rates (for reproducible output).
    #[arg(long, hide = true)]
    pub no_timing: bool,
}

/// The default perft depth: 5, or less where the count would pass [`AUTO_PERFT_NODES`]
/// (estimated from the counts one move shallower, counted in bulk).
const AUTO_PERFT_NODES: u64 = 50_000_000;

impl BenchArgs {
    /// The perft depth to measure.
    pub fn depth(&self) -> u32 {
        self.perft_depth.unwrap_or(5)
    }
}

fn auto_depth(rules: &Arc<Rules>) -> Result<u32, MoveLimit> {
    let mut start = Position::start(rules.clone());
    let first = start.perft_bulk(1)?.max(1);
    let (mut depth, mut count) = (1, first);
    while depth < 5 && count.saturating_mul(first) <= AUTO_PERFT_NODES {
        depth += 1;
        count = start.perft_bulk(depth)?;
    }
    Ok(depth)
}

/// Runs `ply bench`.
pub fn run(args: &BenchArgs, cx: &mut Context<'_>) -> CmdResult {
    let pack = load_pack(&args.pack.pack, &args.pack.options.set, cx)?;
    let rules = pack.rules.clone();
    let resolved;
    let args = if args.perft_depth.is_none() {
        resolved = BenchArgs {
            perft_depth: Some(auto_depth(&rules)?),
            ..args.clone()
        };
        &resolved
    } else {
        args
    };
    let core = rules.core();
    let names = [
        core.player_name(Player::FIRST).to_string(),
        core.player_name(Player::SECOND).to_string(),
    ];
    let mut engine = None;
    if args.vs_native {
        let options: Vec<(String, bool)> = pack
            .options
            .iter()
            .map(|o| {
                let on = match o.value {
                    OptionValue::Bool(b) => b,
                    OptionValue::Int(i) => i != 0,
                };
                (o.name.clone(), on)
            })
            .collect();
        engine = find_engine(core.name(), &options)?;
        if engine.is_none() {
            cx.note(format!(
                "no hand-written engine plays `{}`; reporting Ply's numbers only",
                core.name()
            ))?;
        }
    }
    // Each round measures Ply, then the native engine; the best time of each is kept.
    let mut ours = measure_ours(rules.clone(), args)?;
    let mut theirs = engine.as_mut().map(|e| measure_engine(e, args));
    for _ in 1..args.rounds {
        ours.keep_best(&measure_ours(rules.clone(), args)?);
        if let (Some(e), Some(t)) = (engine.as_mut(), theirs.as_mut()) {
            t.keep_best(&measure_engine(e, args));
        }
    }
    let native = engine.as_ref().map(describe).zip(theirs);
    let timing = !args.no_timing;
    if args.json {
        let mut v = json!({
            "game": core.name(),
            "pack": args.pack.pack.display().to_string(),
            "seed": args.seed,
            "max_plies": args.max_plies,
        });
        add_json(&mut v, &ours, &names, timing);
        if let Some((describe, n)) = &native {
            let mut nv = json!({ "engine": describe });
            add_json(&mut nv, n, &names, timing);
            v["native"] = nv;
            if timing {
                let mut ratio = json!({});
                for ((name, a), b) in RATES.iter().zip(ours.rates()).zip(n.rates()) {
                    ratio[*name] = json!(if b > 0.0 { a / b } else { 0.0 });
                }
                v["ratio"] = ratio;
            }
        }
        print_json(cx.out, &v)?;
        return Ok(());
    }
    writeln!(
        cx.out,
        "{} ({}), seed {}",
        core.name(),
        args.pack.pack.display(),
        args.seed
    )?;
    write_text(cx.out, "Ply", &ours, &names, args, timing)?;
    if let Some((describe, n)) = &native {
        writeln!(cx.out)?;
        write_text(
            cx.out,
            &format!("Native: {describe}"),
            n,
            &names,
            args,
            timing,
        )?;
        if n.perft_nodes != ours.perft_nodes {
            cx.warning(format!(
                "the perft counts differ ({} and {}): the engines do not play the same rules",
                ours.perft_nodes, n.perft_nodes
            ))?;
        }
        if timing {
            writeln!(cx.out)?;
            writeln!(
                cx.out,
                "{:<22}{:>12}{:>12}{:>12}",
                "", "ply", "native", "ply/native"
            )?;
            let labels = ["playouts/s", "plies/s", "perft nodes/s", "make+unmake/s"];
            for ((label, a), b) in labels.iter().zip(ours.rates()).zip(n.rates()) {
                let ratio = if b > 0.0 { a / b } else { 0.0 };
                writeln!(
                    cx.out,
                    "{label:<22}{:>12}{:>12}{ratio:>12.3}",
                    rate(a),
                    rate(b)
                )?;
            }
        }
    }
    Ok(())
}

fn outcomes_json(m: &Measures, names: &[String; 2]) -> Value {
    json!({
        "wins": { names[0].as_str(): m.wins[0], names[1].as_str(): m.wins[1] },
        "draws": m.draws,
        "stalled": m.stalled,
        "capped": m.capped,
    })
}

fn add_json(v: &mut Value, m: &Measures, names: &[String; 2], timing: bool) {
    let rates = m.rates();
    v["playouts"] = json!(m.playouts);
    v["outcomes"] = outcomes_json(m, names);
    v["total_plies"] = json!(m.plies);
    v["mean_plies"] = json!(m.mean_plies());
    v["perft"] = json!({ "depth": m.perft_depth, "nodes": m.perft_nodes });
    v["make_unmake"] = json!({ "positions": m.positions, "pairs": m.pairs });
    v["state_bytes"] = json!(m.state_bytes);
    if timing {
        v["playout_seconds"] = json!(m.playout_seconds);
        v["playouts_per_second"] = json!(rates[0]);
        v["plies_per_second"] = json!(rates[1]);
        v["perft"]["seconds"] = json!(m.perft_seconds);
        v["perft"]["nodes_per_second"] = json!(rates[2]);
        v["make_unmake"]["seconds"] = json!(m.pair_seconds);
        v["make_unmake"]["per_second"] = json!(rates[3]);
    }
}

fn write_text(
    out: &mut dyn Write,
    title: &str,
    m: &Measures,
    names: &[String; 2],
    args: &BenchArgs,
    timing: bool,
) -> std::io::Result<()> {
    let rates = m.rates();
    writeln!(out, "{title}")?;
    writeln!(
        out,
        "  playouts: {} from the start, at most {} plies each",
        m.playouts, args.max_plies
    )?;
    writeln!(
        out,
        "  outcomes: {} won {}, {} won {}, drawn {}, stuck (no move and no rule decides) {}, \
         cut off after {} moves {}",
        names[0], m.wins[0], names[1], m.wins[1], m.draws, m.stalled, args.max_plies, m.capped
    )?;
    writeln!(
        out,
        "  mean length: {:.1} plies ({} plies in all)",
        m.mean_plies(),
        m.plies
    )?;
    if timing {
        writeln!(
            out,
            "  speed: {} playouts/s, {} plies/s",
            rate(rates[0]),
            rate(rates[1])
        )?;
    }
    write!(out, "  perft({}): {} nodes", m.perft_depth, m.perft_nodes)?;
    if timing {
        write!(out, ", {} nodes/s", rate(rates[2]))?;
    }
    writeln!(out)?;
    write!(
        out,
        "  make+unmake: {} pairs over {} positions",
        m.pairs, m.positions
    )?;
    if timing {
        write!(out, ", {} pairs/s", rate(rates[3]))?;
    }
    writeln!(out)?;
    writeln!(out, "  state: {} bytes", m.state_bytes)
}
