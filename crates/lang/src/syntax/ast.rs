//! The syntax tree of expressions and move patterns, as parsed and before any name is
//! resolved. Its own file so that the checker and the readers depend on these types, not on
//! the parser that builds them.

/// A byte range in the text an expression was parsed from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
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
    /// `hop DIRS [far] [over EXPR] [chain[(EXPR)]]`
    Hop {
        /// `far`: across empty cells to the piece taken, and onto any empty cell beyond.
        far: bool,
        /// The condition on the piece hopped over.
        over: Option<Expr>,
        /// Whether and when the hop may be chained: `Some(None)` for a bare `chain`.
        chain: Option<Option<Expr>>,
        /// `chain complete`: a chain must go on while it can.
        complete: bool,
    },
    /// `slide DIRS [upto N] [screen | over own] [until EXPR]`
    Slide {
        /// `upto N`, with where N is.
        upto: Option<(i64, Span)>,
        /// `screen`.
        screen: bool,
        /// `over own`: the slide passes the mover's own pieces.
        over_own: bool,
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
    /// `fly`: to any cell of the board.
    Fly,
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
