//! End rules after a move, and the environment of expressions evaluated during play.

use super::*;
use crate::cell::Cell;
use crate::expr::{Deps, Env, EvalError, Value, Var};
use crate::piece::{KindId, PIECE_CODES, Piece, Player};
use crate::rules::Rules;
use crate::status::{EndReason, Outcome};
use crate::tables::{EagerTest, EndCheck, NONE};
use crate::verdict::StaticEnv;

impl State {
    /// The player who made the last move: the side not to move, or the side to move in the
    /// middle of a turn of several moves.
    #[inline]
    pub(crate) fn last_mover(&self) -> Player {
        if self.turn > 0 {
            self.side
        } else {
            self.side.other()
        }
    }

    /// Decides the end rules of a position that was set up rather than reached by a move (the
    /// start, a position string without a result): as after a move, the first rule that holds
    /// decides, seen from the player who moved last (the side not to move). A rule about the
    /// moved piece holds when it holds for some piece of that player where it stands. Rules
    /// about having no move are left for [`State::outcome`], as after a move.
    pub(crate) fn settle(&mut self, rules: &Rules) {
        if self.outcome.is_none() {
            self.outcome = self.judge(rules);
        }
    }

    /// What [`State::settle`] would decide, without deciding it.
    pub(crate) fn judge(&self, rules: &Rules) -> Option<Outcome> {
        let i = self.judge_rule(rules)?;
        Some(self.result_of(rules, i, self.last_mover()))
    }

    /// The end rule [`State::judge`] decides by: the index of its rule in `rules.end`.
    fn judge_rule(&self, rules: &Rules) -> Option<usize> {
        let mover = self.last_mover();
        let about_the_move = Deps(Deps::MOVER.0 | Deps::FROM.0 | Deps::TO.0);
        for (i, e) in rules.end.iter().enumerate() {
            let fired = match &e.check {
                // Decided when the move list is empty, or by `decide` before a later rule.
                EndCheck::Deferred(_) => false,
                EndCheck::Arrive(sets) => self.occupied[mover.slot()]
                    .iter()
                    .any(|c| sets[self.board[c.index()] as usize].contains(c)),
                EndCheck::Count(who, kind, op, n) => {
                    compare(*op, self.count(who.resolve(mover), *kind), *n)
                }
                EndCheck::Line(dirs, op, n) => self.occupied[mover.slot()]
                    .iter()
                    .any(|c| compare(*op, self.line_at(rules, c, *dirs), *n)),
                EndCheck::Dynamic(expr) if expr.deps().any(about_the_move) => {
                    self.occupied[mover.slot()].iter().any(|c| {
                        let piece = Piece::from_code(self.board[c.index()]);
                        self.dynamic_end(rules, expr, piece, c, c, mover)
                    })
                }
                EndCheck::Dynamic(expr) => {
                    let bound = StaticEnv {
                        player: Some(mover),
                        ..StaticEnv::default()
                    };
                    let env = PlayEnv::new(rules, self, bound);
                    expr.test(&rules.core, &env).unwrap_or(false)
                }
            };
            if fired {
                return Some(self.decide_rule(rules, i));
            }
        }
        None
    }

    /// The outcome when end rule `fired` holds after a move of `mover`: its result, unless a
    /// "no legal move" rule written before it holds too (the next player has no move and its
    /// condition holds), which comes first. Such rules are decided only when the move list is
    /// empty ([`State::deferred_result`]); a rule after them that fires asks here, so that the
    /// order of the rules decides as written (a checkmate on the move that also reaches an
    /// idle limit is a checkmate).
    #[cold]
    pub(super) fn decide(&self, rules: &Rules, fired: usize, mover: Player) -> Outcome {
        self.result_of(rules, self.decide_rule(rules, fired), mover)
    }

    /// The end rule [`State::decide`] takes the result of: `fired`, or a "no legal move"
    /// rule before it that holds too.
    fn decide_rule(&self, rules: &Rules, fired: usize) -> usize {
        if let Some(first) = rules.deferred
            && first < fired
            && !self.has_move(rules, self.side)
            && let Some(i) = self.first_deferred(rules, first..fired)
        {
            return i;
        }
        fired
    }

    /// The first deferred end rule among `range` whose condition holds, the side to move
    /// having no move.
    fn first_deferred(&self, rules: &Rules, range: std::ops::Range<usize>) -> Option<usize> {
        let mover = self.last_mover();
        range.into_iter().find(|&i| match &rules.end[i].check {
            EndCheck::Deferred(None) => true,
            EndCheck::Deferred(Some(cond)) => {
                let bound = StaticEnv {
                    player: Some(mover),
                    ..StaticEnv::default()
                };
                cond.test(&rules.core, &PlayEnv::new(rules, self, bound))
                    .unwrap_or(false)
            }
            _ => false,
        })
    }

    /// The end rules after `piece` of `mover` went from `from` to `to`: the first that holds
    /// decides. Arrival rules are one table lookup; the others are tested in order up to it.
    #[inline(always)]
    pub(super) fn evaluate_end<P: Profile>(
        &self,
        rules: &Rules,
        piece: Piece,
        from: Cell,
        to: Cell,
        mover: Player,
    ) -> Option<Outcome> {
        let arrive = rules.arrive_first[piece.code()][to.index()];
        if P::LEAN || rules.counts_only {
            let first = arrive.min(self.count_end[mover.slot()]);
            return (first != NONE).then(|| self.decide(rules, first as usize, mover));
        }
        self.eager_end(
            rules,
            Some(piece),
            from,
            to,
            mover,
            arrive,
            (true, u64::MAX),
        )
    }

    /// (Rules that read only piece counts, and where pieces of some kinds stand, are skipped
    /// unless `changed.0` says a count changed or `changed.1` has the bit of one of those kinds,
    /// a kind whose piece moved: they are as they were before the move, when they did not
    /// hold, or the game would be over.)
    ///
    /// The eager end rules up to the arrival rule `arrive` (or `NONE`), then that one: the
    /// first that holds decides. `piece` is the piece that moved or was placed (none for a
    /// pass).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn eager_end(
        &self,
        rules: &Rules,
        piece: Option<Piece>,
        from: Cell,
        to: Cell,
        mover: Player,
        arrive: u8,
        (counts_changed, moved_kinds): (bool, u64),
    ) -> Option<Outcome> {
        for e in &rules.eager {
            if e.index > arrive {
                break;
            }
            let fired = match e.test {
                EagerTest::Count { at, lo, hi } => {
                    let c = self.counts[at[mover.slot()] as usize] as i64;
                    c >= lo && c <= hi
                }
                EagerTest::Clock(op, n) => compare(op, self.clock as i64, n),
                EagerTest::Idle(op, n) => compare(op, self.idle as i64, n),
                EagerTest::Repetitions(op, n) => compare(op, self.repetitions(), n),
                EagerTest::Counts(kinds) if !counts_changed && kinds & moved_kinds == 0 => false,
                EagerTest::Line(dirs, op, n) => {
                    piece.is_some() && compare(op, self.line_at(rules, to, dirs), n)
                }
                EagerTest::Dynamic | EagerTest::Counts(_) => {
                    match &rules.end[e.index as usize].check {
                        EndCheck::Dynamic(expr) => {
                            self.dynamic_end(rules, expr, piece, from, to, mover)
                        }
                        EndCheck::Count(who, kind, op, n) => {
                            compare(*op, self.count(who.resolve(mover), *kind), *n)
                        }
                        _ => false,
                    }
                }
            };
            if fired {
                return Some(self.decide(rules, e.index as usize, mover));
            }
        }
        (arrive != NONE).then(|| self.decide(rules, arrive as usize, mover))
    }

    /// `line(cell, dirs)` on this board.
    #[inline]
    pub(super) fn line_at(&self, rules: &Rules, cell: Cell, dirs: crate::geometry::DirSet) -> i64 {
        let code = self.board[cell.index()];
        if code == 0 {
            return 0;
        }
        // The board's bytes, as the expression's `line` reads pieces: a load and a compare a
        // cell, where a set of 1,024 cells costs a bounds check and a shift more.
        let owner = State::owner_of(code);
        let board = &self.board;
        let same = |c: Cell| {
            let x = board[c.index()];
            Ok::<bool, std::convert::Infallible>(x != 0 && State::owner_of(x) == owner)
        };
        match crate::expr::line_by(rules.geometry(), cell, dirs, same) {
            Ok(n) => n,
        }
    }

    #[cold]
    pub(super) fn dynamic_end(
        &self,
        rules: &Rules,
        expr: &crate::expr::Expr,
        piece: Option<Piece>,
        from: Cell,
        to: Cell,
        mover: Player,
    ) -> bool {
        let env = PlayEnv::new(
            rules,
            self,
            StaticEnv {
                mover: Some(piece.map_or(Value::NoPiece, |p| Value::Piece(p, to))),
                from: Some(from),
                to: Some(to),
                player: Some(mover),
                ..StaticEnv::default()
            },
        );
        expr.test(&rules.core, &env).unwrap_or(false)
    }

    /// The outcome, resolving deferred "no legal move" rules.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.outcome.is_some() {
            return self.outcome;
        }
        rules.deferred?;
        if self.has_move(rules, self.side) {
            return None;
        }
        self.deferred_result(rules)
    }

    /// The result of the first deferred end rule whose condition holds, the side to move
    /// having no move; `None` when none holds.
    pub(crate) fn deferred_result(&self, rules: &Rules) -> Option<Outcome> {
        let i = self.deferred_rule(rules)?;
        Some(self.result_of(rules, i, self.last_mover()))
    }

    /// The rule [`State::deferred_result`] takes the result of.
    fn deferred_rule(&self, rules: &Rules) -> Option<usize> {
        let first = rules.deferred?;
        self.first_deferred(rules, first..rules.end.len())
    }

    /// Why the game is over, if it is ([`State::outcome`]): the end rule that decides it.
    /// (Cold, and it copies the state once: for showing a result, not for search.)
    ///
    /// A move keeps only its result (make stays as fast as it was); the rule is found again
    /// here from the position, as for a position set up ([`State::settle`]): the first rule
    /// that holds, seen from the player who moved last, and a "no legal move" rule when the
    /// side to move has none. A rule is named only if its result is the game's: a result
    /// given with the position that no rule gives is [`EndReason::Given`].
    #[cold]
    pub(crate) fn end_reason(&self, rules: &Rules) -> Option<EndReason> {
        let outcome = self.outcome(rules)?;
        let mover = self.last_mover();
        let rule = match self.outcome {
            // Judged as while the move was made, before its result was kept: a finished
            // position generates no move, which would make every "no legal move" rule hold.
            Some(_) => {
                let mut open = self.clone();
                open.outcome = None;
                open.judge_rule(rules)
            }
            None => self.deferred_rule(rules),
        };
        Some(match rule {
            Some(i) if self.result_of(rules, i, mover) == outcome => {
                EndReason::Rule(crate::reason::RuleId::new(crate::reason::Section::End, i))
            }
            _ => EndReason::Given,
        })
    }
}

#[inline]
fn compare(op: crate::expr::BinOp, a: i64, b: i64) -> bool {
    use crate::expr::BinOp::*;
    match op {
        Eq => a == b,
        Ne => a != b,
        Lt => a < b,
        Le => a <= b,
        Gt => a > b,
        Ge => a >= b,
        _ => false,
    }
}

/// The environment for expressions evaluated during play: the variables bound for the case
/// at hand, and the position behind them.
pub(crate) struct PlayEnv<'a> {
    pub rules: &'a Rules,
    pub state: &'a State,
    pub bound: StaticEnv,
    pub placed: Option<&'a [u16; PIECE_CODES]>,
    /// For a move being judged on a copy: the position it is made from, whose history is
    /// the game's (`board_repetitions`).
    pub history: Option<&'a State>,
}

impl<'a> PlayEnv<'a> {
    pub fn new(rules: &'a Rules, state: &'a State, bound: StaticEnv) -> PlayEnv<'a> {
        PlayEnv {
            rules,
            state,
            bound,
            placed: None,
            history: None,
        }
    }

    /// For a move made on a copy of `before`: the history is `before`'s.
    pub fn after(self, before: &'a State) -> PlayEnv<'a> {
        PlayEnv {
            history: Some(before),
            ..self
        }
    }

    /// With the counts of pieces placed since set-up (for place rules).
    pub fn placed(self, placed: &'a [u16; PIECE_CODES]) -> PlayEnv<'a> {
        PlayEnv {
            placed: Some(placed),
            ..self
        }
    }
}

impl Env for PlayEnv<'_> {
    fn var(&self, var: Var) -> Option<Value> {
        match var {
            Var::Clock => Some(Value::Int(self.state.clock as i64)),
            Var::Idle => Some(Value::Int(self.state.idle as i64)),
            Var::Repetitions => Some(Value::Int(self.state.repetitions())),
            Var::Passes => Some(Value::Int(self.state.passes as i64)),
            Var::Plies => Some(Value::Int(i64::from(self.state.ply))),
            Var::TurnMoves => Some(Value::Int(i64::from(self.state.turn))),
            Var::BoardRepetitions => Some(Value::Int(match self.history {
                Some(before) => self.state.board_repetitions(self.rules, before, before.ply),
                None => match self.state.ply.checked_sub(1) {
                    Some(upto) => self.state.board_repetitions(self.rules, self.state, upto),
                    None => 0,
                },
            })),
            _ => self.bound.var(var),
        }
    }

    fn piece_at(&self, cell: Cell) -> Result<Option<Piece>, EvalError> {
        Ok(Piece::from_code(self.state.board[cell.index()]))
    }

    fn moved_this_turn(&self, cell: Cell) -> Result<bool, EvalError> {
        Ok(self.state.turn_cells.contains(cell) && self.state.board[cell.index()] != 0)
    }

    fn count(&self, player: Player, kind: Option<KindId>) -> Result<i64, EvalError> {
        Ok(self.state.count(player, kind))
    }

    fn no_moves(&self, player: Player) -> Result<bool, EvalError> {
        Ok(!self.state.has_move(self.rules, player))
    }

    fn in_check(&self, player: Player) -> Result<bool, EvalError> {
        Ok(self.state.in_check(self.rules, player))
    }

    fn attacked(&self, cell: Cell, by: Player) -> Result<bool, EvalError> {
        Ok(crate::construct::royal::attacked_on(
            self.rules,
            &self.state.board,
            cell,
            by.other(),
        ))
    }

    fn placed(&self, piece: Piece) -> Result<i64, EvalError> {
        self.placed
            .map(|p| p[piece.code()] as i64)
            .ok_or(EvalError::NoPosition)
    }

    fn cells_of(
        &self,
        _core: &crate::facts::Core,
        player: Player,
    ) -> Result<crate::cell::CellSet, EvalError> {
        Ok(self.state.occupied[player.slot()])
    }

    fn hand(&self, player: Player, kind: KindId) -> Result<i64, EvalError> {
        Ok(i64::from(
            self.state.in_hand(Piece::new(kind, player).code()),
        ))
    }
}
