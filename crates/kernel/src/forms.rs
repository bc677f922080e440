//! What front ends that number every move the rules could ever make, and describe positions
//! as arrays, ask of rules and positions (a fixed action space and observation, as
//! reinforcement-learning libraries want them).

use crate::piece::Piece;
use crate::position::Position;
use crate::rules::Rules;
use crate::tables::Shape;

/// The shapes of move a game's rules can produce (see [`Rules::move_forms`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveForms {
    /// Some pattern moves a piece from one cell to another (a step, jump, hop, slide, leap
    /// or compound move).
    pub piece_moves: bool,
    /// Some hop pattern chains: two legal moves may then share their origin and destination
    /// and differ in the cells between.
    pub chains: bool,
    /// Some piece promotes into a kind the player chooses (`e7-e8=Q`).
    pub choices: bool,
    /// Some pattern has a second part, a piece placed after the move (`d1-d7/g7`).
    pub second_parts: bool,
    /// A move may end with a removal of the mover's choice (`d2-d3/xg7`).
    pub removals: bool,
    /// The placement patterns, by their number (as [`crate::Move::pattern`] gives it), in
    /// order.
    pub placements: Vec<usize>,
    /// A player with no move passes.
    pub pass: bool,
}

impl Rules {
    /// The shapes of move these rules can produce.
    pub fn move_forms(&self) -> MoveForms {
        let mut forms = MoveForms {
            choices: !self.choices.is_empty(),
            pass: self.pass_rule.is_some(),
            removals: self.removal.is_some(),
            placements: self.placements.iter().map(|&p| p as usize).collect(),
            ..MoveForms::default()
        };
        for m in &self.moves {
            match m.shape {
                Shape::Place | Shape::Pass => {}
                _ => forms.piece_moves = true,
            }
            forms.chains |= matches!(m.shape, Shape::Hop) && m.chain;
            forms.second_parts |= m.then.is_some();
        }
        forms
    }
}

impl Position {
    /// How many pieces like `piece` its owner has in hand, to place (0 in rules without a
    /// limited supply).
    pub fn in_hand(&self, piece: Piece) -> u16 {
        self.state.in_hand(piece.code())
    }

    /// The piece placement `m` puts down (`None` for a move that is not a placement). Where
    /// several kinds may be placed, it tells apart placements on one cell, as a promotion's
    /// kind tells apart promotions along one path.
    pub fn placed_piece(&self, m: crate::Move) -> Option<Piece> {
        m.is_placement().then(|| {
            Piece(crate::position::State::placed_code(
                self.rules(),
                m.rule(),
                self.side_to_move(),
            ))
        })
    }
}
