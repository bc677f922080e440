//! The reader's state and the small helpers every section reader uses: typed access to TOML
//! values with a diagnostic for each wrong type, and the parsing of expressions with their
//! locations mapped into the file.

use crate::check::Text;
use crate::diag::{Diagnostic, Loc, Sources};
use crate::locs::Locs;
use crate::syntax;
use crate::tree::{self, Node, Table, Value};

/// Reads one merged tree; collects every problem instead of stopping at the first.
pub(crate) struct Reader<'s> {
    /// The files read, to map expression text to file locations.
    pub(crate) sources: &'s Sources,
    /// Problems found so far.
    pub(crate) diags: Vec<Diagnostic>,
    /// Where each part of the spec came from.
    pub(crate) locs: Locs,
    /// The board's rows and columns, once read.
    pub(crate) board_size: (usize, usize),
    /// What `[eval]` declares, evaluated once the rules are compiled.
    pub(crate) eval: Option<super::EvalSpec>,
    /// What `[display]` asks for.
    pub(crate) display: super::Display,
}

impl<'s> Reader<'s> {
    /// A reader of the files in `sources`.
    pub(crate) fn new(sources: &'s Sources) -> Reader<'s> {
        Reader {
            sources,
            diags: Vec::new(),
            locs: Locs::default(),
            board_size: (ply_kernel::MAX_ROWS, ply_kernel::MAX_COLS),
            eval: None,
            display: super::Display::default(),
        }
    }
}

impl Reader<'_> {
    pub(super) fn err(&mut self, loc: Loc, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(Some(loc), message));
    }

    /// A `NAME = false` still there once `extends` is applied switches off nothing: it is in
    /// a pack without `extends` (a variant's are applied, or reported, as it is merged).
    pub(super) fn nothing_to_switch_off(&mut self, name: &str, loc: Loc, what: &str) {
        self.diags.push(
            Diagnostic::error(
                Some(loc),
                format!("there is no rule `{name}` in {what} to switch off"),
            )
            .label("no such rule")
            .help(format!(
                "`{name} = false` switches off a rule inherited with `extends`, and this pack extends no pack that has one; to write a rule, give an expression"
            )),
        );
    }

    pub(super) fn table<'t>(&mut self, node: &'t Node, what: &str) -> Option<&'t Table> {
        match &node.value {
            Value::Table(t) => Some(t),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be a table, not {}", other.type_name()),
                );
                None
            }
        }
    }

    pub(super) fn str<'t>(&mut self, node: &'t Node, what: &str) -> Option<&'t str> {
        match &node.value {
            Value::Str(s) => Some(s),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be a string, not {}", other.type_name()),
                );
                None
            }
        }
    }

    /// A boolean key of a table, false when absent (a wrong type is reported).
    pub(super) fn flag(&mut self, t: &Table, key: &str) -> bool {
        match t.get(key) {
            Some(Node {
                value: Value::Bool(b),
                ..
            }) => *b,
            Some(n) => {
                let what = n.value.type_name();
                self.err(n.loc, format!("`{key}` is true or false, not {what}"));
                false
            }
            None => false,
        }
    }

    pub(super) fn int(&mut self, node: &Node, what: &str) -> Option<i64> {
        match &node.value {
            Value::Int(i) => Some(*i),
            other => {
                self.err(
                    node.loc,
                    format!("{what} must be an integer, not {}", other.type_name()),
                );
                None
            }
        }
    }

    pub(super) fn text_of(&self, node: &Node) -> Text {
        let base = self
            .sources
            .get(node.loc.file)
            .and_then(|f| tree::content_offset(&f.text, node));
        Text {
            whole: node.loc,
            base,
        }
    }

    pub(super) fn parse_expr(&mut self, node: &Node, what: &str) -> Option<(syntax::Expr, Text)> {
        let s = self.str(node, what)?;
        let text = self.text_of(node);
        match syntax::parse_expr(s) {
            Ok(e) => Some((e, text)),
            Err(e) => {
                let message = if e.message == syntax::too_deep_message() {
                    e.message.clone()
                } else {
                    format!("syntax error in {what}: {}", e.message)
                };
                let mut d = Diagnostic::error(Some(text.loc(e.span)), message)
                    .label(e.label.unwrap_or(e.message));
                if let Some(h) = e.help {
                    d = d.help(h);
                }
                self.diags.push(d);
                None
            }
        }
    }

    /// Reports `name` where it is declared if it cannot be used in expressions.
    pub(super) fn check_name(&mut self, name: &str, loc: Loc, what: &str) {
        if let Some((message, help)) = syntax::bad_name(name, what) {
            self.diags.push(
                Diagnostic::error(Some(loc), message)
                    .label("not a usable name")
                    .help(help),
            );
        }
    }

    pub(super) fn string_items(&mut self, node: &Node, what: &str) -> Vec<(String, Loc)> {
        match &node.value {
            Value::Array(items) => items
                .iter()
                .filter_map(|i| self.str(i, what).map(|s| (s.to_string(), i.loc)))
                .collect(),
            other => {
                self.err(
                    node.loc,
                    format!(
                        "{what} must be an array of strings, not {}",
                        other.type_name()
                    ),
                );
                Vec::new()
            }
        }
    }
}

impl Reader<'_> {
    /// A top-level table of the pack, or an empty one when absent (a wrong type is reported).
    pub(super) fn section(&mut self, top: &Table, key: &str) -> Table {
        match top.get(key) {
            Some(n) => self
                .table(n, &format!("[{key}]"))
                .cloned()
                .unwrap_or_default(),
            None => Table::default(),
        }
    }
}
