//! Tables for royal pieces, compound moves, choices of promotion and captures of a piece that
//! has just passed: built from the compiled targets, after everything else, so that an attack
//! is exactly a capture the pieces' own tables allow.
//!
//! An attack on a cell is looked up backwards: for each cell and each victim, the list of
//! (origin, attacker code, target) whose capture lands there, each already cleared by the
//! capture tables for the victim's royal piece. Testing an attack is then a walk over that
//! list reading only the board: the attacker on its origin, and the path of a slide, the leg
//! of a leap, the landing cell of a hop.

use crate::cell::{Cell, CellSet};
use crate::geometry::Geometry;
use crate::piece::{PLAYERS, Piece, Player};
use crate::rules::Rules;
use crate::tables::{BLOCKABLE, CAPTURE, HOP, SLIDE, SLOW, Target, bit};

/// An attack found by a step group: the attacker on `from` is enough.
pub(crate) const PLAIN: u8 = 0;
/// An attack by a listed target, whose path is checked on the board.
pub(crate) const LISTED: u8 = 1;

/// One way a cell can be attacked: the attacker `code` on `from`, by `target`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttackEntry {
    pub from: u8,
    pub code: u8,
    pub how: u8,
    /// For [`LISTED`]: the index of the target in [`Rules::targets`].
    pub target: u32,
}

/// The backward attack tables, by victim player and cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Attacks {
    /// By `victim * stride + cell`: the range of its entries.
    pub ranges: Vec<(u32, u32)>,
    pub entries: Vec<AttackEntry>,
    /// By `victim * stride + cell`: cells whose emptying can open an attack on the cell (the
    /// paths of slides, the legs of leaps, the landings of hops).
    pub vacate: Vec<CellSet>,
    /// By `victim * stride + cell`: cells whose filling can open an attack (screens).
    pub fill: Vec<CellSet>,
    /// By `victim * stride + cell`: the rays out of the cell along which slides attack it,
    /// a range of [`Attacks::ray_cells`].
    pub rays: Vec<Vec<(u32, u32)>>,
    /// Cells of rays, nearest first: the cell, and the codes that attack from there with
    /// nothing between (`direct`) or over exactly one screen (`screen`), as bit masks.
    pub ray_cells: Vec<RayCell>,
}

/// A cell on a ray out of an attacked cell.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RayCell {
    pub cell: u8,
    pub direct: u128,
    pub screen: u128,
}

/// How a piece with a choice of promotion promotes: where, and into which codes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Choice {
    pub zone: CellSet,
    pub codes: Vec<u8>,
}

/// A compiled compound move: codes and cells by player.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Compound {
    pub mover: [u8; PLAYERS],
    pub partner: [u8; PLAYERS],
    pub dir: [crate::geometry::Dir; PLAYERS],
    pub mover_to: [Cell; PLAYERS],
    pub partner_to: [Cell; PLAYERS],
    /// Its pattern, in [`Rules::moves`].
    pub rule: u8,
}

/// A capture onto a cell an enemy piece has just passed: the capturer `code` on `from`, by
/// pattern `rule`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GhostEntry {
    pub from: u8,
    pub code: u8,
    pub rule: u8,
}

/// Every listed target of `code` from `from`, with its index.
fn listed(rules: &Rules, code: usize, from: usize) -> impl Iterator<Item = (usize, &Target)> {
    let slot = &rules.slots[code][from];
    let start = slot.start as usize;
    rules.targets[start..start + slot.len as usize]
        .iter()
        .enumerate()
        .map(move |(i, t)| (start + i, t))
}

/// The step groups of `code` from `from`.
fn groups(rules: &Rules, code: usize, from: usize) -> &[crate::tables::StepGroup] {
    let slot = &rules.slots[code][from];
    let start = slot.group_start as usize;
    &rules.groups[start..start + slot.groups as usize]
}

/// The codes of the pieces of `player`.
fn codes_of(rules: &Rules, player: Player) -> impl Iterator<Item = u8> + '_ {
    rules.kinds().map(move |k| Piece::new(k, player).0)
}

/// The backward attack tables on the royal pieces, or the first attacking target whose
/// conditions read the position (an attack could not be decided from the board alone).
pub(crate) fn attacks(rules: &Rules) -> Result<Attacks, (crate::KindId, String)> {
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
                        if !m.capture.dynamic.is_empty() || !m.dynamic_enter.is_empty() {
                            return Err((
                                m.kind,
                                format!(
                                    "`{}` of {} captures under a condition that reads the position, so whether a royal piece is attacked cannot be read from the board",
                                    m.text,
                                    rules.kind_name(m.kind)
                                ),
                            ));
                        }
                    }
                    let x = if t.kind == HOP { t.over } else { t.to } as usize;
                    let at = victim.slot() * stride + x;
                    if t.kind == SLIDE {
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
                        if rules.moves[t.rule as usize].screen || t.flags & BLOCKABLE != 0 {
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
        let x = Cell((at % stride) as u8);
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

/// The cells strictly between `a` and `b` when they are on one line of the board (a row, a
/// column or a diagonal); empty otherwise.
pub(crate) fn between(g: &Geometry, a: Cell, b: Cell) -> arrayvec::ArrayVec<Cell, 16> {
    let (ra, ca) = (g.row(a) as i64, g.col(a) as i64);
    let (rb, cb) = (g.row(b) as i64, g.col(b) as i64);
    let (dr, dc) = (rb - ra, cb - ca);
    let n = dr.abs().max(dc.abs());
    if n == 0 || n > 16 || (dr != 0 && dc != 0 && dr.abs() != dc.abs()) {
        return arrayvec::ArrayVec::new();
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    (1..n)
        .filter_map(|i| g.cell(ra + sr * i, ca + sc * i))
        .collect()
}

impl super::Compiler<'_> {
    /// Checks royal kinds, compound moves, choices of promotion and passing captures.
    pub(crate) fn check_special(&mut self) {
        use crate::spec::{Pattern, Site};
        let spec = self.spec;
        let g = &self.core.geometry;
        let royal: Vec<usize> = (0..spec.kinds.len())
            .filter(|&k| spec.kinds[k].royal)
            .collect();
        if royal.len() > 1 {
            self.error(
                Site::Kind(royal[1]),
                format!(
                    "only one kind may be royal; {} already is",
                    spec.kinds[royal[0]].name
                ),
            );
        }
        if let Some(&k) = royal.first() {
            for p in Player::ALL {
                let there = spec
                    .setup
                    .iter()
                    .any(|(piece, _)| piece.kind().index() == k && piece.owner() == p);
                if !there {
                    self.error(
                        Site::Kind(k),
                        format!(
                            "{} is royal, but {} has none in the setup",
                            spec.kinds[k].name,
                            self.core.player_name(p)
                        ),
                    );
                }
            }
        }
        for (k, kind) in spec.kinds.iter().enumerate() {
            for (mi, m) in kind.moves.iter().enumerate() {
                if m.leaves_ghost && !matches!(m.pattern, Pattern::Slide { .. }) {
                    self.error(
                        Site::Move(k, mi),
                        "only a slide passes cells that can stay open to capture (`leaves ghost`)",
                    );
                }
                if m.takes_ghost && m.mode == crate::spec::CaptureMode::Quiet {
                    self.error(
                        Site::Move(k, mi),
                        "a quiet pattern cannot capture a passing piece (`takes ghost`)",
                    );
                }
            }
            if let Some(p) = &kind.promotion
                && p.choices.len() > 1
                && p.choices.iter().any(|c| c.index() >= spec.kinds.len())
            {
                self.error(Site::Kind(k), "a promotion choice names no kind");
            }
        }
        for (i, c) in spec.compounds.iter().enumerate() {
            if c.mover == c.partner {
                self.error(
                    Site::Compound(i),
                    "the mover and its partner must be of different kinds",
                );
            }
            for cell in c.mover_to.iter().chain(&c.partner_to) {
                if !g.contains(*cell) {
                    self.error(Site::Compound(i), "a destination is not on the board");
                }
            }
            for p in 0..PLAYERS {
                if c.mover_to[p] == c.partner_to[p] {
                    self.error(
                        Site::Compound(i),
                        "the mover and its partner cannot end on the same cell",
                    );
                }
            }
        }
    }
}
