//! The action encoding: every move a pack's rules could ever make numbered by an integer
//! below a fixed size, as OpenSpiel and PettingZoo want.
//!
//! With `N = rows * cols` and a cell's index `row * cols + col` (row 0 the top row, as in
//! position strings), the actions of a pack are, in order:
//!
//! 1. **Piece moves** (when the pack has any), `N * N * C * S * X * R` actions:
//!    `((((from * N + to) * C + choice) * S + second) * X + removal) * R + route`, where `from`
//!    and `to` are the first and last cells of the move's notation (its path, the second part
//!    and the removal apart), and
//!    - `choice` is 0, or `1 + k` for a promotion into kind `k` chosen by the player
//!      (`C = 1 + kinds` when some piece promotes by choice, else 1);
//!    - `second` is 0, or `1 + cell` for the cell of the turn's second part (`d1-d7/g7`:
//!      `g7`); `S = 1 + N` when the pack has second parts, else 1;
//!    - `removal` is 0, or `1 + cell` for the cell of the enemy piece the mover removes by its
//!      choice (`d2-d3/xg7`: `g7`); `X = 1 + N` when the pack has a removal, else 1;
//!    - `route` tells apart hop chains with the same ends: the legal chains of the position
//!      that share `from`, `to`, `choice` and `second` are numbered from 0 in the order of
//!      their paths (cell indices, compared as sequences). `R` is [`ROUTES`] when some hop
//!      pattern chains, else 1.
//! 2. **Placements**, `P * N * S * X` actions: `moves + ((p * N + cell) * S + second) * X +
//!    removal`, for the `p`-th placement pattern of the pack.
//! 3. **Pass**: the last action, when a player with no move passes.
//!
//! A position with two legal moves that would get the same number (more than `R` chains
//! with the same ends) is refused with an error rather than numbered wrongly.

use ply_kernel::{Cell, KindId, Move, MoveForms, MoveList, Rules};
use std::fmt;

/// How many hop chains with the same ends (and choice and second part) the encoding tells
/// apart, in packs whose hop patterns chain.
pub const ROUTES: usize = 8;

/// The numbering of a pack's moves.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    cells: usize,
    cols: usize,
    choices: usize,
    seconds: usize,
    removals: usize,
    routes: usize,
    piece_moves: usize,
    placements: Vec<usize>,
    pass: bool,
    size: usize,
}

/// Legal moves of a position that the encoding cannot number.
#[derive(Clone, Debug, thiserror::Error)]
pub enum NumberingError {
    /// Several moves would get the same number.
    #[error(
        "the action encoding cannot number the moves of this position: {count} legal moves \
         share action {action} ({text}), and it tells apart at most {routes}"
    )]
    Collision {
        /// The action.
        action: usize,
        /// How many moves share it.
        count: usize,
        /// One of them in notation.
        text: String,
        /// How many routes the encoding has.
        routes: usize,
    },
    /// A move that is not a pass and names no cell.
    #[error("the move {text} names no cell")]
    NoPath {
        /// The move in notation.
        text: String,
    },
    /// A placement by a pattern the rules do not list as a placement pattern.
    #[error("the placement {text} comes from pattern {pattern}, which is not a placement pattern")]
    UnknownPlacement {
        /// The move in notation.
        text: String,
        /// Its pattern.
        pattern: usize,
    },
}

/// An action taken apart into what it says of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A piece moves.
    Piece {
        /// Where from.
        from: Cell,
        /// Where to.
        to: Cell,
        /// The kind chosen for a promotion.
        choice: Option<KindId>,
        /// The cell of the second part.
        second: Option<Cell>,
        /// The cell of the enemy piece removed by the mover's choice.
        removal: Option<Cell>,
        /// Which of the chains with these ends.
        route: usize,
    },
    /// A piece is placed by the `pattern`-th placement pattern.
    Place {
        /// The placement pattern, counted among placement patterns.
        pattern: usize,
        /// Where.
        cell: Cell,
        /// The cell of the second part.
        second: Option<Cell>,
        /// The cell of the enemy piece removed by the mover's choice.
        removal: Option<Cell>,
    },
    /// A pass.
    Pass,
}

impl ActionSpace {
    /// The numbering of the moves of these rules.
    pub fn new(rules: &Rules) -> ActionSpace {
        let g = rules.geometry();
        let cells = g.rows() * g.cols();
        let MoveForms {
            piece_moves,
            chains,
            choices,
            second_parts,
            removals,
            placements,
            pass,
        } = rules.move_forms();
        let choices = if choices {
            1 + rules.core().kind_count()
        } else {
            1
        };
        let seconds = if second_parts { 1 + cells } else { 1 };
        let removals = if removals { 1 + cells } else { 1 };
        let routes = if chains { ROUTES } else { 1 };
        let piece_moves = if piece_moves {
            cells * cells * choices * seconds * removals * routes
        } else {
            0
        };
        let size = piece_moves + placements.len() * cells * seconds * removals + usize::from(pass);
        ActionSpace {
            cells,
            cols: g.cols(),
            choices,
            seconds,
            removals,
            routes,
            piece_moves,
            placements,
            pass,
            size,
        }
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The factors of the piece-move part, for documentation: `(cells, choices, seconds,
    /// routes)`, the number of placement patterns, and whether there is a pass.
    pub fn layout(&self) -> Layout {
        Layout {
            cells: self.cells,
            choices: self.choices,
            seconds: self.seconds,
            removals: self.removals,
            routes: self.routes,
            piece_moves: self.piece_moves,
            placements: self.placements.len(),
            pass: self.pass,
        }
    }

    fn index(&self, rules: &Rules, cell: Cell) -> usize {
        let g = rules.geometry();
        g.row(cell) * self.cols + g.col(cell)
    }

    /// The cell of an index below `N`, if it is on the board.
    fn cell(&self, rules: &Rules, index: usize) -> Option<Cell> {
        let g = rules.geometry();
        g.cell((index / self.cols) as i64, (index % self.cols) as i64)
    }

    /// What an action says of a move; `None` for a number outside the space or a cell off
    /// the board.
    pub fn decode(&self, rules: &Rules, action: usize) -> Option<Decoded> {
        if action >= self.size {
            return None;
        }
        if self.pass && action == self.size - 1 {
            return Some(Decoded::Pass);
        }
        if action >= self.piece_moves {
            let a = action - self.piece_moves;
            let (a, removal) = (a / self.removals, a % self.removals);
            let (a, second) = (a / self.seconds, a % self.seconds);
            return Some(Decoded::Place {
                pattern: a / self.cells,
                cell: self.cell(rules, a % self.cells)?,
                second: self.second(rules, second)?,
                removal: self.second(rules, removal)?,
            });
        }
        let route = action % self.routes;
        let a = action / self.routes;
        let removal = a % self.removals;
        let a = a / self.removals;
        let second = a % self.seconds;
        let a = a / self.seconds;
        let choice = a % self.choices;
        let a = a / self.choices;
        let (from, to) = (a / self.cells, a % self.cells);
        Some(Decoded::Piece {
            from: self.cell(rules, from)?,
            to: self.cell(rules, to)?,
            choice: match choice {
                0 => None,
                k => Some(KindId::new(k - 1)?),
            },
            second: self.second(rules, second)?,
            removal: self.second(rules, removal)?,
            route,
        })
    }

    /// The cell a `second` (or `removal`) factor names: `Some(None)` for none, `None` for a
    /// cell off the board.
    fn second(&self, rules: &Rules, second: usize) -> Option<Option<Cell>> {
        match second {
            0 => Some(None),
            s => self.cell(rules, s - 1).map(Some),
        }
    }

    /// An action in words: the cells it names (`a7-a6`, `e7-e8=Q`, `d1-d7/g7`, `e5`, `R@e5`,
    /// `pass`), then, when not the first, its route (`c1-e3 (route 2)`) or placement
    /// pattern (`e5 (placement 2)`), counted from 1.
    pub fn text(&self, rules: &Rules, d: &Decoded) -> String {
        let g = rules.geometry();
        match *d {
            Decoded::Pass => "pass".to_string(),
            Decoded::Place {
                pattern,
                cell,
                second,
                removal,
            } => {
                let mut t = g.name(cell).to_string();
                // As move notation does: where several kinds may be placed, the kind (`R@a4`).
                if let Some(k) = rules
                    .move_forms()
                    .placements
                    .get(pattern)
                    .and_then(|&p| rules.named_placement_kind(p))
                {
                    t = format!("{}@{t}", rules.core().kind_letter(k));
                }
                if let Some(s) = second {
                    t = format!("{t}/{}", g.name(s));
                }
                if let Some(r) = removal {
                    t = format!("{t}/x{}", g.name(r));
                }
                if pattern > 0 {
                    t = format!("{t} (placement {})", pattern + 1);
                }
                t
            }
            Decoded::Piece {
                from,
                to,
                choice,
                second,
                removal,
                route,
            } => {
                let mut t = format!("{}-{}", g.name(from), g.name(to));
                if let Some(s) = second {
                    t = format!("{t}/{}", g.name(s));
                }
                if let Some(r) = removal {
                    t = format!("{t}/x{}", g.name(r));
                }
                if let Some(k) = choice {
                    t = format!("{t}={}", rules.core().kind_letter(k));
                }
                if route > 0 {
                    t = format!("{t} (route {})", route + 1);
                }
                t
            }
        }
    }

    /// The number of a move, without its route (0 for every route).
    fn base(&self, rules: &Rules, m: &Move) -> Result<usize, NumberingError> {
        if m.is_pass() {
            return Ok(self.size - 1);
        }
        // The cells the notation names: the path, its second part apart. (A compound move
        // may be written from its mover onto its partner, which is not where it goes.)
        let mut path = m.path(rules.geometry());
        let removal = match m.removal() {
            Some(c) => {
                path.pop();
                1 + self.index(rules, c)
            }
            None => 0,
        };
        let second = match m.second() {
            Some(c) => {
                path.pop();
                1 + self.index(rules, c)
            }
            None => 0,
        };
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
            return Err(NumberingError::NoPath {
                text: ply_kernel::move_text(rules, m),
            });
        };
        if m.is_placement() {
            let pattern = m.pattern().index();
            let p = self
                .placements
                .iter()
                .position(|&p| p == pattern)
                .ok_or_else(|| NumberingError::UnknownPlacement {
                    text: ply_kernel::move_text(rules, m),
                    pattern,
                })?;
            let cell = self.index(rules, first);
            return Ok(self.piece_moves
                + ((p * self.cells + cell) * self.seconds + second) * self.removals
                + removal);
        }
        let choice = m.promotion().map_or(0, |p| 1 + p.kind().index());
        let from = self.index(rules, first);
        let to = self.index(rules, last);
        Ok(
            ((((from * self.cells + to) * self.choices + choice) * self.seconds + second)
                * self.removals
                + removal)
                * self.routes,
        )
    }

    /// The legal moves of a position with their numbers, in increasing order of number.
    pub fn number(
        &self,
        rules: &Rules,
        moves: &MoveList,
    ) -> Result<Vec<(usize, Move)>, NumberingError> {
        let g = rules.geometry();
        let mut keyed = Vec::with_capacity(moves.len());
        for m in moves.iter() {
            keyed.push((self.base(rules, &m)?, m));
        }
        keyed.sort_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                let pa = a.1.path(g);
                let pb = b.1.path(g);
                pa.iter()
                    .map(|c| c.index())
                    .cmp(pb.iter().map(|c| c.index()))
            })
        });
        let mut i = 0;
        while i < keyed.len() {
            let mut j = i + 1;
            while j < keyed.len() && keyed[j].0 == keyed[i].0 {
                j += 1;
            }
            let count = j - i;
            let routes = if keyed[i].0 < self.piece_moves {
                self.routes
            } else {
                1
            };
            if count > routes {
                return Err(NumberingError::Collision {
                    action: keyed[i].0,
                    count,
                    text: ply_kernel::move_text(rules, &keyed[i].1),
                    routes,
                });
            }
            for (r, entry) in keyed[i..j].iter_mut().enumerate() {
                entry.0 += r;
            }
            i = j;
        }
        Ok(keyed)
    }
}

/// The shape of an [`ActionSpace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `N`, the cells of the board's rectangle.
    pub cells: usize,
    /// `C`: 1, or 1 + the number of kinds when promotions are chosen.
    pub choices: usize,
    /// `S`: 1, or `1 + N` when moves have second parts.
    pub seconds: usize,
    /// `X`: 1, or `1 + N` when moves may end with a removal of the mover's choice.
    pub removals: usize,
    /// `R`: 1, or [`ROUTES`] when hop chains may share their ends.
    pub routes: usize,
    /// The number of piece-move actions (`N * N * C * S * X * R`, or 0).
    pub piece_moves: usize,
    /// The number of placement patterns (each `N * S * X` actions, after the piece moves).
    pub placements: usize,
    /// Whether the last action is a pass.
    pub pass: bool,
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} piece moves (cells {} x {} x choices {} x seconds {} x removals {} x routes {}), {} placements, {} pass",
            self.piece_moves,
            self.cells,
            self.cells,
            self.choices,
            self.seconds,
            self.removals,
            self.routes,
            self.placements * self.cells * self.seconds * self.removals,
            usize::from(self.pass)
        )
    }
}
