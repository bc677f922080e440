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

/// The depth of a compiled expression, measured without recursion.
pub fn expr_depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(e, 1usize)];
    while let Some((e, d)) = todo.pop() {
        deepest = deepest.max(d);
        e.for_each_child(&mut |p| todo.push((p, d + 1)));
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
        e.for_each_child(&mut |p| todo.push(p));
    }
    n
}
