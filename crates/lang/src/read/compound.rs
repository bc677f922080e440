//! `[compound.*]`: moves of two pieces at once, and `[fen]`: how positions are
//! written in Forsyth-Edwards notation.

use super::directions::directions;
use super::reader::Reader;
use crate::diag::Diagnostic;
use crate::tree::{Node, Table, Value};
use ply_kernel::spec::{CompoundSpec, FenSpec, KindSpec, PlayerSpec};
use ply_kernel::{Cell, Dir, Geometry, KindId, PLAYERS};

impl Reader<'_> {
    /// The compound moves, each `[compound.NAME]` with `mover`, `partner`, `direction`,
    /// `mover_to` and `partner_to` (one cell per player).
    pub(super) fn compounds(
        &mut self,
        t: &Table,
        players: &[PlayerSpec],
        kinds: &[KindSpec],
        geometry: &Geometry,
        forward: &Option<[Dir; PLAYERS]>,
    ) -> Vec<CompoundSpec> {
        let mut out = Vec::new();
        for (name, e) in &t.entries {
            self.locs.compounds.push(e.key_loc);
            let what = format!("[compound.{name}]");
            let Some(c) = self.table(&e.node, &what) else {
                continue;
            };
            c.check_keys(
                &what,
                &[
                    "mover",
                    "partner",
                    "direction",
                    "mover_to",
                    "partner_to",
                    "doc",
                ],
                &|_| false,
                &mut self.diags,
            );
            let mover = self.kind_key(c, "mover", e.key_loc, &what, kinds);
            let partner = self.kind_key(c, "partner", e.key_loc, &what, kinds);
            let dir = match c.get("direction") {
                Some(n) => self.one_direction(n, forward),
                None => {
                    self.err(e.key_loc, format!("{what} needs `direction`: where the partner is, seen from the mover (`east`)"));
                    None
                }
            };
            let mover_to = self.cell_per_player(c, "mover_to", e.key_loc, &what, players, geometry);
            let partner_to =
                self.cell_per_player(c, "partner_to", e.key_loc, &what, players, geometry);
            if let (Some(mover), Some(partner), Some(dir), Some(mover_to), Some(partner_to)) =
                (mover, partner, dir, mover_to, partner_to)
            {
                out.push(CompoundSpec::new(
                    name.clone(),
                    (mover, partner),
                    dir,
                    mover_to,
                    partner_to,
                ));
            }
        }
        out
    }

    /// A key naming a kind.
    fn kind_key(
        &mut self,
        t: &Table,
        key: &str,
        at: crate::diag::Loc,
        what: &str,
        kinds: &[KindSpec],
    ) -> Option<KindId> {
        let Some(n) = t.get(key) else {
            self.err(at, format!("{what} needs `{key}` (a kind of piece)"));
            return None;
        };
        let name = self.str(n, &format!("`{key}`"))?;
        match kinds.iter().position(|k| k.name == name) {
            Some(k) => KindId::new(k),
            None => {
                self.diags.push(
                    Diagnostic::error(Some(n.loc), format!("`{name}` is not a kind of piece"))
                        .label("unknown piece")
                        .suggest(name, kinds.iter().map(|k| k.name.as_str())),
                );
                None
            }
        }
    }

    /// One direction word, as an absolute direction for each player.
    fn one_direction(
        &mut self,
        n: &Node,
        forward: &Option<[Dir; PLAYERS]>,
    ) -> Option<[Dir; PLAYERS]> {
        let word = self.str(n, "`direction`")?;
        match directions(word, forward) {
            Ok(sets) => {
                let dirs: Vec<Option<Dir>> = sets
                    .iter()
                    .map(|s| {
                        let mut it = s.iter();
                        match (it.next(), it.next()) {
                            (Some(d), None) => Some(d),
                            _ => None,
                        }
                    })
                    .collect();
                match (dirs[0], dirs[1]) {
                    (Some(a), Some(b)) => Some([a, b]),
                    _ => {
                        self.err(
                            n.loc,
                            format!(
                                "`{word}` is more than one direction: name one, such as `east`"
                            ),
                        );
                        None
                    }
                }
            }
            Err(msg) => {
                self.err(n.loc, msg);
                None
            }
        }
    }

    /// `{ PLAYER = "cell", ... }`: a cell for each player.
    fn cell_per_player(
        &mut self,
        t: &Table,
        key: &str,
        at: crate::diag::Loc,
        what: &str,
        players: &[PlayerSpec],
        geometry: &Geometry,
    ) -> Option<[Cell; PLAYERS]> {
        let Some(n) = t.get(key) else {
            self.err(
                at,
                format!("{what} needs `{key}`: a cell for each player, as in `{{ {} = \"g1\", {} = \"g8\" }}`", players[0].name, players[1].name),
            );
            return None;
        };
        let per = self.table(n, &format!("`{key}`"))?;
        let mut out = [None; PLAYERS];
        for (pname, e) in &per.entries {
            let Some(p) = players.iter().position(|x| x.name == *pname) else {
                self.diags.push(
                    Diagnostic::error(Some(e.key_loc), format!("`{pname}` is not a player"))
                        .suggest(pname, players.iter().map(|p| p.name.as_str())),
                );
                continue;
            };
            let Some(name) = self.str(&e.node, "a cell") else {
                continue;
            };
            match geometry.parse_cell(name) {
                Some(c) => out[p] = Some(c),
                None => self.err(e.node.loc, format!("`{name}` is not a cell of the board")),
            }
        }
        match out {
            [Some(a), Some(b)] => Some([a, b]),
            _ => {
                self.err(n.loc, format!("`{key}` needs a cell for each player"));
                None
            }
        }
    }

    /// `[fen]`: `pieces = { P = "Pawn", "Q~" = "PQueen", ... }` (upper-case letters, with
    /// `~` for crazyhouse's promoted pieces; the second player's are lower case),
    /// `sides = { White = ["w"], Black = ["b"] }`, `rights = { K = "NAME" }` (compound moves
    /// by letter).
    pub(super) fn fen(
        &mut self,
        t: &Table,
        players: &[PlayerSpec],
        kinds: &[KindSpec],
        compounds: &[CompoundSpec],
    ) -> Option<FenSpec> {
        if t.entries.is_empty() {
            return None;
        }
        t.check_keys(
            "[fen]",
            &["pieces", "sides", "rights", "doc"],
            &|_| false,
            &mut self.diags,
        );
        let mut fen = FenSpec::default();
        let letter = |r: &mut Self, key: &str, loc| -> Option<char> {
            let mut chars = key.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => Some(c),
                _ => {
                    r.err(loc, format!("`{key}` must be one upper-case letter"));
                    None
                }
            }
        };
        // A piece's key may carry crazyhouse's mark: the message then names the whole key.
        let piece_letter = |r: &mut Self, key: &str, loc| -> Option<char> {
            let plain = key.strip_suffix('~').unwrap_or(key);
            let mut chars = plain.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => Some(c),
                _ => {
                    r.diags.push(
                        Diagnostic::error(
                            Some(loc),
                            format!("`{key}` must be one upper-case letter, or one and `~`"),
                        )
                        .help("as in `S = \"Stone\"`, or `\"S~\" = \"MarkedStone\"` for a kind FEN marks with `~`"),
                    );
                    None
                }
            }
        };
        match t.get("pieces").map(|n| (n, &n.value)) {
            Some((_, Value::Table(p))) => {
                for (key, e) in &p.entries {
                    // `Q~`: the letter and crazyhouse's mark of a promoted piece.
                    let marked = key.ends_with('~');
                    let Some(c) = piece_letter(self, key, e.key_loc) else {
                        continue;
                    };
                    let Some(name) = self.str(&e.node, "a kind") else {
                        continue;
                    };
                    match kinds.iter().position(|k| k.name == name) {
                        Some(k) => {
                            let table = if marked {
                                &mut fen.marked
                            } else {
                                &mut fen.letters
                            };
                            table.extend(KindId::new(k).map(|k| (c, k)));
                        }
                        None => self.diags.push(
                            Diagnostic::error(
                                Some(e.node.loc),
                                format!("`{name}` is not a kind of piece"),
                            )
                            .suggest(name, kinds.iter().map(|k| k.name.as_str())),
                        ),
                    }
                }
                for (k, kind) in kinds.iter().enumerate() {
                    if !fen
                        .letters
                        .iter()
                        .chain(&fen.marked)
                        .any(|(_, x)| x.index() == k)
                    {
                        self.err(
                            t.get("pieces").map_or(p.entries[0].key_loc, |n| n.loc),
                            format!("[fen] `pieces` gives no letter to `{}`", kind.name),
                        );
                    }
                }
            }
            Some((n, _)) => self.err(
                n.loc,
                "[fen] `pieces` must be a table of letters and kinds: `{ A = \"KindName\" }`",
            ),
            None => {}
        }
        if let Some(n) = t.get("sides") {
            let s = self.table(n, "[fen] `sides`")?;
            for (pname, e) in &s.entries {
                let Some(p) = players.iter().position(|x| x.name == *pname) else {
                    self.diags.push(
                        Diagnostic::error(Some(e.key_loc), format!("`{pname}` is not a player"))
                            .suggest(pname, players.iter().map(|p| p.name.as_str())),
                    );
                    continue;
                };
                fen.sides[p] = self
                    .string_items(&e.node, "the letters of a side")
                    .into_iter()
                    .map(|(s, _)| s)
                    .collect();
            }
        }
        for (p, side) in fen.sides.iter_mut().enumerate() {
            if side.is_empty() {
                side.push(if p == 0 { "w" } else { "b" }.to_string());
            }
        }
        if let Some(n) = t.get("rights") {
            let c = self.table(n, "[fen] `rights`")?;
            for (key, e) in &c.entries {
                let Some(ch) = letter(self, key, e.key_loc) else {
                    continue;
                };
                let Some(name) = self.str(&e.node, "a compound move") else {
                    continue;
                };
                match compounds.iter().position(|x| x.name == name) {
                    Some(i) => fen.compounds.push((ch, i)),
                    None => self.diags.push(
                        Diagnostic::error(
                            Some(e.node.loc),
                            format!("`{name}` is not a compound move of the pack"),
                        )
                        .suggest(name, compounds.iter().map(|x| x.name.as_str())),
                    ),
                }
            }
        }
        Some(fen)
    }
}
