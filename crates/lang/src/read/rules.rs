//! `[rules.enter]`, `[rules.capture]`, `[rules.place]`, `[rules.after]`: named conditions, in
//! order.

use super::reader::Reader;
use crate::check::{Checker, Scope, Ty};
use crate::diag::Loc;
use crate::tree::{Table, Value};
use ply_kernel::spec::NamedRule;

impl Reader<'_> {
    /// The rules of `[rules.KEY]`, checked in `scope`, with the location of each kept.
    pub(super) fn rule_list(
        &mut self,
        rules: &Table,
        key: &str,
        scope: &Scope,
        checker: &mut Checker,
    ) -> (Vec<NamedRule>, Vec<Loc>) {
        let mut out = Vec::new();
        let mut locs = Vec::new();
        let Some(n) = rules.get(key) else {
            return (out, locs);
        };
        let Some(t) = self.table(n, &format!("[rules.{key}]")) else {
            return (out, locs);
        };
        for (rname, e) in &t.entries {
            if matches!(e.node.value, Value::Bool(false)) {
                self.nothing_to_switch_off(rname, e.key_loc, &format!("[rules.{key}]"));
                continue;
            }
            let Some((ast, text)) = self.parse_expr(&e.node, &format!("rule `{rname}`")) else {
                continue;
            };
            if let Some(expr) = checker.check(&ast, text, scope, Ty::Bool) {
                locs.push(e.node.loc);
                out.push(NamedRule::new(rname.clone(), expr));
            }
        }
        (out, locs)
    }
}
