//! What several commands share: the pack and `--set` flags ([`PackArgs`], [`SetArgs`], flattened
//! into each command's arguments so that every command spells them the same), loading the pack,
//! reading a position, a cell or a move typed by a person, naming a result.

use crate::output::{CliError, Context};
use clap::Args;
use ply_kernel::{Cell, Game, KindId, Outcome, Position, PositionError, Rules, Status, parse_move};
use ply_lang::Pack;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Option values for a pack.
#[derive(Args, Debug, Clone, Default)]
pub struct SetArgs {
    /// Set an option of the pack (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub set: Vec<(String, String)>,
}

/// A pack and its option values.
#[derive(Args, Debug, Clone)]
pub struct PackArgs {
    /// The rule pack (a TOML file).
    pub pack: PathBuf,
    /// Option values.
    #[command(flatten)]
    pub options: SetArgs,
}

/// Parses `NAME=VALUE` (for `--set`).
pub fn parse_set(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("expected NAME=VALUE, found `{text}`")),
    }
}

/// Loads a pack; on failure prints the diagnostics on the error stream. A panic in the loader
/// is reported as an error too.
pub fn load_pack(
    path: &Path,
    set: &[(String, String)],
    cx: &mut Context<'_>,
) -> Result<Pack, CliError> {
    match catch_unwind(AssertUnwindSafe(|| ply_lang::load(path, set))) {
        Ok(Ok(pack)) => Ok(pack),
        Ok(Err(e)) => {
            write!(cx.err, "{}", e.render(cx.err_color))?;
            if let Some(near) = pack_nearby(path) {
                cx.note(format_args!("did you mean `{}`?", near.display()))?;
            }
            Err(CliError::Reported)
        }
        Err(panic) => Err(CliError::Invalid(format!(
            "the loader crashed on {}: {}",
            path.display(),
            panic_message(&*panic)
        ))),
    }
}

/// For a pack path that is not a file, the pack it probably means: the name with `.toml`, or
/// in `rulesets/` (`jungle` -> `rulesets/jungle.toml`), when that file exists.
pub fn pack_nearby(path: &Path) -> Option<std::path::PathBuf> {
    if path.is_file() {
        return None;
    }
    let name = path.file_name()?;
    let mut toml = std::path::PathBuf::from(name);
    if path.extension().is_none() {
        toml.set_extension("toml");
    }
    let parent = path.parent().unwrap_or(Path::new(""));
    [
        parent.join(&toml),
        parent.join("rulesets").join(&toml),
        Path::new("rulesets").join(&toml),
    ]
    .into_iter()
    .find(|p| p.as_path() != path && p.is_file())
}

/// A position's board (with `marked` cells bracketed), coloured by owner when `on` (see
/// [`crate::output::paint_board`]).
pub fn painted_board(
    position: &ply_kernel::Position,
    marked: &[ply_kernel::Cell],
    on: bool,
) -> String {
    let text = if marked.is_empty() {
        position.render()
    } else {
        position.render_marked(marked)
    };
    if !on {
        return text;
    }
    let rules = position.rules();
    let core = rules.core();
    let codes = ply_kernel::Player::ALL.map(|p| {
        rules
            .kinds()
            .map(|k| core.code(ply_kernel::Piece::new(k, p)).to_string())
            .collect::<Vec<_>>()
    });
    crate::output::paint_board(&text, &codes, true)
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Shows a position string error with a caret under the offending character.
pub fn position_error(text: &str, e: &PositionError) -> CliError {
    let at = text
        .char_indices()
        .take_while(|(i, _)| *i < e.offset)
        .count();
    CliError::Invalid(format!("{e}\n  {text}\n  {}^", " ".repeat(at)))
}

/// The game at `position` (a position string), or at the standard start.
pub fn game_at(rules: Arc<Rules>, position: Option<&str>) -> Result<Game, CliError> {
    match position {
        None => Ok(Game::new(rules)),
        Some(text) => Game::from_position_string(rules, text).map_err(|e| position_error(text, &e)),
    }
}

/// The position at `position` (a position string), or the standard start.
pub fn position_at(rules: Arc<Rules>, position: Option<&str>) -> Result<Position, CliError> {
    match position {
        None => Ok(Position::start(rules)),
        Some(text) => {
            Position::from_position_string(rules, text).map_err(|e| position_error(text, &e))
        }
    }
}

/// Reads a cell in human notation (`a7`).
pub fn parse_cell(rules: &Rules, text: &str) -> Result<Cell, CliError> {
    let g = rules.geometry();
    g.parse_cell(text.trim()).ok_or_else(|| {
        let last = g.last_column_name();
        CliError::Invalid(format!(
            "`{text}` is not a cell of this board (columns a to {last}, rows 1 to {})",
            g.rows()
        ))
    })
}

/// Reads a move typed by a person, leniently: letters in any case, and between the cells `-`,
/// `x`, `:`, spaces or nothing (`a7-a6`, `A7-A6`, `a7 a6`, `a7 - a6`, `a7xa6`, `a7:a6` and
/// `a7a6` are one move). Whether a move captures is the rules' business, not the separator's:
/// `a7xa6` is the quiet move `a7-a6` if that is what the piece can do.
/// A promotion choice follows `=` (`e7-e8=Q`).
pub fn read_move(rules: &Rules, text: &str) -> Result<(Vec<Cell>, Option<KindId>), String> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    parse_move(rules, &compact).map_err(|e| format!("`{}` is not a move: {}", text.trim(), e.kind))
}

/// Why a game ended, as it follows its result on the screen: ` (den)`, the name of the end
/// rule that decided it; empty while the game goes on. (Records keep the result alone.)
pub fn why_text(game: &Game) -> String {
    game.end_reason()
        .map_or(String::new(), |r| format!(" ({})", r.name(game.rules())))
}

/// How a game stands, in words, if it is over or stuck: `A wins`, `draw`, or `no legal move
/// for B` (the side to move has no move and no end rule decides).
pub fn result_text(game: &Game) -> Option<String> {
    let core = game.rules().core();
    match game.status() {
        Status::Over(Outcome::Win(p)) => Some(format!("{} wins", core.player_name(p))),
        Status::Over(Outcome::Draw) => Some("draw".to_string()),
        Status::Stuck(p) => Some(format!("no legal move for {}", core.player_name(p))),
        Status::ToMove(_) => None,
    }
}
