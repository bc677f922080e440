//! `[game]`: the name, the players and their symbols and forward directions, the attributes,
//! and whether capturing is mandatory.
use super::directions::compass;
use super::reader::Reader;
use crate::diag::Diagnostic;
use crate::tree::{Node, Table, Value};
use ply_kernel::spec::PlayerSpec;
use ply_kernel::{Dir, PLAYERS};

/// What `[game]` says.
pub(super) struct Game {
    pub(super) name: String,
    pub(super) players: Vec<PlayerSpec>,
    pub(super) attributes: Vec<String>,
    pub(super) forward: Option<[Dir; PLAYERS]>,
    pub(super) must_capture: bool,
    /// `must_capture = "most"`: only the captures that take the most pieces.
    pub(super) most_captures: bool,
    pub(super) pass: bool,
    /// `pass = "always"`: a player may pass on any turn.
    pub(super) pass_any_time: bool,
}

impl Reader<'_> {
    /// Reads `[game]`; `None` when there are no two players to go on with.
    pub(super) fn game(&mut self, game: &Table, top: &Table) -> Option<Game> {
        game.check_keys(
            "[game]",
            &[
                "name",
                "doc",
                "players",
                "symbols",
                "forward",
                "attributes",
                "must_capture",
                "pass",
            ],
            &|_| false,
            &mut self.diags,
        );
        let name = match game.get("name") {
            Some(n) => self.str(n, "the game's name").unwrap_or("").to_string(),
            None => String::from("Untitled"),
        };
        let players = self.players(game, top)?;
        let attributes: Vec<String> = match game.get("attributes") {
            Some(n) => {
                let items = self.string_items(n, "`attributes`");
                for (a, loc) in &items {
                    self.check_name(a, *loc, "an attribute");
                }
                items.into_iter().map(|(a, _)| a).collect()
            }
            None => Vec::new(),
        };
        let forward = self.forward(game, &players);
        let (must_capture, most_captures) = match game.get("must_capture") {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => (*b, false),
            Some(Node {
                value: Value::Str(s),
                ..
            }) if s == "most" => (true, true),
            Some(n) => {
                self.err(
                    n.loc,
                    "`must_capture` is true, false or \"most\": true makes a player who can capture capture, \"most\" makes it take as many pieces as any capture can",
                );
                (false, false)
            }
            None => (false, false),
        };

        let (pass, pass_any_time) = match game.get("pass") {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => (*b, false),
            Some(Node {
                value: Value::Str(s),
                ..
            }) if s == "always" => (true, true),
            Some(n) => {
                self.err(
                    n.loc,
                    "`pass` is true, false or \"always\": true lets a player with no other move pass, \"always\" lets a player pass on any turn",
                );
                (false, false)
            }
            None => (false, false),
        };

        Some(Game {
            name,
            players,
            attributes,
            forward,
            must_capture,
            most_captures,
            pass,
            pass_any_time,
        })
    }

    pub(super) fn players(&mut self, game: &Table, top: &Table) -> Option<Vec<PlayerSpec>> {
        let Some(node) = game.get("players") else {
            let loc = top.entries.get("game").map(|e| e.key_loc);
            self.diags.push(
                Diagnostic::error(loc, "the game has no `players`")
                    .help("write `players = [\"A\", \"B\"]` in [game]"),
            );
            return None;
        };
        self.locs.players = Some(node.loc);
        let items = self.string_items(node, "`players`");
        if items.len() != PLAYERS {
            self.err(
                node.loc,
                format!("a game has exactly {PLAYERS} players, not {}", items.len()),
            );
            return None;
        }
        for (p, loc) in &items {
            self.check_name(p, *loc, "a player");
        }
        if items[0].0 == items[1].0 {
            self.diags.push(
                Diagnostic::error(
                    Some(items[1].1),
                    format!("both players are named `{}`", items[0].0),
                )
                .label("the same name again")
                .help("give each player a name of its own: expressions and position strings tell them apart by name"),
            );
        }
        let names: Vec<String> = items.into_iter().map(|(p, _)| p).collect();
        let symbols = game
            .get("symbols")
            .and_then(|n| self.table(n, "`symbols`"))
            .cloned()
            .unwrap_or_default();
        symbols.check_keys(
            "`symbols`",
            &names.iter().map(String::as_str).collect::<Vec<_>>(),
            &|_| false,
            &mut self.diags,
        );
        let mut out = Vec::new();
        for n in names {
            let symbol = match symbols.get(&n) {
                Some(s) => self.str(s, "a symbol").unwrap_or("?").to_string(),
                None => n.chars().next().map(String::from).unwrap_or_default(),
            };
            out.push(PlayerSpec::new(n, symbol));
        }
        Some(out)
    }

    pub(super) fn forward(
        &mut self,
        game: &Table,
        players: &[PlayerSpec],
    ) -> Option<[Dir; PLAYERS]> {
        let node = game.get("forward")?;
        let t = self.table(node, "`forward`")?.clone();
        t.check_keys(
            "`forward`",
            &players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            &|_| false,
            &mut self.diags,
        );
        let mut out = [Dir::N; PLAYERS];
        for (i, p) in players.iter().enumerate() {
            let Some(n) = t.get(&p.name) else {
                self.err(
                    node.loc,
                    format!("`forward` gives no direction for `{}`", p.name),
                );
                return None;
            };
            let s = self.str(n, "a direction")?;
            let screen = match s {
                "left" => Some(Dir::W),
                "right" => Some(Dir::E),
                _ => compass(s),
            };
            match screen {
                Some(d) => out[i] = d,
                None => {
                    self.diags.push(
                        Diagnostic::error(Some(n.loc), format!("`{s}` is not a direction")).help(
                            "use up, down, left, right, or a compass direction such as north or ne",
                        ),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }
}
