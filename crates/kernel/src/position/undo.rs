//! Undo records, and the rule profiles that make and unmake are compiled for.

use crate::limits::MAX_HOPS;
use crate::piece::{PLAYERS, Player};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
/// What [`crate::Position::make_unchecked`] returns so that [`crate::Position::unmake_unchecked`]
/// can restore the position.
pub struct Undo {
    pub(crate) step: StepUndo,
    /// For a hop chain, the pieces hopped after the first (which is `step.captured()`).
    pub(crate) hopped: [u8; HOPPED],
}

/// Room for the pieces a chain hops after its first: `MAX_HOPS - 1`, rounded up to whole
/// words so that the record has no padding, and a copy of it reads back only bytes that were
/// written as whole words.
pub(crate) const HOPPED: usize = (MAX_HOPS - 1).next_multiple_of(8);

impl Undo {
    /// The piece the `i`-th hop of a chain took.
    #[inline]
    pub(super) fn hopped(&self, i: usize) -> u8 {
        match i {
            0 => self.step.captured(),
            _ => self.hopped[i - 1],
        }
    }

    #[inline]
    pub(super) fn set_hopped(&mut self, i: usize, piece: u8) {
        match i {
            0 => self.step.set_captured(piece),
            _ => self.hopped[i - 1] = piece,
        }
    }
}

/// What unmake needs after a step or a jump: the key, and in one word the clocks, the moving
/// and the captured piece and the count verdicts. Sixteen bytes, so that a make and unmake
/// pair in a loop keeps it in registers; and two whole words, so that a record kept in memory
/// (across a search's recursion, or behind `black_box`) is written and read back word for
/// word, which the processor forwards from store to load, rather than byte for byte into
/// words, which it cannot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepUndo {
    pub(super) hash: u64,
    /// Clock (bits 0..16), idle clock (16..32), piece (32..40), captured piece (40..48), count
    /// verdicts by player (48..56, 56..64).
    pub(super) word: u64,
}

const _: () = assert!(PLAYERS == 2, "StepUndo packs one count verdict per player");

impl StepUndo {
    #[inline(always)]
    pub(super) fn new(
        hash: u64,
        clock: u16,
        idle: u16,
        piece: u8,
        captured: u8,
        ends: [u8; 2],
    ) -> StepUndo {
        StepUndo {
            hash,
            word: clock as u64
                | (idle as u64) << 16
                | (piece as u64) << 32
                | (captured as u64) << 40
                | (ends[0] as u64) << 48
                | (ends[1] as u64) << 56,
        }
    }

    #[inline(always)]
    pub(super) fn clock(&self) -> u16 {
        self.word as u16
    }

    #[inline(always)]
    pub(super) fn idle(&self) -> u16 {
        (self.word >> 16) as u16
    }

    #[inline(always)]
    pub(super) fn piece(&self) -> u8 {
        (self.word >> 32) as u8
    }

    #[inline(always)]
    pub(super) fn captured(&self) -> u8 {
        (self.word >> 40) as u8
    }

    #[inline(always)]
    pub(super) fn count_end(&self) -> [u8; 2] {
        [(self.word >> 48) as u8, (self.word >> 56) as u8]
    }

    #[inline(always)]
    pub(super) fn set_captured(&mut self, captured: u8) {
        self.word = (self.word & !(0xff << 40)) | (captured as u64) << 40;
    }
}

/// The fields a step reads before it moves anything. A leaf loop of a perft reads them once
/// for all the moves it makes and takes back, so that no move waits for the previous one to
/// have written them back; and with them, unmake under [`Lean`] rules stores the occupancy
/// words as they were, instead of toggling the bits back.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Before {
    pub(super) hash: u64,
    /// The first 64 cells of the side to move, then of its opponent.
    pub(super) own: u64,
    pub(super) enemy: u64,
    pub(super) clock: u16,
    pub(super) idle: u16,
    pub(super) count_end: [u8; PLAYERS],
    pub(super) side: Player,
}

/// The rule features that make and unmake test on every move, fixed for a whole perft or
/// playout. [`Lean`] is for rules without promotion or history, whose eager end rules are all
/// counts, on a board of at most 64 cells ([`Rules::lean`]): its make and unmake carry no
/// test for the features it lacks. [`Full`] tests each feature when it meets it.
pub(crate) trait Profile {
    /// Whether the rules are lean.
    const LEAN: bool;
}

/// See [`Profile`].
pub(crate) struct Lean;

/// See [`Profile`].
pub(crate) struct Full;

impl Profile for Lean {
    const LEAN: bool = true;
}

impl Profile for Full {
    const LEAN: bool = false;
}
