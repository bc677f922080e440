//! The backward attack tables on royal pieces, built from the compiled targets after everything
//! else, so that an attack is exactly a capture the pieces' own tables allow.
//!
//! An attack on a cell is looked up backwards: for each cell and each victim, the list of
//! (origin, attacker code, target) whose capture lands there, each already cleared by the
//! capture tables for the victim's royal piece. Testing an attack is then a walk over that
//! list reading only the board: the attacker on its origin, and the path of a slide, the leg
//! of a leap, the landing cell of a hop.

use super::{AttackEntry, Attacks, LISTED, PLAIN, RayCell};
use crate::cell::{Cell, CellSet};
use crate::construct::{codes_of, groups, listed};
use crate::limits::MAX_TABLE_BITS;
use crate::piece::{PLAYERS, Player};
use crate::rules::Rules;
use crate::tables::{BLOCKABLE, CAPTURE, HOP, SLIDE, SLOW, bit};

/// The backward attack tables on the royal pieces, or the first attacking target whose
/// conditions read the position (an attack could not be decided from the board alone).
pub(crate) fn attacks(
    rules: &Rules,
) -> Result<Attacks, (crate::KindId, String, crate::spec::Problem)> {
    let g = rules.geometry();
    let stride = rules.stride;
    let mut per: Vec<Vec<AttackEntry>> = vec![Vec::new(); PLAYERS * stride];
    let mut vacate = vec![CellSet::EMPTY; PLAYERS * stride];
    let mut fill = vec![CellSet::EMPTY; PLAYERS * stride];
    let mut slides: Vec<Vec<(crate::geometry::Dir, usize, u8, bool)>> =
        vec![Vec::new(); PLAYERS * stride];
    for victim in Player::ALL {
        let royal = rules.royal[victim.slot()];
        if royal == 0 {
            continue;
        }
        for code in codes_of(rules, victim.other()) {
            for from in g.cells().iter() {
                for grp in groups(rules, code as usize, from.index()) {
                    let mut caps = grp.capture;
                    while caps != 0 {
                        let x = caps.trailing_zeros() as usize;
                        caps &= caps - 1;
                        let i = grp.cap_from
                            + rules.cell_class[x] as u32 * grp.cap_class
                            + royal as u32 * grp.cap_piece;
                        if bit(&rules.cap_bits, i as usize) {
                            per[victim.slot() * stride + x].push(AttackEntry {
                                from: from.0,
                                code,
                                how: PLAIN,
                                target: 0,
                            });
                        }
                    }
                }
                for (ti, t) in listed(rules, code as usize, from.index()) {
                    if t.flags & CAPTURE == 0 || t.pass_only {
                        continue;
                    }
                    let allowed = bit(
                        &rules.cap_bits,
                        (t.cap_base + royal as u32 * t.cap_stride) as usize,
                    );
                    if !allowed {
                        continue;
                    }
                    if t.flags & SLOW != 0 {
                        let m = &rules.moves[t.rule as usize];
                        if m.capture.untabulated > 0 {
                            return Err((
                                m.kind,
                                format!(
                                    "`{}` of {} captures under a condition on the cells involved whose table would need {} entries, past the compiler's limit of {MAX_TABLE_BITS} (`MAX_TABLE_BITS`); whether a royal piece is attacked is read from such tables: let the condition tell fewer cells apart",
                                    m.text,
                                    rules.kind_name(m.kind),
                                    m.capture.untabulated
                                ),
                                crate::spec::Problem::Limit {
                                    limit: "MAX_TABLE_BITS",
                                    max: MAX_TABLE_BITS,
                                    found: m.capture.untabulated,
                                },
                            ));
                        }
                        if !m.capture.dynamic.is_empty() || !m.dynamic_enter.is_empty() {
                            return Err((
                                m.kind,
                                format!(
                                    "`{}` of {} captures under a condition that reads the position, so whether a royal piece is attacked cannot be read from the board",
                                    m.text,
                                    rules.kind_name(m.kind)
                                ),
                                crate::spec::Problem::Invalid,
                            ));
                        }
                    }
                    let x = if t.kind == HOP { t.over } else { t.to } as usize;
                    let at = victim.slot() * stride + x;
                    // A slide over its own pieces depends on whose the passed pieces are: it is
                    // listed, and its passed cells read one by one.
                    if t.kind == SLIDE && !rules.moves[t.rule as usize].over_own {
                        // Seen from the attacked cell: the way back to the origin.
                        let back = crate::geometry::Dir::from_index(t.dir).opposite();
                        let k = t.jumped_len as usize;
                        let screen = rules.moves[t.rule as usize].screen;
                        slides[at].push((back, k, code, screen));
                    } else {
                        per[at].push(AttackEntry {
                            from: from.0,
                            code,
                            how: LISTED,
                            target: ti as u32,
                        });
                    }
                    let start = t.jumped_start as usize;
                    for j in &rules.jumped[start..start + t.jumped_len as usize] {
                        vacate[at].insert(Cell(j.cell));
                        // A piece arriving on a screen, or on a cell a blocking condition
                        // reads (`unless occupant has swimmer`), may open the attack.
                        // So may a piece of the attacker's side arriving where a slide passes its
                        // own pieces.
                        let m = &rules.moves[t.rule as usize];
                        if m.screen || m.over_own || t.flags & BLOCKABLE != 0 {
                            fill[at].insert(Cell(j.cell));
                        }
                    }
                    if t.kind == HOP {
                        vacate[at].insert(Cell(t.to));
                    }
                }
            }
        }
    }
    let mut out = Attacks {
        vacate,
        fill,
        ..Attacks::default()
    };
    for (at, mut list) in per.into_iter().enumerate() {
        // Plain attacks first: one load decides them.
        list.sort_by_key(|e| e.how);
        let start = out.entries.len() as u32;
        out.entries.extend(list);
        out.ranges.push((start, out.entries.len() as u32));
        let x = Cell((at % stride) as u16);
        let mut rays = Vec::new();
        for d in crate::geometry::Dir::ALL {
            let mine: Vec<_> = slides[at].iter().filter(|s| s.0 == d).collect();
            if mine.is_empty() {
                continue;
            }
            let first = out.ray_cells.len() as u32;
            let mut cur = x;
            let mut k = 0;
            while let Some(next) = g.neighbour(cur, d) {
                let mut rc = RayCell {
                    cell: next.0,
                    ..RayCell::default()
                };
                for &&(_, dist, code, screen) in &mine {
                    if dist == k {
                        let bit = 1u128.checked_shl(code as u32).unwrap_or(0);
                        if screen {
                            rc.screen |= bit;
                        } else {
                            rc.direct |= bit;
                        }
                    }
                }
                out.ray_cells.push(rc);
                cur = next;
                k += 1;
            }
            rays.push((first, out.ray_cells.len() as u32));
        }
        out.rays.push(rays);
    }
    Ok(out)
}
