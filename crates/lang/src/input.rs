//! File input: reading a pack's file, following `extends` to the packs it builds on, and
//! laying each variant over its base.
//!
//! This is the only stage that touches the file system. It gives the readers one merged
//! tree in which every value still knows the file and bytes it came from, so that a problem
//! found later in an inherited value points into the base pack. A variant's `NAME = false`
//! is applied here, where both the base and the variant are still known, so that a name the
//! base does not have can be reported with the names it does have.

use crate::diag::{Diagnostic, Loc, Sources};
use crate::tree::{self, Table, Value};
use std::path::{Path, PathBuf};

/// Reads the pack at `path` (shown as `display`) and the packs it extends, into one tree;
/// `from` is the `extends` that named it, `stack` the files being read, to find cycles.
pub(crate) fn read_tree(
    path: &Path,
    display: String,
    from: Option<Loc>,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    stack: &mut Vec<PathBuf>,
) -> Option<Table> {
    let canonical = match std::fs::canonicalize(path) {
        Ok(c) => c,
        Err(e) => {
            diags.push(
                Diagnostic::error(from, format!("cannot read pack `{display}`: {e}"))
                    .label("this file"),
            );
            return None;
        }
    };
    if stack.contains(&canonical) {
        let chain: Vec<String> = stack
            .iter()
            .chain([&canonical])
            .map(|p| {
                p.file_name()
                    .map_or(String::new(), |f| f.to_string_lossy().into_owned())
            })
            .collect();
        diags.push(
            Diagnostic::error(
                from,
                format!("`extends` makes a cycle: {}", chain.join(" -> ")),
            )
            .label("extended again here"),
        );
        return None;
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(Diagnostic::error(
                from,
                format!("cannot read pack `{display}`: {e}"),
            ));
            return None;
        }
    };
    let file = sources.add(display, text.clone());
    let table = tree::parse(file, &text, diags)?;
    stack.push(canonical);
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let out = extend(table, &dir, sources, diags, stack);
    stack.pop();
    out
}

/// Applies the `extends` of `table`, if any, with paths relative to `dir`.
pub(crate) fn extend(
    mut table: Table,
    dir: &Path,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    stack: &mut Vec<PathBuf>,
) -> Option<Table> {
    let Some(ext) = table.entries.shift_remove("extends") else {
        return Some(table);
    };
    let Value::Str(rel) = &ext.node.value else {
        diags.push(Diagnostic::error(
            Some(ext.node.loc),
            "`extends` must be a file name, as in `extends = \"base.toml\"`",
        ));
        return None;
    };
    let path = dir.join(rel);
    let display = path.display().to_string();
    let mut base = read_tree(&path, display, Some(ext.node.loc), sources, diags, stack)?;
    switch_off(&mut base, &mut table, diags);
    tree::merge(&mut base, table);
    Some(base)
}

/// The tables whose entries are rules, which `NAME = false` switches off, with their names
/// for messages.
const SWITCHABLE: [(&[&str], &str); 4] = [
    (&["rules", "enter"], "[rules.enter]"),
    (&["rules", "capture"], "[rules.capture]"),
    (&["rules", "place"], "[rules.place]"),
    (&["end"], "[end]"),
];

fn table_at<'t>(t: &'t mut Table, path: &[&str]) -> Option<&'t mut Table> {
    let mut t = t;
    for key in path {
        match &mut t.entries.get_mut(*key)?.node.value {
            Value::Table(inner) => t = inner,
            _ => return None,
        }
    }
    Some(t)
}

/// Applies the `NAME = false` of a variant: the inherited rule is removed from the base, and
/// a name the base does not have is an error (it would otherwise leave the rule meant on).
pub(crate) fn switch_off(base: &mut Table, over: &mut Table, diags: &mut Vec<Diagnostic>) {
    for (path, what) in SWITCHABLE {
        let Some(over_t) = table_at(over, path) else {
            continue;
        };
        let offs: Vec<String> = over_t
            .entries
            .iter()
            .filter(|(_, e)| matches!(e.node.value, Value::Bool(false)))
            .map(|(k, _)| k.clone())
            .collect();
        if offs.is_empty() {
            continue;
        }
        let mut base_t = table_at(base, path);
        for name in offs {
            let Some(entry) = over_t.entries.shift_remove(&name) else {
                continue;
            };
            let inherited = |t: &Table| -> Vec<String> {
                t.entries
                    .iter()
                    .filter(|(_, e)| !matches!(e.node.value, Value::Bool(false)))
                    .map(|(k, _)| k.clone())
                    .collect()
            };
            let names = base_t.as_deref().map(inherited).unwrap_or_default();
            if names.contains(&name) {
                if let Some(t) = base_t.as_deref_mut() {
                    t.entries.shift_remove(&name);
                }
                continue;
            }
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            diags.push(
                Diagnostic::error(
                    Some(entry.key_loc),
                    format!("there is no inherited rule `{name}` in {what} to switch off"),
                )
                .label("no such rule")
                .suggest(&name, names.iter().map(String::as_str))
                .help_if_none(if listed.is_empty() {
                    format!("the pack this one extends has no rules in {what}")
                } else {
                    format!("the inherited rules of {what} are {}", listed.join(", "))
                }),
            );
        }
    }
}
