//! The games a server process plays: each game's state in memory, rebuilt from its stored log,
//! behind one lock per game, so that the changes of one game are judged one at a time.
//!
//! Every request first brings the game up to date from the store (another process may have
//! changed it), then judges the request against that state, then appends the resulting event
//! at the next version. The store refuses a version that is taken, so even two processes
//! judging the same version concurrently store one event; the other request is answered 409.

use crate::api::{
    Board, Clocks, Conflict, CreateGame, CreatedGame, DrawAction, DrawRequest, EndReason,
    EngineSeat, ErrorBody, GameState, GameStatus, Layout, LayoutCell, LayoutPiece, LayoutPlayer,
    LayoutZone, MAX_CLOCK_MS, MAX_INLINE_LEGAL, MAX_LEGAL_PAGE, MoveRequest, MoveText, OptionJson,
    OptionType, PackInfo, PackList, PackOption, PackRef, PastedPack, ResignRequest, ServerMessage,
    TimeControl, UndoAction, UndoOffer, UndoRequest,
};
use crate::store::{Appended, Event, EventKind, NewGame, Store, StoreError};
use ply_kernel::spec::ZoneCells;
use ply_kernel::{Cell, Game, KindId, Outcome, Player, Rules, Status, move_text, parse_move};
use ply_lang::{OptionValue, Options};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// The longest idempotency key accepted.
pub const MAX_IDEMPOTENCY_KEY: usize = 128;

/// A refused request: the HTTP status and the JSON body to answer with.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The status: 400, 403, 404, 409, 422, 500 or 503.
    pub status: u16,
    /// The body: an [`ErrorBody`], or a [`Conflict`] for 409.
    pub body: serde_json::Value,
}

impl Refusal {
    /// A refusal with an [`ErrorBody`].
    pub fn new(status: u16, error: impl Into<String>) -> Refusal {
        Refusal::with_rule(status, error, None)
    }

    fn with_rule(status: u16, error: impl Into<String>, rule: Option<String>) -> Refusal {
        let body = ErrorBody {
            error: error.into(),
            rule,
            expired_at: None,
        };
        Refusal {
            status,
            body: serde_json::to_value(body).unwrap_or_default(),
        }
    }

    /// 410: the game of that id expired at `at_ms` (milliseconds since the Unix epoch).
    fn gone(id: &str, at_ms: i64, expire: Option<Duration>) -> Refusal {
        let at = std::time::UNIX_EPOCH + Duration::from_millis(u64::try_from(at_ms).unwrap_or(0));
        let at = humantime::format_rfc3339_seconds(at).to_string();
        let after = expire.map_or(String::new(), |d| {
            format!(" after {} with no move", humantime::format_duration(d))
        });
        let body = ErrorBody {
            error: format!("the game `{id}` expired{after}: it was removed at {at}"),
            rule: None,
            expired_at: Some(at),
        };
        Refusal {
            status: 410,
            body: serde_json::to_value(body).unwrap_or_default(),
        }
    }

    fn conflict(error: impl Into<String>, state: GameState) -> Refusal {
        let body = Conflict {
            error: error.into(),
            state,
        };
        Refusal {
            status: 409,
            body: serde_json::to_value(body).unwrap_or_default(),
        }
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        tracing::error!("storage: {e}");
        Refusal::new(503, "the game store is not available; try again")
    }
}

/// A state pushed to a game's WebSocket clients: its version and the message, serialized once.
#[derive(Clone, Debug)]
pub struct Push {
    /// The version it shows.
    pub version: u64,
    /// A [`ServerMessage::State`], as JSON text.
    pub text: Arc<str>,
}

/// One game in memory.
struct Live {
    state: tokio::sync::Mutex<LiveState>,
    pushes: broadcast::Sender<Push>,
    /// When a request last reached it, in milliseconds since the hub started.
    used: AtomicU64,
}

struct LiveState {
    meta: NewGame,
    options: BTreeMap<String, OptionJson>,
    rules: Arc<Rules>,
    game: Game,
    version: u64,
    events: Vec<Event>,
    undo_ask: Option<Player>,
    /// The player who offers a draw, while the offer stands.
    draw_offer: Option<Player>,
    /// How the players ended the game, when they did (not its rules).
    settled: Option<Settled>,
    /// The time control, for a game with clocks.
    clock: Option<TimeControl>,
    /// Each player's time left (milliseconds) when its clock last stopped.
    left_ms: [i64; 2],
    /// When the clock of the side to move started (milliseconds since the Unix epoch).
    turn_from_ms: i64,
    /// When the game was created or last changed, in milliseconds since the Unix epoch.
    touched_ms: i64,
}

/// A game ended by its players rather than by its rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Settled {
    /// This player resigned.
    Resigned(Player),
    /// A draw was offered and accepted.
    Drawn,
    /// This player's time ran out.
    Flagged(Player),
}

/// What a new game has besides its pack.
struct Extras<'a> {
    /// An engine on one seat.
    engine: Option<&'a EngineSeat>,
    /// A time control.
    clock: Option<TimeControl>,
}

/// The games of one server process and where they are stored.
pub struct Hub {
    /// The hub itself, for the engines it starts.
    me: Weak<Hub>,
    started: Instant,
    store: Box<dyn Store>,
    packs: PathBuf,
    live: Mutex<HashMap<String, Arc<Live>>>,
    rules: Mutex<HashMap<String, Arc<Rules>>>,
    displays: Mutex<HashMap<String, ply_lang::Display>>,
    /// How long a game may go without a change before it is removed, if games expire.
    expire: Option<Duration>,
    /// The games whose engine plays in this process.
    engines: Mutex<std::collections::HashSet<String>>,
    /// Places for compiling packs (see [`COMPILES_AT_ONCE`]).
    compiles: tokio::sync::Semaphore,
}

/// How many packs a server compiles at once (a game's pack when it is created or loaded
/// again from the store), each on a blocking thread. Compiling takes a pack's tables (a few
/// megabytes for a board of 63 cells) for a moment: a burst of creations takes at most this
/// many times that, never one per request in flight. A game keeps no compiled pack of its
/// own: the games of one pack (one resolved text) share it, and it is dropped from memory
/// with the last of them.
pub const COMPILES_AT_ONCE: usize = 2;

fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn random_hex(bytes: usize) -> Result<String, Refusal> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| {
        tracing::error!("no randomness: {e}");
        Refusal::new(503, "the server cannot make tokens now; try again")
    })?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `id` may be a game's id: 1 to 64 ASCII letters and digits (the server makes 16
/// hex digits).
pub fn valid_game_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether `key` may be an idempotency key: 1 to [`MAX_IDEMPOTENCY_KEY`] printable ASCII
/// characters (as an `Idempotency-Key` header can carry them).
pub fn valid_idempotency_key(key: &str) -> bool {
    (1..=MAX_IDEMPOTENCY_KEY).contains(&key.len())
        && key.bytes().all(|b| (0x20..=0x7e).contains(&b))
}

/// Whether `name` may name a pack: letters, digits, `_` and `-`, so never a path.
pub fn valid_pack_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Reads a move leniently, as `ply play` does: letters in any case; between the cells `-`,
/// `x`, `:`, spaces or nothing; `pass`. A path of cells is read as the same cells in notation
/// (an empty path is a pass).
fn read_move(rules: &Rules, mv: &MoveText) -> Result<(Vec<Cell>, Option<KindId>), String> {
    let (shown, text) = match mv {
        MoveText::Notation(text) => (text.trim().to_string(), text.clone()),
        MoveText::Path(cells) if cells.is_empty() => ("[]".to_string(), "pass".to_string()),
        MoveText::Path(cells) => (format!("{cells:?}"), cells.join("-")),
    };
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    parse_move(rules, &compact).map_err(|e| format!("`{shown}` is not a move: {}", e.kind))
}

fn load_panic_safe(name: &str, text: &str, options: &Options) -> Result<ply_lang::Pack, String> {
    match std::panic::catch_unwind(|| ply_lang::load_str_with(name, text, options)) {
        Ok(Ok(pack)) => Ok(pack),
        Ok(Err(e)) => Err(e.render(false)),
        Err(_) => Err(format!("the loader crashed on {name}")),
    }
}

impl LiveState {
    fn seat_of(&self, token: &str) -> Option<Player> {
        let h = sha256_hex(token.as_bytes());
        Player::ALL
            .into_iter()
            .find(|p| self.meta.token_hashes[p.index()] == h)
    }

    /// Applies a stored event to the state in memory.
    fn apply(&mut self, e: &Event) -> Result<(), StoreError> {
        if e.version != self.version + 1 {
            return Err(StoreError::Corrupt(format!(
                "game {}: event {} after version {}",
                self.meta.id, e.version, self.version
            )));
        }
        let seat = Player::new(usize::from(e.seat))
            .ok_or_else(|| StoreError::Corrupt(format!("seat {}", e.seat)))?;
        // The clock of the side to move stops: for a move, an undo taken back or an end.
        let turn_ends = matches!(
            e.kind,
            EventKind::Move(_) | EventKind::UndoAccept | EventKind::Resign | EventKind::DrawAccept
        );
        if turn_ends {
            self.stop_clock(e.at_ms);
        }
        match &e.kind {
            EventKind::Move(text) => {
                let (path, choice) = parse_move(&self.rules, text)
                    .map_err(|err| StoreError::Corrupt(err.to_string()))?;
                self.game
                    .play_path_choosing(Some(seat), &path, choice)
                    .map_err(|err| StoreError::Corrupt(format!("stored move {text}: {err}")))?;
                self.undo_ask = None;
                // A move of the player offered a draw declines it.
                if self.draw_offer.is_some_and(|p| p != seat) {
                    self.draw_offer = None;
                }
                if let Some(c) = self.clock {
                    let left = &mut self.left_ms[seat.index()];
                    *left = left.saturating_add(c.increment_ms as i64);
                }
            }
            EventKind::UndoAsk => self.undo_ask = Some(seat),
            EventKind::UndoAccept => {
                self.game.undo();
                self.undo_ask = None;
            }
            EventKind::UndoDecline => self.undo_ask = None,
            EventKind::Resign => {
                self.settled = Some(Settled::Resigned(seat));
                self.undo_ask = None;
                self.draw_offer = None;
            }
            EventKind::DrawOffer => self.draw_offer = Some(seat),
            EventKind::DrawAccept => {
                self.settled = Some(Settled::Drawn);
                self.undo_ask = None;
                self.draw_offer = None;
            }
            EventKind::DrawDecline => self.draw_offer = None,
            EventKind::Time => {
                self.settled = Some(Settled::Flagged(seat));
                self.left_ms[seat.index()] = 0;
                self.undo_ask = None;
                self.draw_offer = None;
            }
        }
        self.version = e.version;
        self.touched_ms = self.touched_ms.max(e.at_ms);
        self.events.push(e.clone());
        Ok(())
    }

    /// The board after every move so far (the start first), replayed from the start.
    fn history(&self) -> crate::api::History {
        let rules = &self.rules;
        let mut game = Game::new(rules.clone());
        let mut steps = vec![crate::api::HistoryStep {
            mv: None,
            path: None,
            position: game.position().to_position_string(),
            board: board_of(rules, game.position()),
        }];
        for m in self.game.history() {
            let text = move_text(rules, &m);
            if game.play(m).is_err() {
                break;
            }
            steps.push(crate::api::HistoryStep {
                path: Some(path_of(rules, &text)),
                mv: Some(text),
                position: game.position().to_position_string(),
                board: board_of(rules, game.position()),
            });
        }
        crate::api::History {
            version: self.version,
            steps,
        }
    }

    /// Stops the clock of the side to move at `at_ms`, charging it the time since it started,
    /// and starts the next turn's from then.
    fn stop_clock(&mut self, at_ms: i64) {
        if self.clock.is_some()
            && let Status::ToMove(p) = self.status()
        {
            let left = &mut self.left_ms[p.index()];
            *left = left.saturating_sub(at_ms.saturating_sub(self.turn_from_ms));
        }
        self.turn_from_ms = at_ms;
    }

    /// For a game with clocks whose side to move's clock runs: that player, and when its time
    /// runs out (milliseconds since the Unix epoch).
    fn flag_due(&self) -> Option<(Player, i64)> {
        self.clock?;
        match self.status() {
            Status::ToMove(p) => {
                Some((p, self.turn_from_ms.saturating_add(self.left_ms[p.index()])))
            }
            _ => None,
        }
    }

    /// The clocks as of now, for a game with a time control.
    fn clocks(&self) -> Option<Clocks> {
        let control = self.clock?;
        let now = crate::store::now_ms();
        let running = self.flag_due().map(|(p, _)| p);
        let remaining_ms = Player::ALL
            .into_iter()
            .map(|p| {
                let mut left = self.left_ms[p.index()];
                if running == Some(p) {
                    left = left.saturating_sub(now.saturating_sub(self.turn_from_ms));
                }
                left.max(0) as u64
            })
            .collect();
        Some(Clocks {
            control,
            remaining_ms,
            running: running.map(|p| self.rules.core().player_name(p).to_string()),
        })
    }

    /// Where the game stands: as its rules say, unless the players ended it.
    fn status(&self) -> Status {
        match self.settled {
            Some(Settled::Flagged(p)) => Status::Over(Outcome::Win(p.other())),
            Some(Settled::Resigned(p)) => Status::Over(Outcome::Win(p.other())),
            Some(Settled::Drawn) => Status::Over(Outcome::Draw),
            None => self.game.status(),
        }
    }

    /// Why the game is over, and the end rule that decided it when one did; `(None, None)`
    /// while it goes on.
    fn end_reason(&self) -> (Option<EndReason>, Option<String>) {
        match self.settled {
            Some(Settled::Resigned(_)) => (Some(EndReason::Resignation), None),
            Some(Settled::Drawn) => (Some(EndReason::Agreement), None),
            Some(Settled::Flagged(_)) => (Some(EndReason::Time), None),
            None => match self.game.end_reason() {
                Some(ply_kernel::EndReason::Rule(rule)) => (
                    Some(EndReason::Rule),
                    Some(self.rules.rule_name(rule).to_string()),
                ),
                Some(_) => (Some(EndReason::Given), None),
                None => (None, None),
            },
        }
    }

    fn view(&self) -> GameState {
        let rules = &self.rules;
        let core = rules.core();
        let g = rules.geometry();
        let pos = self.game.position();
        let cells = board_of(rules, pos).cells;
        let status = self.status();
        let (end_reason, end_rule) = self.end_reason();
        let (to_move, status_word, winner) = match status {
            Status::ToMove(p) => (Some(p), GameStatus::Playing, None),
            Status::Stuck(p) => (Some(p), GameStatus::Stuck, None),
            Status::Over(Outcome::Win(p)) => (None, GameStatus::Over, Some(p)),
            Status::Over(Outcome::Draw) => (None, GameStatus::Over, None),
        };
        let (legal_count, legal_moves, legal_paths) = self.legal(0, MAX_INLINE_LEGAL);
        let last_path = self
            .game
            .last_move()
            .map(|m| path_of(rules, &move_text(rules, &m)));
        let name = |p: Player| core.player_name(p).to_string();
        let check = match status {
            Status::ToMove(p) => royal_in_check(rules, pos, p),
            _ => Vec::new(),
        };
        GameState {
            id: self.meta.id.clone(),
            version: self.version,
            pack: PackRef {
                name: self.meta.pack_name.clone(),
                options: self.options.clone(),
                sha256: self.meta.pack_sha256.clone(),
            },
            players: Player::ALL.into_iter().map(name).collect(),
            position: pos.to_position_string(),
            board: Board {
                rows: g.rows(),
                cols: g.cols(),
                cells,
            },
            to_move: to_move.map(name),
            status: status_word,
            winner: winner.map(name),
            end_reason,
            end_rule,
            draw_offer: self
                .draw_offer
                .filter(|_| !matches!(status, Status::Over(_)))
                .map(name),
            clock: self.clocks(),
            legal_moves,
            legal_paths,
            legal_count,
            moves: self.game.history().map(|m| move_text(rules, &m)).collect(),
            last_path,
            undo_request: self.undo_ask.and_then(|p| {
                Some(UndoOffer {
                    by: name(p),
                    takes_back: move_text(rules, &self.game.last_move()?),
                })
            }),
            check,
            engine_seat: self
                .meta
                .engine
                .as_deref()
                .and_then(|e| serde_json::from_str::<EngineSeat>(e).ok())
                .and_then(|e| e.seat),
        }
    }

    /// How many legal moves the side to move has, and those from `offset` on, at most
    /// `limit`, in notation and as paths (only those are written out).
    fn legal(&self, offset: usize, limit: usize) -> (usize, Vec<String>, Vec<Vec<String>>) {
        if !matches!(self.status(), Status::ToMove(_)) {
            return (0, Vec::new(), Vec::new());
        }
        let Ok(list) = self.game.legal_moves() else {
            return (0, Vec::new(), Vec::new());
        };
        let rules = &self.rules;
        let mut count = 0;
        let mut moves = Vec::new();
        for m in list.iter() {
            if count >= offset && moves.len() < limit {
                moves.push(move_text(rules, &m));
            }
            count += 1;
        }
        let paths = moves.iter().map(|m| path_of(rules, m)).collect();
        (count, moves, paths)
    }

    /// The game as it was at `version` (for judging a retried request again).
    fn game_at(&self, version: u64) -> Result<Game, StoreError> {
        Ok(self.at(version)?.game)
    }

    /// The state as it was at `version` (for answering a retried request again).
    fn view_at(&self, version: u64) -> Result<GameState, StoreError> {
        Ok(self.at(version)?.view())
    }

    fn at(&self, version: u64) -> Result<LiveState, StoreError> {
        let mut past = LiveState {
            meta: self.meta.clone(),
            options: self.options.clone(),
            rules: self.rules.clone(),
            game: Game::new(self.rules.clone()),
            version: 0,
            events: Vec::new(),
            undo_ask: None,
            draw_offer: None,
            settled: None,
            clock: self.clock,
            left_ms: self.clock.map_or([0; 2], |c| [c.initial_ms as i64; 2]),
            turn_from_ms: self.meta.created_ms,
            touched_ms: self.meta.created_ms,
        };
        for e in self.events.iter().take_while(|e| e.version <= version) {
            past.apply(e)?;
        }
        Ok(past)
    }

    fn push(&self, live: &Live) {
        let msg = ServerMessage::State {
            state: Box::new(self.view()),
        };
        if let Ok(text) = serde_json::to_string(&msg) {
            let _ = live.pushes.send(Push {
                version: self.version,
                text: text.into(),
            });
        }
    }
}

/// A move's path of cells, by name.
fn path_of(rules: &Rules, text: &str) -> Vec<String> {
    let g = rules.geometry();
    parse_move(rules, text)
        .map(|(cells, _)| cells.iter().map(|&c| g.name(c).to_string()).collect())
        .unwrap_or_default()
}

/// Who asks: the holder of a token, or an engine of this server playing a seat.
#[derive(Copy, Clone)]
pub(crate) enum Who<'a> {
    /// A request with a seat's token.
    Token(&'a str),
    /// The game's engine, which plays this seat.
    Engine(Player),
}

/// What a seat asks of a game.
enum Action<'a> {
    Move(&'a MoveText),
    Undo(UndoAction),
    Resign,
    Draw(DrawAction),
}

impl Hub {
    /// A hub over a store, creating games from the packs in `packs`.
    /// A game that nobody has reached for `keep_idle` and nobody watches is dropped from
    /// memory (it is loaded again from the store when next asked for).
    /// With `expire`, a game with no change for that long is removed from the store (see
    /// [`Store::expire`]) and from memory.
    pub fn new(
        store: Box<dyn Store>,
        packs: PathBuf,
        keep_idle: Duration,
        expire: Option<Duration>,
    ) -> Arc<Hub> {
        let hub = Arc::new_cyclic(|me| Hub {
            me: me.clone(),
            started: Instant::now(),
            store,
            packs,
            live: Mutex::new(HashMap::new()),
            rules: Mutex::new(HashMap::new()),
            displays: Mutex::new(HashMap::new()),
            expire,
            engines: Mutex::new(Default::default()),
            compiles: tokio::sync::Semaphore::new(COMPILES_AT_ONCE),
        });
        if let Some(mut changes) = hub.store.changes() {
            let weak = Arc::downgrade(&hub);
            tokio::spawn(async move {
                loop {
                    let change = match changes.recv().await {
                        Ok(c) => c,
                        Err(broadcast::error::RecvError::Lagged(_)) => None,
                        Err(broadcast::error::RecvError::Closed) => break,
                    };
                    let Some(hub) = weak.upgrade() else { break };
                    hub.changed_elsewhere(change).await;
                }
            });
        }
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            let every = (keep_idle / 2).clamp(Duration::from_millis(50), Duration::from_secs(60));
            loop {
                tokio::time::sleep(every).await;
                let Some(hub) = weak.upgrade() else { break };
                hub.evict(keep_idle);
            }
        });
        if let Some(expire) = expire {
            let weak = Arc::downgrade(&hub);
            tokio::spawn(async move {
                let every = (expire / 2).clamp(Duration::from_millis(50), Duration::from_secs(60));
                loop {
                    tokio::time::sleep(every).await;
                    let Some(hub) = weak.upgrade() else { break };
                    hub.expire_now(expire).await;
                }
            });
        }
        hub
    }

    /// Removes the games with no change for `expire`: from the store, and from this
    /// process's memory (whichever process removed them from the store).
    async fn expire_now(&self, expire: Duration) {
        let cutoff = crate::store::now_ms() - expire.as_millis() as i64;
        match self.store.expire(cutoff).await {
            Ok(ids) if !ids.is_empty() => {
                tracing::info!("{} games with no move for {expire:?} removed", ids.len());
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("removing the games with no move: {e}"),
        }
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, l| match l.state.try_lock() {
                Ok(st) => st.touched_ms >= cutoff,
                // In use: it is looked at again next time.
                Err(_) => true,
            });
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Drops from memory the games idle for `keep_idle` that no request holds and nobody
    /// watches (the game's own engine, which watches it too, does not count: a game left by
    /// its player is dropped, which ends its engine's task, and loading it again starts the
    /// engine again). Safe at any time: a request still holding a dropped game can only store
    /// at a version the store does not have yet.
    fn evict(&self, keep_idle: Duration) {
        let now = self.now_ms();
        let idle = keep_idle.as_millis() as u64;
        let engines = self
            .engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|id, l| {
                let own = usize::from(engines.contains(id));
                Arc::strong_count(l) > 1
                    || l.pushes.receiver_count() > own
                    || now.saturating_sub(l.used.load(Ordering::Relaxed)) < idle
            });
        self.forget_unused_packs();
    }

    /// Drops the compiled packs that no game in memory (nor a request, nor an engine) holds,
    /// and their displays: the packs kept are as many as the games' distinct packs.
    fn forget_unused_packs(&self) {
        let mut rules = self.rules.lock().unwrap_or_else(|e| e.into_inner());
        rules.retain(|_, r| Arc::strong_count(r) > 1);
        self.displays
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|sha, _| rules.contains_key(sha));
    }

    /// How many compiled packs are in memory.
    pub fn packs_in_memory(&self) -> usize {
        self.rules.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Runs `work` (compiling a pack) on a blocking thread, at most [`COMPILES_AT_ONCE`] at
    /// once.
    async fn compiling<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Hub) -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let failed = || Refusal::new(500, "compiling the pack failed");
        let _place = self.compiles.acquire().await.map_err(|_| failed())?;
        let hub = self.me.upgrade().ok_or_else(failed)?;
        tokio::task::spawn_blocking(move || work(&hub))
            .await
            .map_err(|_| failed())
    }

    /// The compiled rules of a game's resolved pack text, shared by every game of that text:
    /// from memory, else compiled from the text (which must load by itself) and kept, with
    /// the pack's display. `loaded` is the pack as it was loaded, if it was loaded from that
    /// very text (then it is kept as it is).
    fn shared_rules(
        &self,
        name: &str,
        resolved: &str,
        sha: &str,
        loaded: Option<ply_lang::Pack>,
    ) -> Result<Arc<Rules>, Refusal> {
        if let Some(r) = self
            .rules
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(sha)
        {
            return Ok(r.clone());
        }
        let pack = match loaded {
            Some(p) => p,
            None => load_panic_safe(&format!("{name}.toml"), resolved, &Options::new())
                .map_err(|e| Refusal::new(500, format!("the resolved pack does not load: {e}")))?,
        };
        self.displays
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(sha.to_string(), pack.display);
        Ok(self
            .rules
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(sha.to_string())
            .or_insert(pack.rules)
            .clone())
    }

    /// How many games are in memory.
    pub fn games_in_memory(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The store's description.
    pub fn describe_store(&self) -> String {
        self.store.describe()
    }

    /// The packs folder.
    pub fn packs_dir(&self) -> &Path {
        &self.packs
    }

    /// Another process changed a game (or, with `None`, maybe several): bring the games with
    /// watchers up to date, which pushes their new states.
    async fn changed_elsewhere(&self, change: Option<crate::store::Change>) {
        let watched: Vec<(String, Arc<Live>)> = {
            let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            live.iter()
                .filter(|(id, l)| {
                    l.pushes.receiver_count() > 0 && change.as_ref().is_none_or(|c| &c.game == *id)
                })
                .map(|(id, l)| (id.clone(), l.clone()))
                .collect()
        };
        for (_, live) in watched {
            let mut st = live.state.lock().await;
            if change.as_ref().is_some_and(|c| c.version <= st.version) {
                continue;
            }
            if let Err(e) = self.refresh(&live, &mut st).await {
                tracing::error!("storage: {e}");
            }
        }
    }

    /// `GET /packs`.
    pub fn packs(&self) -> Result<PackList, Refusal> {
        let mut names: Vec<String> = std::fs::read_dir(&self.packs)
            .map_err(|e| {
                tracing::error!("{}: {e}", self.packs.display());
                Refusal::new(500, "the packs folder cannot be read")
            })?
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".toml")?;
                valid_pack_name(stem).then(|| stem.to_string())
            })
            .collect();
        names.sort();
        let mut packs = Vec::new();
        for name in names {
            let Some(path) = self.pack_file(&name) else {
                continue;
            };
            let Ok(Ok(pack)) =
                std::panic::catch_unwind(|| ply_lang::load_with(&path, &Options::new()))
            else {
                continue;
            };
            let core = pack.rules.core();
            packs.push(PackInfo {
                name,
                game: core.name().to_string(),
                players: Player::ALL
                    .into_iter()
                    .map(|p| core.player_name(p).to_string())
                    .collect(),
                rows: pack.rules.geometry().rows(),
                cols: pack.rules.geometry().cols(),
                options: pack_options(&pack),
            });
        }
        Ok(PackList { packs })
    }

    /// The file of the pack `name` (a valid name): `NAME.toml` in the packs folder, a file,
    /// and inside the folder once links are followed (a link to a file elsewhere is no pack).
    fn pack_file(&self, name: &str) -> Option<PathBuf> {
        let path = self.packs.join(format!("{name}.toml"));
        let real = std::fs::canonicalize(&path).ok()?;
        let folder = std::fs::canonicalize(&self.packs).ok()?;
        if !real.starts_with(&folder) {
            tracing::warn!(
                "{}: a link to {}, outside the packs folder: not offered",
                path.display(),
                real.display()
            );
            return None;
        }
        real.is_file().then_some(path)
    }

    /// `GET /packs/{name}`: the pack's file, as it is.
    pub fn pack_text(&self, name: &str) -> Result<crate::api::PackText, Refusal> {
        if !valid_pack_name(name) {
            return Err(Refusal::new(
                400,
                format!("`{name}` is not a pack name: a name is letters, digits, `_` and `-`"),
            ));
        }
        let no_pack = || {
            Refusal::new(
                404,
                format!("there is no pack named `{name}` (GET /packs lists them)"),
            )
        };
        let path = self.pack_file(name).ok_or_else(no_pack)?;
        let text = std::fs::read_to_string(&path).map_err(|_| {
            Refusal::new(
                404,
                format!("there is no pack named `{name}` (GET /packs lists them)"),
            )
        })?;
        Ok(crate::api::PackText {
            name: name.to_string(),
            text,
        })
    }

    /// `POST /games`.
    pub async fn create(&self, req: CreateGame) -> Result<CreatedGame, Refusal> {
        if !valid_pack_name(&req.pack) {
            return Err(Refusal::new(
                400,
                format!(
                    "`{}` is not a pack name: a name is letters, digits, `_` and `-` (GET /packs \
                     lists them)",
                    req.pack
                ),
            ));
        }
        let Some(path) = self.pack_file(&req.pack) else {
            return Err(Refusal::new(
                404,
                format!(
                    "there is no pack named `{}` (GET /packs lists them)",
                    req.pack
                ),
            ));
        };
        let options = options_of(&req.options);
        let name = req.pack.clone();
        // Compiled on a blocking thread, at most COMPILES_AT_ONCE at once; only the shared
        // rules outlive it.
        let (resolved, sha, rules) = self
            .compiling(move |hub| {
                // The pack file's own name, so that `extends` is found beside it.
                let pack = std::panic::catch_unwind(|| ply_lang::load_with(&path, &options))
                    .map_err(|_| Refusal::new(422, "the pack's loader crashed"))?
                    .map_err(|e| Refusal::new(422, e.render(false)))?;
                let resolved = pack.resolved.clone();
                let sha = sha256_hex(resolved.as_bytes());
                drop(pack);
                // The resolved text is the game's pack from the moment it starts: it must
                // load by itself (checked once for each text).
                let rules = hub.shared_rules(&name, &resolved, &sha, None)?;
                Ok::<_, Refusal>((resolved, sha, rules))
            })
            .await??;
        self.start(
            &req.pack,
            &req.options,
            resolved,
            sha,
            rules,
            Extras {
                engine: req.engine.as_ref(),
                clock: req.clock,
            },
        )
        .await
    }

    /// `POST /playground/games`: a game of a pasted pack, checked as `POST /playground/check`
    /// checks it.
    pub async fn create_pasted(
        &self,
        req: PastedPack,
        settings: crate::playground::Settings,
    ) -> Result<CreatedGame, Refusal> {
        // Loaded from its resolved text (after the worker checked it).
        let pack = crate::playground::load_checked(self.packs.clone(), &req, settings).await?;
        let resolved = pack.resolved.clone();
        let sha = sha256_hex(resolved.as_bytes());
        let rules = {
            let text = resolved.clone();
            let sha = sha.clone();
            self.compiling(move |hub| {
                hub.shared_rules(crate::playground::PASTED_NAME, &text, &sha, Some(pack))
            })
            .await??
        };
        self.start(
            crate::playground::PASTED_NAME,
            &req.options,
            resolved,
            sha,
            rules,
            Extras {
                engine: req.engine.as_ref(),
                clock: req.clock,
            },
        )
        .await
    }

    /// Stores a new game of a pack's resolved text (of that SHA-256, compiled to `rules`),
    /// with an engine on one seat if asked.
    async fn start(
        &self,
        name: &str,
        options: &BTreeMap<String, OptionJson>,
        resolved: String,
        sha: String,
        rules: Arc<Rules>,
        Extras { engine, clock }: Extras<'_>,
    ) -> Result<CreatedGame, Refusal> {
        if let Some(c) = clock
            && (c.initial_ms == 0 || c.initial_ms > MAX_CLOCK_MS || c.increment_ms > MAX_CLOCK_MS)
        {
            return Err(Refusal::new(
                422,
                format!(
                    "a time control's initial_ms is 1 to {MAX_CLOCK_MS} and its increment_ms 0 \
                     to {MAX_CLOCK_MS} (a week), not {} and {}",
                    c.initial_ms, c.increment_ms
                ),
            ));
        }
        let bot = engine
            .map(|e| crate::bots::read_seat(e, &rules))
            .transpose()?;
        let core = rules.core();
        // Stored with its seat named, so that it plays the same seat when loaded again.
        let stored_engine = engine.zip(bot.as_ref()).map(|(e, (_, seat))| {
            serde_json::to_string(&EngineSeat {
                player: e.player.clone(),
                seat: Some(core.player_name(*seat).to_string()),
            })
            .unwrap_or_default()
        });
        let tokens = [random_hex(16)?, random_hex(16)?];
        let meta = NewGame {
            id: random_hex(8)?,
            pack_name: name.to_string(),
            options: serde_json::to_string(options).unwrap_or_default(),
            pack_sha256: sha,
            pack_text: resolved,
            token_hashes: [
                sha256_hex(tokens[0].as_bytes()),
                sha256_hex(tokens[1].as_bytes()),
            ],
            created_ms: crate::store::now_ms(),
            engine: stored_engine,
            clock: clock.and_then(|c| serde_json::to_string(&c).ok()),
        };
        self.store.create(&meta).await?;
        // Loading it starts its engine, if it has one.
        let live = self.live(&meta.id).await?;
        let st = live.state.lock().await;
        let state = st.view();
        let mut seats = crate::api::Seats::default();
        for (p, t) in Player::ALL.into_iter().zip(tokens) {
            if bot.as_ref().is_none_or(|(_, seat)| *seat != p) {
                seats.0.push((core.player_name(p).to_string(), t));
            }
        }
        Ok(CreatedGame { seats, state })
    }

    /// `GET /games/{id}/layout`.
    pub async fn layout(&self, id: &str) -> Result<Layout, Refusal> {
        let live = self.live(id).await?;
        let st = live.state.lock().await;
        let rules = st.rules.clone();
        let meta = st.meta.clone();
        drop(st);
        let display = self.display_for(&meta).await?;
        Ok(layout_of(&rules, &display))
    }

    /// `GET /games/{id}/history`.
    pub async fn history(&self, id: &str) -> Result<crate::api::History, Refusal> {
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        Ok(st.history())
    }

    /// `POST /games/{id}/seat`.
    pub async fn seat(&self, id: &str, token: &str) -> Result<crate::api::SeatAnswer, Refusal> {
        let live = self.live(id).await?;
        let st = live.state.lock().await;
        let seat = st
            .seat_of(token)
            .ok_or_else(|| Refusal::new(403, "that token holds no seat of this game"))?;
        Ok(crate::api::SeatAnswer {
            seat: st.rules.core().player_name(seat).to_string(),
        })
    }

    /// `GET /games/{id}/record`: the game as `ply play --record` writes it (the pack by its
    /// name in the server's folder, the options set, the result once over, then the moves).
    pub async fn record(&self, id: &str) -> Result<String, Refusal> {
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        let core = st.rules.core();
        let mut out = format!(
            "# Ply game record: game {} of ply serve\nPack: {}.toml\n",
            st.meta.id, st.meta.pack_name
        );
        for (name, value) in &st.options {
            let v = match value {
                OptionJson::Bool(b) => b.to_string(),
                OptionJson::Int(i) => i.to_string(),
            };
            out.push_str(&format!("Set: {name}={v}\n"));
        }
        // A result the players decided is no result of the moves: a replay of the record
        // would not reach it. It is written as a comment.
        match (st.settled, st.status()) {
            (Some(Settled::Resigned(p)), _) => out.push_str(&format!(
                "# {} resigned: {} wins\n",
                core.player_name(p),
                core.player_name(p.other())
            )),
            (Some(Settled::Drawn), _) => out.push_str("# Drawn by agreement\n"),
            (Some(Settled::Flagged(p)), _) => out.push_str(&format!(
                "# {} ran out of time: {} wins\n",
                core.player_name(p),
                core.player_name(p.other())
            )),
            (None, Status::Over(Outcome::Win(p))) => {
                out.push_str(&format!("Result: {} wins\n", core.player_name(p)));
            }
            (None, Status::Over(Outcome::Draw)) => out.push_str("Result: draw\n"),
            (None, Status::Stuck(p)) => {
                out.push_str(&format!(
                    "Result: no legal move for {}\n",
                    core.player_name(p)
                ));
            }
            (None, Status::ToMove(_)) => {}
        }
        out.push('\n');
        let moves: Vec<String> = st
            .game
            .history()
            .map(|m| move_text(&st.rules, &m))
            .collect();
        for pair in moves.chunks(2) {
            out.push_str(&pair.join(" "));
            out.push('\n');
        }
        Ok(out)
    }

    /// The position of a game, and its version (for an engine to search).
    pub(crate) async fn position(&self, id: &str) -> Result<(u64, ply_kernel::Position), Refusal> {
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        Ok((st.version, st.game.position().clone()))
    }

    /// What the stored pack's `[display]` asks for (read again from the stored text: the
    /// compiled rules do not keep it).
    async fn display_for(&self, meta: &NewGame) -> Result<ply_lang::Display, Refusal> {
        if let Some(d) = self
            .displays
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&meta.pack_sha256)
        {
            return Ok(d.clone());
        }
        let (name, text) = (meta.pack_name.clone(), meta.pack_text.clone());
        let pack = self
            .compiling(move |_| load_panic_safe(&format!("{name}.toml"), &text, &Options::new()))
            .await?
            .map_err(|_| Refusal::new(500, "the game's stored pack does not load"))?;
        Ok(pack.display)
    }

    /// The compiled rules of a stored game's pack (shared, see [`Hub::shared_rules`]).
    async fn rules_for(&self, meta: &NewGame) -> Result<Arc<Rules>, Refusal> {
        if let Some(r) = self
            .rules
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&meta.pack_sha256)
        {
            return Ok(r.clone());
        }
        if sha256_hex(meta.pack_text.as_bytes()) != meta.pack_sha256 {
            tracing::error!("game {}: the stored pack's hash differs", meta.id);
            return Err(Refusal::new(500, "the game's stored pack is damaged"));
        }
        let (id, name, text, sha) = (
            meta.id.clone(),
            meta.pack_name.clone(),
            meta.pack_text.clone(),
            meta.pack_sha256.clone(),
        );
        self.compiling(move |hub| {
            hub.shared_rules(&name, &text, &sha, None).map_err(|r| {
                tracing::error!("game {id}: its stored pack does not load: {}", r.body);
                Refusal::new(500, "the game's stored pack does not load")
            })
        })
        .await?
    }

    /// The game in memory, loaded from the store the first time.
    async fn live(&self, id: &str) -> Result<Arc<Live>, Refusal> {
        if let Some(l) = self.live.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            l.used.store(self.now_ms(), Ordering::Relaxed);
            return Ok(l.clone());
        }
        let unknown = || {
            let expiry = self.expire.map_or(String::new(), |d| {
                format!(" (a game with no move for {d:?} is removed)")
            });
            Refusal::new(
                404,
                format!("there is no game `{}`{expiry}", id.escape_debug()),
            )
        };
        // An id is letters and digits (this server makes 16 hex digits): anything else is no
        // game, and never reaches the store (PostgreSQL refuses a NUL in text, for one).
        if !valid_game_id(id) {
            return Err(unknown());
        }
        let Some(meta) = self.store.game(id).await? else {
            return Err(match self.store.expired(id).await? {
                Some(at) => Refusal::gone(id, at, self.expire),
                None => unknown(),
            });
        };
        let rules = self.rules_for(&meta).await?;
        let engine = meta.engine.clone();
        let options = serde_json::from_str(&meta.options).map_err(|e| {
            tracing::error!("game {id}: its stored options are damaged: {e}");
            Refusal::new(500, "the game's stored options are damaged")
        })?;
        let clock = match meta.clock.as_deref() {
            None => None,
            Some(text) => Some(serde_json::from_str::<TimeControl>(text).map_err(|e| {
                tracing::error!("game {id}: its stored time control is damaged: {e}");
                Refusal::new(500, "the game's stored time control is damaged")
            })?),
        };
        let state = LiveState {
            touched_ms: meta.created_ms,
            turn_from_ms: meta.created_ms,
            left_ms: clock.map_or([0; 2], |c| [c.initial_ms as i64; 2]),
            clock,
            meta,
            options,
            game: Game::new(rules.clone()),
            rules,
            version: 0,
            events: Vec::new(),
            undo_ask: None,
            draw_offer: None,
            settled: None,
        };
        let live = Arc::new(Live {
            state: tokio::sync::Mutex::new(state),
            pushes: broadcast::channel(64).0,
            used: AtomicU64::new(self.now_ms()),
        });
        {
            let mut st = live.state.lock().await;
            self.refresh(&live, &mut st).await?;
        }
        let (live, fresh) = {
            let mut map = self.live.lock().unwrap_or_else(|e| e.into_inner());
            match map.entry(id.to_string()) {
                std::collections::hash_map::Entry::Occupied(o) => (o.get().clone(), false),
                std::collections::hash_map::Entry::Vacant(v) => (v.insert(live).clone(), true),
            }
        };
        if fresh && clock.is_some() {
            self.watch_clock(id, live.clone());
        }
        if fresh && let Some(engine) = engine {
            self.play_engine(&live, &engine).await;
        }
        Ok(live)
    }

    /// Starts the game's stored engine in this process, unless it plays here already: when
    /// the game is created, and when it is loaded again (after a restart, or in another
    /// process on the same database), so that an engine's seat never waits for ever.
    async fn play_engine(&self, live: &Live, engine: &str) {
        let (id, name, text) = {
            let st = live.state.lock().await;
            (
                st.meta.id.clone(),
                st.meta.pack_name.clone(),
                st.meta.pack_text.clone(),
            )
        };
        if !self
            .engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone())
        {
            return;
        }
        let engine = engine.to_string();
        // The pack is compiled again for the engine's evaluation (the shared rules do not
        // keep it), like any compilation: on a blocking thread, a few at once.
        let started = self
            .compiling(move |_| {
                let seat: EngineSeat = serde_json::from_str(&engine)
                    .map_err(|e| format!("its stored engine is not readable: {e}"))?;
                let pack = load_panic_safe(&format!("{name}.toml"), &text, &Options::new())?;
                let (spec, player) =
                    crate::bots::read_seat(&seat, &pack.rules).map_err(|r| r.body.to_string())?;
                Ok::<_, String>((spec, player, crate::bots::evaluation(&pack)))
            })
            .await
            .map_err(|r| r.body.to_string())
            .and_then(|r| r);
        match started {
            Ok((spec, player, eval)) => {
                crate::bots::spawn(self.me.clone(), id, player, spec, eval);
            }
            Err(why) => {
                tracing::warn!("game {id}: its engine cannot play: {why}");
                self.engine_stopped(&id);
            }
        }
    }

    /// The engine of game `id` stopped playing in this process.
    pub(crate) fn engine_stopped(&self, id: &str) {
        self.engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    /// Brings the state up to date with the store; pushes it if it changed.
    async fn refresh(&self, live: &Live, st: &mut LiveState) -> Result<(), StoreError> {
        let new = self.store.events_since(&st.meta.id, st.version).await?;
        if new.is_empty() {
            return Ok(());
        }
        for e in &new {
            st.apply(e)?;
        }
        st.push(live);
        Ok(())
    }

    /// `GET /games/{id}`.
    pub async fn state(&self, id: &str) -> Result<GameState, Refusal> {
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        Ok(st.view())
    }

    /// `GET /games/{id}/legal`: a page of the legal moves.
    pub async fn legal(
        &self,
        id: &str,
        query: &crate::api::LegalQuery,
    ) -> Result<crate::api::LegalPage, Refusal> {
        if query.offset as u64 > crate::api::MAX_SAFE_INTEGER {
            return Err(Refusal::new(
                400,
                format!(
                    "an offset is at most {}, not {}",
                    crate::api::MAX_SAFE_INTEGER,
                    query.offset
                ),
            ));
        }
        let limit = query.limit.unwrap_or(MAX_LEGAL_PAGE);
        if limit == 0 || limit > MAX_LEGAL_PAGE {
            return Err(Refusal::new(
                400,
                format!("a page lists 1 to {MAX_LEGAL_PAGE} moves, not {limit}"),
            ));
        }
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        let (count, moves, paths) = st.legal(query.offset, limit);
        Ok(crate::api::LegalPage {
            version: st.version,
            count,
            offset: query.offset,
            moves,
            paths,
        })
    }

    /// Subscribes to a game's pushed states; answers the current state too (pushes after it
    /// are newer or the same).
    pub async fn watch(&self, id: &str) -> Result<(GameState, broadcast::Receiver<Push>), Refusal> {
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        let rx = live.pushes.subscribe();
        self.refresh(&live, &mut st).await?;
        Ok((st.view(), rx))
    }

    /// `POST /games/{id}/moves`.
    pub async fn play(&self, id: &str, req: &MoveRequest) -> Result<GameState, Refusal> {
        self.act(
            id,
            Who::Token(&req.token),
            req.version,
            req.idempotency_key.as_deref(),
            Action::Move(&req.mv),
        )
        .await
    }

    /// `POST /games/{id}/undo`.
    pub async fn undo(&self, id: &str, req: &UndoRequest) -> Result<GameState, Refusal> {
        self.act(
            id,
            Who::Token(&req.token),
            req.version,
            None,
            Action::Undo(req.undo),
        )
        .await
    }

    /// `POST /games/{id}/resign`.
    pub async fn resign(&self, id: &str, req: &ResignRequest) -> Result<GameState, Refusal> {
        if !req.resign {
            return Err(Refusal::new(
                422,
                "`resign` must be true: a seat that does not resign sends nothing",
            ));
        }
        self.act(
            id,
            Who::Token(&req.token),
            req.version,
            None,
            Action::Resign,
        )
        .await
    }

    /// `POST /games/{id}/draw`.
    pub async fn draw(&self, id: &str, req: &DrawRequest) -> Result<GameState, Refusal> {
        self.act(
            id,
            Who::Token(&req.token),
            req.version,
            None,
            Action::Draw(req.draw),
        )
        .await
    }

    /// The game's engine declines a draw offer.
    pub(crate) async fn engine_declines_draw(
        &self,
        id: &str,
        seat: Player,
        version: u64,
    ) -> Result<GameState, Refusal> {
        self.act(
            id,
            Who::Engine(seat),
            version,
            None,
            Action::Draw(DrawAction::Decline),
        )
        .await
    }

    /// A move by the game's engine, on its seat.
    pub(crate) async fn engine_move(
        &self,
        id: &str,
        seat: Player,
        version: u64,
        mv: &MoveText,
    ) -> Result<GameState, Refusal> {
        self.act(id, Who::Engine(seat), version, None, Action::Move(mv))
            .await
    }

    /// The game's engine declines a request to take back a move.
    pub(crate) async fn engine_declines(
        &self,
        id: &str,
        seat: Player,
        version: u64,
    ) -> Result<GameState, Refusal> {
        self.act(
            id,
            Who::Engine(seat),
            version,
            None,
            Action::Undo(UndoAction::Decline),
        )
        .await
    }

    /// Stores the fall of the flag of the side to move if its time is out (unless another
    /// process stored it first): the player whose time ran out, if it did.
    async fn flag_if_due(
        &self,
        live: &Live,
        st: &mut LiveState,
    ) -> Result<Option<Player>, Refusal> {
        let Some((p, deadline)) = st.flag_due() else {
            return Ok(None);
        };
        let now = crate::store::now_ms();
        if now < deadline {
            return Ok(None);
        }
        let event = Event {
            version: st.version + 1,
            seat: p.index() as u8,
            kind: EventKind::Time,
            idempotency_key: None,
            at_ms: now,
        };
        match self.store.append(&st.meta.id, &event).await? {
            Appended::Stored => {
                st.apply(&event)?;
                st.push(live);
            }
            Appended::Conflict => self.refresh(live, st).await?,
        }
        Ok(match st.settled {
            Some(Settled::Flagged(q)) => Some(q),
            _ => None,
        })
    }

    /// Keeps the clocks of a game in memory: when the time of the side to move runs out, its
    /// flag falls (stored as an event, so every process and every watcher sees it) without
    /// waiting for a request. Ends with the game, or when the game leaves memory.
    fn watch_clock(&self, id: &str, live: Arc<Live>) {
        let hub = self.me.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let mut pushes = live.pushes.subscribe();
            loop {
                let Some(h) = hub.upgrade() else { return };
                let current = h
                    .live
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&id)
                    .is_some_and(|l| Arc::ptr_eq(l, &live));
                if !current {
                    return;
                }
                let deadline = {
                    let mut st = live.state.lock().await;
                    let _ = h.refresh(&live, &mut st).await;
                    if let Err(e) = h.flag_if_due(&live, &mut st).await {
                        tracing::warn!("game {id}: the fall of a flag is not stored: {}", e.status);
                    }
                    match st.flag_due() {
                        None => return,
                        Some((_, d)) => d,
                    }
                };
                drop(h);
                let now = crate::store::now_ms();
                // Past the deadline, storing failed: look again in a moment.
                let wait = if deadline <= now {
                    500
                } else {
                    deadline - now + 1
                };
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(wait as u64)) => {}
                    r = pushes.recv() => {
                        if let Err(broadcast::error::RecvError::Closed) = r {
                            return;
                        }
                    }
                }
            }
        });
    }

    async fn act(
        &self,
        id: &str,
        who: Who<'_>,
        version: u64,
        key: Option<&str>,
        action: Action<'_>,
    ) -> Result<GameState, Refusal> {
        if let Some(k) = key
            && !valid_idempotency_key(k)
        {
            return Err(Refusal::new(
                400,
                format!(
                    "an idempotency key is 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters"
                ),
            ));
        }
        let live = self.live(id).await?;
        let mut st = live.state.lock().await;
        self.refresh(&live, &mut st).await?;
        let seat = match who {
            Who::Token(token) => st
                .seat_of(token)
                .ok_or_else(|| Refusal::new(403, "that token holds no seat of this game"))?,
            Who::Engine(seat) => seat,
        };
        if let Some(k) = key
            && let Some(answer) = replayed(&st, seat, version, k, &action)
        {
            return answer;
        }
        if let Some(p) = self.flag_if_due(&live, &mut st).await? {
            let core = st.rules.core();
            return Err(Refusal::new(
                422,
                format!(
                    "the game is over: {}'s time ran out; {} has won",
                    core.player_name(p),
                    core.player_name(p.other())
                ),
            ));
        }
        if version != st.version {
            return Err(Refusal::conflict(
                format!(
                    "the game is at version {}, not {version}: it changed since that view",
                    st.version
                ),
                st.view(),
            ));
        }
        let kind = judge(&st, seat, &action)?;
        let event = Event {
            version: st.version + 1,
            seat: seat.index() as u8,
            kind,
            idempotency_key: key.map(str::to_string),
            at_ms: crate::store::now_ms(),
        };
        match self.store.append(id, &event).await? {
            Appended::Stored => {
                st.apply(&event)?;
                st.push(&live);
                Ok(st.view())
            }
            Appended::Conflict => {
                // Another process stored an event at this version (or this key) first.
                self.refresh(&live, &mut st).await?;
                if let Some(k) = key
                    && let Some(answer) = replayed(&st, seat, version, k, &action)
                {
                    return answer;
                }
                Err(Refusal::conflict(
                    format!(
                        "the game is at version {}, not {version}: it changed since that view",
                        st.version
                    ),
                    st.view(),
                ))
            }
        }
    }
}

/// The answer to a request whose idempotency key was used already in this game: the first
/// answer again if it is the same request, else a refusal; `None` if the key is new.
fn replayed(
    st: &LiveState,
    seat: Player,
    version: u64,
    key: &str,
    action: &Action<'_>,
) -> Option<Result<GameState, Refusal>> {
    let e = st
        .events
        .iter()
        .find(|e| e.idempotency_key.as_deref() == Some(key))?;
    let stored = match &e.kind {
        EventKind::Move(m) => format!("the move `{m}`"),
        EventKind::UndoAsk => "asking to take back a move".to_string(),
        EventKind::UndoAccept => "accepting to take back a move".to_string(),
        EventKind::UndoDecline => "declining to take back a move".to_string(),
        EventKind::Resign => "resigning".to_string(),
        EventKind::DrawOffer => "offering a draw".to_string(),
        EventKind::DrawAccept => "accepting a draw".to_string(),
        EventKind::DrawDecline => "declining a draw".to_string(),
        EventKind::Time => "the fall of a flag".to_string(),
    };
    let why = if e.seat as usize != seat.index() {
        format!("it was used by the other seat, for {stored}")
    } else if e.version != version + 1 {
        format!(
            "it was used for {stored} made on version {}, not {version}",
            e.version - 1
        )
    } else {
        match (&e.kind, action) {
            // The same move: the one the request names, found on the position it was made
            // on, is the stored one, its whole path (a chain of hops between the same two
            // cells by other cells is another move) and its choice.
            (EventKind::Move(m), Action::Move(asked)) => {
                let found = st.game_at(version).ok().and_then(|g| {
                    let (path, choice) = read_move(&st.rules, asked).ok()?;
                    let player = Player::new(usize::from(e.seat))?;
                    g.find_move_choosing(Some(player), &path, choice)
                        .ok()
                        .map(|mv| move_text(&st.rules, &mv))
                });
                match found {
                    Some(f) if &f == m => {
                        return Some(st.view_at(e.version).map_err(Refusal::from));
                    }
                    Some(f) => format!("it was used for {stored}, and this request is `{f}`"),
                    None => format!("it was used for {stored}, and this request is another"),
                }
            }
            _ => format!("it was used for {stored}"),
        }
    };
    Some(Err(Refusal::new(
        422,
        format!(
            "this idempotency key was used for another request in this game: {why}; a key \
             names one request"
        ),
    )))
}

/// Judges a seat's action on the current state: the event to store, or why not.
fn judge(st: &LiveState, seat: Player, action: &Action<'_>) -> Result<EventKind, Refusal> {
    let core = st.rules.core();
    let over = |o: Outcome| {
        Refusal::new(
            422,
            match o {
                Outcome::Win(p) => format!("the game is over: {} has won", core.player_name(p)),
                Outcome::Draw => "the game is over: a draw".to_string(),
            },
        )
    };
    let status = st.status();
    let over_now = |s: Status| match s {
        Status::Over(o) => over(o),
        _ => Refusal::new(422, "the game is over"),
    };
    match action {
        Action::Move(mv) => {
            match status {
                Status::Over(o) => return Err(over(o)),
                Status::Stuck(p) => {
                    return Err(Refusal::new(
                        422,
                        format!(
                            "{} has no legal move and no rule ends the game: nothing can \
                             happen any more",
                            core.player_name(p)
                        ),
                    ));
                }
                Status::ToMove(p) if p != seat => {
                    return Err(Refusal::new(
                        403,
                        format!(
                            "it is {}'s turn, not {}'s",
                            core.player_name(p),
                            core.player_name(seat)
                        ),
                    ));
                }
                Status::ToMove(_) => {}
            }
            let (path, choice) = read_move(&st.rules, mv).map_err(|e| Refusal::new(422, e))?;
            let m = st
                .game
                .find_move_choosing(Some(seat), &path, choice)
                .map_err(|e| {
                    Refusal::with_rule(422, e.to_string(), e.rule_name().map(Into::into))
                })?;
            Ok(EventKind::Move(move_text(&st.rules, &m)))
        }
        Action::Undo(UndoAction::Ask) => {
            if let Status::Over(o) = status {
                return Err(over(o));
            }
            if st.game.last_move().is_none() {
                return Err(Refusal::new(422, "there is no move to take back"));
            }
            if let Some(p) = st.undo_ask {
                return Err(Refusal::new(
                    422,
                    format!("{} has asked already", core.player_name(p)),
                ));
            }
            Ok(EventKind::UndoAsk)
        }
        Action::Undo(UndoAction::Accept) => match st.undo_ask {
            None => Err(Refusal::new(422, "nobody has asked to take back a move")),
            Some(p) if p == seat => Err(Refusal::new(
                403,
                "the other player must accept: one cannot accept one's own request",
            )),
            Some(_) => Ok(EventKind::UndoAccept),
        },
        Action::Undo(UndoAction::Decline) => match st.undo_ask {
            None => Err(Refusal::new(422, "nobody has asked to take back a move")),
            Some(_) => Ok(EventKind::UndoDecline),
        },
        Action::Resign => match status {
            Status::Over(o) => Err(over(o)),
            _ => Ok(EventKind::Resign),
        },
        Action::Draw(DrawAction::Offer) => match (status, st.draw_offer) {
            (Status::Over(o), _) => Err(over(o)),
            (_, Some(p)) if p == seat => Err(Refusal::new(
                422,
                format!("{} offers a draw already", core.player_name(p)),
            )),
            // Both want a draw: the second offer accepts the first.
            (_, Some(_)) => Ok(EventKind::DrawAccept),
            (_, None) => Ok(EventKind::DrawOffer),
        },
        Action::Draw(DrawAction::Accept) => match st.draw_offer {
            _ if matches!(status, Status::Over(_)) => Err(over_now(status)),
            None => Err(Refusal::new(422, "nobody offers a draw")),
            Some(p) if p == seat => Err(Refusal::new(
                403,
                "the other player must accept: one cannot accept one's own offer",
            )),
            Some(_) => Ok(EventKind::DrawAccept),
        },
        Action::Draw(DrawAction::Decline) => match st.draw_offer {
            None => Err(Refusal::new(422, "nobody offers a draw")),
            Some(_) => Ok(EventKind::DrawDecline),
        },
    }
}

/// Option values as the loader takes them.
pub(crate) fn options_of(json: &BTreeMap<String, OptionJson>) -> Options {
    json.iter()
        .map(|(n, v)| {
            (
                n.clone(),
                match *v {
                    OptionJson::Bool(b) => OptionValue::Bool(b),
                    OptionJson::Int(i) => OptionValue::Int(i),
                },
            )
        })
        .collect()
}

/// A pack from its resolved text (as a worker process checked it).
pub(crate) fn load_resolved(name: &str, text: &str) -> Result<ply_lang::Pack, Refusal> {
    load_panic_safe(&format!("{name}.toml"), text, &Options::new())
        .map_err(|e| Refusal::new(500, format!("the resolved pack does not load: {e}")))
}

/// The resolved text is a game's pack from the moment it starts: it must load by itself.
pub(crate) fn check_resolved(name: &str, pack: &ply_lang::Pack) -> Result<(), Refusal> {
    load_panic_safe(&format!("{name}.toml"), &pack.resolved, &Options::new())
        .map(|_| ())
        .map_err(|e| Refusal::new(500, format!("the resolved pack does not load: {e}")))
}

/// The options a pack declares, as the API lists them.
pub(crate) fn pack_options(pack: &ply_lang::Pack) -> Vec<PackOption> {
    pack.options
        .iter()
        .map(|o| PackOption {
            name: o.name.clone(),
            ty: match o.default {
                OptionValue::Bool(_) => OptionType::Bool,
                OptionValue::Int(_) => OptionType::Int,
            },
            default: json_of(o.default),
            doc: o.doc.clone(),
        })
        .collect()
}

/// The board of a position, as a state shows it.
fn board_of(rules: &Rules, pos: &ply_kernel::Position) -> Board {
    let core = rules.core();
    let g = rules.geometry();
    Board {
        rows: g.rows(),
        cols: g.cols(),
        cells: (0..g.rows())
            .map(|r| {
                (0..g.cols())
                    .map(|c| {
                        g.cell(r as i64, c as i64).map(|cell| {
                            pos.piece_at(cell)
                                .map_or(String::new(), |p| core.code(p).to_string())
                        })
                    })
                    .collect()
            })
            .collect(),
    }
}

/// What a board needs to draw a game of these rules.
pub fn layout_of(rules: &Rules, display: &ply_lang::Display) -> Layout {
    let core = rules.core();
    let g = rules.geometry();
    let player_name = |p: Player| core.player_name(p).to_string();
    let mut zones = Vec::new();
    // For each cell index, the zones (entries of `zones`) that hold it.
    let mut holding: Vec<Vec<usize>> = vec![Vec::new(); ply_kernel::MAX_CELLS];
    for z in core.zones() {
        let style = display.zones.get(&z.name).cloned().unwrap_or_default();
        let parts: Vec<(Option<Player>, ply_kernel::CellSet)> = match &z.cells {
            ZoneCells::Shared(set) => vec![(None, *set)],
            ZoneCells::Owned(parts) => Player::ALL
                .into_iter()
                .map(|p| (Some(p), parts[p.index()]))
                .collect(),
        };
        for (owner, set) in parts {
            for c in set.iter() {
                holding[c.index()].push(zones.len());
            }
            zones.push(LayoutZone {
                name: z.name.clone(),
                owner: owner.map(player_name),
                mark: z.mark.map(|m| m.to_string()),
                colour: style.colour.clone(),
                glyph: style.glyph.clone(),
                draw: style.draw.clone(),
            });
        }
    }
    let cells = (0..g.rows())
        .map(|r| {
            (0..g.cols())
                .map(|c| {
                    g.cell(r as i64, c as i64).map(|cell| LayoutCell {
                        name: g.name(cell).to_string(),
                        zones: holding[cell.index()].clone(),
                    })
                })
                .collect()
        })
        .collect();
    let mut pieces = Vec::new();
    for p in Player::ALL {
        for k in rules.kinds() {
            let piece = ply_kernel::Piece::new(k, p);
            let style = display
                .pieces
                .get(rules.kind_name(k))
                .cloned()
                .unwrap_or_default();
            pieces.push(LayoutPiece {
                code: core.code(piece).to_string(),
                kind: rules.kind_name(k).to_string(),
                letter: core.kind_letter(k).to_string(),
                owner: player_name(p),
                glyph: style
                    .glyphs
                    .get(core.player_name(p))
                    .cloned()
                    .or(style.glyph),
                colour: style.colour,
                image: style.image,
            });
        }
    }
    Layout {
        game: core.name().to_string(),
        players: Player::ALL
            .into_iter()
            .map(|p| LayoutPlayer {
                name: player_name(p),
                symbol: core.player_symbol(p).to_string(),
                colour: display
                    .players
                    .get(core.player_name(p))
                    .and_then(|s| s.colour.clone()),
            })
            .collect(),
        rows: g.rows(),
        cols: g.cols(),
        cells,
        zones,
        pieces,
        style: display.board.clone().unwrap_or_else(|| "plain".to_string()),
        colour: display.colour.clone(),
        stars: display.stars.clone(),
        links: g
            .links()
            .into_iter()
            .map(|(a, b)| [g.name(a).to_string(), g.name(b).to_string()])
            .collect(),
    }
}

/// The cells of `side`'s royal pieces that are attacked (in check), by name, as the kernel's
/// legality means it; empty without a royal kind.
fn royal_in_check(rules: &Rules, pos: &ply_kernel::Position, side: Player) -> Vec<String> {
    let g = rules.geometry();
    pos.attacked_royals(side)
        .into_iter()
        .map(|c| g.name(c).to_string())
        .collect()
}

fn json_of(v: OptionValue) -> OptionJson {
    match v {
        OptionValue::Bool(b) => OptionJson::Bool(b),
        OptionValue::Int(i) => OptionJson::Int(i),
    }
}
