//! Calls: of a definition (expanded in place, its parameters bound to the checked
//! arguments), of an owned zone, or of a builtin function (looked up in `builtins`). Its own
//! file because expansion is where an expression can grow, and where its growth is bounded.

use super::{Checked, Checker, Definition, Locals, Scope, Text, Ty, b_text, builtins};
use crate::diag::Loc;
use crate::syntax::{self, ExprKind};
use ply_kernel::expr::{Expr, Value};
use ply_kernel::{DirSet, KindId};

impl Checker<'_> {
    pub(super) fn call(
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
    pub(super) fn compass(&mut self, e: &syntax::Expr, text: Text, one: bool) -> Option<DirSet> {
        let words = crate::read::compass_words();
        // A sum of words (`orthogonal + nw + se`) is the union of their directions.
        fn words_of(e: &syntax::Expr) -> Option<DirSet> {
            match &e.kind {
                ExprKind::Name(n) => crate::read::compass(n),
                ExprKind::Binary(syntax::BinOp::Add, a, b) => {
                    Some(DirSet(words_of(a)?.0 | words_of(b)?.0))
                }
                _ => None,
            }
        }
        let found = words_of(e);
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

    pub(super) fn kind_literal(
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

    pub(super) fn expand(
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
}
