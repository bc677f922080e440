//! Name resolution and type checking: from the parsed AST to the kernel's [`Expr`].
//!
//! Each place an expression may appear has a [`Scope`]: the variables bound there and the
//! functions allowed (`no_moves` only in end rules, `placed` only in place rules). Names are
//! looked up in this order: definition parameters, scope variables, definitions, options,
//! players, piece kinds, zones, tags. A name that is none of these gets a "did you mean"
//! among all names visible. Options are constants: they are folded in here, so the kernel never
//! sees them. Definitions are expanded inline at each use, with their parameters bound to the
//! checked arguments; a definition that uses itself is reported.

use crate::diag::{Diagnostic, Loc};
use crate::syntax::{self, ExprKind, MAX_EXPR_DEPTH, Span, UnOp, too_deep_message};
use ply_kernel::expr::{BinOp, Expr, Value, Var};
use ply_kernel::{DirSet, KindId, Player};
use std::collections::HashSet;

mod builtins;

/// The builtin functions of the expression language: each one's name and how a call of it is
/// written (`count(PLAYER, KIND)`), in the order the guide lists them.
pub fn builtin_functions() -> impl Iterator<Item = (&'static str, &'static str)> {
    builtins::BUILTINS.iter().map(|b| (b.name, b.usage))
}

/// A type of the expression language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `true` or `false`.
    Bool,
    /// Integers.
    Int,
    /// A player.
    Player,
    /// A piece (possibly none, for `occupant` and `piece_at`).
    Piece,
    /// A cell.
    Cell,
    /// A kind of piece.
    Kind,
}

impl Ty {
    fn words(self) -> &'static str {
        match self {
            Ty::Bool => "true or false",
            Ty::Int => "a number",
            Ty::Player => "a player",
            Ty::Piece => "a piece",
            Ty::Cell => "a cell",
            Ty::Kind => "a kind of piece",
        }
    }
}

/// Where an expression's text is, so that spans inside it map to the file.
#[derive(Copy, Clone, Debug)]
pub struct Text {
    /// The whole string value, quotes included.
    pub whole: Loc,
    /// Where the string's characters start in the file, if they map one to one.
    pub base: Option<usize>,
}

impl Text {
    /// The file location of a span inside the text.
    pub fn loc(&self, span: Span) -> Loc {
        match self.base {
            Some(b) => Loc {
                file: self.whole.file,
                start: b + span.start,
                end: b + span.end.max(span.start),
            },
            None => self.whole,
        }
    }
}

/// The variables and functions available where an expression is used.
#[derive(Clone, Debug)]
pub struct Scope {
    /// What the expression is, for messages ("a capture rule").
    pub what: &'static str,
    /// `(name, variable, type)`.
    pub vars: &'static [(&'static str, Var, Ty)],
    /// Whether `no_moves(...)` may be used.
    pub moves: bool,
    /// Whether `placed(...)` may be used.
    pub placed: bool,
}

const PL: (&str, Var, Ty) = ("player", Var::Player, Ty::Player);
const OPP: (&str, Var, Ty) = ("opponent", Var::Opponent, Ty::Player);

/// Enter rules and a pattern's `when`.
pub const ENTER: Scope = Scope {
    what: "an enter rule",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// Capture rules and a hop's `over`.
pub const CAPTURE: Scope = Scope {
    what: "a capture rule",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// Place rules.
pub const PLACE: Scope = Scope {
    what: "a place rule",
    vars: &[
        ("piece", Var::Mover, Ty::Piece),
        ("cell", Var::To, Ty::Cell),
        PL,
        OPP,
    ],
    moves: false,
    placed: true,
};

/// A jump's `unless`.
pub const BLOCK: Scope = Scope {
    what: "a jump's `unless` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        ("occupant", Var::Occupant, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// End conditions.
pub const END: Scope = Scope {
    what: "an end condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("from", Var::From, Ty::Cell),
        ("to", Var::To, Ty::Cell),
        ("clock", Var::Clock, Ty::Int),
        ("idle", Var::Idle, Ty::Int),
        ("repetitions", Var::Repetitions, Ty::Int),
        ("passes", Var::Passes, Ty::Int),
        PL,
        OPP,
    ],
    moves: true,
    placed: false,
};

/// A slide's `until`.
pub const UNTIL: Scope = Scope {
    what: "a slide's `until` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An effect's `target`.
pub const EFFECT_TARGET: Scope = Scope {
    what: "an effect's `target` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An effect's `hostile`.
pub const HOSTILE: Scope = Scope {
    what: "an effect's `hostile` condition",
    vars: &[
        ("mover", Var::Mover, Ty::Piece),
        ("target", Var::Target, Ty::Piece),
        ("cell", Var::Cell, Ty::Cell),
        ("occupant", Var::Occupant, Ty::Piece),
        PL,
        OPP,
    ],
    moves: false,
    placed: false,
};

/// An end rule's winner.
pub const WINNER: Scope = Scope {
    what: "a winner",
    vars: &[PL, OPP],
    moves: false,
    placed: false,
};

/// Constants (a chain's condition).
pub const CONSTANT: Scope = Scope {
    what: "a constant",
    vars: &[],
    moves: false,
    placed: false,
};

const ALL_SCOPES: [&Scope; 10] = [
    &ENTER,
    &CAPTURE,
    &PLACE,
    &BLOCK,
    &END,
    &WINNER,
    &CONSTANT,
    &UNTIL,
    &EFFECT_TARGET,
    &HOSTILE,
];

/// An option's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A boolean option.
    Bool(bool),
    /// An integer option.
    Int(i64),
}

/// A definition: `name(params) = 'body'`.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The name.
    pub name: String,
    /// Parameter names.
    pub params: Vec<String>,
    /// The body, if it parsed.
    pub body: Option<syntax::Expr>,
    /// Where the body is.
    pub text: Text,
}

/// Everything names can refer to.
#[derive(Clone, Debug, Default)]
pub struct World {
    /// The two players' names.
    pub players: Vec<String>,
    /// Kind names.
    pub kinds: Vec<String>,
    /// Zone names, with whether each is owned.
    pub zones: Vec<(String, bool)>,
    /// Tag names.
    pub tags: Vec<String>,
    /// Attribute names.
    pub attributes: Vec<String>,
    /// Options and their values.
    pub options: Vec<(String, OptionValue)>,
    /// Definitions.
    pub defs: Vec<Definition>,
}

/// What a checked expression denotes: a value, or a name usable only beside an operator.
enum Checked {
    Value(Expr, Ty),
    Zone(usize, Option<Expr>),
    Tag(usize),
    Pieces(Expr, Option<KindId>),
}

/// Checks expressions against a [`World`], collecting diagnostics and what was used.
pub struct Checker<'a> {
    world: &'a World,
    /// Problems found.
    pub diags: Vec<Diagnostic>,
    /// The definitions being expanded, outermost first, each with the place of its use.
    stack: Vec<(String, Loc)>,
    /// How deep the expression being built is at the node being checked, definitions
    /// expanded.
    depth: usize,
    /// Nodes copied so far into the expression being checked (arguments of definitions and of
    /// `abs`, `min`, `max` are copied to each place they are used).
    copied: usize,
    /// Whether the expression being checked was already reported as too deep or too large.
    too_big: bool,
    /// The whole expression being checked, where "too large" is reported.
    top: Loc,
    /// Names of zones, options, definitions and tags that some expression used.
    pub used: HashSet<String>,
}

type Locals = Vec<(String, Expr, Ty)>;

/// The sort of name a place accepts, for hints.
#[derive(Copy, Clone)]
enum Sort {
    Kind,
    KindOrCondition,
    Tag,
    Zone,
}

impl<'a> Checker<'a> {
    /// A checker for this world.
    pub fn new(world: &'a World) -> Checker<'a> {
        Checker {
            world,
            diags: Vec::new(),
            stack: Vec::new(),
            depth: 0,
            copied: 0,
            too_big: false,
            top: Loc::default(),
            used: HashSet::new(),
        }
    }

    fn error(&mut self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(Some(loc), message)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Checks `e` as a `want` in `scope`. Reports problems and returns `None` on failure.
    pub fn check(&mut self, e: &syntax::Expr, text: Text, scope: &Scope, want: Ty) -> Option<Expr> {
        let (expr, ty) = self.check_value(e, text, scope)?;
        if ty != want {
            let d = self
                .error(
                    text.loc(e.span),
                    format!(
                        "{} must be {}, but this is {}",
                        cap(scope.what),
                        want.words(),
                        ty.words()
                    ),
                )
                .label(format!("this is {}", ty.words()));
            self.push(d);
            return None;
        }
        Some(expr)
    }

    /// Checks `e` in `scope` and returns it with its type, whatever the type.
    pub fn check_value(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
    ) -> Option<(Expr, Ty)> {
        self.depth = 0;
        self.copied = 0;
        self.too_big = false;
        self.top = text.loc(e.span);
        let (x, t) = self.value(e, text, scope, &Vec::new())?;
        // Fields, `abs` and the like become more than one node: measure what was built.
        if expr_depth(&x) > MAX_EXPR_DEPTH {
            self.too_deep(text.loc(e.span));
            return None;
        }
        Some((x, t))
    }

    /// Reports that the expression being checked nests too deeply, once, at the use of the
    /// outermost definition being expanded if any, else at `loc`.
    fn too_deep(&mut self, loc: Loc) {
        if self.too_big {
            return;
        }
        self.too_big = true;
        let mut d = Diagnostic::error(
            Some(self.stack.first().map_or(loc, |s| s.1)),
            too_deep_message(),
        )
        .label("too deep");
        if !self.stack.is_empty() {
            let names: Vec<&str> = self.stack.iter().map(|s| s.0.as_str()).collect();
            let shown = if names.len() > 6 {
                format!(
                    "{} -> ... -> {}",
                    names[..3].join(" -> "),
                    names[names.len() - 2..].join(" -> ")
                )
            } else {
                names.join(" -> ")
            };
            d = d.help(format!(
                "definitions are expanded where they are used, so their depths add up: {shown}"
            ));
        } else {
            d = d.help("every operator applied to another's result, field, call and `not` adds a level; write it with fewer levels");
        }
        self.push(d);
    }

    /// Accounts for a copy of `x` into the expression being built, at the current depth;
    /// `false` (and reported) when the result would be too deep or too large.
    fn copy_fits(&mut self, x: &Expr, loc: Loc) -> bool {
        if self.depth + expr_depth(x) > MAX_EXPR_DEPTH {
            self.too_deep(loc);
            return false;
        }
        self.copied += expr_size(x, MAX_EXPR_NODES + 1);
        if self.copied > MAX_EXPR_NODES {
            if !self.too_big {
                self.too_big = true;
                let at = self.top;
                self.push(
                    Diagnostic::error(
                        Some(at),
                        format!("this expression grows too large when its definitions are expanded; the limit is {MAX_EXPR_NODES} parts"),
                    )
                    .label("too large")
                    .help("an argument is copied to each use of its parameter (and `abs`, `min`, `max` use theirs twice): nest such calls less"),
                );
            }
            return false;
        }
        true
    }

    fn value(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<(Expr, Ty)> {
        match self.any(e, text, scope, locals)? {
            Checked::Value(x, t) => Some((x, t)),
            Checked::Zone(i, _) => {
                let name = &self.world.zones[i].0;
                let d = self
                    .error(
                        text.loc(e.span),
                        format!("zone `{name}` is a set of cells, not a value"),
                    )
                    .label("a zone")
                    .help(format!("use it after `in`, as in `to in {name}`"));
                self.push(d);
                None
            }
            Checked::Tag(i) => {
                let name = &self.world.tags[i];
                let d = self
                    .error(text.loc(e.span), format!("tag `{name}` is not a value"))
                    .help(format!("use it after `has`, as in `mover has {name}`"));
                self.push(d);
                None
            }
            Checked::Pieces(..) => {
                let d = self
                    .error(text.loc(e.span), "`pieces(...)` can only be counted")
                    .help("write `count(pieces(...))`");
                self.push(d);
                None
            }
        }
    }

    fn expect(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
        want: Ty,
    ) -> Option<Expr> {
        let (x, t) = self.value(e, text, scope, locals)?;
        if t == want {
            return Some(x);
        }
        // A piece stands for its cell or its owner where one is wanted.
        match (t, want) {
            (Ty::Piece, Ty::Cell) => Some(Expr::CellOf(x.boxed())),
            (Ty::Piece, Ty::Player) => Some(Expr::Owner(x.boxed())),
            _ => {
                let d = self
                    .error(
                        text.loc(e.span),
                        format!("expected {}, found {}", want.words(), t.words()),
                    )
                    .label(format!("this is {}", t.words()));
                self.push(d);
                None
            }
        }
    }

    fn any(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<Checked> {
        if self.too_big {
            return None;
        }
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            self.depth -= 1;
            self.too_deep(text.loc(e.span));
            return None;
        }
        let r = self.node(e, text, scope, locals);
        self.depth -= 1;
        r
    }

    fn node(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<Checked> {
        let loc = text.loc(e.span);
        use Checked::Value as V;
        match &e.kind {
            ExprKind::Int(i) => Some(V(Expr::Lit(Value::Int(*i)), Ty::Int)),
            ExprKind::Bool(b) => Some(V(Expr::Lit(Value::Bool(*b)), Ty::Bool)),
            ExprKind::Name(n) => self.name(n, loc, text, scope, locals),
            ExprKind::Field(inner, field) => {
                let (x, t) = self.value(inner, text, scope, locals)?;
                self.field(x, t, &field.text, text.loc(field.span))
            }
            ExprKind::Unary(UnOp::Not, inner) => {
                let x = self.expect(inner, text, scope, locals, Ty::Bool)?;
                Some(V(Expr::Not(x.boxed()), Ty::Bool))
            }
            ExprKind::Unary(UnOp::Neg, inner) => {
                let x = self.expect(inner, text, scope, locals, Ty::Int)?;
                Some(V(Expr::Neg(x.boxed()), Ty::Int))
            }
            ExprKind::If(c, a, b) => {
                let c = self.expect(c, text, scope, locals, Ty::Bool);
                let a = self.value(a, text, scope, locals);
                let (c, (a, ta)) = (c?, a?);
                let bx = self.expect(b, text, scope, locals, ta)?;
                Some(V(Expr::If(c.boxed(), a.boxed(), bx.boxed()), ta))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, text, scope, locals),
            ExprKind::Call(f, args) => self.call(f, args, loc, text, scope, locals),
        }
    }

    fn name(
        &mut self,
        n: &str,
        loc: Loc,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<Checked> {
        use Checked::Value as V;
        if let Some((_, x, t)) = locals.iter().rev().find(|(name, _, _)| name == n) {
            if !self.copy_fits(x, loc) {
                return None;
            }
            return Some(V(x.clone(), *t));
        }
        if let Some((_, var, t)) = scope.vars.iter().find(|(name, _, _)| *name == n) {
            return Some(V(Expr::Var(*var), *t));
        }
        let w = self.world;
        if let Some(def) = w.defs.iter().find(|d| d.name == n) {
            if !def.params.is_empty() {
                let d = self
                    .error(loc, format!("`{n}` takes {} argument(s)", def.params.len()))
                    .help(format!("write `{n}({})`", def.params.join(", ")));
                self.push(d);
                return None;
            }
            return self.expand(def, &[], loc, scope).map(|(x, t)| V(x, t));
        }
        if let Some((_, v)) = w.options.iter().find(|(name, _)| name == n) {
            self.used.insert(format!("option:{n}"));
            return Some(match v {
                OptionValue::Bool(b) => V(Expr::Lit(Value::Bool(*b)), Ty::Bool),
                OptionValue::Int(i) => V(Expr::Lit(Value::Int(*i)), Ty::Int),
            });
        }
        if let Some(p) = w.players.iter().position(|p| p == n).and_then(Player::new) {
            return Some(V(Expr::Lit(Value::Player(p)), Ty::Player));
        }
        if n == "nobody" {
            return Some(V(Expr::Lit(Value::Nobody), Ty::Player));
        }
        if let Some(k) = w.kinds.iter().position(|k| k == n).and_then(KindId::new) {
            return Some(V(Expr::Lit(Value::Kind(k)), Ty::Kind));
        }
        if let Some(z) = w.zones.iter().position(|(z, _)| z == n) {
            self.used.insert(format!("zone:{n}"));
            return Some(Checked::Zone(z, None));
        }
        if let Some(t) = w.tags.iter().position(|t| t == n) {
            return Some(Checked::Tag(t));
        }
        // Only values: zones and tags are not values, and have their own places (`in`, `has`)
        // with their own hints.
        let mut candidates: Vec<&str> = Vec::new();
        candidates.extend(locals.iter().map(|(n, _, _)| n.as_str()));
        candidates.extend(scope.vars.iter().map(|(n, _, _)| *n));
        candidates.extend(w.defs.iter().map(|d| d.name.as_str()));
        candidates.extend(w.options.iter().map(|(n, _)| n.as_str()));
        candidates.extend(w.players.iter().map(String::as_str));
        candidates.extend(w.kinds.iter().map(String::as_str));
        candidates.retain(|c| syntax::is_name(c));
        let vars: Vec<&str> = scope.vars.iter().map(|(n, _, _)| *n).collect();
        let elsewhere = ALL_SCOPES
            .iter()
            .filter(|s| s.vars.iter().any(|(v, _, _)| *v == n))
            .map(|s| s.what)
            .collect::<Vec<_>>();
        let help = if !elsewhere.is_empty() {
            format!(
                "`{n}` is not available in {}; it is in {}",
                scope.what,
                elsewhere.join(", ")
            )
        } else if vars.is_empty() {
            "only options, numbers and true or false can be used here".to_string()
        } else {
            let vars: Vec<String> = vars.iter().map(|v| format!("`{v}`")).collect();
            format!("in {} the variables are {}", scope.what, vars.join(", "))
        };
        let d = self
            .error(loc, format!("unknown name `{n}`"))
            .label("not defined")
            .suggest(n, candidates)
            .help_if_none(help);
        let _ = text;
        self.push(d);
        None
    }

    /// Whether a bare name means anything where it is written.
    fn resolves(&self, n: &str, scope: &Scope, locals: &Locals) -> bool {
        let w = self.world;
        locals.iter().any(|l| l.0 == n)
            || scope.vars.iter().any(|v| v.0 == n)
            || w.defs.iter().any(|d| d.name == n)
            || w.options.iter().any(|o| o.0 == n)
            || w.players.iter().any(|p| p == n)
            || w.kinds.iter().any(|k| k == n)
            || w.zones.iter().any(|z| z.0 == n)
            || w.tags.iter().any(|t| t == n)
    }

    /// Where only one sort of name fits (a kind after `is`, a tag after `has`, a zone after
    /// `in`), a bare name that means nothing is reported with hints among that sort only.
    /// Returns whether it reported.
    fn unknown_of_sort(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
        sort: Sort,
    ) -> bool {
        let ExprKind::Name(n) = &e.kind else {
            return false;
        };
        if self.resolves(n, scope, locals) {
            return false;
        }
        let w = self.world;
        let (label, plural, mut candidates): (&str, &str, Vec<&str>) = match sort {
            Sort::Kind => (
                "not a kind of piece",
                "kinds of piece",
                w.kinds.iter().map(String::as_str).collect(),
            ),
            Sort::KindOrCondition => {
                let mut c: Vec<&str> = w.kinds.iter().map(String::as_str).collect();
                c.extend(
                    w.defs
                        .iter()
                        .filter(|d| d.params.is_empty())
                        .map(|d| d.name.as_str()),
                );
                c.extend(
                    w.options
                        .iter()
                        .filter(|o| matches!(o.1, OptionValue::Bool(_)))
                        .map(|o| o.0.as_str()),
                );
                ("not a kind of piece", "kinds of piece", c)
            }
            Sort::Tag => (
                "not a tag",
                "tags",
                w.tags.iter().map(String::as_str).collect(),
            ),
            Sort::Zone => (
                "not a zone",
                "zones",
                w.zones.iter().map(|z| z.0.as_str()).collect(),
            ),
        };
        candidates.retain(|c| syntax::is_name(c));
        let listed: Vec<String> = match sort {
            Sort::KindOrCondition => w.kinds.iter().map(|k| format!("`{k}`")).collect(),
            _ => candidates.iter().map(|c| format!("`{c}`")).collect(),
        };
        let fallback = if listed.is_empty() {
            format!("this game has no {plural}")
        } else {
            format!("the {plural} are {}", listed.join(", "))
        };
        let d = self
            .error(text.loc(e.span), format!("unknown name `{n}`"))
            .label(label)
            .suggest(n, candidates)
            .help_if_none(fallback);
        self.push(d);
        true
    }

    /// Checks a hop's `over`: a kind of piece, or a condition on the piece hopped over.
    pub fn check_over(&mut self, e: &syntax::Expr, text: Text) -> Option<(Expr, Ty)> {
        if self.unknown_of_sort(e, text, &CAPTURE, &Vec::new(), Sort::KindOrCondition) {
            return None;
        }
        self.check_value(e, text, &CAPTURE)
    }

    fn field(&mut self, x: Expr, t: Ty, field: &str, loc: Loc) -> Option<Checked> {
        use Checked::Value as V;
        match (t, field) {
            (Ty::Piece, "owner") => Some(V(Expr::Owner(x.boxed()), Ty::Player)),
            (Ty::Piece, "cell") => Some(V(Expr::CellOf(x.boxed()), Ty::Cell)),
            (Ty::Piece, "kind") => Some(V(Expr::KindOf(x.boxed()), Ty::Kind)),
            (Ty::Piece, "row") => Some(V(Expr::Row(Expr::CellOf(x.boxed()).boxed()), Ty::Int)),
            (Ty::Piece, "col") => Some(V(Expr::Col(Expr::CellOf(x.boxed()).boxed()), Ty::Int)),
            (Ty::Cell, "row") => Some(V(Expr::Row(x.boxed()), Ty::Int)),
            (Ty::Cell, "col") => Some(V(Expr::Col(x.boxed()), Ty::Int)),
            (Ty::Piece, attr) if self.world.attributes.iter().any(|a| a == attr) => {
                let i = self.world.attributes.iter().position(|a| a == attr)?;
                Some(V(Expr::Attr(x.boxed(), i), Ty::Int))
            }
            (Ty::Piece, _) => {
                let mut fields = vec!["owner", "cell", "kind", "row", "col"];
                fields.extend(self.world.attributes.iter().map(String::as_str));
                let d = self
                    .error(loc, format!("a piece has no field `{field}`"))
                    .label("unknown field")
                    .suggest(field, fields.iter().copied())
                    .help_if_none(format!("a piece's fields are {}", fields.join(", ")));
                self.push(d);
                None
            }
            (Ty::Cell, _) => {
                let d = self
                    .error(loc, format!("a cell has no field `{field}`"))
                    .suggest(field, ["row", "col"])
                    .help_if_none("a cell's fields are row and col".into());
                self.push(d);
                None
            }
            (t, _) => {
                let d = self.error(loc, format!("{} has no fields", cap(t.words())));
                self.push(d);
                None
            }
        }
    }

    fn binary(
        &mut self,
        op: syntax::BinOp,
        a: &syntax::Expr,
        b: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<Checked> {
        use Checked::Value as V;
        use syntax::BinOp as S;
        match op {
            S::In => {
                let lhs = self.expect(a, text, scope, locals, Ty::Cell);
                if self.unknown_of_sort(b, text, scope, locals, Sort::Zone) {
                    return None;
                }
                let rhs = self.any(b, text, scope, locals);
                let (lhs, rhs) = (lhs?, rhs?);
                match rhs {
                    Checked::Zone(z, owner) => Some(V(
                        Expr::In(lhs.boxed(), z, owner.map(Expr::boxed)),
                        Ty::Bool,
                    )),
                    _ => {
                        let d = self
                            .error(text.loc(b.span), "expected a zone after `in`")
                            .suggest_zone(self.world);
                        self.push(d);
                        None
                    }
                }
            }
            S::Is => {
                let lhs = self.expect(a, text, scope, locals, Ty::Piece);
                if self.unknown_of_sort(b, text, scope, locals, Sort::Kind) {
                    return None;
                }
                let rhs = self.any(b, text, scope, locals);
                let (lhs, rhs) = (lhs?, rhs?);
                match rhs {
                    Checked::Value(Expr::Lit(Value::Kind(k)), _) => {
                        Some(V(Expr::Is(lhs.boxed(), k), Ty::Bool))
                    }
                    Checked::Value(x, Ty::Kind) => Some(V(
                        Expr::Bin(BinOp::Eq, Expr::KindOf(lhs.boxed()).boxed(), x.boxed()),
                        Ty::Bool,
                    )),
                    _ => {
                        let d = self
                            .error(text.loc(b.span), "expected a kind of piece after `is`")
                            .suggest(&b_text(b), self.world.kinds.iter().map(String::as_str));
                        self.push(d);
                        None
                    }
                }
            }
            S::Has => {
                let lhs = self.expect(a, text, scope, locals, Ty::Piece);
                if self.unknown_of_sort(b, text, scope, locals, Sort::Tag) {
                    return None;
                }
                let rhs = self.any(b, text, scope, locals);
                let (lhs, rhs) = (lhs?, rhs?);
                match rhs {
                    Checked::Tag(t) => {
                        self.used.insert(format!("tag:{}", self.world.tags[t]));
                        Some(V(Expr::Has(lhs.boxed(), t), Ty::Bool))
                    }
                    _ => {
                        let d = self
                            .error(text.loc(b.span), "expected a tag after `has`")
                            .help(format!(
                                "the tags given to pieces are: {}",
                                if self.world.tags.is_empty() {
                                    "none".to_string()
                                } else {
                                    self.world.tags.join(", ")
                                }
                            ));
                        self.push(d);
                        None
                    }
                }
            }
            S::And | S::Or => {
                let x = self.expect(a, text, scope, locals, Ty::Bool);
                let y = self.expect(b, text, scope, locals, Ty::Bool);
                let k = if op == S::And { BinOp::And } else { BinOp::Or };
                Some(V(Expr::Bin(k, x?.boxed(), y?.boxed()), Ty::Bool))
            }
            S::Eq | S::Ne => {
                let x = self.value(a, text, scope, locals);
                let y = self.value(b, text, scope, locals);
                let ((x, tx), (y, ty)) = (x?, y?);
                let (x, y) = match (tx, ty) {
                    _ if tx == ty => (x, y),
                    (Ty::Piece, Ty::Player) => (Expr::Owner(x.boxed()), y),
                    (Ty::Player, Ty::Piece) => (x, Expr::Owner(y.boxed())),
                    _ => {
                        let d = self.error(
                            text.loc(a.span.join(b.span)),
                            format!("cannot compare {} with {}", tx.words(), ty.words()),
                        );
                        self.push(d);
                        return None;
                    }
                };
                let k = if op == S::Eq { BinOp::Eq } else { BinOp::Ne };
                Some(V(Expr::Bin(k, x.boxed(), y.boxed()), Ty::Bool))
            }
            _ => {
                let x = self.expect(a, text, scope, locals, Ty::Int);
                let y = self.expect(b, text, scope, locals, Ty::Int);
                let (x, y) = (x?, y?);
                let (k, t) = match op {
                    S::Lt => (BinOp::Lt, Ty::Bool),
                    S::Le => (BinOp::Le, Ty::Bool),
                    S::Gt => (BinOp::Gt, Ty::Bool),
                    S::Ge => (BinOp::Ge, Ty::Bool),
                    S::Add => (BinOp::Add, Ty::Int),
                    S::Sub => (BinOp::Sub, Ty::Int),
                    S::Mul => (BinOp::Mul, Ty::Int),
                    S::Div => (BinOp::Div, Ty::Int),
                    _ => (BinOp::Rem, Ty::Int),
                };
                Some(V(Expr::Bin(k, x.boxed(), y.boxed()), t))
            }
        }
    }

    fn call(
        &mut self,
        f: &syntax::Name,
        args: &[syntax::Expr],
        loc: Loc,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<Checked> {
        use Checked::Value as V;
        let w = self.world;
        let name = f.text.as_str();
        let floc = text.loc(f.span);
        let arity = |this: &mut Self, n: usize| -> bool {
            if args.len() != n {
                let d = this.error(
                    loc,
                    format!("`{name}` takes {n} argument(s), not {}", args.len()),
                );
                this.push(d);
                false
            } else {
                true
            }
        };
        if let Some(def) = w.defs.iter().find(|d| d.name == name) {
            if !arity(self, def.params.len()) {
                return None;
            }
            let mut checked = Vec::new();
            for a in args {
                checked.push(self.value(a, text, scope, locals));
            }
            let checked: Option<Vec<(Expr, Ty)>> = checked.into_iter().collect();
            return self
                .expand(def, &checked?, loc, scope)
                .map(|(x, t)| V(x, t));
        }
        if let Some(z) = w.zones.iter().position(|(n, _)| n == name) {
            self.used.insert(format!("zone:{name}"));
            if !w.zones[z].1 {
                let d = self
                    .error(floc, format!("zone `{name}` has no owners"))
                    .help(format!("write `{name}` without an argument"));
                self.push(d);
                return None;
            }
            if !arity(self, 1) {
                return None;
            }
            let p = self.expect(&args[0], text, scope, locals, Ty::Player)?;
            return Some(Checked::Zone(z, Some(p)));
        }
        if let Some(b) = builtins::find(name) {
            let (least, most) = b.args;
            if args.len() < least || args.len() > most {
                let n = if least == most {
                    format!("{least} argument(s)")
                } else {
                    format!("{least} to {most} arguments")
                };
                let d = self.error(loc, format!("`{name}` takes {n}, not {}", args.len()));
                self.push(d);
                return None;
            }
            let call = builtins::Call {
                name,
                args,
                loc,
                floc,
                text,
                scope,
                locals,
            };
            return (b.check)(self, &call);
        }
        let mut candidates: Vec<&str> = builtins::BUILTINS.iter().map(|b| b.name).collect();
        candidates.extend(w.defs.iter().map(|d| d.name.as_str()));
        candidates.extend(w.zones.iter().filter(|z| z.1).map(|z| z.0.as_str()));
        candidates.retain(|c| syntax::is_name(c));
        let d = self
            .error(floc, format!("unknown function `{name}`"))
            .label("not defined")
            .suggest(name, candidates);
        self.push(d);
        None
    }

    /// A compass direction word (`n`, `se`, ...) or, unless `one`, a set (`orthogonal`,
    /// `all`): the directions are the board's, the same for both players.
    fn compass(&mut self, e: &syntax::Expr, text: Text, one: bool) -> Option<DirSet> {
        let words = crate::read::compass_words();
        let found = match &e.kind {
            ExprKind::Name(n) => crate::read::compass(n),
            _ => None,
        };
        match found {
            Some(d) if !one || d.0.count_ones() == 1 => Some(d),
            _ => {
                let what = if one {
                    "a compass direction (n, ne, e, se, s, sw, w, nw)"
                } else {
                    "compass directions (n, ne, ..., orthogonal, diagonal or all)"
                };
                let d = self
                    .error(text.loc(e.span), format!("expected {what}"))
                    .suggest(&b_text(e), words)
                    .help_if_none(
                        "relative directions (forward, left...) are not available here".into(),
                    );
                self.push(d);
                None
            }
        }
    }

    fn kind_literal(
        &mut self,
        e: &syntax::Expr,
        text: Text,
        scope: &Scope,
        locals: &Locals,
    ) -> Option<KindId> {
        match self.value(e, text, scope, locals)? {
            (Expr::Lit(Value::Kind(k)), _) => Some(k),
            _ => {
                let d = self
                    .error(text.loc(e.span), "expected the name of a kind of piece")
                    .suggest(&b_text(e), self.world.kinds.iter().map(String::as_str));
                self.push(d);
                None
            }
        }
    }

    fn expand(
        &mut self,
        def: &Definition,
        args: &[(Expr, Ty)],
        loc: Loc,
        scope: &Scope,
    ) -> Option<(Expr, Ty)> {
        self.used.insert(format!("def:{}", def.name));
        if self.stack.iter().any(|s| s.0 == def.name) {
            let names: Vec<String> = self.stack.iter().map(|s| s.0.clone()).collect();
            let d = self
                .error(loc, format!("definition `{}` uses itself", def.name))
                .help(format!(
                    "definitions are expanded where they are used: {} -> {}",
                    names.join(" -> "),
                    def.name
                ));
            self.push(d);
            return None;
        }
        let body = def.body.as_ref()?;
        let locals: Locals = def
            .params
            .iter()
            .zip(args)
            .map(|(p, (x, t))| (p.clone(), x.clone(), *t))
            .collect();
        self.stack.push((def.name.clone(), loc));
        let before = self.diags.len();
        let r = self.value(body, def.text, scope, &locals);
        self.stack.pop();
        if self.diags.len() > before && self.stack.is_empty() {
            // Point the problem in the definition back to the use that triggered it.
            for d in &mut self.diags[before..] {
                if d.help.is_none() {
                    d.help = Some(format!("while expanding `{}` in {}", def.name, scope.what));
                }
            }
        }
        r
    }

    /// Checks every definition body on its own, with its parameters unknown, only to report
    /// syntax-independent name errors once; uses are checked at expansion.
    pub fn definition_used(&self, name: &str) -> bool {
        self.used.contains(&format!("def:{name}"))
    }
}

impl Diagnostic {
    fn suggest_zone(self, world: &World) -> Diagnostic {
        let zones: Vec<String> = world.zones.iter().map(|z| format!("`{}`", z.0)).collect();
        if zones.is_empty() {
            self.help("this game defines no zones")
        } else {
            self.help(format!("the zones are {}", zones.join(", ")))
        }
    }
}

fn b_text(e: &syntax::Expr) -> String {
    match &e.kind {
        ExprKind::Name(n) => n.clone(),
        _ => String::new(),
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The most parts an expression may have once its definitions are expanded. Each use of a
/// parameter copies its argument, so nested calls can grow an expression exponentially;
/// this bound keeps loading fast and small.
pub const MAX_EXPR_NODES: usize = 100_000;

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
fn expr_size(e: &Expr, cap: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;

    fn world() -> World {
        World {
            players: vec!["A".into(), "B".into()],
            kinds: vec!["Stone".into()],
            zones: vec![("water".into(), false), ("home".into(), true)],
            tags: vec!["swimmer".into()],
            attributes: vec!["rank".into()],
            options: vec![("deep".into(), OptionValue::Int(3))],
            defs: Vec::new(),
        }
    }

    fn text() -> Text {
        Text {
            whole: Loc::default(),
            base: Some(0),
        }
    }

    /// Checks `src` as a truth value of an enter rule: the expression, or the messages.
    fn check(src: &str) -> Result<Expr, Vec<String>> {
        let w = world();
        let mut c = Checker::new(&w);
        let e = syntax::parse_expr(src).expect("parses");
        c.check(&e, text(), &ENTER, Ty::Bool)
            .ok_or_else(|| c.diags.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn a_piece_stands_for_its_cell_and_its_owner() {
        let e = check("mover in water and home(mover) == home(mover) or mover == A").unwrap_err();
        // Zones are not values, even owned ones with an argument.
        assert!(e[0].contains("not a value"), "{e:?}");
        assert!(matches!(
            check("mover in water").unwrap(),
            Expr::In(ref x, 0, None) if matches!(**x, Expr::CellOf(_))
        ));
        assert!(matches!(
            check("mover == A").unwrap(),
            Expr::Bin(BinOp::Eq, ref x, _) if matches!(**x, Expr::Owner(_))
        ));
    }

    #[test]
    fn options_are_folded_and_marked_used() {
        let w = world();
        let mut c = Checker::new(&w);
        let e = syntax::parse_expr("mover.rank < deep").unwrap();
        let x = c.check(&e, text(), &ENTER, Ty::Bool).unwrap();
        assert!(matches!(x, Expr::Bin(BinOp::Lt, _, ref d) if **d == Expr::Lit(Value::Int(3))));
        assert!(c.used.contains("option:deep"));
    }

    #[test]
    fn types_and_scopes_are_checked() {
        assert_eq!(
            check("mover.rank").unwrap_err(),
            ["An enter rule must be true or false, but this is a number"]
        );
        assert_eq!(
            check("target.rank > 0").unwrap_err(),
            ["unknown name `target`"]
        );
        assert_eq!(
            check("no_moves(A)").unwrap_err(),
            ["`no_moves` cannot be used in an enter rule"]
        );
        assert_eq!(
            check("mover has water").unwrap_err(),
            ["expected a tag after `has`"]
        );
    }

    #[test]
    fn compiled_depth_is_measured_without_recursion() {
        let mut x = Expr::Lit(Value::Int(1));
        for _ in 0..10 {
            x = Expr::Neg(x.boxed());
        }
        assert_eq!(expr_depth(&x), 11);
        assert_eq!(expr_size(&x, 5), 5);
    }
}
