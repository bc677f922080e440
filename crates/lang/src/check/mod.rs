//! Name resolution and type checking: from the parsed AST to the kernel's [`Expr`].
//!
//! Each place an expression may appear has a [`Scope`]: the variables bound there and the
//! functions allowed (`no_moves` only in end rules, `placed` only in place rules). Names are
//! looked up in this order: definition parameters, scope variables, definitions, options,
//! players, piece kinds, zones, tags. A name that is none of these gets a "did you mean"
//! among all names visible. Options are constants: they are folded in here, so the kernel never
//! sees them. Definitions are expanded inline at each use, with their parameters bound to the
//! checked arguments; a definition that uses itself is reported.
//!
//! One concern a file: the scopes and types (`scope`), names and the world they resolve in
//! (`names`), operators and fields (`operators`), calls and definitions expanded
//! (`calls`), the builtin functions as a table (`builtins`), and the measures of a
//! compiled expression that keep it bounded (`size`). This file holds the checker itself:
//! its state and the walk over the tree.

use crate::diag::{Diagnostic, Loc};
use crate::syntax::{self, ExprKind, MAX_EXPR_DEPTH, UnOp, too_deep_message};
use ply_kernel::KindId;
use ply_kernel::expr::{Expr, Value};
use std::collections::HashSet;

mod builtins;
mod calls;
mod names;
mod operators;
mod scope;
mod size;

use names::Sort;
pub use names::{Definition, OptionValue, World};
pub use scope::*;
pub(crate) use size::expr_size;
pub use size::{MAX_EXPR_NODES, MAX_PACK_NODES, expr_depth};

/// The builtin functions of the expression language: each one's name and how a call of it is
/// written (`count(PLAYER, KIND)`), in the order the guide lists them.
pub fn builtin_functions() -> impl Iterator<Item = (&'static str, &'static str)> {
    builtins::BUILTINS.iter().map(|b| (b.name, b.usage))
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
    /// Nodes built so far by this checker in all the expressions it checked: the pack's
    /// compile budget ([`MAX_PACK_NODES`]).
    total: usize,
    /// Whether the pack's compile budget was crossed (and reported): nothing more is checked.
    spent: bool,
    /// Whether the expression being checked was already reported as too deep or too large.
    too_big: bool,
    /// The whole expression being checked, where "too large" is reported.
    top: Loc,
    /// Names of zones, options, definitions and tags that some expression used.
    pub used: HashSet<String>,
}

type Locals = Vec<(String, Expr, Ty)>;

impl<'a> Checker<'a> {
    /// A checker for this world.
    pub fn new(world: &'a World) -> Checker<'a> {
        Checker {
            world,
            diags: Vec::new(),
            stack: Vec::new(),
            depth: 0,
            copied: 0,
            total: 0,
            spent: false,
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
            let shown = chain(&names);
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
        let n = expr_size(x, MAX_EXPR_NODES + 1);
        if !self.spend(n) {
            return false;
        }
        self.copied += n;
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

    /// Counts `n` parts built against the pack's compile budget; `false` (reported once, at
    /// the expression being checked) past it.
    fn spend(&mut self, n: usize) -> bool {
        if self.spent {
            return false;
        }
        self.total = self.total.saturating_add(n);
        if self.total <= MAX_PACK_NODES {
            return true;
        }
        self.spent = true;
        self.too_big = true;
        let d = Diagnostic::error(
            Some(self.top),
            format!(
                "the pack's expressions grow too large in all once their definitions are expanded; the compile budget is {MAX_PACK_NODES} parts"
            ),
        )
        .label("the budget runs out here")
        .help("every use of a definition is a copy of it: use large definitions in fewer places");
        self.push(d);
        false
    }

    /// Counts one node of the expression being built against its size limit
    /// ([`MAX_EXPR_NODES`]) and the pack's budget; `false` (reported once) past either. A
    /// definition is expanded at each use, so a definition that uses another twice doubles:
    /// counting as they are built refuses such a pack after [`MAX_EXPR_NODES`] steps, not
    /// after `2^levels`.
    fn grow(&mut self) -> bool {
        if !self.spend(1) {
            return false;
        }
        self.copied += 1;
        if self.copied <= MAX_EXPR_NODES {
            return true;
        }
        if !self.too_big {
            self.too_big = true;
            let names: Vec<&str> = self.stack.iter().map(|s| s.0.as_str()).collect();
            let help = if names.is_empty() {
                "write it in smaller parts".to_string()
            } else {
                format!(
                    "definitions are expanded where they are used, so each use is a copy: {}; use large definitions in fewer places",
                    chain(&names)
                )
            };
            let at = self.top;
            self.push(
                Diagnostic::error(
                    Some(at),
                    format!("this expression grows too large when its definitions are expanded; the limit is {MAX_EXPR_NODES} parts"),
                )
                .label("too large")
                .help(help),
            );
        }
        false
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
        if self.too_big || !self.grow() {
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

/// A chain of definitions being expanded, `a -> b -> c`, shortened in the middle when long.
fn chain(names: &[&str]) -> String {
    if names.len() > 6 {
        format!(
            "{} -> ... -> {}",
            names[..3].join(" -> "),
            names[names.len() - 2..].join(" -> ")
        )
    } else {
        names.join(" -> ")
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;
    use ply_kernel::expr::BinOp;

    fn world() -> World {
        World {
            players: vec!["A".into(), "B".into()],
            kinds: vec!["Stone".into()],
            zones: vec![("water".into(), false), ("home".into(), true)],
            tags: vec!["swimmer".into()],
            attributes: vec!["rank".into()],
            options: vec![("deep".into(), OptionValue::Int(3))],
            defs: Vec::new(),
            turns: false,
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
