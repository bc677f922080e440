//! Writing the resolved pack back out: the merged tree, `extends` applied, each option's
//! default replaced by the value in force. `ply show --resolved` prints it; loading it again
//! gives the same rules, which is what makes it a faithful record of what was played.

use crate::check::OptionValue;
use crate::read::OptionInfo;
use crate::tree::{Node, Table, Value};

/// The pack as TOML, with `extends` applied and the options' values in force as defaults.
pub(crate) fn resolved_toml(tree: &Table, options: &[OptionInfo]) -> String {
    fn to_toml(n: &Node) -> toml::Value {
        match &n.value {
            Value::Str(s) => toml::Value::String(s.clone()),
            Value::Int(i) => toml::Value::Integer(*i),
            Value::Float(f) => toml::Value::Float(*f),
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Array(a) => toml::Value::Array(a.iter().map(to_toml).collect()),
            Value::Table(t) => toml::Value::Table(table(t)),
            Value::Datetime => toml::Value::String(String::new()),
        }
    }
    fn table(t: &Table) -> toml::Table {
        t.entries
            .iter()
            .map(|(k, e)| (k.clone(), to_toml(&e.node)))
            .collect()
    }
    let mut out = table(tree);
    if let Some(toml::Value::Table(opts)) = out.get_mut("options") {
        for o in options {
            if let Some(toml::Value::Table(t)) = opts.get_mut(&o.name) {
                let v = match o.value {
                    OptionValue::Bool(b) => toml::Value::Boolean(b),
                    OptionValue::Int(i) => toml::Value::Integer(i),
                };
                t.insert("default".into(), v);
            }
        }
    }
    toml::to_string(&out).unwrap_or_default()
}
