//! A spanned TOML tree of our own, so that packs from several files can be merged (`extends`)
//! while every value remembers the file and bytes it came from.

use crate::diag::{Diagnostic, Loc};
use indexmap::IndexMap;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A TOML value with its location.
#[derive(Clone, Debug)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where the value is written.
    pub loc: Loc,
}

/// A TOML value.
#[derive(Clone, Debug)]
pub enum Value {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// An array.
    Array(Vec<Node>),
    /// A table.
    Table(Table),
    /// A date or time (never meaningful in a pack).
    Datetime,
}

impl Value {
    /// The TOML type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
            Value::Datetime => "a date",
        }
    }
}

/// A table entry: the key's location and the value.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where the key is written.
    pub key_loc: Loc,
    /// The value.
    pub node: Node,
}

/// A table, in source order.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// The entries.
    pub entries: IndexMap<String, Entry>,
}

impl Table {
    /// The value of a key.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries.get(key).map(|e| &e.node)
    }

    /// Reports every key not in `allowed` (nor accepted by `extra`), with a suggestion.
    pub fn check_keys(
        &self,
        what: &str,
        allowed: &[&str],
        extra: &dyn Fn(&str) -> bool,
        diags: &mut Vec<Diagnostic>,
    ) {
        for (k, e) in &self.entries {
            if !allowed.contains(&k.as_str()) && !extra(k) {
                let d = Diagnostic::error(Some(e.key_loc), format!("unknown key `{k}` in {what}"))
                    .label("not expected here");
                let d = if k == "extends" {
                    d.help("`extends` is a top-level key: move it to the top of the file, before any [table]")
                } else {
                    d.suggest(k, allowed.iter().copied())
                        .help_if_none(format!("expected one of: {}", allowed.join(", ")))
                };
                diags.push(d);
            }
        }
    }
}

impl Diagnostic {
    /// Adds a hint unless one is there already.
    #[must_use]
    pub fn help_if_none(self, help: String) -> Diagnostic {
        if self.help.is_some() {
            self
        } else {
            self.help(help)
        }
    }
}

/// Parses a TOML file into a tree, reporting every syntax error.
pub fn parse(file: usize, text: &str, diags: &mut Vec<Diagnostic>) -> Option<Table> {
    let (doc, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        // After the first syntax error the parser's recovery mostly reports echoes of it.
        let more = errors.len() - 1;
        if let Some(e) = errors.into_iter().next() {
            let loc = e.span().map(|r| Loc {
                file,
                start: r.start,
                end: r.end.max(r.start),
            });
            let mut d =
                Diagnostic::error(loc, format!("TOML syntax error: {}", e.message().trim()))
                    .label("here");
            if more > 0 {
                d = d.help(format!("{more} more syntax error(s) follow; they often disappear once this one is fixed"));
            }
            diags.push(d);
        }
        return None;
    }
    Some(table(file, doc.into_inner()))
}

fn table(file: usize, t: DeTable<'_>) -> Table {
    let mut entries = IndexMap::new();
    for (k, v) in t {
        let key_span = k.span();
        entries.insert(
            k.into_inner().into_owned(),
            Entry {
                key_loc: Loc {
                    file,
                    start: key_span.start,
                    end: key_span.end,
                },
                node: node(file, v),
            },
        );
    }
    Table { entries }
}

fn node(file: usize, v: Spanned<DeValue<'_>>) -> Node {
    let span = v.span();
    let loc = Loc {
        file,
        start: span.start,
        end: span.end,
    };
    let value = match v.into_inner() {
        DeValue::String(s) => Value::Str(s.into_owned()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Value::Int(n),
            Err(_) => Value::Float(f64::NAN),
        },
        DeValue::Float(f) => Value::Float(f.as_str().parse().unwrap_or(f64::NAN)),
        DeValue::Boolean(b) => Value::Bool(b),
        DeValue::Datetime(_) => Value::Datetime,
        DeValue::Array(a) => Value::Array(a.into_iter().map(|x| node(file, x)).collect()),
        DeValue::Table(t) => Value::Table(table(file, t)),
    };
    Node { value, loc }
}

/// Lays `over` on top of `base`: tables merge key by key, anything else is replaced. A table
/// of `over` with `replace = true` replaces the inherited table whole instead of merging.
pub fn merge(base: &mut Table, over: Table) {
    for (k, mut e) in over.entries {
        let replace = match &mut e.node.value {
            Value::Table(t) => matches!(
                t.entries.shift_remove("replace").map(|r| r.node.value),
                Some(Value::Bool(true))
            ),
            _ => false,
        };
        match (base.entries.get_mut(&k), e.node.value) {
            (Some(b), Value::Table(t)) if !replace && matches!(b.node.value, Value::Table(_)) => {
                if let Value::Table(bt) = &mut b.node.value {
                    merge(bt, t);
                }
            }
            (slot, value) => {
                let entry = Entry {
                    key_loc: e.key_loc,
                    node: Node {
                        value,
                        loc: e.node.loc,
                    },
                };
                match slot {
                    Some(b) => *b = entry,
                    None => {
                        base.entries.insert(k, entry);
                    }
                }
            }
        }
    }
}

/// Where the characters of a string value start in the file, so that a position inside the
/// string maps to a position in the file. `None` when the written form differs from the value
/// (escape sequences), in which case messages point at the whole string.
pub fn content_offset(source: &str, node: &Node) -> Option<usize> {
    let Value::Str(value) = &node.value else {
        return None;
    };
    let raw = source.get(node.loc.start..node.loc.end)?;
    for quote in ["'''", "\"\"\"", "'", "\""] {
        if let Some(inner) = raw.strip_prefix(quote).and_then(|r| r.strip_suffix(quote)) {
            let mut start = node.loc.start + quote.len();
            let mut inner = inner;
            if quote.len() == 3 {
                if let Some(rest) = inner.strip_prefix("\r\n") {
                    inner = rest;
                    start += 2;
                } else if let Some(rest) = inner.strip_prefix('\n') {
                    inner = rest;
                    start += 1;
                }
            }
            return (inner == value).then_some(start);
        }
    }
    None
}
