//! `[display]`: how a pack would like its pieces, zones and players drawn by a graphical front
//! end (the web board of `ply serve`). Every key is optional and nothing here changes the
//! rules; the values are checked, so that a front end can draw them without escaping.
//!
//! ```toml
//! [display]
//! board = "intersections"                 # one of BOARD_STYLES
//! colour = "#e3b873"                      # the board's own colour
//! stars = "d4 d10 j4 j10"                 # points marked on the board
//! [display.pieces]
//! Stone = { glyph = "●", colour = "#334455", image = "stone" }
//! Chief = { glyph = { A = "帥", B = "將" }, image = "counter" }   # a glyph by owner
//! [display.zones]
//! water = { colour = "#9fd3ff", draw = "band" }
//! [display.players]
//! A = { colour = "#b03a2e" }
//! ```

use super::reader::Reader;
use crate::diag::{Diagnostic, Loc};
use crate::tree::{Node, Table, Value};
use ply_kernel::Geometry;
use std::collections::BTreeMap;

/// The longest glyph, in characters.
pub const MAX_GLYPH_CHARS: usize = 3;

/// The styles a board may be drawn in (`[display] board`): `plain` cells, `checkered`
/// squares, `intersections` with lines (pieces on the points), `holes` (round pits), `hexes`
/// (a rhombus of hexagons, each row half a cell to the right of the row below it, so that a
/// cell's six neighbours are its orthogonal ones and those along the nw-se diagonal).
pub const BOARD_STYLES: &[&str] = &["plain", "checkered", "intersections", "holes", "hexes"];

/// The images a piece kind may be drawn with (`[display.pieces] image`): a flat `disc`, a
/// `ring`, a shaded `stone`, a `stack` of two discs; the project's figures, by the letters of
/// the Western set (`figure:K`, `figure:Q`, `figure:R`, `figure:B`, `figure:N`, `figure:P`,
/// and the compounds `figure:A` of B and N, `figure:C` of R and N); a round `counter` or a
/// five-sided `wedge`, each carrying the kind's glyph.
pub const PIECE_IMAGES: &[&str] = &[
    "disc", "ring", "stone", "stack", "figure:K", "figure:Q", "figure:R", "figure:B", "figure:N",
    "figure:P", "figure:A", "figure:C", "counter", "wedge",
];

/// How a zone may be drawn (`[display.zones] draw`): a `tint` of its cells (the default),
/// `none`, the `diagonals` of its rectangle, or a `band` across the board between its rows
/// (for a zone of both players: the inner lines stay open between its two parts).
pub const ZONE_DRAWINGS: &[&str] = &["tint", "none", "diagonals", "band"];

/// How one piece kind, zone or player would like to be drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// A colour, `#rgb` or `#rrggbb`.
    pub colour: Option<String>,
    /// One to [`MAX_GLYPH_CHARS`] characters to draw instead of the piece's letter or the
    /// zone's mark.
    pub glyph: Option<String>,
    /// A glyph by owner's name (`glyph = { Red = "帥", Black = "將" }`), for a piece kind
    /// whose two sides write it differently; empty when one glyph serves both.
    pub glyphs: BTreeMap<String, String>,
    /// A piece kind's image, one of [`PIECE_IMAGES`].
    pub image: Option<String>,
    /// A zone's drawing, one of [`ZONE_DRAWINGS`].
    pub draw: Option<String>,
}

/// What `[display]` asks for, by name; empty without the section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    /// The board's style, one of [`BOARD_STYLES`]; `None` leaves it to the front end.
    pub board: Option<String>,
    /// The board's colour (its squares' or its wood's), `#rgb` or `#rrggbb`.
    pub colour: Option<String>,
    /// Cells marked with a point (go-style star points), by name.
    pub stars: Vec<String>,
    /// Piece kinds, by kind name.
    pub pieces: BTreeMap<String, Style>,
    /// Zones, by zone name.
    pub zones: BTreeMap<String, Style>,
    /// Players, by player name (a colour only).
    pub players: BTreeMap<String, Style>,
}

/// Whether `s` is `#rgb` or `#rrggbb`.
fn is_colour(s: &str) -> bool {
    s.strip_prefix('#').is_some_and(|hex| {
        (hex.len() == 3 || hex.len() == 6) && hex.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// The names `[display]` may refer to.
pub(super) struct DisplayNames<'a> {
    /// Piece kinds.
    pub kinds: &'a [&'a str],
    /// Zones.
    pub zones: &'a [&'a str],
    /// Players.
    pub players: &'a [&'a str],
}

impl Reader<'_> {
    /// Reads `[display]`, given the names of the kinds, zones and players it may refer to and
    /// the board its stars are on.
    pub(super) fn display_section(
        &mut self,
        t: &Table,
        names: DisplayNames<'_>,
        geometry: &Geometry,
    ) -> Display {
        let DisplayNames {
            kinds,
            zones,
            players,
        } = names;
        t.check_keys(
            "[display]",
            &["board", "colour", "stars", "pieces", "zones", "players"],
            &|_| false,
            &mut self.diags,
        );
        let mut out = Display::default();
        if let Some(n) = t.get("board") {
            out.board = self.one_of(n, "[display] board", "board style", BOARD_STYLES);
        }
        if let Some(n) = t.get("colour") {
            out.colour = self.colour(n);
        }
        if let Some(n) = t.get("stars") {
            out.stars = self
                .cells(n, geometry)
                .into_iter()
                .map(|(c, _)| geometry.name(c).to_string())
                .collect();
        }
        for (part, names, what, map) in [
            ("pieces", kinds, "piece kind", &mut out.pieces),
            ("zones", zones, "zone", &mut out.zones),
            ("players", players, "player", &mut out.players),
        ] {
            let Some(node) = t.get(part) else { continue };
            let Some(table) = self.table(node, &format!("[display.{part}]")) else {
                continue;
            };
            for (name, entry) in &table.entries {
                if !names.contains(&name.as_str()) {
                    self.diags.push(
                        Diagnostic::error(
                            Some(entry.key_loc),
                            format!("there is no {what} `{name}` to display"),
                        )
                        .label("unknown name")
                        .suggest(name, names.iter().copied())
                        .help_if_none(format!("the pack's {what} names are: {}", names.join(", "))),
                    );
                    continue;
                }
                if let Some(style) = self.style(
                    &entry.node,
                    &format!("[display.{part}.{name}]"),
                    part,
                    players,
                ) {
                    map.insert(name.clone(), style);
                }
            }
        }
        out
    }

    /// One of `allowed`, or an error that lists them (with a suggestion for a near miss).
    fn one_of(
        &mut self,
        n: &Node,
        what: &str,
        noun: &str,
        allowed: &[&'static str],
    ) -> Option<String> {
        match &n.value {
            Value::Str(s) if allowed.contains(&s.as_str()) => Some(s.clone()),
            Value::Str(s) => {
                self.diags.push(
                    Diagnostic::error(Some(n.loc), format!("`{s}` is not a {noun} ({what})"))
                        .label("unknown value")
                        .suggest(s, allowed.iter().copied())
                        .help_if_none(format!("the {noun}s are: {}", allowed.join(", "))),
                );
                None
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(Some(n.loc), format!("{what} is a string"))
                        .label("not a string")
                        .help(format!("the {noun}s are: {}", allowed.join(", "))),
                );
                None
            }
        }
    }

    /// A colour, or `None` after an error.
    fn colour(&mut self, n: &Node) -> Option<String> {
        match &n.value {
            Value::Str(s) if is_colour(s) => Some(s.clone()),
            _ => {
                self.bad(
                    n.loc,
                    "a colour is `#rgb` or `#rrggbb` in hexadecimal, as in \"#2a6f97\"",
                );
                None
            }
        }
    }

    /// A glyph, or `None` after an error.
    fn glyph(&mut self, n: &Node) -> Option<String> {
        match &n.value {
            Value::Str(s)
                if (1..=MAX_GLYPH_CHARS).contains(&s.chars().count())
                    && !s.chars().any(|c| c.is_control() || c.is_whitespace()) =>
            {
                Some(s.clone())
            }
            _ => {
                self.bad(
                    n.loc,
                    "a glyph is 1 to 3 characters, none of them a space, as in \"♞\" or \"K\" \
                     (for a piece kind, or a table of them by player, as in { A = \"帥\", B = \"將\" })",
                );
                None
            }
        }
    }

    fn style(&mut self, node: &Node, what: &str, part: &str, players: &[&str]) -> Option<Style> {
        let t = self.table(node, what)?;
        let allowed: &[&str] = match part {
            "pieces" => &["colour", "glyph", "image"],
            "zones" => &["colour", "glyph", "draw"],
            _ => &["colour"],
        };
        t.check_keys(what, allowed, &|_| false, &mut self.diags);
        let mut style = Style::default();
        if let Some(n) = t.get("colour") {
            style.colour = self.colour(n);
        }
        if let Some(n) = t.get("glyph").filter(|_| part != "players") {
            match &n.value {
                Value::Table(by) if part == "pieces" => {
                    for (owner, e) in &by.entries {
                        if !players.contains(&owner.as_str()) {
                            self.diags.push(
                                Diagnostic::error(
                                    Some(e.key_loc),
                                    format!("there is no player `{owner}` to give a glyph"),
                                )
                                .label("unknown player")
                                .suggest(owner, players.iter().copied())
                                .help_if_none(format!(
                                    "the pack's players are: {}",
                                    players.join(", ")
                                )),
                            );
                        } else if let Some(g) = self.glyph(&e.node) {
                            style.glyphs.insert(owner.clone(), g);
                        }
                    }
                }
                _ => style.glyph = self.glyph(n),
            }
        }
        if let Some(n) = t.get("image").filter(|_| part == "pieces") {
            style.image = self.one_of(n, &format!("{what} image"), "piece image", PIECE_IMAGES);
        }
        if let Some(n) = t.get("draw").filter(|_| part == "zones") {
            style.draw = self.one_of(n, &format!("{what} draw"), "zone drawing", ZONE_DRAWINGS);
        }
        Some(style)
    }

    fn bad(&mut self, loc: Loc, message: &str) {
        self.diags
            .push(Diagnostic::error(Some(loc), message.to_string()).label("not usable here"));
    }
}
