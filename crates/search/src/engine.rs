//! Players described by a short text, and the moves they choose.
//!
//! A spec is a name, then optionally `:` and comma-separated arguments:
//!
//! - `random`: uniformly random legal moves (`random:seed=7`);
//! - `mcts`: Monte Carlo tree search, 1 s a move; `mcts:0.5s`, `mcts:200ms` (time a move),
//!   `mcts:20000` (iterations a move), and `threads=N`, `seed=N`, `c=F` (exploration),
//!   `playout=N` (plies before a playout counts as a draw), `reuse=false`, `cutoff=N` (playouts
//!   cut off after N plies and judged by the evaluation);
//! - `alphabeta` (or `ab`): alpha-beta, 1 s a move; `alphabeta:2s`, `alphabeta:depth=6`,
//!   `nodes=N`, `tt=BITS` (a table of 2^BITS entries; 0 for none), `quiescence=false`, and
//!   the search's prunings, each on unless turned off: `futility=false`, `aspiration=false`,
//!   `reductions=false` (late move reductions), `checks=false` (check extensions);
//!   `null=false` or `null=true` overrides the pack's `[eval] null_move` (null-move pruning).
//!
//! A time and a depth (or iterations) may be combined: the first reached stops the search.

use crate::alphabeta::{AlphaBeta, AlphaBetaConfig, MAX_PLY, TableError, table_bytes};
use crate::eval::Evaluator;
use crate::mcts::{Mcts, MctsConfig};
use crate::score::Score;
use crate::{Limits, SearchError, Stop};
use ply_kernel::{Move, Position, Rng};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// The longest time a move may be given.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// Which algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Uniformly random moves.
    Random,
    /// Monte Carlo tree search.
    Mcts,
    /// Alpha-beta.
    AlphaBeta,
}

/// A player, as a spec text describes it (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The algorithm.
    pub kind: EngineKind,
    /// Time a move.
    pub time: Option<Duration>,
    /// Alpha-beta's deepest iteration.
    pub depth: Option<u32>,
    /// MCTS iterations a move.
    pub iterations: Option<u64>,
    /// Alpha-beta positions a move.
    pub nodes: Option<u64>,
    /// MCTS threads.
    pub threads: usize,
    /// The seed (random moves, playouts); `None`: whatever the caller gives.
    pub seed: Option<u64>,
    /// MCTS exploration constant.
    pub exploration: f64,
    /// MCTS playout cap in plies.
    pub playout: u32,
    /// MCTS tree reuse.
    pub reuse: bool,
    /// MCTS playouts cut off after this many plies and judged by the evaluation.
    pub cutoff: Option<u32>,
    /// Alpha-beta table size, as a power of two.
    pub tt_bits: u32,
    /// Alpha-beta quiescence.
    pub quiescence: bool,
    /// Alpha-beta futility pruning ([`AlphaBetaConfig::futility`]).
    pub futility: bool,
    /// Alpha-beta aspiration windows ([`AlphaBetaConfig::aspiration`]).
    pub aspiration: bool,
    /// Alpha-beta late move reductions ([`AlphaBetaConfig::reductions`]).
    pub reductions: bool,
    /// Alpha-beta null-move pruning, `None` as the pack says ([`AlphaBetaConfig::null_move`]).
    pub null_move: Option<bool>,
    /// Alpha-beta check extensions ([`AlphaBetaConfig::check_extensions`]).
    pub check_extensions: bool,
}

/// The most an engine spec may ask for. Every front end holds the specs it is given to caps
/// ([`EngineSpec::bounded`]) before it builds an engine, so that no spec can ask for more
/// memory, threads or time than the machine should give.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The largest alpha-beta table, as a power of two (`tt=BITS`).
    pub tt_bits: u32,
    /// The most MCTS threads (`threads=N`).
    pub threads: usize,
    /// The most positions (alpha-beta `nodes=N`) or iterations (MCTS) a move.
    pub nodes: u64,
    /// The longest time a move.
    pub time: Duration,
}

/// The default largest alpha-beta table: 2^24 entries.
pub const MAX_TABLE_BITS: u32 = 24;
/// The default most threads of one engine.
pub const MAX_ENGINE_THREADS: usize = 64;
/// The default most positions or iterations a move.
pub const MAX_ENGINE_NODES: u64 = 1 << 40;

impl Default for Caps {
    /// The caps of the command line: [`MAX_TABLE_BITS`], [`MAX_ENGINE_THREADS`],
    /// [`MAX_ENGINE_NODES`], [`MAX_TIME`].
    fn default() -> Caps {
        Caps {
            tt_bits: MAX_TABLE_BITS,
            threads: MAX_ENGINE_THREADS,
            nodes: MAX_ENGINE_NODES,
            time: MAX_TIME,
        }
    }
}

/// A spec that asks for more than its caps allow: the cap is named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CapError {
    /// `tt=BITS` past the cap.
    #[error(
        "the alpha-beta table tt={asked} (2^{asked} entries, {bytes} bytes) is past the cap of tt={cap}"
    )]
    Table {
        /// Asked for.
        asked: u32,
        /// Its bytes.
        bytes: u128,
        /// The cap.
        cap: u32,
    },
    /// `threads=N` past the cap.
    #[error("threads={asked} is past the cap of {cap} threads")]
    Threads {
        /// Asked for.
        asked: usize,
        /// The cap.
        cap: usize,
    },
    /// `nodes=N` or iterations past the cap.
    #[error("{asked} {what} a move is past the cap of {cap}")]
    Nodes {
        /// `positions` or `iterations`.
        what: &'static str,
        /// Asked for.
        asked: u64,
        /// The cap.
        cap: u64,
    },
    /// A time past the cap.
    #[error("{asked:?} a move is past the cap of {cap:?}")]
    Time {
        /// Asked for.
        asked: Duration,
        /// The cap.
        cap: Duration,
    },
}

/// A spec that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The name is not a player's.
    #[error(
        "unknown player `{0}`: expected random, mcts or alphabeta, as in mcts:1s, mcts:5000, \
         alphabeta:0.5s or alphabeta:depth=6"
    )]
    Unknown(String),
    /// An argument is wrong.
    #[error("bad argument `{arg}` in player `{spec}`: {reason}")]
    Argument {
        /// The whole spec.
        spec: String,
        /// The argument.
        arg: String,
        /// Why.
        reason: String,
    },
}

/// Reads a duration: a number and a unit, `ms`, `s` or `m` (`250ms`, `2s`, `0.1s`, `1m`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(format!(
            "`{t}` is not a time: expected a number and ms, s or m, as in 250ms or 2s"
        ));
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("`{t}` is not a time: expected a number and ms, s or m, as in 250ms or 2s")
    })?;
    if !value.is_finite() || value <= 0.0 {
        return Err(format!("the time must be more than 0, not `{t}`"));
    }
    let seconds = value * unit;
    if seconds > MAX_TIME.as_secs_f64() {
        return Err(format!("`{t}` is more than a day"));
    }
    Ok(Duration::from_secs_f64(seconds).max(Duration::from_millis(1)))
}

fn show_duration(d: Duration) -> String {
    if d.subsec_nanos() % 1_000_000 == 0 && d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

impl EngineSpec {
    /// A spec of this kind with its defaults.
    pub fn new(kind: EngineKind) -> EngineSpec {
        EngineSpec {
            kind,
            time: None,
            depth: None,
            iterations: None,
            nodes: None,
            threads: 1,
            seed: None,
            exploration: 1.0,
            playout: MctsConfig::default().playout_plies,
            reuse: true,
            cutoff: None,
            tt_bits: AlphaBetaConfig::default().tt_bits,
            quiescence: true,
            futility: true,
            aspiration: true,
            reductions: true,
            null_move: None,
            check_extensions: true,
        }
    }

    /// The alpha-beta searcher's configuration this spec asks for.
    pub fn alphabeta_config(&self) -> AlphaBetaConfig {
        AlphaBetaConfig {
            tt_bits: self.tt_bits,
            quiescence: self.quiescence,
            futility: self.futility,
            aspiration: self.aspiration,
            reductions: self.reductions,
            null_move: self.null_move,
            check_extensions: self.check_extensions,
            ..AlphaBetaConfig::default()
        }
    }

    /// This spec with `seed` if it has none of its own.
    pub fn or_seed(mut self, seed: u64) -> EngineSpec {
        self.seed.get_or_insert(seed);
        self
    }

    /// The limits of one move: those given, else 1 s.
    pub fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            time: self.time,
            nodes: self.nodes,
            iterations: self.iterations,
            stop: None,
        };
        if l.depth.is_none() && l.time.is_none() && l.nodes.is_none() && l.iterations.is_none() {
            l.time = Some(Duration::from_secs(1));
        }
        l
    }

    /// This spec if it asks for no more than `caps` allow, else an error that names the cap
    /// passed. Every front end calls it before building an engine.
    pub fn bounded(&self, caps: &Caps) -> Result<EngineSpec, CapError> {
        if self.kind == EngineKind::AlphaBeta && self.tt_bits > caps.tt_bits {
            return Err(CapError::Table {
                asked: self.tt_bits,
                bytes: table_bytes(self.tt_bits),
                cap: caps.tt_bits,
            });
        }
        if self.kind == EngineKind::Mcts && self.threads > caps.threads {
            return Err(CapError::Threads {
                asked: self.threads,
                cap: caps.threads,
            });
        }
        for (what, asked) in [("positions", self.nodes), ("iterations", self.iterations)] {
            if let Some(asked) = asked.filter(|&n| n > caps.nodes) {
                return Err(CapError::Nodes {
                    what,
                    asked,
                    cap: caps.nodes,
                });
            }
        }
        if let Some(asked) = self.time.filter(|&t| t > caps.time) {
            return Err(CapError::Time {
                asked,
                cap: caps.time,
            });
        }
        Ok(self.clone())
    }

    /// The bytes of the table an engine of this spec allocates (alpha-beta's; 0 for others).
    pub fn table_bytes(&self) -> u128 {
        match self.kind {
            EngineKind::AlphaBeta => table_bytes(self.tt_bits),
            _ => 0,
        }
    }

    /// Whether the same seed gives the same moves (no time limit decides them).
    pub fn is_deterministic(&self) -> bool {
        match self.kind {
            EngineKind::Random => true,
            _ => self.limits().time.is_none(),
        }
    }
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let text = text.trim();
        let (name, args) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a)),
            None => (text, None),
        };
        let kind = match name.to_ascii_lowercase().as_str() {
            "random" => EngineKind::Random,
            "mcts" | "uct" => EngineKind::Mcts,
            "alphabeta" | "alpha-beta" | "ab" => EngineKind::AlphaBeta,
            _ => return Err(SpecError::Unknown(text.to_string())),
        };
        let mut spec = EngineSpec::new(kind);
        let Some(args) = args else { return Ok(spec) };
        for arg in args.split(',') {
            let arg = arg.trim();
            let bad = |reason: String| SpecError::Argument {
                spec: text.to_string(),
                arg: arg.to_string(),
                reason,
            };
            let int = |v: &str, lo: u64, hi: u64| -> Result<u64, SpecError> {
                match v.trim().parse::<u64>() {
                    Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                    _ => Err(bad(format!("expected a whole number from {lo} to {hi}"))),
                }
            };
            let flag = |v: &str| match v.trim() {
                "true" | "yes" | "on" => Ok(true),
                "false" | "no" | "off" => Ok(false),
                _ => Err(bad("expected true or false".into())),
            };
            let only = |k: EngineKind, what: &str| -> Result<(), SpecError> {
                if spec.kind == k {
                    Ok(())
                } else {
                    Err(bad(format!(
                        "{what} is for {} only",
                        if k == EngineKind::Mcts {
                            "mcts"
                        } else {
                            "alphabeta"
                        }
                    )))
                }
            };
            if arg.is_empty() {
                return Err(bad("an empty argument".into()));
            }
            match arg.split_once('=') {
                None if arg.chars().all(|c| c.is_ascii_digit()) => {
                    only(EngineKind::Mcts, "a number of iterations")?;
                    spec.iterations = Some(int(arg, 1, u64::MAX / 2)?);
                }
                None => {
                    if spec.kind == EngineKind::Random {
                        return Err(bad("random takes only seed=N".into()));
                    }
                    spec.time = Some(parse_duration(arg).map_err(bad)?);
                }
                Some((key, value)) => match key.trim() {
                    "seed" => spec.seed = Some(int(value, 0, u64::MAX)?),
                    "time" if spec.kind != EngineKind::Random => {
                        spec.time = Some(parse_duration(value).map_err(bad)?)
                    }
                    "depth" => {
                        only(EngineKind::AlphaBeta, "depth")?;
                        spec.depth = Some(int(value, 1, MAX_PLY as u64 - 1)? as u32);
                    }
                    "nodes" => {
                        only(EngineKind::AlphaBeta, "nodes")?;
                        spec.nodes = Some(int(value, 1, u64::MAX / 2)?);
                    }
                    "tt" => {
                        only(EngineKind::AlphaBeta, "tt")?;
                        spec.tt_bits = int(value, 0, 28)? as u32;
                    }
                    "quiescence" => {
                        only(EngineKind::AlphaBeta, "quiescence")?;
                        spec.quiescence = flag(value)?;
                    }
                    "futility" => {
                        only(EngineKind::AlphaBeta, "futility")?;
                        spec.futility = flag(value)?;
                    }
                    "aspiration" => {
                        only(EngineKind::AlphaBeta, "aspiration")?;
                        spec.aspiration = flag(value)?;
                    }
                    "reductions" => {
                        only(EngineKind::AlphaBeta, "reductions")?;
                        spec.reductions = flag(value)?;
                    }
                    "null" => {
                        only(EngineKind::AlphaBeta, "null")?;
                        spec.null_move = Some(flag(value)?);
                    }
                    "checks" => {
                        only(EngineKind::AlphaBeta, "checks")?;
                        spec.check_extensions = flag(value)?;
                    }
                    "iterations" => {
                        only(EngineKind::Mcts, "iterations")?;
                        spec.iterations = Some(int(value, 1, u64::MAX / 2)?);
                    }
                    "threads" => {
                        only(EngineKind::Mcts, "threads")?;
                        spec.threads = int(value, 1, 256)? as usize;
                    }
                    "playout" => {
                        only(EngineKind::Mcts, "playout")?;
                        spec.playout = int(value, 1, 1_000_000)? as u32;
                    }
                    "reuse" => {
                        only(EngineKind::Mcts, "reuse")?;
                        spec.reuse = flag(value)?;
                    }
                    "cutoff" => {
                        only(EngineKind::Mcts, "cutoff")?;
                        spec.cutoff = Some(int(value, 0, 100_000)? as u32);
                    }
                    "c" => {
                        only(EngineKind::Mcts, "c")?;
                        spec.exploration = match value.trim().parse::<f64>() {
                            Ok(c) if c.is_finite() && (0.0..=100.0).contains(&c) => c,
                            _ => return Err(bad("expected a number from 0 to 100".into())),
                        };
                    }
                    other => {
                        let known = match spec.kind {
                            EngineKind::Random => "seed",
                            EngineKind::Mcts => {
                                "time, iterations, threads, seed, c, playout, reuse, cutoff"
                            }
                            EngineKind::AlphaBeta => {
                                "time, depth, nodes, tt, quiescence, futility, aspiration, \
                                 reductions, null, checks"
                            }
                        };
                        return Err(bad(format!("unknown setting `{other}` (known: {known})")));
                    }
                },
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for EngineSpec {
    /// The canonical text: the name and the settings that differ from the defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = EngineSpec::new(self.kind);
        let mut args: Vec<String> = Vec::new();
        if let Some(t) = self.time {
            args.push(show_duration(t));
        }
        if let Some(n) = self.iterations {
            args.push(n.to_string());
        }
        if let Some(n) = self.depth {
            args.push(format!("depth={n}"));
        }
        if let Some(n) = self.nodes {
            args.push(format!("nodes={n}"));
        }
        if self.threads != d.threads {
            args.push(format!("threads={}", self.threads));
        }
        if self.exploration != d.exploration {
            args.push(format!("c={}", self.exploration));
        }
        if self.playout != d.playout {
            args.push(format!("playout={}", self.playout));
        }
        if self.reuse != d.reuse {
            args.push(format!("reuse={}", self.reuse));
        }
        if let Some(n) = self.cutoff {
            args.push(format!("cutoff={n}"));
        }
        if self.tt_bits != d.tt_bits {
            args.push(format!("tt={}", self.tt_bits));
        }
        if self.quiescence != d.quiescence {
            args.push(format!("quiescence={}", self.quiescence));
        }
        for (name, on, default) in [
            ("futility", self.futility, d.futility),
            ("aspiration", self.aspiration, d.aspiration),
            ("reductions", self.reductions, d.reductions),
            ("checks", self.check_extensions, d.check_extensions),
        ] {
            if on != default {
                args.push(format!("{name}={on}"));
            }
        }
        if let Some(on) = self.null_move {
            args.push(format!("null={on}"));
        }
        let name = match self.kind {
            EngineKind::Random => "random",
            EngineKind::Mcts => "mcts",
            EngineKind::AlphaBeta => "alphabeta",
        };
        if args.is_empty() {
            write!(f, "{name}")
        } else {
            write!(f, "{name}:{}", args.join(","))
        }
    }
}

/// A move an engine chose, and what it knows about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Alpha-beta's score, from the view of the side that moves.
    pub score: Option<Score>,
    /// MCTS's mean reward of the move for the side that moves (0 to 1), and whether it is
    /// proven (`Some(true)` a win).
    pub value: Option<(f64, Option<bool>)>,
    /// Alpha-beta's depth completed.
    pub depth: Option<u32>,
    /// Positions (alpha-beta) or iterations (MCTS) searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The expected line, starting with the move.
    pub pv: Vec<Move>,
}

#[derive(Debug)]
enum Inner {
    Random(Rng),
    AlphaBeta(Box<AlphaBeta>),
    Mcts(Box<Mcts>),
}

/// A player that chooses moves, keeping what it learnt between them (alpha-beta's table, the
/// MCTS tree).
#[derive(Debug)]
pub struct Engine {
    spec: EngineSpec,
    inner: Inner,
}

impl Engine {
    /// The player `spec` describes, with this evaluation (alpha-beta's). Without a seed in the
    /// spec, seed 0.
    ///
    /// # Panics
    ///
    /// When alpha-beta's table cannot be allocated; [`Engine::try_new`] says so instead.
    pub fn new(spec: &EngineSpec, eval: Arc<dyn Evaluator>) -> Engine {
        match Engine::try_new(spec, eval) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        }
    }

    /// As [`Engine::new`], with alpha-beta's table allocated fallibly: an error, never an
    /// abort, when the memory is not there. Hold the spec to caps first
    /// ([`EngineSpec::bounded`]).
    pub fn try_new(spec: &EngineSpec, eval: Arc<dyn Evaluator>) -> Result<Engine, TableError> {
        let seed = spec.seed.unwrap_or(0);
        let inner = match spec.kind {
            EngineKind::Random => Inner::Random(Rng::new(seed)),
            EngineKind::AlphaBeta => {
                Inner::AlphaBeta(Box::new(AlphaBeta::try_new(eval, spec.alphabeta_config())?))
            }
            EngineKind::Mcts => Inner::Mcts(Box::new(Mcts::with_eval(
                MctsConfig {
                    exploration: spec.exploration,
                    playout_plies: spec.playout,
                    threads: spec.threads,
                    seed,
                    reuse: spec.reuse,
                    cutoff: spec.cutoff,
                    ..MctsConfig::default()
                },
                eval,
            ))),
        };
        Ok(Engine {
            spec: spec.clone(),
            inner,
        })
    }

    /// The spec.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Forgets what was learnt (for a new game); the generator goes on.
    pub fn new_game(&mut self) {
        match &mut self.inner {
            Inner::Random(_) => {}
            Inner::AlphaBeta(a) => a.clear(),
            Inner::Mcts(m) => m.clear(),
        }
    }

    /// Chooses a move for the side to move.
    pub fn choose(&mut self, pos: &Position) -> Result<Choice, SearchError> {
        self.choose_with(pos, None, &mut |_| {})
    }

    /// Chooses a move, stopping early if `stop` is set; alpha-beta reports each depth to
    /// `on_info`.
    pub fn choose_with(
        &mut self,
        pos: &Position,
        stop: Option<Stop>,
        on_info: &mut dyn FnMut(&crate::Info),
    ) -> Result<Choice, SearchError> {
        let mut limits = self.spec.limits();
        limits.stop = stop;
        self.choose_limited(pos, limits, on_info)
    }

    /// Chooses a move in at most `time`, or in the spec's own time if that is shorter: what a
    /// player on a clock can afford for this move (the spec's depth, nodes and iterations
    /// still hold; the random player takes no time anyway).
    pub fn choose_within(&mut self, pos: &Position, time: Duration) -> Result<Choice, SearchError> {
        let mut limits = self.spec.limits();
        limits.time = Some(limits.time.map_or(time, |t| t.min(time)));
        self.choose_limited(pos, limits, &mut |_| {})
    }

    fn choose_limited(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_info: &mut dyn FnMut(&crate::Info),
    ) -> Result<Choice, SearchError> {
        match &mut self.inner {
            Inner::Random(rng) => {
                let moves = if pos.decided().is_some() {
                    ply_kernel::MoveList::new()
                } else {
                    pos.legal_moves()?
                };
                let mv = moves
                    .get(rng.below(moves.len()))
                    .ok_or_else(|| SearchError::NoMove(pos.status()))?;
                Ok(Choice {
                    mv,
                    score: None,
                    value: None,
                    depth: None,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv: vec![mv],
                })
            }
            Inner::AlphaBeta(a) => {
                let info = a.search(pos, &limits, on_info)?;
                let mv = *info.pv.first().ok_or(SearchError::Stopped)?;
                Ok(Choice {
                    mv,
                    score: Some(info.score),
                    value: None,
                    depth: Some(info.depth),
                    nodes: info.nodes,
                    elapsed: info.elapsed,
                    pv: info.pv,
                })
            }
            Inner::Mcts(m) => {
                let info = m.search(pos, &limits)?;
                let mut pv = info.pv.clone();
                if pv.first() != Some(&info.best.mv) {
                    pv = vec![info.best.mv];
                }
                Ok(Choice {
                    mv: info.best.mv,
                    score: None,
                    value: Some((info.best.value, info.best.proven)),
                    depth: None,
                    nodes: info.iterations,
                    elapsed: info.elapsed,
                    pv,
                })
            }
        }
    }
}
