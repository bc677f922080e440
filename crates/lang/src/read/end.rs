//! `[end.*]`: when the game ends, and who wins.

use super::reader::Reader;
use crate::check::{Checker, END, Ty, WINNER};
use crate::tree::{Table, Value};
use ply_kernel::spec::{EndResult, EndSpec};

impl Reader<'_> {
    /// The end rules, in order.
    pub(super) fn end_rules(&mut self, end_t: &Table, checker: &mut Checker) -> Vec<EndSpec> {
        let mut end = Vec::new();
        for (ename, e) in &end_t.entries {
            if matches!(e.node.value, Value::Bool(false)) {
                self.nothing_to_switch_off(ename, e.key_loc, "[end]");
                continue;
            }
            let Some(t) = self.table(&e.node, &format!("[end.{ename}]")) else {
                continue;
            };
            t.check_keys(
                &format!("[end.{ename}]"),
                &["when", "winner", "draw", "doc"],
                &|_| false,
                &mut self.diags,
            );
            let Some(when_node) = t.get("when") else {
                self.err(e.key_loc, format!("end rule `{ename}` has no `when`"));
                continue;
            };
            let when = self
                .parse_expr(when_node, &format!("end rule `{ename}`"))
                .and_then(|(ast, text)| checker.check(&ast, text, &END, Ty::Bool));
            let result = match (t.get("winner"), t.get("draw")) {
                (Some(w), None) => self
                    .parse_expr(w, &format!("the winner of `{ename}`"))
                    .and_then(|(ast, text)| checker.check(&ast, text, &WINNER, Ty::Player))
                    .map(EndResult::Winner),
                (None, Some(d)) if matches!(d.value, Value::Bool(true)) => Some(EndResult::Draw),
                _ => {
                    self.err(
                        e.key_loc,
                        format!(
                            "end rule `{ename}` needs either `winner = '...'` or `draw = true`"
                        ),
                    );
                    None
                }
            };
            if let (Some(when), Some(result)) = (when, result) {
                self.locs.end.push(when_node.loc);
                self.locs
                    .winner
                    .push(t.get("winner").map_or(e.key_loc, |w| w.loc));
                end.push(EndSpec::new(ename.clone(), when, result));
            }
        }
        end
    }
}
