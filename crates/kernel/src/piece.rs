//! Players, piece kinds and pieces.
//!
//! A piece is a kind and an owner packed into one non-zero byte, so that a board is an array
//! of bytes with 0 for an empty cell, and every table keyed by piece is a flat array.

/// The number of players. Ply plays two-player games.
pub const PLAYERS: usize = 2;

/// The largest number of piece kinds a game may define.
pub const MAX_KINDS: usize = 64;

/// The number of distinct piece codes, plus one for "no piece" (code 0).
pub const PIECE_CODES: usize = 1 + MAX_KINDS * PLAYERS;

/// A player, by its index in the game's turn order (0 moves first).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Player(pub u8);

impl Player {
    /// The first player.
    pub const FIRST: Player = Player(0);

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        Player(self.0 ^ 1)
    }

    /// The player's index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The index, for the kernel's own per-player arrays, where the player is known to be
    /// one of the two (the mask spares the bounds check).
    #[inline]
    pub(crate) const fn slot(self) -> usize {
        (self.0 & 1) as usize
    }
}

/// A piece kind, by its index in the game's list of kinds.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct KindId(pub u8);

impl KindId {
    /// The kind's index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece: a kind and its owner, as a non-zero code `1 + kind * 2 + owner`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece(pub u8);

impl Piece {
    /// The piece of `kind` owned by `owner`.
    #[inline]
    pub const fn new(kind: KindId, owner: Player) -> Piece {
        Piece(1 + kind.0 * PLAYERS as u8 + owner.0)
    }

    /// The piece's kind.
    #[inline]
    pub const fn kind(self) -> KindId {
        KindId((self.0 - 1) / PLAYERS as u8)
    }

    /// The piece's owner.
    #[inline]
    pub const fn owner(self) -> Player {
        Player((self.0 - 1) % PLAYERS as u8)
    }

    /// The code, for table lookups (never 0).
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// The piece for a board byte, `None` for 0.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 { None } else { Some(Piece(code)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in 0..MAX_KINDS as u8 {
            for p in 0..2 {
                let piece = Piece::new(KindId(k), Player(p));
                assert_ne!(piece.0, 0);
                assert_eq!(piece.kind(), KindId(k));
                assert_eq!(piece.owner(), Player(p));
                assert!(piece.code() < PIECE_CODES);
            }
        }
        assert_eq!(Player(0).other(), Player(1));
    }
}
