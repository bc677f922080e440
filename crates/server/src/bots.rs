//! Engines that play a seat of a game: the players of `crates/search` (random, MCTS,
//! alpha-beta), each in a task of its own that watches the game and, when its seat is to
//! move, searches on a blocking thread and plays through the same judge as any seat.
//!
//! An engine is stored with its game (its spec and seat): the process that creates the game
//! starts it, and so does any process that loads the game again (after a restart, or another
//! process on the same database), so its seat never waits for ever. It declines every request
//! to take back a move.
//!
//! Engines start lazily, when their game is loaded, not all at once when a server starts:
//! whoever waits for an engine's move touches the game (the web board opens its WebSocket
//! again when the connection is lost, a script reads the state or moves), and that starts the
//! engine, which moves within its time (on a clock, within what its time left affords:
//! [`move_budget`]). Starting every stored engine at start-up would load
//! every game with an engine, abandoned ones included, search for players who are gone, and,
//! with several processes on one database, start each engine once per process restarted. A
//! game its player left leaves memory after the server's `keep_idle_games` (its engine does
//! not count as a watcher), which ends the engine's task; it starts again with the game.

use crate::api::{EngineSeat, GameStatus, MoveText};
use crate::games::{Hub, Refusal};
use ply_kernel::{Player, Rules, move_text};
use ply_search::{Engine, EngineKind, EngineSpec, Evaluator, Weights};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::broadcast;

/// The longest an engine may think about a move (a spec asking for more, or for a depth or
/// a number of iterations only, is held to it).
pub const MAX_ENGINE_TIME: Duration = Duration::from_secs(5);
/// The most threads an engine may search with.
pub const MAX_ENGINE_THREADS: usize = 2;
/// The largest alpha-beta table, as a power of two.
pub const MAX_ENGINE_TABLE_BITS: u32 = 20;

/// The time an engine on a clock gives one move, `left_ms` being its time left and
/// `increment_ms` what a move adds: a twentieth of the time left and three quarters of the
/// increment, never more than half the time left (so that it never loses on time by thinking),
/// and at least a millisecond. Its spec's own time (at most [`MAX_ENGINE_TIME`]) still bounds it.
pub fn move_budget(left_ms: u64, increment_ms: u64) -> Duration {
    let ms = (left_ms / 20 + increment_ms * 3 / 4)
        .min(left_ms / 2)
        .max(1);
    Duration::from_millis(ms)
}

/// Reads an engine seat: the spec, held to the server's limits, and the seat.
pub fn read_seat(seat: &EngineSeat, rules: &Rules) -> Result<(EngineSpec, Player), Refusal> {
    let mut spec: EngineSpec = seat
        .player
        .parse()
        .map_err(|e: ply_search::SpecError| Refusal::new(422, e.to_string()))?;
    spec.time = Some(
        spec.time
            .map_or(MAX_ENGINE_TIME, |t| t.min(MAX_ENGINE_TIME)),
    );
    spec.threads = spec.threads.clamp(1, MAX_ENGINE_THREADS);
    spec.tt_bits = spec.tt_bits.min(MAX_ENGINE_TABLE_BITS);
    if spec.seed.is_none() && spec.kind != EngineKind::AlphaBeta {
        let mut b = [0u8; 8];
        let _ = getrandom::fill(&mut b);
        spec.seed = Some(u64::from_le_bytes(b));
    }
    let core = rules.core();
    let player = match &seat.seat {
        None => Player::SECOND,
        Some(name) => core.player_by_name(name).ok_or_else(|| {
            Refusal::new(
                422,
                format!(
                    "there is no seat `{name}` for the engine: the players are {} and {}",
                    core.player_name(Player::FIRST),
                    core.player_name(Player::SECOND)
                ),
            )
        })?,
    };
    let spec = spec
        .bounded(&ply_search::Caps::default())
        .map_err(|e| Refusal::new(422, e.to_string()))?;
    Ok((spec, player))
}

/// The evaluation the engines use for a pack: its `[eval]`, or material by piece count (as
/// `ply play --vs` does).
pub fn evaluation(pack: &ply_lang::Pack) -> Arc<dyn Evaluator> {
    Arc::new(Weights::of_pack(pack))
}

/// Tells the hub when the engine's task ends, however it ends.
struct Playing {
    hub: Weak<Hub>,
    id: String,
}

impl Drop for Playing {
    fn drop(&mut self) {
        if let Some(h) = self.hub.upgrade() {
            h.engine_stopped(&self.id);
        }
    }
}

/// Starts the task of an engine playing `seat` of game `id`.
pub(crate) fn spawn(
    hub: Weak<Hub>,
    id: String,
    seat: Player,
    spec: EngineSpec,
    eval: Arc<dyn Evaluator>,
) {
    tokio::spawn(async move {
        let _playing = Playing {
            hub: hub.clone(),
            id: id.clone(),
        };
        let mut engine = Some(Engine::new(&spec, eval));
        loop {
            let Some(h) = hub.upgrade() else { return };
            let Ok((state, mut pushes)) = h.watch(&id).await else {
                return;
            };
            if state.status != GameStatus::Playing {
                return;
            }
            let me = state.players.get(seat.index()).cloned().unwrap_or_default();
            if let Some(offer) = &state.undo_request
                && offer.by != me
            {
                let _ = h.engine_declines(&id, seat, state.version).await;
                continue;
            }
            if state.draw_offer.as_deref().is_some_and(|by| by != me) {
                let _ = h.engine_declines_draw(&id, seat, state.version).await;
                continue;
            }
            if state.to_move.as_deref() == Some(me.as_str()) {
                let Ok((version, pos)) = h.position(&id).await else {
                    return;
                };
                drop(h);
                // On a clock, the engine thinks within what its time left affords.
                let budget = state.clock.as_ref().map(|c| {
                    let left = c.remaining_ms.get(seat.index()).copied().unwrap_or(0);
                    move_budget(left, c.control.increment_ms)
                });
                let Some(mut e) = engine.take() else { return };
                let searched = tokio::task::spawn_blocking(move || {
                    let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        match budget {
                            Some(t) => e.choose_within(&pos, t),
                            None => e.choose(&pos),
                        }
                        .map(|c| move_text(pos.rules(), &c.mv))
                        .map_err(|err| err.to_string())
                    }))
                    .unwrap_or_else(|_| Err("the engine crashed".to_string()));
                    (e, choice)
                })
                .await;
                let Ok((e, choice)) = searched else { return };
                engine = Some(e);
                let mv = match choice {
                    Ok(mv) => mv,
                    Err(why) => {
                        tracing::info!("game {id}: the engine stops: {why}");
                        return;
                    }
                };
                let Some(h) = hub.upgrade() else { return };
                // A refusal (the game changed meanwhile: a move taken back, or another
                // process's engine moved first) is answered by looking again.
                let _ = h
                    .engine_move(&id, seat, version, &MoveText::Notation(mv))
                    .await;
                continue;
            }
            drop(h);
            // Wait for the game to change.
            loop {
                match pushes.recv().await {
                    Ok(p) if p.version > state.version => break,
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => break,
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        }
    });
}
