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
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// The largest pack file read, in bytes: a larger file (or text) is refused before it is
/// read whole, so that no file (`/dev/zero`, a pasted pack) can exhaust memory.
pub const MAX_PACK_BYTES: usize = 1 << 20;

/// Why a pack of `len` bytes is refused, if it is.
pub(crate) fn too_large(len: usize) -> Option<String> {
    (len > MAX_PACK_BYTES).then(|| {
        format!(
            "it is larger than the limit of {MAX_PACK_BYTES} bytes for a pack (`MAX_PACK_BYTES`)"
        )
    })
}

/// Reads the pack file at `path`: a regular file of at most [`MAX_PACK_BYTES`] bytes, in
/// UTF-8. The error says why not, in words that follow "cannot read pack `...`: ".
pub(crate) fn read_pack_file(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is not a regular file".to_string());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    // One byte more than the limit, to know that there is more without reading it all.
    file.take(MAX_PACK_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if let Some(why) = too_large(bytes.len()) {
        return Err(why);
    }
    String::from_utf8(bytes).map_err(|_| "it is not text in UTF-8".to_string())
}

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
    let text = match read_pack_file(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(
                Diagnostic::error(from, format!("cannot read pack `{display}`: {e}"))
                    .label("this file"),
            );
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
const SWITCHABLE: [(&[&str], &str); 5] = [
    (&["rules", "enter"], "[rules.enter]"),
    (&["rules", "capture"], "[rules.capture]"),
    (&["rules", "place"], "[rules.place]"),
    (&["rules", "after"], "[rules.after]"),
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
