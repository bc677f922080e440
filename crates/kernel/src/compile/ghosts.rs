//! The captures of a piece that has just passed a cell (`takes ghost`), by capturing player
//! and cell, from the compiled targets.

use super::attacks::{codes_of, groups, listed};
use crate::constructs::GhostEntry;
use crate::piece::{PLAYERS, Player};
use crate::rules::Rules;
use crate::tables::{CAPTURE, HOP, SLIDE};

/// By capturing player and cell: the captures onto that cell, were an enemy piece to have
/// just passed it.
pub(crate) fn ghost_entries(rules: &Rules) -> Vec<Vec<GhostEntry>> {
    let g = rules.geometry();
    let stride = rules.stride;
    let mut per = vec![Vec::new(); PLAYERS * stride];
    for player in Player::ALL {
        for code in codes_of(rules, player) {
            for from in g.cells().iter() {
                for grp in groups(rules, code as usize, from.index()) {
                    if !rules.moves[grp.rule as usize].takes_ghost {
                        continue;
                    }
                    let mut caps = grp.capture;
                    while caps != 0 {
                        let x = caps.trailing_zeros() as usize;
                        caps &= caps - 1;
                        per[player.slot() * stride + x].push(GhostEntry {
                            from: from.0,
                            code,
                            rule: grp.rule,
                        });
                    }
                }
                for (_, t) in listed(rules, code as usize, from.index()) {
                    if rules.moves[t.rule as usize].takes_ghost
                        && t.flags & CAPTURE != 0
                        && t.kind != HOP
                        && t.kind != SLIDE
                        && !t.pass_only
                    {
                        per[player.slot() * stride + t.to as usize].push(GhostEntry {
                            from: from.0,
                            code,
                            rule: t.rule,
                        });
                    }
                }
            }
        }
    }
    per
}
