//! The measures of a compiled expression (depth and number of parts), taken without
//! recursion, and the bound on its size once definitions are expanded. Its own file because
//! these are the limits that keep checking and compiling a pack bounded.

use ply_kernel::expr::Expr;

/// The most parts an expression may have once its definitions are expanded. Each use of a
/// parameter copies its argument, so nested calls can grow an expression exponentially;
/// this bound keeps loading fast and small.
pub const MAX_EXPR_NODES: usize = 100_000;

/// The compile budget of a whole pack: the most parts all its expressions may have in all,
/// once their definitions are expanded. With [`MAX_EXPR_NODES`] per expression it bounds the
/// time and memory of checking a pack, however many rules share a large definition.
pub const MAX_PACK_NODES: usize = 1_000_000;

/// The direct parts of a compiled expression.
fn parts(e: &Expr) -> impl Iterator<Item = &Expr> {
    use Expr::*;
    let (a, b, c): (Option<&Expr>, Option<&Expr>, Option<&Expr>) = match e {
        Lit(_) | Var(_) => (None, None, None),
        Attr(x, _)
        | Owner(x)
        | CellOf(x)
        | KindOf(x)
        | Row(x)
        | Col(x)
        | Is(x, _)
        | Has(x, _)
        | OpponentOf(x)
        | Count(x, _)
        | NoMoves(x)
        | InCheck(x)
        | Placed(x)
        | At(x)
        | Occupied(x)
        | Neighbour(x, _)
        | OnBoard(x)
        | Empty(x)
        | Line(x, _)
        | Not(x)
        | Neg(x) => (Some(x), None, None),
        In(x, _, p) | CountIn(x, _, _, p) => (Some(x), p.as_deref(), None),
        Bin(_, x, y) | Attacked(x, y) => (Some(x), Some(y), None),
        If(x, y, z) => (Some(x), Some(y), Some(z)),
    };
    a.into_iter().chain(b).chain(c)
}

/// The depth of a compiled expression, measured without recursion.
pub fn expr_depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(e, 1usize)];
    while let Some((e, d)) = todo.pop() {
        deepest = deepest.max(d);
        todo.extend(parts(e).map(|p| (p, d + 1)));
    }
    deepest
}

/// The number of parts of a compiled expression, counted without recursion up to `cap`.
pub(crate) fn expr_size(e: &Expr, cap: usize) -> usize {
    let mut n = 0;
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        n += 1;
        if n >= cap {
            break;
        }
        todo.extend(parts(e));
    }
    n
}
