//! Players, piece kinds and pieces.
//!
//! A piece is a kind and an owner packed into one non-zero byte, so that a board is an array
//! of bytes with 0 for an empty cell, and every table keyed by piece is a flat array. The
//! fields are private: a [`Player`], [`KindId`] or [`Piece`] made outside the kernel comes from
//! a checked constructor, so that none of them can index a table out of bounds.

use std::fmt;

/// The number of players. Ply plays two-player games.
pub const PLAYERS: usize = 2;

/// The largest number of piece kinds a game may define.
pub const MAX_KINDS: usize = 64;

/// The number of distinct piece codes, plus one for "no piece" (code 0).
pub const PIECE_CODES: usize = 1 + MAX_KINDS * PLAYERS;

/// A player, by its place in the game's turn order: [`Player::FIRST`] moves first.
///
/// A player's name belongs to the rules: [`crate::Rules::player_name`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(pub(crate) u8);

impl Player {
    /// The first player.
    pub const FIRST: Player = Player(0);

    /// The second player.
    pub const SECOND: Player = Player(1);

    /// Both players, in turn order.
    pub const ALL: [Player; PLAYERS] = [Player::FIRST, Player::SECOND];

    /// The player at this place in the turn order (0 or 1).
    pub const fn new(index: usize) -> Option<Player> {
        if index < PLAYERS {
            Some(Player(index as u8))
        } else {
            None
        }
    }

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        Player(self.0 ^ 1)
    }

    /// The player's place in the turn order (0 or 1).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The index, for the kernel's own per-player arrays (the mask spares the bounds check).
    #[inline]
    pub(crate) const fn slot(self) -> usize {
        (self.0 & 1) as usize
    }
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player({})", self.0)
    }
}

/// A kind of piece, by its place in the game's list of kinds.
///
/// [`KindId::new`] only checks the kernel's limit; the kinds of a game are
/// [`crate::Rules::kinds`], and a kind is found by name with [`crate::Rules::kind_by_name`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindId(pub(crate) u8);

impl KindId {
    /// The kind at this place in a game's list of kinds, if the kernel can have that many.
    pub const fn new(index: usize) -> Option<KindId> {
        if index < MAX_KINDS {
            Some(KindId(index as u8))
        } else {
            None
        }
    }

    /// The kind's place in the game's list of kinds.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for KindId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindId({})", self.0)
    }
}

/// A piece: a kind and its owner, as a non-zero code `1 + kind * 2 + owner`.
///
/// Its text form (`AL`) belongs to the rules: [`crate::Rules::code`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece(pub(crate) u8);

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

    /// The code, for table lookups (never 0, below [`PIECE_CODES`]).
    #[inline]
    pub const fn code(self) -> usize {
        self.0 as usize
    }

    /// The piece with this code; `None` for 0 (no piece) and for codes no piece can have.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code as usize >= PIECE_CODES {
            None
        } else {
            Some(Piece(code))
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({:?} of {:?})", self.kind(), self.owner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in 0..MAX_KINDS {
            for p in Player::ALL {
                let kind = KindId::new(k).unwrap();
                let piece = Piece::new(kind, p);
                assert_ne!(piece.code(), 0);
                assert_eq!(piece.kind(), kind);
                assert_eq!(piece.owner(), p);
                assert!(piece.code() < PIECE_CODES);
                assert_eq!(Piece::from_code(piece.code() as u8), Some(piece));
            }
        }
        assert_eq!(Player::FIRST.other(), Player::SECOND);
    }

    #[test]
    fn constructors_refuse_what_cannot_be() {
        assert_eq!(Player::new(2), None);
        assert_eq!(Player::new(1), Some(Player::SECOND));
        assert_eq!(KindId::new(MAX_KINDS), None);
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(PIECE_CODES as u8), None);
        assert_eq!(Piece::from_code(255), None);
    }
}
