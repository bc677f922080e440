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
}

/// A definition head: `name` or `name(a, b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionHead {
    /// The name defined.
    pub name: Name,
    /// Parameter names.
    pub params: Vec<Name>,
}

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where (within the parsed text).
    pub span: Span,
    /// What was expected.
    pub message: String,
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
        pattern => "`step`, `jump` or `hop`",
        step | jump | hop => "`step`, `jump` or `hop`",
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
    SyntaxError { span, message }
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
    let mut pairs = Grammar::parse(Rule::expression, text).map_err(convert_error)?;
    let top = pairs.next().and_then(|p| p.into_inner().next());
    match top {
        Some(e) => build_expr(e.into_inner()),
        None => Err(SyntaxError {
            span: Span::default(),
            message: "expected an expression".into(),
        }),
    }
}

fn build_expr(pairs: Pairs<'_, Rule>) -> Result<Expr, SyntaxError> {
    PRATT
        .map_primary(build_primary)
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = Span::of(&op).join(rhs.span);
            let op = if op.as_rule() == Rule::not_op {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span,
            })
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
            let span = lhs.span.join(Span::of(&op));
            Ok(Expr {
                kind: ExprKind::Field(Box::new(lhs), name),
                span,
            })
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
            let span = lhs.span.join(rhs.span);
            Ok(Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            })
        })
        .parse(pairs)
}

fn build_primary(pair: Pair<'_, Rule>) -> Result<Expr, SyntaxError> {
    let span = Span::of(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(pair.as_str().parse().map_err(|_| SyntaxError {
            span,
            message: "this number is too large".into(),
        })?),
        Rule::boolean => ExprKind::Bool(pair.as_str() == "true"),
        Rule::ident => ExprKind::Name(pair.as_str().to_string()),
        Rule::expr => return build_expr(pair.into_inner()),
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().map(|n| Name {
                text: n.as_str().to_string(),
                span: Span::of(&n),
            });
            let args = inner
                .map(|a| build_expr(a.into_inner()))
                .collect::<Result<Vec<_>, _>>()?;
            ExprKind::Call(
                name.unwrap_or(Name {
                    text: String::new(),
                    span,
                }),
                args,
            )
        }
        Rule::if_expr => {
            let mut parts = pair
                .into_inner()
                .map(|p| build_expr(p.into_inner()))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter();
            match (parts.next(), parts.next(), parts.next()) {
                (Some(c), Some(a), Some(b)) => ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                _ => {
                    return Err(SyntaxError {
                        span,
                        message: "expected `if ... then ... else ...`".into(),
                    });
                }
            }
        }
        _ => {
            return Err(SyntaxError {
                span,
                message: "expected a value".into(),
            });
        }
    };
    Ok(Expr { kind, span })
}

fn name(pair: &Pair<'_, Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: Span::of(pair),
    }
}

fn inner_expr(pair: Pair<'_, Rule>) -> Result<Option<Expr>, SyntaxError> {
    match pair.into_inner().next() {
        Some(e) => build_expr(e.into_inner()).map(Some),
        None => Ok(None),
    }
}

/// Parses a move pattern such as `jump orthogonal across water unless occupant is Rat`.
pub fn parse_pattern(text: &str) -> Result<PatternAst, SyntaxError> {
    let mut pairs = Grammar::parse(Rule::pattern, text).map_err(convert_error)?;
    let Some(body) = pairs.next().and_then(|p| p.into_inner().next()) else {
        return Err(SyntaxError {
            span: Span::default(),
            message: "expected a move pattern".into(),
        });
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
    for part in body.into_inner() {
        match part.as_rule() {
            Rule::dirs => dirs = part.into_inner().map(|d| name(&d)).collect(),
            Rule::mode => mode = part.into_inner().next().map(|m| name(&m)),
            Rule::ident => zone = Some(name(&part)),
            Rule::unless => unless = inner_expr(part)?,
            Rule::over => over = inner_expr(part)?,
            Rule::chain => {
                complete = part
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::complete);
                let e = part.into_inner().find(|p| p.as_rule() == Rule::expr);
                chain = Some(match e {
                    Some(e) => Some(build_expr(e.into_inner())?),
                    None => None,
                });
            }
            Rule::condition => condition = inner_expr(part)?,
            _ => {}
        }
    }
    let kind = match shape {
        Rule::step => PatternKind::Step,
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
        return Err(SyntaxError {
            span: Span::default(),
            message: "expected a definition name".into(),
        });
    };
    Ok(DefinitionHead {
        name: head,
        params: names.collect(),
    })
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
