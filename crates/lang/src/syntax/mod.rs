//! The expression language's syntax: a pest grammar behind our own AST.
//!
//! Every node carries a [`Span`] (byte offsets into the text it was parsed from), so that the
//! checker can point at any sub-expression. pest's rule names are translated into words a
//! designer reads ("expected an operator"); nothing outside this module sees pest, so the
//! parser could be replaced without touching the checker.
//!
//! One concern a file: the tree ([`ast`]), the names a pack may use ([`names`]), syntax
//! errors in words ([`error`]), the depth limit and the pre-scan that enforces it before pest
//! recurses ([`nesting`]), and the parser itself ([`parse`]).

mod ast;
mod error;
mod names;
mod nesting;
mod parse;

pub use ast::*;
pub use error::SyntaxError;
pub use names::{bad_name, is_name};
#[cfg(test)]
use nesting::depth;
pub use nesting::{MAX_EXPR_DEPTH, too_deep_message};
pub use parse::{parse_definition, parse_expr, parse_pattern};

#[cfg(test)]
mod tests;
