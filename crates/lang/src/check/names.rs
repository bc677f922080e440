//! Names: the world they resolve in (players, kinds, zones, tags, options, definitions) and
//! the lookup of a bare name, with the hints for one that means nothing. Its own file because
//! the order of lookup and the "did you mean" hints are one concern.

use super::{ALL_SCOPES, CAPTURE, Checked, Checker, Locals, Scope, Text, Ty};
use crate::diag::Loc;
use crate::syntax::{self, ExprKind};
use ply_kernel::expr::{Expr, Value, Var};
use ply_kernel::{KindId, Player};

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
    /// Whether the pack has turns of several moves (`[turn]`): `turn_moves` and
    /// `moved_this_turn` need them.
    pub turns: bool,
}

/// The sort of name a place accepts, for hints.
#[derive(Copy, Clone)]
pub(super) enum Sort {
    Kind,
    KindOrCondition,
    Tag,
    Zone,
}

impl Checker<'_> {
    /// Whether the pack has turns of several moves, which `what` (used at `loc`) reads;
    /// reported when it has not.
    pub(super) fn needs_turns(&mut self, what: &str, loc: Loc) -> bool {
        if self.world.turns {
            return true;
        }
        let d = self
            .error(
                loc,
                format!("`{what}` reads the moves of a turn, and this pack's turns have one move"),
            )
            .help("give turns more moves with a `[turn]` section: `moves = 2`");
        self.push(d);
        false
    }

    pub(super) fn name(
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
            if *var == Var::TurnMoves && !self.needs_turns(n, loc) {
                return None;
            }
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
    pub(super) fn resolves(&self, n: &str, scope: &Scope, locals: &Locals) -> bool {
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
    pub(super) fn unknown_of_sort(
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
}
