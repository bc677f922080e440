//! The API's JSON documents, written once: the server answers with them, its tests and the
//! load example read them, and `openapi.json` describes them (a test checks the two agree).
//!
//! Requests refuse fields they do not know (a typo is an error, never a silent default);
//! answers may grow fields, so clients should ignore the ones they do not know.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `GET /packs`: the packs the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackList {
    /// Every pack in the packs folder that loads, by name.
    pub packs: Vec<PackInfo>,
}

/// A pack the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptionType {
    /// `true` or `false`.
    Bool,
    /// An integer.
    Int,
}

/// An option's value in JSON: a boolean or an integer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionJson {
    /// A boolean option's value.
    Bool(bool),
    /// An integer option's value.
    Int(i64),
}

/// `POST /games`: a new game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The pack's name, as `GET /packs` lists it.
    pub pack: String,
    /// Option values; those not given keep their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, OptionJson>,
}

/// The answer to `POST /games`: the game's state and the seats' secret tokens. Give each
/// player their own token; whoever holds a seat's token plays that seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatedGame {
    /// Each player's secret token, by player name (128 random bits, hex).
    pub seats: BTreeMap<String, String>,
    /// The state (version 0).
    #[serde(flatten)]
    pub state: GameState,
}

/// A game as `GET /games/{id}` shows it, to anyone who knows its id. It never shows a token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// Grows by one with every change of the stored game (a move, an undo asked, agreed or
    /// refused) and is never reused: a move must name the version it was made on.
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
    /// The legal moves of the side to move, in notation (`a7-a6`, `c3xc5`).
    pub legal_moves: Vec<String>,
    /// The moves played so far (and not taken back), in notation, oldest first.
    pub moves: Vec<String>,
    /// A pending request to take back the last move, if any.
    pub undo_request: Option<UndoOffer>,
}

/// Which pack a game is played by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackRef {
    /// The pack's name when the game was created.
    pub name: String,
    /// The options given.
    pub options: BTreeMap<String, OptionJson>,
    /// SHA-256 of the stored pack text (the pack resolved: `extends` and options applied),
    /// hex. The game is played by that text whatever happens to the file later.
    pub sha256: String,
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UndoOffer {
    /// The player who asked.
    pub by: String,
    /// The move that would be taken back, in notation.
    pub takes_back: String,
}

/// A move as the notation or a path of cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat's token.
    pub token: String,
    /// The version the move was made on (the `version` of the state the player saw).
    pub version: u64,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveText,
    /// Makes a retry safe: a second request with the same key (in this game) is not applied
    /// again but answered as the first was. At most 128 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}

/// `POST /games/{id}/undo`, or a WebSocket message: taking back the last move, by agreement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The seat's token.
    pub token: String,
    /// The version the request was made on.
    pub version: u64,
    /// What the seat does.
    pub undo: UndoAction,
}

/// What a seat does about taking back the last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UndoAction {
    /// Ask the other player to agree to take back the last move.
    Ask,
    /// Agree to the other player's request: the last move is taken back.
    Accept,
    /// Refuse the other player's request, or withdraw one's own.
    Decline,
}

/// An error's body, for every status but 200, 201 and 409.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What went wrong, in a sentence.
    pub error: String,
    /// For a refused move: the name of the rule that refused it, when a named rule did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The answer to a stale request (409): why, and the current state to retry from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    /// Why.
    pub error: String,
    /// The current state.
    pub state: GameState,
}

/// What the server sends on a game's WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        body: serde_json::Value,
    },
}
