//! Operators and fields: `in`, `is`, `has`, comparisons, arithmetic and `.field`, each
//! checked for the types it takes. Its own file because these rules are the type system.

use super::{Checked, Checker, Locals, Scope, Sort, Text, Ty, b_text, cap};
use crate::diag::Loc;
use crate::syntax;
use ply_kernel::expr::{BinOp, Expr, Value};

impl Checker<'_> {
    pub(super) fn field(&mut self, x: Expr, t: Ty, field: &str, loc: Loc) -> Option<Checked> {
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

    pub(super) fn binary(
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
}
