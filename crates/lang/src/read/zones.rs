//! `[zones.*]`: named sets of cells, shared or owned by a player.
use super::reader::Reader;
use crate::tree::Node;
use ply_kernel::spec::{PlayerSpec, ZoneCells, ZoneSpec};
use ply_kernel::{CellSet, Geometry, PLAYERS};

impl Reader<'_> {
    pub(super) fn zone(
        &mut self,
        name: &str,
        node: &Node,
        players: &[PlayerSpec],
        g: &Geometry,
    ) -> Option<ZoneSpec> {
        let t = self.table(node, &format!("[zones.{name}]"))?;
        let mut allowed = vec!["cells", "mark", "doc"];
        allowed.extend(players.iter().map(|p| p.name.as_str()));
        t.check_keys(
            &format!("[zones.{name}]"),
            &allowed,
            &|_| false,
            &mut self.diags,
        );
        let mark = match t.get("mark") {
            Some(n) => {
                let s = self.str(n, "a zone's mark")?;
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c),
                    _ => {
                        self.err(n.loc, "a zone's mark is one character");
                        None
                    }
                }
            }
            None => None,
        };
        let owned: Vec<&PlayerSpec> = players
            .iter()
            .filter(|p| t.get(&p.name).is_some())
            .collect();
        let cells = match (t.get("cells"), owned.is_empty()) {
            (Some(n), true) => {
                ZoneCells::Shared(self.cells(n, g).into_iter().map(|(c, _)| c).collect())
            }
            (None, false) => {
                let mut parts = [CellSet::EMPTY; PLAYERS];
                for (i, p) in players.iter().enumerate() {
                    if let Some(n) = t.get(&p.name) {
                        parts[i] = self.cells(n, g).into_iter().map(|(c, _)| c).collect();
                    }
                }
                ZoneCells::Owned(parts)
            }
            (Some(n), false) => {
                self.err(
                    n.loc,
                    format!(
                        "zone `{name}` has both `cells` and cells per player; give one or the other"
                    ),
                );
                return None;
            }
            (None, true) => {
                self.err(
                    node.loc,
                    format!(
                        "zone `{name}` has no cells: give `cells = \"...\"` or cells per player"
                    ),
                );
                return None;
            }
        };
        let mut zone = ZoneSpec::new(name, cells);
        zone.mark = mark;
        Some(zone)
    }
}
