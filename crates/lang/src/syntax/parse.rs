//! The parser: pest's grammar (`grammar.pest`) and the builder from its pairs to our tree,
//! with each node's depth measured as it is made. Its own file so that nothing else sees pest.

use super::error::{SyntaxError, convert_error};
use super::nesting::depth;
use super::nesting::{MAX_EXPR_DEPTH, scan, too_deep};
use super::{
    BinOp, DefinitionHead, Expr, ExprKind, Name, PatternAst, PatternKind, Span, ThenAst, UnOp,
};
use pest::Parser as _;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::LazyLock;

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub struct Grammar;
}
use grammar::Grammar;
pub(super) use grammar::Rule;

impl Span {
    fn of(pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }
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
    let mut over_own = false;
    let mut far = false;
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
            Rule::over_own => over_own = true,
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
            Rule::far => far = true,
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
            over_own,
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
        Rule::fly => PatternKind::Fly,
        Rule::jump => PatternKind::Jump {
            zone: zone.unwrap_or(Name {
                text: String::new(),
                span: Span::default(),
            }),
            unless,
        },
        _ => PatternKind::Hop {
            far,
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
