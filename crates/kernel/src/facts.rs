//! The fixed facts of a game that expressions read: the board, the players, the zones, the
//! kinds with their attributes and tags, and the piece codes.

use crate::cell::{Cell, CellSet};
use crate::geometry::Geometry;
use crate::piece::{KindId, PLAYERS, Piece, Player};

/// A player as the spec describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlayerSpec {
    /// Name, as in `A` or `RABBIT`.
    pub name: String,
    /// Symbol that starts the codes of the player's pieces, as in `A` for `AL`.
    pub symbol: String,
}

/// Which cells a zone holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZoneCells {
    /// One set of cells, belonging to nobody.
    Shared(CellSet),
    /// One set of cells per player.
    Owned([CellSet; PLAYERS]),
}

/// A named zone of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZoneSpec {
    /// Name, as used in expressions.
    pub name: String,
    /// The cells.
    pub cells: ZoneCells,
    /// One character drawn on the zone's empty cells when the board is rendered.
    pub mark: Option<char>,
}

impl PlayerSpec {
    /// A player named `name` whose pieces' codes start with `symbol`.
    pub fn new(name: impl Into<String>, symbol: impl Into<String>) -> PlayerSpec {
        PlayerSpec {
            name: name.into(),
            symbol: symbol.into(),
        }
    }
}

impl ZoneSpec {
    /// A zone with no mark.
    pub fn new(name: impl Into<String>, cells: ZoneCells) -> ZoneSpec {
        ZoneSpec {
            name: name.into(),
            cells,
            mark: None,
        }
    }
}

/// The static facts of a game: geometry, players, zones and kinds. Expressions are evaluated
/// against it.
#[derive(Clone, Debug)]
pub struct Core {
    pub(crate) name: String,
    pub(crate) geometry: Geometry,
    pub(crate) players: [PlayerSpec; PLAYERS],
    pub(crate) zones: Vec<ZoneTable>,
    pub(crate) zone_specs: Vec<ZoneSpec>,
    pub(crate) kinds: Vec<KindInfo>,
    pub(crate) attributes: Vec<String>,
    pub(crate) tags: Vec<String>,
    pub(crate) codes: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct ZoneTable {
    pub(crate) parts: [CellSet; PLAYERS],
    pub(crate) all: CellSet,
}

#[derive(Clone, Debug)]
pub(crate) struct KindInfo {
    pub(crate) name: String,
    pub(crate) letter: String,
    pub(crate) attrs: Vec<i64>,
    pub(crate) tags: u64,
    pub(crate) at_most: Option<u16>,
    pub(crate) never_in: Option<usize>,
}

/// A piece that a position read or set up may not have, by what its pack says of its kind
/// (`at_most`, `never_in`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StandingError {
    /// More pieces of a kind for one player than the kind allows.
    #[error("{player} has more than {most} {kind} (at most {most} per player)")]
    TooMany {
        /// The player's name.
        player: String,
        /// The kind's name.
        kind: String,
        /// The most the kind allows.
        most: u16,
    },
    /// A piece on a cell of the zone where its kind may never stand.
    #[error("{code} on {cell}: a {kind} may never stand in zone `{zone}`")]
    NeverIn {
        /// The piece's code.
        code: String,
        /// The kind's name.
        kind: String,
        /// The cell.
        cell: String,
        /// The zone's name.
        zone: String,
    },
}

impl Core {
    /// The game's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// A player's name.
    pub fn player_name(&self, p: Player) -> &str {
        &self.players[p.slot()].name
    }

    /// A player's symbol.
    pub fn player_symbol(&self, p: Player) -> &str {
        &self.players[p.slot()].symbol
    }

    /// The player with this name.
    pub fn player_by_name(&self, name: &str) -> Option<Player> {
        (0..PLAYERS as u8)
            .map(Player)
            .find(|p| self.players[p.index()].name == name)
    }

    /// The number of kinds.
    pub fn kind_count(&self) -> usize {
        self.kinds.len()
    }

    /// All kinds.
    pub fn kinds(&self) -> impl Iterator<Item = KindId> + '_ {
        (0..self.kinds.len() as u8).map(KindId)
    }

    /// A kind's name.
    pub fn kind_name(&self, k: KindId) -> &str {
        self.kinds.get(k.index()).map_or("", |k| k.name.as_str())
    }

    /// A kind's letter.
    pub fn kind_letter(&self, k: KindId) -> &str {
        self.kinds.get(k.index()).map_or("", |k| k.letter.as_str())
    }

    /// The kind with this name.
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| KindId(i as u8))
    }

    /// At most how many pieces of a kind each player may have on the board (`None`: any).
    pub fn at_most(&self, k: KindId) -> Option<u16> {
        self.kinds.get(k.index()).and_then(|k| k.at_most)
    }

    /// The zone (by index) where a kind may never stand, if its pack names one.
    pub fn never_in(&self, k: KindId) -> Option<usize> {
        self.kinds.get(k.index()).and_then(|k| k.never_in)
    }

    /// Whether `piece` may stand on `cell` as the `count`-th piece of its kind and owner (1
    /// for the first) in a position read or set up: not in its kind's `never_in` zone, not
    /// more than its `at_most`.
    pub fn may_stand(&self, piece: Piece, cell: Cell, count: usize) -> Result<(), StandingError> {
        let k = piece.kind();
        if let Some(most) = self.at_most(k)
            && count > most as usize
        {
            return Err(StandingError::TooMany {
                player: self.player_name(piece.owner()).to_string(),
                kind: self.kind_name(k).to_string(),
                most,
            });
        }
        if let Some(zone) = self.never_in(k)
            && self.in_zone(cell, zone, Some(piece.owner()))
        {
            return Err(StandingError::NeverIn {
                code: self.code(piece).to_string(),
                kind: self.kind_name(k).to_string(),
                cell: self.geometry.name(cell).to_string(),
                zone: self
                    .zone_specs
                    .get(zone)
                    .map_or(String::new(), |z| z.name.clone()),
            });
        }
        Ok(())
    }

    /// An attribute of a kind.
    #[inline]
    pub fn attr(&self, k: KindId, attr: usize) -> i64 {
        self.kinds[k.index()].attrs.get(attr).copied().unwrap_or(0)
    }

    /// The attribute names.
    pub fn attributes(&self) -> &[String] {
        &self.attributes
    }

    /// The tag names.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// Whether a kind has a tag.
    #[inline]
    pub fn has_tag(&self, k: KindId, tag: usize) -> bool {
        tag < 64
            && self
                .kinds
                .get(k.index())
                .is_some_and(|k| k.tags & (1 << tag) != 0)
    }

    /// Whether a cell is in a zone (the part of `owner`, or any part).
    #[inline]
    pub fn in_zone(&self, cell: Cell, zone: usize, owner: Option<Player>) -> bool {
        match (self.zones.get(zone), owner) {
            (Some(z), Some(p)) => z.parts[p.index()].contains(cell),
            (Some(z), None) => z.all.contains(cell),
            (None, _) => false,
        }
    }

    /// The cells of a zone (the part of `owner`, or all parts); empty for no zone.
    pub fn zone_cells(&self, zone: usize, owner: Option<Player>) -> CellSet {
        match (self.zones.get(zone), owner) {
            (Some(z), Some(p)) => z.parts[p.index()],
            (Some(z), None) => z.all,
            (None, _) => CellSet::EMPTY,
        }
    }

    /// The zones, as declared.
    pub fn zones(&self) -> &[ZoneSpec] {
        &self.zone_specs
    }

    /// A piece's code: owner symbol and kind letter, as in `AL`.
    pub fn code(&self, piece: Piece) -> &str {
        &self.codes[piece.code()]
    }

    /// The piece with this code.
    pub fn piece_by_code(&self, code: &str) -> Option<Piece> {
        self.all_pieces().find(|p| self.code(*p) == code)
    }

    /// Every piece (kind and owner) of the game.
    pub fn all_pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.kinds()
            .flat_map(|k| (0..PLAYERS as u8).map(move |p| Piece::new(k, Player(p))))
    }

    /// The widest piece code.
    pub fn code_width(&self) -> usize {
        self.codes
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1)
    }
}
