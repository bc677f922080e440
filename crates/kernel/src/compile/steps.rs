//! Plain steps as bitboards.
//!
//! Most destinations of most pieces are *plain*: a step (or an unblockable jump) whose every
//! predicate was compiled into tables at load time, so that whether it is legal depends only on
//! whether the destination is empty, and if not, on the capture table. Walking such targets one
//! by one costs a load and a branch per destination, most of which come to nothing (a wall of
//! own pieces, an edge). On a board of at most 64 cells, the plain targets of one pattern from
//! one cell are instead two masks, one for quiet moves and one for captures, so that the quiet
//! moves are `mask & empty` and the capture candidates `mask & enemy`, as a hand-written
//! bitboard engine does. The capture table is still consulted for each candidate: its row is
//! found from the cell classes, so no per-destination record is needed.
//!
//! The remaining targets (jumps that can be blocked, hops, patterns whose predicates read the
//! position) stay in the per-cell target lists and are walked as before. Wider boards keep every
//! target in the lists.

use crate::cell::MAX_CELLS;
use crate::tables::*;

/// Moves the plain targets of every slot into step groups, when the board is narrow enough,
/// and returns the other targets, the slots by piece code and cell, and the groups.
/// `index` is `(start, len)` into `targets` by `piece code * stride + cell`; `class` gives the
/// capture-table class of each cell and `cap_at` the table layout of each move pattern.
pub(crate) fn group(
    targets: Vec<Target>,
    index: &[(u32, u16)],
    cap_at: &[CapLayout],
    class: &[u16],
    stride: usize,
) -> (Vec<Target>, Vec<[Slot; MAX_CELLS]>, Vec<StepGroup>) {
    let narrow = stride <= MASK_CELLS;
    let mut rest = Vec::with_capacity(targets.len());
    let mut slots = vec![[Slot::default(); MAX_CELLS]; index.len().div_ceil(stride)];
    let mut groups: Vec<StepGroup> = Vec::new();
    for (i, &(start, len)) in index.iter().enumerate() {
        let (piece, from) = (i / stride, i % stride);
        let list = &targets[start as usize..start as usize + len as usize];
        let group_start = groups.len();
        let rest_start = rest.len();
        for t in list {
            if !narrow || !is_plain(t) {
                rest.push(*t);
                continue;
            }
            let bit = 1u64 << t.to;
            let found = groups[group_start..]
                .iter()
                .position(|g| g.rule == t.rule)
                .map(|k| group_start + k);
            let g = match found {
                Some(k) => &mut groups[k],
                None => {
                    groups.push(new_group(t.rule, piece, from, cap_at, class));
                    groups.last_mut().expect("just pushed")
                }
            };
            if (g.quiet | g.capture) & bit != 0 {
                // Two targets of one pattern on one destination: keep the second listed.
                rest.push(*t);
                continue;
            }
            if t.flags & QUIET != 0 {
                g.quiet |= bit;
            }
            if t.flags & CAPTURE != 0 {
                g.capture |= bit;
            }
        }
        let listed = &rest[rest_start..];
        let hops_only = narrow && listed.iter().all(is_table_hop);
        slots[piece][from] = Slot {
            first: groups.get(group_start).copied().unwrap_or_default(),
            hopped: listed.iter().fold(0, |m, t| m | 1u64 << (t.over & 63)),
            hops_only,
            more: groups.len() - group_start > 1 || rest.len() > rest_start,
            start: rest_start as u32,
            group_start: group_start as u32,
            len: (rest.len() - rest_start) as u16,
            groups: (groups.len() - group_start) as u16,
        };
    }
    (rest, slots, groups)
}

fn new_group(
    rule: u8,
    piece: usize,
    from: usize,
    cap_at: &[CapLayout],
    class: &[u16],
) -> StepGroup {
    let (cap_from, cap_class, cap_piece) = match cap_at[rule as usize] {
        // For a step or jump the hopped-over cell is the destination: both class strides add.
        Some((at, s)) => (
            (at + piece * s[0] + class[from] as usize * s[1]) as u32,
            (s[3] + s[4]) as u32,
            s[2] as u32,
        ),
        None => (0, 0, 0),
    };
    StepGroup {
        rule,
        cap_from,
        cap_class,
        cap_piece,
        ..StepGroup::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::STEP;

    fn target(to: u16, rule: u8, flags: u8) -> Target {
        Target {
            to,
            over: 0,
            rule,
            kind: STEP,
            dir: 0,
            jumped_len: 0,
            jumped_start: 0,
            flags,
            cap_base: 0,
            cap_stride: 0,
            pass_only: false,
        }
    }

    #[test]
    fn plain_targets_become_masks_and_the_rest_stays_listed() {
        let targets = vec![
            target(1, 0, QUIET | CAPTURE),
            target(2, 0, QUIET),
            target(3, 1, CAPTURE),
            target(4, 1, QUIET | SLOW),
            target(3, 1, CAPTURE),
        ];
        let (rest, slots, groups) = group(targets, &[(0, 5)], &[None, None], &[0; 8], 8);
        assert_eq!(groups.len(), 2);
        assert_eq!((groups[0].quiet, groups[0].capture), (0b110, 0b10));
        assert_eq!((groups[1].quiet, groups[1].capture), (0, 0b1000));
        assert_eq!(rest.iter().map(|t| t.to).collect::<Vec<_>>(), vec![4, 3]);
        assert_eq!((slots[0][0].len, slots[0][0].groups), (2, 2));
        assert_eq!(slots[0][0].first.quiet, groups[0].quiet);
        // A listed step is not a hop: the piece must look at its listed targets even with no
        // enemy on the board.
        assert!(!slots[0][0].hops_only);
        assert!(slots[0][0].more);
        // One pattern of plain steps and nothing else: the inline group is all there is.
        let (_, slots, _) = group(vec![target(1, 0, QUIET)], &[(0, 1)], &[None], &[0; 8], 8);
        assert!(!slots[0][0].more);
        assert_eq!(slots[0][0].first.quiet, 0b10);
    }

    #[test]
    fn a_slot_of_table_hops_knows_the_cells_it_hops_over() {
        let hop = |to: u16, over: u16| Target {
            over,
            kind: HOP,
            flags: HOPS | CAPTURE,
            ..target(to, 0, 0)
        };
        let (_, slots, _) = group(
            vec![hop(2, 1), hop(16, 8)],
            &[(0, 2)],
            &[None],
            &[0; 64],
            64,
        );
        assert!(slots[0][0].hops_only);
        assert_eq!(slots[0][0].hopped, 1 << 1 | 1 << 8);
    }

    #[test]
    fn wide_boards_keep_every_target_listed() {
        let targets = vec![target(1, 0, QUIET)];
        let (rest, slots, groups) = group(targets, &[(0, 1)], &[None], &[0; 100], 100);
        assert!(groups.is_empty());
        assert_eq!((rest.len(), slots[0][0].len, slots[0][0].groups), (1, 1, 0));
    }
}
