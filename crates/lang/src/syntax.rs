//! The expression language's syntax: a pest grammar behind our own AST.
//!
//! Every node carries a [`Span`] (byte offsets into the text it was parsed from), so that the
//! checker can point at any sub-expression. pest's rule names are translated into words a
//! designer reads ("expected an operator"); nothing outside this module sees pest, so the
//! parser could be replaced without touching the checker.

use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::LazyLock;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub struct Grammar;
}
use grammar::{Grammar, Rule};

/// A byte range in the text an expression was parsed from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    fn of(pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A name with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// A unary operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `not`
    Not,
    /// `-`
    Neg,
}

/// A binary operator as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `is`
    Is,
    /// `has`
    Has,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl BinOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        use BinOp::*;
        match self {
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            In => "in",
            Is => "is",
            Has => "has",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
        }
    }
}

/// An expression node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A bare name.
    Name(String),
    /// `f(a, b)`.
    Call(Name, Vec<Expr>),
    /// `e.name`.
    Field(Box<Expr>, Name),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// A move pattern's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternKind {
    /// `step DIRS`
    Step,
    /// `jump DIRS across ZONE [unless EXPR]`
    Jump {
        /// The zone crossed.
        zone: Name,
        /// The blocking condition.
        unless: Option<Expr>,
    },
    /// `hop DIRS [over EXPR] [chain[(EXPR)]]`
    Hop {
        /// The condition on the piece hopped over.
        over: Option<Expr>,
        /// Whether and when the hop may be chained: `Some(None)` for a bare `chain`.
        chain: Option<Option<Expr>>,
        /// `chain complete`: a chain must go on while it can.
        complete: bool,
    },
    /// `slide DIRS [upto N] [screen] [until EXPR]`
    Slide {
        /// `upto N`, with where N is.
        upto: Option<(i64, Span)>,
        /// `screen`.
        screen: bool,
        /// `until EXPR`: the slide may stop on a cell where it holds, not pass it.
        until: Option<Expr>,
    },
    /// `leap (A, B) [unless EXPR]`
    Leap {
        /// The offset, with where it is written.
        offset: (i64, i64, Span),
        /// The blocking condition on the leg.
        unless: Option<Expr>,
    },
    /// `place`
    Place,
}

/// `then place KIND by slide DIRS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThenAst {
    /// The kind placed.
    pub kind: Name,
    /// The slide directions.
    pub dirs: Vec<Name>,
}

/// A parsed move pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternAst {
    /// Shape.
    pub kind: PatternKind,
    /// Direction names.
    pub dirs: Vec<Name>,
    /// `quiet` or `capturing`, if given.
    pub mode: Option<Name>,
    /// `when EXPR`.
    pub condition: Option<Expr>,
    /// `then place ...`.
    pub then: Option<ThenAst>,
    /// `leaves ghost` or `takes ghost`: the word (`leaves`, `takes`).
    pub ghost: Option<Name>,
}

/// A definition head: `name` or `name(a, b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionHead {
    /// The name defined.
    pub name: Name,
    /// Parameter names.
    pub params: Vec<Name>,
}

/// The reserved words of the language: they cannot name anything.
pub const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "if",
    "then",
    "else",
    "in",
    "is",
    "has",
    "true",
    "false",
    "step",
    "jump",
    "hop",
    "across",
    "over",
    "unless",
    "chain",
    "when",
    "quiet",
    "capturing",
    "complete",
];

/// Whether `s` can be written as a name in an expression: letters, digits and `_`, not
/// starting with a digit, and not a reserved word.
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where (within the parsed text).
    pub span: Span,
    /// What was expected.
    pub message: String,
    /// A short note under the caret, when there is something better to say than the message.
    pub label: Option<String>,
    /// How to fix it, when known.
    pub help: Option<String>,
}

impl SyntaxError {
    fn new(span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            span,
            message: message.into(),
            label: None,
            help: None,
        }
    }

    fn label(mut self, label: impl Into<String>) -> SyntaxError {
        self.label = Some(label.into());
        self
    }

    fn help(mut self, help: impl Into<String>) -> SyntaxError {
        self.help = Some(help.into());
        self
    }
}

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

fn too_deep(span: Span) -> SyntaxError {
    SyntaxError::new(span, too_deep_message())
        .label("too deep")
        .help("every `(`, `not`, `-`, `if` and operator applied to another's result adds a level; write it with fewer levels")
}

/// Reads the text once, without recursion, before pest sees it: pest's parser recurses on
/// each parenthesis and `if`, and its Pratt parser on each prefix operator, so an expression
/// nested thousands deep must be refused here. The same pass finds mistakes that pest would
/// report in puzzling words: an unclosed `(`, a stray `)`, `=` written for `==`.
fn scan(text: &str) -> Result<(), SyntaxError> {
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

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Assoc::Left))
        .op(Op::infix(Rule::and_op, Assoc::Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq_op, Assoc::Left)
            | Op::infix(Rule::ne_op, Assoc::Left)
            | Op::infix(Rule::lt_op, Assoc::Left)
            | Op::infix(Rule::le_op, Assoc::Left)
            | Op::infix(Rule::gt_op, Assoc::Left)
            | Op::infix(Rule::ge_op, Assoc::Left)
            | Op::infix(Rule::in_op, Assoc::Left)
            | Op::infix(Rule::is_op, Assoc::Left)
            | Op::infix(Rule::has_op, Assoc::Left))
        .op(Op::infix(Rule::add_op, Assoc::Left) | Op::infix(Rule::sub_op, Assoc::Left))
        .op(Op::infix(Rule::mul_op, Assoc::Left)
            | Op::infix(Rule::div_op, Assoc::Left)
            | Op::infix(Rule::rem_op, Assoc::Left))
        .op(Op::prefix(Rule::neg_op))
        .op(Op::postfix(Rule::field))
});

/// Words for the grammar's rules, as a designer would say them.
fn rule_words(rule: &Rule) -> String {
    use Rule::*;
    match rule {
        EOI => "the end of the text",
        dir => "a direction",
        ident | int | boolean | expr | expression | primary | call | if_expr | prefix | not_op
        | neg_op => "a value (a name, a number, `(` ...)",
        infix | postfix => "an operator",
        or_op | and_op | eq_op | ne_op | le_op | ge_op | lt_op | gt_op | in_op | is_op | has_op
        | add_op | sub_op | mul_op | div_op | rem_op => "an operator",
        field => "`.` and a field name",
        pattern | step | jump | hop | slide | leap | place => {
            "`step`, `slide`, `leap`, `jump`, `hop` or `place`"
        }
        upto => "`upto N`",
        screen => "`screen`",
        ghost | leaves | takes => "`leaves ghost` or `takes ghost`",
        until => "`until`",
        then_place => "`then place KIND by slide DIRS`",
        dirs => "a direction such as `orthogonal`",
        mode | quiet | capturing => "`quiet` or `capturing`",
        unless => "`unless`",
        over => "`over`",
        chain => "`chain`",
        complete => "`complete`",
        condition => "`when`",
        definition => "a definition name such as `strength(p)`",
        keyword => "a keyword",
        WHITESPACE | COMMENT => "a space",
    }
    .to_string()
}

fn convert_error(e: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let span = match e.location {
        InputLocation::Pos(p) => Span { start: p, end: p },
        InputLocation::Span((s, t)) => Span { start: s, end: t },
    };
    let message = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut words: Vec<String> = positives.iter().map(rule_words).collect();
            words.sort();
            words.dedup();
            if words.is_empty() {
                let mut neg: Vec<String> = negatives.iter().map(rule_words).collect();
                neg.dedup();
                format!("unexpected {}", neg.join(" or "))
            } else {
                format!("expected {}", join_or(&words))
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError::new(span, message)
}

fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// Parses an expression.
pub fn parse_expr(text: &str) -> Result<Expr, SyntaxError> {
    scan(text)?;
    let mut pairs = Grammar::parse(Rule::expression, text).map_err(convert_error)?;
    let top = pairs.next().and_then(|p| p.into_inner().next());
    match top {
        Some(e) => {
            let built = build_expr(e.into_inner(), text)?;
            debug_assert_eq!(depth(&built.expr), built.depth);
            Ok(built.expr)
        }
        None => Err(SyntaxError::new(Span::default(), "expected an expression")),
    }
}

/// An expression being built, with what the builder needs to know about it without
/// walking it again.
struct Built {
    expr: Expr,
    /// As [`depth`] would measure it.
    depth: usize,
    /// A comparison written without parentheses, which another comparison may not take as
    /// an operand.
    bare_comparison: bool,
}

impl Built {
    fn node(kind: ExprKind, span: Span, depth: usize) -> Result<Built, SyntaxError> {
        if depth > MAX_EXPR_DEPTH {
            return Err(too_deep(span));
        }
        Ok(Built {
            expr: Expr { kind, span },
            depth,
            bare_comparison: false,
        })
    }
}

fn is_order(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

/// Builds the tree bottom-up. Every node knows its depth as it is made, so a tree deeper
/// than [`MAX_EXPR_DEPTH`] is never built (dropping one would recurse as deep).
fn build_expr(pairs: Pairs<'_, Rule>, text: &str) -> Result<Built, SyntaxError> {
    PRATT
        .map_primary(|p| build_primary(p, text))
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = Span::of(&op).join(rhs.expr.span);
            let op = if op.as_rule() == Rule::not_op {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Built::node(ExprKind::Unary(op, Box::new(rhs.expr)), span, rhs.depth + 1)
        })
        .map_postfix(|lhs, op| {
            let lhs = lhs?;
            let name_pair = op.clone().into_inner().next();
            let name = Name {
                text: name_pair
                    .as_ref()
                    .map_or(String::new(), |p| p.as_str().to_string()),
                span: name_pair.as_ref().map_or(Span::of(&op), Span::of),
            };
            let span = lhs.expr.span.join(Span::of(&op));
            Built::node(
                ExprKind::Field(Box::new(lhs.expr), name),
                span,
                lhs.depth + 1,
            )
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            use BinOp::*;
            let op = match op.as_rule() {
                Rule::or_op => Or,
                Rule::and_op => And,
                Rule::eq_op => Eq,
                Rule::ne_op => Ne,
                Rule::lt_op => Lt,
                Rule::le_op => Le,
                Rule::gt_op => Gt,
                Rule::ge_op => Ge,
                Rule::in_op => In,
                Rule::is_op => Is,
                Rule::has_op => Has,
                Rule::add_op => Add,
                Rule::sub_op => Sub,
                Rule::mul_op => Mul,
                Rule::div_op => Div,
                _ => Rem,
            };
            let span = lhs.expr.span.join(rhs.expr.span);
            if is_order(op)
                && lhs.bare_comparison
                && let ExprKind::Binary(first, a, b) = &lhs.expr.kind
            {
                let part = |s: Span| text.get(s.start..s.end).unwrap_or("..");
                return Err(SyntaxError::new(
                    span,
                    format!(
                        "comparisons do not chain: write `{} {} {} and {} {} {}`",
                        part(a.span),
                        first.text(),
                        part(b.span),
                        part(b.span),
                        op.text(),
                        part(rhs.expr.span)
                    ),
                )
                .label("two comparisons in a row")
                .help("`a < b < c` would compare the truth value `a < b` with `c`"));
            }
            let depth = lhs.depth.max(rhs.depth) + 1;
            let mut built = Built::node(
                ExprKind::Binary(op, Box::new(lhs.expr), Box::new(rhs.expr)),
                span,
                depth,
            )?;
            built.bare_comparison = is_order(op);
            Ok(built)
        })
        .parse(pairs)
}

fn build_primary(pair: Pair<'_, Rule>, text: &str) -> Result<Built, SyntaxError> {
    let span = Span::of(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(
            pair.as_str()
                .parse()
                .map_err(|_| SyntaxError::new(span, "this number is too large"))?,
        ),
        Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
        Rule::ident => ExprKind::Name(pair.as_str().to_string()),
        Rule::expr => {
            // Parentheses: the same tree, but a comparison in them may be compared again.
            let mut inner = build_expr(pair.into_inner(), text)?;
            inner.bare_comparison = false;
            return Ok(inner);
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().map(|n| Name {
                text: n.as_str().to_string(),
                span: Span::of(&n),
            });
            let mut depth = 0;
            let mut args = Vec::new();
            for a in inner {
                let b = build_expr(a.into_inner(), text)?;
                depth = depth.max(b.depth);
                args.push(b.expr);
            }
            let name = name.unwrap_or(Name {
                text: String::new(),
                span,
            });
            return Built::node(ExprKind::Call(name, args), span, depth + 1);
        }
        Rule::if_expr => {
            let mut parts = Vec::new();
            for p in pair.into_inner() {
                parts.push(build_expr(p.into_inner(), text)?);
            }
            let depth = parts.iter().map(|p| p.depth).max().unwrap_or(0) + 1;
            let mut parts = parts.into_iter().map(|p| p.expr);
            return match (parts.next(), parts.next(), parts.next()) {
                (Some(c), Some(a), Some(b)) => Built::node(
                    ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                    span,
                    depth,
                ),
                _ => Err(SyntaxError::new(
                    span,
                    "expected `if ... then ... else ...`",
                )),
            };
        }
        _ => return Err(SyntaxError::new(span, "expected a value")),
    };
    Built::node(kind, span, 1)
}

fn name(pair: &Pair<'_, Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: Span::of(pair),
    }
}

fn inner_expr(pair: Pair<'_, Rule>, text: &str) -> Result<Option<Expr>, SyntaxError> {
    match pair.into_inner().next() {
        Some(e) => build_expr(e.into_inner(), text).map(|b| Some(b.expr)),
        None => Ok(None),
    }
}

/// Parses a move pattern such as `jump orthogonal across water unless occupant is Rat`.
pub fn parse_pattern(text: &str) -> Result<PatternAst, SyntaxError> {
    scan(text)?;
    let mut pairs = Grammar::parse(Rule::pattern, text).map_err(|e| {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.first() == Some(&"jump") && !words.contains(&"across") {
            // pest blames the word `jump`, since no shape matched: say what is missing.
            let end = ["quiet", "capturing", "unless", "when"]
                .iter()
                .filter_map(|w| {
                    text.match_indices(w)
                        .map(|(i, _)| i)
                        .find(|&i| text[..i].ends_with(char::is_whitespace))
                })
                .min()
                .unwrap_or(text.len());
            let start = text.len() - text.trim_start().len();
            let end = start.max(text[..end].trim_end().len());
            return SyntaxError::new(
                Span { start, end },
                "a jump needs `across ZONE`: the zone it jumps over",
            )
            .label("no `across ZONE`")
            .help("write it as `jump DIRS across ZONE`, naming one of the pack's zones");
        }
        convert_error(e)
    })?;
    let Some(body) = pairs.next().and_then(|p| p.into_inner().next()) else {
        return Err(SyntaxError::new(Span::default(), "expected a move pattern"));
    };
    let shape = body.as_rule();
    let mut dirs = Vec::new();
    let mut mode = None;
    let mut condition = None;
    let mut zone = None;
    let mut unless = None;
    let mut over = None;
    let mut chain = None;
    let mut complete = false;
    let mut upto = None;
    let mut screen = false;
    let mut until = None;
    let mut ints = Vec::new();
    let mut then = None;
    let mut ghost = None;
    for part in body.into_inner() {
        match part.as_rule() {
            Rule::dirs => dirs = part.into_inner().map(|d| name(&d)).collect(),
            Rule::int => ints.push((
                part.as_str().parse::<i64>().unwrap_or(i64::MAX),
                Span::of(&part),
            )),
            Rule::upto => {
                if let Some(n) = part.into_inner().next() {
                    upto = Some((n.as_str().parse::<i64>().unwrap_or(i64::MAX), Span::of(&n)));
                }
            }
            Rule::screen => screen = true,
            Rule::ghost => ghost = part.into_inner().next().map(|w| name(&w)),
            Rule::until => until = inner_expr(part, text)?,
            Rule::then_place => {
                let mut kind = None;
                let mut then_dirs = Vec::new();
                for p in part.into_inner() {
                    match p.as_rule() {
                        Rule::ident => kind = Some(name(&p)),
                        Rule::dirs => then_dirs = p.into_inner().map(|d| name(&d)).collect(),
                        _ => {}
                    }
                }
                if let Some(kind) = kind {
                    then = Some(ThenAst {
                        kind,
                        dirs: then_dirs,
                    });
                }
            }
            Rule::mode => mode = part.into_inner().next().map(|m| name(&m)),
            Rule::ident => zone = Some(name(&part)),
            Rule::unless => unless = inner_expr(part, text)?,
            Rule::over => over = inner_expr(part, text)?,
            Rule::chain => {
                complete = part
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::complete);
                let e = part.into_inner().find(|p| p.as_rule() == Rule::expr);
                chain = Some(match e {
                    Some(e) => Some(build_expr(e.into_inner(), text)?.expr),
                    None => None,
                });
            }
            Rule::condition => condition = inner_expr(part, text)?,
            _ => {}
        }
    }
    let kind = match shape {
        Rule::step => PatternKind::Step,
        Rule::slide => PatternKind::Slide {
            upto,
            screen,
            until,
        },
        Rule::leap => {
            let (a, sa) = ints.first().copied().unwrap_or((0, Span::default()));
            let (b, sb) = ints.get(1).copied().unwrap_or((0, Span::default()));
            PatternKind::Leap {
                offset: (
                    a,
                    b,
                    Span {
                        start: sa.start,
                        end: sb.end,
                    },
                ),
                unless,
            }
        }
        Rule::place => PatternKind::Place,
        Rule::jump => PatternKind::Jump {
            zone: zone.unwrap_or(Name {
                text: String::new(),
                span: Span::default(),
            }),
            unless,
        },
        _ => PatternKind::Hop {
            over,
            chain,
            complete,
        },
    };
    Ok(PatternAst {
        kind,
        dirs,
        mode,
        condition,
        then,
        ghost,
    })
}

/// Parses a definition head: `strength` or `strength(p)`.
pub fn parse_definition(text: &str) -> Result<DefinitionHead, SyntaxError> {
    let mut pairs = Grammar::parse(Rule::definition, text).map_err(convert_error)?;
    let mut names = pairs
        .next()
        .map(|p| {
            p.into_inner()
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| name(&p))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter();
    let Some(head) = names.next() else {
        return Err(SyntaxError::new(
            Span::default(),
            "expected a definition name",
        ));
    };
    Ok(DefinitionHead {
        name: head,
        params: names.collect(),
    })
}

/// Why `name` cannot name a thing of the pack (`what`, as in "a zone"), if it cannot: a
/// reserved word, or not writable in an expression. The second part is how to fix it.
pub fn bad_name(name: &str, what: &str) -> Option<(String, String)> {
    if is_name(name) {
        return None;
    }
    if KEYWORDS.contains(&name) {
        return Some((
            format!("`{name}` is a reserved word of the language, so it cannot name {what}"),
            format!(
                "choose another name; the reserved words are {}",
                KEYWORDS.join(" ")
            ),
        ));
    }
    let fixed: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let fixed = if fixed.starts_with(|c: char| c.is_ascii_digit()) || fixed.is_empty() {
        format!("_{fixed}")
    } else {
        fixed
    };
    Some((
        format!("`{name}` cannot be written in an expression, so it cannot name {what}"),
        format!(
            "a name is letters, digits and `_`, not starting with a digit: `{fixed}`, for instance"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::Call(f, a) => format!(
                "{}({})",
                f.text,
                a.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            ExprKind::Field(e, n) => format!("{}.{}", show(e), n.text),
            ExprKind::Unary(UnOp::Not, e) => format!("(not {})", show(e)),
            ExprKind::Unary(UnOp::Neg, e) => format!("(-{})", show(e)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.text(), show(b)),
            ExprKind::If(c, a, b) => format!("(if {} then {} else {})", show(c), show(a), show(b)),
        }
    }

    #[test]
    fn depth_is_measured_as_built() {
        for (text, d) in [
            ("1", 1),
            ("a.b", 2),
            ("not not a", 3),
            ("1 + 2 + 3", 3),
            ("f(1, g(2))", 3),
            ("((((x))))", 1),
            ("if a then b else c + 1", 3),
        ] {
            assert_eq!(depth(&parse_expr(text).unwrap()), d, "{text}");
        }
        let ok = format!("x{}", " + 1".repeat(MAX_EXPR_DEPTH - 1));
        assert_eq!(depth(&parse_expr(&ok).unwrap()), MAX_EXPR_DEPTH);
        let deep = format!("x{}", " + 1".repeat(MAX_EXPR_DEPTH));
        assert_eq!(parse_expr(&deep).unwrap_err().message, too_deep_message());
    }

    #[test]
    fn precedence() {
        let e = parse_expr("not to in water or mover has swimmer and 1 + 2 * 3 >= x.rank").unwrap();
        assert_eq!(
            show(&e),
            "((not (to in water)) or ((mover has swimmer) and ((1 + (2 * 3)) >= x.rank)))"
        );
        let e = parse_expr("if p.cell in trap(opponent(p.owner)) then 0 else -p.rank").unwrap();
        assert_eq!(
            show(&e),
            "(if (p.cell in trap(opponent(p.owner))) then 0 else (-p.rank))"
        );
    }

    #[test]
    fn spans_point_into_the_text() {
        let text = "mover.rank >= target.rank";
        let e = parse_expr(text).unwrap();
        let ExprKind::Binary(_, a, b) = &e.kind else {
            panic!()
        };
        assert_eq!(&text[a.span.start..a.span.end], "mover.rank");
        assert_eq!(&text[b.span.start..b.span.end], "target.rank");
    }

    #[test]
    fn errors_are_in_words() {
        let err = parse_expr("mover.rank >= ").unwrap_err();
        assert_eq!(err.span.start, 14);
        assert!(err.message.contains("a value"), "{}", err.message);
        let err = parse_expr("a b").unwrap_err();
        assert!(err.message.contains("operator"), "{}", err.message);
    }

    #[test]
    fn patterns() {
        let p = parse_pattern("hop orthogonal over Rabbit chain(multi_hop)").unwrap();
        assert!(matches!(
            p.kind,
            PatternKind::Hop {
                over: Some(_),
                chain: Some(Some(_)),
                complete: false
            }
        ));
        let p = parse_pattern("hop forward_diagonal chain complete").unwrap();
        assert!(matches!(
            p.kind,
            PatternKind::Hop {
                chain: Some(None),
                complete: true,
                ..
            }
        ));
        let p = parse_pattern("jump orthogonal across water unless occupant is Rat").unwrap();
        assert!(matches!(
            p.kind,
            PatternKind::Jump {
                unless: Some(_),
                ..
            }
        ));
        let p = parse_pattern("step forward, forward_left + forward_right quiet").unwrap();
        assert_eq!(p.dirs.len(), 3);
        assert_eq!(p.mode.unwrap().text, "quiet");
        assert!(parse_pattern("walk orthogonal").is_err());
        let d = parse_definition("strength(p)").unwrap();
        assert_eq!((d.name.text.as_str(), d.params.len()), ("strength", 1));
    }
}
