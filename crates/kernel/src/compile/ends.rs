//! End rules into arrival sets, counter comparisons and interpreted checks.

use super::*;
use crate::cell::CellSet;
use crate::expr::{BinOp, Deps, Expr, Value, Var};
use crate::piece::{PIECE_CODES, PLAYERS, Player};
use crate::spec::*;
use crate::status::Outcome;
use crate::tables::*;

impl Compiler<'_> {
    pub(super) fn ends(&mut self) -> (Vec<CompiledEnd>, Option<usize>) {
        let mut out = Vec::new();
        let n = self.spec.end.len();
        // A `no_moves(opponent)` rule is deferred wherever it stands: a later rule that fires
        // asks it first (`State::decide`). With passing, a player's move list is never empty:
        // nothing can wait for that.
        let deferrable = |e: &EndSpec| !self.spec.pass && deferred_part(&e.when).is_some();
        let first_deferred = self.spec.end.iter().position(deferrable).unwrap_or(n);
        for (i, e) in self.spec.end.iter().enumerate() {
            let mut result = [Outcome::Draw; PLAYERS];
            let mut winner = None;
            if let EndResult::Winner(w) = &e.result
                && w.deps().is_dynamic()
            {
                winner = Some(w.clone());
            } else if let EndResult::Winner(w) = &e.result {
                for (p, slot) in result.iter_mut().enumerate() {
                    let env = StaticEnv {
                        player: Some(Player(p as u8)),
                        ..StaticEnv::default()
                    };
                    match w.eval(self.core, &env) {
                        Ok(Value::Player(q)) => *slot = Outcome::Win(q),
                        Ok(Value::Nobody) => *slot = Outcome::Draw,
                        Ok(other) => {
                            self.error(
                                Site::Winner(i),
                                format!("the winner must be a player, not {other:?}"),
                            );
                        }
                        Err(err) => self.error(Site::Winner(i), err.to_string()),
                    }
                }
            }
            let check = if deferrable(e) {
                EndCheck::Deferred(deferred_part(&e.when).flatten())
            } else {
                self.end_check(i, &e.when)
            };
            out.push(CompiledEnd {
                check,
                result,
                winner,
            });
        }
        (out, (first_deferred < n).then_some(first_deferred))
    }

    pub(super) fn end_check(&mut self, i: usize, when: &Expr) -> EndCheck {
        let deps = when.deps();
        // After a move, the mover stands on the destination: its cell is `to`.
        if !deps.is_dynamic()
            && deps.within(Deps(
                Deps::MOVER.0
                    | Deps::FROM.0
                    | Deps::TO.0
                    | Deps::PLAYER.0
                    | Deps::ROW.0
                    | Deps::COL.0
                    | Deps::CELL_IDENTITY.0,
            ))
            && !mentions_var(when, Var::From)
        {
            let mut sets = vec![CellSet::EMPTY; PIECE_CODES];
            for piece in self.core.all_pieces().collect::<Vec<_>>() {
                for to in self.core.geometry.cells().iter() {
                    let env = StaticEnv {
                        mover: Some(Value::Piece(piece, to)),
                        to: Some(to),
                        player: Some(piece.owner()),
                        ..StaticEnv::default()
                    };
                    match when.test(self.core, &env) {
                        Ok(true) => sets[piece.code()].insert(to),
                        Ok(false) => {}
                        Err(err) => {
                            let core = self.core;
                            self.eval_error(Site::End(i), err, || {
                                format!(
                                    "{} arrives on {}",
                                    core.code(piece),
                                    core.geometry.name(to)
                                )
                            });
                            return EndCheck::Dynamic(when.clone());
                        }
                    }
                }
            }
            return EndCheck::Arrive(sets);
        }
        if let Expr::Bin(op, a, b) = when
            && matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            )
            && let (Expr::Line(c, dirs), Expr::Lit(Value::Int(n))) = (a.as_ref(), b.as_ref())
            && **c == Expr::Var(Var::To)
        {
            return EndCheck::Line(*dirs, *op, *n);
        }
        if let Expr::Bin(op, a, b) = when
            && matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            )
            && let (Expr::Count(who, kind), Expr::Lit(Value::Int(n))) = (a.as_ref(), b.as_ref())
        {
            let who = match who.as_ref() {
                Expr::Var(Var::Player) => Some(Who::Mover),
                Expr::Var(Var::Opponent) => Some(Who::Opponent),
                Expr::Lit(Value::Player(p)) => Some(Who::Fixed(*p)),
                _ => None,
            };
            if let Some(who) = who {
                return EndCheck::Count(who, *kind, *op, *n);
            }
        }
        EndCheck::Dynamic(when.clone())
    }
}

/// For `no_moves(opponent)`, `Some(None)`; for `no_moves(opponent) and CONDITION`,
/// `Some(Some(CONDITION))`; otherwise `None`: the shapes of a rule that waits for the next
/// player's move list to be empty.
fn deferred_part(when: &Expr) -> Option<Option<Expr>> {
    let stuck = |e: &Expr| matches!(e, Expr::NoMoves(p) if **p == Expr::Var(Var::Opponent));
    match when {
        e if stuck(e) => Some(None),
        Expr::Bin(BinOp::And, a, b) if stuck(a) && !b.deps().any(Deps::MOVES) => {
            Some(Some((**b).clone()))
        }
        _ => None,
    }
}

/// `count <op> n` as a range of counts, where it is one (`!=` is not).
pub(super) fn count_range(op: BinOp, n: i64) -> Option<(i64, i64)> {
    Some(match op {
        BinOp::Eq => (n, n),
        BinOp::Lt => (i64::MIN, n.checked_sub(1)?),
        BinOp::Le => (i64::MIN, n),
        BinOp::Gt => (n.checked_add(1)?, i64::MAX),
        BinOp::Ge => (n, i64::MAX),
        _ => return None,
    })
}

/// Whether an expression reads nothing of the position but piece counts (and the players),
/// and counts of pieces in zones: `Some` of the kinds whose pieces' cells it reads (a bit per
/// kind; all for a count of every kind in a zone). Its value changes only when a count does or
/// a piece of those kinds moves.
pub(super) fn reads_only_counts(e: &Expr) -> Option<u64> {
    let mut ok = true;
    let mut kinds = 0u64;
    visit(e, &mut |x| {
        if let Expr::CountIn(_, kind, _, _) = x {
            kinds |= kind.map_or(u64::MAX, |k| 1 << k.index());
        }
        ok &= matches!(
            x,
            Expr::Lit(_)
                | Expr::Var(Var::Player | Var::Opponent)
                | Expr::Count(..)
                | Expr::CountIn(..)
                | Expr::OpponentOf(_)
                | Expr::Bin(..)
                | Expr::Not(_)
                | Expr::Neg(_)
                | Expr::If(..)
        )
    });
    ok.then_some(kinds)
}

pub(super) fn mentions_var(e: &Expr, var: Var) -> bool {
    let mut found = false;
    visit(e, &mut |x| found |= *x == Expr::Var(var));
    found
}
