//! `[options.*]`: named constants the caller may set. They are read first, since every
//! expression may use them, and are folded into the rules as literals.
use super::reader::Reader;
use crate::check::OptionValue;
use crate::diag::Diagnostic;
use crate::options::{OptionArg, Options};
use crate::tree::{Node, Table, Value};

/// A declared option, with the value in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Name.
    pub name: String,
    /// The value in force (the default unless set by the caller).
    pub value: OptionValue,
    /// The default.
    pub default: OptionValue,
    /// What it does.
    pub doc: String,
}

impl Reader<'_> {
    pub(super) fn options(&mut self, t: &Table, set: &Options) -> Vec<OptionInfo> {
        let mut out = Vec::new();
        for (name, e) in &t.entries {
            self.check_name(name, e.key_loc, "an option");
            let Some(o) = self.table(&e.node, &format!("[options.{name}]")) else {
                continue;
            };
            o.check_keys(
                &format!("[options.{name}]"),
                &["type", "default", "doc"],
                &|_| false,
                &mut self.diags,
            );
            let ty = o
                .get("type")
                .and_then(|n| self.str(n, "an option's type"))
                .unwrap_or("bool")
                .to_string();
            let default = match (ty.as_str(), o.get("default")) {
                (
                    "bool",
                    Some(Node {
                        value: Value::Bool(b),
                        ..
                    }),
                ) => OptionValue::Bool(*b),
                (
                    "int",
                    Some(Node {
                        value: Value::Int(i),
                        ..
                    }),
                ) => OptionValue::Int(*i),
                ("bool" | "int", Some(n)) => {
                    self.err(
                        n.loc,
                        format!(
                            "the default of option `{name}` must be {}",
                            if ty == "bool" {
                                "true or false"
                            } else {
                                "an integer"
                            }
                        ),
                    );
                    continue;
                }
                ("bool" | "int", None) => {
                    self.err(e.key_loc, format!("option `{name}` has no `default`"));
                    continue;
                }
                (other, _) => {
                    let loc = o.get("type").map_or(e.key_loc, |n| n.loc);
                    self.diags.push(
                        Diagnostic::error(Some(loc), format!("unknown option type `{other}`"))
                            .help("an option's type is \"bool\" or \"int\""),
                    );
                    continue;
                }
            };
            let doc = o
                .get("doc")
                .and_then(|n| self.str(n, "`doc`"))
                .unwrap_or("")
                .to_string();
            out.push(OptionInfo {
                name: name.clone(),
                value: default,
                default,
                doc,
            });
        }
        for (name, value) in set.iter() {
            let Some(o) = out.iter_mut().find(|o| o.name == name) else {
                let names: Vec<&str> = t.entries.keys().map(String::as_str).collect();
                let d = Diagnostic::error(None, format!("unknown option `{name}`"))
                    .suggest(name, names.iter().copied())
                    .help_if_none(if names.is_empty() {
                        "this pack declares no options".into()
                    } else {
                        format!("the options are: {}", names.join(", "))
                    });
                self.diags.push(d);
                continue;
            };
            let parsed = match (o.default, value) {
                (OptionValue::Bool(_), OptionArg::Text(t)) => t.parse().ok().map(OptionValue::Bool),
                (OptionValue::Int(_), OptionArg::Text(t)) => t.parse().ok().map(OptionValue::Int),
                (OptionValue::Bool(_), OptionArg::Value(v @ OptionValue::Bool(_)))
                | (OptionValue::Int(_), OptionArg::Value(v @ OptionValue::Int(_))) => Some(*v),
                (_, OptionArg::Value(_)) => None,
            };
            match parsed {
                Some(v) => o.value = v,
                None => self.diags.push(Diagnostic::error(
                    None,
                    format!(
                        "option `{name}` is {}, so `{value}` is not a value for it",
                        if matches!(o.default, OptionValue::Bool(_)) {
                            "true or false"
                        } else {
                            "an integer"
                        }
                    ),
                )),
            }
        }
        out
    }
}
