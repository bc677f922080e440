//! `[define]`: named expressions, with or without parameters. Their bodies are only parsed
//! here; the checker expands them where they are used, in the scope of each use.

use super::reader::Reader;
use crate::check::Definition;
use crate::diag::Diagnostic;
use crate::syntax;
use crate::tree::Table;

impl Reader<'_> {
    /// The definitions of `[define]`, each with its parsed body.
    pub(super) fn definitions(&mut self, define: &Table) -> Vec<Definition> {
        let mut defs = Vec::new();
        for (head, e) in &define.entries {
            let key_loc = e.key_loc;
            // Names a person would recognise as wrong get their own words; pest's are for
            // the rest.
            let (name, params) = match head.split_once('(') {
                Some((n, rest)) => (n.trim(), rest.trim_end().strip_suffix(')').unwrap_or(rest)),
                None => (head.trim(), ""),
            };
            let bad = syntax::bad_name(name, "a definition").or_else(|| {
                params
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .find_map(|p| syntax::bad_name(p, "a parameter"))
            });
            if let Some((message, help)) = bad {
                self.diags.push(
                    Diagnostic::error(Some(key_loc), message)
                        .label("not a usable name")
                        .help(help),
                );
                continue;
            }
            let parsed = match syntax::parse_definition(head) {
                Ok(h) => h,
                Err(err) => {
                    self.diags.push(
                        Diagnostic::error(
                            Some(key_loc),
                            format!("bad definition name `{head}`: {}", err.message),
                        )
                        .help("write `name = '...'` or `\"name(a, b)\" = '...'`"),
                    );
                    continue;
                }
            };
            let body = self.parse_expr(&e.node, &format!("definition `{}`", parsed.name.text));
            let text = body.as_ref().map_or(self.text_of(&e.node), |b| b.1);
            defs.push(Definition {
                name: parsed.name.text,
                params: parsed.params.into_iter().map(|p| p.text).collect(),
                body: body.map(|b| b.0),
                text,
            });
        }
        defs
    }
}
