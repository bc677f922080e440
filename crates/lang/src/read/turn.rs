//! `[turn]`: turns of several moves. After a move the same player moves again while the turn
//! has moves left and `again` holds on the position the move left; the moves of a turn read
//! `turn_moves` and `moved_this_turn(...)` to tell a turn's later moves from its first.

use super::reader::Reader;
use crate::check::{AGAIN, Checker, Ty};
use crate::tree::Table;
use ply_kernel::spec::TurnSpec;

impl Reader<'_> {
    /// The turns of several moves, if the pack has a `[turn]` section.
    pub(super) fn turn(
        &mut self,
        top: &Table,
        turn_t: &Table,
        checker: &mut Checker,
    ) -> Option<TurnSpec> {
        let entry = top.entries.get("turn")?;
        turn_t.check_keys("[turn]", &["moves", "again"], &|_| false, &mut self.diags);
        let Some(moves_node) = turn_t.get("moves") else {
            self.err(
                entry.key_loc,
                "[turn] needs `moves`, the most moves a turn has (`moves = 2`)",
            );
            return None;
        };
        let most = ply_kernel::MAX_TURN_MOVES as i64;
        let moves = self.int(moves_node, "`moves`");
        // `again` is checked whatever `moves` says, so that one run reports both.
        let again = turn_t.get("again").map(|node| {
            self.parse_expr(node, "the turn's `again`")
                .and_then(|(ast, text)| checker.check(&ast, text, &AGAIN, Ty::Bool))
        });
        let moves = moves?;
        if !(2..=most).contains(&moves) {
            self.err(
                moves_node.loc,
                format!("a turn has from 2 to {most} moves, not {moves}"),
            );
            return None;
        }
        let again = match again {
            Some(e) => Some(e?),
            None => None,
        };
        Some(TurnSpec::new(moves as u8, again))
    }
}
