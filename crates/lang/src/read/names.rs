//! One name, one meaning: the names of players, kinds, zones, tags, options and definitions
//! share one space in expressions, so two things of one name are refused.
use super::reader::Reader;
use crate::check::World;
use crate::diag::Diagnostic;
use crate::tree::{Table, Value};

impl Reader<'_> {
    /// One name, one meaning: a player, kind, zone, tag, option or definition may not share
    /// its name with another, since expressions could not tell them apart.
    pub(super) fn name_clashes(&mut self, world: &World, top: &Table) {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        let groups: [(&str, Vec<&str>); 6] = [
            (
                "a player",
                world.players.iter().map(String::as_str).collect(),
            ),
            (
                "a kind of piece",
                world.kinds.iter().map(String::as_str).collect(),
            ),
            ("a zone", world.zones.iter().map(|z| z.0.as_str()).collect()),
            ("a tag", world.tags.iter().map(String::as_str).collect()),
            (
                "an option",
                world.options.iter().map(|o| o.0.as_str()).collect(),
            ),
            (
                "a definition",
                world.defs.iter().map(|d| d.name.as_str()).collect(),
            ),
        ];
        for (what, names) in &groups {
            for name in names {
                if let Some((_, earlier)) = seen.iter().find(|(n, _)| n == name) {
                    if *earlier == "a player" && *what == "a player" {
                        // Reported where the players are read.
                        continue;
                    }
                    let loc = ["pieces", "zones", "options", "define"]
                        .iter()
                        .find_map(|sec| {
                            top.get(sec).and_then(|n| match &n.value {
                                Value::Table(t) => t
                                    .entries
                                    .iter()
                                    .find(|(k, _)| k.starts_with(name))
                                    .map(|(_, e)| e.key_loc),
                                _ => None,
                            })
                        });
                    self.diags.push(
                        Diagnostic::error(
                            loc.or(self.locs.players),
                            format!("`{name}` is both {earlier} and {what}"),
                        )
                        .help("give them different names: expressions could not tell them apart"),
                    );
                } else {
                    seen.push((name, what));
                }
            }
        }
    }
}
