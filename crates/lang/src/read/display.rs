//! `[display]`: how a pack would like its pieces, zones and players drawn by a graphical front
//! end (the web board of `ply serve`). Every key is optional and nothing here changes the
//! rules; the values are checked, so that a front end can draw them without escaping.
//!
//! ```toml
//! [display.pieces]
//! Stone = { glyph = "●", colour = "#334455" }
//! [display.zones]
//! water = { colour = "#9fd3ff" }
//! [display.players]
//! A = { colour = "#b03a2e" }
//! ```

use super::reader::Reader;
use crate::diag::{Diagnostic, Loc};
use crate::tree::{Node, Table, Value};
use std::collections::BTreeMap;

/// The longest glyph, in characters.
pub const MAX_GLYPH_CHARS: usize = 3;

/// How one piece kind, zone or player would like to be drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// A colour, `#rgb` or `#rrggbb`.
    pub colour: Option<String>,
    /// One to [`MAX_GLYPH_CHARS`] characters to draw instead of the piece's letter or the
    /// zone's mark.
    pub glyph: Option<String>,
}

/// What `[display]` asks for, by name; empty without the section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
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

impl Reader<'_> {
    /// Reads `[display]`, given the names of the kinds, zones and players it may refer to.
    pub(super) fn display_section(
        &mut self,
        t: &Table,
        kinds: &[&str],
        zones: &[&str],
        players: &[&str],
    ) -> Display {
        t.check_keys(
            "[display]",
            &["pieces", "zones", "players"],
            &|_| false,
            &mut self.diags,
        );
        let mut out = Display::default();
        for (part, names, what, glyphs, map) in [
            ("pieces", kinds, "piece kind", true, &mut out.pieces),
            ("zones", zones, "zone", true, &mut out.zones),
            ("players", players, "player", false, &mut out.players),
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
                if let Some(style) =
                    self.style(&entry.node, &format!("[display.{part}.{name}]"), glyphs)
                {
                    map.insert(name.clone(), style);
                }
            }
        }
        out
    }

    fn style(&mut self, node: &Node, what: &str, glyphs: bool) -> Option<Style> {
        let t = self.table(node, what)?;
        let allowed: &[&str] = if glyphs {
            &["colour", "glyph"]
        } else {
            &["colour"]
        };
        t.check_keys(what, allowed, &|_| false, &mut self.diags);
        let mut style = Style::default();
        if let Some(n) = t.get("colour") {
            match &n.value {
                Value::Str(s) if is_colour(s) => style.colour = Some(s.clone()),
                _ => self.bad(
                    n.loc,
                    "a colour is `#rgb` or `#rrggbb` in hexadecimal, as in \"#2a6f97\"",
                ),
            }
        }
        if let Some(n) = t.get("glyph").filter(|_| glyphs) {
            match &n.value {
                Value::Str(s)
                    if (1..=MAX_GLYPH_CHARS).contains(&s.chars().count())
                        && !s.chars().any(|c| c.is_control() || c.is_whitespace()) =>
                {
                    style.glyph = Some(s.clone());
                }
                _ => self.bad(
                    n.loc,
                    "a glyph is 1 to 3 characters, none of them a space, as in \"♞\" or \"K\"",
                ),
            }
        }
        Some(style)
    }

    fn bad(&mut self, loc: Loc, message: &str) {
        self.diags
            .push(Diagnostic::error(Some(loc), message.to_string()).label("not usable here"));
    }
}
