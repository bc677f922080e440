//! The observation tensor: a position as `planes x rows x cols` numbers (float32), the same
//! layout for every position of a pack.
//!
//! The planes, in order (their names are `Game.observation_planes`):
//!
//! 1. `piece:CODE`, one per piece code (the first player's kinds in the pack's order, then the
//!    second player's): 1 where such a piece stands.
//! 2. `board`: 1 on the cells of the board (0 on holes of a board that is not a rectangle).
//! 3. `zone:NAME` for a shared zone, `zone:NAME:PLAYER` for each part of an owned zone: 1 on
//!    its cells.
//! 4. `to-move:PLAYER` for the first player: 1 everywhere when that player is to move (or was,
//!    when the game ended), else 0.
//! 5. `hand:CODE`, for each piece code of a kind with a limited supply: the number its owner
//!    has in hand, everywhere.
//! 6. For a pack with turns of several moves (`[turn]`): `turn-moves`, the moves the player to
//!    move has already made in this turn, everywhere; and `moved-this-turn`, 1 on the cells
//!    whose pieces those moves put there.

use ply_kernel::spec::ZoneCells;
use ply_kernel::{CellSet, Piece, Player, Position, Rules};

/// One plane's content.
#[derive(Clone, Debug)]
enum Plane {
    Piece(Piece),
    Cells(CellSet),
    FirstToMove,
    Hand(Piece),
    TurnMoves,
    MovedThisTurn,
}

/// The planes of a pack's observation.
#[derive(Clone, Debug)]
pub struct Planes {
    planes: Vec<(String, Plane)>,
    /// By piece code, the index of its plane (`usize::MAX` for a code no piece has).
    by_code: Vec<usize>,
    rows: usize,
    cols: usize,
}

impl Planes {
    /// The planes of these rules.
    pub fn new(rules: &Rules) -> Planes {
        let core = rules.core();
        let g = rules.geometry();
        let mut planes = Vec::new();
        for p in Player::ALL {
            for k in rules.kinds() {
                let piece = Piece::new(k, p);
                planes.push((format!("piece:{}", core.code(piece)), Plane::Piece(piece)));
            }
        }
        planes.push(("board".to_string(), Plane::Cells(*g.cells())));
        for z in core.zones() {
            match &z.cells {
                ZoneCells::Shared(cells) => {
                    planes.push((format!("zone:{}", z.name), Plane::Cells(*cells)));
                }
                ZoneCells::Owned(parts) => {
                    for p in Player::ALL {
                        let name = format!("zone:{}:{}", z.name, core.player_name(p));
                        planes.push((name, Plane::Cells(parts[p.index()])));
                    }
                }
            }
        }
        planes.push((
            format!("to-move:{}", core.player_name(Player::FIRST)),
            Plane::FirstToMove,
        ));
        for p in Player::ALL {
            for k in rules.kinds() {
                if rules.supply(k).is_some() {
                    let piece = Piece::new(k, p);
                    planes.push((format!("hand:{}", core.code(piece)), Plane::Hand(piece)));
                }
            }
        }
        if rules.moves_per_turn().is_some() {
            planes.push(("turn-moves".to_string(), Plane::TurnMoves));
            planes.push(("moved-this-turn".to_string(), Plane::MovedThisTurn));
        }
        let mut by_code = vec![usize::MAX; ply_kernel::PIECE_CODES];
        for (i, (_, plane)) in planes.iter().enumerate() {
            if let Plane::Piece(p) = plane {
                by_code[p.code()] = i;
            }
        }
        Planes {
            planes,
            by_code,
            rows: g.rows(),
            cols: g.cols(),
        }
    }

    /// The number of planes.
    pub fn len(&self) -> usize {
        self.planes.len()
    }

    /// Whether there are none (never: `board` is always there).
    pub fn is_empty(&self) -> bool {
        self.planes.is_empty()
    }

    /// The planes' names.
    pub fn names(&self) -> Vec<String> {
        self.planes.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The number of values of one observation.
    pub fn size(&self) -> usize {
        self.planes.len() * self.rows * self.cols
    }

    /// Writes the observation of `pos` into `out` (of [`Planes::size`] values, zeroed first).
    pub fn write(&self, pos: &Position, out: &mut [f32]) {
        let area = self.rows * self.cols;
        out.fill(0.0);
        for (i, (_, plane)) in self.planes.iter().enumerate() {
            let base = i * area;
            let plane_out = &mut out[base..base + area];
            match plane {
                Plane::Piece(_) => {}
                Plane::Cells(cells) => {
                    for c in cells.iter() {
                        plane_out[c.index()] = 1.0;
                    }
                }
                Plane::FirstToMove => {
                    if pos.side_to_move() == Player::FIRST {
                        plane_out.fill(1.0);
                    }
                }
                Plane::Hand(p) => plane_out.fill(f32::from(pos.in_hand(*p))),
                Plane::TurnMoves => plane_out.fill(f32::from(pos.turn_moves())),
                Plane::MovedThisTurn => {
                    for c in pos.moved_this_turn().iter() {
                        plane_out[c.index()] = 1.0;
                    }
                }
            }
        }
        for (cell, piece) in pos.pieces() {
            let plane = self.by_code[piece.code()];
            if plane != usize::MAX {
                out[plane * area + cell.index()] = 1.0;
            }
        }
    }
}
