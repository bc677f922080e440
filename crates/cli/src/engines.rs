//! What the commands that use the engines share: reading a player spec on the command line,
//! the evaluation of a pack, describing a choice, and playing one game between two players
//! (for `match` and `balance`).

use crate::output::CliError;
use ply_kernel::{Game, KindId, Move, Outcome, Player, Position, Rules, Status, move_text};
use ply_lang::Pack;
use ply_search::{Caps, Choice, Engine, EngineSpec, Evaluator, SearchError, Weights};
use std::sync::Arc;

/// Reads a player spec (for clap): `random`, `mcts`, `mcts:2s`, `mcts:5000`, `alphabeta`,
/// `alphabeta:500ms`, `alphabeta:depth=6`; held to the command line's caps
/// ([`Caps::default`]), so that a spec past one is refused with the cap named.
pub fn parse_spec(text: &str) -> Result<EngineSpec, String> {
    let spec = text.parse::<EngineSpec>().map_err(|e| e.to_string())?;
    spec.bounded(&Caps::default())
        .map_err(|e| format!("player `{text}`: {e}"))
}

/// The most memory the alpha-beta tables of the games a series plays at once may take
/// together (4 GiB).
pub const MAX_SERIES_TABLE_BYTES: u128 = 4 << 30;

/// Refuses a series whose games at once would take more table memory than
/// [`MAX_SERIES_TABLE_BYTES`], naming the cap (`ply match --threads 256` with alpha-beta).
pub fn bound_series(s: &Series<'_>) -> Result<(), CliError> {
    let at_once = s.threads.clamp(1, s.games.max(1));
    let each = s.specs[0].table_bytes() + s.specs[1].table_bytes();
    let total = each * at_once as u128;
    if total > MAX_SERIES_TABLE_BYTES {
        return Err(CliError::invalid(format!(
            "{at_once} games at once, each with alpha-beta tables of {each} bytes, take {total} \
             bytes: past the cap of {MAX_SERIES_TABLE_BYTES} bytes for the tables of a series; \
             play fewer games at once (--threads) or give smaller tables (tt=BITS)"
        )));
    }
    Ok(())
}

/// The evaluation the engines use for a pack: its `[eval]`, or material by piece count.
pub fn evaluation(pack: &Pack) -> Arc<dyn Evaluator> {
    Arc::new(Weights::of_pack(pack))
}

/// A search error in the game's words.
pub fn search_error(rules: &Rules, e: &SearchError) -> CliError {
    let core = rules.core();
    match e {
        SearchError::NoMove(Status::Over(Outcome::Win(p))) => CliError::invalid(format!(
            "nothing to search: the game is over, {} won",
            core.player_name(*p)
        )),
        SearchError::NoMove(Status::Over(Outcome::Draw)) => {
            CliError::invalid("nothing to search: the game is over, drawn")
        }
        SearchError::NoMove(Status::Stuck(p) | Status::ToMove(p)) => CliError::invalid(format!(
            "nothing to search: {} has no legal move",
            core.player_name(*p)
        )),
        other => CliError::invalid(other),
    }
}

/// A line of moves in notation, each on the position it is played from.
pub fn line_text(pos: &Position, line: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        out.push(move_text(p.rules(), &m));
        if p.play(m).is_err() {
            break;
        }
    }
    out.join(" ")
}

/// How sure an engine is of its move, in a few words: `depth 9, score +1.20, 0.50 s`.
pub fn choice_text(c: &Choice) -> String {
    let mut parts = Vec::new();
    if let Some(d) = c.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(s) = c.score {
        parts.push(format!("score {s}"));
    }
    if let Some((v, proven)) = c.value {
        match proven {
            Some(true) => parts.push("proven win".to_string()),
            Some(false) => parts.push("proven loss".to_string()),
            None => parts.push(format!("wins {:.0}%", v * 100.0)),
        }
        parts.push(format!("{} iterations", c.nodes));
    }
    if c.depth.is_none() && c.value.is_none() {
        return String::new();
    }
    parts.push(format!("{:.2} s", c.elapsed.as_secs_f64()));
    parts.join(", ")
}

/// One game between two engines.
#[derive(Clone, Debug, Default)]
pub struct GameResult {
    /// The winner, if any: 0 the engine that played first, 1 the other.
    pub winner: Option<usize>,
    /// Plies played.
    pub plies: u32,
    /// Whether the ply cap ended it.
    pub capped: bool,
    /// Whether it ended with the side to move stuck (no move and no rule).
    pub stuck: bool,
    /// Moves made by each kind (by kind index); a placement counts for the kind placed.
    pub moved: Vec<u64>,
    /// Pieces taken by each kind's moves: by landing on them, hopping over them, or by the
    /// move's effects (custodial captures, flips to the mover's side).
    pub captures: Vec<u64>,
    /// Pieces of each kind taken by the other side, however (counted as the pieces of the
    /// side that did not move that are gone from the board after the move).
    pub captured: Vec<u64>,
    /// The moves, in notation.
    pub moves: Vec<String>,
    /// The longest time each engine (0 the first to move) took over a move, wall clock.
    pub longest: [std::time::Duration; 2],
}

/// Plays a game from `start` between `first` (to move) and `second`, up to `max_plies`.
pub fn play_game(
    start: &Game,
    first: &mut Engine,
    second: &mut Engine,
    max_plies: u32,
) -> Result<GameResult, SearchError> {
    let rules = start.rules().clone();
    let core = rules.core();
    let kinds = core.kind_count();
    let mut game = start.clone();
    let mover0 = game.side_to_move();
    let mut r = GameResult {
        moved: vec![0; kinds],
        captures: vec![0; kinds],
        captured: vec![0; kinds],
        ..GameResult::default()
    };
    first.new_game();
    second.new_game();
    loop {
        match game.status() {
            Status::ToMove(side) => {
                if r.plies >= max_plies {
                    r.capped = true;
                    break;
                }
                let who = usize::from(side != mover0);
                let engine = if who == 0 { &mut *first } else { &mut *second };
                let started = std::time::Instant::now();
                let choice = engine.choose(game.position())?;
                r.longest[who] = r.longest[who].max(started.elapsed());
                let m = choice.mv;
                let pos = game.position();
                let kind = |p: Option<ply_kernel::Piece>| p.map(|p| p.kind().index());
                let moves_a_piece = !m.is_pass() && !m.is_placement();
                let mover = if moves_a_piece {
                    kind(pos.piece_at(m.from()))
                } else {
                    None
                };
                if let Some(k) = mover {
                    r.moved[k] += 1;
                }
                // The other side's pieces before and after, by kind: whatever took them (a
                // landing, a hop, an effect), those gone were captured.
                let theirs = |p: &Position, k: KindId| p.count(side.other(), Some(k));
                let before: Vec<usize> = core.kinds().map(|k| theirs(pos, k)).collect();
                r.moves.push(move_text(&rules, &m));
                game.play(m).map_err(|_| SearchError::Stopped)?;
                let after = game.position();
                // A placement moves no piece: it counts for the kind placed.
                let mover = if m.is_placement() {
                    kind(after.piece_at(m.to()))
                } else {
                    mover
                };
                if m.is_placement()
                    && let Some(k) = mover
                {
                    r.moved[k] += 1;
                }
                let mut taken = 0;
                for (i, k) in core.kinds().enumerate() {
                    let gone = before[i].saturating_sub(theirs(after, k)) as u64;
                    r.captured[k.index()] += gone;
                    taken += gone;
                }
                if let Some(k) = mover {
                    r.captures[k] += taken;
                }
                r.plies += 1;
            }
            Status::Over(Outcome::Win(p)) => {
                r.winner = Some(if p == mover0 { 0 } else { 1 });
                break;
            }
            Status::Over(Outcome::Draw) => break,
            Status::Stuck(_) => {
                r.stuck = true;
                break;
            }
        }
    }
    Ok(r)
}

/// The names of the kinds, by index.
pub fn kind_names(rules: &Rules) -> Vec<String> {
    rules
        .core()
        .kinds()
        .map(|k: KindId| rules.core().kind_name(k).to_string())
        .collect()
}

/// The player who moves first from `start`.
pub fn first_player(start: &Game) -> Player {
    start.side_to_move()
}

/// One game of a series: which of the two specs moved first, and how it went.
#[derive(Clone, Debug)]
pub struct Played {
    /// The spec (0 or 1) that moved first.
    pub first: usize,
    /// The game.
    pub result: GameResult,
}

/// How a series of games is played.
#[derive(Clone, Debug)]
pub struct Series<'a> {
    /// The starting position.
    pub start: &'a Game,
    /// The two players.
    pub specs: [&'a EngineSpec; 2],
    /// The evaluation of each player (as `specs`).
    pub evals: [Arc<dyn Evaluator>; 2],
    /// Games.
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// The ply cap of a game.
    pub max_plies: u32,
    /// The base seed: game `i`'s players are seeded from it and `i`.
    pub seed: u64,
    /// Whether the players take turns moving first (otherwise spec 0 always does).
    pub alternate: bool,
}

/// Plays the series, `threads` games at a time, with a progress bar on standard error when
/// `progress`; the games in order.
pub fn play_series(s: &Series<'_>, progress: bool) -> Result<Vec<Played>, SearchError> {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bar = if progress {
        let b = ProgressBar::new(s.games as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed}, about {eta} left {msg}",
        ) {
            b.set_style(style);
        }
        b
    } else {
        ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Played, SearchError>>>> = Mutex::new(vec![None; s.games]);
    let wins = Mutex::new([0u64; 3]);
    std::thread::scope(|scope| {
        for _ in 0..s.threads.clamp(1, s.games.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= s.games {
                        break;
                    }
                    let first = if s.alternate { i % 2 } else { 0 };
                    let seed = s.seed.wrapping_add(2 * i as u64);
                    let mut a = Engine::new(
                        &s.specs[first].clone().or_seed(seed),
                        s.evals[first].clone(),
                    );
                    let mut b = Engine::new(
                        &s.specs[1 - first].clone().or_seed(seed + 1),
                        s.evals[1 - first].clone(),
                    );
                    let r = play_game(s.start, &mut a, &mut b, s.max_plies)
                        .map(|result| Played { first, result });
                    if let Ok(p) = &r
                        && let Ok(mut w) = wins.lock()
                    {
                        match p.result.winner {
                            Some(k) => w[if k == 0 { p.first } else { 1 - p.first }] += 1,
                            None => w[2] += 1,
                        }
                        bar.set_message(format!("({} - {} - {} draws)", w[0], w[1], w[2]));
                    }
                    if let Ok(mut all) = results.lock() {
                        all[i] = Some(r);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let all = results.into_inner().unwrap_or_default();
    all.into_iter()
        .map(|r| r.unwrap_or(Err(SearchError::Stopped)))
        .collect()
}
