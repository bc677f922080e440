//! Loading a pack from text that nobody vouches for (pasted into a web page): its `extends`
//! may only name a pack of one folder, by its bare file name, and so may the packs it reaches
//! that way. Nothing else of the file system is read, and a name that is not in the folder
//! is reported without saying anything about what is outside it.

use crate::diag::{Diagnostic, LoadError, Sources};
use crate::input;
use crate::options::Options;
use crate::pack::{Pack, finish};
use crate::tree::{self, Table, Value};
use std::path::Path;

/// The longest chain of `extends` a confined load follows.
pub const MAX_EXTENDS_DEPTH: usize = 8;

/// Whether `name` is a bare pack file name: letters, digits, `_` and `-`, then `.toml`.
fn is_bare_pack_file(name: &str) -> bool {
    name.strip_suffix(".toml").is_some_and(|stem| {
        !stem.is_empty()
            && stem.len() <= 64
            && stem
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    })
}

/// Loads a pack from `text` (shown as `name` in messages), its `extends` resolved only among
/// the files directly in `folder`, by bare file name (`extends = "base.toml"`). A path, a
/// name with `..` or a separator, a link out of the folder, or a chain of more than
/// [`MAX_EXTENDS_DEPTH`] packs is an error of the pack, located at its `extends`.
pub fn load_str_confined(
    name: &str,
    text: &str,
    options: &Options,
    folder: &Path,
) -> Result<Pack, LoadError> {
    let mut sources = Sources::default();
    let mut diags = Vec::new();
    if let Some(why) = input::too_large(text.len()) {
        diags.push(Diagnostic::error(
            None,
            format!("cannot read pack `{name}`: {why}"),
        ));
        return finish(None, options, sources, diags);
    }
    let file = sources.add(name, text);
    let tree = tree::parse(file, text, &mut diags)
        .and_then(|t| extend_within(t, folder, &mut sources, &mut diags, &mut Vec::new()));
    finish(tree, options, sources, diags)
}

fn extend_within(
    mut table: Table,
    folder: &Path,
    sources: &mut Sources,
    diags: &mut Vec<Diagnostic>,
    stack: &mut Vec<String>,
) -> Option<Table> {
    let Some(ext) = table.entries.shift_remove("extends") else {
        return Some(table);
    };
    let loc = Some(ext.node.loc);
    let Value::Str(rel) = &ext.node.value else {
        diags.push(Diagnostic::error(
            loc,
            "`extends` must be a file name, as in `extends = \"base.toml\"`",
        ));
        return None;
    };
    if !is_bare_pack_file(rel) {
        diags.push(
            Diagnostic::error(
                loc,
                format!("`extends = \"{rel}\"` is not the file name of a pack of this server"),
            )
            .label("not a bare pack file name")
            .help(
                "here a pack may only extend a pack of the server's own folder, by its file \
                 name (letters, digits, `_` and `-`, then `.toml`), as in \"base.toml\"",
            ),
        );
        return None;
    }
    if stack.contains(rel) || stack.len() >= MAX_EXTENDS_DEPTH {
        diags.push(
            Diagnostic::error(
                loc,
                format!(
                    "`extends` makes a cycle or a chain longer than {MAX_EXTENDS_DEPTH}: {} -> {rel}",
                    stack.join(" -> ")
                ),
            )
            .label("extended again here"),
        );
        return None;
    }
    let path = folder.join(rel);
    let inside = match (std::fs::canonicalize(&path), std::fs::canonicalize(folder)) {
        (Ok(file), Ok(dir)) => file.parent() == Some(dir.as_path()) && file.is_file(),
        _ => false,
    };
    let text = match inside.then(|| input::read_pack_file(&path)) {
        Some(Ok(text)) => Some(text),
        Some(Err(why)) => {
            diags.push(
                Diagnostic::error(loc, format!("cannot read pack `{rel}`: {why}"))
                    .label("this file"),
            );
            return None;
        }
        None => None,
    };
    let Some(text) = text else {
        diags.push(
            Diagnostic::error(
                loc,
                format!("there is no pack `{rel}` in the server's folder"),
            )
            .label("no such pack")
            .help("the packs that may be extended are the ones the server offers"),
        );
        return None;
    };
    let file = sources.add(rel.clone(), text.clone());
    let base = tree::parse(file, &text, diags)?;
    stack.push(rel.clone());
    let base = extend_within(base, folder, sources, diags, stack);
    stack.pop();
    let mut base = base?;
    input::switch_off(&mut base, &mut table, diags);
    tree::merge(&mut base, table);
    Some(base)
}
