//! Royal pieces: a kind whose pieces may never be left attacked. Its checks, its tables
//! (where each cell can be attacked from, built from the pieces' own compiled captures in
//! [`tables`]), and the one meaning of an attack.
//!
//! An attack has one meaning: a capture the attacker's compiled targets allow onto the cell,
//! tested on a board, so that the legality of a move, the safety of a compound move's path,
//! `in_check` and `attacked` in expressions all ask the same question. Royal pieces add no
//! moves and no part of make: what they add is the test of legality (`position/legal.rs`),
//! which [`State::exposes_fast`] decides from the tables where it can.

pub(crate) mod tables;

use super::Construct;
use crate::cell::{Cell, CellSet, MAX_CELLS};
use crate::facts::Core;
use crate::moves::Move;
use crate::piece::Player;
use crate::position::State;
use crate::rules::Rules;
use crate::spec::{RulesError, RulesSpec, Site};
use crate::tables::{BLOCKABLE, HOP, JUMP, SLIDE, Shape, bit};

/// The royal construct.
pub(crate) struct Royal;

impl Construct for Royal {
    const NAME: &'static str = "royal pieces";
    #[cfg(test)]
    const SYNTAX: &'static str = "royal = true";

    fn check(spec: &RulesSpec, core: &Core, report: &mut dyn FnMut(Site, String)) {
        let royal: Vec<usize> = (0..spec.kinds.len())
            .filter(|&k| spec.kinds[k].royal)
            .collect();
        if royal.len() > 1 {
            report(
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
                    report(
                        Site::Kind(k),
                        format!(
                            "{} is royal, but {} has none in the setup",
                            spec.kinds[k].name,
                            core.player_name(p)
                        ),
                    );
                }
            }
        }
    }

    fn build(rules: &mut Rules, spec: &RulesSpec) -> Result<(), Vec<RulesError>> {
        for (k, kind) in spec.kinds.iter().enumerate() {
            if kind.royal {
                for p in Player::ALL {
                    rules.royal[p.slot()] =
                        crate::piece::Piece::new(crate::piece::KindId(k as u8), p).0;
                }
            }
        }
        if Royal::used(rules) {
            rules.attacks = tables::attacks(rules).map_err(|(kind, message, problem)| {
                vec![RulesError::new(Site::Kind(kind.index()), message, problem)]
            })?;
        }
        Ok(())
    }

    #[inline(always)]
    fn used(rules: &Rules) -> bool {
        rules.royal.iter().any(|&r| r != 0)
    }
}

/// An attack found by a step group: the attacker on `from` is enough.
pub(crate) const PLAIN: u8 = 0;
/// An attack by a listed target, whose path is checked on the board.
pub(crate) const LISTED: u8 = 1;

/// One way a cell can be attacked: the attacker `code` on `from`, by `target`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct AttackEntry {
    pub from: u16,
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
    pub cell: u16,
    pub direct: u128,
    pub screen: u128,
}

/// What the legality of every move of one generation needs: the royal piece's cell, and
/// whether it is attacked now.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RoyalCtx {
    pub royal: Cell,
    pub in_check: bool,
}

impl crate::Position {
    /// The cells of `player`'s royal pieces that are attacked (in check), in cell order; empty
    /// when the rules have no royal kind. An attack has the one meaning legality gives it: a
    /// capture an enemy piece's own patterns allow onto the cell, whoever is to move and
    /// whether or not that capture would be legal.
    pub fn attacked_royals(&self, player: Player) -> Vec<Cell> {
        let rules = self.rules();
        self.state
            .royal_cells(rules, player)
            .filter(|&c| attacked_on(rules, &self.state.board, c, player))
            .collect()
    }
}

impl State {
    /// The cells of `side`'s royal pieces (none when the rules have no royal kind).
    pub(crate) fn royal_cells(&self, rules: &Rules, side: Player) -> impl Iterator<Item = Cell> {
        let r = rules.royal[side.slot()];
        let board = &self.board;
        self.occupied[side.slot()]
            .iter()
            .filter(move |c| r != 0 && board[c.index()] == r)
    }

    /// Whether some royal piece of `side` is attacked (false when it has none).
    pub(crate) fn in_check(&self, rules: &Rules, side: Player) -> bool {
        self.royal_cells(rules, side)
            .any(|k| attacked_on(rules, &self.board, k, side))
    }

    /// What the table tests of royal safety need, when `side` has exactly one royal piece.
    pub(crate) fn royal_ctx(&self, rules: &Rules, side: Player) -> Option<RoyalCtx> {
        let mut cells = self.royal_cells(rules, side);
        let royal = cells.next()?;
        if cells.next().is_some() {
            return None;
        }
        Some(RoyalCtx {
            royal,
            in_check: attacked_on(rules, &self.board, royal, side),
        })
    }

    /// Whether move `m` of `side` (generated, not made) would leave its one royal piece
    /// attacked, decided from the tables and a copy of the board when the move changes no
    /// more than its origin, its destination, a compound partner and a passing victim and
    /// leaves the royal piece royal; `None` for the others, which the reference decides by
    /// making them (`legal.rs`).
    pub(crate) fn exposes_fast(
        &self,
        rules: &Rules,
        m: Move,
        side: Player,
        ctx: &RoyalCtx,
    ) -> Option<bool> {
        if m.hops() != 0
            || m.second().is_some()
            || m.removal().is_some()
            || !rules.effects.is_empty()
        {
            return None;
        }
        let royal_code = rules.royal[side.slot()];
        let at = side.slot() * rules.stride + ctx.royal.index();
        if m.is_pass() {
            return Some(ctx.in_check);
        }
        if m.is_placement() {
            // A placed piece only blocks, but as a screen, and never captures.
            let placed = State::placed_code(rules, m.rule(), side);
            if placed == royal_code || ctx.in_check || rules.attacks.fill[at].contains(m.to()) {
                return None;
            }
            return Some(false);
        }
        let from = m.from();
        let pc = self.board[from.index()];
        let royal_moves = pc == royal_code;
        let after = if royal_moves || m.choice_code().is_some() || !rules.promote.is_empty() {
            m.choice_code().unwrap_or_else(|| {
                rules
                    .promote
                    .get(pc as usize * rules.stride + m.to().index())
                    .copied()
                    .unwrap_or(pc)
            })
        } else {
            pc
        };
        if (after == royal_code) != royal_moves {
            return None;
        }
        let partner = m.compound_partner();
        if partner.is_some_and(|p| self.board[p.index()] == royal_code) {
            return None;
        }
        let victim = m.ghost_victim();
        if !ctx.in_check
            && !royal_moves
            && partner.is_none()
            && victim.is_none()
            && !rules.attacks.vacate[at].contains(from)
            && !rules.attacks.fill[at].contains(m.to())
        {
            return Some(false);
        }
        let mut b = self.board;
        b[from.index()] = 0;
        if let Some(p) = partner {
            let code = b[p.index()];
            b[p.index()] = 0;
            if let Shape::Compound(i) = rules.moves[m.rule() as usize].shape {
                b[rules.compounds[i as usize].partner_to[side.slot()].index()] = code;
            }
        }
        if let Some(v) = victim {
            b[v.index()] = 0;
        }
        b[m.to().index()] = after;
        let royal = if royal_moves { m.to() } else { ctx.royal };
        Some(attacked_on(rules, &b, royal, side))
    }
}

/// Whether `cell` is attacked, on `board`, by the enemies of `victim`: some enemy piece could
/// capture a royal piece of `victim` there.
pub(crate) fn attacked_on(
    rules: &Rules,
    board: &[u8; MAX_CELLS],
    cell: Cell,
    victim: Player,
) -> bool {
    let a = &rules.attacks;
    let at = victim.slot() * rules.stride + cell.index();
    let Some(&(start, end)) = a.ranges.get(at) else {
        return false;
    };
    // Slides, along each ray out of the cell: the first piece met attacks directly, the
    // second over a screen.
    for &(first, last) in &a.rays[at] {
        let mut screened = false;
        for rc in &a.ray_cells[first as usize..last as usize] {
            let code = board[rc.cell as usize];
            if code == 0 {
                continue;
            }
            let bit = 1u128.checked_shl(code as u32).unwrap_or(0);
            if screened {
                if rc.screen & bit != 0 {
                    return true;
                }
                break;
            }
            if rc.direct & bit != 0 {
                return true;
            }
            screened = true;
        }
    }
    for e in &a.entries[start as usize..end as usize] {
        if board[e.from as usize] != e.code {
            continue;
        }
        if e.how == PLAIN {
            return true;
        }
        debug_assert_eq!(e.how, LISTED);
        let t = &rules.targets[e.target as usize];
        let start = t.jumped_start as usize;
        let passed = &rules.jumped[start..start + t.jumped_len as usize];
        let hit = match t.kind {
            // A far hop crosses only empty cells on its way.
            HOP => board[t.to as usize] == 0 && passed.iter().all(|j| board[j.cell as usize] == 0),
            SLIDE => {
                let m = &rules.moves[t.rule as usize];
                let owner = State::owner_of(e.code);
                let pieces = passed
                    .iter()
                    .filter(|j| {
                        let occ = board[j.cell as usize];
                        occ != 0 && !(m.over_own && State::owner_of(occ) == owner)
                    })
                    .count();
                let screen = m.screen;
                pieces == usize::from(screen)
            }
            JUMP if t.flags & BLOCKABLE != 0 => !passed.iter().any(|j| {
                bit(
                    &rules.block_bits,
                    j.block_base as usize + board[j.cell as usize] as usize,
                )
            }),
            _ => true,
        };
        if hit {
            return true;
        }
    }
    false
}
