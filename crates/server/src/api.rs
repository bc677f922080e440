//! The API's JSON documents, written once: the server answers with them, its tests and the
//! load example read them, and the OpenAPI description is generated from them (`utoipa`'s
//! `ToSchema`; see [`crate::http::ApiDoc`]).
//!
//! Requests refuse fields they do not know (a typo is an error, never a silent default);
//! answers may grow fields, so clients should ignore the ones they do not know.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};

/// `GET /` (asked for JSON): what the server is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ServerInfo {
    /// `ply serve`.
    pub name: String,
    /// The server's version.
    pub version: String,
    /// Where the API is described: `/openapi.json`.
    pub api: String,
    /// How many games this process holds in memory.
    pub games_in_memory: usize,
    /// How many compiled packs this process holds in memory (the games of one pack share
    /// it; it leaves memory with the last of them).
    pub packs_in_memory: usize,
}

/// `GET /packs`: the packs the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackList {
    /// Every pack in the packs folder that loads, by name.
    pub packs: Vec<PackInfo>,
}

/// A pack the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackInfo {
    /// The name to create a game with: the file name without `.toml`.
    pub name: String,
    /// The game's name, as the pack gives it.
    pub game: String,
    /// The players, first to move first; the seats of a game are named after them.
    pub players: Vec<String>,
    /// The board's size.
    pub rows: usize,
    /// The board's size.
    pub cols: usize,
    /// The options a game may set.
    pub options: Vec<PackOption>,
}

/// An option of a pack.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackOption {
    /// Its name.
    pub name: String,
    /// `bool` or `int`.
    #[serde(rename = "type")]
    pub ty: OptionType,
    /// Its default value.
    pub default: OptionJson,
    /// What it does.
    pub doc: String,
}

/// The type of an option.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OptionType {
    /// `true` or `false`.
    Bool,
    /// An integer.
    Int,
}

/// An option's value in JSON: a boolean or an integer (a number with no fraction: `3` and
/// `3.0` are the same JSON number).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum OptionJson {
    /// A boolean option's value.
    Bool(bool),
    /// An integer option's value, within ±(2^53 − 1) (an integer every JSON reader keeps).
    Int(i64),
}

impl utoipa::PartialSchema for OptionJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        let max = MAX_SAFE_INTEGER as i64;
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("A boolean option's value.")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(-max))
                    .maximum(Some(max))
                    .description(Some(
                        "An integer option's value, within ±(2^53 − 1) (an integer every JSON \
                         reader keeps).",
                    )),
            )
            .description(Some(
                "An option's value in JSON: a boolean or an integer (`3` and `3.0` are the same \
                 JSON number).",
            ))
            .into()
    }
}

impl ToSchema for OptionJson {}

impl<'de> Deserialize<'de> for OptionJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<OptionJson, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = OptionJson;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a boolean or an integer")
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<OptionJson, E> {
                Ok(OptionJson::Bool(b))
            }
            fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<OptionJson, E> {
                if i.unsigned_abs() > MAX_SAFE_INTEGER {
                    return Err(E::custom(format!(
                        "{i} is past ±{MAX_SAFE_INTEGER}, the integers JSON keeps"
                    )));
                }
                Ok(OptionJson::Int(i))
            }
            fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<OptionJson, E> {
                if u > MAX_SAFE_INTEGER {
                    return Err(E::custom(format!(
                        "{u} is past {MAX_SAFE_INTEGER}, the integers JSON keeps"
                    )));
                }
                Ok(OptionJson::Int(u as i64))
            }
            fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<OptionJson, E> {
                let max = MAX_SAFE_INTEGER as f64;
                whole_f64(f, -max, max).map(|v| OptionJson::Int(v as i64))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// The largest integer a request may carry (2^53 − 1): every JSON reader keeps it exactly
/// (RFC 7493), a browser's included.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A JSON number with no fraction, within `[min, max]`: JSON does not tell `13` from `13.0`.
fn whole_f64<E: serde::de::Error>(f: f64, min: f64, max: f64) -> Result<f64, E> {
    if f.fract() != 0.0 || !f.is_finite() {
        return Err(E::custom(format!("{f} is not an integer")));
    }
    if f < min || f > max {
        return Err(E::custom(format!("{f} is out of range")));
    }
    Ok(f)
}

/// Reads a version: an integer from 0 to [`MAX_SAFE_INTEGER`], written `13` or `13.0` (the
/// same JSON number).
fn version<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Visit;
    impl serde::de::Visitor<'_> for Visit {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a version: an integer from 0")
        }
        fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<u64, E> {
            if u > MAX_SAFE_INTEGER {
                return Err(E::custom(format!(
                    "a version is at most {MAX_SAFE_INTEGER}, not {u}"
                )));
            }
            Ok(u)
        }
        fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<u64, E> {
            u64::try_from(i)
                .map_err(|_| E::custom(format!("a version is from 0, not {i}")))
                .and_then(|u| self.visit_u64(u))
        }
        fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<u64, E> {
            whole_f64(f, 0.0, MAX_SAFE_INTEGER as f64).map(|v| v as u64)
        }
    }
    d.deserialize_any(Visit)
}

/// Reads a time in milliseconds: an integer from 0 to [`MAX_SAFE_INTEGER`], written `1500`
/// or `1500.0` (the same JSON number); a time control's bounds are checked with the game.
fn millis<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Visit;
    impl serde::de::Visitor<'_> for Visit {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a time in milliseconds: an integer from 0")
        }
        fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<u64, E> {
            if u > MAX_SAFE_INTEGER {
                return Err(E::custom(format!(
                    "a time is at most {MAX_SAFE_INTEGER} ms, not {u}"
                )));
            }
            Ok(u)
        }
        fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<u64, E> {
            u64::try_from(i)
                .map_err(|_| E::custom(format!("a time is from 0 ms, not {i}")))
                .and_then(|u| self.visit_u64(u))
        }
        fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<u64, E> {
            whole_f64(f, 0.0, MAX_SAFE_INTEGER as f64).map(|v| v as u64)
        }
    }
    d.deserialize_any(Visit)
}

/// `POST /playground/check`: a pack as text, as pasted in the playground (no engine: a check
/// starts no game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PackToCheck {
    /// The pack's TOML; its `extends` may only name a pack of the server's folder.
    pub text: String,
    /// Option values; those not given keep their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, OptionJson>,
}

/// `POST /games`: a new game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The pack's name, as `GET /packs` lists it.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub pack: String,
    /// Option values; those not given keep their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, OptionJson>,
    /// An engine for the server to play one seat with; without it, both seats are people's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSeat>,
    /// Clocks: each player's time for the game; without it, the game is untimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
}

/// The longest time control's time a player may have: a week.
pub const MAX_CLOCK_MS: u64 = 7 * 24 * 3600 * 1000;

/// A time control: the time each player has for the whole game, and what each of its moves
/// adds (Fischer increment). The clock of the side to move runs from the game's creation,
/// and from each change of turn; a player whose time runs out loses (`end_reason`: `time`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Each player's time at the start, in milliseconds: 1 to [`MAX_CLOCK_MS`] (a week).
    #[serde(deserialize_with = "millis")]
    #[schema(minimum = 1, maximum = 604800000)]
    pub initial_ms: u64,
    /// The time a move adds to its player's clock, in milliseconds: 0 to
    /// [`MAX_CLOCK_MS`].
    #[serde(default, deserialize_with = "millis")]
    #[schema(minimum = 0, maximum = 604800000)]
    pub increment_ms: u64,
}

/// The clocks of a game, as a state shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// Each player's time left, in milliseconds, in the order of `players`, when the state
    /// was made: the running clock's time goes on going down from there.
    pub remaining_ms: Vec<u64>,
    /// The player whose clock runs (the side to move); `null` once the game is over.
    pub running: Option<String>,
}

/// An engine the server plays a seat with. It is stored with the game: a server started again
/// on the same database plays it on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineSeat {
    /// The player, as `ply play --vs` reads it: `random`, `mcts:0.5s`, `alphabeta:depth=4`...
    /// A move is given at most [`crate::bots::MAX_ENGINE_TIME`], and two threads.
    pub player: String,
    /// The seat it plays (a player's name); the second player when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
}

/// The answer to `POST /games`: the game's state and the seats' secret tokens. Give each
/// player their own token; whoever holds a seat's token plays that seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    /// Each player's secret token, by player name (128 random bits, hex), in the pack's order
    /// of players (the first to move first); a seat an engine plays is not listed.
    #[schema(value_type = BTreeMap<String, String>)]
    pub seats: Seats,
    /// The state (version 0).
    #[serde(flatten)]
    pub state: GameState,
}

/// The seats' tokens by player name, in the pack's order of players: written as a JSON object
/// whose keys come in that order (and read back in the order written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats(pub Vec<(String, String)>);

impl Seats {
    /// The token of a player's seat.
    pub fn get(&self, player: &str) -> Option<&String> {
        self.0.iter().find(|(p, _)| p == player).map(|(_, t)| t)
    }

    /// The players listed, in order.
    pub fn players(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(p, _)| p.as_str())
    }

    /// The players listed, in order (as a map's keys).
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(p, _)| p)
    }

    /// The tokens, in the players' order (as a map's values).
    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(_, t)| t)
    }

    /// How many seats are listed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<Q: AsRef<str> + ?Sized> std::ops::Index<&Q> for Seats {
    type Output = String;

    /// The token of a player's seat; panics if the player has none listed (as a map does).
    fn index(&self, player: &Q) -> &String {
        let player = player.as_ref();
        self.get(player)
            .unwrap_or_else(|| panic!("no seat `{player}` is listed"))
    }
}

impl Serialize for Seats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (p, t) in &self.0 {
            map.serialize_entry(p, t)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Seats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seats, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Seats;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of tokens by player name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Seats, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = a.next_entry::<String, String>()? {
                    out.push(entry);
                }
                Ok(Seats(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// A game as `GET /games/{id}` shows it, to anyone who knows its id. It never shows a token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// Grows by one with every change of the stored game (a move, an undo or a draw asked,
    /// agreed or refused, a resignation, a flag's fall) and is never reused: a move must name
    /// the version it was made on.
    pub version: u64,
    /// The pack the game is played by, as it was when the game started.
    pub pack: PackRef,
    /// The players, first to move first.
    pub players: Vec<String>,
    /// The position string (as `ply play` and the script protocol read and write it).
    pub position: String,
    /// The board.
    pub board: Board,
    /// The player to move; `null` once the game is over.
    pub to_move: Option<String>,
    /// `playing`, `over`, or `stuck` (the side to move has no legal move and no rule ends the
    /// game: nothing can happen any more).
    pub status: GameStatus,
    /// The winner, once the game is won.
    pub winner: Option<String>,
    /// Why the game is over; `null` while it goes on.
    #[serde(default)]
    pub end_reason: Option<EndReason>,
    /// The name of the pack's end rule that decided the game (`den`, `checkmate`,
    /// `four-in-a-row`), when `end_reason` is `rule`.
    #[serde(default)]
    pub end_rule: Option<String>,
    /// The player who offers a draw, while the offer stands (the other player may accept it;
    /// a move of the other player declines it).
    #[serde(default)]
    pub draw_offer: Option<String>,
    /// The clocks, for a game with a time control; `null` for an untimed game.
    #[serde(default)]
    pub clock: Option<Clocks>,
    /// The legal moves of the side to move, in notation (`a7-a6`, `c3xc5`): the first
    /// [`MAX_INLINE_LEGAL`] of them; when there are more (`legal_count`), every one is listed,
    /// a page at a time, by `GET /games/{id}/legal`.
    pub legal_moves: Vec<String>,
    /// The same moves as paths of cells, in the same order: origin, every cell landed on,
    /// then a second part's cell (`["c1", "c3", "e3"]`); one cell for a placement, none for a
    /// pass. A board draws a piece's targets from them, without reading notation.
    #[serde(default)]
    pub legal_paths: Vec<Vec<String>>,
    /// How many legal moves the side to move has (`legal_moves` lists all of them when it is
    /// at most [`MAX_INLINE_LEGAL`]).
    #[serde(default)]
    pub legal_count: usize,
    /// The moves played so far (and not taken back), in notation, oldest first.
    pub moves: Vec<String>,
    /// The last of them as a path of cells (as in `legal_paths`), to mark it; `null` before
    /// the first move.
    #[serde(default)]
    pub last_path: Option<Vec<String>>,
    /// A pending request to take back the last move, if any.
    pub undo_request: Option<UndoOffer>,
    /// The cells of the side to move's royal pieces that a legal move of the other side would
    /// reach (the side to move is in check); empty when none is, or when the game has no royal
    /// kind. (A piece pinned to its own royal piece is not counted.)
    #[serde(default)]
    pub check: Vec<String>,
    /// The seat an engine of the server plays, if one does (a board says that it is thinking
    /// while that seat is to move).
    #[serde(default)]
    pub engine_seat: Option<String>,
}

/// `GET /games/{id}/history`: the board after every move so far, for stepping back and forth
/// through the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct History {
    /// The version of the game they are the boards of.
    pub version: u64,
    /// `steps[0]` is the start; `steps[i]` the board after the `i`-th move.
    pub steps: Vec<HistoryStep>,
}

/// One position of a game's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HistoryStep {
    /// The move that led here, in notation; `null` for the start.
    pub mv: Option<String>,
    /// That move as a path of cells, as in [`GameState::last_path`].
    pub path: Option<Vec<String>>,
    /// The position string.
    pub position: String,
    /// The board.
    pub board: Board,
}

/// The most legal moves a state lists; past it, `GET /games/{id}/legal` pages them.
pub const MAX_INLINE_LEGAL: usize = 500;

/// The most legal moves a page of `GET /games/{id}/legal` lists.
pub const MAX_LEGAL_PAGE: usize = 1000;

/// `GET /games/{id}/legal?offset=N&limit=M`: a page of the legal moves of the side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LegalPage {
    /// The version they are the moves of.
    pub version: u64,
    /// How many legal moves there are in all.
    pub count: usize,
    /// The index of the first move of the page.
    pub offset: usize,
    /// The moves, in notation, in the order of the state's `legal_moves`.
    pub moves: Vec<String>,
    /// The same moves as paths of cells.
    pub paths: Vec<Vec<String>>,
}

/// The query of `GET /games/{id}/legal`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LegalQuery {
    /// The first move to list (0 by default).
    #[serde(default)]
    #[param(maximum = 9007199254740991_u64)]
    pub offset: usize,
    /// How many to list at most: 1 to 1000 (`MAX_LEGAL_PAGE`), 1000 when not given.
    #[serde(default)]
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
}

/// Which pack a game is played by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackRef {
    /// The pack's name when the game was created.
    pub name: String,
    /// The options given.
    pub options: BTreeMap<String, OptionJson>,
    /// SHA-256 of the stored pack text (the pack resolved: `extends` and options applied),
    /// hex. The game is played by that text whatever happens to the file later.
    pub sha256: String,
}

/// Why a game is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// An end rule of the pack held after a move (`end_rule` names it).
    Rule,
    /// A player resigned: the other wins.
    Resignation,
    /// A draw was offered and accepted.
    Agreement,
    /// A player's time ran out: the other wins.
    Time,
    /// The result came with the position, and no end rule gives it.
    Given,
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// The game goes on.
    Playing,
    /// Won or drawn.
    Over,
    /// The side to move cannot move and no rule ends the game.
    Stuck,
}

/// The board: `cells[row][col]`, row 0 at the top (the highest row number in notation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// A piece's code (`"AL"`: owner then kind), `""` for an empty cell, `null` for a square of
    /// the rectangle that is not on the board.
    pub cells: Vec<Vec<Option<String>>>,
}

/// A pending request to take back the last move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct UndoOffer {
    /// The player who asked.
    pub by: String,
    /// The move that would be taken back, in notation.
    pub takes_back: String,
}

/// A move as the notation or a path of cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum MoveText {
    /// Notation, read leniently as `ply play` reads it: `a7-a6`, `a7a6`, `c1xc3xe3`,
    /// `d1-d7/g7`, `e5` (a placement), `pass`.
    Notation(String),
    /// The path of cells: origin, then every cell landed on (`["c1", "c3", "e3"]`), then a
    /// second part's cell; one cell for a placement, none for a pass.
    Path(Vec<String>),
}

/// `POST /games/{id}/moves`, or a WebSocket message: a move by a seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat's token.
    pub token: String,
    /// The version the move was made on (the `version` of the state the player saw).
    #[serde(deserialize_with = "version")]
    #[schema(maximum = 9007199254740991_u64)]
    pub version: u64,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveText,
    /// Makes a retry safe: a second request with the same key (in this game) is not applied
    /// again but answered as the first was. 1 to 128 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(pattern = "^[\\x20-\\x7e]{1,128}$")]
    pub idempotency_key: Option<String>,
}

/// `POST /games/{id}/undo`, or a WebSocket message: taking back the last move, by agreement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The seat's token.
    pub token: String,
    /// The version the request was made on.
    #[serde(deserialize_with = "version")]
    #[schema(maximum = 9007199254740991_u64)]
    pub version: u64,
    /// What the seat does.
    pub undo: UndoAction,
}

/// What a seat does about taking back the last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum UndoAction {
    /// Ask the other player to agree to take back the last move.
    Ask,
    /// Agree to the other player's request: the last move is taken back.
    Accept,
    /// Refuse the other player's request, or withdraw one's own.
    Decline,
}

/// `POST /games/{id}/resign`, or a WebSocket message: a seat resigns, and the other player
/// wins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// The seat's token.
    pub token: String,
    /// The version the request was made on.
    #[serde(deserialize_with = "version")]
    #[schema(maximum = 9007199254740991_u64)]
    pub version: u64,
    /// `true`: the seat resigns (on a WebSocket, this key tells the request apart).
    pub resign: bool,
}

/// `POST /games/{id}/draw`, or a WebSocket message: a draw by agreement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// The seat's token.
    pub token: String,
    /// The version the request was made on.
    #[serde(deserialize_with = "version")]
    #[schema(maximum = 9007199254740991_u64)]
    pub version: u64,
    /// What the seat does.
    pub draw: DrawAction,
}

/// What a seat does about a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer the other player a draw.
    Offer,
    /// Accept the other player's offer: the game is drawn.
    Accept,
    /// Decline the other player's offer, or withdraw one's own.
    Decline,
}

/// An error's body, for every status but 200, 201 and 409 (a 410 also says when the game
/// expired).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in a sentence.
    pub error: String,
    /// For a refused move: the name of the rule that refused it, when a named rule did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For a game that expired (410): when it was removed, RFC 3339 (`2026-12-04T18:00:00Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<String>,
}

/// The answer to a stale request (409): why, and the current state to retry from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Conflict {
    /// Why.
    pub error: String,
    /// The current state.
    pub state: GameState,
}

/// What the server sends on a game's WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    /// The game's state: on connecting, and after every change.
    State {
        /// The state.
        state: Box<GameState>,
    },
    /// The answer to a message the client sent, with the status and body the HTTP route
    /// would have answered.
    Answer {
        /// The HTTP status the same request would have had (200, 400, 403, 409, 422...).
        status: u16,
        /// The body the HTTP route would have answered: a [`GameState`], a [`Conflict`] or an
        /// [`ErrorBody`].
        #[schema(value_type = Object)]
        body: serde_json::Value,
    },
}

/// `GET /games/{id}/layout`: what a board needs to draw a game of any pack, with no code per
/// game: the cells and their names, the zones and their marks, the pieces' codes and owners,
/// and the colours and glyphs the pack's `[display]` asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Layout {
    /// The game's name.
    pub game: String,
    /// The players, first to move first.
    pub players: Vec<LayoutPlayer>,
    /// Rows, as in [`Board`].
    pub rows: usize,
    /// Columns, as in [`Board`].
    pub cols: usize,
    /// `cells[row][col]`, row 0 at the top as in [`Board`]; `null` for a hole.
    pub cells: Vec<Vec<Option<LayoutCell>>>,
    /// The zones; an owned zone is one entry per owner.
    pub zones: Vec<LayoutZone>,
    /// Every piece that may appear, by code.
    pub pieces: Vec<LayoutPiece>,
    /// The board's style: `plain`, `checkered`, `intersections`, `holes` or `hexes` (the pack's
    /// `[display] board`, `plain` without one).
    #[serde(default = "plain")]
    pub style: String,
    /// The board's colour the pack asks for (its squares' or its wood's).
    #[serde(default)]
    pub colour: Option<String>,
    /// Cells marked with a point (go-style star points), by name.
    #[serde(default)]
    pub stars: Vec<String>,
    /// The board's links: pairs of cells, by name, that are neighbours across holes (`[board]
    /// links`), for a board of points and lines to draw its lines along.
    #[serde(default)]
    pub links: Vec<[String; 2]>,
}

fn plain() -> String {
    "plain".to_string()
}

/// A player, as a board draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LayoutPlayer {
    /// The name (seats are named after it).
    pub name: String,
    /// The symbol that begins the codes of the player's pieces.
    pub symbol: String,
    /// The colour the pack asks for, `#rgb` or `#rrggbb`.
    pub colour: Option<String>,
}

/// A cell of the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LayoutCell {
    /// Its name in notation (`a7`).
    pub name: String,
    /// The zones that hold it, as indices into [`Layout::zones`].
    pub zones: Vec<usize>,
}

/// A zone, or one owner's part of an owned zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LayoutZone {
    /// The zone's name.
    pub name: String,
    /// The owner, for a part of an owned zone.
    pub owner: Option<String>,
    /// The mark the pack gives it (one character), if any.
    pub mark: Option<String>,
    /// The colour the pack asks for.
    pub colour: Option<String>,
    /// The glyph the pack asks for instead of the mark.
    pub glyph: Option<String>,
    /// How the zone is drawn: `tint` (its cells coloured; also when `null`), `none`,
    /// `diagonals` (the diagonals of its rectangle) or `band` (a band across the board).
    #[serde(default)]
    pub draw: Option<String>,
}

/// A piece: a kind and an owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LayoutPiece {
    /// Its code, as in [`Board::cells`] (`AL`).
    pub code: String,
    /// The kind's name.
    pub kind: String,
    /// The kind's letter.
    pub letter: String,
    /// The owner's name.
    pub owner: String,
    /// The glyph the pack asks for instead of the letter (the owner's own, when the pack
    /// gives one by owner).
    pub glyph: Option<String>,
    /// The colour the pack asks for.
    pub colour: Option<String>,
    /// The image the pack asks for: `disc`, `ring`, `stone`, `stack`, `figure:K` ...
    /// `figure:C`, `counter` or `wedge` (see `ply_lang::PIECE_IMAGES`); `null` draws the
    /// glyph or letter on a plain token.
    #[serde(default)]
    pub image: Option<String>,
}

/// `POST /playground/check` and `POST /playground/games`: a pack as text, as pasted in the
/// playground. It is untrusted: it is loaded and tried within a time limit (and, as
/// `ply serve` runs it, in a worker process under CPU-time and memory limits).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PastedPack {
    /// The pack's TOML; its `extends` may only name a pack of the server's folder.
    pub text: String,
    /// Option values; those not given keep their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, OptionJson>,
    /// For `POST /playground/games`: an engine to play one seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineSeat>,
    /// For `POST /playground/games`: clocks, as `POST /games` takes them; without it, the game
    /// is untimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
}

/// The answer to `POST /playground/check`: what `ply validate` and `ply show` say of the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackCheck {
    /// Whether the pack loads and plays (a game may be started from it).
    pub ok: bool,
    /// Every problem found, errors first.
    pub diagnostics: Vec<PackDiagnostic>,
    /// `ply show`'s view of the pack (board, pieces, zones, rules), when it loads.
    pub show: Option<String>,
    /// The options the pack declares, when it loads.
    pub options: Vec<PackOption>,
}

/// One problem of a pack, located as `ply validate --json` locates it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackDiagnostic {
    /// `error` or `warning`.
    pub severity: String,
    /// What is wrong.
    pub message: String,
    /// The file: the pasted text's name, or a pack of the server's folder it extends; `null`
    /// when the problem has no place.
    pub file: Option<String>,
    /// The first line, from 1.
    pub line: Option<usize>,
    /// The first column, from 1, in characters.
    pub column: Option<usize>,
    /// Where it ends: line.
    pub end_line: Option<usize>,
    /// Where it ends: column (one past the last character).
    pub end_column: Option<usize>,
    /// The short note under the caret.
    pub label: Option<String>,
    /// A hint on how to fix it.
    pub help: Option<String>,
    /// The whole diagnostic as `ply validate` prints it.
    pub rendered: String,
}

/// `GET /packs/{name}`: a pack's file as it is in the server's folder (for the playground to
/// start from).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PackText {
    /// The pack's name.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// `POST /games/{id}/seat`: which seat a token holds (a page opened from a seat link asks
/// before it offers to play). The token is sent in the body, never in a URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// The token.
    pub token: String,
}

/// The answer to `POST /games/{id}/seat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatAnswer {
    /// The player whose seat the token holds.
    pub seat: String,
}
