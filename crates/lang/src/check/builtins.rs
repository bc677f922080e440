//! The builtin functions of the expression language, as one table: each function's name, how
//! many arguments it takes, how it is written, and how a call of it is checked into the
//! kernel's [`Expr`]. The checker, the "unknown function" hint and the guide's quick
//! reference test all read this table, so a function cannot be added to one and not the
//! others.

use super::{Checked, Checker, Locals, Scope, Text, Ty};
use crate::diag::Loc;
use crate::syntax::{self, ExprKind};
use ply_kernel::expr::{BinOp, Expr, Value, ZoneRef};

/// A call being checked: the function's name, its arguments and where they are.
pub(super) struct Call<'c> {
    pub name: &'c str,
    pub args: &'c [syntax::Expr],
    /// The whole call.
    pub loc: Loc,
    /// The function's name.
    pub floc: Loc,
    pub text: Text,
    pub scope: &'c Scope,
    pub locals: &'c Locals,
}

impl Call<'_> {
    /// Argument `i` checked as a `want`.
    fn arg(&self, c: &mut Checker<'_>, i: usize, want: Ty) -> Option<Expr> {
        c.expect(&self.args[i], self.text, self.scope, self.locals, want)
    }
}

/// A builtin function.
pub(crate) struct Builtin {
    /// Its name.
    pub name: &'static str,
    /// The fewest and the most arguments it takes.
    pub args: (usize, usize),
    /// How a call is written, as the guide's quick reference shows it.
    pub usage: &'static str,
    /// Checks a call whose number of arguments is within [`Builtin::args`].
    pub(super) check: fn(&mut Checker<'_>, &Call<'_>) -> Option<Checked>,
}

/// Every builtin function, in the order the guide lists them.
pub(crate) const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "opponent",
        args: (1, 1),
        usage: "opponent(PLAYER)",
        check: opponent,
    },
    Builtin {
        name: "pieces",
        args: (1, 2),
        usage: "pieces(PLAYER) or pieces(PLAYER, KIND)",
        check: pieces,
    },
    Builtin {
        name: "count",
        args: (1, 2),
        usage: "count(pieces(PLAYER)), count(PLAYER, KIND), count(pieces(PLAYER) in ZONE)",
        check: count,
    },
    Builtin {
        name: "no_moves",
        args: (1, 1),
        usage: "no_moves(PLAYER)",
        check: no_moves,
    },
    Builtin {
        name: "in_check",
        args: (1, 1),
        usage: "in_check(PLAYER)",
        check: in_check,
    },
    Builtin {
        name: "attacked",
        args: (2, 2),
        usage: "attacked(CELL, PLAYER)",
        check: attacked,
    },
    Builtin {
        name: "placed",
        args: (1, 1),
        usage: "placed(PIECE)",
        check: placed,
    },
    Builtin {
        name: "occupied",
        args: (1, 1),
        usage: "occupied(CELL)",
        check: cell_test,
    },
    Builtin {
        name: "empty",
        args: (1, 1),
        usage: "empty(CELL)",
        check: cell_test,
    },
    Builtin {
        name: "on_board",
        args: (1, 1),
        usage: "on_board(CELL)",
        check: cell_test,
    },
    Builtin {
        name: "neighbour",
        args: (2, 2),
        usage: "neighbour(CELL, DIRECTION)",
        check: along,
    },
    Builtin {
        name: "line",
        args: (2, 2),
        usage: "line(CELL, DIRECTIONS)",
        check: along,
    },
    Builtin {
        name: "hand",
        args: (2, 2),
        usage: "hand(PLAYER, KIND)",
        check: hand,
    },
    Builtin {
        name: "moved_this_turn",
        args: (1, 1),
        usage: "moved_this_turn(CELL)",
        check: moved_this_turn,
    },
    Builtin {
        name: "adjacent",
        args: (3, 3),
        usage: "adjacent(CELL, DIRECTIONS, PLAYER)",
        check: adjacent,
    },
    Builtin {
        name: "along",
        args: (3, 4),
        usage: "along(CELL, DIRECTIONS, PLAYER) or along(CELL, DIRECTIONS, PLAYER, KIND)",
        check: along_rays,
    },
    Builtin {
        name: "groups",
        args: (2, 2),
        usage: "groups(PLAYER, DIRECTIONS)",
        check: groups,
    },
    Builtin {
        name: "connected",
        args: (4, 4),
        usage: "connected(PLAYER, ZONE, ZONE, DIRECTIONS)",
        check: connected,
    },
    Builtin {
        name: "liberties",
        args: (2, 2),
        usage: "liberties(CELL, DIRECTIONS)",
        check: liberties,
    },
    Builtin {
        name: "area",
        args: (2, 2),
        usage: "area(PLAYER, DIRECTIONS)",
        check: area,
    },
    Builtin {
        name: "distance",
        args: (2, 2),
        usage: "distance(CELL, CELL)",
        check: two_cells,
    },
    Builtin {
        name: "on_line",
        args: (2, 2),
        usage: "on_line(CELL, CELL)",
        check: two_cells,
    },
    Builtin {
        name: "piece_at",
        args: (1, 1),
        usage: "piece_at(CELL)",
        check: piece_at,
    },
    Builtin {
        name: "abs",
        args: (1, 1),
        usage: "abs(NUMBER)",
        check: abs,
    },
    Builtin {
        name: "min",
        args: (2, 2),
        usage: "min(NUMBER, NUMBER)",
        check: min_max,
    },
    Builtin {
        name: "max",
        args: (2, 2),
        usage: "max(NUMBER, NUMBER)",
        check: min_max,
    },
];

/// The builtin function with this name.
pub(super) fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

fn opponent(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player)?;
    Some(Checked::Value(Expr::OpponentOf(p.boxed()), Ty::Player))
}

fn pieces(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player)?;
    let k = match call.args.get(1) {
        Some(a) => Some(c.kind_literal(a, call.text, call.scope, call.locals)?),
        None => None,
    };
    Some(Checked::Pieces(p, k))
}

fn count(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let (args, text, scope, locals) = (call.args, call.text, call.scope, call.locals);
    if let ExprKind::Binary(syntax::BinOp::In, lhs, rhs) = &args[0].kind
        && args.len() == 1
    {
        let pieces = c.any(lhs, text, scope, locals);
        let zone = c.any(rhs, text, scope, locals);
        return match (pieces?, zone?) {
            (Checked::Pieces(p, k), Checked::Zone(z, part)) => Some(Checked::Value(
                Expr::CountIn(p.boxed(), k, z, part.map(Expr::boxed)),
                Ty::Int,
            )),
            _ => {
                let d = c.error(
                    text.loc(args[0].span),
                    "write `count(pieces(PLAYER) in ZONE)` to count pieces in a zone",
                );
                c.push(d);
                None
            }
        };
    }
    let (p, k) = match c.any(&args[0], text, scope, locals)? {
        Checked::Pieces(p, k) if args.len() == 1 => (p, k),
        Checked::Value(x, Ty::Player) => {
            let k = match args.get(1) {
                Some(a) => Some(c.kind_literal(a, text, scope, locals)?),
                None => None,
            };
            (x, k)
        }
        _ => {
            let d = c.error(
                text.loc(args[0].span),
                "`count` counts pieces: write `count(pieces(PLAYER))` or `count(PLAYER, KIND)`",
            );
            c.push(d);
            return None;
        }
    };
    Some(Checked::Value(Expr::Count(p.boxed(), k), Ty::Int))
}

fn no_moves(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    if !call.scope.moves {
        let d = c
            .error(
                call.floc,
                format!("`no_moves` cannot be used in {}", call.scope.what),
            )
            .help("`no_moves(player)` is for end conditions");
        c.push(d);
        return None;
    }
    let p = call.arg(c, 0, Ty::Player)?;
    Some(Checked::Value(Expr::NoMoves(p.boxed()), Ty::Bool))
}

fn in_check(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player)?;
    Some(Checked::Value(Expr::InCheck(p.boxed()), Ty::Bool))
}

fn attacked(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell)?;
    let p = call.arg(c, 1, Ty::Player)?;
    Some(Checked::Value(
        Expr::Attacked(cell.boxed(), p.boxed()),
        Ty::Bool,
    ))
}

fn placed(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    if !call.scope.placed {
        let d = c
            .error(
                call.floc,
                format!("`placed` cannot be used in {}", call.scope.what),
            )
            .help("`placed(piece)` is for place rules");
        c.push(d);
        return None;
    }
    let p = call.arg(c, 0, Ty::Piece)?;
    Some(Checked::Value(Expr::Placed(p.boxed()), Ty::Int))
}

/// `occupied`, `empty` and `on_board`.
fn cell_test(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell)?.boxed();
    Some(Checked::Value(
        match call.name {
            "empty" => Expr::Empty(cell),
            "on_board" => Expr::OnBoard(cell),
            _ => Expr::Occupied(cell),
        },
        Ty::Bool,
    ))
}

/// `neighbour` (one direction) and `line` (a set of directions).
fn along(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let neighbour = call.name == "neighbour";
    let cell = call.arg(c, 0, Ty::Cell);
    let dirs = c.compass(&call.args[1], call.text, neighbour);
    let (cell, dirs) = (cell?, dirs?);
    if !neighbour {
        return Some(Checked::Value(Expr::Line(cell.boxed(), dirs), Ty::Int));
    }
    let d = dirs.iter().next()?;
    Some(Checked::Value(Expr::Neighbour(cell.boxed(), d), Ty::Cell))
}

fn hand(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player);
    let k = c.kind_literal(&call.args[1], call.text, call.scope, call.locals);
    Some(Checked::Value(Expr::Hand(p?.boxed(), k?), Ty::Int))
}

fn moved_this_turn(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    if !c.needs_turns("moved_this_turn", call.floc) {
        return None;
    }
    let cell = call.arg(c, 0, Ty::Cell)?;
    Some(Checked::Value(Expr::MovedThisTurn(cell.boxed()), Ty::Bool))
}

fn adjacent(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell);
    let dirs = c.compass(&call.args[1], call.text, false);
    let p = call.arg(c, 2, Ty::Player);
    Some(Checked::Value(
        Expr::Adjacent(cell?.boxed(), dirs?, p?.boxed()),
        Ty::Int,
    ))
}

fn along_rays(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell);
    let dirs = c.compass(&call.args[1], call.text, false);
    let p = call.arg(c, 2, Ty::Player);
    let kind = match call.args.get(3) {
        Some(k) => Some(c.kind_literal(k, call.text, call.scope, call.locals)?),
        None => None,
    };
    Some(Checked::Value(
        Expr::Along(Box::new((cell?, p?)), dirs?, kind),
        Ty::Int,
    ))
}

fn groups(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player);
    let dirs = c.compass(&call.args[1], call.text, false);
    Some(Checked::Value(Expr::Groups(p?.boxed(), dirs?), Ty::Int))
}

fn area(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player);
    let dirs = c.compass(&call.args[1], call.text, false);
    Some(Checked::Value(Expr::Area(p?.boxed(), dirs?), Ty::Int))
}

/// A zone argument: a zone's name, or an owned zone's part (`goal(player)`).
fn zone_arg(c: &mut Checker<'_>, call: &Call<'_>, i: usize) -> Option<ZoneRef> {
    let arg = &call.args[i];
    match c.any(arg, call.text, call.scope, call.locals)? {
        Checked::Zone(z, part) => Some(ZoneRef(z, part.map(Expr::boxed))),
        _ => {
            let d = c.error(
                call.text.loc(arg.span),
                format!(
                    "`{}` takes a zone here: a zone's name, or `ZONE(PLAYER)` for one part of an owned zone",
                    call.name
                ),
            );
            c.push(d);
            None
        }
    }
}

fn connected(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let p = call.arg(c, 0, Ty::Player);
    let a = zone_arg(c, call, 1);
    let b = zone_arg(c, call, 2);
    let dirs = c.compass(&call.args[3], call.text, false);
    Some(Checked::Value(
        Expr::Connected(Box::new((p?, a?, b?)), dirs?),
        Ty::Bool,
    ))
}

fn liberties(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell);
    let dirs = c.compass(&call.args[1], call.text, false);
    Some(Checked::Value(
        Expr::Liberties(cell?.boxed(), dirs?),
        Ty::Int,
    ))
}

/// `distance` and `on_line`.
fn two_cells(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let a = call.arg(c, 0, Ty::Cell);
    let b = call.arg(c, 1, Ty::Cell);
    let (a, b) = (a?.boxed(), b?.boxed());
    Some(Checked::Value(
        if call.name == "distance" {
            Expr::Distance(a, b)
        } else {
            Expr::OnLine(a, b)
        },
        Ty::Int,
    ))
}

fn piece_at(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let cell = call.arg(c, 0, Ty::Cell)?;
    Some(Checked::Value(Expr::At(cell.boxed()), Ty::Piece))
}

fn abs(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let x = call.arg(c, 0, Ty::Int)?;
    // The argument is copied twice: into the test and into each branch.
    if !c.copy_fits(&x, call.loc) || !c.copy_fits(&x, call.loc) {
        return None;
    }
    let neg = Expr::Bin(
        BinOp::Lt,
        x.clone().boxed(),
        Expr::Lit(Value::Int(0)).boxed(),
    );
    Some(Checked::Value(
        Expr::If(neg.boxed(), Expr::Neg(x.clone().boxed()).boxed(), x.boxed()),
        Ty::Int,
    ))
}

/// `min` and `max`.
fn min_max(c: &mut Checker<'_>, call: &Call<'_>) -> Option<Checked> {
    let x = call.arg(c, 0, Ty::Int);
    let y = call.arg(c, 1, Ty::Int);
    let (x, y) = (x?, y?);
    if !c.copy_fits(&x, call.loc) || !c.copy_fits(&y, call.loc) {
        return None;
    }
    let op = if call.name == "min" {
        BinOp::Lt
    } else {
        BinOp::Gt
    };
    let test = Expr::Bin(op, x.clone().boxed(), y.clone().boxed());
    Some(Checked::Value(
        Expr::If(test.boxed(), x.boxed(), y.boxed()),
        Ty::Int,
    ))
}

#[cfg(test)]
mod tests {
    use super::BUILTINS;

    #[test]
    fn every_builtin_is_named_once_and_its_usage_calls_it() {
        let mut names: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), BUILTINS.len(), "a builtin listed twice");
        for b in BUILTINS {
            assert!(b.usage.starts_with(&format!("{}(", b.name)), "{}", b.usage);
            assert!(b.args.0 >= 1 && b.args.0 <= b.args.1, "{}", b.name);
        }
    }
}
