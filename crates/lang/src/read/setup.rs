//! `[setup.*]`: the starting position, kinds to cells for each player.

use super::reader::Reader;
use crate::diag::Diagnostic;
use crate::tree::Table;
use ply_kernel::spec::{KindSpec, PlayerSpec};
use ply_kernel::{Cell, Geometry, KindId, Piece, Player};

impl Reader<'_> {
    /// The pieces of the setup, each with its cell.
    pub(super) fn setup(
        &mut self,
        setup_t: &Table,
        players: &[PlayerSpec],
        kinds: &[KindSpec],
        geometry: &Geometry,
    ) -> Vec<(Piece, Cell)> {
        let mut setup = Vec::new();
        for (pname, e) in &setup_t.entries {
            let Some(p) = players.iter().position(|x| x.name == *pname) else {
                self.diags.push(
                    Diagnostic::error(Some(e.key_loc), format!("`{pname}` is not a player"))
                        .suggest(pname, players.iter().map(|p| p.name.as_str())),
                );
                continue;
            };
            let Some(t) = self.table(&e.node, &format!("[setup.{pname}]")) else {
                continue;
            };
            for (kname, ke) in &t.entries {
                let Some(k) = kinds.iter().position(|k| k.name == *kname) else {
                    self.diags.push(
                        Diagnostic::error(
                            Some(ke.key_loc),
                            format!("`{kname}` is not a kind of piece"),
                        )
                        .label("unknown piece")
                        .suggest(kname, kinds.iter().map(|k| k.name.as_str())),
                    );
                    continue;
                };
                let (Some(k), Some(p)) = (KindId::new(k), Player::new(p)) else {
                    continue;
                };
                for (cell, loc) in self.cells(&ke.node, geometry) {
                    setup.push((Piece::new(k, p), cell));
                    self.locs.setup.push(loc);
                }
            }
        }
        setup
    }
}
