//! How deep an expression may nest, and the pass that refuses deeper ones before pest sees
//! them. Its own file because the limit is a safety property: pest, the checker and the
//! kernel all recurse, and this is where the recursion is bounded.

use super::{Expr, ExprKind, Span, SyntaxError};

/// The deepest an expression may nest: the kernel's limit ([`ply_kernel::MAX_EXPR_DEPTH`]),
/// checked here first. Each parenthesis, `not`, `-`, `if`, operator applied to the result of
/// another operator, field and call argument is a level, and so is each level of a definition
/// expanded in place. Deeper expressions are refused with a located error rather than risking
/// the stack of whoever parses, checks, evaluates or drops them.
pub use ply_kernel::MAX_EXPR_DEPTH;

/// The message of every "too deep" error, wherever it is found.
pub fn too_deep_message() -> String {
    format!("this expression nests too deeply; the limit is {MAX_EXPR_DEPTH}")
}

pub(super) fn too_deep(span: Span) -> SyntaxError {
    SyntaxError::new(span, too_deep_message())
        .label("too deep")
        .help("every `(`, `not`, `-`, `if` and operator applied to another's result adds a level; write it with fewer levels")
}

/// Reads the text once, without recursion, before pest sees it: pest's parser recurses on
/// each parenthesis and `if`, and its Pratt parser on each prefix operator, so an expression
/// nested thousands deep must be refused here. The same pass finds mistakes that pest would
/// report in puzzling words: an unclosed `(`, a stray `)`, `=` written for `==`.
pub(super) fn scan(text: &str) -> Result<(), SyntaxError> {
    struct Frame {
        open: usize,
        depth_before: usize,
        prefixes_before: usize,
    }
    let bytes = text.as_bytes();
    let mut frames: Vec<Frame> = Vec::new();
    let mut depth = 0usize;
    // Prefix operators (`not`, `-`) opened in the current parenthesis since the last `and` or
    // `or`, which closes them; an `if` stays open to the end of its parenthesis.
    let mut prefixes = 0usize;
    // Whether the previous token ends an operand (so that a `-` after it is binary).
    let mut after_operand = false;
    let mut i = 0;
    let deeper = |depth: &mut usize, at: usize, len: usize| -> Result<(), SyntaxError> {
        *depth += 1;
        if *depth > MAX_EXPR_DEPTH {
            return Err(too_deep(Span {
                start: at,
                end: at + len,
            }));
        }
        Ok(())
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                frames.push(Frame {
                    open: i,
                    depth_before: depth,
                    prefixes_before: prefixes,
                });
                deeper(&mut depth, i, 1)?;
                prefixes = 0;
                after_operand = false;
            }
            b')' => {
                let Some(f) = frames.pop() else {
                    return Err(SyntaxError::new(
                        Span {
                            start: i,
                            end: i + 1,
                        },
                        "this `)` closes no `(`",
                    )
                    .label("no `(` before it")
                    .help("remove it, or add the `(` it was meant to close"));
                };
                depth = f.depth_before;
                prefixes = f.prefixes_before;
                after_operand = true;
            }
            b',' => {
                depth = frames.last().map_or(0, |f| f.depth_before + 1);
                prefixes = 0;
                after_operand = false;
            }
            b'=' => {
                let prev = i.checked_sub(1).map(|j| bytes[j]);
                let next = bytes.get(i + 1).copied();
                if next == Some(b'=') {
                    i += 2;
                    after_operand = false;
                    continue;
                }
                if !matches!(prev, Some(b'<' | b'>' | b'!')) {
                    return Err(SyntaxError::new(
                        Span {
                            start: i,
                            end: i + 1,
                        },
                        "`=` is not an operator of expressions: to compare, write `==`",
                    )
                    .label("write `==`"));
                }
                after_operand = false;
            }
            b'-' => {
                if !after_operand {
                    deeper(&mut depth, i, 1)?;
                    prefixes += 1;
                }
                after_operand = false;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &text[start..i] {
                    "not" => {
                        deeper(&mut depth, start, i - start)?;
                        prefixes += 1;
                        after_operand = false;
                    }
                    "if" => {
                        deeper(&mut depth, start, i - start)?;
                        after_operand = false;
                    }
                    "and" | "or" => {
                        depth -= prefixes.min(depth);
                        prefixes = 0;
                        after_operand = false;
                    }
                    "then" | "else" | "in" | "is" | "has" | "when" | "unless" | "over"
                    | "across" | "step" | "jump" | "hop" => after_operand = false,
                    _ => after_operand = true,
                }
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => after_operand = false,
        }
        i += 1;
    }
    if let Some(f) = frames.first() {
        return Err(SyntaxError::new(
            Span {
                start: f.open,
                end: f.open + 1,
            },
            "this `(` is never closed",
        )
        .label("not closed")
        .help("add the `)` that closes it"));
    }
    Ok(())
}

/// The depth of an expression, measured without recursion: a name or a number is 1 deep,
/// `a + b` one more than the deeper of `a` and `b`.
pub fn depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(e, 1usize)];
    while let Some((e, d)) = todo.pop() {
        deepest = deepest.max(d);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) => {}
            ExprKind::Call(_, args) => todo.extend(args.iter().map(|a| (a, d + 1))),
            ExprKind::Field(x, _) | ExprKind::Unary(_, x) => todo.push((x, d + 1)),
            ExprKind::Binary(_, a, b) => todo.extend([(&**a, d + 1), (&**b, d + 1)]),
            ExprKind::If(c, a, b) => todo.extend([(&**c, d + 1), (&**a, d + 1), (&**b, d + 1)]),
        }
    }
    deepest
}
